//! Each batch the reader hands over, its string columns still bytes, made
//! into the batch the table's schema promises: every string checked by
//! utf8-core's column check and turned into a string array over the same
//! buffers, or the read stopped at the first bad value, named by file,
//! column, row and byte; or, where asked for, bad values made null or
//! repaired with U+FFFD.

use std::fmt;
use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, GenericBinaryArray, GenericListArray, MapArray,
    OffsetSizeTrait, RecordBatch, RecordBatchOptions, StructArray,
};
use datafusion::arrow::compute::nullif;
use datafusion::arrow::datatypes::{BinaryViewType, DataType, FieldRef, Int64Type, SchemaRef};
use datafusion::common::{DataFusionError, Result};
use utf8_arrow::arrow59 as arrow;
use utf8_arrow::arrow59::Utf8ArrowError;
use utf8_core::Utf8Error;
use utf8_core::column::Offset;

use super::OnInvalid;
use super::types::holds_strings;

/// A value of a checked Parquet read that is not UTF-8: the error the
/// query fails with ([`OnInvalid::Fail`]), inside a
/// [`DataFusionError::External`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidValue {
    file: String,
    column: String,
    row: u64,
    valid_up_to: usize,
    error_len: Option<usize>,
    bytes: Vec<u8>,
}

impl InvalidValue {
    /// The file, as its object store names it.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The column's path: its name, then each nested field's
    /// (`tags.element`, `address.city`).
    pub fn column(&self) -> &str {
        &self.column
    }

    /// The row, counted from the file's first (0), whatever the query
    /// skipped.
    pub fn row(&self) -> u64 {
        self.row
    }

    /// How many bytes of the value are valid UTF-8 before the error, as
    /// `core::str::Utf8Error::valid_up_to`.
    pub fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// The length of the invalid sequence, as `Utf8Error::error_len`:
    /// `None` when the value ends inside a character.
    pub fn error_len(&self) -> Option<usize> {
        self.error_len
    }

    /// The invalid bytes (at most 4), or the cut character's.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl fmt::Display for InvalidValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: column {}: row {}: invalid UTF-8 at byte {} of the value (",
            self.file, self.column, self.row, self.valid_up_to
        )?;
        for (i, byte) in self.bytes.iter().enumerate() {
            let space = if i == 0 { "" } else { " " };
            write!(f, "{space}{byte:02X}")?;
        }
        match self.error_len {
            Some(_) => f.write_str(")"),
            None => f.write_str(", the value ends inside a character)"),
        }
    }
}

impl std::error::Error for InvalidValue {}

/// One checked column: where it is in the reader's batch, its path, and
/// the type the table gives it.
#[derive(Clone, Debug)]
pub(crate) struct Check {
    pub(crate) index: usize,
    pub(crate) field: FieldRef,
    pub(crate) on_invalid: OnInvalid,
}

/// What becomes of each column of the reader's batch.
#[derive(Clone, Debug)]
pub(crate) enum Output {
    /// Handed on as read.
    Kept(usize),
    /// Checked, and handed on as strings.
    Checked(Check),
}

/// How a reader's batch (projected columns, checked columns the query does
/// not read, the row number) becomes the table's.
#[derive(Debug)]
pub(crate) struct BatchPlan {
    pub(crate) outputs: Vec<Output>,
    /// Columns the query does not read but whose bad values still fail it.
    pub(crate) checked_only: Vec<Check>,
    pub(crate) row_number: usize,
    pub(crate) schema: SchemaRef,
}

impl BatchPlan {
    pub(crate) fn apply(&self, batch: &RecordBatch, file: &str) -> Result<RecordBatch> {
        let rows = batch.column(self.row_number).as_primitive::<Int64Type>();
        let fail = |bad: Bad, check: &Check| -> DataFusionError {
            let row = u64::try_from(rows.value(bad.row)).unwrap_or(u64::MAX);
            DataFusionError::External(Box::new(InvalidValue {
                file: file.to_owned(),
                column: format!("{}{}", check.field.name(), bad.path),
                row,
                valid_up_to: bad.valid_up_to,
                error_len: bad.error_len,
                bytes: bad.bytes,
            }))
        };
        let run = |check: &Check| -> Result<ArrayRef> {
            convert(
                batch.column(check.index),
                check.field.data_type(),
                check.on_invalid,
            )
            .map_err(|failure| match failure {
                Failure::Bad(bad) => fail(bad, check),
                Failure::Other(e) => e,
            })
        };
        // The columns the query reads first, so that their bad values are
        // the ones named.
        let columns = self
            .outputs
            .iter()
            .map(|output| match output {
                Output::Kept(index) => Ok(Arc::clone(batch.column(*index))),
                Output::Checked(check) => run(check),
            })
            .collect::<Result<Vec<_>>>()?;
        for check in &self.checked_only {
            run(check)?;
        }
        let options = RecordBatchOptions::new().with_row_count(Some(batch.num_rows()));
        Ok(RecordBatch::try_new_with_options(
            Arc::clone(&self.schema),
            columns,
            &options,
        )?)
    }
}

/// A bad value inside one column: its row there, and the path below the
/// column's name.
struct Bad {
    row: usize,
    path: String,
    valid_up_to: usize,
    error_len: Option<usize>,
    bytes: Vec<u8>,
}

enum Failure {
    Bad(Bad),
    Other(DataFusionError),
}

impl From<DataFusionError> for Failure {
    fn from(e: DataFusionError) -> Self {
        Failure::Other(e)
    }
}

impl From<datafusion::arrow::error::ArrowError> for Failure {
    fn from(e: datafusion::arrow::error::ArrowError) -> Self {
        Failure::Other(e.into())
    }
}

impl From<Utf8ArrowError> for Failure {
    fn from(e: Utf8ArrowError) -> Self {
        Failure::Other(DataFusionError::External(Box::new(e)))
    }
}

impl Failure {
    /// The same failure seen from the array that holds this one: a bad
    /// value's row mapped to the row that holds it, its path longer.
    fn inside(self, name: &str, row_of: impl Fn(usize) -> usize) -> Self {
        match self {
            Failure::Bad(bad) => Failure::Bad(Bad {
                row: row_of(bad.row),
                path: format!(".{name}{}", bad.path),
                ..bad
            }),
            other => other,
        }
    }
}

/// The array, read as bytes, as the type the table gives it.
fn convert(
    array: &ArrayRef,
    target: &DataType,
    on_invalid: OnInvalid,
) -> Result<ArrayRef, Failure> {
    match target {
        DataType::Utf8 => offsets(array.as_binary::<i32>(), on_invalid),
        DataType::LargeUtf8 => offsets(array.as_binary::<i64>(), on_invalid),
        DataType::Utf8View => views(array, on_invalid),
        DataType::List(field) => list(array.as_list::<i32>(), field, on_invalid),
        DataType::LargeList(field) => list(array.as_list::<i64>(), field, on_invalid),
        DataType::Struct(_) => structure(array.as_struct(), target, on_invalid),
        DataType::Map(field, sorted) => map(array.as_map(), field, *sorted, on_invalid),
        DataType::Dictionary(_, values) => dictionary(array, values, on_invalid),
        _ => Ok(Arc::clone(array)),
    }
}

fn offsets<O: OffsetSizeTrait + Offset>(
    array: &GenericBinaryArray<O>,
    on_invalid: OnInvalid,
) -> Result<ArrayRef, Failure> {
    let checked = arrow::to_string_array(array).map(|strings| Arc::new(strings) as ArrayRef);
    settle(
        checked,
        array,
        |row| array.value(row),
        on_invalid,
        || Ok(Arc::new(arrow::to_string_array_lossy(array)?)),
    )
}

fn views(array: &ArrayRef, on_invalid: OnInvalid) -> Result<ArrayRef, Failure> {
    let array = array.as_byte_view::<BinaryViewType>();
    let checked = arrow::to_string_view_array(array).map(|strings| Arc::new(strings) as ArrayRef);
    settle(
        checked,
        array,
        |row| array.value(row),
        on_invalid,
        || Ok(Arc::new(arrow::to_string_view_array_lossy(array)?)),
    )
}

/// What a conversion's outcome becomes. The conversion checks every row,
/// null or not (a string array may hold no bad bytes even under a null),
/// and stops at the first bad one; a null row's bytes are no value, and
/// the reader leaves whatever it likes there (arrow-rs's view reader, the
/// view of another row), so a null row's failure means the rows that are
/// not null are checked again on their own.
fn settle<'a>(
    checked: Result<ArrayRef, Utf8ArrowError>,
    read: &'a dyn Array,
    value: impl Fn(usize) -> &'a [u8],
    on_invalid: OnInvalid,
    repair: impl FnOnce() -> Result<ArrayRef, Failure>,
) -> Result<ArrayRef, Failure> {
    let error = match checked {
        Ok(strings) => return Ok(strings),
        Err(error) => error,
    };
    if on_invalid == OnInvalid::Fail {
        let first = match &error {
            Utf8ArrowError::Column(e) => match e.utf8_error() {
                Some(utf8) => Some((e.row(), utf8)),
                None => return Err(Failure::Other(DataFusionError::External(Box::new(*e)))),
            },
            _ => arrow::invalid_rows(read)?.into_iter().next(),
        };
        if let Some((row, utf8)) = first {
            return Err(bad(row, utf8, value(row)));
        }
    }
    nulled(repair()?, read, on_invalid)
}

/// The repaired array, with the rows that were invalid made null where
/// that is asked for.
fn nulled(
    repaired: ArrayRef,
    read: &dyn Array,
    on_invalid: OnInvalid,
) -> Result<ArrayRef, Failure> {
    if on_invalid != OnInvalid::Null {
        return Ok(repaired);
    }
    let mut mask = vec![false; read.len()];
    for (row, _) in arrow::invalid_rows(read)? {
        mask[row] = true;
    }
    Ok(nullif(&repaired, &BooleanArray::from(mask))?)
}

fn bad(row: usize, utf8: Utf8Error, value: &[u8]) -> Failure {
    let start = utf8.valid_up_to();
    let end = utf8.error_len().map_or(value.len(), |len| start + len);
    Failure::Bad(Bad {
        row,
        path: String::new(),
        valid_up_to: start,
        error_len: utf8.error_len(),
        bytes: value[start..end.min(start + 4)].to_vec(),
    })
}

/// The element's row, given the list's offsets: the last row starting at
/// or before it.
fn row_of<O: OffsetSizeTrait>(offsets: &[O], element: usize) -> usize {
    offsets
        .partition_point(|offset| offset.as_usize() <= element)
        .saturating_sub(1)
}

fn list<O: OffsetSizeTrait>(
    array: &GenericListArray<O>,
    field: &FieldRef,
    on_invalid: OnInvalid,
) -> Result<ArrayRef, Failure> {
    let values = convert(array.values(), field.data_type(), on_invalid)
        .map_err(|f| f.inside(field.name(), |row| row_of(array.value_offsets(), row)))?;
    Ok(Arc::new(GenericListArray::<O>::try_new(
        Arc::clone(field),
        array.offsets().clone(),
        values,
        array.nulls().cloned(),
    )?))
}

fn structure(
    array: &StructArray,
    target: &DataType,
    on_invalid: OnInvalid,
) -> Result<ArrayRef, Failure> {
    let DataType::Struct(fields) = target else {
        unreachable!("called for struct types only");
    };
    let columns = fields
        .iter()
        .zip(array.columns())
        .map(|(field, column)| match holds_strings(field.data_type()) {
            true => convert(column, field.data_type(), on_invalid)
                .map_err(|f| f.inside(field.name(), |row| row)),
            false => Ok(Arc::clone(column)),
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    Ok(Arc::new(StructArray::try_new(
        fields.clone(),
        columns,
        array.nulls().cloned(),
    )?))
}

fn map(
    array: &MapArray,
    field: &FieldRef,
    sorted: bool,
    on_invalid: OnInvalid,
) -> Result<ArrayRef, Failure> {
    let entries: ArrayRef = Arc::new(array.entries().clone());
    let entries = convert(&entries, field.data_type(), on_invalid)
        .map_err(|f| f.inside(field.name(), |row| row_of(array.value_offsets(), row)))?;
    Ok(Arc::new(MapArray::try_new(
        Arc::clone(field),
        array.offsets().clone(),
        entries.as_struct().clone(),
        array.nulls().cloned(),
        sorted,
    )?))
}

/// A dictionary's values are checked once; a bad value is reported at the
/// first row that uses it, and one no row uses is repaired.
fn dictionary(
    array: &ArrayRef,
    target: &DataType,
    on_invalid: OnInvalid,
) -> Result<ArrayRef, Failure> {
    let dictionary = array.as_any_dictionary();
    let values = dictionary.values();
    let bad_values = arrow::invalid_rows(values.as_ref())?;
    let repaired = match bad_values.is_empty() {
        true => convert(values, target, OnInvalid::Fail)?,
        false => convert(values, target, OnInvalid::Replace)?,
    };
    let keys = dictionary.normalized_keys();
    let mut is_bad = vec![false; values.len()];
    for (value, _) in &bad_values {
        is_bad[*value] = true;
    }
    let used_bad = |row: usize| array.is_valid(row) && is_bad[keys[row]];
    let converted = dictionary.with_values(repaired);
    match on_invalid {
        OnInvalid::Replace => Ok(converted),
        _ if bad_values.is_empty() => Ok(converted),
        OnInvalid::Fail => match (0..array.len()).find(|&row| used_bad(row)) {
            Some(row) => {
                let value = values.slice(keys[row], 1);
                match convert(&value, target, OnInvalid::Fail) {
                    Err(Failure::Bad(bad)) => Err(Failure::Bad(Bad { row, ..bad })),
                    Err(other) => Err(other),
                    Ok(_) => datafusion::common::internal_err!(
                        "dictionary value {} was found invalid, then valid",
                        keys[row]
                    )
                    .map_err(Failure::Other),
                }
            }
            None => Ok(converted),
        },
        OnInvalid::Null => {
            let mask: BooleanArray = (0..array.len()).map(|row| Some(used_bad(row))).collect();
            Ok(nullif(&converted, &mask)?)
        }
    }
}
