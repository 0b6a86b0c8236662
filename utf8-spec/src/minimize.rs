//! DFA → minimal DFA, by Moore's partition refinement.
//!
//! Start from two blocks, accepting and not; split every block whose members
//! disagree on which block some byte leads to; stop when no block splits.
//! The blocks are then the states of the minimal automaton (unique up to
//! renaming, by the Myhill–Nerode theorem).
//!
//! The minimal automaton gets a canonical numbering so that the same language
//! always gives the same tables: the start state is 0, the others follow in
//! the order a breadth-first walk from the start discovers them reading bytes
//! in ascending order, and the dead state — the one that rejects every
//! continuation — comes last. On RFC 3629 this reproduces Onigmo's numbering
//! S0–S7, with its failure state as 8.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use crate::dfa::{Dfa, StateId, write_rows};

/// The minimal DFA, with a record of which subset-construction states each
/// of its states merges.
#[derive(Clone, PartialEq, Eq)]
pub struct MinimalDfa {
    next: Vec<[StateId; 256]>,
    accepting: Vec<bool>,
    merged_from: Vec<Vec<StateId>>,
    refinement_rounds: usize,
}

impl MinimalDfa {
    /// Minimizes `dfa`.
    pub fn new(dfa: &Dfa) -> MinimalDfa {
        let count = dfa.state_count();
        let mut block: Vec<u32> = (0..count)
            .map(|s| u32::from(dfa.is_accepting(s as StateId)))
            .collect();
        let mut block_count = renumber_by_first_appearance(&mut block);
        let mut rounds = 0;
        loop {
            rounds += 1;
            let mut signatures: HashMap<(u32, Vec<u32>), u32> = HashMap::new();
            let mut refined = vec![0u32; count];
            for state in 0..count {
                let row: Vec<u32> = dfa
                    .row(state as StateId)
                    .iter()
                    .map(|&t| block[t as usize])
                    .collect();
                let next_id = signatures.len() as u32;
                refined[state] = *signatures.entry((block[state], row)).or_insert(next_id);
            }
            let refined_count = renumber_by_first_appearance(&mut refined);
            block = refined;
            if refined_count == block_count {
                break;
            }
            block_count = refined_count;
        }

        // Canonical order: breadth-first from the start's block, dead block last.
        let is_dead = |b: u32| {
            let member = block
                .iter()
                .position(|&x| x == b)
                .expect("every block has a member") as StateId;
            !dfa.is_accepting(member) && dfa.row(member).iter().all(|&t| block[t as usize] == b)
        };
        let dead_block = (0..block_count as u32).find(|&b| is_dead(b));
        let mut order: Vec<u32> = Vec::new();
        let mut position: HashMap<u32, StateId> = HashMap::new();
        let mut queue = VecDeque::from([block[dfa.start() as usize]]);
        position.insert(block[dfa.start() as usize], 0);
        order.push(block[dfa.start() as usize]);
        while let Some(b) = queue.pop_front() {
            let member = block.iter().position(|&x| x == b).expect("member") as StateId;
            for &target in dfa.row(member) {
                let tb = block[target as usize];
                if Some(tb) == dead_block || position.contains_key(&tb) {
                    continue;
                }
                position.insert(tb, order.len() as StateId);
                order.push(tb);
                queue.push_back(tb);
            }
        }
        // A language in which every prefix extends to a word has no dead state;
        // one is added (unreachable) so that every table has a state to fail into.
        let dead = order.len() as StateId;
        if let Some(d) = dead_block {
            position.insert(d, dead);
        }
        let state_count = order.len() + 1;
        let mut next = vec![[dead; 256]; state_count];
        let mut accepting = vec![false; state_count];
        let mut merged_from = vec![Vec::new(); state_count];
        for (new_id, &b) in order.iter().enumerate() {
            let member = block.iter().position(|&x| x == b).expect("member") as StateId;
            accepting[new_id] = dfa.is_accepting(member);
            for (byte, &target) in dfa.row(member).iter().enumerate() {
                next[new_id][byte] = position[&block[target as usize]];
            }
        }
        for (state, &b) in block.iter().enumerate() {
            if let Some(&new_id) = position.get(&b) {
                merged_from[new_id as usize].push(state as StateId);
            }
        }
        MinimalDfa {
            next,
            accepting,
            merged_from,
            refinement_rounds: rounds,
        }
    }

    /// The number of states, the dead state included.
    pub fn state_count(&self) -> usize {
        self.next.len()
    }

    /// The start state, always 0.
    pub fn start(&self) -> StateId {
        0
    }

    /// The dead state, always the last.
    pub fn dead(&self) -> StateId {
        (self.next.len() - 1) as StateId
    }

    /// The state after reading `byte` in `state`.
    pub fn next(&self, state: StateId, byte: u8) -> StateId {
        self.next[state as usize][byte as usize]
    }

    /// The whole row of `state`.
    pub fn row(&self, state: StateId) -> &[StateId; 256] {
        &self.next[state as usize]
    }

    /// Whether the input read so far is in the language.
    pub fn is_accepting(&self, state: StateId) -> bool {
        self.accepting[state as usize]
    }

    /// The subset-construction states that `state` merges (empty for a dead
    /// state that had to be added).
    pub fn merged_from(&self, state: StateId) -> &[StateId] {
        &self.merged_from[state as usize]
    }

    /// How many refinement rounds Moore's algorithm took, the last (which
    /// changed nothing) included.
    pub fn refinement_rounds(&self) -> usize {
        self.refinement_rounds
    }
}

impl fmt::Debug for MinimalDfa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "MinimalDfa {{ states: {}, start: S0, dead: S{} }}",
            self.state_count(),
            self.dead()
        )?;
        let dead = self.dead();
        write_rows(f, &self.next, &self.accepting, |s| {
            if s == dead { " (dead)" } else { "" }
        })
    }
}

/// Renames block ids to 0, 1, 2, ... in order of first appearance; returns the count.
fn renumber_by_first_appearance(block: &mut [u32]) -> usize {
    let mut names: HashMap<u32, u32> = HashMap::new();
    for b in block.iter_mut() {
        let next = names.len() as u32;
        *b = *names.entry(*b).or_insert(next);
    }
    names.len()
}
