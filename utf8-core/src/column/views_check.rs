//! How a views column is checked: the pass its ruleset allows (the
//! check in place of `super::inline`, which hands what it doubts to the
//! copying check of `super::views_copied`; the copying check of
//! `super::gather`; or a call per row), behind [`Rows`] and
//! [`Views::validated`]. Apart from the column (`super::views`), so that
//! the passes, which read the column, are imported one way.

use super::gather::{self, Batch, Pushed};
use super::nulls::{Nulls, holds_value};
use super::rule::RuleOf;
use super::view::{Place, View};
use super::views::Views;
#[cfg(target_endian = "little")]
use super::views::view_bytes;
use super::{Column, ColumnError, Resume, Rows, inline, per_row};
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

impl<'a, B: AsRef<[u8]>> Views<'a, B> {
    /// The column, once every view's layout is checked and every row that
    /// holds a value is found valid under `R`: what [`new`](Views::new),
    /// [`with_nulls`](Views::with_nulls) (when `nulls` is given) and
    /// [`Column::validate`] answer together, the same error included.
    ///
    /// Where the ruleset's first bytes mark a string's boundaries and the
    /// strings in data buffers lie in row order (RFC 3629, RFC 2279 or
    /// modified UTF-8, and columns as arrow-rs's builders and Parquet
    /// readers write them), each
    /// view is read from memory once, its layout checked in the same pass
    /// as its string: a column of short strings is mostly views, and a
    /// separate pass over them costs about as much as the check. Otherwise,
    /// or when that pass finds anything wrong, it is those three calls.
    ///
    /// ```
    /// use utf8_core::Rfc3629;
    /// use utf8_core::column::Views;
    /// let views = [2u128 | (u128::from(u16::from_le_bytes(*b"hi")) << 32)];
    /// let buffers: [&[u8]; 0] = [];
    /// assert!(Views::validated::<Rfc3629>(&views, &buffers, None).is_ok());
    ///
    /// let invalid = [1u128 | (0xFF << 32)];
    /// let e = Views::validated::<Rfc3629>(&invalid, &buffers, None).unwrap_err();
    /// assert_eq!((e.row(), e.utf8_error().map(|e| e.valid_up_to())), (0, Some(0)));
    /// # Ok::<(), utf8_core::column::ColumnError>(())
    /// ```
    pub fn validated<R: Ruleset>(
        views: &'a [u128],
        buffers: &'a [B],
        nulls: Option<Nulls<'a>>,
    ) -> Result<Views<'a, B>, ColumnError> {
        let rule = const { RuleOf::<R>::RULE };
        if rule.first_byte_marks_boundary
            && nulls.is_none_or(|nulls| nulls.check(views.len()).is_ok())
        {
            // Not yet a column: nothing is read through a view until
            // `in_place` has checked it, and the value escapes only once
            // every view has been.
            let unchecked = Views {
                views,
                #[cfg(target_endian = "little")]
                view_bytes: view_bytes(views),
                buffers,
                nulls,
            };
            if inline::in_place::<R, B, true>(&unchecked, 0).is_ok() {
                return Ok(unchecked);
            }
        }
        let column = Views::new(views, buffers)?;
        let column = match nulls {
            Some(nulls) => column.with_nulls(nulls)?,
            None => column,
        };
        column.validate::<R>()?;
        Ok(column)
    }
}

impl<B: AsRef<[u8]>> Rows for Views<'_, B> {
    fn rows(&self) -> usize {
        self.views.len()
    }

    fn nulls(&self) -> Option<&Nulls<'_>> {
        self.nulls.as_ref()
    }

    #[inline]
    fn with_row<T>(&self, row: usize, _: &mut usize, f: impl FnOnce(&[u8]) -> T) -> T {
        match self.place(row) {
            Place::Inline(data, len) => f(&data[..len]),
            Place::InBuffer(buffer, offset, len) => f(&buffer[offset..offset + len]),
        }
    }

    #[inline]
    fn gather(&self, row: usize, _: &mut usize, batch: &mut Batch<'_>) -> Pushed {
        if !holds_value(self.nulls.as_ref(), row) {
            return Pushed::Copied;
        }
        #[cfg(target_endian = "little")]
        {
            // Both places worked out, one chosen without a branch.
            let view = View(self.views[row]);
            let inline = view.is_inline();
            // An inline view's index bits are string bytes: buffer 0 is
            // looked up instead, so that the lookup's outcome is the same
            // from row to row.
            let index = core::hint::select_unpredictable(inline, 0, view.buffer_index());
            let buffer = self.buffers.get(index).map_or(&[][..], AsRef::as_ref);
            let (source, start) = core::hint::select_unpredictable(
                inline,
                (self.view_bytes, row * 16 + 4),
                (buffer, view.offset()),
            );
            batch.push(source, start, view.len())
        }
        #[cfg(not(target_endian = "little"))]
        match self.place(row) {
            Place::Inline(data, len) => batch.push(&data, 0, len),
            Place::InBuffer(buffer, offset, len) => batch.push(buffer, offset, len),
        }
    }

    fn next_invalid<R: Ruleset>(&self, from: Resume) -> Option<(usize, Utf8Error, Resume)> {
        let rule = const { RuleOf::<R>::RULE };
        match rule.separator {
            Some(separator) if rule.inline_views_separate => {
                inline::next_invalid::<R, B>(self, from, separator)
            }
            Some(separator) => gather::next_invalid::<R, Self>(self, from, separator),
            None => per_row::<R, Self>(self, from, self.views.len()),
        }
    }
}
