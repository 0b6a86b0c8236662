//! The tables as source text for other programs: Rust, C, or JSON.

use std::fmt::Write as _;

use super::names::state_names;
use crate::Tables;

mod shift;
mod vector;
mod vector_paths;
mod vector_restart;

use shift::{Shift, TOO_MANY_STATES};

/// The language [`emit`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Emit {
    /// `const` items and a `const fn accepts`, `shift_accepts`, and
    /// `vector_check`.
    Rust,
    /// `static const` arrays and an `accepts` function, C99; and on the
    /// shift DFA, `utf8_validate` and `utf8_stream`, with the vector
    /// validator `utf8_validate_simd` and `utf8_stream_simd`.
    C,
    /// One object with the keys `states`, `classes`, `start`, `accepting`,
    /// `byte_classes`, `transitions`, `shift` (`null` where the tables
    /// have too many states for a shift DFA; else its `row_bits`,
    /// `field_bits`, `start`, `dead` and `accepting` offsets, and its 256
    /// `rows` as hexadecimal strings, which JSON's numbers cannot hold) and
    /// `vector` (the vectorised check's `sets` of nibble tables,
    /// `error_mask`, `must_continue`, `incomplete`, `boundary`,
    /// `ascii_skip_from`, `max_lag`, `proof_states` and `pairing`; or
    /// `declined`, the reason there is none) and `shortcut` (`null`, or
    /// where a validator takes the UTF-8 shortcut first, its `forbidden`
    /// byte ranges and the `vector` check of its language).
    Json,
}

/// The tables as source text in `language`.
///
/// Every output holds the same numbers: the class of each byte, and for each
/// state one row of next states indexed by class (the dead state is a row
/// like the others). The Rust and C outputs name each row's state in a comment.
///
/// Then the same automaton as a shift DFA ([`ShiftDfa`](crate::shift::ShiftDfa)),
/// where it fits a 128-bit row: its rows and constants, a `shift_accepts` in
/// Rust, and in C a validator that says what Rust's `Utf8Error` says
/// (`utf8_validate`) and a form that validates in pieces (`utf8_stream`).
///
/// Last, the vectorised check's tables ([`SimdTables`](crate::simd::SimdTables)),
/// where the derivation proves them exact, with what the proof found and the
/// check they make written a byte at a time (`vector_check` in Rust,
/// `utf8_vec_check` in C), or the reason the ruleset has none; in C, the
/// vector validator over them, `utf8_validate_simd`, and its streaming form
/// `utf8_stream_simd`. Where the ruleset's own check costs more a block than
/// UTF-8's and valid UTF-8 without a few bytes is valid under it (CESU-8,
/// WTF-8, RFC 2279: see [`Utf8Shortcut`](crate::utf8_shortcut::Utf8Shortcut)),
/// those bytes and the proved check of that smaller language follow
/// (`SHORTCUT_*` in Rust, `utf8_shortcut_*` in C, JSON's `shortcut`), and
/// the C validator runs that check first.
pub fn emit(tables: &Tables, language: Emit) -> String {
    let shift = Shift::new(tables);
    let vector = vector::new(tables);
    let shortcut = vector_restart::find(tables, &vector);
    match language {
        Emit::Rust => {
            let text = shift
                .as_ref()
                .map_or_else(|| format!("\n// {TOO_MANY_STATES}.\n"), shift::rust);
            rust(tables) + &text + &vector::rust(&vector) + &vector_restart::rust(shortcut.as_ref())
        }
        Emit::C => {
            let text = shift.as_ref().map_or_else(
                || format!("\n/* {TOO_MANY_STATES}. */\n"),
                |dfa| format!("\n{}", shift::c(dfa)),
            );
            c(tables) + &text + &vector::c(&vector, shift.is_some(), shortcut.as_ref())
        }
        Emit::Json => {
            let text = shift
                .as_ref()
                .map_or_else(|| "  \"shift\": null".to_owned(), shift::json);
            json(
                tables,
                &format!(
                    "{text},\n{},\n{}",
                    vector::json(&vector),
                    vector_restart::json(shortcut.as_ref())
                ),
            )
        }
    }
}

fn rows(tables: &Tables) -> impl Iterator<Item = &[u8]> {
    tables.transitions().chunks(tables.class_count())
}

fn numbers(values: impl IntoIterator<Item = u8>) -> String {
    values
        .into_iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn byte_class_lines(tables: &Tables, indent: &str, comment: (&str, &str)) -> String {
    let mut out = String::new();
    for (row, chunk) in tables.byte_classes().chunks(16).enumerate() {
        let _ = writeln!(
            out,
            "{indent}{}, {} {:X}0-{:X}F{}",
            numbers(chunk.iter().copied()),
            comment.0,
            row,
            row,
            comment.1
        );
    }
    out
}

fn rust(tables: &Tables) -> String {
    let names = state_names(tables);
    let (states, classes) = (tables.state_count(), tables.class_count());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated by `utf8 tables --emit rust` from a utf8-spec derivation.\n\
         // State 0 starts; a byte `b` moves state `s` to `TRANSITIONS[s][BYTE_CLASSES[b] as usize]`.\n"
    );
    let _ = writeln!(out, "/// The number of states, the dead state included.");
    let _ = writeln!(out, "pub const STATES: usize = {states};");
    let _ = writeln!(out, "/// The number of byte classes.");
    let _ = writeln!(out, "pub const CLASSES: usize = {classes};");
    let _ = writeln!(out, "/// The start state.");
    let _ = writeln!(out, "pub const START: u8 = {};", tables.start());
    let _ = writeln!(out, "/// The dead state: once in it, nothing is accepted.");
    let _ = writeln!(out, "pub const DEAD: u8 = {};", tables.dead());
    let _ = writeln!(out, "/// Whether each state accepts, indexed by state.");
    let _ = writeln!(
        out,
        "pub const ACCEPTING: [bool; STATES] = [{}];",
        tables
            .accepting()
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(out, "/// The class of each byte.");
    let _ = writeln!(out, "pub const BYTE_CLASSES: [u8; 256] = [");
    out.push_str(&byte_class_lines(tables, "    ", ("//", "")));
    let _ = writeln!(out, "];");
    let _ = writeln!(out, "/// The next state, by state and class.");
    let _ = writeln!(out, "pub const TRANSITIONS: [[u8; CLASSES]; STATES] = [");
    for (state, row) in rows(tables).enumerate() {
        let _ = writeln!(
            out,
            "    [{}], // {state}: {}",
            numbers(row.iter().copied()),
            names[state]
        );
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "\n/// Whether `bytes` is in the language.\n\
         pub const fn accepts(bytes: &[u8]) -> bool {{\n    \
             let mut state = START;\n    \
             let mut i = 0;\n    \
             while i < bytes.len() {{\n        \
                 state = TRANSITIONS[state as usize][BYTE_CLASSES[bytes[i] as usize] as usize];\n        \
                 i += 1;\n    \
             }}\n    \
             ACCEPTING[state as usize]\n\
         }}"
    );
    out
}

fn c(tables: &Tables) -> String {
    let names = state_names(tables);
    let (states, classes) = (tables.state_count(), tables.class_count());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/* Generated by `utf8 tables --emit c` from a utf8-spec derivation.\n   \
         State 0 starts; a byte b moves state s to utf8_transitions[s][utf8_byte_classes[b]]. */\n\n\
         #include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n"
    );
    let _ = writeln!(
        out,
        "enum {{ UTF8_STATES = {states}, UTF8_CLASSES = {classes}, UTF8_START = {}, UTF8_DEAD = {} }};\n",
        tables.start(),
        tables.dead()
    );
    let _ = writeln!(
        out,
        "static const bool utf8_accepting[UTF8_STATES] = {{{}}};\n",
        tables
            .accepting()
            .iter()
            .map(|&a| if a { "true" } else { "false" })
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(out, "static const uint8_t utf8_byte_classes[256] = {{");
    out.push_str(&byte_class_lines(tables, "    ", ("/*", " */")));
    let _ = writeln!(out, "}};\n");
    let _ = writeln!(
        out,
        "static const uint8_t utf8_transitions[UTF8_STATES][UTF8_CLASSES] = {{"
    );
    for (state, row) in rows(tables).enumerate() {
        let _ = writeln!(
            out,
            "    {{{}}}, /* {state}: {} */",
            numbers(row.iter().copied()),
            names[state].replace("*/", "* /")
        );
    }
    let _ = writeln!(out, "}};\n");
    let _ = writeln!(
        out,
        "/* Whether the n bytes at p are in the language. */\n\
         static inline bool utf8_accepts(const uint8_t *p, size_t n) {{\n    \
             uint8_t state = UTF8_START;\n    \
             for (size_t i = 0; i < n; i++) {{\n        \
                 state = utf8_transitions[state][utf8_byte_classes[p[i]]];\n    \
             }}\n    \
             return utf8_accepting[state];\n\
         }}"
    );
    out
}

/// The tables as JSON, `shift` and `vector` the last keys, given with
/// their values.
fn json(tables: &Tables, shift: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{{");
    let _ = writeln!(out, "  \"states\": {},", tables.state_count());
    let _ = writeln!(out, "  \"classes\": {},", tables.class_count());
    let _ = writeln!(out, "  \"start\": {},", tables.start());
    let _ = writeln!(
        out,
        "  \"accepting\": [{}],",
        numbers(tables.accepting_states())
    );
    let _ = writeln!(out, "  \"byte_classes\": [");
    let lines: Vec<String> = tables
        .byte_classes()
        .chunks(16)
        .map(|chunk| format!("    {}", numbers(chunk.iter().copied())))
        .collect();
    let _ = writeln!(out, "{}\n  ],", lines.join(",\n"));
    let _ = writeln!(out, "  \"transitions\": [");
    let lines: Vec<String> = rows(tables)
        .map(|row| format!("    [{}]", numbers(row.iter().copied())))
        .collect();
    let _ = writeln!(out, "{}\n  ],", lines.join(",\n"));
    let _ = writeln!(out, "{shift}");
    let _ = writeln!(out, "}}");
    out
}
