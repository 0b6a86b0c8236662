//! Arrow arrays as utf8-core columns: each array's own offsets or views,
//! values and null bitmap handed to one [`Offsets`] or [`Views`] column,
//! so that a batch is checked in a few long runs, never a call per row;
//! and the three answers built from one pass over it.

use std::sync::Arc;

use datafusion::arrow::array::types::{ByteArrayType, ByteViewType};
use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, GenericByteArray, GenericByteViewArray,
    GenericStringArray, Int64Array, OffsetSizeTrait, StringViewArray,
};
use datafusion::arrow::buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{DataFusionError, Result, exec_err};
use utf8_core::column::{
    Column, ColumnError, LossyOffsets, LossyViews, Nulls, Offset, Offsets, Views,
};
use utf8_core::{Rfc3629, Ruleset};

use crate::ruleset::{RulesetName, WithRuleset};

/// The types the functions take: every Arrow type that holds bytes or
/// strings by offsets or views.
pub(crate) const INPUT_TYPES: [DataType; 6] = [
    DataType::Binary,
    DataType::LargeBinary,
    DataType::BinaryView,
    DataType::Utf8,
    DataType::LargeUtf8,
    DataType::Utf8View,
];

/// Whether each row is valid under `ruleset`: `true`, `false`, or null for
/// a null row.
pub(crate) fn is_valid(array: &dyn Array, ruleset: RulesetName) -> Result<BooleanArray> {
    if views_all_valid(array, ruleset)? {
        // What `write_validity` writes when no row is invalid: a row's bit
        // is whether it holds a value.
        let values = array.nulls().map_or_else(
            || BooleanBuffer::new_set(array.len()),
            |n| n.inner().clone(),
        );
        return Ok(BooleanArray::new(values, array.nulls().cloned()));
    }
    let bits = on_column(array, ruleset, Validity)?;
    let values = BooleanBuffer::new(Buffer::from_vec(bits), 0, array.len());
    Ok(BooleanArray::new(values, array.nulls().cloned()))
}

/// Each invalid row's `valid_up_to` (the length of its longest valid
/// prefix), null for a valid or null row.
pub(crate) fn error_offsets(array: &dyn Array, ruleset: RulesetName) -> Result<Int64Array> {
    if views_all_valid(array, ruleset)? {
        return Ok(Int64Array::new_null(array.len()));
    }
    let invalid = on_column(array, ruleset, ErrorOffsets)?;
    let mut offsets = vec![0i64; array.len()];
    let mut valid = vec![0u8; array.len().div_ceil(8)];
    for (row, valid_up_to) in invalid {
        offsets[row] = valid_up_to;
        valid[row / 8] |= 1 << (row % 8);
    }
    let nulls = NullBuffer::new(BooleanBuffer::new(Buffer::from_vec(valid), 0, array.len()));
    Ok(Int64Array::new(ScalarBuffer::from(offsets), Some(nulls)))
}

/// The array as a string array of the matching width (`Binary` and `Utf8`
/// to `Utf8`, the large ones to `LargeUtf8`, the views to `Utf8View`), each
/// invalid part replaced by U+FFFD as `String::from_utf8_lossy` does. Null
/// rows stay null (their bytes are repaired too: a string array holds UTF-8
/// in every slot).
pub(crate) fn lossy(array: &dyn Array) -> Result<ArrayRef> {
    Ok(match array.data_type() {
        DataType::Binary => Arc::new(lossy_offsets(array.as_binary::<i32>())?),
        DataType::Utf8 => Arc::new(lossy_offsets(array.as_string::<i32>())?),
        DataType::LargeBinary => Arc::new(lossy_offsets(array.as_binary::<i64>())?),
        DataType::LargeUtf8 => Arc::new(lossy_offsets(array.as_string::<i64>())?),
        DataType::BinaryView => Arc::new(lossy_views(array.as_binary_view())?),
        DataType::Utf8View => Arc::new(lossy_views(array.as_string_view())?),
        other => return unsupported(other),
    })
}

/// The string type [`lossy`] returns for `input`.
pub(crate) fn lossy_type(input: &DataType) -> Result<DataType> {
    Ok(match input {
        DataType::Binary | DataType::Utf8 => DataType::Utf8,
        DataType::LargeBinary | DataType::LargeUtf8 => DataType::LargeUtf8,
        DataType::BinaryView | DataType::Utf8View => DataType::Utf8View,
        other => return unsupported(other),
    })
}

fn unsupported<T>(data_type: &DataType) -> Result<T> {
    exec_err!(
        "utf8-datafusion checks Binary, LargeBinary, BinaryView, Utf8, LargeUtf8 and Utf8View arrays, not {data_type}"
    )
}

/// A malformed layout (an array built unchecked), as DataFusion's error.
fn malformed(e: ColumnError) -> DataFusionError {
    DataFusionError::Execution(format!("malformed string array: {e}"))
}

/// Work on a column of any layout, under any ruleset.
trait ColumnJob {
    type Output;
    fn run<C: Column, R: Ruleset>(self, column: &C) -> Self::Output;
}

/// An array's rows as a utf8-core column, with its nulls.
enum AnyColumn<'a> {
    Small(Offsets<'a, i32>),
    Large(Offsets<'a, i64>),
    Views(Views<'a, &'a [u8]>),
}

/// Runs `job` on the array's column, under `ruleset`.
fn on_column<J: ColumnJob>(array: &dyn Array, ruleset: RulesetName, job: J) -> Result<J::Output> {
    let buffers = data_buffers(array);
    let column = match array.data_type() {
        DataType::Binary => AnyColumn::Small(offsets(array.as_binary::<i32>())?),
        DataType::Utf8 => AnyColumn::Small(offsets(array.as_string::<i32>())?),
        DataType::LargeBinary => AnyColumn::Large(offsets(array.as_binary::<i64>())?),
        DataType::LargeUtf8 => AnyColumn::Large(offsets(array.as_string::<i64>())?),
        DataType::BinaryView => AnyColumn::Views(views(array.as_binary_view(), &buffers)?),
        DataType::Utf8View => AnyColumn::Views(views(array.as_string_view(), &buffers)?),
        other => return unsupported(other),
    };
    Ok(ruleset.with(Bound {
        column: &column,
        job,
    }))
}

/// A job and its column, waiting for the ruleset's type.
struct Bound<'c, 'a, J> {
    column: &'c AnyColumn<'a>,
    job: J,
}

impl<J: ColumnJob> WithRuleset for Bound<'_, '_, J> {
    type Output = J::Output;
    fn call<R: Ruleset>(self) -> J::Output {
        match self.column {
            AnyColumn::Small(column) => self.job.run::<_, R>(column),
            AnyColumn::Large(column) => self.job.run::<_, R>(column),
            AnyColumn::Views(column) => self.job.run::<_, R>(column),
        }
    }
}

/// The validity bitmap of the rows that hold a valid value.
struct Validity;

impl ColumnJob for Validity {
    type Output = Vec<u8>;
    fn run<C: Column, R: Ruleset>(self, column: &C) -> Vec<u8> {
        let mut bits = vec![0u8; column.len().div_ceil(8)];
        column.write_validity::<R>(&mut bits);
        bits
    }
}

/// Each invalid row that is not null, with its `valid_up_to`.
struct ErrorOffsets;

impl ColumnJob for ErrorOffsets {
    type Output = Vec<(usize, i64)>;
    fn run<C: Column, R: Ruleset>(self, column: &C) -> Vec<(usize, i64)> {
        column
            .invalid_rows::<R>()
            .map(|(row, e)| {
                let valid_up_to =
                    i64::try_from(e.valid_up_to()).expect("a row is shorter than 2^63 bytes");
                (row, valid_up_to)
            })
            .collect()
    }
}

/// The array's rows as a column: its offsets (already sliced) over its
/// whole values buffer, with its null bitmap.
fn offsets<T: ByteArrayType>(array: &GenericByteArray<T>) -> Result<Offsets<'_, T::Offset>>
where
    T::Offset: Offset,
{
    let column =
        Offsets::new(array.value_offsets(), array.values().as_slice()).map_err(malformed)?;
    match array.nulls() {
        Some(bitmap) => column.with_nulls(nulls(bitmap)).map_err(malformed),
        None => Ok(column),
    }
}

/// A view array's data buffers as byte slices, for [`Views`] (arrow-rs
/// 59's `Buffer` is not `AsRef<[u8]>`); none for another array.
fn data_buffers(array: &dyn Array) -> Vec<&[u8]> {
    let buffers = match array.data_type() {
        DataType::BinaryView => array.as_binary_view().data_buffers(),
        DataType::Utf8View => array.as_string_view().data_buffers(),
        _ => &[],
    };
    buffers.iter().map(Buffer::as_slice).collect()
}

/// Whether the array is a views array whose every row that holds a value
/// is valid, found by [`Views::validated`], which reads each view once,
/// checking its layout in the same pass. `false` for an array of another
/// layout or with an invalid row: the answer per row is then the column's,
/// which for views reads the batch again (a batch with an invalid row is
/// read two or three times, where the one pass stops and
/// `Views::validated` checks it again to name the row; a valid batch,
/// once). A malformed view is an error.
fn views_all_valid(array: &dyn Array, ruleset: RulesetName) -> Result<bool> {
    let (views, nulls) = match array.data_type() {
        DataType::BinaryView => (array.as_binary_view().views(), array.nulls()),
        DataType::Utf8View => (array.as_string_view().views(), array.nulls()),
        _ => return Ok(false),
    };
    let buffers = data_buffers(array);
    let one_pass = OnePass {
        views,
        buffers: &buffers,
        nulls: nulls.map(self::nulls),
    };
    match ruleset.with(one_pass) {
        Ok(()) => Ok(true),
        Err(e) if e.utf8_error().is_some() => Ok(false),
        Err(e) => Err(malformed(e)),
    }
}

/// [`Views::validated`]'s arguments, waiting for the ruleset's type.
struct OnePass<'a> {
    views: &'a [u128],
    buffers: &'a [&'a [u8]],
    nulls: Option<Nulls<'a>>,
}

impl WithRuleset for OnePass<'_> {
    type Output = std::result::Result<(), ColumnError>;
    fn call<R: Ruleset>(self) -> Self::Output {
        Views::validated::<R>(self.views, self.buffers, self.nulls).map(drop)
    }
}

/// The array's rows as a column: its views (already sliced) over its data
/// buffers (`buffers`, the same as slices), with its null bitmap.
fn views<'a, T: ByteViewType + ?Sized>(
    array: &'a GenericByteViewArray<T>,
    buffers: &'a [&'a [u8]],
) -> Result<Views<'a, &'a [u8]>> {
    let column = Views::new(array.views(), buffers).map_err(malformed)?;
    match array.nulls() {
        Some(bitmap) => column.with_nulls(nulls(bitmap)).map_err(malformed),
        None => Ok(column),
    }
}

/// Arrow's null bitmap as utf8-core's: the whole bitmap and the array's bit
/// offset in it (a sliced array's).
fn nulls(bitmap: &NullBuffer) -> Nulls<'_> {
    Nulls::new(bitmap.validity(), bitmap.offset())
}

/// The repaired offsets array. Its rows are checked once more by arrow-rs's
/// `try_new` (one run over the values and a boundary test per row), the
/// price of building a string array without `unsafe`.
fn lossy_offsets<T: ByteArrayType>(
    array: &GenericByteArray<T>,
) -> Result<GenericStringArray<T::Offset>>
where
    T::Offset: Offset,
{
    // Null rows are repaired too, so that every slot is UTF-8.
    let column =
        Offsets::new(array.value_offsets(), array.values().as_slice()).map_err(malformed)?;
    let (offsets, values) = match column.lossy::<Rfc3629>().map_err(malformed)? {
        LossyOffsets::Unchanged => rebased(array.offsets(), array.values()),
        LossyOffsets::Repaired { offsets, values } => (
            OffsetBuffer::new(ScalarBuffer::from(offsets)),
            Buffer::from_vec(values),
        ),
    };
    Ok(GenericStringArray::try_new(
        offsets,
        values,
        array.nulls().cloned(),
    )?)
}

/// The offsets and values of a string array with the same rows: the
/// array's own, or where its rows cover part of its values (a slice) that
/// part, the offsets shifted to start at 0. arrow-rs's `try_new` checks all
/// of the values, and a slice's other rows may be anything.
fn rebased<O: OffsetSizeTrait>(
    offsets: &OffsetBuffer<O>,
    values: &Buffer,
) -> (OffsetBuffer<O>, Buffer) {
    let (first, last) = (offsets[0], offsets[offsets.len() - 1]);
    if first.as_usize() == 0 && last.as_usize() == values.len() {
        return (offsets.clone(), values.clone());
    }
    let shifted: Vec<O> = offsets.iter().map(|&offset| offset - first).collect();
    let values = values.slice_with_length(first.as_usize(), (last - first).as_usize());
    (OffsetBuffer::new(ScalarBuffer::from(shifted)), values)
}

/// The repaired views array, its data buffers shared with the input's, and
/// checked once more by arrow-rs's `try_new`, as for [`lossy_offsets`].
fn lossy_views<T: ByteViewType + ?Sized>(
    array: &GenericByteViewArray<T>,
) -> Result<StringViewArray> {
    let buffers: Vec<&[u8]> = array.data_buffers().iter().map(Buffer::as_slice).collect();
    let column = Views::new(array.views(), &buffers).map_err(malformed)?;
    let (views, buffers): (ScalarBuffer<u128>, Arc<[Buffer]>) =
        match column.lossy::<Rfc3629>().map_err(malformed)? {
            LossyViews::Unchanged => (array.views().clone(), Arc::from(array.data_buffers())),
            LossyViews::Repaired { views, buffer } => {
                let mut buffers = array.data_buffers().to_vec();
                if !buffer.is_empty() {
                    buffers.push(Buffer::from_vec(buffer));
                }
                (ScalarBuffer::from(views), Arc::from(buffers))
            }
        };
    Ok(StringViewArray::try_new(
        views,
        buffers,
        array.nulls().cloned(),
    )?)
}
