//! Columns of many strings checked in one call: Arrow's offsets and views
//! layouts and Parquet's PLAIN `BYTE_ARRAY` pages, under any ruleset, with
//! the bad row named.
//!
//! Checking a column a row at a time costs a call per row, which for short
//! strings is most of the time spent. Here a column is checked as a few
//! long runs instead, and the answer is still exact per row:
//!
//! | layout | how its rows are checked | module |
//! |---|---|---|
//! | [`Offsets`] | the values the rows cover, a batch of rows at a time, as one run; then one byte test per row: after a valid run, a row starts on a boundary exactly when its first byte is one a row may start with (for UTF-8, not `80`–`BF`) | `offsets` |
//! | [`Views`] | the inline strings packed one after another, four or two views a step at the AVX-512 and AVX2 levels, and strings that lie back to back in a data buffer, as writers lay them out, checked where they lie, many rows a call, both with the same first-byte test as offsets; otherwise the inline views copied as they are (for UTF-8, a view's length and padding bytes may only come between sequences) and short strings after them, each followed by a separator byte no sequence may contain, the copy checked as one run, long ones in place | `views`, `view_scan`, `inline`, `gather` |
//! | [`PlainPage`] | the same copying check, walking the length prefixes | `page`, `gather` |
//!
//! Which a ruleset allows is proved from its tables (`rule`): RFC 3629 and
//! RFC 2279 allow the in-place check and inline views checked as they lie;
//! CESU-8 (whose surrogate pair's second half starts with `ED`, as a
//! sequence may) has its offsets copied; modified UTF-8 (which has no `00`
//! to pad with) its views, after [`Views::validated`]'s check in place. A ruleset that allows neither (WTF-8, whose
//! input may also end after a lead surrogate) is checked a row at a time,
//! with the same answers.
//!
//! The layout is checked when a column is made ([`Offsets::new`],
//! [`Views::new`], [`PlainPage::new`], `with_nulls`): a malformed one is a
//! [`ColumnError`] naming the row, and everything read later is in bounds
//! by construction. [`Views::validated`] makes a views column and checks
//! its rows in one pass, each view's layout checked before anything is
//! read through it. Null rows (an Arrow validity bitmap, [`Nulls`]) may
//! hold any bytes and are not checked.
//!
//! The checks run at the CPU's vector level, except on a CPU whose
//! AVX-512 has no VBMI2 (Intel's first AVX-512 cores, whose clock drops
//! while 512-bit code runs), where they run at AVX2 (`kernel_level`).
//!
//! Every layout answers the same questions, through [`Column`]: the first
//! invalid row ([`Column::validate`]), every one ([`Column::invalid_rows`]),
//! a validity bitmap of the rows that are valid ([`Column::write_validity`]),
//! and, with `alloc`, a repaired copy that changes only the invalid rows
//! (`lossy` on each layout).
//!
//! ```
//! use utf8_core::Rfc3629;
//! use utf8_core::column::{Column, Offsets};
//!
//! // Four rows; row 2 ends inside "é" and row 3 starts with its tail: back
//! // to back they would be valid UTF-8, but neither row is.
//! let values = b"okcaf\xC3\xA9lait";
//! let column = Offsets::new(&[0i32, 2, 2, 6, 11], values)?;
//! let bad: Vec<usize> = column.invalid_rows::<Rfc3629>().map(|(row, _)| row).collect();
//! assert_eq!(bad, [2, 3]);
//! let mut validity = [0u8; 1];
//! assert_eq!(column.write_validity::<Rfc3629>(&mut validity), 2);
//! assert_eq!(validity[0], 0b0011);
//! # Ok::<(), utf8_core::column::ColumnError>(())
//! ```

use core::iter::FusedIterator;
use core::marker::PhantomData;

use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

mod error;
mod first_bytes;
mod gather;
mod inline;
pub(crate) mod kernel_level;
#[cfg(feature = "alloc")]
mod lossy;
mod nulls;
mod offset;
mod offsets;
mod page;
mod rule;
mod span_scan;
mod view;
pub(crate) mod view_scan;
mod views;
mod views_check;
mod views_copied;

pub use error::{ColumnError, ColumnErrorKind, Layout};
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub use lossy::{LossyOffsets, LossyPage, LossyViews};
pub use nulls::Nulls;
pub use offset::Offset;
pub use offsets::Offsets;
pub use page::PlainPage;
pub use views::Views;

mod private {
    use super::gather::{Batch, Pushed};
    use super::nulls::Nulls;
    use crate::error::Utf8Error;
    use crate::ruleset::Ruleset;

    /// Where a search for invalid rows goes on from: a row, and the cursor
    /// a layout may need to find it (a page's byte position; unused
    /// elsewhere).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Resume {
        pub(crate) row: usize,
        pub(crate) at: usize,
    }

    /// What each layout provides to the checks: its rows, in order.
    pub trait Rows {
        fn rows(&self) -> usize;
        fn nulls(&self) -> Option<&Nulls<'_>>;
        /// Runs `f` on row `row`'s bytes, the cursor `at` being at the row;
        /// moves the cursor past it.
        fn with_row<T>(&self, row: usize, at: &mut usize, f: impl FnOnce(&[u8]) -> T) -> T;
        /// Copies row `row` into `batch` (or notes it as null), moving the
        /// cursor past it when [`Pushed::Copied`].
        fn gather(&self, row: usize, at: &mut usize, batch: &mut Batch<'_>) -> Pushed;
        /// The first invalid row at or after `from`, with its error and
        /// where to go on from.
        fn next_invalid<R: Ruleset>(&self, from: Resume) -> Option<(usize, Utf8Error, Resume)>;
    }
}
pub(crate) use private::{Resume, Rows};

/// The checks every column layout answers, under any [`Ruleset`]. Sealed:
/// implemented by [`Offsets`], [`Views`] and [`PlainPage`].
pub trait Column: Rows {
    /// How many rows the column has.
    fn len(&self) -> usize {
        self.rows()
    }

    /// Whether the column has no rows.
    fn is_empty(&self) -> bool {
        self.rows() == 0
    }

    /// Checks every row that is not null; the error names the first
    /// invalid one.
    fn validate<R: Ruleset>(&self) -> Result<(), ColumnError> {
        match self.next_invalid::<R>(Resume::default()) {
            None => Ok(()),
            Some((row, error, _)) => Err(ColumnError::invalid(row, error)),
        }
    }

    /// Every invalid row that is not null, in order, with its error
    /// (relative to the row's start).
    fn invalid_rows<R: Ruleset>(&self) -> InvalidRows<'_, Self, R>
    where
        Self: Sized,
    {
        InvalidRows {
            column: self,
            from: Some(Resume::default()),
            ruleset: PhantomData,
        }
    }

    /// Writes a validity bitmap in Arrow's layout (bit `row`, least
    /// significant first): 1 for a row that holds a valid value, 0 for a
    /// null or invalid one, the bits past the last row 0. What a safe cast
    /// that turns invalid values into nulls needs. Returns how many rows
    /// are valid.
    ///
    /// # Panics
    ///
    /// When `out` is shorter than `len().div_ceil(8)` bytes.
    fn write_validity<R: Ruleset>(&self, out: &mut [u8]) -> usize
    where
        Self: Sized,
    {
        let rows = self.rows();
        let out = &mut out[..rows.div_ceil(8)];
        match self.nulls() {
            Some(nulls) => nulls.copy_to(out),
            None => out.fill(0xFF),
        }
        if !rows.is_multiple_of(8) {
            out[rows / 8] &= (1u8 << (rows % 8)) - 1;
        }
        let mut valid = out
            .iter()
            .map(|byte| byte.count_ones() as usize)
            .sum::<usize>();
        for (row, _) in self.invalid_rows::<R>() {
            out[row / 8] &= !(1 << (row % 8));
            valid -= 1;
        }
        valid
    }
}

impl<O: Offset> Column for Offsets<'_, O> {}
impl<B: AsRef<[u8]>> Column for Views<'_, B> {}
impl Column for PlainPage<'_> {}

/// The invalid rows of a column: [`Column::invalid_rows`].
#[derive(Debug)]
pub struct InvalidRows<'c, C, R> {
    column: &'c C,
    from: Option<Resume>,
    ruleset: PhantomData<R>,
}

impl<C: Column, R: Ruleset> Iterator for InvalidRows<'_, C, R> {
    type Item = (usize, Utf8Error);

    fn next(&mut self) -> Option<(usize, Utf8Error)> {
        let from = self.from?;
        match self.column.next_invalid::<R>(from) {
            Some((row, error, resume)) => {
                self.from = Some(resume);
                Some((row, error))
            }
            None => {
                self.from = None;
                None
            }
        }
    }
}

impl<C: Column, R: Ruleset> FusedIterator for InvalidRows<'_, C, R> {}

/// The first invalid row in `from.row..end` that is not null, checked one
/// row at a time.
pub(crate) fn per_row<R: Ruleset, S: Rows + ?Sized>(
    source: &S,
    from: Resume,
    end: usize,
) -> Option<(usize, Utf8Error, Resume)> {
    let Resume { mut at, .. } = from;
    for row in from.row..end {
        let holds_value = nulls::holds_value(source.nulls(), row);
        let error = source.with_row(row, &mut at, |bytes| {
            if holds_value {
                R::validate(bytes).err()
            } else {
                None
            }
        });
        if let Some(error) = error {
            return Some((row, error, Resume { row: row + 1, at }));
        }
    }
    None
}
