//! NFA → DFA: the subset construction.
//!
//! Each DFA state is the ε-closed set of NFA states the input can be in.
//! States are numbered in the order a breadth-first walk from the start
//! discovers them, reading bytes in ascending order, so the same grammar
//! always gives the same numbering. The empty set is a state like the others:
//! it is the dead state, and it makes every row total.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use crate::ByteRange;
use crate::byte_range::runs;
use crate::error::{Error, ErrorKind};
use crate::nfa::{Closures, Nfa, NfaStateId};

/// A DFA state's index.
pub type StateId = u32;

/// Subset construction can blow up exponentially; past this many states the
/// grammar is refused.
pub const MAX_DFA_STATES: usize = 16_384;

/// The NFA states the subset construction may gather, summed over every
/// closure it takes. Its time, and the memory of the sets its states stand
/// for, grow with this sum rather than with its state count alone:
/// `1000(["a"]) 20000(*"b")` has a thousand DFA states of some 80,000 NFA
/// states each. A scalar set's sum grows with the square of its ranges (each
/// DFA state between two scalars holds the whole alternation): about four
/// times it, 16 million for 2,000 single scalars, which derive in 0.6 s in a
/// release build on an Intel Xeon (Emerald Rapids). The rulesets that ship
/// gather under 2,100 (see the tests).
pub const MAX_SUBSET_WORK: usize = 1 << 24;

/// A deterministic automaton over bytes, total on every state.
#[derive(Clone, PartialEq, Eq)]
pub struct Dfa {
    next: Vec<[StateId; 256]>,
    accepting: Vec<bool>,
    nfa_sets: Vec<Vec<NfaStateId>>,
}

impl Dfa {
    /// Runs the subset construction on `nfa`, within [`MAX_DFA_STATES`]
    /// and [`MAX_SUBSET_WORK`].
    pub fn new(nfa: &Nfa) -> Result<Dfa, Error> {
        Dfa::within(nfa, MAX_DFA_STATES, MAX_SUBSET_WORK)
    }

    /// Runs the subset construction on `nfa`, refused once it would make
    /// more than `max_states` states or its closures have gathered more than
    /// `max_work` NFA states.
    pub fn within(nfa: &Nfa, max_states: usize, max_work: usize) -> Result<Dfa, Error> {
        subset(nfa, max_states, max_work).map(|(dfa, _)| dfa)
    }

    /// A DFA given by its rows and accepting flags, state 0 the start: for
    /// automata built from other automata (a restriction, a product) rather
    /// than from a grammar. Every target must be a state of `next`.
    pub(crate) fn from_rows(next: Vec<[StateId; 256]>, accepting: Vec<bool>) -> Dfa {
        assert_eq!(next.len(), accepting.len(), "one accepting flag per row");
        assert!(
            next.iter().flatten().all(|&t| (t as usize) < next.len()),
            "every target is a state"
        );
        let nfa_sets = vec![Vec::new(); next.len()];
        Dfa {
            next,
            accepting,
            nfa_sets,
        }
    }

    fn intern(
        &mut self,
        set: Vec<NfaStateId>,
        nfa: &Nfa,
        ids: &mut HashMap<Vec<NfaStateId>, StateId>,
        queue: &mut VecDeque<StateId>,
        max_states: usize,
    ) -> Result<StateId, Error> {
        if let Some(&id) = ids.get(&set) {
            return Ok(id);
        }
        if self.next.len() >= max_states {
            return Err(Error::new(ErrorKind::TooLarge {
                what: "the DFA's state count from subset construction".to_owned(),
                limit: max_states,
            }));
        }
        let id = self.next.len() as StateId;
        self.accepting
            .push(set.binary_search(&nfa.accept()).is_ok());
        self.next.push([0; 256]);
        self.nfa_sets.push(set.clone());
        ids.insert(set, id);
        queue.push_back(id);
        Ok(id)
    }

    /// The number of states, the dead state included.
    pub fn state_count(&self) -> usize {
        self.next.len()
    }

    /// The start state, always 0.
    pub fn start(&self) -> StateId {
        0
    }

    /// The state after reading `byte` in `state`.
    pub fn next(&self, state: StateId, byte: u8) -> StateId {
        self.next[state as usize][byte as usize]
    }

    /// The whole row of `state`: one target per byte value.
    pub fn row(&self, state: StateId) -> &[StateId; 256] {
        &self.next[state as usize]
    }

    /// Whether the input read so far is in the language.
    pub fn is_accepting(&self, state: StateId) -> bool {
        self.accepting[state as usize]
    }

    /// The NFA states that DFA state `state` stands for.
    pub fn nfa_states(&self, state: StateId) -> &[NfaStateId] {
        &self.nfa_sets[state as usize]
    }
}

/// The subset construction of [`Dfa::within`]; with the DFA, the number of
/// NFA states its closures gathered.
fn subset(nfa: &Nfa, max_states: usize, max_work: usize) -> Result<(Dfa, usize), Error> {
    let mut dfa = Dfa {
        next: Vec::new(),
        accepting: Vec::new(),
        nfa_sets: Vec::new(),
    };
    let mut ids: HashMap<Vec<NfaStateId>, StateId> = HashMap::new();
    let mut queue = VecDeque::new();
    let mut closures = Closures::new(nfa);
    let mut work = Work {
        gathered: 0,
        limit: max_work,
    };
    let start = work.count(closures.of(nfa, &[nfa.start()]))?;
    dfa.intern(start, nfa, &mut ids, &mut queue, max_states)?;
    while let Some(id) = queue.pop_front() {
        let moves: Vec<(ByteRange, NfaStateId)> = dfa.nfa_sets[id as usize]
            .iter()
            .flat_map(|&state| nfa.states()[state as usize].transitions.iter().copied())
            .collect();
        let mut row = [0; 256];
        // Bytes between two ends of ranges move alike: one closure each
        // such segment, not one a byte.
        for segment in segments(&moves) {
            let targets: Vec<NfaStateId> = moves
                .iter()
                .filter(|(range, _)| range.contains(segment.start()))
                .map(|&(_, target)| target)
                .collect();
            let closed = work.count(closures.of(nfa, &targets))?;
            let target = dfa.intern(closed, nfa, &mut ids, &mut queue, max_states)?;
            row[segment.start() as usize..=segment.end() as usize].fill(target);
        }
        dfa.next[id as usize] = row;
    }
    Ok((dfa, work.gathered))
}

/// The NFA states the closures of one subset construction have gathered.
struct Work {
    gathered: usize,
    limit: usize,
}

impl Work {
    fn count(&mut self, closure: Vec<NfaStateId>) -> Result<Vec<NfaStateId>, Error> {
        self.gathered += closure.len();
        if self.gathered > self.limit {
            return Err(Error::new(ErrorKind::TooLarge {
                what: "the subset construction's work (the NFA states its closures gather)"
                    .to_owned(),
                limit: self.limit,
            }));
        }
        Ok(closure)
    }
}

/// The byte ranges, covering every byte, within which each of `moves`
/// either holds every byte or none.
fn segments(moves: &[(ByteRange, NfaStateId)]) -> Vec<ByteRange> {
    let mut starts_segment = [false; 256];
    starts_segment[0] = true;
    for (range, _) in moves {
        starts_segment[range.start() as usize] = true;
        if let Some(after) = range.end().checked_add(1) {
            starts_segment[after as usize] = true;
        }
    }
    let starts: Vec<u8> = (0..=255u8)
        .filter(|&b| starts_segment[b as usize])
        .collect();
    let ends = starts.iter().skip(1).map(|&next| next - 1).chain([255]);
    starts
        .iter()
        .zip(ends)
        .map(|(&start, end)| ByteRange::new(start, end))
        .collect()
}

/// One line per state, its row as ranges: `S1: %x80-BF -> S0, rest -> S9`.
impl fmt::Debug for Dfa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Dfa {{ states: {}, start: S0 }}", self.state_count())?;
        write_rows(f, &self.next, &self.accepting, |_| "")
    }
}

/// Prints automaton rows as `  S3*: %x00-7F -> S0 | %x80-BF -> S4 | ...`
/// (`*` marks an accepting state). Shared by every automaton printer.
pub(crate) fn write_rows(
    f: &mut fmt::Formatter<'_>,
    rows: &[[StateId; 256]],
    accepting: &[bool],
    note: impl Fn(StateId) -> &'static str,
) -> fmt::Result {
    for (id, row) in rows.iter().enumerate() {
        let mark = if accepting[id] { "*" } else { " " };
        write!(f, "  S{id:<3}{mark}{}:", note(id as StateId))?;
        for (i, (range, target)) in runs(row).into_iter().enumerate() {
            let sep = if i == 0 { " " } else { " | " };
            write!(f, "{sep}{range} -> S{target}")?;
        }
        writeln!(f)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::BUILTIN;
    use crate::{Grammar, scalars};

    fn nfa_of(abnf: &str, start: &str) -> Nfa {
        Nfa::new(&Grammar::parse(abnf).unwrap(), start).unwrap()
    }

    fn work_of(nfa: &Nfa) -> usize {
        subset(nfa, MAX_DFA_STATES, MAX_SUBSET_WORK).unwrap().1
    }

    #[test]
    fn the_rulesets_that_ship_gather_a_small_part_of_the_work_limit() {
        for ruleset in BUILTIN {
            let work = work_of(&nfa_of(ruleset.abnf, ruleset.start));
            assert!(work < 2_100, "{}: {work}", ruleset.name);
        }
    }

    #[test]
    fn work_is_refused_one_past_the_limit_and_not_at_it() {
        for abnf in [
            crate::rulesets::RFC3629.abnf,
            "s = 3( [\"a\"] ) 5( *\"b\" )\n",
        ] {
            let grammar = Grammar::parse(abnf).unwrap();
            let nfa = Nfa::new(&grammar, &grammar.rules()[0].name).unwrap();
            let work = work_of(&nfa);
            let whole = Dfa::within(&nfa, MAX_DFA_STATES, work).unwrap();
            assert_eq!(whole, Dfa::new(&nfa).unwrap());
            let error = Dfa::within(&nfa, MAX_DFA_STATES, work - 1).unwrap_err();
            assert!(
                matches!(error.kind(), ErrorKind::TooLarge { limit, .. } if *limit == work - 1),
                "{error}"
            );
        }
    }

    #[test]
    fn dfa_states_are_refused_one_past_the_limit_and_not_at_it() {
        let nfa = nfa_of(crate::rulesets::RFC3629.abnf, "UTF8-octets");
        let states = Dfa::new(&nfa).unwrap().state_count();
        assert!(Dfa::within(&nfa, states, MAX_SUBSET_WORK).is_ok());
        let error = Dfa::within(&nfa, states - 1, MAX_SUBSET_WORK).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::TooLarge { limit, .. } if *limit == states - 1),
            "{error}"
        );
    }

    /// Single scalars two apart: the work grows with the square of their
    /// number (see [`MAX_SUBSET_WORK`]), and 2,000 stay within the default.
    #[test]
    fn two_thousand_single_scalars_derive_within_the_default_work() {
        let ranges: Vec<(u32, u32)> = (0..2_000).map(|i| (0x100 + 2 * i, 0x100 + 2 * i)).collect();
        let nfa = nfa_of(&scalars::to_abnf(&ranges).unwrap(), scalars::START_RULE);
        let work = work_of(&nfa);
        assert!(
            (MAX_SUBSET_WORK * 9 / 10..MAX_SUBSET_WORK).contains(&work),
            "{work}"
        );
    }
}
