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
//! **Proof.** The check is a function of a window of the last few bytes, so
//! it is itself a finite automaton. [`SimdTables::new`] walks the product of
//! that window automaton (bytes abstracted to the classes that the tables,
//! thresholds and DFA cannot tell apart) and the minimal DFA from the start,
//! and requires in every reachable state that the check errs on a byte
//! exactly when the DFA dies on it, and that the closing boundary bytes err
//! exactly when the DFA is not accepting. That covers every input of every
//! length. A ruleset for which the tables cannot be built or the proof fails
//! is declined, with the reason.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;

use crate::{Tables, runs};

/// The bit of the first table set reserved for "continuation after continuation".
pub const CONTINUATION_BIT: u8 = 0x80;

/// The most table sets: each adds eight boxes (the first, seven) and four lookups.
pub const MAX_TABLE_SETS: usize = 2;

/// The most boxes of forbidden pairs: bits 0–6 of the first set, 0–7 of the second.
pub const MAX_BOXES: usize = 8 * MAX_TABLE_SETS - 1;

/// Why a ruleset gets no vectorised check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declined(pub String);

impl fmt::Display for Declined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A set of forbidden adjacent pairs that one table bit describes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PairBox {
    /// High nibbles of the earlier byte (bit n: nibble n).
    pub prev_high: u16,
    /// Low nibbles of the earlier byte.
    pub prev_low: u16,
    /// High nibbles of the later byte.
    pub cur_high: u16,
    /// Low nibbles of the later byte.
    pub cur_low: u16,
}

impl PairBox {
    /// Whether the pair `(prev, cur)` is in the box.
    pub fn contains(&self, prev: u8, cur: u8) -> bool {
        self.prev_high >> (prev >> 4) & 1 == 1
            && self.prev_low >> (prev & 15) & 1 == 1
            && self.cur_high >> (cur >> 4) & 1 == 1
            && self.cur_low >> (cur & 15) & 1 == 1
    }
}

/// `%xE0 then %x80-9F`, listing each side's bytes as ranges.
impl fmt::Debug for PairBox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |high: u16, low: u16| -> String {
            let mut member = [false; 256];
            for (byte, m) in member.iter_mut().enumerate() {
                *m = high >> (byte >> 4) & 1 == 1 && low >> (byte & 15) & 1 == 1;
            }
            let ranges: Vec<String> = runs(&member)
                .into_iter()
                .filter(|&(_, m)| m)
                .map(|(r, _)| r.to_string())
                .collect();
            ranges.join(" / ")
        };
        write!(
            f,
            "{} then {}",
            side(self.prev_high, self.prev_low),
            side(self.cur_high, self.cur_low)
        )
    }
}

/// One set of four nibble-indexed tables; a pair's bits are the AND of its four lookups.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct NibbleTables {
    /// Bits of the earlier byte's high nibble.
    pub prev_high: [u8; 16],
    /// Bits of the earlier byte's low nibble.
    pub prev_low: [u8; 16],
    /// Bits of the later byte's high nibble.
    pub cur_high: [u8; 16],
    /// Bits of the later byte's low nibble (all `0xFF` when not needed).
    pub cur_low: [u8; 16],
}

impl NibbleTables {
    /// The bits of the pair `prev cur`.
    pub fn bits(&self, prev: u8, cur: u8) -> u8 {
        self.prev_high[(prev >> 4) as usize]
            & self.prev_low[(prev & 15) as usize]
            & self.cur_high[(cur >> 4) as usize]
            & self.cur_low[(cur & 15) as usize]
    }

    fn set(&mut self, b: &PairBox, bit: u8) {
        for n in 0..16 {
            if b.prev_high >> n & 1 == 1 {
                self.prev_high[n] |= bit;
            }
            if b.prev_low >> n & 1 == 1 {
                self.prev_low[n] |= bit;
            }
            if b.cur_high >> n & 1 == 1 {
                self.cur_high[n] |= bit;
            }
            if b.cur_low >> n & 1 == 1 {
                self.cur_low[n] |= bit;
            }
        }
    }
}

/// The derived tables of the vectorised check, proved to accept exactly the
/// DFA's language.
#[derive(Clone, PartialEq, Eq)]
pub struct SimdTables {
    /// One or two sets of tables; a pair errs when any set gives it a bit
    /// (after the continuation XOR on the first set's bit 7).
    pub sets: Vec<NibbleTables>,
    /// `must_continue[k - 2]`: a byte `k` positions back that is at least this
    /// is a lead byte whose sequence needs the current byte (k = 2, 3, ...,
    /// longest sequence - 1).
    pub must_continue: Vec<u8>,
    /// The longest sequence, in bytes.
    pub max_sequence_len: usize,
    /// The byte that frames the input on both sides.
    pub boundary: u8,
    /// `incomplete[k - 1]`: the input ends inside a sequence (or on a byte
    /// that can never be valid) exactly when, for some k, the byte k positions
    /// before the end is at least this. Proved equal to the closing check, so
    /// that vector code can test the end of a block in one comparison.
    pub incomplete: Vec<u8>,
    /// Whether every byte of `%x00-7F` looks to the check and to the DFA
    /// exactly like the boundary byte, so that a block of them can be skipped
    /// after testing the end of the block before it.
    pub ascii_is_boundary: bool,
    /// The continuation bytes.
    pub continuation: Vec<u8>,
    /// The most bytes the check reports an invalid input after the byte on
    /// which the DFA dies (the closing boundary bytes included): an exact
    /// error needs the DFA to restart at most this far, plus a sequence,
    /// before the block where the check erred.
    pub max_lag: usize,
    /// What each of bits 0.. describes.
    pub boxes: Vec<PairBox>,
    /// Product states the proof visited.
    pub proof_states: usize,
}

impl SimdTables {
    /// Derives the tables from `tables` and proves them, or declines.
    pub fn new(tables: &Tables) -> Result<SimdTables, Declined> {
        let shape = Shape::new(tables)?;
        let (forbidden, required) = forbidden_pairs(tables, shape.boundary);
        let boxes = cover(&forbidden, &required)?;
        let continuation = NibbleSet::of(&shape.continuation).ok_or_else(|| {
            Declined(
                "the continuation bytes are not a set of high nibbles × low nibbles".to_owned(),
            )
        })?;
        let continuation_box = PairBox {
            prev_high: continuation.high,
            prev_low: continuation.low,
            cur_high: continuation.high,
            cur_low: continuation.low,
        };
        // Box i takes bit i of the first set (bits 0-6), then bits 0-7 of the second.
        let mut sets = vec![NibbleTables::default(); (boxes.len() + 1).div_ceil(8)];
        sets[0].set(&continuation_box, CONTINUATION_BIT);
        for (i, b) in boxes.iter().enumerate() {
            let (set, bit) = if i < 7 {
                (0, i)
            } else {
                (1 + (i - 7) / 8, (i - 7) % 8)
            };
            sets[set].set(b, 1 << bit);
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
            must_continue: shape.must_continue.clone(),
            max_sequence_len: shape.max_len,
            boundary: shape.boundary,
            incomplete: Vec::new(),
            ascii_is_boundary: false,
            continuation: shape.continuation.clone(),
            max_lag: 0,
            boxes,
            proof_states: 0,
        };
        simd.incomplete = incomplete_thresholds(&simd)?;
        // Equal verdicts, not equal bits: a box may flag a pair that another box flags too.
        let boundary = simd.boundary;
        simd.ascii_is_boundary = (0..0x80u8).all(|b| {
            tables.classes().class(b) == tables.classes().class(boundary)
                && simd
                    .must_continue
                    .iter()
                    .all(|&t| (b >= t) == (boundary >= t))
                && (b >= simd.incomplete[0]) == (boundary >= simd.incomplete[0])
                && [false, true].into_iter().all(|must| {
                    (0..=255u8).all(|c| {
                        simd.errs(b, c, must) == simd.errs(boundary, c, must)
                            && simd.errs(c, b, must) == simd.errs(c, boundary, must)
                    })
                })
        });
        (simd.proof_states, simd.max_lag) = prove(tables, &simd)?;
        Ok(simd)
    }

    /// Whether byte `cur` after `prev` errs, given whether a lead byte further
    /// back needs `cur` to be a continuation byte.
    pub fn errs(&self, prev: u8, cur: u8, must_continue: bool) -> bool {
        let first = self.sets[0].bits(prev, cur) ^ if must_continue { CONTINUATION_BIT } else { 0 };
        first != 0 || self.sets[1..].iter().any(|set| set.bits(prev, cur) != 0)
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
        let mut framed = vec![self.boundary; frame];
        framed.extend_from_slice(input);
        framed.extend(std::iter::repeat_n(self.boundary, frame));
        (frame..framed.len()).all(|i| {
            let must = (2..=frame).any(|k| framed[i - k] >= self.must_continue[k - 2]);
            !self.errs(framed[i - 1], framed[i], must)
        })
    }
}

impl fmt::Debug for SimdTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "SimdTables {{ longest sequence: {}, boundary: %x{:02X}, ASCII skippable: {}, proof: {} product states, lag: {} }}",
            self.max_sequence_len,
            self.boundary,
            self.ascii_is_boundary,
            self.proof_states,
            self.max_lag
        )?;
        for (i, b) in self.boxes.iter().enumerate() {
            let (set, bit) = if i < 7 {
                (0, i)
            } else {
                (1 + (i - 7) / 8, (i - 7) % 8)
            };
            writeln!(f, "  set {set}, bit {bit}: {b:?}")?;
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

/// What the DFA must look like for the check to apply: sequences with a lead
/// byte and continuation bytes, each state a number of bytes from the end of
/// its sequence.
struct Shape {
    continuation: Vec<u8>,
    must_continue: Vec<u8>,
    max_len: usize,
    boundary: u8,
}

impl Shape {
    fn new(tables: &Tables) -> Result<Shape, Declined> {
        let start = tables.start();
        let dead = tables.dead();
        let live = |s: u8| s != dead;
        if tables.accepting_states() != [start] {
            return Err(Declined(
                "the start state must be the only accepting state".to_owned(),
            ));
        }
        let boundary = (0..=255u8)
            .find(|&b| tables.next(start, b) == start)
            .ok_or_else(|| Declined("no byte leaves the start state where it is".to_owned()))?;

        // Bytes left until the sequence ends, for each live state.
        let mut left: Vec<Option<usize>> = vec![None; tables.state_count()];
        left[start as usize] = Some(0);
        for _ in 0..tables.state_count() {
            for s in 0..tables.state_count() as u8 {
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
                    return Err(Declined(format!(
                        "state {s} has successors at different distances from the end of a sequence"
                    )));
                }
            }
        }
        if left
            .iter()
            .enumerate()
            .any(|(s, l)| live(s as u8) && l.is_none())
        {
            return Err(Declined(
                "some state is not a fixed number of bytes from the end of its sequence".to_owned(),
            ));
        }

        let mut continuation = [false; 256];
        for s in (0..tables.state_count() as u8).filter(|&s| s != start && live(s)) {
            for b in 0..=255u8 {
                if live(tables.next(s, b)) {
                    continuation[b as usize] = true;
                }
            }
        }
        let mut length = [0usize; 256];
        for b in 0..=255u8 {
            let t = tables.next(start, b);
            if live(t) {
                if continuation[b as usize] {
                    return Err(Declined(format!(
                        "byte %x{b:02X} both starts and continues sequences"
                    )));
                }
                length[b as usize] = 1 + left[t as usize].expect("live");
            }
        }
        let max_len = *length.iter().max().expect("256 bytes");
        if max_len < 2 {
            return Err(Declined(
                "every sequence is one byte long; there is nothing for the check to do".to_owned(),
            ));
        }
        let mut must_continue = Vec::new();
        for k in 2..max_len {
            // Lead bytes of sequences longer than k must be exactly those from some threshold up.
            let threshold = (0..=255u8)
                .find(|&b| length[b as usize] > k)
                .expect("a lead of the longest length");
            let exact = (0..=255u8)
                .filter(|&b| length[b as usize] > 0)
                .all(|b| (length[b as usize] > k) == (b >= threshold));
            if !exact || threshold < 0x80 {
                return Err(Declined(format!(
                    "the lead bytes of sequences longer than {k} bytes are not all the valid lead bytes from one value up (at least %x80)"
                )));
            }
            must_continue.push(threshold);
        }
        Ok(Shape {
            continuation: (0..=255u8).filter(|&b| continuation[b as usize]).collect(),
            must_continue,
            max_len,
            boundary,
        })
    }
}

/// A set of bytes that is exactly high nibbles × low nibbles.
struct NibbleSet {
    high: u16,
    low: u16,
}

impl NibbleSet {
    fn of(bytes: &[u8]) -> Option<NibbleSet> {
        let high = bytes.iter().fold(0u16, |m, &b| m | 1 << (b >> 4));
        let low = bytes.iter().fold(0u16, |m, &b| m | 1 << (b & 15));
        let size = (high.count_ones() * low.count_ones()) as usize;
        (size == bytes.len()).then_some(NibbleSet { high, low })
    }
}

/// `forbidden[p][c]`: the pair `p c` occurs in no valid input (the boundary
/// byte before the input counted as a byte that came before), so a box may
/// flag it. `required[p][c]`: a forbidden pair whose later byte can be valid
/// somewhere, so a box must flag it. A pair whose later byte is never valid
/// needs no box: that byte is caught as the earlier byte of the next pair, or
/// by the closing boundary bytes (the proof checks that this holds).
fn forbidden_pairs(tables: &Tables, boundary: u8) -> (Vec<[bool; 256]>, Vec<[bool; 256]>) {
    let dead = tables.dead();
    let mut reachable = vec![false; tables.state_count()];
    let mut queue = VecDeque::from([tables.start()]);
    while let Some(s) = queue.pop_front() {
        if std::mem::replace(&mut reachable[s as usize], true) {
            continue;
        }
        for b in 0..=255u8 {
            let t = tables.next(s, b);
            if t != dead {
                queue.push_back(t);
            }
        }
    }
    let live: Vec<u8> = (0..tables.state_count() as u8)
        .filter(|&s| reachable[s as usize] && s != dead)
        .collect();
    let mut forbidden = vec![[true; 256]; 256];
    for &s in &live {
        for p in 0..=255u8 {
            let after = tables.next(s, p);
            if after == dead {
                continue;
            }
            for c in 0..=255u8 {
                if tables.next(after, c) != dead {
                    forbidden[p as usize][c as usize] = false;
                }
            }
        }
    }
    // The check sees the boundary byte before the first byte of the input.
    for c in 0..=255u8 {
        if tables.next(tables.start(), c) != dead {
            forbidden[boundary as usize][c as usize] = false;
        }
    }
    let ever_valid: Vec<bool> = (0..=255u8)
        .map(|c| live.iter().any(|&s| tables.next(s, c) != dead))
        .collect();
    let required = forbidden
        .iter()
        .map(|row| {
            let mut out = *row;
            for (c, r) in out.iter_mut().enumerate() {
                *r &= ever_valid[c];
            }
            out
        })
        .collect();
    (forbidden, required)
}

/// Groups the 16 values of one nibble position into classes that the
/// forbidden set cannot tell apart.
fn nibble_classes(key: impl Fn(usize) -> Vec<bool>) -> Vec<u16> {
    let mut classes: Vec<(Vec<bool>, u16)> = Vec::new();
    for n in 0..16 {
        let k = key(n);
        match classes.iter_mut().find(|(existing, _)| *existing == k) {
            Some((_, members)) => *members |= 1 << n,
            None => classes.push((k, 1 << n)),
        }
    }
    classes.into_iter().map(|(_, members)| members).collect()
}

/// The fewest boxes (at most [`MAX_BOXES`]) inside the forbidden set whose
/// union holds every required pair.
fn cover(forbidden: &[[bool; 256]], required: &[[bool; 256]]) -> Result<Vec<PairBox>, Declined> {
    let at = |ph: usize, pl: usize, ch: usize, cl: usize| forbidden[ph << 4 | pl][ch << 4 | cl];
    let needed = |ph: usize, pl: usize, ch: usize, cl: usize| required[ph << 4 | pl][ch << 4 | cl];
    // Both sets must be constant on a class, so the key holds both.
    let key = |f: &dyn Fn(usize, usize, usize) -> (bool, bool)| -> Vec<bool> {
        (0..4096)
            .flat_map(|i| {
                let (a, b) = f(i >> 8, i >> 4 & 15, i & 15);
                [a, b]
            })
            .collect()
    };
    let ph = nibble_classes(|n| key(&|a, b, c| (at(n, a, b, c), needed(n, a, b, c))));
    let pl = nibble_classes(|n| key(&|a, b, c| (at(a, n, b, c), needed(a, n, b, c))));
    let ch = nibble_classes(|n| key(&|a, b, c| (at(a, b, n, c), needed(a, b, n, c))));
    let cl = nibble_classes(|n| key(&|a, b, c| (at(a, b, c, n), needed(a, b, c, n))));
    let rep = |classes: &[u16], i: usize| classes[i].trailing_zeros() as usize;
    let (nph, npl, nch, ncl) = (ph.len(), pl.len(), ch.len(), cl.len());
    if nph > 16 || npl > 16 || nch > 16 || ncl > 16 {
        unreachable!("at most 16 classes of 16 nibbles");
    }
    // grid[a][b][x]: bitmask over classes of the later byte's low nibble that are
    // forbidden after (a, b) with the later byte's high nibble in class x.
    let mut grid = vec![vec![vec![0u32; nch]; npl]; nph];
    for (a, row) in grid.iter_mut().enumerate() {
        for (b, cells) in row.iter_mut().enumerate() {
            for (x, mask) in cells.iter_mut().enumerate() {
                for y in 0..ncl {
                    if at(rep(&ph, a), rep(&pl, b), rep(&ch, x), rep(&cl, y)) {
                        *mask |= 1 << y;
                    }
                }
            }
        }
    }
    let all_y = (1u32 << ncl) - 1;
    let members = |mask: u32, n: usize| (0..n).filter(move |i| mask >> i & 1 == 1);
    // Everything forbidden in the box, as the low-nibble classes common to all its cells.
    let common_y = |a: u32, b: u32, x: u32| {
        let mut y = all_y;
        for i in members(a, nph) {
            for j in members(b, npl) {
                for k in members(x, nch) {
                    y &= grid[i][j][k];
                }
            }
        }
        y
    };
    let fits = |a: u32, b: u32, x: u32, y: u32| common_y(a, b, x) & y == y;
    // Maximal boxes, each closed in all four coordinates. For every choice of
    // the later byte's classes (x, y), the earlier byte's (a, b) that fit form
    // a matrix whose maximal rectangles are found from its rows.
    let mut candidates: HashSet<(u32, u32, u32, u32)> = HashSet::new();
    for x in 1u32..1 << nch {
        for y in 1u32..=all_y {
            let rows: Vec<u32> = (0..nph)
                .map(|i| {
                    (0..npl)
                        .filter(|&j| members(x, nch).all(|k| grid[i][j][k] & y == y))
                        .fold(0u32, |m, j| m | 1 << j)
                })
                .collect();
            for a in 1u32..1 << nph {
                let b = members(a, nph).fold((1u32 << npl) - 1, |m, i| m & rows[i]);
                if b == 0 {
                    continue;
                }
                let closed_a = (0..nph)
                    .filter(|&i| rows[i] & b == b)
                    .fold(0u32, |m, i| m | 1 << i);
                if closed_a != a {
                    continue;
                }
                // A maximal box shows up here with its later-byte coordinates
                // already closed; seeds whose (x, y) could grow lead to boxes
                // that the closed (x, y) finds anyway.
                let closed_y = common_y(a, b, x);
                let closed_x = (0..nch)
                    .filter(|&k| fits(a, b, 1 << k, y))
                    .fold(0u32, |m, k| m | 1 << k);
                if closed_y != y || closed_x != x {
                    continue;
                }
                candidates.insert((a, b, x, y));
            }
        }
    }
    // Cells of the compressed forbidden set, and which candidates cover each.
    let cell = |a: usize, b: usize, x: usize, y: usize| ((a * npl + b) * nch + x) * ncl + y;
    let cell_count = nph * npl * nch * ncl;
    let mut target = vec![false; cell_count];
    for a in 0..nph {
        for b in 0..npl {
            for x in 0..nch {
                for y in 0..ncl {
                    target[cell(a, b, x, y)] =
                        needed(rep(&ph, a), rep(&pl, b), rep(&ch, x), rep(&cl, y));
                }
            }
        }
    }
    let mut candidates: Vec<(u32, u32, u32, u32)> = candidates.into_iter().collect();
    candidates.sort_unstable();
    let cells_of = |&(a, b, x, y): &(u32, u32, u32, u32)| -> Vec<usize> {
        let mut out = Vec::new();
        for i in (0..nph).filter(|i| a >> i & 1 == 1) {
            for j in (0..npl).filter(|j| b >> j & 1 == 1) {
                for k in (0..nch).filter(|k| x >> k & 1 == 1) {
                    for l in (0..ncl).filter(|l| y >> l & 1 == 1) {
                        out.push(cell(i, j, k, l));
                    }
                }
            }
        }
        out
    };
    let covers: Vec<Vec<usize>> = candidates.iter().map(cells_of).collect();
    let mut by_cell: Vec<Vec<usize>> = vec![Vec::new(); cell_count];
    for (c, cells) in covers.iter().enumerate() {
        for &x in cells {
            by_cell[x].push(c);
        }
    }
    // Larger boxes first: they tend to finish a cover sooner.
    for list in by_cell.iter_mut() {
        list.sort_by_key(|&c| std::cmp::Reverse(covers[c].len()));
    }
    let wanted = target.iter().filter(|&&t| t).count();
    for limit in 0..=MAX_BOXES {
        let mut chosen = Vec::new();
        let mut count = vec![0u32; cell_count];
        if search(
            &target,
            &by_cell,
            &covers,
            limit,
            wanted,
            &mut count,
            &mut chosen,
        ) {
            let expand = |mask: u32, classes: &[u16]| {
                (0..classes.len())
                    .filter(|i| mask >> i & 1 == 1)
                    .fold(0u16, |m, i| m | classes[i])
            };
            let mut boxes: Vec<PairBox> = chosen
                .iter()
                .map(|&c| {
                    let (a, b, x, y) = candidates[c];
                    PairBox {
                        prev_high: expand(a, &ph),
                        prev_low: expand(b, &pl),
                        cur_high: expand(x, &ch),
                        cur_low: expand(y, &cl),
                    }
                })
                .collect();
            // A stable order for the bits: by the earlier byte's smallest member, then the later byte's.
            boxes.sort_by_key(|b| {
                (
                    smallest(b.prev_high, b.prev_low),
                    smallest(b.cur_high, b.cur_low),
                )
            });
            return Ok(boxes);
        }
    }
    Err(Declined(format!(
        "the forbidden byte pairs need more than {MAX_BOXES} boxes of nibble sets"
    )))
}

fn smallest(high: u16, low: u16) -> u8 {
    ((high.trailing_zeros() as u8) << 4) | low.trailing_zeros() as u8
}

/// Exact cover by at most `limit` more boxes: pick the uncovered cell with the
/// fewest candidates and branch on them.
fn search(
    target: &[bool],
    by_cell: &[Vec<usize>],
    covers: &[Vec<usize>],
    limit: usize,
    uncovered: usize,
    count: &mut [u32],
    chosen: &mut Vec<usize>,
) -> bool {
    if uncovered == 0 {
        return true;
    }
    if limit == 0 {
        return false;
    }
    let pick = (0..target.len())
        .filter(|&c| target[c] && count[c] == 0)
        .min_by_key(|&c| by_cell[c].len())
        .expect("an uncovered cell");
    for &candidate in &by_cell[pick] {
        let mut newly = 0;
        for &c in &covers[candidate] {
            if count[c] == 0 && target[c] {
                newly += 1;
            }
            count[c] += 1;
        }
        chosen.push(candidate);
        if search(
            target,
            by_cell,
            covers,
            limit - 1,
            uncovered - newly,
            count,
            chosen,
        ) {
            return true;
        }
        chosen.pop();
        for &c in &covers[candidate] {
            count[c] -= 1;
        }
    }
    false
}

/// For each distance k back from the end, the smallest byte that, with only
/// boundary bytes around it, makes the closing check err; and a check that
/// every larger byte does too (so that one unsigned comparison tests it).
fn incomplete_thresholds(simd: &SimdTables) -> Result<Vec<u8>, Declined> {
    let frame = simd.max_sequence_len - 1;
    let closing_errs_with = |k: usize, b: u8| {
        let mut framed = vec![simd.boundary; 2 * frame];
        framed[frame - k] = b;
        (frame..2 * frame).any(|i| {
            let must = (2..=frame).any(|j| framed[i - j] >= simd.must_continue[j - 2]);
            simd.errs(framed[i - 1], framed[i], must)
        })
    };
    (1..=frame)
        .map(|k| {
            let threshold = (0..=255u8).find(|&b| closing_errs_with(k, b)).unwrap_or(0xFF);
            if (0..=255u8).all(|b| closing_errs_with(k, b) == (b >= threshold)) && closing_errs_with(k, threshold) {
                Ok(threshold)
            } else {
                Err(Declined(format!(
                    "the bytes that leave a sequence open {k} bytes before the end are not all bytes from one value up"
                )))
            }
        })
        .collect()
}

/// Walks the product of the check's window automaton and the DFA; returns how
/// many product states it visited and the check's largest lag behind the
/// DFA, or why the check is not exact.
///
/// A product state is the window of the last bytes (as representatives of
/// the classes of bytes that the check and the DFA cannot tell apart), the
/// DFA state, and whether the check has erred. The check accepts an input
/// when it has not erred and the closing boundary bytes do not err. Both
/// accept the same inputs exactly when, in every reachable product state:
/// - the check has not erred while the DFA is alive (every live state of a
///   minimal DFA leads on to acceptance, so an early error rejects an input
///   the DFA accepts);
/// - without an error so far, the closing check errs exactly when the DFA's
///   state is not accepting (a dead DFA state included).
fn prove(tables: &Tables, simd: &SimdTables) -> Result<(usize, usize), Declined> {
    let frame = simd.max_sequence_len - 1;
    let dead = tables.dead();
    // How many must-continue thresholds a byte reaches. The thresholds rise
    // with the distance back, so a byte k back demands a continuation exactly
    // when it reaches k - 1 of them: bytes further back than one matter only
    // through this count.
    let reach = |b: u8| simd.must_continue.iter().filter(|&&t| b >= t).count() as u64;
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
            reach(b),
            b >= simd.incomplete[0],
            tables.classes().class(b),
        )
    };
    let mut representative_of: HashMap<_, u8> = HashMap::new();
    for b in 0..=255u8 {
        representative_of.entry(signature(b)).or_insert(b);
    }
    let mut representatives: Vec<u8> = representative_of.values().copied().collect();
    representatives.sort_unstable();
    let boundary = representative_of[&signature(simd.boundary)];

    // A window packs the byte just read (a representative, bits 0-7) and the
    // reach of each older byte (4 bits each, the nearest at bits 8-11).
    const REACH_BITS: u32 = 4;
    let older = |window: u64, k: usize| (window >> (8 + REACH_BITS * (k as u32 - 2))) & 0xF;
    let errs = |window: u64, cur: u8| {
        let must = (2..=frame).any(|k| older(window, k) >= (k - 1) as u64);
        simd.errs(window as u8, cur, must)
    };
    let older_mask = (1u64 << (REACH_BITS * (frame as u32 - 1))) - 1;
    let shift = |window: u64, cur: u8| {
        let older_part = ((window >> 8) << REACH_BITS | reach(window as u8)) & older_mask;
        older_part << 8 | u64::from(cur)
    };
    let closing_errs = |window: u64| {
        let mut w = window;
        (0..frame).any(|_| {
            let e = errs(w, boundary);
            w = shift(w, boundary);
            e
        })
    };
    // The one-comparison test of the end, on a window: the byte just read
    // against the first threshold, older bytes through their reach (for k >= 2
    // the incomplete thresholds are the must-continue ones).
    let incomplete = |window: u64| {
        window as u8 >= simd.incomplete[0]
            || (2..=frame).any(|k| older(window, k) >= (k - 1) as u64)
    };
    let mut start_window = u64::from(boundary);
    for _ in 1..frame {
        start_window = shift(start_window, boundary);
    }
    let mut visited: HashSet<(u64, u8)> = HashSet::new();
    let mut queue = VecDeque::from([(start_window, tables.start())]);
    while let Some((window, state)) = queue.pop_front() {
        if !visited.insert((window, state)) {
            continue;
        }
        let complete = tables.accepting()[state as usize];
        if incomplete(window) != closing_errs(window) {
            return Err(Declined(format!(
                "proof failed: after a byte like %x{:02X} (window {window:#X}) the one-comparison end test and the closing check disagree",
                window as u8
            )));
        }
        if closing_errs(window) == complete {
            return Err(Declined(format!(
                "proof failed: after a byte like %x{:02X} (window {window:#X}, DFA state {state}) the closing check {} though the input {}",
                window as u8,
                if complete { "errs" } else { "passes" },
                if complete {
                    "is complete"
                } else if state == dead {
                    "is invalid"
                } else {
                    "is incomplete"
                }
            )));
        }
        for &byte in &representatives {
            let next = tables.next(state, byte);
            if errs(window, byte) {
                if next != dead {
                    return Err(Declined(format!(
                        "proof failed: after a byte like %x{:02X} (window {window:#X}, DFA state {state}) the check errs on %x{byte:02X}, which the DFA allows",
                        window as u8
                    )));
                }
                // Once the check has erred the input is rejected whatever follows.
                continue;
            }
            queue.push_back((shift(window, byte), next));
        }
    }
    // The lag: after the DFA dies, how many more bytes can the check read
    // without erring? States with a dead DFA and no error yet form a graph;
    // its longest path (plus the byte that errs, or the closing check) is the
    // lag. A cycle would make it unbounded.
    let dead_windows: Vec<u64> = visited
        .iter()
        .filter(|&&(_, s)| s == dead)
        .map(|&(w, _)| w)
        .collect();
    let mut longest: HashMap<u64, usize> = HashMap::new();
    let mut on_path: HashSet<u64> = HashSet::new();
    fn depth(
        w: u64,
        next: &dyn Fn(u64) -> Vec<u64>,
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
        for n in next(w) {
            best = best.max(1 + depth(n, next, longest, on_path)?);
        }
        on_path.remove(&w);
        longest.insert(w, best);
        Some(best)
    }
    let next = |w: u64| -> Vec<u64> {
        representatives
            .iter()
            .filter(|&&b| !errs(w, b))
            .map(|&b| shift(w, b))
            .collect()
    };
    let mut max_lag = 0;
    for &w in &dead_windows {
        let d = depth(w, &next, &mut longest, &mut on_path).ok_or_else(|| {
            Declined("the check can read on forever after the DFA has died".to_owned())
        })?;
        max_lag = max_lag.max(d + 1);
    }
    Ok((visited.len(), max_lag))
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
        assert_eq!(s.max_sequence_len, 4);
        assert_eq!(s.must_continue, [0xE0, 0xF0]);
        assert_eq!(s.boundary, 0x00);
        // Keiser and Lemire's is_incomplete: the last byte > BF, the one before > DF, then > EF.
        assert_eq!(s.incomplete, [0xC0, 0xE0, 0xF0]);
        assert!(s.ascii_is_boundary);
        assert_eq!(s.continuation, (0x80..=0xBF).collect::<Vec<u8>>());
        // F5 is only caught as the earlier byte of the next pair: one byte late.
        assert_eq!(s.max_lag, 1);
    }

    #[test]
    fn legacy31_gets_the_check_with_the_low_nibble_of_the_later_byte() {
        let s = simd(&rulesets::LEGACY31);
        assert!(s.needs_cur_low(), "{s:?}");
        assert_eq!(s.max_sequence_len, 6);
        assert_eq!(s.must_continue, [0xE0, 0xF0, 0xF8, 0xFC]);
        assert_eq!(s.incomplete, [0xC0, 0xE0, 0xF0, 0xF8, 0xFC]);
        assert!(s.ascii_is_boundary);
    }

    #[test]
    fn declines_rulesets_that_byte_pairs_cannot_check() {
        let declined: Vec<(&str, String)> = rulesets::BUILTIN
            .iter()
            .filter_map(|r| {
                let d = r.derive().unwrap();
                SimdTables::new(d.tables())
                    .err()
                    .map(|Declined(why)| (r.name, why))
            })
            .collect();
        let names: Vec<&str> = declined.iter().map(|(name, _)| *name).collect();
        // CESU-8's pair is two sequences' worth of bytes in one; modified
        // UTF-8's C0 may start a sequence but C1 may not; WTF-8 accepts after
        // a lead surrogate without being back at the start.
        assert_eq!(names, ["cesu8", "mutf8", "wtf8"], "{declined:?}");
        assert!(
            declined[2].1.contains("only accepting state"),
            "{declined:?}"
        );
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
            for class in 0..d.tables().class_count() as u8 {
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
        assert!(prove(d.tables(), &s).is_err());
        let mut s = SimdTables::new(d.tables()).unwrap();
        s.incomplete[0] = 0xE0; // a trailing C2 no longer counts as open
        assert!(prove(d.tables(), &s).is_err());
        let mut s = SimdTables::new(d.tables()).unwrap();
        s.sets[0].cur_high[0x9] = 0; // 9x after anything passes the pair check
        let e = prove(d.tables(), &s).unwrap_err();
        assert!(e.0.starts_with("proof failed"), "{e}");
    }

    #[test]
    fn a_ruleset_of_single_bytes_is_declined() {
        let d = crate::Derivation::new("s = *%x00-7F\n", "s").unwrap();
        let e = SimdTables::new(d.tables()).unwrap_err();
        assert!(e.0.contains("one byte long"), "{e}");
    }
}
