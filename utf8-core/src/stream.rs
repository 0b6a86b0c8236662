//! Validating input that arrives in pieces.

use core::fmt;
use core::marker::PhantomData;

use crate::automaton::Progress;
use crate::dispatch::Rfc3629;
use crate::dispatch::{self, shortcut};
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;
use crate::simd::{self, BLOCK};

/// Validates a stream piece by piece, with the errors one-shot validation
/// would give for the whole stream.
///
/// - [`update`](Self::update) reports an error as soon as it is certain:
///   `valid_up_to` counts from the start of the stream, and `error_len`
///   counts the bytes of the failing sequence even when they came in
///   different pieces.
/// - A sequence cut off at the end of a piece is not an error: the next piece
///   may complete it. [`finish`](Self::finish) reports it if nothing did.
/// - After an error the validator keeps returning it.
///
/// Each piece runs on the same vector or shift-DFA path as one-shot
/// validation; only the few bytes that complete a sequence begun in the
/// previous piece are read one at a time, and a piece that is ASCII from
/// its start is passed by a loop over its blocks alone, without the vector
/// check's set-up. Modified UTF-8 runs its own
/// vector check; CESU-8 and WTF-8 take the UTF-8 shortcut as in one-shot
/// validation: a UTF-8 vector check wherever the text is also UTF-8, their
/// own vector check (with its pairing term) where it is not.
///
/// ```
/// let mut validator = utf8_core::Validator::new();
/// // "€" is E2 82 AC, split across pieces.
/// validator.update(b"price: \xE2")?;
/// validator.update(b"\x82")?;
/// validator.update(b"\xAC 5")?;
/// validator.finish()?;
///
/// let mut validator = utf8_core::Validator::new();
/// validator.update(b"abc\xE2\x82")?;
/// let e = validator.finish().unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (3, None));
/// # Ok::<(), utf8_core::Utf8Error>(())
/// ```
pub struct Validator<R: Ruleset = Rfc3629> {
    /// The automaton's state after the bytes read so far.
    state: u8,
    /// Bytes read so far.
    read: usize,
    /// The end of the last complete sequence.
    valid_up_to: usize,
    error: Option<Utf8Error>,
    /// Whether the last piece ended in 8 bytes of ASCII: then a piece that
    /// is ASCII from its start is likely, and worth
    /// [`skip_ascii`](Self::skip_ascii)'s test.
    after_ascii: bool,
    /// The tests in a row that did not pass a whole piece (at most
    /// [`ASCII_MISSES`]), and how many more pieces that ended in ASCII go
    /// without one: a wait that doubles with each miss.
    ascii_misses: u8,
    ascii_wait: u8,
    ruleset: PhantomData<R>,
}

impl Validator<Rfc3629> {
    /// A validator at the start of an RFC 3629 stream. For another ruleset
    /// `R`, `Validator::<R>::for_ruleset()` (or `R::validator()`).
    pub const fn new() -> Validator<Rfc3629> {
        Validator::for_ruleset()
    }
}

impl<R: Ruleset> Validator<R> {
    /// A validator at the start of a stream in ruleset `R`.
    pub const fn for_ruleset() -> Validator<R> {
        Validator {
            state: R::TABLES.automaton.start,
            read: 0,
            valid_up_to: 0,
            error: None,
            after_ascii: true,
            ascii_misses: 0,
            ascii_wait: 0,
            ruleset: PhantomData,
        }
    }

    /// Reads the next piece of the stream.
    pub fn update(&mut self, piece: &[u8]) -> Result<(), Utf8Error> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let automaton = &R::TABLES.automaton;
        let mut from = 0;
        // The UTF-8 shortcut also serves a ruleset whose own check costs
        // more, or cannot start afresh wherever the input so far is valid
        // (see below).
        if R::TABLES.shortcut.available
            && (!R::TABLES.vector.available
                || const { R::TABLES.shortcut_first() }
                || !const { R::TABLES.automaton.only_start_accepts() })
        {
            return self.update_by_utf8(piece);
        }
        if !const { R::TABLES.automaton.only_start_accepts() } {
            // A point where the input so far is valid is then not always a
            // point where the fast paths could start afresh (after a WTF-8
            // lead surrogate, a trail surrogate may not follow), so the
            // automaton carries its state through the whole piece.
            return self.run(piece);
        }
        let after_ascii = core::mem::replace(&mut self.after_ascii, ends_in_ascii(piece));
        from += self.back_to_start(piece)?;
        if after_ascii {
            from += self.skip_ascii(&piece[from..]);
        }
        if from == piece.len() {
            return Ok(());
        }
        // A piece usually ends inside a sequence; one-shot validation would
        // report that as an error and pay for locating it exactly. Cutting
        // the piece before its last sequence leaves the fast path input that
        // ends at a boundary, and the automaton the few bytes after it.
        let rest = &piece[from..];
        let (whole, last) = rest.split_at(last_sequence_start::<R>(rest));
        if !whole.is_empty() {
            match dispatch::validate_piece::<R>(whole) {
                Ok(()) => {
                    self.state = automaton.start;
                    self.valid_up_to = self.read + whole.len();
                    self.read += whole.len();
                    return self.run(last);
                }
                Err(error) if error.error_len().is_some() => {
                    return Err(self.fail(error.offset_by(self.read)));
                }
                Err(error) => {
                    // The piece ends inside a sequence, which starts at the end
                    // of the valid prefix, in the start state.
                    self.valid_up_to = self.read + error.valid_up_to();
                    self.read += error.valid_up_to();
                    self.state = automaton.start;
                    return self.run(&rest[error.valid_up_to()..]);
                }
            }
        }
        self.run(last)
    }

    /// Ends the stream: an error if it ends inside a sequence (or if an
    /// earlier piece was invalid).
    pub fn finish(&self) -> Result<(), Utf8Error> {
        if let Some(error) = self.error {
            return Err(error);
        }
        if R::TABLES.automaton.is_accepting(self.state) {
            Ok(())
        } else {
            Err(R::TABLES.automaton.incomplete(self.valid_up_to))
        }
    }

    /// The length of the valid prefix of the stream so far: the end of the
    /// last complete sequence.
    pub fn valid_up_to(&self) -> usize {
        self.error.map_or(self.valid_up_to, |e| e.valid_up_to)
    }

    /// The bytes read so far.
    pub fn bytes_read(&self) -> usize {
        self.read
    }

    /// Whether the bytes read so far end inside a sequence.
    pub fn is_incomplete(&self) -> bool {
        self.error.is_none() && !R::TABLES.automaton.is_accepting(self.state)
    }

    /// Passes the run of skippable bytes (ASCII) at the start of `rest`,
    /// which starts where the automaton is in its start state, in whole
    /// blocks, and returns its length: all of `rest` where it is all ASCII.
    /// The vector check would pass them as fast, but a call of it costs its
    /// set-up and its two ends at every piece, which on ASCII is most of
    /// what a 4 KiB piece costs. Called only after a piece that ended in
    /// ASCII, and after a test that stopped short of a piece's end, only
    /// again after a wait that doubles with each such miss: a miss costs a
    /// call and a mispredicted branch for nothing, and text in a Latin
    /// script ends most pieces in ASCII but has a letter beyond it in most
    /// blocks. Text without runs of ASCII pays only for the flag. The
    /// figures are in `docs/performance.md`, section "Streaming in pieces".
    fn skip_ascii(&mut self, rest: &[u8]) -> usize {
        if rest.len() < BLOCK || !R::TABLES.vector.ascii_skip {
            return 0;
        }
        if self.ascii_wait > 0 {
            self.ascii_wait -= 1;
            return 0;
        }
        debug_assert_eq!(self.state, R::TABLES.automaton.start);
        let skipped = simd::skippable_prefix_detected::<R>(rest);
        if skipped == rest.len() {
            self.ascii_misses = 0;
        } else {
            self.ascii_misses = (self.ascii_misses + 1).min(ASCII_MISSES);
            self.ascii_wait = (1 << self.ascii_misses) - 1;
        }
        self.read += skipped;
        self.valid_up_to = self.read;
        skipped
    }

    /// [`update`](Self::update) by the UTF-8 shortcut
    /// (`crate::dispatch::shortcut`): the automaton finishes what the last
    /// piece left open, until it is back in its start state, where the
    /// shortcut can take over.
    fn update_by_utf8(&mut self, piece: &[u8]) -> Result<(), Utf8Error> {
        let from = self.back_to_start(piece)?;
        if self.state != R::TABLES.automaton.start {
            // The piece ended before the sequence did.
            return Ok(());
        }
        // Cut before the last UTF-8 sequence, as `update` does: the piece
        // usually ends inside one, which the vector check would report as
        // an error and pay for locating.
        let rest = &piece[from..];
        let (whole, last) = rest.split_at(last_sequence_start::<Rfc3629>(rest));
        match shortcut::resume::<R>(whole) {
            Ok(progress) => self.record(whole.len(), Ok(progress))?,
            // `whole` starts at a sequence boundary, where the stream so far
            // is valid: its positions are the stream's, offset.
            Err(error) => return Err(self.fail(error.offset_by(self.read))),
        }
        self.run(last)
    }

    /// Finishes the sequence the last piece left open, a byte at a time,
    /// until the automaton is back at the start state or `piece` ends;
    /// returns how many bytes of `piece` that took.
    fn back_to_start(&mut self, piece: &[u8]) -> Result<usize, Utf8Error> {
        if self.state == R::TABLES.automaton.start {
            return Ok(0);
        }
        let mut from = 0;
        let vector = &R::TABLES.vector;
        if vector.available {
            // The continuation bytes at the start of the piece, as many as a
            // sequence can hold, in one run; then a byte at a time where
            // that was not the end of the sequence (a pairing term's trail).
            from = piece
                .iter()
                .take(vector.max_sequence_len)
                .position(|&byte| !vector.is_continuation[byte as usize])
                .unwrap_or(piece.len().min(vector.max_sequence_len));
            self.run(&piece[..from])?;
        }
        while self.state != R::TABLES.automaton.start && from < piece.len() {
            self.run(&piece[from..from + 1])?;
            from += 1;
        }
        Ok(from)
    }

    /// Steps the automaton over `bytes`, the continuation of the stream.
    fn run(&mut self, bytes: &[u8]) -> Result<(), Utf8Error> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.record(bytes.len(), R::TABLES.automaton.resume(self.state, bytes))
    }

    /// Takes in where a run over the next `len` bytes of the stream got to.
    fn record(
        &mut self,
        len: usize,
        progress: Result<Progress, (usize, Option<usize>)>,
    ) -> Result<(), Utf8Error> {
        match progress {
            Ok(Progress { state, last_accept }) => {
                if let Some(end) = last_accept {
                    self.valid_up_to = self.read + end;
                }
                self.state = state;
                self.read += len;
                Ok(())
            }
            Err((index, last_accept)) => {
                let valid_up_to = last_accept.map_or(self.valid_up_to, |end| self.read + end);
                Err(self.fail(R::TABLES.automaton.invalid(valid_up_to, self.read + index)))
            }
        }
    }

    fn fail(&mut self, error: Utf8Error) -> Utf8Error {
        self.error = Some(error);
        error
    }
}

/// The most misses in a row that [`Validator::skip_ascii`]'s wait counts:
/// at most 63 pieces that end in ASCII between its tests.
const ASCII_MISSES: u8 = 6;

/// Whether `piece` ends in 8 bytes of ASCII, tested as one word without a
/// branch on the bytes: a test of the next piece's first bytes instead
/// mispredicts on text without long runs of ASCII (see
/// `docs/performance.md`, section "Streaming: the ASCII test").
fn ends_in_ascii(piece: &[u8]) -> bool {
    piece
        .last_chunk::<8>()
        .is_some_and(|end| u64::from_ne_bytes(*end) & 0x8080_8080_8080_8080 == 0)
}

/// Where the last sequence of `bytes` may start if the bytes end inside
/// it: the last byte, among the final bytes a sequence can span, that is
/// not a continuation byte. The end of `bytes` where they end after a
/// whole sequence by the vector check's end test (or where the derivation
/// found no continuation bytes: the vector check was declined). Only a
/// guess that makes the common case fast — whatever the bytes, the caller's
/// result is exact.
fn last_sequence_start<R: Ruleset>(bytes: &[u8]) -> usize {
    if !R::TABLES.vector.available || !ends_inside_sequence::<R>(bytes) {
        return bytes.len();
    }
    let window = R::TABLES
        .vector
        .max_sequence_len
        .saturating_sub(1)
        .min(bytes.len());
    (bytes.len() - window..bytes.len())
        .rev()
        .find(|&i| !R::TABLES.vector.is_continuation[bytes[i] as usize])
        .unwrap_or(bytes.len())
}

/// Whether `bytes` end inside a sequence by the vector check's end test:
/// the byte `k` before the end at least `incomplete[k - 1]` (a lead that
/// needs more than `k - 1` continuation bytes), for any `k` a sequence can
/// reach back. Proved equal to the check's closing bytes for input the
/// check passes; for other input a guess like any.
fn ends_inside_sequence<R: Ruleset>(bytes: &[u8]) -> bool {
    let vector = &R::TABLES.vector;
    (1..vector.max_sequence_len)
        .take_while(|&k| k <= bytes.len())
        .any(|k| bytes[bytes.len() - k] >= vector.incomplete[k - 1])
}

impl<R: Ruleset> Default for Validator<R> {
    fn default() -> Self {
        Validator::for_ruleset()
    }
}

impl<R: Ruleset> Clone for Validator<R> {
    fn clone(&self) -> Self {
        Validator { ..*self }
    }
}

impl<R: Ruleset> fmt::Debug for Validator<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validator")
            .field("ruleset", &R::NAME)
            .field("state", &self.state)
            .field("bytes_read", &self.read)
            .field("valid_up_to", &self.valid_up_to)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}
