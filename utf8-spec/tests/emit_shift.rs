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

use std::process::Command;

use utf8_spec::Derivation;
use utf8_spec::explain::{Emit, emit};
use utf8_spec::rulesets::BUILTIN;
use utf8_spec::shift::ShiftDfa;
use utf8_spec::simd::SimdTables;

mod emit_common;

use emit_common::{grammars, inputs, reference, run_c, run_ok, scratch};

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

/// A grammar whose vectorised check the derivation declines: `a` and `ab`
/// repeated, where a state other than the start accepts.
const DECLINED: &str = "word = 1*( %x61 / %x61 %x62 )\n";
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
