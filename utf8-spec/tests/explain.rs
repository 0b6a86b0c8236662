//! The explanations of the built-in derivations as snapshots, and the
//! emitted tables compiled by the compilers they are written for.

use std::path::PathBuf;
use std::process::Command;

use utf8_spec::explain::{Emit, Format, emit, render};
use utf8_spec::rulesets::{LEGACY31, RFC3629, Ruleset};
use utf8_spec::{Derivation, Tables};

fn derive(ruleset: &Ruleset) -> Derivation {
    ruleset
        .derive()
        .unwrap_or_else(|e| panic!("{} derives: {e}", ruleset.name))
}

const FORMATS: [(Format, &str); 4] = [
    (Format::Text, "text"),
    (Format::Markdown, "markdown"),
    (Format::Mermaid, "mermaid"),
    (Format::Dot, "dot"),
];

const LANGUAGES: [(Emit, &str); 3] = [(Emit::Rust, "rust"), (Emit::C, "c"), (Emit::Json, "json")];

#[test]
fn render_snapshots() {
    for ruleset in [RFC3629, LEGACY31] {
        let derivation = derive(&ruleset);
        for (format, format_name) in FORMATS {
            insta::assert_snapshot!(
                format!("render_{}_{format_name}", ruleset.name),
                render(&derivation, format)
            );
        }
    }
}

#[test]
fn emit_snapshots() {
    for ruleset in [RFC3629, LEGACY31] {
        let derivation = derive(&ruleset);
        for (language, language_name) in LANGUAGES {
            insta::assert_snapshot!(
                format!("emit_{}_{language_name}", ruleset.name),
                emit(derivation.tables(), language)
            );
        }
    }
}

#[test]
fn json_has_exactly_the_documented_keys_and_the_tables() {
    for ruleset in utf8_spec::rulesets::BUILTIN {
        let tables = derive(ruleset).tables().clone();
        let json: serde_json::Value = serde_json::from_str(&emit(&tables, Emit::Json))
            .unwrap_or_else(|e| panic!("{}: emitted JSON must parse: {e}", ruleset.name));
        let object = json.as_object().expect("a JSON object");
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "accepting",
                "byte_classes",
                "classes",
                "shift",
                "shortcut",
                "start",
                "states",
                "transitions",
                "vector"
            ]
        );
        let shift = utf8_spec::shift::ShiftDfa::new(&tables).expect("a shift DFA");
        let rows: Vec<u128> = json["shift"]["rows"]
            .as_array()
            .expect("the shift rows")
            .iter()
            .map(|row| {
                let hex = row.as_str().expect("a hex string");
                u128::from_str_radix(hex.trim_start_matches("0x"), 16).expect("hex")
            })
            .collect();
        assert_eq!(rows, shift.rows(), "{}", ruleset.name);
        assert_eq!(json["shift"]["start"], shift.offset(tables.start()));
        assert_eq!(json["shift"]["dead"], shift.offset(tables.dead()));
        assert_eq!(json["states"], tables.state_count());
        assert_eq!(json["classes"], tables.class_count());
        assert_eq!(json["start"], tables.start());
        assert_eq!(
            json["accepting"],
            serde_json::json!(tables.accepting_states())
        );
        assert_eq!(
            json["byte_classes"],
            serde_json::json!(tables.byte_classes().to_vec())
        );
        let rows: Vec<Vec<u8>> = tables
            .transitions()
            .chunks(tables.class_count())
            .map(<[u8]>::to_vec)
            .collect();
        assert_eq!(
            rows.len(),
            tables.state_count(),
            "the dead state has its row"
        );
        assert_eq!(json["transitions"], serde_json::json!(rows));
    }
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Inputs on which the compiled programs must give `tables.accepts`'s
/// verdict: every single byte and an edge case of each kind of error.
fn probes() -> Vec<Vec<u8>> {
    let mut probes: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"plain ASCII".to_vec(),
        "ࠀ€𐀀\u{10FFFF}".as_bytes().to_vec(),
        b"\xC0\x80".to_vec(),
        b"\xE0\x80\x80".to_vec(),
        b"\xED\xA0\x80".to_vec(),
        b"\xF4\x90\x80\x80".to_vec(),
        b"\xF8\x88\x80\x80\x80".to_vec(),
        b"\xFD\xBF\xBF\xBF\xBF\xBF".to_vec(),
    ];
    probes.extend((0..=255u8).map(|b| vec![b]));
    probes
}

fn check_program(tables: &Tables, language: &str) -> String {
    let mut out = String::new();
    for probe in probes() {
        let expected = tables.accepts(&probe);
        let bytes: Vec<String> = probe.iter().map(|b| format!("{b}")).collect();
        let call = match language {
            "rust" => format!("accepts(&[{}])", bytes.join(", ")),
            _ => format!(
                "utf8_accepts((const uint8_t[]){{{}}}, {})",
                if bytes.is_empty() {
                    "0".to_owned()
                } else {
                    bytes.join(", ")
                },
                probe.len()
            ),
        };
        let negation = if expected { "" } else { "!" };
        out.push_str(&match language {
            "rust" => format!("    assert!({negation}{call});\n"),
            _ => format!("    if (!({negation}{call})) return 1;\n"),
        });
    }
    out
}

fn run(command: &mut Command, what: &str) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn emitted_rust_compiles_and_agrees_with_the_tables() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    for ruleset in [RFC3629, LEGACY31] {
        let tables = derive(&ruleset).tables().clone();
        let dir = scratch_dir(&format!("emit-rust-{}", ruleset.name));
        let source = dir.join("main.rs");
        let program = format!(
            "#![deny(warnings)]\n#![allow(dead_code)]\n{}\nfn main() {{\n{}}}\n",
            emit(&tables, Emit::Rust),
            check_program(&tables, "rust")
        );
        std::fs::write(&source, program).expect("write the program");
        let binary = dir.join("check");
        run(
            Command::new(&rustc)
                .args(["--edition", "2021", "-o"])
                .arg(&binary)
                .arg(&source),
            &format!("rustc on the {} tables", ruleset.name),
        );
        run(
            &mut Command::new(&binary),
            &format!("the {} Rust check", ruleset.name),
        );
    }
}

#[test]
fn emitted_c_compiles_and_agrees_with_the_tables() {
    if Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("gcc not found: the C output is not compiled");
        return;
    }
    for ruleset in [RFC3629, LEGACY31] {
        let tables = derive(&ruleset).tables().clone();
        let dir = scratch_dir(&format!("emit-c-{}", ruleset.name));
        let header = dir.join("tables.h");
        std::fs::write(&header, emit(&tables, Emit::C)).expect("write the header");
        run(
            Command::new("gcc")
                .args([
                    "-std=c99",
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-fsyntax-only",
                    "-x",
                    "c",
                ])
                .arg(&header),
            &format!("gcc -fsyntax-only on the {} tables", ruleset.name),
        );
        let source = dir.join("check.c");
        let program = format!(
            "#include \"tables.h\"\nint main(void) {{\n{}    return 0;\n}}\n",
            check_program(&tables, "c")
        );
        std::fs::write(&source, program).expect("write the program");
        let binary = dir.join("check");
        run(
            Command::new("gcc")
                .args(["-std=c99", "-Wall", "-Werror", "-o"])
                .arg(&binary)
                .arg(&source),
            &format!("gcc on the {} check", ruleset.name),
        );
        run(
            &mut Command::new(&binary),
            &format!("the {} C check", ruleset.name),
        );
    }
}
