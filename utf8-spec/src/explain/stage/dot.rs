//! Graphviz DOT of a stage: one `digraph`, and for the rounds one cluster a
//! round, its states filled by block.

use std::fmt::Write as _;

use super::graph::{Graph, block_colour};

/// Double quotes and backslashes would end or escape a DOT string.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `graphs` as one `digraph` named `name`: a single graph as it is, several
/// as clusters whose state ids carry the cluster's prefix (`r2_s5`).
pub(crate) fn dot(name: &str, graphs: &[Graph]) -> String {
    let mut out = format!(
        "digraph {name} {{\n    rankdir=LR;\n    node [shape=circle, fontname=\"sans-serif\"];\n    \
         edge [fontname=\"monospace\", fontsize=10];\n"
    );
    for note in graphs.iter().flat_map(|g| &g.notes).take(1) {
        let _ = writeln!(out, "    // {note}");
    }
    if let [graph] = graphs {
        panel(&mut out, graph, "", "    ");
    } else {
        for (round, graph) in graphs.iter().enumerate() {
            let _ = writeln!(out, "    subgraph cluster_r{round} {{");
            let _ = writeln!(out, "        label={};", quoted(&graph.title));
            panel(&mut out, graph, &format!("r{round}_"), "        ");
            let _ = writeln!(out, "    }}");
        }
    }
    out.push_str("}\n");
    out
}

fn panel(out: &mut String, graph: &Graph, prefix: &str, indent: &str) {
    let _ = writeln!(out, "{indent}{prefix}entry [shape=point, label=\"\"];");
    for (id, node) in graph.nodes.iter().enumerate() {
        let mut attributes = vec![format!("label=\"{id}\"")];
        if node.accepting {
            attributes.push("shape=doublecircle".to_owned());
        }
        if !node.caption.is_empty() {
            attributes.push(format!("xlabel={}", quoted(&node.caption)));
        }
        if let Some(block) = node.block {
            attributes.push(format!(
                "style=filled, fillcolor={}",
                quoted(&block_colour(block))
            ));
        }
        let _ = writeln!(out, "{indent}{prefix}s{id} [{}];", attributes.join(", "));
    }
    let _ = writeln!(out, "{indent}{prefix}entry -> {prefix}s{};", graph.start);
    for edge in &graph.edges {
        let style = if edge.epsilon { ", style=dashed" } else { "" };
        let _ = writeln!(
            out,
            "{indent}{prefix}s{} -> {prefix}s{} [label={}{style}];",
            edge.from,
            edge.to,
            quoted(&edge.label)
        );
    }
}
