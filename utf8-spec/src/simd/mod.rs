//! Tables → the lookup tables of a vectorised check, in the manner of Keiser
//! and Lemire's "lookup" algorithm (*Validating UTF-8 In Less Than One
//! Instruction Per Byte*, 2021), derived from the minimal DFA and proved
//! exact before they are used.
//!
//! The vectorised check looks at every byte `c` with the byte `p` before it
//! and with the bytes 2, 3, ... positions back:
//!
//! ```text
//! error(i) = (PREV_HIGH[p >> 4] & PREV_LOW[p & 15] & CUR_HIGH[c >> 4] & CUR_LOW[c & 15])
//!            ^ (0x80 if some byte k back is >= MUST_CONTINUE[k - 2], else 0)
//! ```
//!
//! Bits 0–6 of the four nibble tables each describe a *box* of forbidden
//! pairs: a set of high nibbles × low nibbles of `p` × high nibbles × low
//! nibbles of `c`. The generator computes which pairs of adjacent bytes never
//! occur in a valid input and searches for the fewest boxes (at most seven)
//! whose union is exactly that set. Bit 7 marks a continuation byte after a
//! continuation byte; it is XORed with "a lead byte 2, 3, ... positions back
//! needs this byte to be a continuation", so it errs when the two disagree.
//! The thresholds come from each lead byte's sequence length. Input is framed
//! by a *boundary byte* (a byte that leaves the start state where it is, 0x00
//! for UTF-8): the check starts as if boundary bytes came before the input and
//! ends by checking boundary bytes after it, which catches a sequence cut
//! short.
//!
//! RFC 3629 needs no low-nibble table for `c` (it stays all ones); the
//! 31-bit legacy form needs it for `F8 88` and `FC 84`, and looks up to five
//! bytes back.
//!
//! **Pairing.** CESU-8 and WTF-8 are not sequences of independent
//! sequences: whether a surrogate's three bytes are valid depends on the
//! three before or after them. Their check is a relaxed ruleset's (any
//! surrogate allowed) with one more term: two more table bits mark a *lead*
//! pair (`ED A0-AF`) and a *trail* pair (`ED B0-BF`), which are not errors
//! themselves, and the trail bit at `i` is compared with the lead bit at
//! `i - 3` (CESU-8: they must agree; WTF-8: they must not both be set). The
//! relaxed ruleset, the markers, the distance and the rule are found from
//! the DFA (see [`Pairing`]) and proved like the rest.
//!
//! **Proof.** The check is a function of a window of the last few bytes, so
//! it is itself a finite automaton. [`SimdTables::new`] walks the product of
//! that window automaton (bytes abstracted to the classes that the tables,
//! thresholds and DFA cannot tell apart) and the minimal DFA from the start,
//! and requires in every reachable state that the check errs on a byte
//! exactly when the DFA dies on it, and that the closing boundary bytes err
//! exactly when the DFA is not accepting. That covers every input of every
//! length. A ruleset for which the tables cannot be built or the proof fails
//! is declined, with the reason.
//!
//! | stage | module | product |
//! |---|---|---|
//! | the DFA's sequence structure | `shape` | lead lengths, must-continue thresholds, boundary byte |
//! | the pairs no valid input holds | `pairs` | [`PairBox`], [`NibbleTables`] |
//! | the fewest boxes covering them | `cover` | the boxes behind the table bits |
//! | two sequences side by side | `pairing` | the relaxed ruleset, [`Pairing`] |
//! | the end of the input | `end` | the incomplete thresholds |
//! | the product-automaton proof | `prove` | product states visited, lag |
//! | why not | `declined` | [`Declined`] |

use std::fmt;

use crate::Tables;

mod cover;
mod declined;
mod end;
mod pairing;
mod pairs;
mod prove;
mod shape;

pub use declined::{Declined, Ending, ProofFailure};
pub use pairing::{PairRule, Pairing};
pub use pairs::{NibbleTables, PairBox};

use pairs::{Catch, ForbiddenPairs, NibbleSet};
use shape::Shape;

/// The bit of the first table set reserved for "continuation after continuation".
pub const CONTINUATION_BIT: u8 = 0x80;

/// The most table sets: each adds eight boxes (the first, seven) and four lookups.
pub const MAX_TABLE_SETS: usize = 2;

/// The most boxes of forbidden pairs: bits 0–6 of the first set, 0–7 of the second.
pub const MAX_BOXES: usize = 8 * MAX_TABLE_SETS - 1;

/// The derived tables of the vectorised check, proved to accept exactly the
/// DFA's language. The fields are read through accessors so that no caller
/// can change a proved value.
#[derive(Clone, PartialEq, Eq)]
pub struct SimdTables {
    sets: Vec<NibbleTables>,
    must_continue: Vec<u8>,
    max_sequence_len: usize,
    boundary: u8,
    incomplete: Vec<u8>,
    ascii_skip_from: Option<u8>,
    continuation: Vec<u8>,
    max_lag: usize,
    boxes: Vec<PairBox>,
    pairing: Option<Pairing>,
    proof_states: usize,
}

/// A pairing term's two markers as table bits: `(set, bit mask)` of the
/// lead marker, then of the trail marker.
pub type MarkerBits = [(usize, u8); 2];

/// The box index of a pairing term's lead marker, after `boxes` boxes (the
/// trail marker takes the next): the two stay in one table set, side by
/// side, so that vector code moves a lead bit onto the trail bit with one
/// addition.
fn lead_marker_index(boxes: usize) -> usize {
    if boxes + 2 <= 7 { boxes } else { boxes.max(7) }
}

/// The table set and bit that box `i` takes: bits 0-6 of the first set (bit
/// 7 is [`CONTINUATION_BIT`]), then bits 0-7 of the next.
fn set_and_bit(i: usize) -> (usize, usize) {
    if i < 7 {
        (0, i)
    } else {
        (1 + (i - 7) / 8, (i - 7) % 8)
    }
}

impl SimdTables {
    /// Derives the tables from `tables` and proves them, or declines.
    ///
    /// Bytes that are never valid are first left to be caught one byte late
    /// (fewer boxes); where that leaves an end of input that one comparison
    /// cannot test, they are caught where they stand.
    ///
    /// A DFA without the sequence structure the check needs may still be a
    /// ruleset that has it (the *relaxed* one) cut down by a rule about two
    /// markers a fixed distance apart (see [`Pairing`]); the guesses at that
    /// are tried in turn, each gated by the proof against `tables`.
    pub fn new(tables: &Tables) -> Result<SimdTables, Declined> {
        match SimdTables::derive_catching(tables, tables, None) {
            Err(
                declined @ (Declined::AcceptingOutsideStart
                | Declined::MixedDistancesToEnd { .. }
                | Declined::NoFixedDistanceToEnd),
            ) => pairing::candidates(tables)
                .into_iter()
                .find_map(|c| SimdTables::derive_catching(tables, &c.relaxed, Some(c.pairing)).ok())
                .ok_or(declined),
            derived => derived,
        }
    }

    fn derive_catching(
        tables: &Tables,
        structure: &Tables,
        pairing: Option<Pairing>,
    ) -> Result<SimdTables, Declined> {
        match SimdTables::derive(tables, structure, pairing, Catch::Late) {
            Err(Declined::OpenEndNotFromOneValueUp { .. }) => {
                SimdTables::derive(tables, structure, pairing, Catch::AsciiWhereItStands)
            }
            derived => derived,
        }
    }

    /// The check of `structure`'s pairs (with `pairing`'s term, if any),
    /// proved against `tables`.
    fn derive(
        tables: &Tables,
        structure: &Tables,
        pairing: Option<Pairing>,
        catch: Catch,
    ) -> Result<SimdTables, Declined> {
        let shape = Shape::new(structure)?;
        let markers = if pairing.is_some() { 2 } else { 0 };
        let boxes = cover::cover(
            &ForbiddenPairs::of(structure, shape.boundary, catch),
            MAX_BOXES - markers,
        )?;
        let continuation =
            NibbleSet::of(&shape.continuation).ok_or(Declined::ContinuationNotNibbleProduct)?;
        let continuation_box = PairBox {
            prev_high: continuation.high,
            prev_low: continuation.low,
            cur_high: continuation.high,
            cur_low: continuation.low,
        };
        let bits_used = match pairing {
            Some(_) => lead_marker_index(boxes.len()) + 2,
            None => boxes.len(),
        };
        let mut sets = vec![NibbleTables::default(); (bits_used + 1).div_ceil(8)];
        sets[0].set(&continuation_box, CONTINUATION_BIT);
        for (i, b) in boxes.iter().enumerate() {
            let (set, bit) = set_and_bit(i);
            sets[set].set(b, 1 << bit);
        }
        if let Some(p) = &pairing {
            for (i, marker) in [p.lead, p.trail].iter().enumerate() {
                let (set, bit) = set_and_bit(lead_marker_index(boxes.len()) + i);
                sets[set].set(marker, 1 << bit);
            }
        }
        for set in sets.iter_mut() {
            // Bits no box uses stay set in the later byte's low-nibble table, so
            // that a ruleset that needs no low-nibble distinction gets all ones
            // there (and the lookup can be skipped).
            let used = set.prev_high.iter().fold(0u8, |a, &b| a | b);
            for entry in set.cur_low.iter_mut() {
                *entry |= !used;
            }
        }
        let mut simd = SimdTables {
            sets,
            must_continue: shape.must_continue,
            max_sequence_len: shape.max_len,
            boundary: shape.boundary,
            incomplete: Vec::new(),
            ascii_skip_from: None,
            continuation: shape.continuation,
            max_lag: 0,
            boxes,
            pairing,
            proof_states: 0,
        };
        if (0..=255u8).any(|b| simd.is_lead(b, simd.boundary)) {
            return Err(Declined::LeadMarkerOnBoundary);
        }
        simd.incomplete = end::incomplete_thresholds(&simd)?;
        simd.ascii_skip_from = ascii_skip_from(tables, &simd);
        let proof = prove::prove(tables, &simd)?;
        (simd.proof_states, simd.max_lag) = (proof.states, proof.max_lag);
        Ok(simd)
    }

    /// One or two sets of tables; a pair errs when any set gives it a bit
    /// (after the continuation XOR on the first set's bit 7).
    pub fn sets(&self) -> &[NibbleTables] {
        &self.sets
    }

    /// `must_continue()[k - 2]`: a byte `k` positions back that is at least
    /// this is a lead byte whose sequence needs the current byte (k = 2, 3,
    /// ..., longest sequence - 1).
    pub fn must_continue(&self) -> &[u8] {
        &self.must_continue
    }

    /// The longest sequence, in bytes.
    pub fn max_sequence_len(&self) -> usize {
        self.max_sequence_len
    }

    /// The byte that frames the input on both sides.
    pub fn boundary(&self) -> u8 {
        self.boundary
    }

    /// `incomplete()[k - 1]`: the input ends inside a sequence (or on a byte
    /// that can never be valid) exactly when, for some k, the byte k
    /// positions before the end is at least this. Proved equal to the
    /// closing check, so that vector code can test the end of a block in one
    /// comparison.
    pub fn incomplete(&self) -> &[u8] {
        &self.incomplete
    }

    /// Whether every byte of `%x00-7F` looks to the check and to the DFA
    /// exactly like the boundary byte, so that a block of them can be skipped
    /// after testing the end of the block before it.
    pub fn ascii_is_boundary(&self) -> bool {
        self.ascii_skip_from == Some(0)
    }

    /// The lowest byte `t` such that every byte of `t..=%x7F` looks to the
    /// check and to the DFA exactly like the boundary byte: a block of those
    /// bytes can be skipped after testing the end of the block before it,
    /// and vector code tests for one with a signed minimum (`%x00` for
    /// RFC 3629; `%x01` for modified UTF-8, whose `00` is invalid; `%x20`
    /// for XML 1.0's `Char`). `None` when `%x7F` itself does not.
    pub fn ascii_skip_from(&self) -> Option<u8> {
        self.ascii_skip_from
    }

    /// The continuation bytes.
    pub fn continuation(&self) -> &[u8] {
        &self.continuation
    }

    /// The most bytes the check reports an invalid input after the byte on
    /// which the DFA dies (the closing boundary bytes included): an exact
    /// error needs the DFA to restart at most this far, plus a sequence,
    /// before the block where the check erred.
    pub fn max_lag(&self) -> usize {
        self.max_lag
    }

    /// What each of bits 0.. describes.
    pub fn boxes(&self) -> &[PairBox] {
        &self.boxes
    }

    /// Product states the proof visited.
    pub fn proof_states(&self) -> usize {
        self.proof_states
    }

    /// Whether byte `cur` after `prev` errs, given whether a lead byte further
    /// back needs `cur` to be a continuation byte.
    ///
    /// A pairing term's marker bits are not error bits: they are left out
    /// here and compared by [`SimdTables::pair_errs`].
    pub fn errs(&self, prev: u8, cur: u8, must_continue: bool) -> bool {
        let must = if must_continue { CONTINUATION_BIT } else { 0 };
        self.sets.iter().enumerate().any(|(i, set)| {
            let bits = set.bits(prev, cur) & self.error_mask(i);
            (if i == 0 { bits ^ must } else { bits }) != 0
        })
    }

    /// The bits of table set `set` that are error bits: all but a pairing
    /// term's markers.
    pub fn error_mask(&self, set: usize) -> u8 {
        match self.marker_bits() {
            Some(markers) => markers
                .iter()
                .filter(|&&(s, _)| s == set)
                .fold(0xFF, |mask, &(_, bit)| mask & !bit),
            None => 0xFF,
        }
    }

    /// The pairing term, for a ruleset whose check needs one.
    pub fn pairing(&self) -> Option<&Pairing> {
        self.pairing.as_ref()
    }

    /// Where the pairing term's markers sit in the tables.
    pub fn marker_bits(&self) -> Option<MarkerBits> {
        self.pairing.as_ref().map(|_| {
            let bit = |i: usize| {
                let (set, bit) = set_and_bit(lead_marker_index(self.boxes.len()) + i);
                (set, 1u8 << bit)
            };
            [bit(0), bit(1)]
        })
    }

    /// Whether the pair `prev cur` is a lead marker (`lead`) or a trail marker.
    fn marks(&self, prev: u8, cur: u8, lead: bool) -> bool {
        self.marker_bits().is_some_and(|bits| {
            let (set, bit) = bits[usize::from(!lead)];
            self.sets[set].bits(prev, cur) & bit != 0
        })
    }

    /// Whether the pairing term errs at a position whose pair is `prev
    /// cur`, given whether a lead marker stood the term's distance before.
    pub fn pair_errs(&self, lead_before: bool, prev: u8, cur: u8) -> bool {
        self.pairing
            .as_ref()
            .is_some_and(|p| p.errs(lead_before, self.marks(prev, cur, false)))
    }

    /// Whether the pair `prev cur` is a lead marker of the pairing term.
    pub fn is_lead(&self, prev: u8, cur: u8) -> bool {
        self.marks(prev, cur, true)
    }

    /// How many boundary bytes close the input: enough for every sequence
    /// and for a pending lead marker's trail.
    pub fn closing_frame(&self) -> usize {
        let frame = self.max_sequence_len - 1;
        self.pairing
            .as_ref()
            .map_or(frame, |p| frame.max(p.distance))
    }

    /// Whether the low-nibble table of the later byte is needed.
    pub fn needs_cur_low(&self) -> bool {
        self.sets.iter().any(|set| set.cur_low != [0xFF; 16])
    }

    /// The check on a whole input, the scalar way: framed by boundary bytes,
    /// true when no position errs. Vector code computes the same thing 16 or
    /// 32 bytes at a time.
    pub fn check(&self, input: &[u8]) -> bool {
        let frame = self.max_sequence_len - 1;
        let before = self.closing_frame() + 1;
        let mut framed = vec![self.boundary; before];
        framed.extend_from_slice(input);
        framed.extend(std::iter::repeat_n(self.boundary, self.closing_frame()));
        let lead_at = |i: usize| self.is_lead(framed[i - 1], framed[i]);
        (before..framed.len()).all(|i| {
            let must = (2..=frame).any(|k| framed[i - k] >= self.must_continue[k - 2]);
            let lead_before = self
                .pairing
                .as_ref()
                .is_some_and(|p| lead_at(i - p.distance));
            !self.errs(framed[i - 1], framed[i], must)
                && !self.pair_errs(lead_before, framed[i - 1], framed[i])
        })
    }
}

/// The lowest byte from which every byte up to `%x7F` gets the boundary
/// byte's verdicts everywhere. Equal verdicts, not equal bits: a box may
/// flag a pair that another box flags too.
fn ascii_skip_from(tables: &Tables, simd: &SimdTables) -> Option<u8> {
    let boundary = simd.boundary;
    let looks_like_boundary = |b: u8| {
        tables.classes().class(b) == tables.classes().class(boundary)
            && (0..=255u8).all(|c| {
                simd.is_lead(b, c) == simd.is_lead(boundary, c)
                    && simd.is_lead(c, b) == simd.is_lead(c, boundary)
                    && simd.marks(b, c, false) == simd.marks(boundary, c, false)
                    && simd.marks(c, b, false) == simd.marks(c, boundary, false)
            })
            && simd
                .must_continue
                .iter()
                .chain(&simd.incomplete)
                .all(|&t| (b >= t) == (boundary >= t))
            && [false, true].into_iter().all(|must| {
                (0..=255u8).all(|c| {
                    simd.errs(b, c, must) == simd.errs(boundary, c, must)
                        && simd.errs(c, b, must) == simd.errs(c, boundary, must)
                })
            })
    };
    let mut from = None;
    for b in (0..0x80u8).rev() {
        if !looks_like_boundary(b) {
            break;
        }
        from = Some(b);
    }
    from
}

impl fmt::Debug for SimdTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "SimdTables {{ longest sequence: {}, boundary: %x{:02X}, ASCII skippable: {}, proof: {} product states, lag: {} }}",
            self.max_sequence_len,
            self.boundary,
            match self.ascii_skip_from {
                Some(0) => "true".to_string(),
                Some(t) => format!("%x{t:02X}-7F"),
                None => "false".to_string(),
            },
            self.proof_states,
            self.max_lag
        )?;
        for (i, b) in self.boxes.iter().enumerate() {
            let (set, bit) = set_and_bit(i);
            writeln!(f, "  set {set}, bit {bit}: {b:?}")?;
        }
        if let (Some(p), Some([(lead_set, lead_bit), (trail_set, trail_bit)])) =
            (&self.pairing, self.marker_bits())
        {
            let rule = match p.rule {
                PairRule::Required => "required exactly",
                PairRule::Forbidden => "forbidden",
            };
            writeln!(
                f,
                "  set {lead_set}, bit {}: lead marker {:?}",
                lead_bit.trailing_zeros(),
                p.lead
            )?;
            writeln!(
                f,
                "  set {trail_set}, bit {}: trail marker {:?}, {rule} {} bytes after a lead marker",
                trail_bit.trailing_zeros(),
                p.trail,
                p.distance
            )?;
        }
        writeln!(
            f,
            "  first set, bit 7: continuation then continuation, XOR must-continue"
        )?;
        for (i, t) in self.must_continue.iter().enumerate() {
            writeln!(f, "  must continue {} back: %x{t:02X}-FF", i + 2)?;
        }
        for (i, t) in self.incomplete.iter().enumerate() {
            writeln!(f, "  incomplete {} before the end: %x{t:02X}-FF", i + 1)?;
        }
        let hex = |t: &[u8; 16]| {
            t.iter()
                .map(|b| format!("{b:02X}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        for (i, set) in self.sets.iter().enumerate() {
            writeln!(f, "  set {i} prev high: {}", hex(&set.prev_high))?;
            writeln!(f, "  set {i} prev low:  {}", hex(&set.prev_low))?;
            writeln!(f, "  set {i} cur high:  {}", hex(&set.cur_high))?;
            writeln!(f, "  set {i} cur low:   {}", hex(&set.cur_low))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ByteRange, rulesets};

    fn simd(ruleset: &rulesets::Ruleset) -> SimdTables {
        let d = ruleset.derive().unwrap();
        SimdTables::new(d.tables()).unwrap_or_else(|e| panic!("{}: {e}", ruleset.name))
    }

    #[test]
    fn rfc3629_gets_the_check_without_the_low_nibble_of_the_later_byte() {
        let s = simd(&rulesets::RFC3629);
        assert!(!s.needs_cur_low(), "{s:?}");
        assert_eq!(s.max_sequence_len(), 4);
        assert_eq!(s.must_continue(), [0xE0, 0xF0]);
        assert_eq!(s.boundary(), 0x00);
        // Keiser and Lemire's is_incomplete: the last byte > BF, the one before > DF, then > EF.
        assert_eq!(s.incomplete(), [0xC0, 0xE0, 0xF0]);
        assert!(s.ascii_is_boundary());
        assert_eq!(s.continuation(), (0x80..=0xBF).collect::<Vec<u8>>());
        // F5 is only caught as the earlier byte of the next pair: one byte late.
        assert_eq!(s.max_lag(), 1);
    }

    #[test]
    fn legacy31_gets_the_check_with_the_low_nibble_of_the_later_byte() {
        let s = simd(&rulesets::LEGACY31);
        assert!(s.needs_cur_low(), "{s:?}");
        assert_eq!(s.max_sequence_len(), 6);
        assert_eq!(s.must_continue(), [0xE0, 0xF0, 0xF8, 0xFC]);
        assert_eq!(s.incomplete(), [0xC0, 0xE0, 0xF0, 0xF8, 0xFC]);
        assert!(s.ascii_is_boundary());
    }

    #[test]
    fn every_builtin_ruleset_gets_a_check() {
        let declined: Vec<(&str, Declined)> = rulesets::BUILTIN
            .iter()
            .filter_map(|r| {
                let d = r.derive().unwrap();
                SimdTables::new(d.tables()).err().map(|why| (r.name, why))
            })
            .collect();
        assert_eq!(declined, [], "{declined:?}");
    }

    #[test]
    fn the_pairing_search_guesses_only_for_a_dfa_of_few_states() {
        // The fuzzer's grammar: a case-insensitive literal whose DFA is a
        // chain of 80 states, a trail and a lead marker at most of them.
        let abnf = format!("AX = \"  {} \"\n", "S".repeat(75));
        let d = crate::Derivation::new(&abnf, "AX").unwrap();
        assert!(d.tables().state_count() > pairing::MAX_STATES);
        assert_eq!(pairing::candidates(d.tables()).count(), 0);
        // Below the bound, the same grammar's guesses are made.
        let abnf = format!("AX = \"  {} \"\n", "S".repeat(20));
        let d = crate::Derivation::new(&abnf, "AX").unwrap();
        assert!(d.tables().state_count() <= pairing::MAX_STATES);
        assert!(pairing::candidates(d.tables()).count() > 0);
        let cesu8 = rulesets::CESU8.derive().unwrap();
        assert!(cesu8.tables().state_count() <= pairing::MAX_STATES);
    }

    #[test]
    fn cesu8_gets_a_check_whose_pairing_term_requires_a_trail_after_each_lead() {
        let s = simd(&rulesets::CESU8);
        let p = *s.pairing().expect("CESU-8 needs a pairing term");
        assert_eq!(p.rule, PairRule::Required);
        assert_eq!(p.distance, 3);
        assert_eq!(format!("{:?}", p.lead), "%xED then %xA0-AF");
        assert_eq!(format!("{:?}", p.trail), "%xED then %xB0-BF");
        // The relaxed ruleset: sequences of up to three bytes, any surrogate.
        assert_eq!(s.max_sequence_len(), 3);
        assert_eq!(s.sets().len(), 1, "{s:?}");
        assert!(s.ascii_is_boundary());
        let [(lead_set, lead_bit), (trail_set, trail_bit)] = s.marker_bits().unwrap();
        assert_eq!((lead_set, trail_set), (0, 0));
        assert_eq!(trail_bit, lead_bit << 1, "side by side for the vector code");
        assert_eq!(s.error_mask(0), !(lead_bit | trail_bit));
        // U+10400 as a surrogate pair.
        let pair = [0xED, 0xA0, 0x81, 0xED, 0xB0, 0x80];
        assert!(s.check(&pair));
        assert!(s.check(b"a\xED\xA0\x81\xED\xB0\x80\xED\x9F\xBF"));
        assert!(!s.check(&pair[..3]), "a lead left pending at the end");
        assert!(!s.check(&pair[3..]), "a trail without its lead");
        assert!(!s.check(b"\xED\xA0\x81a\xED\xB0\x80"), "a pair broken up");
        assert!(!s.check(b"\xED\xA0\x81\xED\xA0\x81"), "two leads");
        assert!(!s.check("😀".as_bytes()));
    }

    #[test]
    fn wtf8_gets_a_check_whose_pairing_term_forbids_a_trail_after_a_lead() {
        let s = simd(&rulesets::WTF8);
        let p = *s.pairing().expect("WTF-8 needs a pairing term");
        assert_eq!(p.rule, PairRule::Forbidden);
        assert_eq!(p.distance, 3);
        assert_eq!(format!("{:?}", p.lead), "%xED then %xA0-AF");
        assert_eq!(format!("{:?}", p.trail), "%xED then %xB0-BF");
        assert_eq!(s.max_sequence_len(), 4);
        let [(lead_set, lead_bit), (trail_set, trail_bit)] = s.marker_bits().unwrap();
        assert_eq!(lead_set, trail_set);
        assert_eq!(trail_bit, lead_bit << 1);
        assert!(s.check(b"\xED\xA0\x81"), "a lone lead, even at the end");
        assert!(s.check(b"\xED\xB0\x80\xED\xA0\x81"), "a trail, then a lead");
        assert!(s.check("😀".as_bytes()));
        assert!(
            !s.check(b"\xED\xA0\x81\xED\xB0\x80"),
            "a pair UTF-8 writes in four bytes"
        );
    }

    #[test]
    fn a_wrong_pairing_term_fails_the_proof() {
        let d = rulesets::CESU8.derive().unwrap();
        let s = SimdTables::new(d.tables()).unwrap();
        let mut flipped = s.clone();
        flipped.pairing.as_mut().unwrap().rule = PairRule::Forbidden;
        assert!(prove::prove(d.tables(), &flipped).is_err());
        let mut nearer = s.clone();
        nearer.pairing.as_mut().unwrap().distance = 2;
        assert!(prove::prove(d.tables(), &nearer).is_err());
        let mut without = s;
        without.pairing = None;
        assert!(prove::prove(d.tables(), &without).is_err());
    }

    #[test]
    fn a_ruleset_that_no_relaxation_fits_is_still_declined_with_its_reason() {
        // A loop inside a sequence: no state is a fixed distance from its end.
        let d = crate::Derivation::new("s = *( %x00-7F / %xC2 *%x80-BF %x7F )\n", "s").unwrap();
        let e = SimdTables::new(d.tables()).unwrap_err();
        assert!(
            matches!(
                e,
                Declined::NoFixedDistanceToEnd | Declined::MixedDistancesToEnd { .. }
            ),
            "{e}"
        );
    }

    #[test]
    fn scalar_check_agrees_with_the_dfa_on_long_strings_of_whole_sequences() {
        // Pieces that meet in every order: ASCII, the ends of each sequence
        // length, surrogates of both halves, four-byte forms, stray bytes.
        let pieces: [&[u8]; 14] = [
            b"a",
            b"\x00",
            b"\xC0\x80",
            b"\xC3\xA9",
            b"\xE2\x82\xAC",
            b"\xED\xA0\x81",
            b"\xED\xAF\xBF",
            b"\xED\xB0\x80",
            b"\xED\xBF\xBF",
            b"\xF0\x9F\x98\x80",
            b"\x80",
            b"\xED",
            b"\xF8\x88\x80\x80\x80",
            b"\xFF",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for ruleset in rulesets::BUILTIN {
            let d = ruleset.derive().unwrap();
            let s = SimdTables::new(d.tables()).unwrap();
            let mut input = Vec::new();
            for _ in 0..20_000 {
                input.clear();
                for _ in 0..next() % 7 {
                    input.extend_from_slice(pieces[(next() % 14) as usize]);
                }
                assert_eq!(
                    s.check(&input),
                    d.tables().accepts(&input),
                    "{} {input:02X?}",
                    ruleset.name
                );
            }
        }
    }

    #[test]
    fn mutf8_gets_a_check_that_catches_nul_where_it_stands_and_skips_from_01() {
        let s = simd(&rulesets::MUTF8);
        // `C0 80` is the one two-byte form of NUL, `C1` never starts one: the
        // later byte's low nibble tells `80` from the rest.
        assert!(s.needs_cur_low(), "{s:?}");
        assert_eq!(s.sets().len(), 1, "{s:?}");
        assert_eq!(s.max_sequence_len(), 3);
        assert_eq!(s.boundary(), 0x01);
        // A trailing `00` is caught where it stands, so the end is one
        // comparison again.
        assert_eq!(s.incomplete(), [0xC0, 0xE0]);
        assert_eq!(s.ascii_skip_from(), Some(0x01));
        assert!(!s.ascii_is_boundary());
        assert!(s.check(b"a\xC0\x80b\xED\xA0\x80"));
        assert!(!s.check(b"a\x00b"));
        assert!(!s.check(b"\x00"));
    }

    #[test]
    fn a_shortcut_language_gets_a_check_of_its_own() {
        // Valid UTF-8 without CESU-8's forbidden bytes: three-byte
        // sequences at most, one pass where the shortcut took two.
        let utf8 = rulesets::RFC3629.derive().unwrap();
        let cesu8 = rulesets::CESU8.derive().unwrap();
        let shortcut =
            crate::utf8_shortcut::Utf8Shortcut::find(cesu8.tables(), utf8.tables()).unwrap();
        let language = shortcut.language(utf8.tables());
        let s = SimdTables::new(&language).unwrap();
        assert_eq!(s.max_sequence_len(), 3);
        assert_eq!(s.sets().len(), 1);
        assert!(!s.needs_cur_low());
        assert!(s.ascii_is_boundary());
        assert!(s.check("é€".as_bytes()));
        assert!(!s.check("😀".as_bytes()));
    }

    #[test]
    fn the_ascii_skip_starts_where_every_byte_up_to_7f_reads_like_the_boundary() {
        // XML 1.0's Char: tab, newline and carriage return, then %x20 up.
        let abnf = "text = *( %x09 / %x0A / %x0D / %x20-7F / %xC2-DF cont / %xE0-EF cont cont )\ncont = %x80-BF\n";
        let d = crate::Derivation::new(abnf, "text").unwrap();
        let s = SimdTables::new(d.tables()).unwrap();
        assert_eq!(s.boundary(), 0x09);
        assert_eq!(s.ascii_skip_from(), Some(0x20));
    }

    #[test]
    fn scalar_check_agrees_with_the_dfa_on_short_strings() {
        for ruleset in rulesets::BUILTIN {
            let d = ruleset.derive().unwrap();
            let Ok(s) = SimdTables::new(d.tables()) else {
                continue;
            };
            // Every string of up to 3 bytes over one byte per class plus class edges.
            let mut alphabet: Vec<u8> = Vec::new();
            for class in d.tables().classes().ids() {
                let ranges = d.classes().ranges(class);
                alphabet.extend(ranges.iter().flat_map(|r: &ByteRange| [r.start(), r.end()]));
            }
            alphabet.sort_unstable();
            alphabet.dedup();
            let mut input = Vec::new();
            for len in 0..=3usize {
                let total = alphabet.len().pow(len as u32);
                for mut n in 0..total {
                    input.clear();
                    for _ in 0..len {
                        input.push(alphabet[n % alphabet.len()]);
                        n /= alphabet.len();
                    }
                    assert_eq!(
                        s.check(&input),
                        d.tables().accepts(&input),
                        "{} {input:02X?}",
                        ruleset.name
                    );
                }
            }
        }
    }

    #[test]
    fn a_broken_table_fails_the_proof() {
        let d = rulesets::RFC3629.derive().unwrap();
        let mut s = SimdTables::new(d.tables()).unwrap();
        // Forget one must-continue threshold: E0-EF leads no longer demand their third byte.
        s.must_continue[0] = 0xFF;
        assert!(prove::prove(d.tables(), &s).is_err());
        let mut s = SimdTables::new(d.tables()).unwrap();
        s.incomplete[0] = 0xE0; // a trailing C2 no longer counts as open
        assert!(prove::prove(d.tables(), &s).is_err());
        let mut s = SimdTables::new(d.tables()).unwrap();
        s.sets[0].cur_high[0x9] = 0; // 9x after anything passes the pair check
        let e = prove::prove(d.tables(), &s).err().expect("a broken table");
        assert!(matches!(e, Declined::ProofFailed(_)), "{e}");
    }

    #[test]
    fn a_ruleset_of_single_bytes_is_declined() {
        let d = crate::Derivation::new("s = *%x00-7F\n", "s").unwrap();
        let e = SimdTables::new(d.tables()).unwrap_err();
        assert_eq!(e, Declined::OnlySingleBytes);
    }
}
