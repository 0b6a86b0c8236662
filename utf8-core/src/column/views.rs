//! Views columns: Arrow's `Utf8View` and `BinaryView` layout.

use super::error::{ColumnError, Layout};
use super::gather::{self, Batch, COPY_LIMIT, Pushed};
use super::nulls::{Nulls, holds_value};
use super::rule::RuleOf;
use super::{Resume, Rows, per_row};
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

/// How long a string may be and still be held in its view.
pub const MAX_INLINE: usize = 12;

/// A column of 16-byte views over data buffers, in the Arrow columnar
/// format's view layout: the low 32 bits of a view are the string's
/// length; a string of at most 12 bytes follows in the view itself, zero
/// padded; a longer one is named by its first 4 bytes (the prefix), the
/// index of its data buffer and its offset there.
///
/// [`new`](Views::new) checks every view's layout, null rows' included:
/// padding, buffer index, range and prefix. Data buffers need not be
/// contiguous, nor strings in any order.
///
/// Short strings are copied after each other into a buffer on the stack
/// and checked a few thousand bytes at a time, not a call per row.
///
/// ```
/// use utf8_core::column::{Column, Views};
/// // "hi" inline, and a 13-byte string in buffer 0 at offset 0.
/// let long = "thirteen byte";
/// let inline = 2u128 | (u128::from(u16::from_le_bytes(*b"hi")) << 32);
/// let prefix = u32::from_le_bytes(long.as_bytes()[..4].try_into().unwrap());
/// let named = 13u128 | (u128::from(prefix) << 32) | (0u128 << 64) | (0u128 << 96);
/// let buffers = [long.as_bytes()];
/// let views = [inline, named];
/// let column = Views::new(&views, &buffers)?;
/// assert!(column.validate::<utf8_core::Rfc3629>().is_ok());
/// # Ok::<(), utf8_core::column::ColumnError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Views<'a, B: AsRef<[u8]>> {
    views: &'a [u128],
    buffers: &'a [B],
    nulls: Option<Nulls<'a>>,
}

/// A view's string, once its layout is checked.
enum Text<'a> {
    /// The view's 12 data bytes (and 4 zeros), and the string's length.
    Inline([u8; 16], usize),
    InBuffer(&'a [u8]),
}

impl<'a, B: AsRef<[u8]>> Views<'a, B> {
    /// The column, once every view's layout is checked. The error names the
    /// first malformed view's row.
    pub fn new(views: &'a [u128], buffers: &'a [B]) -> Result<Views<'a, B>, ColumnError> {
        for (row, &view) in views.iter().enumerate() {
            if let Err(fault) = text(view, buffers) {
                return Err(ColumnError::layout(row, fault));
            }
        }
        Ok(Views {
            views,
            buffers,
            nulls: None,
        })
    }

    /// The column with a null bitmap: null rows are not checked.
    pub fn with_nulls(self, nulls: Nulls<'a>) -> Result<Views<'a, B>, ColumnError> {
        nulls.check(self.views.len())?;
        Ok(Views {
            nulls: Some(nulls),
            ..self
        })
    }

    /// The views.
    pub fn views(&self) -> &'a [u128] {
        self.views
    }

    /// The data buffers.
    pub fn buffers(&self) -> &'a [B] {
        self.buffers
    }

    #[inline]
    fn text(&self, row: usize) -> Text<'a> {
        // `new` checked every view's layout: this is never the error.
        text(self.views[row], self.buffers).unwrap_or(Text::InBuffer(&[]))
    }
}

/// A view's string, or what is wrong with its layout.
#[inline]
fn text<B: AsRef<[u8]>>(view: u128, buffers: &[B]) -> Result<Text<'_>, Layout> {
    let len = view as u32 as usize;
    if len <= MAX_INLINE {
        // The bytes past the string, shifted down: zero when padded right.
        let past = if len == MAX_INLINE {
            0
        } else {
            view >> (32 + 8 * len)
        };
        if past != 0 {
            return Err(Layout::ViewPadding);
        }
        return Ok(Text::Inline((view >> 32).to_le_bytes(), len));
    }
    let index = (view >> 64) as u32 as usize;
    let offset = (view >> 96) as u32 as usize;
    let buffer = buffers.get(index).ok_or(Layout::ViewBufferIndex)?.as_ref();
    let bytes = offset
        .checked_add(len)
        .and_then(|end| buffer.get(offset..end))
        .ok_or(Layout::ViewRange)?;
    let prefix = ((view >> 32) as u32).to_le_bytes();
    if bytes[..4] != prefix {
        return Err(Layout::ViewPrefix);
    }
    Ok(Text::InBuffer(bytes))
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
        match self.text(row) {
            Text::Inline(data, len) => f(&data[..len]),
            Text::InBuffer(bytes) => f(bytes),
        }
    }

    #[inline]
    fn gather(&self, row: usize, _: &mut usize, batch: &mut Batch) -> Pushed {
        if !holds_value(self.nulls.as_ref(), row) {
            return batch.push_null();
        }
        match self.text(row) {
            Text::Inline(data, len) => batch.push_inline(data, len),
            Text::InBuffer(bytes) if bytes.len() > COPY_LIMIT => Pushed::TooLong,
            Text::InBuffer(bytes) => batch.push(bytes),
        }
    }

    fn next_invalid<R: Ruleset>(&self, from: Resume) -> Option<(usize, Utf8Error, Resume)> {
        match const { RuleOf::<R>::RULE.separator } {
            Some(separator) => gather::next_invalid::<R, Self>(self, from, separator),
            None => per_row::<R, Self>(self, from, self.views.len()),
        }
    }
}
