//! Views columns: Arrow's `Utf8View` and `BinaryView` layout.

use super::error::ColumnError;
use super::nulls::Nulls;
use super::view::{Place, View};
use super::view_scan;

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
    pub(super) views: &'a [u128],
    /// The views' memory as bytes, where a view's inline string is its
    /// bytes 4 to 16 (on a little-endian target): copied from there with
    /// the same wide copy as a string in a data buffer, so that whether a
    /// string is inline costs no branch.
    #[cfg(target_endian = "little")]
    pub(super) view_bytes: &'a [u8],
    pub(super) buffers: &'a [B],
    pub(super) nulls: Option<Nulls<'a>>,
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
                let view = View(chunk[long.trailing_zeros() as usize]);
                long &= long - 1;
                malformed |= view.fault_in_buffer(buffers).is_err();
            }
        }
        if malformed {
            for (row, &view) in views.iter().enumerate() {
                View(view)
                    .fault(buffers)
                    .map_err(|fault| ColumnError::layout(row, fault))?;
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
        View(self.views[row]).len()
    }

    /// Where row `row`'s string is: inline in its view, or in a data
    /// buffer, whose range `new` checked.
    #[inline(always)]
    pub(super) fn place(&self, row: usize) -> Place<'a> {
        let view = View(self.views[row]);
        if view.is_inline() {
            Place::Inline(view.after_len(), view.len())
        } else {
            let buffer = self.buffers[view.buffer_index()].as_ref();
            Place::InBuffer(buffer, view.offset(), view.len())
        }
    }
}

/// The views' memory as bytes.
#[cfg(target_endian = "little")]
pub(super) fn view_bytes(views: &[u128]) -> &[u8] {
    // SAFETY: a `u128` is 16 initialised bytes with no padding, any byte
    // is a valid `u8`, and `u8`'s alignment of 1 divides any address; the
    // length is the slice's size in bytes, so the bytes are the slice's
    // own, borrowed for as long as it is.
    unsafe { core::slice::from_raw_parts(views.as_ptr().cast::<u8>(), size_of_val(views)) }
}
