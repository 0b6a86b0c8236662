//! Running derived tables over bytes, with std's error semantics.

use crate::error::RulesetLabel;
use crate::error::Utf8Error;

/// A view of one ruleset's derived tables (the `const` items that
/// `utf8_macros::dfa_tables!` emits), with the validation loops over them.
/// Public only for [`ruleset!`](crate::ruleset!)'s expansion.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Automaton {
    pub(crate) byte_classes: &'static [u8; 256],
    pub(crate) transitions: &'static [u8],
    pub(crate) class_count: usize,
    pub(crate) start: u8,
    pub(crate) dead: u8,
    pub(crate) accepting: &'static [bool],
    /// What this automaton's errors say about the ruleset.
    pub(crate) label: &'static RulesetLabel,
}

impl Automaton {
    /// The automaton of `dfa_tables!` output.
    pub const fn new(
        byte_classes: &'static [u8; 256],
        transitions: &'static [u8],
        class_count: usize,
        start: u8,
        dead: u8,
        accepting: &'static [bool],
        label: &'static RulesetLabel,
    ) -> Automaton {
        Automaton {
            byte_classes,
            transitions,
            class_count,
            start,
            dead,
            accepting,
            label,
        }
    }

    /// Whether the start state is the only accepting one: then every point
    /// where the input so far is valid is a point where a fresh sequence
    /// starts, and the fast paths may begin there. WTF-8 is a ruleset where
    /// it is not (after a lead surrogate the input may end, but a trail
    /// surrogate may not come next).
    pub(crate) const fn only_start_accepts(&self) -> bool {
        let mut state = 0;
        while state < self.accepting.len() {
            if self.accepting[state] && state != self.start as usize {
                return false;
            }
            state += 1;
        }
        true
    }
    #[inline(always)]
    pub(crate) const fn next(&self, state: u8, byte: u8) -> u8 {
        self.transitions
            [state as usize * self.class_count + self.byte_classes[byte as usize] as usize]
    }

    #[inline(always)]
    pub(crate) const fn is_accepting(&self, state: u8) -> bool {
        self.accepting[state as usize]
    }

    /// Whether the start state accepts and every ASCII byte leads from it back
    /// to it: then a run of ASCII at a sequence boundary can be skipped a word
    /// at a time. Computed from the tables, so it holds for any ruleset it is
    /// true of and is simply off for others.
    pub(crate) const fn ascii_loops_at_start(&self) -> bool {
        if !self.is_accepting(self.start) {
            return false;
        }
        let mut byte = 0u8;
        while byte < 0x80 {
            if self.next(self.start, byte) != self.start {
                return false;
            }
            byte += 1;
        }
        true
    }

    /// The error for a dead state reached at `index`, given the end of the last
    /// complete sequence.
    #[inline]
    pub(crate) const fn invalid(&self, valid_up_to: usize, index: usize) -> Utf8Error {
        // The bytes since the boundary were a valid prefix of a sequence; the
        // byte at `index` cannot continue it. With no such prefix the byte
        // itself cannot start one: a 1-byte error, as std counts it.
        let prefix = index - valid_up_to;
        let len = if prefix == 0 { 1 } else { prefix };
        let len = if len > u8::MAX as usize {
            u8::MAX
        } else {
            len as u8
        };
        Utf8Error::new(valid_up_to, Some(len), self.label)
    }

    /// The error for an input that ends inside a sequence starting at
    /// `valid_up_to`.
    #[inline]
    pub(crate) const fn incomplete(&self, valid_up_to: usize) -> Utf8Error {
        Utf8Error::new(valid_up_to, None, self.label)
    }

    /// Validates `bytes` one byte at a time; usable in `const` contexts.
    pub const fn validate_const(&self, bytes: &[u8]) -> Result<(), Utf8Error> {
        self.validate_from(bytes, 0, self.start)
    }

    /// Validates `bytes[from..]`, given that the automaton is in `state` at
    /// `from` and that `state` accepts (so the valid prefix reaches `from`).
    /// Errors carry positions in the whole of `bytes`. The faster paths call
    /// this from a known-good point to turn "invalid somewhere here" into
    /// std's exact error.
    pub(crate) const fn validate_from(
        &self,
        bytes: &[u8],
        from: usize,
        state: u8,
    ) -> Result<(), Utf8Error> {
        let mut state = state;
        let mut valid_up_to = from;
        let mut index = from;
        while index < bytes.len() {
            state = self.next(state, bytes[index]);
            if state == self.dead {
                return Err(self.invalid(valid_up_to, index));
            }
            index += 1;
            if self.is_accepting(state) {
                valid_up_to = index;
            }
        }
        if self.is_accepting(state) {
            Ok(())
        } else {
            Err(self.incomplete(valid_up_to))
        }
    }
}

/// Where a run of the automaton over part of a stream got to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Progress {
    /// The state after the last byte.
    pub(crate) state: u8,
    /// The end of the last complete sequence, if one ended in the part read.
    pub(crate) last_accept: Option<usize>,
}

impl Automaton {
    /// Runs `bytes` from `state`, for input that continues earlier input.
    /// `Err(index)` is the index in `bytes` of the byte that killed the
    /// automaton, with the last accepting point before it.
    #[inline]
    pub(crate) fn resume(
        &self,
        state: u8,
        bytes: &[u8],
    ) -> Result<Progress, (usize, Option<usize>)> {
        let mut state = state;
        let mut last_accept = None;
        for (index, &byte) in bytes.iter().enumerate() {
            state = self.next(state, byte);
            if state == self.dead {
                return Err((index, last_accept));
            }
            if self.is_accepting(state) {
                last_accept = Some(index + 1);
            }
        }
        Ok(Progress { state, last_accept })
    }
}
