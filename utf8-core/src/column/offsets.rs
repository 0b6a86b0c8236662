//! Offsets columns: Arrow's `Utf8`, `LargeUtf8`, `Binary` and `LargeBinary`
//! layout, rows `values[offsets[i]..offsets[i + 1]]`.

use super::error::{ColumnError, Layout};
use super::gather::{self, Batch, Pushed};
use super::nulls::{Nulls, holds_value};
use super::offset::Offset;
use super::rule::{LOWEST_UTF8_START, RuleOf};
use super::{Column, Resume, Rows, per_row};
use super::{first_bytes, kernel_level};
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

/// A column of `offsets.len() - 1` rows over one values buffer, row `i`
/// being `values[offsets[i]..offsets[i + 1]]`: Arrow's `Utf8`/`Binary`
/// (`i32`) and `LargeUtf8`/`LargeBinary` (`i64`) layout.
///
/// [`new`](Offsets::new) checks the layout: offsets that do not decrease and
/// stay within `values`. Bytes of `values` outside
/// `offsets[0]..offsets[rows]` (a sliced array's neighbours) are never read.
///
/// Checked as one run over the values plus one test per row when the
/// ruleset allows it (see [`Column`](super::Column)): a short string costs
/// a byte test, not a call.
///
/// ```
/// use utf8_core::column::{Column, Offsets};
/// let values = "héllo wörld".as_bytes();
/// let column = Offsets::new(&[0i32, 6, 7, 13], values)?;
/// assert!(column.validate::<utf8_core::Rfc3629>().is_ok());
/// // Cut inside "é": each half is invalid, though together they are not.
/// let column = Offsets::new(&[0i32, 2, 13], values)?;
/// let e = column.validate::<utf8_core::Rfc3629>().unwrap_err();
/// assert_eq!(e.row(), 0);
/// # Ok::<(), utf8_core::column::ColumnError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Offsets<'a, O: Offset> {
    offsets: &'a [O],
    values: &'a [u8],
    nulls: Option<Nulls<'a>>,
}

impl<'a, O: Offset> Offsets<'a, O> {
    /// The column, once its offsets are checked: at least one, none
    /// negative, none less than the one before, none past the end of
    /// `values`. The error names the row whose end is at fault (row 0 for
    /// the first offset).
    pub fn new(offsets: &'a [O], values: &'a [u8]) -> Result<Offsets<'a, O>, ColumnError> {
        let Some(&first) = offsets.first() else {
            return Err(ColumnError::layout(0, Layout::NoOffsets));
        };
        // The first at least 0 and none below the one before, in the
        // type's own order, put every offset at or above the first; the
        // last within `values` then puts every one in range, when the type
        // is no wider than `usize` (a plain cast then keeps its value).
        let fits = size_of::<O>() <= size_of::<usize>();
        let last = offsets[offsets.len() - 1];
        if !(fits
            && first.to_index().is_some()
            && in_order(offsets)
            && last.index() <= values.len())
        {
            first_malformed(offsets, values.len())?;
        }
        Ok(Offsets {
            offsets,
            values,
            nulls: None,
        })
    }

    /// The column, once its offsets are checked and every row that holds
    /// a value is found valid under `R`: what [`new`](Offsets::new),
    /// [`with_nulls`](Offsets::with_nulls) (when `nulls` is given) and
    /// [`Column::validate`](super::Column::validate) answer together, the
    /// same error included.
    ///
    /// Where the ruleset's first bytes mark a string's boundaries (RFC
    /// 3629, RFC 2279 or modified UTF-8), the offsets' layout is checked a
    /// batch at a time, just before the batch's rows are, while they are
    /// in the first cache level: a column larger than the cache is read
    /// from memory once, not once for `new` and again for the check.
    /// Otherwise, or when that pass finds anything wrong, it is those
    /// three calls.
    ///
    /// ```
    /// use utf8_core::Rfc3629;
    /// use utf8_core::column::Offsets;
    /// let values = "héllo wörld".as_bytes();
    /// assert!(Offsets::validated::<Rfc3629>(&[0i32, 6, 13], values, None).is_ok());
    /// // Cut inside "é", then an offset past the values.
    /// let e = Offsets::validated::<Rfc3629>(&[0i32, 2, 13], values, None).unwrap_err();
    /// assert_eq!(e.row(), 0);
    /// let e = Offsets::validated::<Rfc3629>(&[0i32, 6, 14], values, None).unwrap_err();
    /// assert_eq!((e.row(), e.utf8_error()), (1, None));
    /// ```
    pub fn validated<R: Ruleset>(
        offsets: &'a [O],
        values: &'a [u8],
        nulls: Option<Nulls<'a>>,
    ) -> Result<Offsets<'a, O>, ColumnError> {
        let rule = const { RuleOf::<R>::RULE };
        if rule.first_byte_marks_boundary
            && let Some(rows) = offsets.len().checked_sub(1)
            && nulls.is_none_or(|nulls| nulls.check(rows).is_ok())
        {
            // Not yet a column: no offset is used before the batch that
            // holds it has been checked, and the value escapes only once
            // every batch has been.
            let unchecked = Offsets {
                offsets,
                values,
                nulls,
            };
            if passes_checking_layout::<R, O>(&unchecked) {
                return Ok(unchecked);
            }
        }
        let column = Offsets::new(offsets, values)?;
        let column = match nulls {
            Some(nulls) => column.with_nulls(nulls)?,
            None => column,
        };
        column.validate::<R>()?;
        Ok(column)
    }

    /// The column with a null bitmap: null rows are not checked.
    pub fn with_nulls(self, nulls: Nulls<'a>) -> Result<Offsets<'a, O>, ColumnError> {
        nulls.check(self.rows())?;
        Ok(Offsets {
            nulls: Some(nulls),
            ..self
        })
    }

    /// The column without its null bitmap: every row is checked.
    #[cfg(feature = "alloc")]
    pub(super) fn without_nulls(&self) -> Offsets<'a, O> {
        Offsets {
            nulls: None,
            ..*self
        }
    }

    /// The offsets.
    pub fn offsets(&self) -> &'a [O] {
        self.offsets
    }

    /// The values buffer.
    pub fn values(&self) -> &'a [u8] {
        self.values
    }

    /// Rows `first..end` as a column of their own (row `first` its row 0):
    /// their offsets and bitmap were checked with the whole column's.
    #[cfg(feature = "alloc")]
    pub(super) fn rows_between(&self, first: usize, end: usize) -> Offsets<'a, O> {
        Offsets {
            offsets: &self.offsets[first..=end],
            values: self.values,
            nulls: self.nulls.map(|nulls| nulls.skip(first)),
        }
    }

    #[inline(always)]
    fn at(&self, row: usize) -> usize {
        self.offsets[row].index()
    }
}

/// Whether no offset is below the one before, in the type's own order: a
/// fold over two slices a row apart, with no early exit, so that it runs a
/// vector at a time (`windows` costs shuffles).
#[inline]
fn in_order<O: Offset>(offsets: &[O]) -> bool {
    !offsets
        .iter()
        .zip(offsets.get(1..).unwrap_or_default())
        .fold(false, |any, (before, offset)| any | (offset < before))
}

/// The first offset at fault, converted one at a time: where the vector
/// test failed, or for offsets wider than `usize`.
fn first_malformed<O: Offset>(offsets: &[O], values: usize) -> Result<(), ColumnError> {
    let mut previous = 0;
    for (k, offset) in offsets.iter().enumerate() {
        let row = k.saturating_sub(1);
        let fault = match offset.to_index() {
            None => Layout::OffsetOutOfRange,
            Some(at) if k > 0 && at < previous => Layout::OffsetsDecrease,
            Some(at) if at > values => Layout::OffsetPastValues,
            Some(at) => {
                previous = at;
                continue;
            }
        };
        return Err(ColumnError::layout(row, fault));
    }
    Ok(())
}

impl<O: Offset> Rows for Offsets<'_, O> {
    fn rows(&self) -> usize {
        self.offsets.len() - 1
    }

    fn nulls(&self) -> Option<&Nulls<'_>> {
        self.nulls.as_ref()
    }

    #[inline]
    fn with_row<T>(&self, row: usize, _: &mut usize, f: impl FnOnce(&[u8]) -> T) -> T {
        f(&self.values[self.at(row)..self.at(row + 1)])
    }

    #[inline]
    fn gather(&self, row: usize, _: &mut usize, batch: &mut Batch<'_>) -> Pushed {
        if holds_value(self.nulls.as_ref(), row) {
            let start = self.at(row);
            batch.push(self.values, start, self.at(row + 1) - start)
        } else {
            Pushed::Copied
        }
    }

    fn next_invalid<R: Ruleset>(&self, from: Resume) -> Option<(usize, Utf8Error, Resume)> {
        let rule = const { RuleOf::<R>::RULE };
        if rule.first_byte_marks_boundary {
            next_invalid_in_place::<R, O>(self, from.row)
        } else if let Some(separator) = rule.separator {
            gather::next_invalid::<R, Self>(self, from, separator)
        } else {
            per_row::<R, Self>(self, from, self.rows())
        }
    }
}

/// How many rows one call checks in place: enough that the call's fixed
/// cost is spread thin, few enough that an invalid row sends only the rest
/// of its batch round again.
const BATCH_ROWS: usize = 1024;

/// The in-place check: each batch of rows as one run, then each row's first
/// byte. On failure, the first invalid row is found from where the run
/// stopped, and the search goes on after it.
fn next_invalid_in_place<R: Ruleset, O: Offset>(
    column: &Offsets<'_, O>,
    from: usize,
) -> Option<(usize, Utf8Error, Resume)> {
    let rows = column.rows();
    let mut first = from;
    while first < rows {
        let end = rows.min(first + BATCH_ROWS);
        let (start, stop) = (column.at(first), column.at(end));
        let run = &column.values[start..stop];
        // The rows before `checked` lie in a valid run; so does the start
        // of row `checked` when the run failed inside it, at `limit`.
        let (checked, limit) = match kernel_level::validate::<R>(run) {
            Ok(()) => (end, stop),
            Err(e) => {
                let position = start + e.valid_up_to();
                (row_holding(column, first, end, position), position)
            }
        };
        if let Some(row) = first_misplaced_start::<R, O>(column, first, checked, limit) {
            // Row `row` starts inside a sequence, so the row before it ends
            // inside one: one of the two is invalid, unless null.
            let found = per_row::<R, _>(column, resume(row - 1), row + 1);
            if found.is_some() {
                return found;
            }
            first = row + 1;
        } else if checked == end {
            first = end;
        } else {
            // Row `checked` holds the first invalid byte: invalid, unless
            // null.
            let found = per_row::<R, _>(column, resume(checked), checked + 1);
            if found.is_some() {
                return found;
            }
            first = checked + 1;
        }
    }
    None
}

/// Whether every offset is in order and within the values, and every row
/// in place is valid (null rows' bytes included), for a ruleset whose
/// first bytes mark boundaries: [`next_invalid_in_place`]'s pass with
/// [`Offsets::new`]'s test of each batch's offsets made just before the
/// batch is read. `false` says nothing more: the caller asks again.
fn passes_checking_layout<R: Ruleset, O: Offset>(column: &Offsets<'_, O>) -> bool {
    let (offsets, values) = (column.offsets, column.values);
    let first = offsets[0];
    // As in `Offsets::new`: a type no wider than `usize`, the first offset
    // at least 0, and then each batch in order and ending within `values`
    // puts every offset of the batch in range.
    if size_of::<O>() > size_of::<usize>() || first.to_index().is_none_or(|at| at > values.len()) {
        return false;
    }
    let rows = column.rows();
    let mut first = 0;
    while first < rows {
        let end = rows.min(first + BATCH_ROWS);
        let batch = &offsets[first..=end];
        if !in_order(batch) || batch[batch.len() - 1].index() > values.len() {
            return false;
        }
        let (start, stop) = (column.at(first), column.at(end));
        if kernel_level::validate::<R>(&values[start..stop]).is_err()
            || first_misplaced_start::<R, O>(column, first, end, stop).is_some()
        {
            return false;
        }
        first = end;
    }
    true
}

/// The non-empty row in `first..end` that holds byte `position`.
fn row_holding<O: Offset>(
    column: &Offsets<'_, O>,
    first: usize,
    end: usize,
    position: usize,
) -> usize {
    let starts = &column.offsets[first + 1..end];
    first + starts.partition_point(|o| o.index() <= position)
}

/// The first row in `first + 1..=last` whose start is not a boundary,
/// given that the run from row `first`'s start to `limit` (at or after row
/// `last`'s start) was valid. A row that starts at `limit` needs no test:
/// the valid run ended there, on a boundary.
#[inline]
fn first_misplaced_start<R: Ruleset, O: Offset>(
    column: &Offsets<'_, O>,
    first: usize,
    last: usize,
    limit: usize,
) -> Option<usize> {
    let rule = const { RuleOf::<R>::RULE };
    if last <= first {
        return None;
    }
    let tested = &column.offsets[first + 1..=last];
    let inner = tested.partition_point(|o| o.index() < limit);
    let values = &column.values[..limit];
    // Every offset tested is below `limit` (the partition), so within
    // `values`.
    let misplaced = if rule.utf8_tails {
        // The lowest first byte, as a signed byte: a continuation byte
        // (`80`-`BF`) is below -64 (`C0`); a minimum costs no branch and
        // no table.
        first_bytes::lowest(&tested[..inner], values) < LOWEST_UTF8_START
    } else {
        tested[..inner].iter().fold(false, |any, &offset| {
            any | !rule.starts_row(values[offset.index()])
        })
    };
    if !misplaced {
        return None;
    }
    tested[..inner]
        .iter()
        .position(|&offset| !rule.starts_row(values[offset.index()]))
        .map(|i| first + 1 + i)
}

fn resume(row: usize) -> Resume {
    Resume { row, at: 0 }
}
