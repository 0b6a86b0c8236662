//! What a ruleset's automaton proves about where its strings may be cut,
//! which decides how a column is checked in one pass instead of a call per
//! row.
//!
//! Two facts, computed from the tables at compile time:
//!
//! - **The first byte marks a boundary** when the start state is the only
//!   accepting one and no byte that may follow the start state may also
//!   follow any other live state. Then, in input the automaton accepts, a
//!   position is a sequence boundary exactly when the byte there is one
//!   that may follow the start state; so the values of an offsets column,
//!   checked as one run, are each valid exactly when that run is valid and
//!   every row starts on such a byte (or at the run's end). UTF-8's
//!   continuation bytes `80`–`BF` are what no row may start with.
//! - **A separator** is a byte that leads from the start state back to it
//!   and from every other live state to the dead one. Rows copied one after
//!   another, each followed by it, form a run that is valid exactly when
//!   each row is: the run can be in no state but the start at a separator,
//!   so each row goes from the start state to it. That is how views and
//!   pages, whose rows are not next to each other, are checked in one call.
//!
//! A ruleset with neither (WTF-8: after a lead surrogate the input may end,
//! so another state accepts) is checked a row at a time.

use core::marker::PhantomData;

use crate::automaton::Automaton;
use crate::ruleset::Ruleset;

/// The facts above for one automaton.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RowRule {
    /// `starts_row[b]`: in accepted input, a position holding `b` is a
    /// boundary. Meaningful only when `first_byte_marks_boundary`.
    pub(crate) starts_row: [bool; 256],
    pub(crate) first_byte_marks_boundary: bool,
    /// The set of bytes that never start a row is exactly `80`–`BF`, so
    /// the test is a signed comparison instead of a table load.
    pub(crate) utf8_tails: bool,
    pub(crate) separator: Option<u8>,
    /// Every byte from `00` to `0C` is a separator: a view's first byte
    /// (an inline string's length) and its zero padding, so that the 16
    /// bytes of inline views, one after another, are checked as they are
    /// (`super::inline`).
    pub(crate) inline_views_separate: bool,
}

impl RowRule {
    const fn of(automaton: &Automaton) -> RowRule {
        let states = automaton.accepting.len();
        let start = automaton.start;
        let only_start = automaton.only_start_accepts() && automaton.is_accepting(start);
        let mut starts_row = [false; 256];
        let mut disjoint = true;
        let mut utf8_tails = true;
        let mut separator = None;
        let mut inline_views_separate = only_start;
        let mut byte = 0usize;
        while byte < 256 {
            let b = byte as u8;
            let after_start = automaton.next(start, b);
            let from_start = after_start != automaton.dead;
            let mut from_other = false;
            let mut state = 0usize;
            while state < states {
                let s = state as u8;
                if s != start && s != automaton.dead && automaton.next(s, b) != automaton.dead {
                    from_other = true;
                }
                state += 1;
            }
            if from_start && from_other {
                disjoint = false;
            }
            starts_row[byte] = !from_other;
            if from_other != (0x80 <= byte && byte <= 0xBF) {
                utf8_tails = false;
            }
            let separates = after_start == start && !from_other;
            if separator.is_none() && separates {
                separator = Some(b);
            }
            if byte <= 0x0C && !separates {
                inline_views_separate = false;
            }
            byte += 1;
        }
        RowRule {
            starts_row,
            first_byte_marks_boundary: only_start && disjoint,
            utf8_tails,
            separator: if only_start { separator } else { None },
            inline_views_separate,
        }
    }

    /// Whether a position holding `byte`, in accepted input, is a boundary.
    #[inline(always)]
    pub(crate) fn starts_row(&self, byte: u8) -> bool {
        if self.utf8_tails {
            starts_utf8_row(byte)
        } else {
            self.starts_row[byte as usize]
        }
    }
}

/// The lowest byte, read as an `i8`, that may start a UTF-8 row: `80`–`BF`
/// are -128 to -65, and every other byte is -64 (`C0`) or more, so one
/// signed comparison, or a signed minimum over many bytes, tests for a
/// continuation byte (the rule of a ruleset with `utf8_tails`).
pub(crate) const LOWEST_UTF8_START: i8 = -0x40;

/// [`RowRule::starts_row`] of a ruleset with `utf8_tails`.
#[inline(always)]
pub(crate) fn starts_utf8_row(byte: u8) -> bool {
    byte as i8 >= LOWEST_UTF8_START
}

/// [`RowRule`] of `R`, as a constant.
pub(crate) struct RuleOf<R>(PhantomData<R>);

impl<R: Ruleset> RuleOf<R> {
    pub(crate) const RULE: RowRule = RowRule::of(&R::TABLES.automaton);
}

#[cfg(test)]
mod tests {
    use super::{RowRule, RuleOf};
    use crate::Rfc3629;
    use crate::cesu8::Cesu8;
    use crate::mutf8::Mutf8;
    use crate::rfc2279::Rfc2279;
    use crate::wtf8::Wtf8;

    /// Whether the first byte marks a boundary, the separator, and whether
    /// inline views are checked as they lie.
    fn facts(rule: RowRule) -> (bool, Option<u8>, bool) {
        (
            rule.first_byte_marks_boundary,
            rule.separator,
            rule.inline_views_separate,
        )
    }

    /// What `column`'s module documentation says of the built-in rulesets.
    #[test]
    fn which_checks_each_built_in_ruleset_allows() {
        // UTF-8 and RFC 2279: in place, and inline views as they lie.
        assert_eq!(facts(RuleOf::<Rfc3629>::RULE), (true, Some(0x00), true));
        assert_eq!(facts(RuleOf::<Rfc2279>::RULE), (true, Some(0x00), true));
        // CESU-8's surrogate pair is one sequence whose second half starts
        // with ED, which may also start a sequence: offsets are copied.
        assert_eq!(facts(RuleOf::<Cesu8>::RULE), (false, Some(0x00), true));
        // Modified UTF-8 has no 00: views are copied, with 01 after each
        // (after `Views::validated`'s check in place, which packs them).
        assert_eq!(facts(RuleOf::<Mutf8>::RULE), (true, Some(0x01), false));
        // WTF-8 may also end after a lead surrogate: a row at a time.
        assert_eq!(facts(RuleOf::<Wtf8>::RULE), (false, None, false));
    }
}
