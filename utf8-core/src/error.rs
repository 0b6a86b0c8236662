//! The validation errors, with `core::str::Utf8Error`'s and
//! `alloc::string::FromUtf8Error`'s meaning and wording.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::fmt;

/// Where and how an input stops being valid.
///
/// The two accessors mean exactly what they mean on [`core::str::Utf8Error`],
/// and `Display` prints the same text (`Debug` too), so code can move between
/// the two without changing its messages:
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
///
/// # And `core::str::Utf8Error`
///
/// There is no conversion into `core::str::Utf8Error`: core gives that type
/// no public constructor, so only `core::str::from_utf8` can make one. Code
/// that must hand one on can run `core::str::from_utf8` on the input once
/// this crate has said it is invalid, which costs nothing on the valid path
/// and yields the same `valid_up_to` and `error_len` (the differential tests
/// check that they agree on every input they try).
///
/// # One error for both of simdutf8's uses
///
/// simdutf8 offers two error types: `basic`'s says only that the input is
/// invalid, and is the faster; `compat`'s says where, like core's, at some
/// cost on valid input too. Here one type serves both, because the position
/// is worked out only after validation has failed; the valid path keeps at
/// most a marker to restart from:
///
/// - The vector check ORs each block's error bits into one register and
///   tests it once every four 64-byte blocks (and before each run of ASCII
///   blocks it skips); it tracks no position. When a
///   group fails, its blocks are checked again one by one to find the first
///   failing block, and the class-table automaton, restarted at a sequence
///   boundary at least the check's proved lag before that block, walks to
///   the exact `valid_up_to` and `error_len`. Those steps are `#[cold]`
///   functions that valid input never enters.
/// - The shift DFA (inputs under [`SIMD_THRESHOLD`](crate::SIMD_THRESHOLD)
///   bytes, and rulesets without a vector check) notes, once per 16 bytes,
///   the last 16-byte boundary at which its state accepted; on failure it
///   steps again from there one byte at a time to find the error.
/// - The first 32 bytes of an input of 128 bytes or more (and on through
///   ASCII up to 256) go through the shift DFA, so that input that is not
///   UTF-8 at all fails before the vector set-up; that walk notes each
///   sequence boundary as it passes, a fixed cost whatever the input's
///   length.
///
/// So a caller that wants only a yes or no pays, for the position, no more
/// than those markers, and one that wants the position pays for finding it
/// once, on the error.
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

/// The error of [`from_utf8_owned`](crate::from_utf8_owned): the bytes that
/// were not UTF-8, given back unchanged, and where they stop being valid.
///
/// `alloc::string::FromUtf8Error` method for method:
/// [`as_bytes`](Self::as_bytes), [`into_bytes`](Self::into_bytes) (the
/// input's own allocation, not a copy) and [`utf8_error`](Self::utf8_error);
/// `Display` prints what [`Utf8Error`] prints, and like std's it has no
/// `source`.
///
/// ```
/// let e = utf8_core::from_utf8_owned(b"caf\xE9!".to_vec()).unwrap_err();
/// assert_eq!(e.as_bytes(), b"caf\xE9!");
/// assert_eq!((e.utf8_error().valid_up_to(), e.utf8_error().error_len()), (3, Some(1)));
/// assert_eq!(e.to_string(), "invalid utf-8 sequence of 1 bytes from index 3");
/// assert_eq!(e.to_string(), String::from_utf8(b"caf\xE9!".to_vec()).unwrap_err().to_string());
/// let bytes: Vec<u8> = e.into_bytes();
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromUtf8Error {
    pub(crate) bytes: Vec<u8>,
    pub(crate) error: Utf8Error,
}

#[cfg(feature = "alloc")]
impl FromUtf8Error {
    /// The bytes that were given to [`from_utf8_owned`](crate::from_utf8_owned).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes that were given to [`from_utf8_owned`](crate::from_utf8_owned),
    /// in the same allocation.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Where the bytes stop being valid, and how.
    pub fn utf8_error(&self) -> Utf8Error {
        self.error
    }
}

#[cfg(feature = "alloc")]
impl fmt::Display for FromUtf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

#[cfg(feature = "alloc")]
impl core::error::Error for FromUtf8Error {}
