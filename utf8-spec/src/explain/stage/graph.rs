//! The stages that are automata, as one shape of graph for every drawing:
//! numbered states with a caption, edges labelled with byte ranges the way
//! the ABNF writes them (`%x80-BF / %xC2`), ε-moves marked.

use crate::byte_range::runs;
use crate::explain::report::input_text;
use crate::explain::state_names;
use crate::minimize::block_count;
use crate::nfa::Nfa;
use crate::walk::{Transitions, shortest_paths};
use crate::{ByteRange, Derivation, Dfa};

/// One state of a drawing; its index in [`Graph::nodes`] is its number.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// What the state stands for, printed in the legend (and by Mermaid and
    /// DOT beside it).
    pub caption: String,
    /// The short name the SVG prints beside the state: the minimal DFA's
    /// state name, the DFA's shortest input; empty for the NFA's numbers.
    pub name: String,
    pub accepting: bool,
    /// The block of a round of Moore's refinement, which colours the state.
    pub block: Option<u32>,
}

/// One edge: every byte range from `from` to `to`, or an ε-move.
#[derive(Clone, Debug)]
pub(crate) struct Edge {
    pub from: usize,
    pub to: usize,
    pub label: String,
    pub epsilon: bool,
}

/// A drawing of one automaton, or of one round of the refinement.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    pub title: String,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub start: usize,
    /// Lines for the legend: what is left out, what the marks mean.
    pub notes: Vec<String>,
    /// The dead state, whose edges are left out, and the note that says so
    /// (one of `notes`): the SVG sets it apart with its note beside it.
    pub dead: Option<(usize, String)>,
}

/// `%x80-BF / %xC2`: ranges as the ABNF writes an alternation of them.
pub(crate) fn abnf_ranges(ranges: &[ByteRange]) -> String {
    ranges
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The edges of a total automaton: for each state, each target with the
/// runs of bytes that lead there, in the order of the bytes; the edges into
/// `dead` are left out.
fn automaton_edges(automaton: &impl Transitions, dead: Option<usize>) -> Vec<Edge> {
    let mut edges: Vec<(usize, usize, Vec<ByteRange>)> = Vec::new();
    for state in 0..automaton.states() {
        let first = edges.len();
        for (range, target) in runs(&automaton.targets(state as u32)) {
            let target = target as usize;
            if Some(target) == dead {
                continue;
            }
            match edges[first..].iter_mut().find(|(_, t, _)| *t == target) {
                Some((_, _, ranges)) => ranges.push(range),
                None => edges.push((state, target, vec![range])),
            }
        }
    }
    edges
        .into_iter()
        .map(|(from, to, ranges)| Edge {
            from,
            to,
            label: abnf_ranges(&ranges),
            epsilon: false,
        })
        .collect()
}

/// The NFA with its ε-moves drawn dashed.
pub(crate) fn nfa_graph(nfa: &Nfa) -> Graph {
    let mut edges = Vec::new();
    for (from, state) in nfa.states().iter().enumerate() {
        let mut targets: Vec<(usize, Vec<ByteRange>)> = Vec::new();
        for &(range, to) in &state.transitions {
            match targets.iter_mut().find(|(t, _)| *t == to as usize) {
                Some((_, ranges)) => ranges.push(range),
                None => targets.push((to as usize, vec![range])),
            }
        }
        edges.extend(targets.into_iter().map(|(to, ranges)| Edge {
            from,
            to,
            label: abnf_ranges(&ranges),
            epsilon: false,
        }));
        edges.extend(state.epsilon.iter().map(|&to| Edge {
            from,
            to: to as usize,
            label: "ε".to_owned(),
            epsilon: true,
        }));
    }
    let nodes = (0..nfa.states().len())
        .map(|id| Node {
            caption: String::new(),
            name: String::new(),
            accepting: id == nfa.accept() as usize,
            block: None,
        })
        .collect();
    Graph {
        title: "Thompson's NFA".to_owned(),
        nodes,
        edges,
        start: nfa.start() as usize,
        notes: vec!["Dashed edges are ε-moves, taken without reading a byte.".to_owned()],
        dead: None,
    }
}

/// `0-3, 7, 9-12`: a sorted set of NFA states, runs folded.
pub(crate) fn id_set(ids: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        parts.push(if j == i {
            ids[i].to_string()
        } else {
            format!("{}-{}", ids[i], ids[j])
        });
        i = j + 1;
    }
    format!("{{{}}}", parts.join(", "))
}

/// The DFA state made of no NFA state: the dead state, if there is one.
pub(crate) fn dfa_dead(dfa: &Dfa) -> Option<usize> {
    (0..dfa.state_count()).find(|&s| dfa.nfa_states(s as u32).is_empty())
}

fn dead_note(dead: Option<usize>, what: &str) -> Option<(usize, String)> {
    dead.map(|d| {
        let note = format!(
            "State {d} is the dead state ({what}); the edges into it are left out: \
             every byte not drawn leads there."
        );
        (d, note)
    })
}

/// The subset construction's DFA, each state captioned with its set of NFA
/// states and the shortest input that reaches it.
pub(crate) fn dfa_graph(dfa: &Dfa) -> Graph {
    let paths = shortest_paths(dfa);
    let dead = dfa_dead(dfa);
    let nodes = (0..dfa.state_count())
        .map(|s| Node {
            caption: format!(
                "{} after {}",
                id_set(dfa.nfa_states(s as u32)),
                input_text(&paths[s])
            ),
            name: match &paths[s] {
                Some(path) if path.is_empty() => "start".to_owned(),
                path => format!("after {}", input_text(path)),
            },
            accepting: dfa.is_accepting(s as u32),
            block: None,
        })
        .collect();
    let dead = dead_note(dead, "the empty set of NFA states");
    Graph {
        title: "The DFA of the subset construction".to_owned(),
        nodes,
        edges: automaton_edges(dfa, dead.as_ref().map(|d| d.0)),
        start: dfa.start() as usize,
        notes: dead.iter().map(|d| d.1.clone()).collect(),
        dead,
    }
}

/// One drawing of the DFA per round of Moore's refinement, each state
/// coloured by its block after that round.
pub(crate) fn round_graphs(dfa: &Dfa, partitions: &[Vec<u32>]) -> Vec<Graph> {
    let base = dfa_graph(dfa);
    partitions
        .iter()
        .enumerate()
        .map(|(round, partition)| {
            let mut graph = base.clone();
            graph.title = match round {
                0 => format!(
                    "First split, accepting or not: {} blocks",
                    block_count(partition)
                ),
                r => format!("After round {r}: {} blocks", block_count(partition)),
            };
            for (node, &block) in graph.nodes.iter_mut().zip(partition) {
                node.block = Some(block);
            }
            graph
        })
        .collect()
}

/// The minimal DFA, its states captioned with their names.
pub(crate) fn minimal_graph(derivation: &Derivation) -> Graph {
    let tables = derivation.tables();
    let dead = Some(tables.dead() as usize);
    let nodes = state_names(tables)
        .into_iter()
        .enumerate()
        .map(|(s, caption)| Node {
            name: caption.clone(),
            caption,
            accepting: tables.accepting()[s],
            block: None,
        })
        .collect();
    let dead = dead_note(dead, "error");
    Graph {
        title: "The minimal DFA".to_owned(),
        nodes,
        edges: automaton_edges(tables, dead.as_ref().map(|d| d.0)),
        start: tables.start() as usize,
        notes: dead.iter().map(|d| d.1.clone()).collect(),
        dead,
    }
}

/// The fill of block `block`: twelve colours told apart easily, then hues
/// spread by the golden angle.
pub(crate) fn block_colour(block: u32) -> String {
    const PALETTE: [&str; 12] = [
        "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
        "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f",
    ];
    match PALETTE.get(block as usize) {
        Some(colour) => (*colour).to_owned(),
        None => format!("hsl({:.0}, 65%, 75%)", (f64::from(block) * 137.508) % 360.0),
    }
}
