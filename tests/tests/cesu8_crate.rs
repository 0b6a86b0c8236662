//! `utf8_core::cesu8` against `::cesu8::from_cesu8`, and `utf8_core::mutf8`
//! against `::cesu8::from_java_cesu8` (the `cesu8` crate, 1.1): verdict and
//! decoded text, on every input where the two definitions agree.
//!
//! Where they disagree, read from the crate's source (`from_cesu8_internal`
//! and `decode_from_iter`): the crate first tries `core::str::from_utf8` on
//! the whole input and returns it unchanged when that succeeds; only
//! otherwise does it run its CESU-8 decoder. So:
//!
//! 1. A four-byte UTF-8 form is accepted by both crate functions when the
//!    whole input is valid UTF-8, and rejected when anything else in the
//!    input sends it to the decoder (which has no four-byte case). UTR #26
//!    has no four-byte forms, and JVMS §4.4.7 writes no byte in F0-FF: ours
//!    reject them always.
//! 2. A raw `00` byte is accepted by `from_java_cesu8` when the whole input
//!    is valid UTF-8, and rejected by its decoder otherwise. Modified UTF-8
//!    never contains `00` (U+0000 is `C0 80`): ours rejects it always.
//! 3. An unpaired surrogate (a lead not followed by a trail, or a trail
//!    alone) is rejected by `from_java_cesu8`, which decodes into a Rust
//!    string and cannot hold one. Java writes each UTF-16 code unit of a
//!    `String` as it is, paired or not: ours accepts them. (Strict CESU-8
//!    rejects them, and there both agree.)
//!
//! Everywhere else the verdicts and the decoded text must be equal; the tests
//! below assert exactly that and, outside it, exactly the disagreement above.
//!
//! The conversions `cesu8::to_str` and `mutf8::to_str` must give what
//! validating and decoding give (so they meet the crate exactly where
//! decoding does), and borrow exactly when the crate does; `from_str` must
//! give what the crate's `to_cesu8` and `to_java_cesu8` give, for every text.

use std::borrow::Cow;

use proptest::prelude::*;
use utf8_core::{cesu8, mutf8};
use utf8_tests::dialect_text::{cesu8_from_str, mutf8_from_utf16};
use utf8_tests::{Hex, for_each_string, mutate, real_text_inputs};

/// Our CESU-8 decoding as a Rust string, `None` if invalid.
fn our_cesu8(bytes: &[u8]) -> Option<String> {
    cesu8::validate(bytes).ok()?;
    Some(
        cesu8::decode(bytes)
            .map(|item| item.expect("validated"))
            .collect(),
    )
}

/// Our modified UTF-8 as code units, `None` if invalid.
fn our_mutf8_units(bytes: &[u8]) -> Option<Vec<u16>> {
    mutf8::validate(bytes).ok()?;
    let units = mutf8::decode(bytes).map(|item| item.expect("validated"));
    Some(
        units
            .map(|unit| u16::try_from(unit).expect("a code unit"))
            .collect(),
    )
}

fn has_four_byte_form(text: &str) -> bool {
    text.chars().any(|c| c.len_utf8() == 4)
}

/// Where both sides converted `bytes`: they borrow in the same cases, and
/// converting the text back agrees with the crate.
fn assert_round_trip_agrees<E>(
    bytes: &[u8],
    converted: &Result<Cow<'_, str>, E>,
    by_crate: &Option<Cow<'_, str>>,
    ours_back: impl Fn(&str) -> Cow<'_, [u8]>,
    crate_back: impl Fn(&str) -> Cow<'_, [u8]>,
) {
    if let (Ok(converted), Some(by_crate)) = (converted, by_crate) {
        let borrowed = |cow: &Cow<'_, str>| matches!(cow, Cow::Borrowed(_));
        assert_eq!(borrowed(converted), borrowed(by_crate), "{}", Hex(bytes));
        assert_eq!(
            ours_back(converted),
            crate_back(converted),
            "{}",
            Hex(bytes)
        );
    }
}

fn assert_cesu8_agrees(bytes: &[u8]) {
    let crate_result = ::cesu8::from_cesu8(bytes).ok();
    let ours = our_cesu8(bytes);
    let converted = cesu8::to_str(bytes);
    assert_eq!(
        converted.as_deref().ok(),
        ours.as_deref(),
        "to_str {}",
        Hex(bytes)
    );
    assert_round_trip_agrees(bytes, &converted, &crate_result, cesu8::from_str, |text| {
        ::cesu8::to_cesu8(text)
    });
    match core::str::from_utf8(bytes) {
        // Disagreement 1.
        Ok(text) if has_four_byte_form(text) => {
            assert_eq!(crate_result.as_deref(), Some(text), "{}", Hex(bytes));
            assert_eq!(ours, None, "{}", Hex(bytes));
        }
        _ => assert_eq!(
            ours.as_deref(),
            crate_result.as_deref(),
            "cesu8 {}",
            Hex(bytes)
        ),
    }
}

fn assert_mutf8_agrees(bytes: &[u8]) {
    let crate_result = ::cesu8::from_java_cesu8(bytes).ok();
    let ours = our_mutf8_units(bytes);
    let decoded_text = ours
        .as_ref()
        .and_then(|units| String::from_utf16(units).ok());
    let converted = mutf8::to_str(bytes);
    assert_eq!(
        converted.as_deref().ok(),
        decoded_text.as_deref(),
        "to_str {}",
        Hex(bytes)
    );
    assert_round_trip_agrees(bytes, &converted, &crate_result, mutf8::from_str, |text| {
        ::cesu8::to_java_cesu8(text)
    });
    match core::str::from_utf8(bytes) {
        // Disagreements 1 and 2.
        Ok(text) if has_four_byte_form(text) || text.contains('\0') => {
            assert_eq!(crate_result.as_deref(), Some(text), "{}", Hex(bytes));
            assert_eq!(ours, None, "{}", Hex(bytes));
        }
        _ => {
            let ours_text = ours.as_ref().map(|units| {
                char::decode_utf16(units.iter().copied()).collect::<Result<String, _>>()
            });
            match ours_text {
                // Disagreement 3.
                Some(Err(_)) => assert_eq!(crate_result, None, "{}", Hex(bytes)),
                Some(Ok(text)) => {
                    assert_eq!(
                        crate_result.as_deref(),
                        Some(text.as_str()),
                        "{}",
                        Hex(bytes)
                    );
                }
                None => assert_eq!(crate_result, None, "mutf8 {}", Hex(bytes)),
            }
        }
    }
}

fn assert_both_agree(bytes: &[u8]) {
    assert_cesu8_agrees(bytes);
    assert_mutf8_agrees(bytes);
}

#[test]
fn disagreement_1_four_byte_forms() {
    let bytes = "a💖".as_bytes();
    assert!(::cesu8::from_cesu8(bytes).is_ok());
    assert!(::cesu8::from_java_cesu8(bytes).is_ok());
    assert!(cesu8::validate(bytes).is_err());
    assert!(mutf8::validate(bytes).is_err());
    // Next to a surrogate pair the crate's decoder sees it and rejects it.
    let mixed = b"\xF0\x9F\x92\x96\xED\xA0\xBD\xED\xB2\x96";
    assert!(::cesu8::from_cesu8(mixed).is_err());
    assert!(::cesu8::from_java_cesu8(mixed).is_err());
    assert!(cesu8::validate(mixed).is_err());
}

#[test]
fn disagreement_2_raw_null_in_modified_utf8() {
    assert_eq!(
        ::cesu8::from_java_cesu8(b"a\x00b").ok().as_deref(),
        Some("a\0b")
    );
    assert!(mutf8::validate(b"a\x00b").is_err());
    // With a C0 80 elsewhere the crate's decoder runs, and rejects the 00.
    assert!(::cesu8::from_java_cesu8(b"a\x00b\xC0\x80").is_err());
    assert!(mutf8::validate(b"a\x00b\xC0\x80").is_err());
    // Plain CESU-8 has U+0000 as 00; both agree.
    assert!(::cesu8::from_cesu8(b"a\x00b").is_ok());
    assert!(cesu8::validate(b"a\x00b").is_ok());
}

#[test]
fn disagreement_3_unpaired_surrogates_in_modified_utf8() {
    for bytes in [
        &b"\xED\xA0\x80"[..],
        b"\xED\xB0\x80",
        b"\xED\xB0\x80\xED\xA0\x80",
        b"\xED\xA0\x80a",
    ] {
        assert!(::cesu8::from_java_cesu8(bytes).is_err(), "{}", Hex(bytes));
        assert!(mutf8::validate(bytes).is_ok(), "{}", Hex(bytes));
        // Strict CESU-8 rejects them too.
        assert!(::cesu8::from_cesu8(bytes).is_err(), "{}", Hex(bytes));
        assert!(cesu8::validate(bytes).is_err(), "{}", Hex(bytes));
    }
}

#[test]
fn agreement_on_examples() {
    let pair = b"\xED\xA0\x81\xED\xB0\x81";
    assert_eq!(::cesu8::from_cesu8(pair).ok().as_deref(), Some("\u{10401}"));
    assert_eq!(our_cesu8(pair).as_deref(), Some("\u{10401}"));
    assert_eq!(
        ::cesu8::from_java_cesu8(b"\xC0\x80").ok().as_deref(),
        Some("\0")
    );
    assert_eq!(our_mutf8_units(b"\xC0\x80"), Some(vec![0]));
    for bytes in [&pair[..], b"\xC0\x80", b"\xC0\x80a\xED\xA0\x81\xED\xB0\x81"] {
        assert_both_agree(bytes);
    }
}

/// Bytes at every boundary of either definition.
const REPRESENTATIVES: &[u8] = &[
    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
    0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
];

#[test]
fn every_short_string_over_representatives() {
    let mut counts = Vec::new();
    for len in 1..=4 {
        counts.push(for_each_string(REPRESENTATIVES, len, assert_both_agree));
    }
    // Six bytes over the bytes a surrogate pair is made of.
    let pair_bytes = [0x41, 0x80, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xED];
    counts.push(for_each_string(&pair_bytes, 6, assert_both_agree));
    eprintln!("cesu8_crate: {counts:?} strings of 1-4 and 6 bytes");
}

#[test]
fn corpus_and_stress_test() {
    let inputs = real_text_inputs();
    let mut converted = Vec::new();
    for bytes in &inputs {
        if let Ok(text) = core::str::from_utf8(bytes) {
            let cesu = cesu8_from_str(text);
            assert_eq!(::cesu8::from_cesu8(&cesu).ok().as_deref(), Some(text));
            assert_eq!(our_cesu8(&cesu).as_deref(), Some(text));
            converted.push(cesu);
            converted.push(mutf8_from_utf16(&text.encode_utf16().collect::<Vec<_>>()));
        }
    }
    for bytes in inputs.iter().chain(&converted) {
        assert_both_agree(bytes);
    }
}

const SPLICES: &[&[u8]] = &[
    b"\xED\xA0\x80",
    b"\xED\xB0\x80",
    b"\xED\xA0\x80\xED",
    b"\xF0\x9F\x92\x96",
    b"\x00",
    b"\xC0\x80",
    b"\xC0",
    b"\xE0\x80\x80",
    b"\x80",
];

proptest! {
    #![proptest_config(utf8_tests::proptest_config(5_000))]

    #[test]
    fn from_str_writes_what_the_crate_writes(text in any::<String>()) {
        prop_assert_eq!(cesu8::from_str(&text), ::cesu8::to_cesu8(&text));
        prop_assert_eq!(mutf8::from_str(&text), ::cesu8::to_java_cesu8(&text));
    }

    #[test]
    fn mutated_cesu8_and_modified_utf8(
        text in any::<String>(),
        java in any::<bool>(),
        mutations in prop::collection::vec(utf8_tests::mutation(SPLICES), 0..=3),
    ) {
        let mut bytes = if java {
            mutf8_from_utf16(&text.encode_utf16().collect::<Vec<_>>())
        } else {
            cesu8_from_str(&text)
        };
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        assert_both_agree(&bytes);
    }
}
