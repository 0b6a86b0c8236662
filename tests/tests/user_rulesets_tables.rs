//! `dfa_tables!` on user rulesets, an ABNF file and a set of scalar values,
//! emits the tables that `utf8_spec` derives from the same input.

use utf8_spec::{Derivation, Tables, scalars};

mod words {
    utf8_macros::dfa_tables!(abnf_file = "data/words.abnf", start = "text");
}

mod xml_char {
    utf8_macros::dfa_tables!(
        scalars = [
            0x9,
            0xA,
            0xD,
            0x20..=0xD7FF,
            0xE000..=0xFFFD,
            0x10000..=0x10FFFF
        ]
    );
}

mod mixed_items {
    // Chars and integers, overlapping and out of order, through the surrogates.
    utf8_macros::dfa_tables!(scalars = ['a'..='z', 0x41..=0x5A, 'A', 0xD000..=0xE000, '\t',]);
}

fn assert_emitted(
    tables: &Tables,
    (state_count, byte_classes, transitions, accepting): (usize, &[u8; 256], &[u8], &[bool]),
) {
    assert_eq!(state_count, tables.state_count());
    assert_eq!(byte_classes, tables.byte_classes());
    assert_eq!(transitions, tables.transitions());
    assert_eq!(accepting, tables.accepting());
}

#[test]
fn abnf_file_emits_the_derivation_of_the_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/words.abnf");
    let text = std::fs::read_to_string(path).unwrap();
    let derivation = Derivation::new(&text, "text").unwrap();
    assert_emitted(
        derivation.tables(),
        (
            words::STATE_COUNT,
            &words::BYTE_CLASSES,
            &words::TRANSITIONS,
            &words::ACCEPTING,
        ),
    );
    assert_eq!(words::START_RULE, "text");
    assert!(derivation.tables().accepts(b"two words\nand more\n"));
}

#[test]
fn scalars_emit_the_derivation_of_the_set() {
    let derivation = scalars::derive(&[
        (0x9, 0x9),
        (0xA, 0xA),
        (0xD, 0xD),
        (0x20, 0xD7FF),
        (0xE000, 0xFFFD),
        (0x10000, 0x10FFFF),
    ])
    .unwrap();
    assert_emitted(
        derivation.tables(),
        (
            xml_char::STATE_COUNT,
            &xml_char::BYTE_CLASSES,
            &xml_char::TRANSITIONS,
            &xml_char::ACCEPTING,
        ),
    );
    assert_eq!(xml_char::START_RULE, scalars::START_RULE);
}

#[test]
fn scalar_items_mix_chars_integers_and_ranges() {
    let derivation = scalars::derive(&[
        (0x61, 0x7A),
        (0x41, 0x5A),
        (0x41, 0x41),
        (0xD000, 0xE000),
        (0x9, 0x9),
    ])
    .unwrap();
    assert_emitted(
        derivation.tables(),
        (
            mixed_items::STATE_COUNT,
            &mixed_items::BYTE_CLASSES,
            &mixed_items::TRANSITIONS,
            &mixed_items::ACCEPTING,
        ),
    );
}
