//! Each stage as JSON, written by hand (the crate has no dependencies):
//! states, start, accepting states and transitions with their bytes as
//! `[lo, hi]`; the rounds as their partitions; the classes as their ranges.

use std::fmt::Write as _;

use super::graph::dfa_dead;
use crate::byte_range::runs;
use crate::minimize::{block_count, refinement};
use crate::walk::{Transitions, shortest_input, shortest_paths};
use crate::{ByteRange, Derivation, Dfa};

/// A JSON string: quotes, backslashes and control characters escaped.
pub(crate) fn string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn list<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    format!("[{}]", items.join(", "))
}

fn range(range: ByteRange) -> String {
    format!("[{}, {}]", range.start(), range.end())
}

/// `"transitions": [{"from": 0, "to": 1, "bytes": [0, 127]}, …]`: one entry
/// per run of bytes with one target, the dead state's included.
fn transitions(automaton: &impl Transitions) -> String {
    let mut entries = Vec::new();
    for state in 0..automaton.states() {
        for (bytes, target) in runs(&automaton.targets(state as u32)) {
            entries.push(format!(
                "    {{\"from\": {state}, \"to\": {target}, \"bytes\": {}}}",
                range(bytes)
            ));
        }
    }
    format!("[\n{}\n  ]", entries.join(",\n"))
}

fn object(fields: &[(&str, String)]) -> String {
    let fields: Vec<String> = fields
        .iter()
        .map(|(key, value)| format!("  {}: {value}", string(key)))
        .collect();
    format!("{{\n{}\n}}\n", fields.join(",\n"))
}

fn inputs(automaton: &impl Transitions) -> String {
    let paths = shortest_paths(automaton);
    let inputs = paths.iter().map(|path| {
        path.as_deref()
            .map_or("null".to_owned(), |p| list(shortest_input(p)))
    });
    list(inputs)
}

pub(crate) fn grammar(derivation: &Derivation) -> String {
    let rules: Vec<String> = derivation
        .grammar()
        .rules()
        .iter()
        .map(|rule| {
            format!(
                "    {{\"name\": {}, \"definition\": {}, \"core\": {}}}",
                string(&rule.name),
                string(&rule.definition().to_string()),
                rule.core
            )
        })
        .collect();
    object(&[
        ("stage", string("grammar")),
        ("start_rule", string(derivation.start_rule())),
        ("rules", format!("[\n{}\n  ]", rules.join(",\n"))),
    ])
}

pub(crate) fn nfa(derivation: &Derivation) -> String {
    let nfa = derivation.nfa();
    let mut moves = Vec::new();
    let mut epsilon = Vec::new();
    for (from, state) in nfa.states().iter().enumerate() {
        for &(bytes, to) in &state.transitions {
            moves.push(format!(
                "    {{\"from\": {from}, \"to\": {to}, \"bytes\": {}}}",
                range(bytes)
            ));
        }
        for &to in &state.epsilon {
            epsilon.push(format!("    {{\"from\": {from}, \"to\": {to}}}"));
        }
    }
    object(&[
        ("stage", string("nfa")),
        ("states", nfa.states().len().to_string()),
        ("start", nfa.start().to_string()),
        ("accepting", list([nfa.accept()])),
        ("transitions", format!("[\n{}\n  ]", moves.join(",\n"))),
        ("epsilon", format!("[\n{}\n  ]", epsilon.join(",\n"))),
    ])
}

fn accepting(count: usize, accepts: impl Fn(u32) -> bool) -> String {
    list((0..count as u32).filter(|&s| accepts(s)))
}

fn dead(dfa: &Dfa) -> String {
    dfa_dead(dfa).map_or("null".to_owned(), |d| d.to_string())
}

pub(crate) fn dfa(derivation: &Derivation) -> String {
    let dfa = derivation.dfa();
    let sets = (0..dfa.state_count() as u32).map(|s| list(dfa.nfa_states(s).iter()));
    object(&[
        ("stage", string("dfa")),
        ("states", dfa.state_count().to_string()),
        ("start", dfa.start().to_string()),
        (
            "accepting",
            accepting(dfa.state_count(), |s| dfa.is_accepting(s)),
        ),
        ("dead", dead(dfa)),
        ("nfa_states", list(sets)),
        ("shortest_inputs", inputs(dfa)),
        ("transitions", transitions(dfa)),
    ])
}

/// The partitions as lists of blocks, each block the DFA states in it.
pub(crate) fn rounds(derivation: &Derivation) -> String {
    let dfa = derivation.dfa();
    let partitions = refinement(dfa);
    let written: Vec<String> = partitions
        .iter()
        .map(|partition| {
            let blocks = (0..block_count(partition) as u32)
                .map(|block| list((0..partition.len()).filter(|&s| partition[s] == block)));
            format!("    {}", list(blocks))
        })
        .collect();
    object(&[
        ("stage", string("rounds")),
        ("dfa_states", dfa.state_count().to_string()),
        ("rounds", (partitions.len() - 1).to_string()),
        ("partitions", format!("[\n{}\n  ]", written.join(",\n"))),
    ])
}

pub(crate) fn minimal(derivation: &Derivation) -> String {
    let minimal = derivation.minimal_dfa();
    let count = minimal.state_count();
    let names = super::super::state_names(derivation.tables());
    let merged = (0..count as u32).map(|s| list(minimal.merged_from(s).iter()));
    object(&[
        ("stage", string("minimal")),
        ("states", count.to_string()),
        ("start", minimal.start().to_string()),
        ("accepting", accepting(count, |s| minimal.is_accepting(s))),
        ("dead", minimal.dead().to_string()),
        ("names", list(names.iter().map(|n| string(n)))),
        ("merged_from", list(merged)),
        ("shortest_inputs", inputs(minimal)),
        ("transitions", transitions(minimal)),
    ])
}

pub(crate) fn classes(derivation: &Derivation) -> String {
    let classes = derivation.classes();
    let ranges = classes
        .ids()
        .map(|c| list(classes.ranges(c).into_iter().map(range)));
    object(&[
        ("stage", string("classes")),
        ("classes", classes.count().to_string()),
        ("ranges", list(ranges)),
        ("byte_classes", list(classes.map().iter())),
    ])
}
