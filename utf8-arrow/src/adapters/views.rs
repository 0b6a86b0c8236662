//! View arrays (`BinaryView`, `Utf8View`): the array's own views, data
//! buffers and nulls handed to utf8-core's [`Views`] column, and the
//! conversions that reuse those buffers.

use std::sync::Arc;

use arrow_array::types::ByteViewType;
use arrow_array::{Array, GenericByteViewArray, StringViewArray};
use arrow_buffer::{Buffer, ScalarBuffer};
use utf8_core::Rfc3629;
use utf8_core::column::{ColumnError, LossyViews, Views};

use super::{Utf8ArrowError, arrow_array, arrow_buffer, nulls, refused};

/// The array's rows as a column: its views (already sliced) over its data
/// buffers (`buffers`, the same as slices), with its null bitmap when
/// `with_nulls`.
pub(crate) fn column<'a, T: ByteViewType + ?Sized>(
    array: &'a GenericByteViewArray<T>,
    buffers: &'a [&'a [u8]],
    with_nulls: bool,
) -> Result<Views<'a, &'a [u8]>, ColumnError> {
    let column = Views::new(array.views(), buffers)?;
    match array.nulls() {
        Some(bitmap) if with_nulls => column.with_nulls(nulls(bitmap)),
        _ => Ok(column),
    }
}

/// The array as a [`StringViewArray`] over the same views, data buffers
/// and null buffer, nothing copied, once every row has been found valid
/// UTF-8 (RFC 3629). Every row is checked, null rows too, as for
/// [`to_string_array`](super::to_string_array).
///
/// ```
/// use utf8_arrow::arrow_array::BinaryViewArray;
/// let array = BinaryViewArray::from_iter_values([&b"a long enough caf\xC3\xA9"[..], b"lait"]);
/// let strings = utf8_arrow::to_string_view_array(&array)?;
/// assert_eq!(strings.value(0), "a long enough café");
///
/// let array = BinaryViewArray::from_iter_values([&b"ok"[..], b"caf\xC3", b"\xA9lait"]);
/// let e = utf8_arrow::to_string_view_array(&array).unwrap_err();
/// assert_eq!(e.column_error().map(|e| e.row()), Some(1));
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn to_string_view_array<T: ByteViewType + ?Sized>(
    array: &GenericByteViewArray<T>,
) -> Result<StringViewArray, Utf8ArrowError> {
    // The layout and the rows in one pass; every row, null or not, is
    // checked, so no bitmap is given.
    let slices = slices(array);
    if let Err(e) = Views::validated::<Rfc3629>(array.views(), &slices, None) {
        return Err(refused(e, array.nulls()));
    }
    let (views, buffers) = (array.views().clone(), shared(array));
    // SAFETY: `new_unchecked` is safe where `try_new` would not fail.
    // `try_new` checks each view's layout (padding, buffer index, range
    // and prefix, which `Views::validated` just checked for every view)
    // and that each view's string, null or not, is UTF-8 (every row was
    // just found valid RFC 3629 UTF-8), and that the null bitmap has a bit
    // per view (it is the array's own, of its length).
    let strings = unsafe { StringViewArray::new_unchecked(views, buffers, array.nulls().cloned()) };
    debug_assert!(strings.to_data().validate_full().is_ok());
    Ok(strings)
}

/// The array as a [`StringViewArray`], each invalid row's invalid parts
/// replaced by U+FFFD as `String::from_utf8_lossy` does, null rows
/// included (they stay null). Nothing is copied when every row is valid;
/// otherwise the views are new, the data buffers stay shared, and the
/// repaired strings too long to be inline are in one data buffer added
/// after them.
///
/// ```
/// use utf8_arrow::arrow_array::BinaryViewArray;
/// let array = BinaryViewArray::from_iter_values([&b"caf\xC3"[..], b"a long string, then \xFF"]);
/// let strings = utf8_arrow::to_string_view_array_lossy(&array)?;
/// assert_eq!(strings.value(0), "caf\u{FFFD}");
/// assert_eq!(strings.value(1), "a long string, then \u{FFFD}");
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn to_string_view_array_lossy<T: ByteViewType + ?Sized>(
    array: &GenericByteViewArray<T>,
) -> Result<StringViewArray, Utf8ArrowError> {
    let nulls = array.nulls().cloned();
    let slices = slices(array);
    let (views, buffers) = match column(array, &slices, false)?.lossy::<Rfc3629>()? {
        LossyViews::Unchanged => (array.views().clone(), shared(array)),
        LossyViews::Repaired { views, buffer } => {
            let mut buffers = array.data_buffers().to_vec();
            if !buffer.is_empty() {
                buffers.push(Buffer::from_vec(buffer));
            }
            (ScalarBuffer::from(views), Arc::from(buffers))
        }
    };
    // SAFETY: `new_unchecked` is safe where `try_new` would not fail.
    // Every view's layout is the array's own (checked by `Views::new`) or
    // the repair's, which names the added buffer exactly when it is
    // non-empty; every row, null or not, is valid RFC 3629 UTF-8,
    // unchanged or repaired; the null bitmap is the array's own.
    let strings = unsafe { StringViewArray::new_unchecked(views, buffers, nulls) };
    debug_assert!(strings.to_data().validate_full().is_ok());
    Ok(strings)
}

/// The array's data buffers as byte slices, for [`Views`].
fn slices<T: ByteViewType + ?Sized>(array: &GenericByteViewArray<T>) -> Vec<&[u8]> {
    array.data_buffers().iter().map(Buffer::as_slice).collect()
}

/// The array's data buffers, shared, as a new array takes them (arrow-rs
/// 60 hands out its `Arc`, 59 a slice: the handles are copied for both).
#[allow(
    clippy::redundant_slicing,
    reason = "a slice of 59's slice, of 60's Arc: the one expression both majors compile"
)]
fn shared<T: ByteViewType + ?Sized>(array: &GenericByteViewArray<T>) -> Arc<[Buffer]> {
    Arc::from(&array.data_buffers()[..])
}
