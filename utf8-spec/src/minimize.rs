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

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;

use crate::dfa::{Dfa, StateId, write_rows};
use crate::error::{Error, ErrorKind};

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
        MinimalDfa::from_refinement(dfa, refinement(dfa))
    }

    /// Minimizes `dfa` if its minimal automaton has at most `limit` states,
    /// and refuses it as soon as it cannot: a round of refinement only
    /// splits blocks, and the last round's blocks are the minimal
    /// automaton's states, so a round with more than `limit` blocks settles
    /// it. A long chain of states is refused after `limit` rounds rather
    /// than minimized in as many rounds as it has states.
    pub fn within(dfa: &Dfa, limit: usize) -> Result<MinimalDfa, Error> {
        let too_large = |states: String| {
            Error::new(ErrorKind::TooLarge {
                what: format!("the minimal automaton's state count ({states})"),
                limit,
            })
        };
        let bytes = column_representatives(dfa);
        let distances = distinct_distances_to_acceptance(dfa, &bytes);
        if distances > limit {
            return Err(too_large(format!("at least {distances}")));
        }
        let partitions =
            refine(dfa, &bytes, limit).map_err(|blocks| too_large(format!("at least {blocks}")))?;
        let minimal = MinimalDfa::from_refinement(dfa, partitions);
        match minimal.state_count() {
            // The blocks fit, and a dead state added to them may not.
            states if states > limit => Err(too_large(states.to_string())),
            _ => Ok(minimal),
        }
    }

    fn from_refinement(dfa: &Dfa, partitions: Vec<Vec<u32>>) -> MinimalDfa {
        let rounds = partitions.len() - 1;
        let block = partitions
            .into_iter()
            .next_back()
            .expect("one partition at least");
        let blocks = block_count(&block);

        // Canonical order: breadth-first from the start's block, dead block last.
        let is_dead = |b: u32| {
            let member = block
                .iter()
                .position(|&x| x == b)
                .expect("every block has a member") as StateId;
            !dfa.is_accepting(member) && dfa.row(member).iter().all(|&t| block[t as usize] == b)
        };
        let dead_block = (0..blocks as u32).find(|&b| is_dead(b));
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

/// Moore's refinement of `dfa`, round by round: entry 0 is the first
/// split, accepting states and the others; entry `r` is the partition after
/// round `r`. Each partition gives the block of every DFA state, blocks
/// numbered in order of their first member. The last round changes nothing,
/// so the last two entries are equal, and the blocks of the last are the
/// states of the [`MinimalDfa`] (its `merged_from`), renumbered.
///
/// On RFC 3629 the 29 DFA states fall into 2, 3, 6, 9 and again 9 blocks:
///
/// ```
/// let derivation = utf8_spec::rulesets::RFC3629.derive()?;
/// let rounds = utf8_spec::minimize::refinement(derivation.dfa());
/// let counts: Vec<usize> = rounds.iter().map(|p| utf8_spec::minimize::block_count(p)).collect();
/// assert_eq!(counts, [2, 3, 6, 9, 9]);
/// # Ok::<(), utf8_spec::Error>(())
/// ```
pub fn refinement(dfa: &Dfa) -> Vec<Vec<u32>> {
    match refine(dfa, &column_representatives(dfa), usize::MAX) {
        Ok(partitions) => partitions,
        Err(_) => unreachable!("no partition has more than usize::MAX blocks"),
    }
}

/// [`refinement`], or the block count of the first partition with more
/// than `limit` blocks. `bytes` holds a byte of each class of bytes that
/// every state moves alike ([`column_representatives`]): the others would
/// repeat their entries in every signature.
fn refine(dfa: &Dfa, bytes: &[u8], limit: usize) -> Result<Vec<Vec<u32>>, usize> {
    let count = dfa.state_count();
    let mut block: Vec<u32> = (0..count)
        .map(|s| u32::from(dfa.is_accepting(s as StateId)))
        .collect();
    renumber_by_first_appearance(&mut block);
    let mut partitions = vec![block];
    loop {
        let block = partitions.last().expect("the first split");
        // A state's signature: its block, then its successors' blocks.
        let width = 1 + bytes.len();
        let mut signature_of = Vec::with_capacity(count * width);
        for (state, &own) in block.iter().enumerate() {
            let row = dfa.row(state as StateId);
            signature_of.push(own);
            signature_of.extend(bytes.iter().map(|&byte| block[row[byte as usize] as usize]));
        }
        let mut signatures: HashMap<&[u32], u32> = HashMap::with_capacity(count);
        let mut refined = vec![0u32; count];
        for (state, signature) in signature_of.chunks_exact(width).enumerate() {
            let next_id = signatures.len() as u32;
            refined[state] = *signatures.entry(signature).or_insert(next_id);
        }
        let refined_count = renumber_by_first_appearance(&mut refined);
        if refined_count > limit {
            return Err(refined_count);
        }
        let stable = refined_count == block_count(block);
        partitions.push(refined);
        if stable {
            return Ok(partitions);
        }
    }
}

/// The smallest byte of each class of bytes whose columns in `dfa` are
/// equal: bytes that lead every state to the same state.
fn column_representatives(dfa: &Dfa) -> Vec<u8> {
    let mut seen: HashSet<Vec<StateId>> = HashSet::new();
    (0..=255u8)
        .filter(|&byte| {
            let column = (0..dfa.state_count())
                .map(|state| dfa.next(state as StateId, byte))
                .collect();
            seen.insert(column)
        })
        .collect()
}

/// How many different lengths the shortest accepted continuation has from
/// the states of `dfa` (no continuation counted as one more length): a
/// lower bound of the minimal automaton's state count, since equivalent
/// states accept the same continuations. A chain of `n` states has `n`
/// lengths, found in one pass rather than `n` rounds of refinement.
fn distinct_distances_to_acceptance(dfa: &Dfa, bytes: &[u8]) -> usize {
    let count = dfa.state_count();
    let mut predecessors: Vec<Vec<StateId>> = vec![Vec::new(); count];
    for state in 0..count {
        let row = dfa.row(state as StateId);
        for &byte in bytes {
            predecessors[row[byte as usize] as usize].push(state as StateId);
        }
    }
    let mut distance: Vec<Option<usize>> = (0..count)
        .map(|s| dfa.is_accepting(s as StateId).then_some(0))
        .collect();
    let mut queue: VecDeque<StateId> = (0..count as StateId)
        .filter(|&s| dfa.is_accepting(s))
        .collect();
    while let Some(state) = queue.pop_front() {
        let next = distance[state as usize].map(|d| d + 1);
        for &before in &predecessors[state as usize] {
            if distance[before as usize].is_none() {
                distance[before as usize] = next;
                queue.push_back(before);
            }
        }
    }
    distance.into_iter().collect::<HashSet<_>>().len()
}

/// The number of blocks of a partition from [`refinement`].
pub fn block_count(partition: &[u32]) -> usize {
    partition.iter().max().map_or(0, |&b| b as usize + 1)
}

/// Renames block ids to 0, 1, 2, ... in order of first appearance; returns the count.
fn renumber_by_first_appearance(block: &mut [u32]) -> usize {
    // Block ids are small (below the state count, or 0 and 1): a table
    // maps them faster than a hash map.
    let ids = block.iter().max().map_or(0, |&last| last as usize + 1);
    let mut names: Vec<Option<u32>> = vec![None; ids];
    let mut count = 0;
    for b in block.iter_mut() {
        *b = *names[*b as usize].get_or_insert_with(|| {
            count += 1;
            count - 1
        });
    }
    count as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::{BUILTIN, RFC3629};

    #[test]
    fn rfc3629s_last_round_is_the_minimal_dfa() {
        let derivation = RFC3629.derive().expect("rfc3629 derives");
        let (dfa, minimal) = (derivation.dfa(), derivation.minimal_dfa());
        let rounds = refinement(dfa);
        let last = rounds.last().expect("a partition");
        assert_eq!(block_count(last), minimal.state_count());
        assert_eq!(rounds.len() - 1, minimal.refinement_rounds());
        for state in 0..minimal.state_count() as StateId {
            let merged = minimal.merged_from(state);
            let block = last[merged[0] as usize];
            let members: Vec<StateId> = (0..dfa.state_count() as StateId)
                .filter(|&s| last[s as usize] == block)
                .collect();
            assert_eq!(members, merged, "minimal state {state}");
        }
    }

    #[test]
    fn every_round_splits_blocks_and_the_last_two_are_equal() {
        for ruleset in BUILTIN {
            let derivation = ruleset.derive().expect("built-in rulesets derive");
            let rounds = refinement(derivation.dfa());
            assert_eq!(rounds[rounds.len() - 1], rounds[rounds.len() - 2]);
            for pair in rounds.windows(2) {
                // Two states in one block after a round were in one block before it.
                for a in 0..pair[1].len() {
                    for b in 0..pair[1].len() {
                        if pair[1][a] == pair[1][b] {
                            assert_eq!(pair[0][a], pair[0][b], "{}", ruleset.name);
                        }
                    }
                }
                assert!(block_count(&pair[1]) >= block_count(&pair[0]));
            }
        }
    }
}
