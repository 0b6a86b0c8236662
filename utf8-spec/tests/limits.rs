//! Counts at their limits: 255, 256 and 257 states, 255 and 256 byte
//! classes, through the tables and every rendering and emitter. State and
//! class ids are bytes, so 256 of them is where a count stops fitting in one.
//! Then the limits that bound a derivation's time and memory before its
//! tables: NFA states, DFA states and the subset construction's work, each
//! at its limit and one past it.

use utf8_spec::dfa::MAX_SUBSET_WORK;
use utf8_spec::explain::{Emit, Format, Stage, StageFormat, emit, render, render_stage};
use utf8_spec::grammar::MAX_DEPTH;
use utf8_spec::nfa::MAX_NFA_STATES;
use utf8_spec::tables::MAX_TABLE_STATES;
use utf8_spec::{Derivation, ErrorKind, Grammar, Limits, Nfa};

/// `a = n%x41`: the strings of exactly `n` `A`s, whose minimal automaton
/// counts the `A`s read so far (`n + 1` states) and has a dead state.
fn chain(n: usize) -> String {
    format!("a = {n}%x41\n")
}

/// A grammar with `classes` byte classes (129 to 256): a selector byte `k`
/// in 1..=8 picks bit `k - 1`, and a second byte passes when that bit of
/// its class number is set. Bytes from `classes - 1` up share the last
/// class number, so they alone behave alike.
fn with_classes(classes: usize) -> String {
    let class = |byte: usize| byte.min(classes - 1);
    let selectors: Vec<String> = (0..8)
        .map(|bit| format!("%x{:02X} bit{bit}", bit + 1))
        .collect();
    let mut text = format!("a = {}\n", selectors.join(" / "));
    for bit in 0..8 {
        let bytes: Vec<String> = (0..256)
            .filter(|&byte| class(byte) >> bit & 1 == 1)
            .map(|byte| format!("%x{byte:02X}"))
            .collect();
        text.push_str(&format!("bit{bit} = {}\n", bytes.join(" / ")));
    }
    text
}

const STAGES: [Stage; 6] = [
    Stage::Grammar,
    Stage::Nfa,
    Stage::Dfa,
    Stage::Rounds,
    Stage::Minimal,
    Stage::Classes,
];
const STAGE_FORMATS: [StageFormat; 6] = [
    StageFormat::Text,
    StageFormat::Markdown,
    StageFormat::Mermaid,
    StageFormat::Dot,
    StageFormat::Svg,
    StageFormat::Json,
];

/// Every rendering and emitter runs to the end; what each says about the
/// counts is checked by the tests that call this.
fn render_everything(derivation: &Derivation) {
    for format in [Format::Text, Format::Markdown, Format::Mermaid, Format::Dot] {
        assert!(!render(derivation, format).is_empty(), "{format:?}");
    }
    for language in [Emit::Rust, Emit::C, Emit::Json] {
        assert!(
            !emit(derivation.tables(), language).is_empty(),
            "{language:?}"
        );
    }
    for stage in STAGES {
        for format in STAGE_FORMATS {
            // A stage that has no such form says so; it must not panic.
            if let Ok(rendered) = render_stage(derivation, stage, format) {
                assert!(!rendered.is_empty(), "{stage:?} {format:?}");
            }
        }
    }
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("valid JSON")
}

#[test]
fn tables_of_255_and_256_states_accept_their_language_and_say_so_everywhere() {
    for states in [255, 256] {
        let n = states - 2;
        let derivation = Derivation::new(&chain(n), "a").expect("derives");
        let tables = derivation.tables();
        assert_eq!(tables.state_count(), states);
        assert_eq!(usize::from(tables.dead()), states - 1);
        assert_eq!(tables.accepting_states(), [n as u8]);
        assert_eq!(tables.states().count(), states);
        let word = vec![b'A'; n];
        assert!(tables.accepts(&word), "{states} states");
        assert!(!tables.accepts(&word[1..]), "{states} states");
        assert!(!tables.accepts(&[b'A'; 255][..n + 1]), "{states} states");

        let emitted = json(&emit(tables, Emit::Json));
        assert_eq!(emitted["states"], states);
        assert_eq!(emitted["accepting"], serde_json::json!([n]));
        let minimal =
            render_stage(&derivation, Stage::Minimal, StageFormat::Text).expect("a table");
        assert!(minimal.contains(&format!("{states} states")), "{minimal}");
        let dot = render(&derivation, Format::Dot);
        // Every live state is drawn, the last one included.
        assert!(dot.contains(&format!("-> s{n} ")), "{states} states");
        let mermaid = render(&derivation, Format::Mermaid);
        assert!(mermaid.contains(&format!("--> s{n}:")), "{states} states");
        render_everything(&derivation);
    }
}

#[test]
fn a_grammar_of_257_states_is_refused_at_the_table_limit() {
    let error = Derivation::new(&chain(255), "a").expect_err("too many states");
    assert!(
        matches!(error.kind(), ErrorKind::TooLarge { limit, .. } if *limit == MAX_TABLE_STATES),
        "{error}"
    );
}

#[test]
fn tables_of_255_and_256_byte_classes_keep_every_class() {
    for classes in [255, 256] {
        let derivation = Derivation::new(&with_classes(classes), "a").expect("derives");
        let tables = derivation.tables();
        assert_eq!(tables.class_count(), classes);
        assert_eq!(tables.classes().ids().count(), classes);
        for byte in 0..=255u8 {
            let ranges = tables.classes().ranges(tables.classes().class(byte));
            assert!(ranges.iter().any(|r| r.contains(byte)), "byte {byte:#04x}");
        }
        // The selector for bit 0 and then a byte of an odd class number.
        assert!(tables.accepts(&[0x01, 0x01]));
        assert!(!tables.accepts(&[0x01, 0x02]));
        assert!(tables.accepts(&[0x08, 0x80]));

        let stage =
            json(&render_stage(&derivation, Stage::Classes, StageFormat::Json).expect("JSON"));
        let ranges = stage["ranges"].as_array().expect("a list of classes");
        assert_eq!(ranges.len(), classes);
        let text = render_stage(&derivation, Stage::Classes, StageFormat::Text).expect("a table");
        assert!(text.contains(&format!("{}", classes - 1)), "{text}");
        render_everything(&derivation);
    }
}

/// `r0 = ( ( r1 ) )`, `r1 = ( r2 )`, …, `r127 = %x41`: `extra` brackets
/// more around `r1` in the first rule, which nests `256 + extra - 1` levels
/// (two a rule, one for the last rule's range, one for `r0`'s second bracket).
fn nested_through_rules(extra: usize) -> String {
    let mut text = format!(
        "r0 = {}r1{}\n",
        "( ".repeat(1 + extra),
        " )".repeat(1 + extra)
    );
    for i in 1..127 {
        text.push_str(&format!("r{i} = ( r{} )\n", i + 1));
    }
    text.push_str("r127 = %x41\n");
    text
}

#[test]
fn a_grammar_nested_to_the_depth_limit_derives_and_renders_on_a_test_threads_stack() {
    // A test thread has 2 MiB of stack; a debug build's frames are its largest.
    let derivation = Derivation::new(&nested_through_rules(1), "r0").expect("within the limit");
    assert!(derivation.tables().accepts(b"A"));
    render_everything(&derivation);
}

#[test]
fn a_grammar_one_level_past_the_depth_limit_is_refused_at_its_rule() {
    let error = Derivation::new(&nested_through_rules(2), "r0").expect_err("too deep");
    assert!(
        matches!(error.kind(), ErrorKind::TooDeep { rule, limit: MAX_DEPTH } if rule == "r0"),
        "{error}"
    );
    assert_eq!(error.position().map(|p| (p.line, p.column)), Some((1, 1)));
}

#[test]
fn brackets_nested_ten_thousand_deep_are_refused_where_they_pass_the_limit() {
    for (open, close) in [("(", ")"), ("[", "]")] {
        let text = format!("a = {}%x41{}\n", open.repeat(10_000), close.repeat(10_000));
        let error = Derivation::new(&text, "a").expect_err("too deep");
        assert!(error.to_string().contains("nest deeper than"), "{error}");
        // The bracket that opens level MAX_DEPTH + 1, after `a = `.
        assert_eq!(
            error.position().map(|p| (p.line, p.column)),
            Some((1, 5 + MAX_DEPTH))
        );
    }
}

#[test]
fn a_chain_of_forty_thousand_rules_is_refused_at_the_first_rule_past_the_limit() {
    let rules = 40_000;
    let mut text = String::new();
    for i in 0..rules - 1 {
        text.push_str(&format!("r{i} = r{}\n", i + 1));
    }
    text.push_str(&format!("r{} = %x41\n", rules - 1));
    let error = Derivation::new(&text, "r0").expect_err("too deep");
    // The last rule nests 1 level, each rule before it one more.
    let first_too_deep = rules - 1 - MAX_DEPTH;
    assert!(
        matches!(error.kind(), ErrorKind::TooDeep { rule, .. } if *rule == format!("r{first_too_deep}")),
        "{error}"
    );
    assert_eq!(error.position().map(|p| p.line), Some(first_too_deep + 1));
}

/// What a refusal for size says it found: the state count or its bound.
fn too_large(text: &str) -> String {
    match Derivation::new(text, "a").expect_err("too large").kind() {
        ErrorKind::TooLarge { what, limit } => {
            assert_eq!(*limit, MAX_TABLE_STATES);
            what.clone()
        }
        other => panic!("refused for another reason: {other}"),
    }
}

#[test]
fn a_long_chain_is_refused_by_a_bound_taken_before_minimizing() {
    // One length of the shortest word to acceptance a state: 4001 of them,
    // and the dead state, without 4000 rounds of refinement.
    assert_eq!(
        too_large(&chain(4000)),
        "the minimal automaton's state count (at least 4002)"
    );
}

#[test]
fn a_long_finite_language_is_refused_from_its_grammar_before_the_subset_construction() {
    // 95 bytes whose longest string has 48,000: the subset construction
    // spent its whole work limit (2.5 s in a release build) before this
    // refusal; the grammar's longest string settles it before it starts.
    let text = "a = 0*12000( %x41 / %x42.43 / %x44.45.46 / %x47 / %x48.49 / %x4A.4B.4C / %x4D.4E.4F / \"PQRS\" )\n";
    assert_eq!(text.len(), 95);
    assert_eq!(
        too_large(text),
        "the minimal automaton's state count (at least 48002)"
    );
}

#[test]
fn refinement_refuses_what_the_bound_cannot_tell_at_the_first_round_past_the_limit() {
    // The last nine bytes read: 512 states, none more than nine bytes from
    // acceptance, so the bound says little; refinement's rounds split the
    // blocks until a round has more than 256, which ends it.
    let what = too_large("a = *( %x41 / %x42 ) %x41 8( %x41 / %x42 )\n");
    assert_eq!(what, "the minimal automaton's state count (at least 512)");
}

#[test]
fn an_empty_quoted_string_matches_the_empty_string() {
    let derivation = Derivation::new("a = \"x\" / \"\"\n", "a").expect("RFC 5234 allows it");
    assert!(derivation.tables().accepts(b""));
    assert!(derivation.tables().accepts(b"x"));
    assert!(!derivation.tables().accepts(b"xx"));
}

/// One grammar of each shape the NFA's construction knows, and of their
/// nestings: each NFA's state count, counted before it is built, is the
/// limit that lets it be built and one more than the limit that refuses it.
#[test]
fn the_nfa_is_refused_one_state_past_its_limit_and_not_at_it() {
    let grammars = [
        "a = %x41\n",
        "a = %x41.42.43\n",
        "a = \"Abc\" / %s\"Abc\"\n",
        "a = b b / [b] c\nb = 2*3( %x41-5A )\nc = *b\n",
        "a = 3( [\"a\"] ) 5( *\"b\" ) 2*( \"c\" / %x80-BF ) *4\"d\"\n",
        "a = ( ( %x41 ) ) 0*0%x42 1*1%x43\n",
        utf8_spec::rulesets::RFC3629.abnf,
    ];
    for text in grammars {
        let grammar = Grammar::parse(text).unwrap();
        let start = grammar.rules()[0].name.clone();
        let states = Nfa::new(&grammar, &start).unwrap().states().len();
        assert!(Nfa::within(&grammar, &start, states).is_ok(), "{text}");
        let error = Nfa::within(&grammar, &start, states - 1).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::TooLarge { limit, .. } if *limit == states - 1),
            "{text}: {error}"
        );
    }
}

/// The input the derivation fuzz target timed out on under AddressSanitizer:
/// 993,333 copies of two bytes, five million states.
#[test]
fn a_repetition_count_past_the_nfa_limit_is_refused() {
    let error = Derivation::new("xt=993333%x41.3;\t", "xt").unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::TooLarge { limit, .. } if *limit == MAX_NFA_STATES),
        "{error}"
    );
}

/// Sixty rules, each the one before twice: an NFA of 2^60 states, counted
/// once a rule rather than expanded, and counts past `usize` saturate.
#[test]
fn rules_that_double_and_counts_past_usize_are_refused_without_expanding_them() {
    let mut text = String::from("r0 = \"a\"\n");
    for rule in 1..=60 {
        text.push_str(&format!("r{rule} = r{0} r{0}\n", rule - 1));
    }
    text.push_str("r61 = 4294967295( 4294967295( 4294967295( r60 ) ) )\n");
    for start in ["r60", "r61"] {
        let error = Derivation::new(&text, start).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::TooLarge { limit, .. } if *limit == MAX_NFA_STATES),
            "{start}: {error}"
        );
    }
}

/// A thousand DFA states of some 80,000 NFA states each: twelve seconds of
/// subset construction in a release build before the work was bounded, and
/// a thousand sets of 80,000 four-byte ids, 320 MB.
#[test]
fn a_subset_construction_that_gathers_too_much_is_refused_at_its_work_limit() {
    let text = "a = 1000( [\"a\"] ) 20000( *\"b\" )\n";
    let limits = Limits::default();
    let error = Derivation::within(text, "a", limits).unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::TooLarge { limit, .. } if *limit == limits.subset_work),
        "{error}"
    );
    let error = Derivation::new(text, "a").unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::TooLarge { limit, .. } if *limit == MAX_SUBSET_WORK),
        "{error}"
    );
}

#[test]
fn lower_limits_refuse_what_the_defaults_derive() {
    let rfc = utf8_spec::rulesets::RFC3629;
    let derivation = Derivation::new(rfc.abnf, rfc.start).unwrap();
    let nfa = derivation.nfa().states().len();
    let dfa = derivation.dfa().state_count();
    let tight = Limits {
        nfa_states: nfa,
        dfa_states: dfa,
        ..Limits::default()
    };
    assert_eq!(
        Derivation::within(rfc.abnf, rfc.start, tight)
            .unwrap()
            .tables(),
        derivation.tables()
    );
    for limits in [
        Limits {
            nfa_states: nfa - 1,
            ..tight
        },
        Limits {
            dfa_states: dfa - 1,
            ..tight
        },
        Limits {
            subset_work: 0,
            ..tight
        },
    ] {
        let error = Derivation::within(rfc.abnf, rfc.start, limits).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::TooLarge { .. }),
            "{error}"
        );
    }
}
