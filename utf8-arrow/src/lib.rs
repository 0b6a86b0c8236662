#![doc = include_str!("../README.md")]
//!
//! ## How it works
//!
//! Each function hands the array's own buffers to one of utf8-core's
//! [column layouts](utf8_core::column), which checks the whole array in a
//! few long runs instead of a call per row, and names the first invalid
//! row exactly:
//!
//! | array | column | module |
//! |---|---|---|
//! | `Binary`, `LargeBinary`, `Utf8`, `LargeUtf8` | [`Offsets`]: the array's offsets (already sliced) over its whole values buffer | `offsets` |
//! | `BinaryView`, `Utf8View` | [`Views`]: the array's views over its data buffers | `views` |
//!
//! The array's null bitmap goes with it ([`Nulls`]),
//! so null rows are not checked by [`validate`] and [`is_valid`]. The
//! conversions to string arrays check null rows too, since arrow-rs's
//! string arrays promise UTF-8 in every slot.
//!
//! A layout the array's type promises but that does not hold (an array
//! built unchecked) is an error naming the row, not a panic.

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

use arrow_array::cast::AsArray;
use arrow_array::{Array, BooleanArray};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer};
use arrow_schema::DataType;
use utf8_core::column::{Column, ColumnError, Nulls, Offsets, Views};
use utf8_core::{Rfc3629, Ruleset, Utf8Error};

mod error;
mod offsets;
mod views;

pub use error::Utf8ArrowError;
pub use offsets::{to_string_array, to_string_array_lossy};
pub use views::{to_string_view_array, to_string_view_array_lossy};

/// Checks that every row of `array` that is not null is UTF-8 (RFC 3629).
///
/// `array` is a `Binary`, `LargeBinary`, `BinaryView`, `Utf8`, `LargeUtf8`
/// or `Utf8View` array; any other type is
/// [`Utf8ArrowError::UnsupportedType`]. The error names the first invalid
/// row, counted from the array's first (a slice's own row 0), and converts
/// into arrow's [`ArrowError`](arrow_schema::ArrowError) with `?`.
///
/// ```
/// use arrow_array::{BinaryArray, StringArray};
/// assert!(utf8_arrow::validate(&StringArray::from(vec!["café", "lait"])).is_ok());
///
/// // Each row ends or starts inside "é": back to back they would pass.
/// let array = BinaryArray::from(vec![Some(&b"caf\xC3"[..]), Some(b"\xA9lait"), None]);
/// let e = utf8_arrow::validate(&array).unwrap_err();
/// assert_eq!(e.row(), Some(0));
/// assert_eq!(utf8_arrow::validate(&array.slice(2, 1)), Ok(()));
/// ```
pub fn validate(array: &dyn Array) -> Result<(), Utf8ArrowError> {
    validate_as::<Rfc3629>(array)
}

/// [`validate`] under any ruleset of utf8-core: one of its dialects, or a
/// ruleset of your own.
///
/// ```
/// use arrow_array::BinaryArray;
/// // U+1F496 as a CESU-8 surrogate pair: CESU-8, not UTF-8.
/// let array = BinaryArray::from_iter_values([b"\xED\xA0\xBD\xED\xB2\x96"]);
/// assert!(utf8_arrow::validate_as::<utf8_core::cesu8::Cesu8>(&array).is_ok());
/// assert!(utf8_arrow::validate(&array).is_err());
/// ```
pub fn validate_as<R: Ruleset>(array: &dyn Array) -> Result<(), Utf8ArrowError> {
    match any_column(array)? {
        AnyColumn::Small(column) => column.validate::<R>(),
        AnyColumn::Large(column) => column.validate::<R>(),
        AnyColumn::Views(column) => column.validate::<R>(),
    }
    .map_err(Utf8ArrowError::Column)
}

/// Every invalid row of `array` that is not null, in order, each with its
/// error relative to the row's start (RFC 3629): what a report of all the
/// bad rows needs, where [`validate`] stops at the first.
///
/// The error is an unsupported type or a malformed layout.
///
/// ```
/// use arrow_array::BinaryArray;
/// let array = BinaryArray::from(vec![Some(&b"ok"[..]), Some(b"caf\xC3"), None, Some(b"\xA9lait")]);
/// let rows: Vec<_> = utf8_arrow::invalid_rows(&array)?
///     .into_iter()
///     .map(|(row, e)| (row, e.valid_up_to(), e.error_len()))
///     .collect();
/// assert_eq!(rows, [(1, 3, None), (3, 0, Some(1))]);
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn invalid_rows(array: &dyn Array) -> Result<Vec<(usize, Utf8Error)>, Utf8ArrowError> {
    invalid_rows_as::<Rfc3629>(array)
}

/// [`invalid_rows`] under any ruleset of utf8-core.
pub fn invalid_rows_as<R: Ruleset>(
    array: &dyn Array,
) -> Result<Vec<(usize, Utf8Error)>, Utf8ArrowError> {
    Ok(match any_column(array)? {
        AnyColumn::Small(column) => column.invalid_rows::<R>().collect(),
        AnyColumn::Large(column) => column.invalid_rows::<R>().collect(),
        AnyColumn::Views(column) => column.invalid_rows::<R>().collect(),
    })
}

/// Whether each row of `array` is UTF-8 (RFC 3629), as a [`BooleanArray`]
/// of the same length: `true` for a valid row, `false` for an invalid
/// one, null for a null one. What a cast that turns invalid rows into
/// nulls needs: `nullif(array, not(is_valid))`.
///
/// The error is an unsupported type or a malformed layout, never an
/// invalid row.
///
/// ```
/// use arrow_array::{BinaryArray, BooleanArray};
/// let array = BinaryArray::from(vec![Some(&b"ok"[..]), Some(b"\xFF"), None]);
/// let valid = utf8_arrow::is_valid(&array)?;
/// assert_eq!(valid, BooleanArray::from(vec![Some(true), Some(false), None]));
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn is_valid(array: &dyn Array) -> Result<BooleanArray, Utf8ArrowError> {
    is_valid_as::<Rfc3629>(array)
}

/// [`is_valid`] under any ruleset of utf8-core.
pub fn is_valid_as<R: Ruleset>(array: &dyn Array) -> Result<BooleanArray, Utf8ArrowError> {
    let mut bits = vec![0u8; array.len().div_ceil(8)];
    match any_column(array)? {
        AnyColumn::Small(column) => column.write_validity::<R>(&mut bits),
        AnyColumn::Large(column) => column.write_validity::<R>(&mut bits),
        AnyColumn::Views(column) => column.write_validity::<R>(&mut bits),
    };
    let values = BooleanBuffer::new(Buffer::from_vec(bits), 0, array.len());
    Ok(BooleanArray::new(values, array.nulls().cloned()))
}

/// An array's rows as a utf8-core column, with its nulls.
enum AnyColumn<'a> {
    Small(Offsets<'a, i32>),
    Large(Offsets<'a, i64>),
    Views(Views<'a, Buffer>),
}

fn any_column(array: &dyn Array) -> Result<AnyColumn<'_>, Utf8ArrowError> {
    Ok(match array.data_type() {
        DataType::Binary => AnyColumn::Small(offsets::column(array.as_binary::<i32>(), true)?),
        DataType::Utf8 => AnyColumn::Small(offsets::column(array.as_string::<i32>(), true)?),
        DataType::LargeBinary => AnyColumn::Large(offsets::column(array.as_binary::<i64>(), true)?),
        DataType::LargeUtf8 => AnyColumn::Large(offsets::column(array.as_string::<i64>(), true)?),
        DataType::BinaryView => AnyColumn::Views(views::column(array.as_binary_view(), true)?),
        DataType::Utf8View => AnyColumn::Views(views::column(array.as_string_view(), true)?),
        other => return Err(Utf8ArrowError::UnsupportedType(other.clone())),
    })
}

/// Arrow's null bitmap as utf8-core's: the whole bitmap and the array's
/// bit offset in it (a sliced array's).
pub(crate) fn nulls(bitmap: &NullBuffer) -> Nulls<'_> {
    Nulls::new(bitmap.validity(), bitmap.offset())
}

/// A conversion's error: an invalid row under a null is
/// [`Utf8ArrowError::InvalidUnderNull`].
pub(crate) fn refused(e: ColumnError, bitmap: Option<&NullBuffer>) -> Utf8ArrowError {
    match bitmap {
        Some(bitmap) if e.utf8_error().is_some() && bitmap.is_null(e.row()) => {
            Utf8ArrowError::InvalidUnderNull(e)
        }
        _ => Utf8ArrowError::Column(e),
    }
}
