//! Rulesets given as a set of Unicode scalar values instead of ABNF.
//!
//! A format that allows only some characters (XML 1.0's `Char`, say) is
//! easiest to state as ranges of scalar values. This module turns such ranges
//! into the UTF-8 byte sequences that encode exactly those scalars, and those
//! sequences into ABNF that the rest of the crate derives like any other spec:
//!
//! ```
//! use utf8_spec::scalars;
//!
//! // XML 1.0, production [2]: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
//! let xml_char = [
//!     (0x9, 0x9), (0xA, 0xA), (0xD, 0xD),
//!     (0x20, 0xD7FF), (0xE000, 0xFFFD), (0x10000, 0x10FFFF),
//! ];
//! let derivation = scalars::derive(&xml_char)?;
//! let tables = derivation.tables();
//! assert!(tables.accepts("tab\tand ünïcödé".as_bytes()));
//! assert!(!tables.accepts(b"\x00"));
//! assert!(!tables.accepts("\u{FFFE}".as_bytes()));
//!
//! // The ABNF is there to read (and is what was derived).
//! let abnf = scalars::to_abnf(&xml_char)?;
//! assert!(abnf.contains("%xEF %xBF %x80-BD"));
//! assert_eq!(
//!     utf8_spec::Derivation::new(&abnf, scalars::START_RULE)?.tables(),
//!     tables
//! );
//! # Ok::<(), utf8_spec::Error>(())
//! ```
//!
//! Ranges may come in any order and may overlap. The surrogates U+D800-DFFF
//! are not scalar values (they exist only to pair up in UTF-16, and UTF-8
//! must not encode them), so a range that spans them stands for the scalars
//! on either side: `(0, 0x10FFFF)` is all of Unicode and derives RFC 3629's
//! tables exactly. A value above U+10FFFF, a range that ends below its start,
//! and a set with nothing in it are errors.
//!
//! Splitting a range into byte sequences works the way regex-syntax's
//! `Utf8Sequences` does: first at the boundaries between 1-, 2-, 3- and
//! 4-byte encodings, then, from the last byte forwards, wherever a range's
//! continuation bytes would not run over their full `%x80-BF` span, until each
//! byte of the encoding can vary independently of the others.

use core::fmt;

use crate::error::{Error, ErrorKind, U};
use crate::{ByteRange, Derivation};

/// The rule of [`to_abnf`]'s text that a whole valid input matches.
pub const START_RULE: &str = "scalars";

/// The last Unicode scalar value.
pub const MAX_SCALAR: u32 = 0x10FFFF;

/// The UTF-16 surrogates, which are code points but not scalar values.
const SURROGATES: (u32, u32) = (0xD800, 0xDFFF);

/// The last scalar value of each encoded length: 1, 2, 3 and 4 bytes.
const LAST_OF_LENGTH: [u32; 4] = [0x7F, 0x7FF, 0xFFFF, MAX_SCALAR];

/// Lines of generated ABNF stay within this many characters where they can.
const WIDTH: usize = 72;

/// A set of Unicode scalar values, kept as sorted, disjoint, non-adjacent
/// inclusive ranges without surrogates.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScalarSet {
    ranges: Vec<(u32, u32)>,
}

impl ScalarSet {
    /// The scalars of the inclusive ranges `ranges`, in any order and
    /// possibly overlapping; surrogates inside a range are left out.
    pub fn new(ranges: &[(u32, u32)]) -> Result<ScalarSet, Error> {
        let mut sorted = Vec::with_capacity(ranges.len() + 1);
        for &(start, end) in ranges {
            if let Some(value) = [start, end].into_iter().find(|&v| v > MAX_SCALAR) {
                return Err(Error::new(ErrorKind::ScalarTooLarge { value }));
            }
            if end < start {
                return Err(Error::new(ErrorKind::ReversedScalarRange { start, end }));
            }
            sorted.push((start, end));
        }
        sorted.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(sorted.len());
        for (start, end) in sorted {
            match merged.last_mut() {
                Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        let mut without_surrogates = Vec::with_capacity(merged.len() + 1);
        for (start, end) in merged {
            if start < SURROGATES.0 {
                without_surrogates.push((start, end.min(SURROGATES.0 - 1)));
            }
            if end > SURROGATES.1 {
                without_surrogates.push((start.max(SURROGATES.1 + 1), end));
            }
        }
        if without_surrogates.is_empty() {
            return Err(Error::new(ErrorKind::EmptyScalarSet {
                only_surrogates: !ranges.is_empty(),
            }));
        }
        Ok(ScalarSet {
            ranges: without_surrogates,
        })
    }

    /// The ranges of the set: sorted, disjoint, not adjacent, without surrogates.
    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    /// Whether `value` is in the set.
    pub fn contains(&self, value: u32) -> bool {
        let after = self.ranges.partition_point(|&(start, _)| start <= value);
        after > 0 && value <= self.ranges[after - 1].1
    }

    /// The byte sequences whose strings are exactly the UTF-8 encodings of
    /// the set's scalars, in ascending order of the scalars they encode.
    pub fn sequences(&self) -> Vec<Utf8Sequence> {
        let mut out = Vec::new();
        for &(start, end) in &self.ranges {
            split(start, end, &mut out);
        }
        out
    }

    /// ABNF whose rule [`START_RULE`] matches any string of the set's scalars
    /// in UTF-8.
    pub fn to_abnf(&self) -> String {
        let listed: Vec<String> = self
            .ranges
            .iter()
            .map(|&(start, end)| match start == end {
                true => U(start).to_string(),
                false => format!("{}..{}", U(start), U(end)),
            })
            .map(|range| range + ",")
            .collect();
        let mut out = String::new();
        wrap(
            &mut out,
            "; Unicode scalar values ",
            ";   ",
            &listed,
            "encoded in UTF-8.",
        );
        let rule = format!("{START_RULE} ");
        let scalar = "scalar";
        let width = rule.len().max(scalar.len() + 1);
        out.push_str(&format!("{rule:width$}= *( {scalar} )\n"));
        let sequences: Vec<String> = self.sequences().iter().map(|s| s.to_string()).collect();
        let last = sequences.len() - 1;
        let alternatives: Vec<String> = sequences
            .into_iter()
            .enumerate()
            .map(|(i, s)| if i == last { s } else { s + " /" })
            .collect();
        let head = format!("{scalar:width$}= ");
        wrap(&mut out, &head, &" ".repeat(head.len()), &alternatives, "");
        out
    }

    /// Derives the automaton of [`ScalarSet::to_abnf`].
    pub fn derive(&self) -> Result<Derivation, Error> {
        Derivation::new(&self.to_abnf(), START_RULE)
    }
}

/// Lists the ranges as `U+XXXX` and `U+XXXX..U+YYYY`, comma-separated.
impl fmt::Display for ScalarSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(start, end)) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", U(start))?;
            if end != start {
                write!(f, "..{}", U(end))?;
            }
        }
        Ok(())
    }
}

/// Writes `words` space-separated after `head`, starting a new line with
/// `indent` before a word that would pass [`WIDTH`], then `tail` on the last line.
fn wrap(out: &mut String, head: &str, indent: &str, words: &[String], tail: &str) {
    let mut line = head.to_owned();
    let mut line_has_word = false;
    for word in words.iter().map(String::as_str).chain(Some(tail)) {
        if word.is_empty() {
            continue;
        }
        if line_has_word && line.len() + 1 + word.len() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_owned();
            line_has_word = false;
        }
        if line_has_word {
            line.push(' ');
        }
        line.push_str(word);
        line_has_word = true;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// The UTF-8 sequences of the scalars of `ranges` (see [`ScalarSet::new`]).
pub fn sequences(ranges: &[(u32, u32)]) -> Result<Vec<Utf8Sequence>, Error> {
    Ok(ScalarSet::new(ranges)?.sequences())
}

/// The ABNF of the scalars of `ranges`, to derive from rule [`START_RULE`].
pub fn to_abnf(ranges: &[(u32, u32)]) -> Result<String, Error> {
    Ok(ScalarSet::new(ranges)?.to_abnf())
}

/// The derivation of the scalars of `ranges` in UTF-8.
pub fn derive(ranges: &[(u32, u32)]) -> Result<Derivation, Error> {
    ScalarSet::new(ranges)?.derive()
}

/// One to four byte ranges, one per byte of an encoding: a string of that
/// length matches when each byte lies in its range.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Utf8Sequence {
    ranges: [ByteRange; 4],
    len: u8,
}

impl Utf8Sequence {
    /// The byte ranges, first byte first.
    pub fn ranges(&self) -> &[ByteRange] {
        &self.ranges[..self.len as usize]
    }

    /// Whether `bytes` is one of the strings of the sequence.
    pub fn matches(&self, bytes: &[u8]) -> bool {
        bytes.len() == self.ranges().len()
            && self.ranges().iter().zip(bytes).all(|(r, &b)| r.contains(b))
    }
}

/// The ABNF concatenation: `%xE0 %xA0-BF %x80-BF`.
impl fmt::Display for Utf8Sequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, range) in self.ranges().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{range}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Utf8Sequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Appends the sequences of `start..=end`, which holds no surrogate, in
/// ascending order.
fn split(start: u32, end: u32, out: &mut Vec<Utf8Sequence>) {
    // Pieces still to split, the lowest on top so that output ascends.
    let mut pending = vec![(start, end)];
    'pieces: while let Some((start, end)) = pending.pop() {
        // Both ends must have the same encoded length for bytes to line up.
        if let Some(&last) = LAST_OF_LENGTH.iter().find(|&&l| start <= l && l < end) {
            pending.push((last + 1, end));
            pending.push((start, last));
            continue;
        }
        let len = encoded_len(start);
        // Byte `len - i` varies over the low `6 * i` bits. Where the ends
        // differ above them, those bits must run from all zeros to all ones,
        // or else the bytes below would depend on the bytes above.
        for i in 1..len {
            let low = (1u32 << (6 * i)) - 1;
            if start & !low == end & !low {
                continue;
            }
            if start & low != 0 {
                pending.push(((start | low) + 1, end));
                pending.push((start, start | low));
                continue 'pieces;
            }
            if end & low != low {
                pending.push((end & !low, end));
                pending.push((start, (end & !low) - 1));
                continue 'pieces;
            }
        }
        let (first, last) = (encode(start), encode(end));
        let mut ranges = [ByteRange::single(0); 4];
        for (k, range) in ranges.iter_mut().enumerate().take(len) {
            *range = ByteRange::new(first[k], last[k]);
        }
        out.push(Utf8Sequence {
            ranges,
            len: len as u8,
        });
    }
}

fn encoded_len(value: u32) -> usize {
    LAST_OF_LENGTH.iter().position(|&l| value <= l).unwrap_or(4) + 1
}

fn encode(value: u32) -> [u8; 4] {
    let mut bytes = [0; 4];
    char::from_u32(value)
        .expect("split only sees scalar values")
        .encode_utf8(&mut bytes);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets;

    const XML_CHAR: [(u32, u32); 6] = [
        (0x9, 0x9),
        (0xA, 0xA),
        (0xD, 0xD),
        (0x20, 0xD7FF),
        (0xE000, 0xFFFD),
        (0x10000, 0x10FFFF),
    ];

    /// A xorshift64 generator: enough randomness for range sets, and no
    /// dependency. Not the workspace suites' shared one
    /// (`tests/src/rng.rs`): this crate's unit tests must build from its
    /// package alone.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, bound: u32) -> u32 {
            (self.next() % u64::from(bound)) as u32
        }
    }

    fn utf8(value: u32) -> Option<Vec<u8>> {
        char::from_u32(value).map(|c| c.to_string().into_bytes())
    }

    /// Every scalar value is accepted alone iff the set holds it, and the
    /// sequences match its encoding iff so too.
    fn check_every_scalar(ranges: &[(u32, u32)]) {
        let set = ScalarSet::new(ranges).unwrap();
        let derivation = set.derive().unwrap();
        let tables = derivation.tables();
        let sequences = set.sequences();
        let reference = |value: u32| ranges.iter().any(|&(s, e)| s <= value && value <= e);
        for value in 0..=MAX_SCALAR {
            let Some(bytes) = utf8(value) else { continue };
            let expected = reference(value);
            assert_eq!(set.contains(value), expected, "U+{value:04X} in {set}");
            assert_eq!(
                tables.accepts(&bytes),
                expected,
                "U+{value:04X} ({bytes:02X?}) by the tables of {set}"
            );
            let matching = sequences.iter().filter(|s| s.matches(&bytes)).count();
            assert_eq!(
                matching,
                usize::from(expected),
                "U+{value:04X} against the sequences of {set}"
            );
        }
    }

    /// Every string of up to three bytes is accepted iff it is UTF-8 whose
    /// characters are all in the set: nothing but scalars gets in.
    fn check_short_strings(ranges: &[(u32, u32)]) {
        let set = ScalarSet::new(ranges).unwrap();
        let tables = set.derive().unwrap().tables().clone();
        let check = |bytes: &[u8]| {
            let expected = core::str::from_utf8(bytes)
                .is_ok_and(|s| s.chars().all(|c| set.contains(u32::from(c))));
            assert_eq!(tables.accepts(bytes), expected, "{bytes:02X?} for {set}");
        };
        for a in 0..=255u8 {
            check(&[a]);
            for b in 0..=255u8 {
                check(&[a, b]);
                for c in 0..=255u8 {
                    check(&[a, b, c]);
                }
            }
        }
    }

    #[test]
    fn all_of_unicode_derives_rfc_3629() {
        let all = derive(&[(0, MAX_SCALAR)]).unwrap();
        let rfc = rulesets::RFC3629.derive().unwrap();
        assert_eq!(all.tables().state_count(), 9);
        assert_eq!(all.tables().byte_classes(), rfc.tables().byte_classes());
        assert_eq!(all.tables().transitions(), rfc.tables().transitions());
        assert_eq!(all.tables(), rfc.tables());
        check_every_scalar(&[(0, MAX_SCALAR)]);
    }

    #[test]
    fn all_of_unicode_has_rfc_3629_sequences() {
        let got: Vec<String> = sequences(&[(0, MAX_SCALAR)])
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            got,
            [
                "%x00-7F",
                "%xC2-DF %x80-BF",
                "%xE0 %xA0-BF %x80-BF",
                "%xE1-EC %x80-BF %x80-BF",
                "%xED %x80-9F %x80-BF",
                "%xEE-EF %x80-BF %x80-BF",
                "%xF0 %x90-BF %x80-BF %x80-BF",
                "%xF1-F3 %x80-BF %x80-BF %x80-BF",
                "%xF4 %x80-8F %x80-BF %x80-BF",
            ]
        );
    }

    #[test]
    fn xml_char() {
        check_every_scalar(&XML_CHAR);
        check_short_strings(&XML_CHAR);
    }

    #[test]
    fn xml_char_reads_as_abnf() {
        assert_eq!(
            to_abnf(&XML_CHAR).unwrap(),
            "\
; Unicode scalar values U+0009..U+000A, U+000D, U+0020..U+D7FF,
;   U+E000..U+FFFD, U+10000..U+10FFFF, encoded in UTF-8.
scalars = *( scalar )
scalar  = %x09-0A / %x0D / %x20-7F / %xC2-DF %x80-BF /
          %xE0 %xA0-BF %x80-BF / %xE1-EC %x80-BF %x80-BF /
          %xED %x80-9F %x80-BF / %xEE %x80-BF %x80-BF /
          %xEF %x80-BE %x80-BF / %xEF %xBF %x80-BD /
          %xF0 %x90-BF %x80-BF %x80-BF /
          %xF1-F3 %x80-BF %x80-BF %x80-BF / %xF4 %x80-8F %x80-BF %x80-BF
"
        );
    }

    #[test]
    fn small_sets() {
        for ranges in [
            &[(0x41, 0x41)][..],
            &[(0x80, 0x80)],
            &[(0x7F, 0x80)],
            &[(0x7FF, 0x800)],
            &[(0xFFFF, 0x10000)],
            &[(0x10FFFF, 0x10FFFF)],
            &[(0xD7FF, 0xE000)],
            &[(0x3040, 0x30FF), (0x4E00, 0x9FFF)],
            &[(0x1234, 0x56789)],
        ] {
            check_every_scalar(ranges);
        }
    }

    #[test]
    fn sequences_are_disjoint_and_ascending() {
        let got = sequences(&[(0x1234, 0x56789)]).unwrap();
        let firsts: Vec<u32> = got
            .iter()
            .map(|s| {
                let bytes: Vec<u8> = s.ranges().iter().map(|r| r.start()).collect();
                core::str::from_utf8(&bytes)
                    .unwrap()
                    .chars()
                    .next()
                    .map(u32::from)
                    .unwrap()
            })
            .collect();
        assert!(firsts.windows(2).all(|w| w[0] < w[1]), "{got:?}");
    }

    #[test]
    fn random_sets() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..12 {
            let count = 1 + rng.below(6) as usize;
            let ranges: Vec<(u32, u32)> = (0..count)
                .map(|_| {
                    // Short ranges near the length boundaries find more split
                    // mistakes than uniform ones, which are mostly 4-byte.
                    let start = match rng.below(3) {
                        0 => rng.below(MAX_SCALAR + 1),
                        1 => rng.below(0x10000),
                        _ => rng.below(0x800),
                    };
                    let bits = 1 + rng.below(20);
                    let len = rng.below(1 << bits);
                    (start, (start + len).min(MAX_SCALAR))
                })
                .collect();
            check_every_scalar(&ranges);
        }
    }

    #[test]
    fn random_sets_on_short_strings() {
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        for _ in 0..2 {
            let ranges: Vec<(u32, u32)> = (0..4)
                .map(|_| {
                    let start = rng.below(0x10000);
                    (start, (start + rng.below(0x2000)).min(MAX_SCALAR))
                })
                .collect();
            check_short_strings(&ranges);
        }
    }

    #[test]
    fn no_other_sequence_gets_in() {
        let tables = derive(&XML_CHAR).unwrap().tables().clone();
        for bytes in [
            &b"\xC0\x80"[..],            // overlong U+0000
            b"\xC1\xBF",                 // overlong U+007F
            b"\xE0\x80\x80",             // overlong U+0000
            b"\xE0\x9F\xBF",             // overlong U+07FF
            b"\xF0\x80\x80\x80",         // overlong U+0000
            b"\xF0\x8F\xBF\xBF",         // overlong U+FFFF
            b"\xED\xA0\x80",             // U+D800
            b"\xED\xBF\xBF",             // U+DFFF
            b"\xED\xA0\xBD\xED\xB2\xA9", // a surrogate pair, CESU-8 style
            b"\xF4\x90\x80\x80",         // U+110000
            b"\xF5\x80\x80\x80",
            b"\xFF",
            b"\x80",
            b"\xE2\x82",     // truncated
            b"\xEF\xBF\xBE", // U+FFFE, excluded by XML
            b"\x00",         // excluded by XML
        ] {
            assert!(!tables.accepts(bytes), "{bytes:02X?}");
        }
    }

    #[test]
    fn ranges_normalize() {
        let set =
            ScalarSet::new(&[(0x30, 0x39), (0x20, 0x7E), (0x7F, 0x7F), (0x100, 0x100)]).unwrap();
        assert_eq!(set.ranges(), [(0x20, 0x7F), (0x100, 0x100)]);
        let set = ScalarSet::new(&[(0xD000, 0xE000)]).unwrap();
        assert_eq!(set.ranges(), [(0xD000, 0xD7FF), (0xE000, 0xE000)]);
        assert_eq!(set.to_string(), "U+D000..U+D7FF, U+E000");
    }

    #[test]
    fn errors() {
        let message = |ranges: &[(u32, u32)]| ScalarSet::new(ranges).unwrap_err().to_string();
        assert_eq!(
            message(&[(0x41, 0x110000)]),
            "U+110000 is above U+10FFFF, the last Unicode scalar value"
        );
        assert_eq!(
            message(&[(0x7F, 0x41)]),
            "scalar range U+007F..U+0041 ends below its start"
        );
        assert_eq!(
            message(&[]),
            "the set of scalar values is empty, so there is nothing to validate"
        );
        assert_eq!(
            *ScalarSet::new(&[(0xD800, 0xDBFF)]).unwrap_err().kind(),
            ErrorKind::EmptyScalarSet {
                only_surrogates: true
            }
        );
        assert_eq!(
            ScalarSet::new(&[(0x41, 0x110000)]).unwrap_err().position(),
            None
        );
    }
}
