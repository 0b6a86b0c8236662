//! The checks over one chunk of a column: its columns of byte strings
//! found (through structs: a table's columns, a struct's fields), each
//! checked by utf8-arrow, the answers put back together per row.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BinaryArray, BooleanArray, LargeBinaryArray, StructArray};
use arrow_buffer::{BooleanBufferBuilder, NullBuffer};
use arrow_schema::{DataType, Field, FieldRef, Fields};
use utf8_core::{Ruleset, Utf8Error};

use crate::import::is_bytes;

/// Why a chunk could not be checked: an array of a type this package does
/// not read, or a malformed layout.
#[derive(Debug)]
pub enum CheckError {
    Type(String),
    Layout(String),
}

impl From<utf8_arrow::Utf8ArrowError> for CheckError {
    fn from(e: utf8_arrow::Utf8ArrowError) -> Self {
        CheckError::Layout(format!("malformed Arrow array: {e}"))
    }
}

impl From<arrow_schema::ArrowError> for CheckError {
    fn from(e: arrow_schema::ArrowError) -> Self {
        CheckError::Layout(e.to_string())
    }
}

/// A column of byte strings inside a chunk: its path, its array, and the
/// rows where a struct above it is null (its bytes there are no value).
struct Leaf {
    path: String,
    array: ArrayRef,
    shown: Option<NullBuffer>,
}

impl Leaf {
    fn hidden(&self, row: usize) -> bool {
        self.shown.as_ref().is_some_and(|shown| shown.is_null(row))
    }
}

fn joined(path: &str, name: &str) -> String {
    match (path.is_empty(), name.is_empty()) {
        (_, true) => path.to_owned(),
        (true, false) => name.to_owned(),
        (false, false) => format!("{path}.{name}"),
    }
}

/// Whether a type holds strings or bytes at any depth.
fn holds_bytes(data_type: &DataType) -> bool {
    match data_type {
        t if is_bytes(t) => true,
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::ListView(f)
        | DataType::LargeListView(f)
        | DataType::FixedSizeList(f, _)
        | DataType::Map(f, _) => holds_bytes(f.data_type()),
        DataType::Struct(fields) => fields.iter().any(|f| holds_bytes(f.data_type())),
        DataType::Dictionary(_, values) => holds_bytes(values),
        _ => false,
    }
}

fn leaves(
    path: &str,
    array: &ArrayRef,
    shown: Option<NullBuffer>,
    found: &mut Vec<Leaf>,
) -> Result<(), CheckError> {
    match array.data_type() {
        t if is_bytes(t) => found.push(Leaf {
            path: path.to_owned(),
            array: Arc::clone(array),
            shown,
        }),
        DataType::Struct(fields) => {
            let array = array.as_struct();
            let shown = NullBuffer::union(shown.as_ref(), array.nulls());
            for (field, column) in fields.iter().zip(array.columns()) {
                leaves(&joined(path, field.name()), column, shown.clone(), found)?;
            }
        }
        other if holds_bytes(other) => {
            return Err(CheckError::Type(format!(
                "column `{path}` is {other}: strings inside lists, maps and dictionaries \
                 are not checked by this version"
            )));
        }
        _ => {}
    }
    Ok(())
}

/// The byte-string columns of a chunk whose field is `field`: the chunk
/// itself, or a struct's (a table's) fields; any other type is refused.
fn chunk_leaves(field: &Field, chunk: &ArrayRef) -> Result<Vec<Leaf>, CheckError> {
    let data_type = chunk.data_type();
    if !holds_bytes(data_type) && !matches!(data_type, DataType::Struct(_)) {
        return Err(CheckError::Type(format!(
            "expected strings or bytes (string, large_string, string_view, binary, \
             large_binary, binary_view) or a table of them, got {data_type}"
        )));
    }
    let mut found = Vec::new();
    leaves(field.name(), chunk, None, &mut found)?;
    Ok(found)
}

/// One bad value: where it is, and what is wrong with it.
pub struct Invalid {
    pub path: String,
    pub row: usize,
    pub error: Utf8Error,
    pub value: Vec<u8>,
}

/// A byte string's bytes, whatever the array type; `row` is in bounds and
/// the layout checked (utf8-arrow answered for the array).
fn value_bytes(array: &dyn Array, row: usize) -> Vec<u8> {
    match array.data_type() {
        DataType::Binary => array.as_binary::<i32>().value(row).to_vec(),
        DataType::LargeBinary => array.as_binary::<i64>().value(row).to_vec(),
        DataType::BinaryView => array.as_binary_view().value(row).to_vec(),
        // A string array's bad value must not be read as `&str`: its bytes
        // are read through the binary array over the same buffers.
        DataType::Utf8 => BinaryArray::from(array.as_string::<i32>().clone())
            .value(row)
            .to_vec(),
        DataType::LargeUtf8 => LargeBinaryArray::from(array.as_string::<i64>().clone())
            .value(row)
            .to_vec(),
        DataType::Utf8View => array
            .as_string_view()
            .clone()
            .to_binary_view()
            .value(row)
            .to_vec(),
        other => unreachable!("a leaf is a byte string, not {other}"),
    }
}

/// Every bad value of the chunk that is not null, in row order (then
/// column order), rows counted from the chunk's first.
pub fn invalid_values<R: Ruleset>(
    field: &Field,
    chunk: &ArrayRef,
) -> Result<Vec<Invalid>, CheckError> {
    let mut all = Vec::new();
    for leaf in chunk_leaves(field, chunk)? {
        for (row, error) in utf8_arrow::invalid_rows_as::<R>(leaf.array.as_ref())? {
            if leaf.hidden(row) {
                continue;
            }
            all.push(Invalid {
                path: leaf.path.clone(),
                row,
                error,
                value: value_bytes(leaf.array.as_ref(), row),
            });
        }
    }
    // Stable: a row's bad values stay in column order.
    all.sort_by_key(|invalid| invalid.row);
    Ok(all)
}

/// Whether each row of the chunk holds no bad value: null for a null row.
pub fn is_valid<R: Ruleset>(field: &Field, chunk: &ArrayRef) -> Result<BooleanArray, CheckError> {
    if is_bytes(chunk.data_type()) {
        return Ok(utf8_arrow::is_valid_utf8_as::<R>(chunk.as_ref())?);
    }
    let mut valid = BooleanBufferBuilder::new(chunk.len());
    valid.append_n(chunk.len(), true);
    for invalid in invalid_values::<R>(field, chunk)? {
        valid.set_bit(invalid.row, false);
    }
    Ok(BooleanArray::new(valid.finish(), chunk.logical_nulls()))
}

/// What `to_string` does with a bad value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnInvalid {
    Raise,
    Null,
    Replace,
}

/// The chunk with its byte strings as strings (through structs), sharing
/// their buffers where every value is UTF-8; a bad value is an error
/// (`Ok(Err(first))`), a null, or repaired, as `on_invalid` asks.
pub fn to_string(
    field: &Field,
    chunk: &ArrayRef,
    on_invalid: OnInvalid,
) -> Result<Result<ArrayRef, Invalid>, CheckError> {
    chunk_leaves(field, chunk)?;
    if let Some(strings) = converted(chunk, on_invalid)? {
        return Ok(Ok(strings));
    }
    let first = invalid_values::<utf8_core::Rfc3629>(field, chunk)?
        .into_iter()
        .next();
    match first {
        Some(first) => Ok(Err(first)),
        None => Err(CheckError::Layout(
            "a value was found invalid, then valid".to_owned(),
        )),
    }
}

/// `array` as strings: its null rows' bytes, which are no value, repaired
/// where they are not UTF-8; its bad values as `on_invalid` asks (`None`
/// for a bad value under `Raise`).
fn converted(array: &ArrayRef, on_invalid: OnInvalid) -> Result<Option<ArrayRef>, CheckError> {
    if let DataType::Struct(fields) = array.data_type() {
        let array = array.as_struct();
        let mut columns = Vec::with_capacity(fields.len());
        for column in array.columns() {
            match converted(column, on_invalid)? {
                Some(column) => columns.push(column),
                None => return Ok(None),
            }
        }
        let fields: Fields = fields
            .iter()
            .zip(&columns)
            .map(|(field, column)| -> FieldRef {
                Arc::new(
                    field
                        .as_ref()
                        .clone()
                        .with_data_type(column.data_type().clone()),
                )
            })
            .collect();
        return Ok(Some(Arc::new(StructArray::try_new(
            fields,
            columns,
            array.nulls().cloned(),
        )?)));
    }
    if !is_bytes(array.data_type()) {
        return Ok(Some(Arc::clone(array)));
    }
    match utf8_arrow::to_string(array.as_ref()) {
        Ok(strings) => return Ok(Some(strings)),
        Err(e) if e.layout_error().is_some() => return Err(e.into()),
        // The first bad bytes are under a null row, which is no value:
        // the rows that are values are looked at on their own.
        Err(utf8_arrow::Utf8ArrowError::InvalidUnderNull(_))
            if on_invalid == OnInvalid::Raise
                && !utf8_arrow::invalid_rows(array.as_ref())?.is_empty() =>
        {
            return Ok(None);
        }
        Err(utf8_arrow::Utf8ArrowError::InvalidUnderNull(_)) => {}
        Err(_) if on_invalid == OnInvalid::Raise => return Ok(None),
        Err(_) => {}
    }
    let repaired = utf8_arrow::to_string_lossy(array.as_ref())?;
    if on_invalid != OnInvalid::Null {
        return Ok(Some(repaired));
    }
    let valid = utf8_arrow::is_valid_utf8(array.as_ref())?;
    // `is_valid` is null where the row is, false where it is bad: its
    // true bits are the rows that keep a value.
    let kept = NullBuffer::new(valid.values().clone());
    let nulls = NullBuffer::union(Some(&kept), repaired.nulls());
    let data = repaired.to_data().into_builder().nulls(nulls).build()?;
    Ok(Some(arrow_array::make_array(data)))
}
