//! Repair: each invalid row's maximal invalid subparts replaced by U+FFFD,
//! as `String::from_utf8_lossy` does per row, with the valid rows left as
//! they are and nothing copied when every row is valid.
//!
//! Null rows are repaired too: a repaired column is string data, whose
//! every slot Arrow's `validate_full` holds to UTF-8, null or not (and
//! utf8-arrow's lossy conversions hand it on as such).

use alloc::vec::Vec;

use super::error::{ColumnError, Layout};
use super::offset::Offset;
use super::offsets::Offsets;
use super::page::PlainPage;
use super::view::MAX_INLINE;
use super::views::Views;
use super::{Column, Rows};
use crate::chunks::Chunks;
use crate::ruleset::Ruleset;

/// U+FFFD in UTF-8 (and in every built-in dialect).
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// Appends `row` to `out` with each maximal invalid subpart replaced.
fn repair_into<R: Ruleset>(row: &[u8], out: &mut Vec<u8>) {
    for chunk in Chunks::<R>::new(row) {
        out.extend_from_slice(chunk.valid());
        if !chunk.invalid().is_empty() {
            out.extend_from_slice(REPLACEMENT);
        }
    }
}

/// An offsets column after [`Offsets::lossy`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LossyOffsets<O> {
    /// Every row was valid, null rows too: use the column as it is.
    Unchanged,
    /// The column with its invalid rows repaired, null rows too: new
    /// offsets (from 0) over new values.
    Repaired {
        /// One more than the rows.
        offsets: Vec<O>,
        /// The values the offsets index.
        values: Vec<u8>,
    },
}

impl<'a, O: Offset> Offsets<'a, O> {
    /// The column with each invalid row repaired, null or not, copying only
    /// when a row is invalid. The error is [`Layout::OffsetOutOfRange`] at the row
    /// whose end no longer fits in `O` once replacement characters have
    /// made the values longer.
    ///
    /// ```
    /// use utf8_core::column::{LossyOffsets, Offsets};
    /// let column = Offsets::new(&[0i32, 2, 4], b"ok\xF0!")?;
    /// let LossyOffsets::Repaired { offsets, values } = column.lossy::<utf8_core::Rfc3629>()? else {
    ///     unreachable!()
    /// };
    /// assert_eq!((offsets.as_slice(), values.as_slice()), (&[0, 2, 6][..], "ok\u{FFFD}!".as_bytes()));
    /// # Ok::<(), utf8_core::column::ColumnError>(())
    /// ```
    pub fn lossy<R: Ruleset>(&self) -> Result<LossyOffsets<O>, ColumnError> {
        self.without_nulls().lossy_rows::<R>()
    }

    /// [`lossy`](Self::lossy) of a column without a null bitmap.
    fn lossy_rows<R: Ruleset>(&self) -> Result<LossyOffsets<O>, ColumnError> {
        let Some((first_invalid, _)) = self.invalid_rows::<R>().next() else {
            return Ok(LossyOffsets::Unchanged);
        };
        // Every offset is at most the last: when that fits in `O`, all do,
        // and they are converted without a test each.
        let (offsets, values) = self.repaired::<R, false>(first_invalid)?;
        if O::from_index(values.len()).is_some() {
            return Ok(LossyOffsets::Repaired { offsets, values });
        }
        let (offsets, values) = self.repaired::<R, true>(first_invalid)?;
        Ok(LossyOffsets::Repaired { offsets, values })
    }

    /// The invalid rows from `first`, found a batch of rows at a time as the
    /// repair asks for them: the bytes a batch's check reads are still in
    /// the cache when the repair copies them.
    fn invalid_from<R: Ruleset>(&self, first: usize) -> impl Iterator<Item = usize> {
        let rows = self.rows();
        (first..rows)
            .step_by(REPAIR_BATCH_ROWS)
            .flat_map(move |batch| {
                let end = rows.min(batch + REPAIR_BATCH_ROWS);
                let column = self.rows_between(batch, end);
                let invalid: Vec<usize> = column
                    .invalid_rows::<R>()
                    .map(|(row, _)| batch + row)
                    .collect();
                invalid
            })
    }

    /// The repaired column, `first_invalid` its first invalid row; each
    /// offset converted to `O` with a test when `CHECKED`, else wrapping.
    fn repaired<R: Ruleset, const CHECKED: bool>(
        &self,
        first_invalid: usize,
    ) -> Result<(Vec<O>, Vec<u8>), ColumnError> {
        let convert = |index: usize, row: usize| {
            if CHECKED {
                offset_of::<O>(index, row)
            } else {
                Ok(O::from_index_wrapping(index))
            }
        };
        let rows = self.rows();
        let offsets = self.offsets();
        let base = offsets[0].index();
        let mut values = Vec::with_capacity(offsets[rows].index() - base + 16);
        let mut new_offsets = Vec::with_capacity(rows + 1);
        let mut row = 0;
        for bad in self.invalid_from::<R>(first_invalid).chain([rows]) {
            // Rows `row..bad` unchanged: their bytes in one copy, their
            // offsets moved by how far the values have shifted.
            let (from, to) = (offsets[row].index(), offsets[bad].index());
            let shift = values.len().wrapping_sub(from);
            let unchanged = offsets[row..bad]
                .iter()
                .map(|o| o.index().wrapping_add(shift));
            if CHECKED {
                for (k, index) in unchanged.enumerate() {
                    new_offsets.push(convert(index, (row + k).saturating_sub(1))?);
                }
            } else {
                new_offsets.extend(unchanged.map(O::from_index_wrapping));
            }
            values.extend_from_slice(&self.values()[from..to]);
            if bad == rows {
                break;
            }
            new_offsets.push(convert(values.len(), bad.saturating_sub(1))?);
            repair_into::<R>(&self.values()[to..offsets[bad + 1].index()], &mut values);
            row = bad + 1;
        }
        new_offsets.push(convert(values.len(), rows.saturating_sub(1))?);
        Ok((new_offsets, values))
    }
}

fn offset_of<O: Offset>(index: usize, row: usize) -> Result<O, ColumnError> {
    O::from_index(index).ok_or(ColumnError::layout(row, Layout::OffsetOutOfRange))
}

/// Rows a repair checks before copying them: their values stay in the
/// first cache levels between the two (at 1,024 rows of short strings,
/// tens of KiB).
const REPAIR_BATCH_ROWS: usize = 1024;

/// A views column after [`Views::lossy`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LossyViews {
    /// Every row was valid, null rows too: use the column as it is.
    Unchanged,
    /// The column with its invalid rows repaired, null rows too.
    Repaired {
        /// The views: the valid rows' as they were; a repaired row's inline
        /// when it fits in 12 bytes, else naming data buffer
        /// `buffers.len()`, which is `buffer`.
        views: Vec<u128>,
        /// The repaired rows too long to be inline: append it to the
        /// column's data buffers.
        buffer: Vec<u8>,
    },
}

impl<B: AsRef<[u8]>> Views<'_, B> {
    /// The column with each invalid row repaired, null or not, copying the
    /// views only when a row is invalid and never the data buffers. The error is
    /// [`Layout::ViewRange`] when the new buffer would pass 4 GiB, which a
    /// view's offset cannot name.
    pub fn lossy<R: Ruleset>(&self) -> Result<LossyViews, ColumnError> {
        let every_row = self.without_nulls();
        let mut invalid = every_row.invalid_rows::<R>().map(|(row, _)| row).peekable();
        if invalid.peek().is_none() {
            return Ok(LossyViews::Unchanged);
        }
        let mut views = self.views().to_vec();
        let mut buffer = Vec::new();
        let index = self.buffers().len() as u128;
        let mut repaired = Vec::new();
        for row in invalid {
            repaired.clear();
            self.with_row(row, &mut 0, |bytes| repair_into::<R>(bytes, &mut repaired));
            let len = repaired.len() as u128;
            views[row] = if repaired.len() <= MAX_INLINE {
                let mut data = [0u8; 16];
                data[..repaired.len()].copy_from_slice(&repaired);
                len | (u128::from_le_bytes(data) << 32)
            } else {
                let offset = u32::try_from(buffer.len())
                    .ok()
                    .filter(|o| o.checked_add(repaired.len() as u32).is_some())
                    .ok_or(ColumnError::layout(row, Layout::ViewRange))?;
                let prefix =
                    u32::from_le_bytes([repaired[0], repaired[1], repaired[2], repaired[3]]);
                buffer.extend_from_slice(&repaired);
                len | (u128::from(prefix) << 32) | (index << 64) | (u128::from(offset) << 96)
            };
        }
        Ok(LossyViews::Repaired { views, buffer })
    }
}

/// A page after [`PlainPage::lossy`]: the same page, or a new one whose
/// invalid values are repaired and whose bytes after the values are kept.
pub type LossyPage<'a> = alloc::borrow::Cow<'a, [u8]>;

impl<'a> PlainPage<'a> {
    /// The page with each invalid value repaired, borrowed unchanged when
    /// every value is valid. The error is [`Layout::PageTruncated`] at a
    /// value whose repaired length no longer fits its 4-byte prefix.
    pub fn lossy<R: Ruleset>(&self) -> Result<LossyPage<'a>, ColumnError> {
        let mut invalid = self.invalid_rows::<R>().map(|(row, _)| row).peekable();
        if invalid.peek().is_none() {
            return Ok(LossyPage::Borrowed(self.bytes()));
        }
        let mut out = Vec::with_capacity(self.bytes().len() + 16);
        let (mut at, mut row) = (0, 0);
        let mut repaired = Vec::new();
        for bad in invalid {
            // Values `row..bad` as they are, prefixes and all.
            let mut to = at;
            for skipped in row..bad {
                self.with_row(skipped, &mut to, |_| ());
            }
            out.extend_from_slice(&self.bytes()[at..to]);
            repaired.clear();
            at = to;
            self.with_row(bad, &mut at, |bytes| repair_into::<R>(bytes, &mut repaired));
            let len = u32::try_from(repaired.len())
                .map_err(|_| ColumnError::layout(bad, Layout::PageTruncated))?;
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&repaired);
            row = bad + 1;
        }
        out.extend_from_slice(&self.bytes()[at..]);
        Ok(LossyPage::Owned(out))
    }
}
