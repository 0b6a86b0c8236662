//! The entry points `core::str` and `alloc::string` users know, over RFC
//! 3629: `from_utf8` and its owned, mutable, `const` and lossy forms, and
//! the decoding and chunking of UTF-8. A module of their own below the
//! crate root, so that the conversions that start from them need not
//! import the root that re-exports them.

use crate::chunks::Utf8Chunks;
use crate::decode::Decode;
use crate::dispatch::{self, Rfc3629};
#[cfg(feature = "alloc")]
use crate::error::FromUtf8Error;
use crate::error::Utf8Error;
use crate::ruleset::Ruleset as _;
use crate::str_cast;

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
/// end it: `<[u8]>::utf8_chunks`, plus [`Utf8Chunk::is_incomplete`](crate::Utf8Chunk::is_incomplete).
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
