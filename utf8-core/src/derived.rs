//! A ruleset's derived tables as one value: what [`Ruleset::TABLES`] holds,
//! built once by [`ruleset!`](crate::ruleset!) from the `const` items that
//! `utf8_macros::dfa_tables!` emits. Every validation path reads its tables
//! from here, and the capacities the vector code was written for are named
//! here and nowhere else in this crate.
//!
//! [`Ruleset::TABLES`]: crate::Ruleset::TABLES

use crate::automaton::Automaton;

/// The most table sets the vector check combines (each is four lookups and
/// up to eight boxes of forbidden pairs).
pub const MAX_TABLE_SETS: usize = 2;

/// The most bytes the vector check looks back (shifts of 1..=5 lanes, or
/// loads that many bytes back): sequences of up to six bytes.
pub const MAX_LOOK_BACK: usize = 5;

/// The most byte ranges the forbidden-byte scan of the UTF-8 shortcut tests.
pub const MAX_FORBIDDEN_RANGES: usize = 2;

/// Everything derived for one ruleset.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Tables<Row: 'static> {
    /// The class-table automaton: the reference every fast path is held to,
    /// and what finds an exact error.
    pub automaton: Automaton,
    /// The shift DFA.
    pub shift: ShiftTables<Row>,
    /// The ruleset's own vector check.
    pub vector: VectorTables,
    /// The UTF-8 shortcut, for a ruleset without a vector check of its own.
    pub shortcut: Utf8Shortcut,
}

/// The shift DFA: `state = rows[byte] >> state` (see `utf8_spec::shift`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct ShiftTables<Row: 'static> {
    /// Whether the states fit a row; when false, `rows` is zero.
    pub available: bool,
    /// One row per byte value.
    pub rows: [Row; 256],
    /// The start state as an offset.
    pub start: Row,
    /// The dead state as an offset.
    pub dead: Row,
    /// The bits of a state that name it.
    pub field_mask: Row,
    /// Bit `o` set when the state at offset `o` accepts.
    pub accepting: Row,
}

impl<Row> Tables<Row> {
    /// Whether validation should try the UTF-8 shortcut before the
    /// ruleset's own vector check: where the own check costs more per
    /// block than the shortcut's (a pairing term, or more table sets), and
    /// runs only where the shortcut stops (CESU-8's and WTF-8's surrogates).
    pub const fn shortcut_first(&self) -> bool {
        let shortcut_sets = if self.shortcut.check.available {
            self.shortcut.check.sets
        } else {
            1
        };
        self.shortcut.available
            && self.vector.available
            && (!matches!(self.vector.pairing.rule, PairRule::None)
                || self.vector.sets > shortcut_sets)
    }
}

/// A proved vector check (see `utf8_spec::simd`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct VectorTables {
    /// Whether the check applies; when false the rest is zero.
    pub available: bool,
    /// How many of `tables` are in use.
    pub sets: usize,
    /// `[set][prev high, prev low, cur high, cur low]`.
    pub tables: [[[u8; 16]; 4]; MAX_TABLE_SETS],
    /// Whether the later byte's low-nibble lookup is needed.
    pub needs_cur_low: bool,
    /// The longest sequence, in bytes.
    pub max_sequence_len: usize,
    /// `must_continue[k - 2]`: a byte `k` back at least this needs a continuation byte.
    pub must_continue: [u8; MAX_LOOK_BACK - 1],
    /// `incomplete[k - 1]`: the input ends inside a sequence when the byte `k` before the end is at least this.
    pub incomplete: [u8; MAX_LOOK_BACK],
    /// The byte that frames the input.
    pub boundary: u8,
    /// Whether blocks of the bytes from `boundary` to `%x7F` can be skipped.
    pub ascii_skip: bool,
    /// The most bytes the check errs after the byte where the automaton dies.
    pub max_lag: usize,
    /// Whether each byte is a continuation byte.
    pub is_continuation: [bool; 256],
    /// The pairing term (CESU-8, WTF-8), if the check has one.
    pub pairing: Pairing,
}

/// A check's pairing term (see `utf8_spec::simd::Pairing`): two marker bits
/// of table set `set`, the trail's right above the lead's, compared
/// `distance` bytes apart.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// What a trail marker `distance` bytes after a lead marker means.
    pub rule: PairRule,
    /// How many bytes after a lead marker the trail marker is tested.
    pub distance: usize,
    /// The table set of both markers.
    pub set: usize,
    /// The lead marker's bit; the trail marker's is `lead_bit << 1`.
    pub lead_bit: u8,
}

/// Whether the check has a pairing term, and its rule.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairRule {
    /// No pairing term.
    None,
    /// Each lead marker needs a trail marker `distance` bytes after it, and
    /// each trail marker a lead marker before it.
    Required,
    /// A trail marker `distance` bytes after a lead marker errs.
    Forbidden,
}

impl Pairing {
    /// The term `dfa_tables!` describes as `SIMD_PAIR_RULE`,
    /// `SIMD_PAIR_DISTANCE`, `SIMD_MARKER_SET` and `SIMD_LEAD_BIT`.
    pub const fn new(rule: u8, distance: usize, set: usize, lead_bit: u8) -> Pairing {
        let rule = match rule {
            0 => PairRule::None,
            1 => PairRule::Required,
            2 => PairRule::Forbidden,
            _ => panic!("a pairing rule this crate does not know"),
        };
        assert!(
            matches!(rule, PairRule::None) || (distance >= 1 && distance <= MAX_LOOK_BACK),
            "a pairing term further apart than the vector code looks back"
        );
        assert!(set < MAX_TABLE_SETS, "a marker set the vector code lacks");
        assert!(
            lead_bit.count_ones() <= 1 && lead_bit < 0x80,
            "a lead bit with no room above it"
        );
        Pairing {
            rule,
            distance,
            set,
            lead_bit,
        }
    }
}

impl VectorTables {
    /// Whether the pair `prev cur` is the pairing term's lead marker.
    pub(crate) const fn is_lead(&self, prev: u8, cur: u8) -> bool {
        let t = &self.tables[self.pairing.set];
        let bits = t[0][(prev >> 4) as usize]
            & t[1][(prev & 15) as usize]
            & t[2][(cur >> 4) as usize]
            & t[3][(cur & 15) as usize];
        bits & self.pairing.lead_bit != 0
    }
}

/// The UTF-8 shortcut (see `utf8_spec::utf8_shortcut`): valid UTF-8 without
/// the forbidden bytes is valid under the ruleset, and leaves its automaton
/// in the start state.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Utf8Shortcut {
    /// Whether the ruleset has the shortcut.
    pub available: bool,
    /// How many of `forbidden` are in use.
    pub forbidden_count: usize,
    /// The forbidden byte ranges, `(first, last)`, inclusive.
    pub forbidden: [(u8, u8); MAX_FORBIDDEN_RANGES],
    /// The automaton of the shortcut's language: valid UTF-8 without the
    /// forbidden bytes.
    pub language: Automaton,
    /// That language's vector check, which finds where the shortcut stops
    /// in one pass.
    pub check: VectorTables,
}

/// `values` followed by `fill` up to `N` entries: the macro's arrays (its
/// own capacities, unused entries already filled) copied into this crate's.
/// A compile error (the expansion of `ruleset!` runs it in a `const`) when
/// the macro emitted more than the vector code was written for.
#[doc(hidden)]
pub const fn padded<T: Copy, const N: usize>(values: &[T], fill: T) -> [T; N] {
    assert!(
        values.len() <= N,
        "more entries than the vector code has room for"
    );
    let mut out = [fill; N];
    let mut i = 0;
    while i < values.len() {
        out[i] = values[i];
        i += 1;
    }
    out
}
