//! When valid UTF-8 is valid under another ruleset too: the shortcut that
//! lets a ruleset without a vector check of its own run on RFC 3629's.
//!
//! CESU-8 differs from UTF-8 only where UTF-8 has a four-byte form (CESU-8
//! writes a surrogate pair instead), modified UTF-8 also where UTF-8 has
//! `00`, and WTF-8 only by allowing what UTF-8 rejects. So text that is
//! valid UTF-8 and holds none of a few bytes is valid under the dialect,
//! and a validator may check it with the (much faster) UTF-8 check and a
//! scan for those bytes.
//!
//! That is not assumed here but found: [`Utf8Shortcut::find`] walks the
//! product of RFC 3629's automaton and the ruleset's over every byte that
//! is not forbidden, and forbids each byte on which the walk reaches a pair
//! where UTF-8 is at a sequence boundary and the ruleset is not at its start
//! state (or where the ruleset dies while UTF-8 lives), until no such pair
//! is reachable. What that proves, for every string `w` over the allowed
//! bytes: if `w` is valid UTF-8, the ruleset's automaton ends `w` in its
//! start state, so `w` is valid under the ruleset, and a ruleset validator
//! may start afresh right after it.

use crate::byte_range::ByteRange;
use crate::dfa::{Dfa, StateId};
use crate::tables::Tables;
use crate::{ByteClasses, MinimalDfa};

/// The most byte ranges a scan for forbidden bytes tests per byte.
pub const MAX_FORBIDDEN_RANGES: usize = 2;

/// What a ruleset's validator needs to take the UTF-8 shortcut: the bytes
/// whose absence (together with UTF-8 validity) proves the input valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Utf8Shortcut {
    forbidden: Vec<ByteRange>,
}

impl Utf8Shortcut {
    /// The shortcut from `utf8` (RFC 3629's tables) to `ruleset`, or `None`
    /// when the forbidden bytes do not fit in [`MAX_FORBIDDEN_RANGES`]
    /// ranges (counting bytes that valid UTF-8 never holds as free to add)
    /// or the ruleset's start state does not accept.
    pub fn find(ruleset: &Tables, utf8: &Tables) -> Option<Utf8Shortcut> {
        if !ruleset.accepting()[ruleset.start() as usize] {
            return None;
        }
        let mut forbidden = [false; 256];
        while let Some(bytes) = violations(ruleset, utf8, &forbidden) {
            for byte in bytes {
                forbidden[byte as usize] = true;
            }
        }
        let free = never_in_utf8(utf8);
        let ranges = cover(&forbidden, &free);
        (ranges.len() <= MAX_FORBIDDEN_RANGES).then_some(Utf8Shortcut { forbidden: ranges })
    }

    /// The language the shortcut settles: valid UTF-8 without a forbidden
    /// byte, as minimal tables of its own (RFC 3629's automaton with every
    /// forbidden byte sent to the dead state). A vector check derived from
    /// these finds where the shortcut stops in one pass, instead of a UTF-8
    /// check and a scan for the forbidden bytes.
    pub fn language(&self, utf8: &Tables) -> Tables {
        let forbidden = |byte: u8| self.forbidden.iter().any(|r| r.contains(byte));
        let rows: Vec<[StateId; 256]> = utf8
            .states()
            .map(|state| {
                core::array::from_fn(|byte| {
                    let byte = byte as u8;
                    let next = if forbidden(byte) {
                        utf8.dead()
                    } else {
                        utf8.next(state, byte)
                    };
                    StateId::from(next)
                })
            })
            .collect();
        // The subset construction numbers the start 0; so do the tables.
        debug_assert_eq!(utf8.start(), 0);
        let dfa = Dfa::from_rows(rows, utf8.accepting().to_vec());
        let minimal = MinimalDfa::new(&dfa);
        let classes = ByteClasses::new(&minimal);
        Tables::new(&minimal, &classes).expect("no more states than UTF-8's")
    }

    /// The ranges of forbidden bytes (possibly widened over bytes that valid
    /// UTF-8 never holds), at most [`MAX_FORBIDDEN_RANGES`].
    pub fn forbidden(&self) -> &[ByteRange] {
        &self.forbidden
    }
}

/// Walks the product automaton over the allowed bytes; returns the bytes
/// of the transitions into a violating pair, or `None` when there is none.
fn violations(ruleset: &Tables, utf8: &Tables, forbidden: &[bool; 256]) -> Option<Vec<u8>> {
    let start = (utf8.start(), ruleset.start());
    let mut seen = vec![false; utf8.state_count() * ruleset.state_count()];
    let index = |(u, r): (u8, u8)| u as usize * ruleset.state_count() + r as usize;
    seen[index(start)] = true;
    let mut queue = vec![start];
    let mut bad = Vec::new();
    while let Some((u, r)) = queue.pop() {
        for byte in 0..=255u8 {
            let next_u = utf8.next(u, byte);
            if forbidden[byte as usize] || next_u == utf8.dead() {
                continue;
            }
            let next_r = ruleset.next(r, byte);
            let at_boundary = next_u == utf8.start();
            if next_r == ruleset.dead() || (at_boundary && next_r != ruleset.start()) {
                bad.push(byte);
                continue;
            }
            if !seen[index((next_u, next_r))] {
                seen[index((next_u, next_r))] = true;
                queue.push((next_u, next_r));
            }
        }
    }
    bad.sort_unstable();
    bad.dedup();
    (!bad.is_empty()).then_some(bad)
}

/// The bytes on which every live state of UTF-8 dies: never part of valid
/// UTF-8, so a scan may treat them as forbidden or not, as is cheaper.
fn never_in_utf8(utf8: &Tables) -> [bool; 256] {
    core::array::from_fn(|byte| {
        utf8.states()
            .filter(|&state| state != utf8.dead())
            .all(|state| utf8.next(state, byte as u8) == utf8.dead())
    })
}

/// The fewest ranges that hold every forbidden byte and otherwise only
/// bytes that are free to hold: a run of free bytes may bridge two
/// forbidden ones, and a last range ends at `FF` ("at least" is the
/// cheapest test).
fn cover(forbidden: &[bool; 256], free: &[bool; 256]) -> Vec<ByteRange> {
    let mut ranges = Vec::new();
    // The first and the last forbidden byte of the range being built.
    let mut open: Option<(u8, u8)> = None;
    for byte in 0..=255u8 {
        if forbidden[byte as usize] {
            open = Some((open.map_or(byte, |(lo, _)| lo), byte));
        } else if !free[byte as usize]
            && let Some((lo, last)) = open.take()
        {
            ranges.push(ByteRange::new(lo, last));
        }
    }
    if let Some((lo, _)) = open {
        // Every byte after the last forbidden one was free, or the range
        // would have closed.
        ranges.push(ByteRange::new(lo, 0xFF));
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::builtin as by_name;

    fn shortcut(name: &str) -> Option<Utf8Shortcut> {
        let utf8 = by_name("rfc3629").unwrap().derive().unwrap();
        let ruleset = by_name(name).unwrap().derive().unwrap();
        Utf8Shortcut::find(ruleset.tables(), utf8.tables())
    }

    fn ranges(name: &str) -> Vec<(u8, u8)> {
        shortcut(name)
            .unwrap()
            .forbidden()
            .iter()
            .map(|r| (r.start(), r.end()))
            .collect()
    }

    #[test]
    fn cesu8_forbids_the_four_byte_leads_and_mutf8_nul_too() {
        assert_eq!(ranges("cesu8"), [(0xF0, 0xFF)]);
        assert_eq!(ranges("mutf8"), [(0x00, 0x00), (0xF0, 0xFF)]);
    }

    #[test]
    fn the_shortcut_language_is_utf8_without_the_forbidden_bytes() {
        let utf8 = by_name("rfc3629").unwrap().derive().unwrap();
        let language = shortcut("mutf8").unwrap().language(utf8.tables());
        for input in [
            &b"abc"[..],
            "é€".as_bytes(),
            b"",
            b"\xC0\x80",
            b"\x00",
            "😀".as_bytes(),
        ] {
            let expected = std::str::from_utf8(input).is_ok()
                && !input.contains(&0)
                && !input.iter().any(|&b| b >= 0xF0);
            assert_eq!(language.accepts(input), expected, "{input:02X?}");
        }
        // WTF-8 forbids nothing: its shortcut language is UTF-8's.
        let language = shortcut("wtf8").unwrap().language(utf8.tables());
        assert_eq!(language.state_count(), utf8.tables().state_count());
        assert_eq!(language.transitions(), utf8.tables().transitions());
    }

    #[test]
    fn supersets_of_utf8_forbid_nothing() {
        for name in ["rfc3629", "wtf8", "rfc2279", "legacy31"] {
            assert_eq!(ranges(name), [], "{name}");
        }
    }

    #[test]
    fn a_ruleset_that_differs_from_utf8_in_many_places_gets_no_shortcut() {
        // Only the even ASCII bytes: every odd one is forbidden, one range each.
        let abnf = "text = *( %x00 / %x02 / %x04 / %x06 / %x08 / %x0A )\n";
        let derivation = crate::Derivation::new(abnf, "text").unwrap();
        let utf8 = by_name("rfc3629").unwrap().derive().unwrap();
        assert_eq!(Utf8Shortcut::find(derivation.tables(), utf8.tables()), None);
    }

    #[test]
    fn the_shortcut_is_sound_on_every_short_string_of_representative_bytes() {
        // Valid UTF-8 without a forbidden byte must be valid under the
        // ruleset, over strings of up to three bytes from a set that holds
        // every class boundary of the rulesets.
        let utf8 = by_name("rfc3629").unwrap().derive().unwrap();
        let bytes: Vec<u8> = vec![
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC2, 0xDF, 0xE0,
            0xED, 0xEF, 0xF0, 0xF4,
        ];
        for name in ["cesu8", "mutf8", "wtf8"] {
            let ruleset = by_name(name).unwrap().derive().unwrap();
            let cut = shortcut(name).unwrap();
            let allowed = |b: &u8| !cut.forbidden().iter().any(|r| r.contains(*b));
            for len in 0..=3 {
                let mut indices = vec![0; len];
                loop {
                    let w: Vec<u8> = indices.iter().map(|&i| bytes[i]).collect();
                    if w.iter().all(allowed) && utf8.tables().accepts(&w) {
                        assert!(ruleset.tables().accepts(&w), "{name}: {w:02X?}");
                    }
                    let Some(k) = (0..len).rev().find(|&k| indices[k] + 1 < bytes.len()) else {
                        break;
                    };
                    indices[k] += 1;
                    indices[k + 1..].fill(0);
                }
            }
        }
    }
}
