//! Each built-in ruleset (RFC 3629, CESU-8, modified UTF-8, WTF-8, RFC 2279)
//! against a reference decoder written here from the dialect's definition:
//! UTR #26, JVMS §4.4.7, the WTF-8 specification and RFC 2279 §2. The
//! reference uses no generated table and nothing from `utf8_spec`; it shares
//! only the definitions with the derivation, so agreement checks the
//! derivation and every path that runs its tables.
//!
//! The reference is checked first in its RFC 3629 form against
//! `core::str::from_utf8`, the one outside oracle for `valid_up_to` and
//! `error_len`; the dialects differ from that form only in which values each
//! length may carry and in the two-code-point rules of CESU-8 and WTF-8.

use std::time::Instant;

use proptest::prelude::*;
use utf8_core::{Decode, Rfc3629, Ruleset, Utf8Error, cesu8, mutf8, paths, rfc2279, wtf8};
use utf8_tests::dialect_text::{
    cesu8_from_str, mutf8_from_utf16, push_generalized, wtf8_from_utf16,
};
use utf8_tests::{
    Hex, all_bytes, corpus_files, error_parts, for_each_string, kuhn_stress_test, mutate,
    real_text_inputs, std_error_parts,
};

/// `(valid_up_to, error_len)`.
type ErrorParts = (usize, Option<usize>);

mod reference {
    use super::ErrorParts;

    /// Which values a sequence of each length may carry, as inclusive
    /// ranges, indexed by length (index 0 unused). The ranges start at each
    /// length's smallest value, which is the shortest-form rule.
    pub type Layout = [&'static [(u32, u32)]; 7];

    const NONE: &[(u32, u32)] = &[];

    /// RFC 3629 §3: up to U+10FFFF, no surrogates, shortest forms.
    pub const RFC3629: Layout = [
        NONE,
        &[(0, 0x7F)],
        &[(0x80, 0x7FF)],
        &[(0x800, 0xD7FF), (0xE000, 0xFFFF)],
        &[(0x1_0000, 0x10_FFFF)],
        NONE,
        NONE,
    ];

    /// RFC 2279 §2: every 31-bit value in its shortest form, surrogates
    /// included (RFC 2279 does not exclude them).
    pub const RFC2279: Layout = [
        NONE,
        &[(0, 0x7F)],
        &[(0x80, 0x7FF)],
        &[(0x800, 0xFFFF)],
        &[(0x1_0000, 0x1F_FFFF)],
        &[(0x20_0000, 0x3FF_FFFF)],
        &[(0x400_0000, 0x7FFF_FFFF)],
    ];

    /// JVMS §4.4.7: code units 1-7F in one byte, 0 and 80-7FF in two (the
    /// null's `C0 80` is the one overlong form), 800-FFFF in three,
    /// surrogates included; nothing longer.
    pub const MUTF8: Layout = [
        NONE,
        &[(1, 0x7F)],
        &[(0, 0), (0x80, 0x7FF)],
        &[(0x800, 0xFFFF)],
        NONE,
        NONE,
        NONE,
    ];

    /// UTR #26, read strictly: what may start a CESU-8 character. A lead
    /// surrogate starts a pair (see [`CESU8_TRAIL`]); a trail surrogate
    /// cannot start anything; no four-byte forms.
    pub const CESU8: Layout = [
        NONE,
        &[(0, 0x7F)],
        &[(0x80, 0x7FF)],
        &[(0x800, 0xDBFF), (0xE000, 0xFFFF)],
        NONE,
        NONE,
        NONE,
    ];

    /// What must come right after a CESU-8 lead surrogate.
    pub const CESU8_TRAIL: Layout = [NONE, NONE, NONE, &[(0xDC00, 0xDFFF)], NONE, NONE, NONE];

    /// WTF-8: generalized UTF-8, all code points up to U+10FFFF with
    /// surrogates in three bytes.
    pub const WTF8: Layout = [
        NONE,
        &[(0, 0x7F)],
        &[(0x80, 0x7FF)],
        &[(0x800, 0xFFFF)],
        &[(0x1_0000, 0x10_FFFF)],
        NONE,
        NONE,
    ];

    /// WTF-8 right after a lead surrogate: anything but a trail surrogate,
    /// since the pair has its own four-byte form.
    pub const WTF8_AFTER_LEAD: Layout = [
        NONE,
        &[(0, 0x7F)],
        &[(0x80, 0x7FF)],
        &[(0x800, 0xDBFF), (0xE000, 0xFFFF)],
        &[(0x1_0000, 0x10_FFFF)],
        NONE,
        NONE,
    ];

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Dialect {
        Rfc3629,
        Cesu8,
        Mutf8,
        Wtf8,
        Rfc2279,
    }

    /// One sequence of the bit layout at some position.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Unit {
        /// Its value and length.
        Complete(u32, usize),
        /// The first this many bytes could still have been completed (0
        /// when not even the lead byte could); the next byte cannot follow.
        Invalid(usize),
        /// The input ends while the bytes so far could still be completed.
        Incomplete,
    }

    fn lead_bits(len: usize) -> u32 {
        if len == 1 { 7 } else { 7 - len as u32 }
    }

    /// Whether a `len`-byte sequence whose first `taken` bytes carry
    /// `prefix` can still end with a value in `allowed`: the values it can
    /// reach are one interval.
    fn reachable(allowed: &[(u32, u32)], len: usize, taken: usize, prefix: u64) -> bool {
        let free = 6 * (len - taken) as u32;
        let lowest = prefix << free;
        let highest = lowest | ((1 << free) - 1);
        allowed
            .iter()
            .any(|&(from, to)| lowest <= u64::from(to) && u64::from(from) <= highest)
    }

    /// The sequence at `bytes[start..]` under `layout`.
    pub fn unit_at(layout: &Layout, bytes: &[u8], start: usize) -> Unit {
        let Some(&lead) = bytes.get(start) else {
            return Unit::Incomplete;
        };
        // The lead byte announces the length by its leading ones: none for
        // one byte, one for a continuation byte (never a lead), up to 6.
        let len = match lead.leading_ones() {
            0 => 1,
            ones @ 2..=6 => ones as usize,
            _ => return Unit::Invalid(0),
        };
        let mut value = u64::from(lead) & ((1 << lead_bits(len)) - 1);
        if !reachable(layout[len], len, 1, value) {
            return Unit::Invalid(0);
        }
        for taken in 1..len {
            let Some(&byte) = bytes.get(start + taken) else {
                return Unit::Incomplete;
            };
            if byte & 0xC0 != 0x80 {
                return Unit::Invalid(taken);
            }
            value = (value << 6) | u64::from(byte & 0x3F);
            if !reachable(layout[len], len, taken + 1, value) {
                return Unit::Invalid(taken);
            }
        }
        Unit::Complete(value as u32, len)
    }

    fn is_lead_surrogate(value: u32) -> bool {
        (0xD800..=0xDBFF).contains(&value)
    }

    /// The values of `bytes` with an error item per maximal invalid part,
    /// resuming after `error_len` bytes, and one final item for an
    /// incomplete sequence at the end: `utf8_core::Decode`'s contract, as
    /// lossy decoding reads it. After an error, decoding starts afresh (a
    /// replacement character is no lead surrogate).
    #[derive(Clone, Debug)]
    pub struct Decode<'a> {
        dialect: Dialect,
        bytes: &'a [u8],
        position: usize,
        after_lead_surrogate: bool,
    }

    impl<'a> Decode<'a> {
        pub fn new(dialect: Dialect, bytes: &'a [u8]) -> Decode<'a> {
            Decode {
                dialect,
                bytes,
                position: 0,
                after_lead_surrogate: false,
            }
        }

        fn fail(&mut self, start: usize, unit: Unit) -> Result<u32, ErrorParts> {
            self.after_lead_surrogate = false;
            match unit {
                Unit::Invalid(prefix) => {
                    let len = prefix.max(1);
                    self.position = start + len;
                    Err((start, Some(len)))
                }
                Unit::Incomplete => {
                    self.position = self.bytes.len();
                    Err((start, None))
                }
                Unit::Complete(..) => unreachable!("not a failure"),
            }
        }
    }

    impl Iterator for Decode<'_> {
        type Item = Result<u32, ErrorParts>;

        fn next(&mut self) -> Option<Self::Item> {
            let start = self.position;
            if start >= self.bytes.len() {
                return None;
            }
            let layout = match self.dialect {
                Dialect::Rfc3629 => &RFC3629,
                Dialect::Cesu8 => &CESU8,
                Dialect::Mutf8 => &MUTF8,
                Dialect::Wtf8 if self.after_lead_surrogate => &WTF8_AFTER_LEAD,
                Dialect::Wtf8 => &WTF8,
                Dialect::Rfc2279 => &RFC2279,
            };
            let (value, len) = match unit_at(layout, self.bytes, start) {
                Unit::Complete(value, len) => (value, len),
                failure => return Some(self.fail(start, failure)),
            };
            if self.dialect == Dialect::Cesu8 && is_lead_surrogate(value) {
                // The pair is one character: its error counts the lead's
                // three bytes as the valid prefix they are.
                return Some(match unit_at(&CESU8_TRAIL, self.bytes, start + len) {
                    Unit::Complete(trail, trail_len) => {
                        self.position = start + len + trail_len;
                        Ok(0x1_0000 + ((value - 0xD800) << 10) + (trail - 0xDC00))
                    }
                    Unit::Invalid(prefix) => self.fail(start, Unit::Invalid(len + prefix)),
                    Unit::Incomplete => self.fail(start, Unit::Incomplete),
                });
            }
            self.after_lead_surrogate = self.dialect == Dialect::Wtf8 && is_lead_surrogate(value);
            self.position = start + len;
            Some(Ok(value))
        }
    }

    /// The first error item: every sequence before it was complete, and
    /// validation stops there.
    pub fn validate(dialect: Dialect, bytes: &[u8]) -> Result<(), ErrorParts> {
        match Decode::new(dialect, bytes).find_map(Result::err) {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

use reference::Dialect;

fn ours(result: Result<(), Utf8Error>) -> Result<(), ErrorParts> {
    result.map_err(|e| error_parts(&e))
}

/// Holds one ruleset's `validate` (free function, associated function and
/// trait method), `validate_const` and `decode` against the reference.
fn assert_agrees<R: Ruleset>(
    dialect: Dialect,
    bytes: &[u8],
    validate: fn(&[u8]) -> Result<(), Utf8Error>,
    validate_const: fn(&[u8]) -> Result<(), Utf8Error>,
    decode: for<'a> fn(&'a [u8]) -> Decode<'a, R>,
) where
    R::Value: Into<u32>,
{
    let expected = reference::validate(dialect, bytes);
    let got = ours(validate(bytes));
    assert_eq!(got, expected, "{dialect:?} validate {}", Hex(bytes));
    let got = ours(validate_const(bytes));
    assert_eq!(got, expected, "{dialect:?} validate_const {}", Hex(bytes));
    let got = ours(<R as Ruleset>::validate(bytes));
    assert_eq!(
        got,
        expected,
        "{dialect:?} Ruleset::validate {}",
        Hex(bytes)
    );
    let mut left = decode(bytes).map(|item| item.map(Into::into).map_err(|e| error_parts(&e)));
    let mut right = reference::Decode::new(dialect, bytes);
    let mut index = 0;
    loop {
        let (ours, theirs) = (left.next(), right.next());
        assert_eq!(
            ours,
            theirs,
            "{dialect:?} decode {}: item {index}",
            Hex(bytes)
        );
        if ours.is_none() {
            break;
        }
        index += 1;
    }
}

/// The UTF-8 shortcut with RFC 3629's check forced to each path this CPU
/// runs agrees with `validate` (which takes the detected one). Inputs
/// shorter than the vector threshold do not take the shortcut.
fn assert_shortcut_agrees_on_every_path<R: Ruleset>(
    bytes: &[u8],
    validate: fn(&[u8]) -> Result<(), Utf8Error>,
) {
    if bytes.len() < utf8_core::SIMD_THRESHOLD {
        return;
    }
    let expected = ours(validate(bytes));
    for path in paths::Path::ALL {
        if let Some(result) = paths::by_utf8_shortcut::<R>(path, bytes) {
            assert_eq!(
                ours(result),
                expected,
                "{} shortcut on {path:?}: {}",
                R::NAME,
                Hex(bytes)
            );
        }
    }
}

/// Every path this CPU runs for `R` itself (the automaton, the shift DFA
/// and each vector level where `R` has a check of its own) agrees with the
/// reference.
fn assert_every_path_agrees<R: Ruleset>(dialect: Dialect, bytes: &[u8]) {
    let expected = reference::validate(dialect, bytes);
    for path in paths::Path::ALL {
        if let Some(result) = paths::ruleset::<R>(path, bytes) {
            assert_eq!(
                ours(result),
                expected,
                "{} on {path:?}: {}",
                R::NAME,
                Hex(bytes)
            );
        }
    }
}

fn check_rfc3629(bytes: &[u8]) {
    assert_agrees(
        Dialect::Rfc3629,
        bytes,
        Rfc3629::validate,
        Rfc3629::validate_const,
        utf8_core::decode,
    );
}

fn check_cesu8(bytes: &[u8]) {
    assert_agrees(
        Dialect::Cesu8,
        bytes,
        cesu8::validate,
        cesu8::validate_const,
        cesu8::decode,
    );
    assert_eq!(
        ours(cesu8::Cesu8::validate(bytes)),
        ours(cesu8::validate(bytes))
    );
    assert_every_path_agrees::<cesu8::Cesu8>(Dialect::Cesu8, bytes);
    assert_shortcut_agrees_on_every_path::<cesu8::Cesu8>(bytes, cesu8::validate);
}

fn check_mutf8(bytes: &[u8]) {
    assert_agrees(
        Dialect::Mutf8,
        bytes,
        mutf8::validate,
        mutf8::validate_const,
        mutf8::decode,
    );
    assert_eq!(
        ours(mutf8::Mutf8::validate(bytes)),
        ours(mutf8::validate(bytes))
    );
    assert_every_path_agrees::<mutf8::Mutf8>(Dialect::Mutf8, bytes);
    assert_shortcut_agrees_on_every_path::<mutf8::Mutf8>(bytes, mutf8::validate);
}

fn check_wtf8(bytes: &[u8]) {
    assert_agrees(
        Dialect::Wtf8,
        bytes,
        wtf8::validate,
        wtf8::validate_const,
        wtf8::decode,
    );
    assert_eq!(
        ours(wtf8::Wtf8::validate(bytes)),
        ours(wtf8::validate(bytes))
    );
    assert_every_path_agrees::<wtf8::Wtf8>(Dialect::Wtf8, bytes);
    assert_shortcut_agrees_on_every_path::<wtf8::Wtf8>(bytes, wtf8::validate);
}

fn check_rfc2279(bytes: &[u8]) {
    assert_agrees(
        Dialect::Rfc2279,
        bytes,
        rfc2279::validate,
        rfc2279::validate_const,
        rfc2279::decode,
    );
    assert_eq!(
        ours(rfc2279::Rfc2279::validate(bytes)),
        ours(rfc2279::validate(bytes))
    );
    assert_every_path_agrees::<rfc2279::Rfc2279>(Dialect::Rfc2279, bytes);
}

/// `chunks` against the chunks the reference's error items mark: valid
/// bytes up to each error, the error's bytes (the rest of the input when it
/// is cut short, which is then `is_incomplete`), and the valid tail.
fn assert_chunks_agree<R: Ruleset>(
    dialect: Dialect,
    bytes: &[u8],
    chunks: for<'a> fn(&'a [u8]) -> utf8_core::Chunks<'a, R>,
) {
    let mut expected = Vec::new();
    let mut valid_from = 0;
    for (start, error_len) in reference::Decode::new(dialect, bytes).filter_map(Result::err) {
        let end = error_len.map_or(bytes.len(), |len| start + len);
        expected.push((
            &bytes[valid_from..start],
            &bytes[start..end],
            error_len.is_none(),
        ));
        valid_from = end;
    }
    if valid_from < bytes.len() {
        expected.push((&bytes[valid_from..], &[][..], false));
    }
    let got: Vec<_> = chunks(bytes)
        .map(|c| (c.valid(), c.invalid(), c.is_incomplete()))
        .collect();
    assert_eq!(got, expected, "{dialect:?} chunks {}", Hex(bytes));
}

fn check_chunks(dialect: Dialect, bytes: &[u8]) {
    match dialect {
        Dialect::Rfc3629 => assert_chunks_agree(dialect, bytes, Rfc3629::chunks),
        Dialect::Cesu8 => assert_chunks_agree(dialect, bytes, cesu8::chunks),
        Dialect::Mutf8 => assert_chunks_agree(dialect, bytes, mutf8::chunks),
        Dialect::Wtf8 => assert_chunks_agree(dialect, bytes, wtf8::chunks),
        Dialect::Rfc2279 => assert_chunks_agree(dialect, bytes, rfc2279::chunks),
    }
}

/// Every boundary of every dialect's definition: ASCII and its edges, each
/// continuation sub-range that some lead's second byte distinguishes (80-83,
/// 84-87, 88-8F, 90-9F, A0-AF, B0-BF), the never-valid leads C0 C1, the C0
/// of modified UTF-8's null, the two-, three- and four-byte leads with their
/// special cases (E0 ED F0 F4) and edges, and the five- and six-byte leads
/// with FE FF.
const REPRESENTATIVES: &[u8] = &[
    0x00, 0x01, 0x41, 0x7F, 0x80, 0x83, 0x84, 0x87, 0x88, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF,
    0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7,
    0xF8, 0xF9, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF,
];

/// [`REPRESENTATIVES`] less the second edge of ranges whose first edge
/// already meets every rule (01 EC EF F3 F7 FB FF), for four-byte
/// strings: 32^4 strings check in 45% of the time of 39^4.
const FOUR_BYTE_REPRESENTATIVES: &[u8] = &[
    0x00, 0x41, 0x7F, 0x80, 0x83, 0x84, 0x87, 0x88, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0,
    0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xF0, 0xF1, 0xF4, 0xF5, 0xF8, 0xF9, 0xFC, 0xFD, 0xFE,
];

/// The derivation found the byte classes; the representatives above were
/// chosen from the definitions. This checks that no class the derivation
/// found lacks a representative, so a boundary overlooked here shows up.
#[test]
fn representatives_cover_every_derived_byte_class() {
    let tables: [(&str, &[u8; 256]); 5] = [
        ("rfc3629", &utf8_core::tables::rfc3629::BYTE_CLASSES),
        ("cesu8", &utf8_core::tables::cesu8::BYTE_CLASSES),
        ("mutf8", &utf8_core::tables::mutf8::BYTE_CLASSES),
        ("wtf8", &utf8_core::tables::wtf8::BYTE_CLASSES),
        ("rfc2279", &utf8_core::tables::rfc2279::BYTE_CLASSES),
    ];
    for set in [REPRESENTATIVES, FOUR_BYTE_REPRESENTATIVES] {
        for (name, table) in tables {
            for (class, members) in utf8_tests::class_members(table).iter().enumerate() {
                assert!(
                    members.iter().any(|byte| set.contains(byte)),
                    "{name}: class {class} {} has no representative in {}",
                    Hex(members),
                    Hex(set)
                );
            }
        }
    }
}

#[test]
fn reference_in_rfc3629_form_matches_std_on_every_string_up_to_three_bytes() {
    let started = Instant::now();
    let check = |bytes: &[u8]| {
        let std = core::str::from_utf8(bytes)
            .map(|_| ())
            .map_err(|e| std_error_parts(&e));
        assert_eq!(
            reference::validate(Dialect::Rfc3629, bytes),
            std,
            "{}",
            Hex(bytes)
        );
    };
    let bytes = all_bytes();
    let counts: Vec<u64> = (1..=3)
        .map(|len| for_each_string(&bytes, len, check))
        .collect();
    let four = for_each_string(REPRESENTATIVES, 4, check);
    assert_eq!(counts, [256, 65_536, 16_777_216]);
    eprintln!(
        "dialects: reference (RFC 3629 form) vs std on {counts:?} strings of 1-3 bytes and \
         {four} four-byte strings over representatives, in {:?}",
        started.elapsed()
    );
}

#[test]
fn reference_decodes_like_str_chars() {
    let file = kuhn_stress_test();
    let mut texts: Vec<Vec<u8>> = file.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    texts.extend(
        corpus_files(".utf8.txt")
            .into_iter()
            .map(|(_, bytes)| bytes),
    );
    let mut checked = 0;
    for bytes in &texts {
        if let Ok(text) = core::str::from_utf8(bytes) {
            assert!(
                reference::Decode::new(Dialect::Rfc3629, bytes)
                    .eq(text.chars().map(|c| Ok(u32::from(c)))),
                "{text:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} valid texts");
}

/// Errors worked out by hand from the definitions, checked on the reference
/// and on the ruleset: the reference's maximal-subpart reading is the part
/// most easily got wrong in both.
#[test]
fn hand_checked_errors() {
    let cases: &[(Dialect, &[u8], Result<(), ErrorParts>)] = &[
        // CESU-8: a lead surrogate alone is a cut-off pair; ED after it is
        // still a valid prefix of the trail, A0 or 41 then is not.
        (Dialect::Cesu8, b"\xED\xA0\x80", Err((0, None))),
        (Dialect::Cesu8, b"\xED\xA0\x80\xED", Err((0, None))),
        (Dialect::Cesu8, b"\xED\xA0\x80\xED\x41", Err((0, Some(4)))),
        (
            Dialect::Cesu8,
            b"\xED\xA0\x80\xED\xA0\x80",
            Err((0, Some(4))),
        ),
        (Dialect::Cesu8, b"\xED\xA0\x80\x41", Err((0, Some(3)))),
        (Dialect::Cesu8, b"\xED\xAF\xBF\xED\xBF\xBF", Ok(())),
        // A trail surrogate cannot start anything: only ED was a prefix.
        (Dialect::Cesu8, b"a\xED\xB0\x80", Err((1, Some(1)))),
        (Dialect::Cesu8, b"\xF0\x90\x80\x80", Err((0, Some(1)))),
        (Dialect::Cesu8, b"\x00", Ok(())),
        (Dialect::Cesu8, b"\xC0\x80", Err((0, Some(1)))),
        // Modified UTF-8.
        (Dialect::Mutf8, b"\xC0\x80", Ok(())),
        (Dialect::Mutf8, b"\xC0", Err((0, None))),
        (Dialect::Mutf8, b"\xC0\x81", Err((0, Some(1)))),
        (Dialect::Mutf8, b"\xC1\x80", Err((0, Some(1)))),
        (Dialect::Mutf8, b"a\x00", Err((1, Some(1)))),
        (Dialect::Mutf8, b"\xED\xB0\x80\xED\xA0\x80", Ok(())),
        (Dialect::Mutf8, b"\xF0\x90\x80\x80", Err((0, Some(1)))),
        (Dialect::Mutf8, b"\xE0\x9F\xBF", Err((0, Some(1)))),
        // WTF-8: a pair side by side is invalid at the trail's second byte.
        (
            Dialect::Wtf8,
            b"\xED\xA0\x80\xED\xB0\x80",
            Err((3, Some(1))),
        ),
        (Dialect::Wtf8, b"\xED\xA0\x80\xED\x9F\xBF", Ok(())),
        (Dialect::Wtf8, b"\xED\xA0\x80\xED\xA0\x80", Ok(())),
        (Dialect::Wtf8, b"\xED\xB0\x80\xED\xA0\x80", Ok(())),
        (Dialect::Wtf8, b"\xED\xA0\x80\xED", Err((3, None))),
        (Dialect::Wtf8, b"\xED\xA0\x80a\xED\xB0\x80", Ok(())),
        (Dialect::Wtf8, b"\xF4\x90\x80\x80", Err((0, Some(1)))),
        // RFC 2279: surrogates and 31-bit values, shortest forms only.
        (Dialect::Rfc2279, b"\xED\xA0\x80", Ok(())),
        (Dialect::Rfc2279, b"\xF4\x90\x80\x80", Ok(())),
        (Dialect::Rfc2279, b"\xFC\x83\xBF", Err((0, Some(1)))),
        (Dialect::Rfc2279, b"\xFC\x84\xBF\x41", Err((0, Some(3)))),
        (Dialect::Rfc2279, b"\xFD\xBF\xBF\xBF\xBF\xBF", Ok(())),
        (Dialect::Rfc2279, b"\xFE", Err((0, Some(1)))),
    ];
    for &(dialect, bytes, expected) in cases {
        assert_eq!(
            reference::validate(dialect, bytes),
            expected,
            "reference {dialect:?} {}",
            Hex(bytes)
        );
        checker(dialect)(bytes);
    }
}

/// Decoded values worked out by hand.
#[test]
fn hand_checked_values() {
    let pair: Vec<_> = cesu8::decode(b"\xED\xA0\x81\xED\xB0\x80").collect();
    assert_eq!(pair, [Ok('\u{10400}')]);
    let null: Vec<_> = mutf8::decode(b"\xC0\x80a").collect();
    assert_eq!(null, [Ok(0), Ok(0x61)]);
    // Modified UTF-8 hands out the halves; WTF-8 lone surrogates likewise.
    let halves: Vec<_> = mutf8::decode(b"\xED\xA0\x81\xED\xB0\x80").collect();
    assert_eq!(halves, [Ok(0xD801), Ok(0xDC00)]);
    let lone: Vec<_> = wtf8::decode(b"\xED\xB0\x80\xED\xA0\x81").collect();
    assert_eq!(lone, [Ok(0xDC00), Ok(0xD801)]);
    let wide: Vec<_> = rfc2279::decode(b"\xF8\x88\x80\x80\x80").collect();
    assert_eq!(wide, [Ok(0x20_0000)]);
}

fn checker(dialect: Dialect) -> fn(&[u8]) {
    match dialect {
        Dialect::Rfc3629 => check_rfc3629,
        Dialect::Cesu8 => check_cesu8,
        Dialect::Mutf8 => check_mutf8,
        Dialect::Wtf8 => check_wtf8,
        Dialect::Rfc2279 => check_rfc2279,
    }
}

/// Every string of 1 and 2 bytes, of 3 bytes over [`REPRESENTATIVES`], of 4
/// over [`FOUR_BYTE_REPRESENTATIVES`],
/// and of 5 and 6 bytes over `small`, a set chosen for what the dialect's
/// longest sequences (a CESU-8 pair, a WTF-8 lead-then-trail, RFC 2279's
/// six-byte forms) turn on.
fn exhaustive(dialect: Dialect, small: &[u8]) {
    let started = Instant::now();
    let check = checker(dialect);
    let every = all_bytes();
    let counts = [
        for_each_string(&every, 1, check),
        for_each_string(&every, 2, check),
        for_each_string(REPRESENTATIVES, 3, check),
        for_each_string(FOUR_BYTE_REPRESENTATIVES, 4, check),
        for_each_string(small, 5, check),
        for_each_string(small, 6, check),
    ];
    assert_eq!(counts[..2], [256, 65_536]);
    eprintln!(
        "dialects: {dialect:?}: {counts:?} strings of 1-6 bytes ({} in all; 3 bytes over {}, 4 \
         over {} representatives, 5-6 over {}), in {:?}",
        counts.iter().sum::<u64>(),
        REPRESENTATIVES.len(),
        FOUR_BYTE_REPRESENTATIVES.len(),
        Hex(small),
        started.elapsed()
    );
}

#[test]
fn exhaustive_rfc3629() {
    exhaustive(
        Dialect::Rfc3629,
        &[0x41, 0x80, 0x8F, 0x90, 0xBF, 0xC2, 0xE0, 0xED, 0xF0, 0xF4],
    );
}

#[test]
fn exhaustive_cesu8() {
    exhaustive(
        Dialect::Cesu8,
        &[0x00, 0x80, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xE0, 0xED, 0xF0],
    );
}

#[test]
fn exhaustive_mutf8() {
    exhaustive(
        Dialect::Mutf8,
        &[0x00, 0x41, 0x80, 0xA0, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF0],
    );
}

#[test]
fn exhaustive_wtf8() {
    exhaustive(
        Dialect::Wtf8,
        &[0x41, 0x80, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xE0, 0xED, 0xF0],
    );
}

#[test]
fn exhaustive_rfc2279() {
    exhaustive(
        Dialect::Rfc2279,
        &[0x41, 0x80, 0x83, 0x84, 0x88, 0xBF, 0xF8, 0xFC, 0xFD, 0xFE],
    );
}

#[test]
fn corpus_and_stress_test_in_every_dialect() {
    let mut inputs = real_text_inputs();
    if utf8_tests::levels::this_run().sample {
        // Under QEMU (`.ci/neon`), each text's first 8 KiB: still every
        // script's sequences across a hundred vector boundaries, at an
        // eighth of the emulated time.
        for input in &mut inputs {
            input.truncate(8 << 10);
        }
    }
    let mut converted = Vec::new();
    for bytes in &inputs {
        if let Ok(text) = core::str::from_utf8(bytes) {
            converted.push(cesu8_from_str(text));
            converted.push(mutf8_from_utf16(&text.encode_utf16().collect::<Vec<_>>()));
        }
    }
    for bytes in inputs.iter().chain(&converted) {
        for dialect in DIALECTS {
            checker(dialect)(bytes);
            check_chunks(dialect, bytes);
        }
    }
}

/// The pairing term of CESU-8's and WTF-8's vector checks (a lead
/// surrogate's sequence tested against the one three bytes later) across
/// every vector boundary: runs of surrogate pairs and lone halves after
/// 0-70 bytes of ASCII, each cut short, broken or followed by a block of
/// ASCII (which the check skips after testing what the block before left
/// open), on every path this CPU has.
#[test]
fn surrogate_pairs_and_lone_halves_across_every_vector_boundary() {
    const PAIR: [u8; 6] = [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80];
    const LEAD: [u8; 3] = [0xED, 0xA0, 0xBD];
    const TRAIL: [u8; 3] = [0xED, 0xB8, 0x80];
    let runs: [Vec<u8>; 6] = [
        PAIR.repeat(24),
        [PAIR.repeat(5), LEAD.to_vec(), PAIR.repeat(5)].concat(),
        [PAIR.repeat(5), TRAIL.to_vec(), PAIR.repeat(5)].concat(),
        [LEAD.to_vec(), b"\xE2\x82\xAC".to_vec(), TRAIL.to_vec()].concat(),
        [PAIR.repeat(3), LEAD.to_vec(), LEAD.to_vec(), TRAIL.to_vec()].concat(),
        [TRAIL.repeat(4), LEAD.repeat(4)].concat(),
    ];
    let mut input = Vec::new();
    // A broken pair that straddles the start of a group of blocks (aligned
    // in memory, so somewhere in 64 bytes after 256 and 512), after text
    // that is not skipped: the check narrows the failing group down from
    // what it followed, lead markers included.
    for filler_len in (250..=330).chain(506..=586) {
        for broken in [[LEAD, TRAIL].concat(), [&LEAD[..], b"a"].concat()] {
            input.clear();
            input.extend("é".repeat(filler_len / 2).as_bytes());
            input.extend(std::iter::repeat_n(b'x', filler_len % 2));
            input.extend_from_slice(&broken);
            input.extend("é".repeat(100).as_bytes());
            check_cesu8(&input);
            check_wtf8(&input);
        }
    }
    for run in &runs {
        for ascii in 0..=70 {
            for tail in [&b""[..], &[b'a'; 70][..], &b"\xC3\xA9"[..]] {
                for cut in [0, 1, 2, 3, 4] {
                    input.clear();
                    input.extend(std::iter::repeat_n(b'x', ascii));
                    input.extend_from_slice(&run[..run.len() - cut]);
                    input.extend_from_slice(tail);
                    check_cesu8(&input);
                    check_wtf8(&input);
                }
            }
        }
    }
}

const DIALECTS: [Dialect; 5] = [
    Dialect::Rfc3629,
    Dialect::Cesu8,
    Dialect::Mutf8,
    Dialect::Wtf8,
    Dialect::Rfc2279,
];

/// Valid text of each dialect with the values it encodes, made from the
/// definitions by `utf8_tests::dialect_text`.
#[derive(Clone, Debug)]
struct Text {
    dialect: Dialect,
    bytes: Vec<u8>,
    values: Vec<u32>,
}

/// Characters of every UTF-8 length, weighted toward ASCII runs.
fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::char::range('\0', '\x7F'),
        1 => prop::char::range('\u{80}', '\u{7FF}'),
        1 => prop::char::range('\u{800}', '\u{FFFF}'),
        1 => prop::char::range('\u{10000}', '\u{10FFFF}'),
    ]
}

/// UTF-16 code units with unpaired and paired surrogates common.
fn any_units() -> impl Strategy<Value = Vec<u16>> {
    let unit = prop_oneof![
        3 => 0u16..0x80,
        1 => 0x80u16..0x800,
        1 => 0x800u16..=0xFFFF,
        1 => 0xD800u16..=0xDBFF,
        1 => 0xDC00u16..=0xDFFF,
    ];
    prop::collection::vec(unit, 0..150)
}

/// 31-bit values of every RFC 2279 length in equal measure.
fn any_rfc2279_values() -> impl Strategy<Value = Vec<u32>> {
    let value = prop_oneof![
        0u32..0x80,
        0x80u32..0x800,
        0x800u32..0x1_0000,
        0x1_0000u32..0x20_0000,
        0x20_0000u32..0x400_0000,
        0x400_0000u32..=0x7FFF_FFFF,
    ];
    prop::collection::vec(value, 0..100)
}

fn any_text() -> impl Strategy<Value = Text> {
    prop_oneof![
        prop::collection::vec(any_char(), 0..150).prop_map(|chars| {
            let text = String::from_iter(&chars);
            Text {
                dialect: Dialect::Rfc3629,
                bytes: text.into_bytes(),
                values: chars.into_iter().map(u32::from).collect(),
            }
        }),
        prop::collection::vec(any_char(), 0..150).prop_map(|chars| Text {
            dialect: Dialect::Cesu8,
            bytes: cesu8_from_str(&String::from_iter(&chars)),
            values: chars.into_iter().map(u32::from).collect(),
        }),
        any_units().prop_map(|units| Text {
            dialect: Dialect::Mutf8,
            bytes: mutf8_from_utf16(&units),
            values: units.into_iter().map(u32::from).collect(),
        }),
        any_units().prop_map(|units| {
            let (bytes, values) = wtf8_from_utf16(&units);
            Text {
                dialect: Dialect::Wtf8,
                bytes,
                values,
            }
        }),
        any_rfc2279_values().prop_map(|values| {
            let mut bytes = Vec::new();
            for &value in &values {
                push_generalized(value, &mut bytes);
            }
            Text {
                dialect: Dialect::Rfc2279,
                bytes,
                values,
            }
        }),
    ]
}

/// Sequences that break, or sit at the edge of, one dialect's rules:
/// unpaired and side-by-side surrogates, four-byte forms where only pairs
/// belong, raw and overlong nulls, overlong and 31-bit forms, stray bytes.
const SPLICES: &[&[u8]] = &[
    b"\xED\xA0\x80",
    b"\xED\xAF\xBF",
    b"\xED\xB0\x80",
    b"\xED\xBF\xBF",
    b"\xED\xA0\x80\xED\xB0\x80",
    b"\xED\xA0\x80\xED",
    b"\xF0\x90\x80\x80",
    b"\xF4\x8F\xBF\xBF",
    b"\xF4\x90\x80\x80",
    b"\x00",
    b"\xC0\x80",
    b"\xC0",
    b"\xC1\xBF",
    b"\xE0\x9F\xBF",
    b"\xF8\x88\x80\x80\x80",
    b"\xFC\x84\x80\x80\x80\x80",
    b"\xFD\xBF\xBF\xBF\xBF\xBF",
    b"\xFE",
    b"\x80",
];

proptest! {
    #![proptest_config(utf8_tests::proptest_config(3_000))]

    #[test]
    fn valid_text_decodes_to_its_values(text in any_text()) {
        let check = checker(text.dialect);
        prop_assert_eq!(reference::validate(text.dialect, &text.bytes), Ok(()));
        let decoded: Vec<u32> = reference::Decode::new(text.dialect, &text.bytes)
            .map(Result::unwrap)
            .collect();
        prop_assert_eq!(&decoded, &text.values);
        check(&text.bytes);
    }

    #[test]
    fn mutated_text_in_every_dialect(
        text in any_text(),
        mutations in prop::collection::vec(utf8_tests::mutation(SPLICES), 1..=4),
    ) {
        let mut bytes = text.bytes;
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        for dialect in DIALECTS {
            checker(dialect)(&bytes);
            check_chunks(dialect, &bytes);
        }
    }

    #[test]
    fn random_bytes_over_representatives(
        bytes in prop::collection::vec(prop::sample::select(REPRESENTATIVES), 0..400)
    ) {
        for dialect in DIALECTS {
            checker(dialect)(&bytes);
            check_chunks(dialect, &bytes);
        }
    }
}
