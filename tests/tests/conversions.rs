//! The dialects' conversions to and from UTF-8 and UTF-16, against
//! references written from the definitions (`utf8_tests::dialect_text`),
//! against std's UTF-16 conversions (`String::from_utf16`,
//! `String::from_utf16_lossy`, `str::encode_utf16`), and the lossy
//! conversions against a reference built on each dialect's chunks and
//! decoded values. The `cesu8` crate's conversions are compared in
//! `cesu8_crate.rs`. The strict conversions' errors are checked against the
//! languages they read, every character's encoding concatenated: an error
//! says the input is incomplete exactly when some completion converts.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use utf8_core::{cesu8, legacy31, mutf8, rfc2279, wtf8};
use utf8_tests::dialect_text::{cesu8_from_str, mutf8_from_str, mutf8_from_utf16, wtf8_from_utf16};
use utf8_tests::{Hex, for_each_string, mutate, real_text_inputs};

/// Every Unicode scalar value, in order.
fn every_scalar_value() -> String {
    (0..=0x10_FFFF).filter_map(char::from_u32).collect()
}

#[test]
fn every_scalar_value_goes_to_cesu8_and_back_as_utr26_writes_it() {
    let text = every_scalar_value();
    let cesu = cesu8_from_str(&text);
    assert_eq!(cesu8::from_str(&text), cesu.as_slice());
    assert_eq!(cesu8::to_str(&cesu).as_deref(), Ok(text.as_str()));
    assert_eq!(cesu8::to_str_lossy(&cesu), text);
}

#[test]
fn every_scalar_value_goes_to_modified_utf8_and_back_as_the_jvms_writes_it() {
    let text = every_scalar_value();
    let java = mutf8_from_str(&text);
    assert_eq!(mutf8::from_str(&text), java.as_slice());
    assert_eq!(mutf8::to_str(&java).as_deref(), Ok(text.as_str()));
    assert_eq!(mutf8::to_str_lossy(&java), text);
}

#[test]
fn text_without_supplementary_characters_or_nulls_is_borrowed_both_ways() {
    let text = "naïve café, ᚠᛇᚻ, 日本語";
    for converted in [cesu8::from_str(text), mutf8::from_str(text)] {
        assert!(matches!(converted, Cow::Borrowed(b) if b == text.as_bytes()));
    }
    for converted in [
        cesu8::to_str(text.as_bytes()).expect("valid"),
        mutf8::to_str(text.as_bytes()).expect("valid"),
        cesu8::to_str_lossy(text.as_bytes()),
        mutf8::to_str_lossy(text.as_bytes()),
        wtf8::to_str_lossy(text.as_bytes()),
        rfc2279::to_str_lossy(text.as_bytes()),
    ] {
        assert!(matches!(converted, Cow::Borrowed(t) if t == text));
    }
    assert!(matches!(mutf8::from_str("a\0"), Cow::Owned(_)));
    assert!(matches!(cesu8::from_str("a\0"), Cow::Borrowed(_)));
}

/// The byte index in `mutf8_from_utf16(units)` of the first surrogate that
/// is not half of a pair, and whether it is a lead surrogate ending the input.
fn first_lone_surrogate(units: &[u16]) -> Option<(usize, bool)> {
    let mut at = 0;
    let mut index = 0;
    while index < units.len() {
        let unit = units[index];
        let is_lead = (0xD800..=0xDBFF).contains(&unit);
        let paired = is_lead
            && units
                .get(index + 1)
                .is_some_and(|t| (0xDC00..=0xDFFF).contains(t));
        if paired {
            at += 6;
            index += 2;
            continue;
        }
        if (0xD800..=0xDFFF).contains(&unit) {
            return Some((at, is_lead && index + 1 == units.len()));
        }
        at += mutf8_from_utf16(&[unit]).len();
        index += 1;
    }
    None
}

fn assert_modified_utf8_of_units_converts_as_std(units: &[u16]) {
    let bytes = mutf8_from_utf16(units);
    let converted = mutf8::to_str(&bytes);
    match (String::from_utf16(units), first_lone_surrogate(units)) {
        (Ok(text), None) => assert_eq!(converted.as_deref(), Ok(text.as_str())),
        (Err(_), Some((at, at_end))) => {
            let e = converted.expect_err("a lone surrogate");
            let len = if at_end { None } else { Some(3) };
            assert_eq!(
                (e.valid_up_to(), e.error_len()),
                (at, len),
                "{}",
                Hex(&bytes)
            );
            assert_eq!(e.ruleset(), "mutf8");
        }
        (std, lone) => panic!("std says {std:?}, the reference {lone:?}"),
    }
    assert_eq!(mutf8::to_str_lossy(&bytes), String::from_utf16_lossy(units));
}

fn assert_wtf8_of_units_converts_as_std(units: &[u16]) {
    let bytes = wtf8::from_wide(units);
    assert_eq!(bytes, wtf8_from_utf16(units).0, "from_wide({units:X?})");
    assert_eq!(wtf8::to_wide(&bytes).as_deref(), Ok(units));
    let encoded = wtf8::encode_wide(&bytes).expect("from_wide writes WTF-8");
    let (low, high) = encoded.size_hint();
    assert!(low <= units.len() && high.is_some_and(|high| high >= units.len()));
    match String::from_utf16(units) {
        Ok(text) => assert_eq!(wtf8::to_str(&bytes), Ok(text.as_str())),
        Err(_) => {
            let e = wtf8::to_str(&bytes).expect_err("an unpaired surrogate");
            let at = bytes.windows(2).position(|w| w[0] == 0xED && w[1] >= 0xA0);
            assert_eq!((Some(e.valid_up_to()), e.error_len()), (at, Some(3)));
        }
    }
    assert_eq!(wtf8::to_str_lossy(&bytes), String::from_utf16_lossy(units));
}

/// UTF-16 code units at every boundary that matters to the conversions.
const UNITS: &[u16] = &[
    0x0000, 0x0041, 0x007F, 0x0080, 0x07FF, 0x0800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
    0xFFFF,
];

#[test]
fn every_short_sequence_of_boundary_units_converts_as_std() {
    let mut units = Vec::new();
    for len in 0..=4u32 {
        for mut n in 0..UNITS.len().pow(len) {
            units.clear();
            for _ in 0..len {
                units.push(UNITS[n % UNITS.len()]);
                n /= UNITS.len();
            }
            assert_wtf8_of_units_converts_as_std(&units);
            assert_modified_utf8_of_units_converts_as_std(&units);
        }
    }
}

#[test]
fn runs_of_surrogate_pairs_convert_both_ways_whatever_follows_them() {
    // Emoji back to back take the conversion's pair loop, which reads eight
    // bytes at a time where the input has them and six at its very end.
    let emoji: Vec<u16> = "😀🎉🦀".encode_utf16().collect();
    for pairs in 0..40 {
        let run: Vec<u16> = emoji.iter().copied().cycle().take(2 * pairs).collect();
        for tail in [
            &[][..],
            &[0xD83D],
            &[0xDE00],
            &[0x61],
            &[0xD83D, 0x61],
            &[0, 0x7FF],
        ] {
            let mut units = run.clone();
            units.extend_from_slice(tail);
            assert_modified_utf8_of_units_converts_as_std(&units);
            let mut lead = vec![0x41, 0xE9];
            lead.extend_from_slice(&units);
            assert_modified_utf8_of_units_converts_as_std(&lead);
            if let Ok(text) = String::from_utf16(&units) {
                let bytes = cesu8_from_str(&text);
                assert_eq!(cesu8::to_str(&bytes).as_deref(), Ok(text.as_str()));
                // And back: supplementary characters (and NULs) back to back
                // take the writer's own loop.
                assert_eq!(&*cesu8::from_str(&text), &bytes[..]);
                let text = text.replace('a', "\0\0");
                assert_eq!(&*mutf8::from_str(&text), &mutf8_from_str(&text)[..]);
            }
        }
    }
}

#[test]
fn every_scalar_value_and_surrogate_goes_to_wtf8_and_back() {
    let text = every_scalar_value();
    let units: Vec<u16> = text.encode_utf16().collect();
    assert_eq!(wtf8::from_wide(&units), text.as_bytes());
    assert_eq!(wtf8::to_wide(text.as_bytes()).as_deref(), Ok(&units[..]));
    for surrogate in 0xD800..=0xDFFF {
        assert_wtf8_of_units_converts_as_std(&[surrogate]);
        assert_wtf8_of_units_converts_as_std(&[0x61, surrogate, 0x62]);
    }
}

#[test]
fn wtf8_to_wide_rejects_what_validation_rejects_with_the_same_error() {
    for bytes in [
        &b"\xED\xA0\x80\xED\xB0\x80"[..],
        b"a\xC0\x80",
        b"\xF0\x9F\x92",
    ] {
        assert_eq!(
            wtf8::to_wide(bytes),
            Err(wtf8::validate(bytes).unwrap_err())
        );
        assert!(wtf8::encode_wide(bytes).is_err());
    }
}

/// Reference lossy conversions: each dialect's chunks, their valid parts
/// decoded value by value (`decode` is tested against the definitions in
/// `dialects.rs`), a value `str` cannot hold and each invalid part replaced.
mod reference {
    use super::*;

    const REPLACEMENT: char = char::REPLACEMENT_CHARACTER;

    fn from_code_points(
        bytes: &[u8],
        chunks: utf8_core::Chunks<'_, impl utf8_core::Ruleset>,
        decode: impl Fn(&[u8]) -> String,
    ) -> String {
        let _ = bytes;
        let mut text = String::new();
        for chunk in chunks {
            text.push_str(&decode(chunk.valid()));
            if !chunk.invalid().is_empty() {
                text.push(REPLACEMENT);
            }
        }
        text
    }

    fn scalar(value: u32) -> char {
        char::from_u32(value).unwrap_or(REPLACEMENT)
    }

    pub fn cesu8(bytes: &[u8]) -> String {
        from_code_points(bytes, cesu8::chunks(bytes), |valid| {
            cesu8::decode(valid).map(|c| c.expect("valid")).collect()
        })
    }

    pub fn mutf8(bytes: &[u8]) -> String {
        from_code_points(bytes, mutf8::chunks(bytes), |valid| {
            let units: Vec<u16> = mutf8::decode(valid)
                .map(|unit| u16::try_from(unit.expect("valid")).expect("a code unit"))
                .collect();
            String::from_utf16_lossy(&units)
        })
    }

    pub fn wtf8(bytes: &[u8]) -> String {
        from_code_points(bytes, wtf8::chunks(bytes), |valid| {
            wtf8::decode(valid)
                .map(|v| scalar(v.expect("valid")))
                .collect()
        })
    }

    pub fn rfc2279(bytes: &[u8]) -> String {
        from_code_points(bytes, rfc2279::chunks(bytes), |valid| {
            rfc2279::decode(valid)
                .map(|v| scalar(v.expect("valid")))
                .collect()
        })
    }

    pub fn legacy31(bytes: &[u8]) -> String {
        from_code_points(bytes, legacy31::chunks(bytes), |valid| {
            legacy31::decode(valid)
                .map(|v| scalar(v.expect("valid")))
                .collect()
        })
    }
}

fn assert_lossy_agrees(bytes: &[u8]) {
    let cases: [(&str, Cow<'_, str>, String); 5] = [
        ("cesu8", cesu8::to_str_lossy(bytes), reference::cesu8(bytes)),
        ("mutf8", mutf8::to_str_lossy(bytes), reference::mutf8(bytes)),
        ("wtf8", wtf8::to_str_lossy(bytes), reference::wtf8(bytes)),
        (
            "rfc2279",
            rfc2279::to_str_lossy(bytes),
            reference::rfc2279(bytes),
        ),
        (
            "legacy31",
            legacy31::to_str_lossy(bytes),
            reference::legacy31(bytes),
        ),
    ];
    for (name, ours, reference) in cases {
        assert_eq!(ours, reference, "{name} {}", Hex(bytes));
        if let Cow::Borrowed(text) = ours {
            assert!(
                core::ptr::eq(text.as_bytes(), bytes),
                "{name} borrows its input"
            );
        }
    }
    // A strict conversion succeeds exactly when nothing is lost, and then
    // says what the lossy one says.
    for (strict, lossy) in [
        (cesu8::to_str(bytes).ok(), cesu8::to_str_lossy(bytes)),
        (mutf8::to_str(bytes).ok(), mutf8::to_str_lossy(bytes)),
        (
            wtf8::to_str(bytes).ok().map(Cow::Borrowed),
            wtf8::to_str_lossy(bytes),
        ),
    ] {
        if let Some(strict) = strict {
            assert_eq!(strict, lossy, "{}", Hex(bytes));
        }
    }
}

/// Bytes at every boundary of the dialects' definitions.
const REPRESENTATIVES: &[u8] = &[
    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
    0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF8, 0xFC, 0xFE, 0xFF,
];

#[test]
fn lossy_conversions_of_every_short_string_over_representatives() {
    for len in 1..=4 {
        for_each_string(REPRESENTATIVES, len, assert_lossy_agrees);
    }
    let pair_bytes = [0x41, 0x80, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xED];
    for_each_string(&pair_bytes, 6, assert_lossy_agrees);
}

#[test]
fn lossy_conversions_of_the_corpus_and_stress_test() {
    for bytes in real_text_inputs() {
        assert_lossy_agrees(&bytes);
        if let Ok(text) = core::str::from_utf8(&bytes) {
            assert_lossy_agrees(&cesu8_from_str(text));
            assert_lossy_agrees(&mutf8_from_str(text));
            assert_eq!(cesu8::to_str(&cesu8::from_str(text)).as_deref(), Ok(text));
            assert_eq!(mutf8::to_str(&mutf8::from_str(text)).as_deref(), Ok(text));
        }
    }
}

const SPLICES: &[&[u8]] = &[
    b"\xED\xA0\x80",
    b"\xED\xB0\x80",
    b"\xF0\x9F\x92\x96",
    b"\x00",
    b"\xC0\x80",
    b"\xF8\x88\x80\x80\x80",
    b"\x80",
];

/// UTF-16 code units, surrogates often.
fn units() -> impl Strategy<Value = Vec<u16>> {
    let unit = prop_oneof![any::<u16>(), 0xD800..=0xDFFFu16, 0u16..0x80];
    prop::collection::vec(unit, 0..64)
}

proptest! {
    #![proptest_config(utf8_tests::proptest_config(3_000))]

    #[test]
    fn any_utf16_goes_to_wtf8_and_back_as_std_reads_it(units in units()) {
        assert_wtf8_of_units_converts_as_std(&units);
    }

    #[test]
    fn any_utf16_as_modified_utf8_converts_as_std_reads_it(units in units()) {
        assert_modified_utf8_of_units_converts_as_std(&units);
    }

    #[test]
    fn valid_wtf8_goes_to_utf16_and_back_unchanged(
        text in any::<String>(),
        mutations in prop::collection::vec(utf8_tests::mutation(SPLICES), 0..=3),
    ) {
        let mut bytes = text.into_bytes();
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        match wtf8::to_wide(&bytes) {
            Ok(units) => prop_assert_eq!(wtf8::from_wide(&units), bytes),
            Err(e) => prop_assert_eq!(Err(e), wtf8::validate(&bytes)),
        }
    }

    #[test]
    fn lossy_conversions_of_mutated_dialect_text(
        text in any::<String>(),
        java in any::<bool>(),
        mutations in prop::collection::vec(utf8_tests::mutation(SPLICES), 0..=3),
    ) {
        let mut bytes = if java { mutf8_from_str(&text) } else { cesu8_from_str(&text) };
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        assert_lossy_agrees(&bytes);
    }
}

#[test]
fn a_lead_surrogate_followed_by_the_start_of_a_trail_surrogate_is_incomplete_in_modified_utf8() {
    // ED B0 80 after these bytes makes the pair of U+A5C00.
    for bytes in [&b"\xED\xA9\x97\xED"[..], b"\xED\xA9\x97\xED\xB0"] {
        let e = mutf8::to_str(bytes).expect_err("an incomplete pair");
        assert_eq!(
            (e.valid_up_to(), e.error_len()),
            (0, None),
            "{}",
            Hex(bytes)
        );
        let e = cesu8::to_str(bytes).expect_err("an incomplete pair");
        assert_eq!(
            (e.valid_up_to(), e.error_len()),
            (0, None),
            "{}",
            Hex(bytes)
        );
    }
    assert_eq!(
        mutf8::to_str(b"\xED\xA9\x97\xED\xB0\x80").as_deref(),
        Ok("\u{A5C00}")
    );
}

#[test]
fn the_start_of_a_surrogate_that_str_cannot_hold_is_already_an_error() {
    // A trail surrogate cut short: str cannot hold it, and it cannot end a
    // pair that nothing comes before. The error covers the bytes of it that
    // are there, as it covers `ED B8` when another byte follows (WTF-8's and
    // modified UTF-8's maximal subpart) and the three bytes of a whole one.
    for bytes in [&b"\xED\xB8"[..], b"a\xED\xB0"] {
        let at = bytes.len() - 2;
        let e = wtf8::to_str(bytes).expect_err("a lone trail surrogate");
        assert_eq!(
            (e.valid_up_to(), e.error_len()),
            (at, Some(2)),
            "{}",
            Hex(bytes)
        );
        let e = mutf8::to_str(bytes).expect_err("a lone trail surrogate");
        assert_eq!(
            (e.valid_up_to(), e.error_len()),
            (at, Some(2)),
            "{}",
            Hex(bytes)
        );
        let followed = [bytes, b"A"].concat();
        assert_eq!(
            wtf8::to_str(&followed).map_err(|e| (e.valid_up_to(), e.error_len())),
            Err((at, Some(2)))
        );
    }
    // WTF-8 has no pairs: a lead surrogate cut short cannot convert either.
    let e = wtf8::to_str(b"\xED\xA0").expect_err("a lone lead surrogate");
    assert_eq!((e.valid_up_to(), e.error_len()), (0, Some(2)));
}

/// The language a strict conversion to `str` reads, from the definitions:
/// the encodings of every character (each dialect's own, from
/// `utf8_tests::dialect_text` or `char::encode_utf8`), concatenated. What
/// converts is exactly that, because each conversion gives back the text
/// whose encoding the input is. Holding every encoding, it decides whether
/// an input can be completed without searching over appended bytes, so no
/// choice of bytes to append can leave a completion out.
struct Encodings {
    /// Every character's encoding, packed by [`packed`].
    whole: HashSet<u64>,
    /// Every proper, non-empty prefix of an encoding, with the rest of one
    /// encoding it starts.
    started: HashMap<u64, Vec<u8>>,
}

/// Up to seven bytes as one number, a leading 1 bit keeping lengths apart.
fn packed(bytes: &[u8]) -> u64 {
    assert!(bytes.len() < 8);
    bytes
        .iter()
        .fold(1, |key, &byte| key << 8 | u64::from(byte))
}

impl Encodings {
    fn new(encode: impl Fn(char) -> Vec<u8>) -> Encodings {
        let mut whole = HashSet::new();
        let mut started = HashMap::new();
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let encoding = encode(c);
            for len in 1..encoding.len() {
                started
                    .entry(packed(&encoding[..len]))
                    .or_insert_with(|| encoding[len..].to_vec());
            }
            whole.insert(packed(&encoding));
        }
        Encodings { whole, started }
    }

    /// Where `bytes` stop being a concatenation of whole encodings (the
    /// longest prefix that converts), and the bytes that complete the input
    /// if the rest is the start of one encoding, `None` if nothing appended
    /// can make `bytes` convert. Encodings are prefix-free (none starts
    /// another), so the split into them is unique, and whatever follows the
    /// last whole one must start the next for any completion to convert.
    fn completion(&self, bytes: &[u8]) -> (usize, Option<Vec<u8>>) {
        let mut at = 0;
        'next: while at < bytes.len() {
            for len in 1..=6.min(bytes.len() - at) {
                if self.whole.contains(&packed(&bytes[at..at + len])) {
                    at += len;
                    continue 'next;
                }
            }
            break;
        }
        let rest = &bytes[at..];
        let completion = if rest.is_empty() {
            Some(Vec::new())
        } else if rest.len() < 6 {
            self.started.get(&packed(rest)).cloned()
        } else {
            None
        };
        (at, completion)
    }
}

type Strict = for<'a> fn(&'a [u8]) -> Result<Cow<'a, str>, utf8_core::Utf8Error>;

/// `bytes` through `convert`, against [`Encodings::completion`]: the error
/// starts after the longest prefix that converts, and says `None` exactly
/// when some completion converts, which is then tried.
fn assert_error_says_whether_more_input_could_convert(
    name: &str,
    convert: Strict,
    encodings: &Encodings,
    bytes: &[u8],
) {
    let (converts_up_to, completion) = encodings.completion(bytes);
    match convert(bytes) {
        Ok(_) => assert_eq!(
            (converts_up_to, completion.as_deref()),
            (bytes.len(), Some(&[][..])),
            "{name} converted {}",
            Hex(bytes)
        ),
        Err(e) => {
            assert_eq!(e.valid_up_to(), converts_up_to, "{name} {}", Hex(bytes));
            match (e.error_len(), completion) {
                (None, Some(completion)) => {
                    let whole = [bytes, &completion].concat();
                    assert!(convert(&whole).is_ok(), "{name} {}", Hex(&whole));
                }
                (Some(len), None) => assert!(
                    e.valid_up_to() + len <= bytes.len(),
                    "{name} {}: {len} bytes",
                    Hex(bytes)
                ),
                (len, completion) => panic!(
                    "{name} {}: error_len {len:?}, completion {:?}",
                    Hex(bytes),
                    completion.as_deref().map(|c| Hex(c).to_string())
                ),
            }
        }
    }
}

/// Every byte class the conversions' languages part on, and a few more
/// values inside the surrogates' second bytes.
const INTERESTING: &[u8] = &[
    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xA9, 0xAF, 0xB0, 0xB8, 0xBF, 0xC0, 0xC1, 0xC2,
    0xDF, 0xE0, 0xED, 0xEE, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
];

/// What a surrogate pair, a lone half or one cut short turns on.
const AROUND_PAIRS: &[u8] = &[0x41, 0x80, 0x97, 0xA0, 0xA9, 0xB0, 0xB8, 0xBF, 0xC0, 0xED];

#[test]
fn every_conversion_to_str_says_incomplete_exactly_when_more_input_could_convert() {
    let wtf8_to_str: Strict = |bytes| wtf8::to_str(bytes).map(Cow::Borrowed);
    let conversions: [(&str, Strict, Encodings); 3] = [
        (
            "cesu8",
            cesu8::to_str,
            Encodings::new(|c| cesu8_from_str(c.encode_utf8(&mut [0; 4]))),
        ),
        (
            "mutf8",
            mutf8::to_str,
            Encodings::new(|c| mutf8_from_str(c.encode_utf8(&mut [0; 4]))),
        ),
        (
            "wtf8",
            wtf8_to_str,
            Encodings::new(|c| c.encode_utf8(&mut [0; 4]).as_bytes().to_vec()),
        ),
    ];
    for (name, convert, encodings) in &conversions {
        let check = |bytes: &[u8]| {
            assert_error_says_whether_more_input_could_convert(name, *convert, encodings, bytes);
        };
        for len in 1..=4 {
            for_each_string(INTERESTING, len, check);
        }
        for len in 5..=6 {
            for_each_string(AROUND_PAIRS, len, check);
        }
    }
}
