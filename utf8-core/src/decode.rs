//! Decoding scalar values while the derived automaton validates.

use core::iter::FusedIterator;

use crate::Utf8Error;
use crate::automaton::Automaton;

/// An iterator over the values encoded in a byte string, with an error item
/// for each maximal invalid subpart (or for an incomplete sequence at the end).
///
/// The automaton decides what is valid; the values come from the UTF-8 bit
/// layout shared by every ruleset this iterator is offered for (a lead byte's
/// bits after its first zero, then six bits from each continuation byte).
/// After an error item, decoding resumes after the
/// [`error_len`](Utf8Error::error_len) bytes it covers, as lossy decoding does;
/// errors carry positions from the start of the whole input.
#[derive(Clone, Debug)]
pub struct Decode<'a> {
    automaton: Automaton,
    bytes: &'a [u8],
    position: usize,
}

impl<'a> Decode<'a> {
    pub(crate) fn new(automaton: Automaton, bytes: &'a [u8]) -> Decode<'a> {
        Decode {
            automaton,
            bytes,
            position: 0,
        }
    }

    /// The bytes not decoded yet.
    pub fn remaining(&self) -> &'a [u8] {
        &self.bytes[self.position..]
    }
}

impl Iterator for Decode<'_> {
    type Item = Result<u32, Utf8Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let automaton = &self.automaton;
        let sequence_start = self.position;
        if sequence_start >= self.bytes.len() {
            return None;
        }
        let mut state = automaton.start;
        let mut value = 0u32;
        let mut index = sequence_start;
        loop {
            let Some(&byte) = self.bytes.get(index) else {
                self.position = self.bytes.len();
                return Some(Err(Utf8Error {
                    valid_up_to: sequence_start,
                    error_len: None,
                }));
            };
            state = automaton.next(state, byte);
            if state == automaton.dead {
                let error = Automaton::invalid(sequence_start, index);
                self.position = sequence_start + error.error_len().unwrap_or(1);
                return Some(Err(error));
            }
            value = if index == sequence_start {
                // The automaton accepted `byte` as a lead byte, so it has at most 6 leading ones.
                u32::from(byte & (0x7F >> byte.leading_ones()))
            } else {
                (value << 6) | u32::from(byte & 0x3F)
            };
            index += 1;
            if automaton.is_accepting(state) {
                self.position = index;
                return Some(Ok(value));
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

impl FusedIterator for Decode<'_> {}
