//! The minimal automaton drawn: Mermaid and Graphviz sources, edges
//! labelled by byte ranges, the dead state left out.

use std::fmt::Write as _;

use super::names::{ranges_text, row, state_names};
use crate::byte_range::runs;
use crate::{ByteRange, Tables};

/// The edges of the drawing: for every live state, each state it can move
/// to with the bytes that lead there, in the order of the bytes.
pub(crate) fn edges(tables: &Tables) -> Vec<(u8, u8, Vec<ByteRange>)> {
    let dead = tables.dead();
    let mut edges: Vec<(u8, u8, Vec<ByteRange>)> = Vec::new();
    for state in tables.states().filter(|&s| s != dead) {
        let first = edges.len();
        for (range, target) in runs(&row(tables, state)) {
            if target == dead {
                continue;
            }
            match edges[first..].iter_mut().find(|(_, t, _)| *t == target) {
                Some((_, _, ranges)) => ranges.push(range),
                None => edges.push((state, target, vec![range])),
            }
        }
    }
    edges
}

/// Double quotes would end a label early in both Mermaid and DOT.
fn label(name: &str) -> String {
    name.replace('"', "'")
}

/// A Mermaid `stateDiagram-v2` of the automaton: `[*]` marks the start and
/// the accepting states, every edge carries its byte ranges.
pub fn mermaid(tables: &Tables) -> String {
    let names = state_names(tables);
    let dead = tables.dead();
    let mut out = String::from("stateDiagram-v2\n    direction LR\n");
    for state in tables.states().filter(|&s| s != dead) {
        let _ = writeln!(
            out,
            "    state \"{}\" as s{state}",
            label(&names[state as usize])
        );
    }
    let _ = writeln!(out, "    [*] --> s{}", tables.start());
    for state in tables.accepting_states() {
        let _ = writeln!(out, "    s{state} --> [*]");
    }
    for (from, to, ranges) in edges(tables) {
        let _ = writeln!(out, "    s{from} --> s{to}: {}", ranges_text(&ranges));
    }
    out
}

/// A Graphviz `digraph` of the automaton: accepting states drawn with a
/// double circle, the start marked by an arrow from a point.
pub fn dot(tables: &Tables) -> String {
    let names = state_names(tables);
    let dead = tables.dead();
    let mut out = String::from(
        "digraph automaton {\n    rankdir=LR;\n    node [shape=ellipse];\n    entry [shape=point, label=\"\"];\n",
    );
    for state in tables.states().filter(|&s| s != dead) {
        let shape = if tables.accepting()[state as usize] {
            ", shape=doublecircle"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "    s{state} [label=\"{}\"{shape}];",
            label(&names[state as usize])
        );
    }
    let _ = writeln!(out, "    entry -> s{};", tables.start());
    for (from, to, ranges) in edges(tables) {
        let _ = writeln!(
            out,
            "    s{from} -> s{to} [label=\"{}\"];",
            ranges_text(&ranges)
        );
    }
    out.push_str("}\n");
    out
}
