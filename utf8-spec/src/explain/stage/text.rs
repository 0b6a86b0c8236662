//! Each stage as text or Markdown: a heading, what the stage did, and its
//! table; the automata one row a state, with its moves.

use super::graph::{Graph, dfa_graph, minimal_graph, nfa_graph};
use crate::Derivation;
use crate::explain::report::{classes_section, grammar_section, input_text};
use crate::explain::writer::{Writer, count};
use crate::minimize::{block_count, refinement};
use crate::walk::shortest_paths;

pub(crate) fn grammar(w: &mut Writer, derivation: &Derivation) {
    w.heading(1, &format!("The grammar of `{}`", derivation.start_rule()));
    grammar_section(w, derivation);
}

pub(crate) fn classes(w: &mut Writer, derivation: &Derivation) {
    w.heading(1, "The byte classes");
    classes_section(w, derivation.classes());
}

pub(crate) fn nfa(w: &mut Writer, derivation: &Derivation) {
    let nfa = derivation.nfa();
    let epsilon_moves: usize = nfa.states().iter().map(|s| s.epsilon.len()).sum();
    w.heading(1, "Thompson's construction: the NFA");
    w.paragraph(&format!(
        "{}, {} and {}; state {} starts and state {} accepts.",
        count(nfa.states().len(), "state", "states"),
        count(
            nfa.transition_count(),
            "byte-range transition",
            "byte-range transitions"
        ),
        count(epsilon_moves, "ε-move", "ε-moves"),
        nfa.start(),
        nfa.accept()
    ));
    automaton_table(w, &nfa_graph(nfa), None);
}

pub(crate) fn dfa(w: &mut Writer, derivation: &Derivation) {
    let graph = dfa_graph(derivation.dfa());
    w.heading(1, "Subset construction: the DFA");
    let mut text = format!(
        "{}, each the set of NFA states the input can be in, captioned with the \
         shortest input that reaches it.",
        count(graph.nodes.len(), "state", "states")
    );
    for note in &graph.notes {
        text.push(' ');
        text.push_str(note);
    }
    w.paragraph(&text);
    automaton_table(w, &graph, Some("NFA states, after the shortest input"));
}

pub(crate) fn minimal(w: &mut Writer, derivation: &Derivation) {
    let graph = minimal_graph(derivation);
    w.heading(1, "Moore's refinement: the minimal DFA");
    let mut text = format!("{}.", count(graph.nodes.len(), "state", "states"));
    for note in &graph.notes {
        text.push(' ');
        text.push_str(note);
    }
    w.paragraph(&text);
    automaton_table(w, &graph, Some("name"));
}

/// One row a state: its number (the start marked), whether it accepts, its
/// caption, and its moves as `%x80-BF → 4; ε → 7`.
fn automaton_table(w: &mut Writer, graph: &Graph, caption: Option<&str>) {
    let rows: Vec<Vec<String>> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(id, node)| {
            let moves: Vec<String> = graph
                .edges
                .iter()
                .filter(|e| e.from == id)
                .map(|e| format!("{} → {}", e.label, e.to))
                .collect();
            let mut row = vec![
                if id == graph.start {
                    format!("{id} (start)")
                } else {
                    id.to_string()
                },
                if node.accepting { "yes" } else { "" }.to_owned(),
            ];
            if caption.is_some() {
                row.push(node.caption.clone());
            }
            row.push(moves.join("; "));
            row
        })
        .collect();
    let mut header = vec!["state", "accepts"];
    header.extend(caption);
    header.push("moves");
    w.table(&header, &rows);
}

/// Moore's rounds as a table: a row per DFA state, a column per round, the
/// state's block in each cell.
pub(crate) fn rounds(w: &mut Writer, derivation: &Derivation) {
    let dfa = derivation.dfa();
    let partitions = refinement(dfa);
    let counts: Vec<String> = partitions
        .iter()
        .map(|p| block_count(p).to_string())
        .collect();
    w.heading(1, "Moore's refinement, round by round");
    w.paragraph(&format!(
        "Column 0 splits the {} DFA states into accepting and not; each round then splits \
         every block whose members disagree on which block some byte leads to. Blocks after \
         each: {}. The last round changes nothing: its blocks are the states of the minimal \
         DFA. Each cell is the state's block, blocks numbered by their first state.",
        dfa.state_count(),
        counts.join(", ")
    ));
    let paths = shortest_paths(dfa);
    let rows: Vec<Vec<String>> = (0..dfa.state_count())
        .map(|state| {
            let mut row = vec![state.to_string(), input_text(&paths[state])];
            row.extend(partitions.iter().map(|p| p[state].to_string()));
            row
        })
        .collect();
    let rounds: Vec<String> = (0..partitions.len()).map(|r| r.to_string()).collect();
    let mut header = vec!["DFA state", "shortest input"];
    header.extend(rounds.iter().map(String::as_str));
    w.table(&header, &rows);
}
