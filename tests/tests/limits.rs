//! `dfa_tables!` and `ruleset!` at the counts where ids stop fitting in a
//! byte: 256 states (`a = 254%x41`) and 256 byte classes
//! (`data/256-classes.abnf`), their tables those of `utf8_spec`'s
//! derivation and their validators right on the strings at the edge. The
//! macro's refusal of 257 states is a UI test (`ui/too_many_states.rs`).

use utf8_spec::Derivation;

mod chain_of_256_states {
    utf8_macros::dfa_tables!(abnf = "a = 254%x41\n", start = "a");
}

mod every_byte_its_own_class {
    utf8_macros::dfa_tables!(abnf_file = "data/256-classes.abnf", start = "a");
}

utf8_core::ruleset! {
    /// Exactly 254 `A`s: 255 live states and the dead one.
    struct Chain256 { abnf = "a = 254%x41\n", start = "a" }
}

utf8_core::ruleset! {
    /// A selector byte, then a byte with the selected bit set.
    struct Classes256 { abnf_file = "data/256-classes.abnf", start = "a" }
}

#[test]
fn dfa_tables_of_256_states_are_the_derivations() {
    let derivation = Derivation::new("a = 254%x41\n", "a").expect("derives");
    let tables = derivation.tables();
    assert_eq!(chain_of_256_states::STATE_COUNT, 256);
    assert_eq!(usize::from(chain_of_256_states::DEAD_STATE), 255);
    assert_eq!(&chain_of_256_states::TRANSITIONS[..], tables.transitions());
    assert_eq!(&chain_of_256_states::ACCEPTING[..], tables.accepting());
    assert!(chain_of_256_states::ACCEPTING[254]);
}

#[test]
fn dfa_tables_of_256_classes_are_the_derivations() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/256-classes.abnf");
    let text = std::fs::read_to_string(path).expect("the grammar file");
    let derivation = Derivation::new(&text, "a").expect("derives");
    let tables = derivation.tables();
    assert_eq!(every_byte_its_own_class::CLASS_COUNT, 256);
    assert_eq!(
        &every_byte_its_own_class::BYTE_CLASSES,
        tables.byte_classes()
    );
    assert_eq!(
        &every_byte_its_own_class::TRANSITIONS[..],
        tables.transitions()
    );
}

#[test]
fn a_ruleset_of_256_states_accepts_exactly_its_strings() {
    let word = [b'A'; 255];
    assert!(Chain256::validate(&word[..254]).is_ok());
    for len in [0, 1, 253, 255] {
        assert!(Chain256::validate(&word[..len]).is_err(), "{len} bytes");
    }
    // The 254 `A`s before it are a string of the language; the next cannot follow.
    let error = Chain256::validate(&word).expect_err("one byte too many");
    assert_eq!((error.valid_up_to(), error.error_len()), (254, Some(1)));
}

#[test]
fn a_ruleset_of_256_classes_tells_every_byte_apart() {
    for selector in 1..=8u8 {
        let bit = selector - 1;
        for byte in 0..=255u8 {
            let pair = [selector, byte];
            assert_eq!(
                Classes256::validate(&pair).is_ok(),
                byte >> bit & 1 == 1,
                "{pair:02X?}"
            );
        }
    }
}
