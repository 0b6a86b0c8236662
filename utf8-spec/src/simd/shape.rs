//! What the DFA must look like for the check to apply: sequences of a lead
//! byte and continuation bytes, each live state a fixed number of bytes from
//! the end of its sequence, and lead lengths that rise with the byte value.

use std::collections::HashSet;

use super::Declined;
use crate::Tables;

/// The facts about the DFA that the check's tables are built from.
pub(super) struct Shape {
    pub(super) continuation: Vec<u8>,
    /// `must_continue[k - 2]`: the smallest lead byte of a sequence longer than `k`.
    pub(super) must_continue: Vec<u8>,
    pub(super) max_len: usize,
    /// A byte that keeps the start state where it is.
    pub(super) boundary: u8,
}

impl Shape {
    pub(super) fn new(tables: &Tables) -> Result<Shape, Declined> {
        let start = tables.start();
        if tables.accepting_states() != [start] {
            return Err(Declined::AcceptingOutsideStart);
        }
        let boundary = (0..=255u8)
            .find(|&b| tables.next(start, b) == start)
            .ok_or(Declined::NoBoundaryByte)?;
        let left = distances_to_end(tables)?;
        let continuation = continuation_bytes(tables);
        let mut length = [0usize; 256];
        for b in 0..=255u8 {
            let t = tables.next(start, b);
            if t != tables.dead() {
                if continuation[b as usize] {
                    return Err(Declined::LeadIsAlsoContinuation { byte: b });
                }
                length[b as usize] = 1 + left[t as usize];
            }
        }
        let max_len = *length.iter().max().expect("256 bytes");
        if max_len < 2 {
            return Err(Declined::OnlySingleBytes);
        }
        Ok(Shape {
            continuation: (0..=255u8).filter(|&b| continuation[b as usize]).collect(),
            must_continue: must_continue_thresholds(&length, max_len)?,
            max_len,
            boundary,
        })
    }
}

/// Bytes left until the sequence ends, for each live state (the dead state
/// gets 0, and is never asked).
fn distances_to_end(tables: &Tables) -> Result<Vec<usize>, Declined> {
    let start = tables.start();
    let live = |s: u8| s != tables.dead();
    let mut left: Vec<Option<usize>> = vec![None; tables.state_count()];
    left[start as usize] = Some(0);
    // Each round settles at least one state whose successors are all settled,
    // so as many rounds as states settle every state that can be.
    for _ in 0..tables.state_count() {
        for s in tables.states() {
            if s == start || !live(s) || left[s as usize].is_some() {
                continue;
            }
            let next: HashSet<Option<usize>> = (0..=255u8)
                .map(|b| tables.next(s, b))
                .filter(|&t| live(t))
                .map(|t| left[t as usize])
                .collect();
            if next.len() == 1 {
                if let Some(Some(n)) = next.into_iter().next() {
                    left[s as usize] = Some(n + 1);
                }
            } else if !next.contains(&None) {
                return Err(Declined::MixedDistancesToEnd { state: s });
            }
        }
    }
    tables
        .states()
        .map(|s| match left[s as usize] {
            Some(n) => Ok(n),
            None if !live(s) => Ok(0),
            None => Err(Declined::NoFixedDistanceToEnd),
        })
        .collect()
}

/// The bytes that some state inside a sequence accepts.
fn continuation_bytes(tables: &Tables) -> [bool; 256] {
    let start = tables.start();
    let mut continuation = [false; 256];
    for s in tables
        .states()
        .filter(|&s| s != start && s != tables.dead())
    {
        for b in 0..=255u8 {
            if tables.next(s, b) != tables.dead() {
                continuation[b as usize] = true;
            }
        }
    }
    continuation
}

/// For k = 2 .. the longest sequence, the one byte from which up every lead
/// byte starts a sequence longer than k: the thresholds a vector comparison
/// tests.
fn must_continue_thresholds(length: &[usize; 256], max_len: usize) -> Result<Vec<u8>, Declined> {
    (2..max_len)
        .map(|k| {
            let threshold = (0..=255u8)
                .find(|&b| length[b as usize] > k)
                .expect("a lead of the longest length");
            let exact = (0..=255u8)
                .filter(|&b| length[b as usize] > 0)
                .all(|b| (length[b as usize] > k) == (b >= threshold));
            if exact && threshold >= 0x80 {
                Ok(threshold)
            } else {
                Err(Declined::LeadsNotFromOneValueUp { longer_than: k })
            }
        })
        .collect()
}
