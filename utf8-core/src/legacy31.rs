//! The 31-bit legacy form of UTF-8: RFC 2279's shortest forms up to
//! U+7FFFFFFF, five- and six-byte sequences included, surrogates still
//! rejected — the language of Onigmo's table built with `USE_UTF8_31BITS`.
//!
//! ```
//! use utf8_core::legacy31;
//! // U+7FFFFFFF, the largest 31-bit value, in six bytes.
//! let max = b"\xFD\xBF\xBF\xBF\xBF\xBF";
//! assert!(legacy31::validate(max).is_ok());
//! assert_eq!(legacy31::decode(max).collect::<Vec<_>>(), [Ok(0x7FFF_FFFF)]);
//! // FC 83 ... would be an overlong six-byte form of a five-byte value.
//! let e = legacy31::validate(b"\xFC\x83\xBF\xBF\xBF\xBF").unwrap_err();
//! assert_eq!((e.valid_up_to(), e.error_len()), (0, Some(1)));
//! ```

use crate::ruleset::{Ruleset, ruleset};
use crate::{Decode, Utf8Error};

ruleset!(
    /// The 31-bit legacy form.
    Legacy31 = legacy31
);

/// Checks that `bytes` is in the 31-bit legacy form.
///
/// Errors mean what they mean for [`crate::from_utf8`]: `valid_up_to` is the
/// end of the last complete sequence; `error_len` is the length of the valid
/// prefix of the failing sequence (at least 1), or `None` when the input ends
/// inside a sequence.
pub fn validate(bytes: &[u8]) -> Result<(), Utf8Error> {
    crate::validate::<Legacy31>(bytes)
}

/// [`validate`] for `const` contexts.
pub const fn validate_const(bytes: &[u8]) -> Result<(), Utf8Error> {
    Legacy31::AUTOMATON.validate_const(bytes)
}

/// The values of `bytes`, as `u32` (up to `0x7FFF_FFFF`), with an error item
/// for each invalid part; see [`Decode`].
pub fn decode(bytes: &[u8]) -> Decode<'_> {
    Decode::new(Legacy31::AUTOMATON, bytes)
}
