//! The dialects (`cesu8`, `mutf8`, `wtf8`, `rfc2279`, `legacy31`), each
//! through its module's functions:
//!
//! - `validate`, which runs the vector check where the dialect has one,
//!   against `validate_const`, the class-table automaton a byte at a time
//!   (what `Path::Automaton` runs), on the fuzzer's bytes and at the
//!   alignment the first byte chooses;
//! - `chunks`: the chunks cover the input in order, and each is what
//!   `validate` says of the input from where the chunk starts (the valid
//!   prefix, then the error's bytes, or the rest of the input when it ends
//!   inside a sequence);
//! - `decode`: the items cover the input in order, each value is what the
//!   UTF-8 bit layout gives for the bytes it consumed (a lead surrogate and
//!   a trail surrogate consumed together give the character of the pair),
//!   and the error items are exactly the chunks' invalid parts.

#![no_main]

mod common;

use common::{Verdict, verdict, with_alignment};
use libfuzzer_sys::fuzz_target;
use utf8_core::{Chunks, Decode, Ruleset, Utf8Error, cesu8, legacy31, mutf8, rfc2279, wtf8};

/// A dialect's module functions, for one generic check.
struct Dialect<R: Ruleset> {
    validate: fn(&[u8]) -> Result<(), Utf8Error>,
    validate_const: fn(&[u8]) -> Result<(), Utf8Error>,
    decode: for<'a> fn(&'a [u8]) -> Decode<'a, R>,
    chunks: for<'a> fn(&'a [u8]) -> Chunks<'a, R>,
}

/// What `decode` yields, as a number: `char` or `u32`.
trait CodePoint {
    fn code_point(self) -> u32;
}

impl CodePoint for char {
    fn code_point(self) -> u32 {
        u32::from(self)
    }
}

impl CodePoint for u32 {
    fn code_point(self) -> u32 {
        self
    }
}

/// The value of one sequence by the UTF-8 bit layout alone: the lead byte's
/// bits after its first zero, then six bits from each continuation byte.
/// `None` unless `bytes` is exactly one such sequence.
fn layout_value(bytes: &[u8]) -> Option<u32> {
    let (&lead, rest) = bytes.split_first()?;
    let len = match lead.leading_ones() {
        0 => 1,
        n @ 2..=6 => n as usize,
        _ => return None,
    };
    if bytes.len() != len || !rest.iter().all(|&b| b & 0xC0 == 0x80) {
        return None;
    }
    let lead_bits = if len == 1 { lead } else { lead & (0x7F >> len) };
    Some(rest.iter().fold(u32::from(lead_bits), |value, &b| {
        (value << 6) | u32::from(b & 0x3F)
    }))
}

/// The value `decode` must give for the bytes one item consumed: one
/// sequence's, or the character of a lead and a trail surrogate.
fn expected_value(bytes: &[u8]) -> u32 {
    if let Some(value) = layout_value(bytes) {
        return value;
    }
    let halves = (bytes.len() == 6).then(|| (layout_value(&bytes[..3]), layout_value(&bytes[3..])));
    match halves {
        Some((Some(lead @ 0xD800..=0xDBFF), Some(trail @ 0xDC00..=0xDFFF))) => {
            0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00)
        }
        _ => panic!("an item that is neither one sequence nor a surrogate pair: {bytes:02X?}"),
    }
}

fn check_validate<R: Ruleset>(dialect: &Dialect<R>, input: &[u8], alignment: Option<usize>) {
    assert_eq!(
        verdict((dialect.validate)(input)),
        verdict((dialect.validate_const)(input)),
        "{}::validate at alignment {alignment:?}",
        R::NAME
    );
}

/// The invalid parts of the chunks, as `(start, len)`, after checking the
/// chunks against `validate`.
fn check_chunks<R: Ruleset>(dialect: &Dialect<R>, input: &[u8]) -> Vec<(usize, usize)> {
    let mut position = 0;
    let mut invalid_parts = Vec::new();
    let mut chunks = (dialect.chunks)(input);
    for chunk in chunks.by_ref() {
        let (valid, invalid) = (chunk.valid(), chunk.invalid());
        assert!(
            !valid.is_empty() || !invalid.is_empty(),
            "{}: an empty chunk at {position}",
            R::NAME
        );
        let rest = &input[position..];
        assert!(
            rest.starts_with(valid) && rest[valid.len()..].starts_with(invalid),
            "{}: a chunk at {position} that is not the input there",
            R::NAME
        );
        let expected: Verdict = if invalid.is_empty() {
            Ok(())
        } else if chunk.is_incomplete() {
            assert_eq!(
                valid.len() + invalid.len(),
                rest.len(),
                "{}: an incomplete chunk before the end",
                R::NAME
            );
            Err((valid.len(), None))
        } else {
            Err((valid.len(), Some(invalid.len())))
        };
        assert_eq!(
            verdict((dialect.validate)(rest)),
            expected,
            "{}: the chunk at {position}",
            R::NAME
        );
        if !invalid.is_empty() {
            invalid_parts.push((position + valid.len(), invalid.len()));
        }
        position += valid.len() + invalid.len();
    }
    assert_eq!(position, input.len(), "{}: chunks end early", R::NAME);
    assert!(chunks.next().is_none(), "{}: chunks is fused", R::NAME);
    invalid_parts
}

fn check_decode<R: Ruleset>(dialect: &Dialect<R>, input: &[u8], invalid_parts: &[(usize, usize)])
where
    R::Value: CodePoint,
{
    let mut decode = (dialect.decode)(input);
    let mut position = 0;
    let mut errors = Vec::new();
    while let Some(item) = decode.next() {
        let end = input.len() - decode.remaining().len();
        assert!(
            end > position,
            "{}: an item that consumed nothing at {position}",
            R::NAME
        );
        match item {
            Ok(value) => assert_eq!(
                value.code_point(),
                expected_value(&input[position..end]),
                "{}: the item at {position}",
                R::NAME
            ),
            Err(error) => {
                assert_eq!(error.valid_up_to(), position, "{}", R::NAME);
                let len = error.error_len().unwrap_or(input.len() - position);
                assert_eq!(end, position + len, "{}: the error at {position}", R::NAME);
                errors.push((position, len));
            }
        }
        position = end;
    }
    assert_eq!(position, input.len(), "{}: decode ends early", R::NAME);
    assert!(decode.next().is_none(), "{}: decode is fused", R::NAME);
    assert_eq!(
        errors,
        invalid_parts,
        "{}: decode's errors and the chunks' invalid parts",
        R::NAME
    );
}

fn check<R: Ruleset>(dialect: Dialect<R>, data: &[u8])
where
    R::Value: CodePoint,
{
    check_validate(&dialect, data, None);
    with_alignment(data, |input, alignment| {
        check_validate(&dialect, input, Some(alignment));
    });
    let invalid_parts = check_chunks(&dialect, data);
    check_decode(&dialect, data, &invalid_parts);
}

/// The `Dialect` of a dialect module.
macro_rules! dialect {
    ($module:ident) => {
        Dialect {
            validate: $module::validate,
            validate_const: $module::validate_const,
            decode: $module::decode,
            chunks: $module::chunks,
        }
    };
}

fuzz_target!(|data: &[u8]| {
    check(dialect!(cesu8), data);
    check(dialect!(mutf8), data);
    check(dialect!(wtf8), data);
    check(dialect!(rfc2279), data);
    check(dialect!(legacy31), data);
});
