//! UTF-8 validation with tables that a proc macro derived at compile time
//! from RFC 3629's own grammar.
//!
//! ```
//! assert_eq!(utf8_core::from_utf8("Grüße, 世界".as_bytes()), Ok("Grüße, 世界"));
//!
//! // ED A0 80 would be U+D800, a surrogate: RFC 3629 allows only ED 80-9F.
//! let e = utf8_core::from_utf8(b"ok \xED\xA0\x80").unwrap_err();
//! assert_eq!((e.valid_up_to(), e.error_len()), (3, Some(1)));
//! ```
//!
//! [`from_utf8`] and [`from_utf8_mut`] have the signatures and the error
//! semantics of their `core::str` namesakes; [`from_utf8_const`] does the
//! same in `const` contexts. The tables they run on are in [`tables`], each
//! produced by `utf8_macros::dfa_tables!` from the ABNF of
//! [RFC 3629 §4](https://www.rfc-editor.org/rfc/rfc3629#section-4) as the
//! RFC prints it; no table in this crate is written by hand.
//!
//! # Features
//! - `std` (default): nothing yet beyond `core` — [`Utf8Error`] implements
//!   `core::error::Error` either way; kept so that `std`-only conveniences can
//!   arrive without breaking `default-features = false` users.
//! - `legacy-31bit`: the `legacy31` module, the 31-bit form of RFC 2279 as
//!   Onigmo's `USE_UTF8_31BITS` accepts it.

#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

mod automaton;
// Only the legacy form decodes to `u32` so far; UTF-8 itself decodes with `str::chars`.
#[cfg(feature = "legacy-31bit")]
mod decode;
mod error;
#[cfg(feature = "legacy-31bit")]
pub mod legacy31;
pub mod paths;
mod ruleset;
mod shift;
pub mod simd;
mod str_cast;
pub mod tables;

#[cfg(feature = "legacy-31bit")]
pub use decode::Decode;
pub use error::Utf8Error;

use ruleset::{Ruleset, ruleset};

ruleset!(
    /// RFC 3629 UTF-8.
    Rfc3629 = rfc3629
);

/// Inputs shorter than this go to the shift DFA: loading tables into vector
/// registers and framing the last block would cost more than it saves.
pub const SIMD_THRESHOLD: usize = 128;

/// How many bytes the shift DFA reads before the vector check starts: enough
/// to find an error at the very start of an input (common in text that is
/// not UTF-8 at all) without paying for vector set-up.
const SCALAR_LEAD: usize = 32;

/// The fastest path this CPU has for `R`.
#[inline]
fn validate<R: Ruleset>(bytes: &[u8]) -> Result<(), Utf8Error> {
    if bytes.len() >= SIMD_THRESHOLD && R::SIMD_AVAILABLE {
        let level = simd::level();
        if level != simd::Level::Portable {
            let from = shift::lead::<R>(&bytes[..SCALAR_LEAD])?;
            let rest = &bytes[from..];
            let result = if rest.len() >= simd::BLOCK {
                simd::validate_at::<R>(level, rest)
            } else {
                None
            };
            return result
                .unwrap_or_else(|| shift::validate::<R>(rest))
                .map_err(|e| Utf8Error {
                    valid_up_to: from + e.valid_up_to,
                    error_len: e.error_len,
                });
        }
    }
    shift::validate::<R>(bytes)
}

/// Converts a byte slice to a string slice if it is valid UTF-8 (RFC 3629).
///
/// Same contract as [`core::str::from_utf8`]: on failure the error tells how
/// long the valid prefix is and whether the input is invalid or merely cut
/// short.
///
/// ```
/// assert_eq!(utf8_core::from_utf8(b"\xF0\x9F\x92\x96"), Ok("💖"));
/// let e = utf8_core::from_utf8(b"\xF0\x9F\x92").unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (0, None));
/// ```
pub fn from_utf8(v: &[u8]) -> Result<&str, Utf8Error> {
    match validate::<Rfc3629>(v) {
        Ok(()) => Ok(str_cast::validated(v)),
        Err(e) => Err(e),
    }
}

/// Converts a mutable byte slice to a mutable string slice if it is valid UTF-8.
///
/// ```
/// let mut bytes = *b"hello";
/// let s = utf8_core::from_utf8_mut(&mut bytes).unwrap();
/// s.make_ascii_uppercase();
/// assert_eq!(s, "HELLO");
/// ```
pub fn from_utf8_mut(v: &mut [u8]) -> Result<&mut str, Utf8Error> {
    match validate::<Rfc3629>(v) {
        Ok(()) => Ok(str_cast::validated_mut(v)),
        Err(e) => Err(e),
    }
}

/// [`from_utf8`] for `const` contexts: same result, one byte at a time.
///
/// ```
/// const GREETING: &str = match utf8_core::from_utf8_const("héllo".as_bytes()) {
///     Ok(s) => s,
///     Err(_) => panic!("not UTF-8"),
/// };
/// assert_eq!(GREETING, "héllo");
/// const BAD: Option<usize> = match utf8_core::from_utf8_const(b"\xC0\x80") {
///     Ok(_) => None,
///     Err(e) => Some(e.valid_up_to()),
/// };
/// assert_eq!(BAD, Some(0));
/// ```
pub const fn from_utf8_const(v: &[u8]) -> Result<&str, Utf8Error> {
    match Rfc3629::AUTOMATON.validate_const(v) {
        Ok(()) => Ok(str_cast::validated(v)),
        Err(e) => Err(e),
    }
}
