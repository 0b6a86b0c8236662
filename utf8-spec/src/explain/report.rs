//! The derivation told step by step, as plain text or Markdown: one
//! function a section, each reading what it needs off the [`Report`].

use std::fmt::Write as _;

use super::diagram::{edges, mermaid};
use super::names::{StateRole, range_text, ranges_text, role_reason, state_names, state_roles};
use super::sequences::{SEQUENCE_LIMIT, sequences};
pub(crate) use super::writer::Style;
use super::writer::{Writer, count};
use crate::walk::{shortest_input, shortest_paths};
use crate::{ByteClasses, ByteRange, Derivation};

/// How many DFA states the report lists one by one, and how many inputs it
/// quotes for one merge, before it summarises the rest.
const DFA_ROW_LIMIT: usize = 256;
const MERGE_INPUT_LIMIT: usize = 8;

/// What several sections share: the derivation, the minimal states' names
/// and roles, and the shortest input to each DFA state.
struct Report<'d> {
    derivation: &'d Derivation,
    names: Vec<String>,
    roles: Vec<StateRole>,
    dfa_paths: Vec<Option<Vec<ByteRange>>>,
}

pub(crate) fn report(derivation: &Derivation, style: Style) -> String {
    let tables = derivation.tables();
    let report = Report {
        derivation,
        names: state_names(tables),
        roles: state_roles(tables),
        dfa_paths: shortest_paths(derivation.dfa()),
    };
    let mut w = Writer::new(style);
    w.heading(
        1,
        &format!(
            "How `{}` becomes a validating automaton",
            derivation.start_rule()
        ),
    );
    w.paragraph(
        "Each step below is computed from the previous one; the state names are read off \
         the automaton (what it has seen and what it still allows), not typed by hand.",
    );
    w.heading(2, "1. The grammar as parsed");
    grammar_section(&mut w, derivation);
    sequences_section(&mut w, &report);
    nfa_section(&mut w, &report);
    dfa_section(&mut w, &report);
    minimization_section(&mut w, &report);
    w.heading(2, "6. Byte classes");
    classes_section(&mut w, tables.classes());
    tables_section(&mut w, &report);
    diagram_section(&mut w, &report);
    w.finish()
}

/// The shortest input of a DFA state as hex bytes, from its path.
pub(crate) fn input_text(path: &Option<Vec<ByteRange>>) -> String {
    match path {
        None => "(unreachable)".to_owned(),
        Some(path) if path.is_empty() => "the empty input".to_owned(),
        Some(path) => shortest_input(path)
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn listing(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The byte → class map as a 16 × 16 grid, rows `0-` to `F-` by high nibble
/// and columns `-0` to `-F` by low nibble, the way Onigmo lays out its table.
pub fn byte_class_grid(classes: &ByteClasses) -> String {
    let width = (classes.count() - 1).to_string().len().max(2);
    let mut out = format!("{:3}", "");
    for column in 0..16 {
        let _ = write!(out, " {:>width$}", format!("-{column:X}"));
    }
    out.push('\n');
    for row in 0..16u8 {
        let _ = write!(out, "{row:X}- ");
        for column in 0..16u8 {
            let _ = write!(out, " {:>width$}", classes.class(row * 16 + column));
        }
        out.push('\n');
    }
    out
}

/// The grammar printed back, under a heading the caller writes.
pub(crate) fn grammar_section(w: &mut Writer, derivation: &Derivation) {
    w.paragraph(
        "The ABNF is read into rules, `=/` additions are merged and the RFC 5234 core rules \
         that are used are added. Printed back, one rule a line:",
    );
    w.code("abnf", &derivation.grammar().to_string());
}

fn sequences_section(w: &mut Writer, report: &Report) {
    let start_rule = report.derivation.start_rule();
    w.heading(2, "2. The byte sequences it denotes");
    let found = sequences(report.derivation.tables());
    w.paragraph(&format!(
        "Every path from the start state to the first accepting state it meets is one form \
         that `{start_rule}` strings together; consecutive bytes that lead to the same state \
         are grouped into a range. {}:",
        count(found.listed.len(), "form", "forms")
    ));
    let columns = found.listed.iter().map(|s| s.0.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|column| {
            found
                .listed
                .iter()
                .filter_map(|s| s.0.get(column))
                .map(|&r| range_text(r).chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let lines: Vec<String> = found
        .listed
        .iter()
        .map(|sequence| {
            let steps: Vec<String> = sequence
                .0
                .iter()
                .zip(&widths)
                .map(|(&range, &width)| {
                    let text = range_text(range);
                    let pad = width - text.chars().count();
                    format!("{text}{}", " ".repeat(pad))
                })
                .collect();
            steps.join(" ").trim_end().to_owned()
        })
        .collect();
    w.code("text", &lines.join("\n"));
    if found.truncated {
        w.paragraph(&format!(
            "The listing stops at {SEQUENCE_LIMIT} forms; the language has more."
        ));
    }
    if found.loops {
        w.paragraph(
            "Some paths pass a state twice before they accept; they repeat without bound \
             and are not listed.",
        );
    }
}

fn nfa_section(w: &mut Writer, report: &Report) {
    let nfa = report.derivation.nfa();
    w.heading(2, "3. Thompson's construction: the NFA");
    let epsilon_moves: usize = nfa.states().iter().map(|s| s.epsilon.len()).sum();
    w.paragraph(&format!(
        "Each element of `{}` becomes a fragment with one entry and one exit, rule \
         references expanded in place: {}, {} and {}, one start and one accepting state.",
        report.derivation.start_rule(),
        count(nfa.states().len(), "state", "states"),
        count(
            nfa.transition_count(),
            "byte-range transition",
            "byte-range transitions"
        ),
        count(epsilon_moves, "ε-move", "ε-moves")
    ));
}

fn dfa_section(w: &mut Writer, report: &Report) {
    let (dfa, minimal) = (report.derivation.dfa(), report.derivation.minimal_dfa());
    w.heading(2, "4. Subset construction: the DFA");
    let mut minimal_of = vec![0u32; dfa.state_count()];
    for state in 0..minimal.state_count() as u32 {
        for &merged in minimal.merged_from(state) {
            minimal_of[merged as usize] = state;
        }
    }
    let accepting: Vec<String> = (0..dfa.state_count() as u32)
        .filter(|&s| dfa.is_accepting(s))
        .map(|s| s.to_string())
        .collect();
    w.paragraph(&format!(
        "Each DFA state is the set of NFA states the input can be in; the empty set is the \
         dead state. {}; {} ({}). Each is listed with the shortest input \
         that reaches it and the minimal state it becomes:",
        count(dfa.state_count(), "state", "states"),
        count(accepting.len(), "of them accepts", "of them accept"),
        listing(&accepting)
    ));
    let rows: Vec<Vec<String>> = (0..dfa.state_count().min(DFA_ROW_LIMIT))
        .map(|state| {
            let m = minimal_of[state];
            vec![
                state.to_string(),
                input_text(&report.dfa_paths[state]),
                if dfa.is_accepting(state as u32) {
                    "yes"
                } else {
                    ""
                }
                .to_owned(),
                dfa.nfa_states(state as u32).len().to_string(),
                format!("{m}: {}", report.names[m as usize]),
            ]
        })
        .collect();
    w.table(
        &[
            "DFA state",
            "shortest input",
            "accepts",
            "NFA states",
            "minimal state",
        ],
        &rows,
    );
    if dfa.state_count() > DFA_ROW_LIMIT {
        w.paragraph(&format!(
            "The listing stops at {DFA_ROW_LIMIT} of the {} states.",
            dfa.state_count()
        ));
    }
}

fn minimization_section(w: &mut Writer, report: &Report) {
    let (dfa, minimal) = (report.derivation.dfa(), report.derivation.minimal_dfa());
    w.heading(2, "5. Moore's refinement: the minimal DFA");
    w.paragraph(&format!(
        "Start from two blocks, accepting and not, and split every block whose members \
         disagree on where some byte leads, until nothing splits: {}, the last of \
         which changes nothing. {} become {}. The merges, and why:",
        count(minimal.refinement_rounds(), "round", "rounds"),
        count(dfa.state_count(), "DFA state", "DFA states"),
        count(minimal.state_count(), "state", "states")
    ));
    let mut merges = String::new();
    let mut alone = 0;
    for state in 0..minimal.state_count() as u32 {
        let merged = minimal.merged_from(state);
        match merged.len() {
            0 => {
                let _ = writeln!(
                    merges,
                    "- {state} \"{}\" comes from no DFA state: every prefix can still be \
                     completed, and the tables need a state to fail into.",
                    report.names[state as usize]
                );
            }
            1 => alone += 1,
            _ => merges.push_str(&merge_line(report, state)),
        }
    }
    if alone > 0 {
        let _ = writeln!(
            merges,
            "- {alone} other {} one DFA state each.",
            if alone == 1 {
                "state keeps"
            } else {
                "states keep"
            }
        );
    }
    w.paragraph(merges.trim_end());
}

/// `- 1 "1 tail left (80–BF)" merges DFA states 3, 12, …: the DFA states
/// reached by C2, E0 A0, … all need exactly one more byte in 80–BF.`
fn merge_line(report: &Report, state: u32) -> String {
    let merged = report.derivation.minimal_dfa().merged_from(state);
    let mut quoted: Vec<String> = merged
        .iter()
        .take(MERGE_INPUT_LIMIT)
        .map(|&d| input_text(&report.dfa_paths[d as usize]))
        .collect();
    if merged.len() > MERGE_INPUT_LIMIT {
        quoted.push(format!("{} more", merged.len() - MERGE_INPUT_LIMIT));
    }
    let ids: Vec<String> = merged.iter().map(|d| d.to_string()).collect();
    format!(
        "- {state} \"{}\" merges DFA states {}: the DFA states reached by {} {} {}.\n",
        report.names[state as usize],
        listing(&ids),
        listing(&quoted),
        if merged.len() == 2 { "both" } else { "all" },
        role_reason(
            &report.roles[state as usize],
            &report.names,
            report.derivation.tables(),
            state as u8
        )
    )
}

/// The classes with their bytes, and the grid, under a heading the caller writes.
pub(crate) fn classes_section(w: &mut Writer, classes: &ByteClasses) {
    w.paragraph(&format!(
        "Two bytes share a class when every state sends them to the same state. Numbered by \
         their smallest byte, {}:",
        count(classes.count(), "class", "classes")
    ));
    let rows: Vec<Vec<String>> = classes
        .ids()
        .map(|class| vec![class.to_string(), ranges_text(&classes.ranges(class))])
        .collect();
    w.table(&["class", "bytes"], &rows);
    w.paragraph(
        "The class of every byte, row by high nibble and column by low nibble, as Onigmo \
         lays out its table:",
    );
    w.code("text", &byte_class_grid(classes));
}

fn tables_section(w: &mut Writer, report: &Report) {
    let tables = report.derivation.tables();
    w.heading(2, "7. The tables");
    w.paragraph(&format!(
        "State {} starts, state {} is the dead state, {} accepting. Next state by state \
         and class:",
        tables.start(),
        tables.dead(),
        match tables.accepting_states().as_slice() {
            [one] => format!("state {one} is the only one"),
            many => format!(
                "states {} are",
                listing(&many.iter().map(|s| s.to_string()).collect::<Vec<_>>())
            ),
        }
    ));
    let class_headers: Vec<String> = (0..tables.class_count()).map(|c| c.to_string()).collect();
    let mut header: Vec<&str> = vec!["state", "name", "accepts"];
    header.extend(class_headers.iter().map(String::as_str));
    let rows: Vec<Vec<String>> = (0..tables.state_count())
        .map(|state| {
            let mut row = vec![
                state.to_string(),
                report.names[state].clone(),
                if tables.accepting()[state] { "yes" } else { "" }.to_owned(),
            ];
            row.extend(
                tables.transitions()[state * tables.class_count()..][..tables.class_count()]
                    .iter()
                    .map(|t| t.to_string()),
            );
            row
        })
        .collect();
    w.table(&header, &rows);
}

fn diagram_section(w: &mut Writer, report: &Report) {
    let tables = report.derivation.tables();
    let names = &report.names;
    w.heading(2, "8. The state diagram");
    match w.style {
        Style::Markdown => {
            w.paragraph("The dead state and the edges into it are left out.");
            w.code("mermaid", &mermaid(tables));
        }
        Style::Text => {
            w.paragraph(
                "Every edge with the bytes it reads; the dead state and the edges into it are \
                 left out (`--format mermaid` or `--format dot` draws it):",
            );
            let lines: Vec<String> = edges(tables)
                .into_iter()
                .map(|(from, to, ranges)| {
                    format!(
                        "{from} \"{}\" --[{}]--> {to} \"{}\"",
                        names[from as usize],
                        ranges_text(&ranges),
                        names[to as usize]
                    )
                })
                .collect();
            w.code("text", &lines.join("\n"));
        }
    }
}
