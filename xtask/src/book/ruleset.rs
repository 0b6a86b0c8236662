//! One page per built-in ruleset: each stage of its derivation in order,
//! with what the stage does, its picture inline (or its table, past the
//! size that is drawn) and its table folded beneath.

use std::fmt::Write as _;

use utf8_spec::explain::{Stage, StageFormat, is_drawn, render_stage, state_names};
use utf8_spec::rulesets::Ruleset;
use utf8_spec::{Derivation, Tables};

use super::markdown::{Block, blocks, escape, html, inline};

/// The stages in the order the derivation runs them, each with its heading
/// and why it is there; a section's anchor is the stage's name (`nfa`).
const STAGES: [(Stage, &str, &str); 6] = [
    (
        Stage::Grammar,
        "The grammar",
        "The spec's ABNF, the only input: every stage below is computed from this text, \
         nothing is typed per ruleset.",
    ),
    (
        Stage::Nfa,
        "Thompson's construction: the NFA",
        "Each element of the grammar becomes a fragment with one entry and one exit, and \
         rule references are expanded in place; dashed ε-moves glue the fragments together. \
         The NFA is as large as the grammar written out, and can be in many states at once.",
    ),
    (
        Stage::Dfa,
        "Subset construction: the DFA",
        "Following every byte from each set of NFA states the input can be in gives one DFA \
         state per set, the empty set being the dead state. Each state is captioned with the \
         shortest input that reaches it; many of them still behave alike.",
    ),
    (
        Stage::Rounds,
        "Moore's refinement, round by round",
        "Minimization merges the DFA states that no input can tell apart. The pictures \
         show one panel a round, each state filled with its block's colour.",
    ),
    (
        Stage::Minimal,
        "The minimal DFA",
        "The blocks of the last round are the states of the smallest automaton that accepts \
         the same inputs. Their names are read off the automaton: what it has seen, and what \
         it still allows.",
    ),
    (
        Stage::Classes,
        "Byte classes",
        "Two bytes share a class when every state sends them to the same state, so the table \
         needs a column per class rather than per byte.",
    ),
];

/// The page's file name, relative to the book.
pub(crate) fn file_name(ruleset: &Ruleset) -> String {
    format!("{}.html", ruleset.name)
}

/// The page's title and body.
pub(crate) fn page(ruleset: &Ruleset) -> (String, String) {
    let derivation = ruleset.derive().expect("built-in rulesets derive");
    let mut body = format!(
        "<h1><code>{}</code>: how <code>{}</code> becomes an automaton</h1>\n\
         <p>Source: {}.</p>\n",
        escape(ruleset.name),
        escape(ruleset.start),
        escape(ruleset.source)
    );
    body.push_str("<nav class=\"toc\"><ol>\n");
    for (stage, heading, _) in STAGES {
        let _ = writeln!(
            body,
            "<li><a href=\"#{}\">{}</a></li>",
            stage.name(),
            inline(heading)
        );
    }
    body.push_str(
        "<li><a href=\"#tables\">The tables</a></li>\n\
         <li><a href=\"#elsewhere\">The tables in another program</a></li>\n</ol></nav>\n",
    );
    for (number, (stage, heading, why)) in STAGES.iter().enumerate() {
        body.push_str(&section(&derivation, *stage, number + 1, heading, why));
    }
    body.push_str(&tables_section(derivation.tables(), STAGES.len() + 1));
    body.push_str(&elsewhere_section(ruleset, STAGES.len() + 2));
    (format!("{} — the derivation", ruleset.name), body)
}

/// The manual's C program: the one its test compiles against each built-in
/// ruleset's emitted C and runs.
const MANUAL: &str = include_str!("../../../utf8-cli/README.md");

/// The manual's C program, its `#include` line naming `ruleset`'s command.
fn c_program(ruleset: &Ruleset) -> String {
    let start = MANUAL.find("```c\n").expect("the manual's C program") + "```c\n".len();
    let program = &MANUAL[start..];
    let program = &program[..program.find("```").expect("its end")];
    program.replace(
        "utf8 tables --emit c > tables.h",
        &format!("utf8 tables --ruleset {} --emit c > tables.h", ruleset.name),
    )
}

/// The same tables for another program: the command and a C program using
/// the validator it writes.
fn elsewhere_section(ruleset: &Ruleset, number: usize) -> String {
    format!(
        "<section id=\"elsewhere\">\n<h2>{number}. The tables in another program</h2>\n\
         <p><code>utf8 tables --ruleset {name} --emit c</code> writes these tables as one C99 \
         header, with the same automaton as a shift DFA and, where the derivation proves it, \
         the vectorised check: <code>utf8_validate_simd</code> says what Rust's \
         <code>Utf8Error</code> says, 32 bytes at a time with AVX2 and 16 with SSE4.1 or NEON, \
         and <code>utf8_stream_simd</code> validates in pieces. <code>--emit rust</code> and \
         <code>--emit json</code> give the same tables. Compiled with <code>cc -O2 -mavx2 \
         main.c</code>, this program prints what its comment says:</p>\n\
         <pre><code>{program}</code></pre>\n</section>\n",
        name = escape(ruleset.name),
        program = escape(&c_program(ruleset)),
    )
}

/// One stage: why it is there, what it found, its picture, and its table
/// (folded when the picture shows the same).
fn section(
    derivation: &Derivation,
    stage: Stage,
    number: usize,
    heading: &str,
    why: &str,
) -> String {
    let name = stage.name();
    let mut out = format!(
        "<section id=\"{name}\">\n<h2>{number}. {}</h2>\n<p>{}</p>\n",
        inline(heading),
        inline(why)
    );
    let markdown = render_stage(derivation, stage, StageFormat::Markdown)
        .expect("every stage has a Markdown form");
    let parts = blocks(&markdown, 1);
    let prose: Vec<Block> = parts
        .iter()
        .filter_map(|b| match b {
            Block::Prose(h) => Some(Block::Prose(h.clone())),
            _ => None,
        })
        .collect();
    let data: Vec<Block> = parts
        .into_iter()
        .filter(|b| matches!(b, Block::Data(_)))
        .collect();
    out.push_str(&html(&prose));
    if is_drawn(derivation, stage) {
        let svg = render_stage(derivation, stage, StageFormat::Svg).expect("drawn stages have SVG");
        let _ = writeln!(
            out,
            "<div class=\"figure\">\n{}</div>",
            unique_ids(&svg, name)
        );
        let _ = writeln!(
            out,
            "<details><summary>As a table</summary>\n{}</details>",
            html(&data)
        );
    } else {
        out.push_str(&html(&data));
    }
    out.push_str("</section>\n");
    out
}

/// The SVG with its ids (the arrowhead marker, the states) prefixed by the
/// stage, so that several pictures inline in one page keep ids unique and
/// each picture's arrows point at its own marker.
fn unique_ids(svg: &str, prefix: &str) -> String {
    svg.replace("id=\"", &format!("id=\"{prefix}-"))
        .replace("url(#", &format!("url(#{prefix}-"))
}

/// The tables the library compiles in: next state by state and class.
fn tables_section(tables: &Tables, number: usize) -> String {
    let names = state_names(tables);
    let mut out = format!(
        "<section id=\"tables\">\n<h2>{number}. The tables</h2>\n<p>What the library \
         compiles in: the class of every byte (above) and the next state by state and class \
         (below). Validation is one lookup a byte; an input is valid when the walk from \
         state {} ends in an accepting state. State {} is dead: nothing leaves it.</p>\n",
        tables.start(),
        tables.dead()
    );
    out.push_str("<table class=\"next\">\n<thead><tr><th>state</th><th>name</th><th>accepts</th>");
    for class in 0..tables.class_count() {
        let _ = write!(out, "<th>{class}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (state, name) in names.iter().enumerate() {
        let _ = write!(
            out,
            "<tr><td>{state}</td><td>{}</td><td>{}</td>",
            escape(name),
            if tables.accepting()[state] { "yes" } else { "" }
        );
        for class in tables.classes().ids() {
            let byte = (0..=255u8)
                .find(|&b| tables.classes().class(b) == class)
                .expect("every class has a byte");
            let _ = write!(out, "<td>{}</td>", tables.next(state as u8, byte));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
    out
}
