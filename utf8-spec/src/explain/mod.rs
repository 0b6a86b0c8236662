//! The derivation explained: state names read off the automaton, the byte
//! sequences of the language, a step-by-step report, diagrams, and the
//! tables as source for other languages.
//!
//! Everything here is computed from a [`Derivation`]; nothing is written per
//! ruleset. On RFC 3629 the names come out as the RFC's own story:
//!
//! ```
//! let derivation = utf8_spec::rulesets::RFC3629.derive()?;
//! let names = utf8_spec::explain::state_names(derivation.tables());
//! assert_eq!(names[0], "start: between characters");
//! assert_eq!(names[2], "after E0: A0–BF");
//! assert_eq!(names[3], "2 tails left (80–BF)");
//! assert_eq!(names[8], "error");
//! # Ok::<(), utf8_spec::Error>(())
//! ```
//!
//! [`render`] tells the whole derivation in one of four [`Format`]s; [`emit`]
//! writes the tables as Rust, C or JSON.

mod diagram;
mod emit;
mod names;
mod report;
mod sequences;
mod stage;
mod writer;

pub use diagram::{dot, mermaid};
pub use emit::{Emit, emit};
pub use names::{StateRole, path_text, range_text, ranges_text, state_names, state_roles};
pub use report::byte_class_grid;
pub use sequences::{SEQUENCE_LIMIT, Sequence, Sequences, sequences};
pub use stage::{PICTURE_LIMIT, Stage, StageFormat, Unsupported, is_drawn, render_stage};

use crate::Derivation;

/// The form [`render`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The step-by-step report as plain text.
    Text,
    /// The step-by-step report as Markdown, its state diagram a Mermaid block.
    Markdown,
    /// The state diagram alone, as a Mermaid `stateDiagram-v2`.
    Mermaid,
    /// The state diagram alone, as a Graphviz `digraph`.
    Dot,
}

/// The derivation in `format`: the report step by step (grammar, byte
/// sequences, NFA, DFA, each merge of minimization and its reason, byte
/// classes, tables, diagram) for `Text` and `Markdown`, the diagram alone
/// for `Mermaid` and `Dot`.
pub fn render(derivation: &Derivation, format: Format) -> String {
    match format {
        Format::Text => report::report(derivation, report::Style::Text),
        Format::Markdown => report::report(derivation, report::Style::Markdown),
        Format::Mermaid => mermaid(derivation.tables()),
        Format::Dot => dot(derivation.tables()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::{LEGACY31, RFC3629};

    fn rfc3629() -> Derivation {
        RFC3629.derive().expect("rfc3629 derives")
    }

    #[test]
    fn rfc3629_states_are_named_by_what_they_allow() {
        let names = state_names(rfc3629().tables());
        assert_eq!(
            names,
            [
                "start: between characters",
                "1 tail left (80–BF)",
                "after E0: A0–BF",
                "2 tails left (80–BF)",
                "after ED: 80–9F",
                "after F0: 90–BF",
                "3 tails left (80–BF)",
                "after F4: 80–8F",
                "error",
            ]
        );
    }

    #[test]
    fn a_count_of_one_takes_the_singular() {
        // One form, one byte class, one ε-move, one accepting DFA state.
        let derivation = Derivation::new("s = 1*1%x00-FF\n", "s").unwrap();
        let text = render(&derivation, Format::Text);
        for one in ["1 form:", "1 class:", "1 ε-move,", "1 of them accepts"] {
            assert!(text.contains(one), "{one}: {text}");
        }
        for many in [
            "1 forms",
            "1 classes",
            "1 rounds",
            "1 states",
            "1 ε-moves",
            "1 of them accept ",
        ] {
            assert!(!text.contains(many), "{many}: {text}");
        }
    }

    #[test]
    fn legacy31_counts_down_to_five_tails() {
        let derivation = LEGACY31.derive().expect("legacy31 derives");
        let names = state_names(derivation.tables());
        for expected in ["5 tails left (80–BF)", "after F8: 88–BF", "after FC: 84–BF"] {
            assert!(names.iter().any(|n| n == expected), "{expected}: {names:?}");
        }
    }

    #[test]
    fn names_are_unique_for_every_builtin_ruleset() {
        for ruleset in crate::rulesets::BUILTIN {
            let derivation = ruleset.derive().expect("built-in rulesets derive");
            let names = state_names(derivation.tables());
            let mut sorted = names.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), names.len(), "{}: {names:?}", ruleset.name);
        }
    }

    #[test]
    fn colliding_countdowns_are_told_apart() {
        // After `a` and after `b` one byte `0` is left, but it ends in states
        // that allow different last bytes, so the two countdowns are distinct
        // states with the same count and range.
        let derivation =
            Derivation::new("s = %x61 %x30 [ %x79 ] / %x62 %x30 [ %x7A ]\n", "s").unwrap();
        let names = state_names(derivation.tables());
        assert!(
            names.contains(&"1 tail left (30) via 61".to_owned()),
            "{names:?}"
        );
        assert!(
            names.contains(&"1 tail left (30) via 62".to_owned()),
            "{names:?}"
        );
    }

    #[test]
    fn a_start_that_does_not_accept_is_just_the_start() {
        let derivation = Derivation::new("number = 1*DIGIT\n", "number").unwrap();
        let names = state_names(derivation.tables());
        assert_eq!(names, ["start", "after 30–39: 30–39 or end", "error"]);
    }

    #[test]
    fn rfc3629_sequences_are_the_rfcs_table() {
        let found = sequences(rfc3629().tables());
        let lines: Vec<String> = found
            .listed
            .iter()
            .map(|s| s.to_string().replace('–', "-"))
            .collect();
        assert_eq!(
            lines,
            [
                "00-7F",
                "C2-DF 80-BF",
                "E0 A0-BF 80-BF",
                "E1-EC 80-BF 80-BF",
                "ED 80-9F 80-BF",
                "EE-EF 80-BF 80-BF",
                "F0 90-BF 80-BF 80-BF",
                "F1-F3 80-BF 80-BF 80-BF",
                "F4 80-8F 80-BF 80-BF",
            ]
        );
        assert!(!found.truncated && !found.loops);
    }

    #[test]
    fn huge_languages_are_listed_up_to_the_limit() {
        // Nine bytes, no two adjacent, at each of three positions: 729 forms.
        let derivation = Derivation::new(
            "s = 3( %x00 / %x02 / %x04 / %x06 / %x08 / %x0A / %x0C / %x0E / %x10 )\n",
            "s",
        )
        .unwrap();
        let found = sequences(derivation.tables());
        assert_eq!(found.listed.len(), SEQUENCE_LIMIT);
        assert!(found.truncated);
        assert!(render(&derivation, Format::Text).contains("The listing stops at 64 forms"));
    }

    #[test]
    fn loops_before_acceptance_are_reported_not_listed() {
        let derivation = Derivation::new("s = %x61 *%x62 %x63\n", "s").unwrap();
        let found = sequences(derivation.tables());
        let lines: Vec<String> = found.listed.iter().map(ToString::to_string).collect();
        assert_eq!(lines, ["61 63"]);
        assert!(found.loops);
    }

    #[test]
    fn merges_are_explained_by_what_the_merged_states_still_need() {
        let text = render(&rfc3629(), Format::Text);
        assert!(
            text.contains("E1 80, ED 80, EE 80")
                && text.contains("need exactly one more byte in 80–BF"),
            "{text}"
        );
    }

    #[test]
    fn class_grid_has_sixteen_rows_of_sixteen() {
        let grid = byte_class_grid(rfc3629().classes());
        let lines: Vec<&str> = grid.lines().collect();
        assert_eq!(lines.len(), 17);
        assert_eq!(
            lines[15].split_whitespace().collect::<Vec<_>>()[..4],
            ["E-", "6", "7", "7"]
        );
        for line in &lines[1..] {
            assert_eq!(line.split_whitespace().count(), 17, "{line}");
        }
    }

    #[test]
    fn diagrams_leave_out_the_dead_state() {
        let tables = rfc3629();
        let tables = tables.tables();
        assert!(!mermaid(tables).contains("s8"));
        assert!(!dot(tables).contains("s8"));
        assert_eq!(
            dot(tables).matches(" -> s").count(),
            16,
            "15 edges and the entry"
        );
    }
}
