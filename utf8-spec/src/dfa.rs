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

/// A deterministic automaton over bytes, total on every state.
#[derive(Clone, PartialEq, Eq)]
pub struct Dfa {
    next: Vec<[StateId; 256]>,
    accepting: Vec<bool>,
    nfa_sets: Vec<Vec<NfaStateId>>,
}

impl Dfa {
    /// Runs the subset construction on `nfa`.
    pub fn new(nfa: &Nfa) -> Result<Dfa, Error> {
        let mut dfa = Dfa {
            next: Vec::new(),
            accepting: Vec::new(),
            nfa_sets: Vec::new(),
        };
        let mut ids: HashMap<Vec<NfaStateId>, StateId> = HashMap::new();
        let mut queue = VecDeque::new();
        let mut closures = Closures::new(nfa);
        let start = closures.of(nfa, &[nfa.start()]);
        dfa.intern(start, nfa, &mut ids, &mut queue)?;
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
                let closed = closures.of(nfa, &targets);
                let target = dfa.intern(closed, nfa, &mut ids, &mut queue)?;
                row[segment.start() as usize..=segment.end() as usize].fill(target);
            }
            dfa.next[id as usize] = row;
        }
        Ok(dfa)
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
    ) -> Result<StateId, Error> {
        if let Some(&id) = ids.get(&set) {
            return Ok(id);
        }
        if self.next.len() >= MAX_DFA_STATES {
            return Err(Error::new(ErrorKind::TooLarge {
                what: "the DFA's state count from subset construction".to_owned(),
                limit: MAX_DFA_STATES,
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
