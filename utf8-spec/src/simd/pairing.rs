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

/// The most states a DFA may have for its pairing structure to be looked
/// for. Each guess costs a subset construction and a minimization of the
/// DFA, one a state: CESU-8 (9 states) and WTF-8 (12) take a few, but a
/// grammar of a long literal (80 states, a chain) took 0.28 s of a release
/// build to be refused, and 24 s in the fuzzer's instrumented build, which
/// emits its tables in three languages. Past this bound the check is
/// declined for the reason the plain check gave, as any ruleset it cannot
/// prove is.
pub(super) const MAX_STATES: usize = 32;

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
/// than the start as the pending state, each distance from 2 up. Made as
/// they are tried, so that the search stops at the first the proof takes;
/// the relaxed DFA, the costly part of a guess, only for a pending state
/// that has a trail marker and a lead marker.
///
/// The work is polynomial in the states and classes (a hostile grammar
/// reaches the DFA's limits): each marker is found from sets of states,
/// not paths, and a merge whose subsets outnumber the ruleset's states is
/// no relaxed ruleset of the kind looked for, and is given up. None past
/// [`MAX_STATES`].
pub(super) fn candidates(tables: &Tables) -> impl Iterator<Item = Candidate> + '_ {
    let paths = Paths::new(tables);
    let pendings: Vec<u8> = match tables.state_count() <= MAX_STATES {
        true => paths.live.clone(),
        false => Vec::new(),
    };
    pendings
        .into_iter()
        .filter(move |&pending| pending != tables.start())
        .flat_map(move |pending| {
            let guesses = trail_marker(tables, pending).and_then(|(trail, rule)| {
                let leads = paths.lead_markers(pending);
                if leads.is_empty() {
                    return None;
                }
                let relaxed = merged_into_start(tables, pending)?;
                Some(leads.into_iter().map(move |(distance, lead)| Candidate {
                    relaxed: relaxed.clone(),
                    pairing: Pairing {
                        lead,
                        trail,
                        distance,
                        rule,
                    },
                }))
            });
            guesses.into_iter().flatten()
        })
}

/// The DFA with `pending` merged into the start state: every transition
/// into it goes to the start instead, and the start also takes its
/// transitions. The subset construction makes that deterministic again;
/// `None` once it finds more subsets than the ruleset has states (CESU-8's
/// and WTF-8's relaxed rulesets have fewer). A set's successors depend on a
/// byte's class alone, so they are found once a class.
fn merged_into_start(tables: &Tables, pending: u8) -> Option<Tables> {
    let (start, dead) = (tables.start(), tables.dead());
    let canonical = |s: u8| if s == pending { start } else { s };
    let successors = |set: &BTreeSet<u8>, byte: u8| -> BTreeSet<u8> {
        let mut next = BTreeSet::new();
        for &s in set {
            let merged = (s == start).then_some(pending);
            for f in core::iter::once(s).chain(merged) {
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
    let classes = tables.classes();
    let mut rows: Vec<[StateId; 256]> = Vec::new();
    while rows.len() < sets.len() {
        if sets.len() > tables.state_count() {
            return None;
        }
        let set = sets[rows.len()].clone();
        let by_class: Vec<StateId> = classes
            .ids()
            .map(|class| intern(successors(&set, classes.representative(class)), &mut sets))
            .collect();
        let row: [StateId; 256] =
            core::array::from_fn(|byte| by_class[usize::from(classes.class(byte as u8))]);
        rows.push(row);
    }
    let accepting: Vec<bool> = sets.iter().map(accepting).collect();
    let minimal = MinimalDfa::new(&Dfa::from_rows(rows, accepting));
    let classes = ByteClasses::new(&minimal);
    Some(Tables::new(&minimal, &classes).expect("no more states than subsets of the ruleset's"))
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

/// What the lead markers are found from: the live states, each class's
/// bytes, and for each live state the classes that enter it from a live
/// state (the first byte of a lead pair, the pair's second entering from
/// there).
struct Paths<'a> {
    tables: &'a Tables,
    live: Vec<u8>,
    members: Vec<Vec<u8>>,
    entered_by: Vec<BTreeSet<u8>>,
}

impl<'a> Paths<'a> {
    fn new(tables: &'a Tables) -> Paths<'a> {
        let live = live_states(tables);
        let classes = tables.classes();
        let mut members = vec![Vec::new(); classes.count()];
        for byte in 0..=255u8 {
            members[usize::from(classes.class(byte))].push(byte);
        }
        let mut entered_by = vec![BTreeSet::new(); tables.state_count()];
        for &from in &live {
            for class in classes.ids() {
                let to = tables.next(from, classes.representative(class));
                if to != tables.dead() {
                    entered_by[usize::from(to)].insert(class);
                }
            }
        }
        Paths {
            tables,
            live,
            members,
            entered_by,
        }
    }

    /// The lead marker at each distance from 2 to [`MAX_DISTANCE`] that
    /// has one, for `pending`: the pairs of bytes that stand `distance`
    /// bytes before the trail marker on the paths into `pending` (the trail
    /// marker is the second byte after `pending`, so those are the pair
    /// ending `distance - 2` bytes before the byte that enters it), when
    /// they are a box.
    ///
    /// Found backwards: the states `distance - 2` bytes from `pending`,
    /// then the pairs of classes that reach one of them from a live state,
    /// the first entering a state that the second leaves towards it.
    fn lead_markers(&self, pending: u8) -> Vec<(usize, PairBox)> {
        let (tables, classes) = (self.tables, self.tables.classes());
        let mut markers = Vec::new();
        // The live states `k` bytes before `pending`, for k from 0.
        let mut before = BTreeSet::from([pending]);
        for distance in 2..=MAX_DISTANCE {
            let mut pairs: BTreeSet<(u8, u8)> = BTreeSet::new();
            for &mid in &self.live {
                let entered = &self.entered_by[usize::from(mid)];
                if entered.is_empty() {
                    continue;
                }
                for second in classes.ids() {
                    let to = tables.next(mid, classes.representative(second));
                    if before.contains(&to) {
                        pairs.extend(entered.iter().map(|&first| (first, second)));
                    }
                }
            }
            if let Some(lead) = self.class_box(&pairs) {
                markers.push((distance, lead));
            }
            before = self
                .live
                .iter()
                .copied()
                .filter(|&s| {
                    classes
                        .ids()
                        .any(|c| before.contains(&tables.next(s, classes.representative(c))))
                })
                .collect();
        }
        markers
    }

    /// The box of the bytes of `pairs` of classes, if they are one: the
    /// pairs of classes a product of two sets, and each set's bytes one of
    /// high nibbles × low nibbles.
    fn class_box(&self, pairs: &BTreeSet<(u8, u8)>) -> Option<PairBox> {
        let earlier: BTreeSet<u8> = pairs.iter().map(|&(x, _)| x).collect();
        let later: BTreeSet<u8> = pairs.iter().map(|&(_, y)| y).collect();
        // No pairs at all is the empty box, as the bytes of none are.
        if pairs.len() != earlier.len() * later.len() {
            return None;
        }
        let bytes = |set: &BTreeSet<u8>| -> Vec<u8> {
            let mut bytes: Vec<u8> = set
                .iter()
                .flat_map(|&class| self.members[usize::from(class)].iter().copied())
                .collect();
            bytes.sort_unstable();
            bytes
        };
        let earlier = NibbleSet::of(&bytes(&earlier))?;
        let later = NibbleSet::of(&bytes(&later))?;
        Some(PairBox {
            prev_high: earlier.high,
            prev_low: earlier.low,
            cur_high: later.high,
            cur_low: later.low,
        })
    }
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
