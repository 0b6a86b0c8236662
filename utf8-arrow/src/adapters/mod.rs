//! The adapters, written once against `arrow_array`, `arrow_buffer` and
//! `arrow_schema` as the parent module names them: compiled once per
//! arrow-rs major that is enabled (`crate::arrow60`, `crate::arrow59`), each
//! time against that major's crates.
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
//! The array's null bitmap goes with it ([`Nulls`]), so null rows are not
//! checked by [`is_valid_utf8`] and [`invalid_rows`], nor by [`validate`]
//! of a binary array. [`validate`] of a string array and the conversions
//! to string arrays check null rows too, since arrow-rs's string arrays
//! promise UTF-8 in every slot. A views array is first checked in one pass that reads
//! each view once, its layout and its string together
//! ([`Views::validated`]); only an array with an invalid row is read again
//! to answer per row.
//!
//! A layout the array's type promises but that does not hold (an array
//! built unchecked) is an error naming the row, not a panic.

use super::{STRING_VALUES_CHECKED_WHOLE, arrow_array, arrow_buffer, arrow_schema};

use arrow_array::cast::AsArray;
use arrow_array::{Array, BooleanArray};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer};
use arrow_schema::DataType;
use utf8_core::column::{Column, ColumnError, Nulls, Offsets, Views};
use utf8_core::{Rfc3629, Ruleset, Utf8Error};

mod dynamic;
mod error;
mod nested;
mod offsets;
mod views;

pub use crate::invalid::{InvalidValue, OnInvalid};
pub use dynamic::{to_string, to_string_lossy, to_string_view};
pub use error::Utf8ArrowError;
pub use nested::{
    NestedError, as_bytes, as_strings, holds_byte_strings, holds_strings, invalid_values,
    invalid_values_as, to_strings,
};
pub use offsets::{to_string_array, to_string_array_lossy};
pub use views::{to_string_view_array, to_string_view_array_lossy};

/// Checks that every row of `array` that is not null is UTF-8 (RFC 3629),
/// and, for a string array, every null row too: `Ok` for a `Utf8`,
/// `LargeUtf8` or `Utf8View` array means it is sound as arrow-rs defines
/// it (its `validate_full` checks every slot), and a null row holding bad
/// bytes is [`Utf8ArrowError::InvalidUnderNull`]. A binary array's null
/// rows may hold anything.
///
/// `array` is a `Binary`, `LargeBinary`, `BinaryView`, `Utf8`, `LargeUtf8`
/// or `Utf8View` array; any other type is
/// [`Utf8ArrowError::UnsupportedType`]. The error names the first invalid
/// row, counted from the array's first (a slice's own row 0), and converts
/// into arrow's [`ArrowError`](arrow_schema::ArrowError) with `?`.
///
/// ```
/// use utf8_arrow::arrow_array::{BinaryArray, StringArray};
/// assert!(utf8_arrow::validate(&StringArray::from(vec!["café", "lait"])).is_ok());
///
/// // Each row ends or starts inside "é": back to back they would pass.
/// let array = BinaryArray::from(vec![Some(&b"caf\xC3"[..]), Some(b"\xA9lait"), None]);
/// let e = utf8_arrow::validate(&array).unwrap_err();
/// assert_eq!(e.column_error().map(|e| e.row()), Some(0));
/// assert_eq!(utf8_arrow::validate(&array.slice(2, 1)), Ok(()));
/// ```
pub fn validate(array: &dyn Array) -> Result<(), Utf8ArrowError> {
    validate_as::<Rfc3629>(array)
}

/// [`validate`] under any ruleset of utf8-core: one of its dialects, or a
/// ruleset of your own.
///
/// ```
/// use utf8_arrow::arrow_array::BinaryArray;
/// // U+1F496 as a CESU-8 surrogate pair: CESU-8, not UTF-8.
/// let array = BinaryArray::from_iter_values([b"\xED\xA0\xBD\xED\xB2\x96"]);
/// assert!(utf8_arrow::validate_as::<utf8_core::cesu8::Cesu8>(&array).is_ok());
/// assert!(utf8_arrow::validate(&array).is_err());
/// ```
pub fn validate_as<R: Ruleset>(array: &dyn Array) -> Result<(), Utf8ArrowError> {
    let buffers = data_buffers(array);
    let with_nulls = !nested::is_string(array.data_type());
    let refused = |e: ColumnError| match with_nulls {
        true => Utf8ArrowError::Column(e),
        false => refused(e, array.nulls()),
    };
    // Every layout has its one pass; any other type is refused as
    // `any_column` refuses it.
    match views_validated::<R>(array, &buffers, with_nulls)
        .or_else(|| offsets_validated::<R>(array, with_nulls))
    {
        Some(one_pass) => one_pass.map_err(refused),
        None => Err(Utf8ArrowError::UnsupportedType(array.data_type().clone())),
    }
}

/// Every invalid row of `array` that is not null, in order, each with its
/// error relative to the row's start (RFC 3629): what a report of all the
/// bad rows needs, where [`validate`] stops at the first. An iterator, as
/// utf8-core's `invalid_rows` of a column is; the rows are found in one
/// pass over the array before the first is handed over.
///
/// The error is an unsupported type or a malformed layout.
///
/// ```
/// use utf8_arrow::arrow_array::BinaryArray;
/// let array = BinaryArray::from(vec![Some(&b"ok"[..]), Some(b"caf\xC3"), None, Some(b"\xA9lait")]);
/// let rows: Vec<_> = utf8_arrow::invalid_rows(&array)?
///     .map(|(row, e)| (row, e.valid_up_to(), e.error_len()))
///     .collect();
/// assert_eq!(rows, [(1, 3, None), (3, 0, Some(1))]);
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn invalid_rows(array: &dyn Array) -> Result<InvalidRows, Utf8ArrowError> {
    invalid_rows_as::<Rfc3629>(array)
}

/// [`invalid_rows`] under any ruleset of utf8-core.
pub fn invalid_rows_as<R: Ruleset>(array: &dyn Array) -> Result<InvalidRows, Utf8ArrowError> {
    let buffers = data_buffers(array);
    if all_views_valid::<R>(array, &buffers)? {
        return Ok(InvalidRows(Vec::new().into_iter()));
    }
    let rows: Vec<_> = match any_column(array, &buffers, true)? {
        AnyColumn::Small(column) => column.invalid_rows::<R>().collect(),
        AnyColumn::Large(column) => column.invalid_rows::<R>().collect(),
        AnyColumn::Views(column) => column.invalid_rows::<R>().collect(),
    };
    Ok(InvalidRows(rows.into_iter()))
}

/// The invalid rows of an array, each with its error ([`invalid_rows`]).
///
/// Found before the first is handed over: a views array's data buffers are
/// read as byte slices borrowed for the search (arrow-rs 59's `Buffer` is
/// not a byte slice itself), which an iterator that outlives the search
/// could not hold.
#[derive(Clone, Debug)]
pub struct InvalidRows(std::vec::IntoIter<(usize, Utf8Error)>);

impl Iterator for InvalidRows {
    type Item = (usize, Utf8Error);

    fn next(&mut self) -> Option<(usize, Utf8Error)> {
        self.0.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for InvalidRows {}

impl DoubleEndedIterator for InvalidRows {
    fn next_back(&mut self) -> Option<(usize, Utf8Error)> {
        self.0.next_back()
    }
}

impl core::iter::FusedIterator for InvalidRows {}

/// Whether each row of `array` is UTF-8 (RFC 3629), as a [`BooleanArray`]
/// of the same length: `true` for a valid row, `false` for an invalid
/// one, null for a null one. What a cast that turns invalid rows into
/// nulls needs: `nullif(array, not(is_valid_utf8))`.
///
/// The error is an unsupported type or a malformed layout, never an
/// invalid row.
///
/// ```
/// use utf8_arrow::arrow_array::{BinaryArray, BooleanArray};
/// let array = BinaryArray::from(vec![Some(&b"ok"[..]), Some(b"\xFF"), None]);
/// let valid = utf8_arrow::is_valid_utf8(&array)?;
/// assert_eq!(valid, BooleanArray::from(vec![Some(true), Some(false), None]));
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn is_valid_utf8(array: &dyn Array) -> Result<BooleanArray, Utf8ArrowError> {
    is_valid_utf8_as::<Rfc3629>(array)
}

/// [`is_valid_utf8`] under any ruleset of utf8-core.
pub fn is_valid_utf8_as<R: Ruleset>(array: &dyn Array) -> Result<BooleanArray, Utf8ArrowError> {
    let buffers = data_buffers(array);
    if all_views_valid::<R>(array, &buffers)? {
        // What `write_validity` writes when no row is invalid: a row's bit
        // is whether it holds a value.
        let values = array.nulls().map_or_else(
            || BooleanBuffer::new_set(array.len()),
            |n| n.inner().clone(),
        );
        return Ok(BooleanArray::new(values, array.nulls().cloned()));
    }
    let mut bits = vec![0u8; array.len().div_ceil(8)];
    match any_column(array, &buffers, true)? {
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
    Views(Views<'a, &'a [u8]>),
}

/// The array's column, with its null bitmap when `with_nulls`; `buffers`
/// are its data buffers as slices, from [`data_buffers`].
fn any_column<'a>(
    array: &'a dyn Array,
    buffers: &'a [&'a [u8]],
    with_nulls: bool,
) -> Result<AnyColumn<'a>, Utf8ArrowError> {
    let nulls = with_nulls;
    Ok(match array.data_type() {
        DataType::Binary => AnyColumn::Small(offsets::column(array.as_binary::<i32>(), nulls)?),
        DataType::Utf8 => AnyColumn::Small(offsets::column(array.as_string::<i32>(), nulls)?),
        DataType::LargeBinary => {
            AnyColumn::Large(offsets::column(array.as_binary::<i64>(), nulls)?)
        }
        DataType::LargeUtf8 => AnyColumn::Large(offsets::column(array.as_string::<i64>(), nulls)?),
        DataType::BinaryView => {
            AnyColumn::Views(views::column(array.as_binary_view(), buffers, nulls)?)
        }
        DataType::Utf8View => {
            AnyColumn::Views(views::column(array.as_string_view(), buffers, nulls)?)
        }
        other => return Err(Utf8ArrowError::UnsupportedType(other.clone())),
    })
}

/// A views array's data buffers as byte slices, for [`Views`] (arrow-rs
/// 59's `Buffer` is not `AsRef<[u8]>`, 60's is: slices serve both); none
/// for another array.
fn data_buffers(array: &dyn Array) -> Vec<&[u8]> {
    let buffers: &[Buffer] = match array.data_type() {
        DataType::BinaryView => array.as_binary_view().data_buffers(),
        DataType::Utf8View => array.as_string_view().data_buffers(),
        _ => &[],
    };
    buffers.iter().map(Buffer::as_slice).collect()
}

/// [`Views::validated`] on a views array, with its null bitmap when
/// `with_nulls`: one pass that reads each view once, checking its layout
/// and its string; `None` for an array of another layout.
fn views_validated<R: Ruleset>(
    array: &dyn Array,
    buffers: &[&[u8]],
    with_nulls: bool,
) -> Option<Result<(), ColumnError>> {
    let views = match array.data_type() {
        DataType::BinaryView => array.as_binary_view().views(),
        DataType::Utf8View => array.as_string_view().views(),
        _ => return None,
    };
    let bitmap = array.nulls().filter(|_| with_nulls).map(nulls);
    Some(Views::validated::<R>(views, buffers, bitmap).map(drop))
}

/// An offsets array's check in one pass (`Offsets::validated`: each
/// batch's offsets tested just before its rows, so that a large array is
/// read from memory once), with its null bitmap when `with_nulls`; `None`
/// for an array of another layout.
fn offsets_validated<R: Ruleset>(
    array: &dyn Array,
    with_nulls: bool,
) -> Option<Result<(), ColumnError>> {
    let bitmap = array.nulls().filter(|_| with_nulls).map(nulls);
    Some(match array.data_type() {
        DataType::Binary => offsets::validated::<R, _>(array.as_binary::<i32>(), bitmap),
        DataType::Utf8 => offsets::validated::<R, _>(array.as_string::<i32>(), bitmap),
        DataType::LargeBinary => offsets::validated::<R, _>(array.as_binary::<i64>(), bitmap),
        DataType::LargeUtf8 => offsets::validated::<R, _>(array.as_string::<i64>(), bitmap),
        _ => return None,
    })
}

/// Whether the array is a views array whose every row that holds a value
/// is valid, by [`views_validated`]'s one pass. `false` for an array of
/// another layout or with an invalid row: the answer per row is then the
/// column's, which reads the array again (a valid views array is read
/// once). A malformed view is an error.
fn all_views_valid<R: Ruleset>(
    array: &dyn Array,
    buffers: &[&[u8]],
) -> Result<bool, Utf8ArrowError> {
    match views_validated::<R>(array, buffers, true) {
        Some(Ok(())) => Ok(true),
        Some(Err(e)) if e.utf8_error().is_some() => Ok(false),
        Some(Err(e)) => Err(Utf8ArrowError::Column(e)),
        None => Ok(false),
    }
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
