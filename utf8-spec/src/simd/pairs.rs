//! The byte pairs a valid input never holds, and the nibble-indexed sets
//! (boxes and tables) that describe them.

use std::collections::VecDeque;
use std::fmt;

use crate::{Tables, runs};

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

    /// The box's earliest member, earlier byte first: a stable order for the bits.
    pub(super) fn sort_key(&self) -> (u8, u8) {
        let smallest =
            |high: u16, low: u16| ((high.trailing_zeros() as u8) << 4) | low.trailing_zeros() as u8;
        (
            smallest(self.prev_high, self.prev_low),
            smallest(self.cur_high, self.cur_low),
        )
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

    pub(super) fn set(&mut self, b: &PairBox, bit: u8) {
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

/// A set of bytes that is exactly high nibbles × low nibbles.
pub(super) struct NibbleSet {
    pub(super) high: u16,
    pub(super) low: u16,
}

impl NibbleSet {
    pub(super) fn of(bytes: &[u8]) -> Option<NibbleSet> {
        let high = bytes.iter().fold(0u16, |m, &b| m | 1 << (b >> 4));
        let low = bytes.iter().fold(0u16, |m, &b| m | 1 << (b & 15));
        let size = (high.count_ones() * low.count_ones()) as usize;
        (size == bytes.len()).then_some(NibbleSet { high, low })
    }
}

/// The pairs the boxes of the check may and must flag, indexed `[p][c]`.
pub(super) struct ForbiddenPairs {
    /// The pair `p c` occurs in no valid input (the boundary byte before the
    /// input counted as a byte that came before), so a box may flag it.
    pub(super) forbidden: Vec<[bool; 256]>,
    /// A forbidden pair whose later byte can be valid somewhere, so a box
    /// must flag it. A pair whose later byte is never valid needs no box:
    /// that byte is caught as the earlier byte of the next pair, or by the
    /// closing boundary bytes (the proof checks that this holds) — unless
    /// [`Catch::AsciiWhereItStands`] asks for it.
    pub(super) required: Vec<[bool; 256]>,
}

/// Where the check must catch a byte that is never valid.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Catch {
    /// As the earlier byte of the next pair, or at the closing boundary:
    /// fewest boxes.
    Late,
    /// Below `%x80`, where it stands, as the later byte of its pair:
    /// needed when such a byte lies below the bytes that leave a sequence
    /// open (modified UTF-8's `00`), so that the end of the input can still
    /// be tested with one comparison.
    AsciiWhereItStands,
}

impl ForbiddenPairs {
    pub(super) fn of(tables: &Tables, boundary: u8, catch: Catch) -> ForbiddenPairs {
        let dead = tables.dead();
        let live = live_states(tables);
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
                    let here = catch == Catch::AsciiWhereItStands && c < 0x80;
                    *r &= ever_valid[c] || here;
                }
                out
            })
            .collect();
        ForbiddenPairs {
            forbidden,
            required,
        }
    }
}

/// The states reachable from the start, the dead state left out.
pub(super) fn live_states(tables: &Tables) -> Vec<u8> {
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
    tables
        .states()
        .filter(|&s| reachable[s as usize] && s != dead)
        .collect()
}
