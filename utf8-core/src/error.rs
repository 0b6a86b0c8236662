//! The validation errors, with `core::str::Utf8Error`'s and
//! `alloc::string::FromUtf8Error`'s meaning and wording.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::fmt;
use core::num::NonZeroUsize;

/// Where and how an input stops being valid.
///
/// The two accessors mean exactly what they mean on [`core::str::Utf8Error`],
/// and for RFC 3629 `Display` prints the same text (`Debug` too), so code can
/// move between the two without changing its messages:
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
/// - An input of 128 bytes or more first has its leading ASCII (up to 256
///   bytes) tested as 16-byte words and its first sequence after that
///   stepped through by the shift DFA, so that text that is not UTF-8 at
///   all (a Latin-1 file, whose first byte beyond ASCII is the error) fails
///   before the vector set-up; that walk notes the sequence boundary it
///   reaches, a fixed cost whatever the input's length.
///
/// So a caller that wants only a yes or no pays, for the position, no more
/// than those markers, and one that wants the position pays for finding it
/// once, on the error.
///
/// # Errors name their ruleset
///
/// An error from a dialect or a ruleset of your own says which one it was
/// checked against, in [`ruleset`](Utf8Error::ruleset) and in its text: a
/// `00` byte is valid UTF-8 but not modified UTF-8, and the message says so.
/// RFC 3629's errors print exactly what `core::str::Utf8Error` prints.
///
/// ```
/// let e = utf8_core::mutf8::validate(b"abcde\x00").unwrap_err();
/// assert_eq!(e.ruleset(), "mutf8");
/// assert_eq!(e.to_string(), "invalid modified UTF-8 (mutf8) sequence of 1 bytes from index 5");
/// assert_eq!(utf8_core::from_utf8(b"\xFF").unwrap_err().ruleset(), "rfc3629");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Utf8Error {
    pub(crate) valid_up_to: usize,
    /// A whole word, not the `u8` it fits in: the error then has no padding
    /// bytes, and an `Ok` passed up through the validation paths' `Result`s
    /// is moved as whole words. With an `Option<u8>`, LLVM moved the seven
    /// bytes after it as two overlapping 4-byte copies, and the load over
    /// both stores could not be forwarded: a stall on every valid short
    /// string (see `docs/performance.md`, section "The error type's
    /// layout"). Keep the struct free of padding.
    pub(crate) error_len: Option<NonZeroUsize>,
    /// A reference, not the two strings, so that the error stays three
    /// words: it is returned by value from every validation path. (Its null
    /// niche is `Ok` in a `Result<(), Utf8Error>`.)
    pub(crate) ruleset: &'static RulesetLabel,
}

/// What an error says about the ruleset it came from: the ruleset's
/// [`NAME`](crate::Ruleset::NAME) and the words its messages use for its
/// sequences. Public only for [`ruleset!`](crate::ruleset!)'s expansion.
#[doc(hidden)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct RulesetLabel {
    /// [`Ruleset::NAME`](crate::Ruleset::NAME).
    pub name: &'static str,
    /// "utf-8" for RFC 3629, as core's messages have it; "modified UTF-8
    /// (mutf8)" for a dialect; a user ruleset's type name.
    pub title: &'static str,
}

impl RulesetLabel {
    /// The label of RFC 3629, whose errors print as core's do.
    pub(crate) const RFC3629: RulesetLabel = RulesetLabel {
        name: "rfc3629",
        title: "utf-8",
    };
}

/// A [`Utf8Error`] without its ruleset, which the caller knows, in two
/// words: a `Result<(), PackedError>` comes back from a call in two
/// registers, where a `Result<(), Utf8Error>`, three words, comes back
/// through memory. The caller then moved it on with a 16-byte load over the
/// callee's two 8-byte stores, which store forwarding cannot serve: a stall
/// on every error found by the scalar lead (see `validate_after_lead`, and
/// `docs/performance.md`, section "The error type's layout").
#[derive(Clone, Copy, Debug)]
pub(crate) struct PackedError {
    valid_up_to: usize,
    /// One more than the error's length, one for `None`: the zero left over
    /// is `Ok`'s niche in a `Result<(), PackedError>`.
    error_len_plus_one: NonZeroUsize,
}

impl PackedError {
    #[inline]
    pub(crate) fn pack(error: Utf8Error) -> PackedError {
        PackedError {
            valid_up_to: error.valid_up_to,
            // An error is a few bytes long; saturating keeps even an
            // impossible length from wrapping to `Ok`.
            error_len_plus_one: NonZeroUsize::MIN
                .saturating_add(error.error_len.map_or(0, NonZeroUsize::get)),
        }
    }

    /// The error, under `ruleset`, the one it was found under.
    #[inline]
    pub(crate) fn unpack(self, ruleset: &'static RulesetLabel) -> Utf8Error {
        Utf8Error {
            valid_up_to: self.valid_up_to,
            error_len: NonZeroUsize::new(self.error_len_plus_one.get() - 1),
            ruleset,
        }
    }
}

impl Utf8Error {
    /// The error at `valid_up_to`, with `error_len` as
    /// [`error_len`](Self::error_len) reports it, under `ruleset`.
    #[inline]
    pub(crate) const fn new(
        valid_up_to: usize,
        error_len: Option<u8>,
        ruleset: &'static RulesetLabel,
    ) -> Utf8Error {
        let error_len = match error_len {
            Some(len) => NonZeroUsize::new(len as usize),
            None => None,
        };
        Utf8Error {
            valid_up_to,
            error_len,
            ruleset,
        }
    }

    /// The same error in an input that has `offset` more bytes before it.
    #[inline]
    pub(crate) const fn offset_by(self, offset: usize) -> Utf8Error {
        Utf8Error {
            valid_up_to: offset + self.valid_up_to,
            ..self
        }
    }

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
            Some(len) => Some(len.get()),
            None => None,
        }
    }

    /// The [`NAME`](crate::Ruleset::NAME) of the ruleset the input was
    /// checked against: `"rfc3629"` for [`from_utf8`](crate::from_utf8),
    /// `"mutf8"` for [`mutf8::validate`](crate::mutf8::validate), a
    /// [`ruleset!`](crate::ruleset!) type's name for its own.
    ///
    /// ```
    /// let e = utf8_core::cesu8::validate("💖".as_bytes()).unwrap_err();
    /// assert_eq!(e.ruleset(), "cesu8");
    /// assert_eq!(e.to_string(), "invalid CESU-8 (cesu8) sequence of 1 bytes from index 0");
    /// ```
    #[inline]
    pub const fn ruleset(&self) -> &'static str {
        self.ruleset.name
    }
}

impl fmt::Debug for Utf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("Utf8Error");
        debug
            .field("valid_up_to", &self.valid_up_to)
            .field("error_len", &self.error_len);
        // RFC 3629's errors print as core's, which have no such field.
        if self.ruleset.name != RulesetLabel::RFC3629.name {
            debug.field("ruleset", &self.ruleset.name);
        }
        debug.finish()
    }
}

impl fmt::Display for Utf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let title = self.ruleset.title;
        match self.error_len {
            Some(len) => write!(
                f,
                "invalid {title} sequence of {len} bytes from index {}",
                self.valid_up_to
            ),
            None => write!(
                f,
                "incomplete {title} byte sequence from index {}",
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

#[cfg(test)]
mod tests {
    extern crate std;
    use std::format;
    use std::string::ToString;

    use crate::{Ruleset, cesu8, mutf8, rfc2279, wtf8};

    #[test]
    fn a_zero_byte_under_mutf8_is_named_as_modified_utf8_not_as_utf8() {
        let e = mutf8::validate(b"abcde\x00").unwrap_err();
        assert_eq!(e.ruleset(), "mutf8");
        assert_eq!(
            e.to_string(),
            "invalid modified UTF-8 (mutf8) sequence of 1 bytes from index 5"
        );
        assert_eq!(
            format!("{e:?}"),
            "Utf8Error { valid_up_to: 5, error_len: Some(1), ruleset: \"mutf8\" }"
        );
    }

    #[test]
    fn every_path_to_a_dialect_error_names_the_dialect() {
        let bytes = b"a\xED\xA0\x80";
        let streamed = {
            let mut validator = cesu8::validator();
            validator.update(bytes).and_then(|()| validator.finish())
        };
        let decoded = cesu8::decode(bytes).find_map(Result::err);
        let constant = cesu8::validate_const(bytes);
        for error in [streamed.err(), decoded, constant.err()] {
            let error = error.expect("a lead surrogate alone is incomplete CESU-8");
            assert_eq!(
                error.to_string(),
                "incomplete CESU-8 (cesu8) byte sequence from index 1"
            );
        }
        let long = [&[b'a'; 300][..], b"\xF0\x9F\x92\x96"].concat();
        assert_eq!(cesu8::validate(&long).unwrap_err().ruleset(), "cesu8");
        assert_eq!(
            wtf8::validate(b"\xFF").unwrap_err().ruleset(),
            wtf8::Wtf8::NAME
        );
        assert_eq!(
            rfc2279::validate(b"\xC0\x80").unwrap_err().ruleset(),
            "rfc2279"
        );
    }

    #[test]
    fn rfc3629_errors_print_as_cores_do_in_display_and_debug() {
        for bytes in [&b"ab\xE2\x82"[..], b"ab\xE2\x82A", b"\xFF"] {
            let ours = crate::from_utf8(bytes).unwrap_err();
            let core = core::str::from_utf8(bytes).unwrap_err();
            assert_eq!(ours.to_string(), core.to_string());
            assert_eq!(format!("{ours:?}"), format!("{core:?}"));
            assert_eq!(ours.ruleset(), "rfc3629");
        }
    }

    #[test]
    fn an_error_stays_three_words() {
        assert_eq!(
            core::mem::size_of::<super::Utf8Error>(),
            3 * core::mem::size_of::<usize>()
        );
        // No byte of it is padding, and `Ok` takes a niche: the validation
        // paths move their results as whole words (see `error_len`).
        assert_eq!(
            core::mem::size_of::<Result<(), super::Utf8Error>>(),
            3 * core::mem::size_of::<usize>()
        );
        let error = crate::from_utf8(b"\xFF").unwrap_err();
        let fields = core::mem::size_of_val(&error.valid_up_to)
            + core::mem::size_of_val(&error.error_len)
            + core::mem::size_of::<&super::RulesetLabel>();
        assert_eq!(fields, core::mem::size_of::<super::Utf8Error>());
    }

    #[test]
    fn a_packed_error_is_two_words_in_a_result_and_unpacks_to_the_same_error() {
        assert_eq!(
            core::mem::size_of::<Result<(), super::PackedError>>(),
            2 * core::mem::size_of::<usize>()
        );
        for bytes in [
            &b"ab\xE2\x82"[..],
            b"ab\xE2\x82A",
            b"\xFF",
            b"abc\xF4\x8F\xBF",
        ] {
            let error = crate::from_utf8(bytes).unwrap_err();
            let packed = super::PackedError::pack(error);
            assert_eq!(packed.unpack(error.ruleset), error);
        }
        let long = super::Utf8Error {
            valid_up_to: usize::MAX,
            error_len: core::num::NonZeroUsize::new(usize::MAX),
            ruleset: crate::from_utf8(b"\xFF").unwrap_err().ruleset,
        };
        let packed = super::PackedError::pack(long);
        assert_eq!(packed.unpack(long.ruleset).valid_up_to(), usize::MAX);
        assert!(
            packed.unpack(long.ruleset).error_len().is_some(),
            "an impossible length saturates, never wraps to `Ok`'s zero"
        );
    }

    #[test]
    fn errors_at_the_same_place_under_different_rulesets_differ() {
        let utf8 = crate::from_utf8(b"\x00\xFF").unwrap_err();
        let cesu8 = cesu8::validate(b"\x00\xFF").unwrap_err();
        assert_eq!(
            (utf8.valid_up_to(), utf8.error_len()),
            (cesu8.valid_up_to(), cesu8.error_len())
        );
        assert_ne!(utf8, cesu8);
    }
}
