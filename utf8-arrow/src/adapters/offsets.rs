//! Offsets arrays (`Binary`, `LargeBinary`, `Utf8`, `LargeUtf8`): the
//! array's own offsets, values and nulls handed to utf8-core's
//! [`Offsets`] column, and the conversions that reuse those buffers.

use arrow_array::types::ByteArrayType;
use arrow_array::{Array, GenericByteArray, GenericStringArray, OffsetSizeTrait};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use utf8_core::column::{Column, ColumnError, LossyOffsets, Nulls, Offset, Offsets};
use utf8_core::{Rfc3629, Ruleset};

use super::{
    STRING_VALUES_CHECKED_WHOLE, Utf8ArrowError, arrow_array, arrow_buffer, nulls, refused,
};

/// The array's rows as a column: its offsets (already sliced) over its
/// whole values buffer, with its null bitmap when `with_nulls`.
pub(crate) fn column<T: ByteArrayType>(
    array: &GenericByteArray<T>,
    with_nulls: bool,
) -> Result<Offsets<'_, T::Offset>, ColumnError>
where
    T::Offset: Offset,
{
    let column = Offsets::new(array.value_offsets(), array.values().as_slice())?;
    match array.nulls() {
        Some(bitmap) if with_nulls => column.with_nulls(nulls(bitmap)),
        _ => Ok(column),
    }
}

/// The array's rows checked under `R` in one pass
/// ([`Offsets::validated`]: each batch's offsets tested just before its
/// rows), with `nulls` as its bitmap.
pub(crate) fn validated<R: Ruleset, T: ByteArrayType>(
    array: &GenericByteArray<T>,
    nulls: Option<Nulls<'_>>,
) -> Result<(), ColumnError>
where
    T::Offset: Offset,
{
    Offsets::validated::<R>(array.value_offsets(), array.values().as_slice(), nulls).map(drop)
}

/// The array as a [`GenericStringArray`] over the same offsets, values
/// and null buffers, nothing copied, once every row has been found valid
/// UTF-8 (RFC 3629). Every row is checked, null rows too: Arrow allows
/// any bytes under a null in a `Binary` array but not in a `Utf8` one
/// ([`Utf8ArrowError::InvalidUnderNull`]; the
/// [lossy conversion](to_string_array_lossy) repairs them).
///
/// Takes a `Utf8` array as well: a [`GenericStringArray`] whose
/// validation was skipped (IPC's `skip_validation`, FFI) comes back as
/// one that is checked.
///
/// ```
/// use utf8_arrow::arrow_array::{Array, BinaryArray};
/// let array = BinaryArray::from_iter_values([&b"caf\xC3\xA9"[..], b"lait"]);
/// let strings = utf8_arrow::to_string_array(&array)?;
/// assert_eq!(strings.value(0), "café");
/// assert_eq!(strings.values().as_ptr(), array.values().as_ptr()); // the same buffer
///
/// let array = BinaryArray::from_iter_values([&b"ok"[..], b"caf\xC3", b"\xA9lait"]);
/// let e = utf8_arrow::to_string_array(&array).unwrap_err();
/// assert_eq!(e.column_error().map(|e| e.row()), Some(1));
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn to_string_array<T: ByteArrayType>(
    array: &GenericByteArray<T>,
) -> Result<GenericStringArray<T::Offset>, Utf8ArrowError>
where
    T::Offset: Offset,
{
    if let Err(e) = column(array, false)?.validate::<Rfc3629>() {
        return Err(refused(e, array.nulls()));
    }
    let (offsets, values) = rebased(array.offsets(), array.values());
    // SAFETY: `new_unchecked` is safe where `try_new` would not fail.
    // `try_new` checks that the offsets lie within the values (they come
    // from a valid array, and `Offsets::new` checked them again), that
    // the values it checks are UTF-8 with every offset on a character
    // boundary, and that the null bitmap has a bit per row (it is the
    // array's own, of its length). The values it checks are the bytes
    // between the first and last offset: in arrow-rs 60 by its own choice,
    // in 59 because `rebased` cut the values to them. Every row, null or
    // not, was just found valid RFC 3629 UTF-8: so are they back to back,
    // and each row starts on a boundary.
    let strings =
        unsafe { GenericStringArray::new_unchecked(offsets, values, array.nulls().cloned()) };
    debug_assert!(strings.to_data().validate_full().is_ok());
    Ok(strings)
}

/// The array as a [`GenericStringArray`], each invalid row's invalid parts
/// replaced by U+FFFD as `String::from_utf8_lossy` does, null rows
/// included (they stay null). Nothing is copied when every row is valid:
/// the result shares the array's buffers, as with [`to_string_array`];
/// otherwise the offsets and values are new.
///
/// The error is a layout one: the repaired values past what the offset
/// type can index (2 GiB for `i32`), at the row that passed it.
///
/// ```
/// use utf8_arrow::arrow_array::BinaryArray;
/// let array = BinaryArray::from_iter_values([&b"caf\xC3"[..], b"\xA9lait", b"ok"]);
/// let strings = utf8_arrow::to_string_array_lossy(&array)?;
/// assert_eq!(strings.iter().flatten().collect::<Vec<_>>(), ["caf\u{FFFD}", "\u{FFFD}lait", "ok"]);
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn to_string_array_lossy<T: ByteArrayType>(
    array: &GenericByteArray<T>,
) -> Result<GenericStringArray<T::Offset>, Utf8ArrowError>
where
    T::Offset: Offset,
{
    let nulls = array.nulls().cloned();
    let (offsets, values) = match column(array, false)?.lossy::<Rfc3629>()? {
        LossyOffsets::Unchanged => rebased(array.offsets(), array.values()),
        LossyOffsets::Repaired { offsets, values } => (
            OffsetBuffer::new(ScalarBuffer::from(offsets)),
            Buffer::from_vec(values),
        ),
    };
    // SAFETY: `new_unchecked` is safe where `try_new` would not fail.
    // Every row, null or not, is valid RFC 3629 UTF-8: unchanged, or
    // repaired with U+FFFD for each invalid part, and the values are those
    // rows' bytes (and, under arrow-rs 60, whose `try_new` checks only
    // those, others outside the offsets' span). The offsets are the array's
    // own (rebased to the rows' bytes under 59), or the repair's (from 0,
    // increasing, ending at the end of its values); the null bitmap is the
    // array's own, of its length.
    let strings = unsafe { GenericStringArray::<T::Offset>::new_unchecked(offsets, values, nulls) };
    debug_assert!(strings.to_data().validate_full().is_ok());
    Ok(strings)
}

/// The offsets and values of a string array with the same rows: the
/// array's own, shared; or, where the major's `try_new` checks the whole
/// values buffer (arrow-rs 59) and the rows cover part of it (a slice, whose
/// other rows may be anything), that part, with the offsets shifted to
/// start at 0.
fn rebased<O: OffsetSizeTrait>(
    offsets: &OffsetBuffer<O>,
    values: &Buffer,
) -> (OffsetBuffer<O>, Buffer) {
    let (first, last) = (offsets[0], offsets[offsets.len() - 1]);
    let covers_all = first.as_usize() == 0 && last.as_usize() == values.len();
    if !STRING_VALUES_CHECKED_WHOLE || covers_all {
        return (offsets.clone(), values.clone());
    }
    let shifted: Vec<O> = offsets.iter().map(|&offset| offset - first).collect();
    let values = values.slice_with_length(first.as_usize(), (last - first).as_usize());
    (OffsetBuffer::new(ScalarBuffer::from(shifted)), values)
}
