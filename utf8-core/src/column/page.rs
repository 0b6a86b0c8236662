//! Parquet PLAIN `BYTE_ARRAY` pages: each value a 4-byte little-endian
//! length, then its bytes.

use super::error::{ColumnError, Layout};
use super::gather::{self, Batch, Pushed};
use super::nulls::Nulls;
use super::rule::RuleOf;
use super::{Resume, Rows, per_row};
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

/// The values of a Parquet data page in PLAIN encoding for a `BYTE_ARRAY`
/// column: `count` values, each a 4-byte little-endian length followed by
/// that many bytes. Nulls are not in a page's values (its definition
/// levels say where they are), so every row here holds a value; row `i` is
/// the page's `i`th value.
///
/// ```
/// use utf8_core::column::{Column, PlainPage};
/// let page = b"\x02\x00\x00\x00ok\x03\x00\x00\x00\xFFab";
/// let e = PlainPage::new(page, 2)?.validate::<utf8_core::Rfc3629>().unwrap_err();
/// assert_eq!(e.row(), 1);
/// // Cut short inside the second value.
/// let e = PlainPage::new(&page[..10], 2).unwrap_err();
/// assert_eq!((e.row(), e.layout_error()), (1, Some(utf8_core::column::Layout::PageTruncated)));
/// # Ok::<(), utf8_core::column::ColumnError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PlainPage<'a> {
    bytes: &'a [u8],
    count: usize,
    end: usize,
}

impl<'a> PlainPage<'a> {
    /// The page's `count` values, once their length prefixes are walked:
    /// the error names the value the page ends inside. Bytes after the last
    /// value are not part of it ([`values_end`](PlainPage::values_end)).
    pub fn new(bytes: &'a [u8], count: usize) -> Result<PlainPage<'a>, ColumnError> {
        let mut at = 0;
        for row in 0..count {
            match value(bytes, at) {
                Some((_, next)) => at = next,
                None => return Err(ColumnError::layout(row, Layout::PageTruncated)),
            }
        }
        Ok(PlainPage {
            bytes,
            count,
            end: at,
        })
    }

    /// Where the last value ends.
    pub fn values_end(&self) -> usize {
        self.end
    }

    /// The page's bytes, as given.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

/// The value whose length prefix is at `at`, and where the next begins.
#[inline]
fn value(bytes: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let prefix = bytes.get(at..at.checked_add(4)?)?;
    let len = u32::from_le_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
    let end = (at + 4).checked_add(len)?;
    Some((bytes.get(at + 4..end)?, end))
}

impl Rows for PlainPage<'_> {
    fn rows(&self) -> usize {
        self.count
    }

    fn nulls(&self) -> Option<&Nulls<'_>> {
        None
    }

    #[inline]
    fn with_row<T>(&self, _: usize, at: &mut usize, f: impl FnOnce(&[u8]) -> T) -> T {
        // `new` walked every value: the cursor is at one, never past the end.
        let (bytes, next) = value(self.bytes, *at).unwrap_or((&[], *at));
        *at = next;
        f(bytes)
    }

    #[inline]
    fn gather(&self, _: usize, at: &mut usize, batch: &mut Batch<'_>) -> Pushed {
        let (bytes, next) = value(self.bytes, *at).unwrap_or((&[], *at));
        let pushed = batch.push(self.bytes, *at + 4, bytes.len());
        if let Pushed::Copied = pushed {
            *at = next;
        }
        pushed
    }

    fn next_invalid<R: Ruleset>(&self, from: Resume) -> Option<(usize, Utf8Error, Resume)> {
        match const { RuleOf::<R>::RULE.separator } {
            Some(separator) => gather::next_invalid::<R, Self>(self, from, separator),
            None => per_row::<R, Self>(self, from, self.count),
        }
    }
}
