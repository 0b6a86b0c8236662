//! The derivation told step by step, as plain text or Markdown.

use std::collections::VecDeque;
use std::fmt::Write as _;

use super::diagram::{edges, mermaid};
use super::names::{ranges_text, role_reason, state_names, state_roles};
use super::sequences::{SEQUENCE_LIMIT, sequences};
use crate::{ByteClasses, Derivation, Dfa};

/// How many DFA states the report lists one by one, and how many inputs it
/// quotes for one merge, before it summarises the rest.
const DFA_ROW_LIMIT: usize = 256;
const MERGE_INPUT_LIMIT: usize = 8;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    Text,
    Markdown,
}

struct Writer {
    style: Style,
    out: String,
}

impl Writer {
    fn heading(&mut self, level: usize, title: &str) {
        match self.style {
            Style::Markdown => {
                let _ = writeln!(self.out, "{} {title}\n", "#".repeat(level));
            }
            Style::Text => {
                let underline = if level == 1 { '=' } else { '-' };
                let rule: String = std::iter::repeat_n(underline, title.chars().count()).collect();
                let _ = writeln!(self.out, "{title}\n{rule}\n");
            }
        }
    }

    fn paragraph(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}\n");
    }

    fn code(&mut self, language: &str, body: &str) {
        match self.style {
            Style::Markdown => {
                let _ = writeln!(self.out, "```{language}\n{}\n```\n", body.trim_end());
            }
            Style::Text => {
                for line in body.trim_end().lines() {
                    let _ = writeln!(self.out, "    {line}");
                }
                self.out.push('\n');
            }
        }
    }

    fn table(&mut self, header: &[&str], rows: &[Vec<String>]) {
        match self.style {
            Style::Markdown => {
                let _ = writeln!(self.out, "| {} |", header.join(" | "));
                let _ = writeln!(self.out, "|{}", "---|".repeat(header.len()));
                for row in rows {
                    let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
                    let _ = writeln!(self.out, "| {} |", cells.join(" | "));
                }
                self.out.push('\n');
            }
            Style::Text => {
                let widths: Vec<usize> = (0..header.len())
                    .map(|column| {
                        rows.iter()
                            .map(|row| row[column].chars().count())
                            .chain([header[column].chars().count()])
                            .max()
                            .unwrap_or(0)
                    })
                    .collect();
                let line = |cells: Vec<&str>| -> String {
                    let padded: Vec<String> = cells
                        .iter()
                        .zip(&widths)
                        .map(|(cell, &width)| {
                            let pad = width - cell.chars().count();
                            format!("{cell}{}", " ".repeat(pad))
                        })
                        .collect();
                    format!("    {}", padded.join("  ").trim_end())
                };
                let _ = writeln!(self.out, "{}", line(header.to_vec()));
                let rules: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
                let _ = writeln!(
                    self.out,
                    "{}",
                    line(rules.iter().map(String::as_str).collect())
                );
                for row in rows {
                    let _ = writeln!(
                        self.out,
                        "{}",
                        line(row.iter().map(String::as_str).collect())
                    );
                }
                self.out.push('\n');
            }
        }
    }
}

/// The shortest input that reaches each DFA state (bytes ascending,
/// breadth-first), `None` for a state nothing reaches.
fn dfa_inputs(dfa: &Dfa) -> Vec<Option<Vec<u8>>> {
    let mut inputs: Vec<Option<Vec<u8>>> = vec![None; dfa.state_count()];
    inputs[dfa.start() as usize] = Some(Vec::new());
    let mut queue = VecDeque::from([dfa.start()]);
    while let Some(state) = queue.pop_front() {
        let here = inputs[state as usize]
            .clone()
            .expect("queued states have inputs");
        for byte in 0..=255u8 {
            let target = dfa.next(state, byte);
            if inputs[target as usize].is_none() {
                let mut input = here.clone();
                input.push(byte);
                inputs[target as usize] = Some(input);
                queue.push_back(target);
            }
        }
    }
    inputs
}

fn input_text(input: &Option<Vec<u8>>) -> String {
    match input {
        None => "(unreachable)".to_owned(),
        Some(bytes) if bytes.is_empty() => "the empty input".to_owned(),
        Some(bytes) => bytes
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

pub(crate) fn report(derivation: &Derivation, style: Style) -> String {
    let tables = derivation.tables();
    let minimal = derivation.minimal_dfa();
    let dfa = derivation.dfa();
    let nfa = derivation.nfa();
    let names = state_names(tables);
    let roles = state_roles(tables);
    let start_rule = derivation.start_rule();
    let mut w = Writer {
        style,
        out: String::new(),
    };

    w.heading(
        1,
        &format!("How `{start_rule}` becomes a validating automaton"),
    );
    w.paragraph(
        "Each step below is computed from the previous one; the state names are read off \
         the automaton (what it has seen and what it still allows), not typed by hand.",
    );

    w.heading(2, "1. The grammar as parsed");
    w.paragraph(
        "The ABNF is read into rules, `=/` additions are merged and the RFC 5234 core rules \
         that are used are added. Printed back, one rule a line:",
    );
    w.code("abnf", &derivation.grammar().to_string());

    w.heading(2, "2. The byte sequences it denotes");
    let found = sequences(tables);
    w.paragraph(&format!(
        "Every path from the start state to the first accepting state it meets is one form \
         that `{start_rule}` strings together; consecutive bytes that lead to the same state \
         are grouped into a range. {} forms:",
        found.listed.len()
    ));
    let columns = found.listed.iter().map(|s| s.0.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|column| {
            found
                .listed
                .iter()
                .filter_map(|s| s.0.get(column))
                .map(|&r| super::names::range_text(r).chars().count())
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
                    let text = super::names::range_text(range);
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

    w.heading(2, "3. Thompson's construction: the NFA");
    let epsilon_moves: usize = nfa.states().iter().map(|s| s.epsilon.len()).sum();
    w.paragraph(&format!(
        "Each element of `{start_rule}` becomes a fragment with one entry and one exit, rule \
         references expanded in place: {} states, {} byte-range transitions and {epsilon_moves} \
         ε-moves, one start and one accepting state.",
        nfa.states().len(),
        nfa.transition_count()
    ));

    w.heading(2, "4. Subset construction: the DFA");
    let inputs = dfa_inputs(dfa);
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
         dead state. {} states; {} of them accept ({}). Each is listed with the shortest input \
         that reaches it and the minimal state it becomes:",
        dfa.state_count(),
        accepting.len(),
        listing(&accepting)
    ));
    let rows: Vec<Vec<String>> = (0..dfa.state_count().min(DFA_ROW_LIMIT))
        .map(|state| {
            let m = minimal_of[state];
            vec![
                state.to_string(),
                input_text(&inputs[state]),
                if dfa.is_accepting(state as u32) {
                    "yes"
                } else {
                    ""
                }
                .to_owned(),
                dfa.nfa_states(state as u32).len().to_string(),
                format!("{m}: {}", names[m as usize]),
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

    w.heading(2, "5. Moore's refinement: the minimal DFA");
    w.paragraph(&format!(
        "Start from two blocks, accepting and not, and split every block whose members \
         disagree on where some byte leads, until nothing splits: {} rounds, the last of \
         which changes nothing. {} DFA states become {} states. The merges, and why:",
        minimal.refinement_rounds(),
        dfa.state_count(),
        minimal.state_count()
    ));
    let mut merges = String::new();
    let mut alone = 0;
    for state in 0..minimal.state_count() as u32 {
        let merged = minimal.merged_from(state);
        if merged.len() < 2 {
            alone += usize::from(merged.len() == 1);
            if merged.is_empty() {
                let _ = writeln!(
                    merges,
                    "- {state} \"{}\" comes from no DFA state: every prefix can still be \
                     completed, and the tables need a state to fail into.",
                    names[state as usize]
                );
            }
            continue;
        }
        let mut quoted: Vec<String> = merged
            .iter()
            .take(MERGE_INPUT_LIMIT)
            .map(|&d| input_text(&inputs[d as usize]))
            .collect();
        if merged.len() > MERGE_INPUT_LIMIT {
            quoted.push(format!("{} more", merged.len() - MERGE_INPUT_LIMIT));
        }
        let ids: Vec<String> = merged.iter().map(|d| d.to_string()).collect();
        let _ = writeln!(
            merges,
            "- {state} \"{}\" merges DFA states {}: the DFA states reached by {} {} {}.",
            names[state as usize],
            listing(&ids),
            listing(&quoted),
            if merged.len() == 2 { "both" } else { "all" },
            role_reason(&roles[state as usize], &names, tables, state as u8)
        );
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

    w.heading(2, "6. Byte classes");
    let classes = tables.classes();
    w.paragraph(&format!(
        "Two bytes share a class when every state sends them to the same state. Numbered by \
         their smallest byte, {} classes:",
        classes.count()
    ));
    let rows: Vec<Vec<String>> = (0..classes.count() as u8)
        .map(|class| vec![class.to_string(), ranges_text(&classes.ranges(class))])
        .collect();
    w.table(&["class", "bytes"], &rows);
    w.paragraph(
        "The class of every byte, row by high nibble and column by low nibble, as Onigmo \
         lays out its table:",
    );
    w.code("text", &byte_class_grid(classes));

    w.heading(2, "7. The tables");
    let dead = tables.dead();
    w.paragraph(&format!(
        "State {} starts, state {dead} is the dead state, {} accepting. Next state by state \
         and class:",
        tables.start(),
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
                names[state].clone(),
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

    w.heading(2, "8. The state diagram");
    match style {
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
    let mut out = w.out;
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}
