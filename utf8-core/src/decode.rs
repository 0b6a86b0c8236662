//! Decoding values while the derived automaton validates.

use core::iter::FusedIterator;
use core::marker::PhantomData;

use crate::dispatch::Rfc3629;
use crate::error::Utf8Error;
use crate::ruleset::{Ruleset, Value};

/// An iterator over the values encoded in a byte string, with an error item
/// for each maximal invalid subpart (or for an incomplete sequence at the end).
///
/// The automaton of `R` decides what is valid. Values come from the UTF-8 bit
/// layout, applied to each valid sequence (the bytes between two points where
/// the automaton accepts) as `utf8_spec::values` describes: a lead byte's bits
/// after its first zero, then six bits from each continuation byte; a
/// sequence that is exactly a lead surrogate and a trail surrogate (CESU-8's
/// supplementary characters) yields the one character they stand for.
/// Items are `char` for rulesets whose values the derivation proved to be
/// scalar values, `u32` otherwise (see [`Ruleset::Value`]).
///
/// After an error item, decoding starts afresh after the
/// [`error_len`](Utf8Error::error_len) bytes it covers, as lossy decoding
/// does; errors carry positions from the start of the whole input.
///
/// ```
/// let items: Vec<_> = utf8_core::decode(b"a\xF0\x9F\x92\x96\xC0b").collect();
/// assert_eq!(items[..2], [Ok('a'), Ok('💖')]);
/// assert_eq!(items[2].unwrap_err().valid_up_to(), 5);
/// assert_eq!(items[3], Ok('b'));
/// ```
pub struct Decode<'a, R: Ruleset = Rfc3629> {
    bytes: &'a [u8],
    position: usize,
    /// While `position < sequence_end`, the units of an accepted sequence
    /// that starts at `sequence_start` are being handed out.
    sequence_start: usize,
    sequence_end: usize,
    /// The automaton's state at the end of the last accepted sequence.
    state: u8,
    ruleset: PhantomData<R>,
}

impl<'a, R: Ruleset> Decode<'a, R> {
    /// Decodes `bytes` under `R`.
    pub fn new(bytes: &'a [u8]) -> Decode<'a, R> {
        Decode {
            bytes,
            position: 0,
            sequence_start: 0,
            sequence_end: 0,
            state: R::TABLES.automaton.start,
            ruleset: PhantomData,
        }
    }

    /// The bytes not decoded yet.
    pub fn remaining(&self) -> &'a [u8] {
        &self.bytes[self.position..]
    }

    /// The next unit of the accepted sequence being handed out.
    fn unit(&mut self) -> u32 {
        let (value, len) = unit_at(self.bytes, self.position, self.sequence_end);
        if self.position == self.sequence_start
            && len == 3
            && (0xD800..=0xDBFF).contains(&value)
            && self.sequence_end - self.position == 6
        {
            let (trail, trail_len) = unit_at(self.bytes, self.position + 3, self.sequence_end);
            if trail_len == 3 && (0xDC00..=0xDFFF).contains(&trail) {
                self.position = self.sequence_end;
                return 0x10000 + ((value - 0xD800) << 10) + (trail - 0xDC00);
            }
        }
        self.position += len;
        value
    }
}

/// The value and length of the unit at `at`, which must not reach past `end`.
fn unit_at(bytes: &[u8], at: usize, end: usize) -> (u32, usize) {
    let lead = bytes[at];
    // ASCII, and any byte that starts no unit, is a unit of its own.
    let len = match lead.leading_ones() {
        n @ 2..=6 => n as usize,
        _ => return (u32::from(lead), 1),
    };
    if at + len > end || !bytes[at + 1..at + len].iter().all(|&b| b & 0xC0 == 0x80) {
        return (u32::from(lead), 1);
    }
    let mut value = u32::from(lead & (0x7F >> len));
    for &byte in &bytes[at + 1..at + len] {
        value = (value << 6) | u32::from(byte & 0x3F);
    }
    (value, len)
}

impl<R: Ruleset> Iterator for Decode<'_, R> {
    type Item = Result<R::Value, Utf8Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.position < self.sequence_end {
            return Some(Ok(R::Value::from_code_point(self.unit())));
        }
        let automaton = &R::TABLES.automaton;
        let start = self.position;
        if start >= self.bytes.len() {
            return None;
        }
        let mut state = self.state;
        let mut index = start;
        loop {
            let Some(&byte) = self.bytes.get(index) else {
                self.position = self.bytes.len();
                return Some(Err(automaton.incomplete(start)));
            };
            state = automaton.next(state, byte);
            if state == automaton.dead {
                let error = automaton.invalid(start, index);
                self.position = start + error.error_len().unwrap_or(1);
                self.state = automaton.start;
                return Some(Err(error));
            }
            index += 1;
            if automaton.is_accepting(state) {
                self.state = state;
                self.sequence_start = start;
                self.sequence_end = index;
                return Some(Ok(R::Value::from_code_point(self.unit())));
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Every item consumes at least one byte, and one item (an incomplete
        // sequence) may consume all that is left.
        let left = self.bytes.len() - self.position;
        (usize::from(left > 0), Some(left))
    }
}

impl<R: Ruleset> FusedIterator for Decode<'_, R> {}

impl<R: Ruleset> Clone for Decode<'_, R> {
    fn clone(&self) -> Self {
        Decode { ..*self }
    }
}

impl<R: Ruleset> core::fmt::Debug for Decode<'_, R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decode")
            .field("ruleset", &R::NAME)
            .field("remaining", &self.remaining().len())
            .finish()
    }
}
