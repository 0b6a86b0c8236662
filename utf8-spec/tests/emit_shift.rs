//! The shift DFA as `explain::emit` writes it: the C validator compiled by
//! gcc under AddressSanitizer and UndefinedBehaviorSanitizer and run on the
//! corpus, every prefix of a text up to 300 bytes, random and mutated
//! inputs, each in an allocation of its own size, against the class tables
//! byte at a time (`Utf8Error`'s `valid_up_to` and `error_len`, as utf8-core
//! works them out), whole and in three pieces; and the Rust output's
//! `shift_accepts` against its `accepts`. For every built-in ruleset, a
//! scalar set (XML 1.0's `Char`), and a small grammar of 32-bit rows.
//!
//! The vectorised check's emitted tables the same way: the check they make
//! a byte at a time (`utf8_vec_check`, `vector_check`) and the end test
//! (`utf8_vec_ends_inside`) against the class tables, and a grammar whose
//! check the derivation declines says why.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use utf8_spec::explain::{Emit, emit};
use utf8_spec::rulesets::BUILTIN;
use utf8_spec::shift::ShiftDfa;
use utf8_spec::simd::SimdTables;
use utf8_spec::{Derivation, Tables};

/// The grammars under test, by name.
fn grammars() -> Vec<(String, Derivation)> {
    let mut all: Vec<(String, Derivation)> = BUILTIN
        .iter()
        .map(|r| (r.name.to_owned(), r.derive().expect("a built-in derives")))
        .collect();
    let xml_char = [
        (0x9, 0xA),
        (0xD, 0xD),
        (0x20, 0xD7FF),
        (0xE000, 0xFFFD),
        (0x10000, 0x10FFFF),
    ];
    all.push((
        "xml-char".to_owned(),
        utf8_spec::scalars::derive(&xml_char).expect("XML's Char derives"),
    ));
    let small = "words = 1*( %x61-7A / %xC3 %xA0-BF / %x20 )\n";
    all.push((
        "small".to_owned(),
        Derivation::new(small, "words").expect("the small grammar derives"),
    ));
    all
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("emit-shift")
        .join(name);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// What `Utf8Error` says of `input` under `tables`: `valid_up_to`, and
/// `error_len` (0 when valid, -1 when cut short), as utf8-core's automaton
/// finds them.
fn reference(tables: &Tables, input: &[u8]) -> (usize, i32) {
    let mut state = tables.start();
    let mut valid_up_to = 0;
    for (index, &byte) in input.iter().enumerate() {
        state = tables.next(state, byte);
        if state == tables.dead() {
            let len = (index - valid_up_to).clamp(1, 255);
            return (valid_up_to, len as i32);
        }
        if tables.accepting()[usize::from(state)] {
            valid_up_to = index + 1;
        }
    }
    if tables.accepting()[usize::from(state)] {
        (input.len(), 0)
    } else {
        (valid_up_to, -1)
    }
}

/// A deterministic source of choices (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The inputs: the corpus files, each prefix of 0 to 300 bytes of a mixed
/// text, and random and mutated ones.
fn inputs() -> Vec<Vec<u8>> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/corpus");
    let mut inputs = Vec::new();
    for folder in ["lipsum", "wikipedia_mars"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(corpus.join(folder))
            .expect("the corpus")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        for file in files {
            inputs.push(std::fs::read(file).expect("a corpus file"));
        }
    }
    let text = "Mars \u{2642} caf\u{E9} \u{65E5}\u{672C} \u{1F680} \u{10FFFF} \u{0}\t\r\n";
    let text = text.repeat(12).into_bytes();
    for len in 0..=300 {
        inputs.push(text[..len.min(text.len())].to_vec());
    }
    let mut rng = Rng(0x5EED);
    for _ in 0..2000 {
        let len = rng.below(80);
        let mut input: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if rng.below(2) == 0 {
            // Mostly valid: mixed text with a byte or two changed.
            let start = rng.below(text.len() - len.min(text.len()) + 1);
            input = text[start..start + len.min(text.len() - start)].to_vec();
            for _ in 0..=rng.below(2) {
                if !input.is_empty() {
                    let at = rng.below(input.len());
                    input[at] = rng.next() as u8;
                }
            }
        }
        inputs.push(input);
    }
    inputs
}

/// Reads records (a 4-byte little-endian length, then the bytes) from
/// standard input; each is copied into an allocation of its own size, so
/// that a read past it is ASan's report, and answered by `answer`, C
/// statements that see it as `input` and `n` ([`run_c`]).
const HARNESS: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    unsigned char header[4];
    while (fread(header, 1, 4, stdin) == 4) {
        size_t n = (size_t)header[0] | (size_t)header[1] << 8 | (size_t)header[2] << 16 |
                   (size_t)header[3] << 24;
        uint8_t *input = malloc(n ? n : 1);
        if (!input || fread(input, 1, n, stdin) != n) return 2;
        ANSWER
        free(input);
    }
    return 0;
}
"#;

/// The shift DFA's validator: `valid_up_to error_len stream_accepts
/// stream_dead`, the stream in three pieces.
const VALIDATE: &str = r#"
        struct utf8_result result;
        bool valid = utf8_validate(input, n, &result);
        if (valid != (result.error_len == 0)) return 3;
        uint32_t state = UTF8_SHIFT_START;
        state = utf8_stream(state, input, n / 3);
        state = utf8_stream(state, input + n / 3, n / 3);
        state = utf8_stream(state, input + 2 * (n / 3), n - 2 * (n / 3));
        printf("%zu %d %d %d\n", result.valid_up_to, result.error_len,
               (int)utf8_state_accepts(state), (int)utf8_state_dead(state));
"#;

/// The vector tables' check a byte at a time, and their end test:
/// `check ends_inside`.
const VECTOR_CHECK: &str = r#"
        printf("%d %d\n", (int)utf8_vec_check(input, n), (int)utf8_vec_ends_inside(input, n));
"#;

/// [`HARNESS`] with `answer` appended to the emitted C of `tables`,
/// compiled under the sanitizers and fed every input in an allocation of
/// its own: its lines.
fn run_c(name: &str, tables: &Tables, answer: &str, inputs: &[Vec<u8>]) -> Vec<String> {
    let mut records = Vec::new();
    for input in inputs {
        records.extend_from_slice(&(input.len() as u32).to_le_bytes());
        records.extend_from_slice(input);
    }
    let dir = scratch(name);
    let source = dir.join("validate.c");
    let program = emit(tables, Emit::C) + &HARNESS.replace("ANSWER", answer.trim());
    std::fs::write(&source, program).expect("the program");
    let binary = dir.join("validate");
    run_ok(
        Command::new("gcc")
            .args(["-std=c99", "-O1", "-Wall", "-Wextra", "-Werror"])
            .args(["-fsanitize=address,undefined", "-fno-sanitize-recover=all"])
            .arg("-o")
            .arg(&binary)
            .arg(&source),
        &format!("gcc on the {name} program"),
    );
    let mut child = Command::new(&binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    let mut stdin = child.stdin.take().expect("its input");
    let feed = std::thread::spawn(move || stdin.write_all(&records).expect("the records written"));
    let output = child.wait_with_output().expect("its answers");
    feed.join().expect("fed");
    assert!(
        output.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers = String::from_utf8(output.stdout).expect("text");
    let answers: Vec<String> = answers.lines().map(str::to_owned).collect();
    assert_eq!(answers.len(), inputs.len(), "{name}");
    answers
}

/// A grammar whose vectorised check the derivation declines: `a` and `ab`
/// repeated, where a state other than the start accepts.
const DECLINED: &str = "word = 1*( %x61 / %x61 %x62 )\n";

fn run_ok(command: &mut Command, what: &str) -> Vec<u8> {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

#[test]
fn the_emitted_c_validator_agrees_with_the_tables_under_the_sanitizers() {
    let inputs = inputs();
    for (name, derivation) in grammars() {
        let tables = derivation.tables();
        let answers = run_c(&name, tables, VALIDATE, &inputs);
        for (input, answer) in inputs.iter().zip(answers) {
            let (valid_up_to, error_len) = reference(tables, input);
            let state = tables.run(input);
            let expected = format!(
                "{valid_up_to} {error_len} {} {}",
                u8::from(tables.accepting()[usize::from(state)]),
                u8::from(state == tables.dead())
            );
            assert_eq!(answer, expected, "{name}: {input:02X?}");
        }
    }
}

/// `emitted` (Rust), with a `main` that asserts `assertion` (an expression
/// of `input`) on a compiled-in sample of the inputs, compiled by rustc and
/// run.
fn run_rust(name: &str, emitted: &str, assertion: &str) {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let dir = scratch(&format!("{name}-rust"));
    let literals: Vec<String> = inputs()
        .iter()
        // A compiled-in sample, which rustc takes seconds over: the
        // prefixes of the mixed text and the first random inputs (the
        // corpus files before them are longer).
        .filter(|input| input.len() <= 300)
        .take(301 + 200)
        .map(|input| format!("&b\"{}\"[..]", input.escape_ascii()))
        .collect();
    let program = format!(
        "#![deny(warnings)]\n#![allow(dead_code)]\n{emitted}\n\
         fn main() {{\n    \
             for input in [{}] {{\n        \
                 assert!({assertion}, \"{{input:?}}\");\n    \
             }}\n\
         }}\n",
        literals.join(", ")
    );
    let source = dir.join("main.rs");
    std::fs::write(&source, program).expect("the program");
    let binary = dir.join("check");
    run_ok(
        Command::new(&rustc)
            .args(["--edition", "2021", "-o"])
            .arg(&binary)
            .arg(&source),
        &format!("rustc on the {name} tables"),
    );
    run_ok(
        &mut Command::new(&binary),
        &format!("the {name} Rust check"),
    );
}

#[test]
fn the_emitted_rust_shift_accepts_agrees_with_its_accepts() {
    for (name, derivation) in grammars() {
        let emitted = emit(derivation.tables(), Emit::Rust);
        run_rust(&name, &emitted, "shift_accepts(input) == accepts(input)");
    }
}

#[test]
fn each_grammar_gets_the_row_width_it_needs_and_the_json_carries_the_rows() {
    let mut widths = std::collections::HashMap::new();
    for (name, derivation) in grammars() {
        let json: serde_json::Value =
            serde_json::from_str(&emit(derivation.tables(), Emit::Json)).expect("JSON");
        let shift = &json["shift"];
        let rows = shift["rows"].as_array().expect("rows");
        assert_eq!(rows.len(), 256, "{name}");
        let bits = shift["row_bits"].as_u64().expect("row bits");
        let dfa = ShiftDfa::new(derivation.tables()).expect("a shift DFA");
        assert_eq!(bits, u64::from(dfa.width().bits()), "{name}");
        widths.insert(name, bits);
    }
    // Each width's code is compiled and run above.
    assert_eq!(widths["small"], 32);
    assert_eq!(widths["rfc3629"], 64);
    assert_eq!(widths["legacy31"], 128);
}

#[test]
fn the_emitted_vector_tables_check_what_the_class_tables_accept_under_the_sanitizers() {
    let inputs = inputs();
    let mut proved = Vec::new();
    for (name, derivation) in grammars() {
        let tables = derivation.tables();
        if SimdTables::new(tables).is_err() {
            continue;
        }
        let answers = run_c(&format!("{name}-vector"), tables, VECTOR_CHECK, &inputs);
        for (input, answer) in inputs.iter().zip(answers) {
            let state = tables.run(input);
            let accepts = tables.accepting()[usize::from(state)];
            let (check, ends_inside) = answer.split_once(' ').expect("two answers");
            assert_eq!(
                check,
                if accepts { "1" } else { "0" },
                "{name}: {input:02X?}"
            );
            if state != tables.dead() {
                let inside = if accepts { "0" } else { "1" };
                assert_eq!(ends_inside, inside, "{name}: the end of {input:02X?}");
            }
        }
        proved.push(name);
    }
    // XML 1.0's `Char` and the small grammar are declined (the proof
    // fails; an accepting state besides the start), as their JSON says.
    for builtin in BUILTIN {
        assert!(
            proved.contains(&builtin.name.to_owned()),
            "{}",
            builtin.name
        );
    }
}

#[test]
fn the_emitted_rust_vector_check_agrees_with_its_accepts() {
    // The rulesets of one table set and of two, with a pairing term and
    // without.
    for name in ["rfc3629", "legacy31", "cesu8", "wtf8"] {
        let derivation = BUILTIN
            .iter()
            .find(|r| r.name == name)
            .expect("a built-in")
            .derive()
            .expect("it derives");
        let emitted = emit(derivation.tables(), Emit::Rust);
        run_rust(
            &format!("{name}-vector"),
            &emitted,
            "vector_check(input) == accepts(input)",
        );
    }
}

#[test]
fn a_declined_vector_check_is_said_with_its_reason_in_every_language() {
    let derivation = Derivation::new(DECLINED, "word").expect("the grammar derives");
    let reason = SimdTables::new(derivation.tables())
        .expect_err("declined")
        .to_string();
    let json: serde_json::Value =
        serde_json::from_str(&emit(derivation.tables(), Emit::Json)).expect("JSON");
    assert_eq!(json["vector"]["declined"], reason.as_str());
    let c = emit(derivation.tables(), Emit::C);
    assert!(
        c.contains(&format!("/* No vectorised check: {reason}. */")),
        "{c}"
    );
    assert!(!c.contains("utf8_vec_check"), "{c}");
    let rust = emit(derivation.tables(), Emit::Rust);
    assert!(
        rust.contains(&format!("// No vectorised check: {reason}.")),
        "{rust}"
    );
    // The JSON of a proved check carries its tables.
    let rfc3629 = BUILTIN[0].derive().expect("RFC 3629 derives");
    let json: serde_json::Value =
        serde_json::from_str(&emit(rfc3629.tables(), Emit::Json)).expect("JSON");
    let simd = SimdTables::new(rfc3629.tables()).expect("proved");
    assert_eq!(
        json["vector"]["sets"].as_array().expect("sets").len(),
        simd.sets().len()
    );
    assert_eq!(
        json["vector"]["sets"][0]["prev_high"][0x0E],
        simd.sets()[0].prev_high[0x0E]
    );
    assert_eq!(json["vector"]["must_continue"][0], simd.must_continue()[0]);
    assert_eq!(json["vector"]["proof_states"], simd.proof_states());
}
