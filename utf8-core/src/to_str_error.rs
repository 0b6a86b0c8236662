//! The error of a strict conversion to `str`, for every dialect that has
//! one (CESU-8, modified UTF-8, WTF-8).
//!
//! A conversion reads a smaller language than its dialect's validation:
//! the dialect may accept a surrogate that `str` cannot hold. So the
//! dialect's own error is the conversion's only where the dialect rejects;
//! where the dialect accepts, or the input ends inside one of its
//! sequences, whether more input could still convert turns on the
//! surrogate there, and `error_len` must say so: `None` exactly when some
//! completion converts.

use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

/// Whether a lead surrogate immediately followed by a trail surrogate
/// stands for one supplementary character.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pairs {
    /// Yes: CESU-8 and modified UTF-8 write supplementary characters so.
    Join,
    /// No: in RFC 2279 each is a code point of its own (and WTF-8 has no
    /// such pairs).
    Apart,
}

/// The half of a surrogate pair whose encoding `bytes` start with, known
/// from its first two bytes (`ED A0-AF` a lead, `ED B0-BF` a trail).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Half {
    Lead,
    Trail,
}

fn half(bytes: &[u8]) -> Option<Half> {
    match *bytes {
        [0xED, 0xA0..=0xAF, ..] => Some(Half::Lead),
        [0xED, 0xB0..=0xBF, ..] => Some(Half::Trail),
        _ => None,
    }
}

/// Whether `bytes` are the start, possibly empty, of a trail surrogate's
/// three bytes and no more: what a lead surrogate may be followed by, up to
/// the end of the input, and still become a pair.
fn starts_trail(bytes: &[u8]) -> bool {
    matches!(*bytes, [] | [0xED] | [0xED, 0xB0..=0xBF])
}

/// The error of a conversion to `str` that cannot go on at `at`, a sequence
/// boundary of `R` up to which `bytes` converted.
///
/// - `R` rejects what is at `at`: its error, since what `R` rejects does
///   not convert whatever follows.
/// - The input ends inside a sequence of `R`: incomplete, unless that
///   sequence is a surrogate that no completion lets convert (a trail, or a
///   lead with [`Pairs::Apart`]); then an error of the bytes of it that are
///   there, as long as `R`'s own error when a byte that cannot follow them
///   comes next.
/// - `R` accepts a sequence at `at` that the conversion could not take:
///   a surrogate that is not half of a pair, an error of its three bytes;
///   incomplete only if it is a lead (with [`Pairs::Join`]) that what
///   remains of the input could still make the first half of a pair.
#[cold]
#[inline(never)]
pub(crate) fn to_str_error<R: Ruleset>(bytes: &[u8], at: usize, pairs: Pairs) -> Utf8Error {
    let rest = &bytes[at..];
    let could_pair = pairs == Pairs::Join && half(rest) == Some(Half::Lead);
    let error_len = match R::validate(rest) {
        Err(e) if e.valid_up_to() == 0 && e.error_len().is_some() => return e.offset_by(at),
        Err(e) if e.valid_up_to() == 0 => match half(rest) {
            Some(_) if !could_pair => Some(rest.len()),
            _ => return e.offset_by(at),
        },
        _ => {
            debug_assert!(
                half(rest).is_some(),
                "the conversion stops only at a surrogate"
            );
            if could_pair && starts_trail(&rest[3..]) {
                None
            } else {
                Some(3)
            }
        }
    };
    // A sequence of `R` that the input ends inside is under six bytes.
    Utf8Error::new(
        at,
        error_len.map(|len| len as u8),
        R::TABLES.automaton.label,
    )
}
