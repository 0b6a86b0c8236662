//! Mermaid of a stage: a `flowchart`, and for the rounds one subgraph a
//! round, its states filled by block.

use std::fmt::Write as _;

use super::graph::{Graph, block_colour};

/// Mermaid reads quotes and angle brackets in a label as its own syntax;
/// its entity codes keep them text.
fn label(text: &str) -> String {
    text.replace('"', "#quot;")
        .replace('<', "#lt;")
        .replace('>', "#gt;")
}

/// `graphs` as one `flowchart LR`: a single graph as it is, several as
/// subgraphs whose state ids carry the subgraph's prefix (`r2_s5`).
pub(crate) fn mermaid(graphs: &[Graph]) -> String {
    let mut out = String::from("flowchart LR\n");
    for note in graphs.iter().flat_map(|g| &g.notes).take(1) {
        let _ = writeln!(out, "    %% {note}");
    }
    out.push_str("    classDef accepting stroke-width:4px\n");
    let mut blocks: Vec<u32> = graphs
        .iter()
        .flat_map(|g| g.nodes.iter().filter_map(|n| n.block))
        .collect();
    blocks.sort_unstable();
    blocks.dedup();
    for block in blocks {
        let _ = writeln!(out, "    classDef b{block} fill:{}", block_colour(block));
    }
    if let [graph] = graphs {
        panel(&mut out, graph, "", "    ");
    } else {
        for (round, graph) in graphs.iter().enumerate() {
            let _ = writeln!(out, "    subgraph r{round} [\"{}\"]", label(&graph.title));
            panel(&mut out, graph, &format!("r{round}_"), "        ");
            let _ = writeln!(out, "    end");
        }
    }
    out
}

fn panel(out: &mut String, graph: &Graph, prefix: &str, indent: &str) {
    let _ = writeln!(out, "{indent}{prefix}entry[start]");
    for (id, node) in graph.nodes.iter().enumerate() {
        // A circle for a bare number, a rounded box for a caption.
        let shape = if node.caption.is_empty() {
            format!("((\"{id}\"))")
        } else {
            format!("(\"{id}: {}\")", label(&node.caption))
        };
        let class = if node.accepting { ":::accepting" } else { "" };
        let _ = writeln!(out, "{indent}{prefix}s{id}{shape}{class}");
        if let Some(block) = node.block {
            let _ = writeln!(out, "{indent}class {prefix}s{id} b{block}");
        }
    }
    let _ = writeln!(out, "{indent}{prefix}entry --> {prefix}s{}", graph.start);
    for edge in &graph.edges {
        let arrow = if edge.epsilon { "-.->" } else { "-->" };
        let _ = writeln!(
            out,
            "{indent}{prefix}s{} {arrow}|\"{}\"| {prefix}s{}",
            edge.from,
            label(&edge.label),
            edge.to
        );
    }
}
