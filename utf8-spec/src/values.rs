//! What the sequences of a language decode to: only Unicode scalar values
//! (so a decoder can hand out `char`), or code points that may be surrogates
//! or lie beyond U+10FFFF (so it hands out `u32`).
//!
//! Decoding follows the UTF-8 bit layout that every built-in ruleset shares,
//! applied to each *sequence* — the bytes between two points where the
//! automaton accepts:
//!
//! - a *unit* starts at a byte with `n` leading one bits (`n` = 0, or 2 to 6)
//!   and takes the `n - 1` continuation bytes (`10xxxxxx`) after it, if the
//!   sequence has them: its value is the lead byte's bits after its first zero,
//!   then six bits from each continuation byte;
//! - any other byte (a continuation byte where a unit should start, `FE`,
//!   `FF`, or a lead byte whose unit the sequence cuts short) is a unit of
//!   its own whose value is the byte;
//! - a sequence of exactly two units, a lead surrogate (U+D800–DBFF) then a
//!   trail surrogate (U+DC00–DFFF), is the one supplementary character that
//!   the pair stands for, as in UTF-16 — CESU-8 writes supplementary
//!   characters this way.
//!
//! [`value_kind`] walks every path of the minimal automaton from an
//! accepting state to the next one, tracking for each unit the set of values
//! its bytes can take (as intervals), and answers
//! [`ValueKind::Scalars`] only when no path can produce a surrogate that is
//! not paired or a value above U+10FFFF.
//!
//! ```
//! use utf8_spec::rulesets::{CESU8, LEGACY31, RFC3629, WTF8};
//! use utf8_spec::values::{value_kind, ValueKind};
//! let kind = |r: utf8_spec::rulesets::Ruleset| value_kind(r.derive().unwrap().tables());
//! assert_eq!(kind(RFC3629), ValueKind::Scalars);
//! // Surrogates occur only in pairs, which decode to one character.
//! assert_eq!(kind(CESU8), ValueKind::Scalars);
//! // Unpaired surrogates; values up to U+7FFFFFFF.
//! assert_eq!(kind(WTF8), ValueKind::CodePoints);
//! assert_eq!(kind(LEGACY31), ValueKind::CodePoints);
//! ```

use crate::Tables;

/// What a decoder of a language can promise about the values it yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Every value is a Unicode scalar value: a `char`.
    Scalars,
    /// Some value may be a surrogate or above U+10FFFF — or the language is
    /// too large for the analysis to tell, which it then says conservatively.
    CodePoints,
}

/// Sequences longer than this are not analysed (the answer is then
/// [`ValueKind::CodePoints`]): the longest sequence of a built-in ruleset is
/// CESU-8's six-byte pair.
const MAX_SEQUENCE_LEN: usize = 12;
/// Paths walked before giving up.
const MAX_PATHS: usize = 1 << 20;
/// Intervals one unit's value set may split into before giving up.
const MAX_INTERVALS: usize = 1 << 14;

const LEAD_SURROGATES: (u32, u32) = (0xD800, 0xDBFF);
const TRAIL_SURROGATES: (u32, u32) = (0xDC00, 0xDFFF);

/// Whether the language of `tables` decodes only to scalar values.
pub fn value_kind(tables: &Tables) -> ValueKind {
    let mut walk = Walk {
        tables,
        path: Vec::new(),
        paths: 0,
    };
    let origins = tables.accepting_states();
    if origins.iter().all(|&origin| walk.from(origin)) {
        ValueKind::Scalars
    } else {
        ValueKind::CodePoints
    }
}

/// The number of bytes of the unit that `byte` starts, by its leading ones;
/// 0 for a byte that starts no unit (a continuation byte, `FE`, `FF`).
pub const fn unit_len(byte: u8) -> usize {
    match byte.leading_ones() {
        0 => 1,
        n @ 2..=6 => n as usize,
        _ => 0,
    }
}

/// The byte ranges that one bit-layout kind covers, so that a range of bytes
/// split at these points holds bytes of one kind.
const KIND_STARTS: [u8; 7] = [0x80, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC, 0xFE];

struct Walk<'t> {
    tables: &'t Tables,
    /// The byte ranges read since the last accepting state, each of one kind.
    path: Vec<(u8, u8)>,
    paths: usize,
}

impl Walk<'_> {
    /// Whether every sequence from `state` to the next accepting state
    /// decodes to scalar values.
    fn from(&mut self, state: u8) -> bool {
        if self.path.len() >= MAX_SEQUENCE_LEN {
            return false;
        }
        let tables = self.tables;
        for class in tables.classes().ids() {
            let target =
                tables.transitions()[state as usize * tables.class_count() + class as usize];
            if target == tables.dead() {
                continue;
            }
            for range in tables.classes().ranges(class) {
                for (lo, hi) in split_by_kind(range.start(), range.end()) {
                    self.paths += 1;
                    if self.paths > MAX_PATHS {
                        return false;
                    }
                    self.path.push((lo, hi));
                    let ok = if tables.accepting()[target as usize] {
                        sequence_is_scalar(&self.path)
                    } else {
                        self.from(target)
                    };
                    self.path.pop();
                    if !ok {
                        return false;
                    }
                }
            }
        }
        true
    }
}

fn split_by_kind(lo: u8, hi: u8) -> Vec<(u8, u8)> {
    let mut parts = Vec::new();
    let mut from = lo;
    for &cut in &KIND_STARTS {
        if from < cut && cut <= hi {
            parts.push((from, cut - 1));
            from = cut;
        }
    }
    parts.push((from, hi));
    parts
}

/// Sorted, disjoint inclusive intervals.
type Intervals = Vec<(u32, u32)>;

/// The value sets of the units of a sequence whose byte positions range
/// independently over `path`; `None` when a set grows too large to track.
fn units(path: &[(u8, u8)]) -> Option<Vec<Intervals>> {
    let mut units = Vec::new();
    let mut i = 0;
    while i < path.len() {
        let (lo, hi) = path[i];
        let len = unit_len(lo);
        let complete = len >= 1
            && i + len <= path.len()
            && path[i + 1..i + len].iter().all(|&(c, _)| c & 0xC0 == 0x80);
        if len <= 1 || !complete {
            units.push(vec![(u32::from(lo), u32::from(hi))]);
            i += 1;
            continue;
        }
        let payload = 0x7F >> len;
        let mut values: Intervals = vec![(u32::from(lo & payload), u32::from(hi & payload))];
        for &(c, d) in &path[i + 1..i + len] {
            values = append_six_bits(&values, u32::from(c & 0x3F), u32::from(d & 0x3F))?;
        }
        units.push(values);
        i += len;
    }
    Some(units)
}

/// `{ x << 6 | y : x in values, y in low..=high }`.
fn append_six_bits(values: &Intervals, low: u32, high: u32) -> Option<Intervals> {
    let mut out = Vec::new();
    for &(a, b) in values {
        if low == 0 && high == 0x3F {
            out.push((a << 6, (b << 6) | 0x3F));
        } else {
            if (b - a) as usize + out.len() >= MAX_INTERVALS {
                return None;
            }
            out.extend((a..=b).map(|x| ((x << 6) | low, (x << 6) | high)));
        }
    }
    Some(out)
}

fn within(set: &Intervals, (lo, hi): (u32, u32)) -> bool {
    set.iter().all(|&(a, b)| lo <= a && b <= hi)
}

fn meets(set: &Intervals, (lo, hi): (u32, u32)) -> bool {
    set.iter().any(|&(a, b)| a <= hi && lo <= b)
}

fn sequence_is_scalar(path: &[(u8, u8)]) -> bool {
    let Some(units) = units(path) else {
        return false;
    };
    if let [first, second] = units.as_slice() {
        if within(first, LEAD_SURROGATES) && within(second, TRAIL_SURROGATES) {
            return true;
        }
        // Some byte choices would pair and some would not: too mixed to promise.
        if meets(first, LEAD_SURROGATES) && meets(second, TRAIL_SURROGATES) {
            return false;
        }
    }
    units
        .iter()
        .all(|set| !meets(set, (0xD800, 0xDFFF)) && set.iter().all(|&(_, b)| b <= 0x10_FFFF))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Derivation;
    use crate::rulesets::BUILTIN;

    fn kind(abnf: &str) -> ValueKind {
        value_kind(Derivation::new(abnf, "s").unwrap().tables())
    }

    #[test]
    fn builtin_rulesets() {
        let kinds: Vec<(&str, ValueKind)> = BUILTIN
            .iter()
            .map(|r| (r.name, value_kind(r.derive().unwrap().tables())))
            .collect();
        use ValueKind::*;
        assert_eq!(
            kinds,
            [
                ("rfc3629", Scalars),
                ("legacy31", CodePoints),
                ("cesu8", Scalars),
                ("mutf8", CodePoints),
                ("wtf8", CodePoints),
                ("rfc2279", CodePoints),
            ]
        );
    }

    #[test]
    fn one_surrogate_or_one_value_too_many_is_enough() {
        assert_eq!(kind("s = *( %xED %x80-9F %x80-BF )\n"), ValueKind::Scalars);
        assert_eq!(
            kind("s = *( %xED %x80-A0 %x80-BF )\n"),
            ValueKind::CodePoints
        );
        assert_eq!(kind("s = *( %xF4 %x80-8F 2%x80-BF )\n"), ValueKind::Scalars);
        assert_eq!(
            kind("s = *( %xF4 %x80-90 2%x80-BF )\n"),
            ValueKind::CodePoints
        );
        // Overlong forms decode by the layout too: F0 8D A0 80 is U+D800.
        assert_eq!(
            kind("s = *( %xF0 %x8D %xA0 %x80 )\n"),
            ValueKind::CodePoints
        );
    }

    #[test]
    fn bytes_outside_the_layout_are_their_own_values() {
        // A continuation byte alone, and a lead byte cut short, decode to the byte.
        assert_eq!(kind("s = *( %x80-BF / %xE0 )\n"), ValueKind::Scalars);
    }

    #[test]
    fn pairs_only_when_lead_then_trail() {
        let pair = "s = *( %xED %xA0-AF %x80-BF %xED %xB0-BF %x80-BF )\n";
        assert_eq!(kind(pair), ValueKind::Scalars);
        let reversed = "s = *( %xED %xB0-BF %x80-BF %xED %xA0-AF %x80-BF )\n";
        assert_eq!(kind(reversed), ValueKind::CodePoints);
        let partly = "s = *( %xED %x9F-AF %x80-BF %xED %xB0-BF %x80-BF )\n";
        assert_eq!(kind(partly), ValueKind::CodePoints);
    }

    #[test]
    fn unit_lengths() {
        let lens: Vec<usize> = [
            0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC, 0xFE, 0xFF,
        ]
        .iter()
        .map(|&b| unit_len(b))
        .collect();
        assert_eq!(lens, [1, 1, 0, 0, 2, 3, 4, 5, 6, 0, 0]);
    }
}
