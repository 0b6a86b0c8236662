//! Inclusive ranges of octets, printed the way ABNF writes them.

use core::fmt;

/// An inclusive range of octets, such as the `%x80-BF` of `UTF8-tail`.
///
/// `Debug` and `Display` both print the ABNF form (`%x80-BF`, or `%xE0` for a
/// single octet), so that every stage of the derivation reads like the RFC.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ByteRange {
    start: u8,
    end: u8,
}

impl ByteRange {
    /// The range `start..=end`.
    ///
    /// # Panics
    /// When `start > end`; the ABNF reader reports such ranges as errors before
    /// they get here.
    pub const fn new(start: u8, end: u8) -> ByteRange {
        assert!(start <= end, "a byte range must not be reversed");
        ByteRange { start, end }
    }

    /// The range holding the single octet `byte`.
    pub const fn single(byte: u8) -> ByteRange {
        ByteRange {
            start: byte,
            end: byte,
        }
    }

    /// The first octet of the range.
    pub const fn start(self) -> u8 {
        self.start
    }

    /// The last octet of the range (inclusive).
    pub const fn end(self) -> u8 {
        self.end
    }

    /// Whether `byte` lies in the range.
    pub const fn contains(self, byte: u8) -> bool {
        self.start <= byte && byte <= self.end
    }

    /// The number of octets in the range (1 to 256).
    pub const fn len(self) -> usize {
        (self.end - self.start) as usize + 1
    }

    /// Always false: a range holds at least one octet. Present for API symmetry with `len`.
    pub const fn is_empty(self) -> bool {
        false
    }

    /// The octets of the range, in ascending order.
    pub fn bytes(self) -> impl Iterator<Item = u8> + Clone {
        self.start..=self.end
    }
}

impl fmt::Debug for ByteRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for ByteRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start == self.end {
            write!(f, "%x{:02X}", self.start)
        } else {
            write!(f, "%x{:02X}-{:02X}", self.start, self.end)
        }
    }
}

/// Groups a byte-indexed map into maximal runs of consecutive bytes that map
/// to equal values: `[(%x00-7F, a), (%x80-BF, b), ...]`.
///
/// Every printer of the derivation uses this to show 256-entry rows the way
/// the RFC writes them, as a handful of ranges.
pub fn runs<T: PartialEq + Copy>(row: &[T; 256]) -> Vec<(ByteRange, T)> {
    let mut out: Vec<(ByteRange, T)> = Vec::new();
    for (byte, &value) in (0..=255u8).zip(row.iter()) {
        match out.last_mut() {
            Some((range, last)) if *last == value => range.end = byte,
            _ => out.push((ByteRange::single(byte), value)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_like_abnf() {
        assert_eq!(format!("{:?}", ByteRange::new(0x80, 0xBF)), "%x80-BF");
        assert_eq!(format!("{}", ByteRange::single(0xE0)), "%xE0");
        assert_eq!(format!("{}", ByteRange::new(0, 0x7F)), "%x00-7F");
    }

    #[test]
    fn runs_merge_equal_neighbours() {
        let mut row = [0u8; 256];
        row[0x80..=0xBF].fill(1);
        row[0xC0..].fill(2);
        let r = runs(&row);
        assert_eq!(
            r,
            vec![
                (ByteRange::new(0x00, 0x7F), 0),
                (ByteRange::new(0x80, 0xBF), 1),
                (ByteRange::new(0xC0, 0xFF), 2)
            ]
        );
    }

    #[test]
    fn len_counts_inclusive_ends() {
        assert_eq!(ByteRange::new(0, 255).len(), 256);
        assert_eq!(ByteRange::single(7).len(), 1);
    }
}
