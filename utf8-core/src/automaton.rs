//! Running derived tables over bytes, with std's error semantics.

use crate::Utf8Error;

/// A view of one ruleset's derived tables (the `const` items that
/// `utf8_macros::dfa_tables!` emits), with the validation loops over them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Automaton {
    pub(crate) byte_classes: &'static [u8; 256],
    pub(crate) transitions: &'static [u8],
    pub(crate) class_count: usize,
    pub(crate) start: u8,
    pub(crate) dead: u8,
    pub(crate) accepting: &'static [bool],
}

/// Builds an [`Automaton`] from a module holding `dfa_tables!` output.
macro_rules! automaton {
    ($tables:path) => {{
        use $tables as t;
        $crate::automaton::Automaton {
            byte_classes: &t::BYTE_CLASSES,
            transitions: &t::TRANSITIONS,
            class_count: t::CLASS_COUNT,
            start: t::START_STATE,
            dead: t::DEAD_STATE,
            accepting: &t::ACCEPTING,
        }
    }};
}
pub(crate) use automaton;

impl Automaton {
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
    pub(crate) const fn invalid(valid_up_to: usize, index: usize) -> Utf8Error {
        // The bytes since the boundary were a valid prefix of a sequence; the
        // byte at `index` cannot continue it. With no such prefix the byte
        // itself cannot start one: a 1-byte error, as std counts it.
        let prefix = index - valid_up_to;
        let len = if prefix == 0 { 1 } else { prefix };
        Utf8Error {
            valid_up_to,
            error_len: Some(if len > u8::MAX as usize {
                u8::MAX
            } else {
                len as u8
            }),
        }
    }

    /// Validates `bytes` one byte at a time; usable in `const` contexts.
    pub(crate) const fn validate_const(&self, bytes: &[u8]) -> Result<(), Utf8Error> {
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
                return Err(Self::invalid(valid_up_to, index));
            }
            index += 1;
            if self.is_accepting(state) {
                valid_up_to = index;
            }
        }
        if self.is_accepting(state) {
            Ok(())
        } else {
            Err(Utf8Error {
                valid_up_to,
                error_len: None,
            })
        }
    }
}
