//! `utf8_core::legacy31` against a reference written here from RFC 2279 §2's
//! bit layout alone, with no table: the derived automaton and this reference
//! share nothing but the RFC, so their agreement checks the derivation.
//!
//! The reference is checked first in its RFC 3629 form against
//! `core::str::from_utf8`, the one oracle available for error positions and
//! lengths; the 31-bit form differs from it only in two numbers.

use std::time::Instant;

use proptest::prelude::*;
use utf8_core::legacy31;
use utf8_tests::rng::Rng;
use utf8_tests::{
    Hex, Representatives, all_bytes, class_representatives, corpus_files, error_parts,
    for_each_string, kuhn_stress_test, mutate, std_error_parts,
};

/// `(valid_up_to, error_len)`, as [`error_parts`] gives them.
type ErrorParts = (usize, Option<usize>);

mod reference {
    use super::ErrorParts;

    /// A UTF-8 variant in RFC 2279's layout: which lengths it admits and the
    /// largest value it encodes. Shortest form and the surrogate gap apply to
    /// both variants tested here.
    #[derive(Clone, Copy, Debug)]
    pub struct Form {
        pub longest_sequence: usize,
        pub largest_value: u32,
    }

    pub const LEGACY31: Form = Form {
        longest_sequence: 6,
        largest_value: 0x7FFF_FFFF,
    };

    pub const RFC3629: Form = Form {
        longest_sequence: 4,
        largest_value: 0x10_FFFF,
    };

    const SURROGATES: core::ops::RangeInclusive<u64> = 0xD800..=0xDFFF;

    /// Value bits of the lead byte of a `len`-byte sequence: `0xxxxxxx` for
    /// one byte, otherwise `len` ones and a zero before them.
    pub fn lead_payload_bits(len: usize) -> u32 {
        if len == 1 { 7 } else { 7 - len as u32 }
    }

    /// Value bits of a `len`-byte sequence: the lead's, then six per
    /// `10xxxxxx` continuation byte.
    pub fn payload_bits(len: usize) -> u32 {
        lead_payload_bits(len) + 6 * (len as u32 - 1)
    }

    /// The shortest-form rule: a `len`-byte sequence must hold a value that
    /// `len - 1` bytes cannot.
    pub fn smallest_value(len: usize) -> u64 {
        if len == 1 {
            0
        } else {
            1 << payload_bits(len - 1)
        }
    }

    /// The length a lead byte announces by its leading ones; `None` for a
    /// continuation byte (one leading one) and for lengths the form lacks
    /// (FE and FF announce 7 and 8, which no form has).
    pub fn sequence_len(lead: u8, form: Form) -> Option<usize> {
        match lead.leading_ones() {
            0 => Some(1),
            1 => None,
            ones => Some(ones as usize).filter(|&len| len <= form.longest_sequence.min(6)),
        }
    }

    /// Whether some valid `len`-byte sequence starts with a prefix of
    /// `prefix_len` bytes carrying `prefix_value`: the values it can still
    /// reach form one interval, which must meet the form's range outside the
    /// surrogates.
    fn completable(form: Form, len: usize, prefix_value: u64, prefix_len: usize) -> bool {
        let free_bits = 6 * (len - prefix_len) as u32;
        let lowest = (prefix_value << free_bits).max(smallest_value(len));
        let highest = ((prefix_value << free_bits) | ((1 << free_bits) - 1))
            .min(u64::from(form.largest_value));
        lowest <= highest && !(SURROGATES.contains(&lowest) && SURROGATES.contains(&highest))
    }

    /// The sequence at `bytes[start..]`: its value and length, or the error's
    /// `error_len` — the longest completable prefix (at least 1), or `None`
    /// when the input ends while the prefix is still completable.
    fn sequence_at(form: Form, bytes: &[u8], start: usize) -> Result<(u32, usize), Option<usize>> {
        let lead = bytes[start];
        let Some(len) = sequence_len(lead, form) else {
            return Err(Some(1));
        };
        let mut value = u64::from(lead) & ((1 << lead_payload_bits(len)) - 1);
        if !completable(form, len, value, 1) {
            return Err(Some(1));
        }
        for taken in 1..len {
            let Some(&byte) = bytes.get(start + taken) else {
                return Err(None);
            };
            if byte & 0b1100_0000 != 0b1000_0000 {
                return Err(Some(taken));
            }
            value = (value << 6) | u64::from(byte & 0b0011_1111);
            if !completable(form, len, value, taken + 1) {
                return Err(Some(taken));
            }
        }
        Ok((u32::try_from(value).expect("at most 31 bits"), len))
    }

    /// The values of `bytes` with an error item per invalid part, resuming
    /// after `error_len` bytes and ending at an incomplete sequence: the
    /// contract of `utf8_core::Decode`.
    #[derive(Clone, Debug)]
    pub struct Decode<'a> {
        form: Form,
        bytes: &'a [u8],
        position: usize,
    }

    impl<'a> Decode<'a> {
        pub fn new(form: Form, bytes: &'a [u8]) -> Decode<'a> {
            Decode {
                form,
                bytes,
                position: 0,
            }
        }

        /// Where the next item starts.
        pub fn position(&self) -> usize {
            self.position
        }
    }

    impl Iterator for Decode<'_> {
        type Item = Result<u32, ErrorParts>;

        fn next(&mut self) -> Option<Self::Item> {
            let start = self.position;
            if start >= self.bytes.len() {
                return None;
            }
            Some(match sequence_at(self.form, self.bytes, start) {
                Ok((value, len)) => {
                    self.position = start + len;
                    Ok(value)
                }
                Err(Some(error_len)) => {
                    self.position = start + error_len;
                    Err((start, Some(error_len)))
                }
                Err(None) => {
                    self.position = self.bytes.len();
                    Err((start, None))
                }
            })
        }
    }

    /// Validation stops at the first error, and every sequence before it was
    /// complete, so the first error item is std's error.
    pub fn validate(form: Form, bytes: &[u8]) -> Result<(), ErrorParts> {
        match Decode::new(form, bytes).find_map(Result::err) {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// RFC 2279 §2's encoding of `value` in exactly `len` bytes, overlong
    /// when `len` is more than `value` needs.
    pub fn encode_in(value: u32, len: usize, out: &mut Vec<u8>) {
        assert!(
            (1..=6).contains(&len) && u64::from(value) < 1 << payload_bits(len),
            "{value:#X} does not fit in {len} bytes"
        );
        if len == 1 {
            out.push(value as u8);
            return;
        }
        let length_marker = !(0xFFu8 >> len);
        out.push(length_marker | (value >> (6 * (len - 1))) as u8);
        for tail in (0..len - 1).rev() {
            out.push(0b1000_0000 | ((value >> (6 * tail)) & 0b0011_1111) as u8);
        }
    }

    /// The shortest form of `value` (any value below 2^31, surrogates too).
    pub fn encode(value: u32, out: &mut Vec<u8>) {
        let len = (1..=6)
            .find(|&len| u64::from(value) < 1 << payload_bits(len))
            .expect("a 31-bit value");
        encode_in(value, len, out);
    }
}

use reference::{LEGACY31, RFC3629};

/// std's decoding, item by item and without allocating: validate the rest,
/// yield the valid part's characters, then the error, and resume after it —
/// what `String::from_utf8_lossy` does, with positions.
struct StdDecode<'a> {
    bytes: &'a [u8],
    position: usize,
    chars: core::str::Chars<'a>,
    pending_error: Option<ErrorParts>,
}

impl<'a> StdDecode<'a> {
    fn new(bytes: &'a [u8]) -> StdDecode<'a> {
        StdDecode {
            bytes,
            position: 0,
            chars: "".chars(),
            pending_error: None,
        }
    }
}

impl Iterator for StdDecode<'_> {
    type Item = Result<u32, ErrorParts>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(character) = self.chars.next() {
                return Some(Ok(u32::from(character)));
            }
            if let Some(error) = self.pending_error.take() {
                return Some(Err(error));
            }
            let rest = self
                .bytes
                .get(self.position..)
                .filter(|rest| !rest.is_empty())?;
            match core::str::from_utf8(rest) {
                Ok(valid) => {
                    self.chars = valid.chars();
                    self.position = self.bytes.len();
                }
                Err(error) => {
                    let (valid_up_to, error_len) = std_error_parts(&error);
                    let valid = core::str::from_utf8(&rest[..valid_up_to]).expect("std's prefix");
                    self.chars = valid.chars();
                    let error_start = self.position + valid_up_to;
                    self.pending_error = Some((error_start, error_len));
                    self.position = error_len.map_or(self.bytes.len(), |len| error_start + len);
                }
            }
        }
    }
}

/// Walks two decodings side by side. `None` if they differ; otherwise
/// `Some` of their first error item, which is what validation must report
/// (every sequence before it was complete, and validation stops there).
fn same_items_and_first_error(
    mut left: impl Iterator<Item = Result<u32, ErrorParts>>,
    mut right: impl Iterator<Item = Result<u32, ErrorParts>>,
) -> Option<Result<(), ErrorParts>> {
    let mut first_error = Ok(());
    loop {
        let item = left.next();
        if item != right.next() {
            return None;
        }
        match item {
            None => return Some(first_error),
            Some(Err(error)) if first_error.is_ok() => first_error = Err(error),
            Some(_) => {}
        }
    }
}

fn assert_reference_matches_std(bytes: &[u8]) {
    let Some(reference) = same_items_and_first_error(
        reference::Decode::new(RFC3629, bytes),
        StdDecode::new(bytes),
    ) else {
        panic!(
            "decoding {}: reference in RFC 3629 form {:?}, std {:?}",
            Hex(bytes),
            reference::Decode::new(RFC3629, bytes).collect::<Vec<_>>(),
            StdDecode::new(bytes).collect::<Vec<_>>()
        );
    };
    let std = core::str::from_utf8(bytes)
        .map(|_| ())
        .map_err(|e| std_error_parts(&e));
    assert_eq!(reference, std, "reference in RFC 3629 form, {}", Hex(bytes));
}

fn library_decode(bytes: &[u8]) -> impl Iterator<Item = Result<u32, ErrorParts>> + '_ {
    legacy31::decode(bytes).map(|item| item.map_err(|e| error_parts(&e)))
}

/// `decode` against the reference decoder and `validate_const` against the
/// reference's verdict; returns that verdict.
fn assert_decode_and_validate_const_match(bytes: &[u8]) -> Result<(), ErrorParts> {
    let Some(expected) = same_items_and_first_error(
        reference::Decode::new(LEGACY31, bytes),
        library_decode(bytes),
    ) else {
        panic!(
            "decoding {}: legacy31::decode = {:?}, reference = {:?}",
            Hex(bytes),
            library_decode(bytes).collect::<Vec<_>>(),
            reference::Decode::new(LEGACY31, bytes).collect::<Vec<_>>()
        );
    };
    let validated_const = legacy31::validate_const(bytes).map_err(|e| error_parts(&e));
    assert_eq!(
        validated_const,
        expected,
        "validate_const({}) vs the reference",
        Hex(bytes)
    );
    expected
}

/// `validate`, `validate_const` and `decode` against the reference.
fn assert_matches_reference(bytes: &[u8]) {
    let expected = assert_decode_and_validate_const_match(bytes);
    let validated = legacy31::validate(bytes).map_err(|e| error_parts(&e));
    assert_eq!(
        validated,
        expected,
        "validate({}) vs the reference",
        Hex(bytes)
    );
}

/// [`assert_matches_reference`], plus where the decoder stands after each
/// item (`remaining`) and that its `size_hint` brackets the items left.
fn assert_matches_reference_step_by_step(bytes: &[u8]) {
    assert_matches_reference(bytes);
    let mut expected = Vec::new();
    let mut reference = reference::Decode::new(LEGACY31, bytes);
    while let Some(item) = reference.next() {
        expected.push((item, reference.position()));
    }
    let mut decode = legacy31::decode(bytes);
    for (items_before, &(item, position_after)) in expected.iter().enumerate() {
        let items_left = expected.len() - items_before;
        let (lower, upper) = decode.size_hint();
        assert!(
            lower <= items_left && upper.is_none_or(|upper| items_left <= upper),
            "{}: size_hint {:?} with {items_left} items left",
            Hex(bytes),
            (lower, upper)
        );
        assert_eq!(
            decode.next().map(|item| item.map_err(|e| error_parts(&e))),
            Some(item)
        );
        assert_eq!(
            decode.remaining(),
            &bytes[position_after..],
            "{}",
            Hex(bytes)
        );
    }
    assert_eq!(decode.size_hint(), (0, Some(0)));
    assert!(decode.next().is_none() && decode.next().is_none());
}

#[test]
fn shortest_form_minimums_follow_from_the_bit_layout() {
    let minimums: Vec<u64> = (1..=6).map(reference::smallest_value).collect();
    assert_eq!(minimums, [0, 0x80, 0x800, 0x1_0000, 0x20_0000, 0x400_0000]);
    assert_eq!(
        u64::from(LEGACY31.largest_value),
        (1 << reference::payload_bits(6)) - 1
    );
}

#[test]
fn reference_in_rfc3629_form_matches_std() {
    let started = Instant::now();
    let bytes = all_bytes();
    let mut count = 0;
    for len in 1..=3 {
        count += for_each_string(&bytes, len, assert_reference_matches_std);
    }
    let representatives = class_representatives(
        &utf8_core::tables::rfc3629::BYTE_CLASSES,
        Representatives::EdgesAndMiddle,
    );
    let four = for_each_string(&representatives, 4, assert_reference_matches_std);
    let kuhn = kuhn_stress_test();
    assert_reference_matches_std(&kuhn);
    for start in 0..kuhn.len().min(4096) {
        assert_reference_matches_std(&kuhn[start..]);
    }
    eprintln!(
        "legacy31: reference (RFC 3629 form) vs std on {count} strings of 1-3 bytes, {four} \
         four-byte strings over class representatives and UTF-8-test.txt, in {:?}",
        started.elapsed()
    );
}

#[test]
fn hand_checked_errors() {
    // (input, expected): F8 87 could only continue below U+200000, an
    // overlong five-byte form, so only F8 was a valid prefix; FC 84 starts
    // U+4000000 exactly; E0 9F would be overlong; ED A0 a surrogate.
    let cases: [(&[u8], Result<(), ErrorParts>); 14] = [
        (b"\xF8\x87", Err((0, Some(1)))),
        (b"\xF8\x87\xBF\xBF\xBF", Err((0, Some(1)))),
        (b"\xF8\x88", Err((0, None))),
        (b"\xF8\x88\x80\x80\x80", Ok(())),
        (b"\xFC\x83\xBF\xBF\xBF\xBF", Err((0, Some(1)))),
        (b"\xFC\x84", Err((0, None))),
        (b"\xFC\x84\xBF\xBF\xBF\xBF", Ok(())),
        (b"\xFC\x84\xBF\x41", Err((0, Some(3)))),
        (b"\xE0\x9F", Err((0, Some(1)))),
        (b"\xED\xA0", Err((0, Some(1)))),
        (b"\xF4\x90\x80\x80", Ok(())),
        (b"a\xFE", Err((1, Some(1)))),
        (b"a\xFF\x80", Err((1, Some(1)))),
        (b"\xFD\xBF\xBF\xBF\xBF\xBF\xFD\xBF", Err((6, None))),
    ];
    for (bytes, expected) in cases {
        assert_eq!(
            reference::validate(LEGACY31, bytes),
            expected,
            "reference, {}",
            Hex(bytes)
        );
        assert_matches_reference(bytes);
    }
}

#[test]
fn every_one_two_and_three_byte_string() {
    let started = Instant::now();
    let bytes = all_bytes();
    let counts: Vec<u64> = (1..=3)
        .map(|len| for_each_string(&bytes, len, assert_matches_reference))
        .collect();
    assert_eq!(counts, [256, 65_536, 16_777_216]);
    eprintln!(
        "legacy31: {counts:?} strings of 1, 2 and 3 bytes (validate, validate_const, decode), \
         in {:?}",
        started.elapsed()
    );
}

fn legacy31_representatives(which: Representatives) -> Vec<u8> {
    let table = &utf8_core::tables::legacy31::BYTE_CLASSES;
    assert_eq!(
        utf8_tests::class_members(table).len(),
        utf8_core::tables::legacy31::CLASS_COUNT
    );
    class_representatives(table, which)
}

#[test]
fn every_four_byte_string_over_class_representatives() {
    let started = Instant::now();
    let representatives = legacy31_representatives(Representatives::EdgesAndMiddle);
    let count = for_each_string(&representatives, 4, assert_matches_reference);
    eprintln!(
        "legacy31: {count} four-byte strings over {} class representatives {}, in {:?}",
        representatives.len(),
        Hex(&representatives),
        started.elapsed()
    );
}

// Longer strings over all 39 representatives would be 90 million (5 bytes)
// and 3.5 billion (6 bytes), at roughly 0.3 µs of checking each (two decoders
// compared item by item, two validators). So five-byte strings use each
// class's two edges (28^5 = 17 million). Six-byte strings, 28^6 = 482 million
// even over edges, are covered by: every string that starts with a five- or
// six-byte lead edge (F8 F9 FB FC FD) and continues over each class's
// smallest member (which includes every shortest-form minimum as a
// continuation: 80, 84, 88, 90, A0), so every five- and six-byte sequence
// shape meets every kind of next byte; and a fixed-seed random sample over
// all 39 representatives for the rest.

#[test]
fn every_five_byte_string_over_class_edges() {
    let started = Instant::now();
    let edges = legacy31_representatives(Representatives::Edges);
    let count = for_each_string(&edges, 5, assert_matches_reference);
    eprintln!(
        "legacy31: {count} five-byte strings over {} class edges {}, in {:?}",
        edges.len(),
        Hex(&edges),
        started.elapsed()
    );
}

#[test]
fn every_six_byte_string_from_a_long_lead_over_smallest_class_members() {
    let started = Instant::now();
    let long_leads: Vec<u8> = legacy31_representatives(Representatives::Edges)
        .into_iter()
        .filter(|lead| (5..=6).contains(&lead.leading_ones()))
        .collect();
    let smallest: Vec<u8> = utf8_tests::class_members(&utf8_core::tables::legacy31::BYTE_CLASSES)
        .iter()
        .map(|members| members[0])
        .collect();
    let mut string = [0u8; 6];
    let mut count = 0;
    for &lead in &long_leads {
        string[0] = lead;
        count += for_each_string(&smallest, 5, |rest| {
            let mut string = string;
            string[1..].copy_from_slice(rest);
            assert_matches_reference(&string);
        });
    }
    eprintln!(
        "legacy31: {count} six-byte strings, leads {} then the {} smallest class members {}, \
         in {:?}",
        Hex(&long_leads),
        smallest.len(),
        Hex(&smallest),
        started.elapsed()
    );
}

#[test]
fn sampled_six_byte_strings_over_class_representatives() {
    const SAMPLES: u64 = 3_000_000;
    let started = Instant::now();
    let representatives = legacy31_representatives(Representatives::EdgesAndMiddle);
    // A fixed seed, so that a failure reproduces.
    let mut rng = Rng::new(0x2279_3629_0031_0006);
    let mut bytes = [0u8; 6];
    for _ in 0..SAMPLES {
        let mut bits = rng.next_u64();
        for byte in &mut bytes {
            *byte = representatives[(bits % representatives.len() as u64) as usize];
            bits /= representatives.len() as u64;
        }
        assert_matches_reference(&bytes);
    }
    eprintln!(
        "legacy31: {SAMPLES} random six-byte strings over {} class representatives, in {:?}",
        representatives.len(),
        started.elapsed()
    );
}

#[test]
fn boundary_values_decode_exactly() {
    let boundaries: [(u32, &[u8]); 6] = [
        (0x1F_FFFF, b"\xF7\xBF\xBF\xBF"),
        (0x20_0000, b"\xF8\x88\x80\x80\x80"),
        (0x3FF_FFFF, b"\xFB\xBF\xBF\xBF\xBF"),
        (0x400_0000, b"\xFC\x84\x80\x80\x80\x80"),
        (0x7FFF_FFFF, b"\xFD\xBF\xBF\xBF\xBF\xBF"),
        (0x11_0000, b"\xF4\x90\x80\x80"),
    ];
    for (value, bytes) in boundaries {
        let mut encoded = Vec::new();
        reference::encode(value, &mut encoded);
        assert_eq!(encoded, bytes, "encoding {value:#X}");
        assert_eq!(legacy31::validate(bytes), Ok(()), "{}", Hex(bytes));
        assert_eq!(legacy31::validate_const(bytes), Ok(()), "{}", Hex(bytes));
        assert_eq!(
            legacy31::decode(bytes).collect::<Vec<_>>(),
            [Ok(value)],
            "{}",
            Hex(bytes)
        );
        assert_matches_reference_step_by_step(bytes);
    }

    // Around every length change: each value decodes alone and amid others,
    // and the same value one byte longer (overlong) fails at its lead byte.
    let mut values = Vec::new();
    for len in 1..=6 {
        let smallest = reference::smallest_value(len) as u32;
        let largest = ((1u64 << reference::payload_bits(len)) - 1) as u32;
        values.extend([smallest, smallest + 1, largest - 1, largest]);
    }
    values.extend([0xD7FF, 0xE000, 0xFFFF, 0x10_FFFF, 0x11_0000]);
    let mut all_encoded = Vec::new();
    for &value in &values {
        let mut encoded = Vec::new();
        reference::encode(value, &mut encoded);
        assert_eq!(
            legacy31::decode(&encoded).collect::<Vec<_>>(),
            [Ok(value)],
            "{}",
            Hex(&encoded)
        );
        all_encoded.extend_from_slice(&encoded);
        if encoded.len() < 6 {
            let mut overlong = Vec::new();
            reference::encode_in(value, encoded.len() + 1, &mut overlong);
            let error = legacy31::validate(&overlong).unwrap_err();
            assert_eq!(error_parts(&error), (0, Some(1)), "{}", Hex(&overlong));
            assert_matches_reference(&overlong);
        }
    }
    assert_eq!(
        legacy31::decode(&all_encoded)
            .map(Result::unwrap)
            .collect::<Vec<_>>(),
        values
    );

    // Surrogates and values past 2^31 - 1 have an encoding in RFC 2279's
    // layout (FE starts a seven-byte form) but are not in the language.
    let mut surrogate = Vec::new();
    reference::encode(0xD800, &mut surrogate);
    assert_eq!(
        legacy31::validate(&surrogate).map_err(|e| error_parts(&e)),
        Err((0, Some(1)))
    );
    assert_eq!(
        legacy31::validate(b"\xFE\x82\x80\x80\x80\x80\x80").map_err(|e| error_parts(&e)),
        Err((0, Some(1)))
    );
}

#[test]
fn encoder_matches_std_for_every_scalar_value() {
    let mut encoded = Vec::with_capacity(4);
    let mut buffer = [0u8; 4];
    for character in (0..=0x10_FFFF).filter_map(char::from_u32) {
        encoded.clear();
        reference::encode(u32::from(character), &mut encoded);
        assert_eq!(encoded, character.encode_utf8(&mut buffer).as_bytes());
    }
}

#[test]
fn valid_rfc3629_files_decode_as_str_chars() {
    let mut checked = 0;
    let kuhn = kuhn_stress_test();
    let mut texts: Vec<Vec<u8>> = kuhn
        .split(|&byte| byte == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    texts.extend(
        corpus_files(".utf8.txt")
            .into_iter()
            .map(|(_, bytes)| bytes),
    );
    for bytes in &texts {
        let Ok(text) = core::str::from_utf8(bytes) else {
            continue;
        };
        assert_rfc3629_text_decodes_as_chars(text);
        checked += 1;
    }
    assert!(checked > 200, "only {checked} valid texts found");
    eprintln!("legacy31: {checked} valid stress-test lines and corpus files decoded as chars");
}

#[test]
fn stress_test_and_corpus_match_reference() {
    // The stress test has five- and six-byte sequences, overlong and
    // maximal ones, which this form accepts and RFC 3629 does not.
    let kuhn = kuhn_stress_test();
    assert_matches_reference_step_by_step(&kuhn);
    let mut lines = 0;
    for line in kuhn.split(|&byte| byte == b'\n') {
        assert_matches_reference_step_by_step(line);
        lines += 1;
    }
    let mut files = corpus_files(".utf8.txt");
    files.extend(corpus_files(".latin1.txt"));
    for (_, bytes) in &files {
        assert_matches_reference(bytes);
    }
    eprintln!(
        "legacy31: UTF-8-test.txt whole and {lines} lines, {} corpus files",
        files.len()
    );
}

fn assert_rfc3629_text_decodes_as_chars(text: &str) {
    assert_eq!(legacy31::validate(text.as_bytes()), Ok(()), "{text:?}");
    assert!(
        legacy31::decode(text.as_bytes())
            .map(Result::unwrap)
            .eq(text.chars().map(u32::from)),
        "{text:?}"
    );
}

/// Encodings that break one rule each, spliced into valid input: surrogates,
/// overlong forms of every length, lengths beyond 6, stray continuations —
/// and, as contrast, a few that RFC 3629 rejects but this form accepts.
const SPLICES: &[&[u8]] = &[
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF",
    b"\xC0\x80",
    b"\xC1\xBF",
    b"\xE0\x80\x80",
    b"\xE0\x9F\xBF",
    b"\xF0\x80\x80\x80",
    b"\xF0\x8F\xBF\xBF",
    b"\xF8\x87\xBF\xBF\xBF",
    b"\xFC\x83\xBF\xBF\xBF\xBF",
    b"\xFE",
    b"\xFF",
    b"\x80",
    b"\xBF",
    b"\xF4\x90\x80\x80",
    b"\xF8\x88\x80\x80\x80",
    b"\xFC\x84\x80\x80\x80\x80",
    b"\xFD\xBF\xBF\xBF\xBF\xBF",
];

/// Values of every encoded length in equal measure (a uniform 31-bit value
/// would nearly always take six bytes), surrogates excluded.
fn legacy31_value() -> impl Strategy<Value = u32> {
    prop_oneof![
        0u32..0x80,
        0x80u32..0x800,
        (0x800u32..0x1_0000).prop_filter("surrogates are not in the language", |value| {
            !(0xD800..=0xDFFF).contains(value)
        }),
        0x1_0000u32..0x20_0000,
        0x20_0000u32..0x400_0000,
        0x400_0000u32..=0x7FFF_FFFF,
    ]
}

fn legacy31_values() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(legacy31_value(), 0..60)
}

fn encode_all(values: &[u32]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for &value in values {
        reference::encode(value, &mut bytes);
    }
    bytes
}

proptest! {
    #![proptest_config(utf8_tests::proptest_config(5_000))]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        assert_matches_reference_step_by_step(&bytes);
    }

    #[test]
    fn random_bytes_over_class_representatives(
        bytes in prop::collection::vec(
            prop::sample::select(legacy31_representatives(Representatives::EdgesAndMiddle)),
            0..80,
        )
    ) {
        assert_matches_reference_step_by_step(&bytes);
    }

    #[test]
    fn encoded_values_decode_back(values in legacy31_values()) {
        let bytes = encode_all(&values);
        prop_assert_eq!(legacy31::validate(&bytes), Ok(()));
        prop_assert_eq!(
            legacy31::decode(&bytes).map(Result::unwrap).collect::<Vec<_>>(),
            values
        );
        assert_matches_reference_step_by_step(&bytes);
    }

    #[test]
    fn mutated_encoded_values(
        values in legacy31_values(),
        mutations in prop::collection::vec(utf8_tests::mutation(SPLICES), 1..=4),
    ) {
        let mut bytes = encode_all(&values);
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        assert_matches_reference_step_by_step(&bytes);
    }

    #[test]
    fn rfc3629_text_decodes_as_chars(text in any::<String>()) {
        assert_rfc3629_text_decodes_as_chars(&text);
    }

    #[test]
    fn rfc3629_text_of_every_length_decodes_as_chars(
        characters in prop::collection::vec(
            prop_oneof![
                prop::char::range('\0', '\x7F'),
                prop::char::range('\u{80}', '\u{7FF}'),
                prop::char::range('\u{800}', '\u{FFFF}'),
                prop::char::range('\u{10000}', '\u{10FFFF}'),
            ],
            0..100,
        )
    ) {
        assert_rfc3629_text_decodes_as_chars(&String::from_iter(characters));
    }
}
