//! Rulesets whose validity depends on two sequences side by side: CESU-8
//! (a lead surrogate's sequence must be followed by a trail surrogate's)
//! and WTF-8 (a lead surrogate's sequence must *not* be followed by a
//! trail surrogate's, which UTF-8 writes as one four-byte sequence).
//!
//! Neither DFA has the sequence structure the check needs: CESU-8's six-byte
//! pair puts states at two distances from the end of a sequence, and WTF-8
//! accepts after a lead surrogate without being back at its start. Each is a
//! *relaxed* ruleset with that structure (three-byte sequences that may be
//! any surrogate) cut down by one rule about two markers a fixed distance
//! apart: a *lead* pair of bytes (`ED A0-AF`) and a *trail* pair (`ED
//! B0-BF`) three bytes later. CESU-8 requires a trail exactly where a lead
//! was three bytes before (an XOR of the two markers), WTF-8 forbids one
//! there (an AND).
//!
//! Nothing of that is assumed here. [`candidates`] tries each state of the
//! minimal DFA as the *pending* state (the state after a lead's sequence):
//! merging it into the start state gives the relaxed DFA; comparing what
//! the pending state and the start state allow in their first two bytes
//! gives the trail marker and the rule; the pairs that stand a given
//! distance before the trail on every path into the pending state give the
//! lead marker. The vector check of the relaxed DFA with the markers' term
//! is then proved against the ruleset's own DFA, like any check: a wrong
//! guess fails the proof and the next candidate is tried.

use std::collections::{BTreeSet, HashMap};

use super::pairs::{NibbleSet, PairBox, live_states};
use crate::dfa::{Dfa, StateId};
use crate::tables::Tables;
use crate::{ByteClasses, MinimalDfa};

/// The longest distance from a lead marker to its trail marker tried.
const MAX_DISTANCE: usize = 6;

/// What a trail marker `distance` bytes after a lead marker means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PairRule {
    /// A trail marker stands exactly where a lead marker was `distance`
    /// bytes before: each without the other errs (CESU-8's surrogate pairs).
    Required,
    /// A trail marker where a lead marker was `distance` bytes before errs
    /// (WTF-8: a surrogate pair must be written as one four-byte sequence).
    Forbidden,
}

/// The term a check adds to the relaxed ruleset's pair check: two markers,
/// each a box of byte pairs with a table bit of its own that is not an
/// error bit, compared `distance` bytes apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// The pair of bytes that opens a pairing (`ED A0-AF`: the first two
    /// bytes of a lead surrogate).
    pub lead: PairBox,
    /// The pair the rule is about (`ED B0-BF`: a trail surrogate's).
    pub trail: PairBox,
    /// How many bytes after a lead marker the trail marker is tested.
    pub distance: usize,
    /// Required or forbidden.
    pub rule: PairRule,
}

impl Pairing {
    /// Whether a trail marker at a position errs, given whether a lead
    /// marker stood `distance` bytes before it.
    pub fn errs(&self, lead_before: bool, trail_here: bool) -> bool {
        match self.rule {
            PairRule::Required => lead_before != trail_here,
            PairRule::Forbidden => lead_before && trail_here,
        }
    }

    /// Whether a lead marker among the last `distance` positions leaves the
    /// input open: it would need a trail after the end.
    pub fn pending_lead_is_open(&self) -> bool {
        self.rule == PairRule::Required
    }
}

/// A guess at a ruleset's pairing structure, for the proof to settle.
pub(super) struct Candidate {
    /// The relaxed ruleset the check's pair tables are derived from.
    pub(super) relaxed: Tables,
    pub(super) pairing: Pairing,
}

/// Every guess the DFA offers, most likely first: each live state other
/// than the start as the pending state, each distance from 2 up.
pub(super) fn candidates(tables: &Tables) -> Vec<Candidate> {
    let mut found = Vec::new();
    for pending in live_states(tables) {
        if pending == tables.start() {
            continue;
        }
        let Some((trail, rule)) = trail_marker(tables, pending) else {
            continue;
        };
        let relaxed = merged_into_start(tables, pending);
        for distance in 2..=MAX_DISTANCE {
            if let Some(lead) = lead_marker(tables, pending, distance) {
                found.push(Candidate {
                    relaxed: relaxed.clone(),
                    pairing: Pairing {
                        lead,
                        trail,
                        distance,
                        rule,
                    },
                });
            }
        }
    }
    found
}

/// The DFA with `pending` merged into the start state: every transition
/// into it goes to the start instead, and the start also takes its
/// transitions. The subset construction makes that deterministic again.
fn merged_into_start(tables: &Tables, pending: u8) -> Tables {
    let (start, dead) = (tables.start(), tables.dead());
    let canonical = |s: u8| if s == pending { start } else { s };
    let successors = |set: &BTreeSet<u8>, byte: u8| -> BTreeSet<u8> {
        let mut next = BTreeSet::new();
        for &s in set {
            let mut from = vec![s];
            if s == start {
                from.push(pending);
            }
            for f in from {
                let t = canonical(tables.next(f, byte));
                if t != dead {
                    next.insert(t);
                }
            }
        }
        next
    };
    let accepting = |set: &BTreeSet<u8>| {
        set.iter().any(|&s| {
            tables.accepting()[s as usize] || (s == start && tables.accepting()[pending as usize])
        })
    };
    // Sets are numbered in the order found, state 0 the start (as
    // `Dfa::from_rows` requires); each is expanded in that order.
    let mut ids: HashMap<BTreeSet<u8>, StateId> = HashMap::new();
    let mut sets: Vec<BTreeSet<u8>> = Vec::new();
    let mut intern = |set: BTreeSet<u8>, sets: &mut Vec<BTreeSet<u8>>| -> StateId {
        *ids.entry(set.clone()).or_insert_with(|| {
            sets.push(set);
            (sets.len() - 1) as StateId
        })
    };
    intern(BTreeSet::from([start]), &mut sets);
    let mut rows: Vec<[StateId; 256]> = Vec::new();
    while rows.len() < sets.len() {
        let set = sets[rows.len()].clone();
        let row: [StateId; 256] =
            core::array::from_fn(|byte| intern(successors(&set, byte as u8), &mut sets));
        rows.push(row);
    }
    let accepting: Vec<bool> = sets.iter().map(accepting).collect();
    let minimal = MinimalDfa::new(&Dfa::from_rows(rows, accepting));
    let classes = ByteClasses::new(&minimal);
    Tables::new(&minimal, &classes).expect("no more states than subsets of the ruleset's")
}

/// The pairs of bytes on which `pending` and the start part in their first
/// two bytes, and what they mean: pairs that only `pending` allows, when it
/// allows nothing else, are required after a lead; pairs that only the
/// start allows, when `pending` allows nothing the start does not, are
/// forbidden after one. `None` when neither holds or the pairs are not a
/// box.
fn trail_marker(tables: &Tables, pending: u8) -> Option<(PairBox, PairRule)> {
    let dead = tables.dead();
    let alive = |from: u8, x: u8, y: u8| tables.next(tables.next(from, x), y) != dead;
    // Whether two bytes keep a state alive depends on their classes alone:
    // the pairs of classes are walked (144 for RFC 3629, not 65,536 pairs
    // of bytes, for each state a pairing is looked for at), and the bytes
    // of those that part the two states make the box.
    let classes = tables.classes();
    let mut members = vec![Vec::new(); classes.count()];
    for byte in 0..=255u8 {
        members[usize::from(classes.class(byte))].push(byte);
    }
    let mut only_pending = Vec::new();
    let mut only_start = Vec::new();
    let mut pending_allows_other = false;
    for x in classes.ids() {
        for y in classes.ids() {
            let (first, second) = (classes.representative(x), classes.representative(y));
            match (
                alive(pending, first, second),
                alive(tables.start(), first, second),
            ) {
                (true, false) => only_pending.push((x, y)),
                (false, true) => only_start.push((x, y)),
                (true, true) => pending_allows_other = true,
                (false, false) => {}
            }
        }
    }
    let bytes = |pairs: &[(u8, u8)]| -> Vec<(u8, u8)> {
        pairs
            .iter()
            .flat_map(|&(x, y)| {
                let later = &members[usize::from(y)];
                members[usize::from(x)]
                    .iter()
                    .flat_map(move |&first| later.iter().map(move |&second| (first, second)))
            })
            .collect()
    };
    if !only_pending.is_empty() && !pending_allows_other {
        Some((pair_box(&bytes(&only_pending))?, PairRule::Required))
    } else if only_pending.is_empty() && !only_start.is_empty() {
        Some((pair_box(&bytes(&only_start))?, PairRule::Forbidden))
    } else {
        None
    }
}

/// The pairs of bytes that stand where a lead marker would, `distance`
/// bytes before the trail marker, on the paths into `pending`: the trail
/// marker is the second byte after `pending`, so those are the pair ending
/// `distance - 2` bytes before the byte that enters it.
fn lead_marker(tables: &Tables, pending: u8, distance: usize) -> Option<PairBox> {
    let dead = tables.dead();
    let classes = tables.classes();
    let representatives: Vec<u8> = tables
        .classes()
        .ids()
        .map(|class| classes.representative(class))
        .collect();
    let mut pairs: BTreeSet<(u8, u8)> = BTreeSet::new();
    // Paths of `distance` bytes into `pending`; the lead pair is their first two.
    for from in live_states(tables) {
        let mut paths: Vec<(u8, Vec<u8>)> = vec![(from, Vec::new())];
        for _ in 0..distance {
            paths = paths
                .into_iter()
                .flat_map(|(s, path)| {
                    representatives.iter().filter_map(move |&b| {
                        let t = tables.next(s, b);
                        (t != dead).then(|| {
                            let mut longer = path.clone();
                            longer.push(b);
                            (t, longer)
                        })
                    })
                })
                .collect();
        }
        for (s, path) in paths {
            if s == pending {
                pairs.insert((path[0], path[1]));
            }
        }
    }
    let bytes_of = |representative: u8| {
        (0..=255u8).filter(move |&b| classes.class(b) == classes.class(representative))
    };
    let expanded: Vec<(u8, u8)> = pairs
        .iter()
        .flat_map(|&(x, y)| bytes_of(x).flat_map(move |p| bytes_of(y).map(move |c| (p, c))))
        .collect();
    pair_box(&expanded)
}

/// The box that holds exactly `pairs`, if they are one: earlier bytes ×
/// later bytes, each side high nibbles × low nibbles.
fn pair_box(pairs: &[(u8, u8)]) -> Option<PairBox> {
    let earlier: BTreeSet<u8> = pairs.iter().map(|&(p, _)| p).collect();
    let later: BTreeSet<u8> = pairs.iter().map(|&(_, c)| c).collect();
    let distinct: BTreeSet<(u8, u8)> = pairs.iter().copied().collect();
    if distinct.len() != earlier.len() * later.len() {
        return None;
    }
    let earlier = NibbleSet::of(&earlier.into_iter().collect::<Vec<_>>())?;
    let later = NibbleSet::of(&later.into_iter().collect::<Vec<_>>())?;
    Some(PairBox {
        prev_high: earlier.high,
        prev_low: earlier.low,
        cur_high: later.high,
        cur_low: later.low,
    })
}
