//! The cover search: the fewest boxes of nibble sets, each inside the
//! forbidden pairs, whose union holds every required pair.
//!
//! The 16 values of each of the four nibbles (earlier byte high and low,
//! later byte high and low) are first grouped into classes that the two sets
//! cannot tell apart, which shrinks the grid from 16⁴ cells to at most a few
//! hundred. The maximal boxes of that grid are the candidates, and an exact
//! search over them finds the smallest cover.

use std::collections::HashSet;

use super::Declined;
use super::pairs::{ForbiddenPairs, PairBox};

/// The four nibble positions, in the order `ForbiddenPairs` indexes them.
const POSITIONS: usize = 4;

/// A box of the compressed grid: one bitmask of classes per position.
type ClassBox = [u32; POSITIONS];

/// Derives the fewest boxes (at most `limit`) that cover `pairs`.
pub(super) fn cover(pairs: &ForbiddenPairs, limit: usize) -> Result<Vec<PairBox>, Declined> {
    let classes = NibbleClasses::of(pairs);
    let grid = Grid::new(&classes, pairs);
    let candidates = grid.maximal_boxes();
    let search = CoverSearch::new(&classes, pairs, &candidates);
    let chosen = (0..=limit)
        .find_map(|limit| search.within(limit))
        .ok_or(Declined::TooManyBoxes { limit })?;
    let mut boxes: Vec<PairBox> = chosen
        .iter()
        .map(|&c| classes.expand(&candidates[c]))
        .collect();
    boxes.sort_by_key(PairBox::sort_key);
    Ok(boxes)
}

fn is_forbidden(pairs: &ForbiddenPairs, [ph, pl, ch, cl]: [usize; POSITIONS]) -> bool {
    pairs.forbidden[ph << 4 | pl][ch << 4 | cl]
}

fn is_required(pairs: &ForbiddenPairs, [ph, pl, ch, cl]: [usize; POSITIONS]) -> bool {
    pairs.required[ph << 4 | pl][ch << 4 | cl]
}

fn members(mask: u32, n: usize) -> impl Iterator<Item = usize> {
    (0..n).filter(move |i| mask >> i & 1 == 1)
}

/// Per position, the classes of nibble values (bit n: nibble n).
struct NibbleClasses([Vec<u16>; POSITIONS]);

impl NibbleClasses {
    fn of(pairs: &ForbiddenPairs) -> NibbleClasses {
        NibbleClasses(std::array::from_fn(|position| {
            let mut classes: Vec<(Vec<bool>, u16)> = Vec::new();
            for n in 0..16 {
                // Both sets must be constant on a class, so the key holds both.
                let key: Vec<bool> = (0..4096)
                    .flat_map(|i| {
                        let mut others = [i >> 8, i >> 4 & 15, i & 15].into_iter();
                        let nibbles: [usize; POSITIONS] = std::array::from_fn(|p| {
                            if p == position {
                                n
                            } else {
                                others.next().expect("three other positions")
                            }
                        });
                        [is_forbidden(pairs, nibbles), is_required(pairs, nibbles)]
                    })
                    .collect();
                match classes.iter_mut().find(|(existing, _)| *existing == key) {
                    Some((_, members)) => *members |= 1 << n,
                    None => classes.push((key, 1 << n)),
                }
            }
            classes.into_iter().map(|(_, members)| members).collect()
        }))
    }

    fn count(&self, position: usize) -> usize {
        self.0[position].len()
    }

    fn counts(&self) -> [usize; POSITIONS] {
        std::array::from_fn(|p| self.count(p))
    }

    /// A nibble value of each class in `cell`.
    fn representatives(&self, cell: [usize; POSITIONS]) -> [usize; POSITIONS] {
        std::array::from_fn(|p| self.0[p][cell[p]].trailing_zeros() as usize)
    }

    fn expand(&self, b: &ClassBox) -> PairBox {
        let nibbles = |p: usize| members(b[p], self.count(p)).fold(0u16, |m, i| m | self.0[p][i]);
        PairBox {
            prev_high: nibbles(0),
            prev_low: nibbles(1),
            cur_high: nibbles(2),
            cur_low: nibbles(3),
        }
    }
}

/// The compressed forbidden set: `forbidden_low[a][b][x]` is the bitmask of
/// the later byte's low-nibble classes forbidden after earlier-byte classes
/// `(a, b)` with the later byte's high nibble in class `x`.
struct Grid {
    counts: [usize; POSITIONS],
    forbidden_low: Vec<Vec<Vec<u32>>>,
}

impl Grid {
    fn new(classes: &NibbleClasses, pairs: &ForbiddenPairs) -> Grid {
        let [nph, npl, nch, ncl] = classes.counts();
        let forbidden_low = (0..nph)
            .map(|a| {
                (0..npl)
                    .map(|b| {
                        (0..nch)
                            .map(|x| {
                                (0..ncl)
                                    .filter(|&y| {
                                        is_forbidden(pairs, classes.representatives([a, b, x, y]))
                                    })
                                    .fold(0u32, |m, y| m | 1 << y)
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Grid {
            counts: classes.counts(),
            forbidden_low,
        }
    }

    /// The low-nibble classes forbidden in every cell of the box `(a, b, x)`.
    fn common_low(&self, a: u32, b: u32, x: u32) -> u32 {
        let [nph, npl, nch, ncl] = self.counts;
        let mut y = (1u32 << ncl) - 1;
        for i in members(a, nph) {
            for j in members(b, npl) {
                for k in members(x, nch) {
                    y &= self.forbidden_low[i][j][k];
                }
            }
        }
        y
    }

    /// The boxes inside the forbidden set that no coordinate can grow.
    /// For every choice of the later byte's classes `(x, y)`, the earlier
    /// byte's `(a, b)` that fit form a matrix whose maximal rectangles are
    /// found from its rows.
    fn maximal_boxes(&self) -> Vec<ClassBox> {
        let [nph, npl, nch, ncl] = self.counts;
        let mut found: HashSet<ClassBox> = HashSet::new();
        for x in 1u32..1 << nch {
            for y in 1u32..1 << ncl {
                let rows: Vec<u32> = (0..nph)
                    .map(|i| {
                        (0..npl)
                            .filter(|&j| {
                                members(x, nch).all(|k| self.forbidden_low[i][j][k] & y == y)
                            })
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
                    let closed_y = self.common_low(a, b, x);
                    let closed_x = (0..nch)
                        .filter(|&k| self.common_low(a, b, 1 << k) & y == y)
                        .fold(0u32, |m, k| m | 1 << k);
                    if closed_y == y && closed_x == x {
                        found.insert([a, b, x, y]);
                    }
                }
            }
        }
        let mut found: Vec<ClassBox> = found.into_iter().collect();
        found.sort_unstable();
        found
    }
}

/// An exact search for the fewest candidates that cover every required cell.
struct CoverSearch {
    /// Whether each cell of the compressed grid must be covered.
    target: Vec<bool>,
    /// The cells each candidate covers.
    covers: Vec<Vec<usize>>,
    /// The candidates that cover each cell, larger boxes first: they tend to
    /// finish a cover sooner.
    by_cell: Vec<Vec<usize>>,
}

/// The choices made so far, and how often each cell is covered by them.
struct Partial {
    chosen: Vec<usize>,
    count: Vec<u32>,
}

impl CoverSearch {
    fn new(classes: &NibbleClasses, pairs: &ForbiddenPairs, candidates: &[ClassBox]) -> Self {
        let counts = classes.counts();
        let [_, npl, nch, ncl] = counts;
        let cell = |[a, b, x, y]: [usize; POSITIONS]| ((a * npl + b) * nch + x) * ncl + y;
        let cell_count = counts.iter().product();
        let mut target = vec![false; cell_count];
        for (index, t) in target.iter_mut().enumerate() {
            let coordinates = [
                index / (ncl * nch * npl),
                index / (ncl * nch) % npl,
                index / ncl % nch,
                index % ncl,
            ];
            *t = is_required(pairs, classes.representatives(coordinates));
        }
        let covers: Vec<Vec<usize>> = candidates
            .iter()
            .map(|b| {
                let mut out = Vec::new();
                for i in members(b[0], counts[0]) {
                    for j in members(b[1], counts[1]) {
                        for k in members(b[2], counts[2]) {
                            for l in members(b[3], counts[3]) {
                                out.push(cell([i, j, k, l]));
                            }
                        }
                    }
                }
                out
            })
            .collect();
        let mut by_cell: Vec<Vec<usize>> = vec![Vec::new(); cell_count];
        for (c, cells) in covers.iter().enumerate() {
            for &x in cells {
                by_cell[x].push(c);
            }
        }
        for list in by_cell.iter_mut() {
            list.sort_by_key(|&c| std::cmp::Reverse(covers[c].len()));
        }
        CoverSearch {
            target,
            covers,
            by_cell,
        }
    }

    /// A cover by at most `limit` candidates, if there is one.
    fn within(&self, limit: usize) -> Option<Vec<usize>> {
        let mut partial = Partial {
            chosen: Vec::new(),
            count: vec![0; self.target.len()],
        };
        let uncovered = self.target.iter().filter(|&&t| t).count();
        self.extend(&mut partial, limit, uncovered)
            .then_some(partial.chosen)
    }

    /// Picks the uncovered cell with the fewest candidates and branches on them.
    fn extend(&self, partial: &mut Partial, limit: usize, uncovered: usize) -> bool {
        if uncovered == 0 {
            return true;
        }
        if limit == 0 {
            return false;
        }
        let pick = (0..self.target.len())
            .filter(|&c| self.target[c] && partial.count[c] == 0)
            .min_by_key(|&c| self.by_cell[c].len())
            .expect("an uncovered cell");
        for &candidate in &self.by_cell[pick] {
            let mut newly = 0;
            for &c in &self.covers[candidate] {
                if partial.count[c] == 0 && self.target[c] {
                    newly += 1;
                }
                partial.count[c] += 1;
            }
            partial.chosen.push(candidate);
            if self.extend(partial, limit - 1, uncovered - newly) {
                return true;
            }
            partial.chosen.pop();
            for &c in &self.covers[candidate] {
                partial.count[c] -= 1;
            }
        }
        false
    }
}
