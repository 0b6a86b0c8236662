//! The proof: the check and the DFA accept the same inputs, of every length.
//!
//! The check is a function of a window of the last few bytes, so it is
//! itself a finite automaton. A product state is the window (bytes as
//! representatives of the classes of bytes that the check and the DFA cannot
//! tell apart), the DFA state, and whether the check has erred. The check
//! accepts an input when it has not erred and the closing boundary bytes do
//! not err. Both accept the same inputs exactly when, in every reachable
//! product state:
//! - the check has not erred while the DFA is alive (every live state of a
//!   minimal DFA leads on to acceptance, so an early error rejects an input
//!   the DFA accepts);
//! - without an error so far, the closing check errs exactly when the DFA's
//!   state is not accepting (a dead DFA state included).

use std::collections::{HashMap, HashSet, VecDeque};

use super::{Declined, Ending, ProofFailure, SimdTables};
use crate::Tables;

/// How many product states the proof visited, and the check's largest lag
/// behind the DFA.
pub(super) struct Proof {
    pub(super) states: usize,
    pub(super) max_lag: usize,
}

/// Walks the product of the check's window automaton and the DFA, or says
/// where they disagree.
pub(super) fn prove(tables: &Tables, simd: &SimdTables) -> Result<Proof, Declined> {
    let windows = Windows::new(tables, simd);
    let visited = walk(tables, &windows)?;
    let dead_windows = visited
        .iter()
        .filter(|&&(_, state)| state == tables.dead())
        .map(|&(window, _)| window);
    Ok(Proof {
        states: visited.len(),
        max_lag: max_lag(&windows, dead_windows)?,
    })
}

/// The check as an automaton over windows of the last bytes.
///
/// A window packs the byte just read (a representative, bits 0-7) and the
/// reach of each older byte (4 bits each, the nearest at bits 8-11). A
/// byte's reach is how many must-continue thresholds it reaches. The
/// thresholds rise with the distance back, so a byte k back demands a
/// continuation exactly when it reaches k - 1 of them: bytes further back
/// than one matter only through this count. A check with a pairing term
/// also remembers which of its last `distance` positions held a lead
/// marker (from bit [`MARKERS`], the latest lowest).
struct Windows<'a> {
    simd: &'a SimdTables,
    /// How many bytes back the check looks.
    frame: usize,
    /// One byte per class of bytes the tables, thresholds and DFA cannot tell apart.
    representatives: Vec<u8>,
    /// The representative of the boundary byte.
    boundary: u8,
}

const REACH_BITS: u32 = 4;

/// Where the lead markers of the last positions start in a packed window.
const MARKERS: u32 = 48;

impl<'a> Windows<'a> {
    fn new(tables: &Tables, simd: &'a SimdTables) -> Self {
        let mut windows = Windows {
            simd,
            frame: simd.max_sequence_len - 1,
            representatives: Vec::new(),
            boundary: simd.boundary,
        };
        let signature = |b: u8| {
            let roles: Vec<(u8, u8)> = simd
                .sets
                .iter()
                .map(|set| {
                    (
                        set.prev_high[(b >> 4) as usize] & set.prev_low[(b & 15) as usize],
                        set.cur_high[(b >> 4) as usize] & set.cur_low[(b & 15) as usize],
                    )
                })
                .collect();
            (
                roles,
                windows.reach(b),
                b >= simd.incomplete[0],
                tables.classes().class(b),
            )
        };
        let mut representative_of: HashMap<_, u8> = HashMap::new();
        for b in 0..=255u8 {
            representative_of.entry(signature(b)).or_insert(b);
        }
        let boundary = representative_of[&signature(simd.boundary)];
        let mut representatives: Vec<u8> = representative_of.into_values().collect();
        representatives.sort_unstable();
        windows.representatives = representatives;
        windows.boundary = boundary;
        windows
    }

    fn reach(&self, b: u8) -> u64 {
        self.simd.must_continue.iter().filter(|&&t| b >= t).count() as u64
    }

    /// The reach of the byte `k` (at least 2) positions back.
    fn older(&self, window: u64, k: usize) -> u64 {
        (window >> (8 + REACH_BITS * (k as u32 - 2))) & 0xF
    }

    fn must_continue(&self, window: u64) -> bool {
        (2..=self.frame).any(|k| self.older(window, k) >= (k - 1) as u64)
    }

    fn errs(&self, window: u64, cur: u8) -> bool {
        let lead_before = self
            .simd
            .pairing()
            .is_some_and(|p| window >> (MARKERS + p.distance as u32 - 1) & 1 == 1);
        self.simd
            .errs(window as u8, cur, self.must_continue(window))
            || self.simd.pair_errs(lead_before, window as u8, cur)
    }

    /// The lead markers of the last positions, the latest lowest.
    fn leads(&self, window: u64) -> u64 {
        window >> MARKERS
    }

    fn shift(&self, window: u64, cur: u8) -> u64 {
        let older_mask = (1u64 << (REACH_BITS * (self.frame as u32 - 1))) - 1;
        let older_part = ((window >> 8) << REACH_BITS | self.reach(window as u8)) & older_mask;
        let leads = match self.simd.pairing() {
            Some(p) => {
                let lead = u64::from(self.simd.is_lead(window as u8, cur));
                (self.leads(window) << 1 | lead) & ((1 << p.distance) - 1)
            }
            None => 0,
        };
        leads << MARKERS | older_part << 8 | u64::from(cur)
    }

    /// The window after only boundary bytes: the state the check starts in.
    fn start(&self) -> u64 {
        (1..self.simd.closing_frame()).fold(u64::from(self.boundary), |w, _| {
            self.shift(w, self.boundary)
        })
    }

    fn closing_errs(&self, window: u64) -> bool {
        let mut w = window;
        (0..self.simd.closing_frame()).any(|_| {
            let e = self.errs(w, self.boundary);
            w = self.shift(w, self.boundary);
            e
        })
    }

    /// The one-comparison test of the end, on a window: the byte just read
    /// against the first threshold, older bytes through their reach (for
    /// k >= 2 the incomplete thresholds are the must-continue ones); and,
    /// where a lead marker needs its trail, a lead marker among the last
    /// `distance` positions.
    fn end_test(&self, window: u64) -> bool {
        let pending = self
            .simd
            .pairing()
            .is_some_and(|p| p.pending_lead_is_open() && self.leads(window) != 0);
        window as u8 >= self.simd.incomplete[0] || self.must_continue(window) || pending
    }

    /// Whether an exact error may restart the DFA after this window in its
    /// start state, as `utf8-core` does: a sequence ends here, and no lead
    /// marker stands in the last `distance - 1` positions (one `distance`
    /// back has had its trail tested by the next byte's pair).
    fn restarts_here(&self, window: u64) -> bool {
        let closed = (window as u8) < self.simd.incomplete[0] && !self.must_continue(window);
        let no_lead_pending = self
            .simd
            .pairing()
            .is_none_or(|p| self.leads(window) & ((1 << (p.distance - 1)) - 1) == 0);
        closed && no_lead_pending
    }

    /// The bytes the check reads from `window` without erring, and the windows they lead to.
    fn passing(&self, window: u64) -> impl Iterator<Item = (u8, u64)> + '_ {
        self.representatives
            .iter()
            .filter(move |&&b| !self.errs(window, b))
            .map(move |&b| (b, self.shift(window, b)))
    }
}

/// Every product state reachable without an error, checked on the way.
fn walk(tables: &Tables, windows: &Windows) -> Result<HashSet<(u64, u8)>, Declined> {
    let dead = tables.dead();
    let mut visited: HashSet<(u64, u8)> = HashSet::new();
    let mut queue = VecDeque::from([(windows.start(), tables.start())]);
    while let Some((window, state)) = queue.pop_front() {
        if !visited.insert((window, state)) {
            continue;
        }
        check_the_end(tables, windows, window, state)?;
        if state != dead && windows.restarts_here(window) && state != tables.start() {
            return Err(Declined::ProofFailed(ProofFailure::RestartNotAtStart {
                after: window as u8,
                window,
                state,
            }));
        }
        for &byte in &windows.representatives {
            let next = tables.next(state, byte);
            if windows.errs(window, byte) {
                if next != dead {
                    return Err(Declined::ProofFailed(ProofFailure::ErrsOnAllowedByte {
                        after: window as u8,
                        window,
                        state,
                        byte,
                    }));
                }
                // Once the check has erred the input is rejected whatever follows.
                continue;
            }
            queue.push_back((windows.shift(window, byte), next));
        }
    }
    Ok(visited)
}

/// Were the input to end here: the closing check must agree with the DFA,
/// and the one-comparison test with the closing check.
fn check_the_end(
    tables: &Tables,
    windows: &Windows,
    window: u64,
    state: u8,
) -> Result<(), Declined> {
    let closing_errs = windows.closing_errs(window);
    if windows.end_test(window) != closing_errs {
        return Err(Declined::ProofFailed(ProofFailure::EndTestDisagrees {
            after: window as u8,
            window,
        }));
    }
    let complete = tables.accepting()[state as usize];
    if closing_errs == complete {
        let input = if complete {
            Ending::Complete
        } else if state == tables.dead() {
            Ending::Invalid
        } else {
            Ending::Incomplete
        };
        return Err(Declined::ProofFailed(ProofFailure::ClosingCheckWrong {
            after: window as u8,
            window,
            state,
            input,
        }));
    }
    Ok(())
}

/// The lag: after the DFA dies, how many more bytes can the check read
/// without erring? Windows reached with a dead DFA and no error yet form a
/// graph; its longest path (plus the byte that errs, or the closing check)
/// is the lag. A cycle would make it unbounded.
fn max_lag(windows: &Windows, dead_windows: impl Iterator<Item = u64>) -> Result<usize, Declined> {
    let mut longest: HashMap<u64, usize> = HashMap::new();
    let mut on_path: HashSet<u64> = HashSet::new();
    let mut max_lag = 0;
    for w in dead_windows {
        let d = depth(windows, w, &mut longest, &mut on_path).ok_or(Declined::UnboundedLag)?;
        max_lag = max_lag.max(d + 1);
    }
    Ok(max_lag)
}

/// The longest path from `w` that never errs, or `None` on a cycle.
fn depth(
    windows: &Windows,
    w: u64,
    longest: &mut HashMap<u64, usize>,
    on_path: &mut HashSet<u64>,
) -> Option<usize> {
    if let Some(&d) = longest.get(&w) {
        return Some(d);
    }
    if !on_path.insert(w) {
        return None;
    }
    let mut best = 0;
    for (_, next) in windows.passing(w) {
        best = best.max(1 + depth(windows, next, longest, on_path)?);
    }
    on_path.remove(&w);
    longest.insert(w, best);
    Some(best)
}
