//! Views columns: Arrow's `Utf8View` and `BinaryView` layout.

use super::error::{ColumnError, Layout};
use super::gather::{self, Batch, Pushed};
use super::nulls::{Nulls, holds_value};
use super::rule::RuleOf;
use super::{Column, Resume, Rows, inline, per_row, view_scan};
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
/// Inline views are checked a few thousand bytes at a time, not a call per
/// row; strings that lie one after another in a data buffer (as arrow-rs's
/// `BinaryViewBuilder` writes them) where they lie, many rows a call; other
/// short strings copied after each other into a buffer on the stack.
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
    /// The views' memory as bytes, where a view's inline string is its
    /// bytes 4 to 16 (on a little-endian target): copied from there with
    /// the same wide copy as a string in a data buffer, so that whether a
    /// string is inline costs no branch.
    #[cfg(target_endian = "little")]
    view_bytes: &'a [u8],
    buffers: &'a [B],
    nulls: Option<Nulls<'a>>,
}

impl<'a, B: AsRef<[u8]>> Views<'a, B> {
    /// The column, once every view's layout is checked. The error names the
    /// first malformed view's row.
    pub fn new(views: &'a [u128], buffers: &'a [B]) -> Result<Views<'a, B>, ColumnError> {
        // The views tested a chunk at a time without a branch on what each
        // holds (whether a string is inline varies from row to row, and a
        // branch on it would be mispredicted), then the ones that point
        // into a buffer a step each; the first bad view is found again.
        let mut malformed = false;
        for chunk in views.chunks(view_scan::CHUNK) {
            let (mut long, dirty) = view_scan::layout(chunk);
            malformed |= dirty;
            while long != 0 {
                let view = chunk[long.trailing_zeros() as usize];
                long &= long - 1;
                malformed |= check_in_buffer(view, buffers).is_err();
            }
        }
        if malformed {
            for (row, &view) in views.iter().enumerate() {
                check(view, buffers).map_err(|fault| ColumnError::layout(row, fault))?;
            }
        }
        Ok(Views {
            views,
            #[cfg(target_endian = "little")]
            view_bytes: view_bytes(views),
            buffers,
            nulls: None,
        })
    }

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

    /// The column with a null bitmap: null rows are not checked.
    pub fn with_nulls(self, nulls: Nulls<'a>) -> Result<Views<'a, B>, ColumnError> {
        nulls.check(self.views.len())?;
        Ok(Views {
            nulls: Some(nulls),
            ..self
        })
    }

    /// The column without its null bitmap: every row is checked.
    #[cfg(feature = "alloc")]
    pub(super) fn without_nulls(&self) -> Views<'a, B> {
        Views {
            views: self.views,
            #[cfg(target_endian = "little")]
            view_bytes: self.view_bytes,
            buffers: self.buffers,
            nulls: None,
        }
    }

    /// The views.
    pub fn views(&self) -> &'a [u128] {
        self.views
    }

    /// The data buffers.
    pub fn buffers(&self) -> &'a [B] {
        self.buffers
    }

    /// The length of row `row`'s string.
    #[inline]
    pub(super) fn len_of(&self, row: usize) -> usize {
        self.views[row] as u32 as usize
    }

    /// Where row `row`'s string is: inline in its view, or in a data
    /// buffer, whose range `new` checked.
    #[inline(always)]
    pub(super) fn place(&self, row: usize) -> Place<'a> {
        let view = self.views[row];
        let len = view as u32 as usize;
        if len <= MAX_INLINE {
            Place::Inline((view >> 32).to_le_bytes(), len)
        } else {
            let buffer = self.buffers[(view >> 64) as u32 as usize].as_ref();
            Place::InBuffer(buffer, (view >> 96) as u32 as usize, len)
        }
    }
}

/// A view's string, once its layout is checked.
pub(super) enum Place<'a> {
    /// The view's 12 data bytes (and 4 zeros), and the string's length.
    Inline([u8; 16], usize),
    /// A data buffer, and the string's offset and length in it.
    InBuffer(&'a [u8], usize, usize),
}

/// What is wrong with a view's layout, if anything: the slow path, which
/// names the first malformed view once the fast one found there is one.
fn check<B: AsRef<[u8]>>(view: u128, buffers: &[B]) -> Result<(), Layout> {
    let len = view as u32 as usize;
    // An inline string's padding, shifted down: zero when padded right.
    let padding = (view >> 32) >> (8 * len.min(MAX_INLINE));
    if len <= MAX_INLINE {
        return if padding == 0 {
            Ok(())
        } else {
            Err(Layout::ViewPadding)
        };
    }
    check_in_buffer(view, buffers)
}

/// What is wrong with the layout of a view whose string is longer than
/// [`MAX_INLINE`], if anything.
#[inline(always)]
pub(super) fn check_in_buffer<B: AsRef<[u8]>>(view: u128, buffers: &[B]) -> Result<(), Layout> {
    let len = view as u32 as usize;
    let index = (view >> 64) as u32 as usize;
    let offset = (view >> 96) as u32 as usize;
    let buffer = buffers.get(index).ok_or(Layout::ViewBufferIndex)?.as_ref();
    let bytes = offset
        .checked_add(len)
        .and_then(|end| buffer.get(offset..end))
        .ok_or(Layout::ViewRange)?;
    let prefix = (view >> 32) as u32;
    let first4: [u8; 4] = bytes[..4].try_into().expect("a string past 12 bytes");
    if u32::from_le_bytes(first4) != prefix {
        return Err(Layout::ViewPrefix);
    }
    Ok(())
}

/// The views' memory as bytes.
#[cfg(target_endian = "little")]
fn view_bytes(views: &[u128]) -> &[u8] {
    // SAFETY: a `u128` is 16 initialised bytes with no padding, any byte
    // is a valid `u8`, and `u8`'s alignment of 1 divides any address; the
    // length is the slice's size in bytes, so the bytes are the slice's
    // own, borrowed for as long as it is.
    unsafe { core::slice::from_raw_parts(views.as_ptr().cast::<u8>(), size_of_val(views)) }
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
            let view = self.views[row];
            let len = view as u32 as usize;
            let inline = len <= MAX_INLINE;
            // An inline view's index bits are string bytes: buffer 0 is
            // looked up instead, so that the lookup's outcome is the same
            // from row to row.
            let index = core::hint::select_unpredictable(inline, 0, (view >> 64) as u32 as usize);
            let buffer = self.buffers.get(index).map_or(&[][..], AsRef::as_ref);
            let (source, start) = core::hint::select_unpredictable(
                inline,
                (self.view_bytes, row * 16 + 4),
                (buffer, (view >> 96) as u32 as usize),
            );
            batch.push(source, start, len)
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
