#![doc = include_str!("../README.md")]
//!
//! ## The API
//!
//! [`from_utf8`] and [`from_utf8_mut`] have the signatures and the error
//! semantics of their `core::str` namesakes; [`from_utf8_const`] does the
//! same in `const` contexts. [`Utf8Error`] explains how its position is found
//! only on failure. The tables they run on are each produced by
//! `utf8_macros::dfa_tables!`, and [`cpu::level`] says which vector code
//! runs them on this CPU.
//!
//! ## Beyond UTF-8
//!
//! The same machinery runs every [`Ruleset`]: the dialects in [`cesu8`],
//! [`mutf8`], [`wtf8`] and [`rfc2279`] (and `legacy31` behind a feature),
//! and rulesets of your own, from ABNF or from a set of scalar ranges, that
//! [`ruleset!`] derives at compile time. Each gets one-shot validation, the
//! streaming [`Validator`], [`Decode`] and [`Chunks`].
//!
//! ## A ruleset of your own, worked through
//!
//! XML 1.0 allows only some characters in a document (production 2):
//!
//! ```text
//! Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
//! ```
//!
//! Give those ranges to [`ruleset!`] and it derives, while your crate
//! compiles, the automaton of exactly their UTF-8 encodings:
//!
//! ```
//! utf8_core::ruleset! {
//!     /// Text that XML 1.0 allows in a document.
//!     pub struct XmlChar {
//!         scalars = [0x9, 0xA, 0xD, 0x20..=0xD7FF, 0xE000..=0xFFFD, 0x10000..=0x10FFFF]
//!     }
//! }
//!
//! // Valid UTF-8 and valid XML text.
//! assert!(XmlChar::validate("<p>naïve café</p>\n".as_bytes()).is_ok());
//!
//! // U+0001 is valid UTF-8 but not an XML character; so is U+FFFE, whose
//! // three bytes EF BF BE are all that is wrong: the error starts at the EF
//! // and covers EF BF, the part that could still have become a character.
//! let e = XmlChar::validate(b"a\x01").unwrap_err();
//! assert_eq!((e.valid_up_to(), e.error_len()), (1, Some(1)));
//! let e = XmlChar::validate(b"a\xEF\xBF\xBE").unwrap_err();
//! assert_eq!((e.valid_up_to(), e.error_len()), (1, Some(2)));
//!
//! // Everything a built-in ruleset has: streaming, chunks, decoding. The
//! // derivation proved that every value is a scalar value, so decoding
//! // yields `char`.
//! let text = "<p>café".as_bytes();
//! let mut stream = XmlChar::validator();
//! stream.update(&text[..7])?; // ends between the two bytes of "é"
//! stream.update(&text[7..])?;
//! stream.finish()?;
//! let decoded: Vec<char> = XmlChar::decode("é\t".as_bytes()).map(Result::unwrap).collect();
//! assert_eq!(decoded, ['é', '\t']);
//! # Ok::<(), utf8_core::Utf8Error>(())
//! ```
//!
//! The same works from ABNF, inline (`abnf = "...", start = "rule"`) or in a
//! file next to your `Cargo.toml` (`abnf_file = "text.abnf", start = "rule"`,
//! rebuilt when the file changes); a spec that does not derive is a compile
//! error pointing at it. `cargo run -p utf8-cli -- derive --abnf FILE --start
//! RULE` shows the derivation step by step.

#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]
// Every `unsafe` block names the bound it relies on, and every `unsafe fn`
// says what its caller must guarantee.
#![deny(
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    clippy::missing_safety_doc
)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod automaton;
mod chunks;
#[cfg(feature = "alloc")]
mod convert;
pub mod cpu;
mod decode;
mod derived;
mod dialects;
mod dispatch;
mod error;
#[cfg(feature = "std")]
mod io;
pub mod parallel;
#[doc(hidden)]
pub mod paths;
mod ruleset;
mod scan;
mod shift;
#[doc(hidden)]
pub mod simd;
mod str_cast;
mod stream;
#[doc(hidden)]
pub mod tables;
mod to_str_error;
mod wide;

pub use chunks::{Chunk, Chunks, Utf8Chunk, Utf8Chunks};
pub use decode::Decode;
#[cfg(feature = "legacy-31bit")]
#[cfg_attr(docsrs, doc(cfg(feature = "legacy-31bit")))]
pub use dialects::legacy31;
pub use dialects::{cesu8, mutf8, rfc2279, wtf8};
pub use dispatch::SIMD_THRESHOLD;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub use error::FromUtf8Error;
pub use error::Utf8Error;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use io::{ValidatingBufReader, ValidatingReader};
pub use ruleset::{Rfc3629, Ruleset, Value};
pub use stream::Validator;

/// What [`ruleset!`] expands to needs: not part of the stable API; it may
/// change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::automaton::Automaton;
    pub use crate::derived::{
        PairRule, Pairing, ShiftTables, Tables, Utf8Shortcut, VectorTables, padded,
    };
    pub use crate::error::RulesetLabel;
    pub use utf8_macros::dfa_tables;
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
    match dispatch::validate::<Rfc3629>(v) {
        // SAFETY: RFC 3629's validation accepted all of `v`: it is UTF-8.
        Ok(()) => Ok(unsafe { str_cast::validated(v) }),
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
    match dispatch::validate::<Rfc3629>(v) {
        // SAFETY: RFC 3629's validation accepted all of `v`: it is UTF-8.
        Ok(()) => Ok(unsafe { str_cast::validated_mut(v) }),
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
    match Rfc3629::TABLES.automaton.validate_const(v) {
        // SAFETY: the RFC 3629 automaton accepted all of `v`: it is UTF-8.
        Ok(()) => Ok(unsafe { str_cast::validated(v) }),
        Err(e) => Err(e),
    }
}

/// The characters of `bytes` as RFC 3629 UTF-8, with an error item for each
/// maximal invalid subpart; see [`Decode`].
pub fn decode(bytes: &[u8]) -> Decode<'_> {
    Decode::new(bytes)
}

/// `bytes` as runs of valid UTF-8, each followed by the invalid bytes that
/// end it: `<[u8]>::utf8_chunks`, plus [`Utf8Chunk::is_incomplete`].
///
/// ```
/// let kinds: Vec<_> = utf8_core::utf8_chunks(b"a\xFFb\xF0\x9F")
///     .map(|c| (c.valid(), c.invalid(), c.is_incomplete()))
///     .collect();
/// assert_eq!(kinds, [("a", &b"\xFF"[..], false), ("b", &b"\xF0\x9F"[..], true)]);
/// ```
pub fn utf8_chunks(bytes: &[u8]) -> Utf8Chunks<'_> {
    Utf8Chunks::new(bytes)
}

/// `String::from_utf8_lossy`: the input as a string, with each maximal
/// invalid subpart (and an incomplete sequence at the end) replaced by one
/// U+FFFD REPLACEMENT CHARACTER; borrowed when the input is valid.
///
/// ```
/// assert_eq!(utf8_core::from_utf8_lossy(b"caf\xC3\xA9"), "café");
/// // F0 80 is no sequence's prefix (F0 needs 90-BF): two replacements.
/// assert_eq!(utf8_core::from_utf8_lossy(b"a\xF0\x80b\xE2\x82"), "a\u{FFFD}\u{FFFD}b\u{FFFD}");
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn from_utf8_lossy(bytes: &[u8]) -> alloc::borrow::Cow<'_, str> {
    use alloc::borrow::Cow;
    match from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        // SAFETY: `valid_up_to` is from RFC 3629's validation of `bytes`.
        Err(error) => Cow::Owned(unsafe { replace_invalid(bytes, error.valid_up_to()) }),
    }
}

/// `String::from_utf8`: the bytes as a `String` if they are valid UTF-8
/// (RFC 3629), in the same allocation, without a copy; otherwise a
/// [`FromUtf8Error`] that gives them back with the [`Utf8Error`].
///
/// The owned counterpart of [`from_utf8`], named as `String::from_utf8` would
/// be if it stood beside `str::from_utf8`.
///
/// ```
/// let bytes = "Grüße".as_bytes().to_vec();
/// let text = utf8_core::from_utf8_owned(bytes)?;
/// assert_eq!(text, "Grüße");
///
/// let e = utf8_core::from_utf8_owned(b"Gr\xFC\xDFe".to_vec()).unwrap_err();
/// assert_eq!(e.utf8_error().valid_up_to(), 2);
/// assert_eq!(e.into_bytes(), b"Gr\xFC\xDFe");
/// # Ok::<(), utf8_core::FromUtf8Error>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn from_utf8_owned(bytes: alloc::vec::Vec<u8>) -> Result<alloc::string::String, FromUtf8Error> {
    match dispatch::validate::<Rfc3629>(&bytes) {
        // SAFETY: RFC 3629's validation accepted the whole vector: it is
        // UTF-8.
        Ok(()) => Ok(unsafe { str_cast::validated_string(bytes) }),
        Err(error) => Err(FromUtf8Error { bytes, error }),
    }
}

/// [`from_utf8_lossy`] for bytes you own: valid input comes back as a
/// `String` in the same allocation, without a copy; otherwise a new string
/// with each maximal invalid subpart (and an incomplete sequence at the end)
/// replaced by one U+FFFD REPLACEMENT CHARACTER, the text
/// `String::from_utf8_lossy` gives.
///
/// ```
/// let bytes = b"caf\xC3\xA9".to_vec();
/// let address = bytes.as_ptr();
/// let text = utf8_core::from_utf8_lossy_owned(bytes);
/// assert_eq!((text.as_str(), text.as_ptr()), ("café", address));
///
/// assert_eq!(utf8_core::from_utf8_lossy_owned(b"caf\xE9".to_vec()), "caf\u{FFFD}");
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn from_utf8_lossy_owned(bytes: alloc::vec::Vec<u8>) -> alloc::string::String {
    match from_utf8_owned(bytes) {
        Ok(text) => text,
        // SAFETY: `valid_up_to` is from RFC 3629's validation of the bytes
        // the error gives back.
        Err(e) => unsafe { replace_invalid(e.as_bytes(), e.utf8_error().valid_up_to()) },
    }
}

/// `bytes` with each maximal invalid subpart replaced by U+FFFD, given that
/// the first `valid_up_to` bytes are valid: the validation that found the
/// first error is not repeated over them.
///
/// # Safety
///
/// `bytes[..valid_up_to]` must be UTF-8: `valid_up_to` is the one that RFC
/// 3629's validation of `bytes` reported.
#[cfg(feature = "alloc")]
unsafe fn replace_invalid(bytes: &[u8], valid_up_to: usize) -> alloc::string::String {
    let (valid, rest) = bytes.split_at(valid_up_to);
    // Room for the input and one replacement character (three bytes) for a
    // one-byte error, the common case in text that is mostly right.
    let mut text = alloc::string::String::with_capacity(bytes.len() + 2);
    // SAFETY: the caller guarantees that the bytes before `valid_up_to` are
    // UTF-8.
    text.push_str(unsafe { str_cast::validated(valid) });
    for chunk in utf8_chunks(rest) {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            text.push(char::REPLACEMENT_CHARACTER);
        }
    }
    text
}
