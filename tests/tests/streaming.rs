//! `Validator` for every ruleset against one-shot `validate` on the whole
//! stream, with the stream cut at random points (inside sequences too), into
//! one-byte pieces, and with empty pieces among them.
//!
//! What one-shot validation of the whole says, the validator must say: no
//! `update` error before the byte that makes the one-shot error certain has
//! been read; the first error, from `update` or `finish`, equal to the
//! one-shot error (positions from the stream's start); a sequence cut off by
//! the end reported by `finish` alone; and the error repeated ever after.

use proptest::prelude::*;
use utf8_core::{Rfc3629, Ruleset, Utf8Error, Validator, cesu8, legacy31, mutf8, rfc2279, wtf8};
use utf8_tests::dialect_text::{
    cesu8_from_str, mutf8_from_utf16, push_generalized, wtf8_from_utf16,
};
use utf8_tests::{Hex, mutate};

/// Feeds `bytes` to a validator in the pieces that `cuts` (sorted positions,
/// repeats making empty pieces) mark, and checks it against `R::validate`.
fn assert_stream_agrees<R: Ruleset>(bytes: &[u8], cuts: &[usize]) {
    let whole = R::validate(bytes);
    // How many bytes must have arrived for the error to be certain: up to
    // the first byte that cannot continue the failing sequence's valid
    // prefix. `None` for valid input and for input cut short, where only
    // `finish` may fail.
    let certain_at = whole.err().and_then(|e| {
        let (valid, len) = (e.valid_up_to(), e.error_len()?);
        // `Some(1)` is either a lead byte that starts nothing (certain at
        // once) or a one-byte prefix that the next byte cannot continue.
        let lead_alone = R::validate(&bytes[..=valid]);
        Some(if lead_alone.is_err_and(|e| e.error_len().is_some()) {
            valid + 1
        } else {
            valid + len + 1
        })
    });
    let context = || format!("{} {} cut at {cuts:?}", R::NAME, Hex(bytes));

    let mut validator = Validator::<R>::for_ruleset();
    let mut first_error: Option<Utf8Error> = None;
    let mut start = 0;
    for end in cuts.iter().copied().chain([bytes.len()]) {
        let result = validator.update(&bytes[start..end]);
        match (result, first_error) {
            (Ok(()), None) => {
                assert!(
                    certain_at.is_none_or(|at| end < at),
                    "{}: no error after reading {end} bytes",
                    context()
                );
                // The state so far is what one-shot validation of the prefix says.
                let prefix = R::validate(&bytes[..end]);
                assert_eq!(validator.bytes_read(), end, "{}", context());
                assert_eq!(
                    validator.valid_up_to(),
                    prefix.map_or_else(|e| e.valid_up_to(), |()| end),
                    "{}: valid_up_to after {end} bytes",
                    context()
                );
                assert_eq!(
                    validator.is_incomplete(),
                    prefix.is_err_and(|e| e.error_len().is_none()),
                    "{}: is_incomplete after {end} bytes",
                    context()
                );
            }
            (Err(error), None) => {
                assert_eq!(Err(error), whole, "{}: first error", context());
                assert!(
                    certain_at.is_some_and(|at| end >= at),
                    "{}: error before it was certain",
                    context()
                );
                assert!(!validator.is_incomplete(), "{}", context());
                assert_eq!(
                    validator.valid_up_to(),
                    error.valid_up_to(),
                    "{}",
                    context()
                );
                first_error = Some(error);
            }
            (later, Some(error)) => {
                assert_eq!(later, Err(error), "{}: errors are sticky", context());
            }
        }
        start = end;
    }
    assert_eq!(validator.finish(), whole, "{}: finish", context());
    assert_eq!(
        first_error.is_some(),
        whole.is_err_and(|e| e.error_len().is_some()),
        "{}: only an invalid sequence fails update",
        context()
    );
    // `finish` takes `&self` and ends nothing: a stream cut short may still
    // go on. An error from `update` stays, whatever comes.
    if let Some(error) = first_error {
        assert_eq!(validator.update(b"a"), Err(error), "{}", context());
        assert_eq!(validator.update(b""), Err(error), "{}", context());
        assert_eq!(validator.finish(), Err(error), "{}", context());
    }
}

/// The same stream through every ruleset, with the same cuts.
fn assert_every_ruleset(bytes: &[u8], cuts: &[usize]) {
    assert_stream_agrees::<Rfc3629>(bytes, cuts);
    assert_stream_agrees::<cesu8::Cesu8>(bytes, cuts);
    assert_stream_agrees::<mutf8::Mutf8>(bytes, cuts);
    assert_stream_agrees::<wtf8::Wtf8>(bytes, cuts);
    assert_stream_agrees::<rfc2279::Rfc2279>(bytes, cuts);
    assert_stream_agrees::<legacy31::Legacy31>(bytes, cuts);
}

/// Cuts after every byte, and after every byte with an empty piece before
/// each piece too.
fn one_byte_cuts(len: usize) -> [Vec<usize>; 2] {
    let single: Vec<usize> = (0..=len).collect();
    let doubled: Vec<usize> = (0..=len).flat_map(|cut| [cut, cut]).collect();
    [single, doubled]
}

/// Inputs whose errors sit at every kind of place for some ruleset.
const EXAMPLES: &[&[u8]] = &[
    b"",
    b"abc",
    b"price: \xE2\x82\xAC 5",
    b"ab\xE2\x82",
    b"ab\xE2\x82A",
    b"\xF0\x9F\x92\x96 and \xED\xA0\xBD\xED\xB2\x96",
    b"\xED\xA0\x80\xED\xB0\x80",
    b"\xED\xA0\x80\xED",
    b"\xED\xA0\x80\xED\x41",
    b"a\xC0\x80b\x00",
    b"\xFD\xBF\xBF\xBF\xBF\xBF\xFC\x84\x80",
    b"\xF8\x87\xBF",
    b"x\xFF",
];

#[test]
fn examples_at_every_single_cut_and_in_one_byte_pieces() {
    for &bytes in EXAMPLES {
        for cut in 0..=bytes.len() {
            assert_every_ruleset(bytes, &[cut]);
            assert_every_ruleset(bytes, &[cut, cut]);
        }
        for cuts in one_byte_cuts(bytes.len()) {
            assert_every_ruleset(bytes, &cuts);
        }
    }
}

/// A stream longer than the vector threshold, with the error far in, so
/// that pieces run on the vector path and the error lands in a later piece.
#[test]
fn long_streams_with_late_errors() {
    let mut text = "Grüße, 世界! 💖 ".repeat(40).into_bytes();
    let len = text.len();
    for (at, bad) in [
        (len - 3, &b"\xFF"[..]),
        (len / 2, b"\xED\xA0\x80"),
        (300, b"\xE2\x82"),
    ] {
        let mut bytes = text.clone();
        bytes.splice(at..at, bad.iter().copied());
        for cut in (0..=bytes.len()).step_by(13) {
            assert_every_ruleset(&bytes, &[cut]);
        }
        assert_every_ruleset(&bytes, &[100, 200, 200, 333, 334, 335, 600]);
    }
    let cesu = cesu8_from_str(std::str::from_utf8(&text).unwrap());
    for cut in (0..=cesu.len()).step_by(11) {
        assert_every_ruleset(&cesu, &[cut]);
    }
    text.truncate(len - 2);
    assert_every_ruleset(&text, &[64, 128, 129]);
}

/// Sequences that end a piece, or start the next, in each way a piece's
/// edge can meet one: whole ones of each length, ones cut short, leads that
/// no byte can follow (which the vector check may judge only at the byte
/// after), stray continuation bytes, surrogates, overlongs, and the longer
/// forms of the legacy rulesets.
const PROBES: &[&[u8]] = &[
    b"\xC3\xA9",
    b"\xE2\x82\xAC",
    b"\xF0\x9F\x92\x96",
    b"\xE2\x82",
    b"\xF0\x9F\x92",
    b"\xF0",
    b"\xC0",
    b"\xC1\xBF",
    b"\xC0\x80",
    b"\xF5",
    b"\xFF",
    b"\x80",
    b"\xBF\x80",
    b"\xED\xA0\x80",
    b"\xED\xB0\x80",
    b"\xED\xA0\x80\xED\xB0\x80",
    b"\xF4\x90\x80\x80",
    b"\xE0\x80\x80",
    b"\xF8\x88\x80\x80\x80",
    b"\xFC\x84\x80\x80\x80\x80",
    b"\xFE",
];

/// Pieces long enough for the vector check, which the validator cuts
/// before a sequence left open at their end and finishes one begun before
/// their start with the automaton: every probe after 300 bytes of ASCII or
/// of two-byte letters, with the cut before, inside and after it, the
/// stream at five alignments in memory, and a third piece cut 150 bytes
/// before.
#[test]
fn every_probe_at_each_side_of_a_cut_between_long_pieces() {
    let fillers = ["abcdefghij".repeat(30), "é".repeat(150)];
    let mut storage = vec![0u8; 1024 + 64];
    let aligned = storage.as_ptr().align_offset(64);
    for filler in &fillers {
        for &probe in PROBES {
            let stream = [filler.as_bytes(), probe, filler.as_bytes()].concat();
            for offset in [0, 1, 17, 40, 63] {
                let at = aligned + offset;
                storage[at..at + stream.len()].copy_from_slice(&stream);
                let bytes = &storage[at..at + stream.len()];
                for cut in 298..=300 + probe.len() + 1 {
                    assert_every_ruleset(bytes, &[cut]);
                    assert_every_ruleset(bytes, &[cut - 150, cut]);
                }
            }
        }
    }
}

/// Valid text in one dialect or another, so that each ruleset sees both
/// input it accepts and input it rejects late.
fn any_dialect_text() -> impl Strategy<Value = Vec<u8>> {
    let character = prop_oneof![
        3 => prop::char::range('\0', '\x7F'),
        1 => prop::char::range('\u{80}', '\u{7FF}'),
        1 => prop::char::range('\u{800}', '\u{FFFF}'),
        1 => prop::char::range('\u{10000}', '\u{10FFFF}'),
    ];
    let unit = prop_oneof![3 => 0u16..0x80, 1 => 0x80u16..=0xFFFF, 1 => 0xD800u16..=0xDFFF];
    let value = prop_oneof![0u32..0x800, 0x800u32..0x20_0000, 0x20_0000u32..=0x7FFF_FFFF];
    prop_oneof![
        prop::collection::vec(character.clone(), 0..200)
            .prop_map(String::from_iter)
            .prop_map(String::into_bytes),
        prop::collection::vec(character, 0..200)
            .prop_map(|c| cesu8_from_str(&String::from_iter(c))),
        prop::collection::vec(unit.clone(), 0..200).prop_map(|u| mutf8_from_utf16(&u)),
        prop::collection::vec(unit, 0..200).prop_map(|u| wtf8_from_utf16(&u).0),
        prop::collection::vec(value, 0..100).prop_map(|values| {
            let mut bytes = Vec::new();
            for value in values {
                push_generalized(value, &mut bytes);
            }
            bytes
        }),
    ]
}

const SPLICES: &[&[u8]] = &[
    b"\xED\xA0\x80",
    b"\xED\xB0\x80",
    b"\xED\xA0\x80\xED\xB0\x80",
    b"\xF0\x9F\x92\x96",
    b"\xF4\x90\x80\x80",
    b"\x00",
    b"\xC0\x80",
    b"\xE2\x82",
    b"\xFC\x84\x80\x80\x80\x80",
    b"\xFE",
    b"\x80",
];

/// Sorted cut positions within `len`, repeats allowed (empty pieces).
fn cuts_within(len: usize, raw: &[usize]) -> Vec<usize> {
    let mut cuts: Vec<usize> = raw.iter().map(|cut| cut % (len + 1)).collect();
    cuts.sort_unstable();
    cuts
}

proptest! {
    #![proptest_config(utf8_tests::proptest_config(3_000))]

    #[test]
    fn mutated_text_at_random_cuts(
        text in any_dialect_text(),
        mutations in prop::collection::vec(utf8_tests::mutation(SPLICES), 0..=3),
        raw_cuts in prop::collection::vec(any::<usize>(), 0..12),
    ) {
        let mut bytes = text;
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        assert_every_ruleset(&bytes, &cuts_within(bytes.len(), &raw_cuts));
    }

    #[test]
    fn mutated_text_in_one_byte_pieces(
        text in any_dialect_text(),
        mutations in prop::collection::vec(utf8_tests::mutation(SPLICES), 0..=3),
    ) {
        let mut bytes = text;
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        bytes.truncate(200);
        for cuts in one_byte_cuts(bytes.len()) {
            assert_every_ruleset(&bytes, &cuts);
        }
    }
}
