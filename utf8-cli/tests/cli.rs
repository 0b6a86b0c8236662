//! The `utf8` binary run as a user runs it.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

use utf8_spec::explain::{Emit, Format, Stage, StageFormat, emit, render, render_stage};
use utf8_spec::rulesets::RFC3629;

use common::stdout;

fn utf8(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_utf8"))
        .args(args)
        .output()
        .expect("the utf8 binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn scratch_file(name: &str, contents: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).expect("write a scratch file");
    path
}

#[test]
fn derive_prints_the_library_rendering_in_every_format() {
    let derivation = RFC3629.derive().expect("rfc3629 derives");
    for (name, format) in [
        ("text", Format::Text),
        ("markdown", Format::Markdown),
        ("mermaid", Format::Mermaid),
        ("dot", Format::Dot),
    ] {
        let printed = stdout(&utf8(&["derive", "--format", name]));
        assert_eq!(
            printed.trim_end(),
            render(&derivation, format).trim_end(),
            "{name}"
        );
    }
}

#[test]
fn derive_stage_prints_the_library_rendering_of_every_stage_and_format() {
    let derivation = RFC3629.derive().expect("rfc3629 derives");
    let stages = [
        ("grammar", Stage::Grammar),
        ("nfa", Stage::Nfa),
        ("dfa", Stage::Dfa),
        ("rounds", Stage::Rounds),
        ("minimal", Stage::Minimal),
        ("classes", Stage::Classes),
    ];
    let formats = [
        StageFormat::Text,
        StageFormat::Markdown,
        StageFormat::Mermaid,
        StageFormat::Dot,
        StageFormat::Svg,
        StageFormat::Json,
    ];
    for (stage_name, stage) in stages {
        for format in formats {
            let output = utf8(&["derive", "--stage", stage_name, "--format", format.name()]);
            match render_stage(&derivation, stage, format) {
                Ok(expected) => assert_eq!(
                    stdout(&output).trim_end(),
                    expected.trim_end(),
                    "{stage_name} {}",
                    format.name()
                ),
                Err(unsupported) => {
                    assert_eq!(output.status.code(), Some(2), "{stage_name}");
                    assert_eq!(stderr(&output), format!("utf8: {unsupported}\n"));
                }
            }
        }
    }
}

#[test]
fn derive_minimal_as_svg_writes_one_whole_svg_document() {
    let svg = stdout(&utf8(&["derive", "--stage", "minimal", "--format", "svg"]));
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert!(svg.ends_with("</svg>\n"));
    assert_eq!(svg.matches("<svg").count(), 1);
    assert_eq!(svg.matches("<g ").count(), svg.matches("</g>").count());
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    assert_eq!(svg.matches("<g class=\"state\"").count(), 9);
    assert!(!svg.contains(" & "), "text is escaped");
    // Without --stage, svg draws the minimal DFA, as mermaid and dot draw the state diagram.
    assert_eq!(stdout(&utf8(&["derive", "--format", "svg"])), svg);
}

#[test]
fn derive_json_without_a_stage_is_a_usage_error() {
    let output = utf8(&["derive", "--format", "json"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with("utf8: --format json needs --stage"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn derive_defaults_to_rfc3629_as_text() {
    let explicit = stdout(&utf8(&[
        "derive",
        "--ruleset",
        "rfc3629",
        "--format",
        "text",
    ]));
    assert_eq!(stdout(&utf8(&["derive"])), explicit);
    insta::assert_snapshot!("derive_rfc3629_text", explicit);
}

#[test]
fn tables_prints_the_library_emission_in_every_language() {
    let derivation = RFC3629.derive().expect("rfc3629 derives");
    for (name, language) in [("rust", Emit::Rust), ("c", Emit::C), ("json", Emit::Json)] {
        let printed = stdout(&utf8(&["tables", "--emit", name]));
        assert_eq!(printed, emit(derivation.tables(), language), "{name}");
        insta::assert_snapshot!(format!("tables_rfc3629_{name}"), printed);
    }
}

#[test]
fn every_builtin_ruleset_is_accepted() {
    for ruleset in utf8_spec::rulesets::BUILTIN {
        let printed = stdout(&utf8(&[
            "derive",
            "--ruleset",
            ruleset.name,
            "--format",
            "mermaid",
        ]));
        assert!(printed.starts_with("stateDiagram-v2"), "{}", ruleset.name);
    }
}

#[test]
fn json_tables_read_back_as_the_derived_tables() {
    for ruleset in utf8_spec::rulesets::BUILTIN {
        let printed = stdout(&utf8(&[
            "tables",
            "--ruleset",
            ruleset.name,
            "--emit",
            "json",
        ]));
        let json: serde_json::Value = serde_json::from_str(&printed).expect("valid JSON");
        let derivation = ruleset.derive().expect("built-in rulesets derive");
        let tables = derivation.tables();
        assert_eq!(json["states"], tables.state_count());
        assert_eq!(json["classes"], tables.class_count());
        assert_eq!(json["start"], tables.start());
        assert_eq!(
            json["accepting"],
            serde_json::json!(tables.accepting_states())
        );
        let byte_classes: Vec<u8> = serde_json::from_value(json["byte_classes"].clone())
            .expect("byte_classes is a list of integers");
        assert_eq!(byte_classes, tables.byte_classes());
        let transitions: Vec<Vec<u8>> = serde_json::from_value(json["transitions"].clone())
            .expect("transitions is a list of rows");
        // Run the JSON's tables: they must answer as the library's do.
        for input in [
            &b"caf\xC3\xA9"[..],
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80",
            b"\xC0\xAF",
        ] {
            let end = input.iter().fold(tables.start(), |state, &byte| {
                transitions[state as usize][byte_classes[byte as usize] as usize]
            });
            assert_eq!(
                tables.accepting_states().contains(&end),
                tables.accepts(input),
                "{}: {input:02X?}",
                ruleset.name
            );
        }
    }
}

#[test]
fn an_abnf_file_derives_from_its_start_rule() {
    let path = scratch_file("digits.abnf", "number = 1*DIGIT\n");
    let printed = stdout(&utf8(&[
        "tables",
        "--abnf",
        path.to_str().expect("a UTF-8 path"),
        "--start",
        "number",
        "--emit",
        "json",
    ]));
    let json: serde_json::Value = serde_json::from_str(&printed).expect("valid JSON");
    assert_eq!(json["states"], 3);
}

#[test]
fn bad_abnf_exits_3_with_the_file_line_column_and_caret() {
    let path = scratch_file("bad.abnf", "s = *( %x41 / b )\n");
    let shown = path.to_str().expect("a UTF-8 path");
    let output = utf8(&["derive", "--abnf", shown, "--start", "s"]);
    assert_eq!(output.status.code(), Some(3));
    let message = stderr(&output);
    assert!(
        message.starts_with(&format!(
            "utf8: {shown}: line 1, column 15: undefined rule `b`\n"
        )),
        "{message}"
    );
    assert!(
        message.contains("1 | s = *( %x41 / b )\n  |               ^"),
        "{message}"
    );
}

#[test]
fn unknown_start_rule_exits_3() {
    let path = scratch_file("start.abnf", "s = %x41\n");
    let output = utf8(&["derive", "--abnf", path.to_str().unwrap(), "--start", "t"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(
        stderr(&output).contains("no rule named `t`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn missing_file_exits_2_with_one_line() {
    let output = utf8(&["derive", "--abnf", "/nonexistent/spec.abnf", "--start", "s"]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.starts_with("utf8: cannot read /nonexistent/spec.abnf: "),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1, "{message}");
}

#[test]
fn unknown_ruleset_exits_2_with_one_line() {
    let output = utf8(&["tables", "--ruleset", "utf9", "--emit", "c"]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.starts_with("utf8: unknown ruleset `utf9`; the built-in rulesets are rfc3629, "),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1, "{message}");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["tables"][..],
        &["derive", "--format", "pdf"],
        &["derive", "--stage", "tables"],
        &["derive", "--stage", "grammar", "--format", "svg"],
        &["derive", "--stage", "classes", "--format", "dot"],
        &["derive", "--abnf", "x.abnf"],
        &[
            "derive",
            "--ruleset",
            "rfc3629",
            "--abnf",
            "x.abnf",
            "--start",
            "s",
        ],
        &["frobnicate"],
    ] {
        assert_eq!(utf8(args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn help_documents_the_exit_codes() {
    for args in [
        &["--help"][..],
        &["derive", "--help"],
        &["tables", "--help"],
    ] {
        let help = stdout(&utf8(args));
        assert!(
            help.contains("Exit status:") && help.contains("3  the spec does not derive"),
            "{help}"
        );
    }
}
