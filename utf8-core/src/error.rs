//! The validation error, with `core::str::Utf8Error`'s meaning and wording.

use core::fmt;

/// Where and how an input stops being valid.
///
/// The two accessors mean exactly what they mean on [`core::str::Utf8Error`],
/// and `Display` prints the same text, so code can move between the two
/// without changing its messages:
///
/// - [`valid_up_to`](Utf8Error::valid_up_to): the length of the longest
///   prefix that is valid, i.e. the end of the last complete sequence;
/// - [`error_len`](Utf8Error::error_len): `Some(n)` when the `n` bytes at
///   `valid_up_to` can never start a valid sequence (the longest prefix of a
///   sequence that was still valid, or 1), `None` when the input ends in the
///   middle of a sequence that more input could complete.
///
/// ```
/// let e = utf8_core::from_utf8(b"ab\xE2\x82").unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (2, None));
/// assert_eq!(e.to_string(), "incomplete utf-8 byte sequence from index 2");
/// let e = utf8_core::from_utf8(b"ab\xE2\x82A").unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (2, Some(2)));
/// assert_eq!(e.to_string(), "invalid utf-8 sequence of 2 bytes from index 2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Utf8Error {
    pub(crate) valid_up_to: usize,
    pub(crate) error_len: Option<u8>,
}

impl Utf8Error {
    /// The length of the longest valid prefix: the index where the invalid or
    /// incomplete sequence starts.
    #[inline]
    pub const fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// `Some(n)`: the `n` bytes at [`valid_up_to`](Self::valid_up_to) are
    /// invalid whatever follows; `None`: the input ends inside a sequence.
    #[inline]
    pub const fn error_len(&self) -> Option<usize> {
        match self.error_len {
            Some(len) => Some(len as usize),
            None => None,
        }
    }
}

impl fmt::Display for Utf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error_len {
            Some(len) => write!(
                f,
                "invalid utf-8 sequence of {len} bytes from index {}",
                self.valid_up_to
            ),
            None => write!(
                f,
                "incomplete utf-8 byte sequence from index {}",
                self.valid_up_to
            ),
        }
    }
}

impl core::error::Error for Utf8Error {}
