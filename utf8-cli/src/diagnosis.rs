//! What an error is, in a person's terms: its line and column, and what the
//! automaton would have accepted instead, in words read off the derived tables.

use std::fmt::Write as _;

use utf8_core::{Decode, Ruleset};
use utf8_spec::explain::ranges_text;
use utf8_spec::{ByteRange, Tables, runs};

use crate::failure::Failure;

/// One error of an input: the maximal invalid subpart at `offset`, or the
/// incomplete sequence that ends the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub offset: u64,
    pub len: usize,
    /// The input ends inside a sequence that more bytes could complete.
    pub incomplete: bool,
}

/// An error explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The maximal subpart, and the byte that broke it when it is not the
    /// subpart's own first byte.
    pub shown: Vec<u8>,
    /// What would have been valid where the input went wrong: `a byte in A0–BF`.
    pub expected: String,
    /// The whole sentence: `after E0 expected a byte in A0–BF`.
    pub message: String,
}

/// The derived tables of one ruleset, asked where each error went wrong.
#[derive(Clone)]
pub struct Explainer {
    tables: Tables,
    /// For each byte, the state every live run is in after it, when that is
    /// one state whatever came before (ASCII, in every built-in ruleset): a
    /// place to pick up the automaton's state without running from the start.
    resets: [Option<u8>; 256],
}

impl Explainer {
    /// Derives the built-in ruleset `name` (or one of its aliases).
    pub fn new(name: &str) -> Result<Explainer, Failure> {
        let name = crate::rulesets::canonical(name)?;
        let ruleset = utf8_spec::rulesets::builtin(name)
            .ok_or_else(|| Failure::Spec(format!("no spec for built-in ruleset {name}")))?;
        let derivation = ruleset
            .derive()
            .map_err(|e| Failure::Spec(format!("built-in ruleset {name}: {e}")))?;
        Ok(Explainer::from_tables(derivation.tables().clone()))
    }

    fn from_tables(tables: Tables) -> Explainer {
        let dead = tables.dead();
        let resets = std::array::from_fn(|byte| {
            let mut targets = tables
                .states()
                .filter(|&state| state != dead)
                .map(|state| tables.next(state, byte as u8))
                .filter(|&target| target != dead);
            let first = targets.next()?;
            targets.all(|target| target == first).then_some(first)
        });
        Explainer { tables, resets }
    }

    /// Explains an error: `subpart`, its bytes, met in state `before`, and
    /// `following`, the byte after them (which broke the sequence unless
    /// the subpart's own first byte did, or it is `incomplete`).
    pub fn explain(
        &self,
        before: u8,
        subpart: &[u8],
        following: Option<u8>,
        incomplete: bool,
    ) -> Explanation {
        self.explain_in("input", before, subpart, following, incomplete)
    }

    /// [`Explainer::explain`] for an error inside `whole` (an input, a
    /// value), which is what ends too soon when the error is `incomplete`.
    pub fn explain_in(
        &self,
        whole: &str,
        before: u8,
        subpart: &[u8],
        following: Option<u8>,
        incomplete: bool,
    ) -> Explanation {
        let tables = &self.tables;
        let lead = subpart[0];
        if !incomplete && tables.next(before, lead) == tables.dead() {
            let expected = expected_text(&live_bytes(tables, before));
            return Explanation {
                shown: vec![lead],
                message: format!("{lead:02X} cannot start a sequence; expected {expected}"),
                expected,
            };
        }
        let after = subpart
            .iter()
            .fold(before, |state, &byte| tables.next(state, byte));
        let expected = expected_text(&live_bytes(tables, after));
        if incomplete {
            return Explanation {
                shown: subpart.to_vec(),
                message: format!(
                    "the {whole} ends after {}; expected {expected}",
                    hex_spaced(subpart)
                ),
                expected,
            };
        }
        let mut shown = subpart.to_vec();
        shown.extend(following);
        Explanation {
            shown,
            message: format!("after {} expected {expected}", hex_spaced(subpart)),
            expected,
        }
    }

    /// Whether the state at a sequence boundary depends on what came before
    /// it (as after a lead surrogate in WTF-8), so that it must be carried
    /// from one buffer to the next.
    pub fn boundaries_differ(&self) -> bool {
        self.tables.accepting_states().len() > 1
    }

    /// The automaton's state after `valid`, valid input that ends at a
    /// sequence boundary, entered in state `entry` (`None`: the start state).
    pub fn state_after(&self, entry: Option<u8>, valid: &[u8]) -> u8 {
        let tables = &self.tables;
        // A boundary is where the automaton accepts: with one accepting
        // state, that is the state.
        if let [only] = tables.accepting_states()[..] {
            return only;
        }
        // Otherwise what came before matters (after a lead surrogate, WTF-8
        // forbids a trail surrogate): run from the last byte that puts the
        // automaton in a known state.
        let (from, state) = valid
            .iter()
            .enumerate()
            .rev()
            .find_map(|(at, &byte)| self.resets[byte as usize].map(|state| (at + 1, state)))
            .unwrap_or((0, entry.unwrap_or_else(|| tables.start())));
        valid[from..]
            .iter()
            .fold(state, |state, &byte| tables.next(state, byte))
    }
}

/// The bytes that keep `state` alive, adjacent runs merged whichever state
/// they lead to.
fn live_bytes(tables: &Tables, state: u8) -> Vec<ByteRange> {
    let row: [u8; 256] = std::array::from_fn(|byte| tables.next(state, byte as u8));
    let mut live: Vec<ByteRange> = Vec::new();
    for (range, target) in runs(&row) {
        if target == tables.dead() {
            continue;
        }
        match live.last_mut() {
            Some(last) if u16::from(last.end()) + 1 == u16::from(range.start()) => {
                *last = ByteRange::new(last.start(), range.end());
            }
            _ => live.push(range),
        }
    }
    live
}

/// `a byte in A0–BF`, `ED`, `00–7F, C2–F4`.
fn expected_text(live: &[ByteRange]) -> String {
    match live {
        [] => "no further byte".to_owned(),
        [single] if single.start() == single.end() => ranges_text(live),
        [_] => format!("a byte in {}", ranges_text(live)),
        _ => ranges_text(live),
    }
}

/// `E0 80`.
pub fn hex_spaced(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len() * 3);
    for (index, byte) in bytes.iter().enumerate() {
        if index > 0 {
            text.push(' ');
        }
        let _ = write!(text, "{byte:02X}");
    }
    text
}

/// `E080`.
pub fn hex_packed(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut text, byte| {
        let _ = write!(text, "{byte:02X}");
        text
    })
}

/// Line and column of successive positions in one input, computed in one
/// pass however many errors there are, and however the input arrives in
/// pieces.
///
/// Lines are counted from 1, split at `\n`. The column counts, from 1, what
/// lossy decoding would show before the position on its line: one per value
/// [`Decode`] yields and one per earlier invalid subpart.
pub struct Cursor {
    line: usize,
    column: usize,
    /// Whether `Decode` yields one value for a lead and a trail surrogate
    /// that make up one sequence (CESU-8's supplementary characters).
    pairs_are_one_value: bool,
}

impl Cursor {
    pub fn for_ruleset<R: Ruleset>() -> Cursor {
        Cursor {
            line: 1,
            column: 1,
            pairs_are_one_value: Decode::<R>::new(b"\xED\xA0\x80\xED\xB0\x80").count() == 1,
        }
    }

    pub fn line(&self) -> usize {
        self.line
    }

    pub fn column(&self) -> usize {
        self.column
    }

    /// Moves over `valid`, the next valid bytes, which start and end at
    /// sequence boundaries.
    pub fn advance(&mut self, valid: &[u8]) {
        match memchr::memrchr(b'\n', valid) {
            Some(last_newline) => {
                self.line += memchr::memchr_iter(b'\n', &valid[..=last_newline]).count();
                self.column = 1 + self.values_in(&valid[last_newline + 1..]);
            }
            None => self.column += self.values_in(valid),
        }
    }

    /// Moves over an invalid subpart, which lossy decoding shows as one character.
    pub fn skip_invalid(&mut self) {
        self.column += 1;
    }

    /// How many values `Decode` yields for `valid`, without decoding: every
    /// built-in ruleset lays its sequences out as UTF-8 does, a value per
    /// byte that is not a continuation byte, except that in CESU-8 a lead
    /// surrogate (`ED A0–AF`), always followed by its trail in valid input,
    /// makes one value with it.
    fn values_in(&self, valid: &[u8]) -> usize {
        let leads = count(valid, |byte| byte & 0xC0 != 0x80);
        if !self.pairs_are_one_value {
            return leads;
        }
        let pairs = valid
            .windows(2)
            .filter(|pair| pair[0] == 0xED && (0xA0..=0xAF).contains(&pair[1]))
            .count();
        leads - pairs
    }
}

/// How many bytes of `bytes` are `wanted`: counted in blocks short enough
/// for a byte-wide sum, which the compiler turns into vector code (the text
/// after a line's last newline is usually short, but an input of a single
/// long line is counted whole).
fn count(bytes: &[u8], wanted: impl Fn(u8) -> bool) -> usize {
    // A multiple of the vector width, and at most 255 so that the sum fits.
    let mut blocks = bytes.chunks_exact(192);
    let mut total = 0;
    for block in &mut blocks {
        let in_block = block
            .iter()
            .fold(0u8, |sum, &byte| sum.wrapping_add(u8::from(wanted(byte))));
        total += usize::from(in_block);
    }
    total
        + blocks
            .remainder()
            .iter()
            .filter(|&&byte| wanted(byte))
            .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explainer(name: &str) -> Explainer {
        Explainer::new(name).expect("built-in")
    }

    /// The explanation of the first error of `bytes`, as `check` gives it.
    fn explain_first(
        explainer: &Explainer,
        bytes: &[u8],
        error: utf8_core::Utf8Error,
    ) -> Explanation {
        let offset = error.valid_up_to();
        let len = error.error_len().unwrap_or(bytes.len() - offset);
        let before = explainer.state_after(None, &bytes[..offset]);
        explainer.explain(
            before,
            &bytes[offset..offset + len],
            bytes.get(offset + len).copied(),
            error.error_len().is_none(),
        )
    }

    fn first_message<R: Ruleset>(name: &str, bytes: &[u8]) -> String {
        let error = R::validate(bytes).expect_err("invalid");
        explain_first(&explainer(name), bytes, error).message
    }

    #[test]
    fn rfc3629_errors_are_told_from_the_automaton() {
        type R = utf8_core::Rfc3629;
        for (bytes, message) in [
            (&b"a\xE0\x80"[..], "after E0 expected a byte in A0–BF"),
            (
                b"\xC0\xAF",
                "C0 cannot start a sequence; expected 00–7F, C2–F4",
            ),
            (
                b"\xE2\x82",
                "the input ends after E2 82; expected a byte in 80–BF",
            ),
            (b"\xED\xA0\x80", "after ED expected a byte in 80–9F"),
            (b"\xF0\x9F\x92A", "after F0 9F 92 expected a byte in 80–BF"),
            (b"\x80", "80 cannot start a sequence; expected 00–7F, C2–F4"),
        ] {
            assert_eq!(
                first_message::<R>("rfc3629", bytes),
                message,
                "{bytes:02X?}"
            );
        }
    }

    #[test]
    fn wtf8_explains_a_trail_surrogate_after_a_lead_one_from_the_state_it_is_in() {
        // From the start, ED may be followed by A0–BF; right after a lead
        // surrogate a trail surrogate would be a pair, so only 80–AF.
        let bytes = b"x\xED\xA0\x80\xED\xB0\x80";
        assert_eq!(
            first_message::<utf8_core::wtf8::Wtf8>("wtf8", bytes),
            "after ED expected a byte in 80–AF"
        );
    }

    #[test]
    fn cesu8_expects_the_trail_half_of_a_pair() {
        assert_eq!(
            first_message::<utf8_core::cesu8::Cesu8>("cesu8", b"\xED\xA0\xBDA"),
            "after ED A0 BD expected ED"
        );
    }

    #[test]
    fn the_shown_bytes_include_the_byte_that_broke_the_sequence() {
        let bytes = b"\xE0\x80";
        let error = utf8_core::from_utf8(bytes).unwrap_err();
        let explained = explain_first(&explainer("rfc3629"), bytes, error);
        assert_eq!(explained.shown, [0xE0, 0x80]);
        assert_eq!(explained.expected, "a byte in A0–BF");
    }

    #[test]
    fn columns_count_characters_and_earlier_errors_on_the_line() {
        type R = utf8_core::Rfc3629;
        let bytes = b"ab\n\xC3\xA7\xC3\xA9\xFFz";
        let mut cursor = Cursor::for_ruleset::<R>();
        cursor.advance(&bytes[..7]);
        assert_eq!((cursor.line(), cursor.column()), (2, 3));
        cursor.skip_invalid();
        cursor.advance(&bytes[8..9]);
        assert_eq!((cursor.line(), cursor.column()), (2, 5));
    }

    struct ValuesMatchDecode;

    impl crate::rulesets::WithRuleset for ValuesMatchDecode {
        type Output = ();

        fn call<R: Ruleset>(self) {
            let samples: [&[u8]; 8] = [
                "Grüße, 世界 💖".as_bytes(),
                b"\xED\xA0\xBD\xED\xB2\x96",
                b"a\xED\xA0\x80b\xED\xB0\x80",
                b"a\xC0\x80b",
                b"\xFD\xBF\xBF\xBF\xBF\xBF",
                b"\xF8\x88\x80\x80\x80",
                b"\xED\xA0\x80\xED\xB0\x80x",
                b"\xE0\xA0\x80\x7F\x01",
            ];
            for sample in samples {
                if R::validate(sample).is_err() {
                    continue;
                }
                let cursor = Cursor::for_ruleset::<R>();
                assert_eq!(
                    cursor.values_in(sample),
                    Decode::<R>::new(sample).count(),
                    "{}: {sample:02X?}",
                    R::NAME
                );
            }
        }
    }

    #[test]
    fn values_are_counted_as_decode_yields_them_in_every_ruleset() {
        for ruleset in utf8_spec::rulesets::BUILTIN {
            crate::rulesets::with_ruleset(ruleset.name, ValuesMatchDecode).expect("built-in");
        }
    }
}
