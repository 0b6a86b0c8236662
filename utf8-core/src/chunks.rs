//! An input as runs of valid sequences, each ended by the bytes that broke it.

use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;

use crate::dispatch::Rfc3629;
use crate::ruleset::Ruleset;
use crate::str_cast;

/// One run of a [`Chunks`] iterator: valid bytes, then the invalid bytes that
/// follow them (empty only for the last chunk of an input that ends validly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    valid: &'a [u8],
    invalid: &'a [u8],
    incomplete: bool,
}

impl<'a> Chunk<'a> {
    /// The valid sequences.
    pub fn valid(&self) -> &'a [u8] {
        self.valid
    }

    /// The bytes after them that no valid sequence can start with: one
    /// maximal subpart (what [`Utf8Error::error_len`](crate::Utf8Error::error_len)
    /// counts), or the incomplete sequence that ends the input.
    pub fn invalid(&self) -> &'a [u8] {
        self.invalid
    }

    /// Whether [`invalid`](Self::invalid) is the start of a sequence cut off
    /// by the end of the input (which more input could complete) rather than
    /// bytes that are invalid whatever follows.
    pub fn is_incomplete(&self) -> bool {
        self.incomplete
    }
}

/// The chunks of an input under ruleset `R`, like `core::str::Utf8Chunks`,
/// but also telling an invalid sequence from one merely cut off by the end.
///
/// ```
/// use utf8_core::{Chunks, Rfc3629};
/// let chunks: Vec<_> = Chunks::<Rfc3629>::new(b"ab\xC0cd\xE2\x82")
///     .map(|c| (c.valid(), c.invalid(), c.is_incomplete()))
///     .collect();
/// assert_eq!(chunks, [(&b"ab"[..], &b"\xC0"[..], false), (b"cd", b"\xE2\x82", true)]);
/// ```
pub struct Chunks<'a, R: Ruleset = Rfc3629> {
    bytes: &'a [u8],
    ruleset: PhantomData<R>,
}

impl<'a, R: Ruleset> Chunks<'a, R> {
    /// The chunks of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Chunks<'a, R> {
        Chunks {
            bytes,
            ruleset: PhantomData,
        }
    }
}

impl<'a, R: Ruleset> Iterator for Chunks<'a, R> {
    type Item = Chunk<'a>;

    fn next(&mut self) -> Option<Chunk<'a>> {
        if self.bytes.is_empty() {
            return None;
        }
        let rest = self.bytes;
        let chunk = match R::validate(rest) {
            Ok(()) => Chunk {
                valid: rest,
                invalid: &[],
                incomplete: false,
            },
            Err(error) => {
                let (valid, after) = rest.split_at(error.valid_up_to());
                let invalid_len = error.error_len().unwrap_or(after.len());
                Chunk {
                    valid,
                    invalid: &after[..invalid_len],
                    incomplete: error.error_len().is_none(),
                }
            }
        };
        self.bytes = &rest[chunk.valid.len() + chunk.invalid.len()..];
        Some(chunk)
    }
}

impl<R: Ruleset> FusedIterator for Chunks<'_, R> {}

impl<R: Ruleset> Clone for Chunks<'_, R> {
    fn clone(&self) -> Self {
        Chunks { ..*self }
    }
}

impl<R: Ruleset> fmt::Debug for Chunks<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chunks")
            .field("ruleset", &R::NAME)
            .field("remaining", &self.bytes.len())
            .finish()
    }
}

/// A chunk of RFC 3629 UTF-8: [`Chunk`] with the valid part as `&str`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utf8Chunk<'a> {
    chunk: Chunk<'a>,
}

impl<'a> Utf8Chunk<'a> {
    /// The valid part.
    pub fn valid(&self) -> &'a str {
        // SAFETY: a `Utf8Chunk` comes only from `Utf8Chunks`, whose
        // `Chunks<Rfc3629>` cut `valid` at the `valid_up_to` of RFC 3629's
        // validation (or took the whole input where it passed): UTF-8.
        unsafe { str_cast::validated(self.chunk.valid) }
    }

    /// See [`Chunk::invalid`].
    pub fn invalid(&self) -> &'a [u8] {
        self.chunk.invalid
    }

    /// See [`Chunk::is_incomplete`].
    pub fn is_incomplete(&self) -> bool {
        self.chunk.incomplete
    }
}

/// The chunks of an input as RFC 3629 UTF-8: what [`utf8_chunks`](crate::utf8_chunks)
/// returns, with the items of `core::str::Utf8Chunks` and
/// [`is_incomplete`](Utf8Chunk::is_incomplete) besides.
#[derive(Clone, Debug)]
pub struct Utf8Chunks<'a> {
    chunks: Chunks<'a, Rfc3629>,
}

impl<'a> Utf8Chunks<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Utf8Chunks<'a> {
        Utf8Chunks {
            chunks: Chunks::new(bytes),
        }
    }
}

impl<'a> Iterator for Utf8Chunks<'a> {
    type Item = Utf8Chunk<'a>;

    fn next(&mut self) -> Option<Utf8Chunk<'a>> {
        self.chunks.next().map(|chunk| Utf8Chunk { chunk })
    }
}

impl FusedIterator for Utf8Chunks<'_> {}
