//! Each stage of the derivation alone, as a picture and as data: the
//! grammar, the NFA with its ε-moves, the DFA with each state's NFA set and
//! shortest input, Moore's rounds, the minimal DFA and the byte classes, in
//! text, Markdown, Mermaid, Graphviz DOT, SVG or JSON.
//!
//! Everything is written here, SVG included (a layered layout of its own),
//! so that it needs nothing beyond the crate. An automaton of more than
//! [`PICTURE_LIMIT`] states is not drawn: the picture formats give its table,
//! with a note that says why.

mod dot;
mod graph;
pub(super) mod json;
mod mermaid;
mod svg;
mod text;

use std::fmt;

use super::writer::{Style, Writer};
use crate::Derivation;
use crate::minimize::refinement;
use graph::{Graph, dfa_graph, minimal_graph, nfa_graph, round_graphs};

/// The stages [`render_stage`] shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The grammar as parsed, core rules added.
    Grammar,
    /// Thompson's NFA, with its ε-moves.
    Nfa,
    /// The subset construction's DFA, each state with its NFA states and
    /// the shortest input that reaches it.
    Dfa,
    /// Moore's refinement: the partition of the DFA's states after each round.
    Rounds,
    /// The minimal DFA, its states named.
    Minimal,
    /// The byte classes, and the grid of the class of every byte.
    Classes,
}

/// The forms [`render_stage`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageFormat {
    /// A table as plain text.
    Text,
    /// A table as Markdown, with a Mermaid diagram for an automaton.
    Markdown,
    /// A Mermaid `flowchart`.
    Mermaid,
    /// A Graphviz `digraph`.
    Dot,
    /// An SVG picture, laid out here.
    Svg,
    /// The stage's data as JSON.
    Json,
}

/// The most states an automaton may have to be drawn. RFC 3629's NFA has
/// 75 and draws; the NFAs of `legacy31`, `rfc2279` and `wtf8` (106 to 184)
/// and anything larger are given as a table.
pub const PICTURE_LIMIT: usize = 80;

impl Stage {
    /// The name as the command line writes it: `nfa`, `rounds`.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Grammar => "grammar",
            Stage::Nfa => "nfa",
            Stage::Dfa => "dfa",
            Stage::Rounds => "rounds",
            Stage::Minimal => "minimal",
            Stage::Classes => "classes",
        }
    }
}

impl StageFormat {
    /// The name as the command line writes it: `svg`, `json`.
    pub fn name(self) -> &'static str {
        match self {
            StageFormat::Text => "text",
            StageFormat::Markdown => "markdown",
            StageFormat::Mermaid => "mermaid",
            StageFormat::Dot => "dot",
            StageFormat::Svg => "svg",
            StageFormat::Json => "json",
        }
    }
}

/// A stage asked for in a form it has none of: the grammar is no graph, and
/// the byte classes are a grid, drawn only as SVG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The stage asked for.
    pub stage: Stage,
    /// The form it has none of.
    pub format: StageFormat,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let offered = match self.stage {
            Stage::Classes => "text, markdown, svg or json",
            _ => "text, markdown or json",
        };
        write!(
            f,
            "the {} stage has no {} form; ask for {offered}",
            self.stage.name(),
            self.format.name()
        )
    }
}

impl std::error::Error for Unsupported {}

/// `stage` of `derivation` in `format`.
///
/// ```
/// use utf8_spec::explain::{Stage, StageFormat, render_stage};
/// let derivation = utf8_spec::rulesets::RFC3629.derive()?;
/// let svg = render_stage(&derivation, Stage::Minimal, StageFormat::Svg).unwrap();
/// assert_eq!(svg.matches("<g class=\"state\"").count(), 9);
/// assert!(render_stage(&derivation, Stage::Grammar, StageFormat::Dot).is_err());
/// # Ok::<(), utf8_spec::Error>(())
/// ```
pub fn render_stage(
    derivation: &Derivation,
    stage: Stage,
    format: StageFormat,
) -> Result<String, Unsupported> {
    let unsupported = Unsupported { stage, format };
    match format {
        StageFormat::Text => Ok(table(derivation, stage, Style::Text)),
        StageFormat::Markdown => Ok(markdown(derivation, stage)),
        StageFormat::Json => Ok(data(derivation, stage)),
        StageFormat::Svg if stage == Stage::Classes => Ok(svg::class_grid(derivation.classes())),
        StageFormat::Mermaid | StageFormat::Dot | StageFormat::Svg => {
            let graphs = graphs(derivation, stage).ok_or(unsupported)?;
            Ok(match too_large(&graphs, stage) {
                Some(note) => fallback(&note, &table(derivation, stage, Style::Text), format),
                None => draw(&graphs, stage, format),
            })
        }
    }
}

/// Whether [`render_stage`] draws `stage` as a picture in the picture
/// formats: the byte classes always, an automaton when it has at most
/// [`PICTURE_LIMIT`] states, the grammar never. A page that shows the table
/// beside the picture asks this rather than repeating the limit's rule.
///
/// ```
/// use utf8_spec::explain::{Stage, is_drawn};
/// let derivation = utf8_spec::rulesets::LEGACY31.derive()?;
/// assert!(is_drawn(&derivation, Stage::Minimal));
/// assert!(!is_drawn(&derivation, Stage::Nfa), "121 states");
/// assert!(!is_drawn(&derivation, Stage::Grammar));
/// # Ok::<(), utf8_spec::Error>(())
/// ```
pub fn is_drawn(derivation: &Derivation, stage: Stage) -> bool {
    match graphs(derivation, stage) {
        Some(graphs) => too_large(&graphs, stage).is_none(),
        None => stage == Stage::Classes,
    }
}

/// The drawings of a stage that is an automaton; `None` for the others.
fn graphs(derivation: &Derivation, stage: Stage) -> Option<Vec<Graph>> {
    match stage {
        Stage::Grammar | Stage::Classes => None,
        Stage::Nfa => Some(vec![nfa_graph(derivation.nfa())]),
        Stage::Dfa => Some(vec![dfa_graph(derivation.dfa())]),
        Stage::Rounds => Some(round_graphs(
            derivation.dfa(),
            &refinement(derivation.dfa()),
        )),
        Stage::Minimal => Some(vec![minimal_graph(derivation)]),
    }
}

/// Why the stage is not drawn, when its automaton passes [`PICTURE_LIMIT`].
fn too_large(graphs: &[Graph], stage: Stage) -> Option<String> {
    let states = graphs.first().map_or(0, |g| g.nodes.len());
    (states > PICTURE_LIMIT).then(|| {
        format!(
            "The {} has {states} states, more than the {PICTURE_LIMIT} that are drawn: \
             its table instead.",
            match stage {
                Stage::Nfa => "NFA",
                Stage::Minimal => "minimal DFA",
                _ => "DFA",
            }
        )
    })
}

fn draw(graphs: &[Graph], stage: Stage, format: StageFormat) -> String {
    match format {
        StageFormat::Mermaid => mermaid::mermaid(graphs),
        StageFormat::Dot => dot::dot(stage.name(), graphs),
        _ => svg::svg(graphs),
    }
}

/// The table of a stage too large to draw, in a picture format's own
/// syntax, so that the file still opens where a picture was expected.
fn fallback(note: &str, table: &str, format: StageFormat) -> String {
    match format {
        StageFormat::Svg => svg::table(note, table),
        StageFormat::Dot => {
            let label: String = table.lines().map(|l| format!("{l}\\l")).collect();
            format!(
                "digraph table {{\n    // {note}\n    table [shape=plaintext, fontname=\"monospace\", \
                 label={}];\n}}\n",
                json::string(&format!("{note}\\l\\l{label}"))
            )
        }
        _ => {
            let mut out = format!("flowchart LR\n    %% {note}\n");
            for line in table.lines() {
                out.push_str(&format!("    %% {line}\n"));
            }
            out.push_str(&format!(
                "    note[\"{}\"]\n",
                note.replace("its table instead", "its table is in the comments above")
            ));
            out
        }
    }
}

fn table(derivation: &Derivation, stage: Stage, style: Style) -> String {
    let mut w = Writer::new(style);
    match stage {
        Stage::Grammar => text::grammar(&mut w, derivation),
        Stage::Nfa => text::nfa(&mut w, derivation),
        Stage::Dfa => text::dfa(&mut w, derivation),
        Stage::Rounds => text::rounds(&mut w, derivation),
        Stage::Minimal => text::minimal(&mut w, derivation),
        Stage::Classes => text::classes(&mut w, derivation),
    }
    w.finish()
}

/// The table, then for an automaton a Mermaid diagram (one a round for the
/// rounds), or the note that says why it is not drawn.
fn markdown(derivation: &Derivation, stage: Stage) -> String {
    let mut w = Writer::new(Style::Markdown);
    w.out = table(derivation, stage, Style::Markdown);
    w.out.push_str("\n\n");
    if let Some(graphs) = graphs(derivation, stage) {
        match too_large(&graphs, stage) {
            Some(note) => w.paragraph(&note.replace(": its table instead", "")),
            None => {
                for graph in &graphs {
                    if graphs.len() > 1 {
                        w.heading(2, &graph.title);
                    }
                    w.code("mermaid", &mermaid::mermaid(std::slice::from_ref(graph)));
                }
            }
        }
    }
    w.finish()
}

fn data(derivation: &Derivation, stage: Stage) -> String {
    match stage {
        Stage::Grammar => json::grammar(derivation),
        Stage::Nfa => json::nfa(derivation),
        Stage::Dfa => json::dfa(derivation),
        Stage::Rounds => json::rounds(derivation),
        Stage::Minimal => json::minimal(derivation),
        Stage::Classes => json::classes(derivation),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::{LEGACY31, RFC3629};

    fn rfc3629() -> Derivation {
        RFC3629.derive().expect("rfc3629 derives")
    }

    fn render(stage: Stage, format: StageFormat) -> String {
        render_stage(&rfc3629(), stage, format).expect("the form exists")
    }

    fn json(stage: Stage) -> serde_json::Value {
        serde_json::from_str(&render(stage, StageFormat::Json)).expect("the JSON parses")
    }

    fn states_drawn(svg: &str) -> usize {
        svg.matches("<g class=\"state\"").count()
    }

    #[test]
    fn the_grammar_is_text_and_data_but_no_picture() {
        let derivation = rfc3629();
        let text = render(Stage::Grammar, StageFormat::Text);
        assert!(text.contains("UTF8-tail   = %x80-BF"), "{text}");
        assert!(render(Stage::Grammar, StageFormat::Markdown).contains("```abnf"));
        let data = json(Stage::Grammar);
        assert_eq!(data["start_rule"], "UTF8-octets");
        let rules = data["rules"].as_array().unwrap();
        assert_eq!(rules.len(), derivation.grammar().rules().len());
        assert_eq!(rules.last().unwrap()["definition"], "%x80-BF");
        for format in [StageFormat::Mermaid, StageFormat::Dot, StageFormat::Svg] {
            let refused = render_stage(&derivation, Stage::Grammar, format).unwrap_err();
            assert_eq!(
                refused.to_string(),
                format!(
                    "the grammar stage has no {} form; ask for text, markdown or json",
                    format.name()
                )
            );
        }
    }

    #[test]
    fn rfc3629s_nfa_draws_its_75_states_and_every_epsilon_move() {
        let data = json(Stage::Nfa);
        assert_eq!(data["states"], 75);
        assert_eq!(data["transitions"].as_array().unwrap().len(), 27);
        assert_eq!(data["epsilon"].as_array().unwrap().len(), 56);
        assert_eq!(data["transitions"][0]["bytes"], serde_json::json!([0, 127]));
        let edges = nfa_graph(rfc3629().nfa()).edges.len();
        let dot = render(Stage::Nfa, StageFormat::Dot);
        assert_eq!(
            dot.matches(" -> ").count(),
            edges + 1,
            "the edges and the entry"
        );
        assert_eq!(dot.matches("style=dashed").count(), 56);
        let mermaid = render(Stage::Nfa, StageFormat::Mermaid);
        assert_eq!(mermaid.matches(" -.->|\"ε\"| ").count(), 56);
        let svg = render(Stage::Nfa, StageFormat::Svg);
        assert_eq!(states_drawn(&svg), 75);
        assert_eq!(svg.matches("class=\"edge epsilon\"").count(), 56);
        let text = render(Stage::Nfa, StageFormat::Text);
        assert!(text.contains("75 states, 27 byte-range transitions and 56 ε-moves"));
        assert!(text.contains("%x00-7F → 4"), "{text}");
    }

    #[test]
    fn the_dfa_gives_each_state_its_nfa_set_and_shortest_input() {
        let derivation = rfc3629();
        let data = json(Stage::Dfa);
        assert_eq!(data["states"], 29);
        assert_eq!(data["nfa_states"].as_array().unwrap().len(), 29);
        assert_eq!(data["shortest_inputs"][2], serde_json::json!([128]));
        let dead = data["dead"].as_u64().unwrap() as u32;
        assert!(derivation.dfa().nfa_states(dead).is_empty());
        let svg = render(Stage::Dfa, StageFormat::Svg);
        assert_eq!(states_drawn(&svg), 29);
        assert!(svg.contains("after E0 A0"), "a caption in the legend");
        let dot = render(Stage::Dfa, StageFormat::Dot);
        let edges = dfa_graph(derivation.dfa()).edges.len();
        assert_eq!(dot.matches(" -> ").count(), edges + 1);
        assert!(render(Stage::Dfa, StageFormat::Text).contains("after C2 80"));
    }

    #[test]
    fn the_rounds_end_in_the_nine_blocks_of_the_minimal_dfa() {
        let data = json(Stage::Rounds);
        let partitions = data["partitions"].as_array().unwrap();
        let blocks: Vec<usize> = partitions
            .iter()
            .map(|p| p.as_array().unwrap().len())
            .collect();
        assert_eq!(blocks, [2, 3, 6, 9, 9]);
        assert_eq!(data["rounds"], 4);
        let text = render(Stage::Rounds, StageFormat::Text);
        assert!(text.contains("Blocks after each: 2, 3, 6, 9, 9."), "{text}");
        assert_eq!(
            states_drawn(&render(Stage::Rounds, StageFormat::Svg)),
            5 * 29
        );
        let dot = render(Stage::Rounds, StageFormat::Dot);
        assert_eq!(dot.matches("subgraph cluster_r").count(), 5);
        assert_eq!(dot.matches("fillcolor=").count(), 5 * 29);
        let mermaid = render(Stage::Rounds, StageFormat::Mermaid);
        assert_eq!(mermaid.matches("    subgraph r").count(), 5);
        assert_eq!(mermaid.matches("classDef b").count(), 9);
        let markdown = render(Stage::Rounds, StageFormat::Markdown);
        assert_eq!(markdown.matches("```mermaid").count(), 5);
    }

    #[test]
    fn the_minimal_dfa_draws_nine_states_and_fifteen_edges() {
        let svg = render(Stage::Minimal, StageFormat::Svg);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(states_drawn(&svg), 9);
        assert_eq!(svg.matches("<path class=\"edge\"").count(), 15 + 1);
        assert!(svg.contains(">%xE1-EC / %xEE-EF</text>"), "{svg}");
        assert_eq!(
            render(Stage::Minimal, StageFormat::Dot)
                .matches(" -> ")
                .count(),
            16
        );
        let data = json(Stage::Minimal);
        assert_eq!(data["states"], 9);
        assert_eq!(data["dead"], 8);
        assert_eq!(data["names"][3], "2 tails left (80–BF)");
        let mermaid = render(Stage::Minimal, StageFormat::Mermaid);
        assert!(mermaid.contains("s0 -->|\"%x00-7F\"| s0"), "{mermaid}");
        let text = render(Stage::Minimal, StageFormat::Text);
        assert!(text.contains("%xE1-EC / %xEE-EF → 3"), "{text}");
    }

    #[test]
    fn the_classes_are_twelve_and_drawn_as_a_grid() {
        let data = json(Stage::Classes);
        assert_eq!(data["classes"], 12);
        assert_eq!(data["byte_classes"].as_array().unwrap().len(), 256);
        assert_eq!(
            data["ranges"][4],
            serde_json::json!([[192, 193], [245, 255]])
        );
        let svg = render(Stage::Classes, StageFormat::Svg);
        assert_eq!(svg.matches("<g class=\"byte\"").count(), 256);
        assert_eq!(svg.matches("class=\"swatch\"").count(), 12);
        assert!(svg.contains("class 4: %xC0-C1 / %xF5-FF"));
        assert!(render(Stage::Classes, StageFormat::Text).contains("12 classes"));
        for format in [StageFormat::Mermaid, StageFormat::Dot] {
            assert!(render_stage(&rfc3629(), Stage::Classes, format).is_err());
        }
    }

    #[test]
    fn an_nfa_past_the_limit_is_given_as_a_table_that_says_why() {
        let derivation = LEGACY31.derive().expect("legacy31 derives");
        let note = "The NFA has 121 states, more than the 80 that are drawn";
        let svg = render_stage(&derivation, Stage::Nfa, StageFormat::Svg).unwrap();
        assert_eq!(states_drawn(&svg), 0);
        assert!(svg.contains(note) && svg.contains("%x00-7F → "), "{svg}");
        let dot = render_stage(&derivation, Stage::Nfa, StageFormat::Dot).unwrap();
        assert!(dot.starts_with("digraph table {") && dot.contains(note));
        let mermaid = render_stage(&derivation, Stage::Nfa, StageFormat::Mermaid).unwrap();
        assert!(mermaid.contains(note) && !mermaid.contains("-.->"));
        let markdown = render_stage(&derivation, Stage::Nfa, StageFormat::Markdown).unwrap();
        assert!(markdown.contains(note) && !markdown.contains("```mermaid"));
        let dfa = render_stage(&derivation, Stage::Dfa, StageFormat::Svg).unwrap();
        assert_eq!(states_drawn(&dfa), 47, "the DFA is under the limit");
    }

    #[test]
    fn svg_text_is_escaped() {
        assert_eq!(
            svg::escape("a<b & \"c\">"),
            "a&lt;b &amp; &quot;c&quot;&gt;"
        );
        assert_eq!(json::string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
