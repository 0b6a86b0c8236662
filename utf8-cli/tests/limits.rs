//! `utf8 tables` and `utf8 derive` on grammars at and past the derivation's
//! limits, as a user meets them: 256 states and 256 byte classes come out
//! whole in every format, and a grammar too deep, too large or not text is
//! refused at once with exit 3 and its place.

mod common;

use std::path::Path;
use std::process::Output;

use common::{arg, scratch, stdout, utf8_within_ten_seconds as utf8, write};

/// The one-line message of a refused spec, after checking its exit status.
fn refused(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    assert!(output.stdout.is_empty());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("JSON")
}

fn tables(grammar: &Path, start: &str, emit: &str) -> Output {
    utf8(&[
        "tables",
        "--abnf",
        arg(grammar),
        "--start",
        start,
        "--emit",
        emit,
    ])
}

fn derive(grammar: &Path, start: &str, extra: &[&str]) -> Output {
    let mut args = vec!["derive", "--abnf", arg(grammar), "--start", start];
    args.extend_from_slice(extra);
    utf8(&args)
}

#[test]
fn a_grammar_of_256_states_comes_out_whole_in_every_format() {
    let dir = scratch();
    let grammar = write(dir.path(), "g.abnf", b"a = 254%x41\n");
    let emitted = json(&stdout(&tables(&grammar, "a", "json")));
    assert_eq!(emitted["states"], 256);
    assert_eq!(emitted["accepting"], serde_json::json!([254]));
    let c = stdout(&tables(&grammar, "a", "c"));
    assert!(c.contains("254"), "{c}");
    stdout(&tables(&grammar, "a", "rust"));
    for format in ["text", "markdown", "mermaid", "dot"] {
        // The accepting state, the last before the dead one, is shown.
        let printed = stdout(&derive(&grammar, "a", &["--format", format]));
        assert!(printed.contains("254"), "{format}");
    }
    let minimal = stdout(&derive(&grammar, "a", &["--stage", "minimal"]));
    assert!(minimal.contains("256 states"), "{minimal}");
    stdout(&derive(
        &grammar,
        "a",
        &["--stage", "minimal", "--format", "svg"],
    ));
}

#[test]
fn a_grammar_of_256_byte_classes_lists_every_class() {
    let dir = scratch();
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/256-classes.abnf"
    ))
    .expect("the grammar of 256 classes");
    let grammar = write(dir.path(), "g.abnf", &text);
    let classes = json(&stdout(&derive(
        &grammar,
        "a",
        &["--stage", "classes", "--format", "json"],
    )));
    assert_eq!(classes["ranges"].as_array().map(Vec::len), Some(256));
    let table = stdout(&derive(&grammar, "a", &["--stage", "classes"]));
    assert!(table.contains("255"), "{table}");
    let emitted = json(&stdout(&tables(&grammar, "a", "json")));
    assert_eq!(emitted["classes"], 256);
}

#[test]
fn a_grammar_of_257_states_is_refused_with_exit_3() {
    let dir = scratch();
    let grammar = write(dir.path(), "g.abnf", b"a = 255%x41\n");
    let message = refused(&tables(&grammar, "a", "json"));
    assert!(message.contains("exceeds the limit of 256"), "{message}");
}

#[test]
fn a_long_repetition_is_refused_at_once() {
    // Minimized in one round a state, this took minutes.
    let dir = scratch();
    for count in [4_000, 16_000, 99_999] {
        let text = format!("a = {count}%x41\n");
        let grammar = write(dir.path(), "g.abnf", text.as_bytes());
        let message = refused(&tables(&grammar, "a", "json"));
        assert!(message.contains("exceeds the limit"), "{message}");
    }
}

#[test]
fn brackets_nested_ten_thousand_deep_are_refused_at_their_line_and_column() {
    let dir = scratch();
    for (open, close) in [("(", ")"), ("[", "]")] {
        let text = format!("a = {}%x41{}\n", open.repeat(10_000), close.repeat(10_000));
        let grammar = write(dir.path(), "g.abnf", text.as_bytes());
        for output in [tables(&grammar, "a", "json"), derive(&grammar, "a", &[])] {
            let message = refused(&output);
            assert!(
                message.contains("line 1, column 261: brackets nest deeper than 256 levels"),
                "{message}"
            );
        }
    }
}

#[test]
fn a_chain_of_forty_thousand_rules_is_refused_at_its_line_and_column() {
    let dir = scratch();
    let mut text = String::new();
    for i in 0..39_999 {
        text.push_str(&format!("r{i} = r{}\n", i + 1));
    }
    text.push_str("r39999 = %x41\n");
    let grammar = write(dir.path(), "g.abnf", text.as_bytes());
    for output in [tables(&grammar, "r0", "json"), derive(&grammar, "r0", &[])] {
        let message = refused(&output);
        assert!(
            message.contains("line 39744, column 1: rule `r39743` nests deeper than 256 levels"),
            "{message}"
        );
    }
}

#[test]
fn a_grammar_file_that_is_not_utf8_is_refused_at_the_byte() {
    let dir = scratch();
    let grammar = write(dir.path(), "g.abnf", b"a = %x41 / b\nb = \"caf\xE9\"\n");
    let message = refused(&tables(&grammar, "a", "json"));
    assert!(
        message.contains("line 2, column 9: byte E9 is not UTF-8"),
        "{message}"
    );
    assert!(message.contains("2 | b = \"caf\u{FFFD}\""), "{message}");
}

#[test]
fn an_empty_quoted_string_is_the_empty_string() {
    let dir = scratch();
    let grammar = write(dir.path(), "g.abnf", b"a = \"x\" / \"\"\n");
    let emitted = json(&stdout(&tables(&grammar, "a", "json")));
    // The start state accepts: the empty string is in the language.
    assert_eq!(emitted["accepting"][0], 0);
}
