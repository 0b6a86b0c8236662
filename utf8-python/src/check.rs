//! The checks over one chunk of a column, through utf8-arrow's checks of
//! strings at any depth: every string and binary value inside the chunk
//! (a table's columns, struct fields, list elements, map keys and values,
//! dictionary values) is one to check, and is named by the chunk's row
//! that holds it and its path.

use arrow_array::{Array, ArrayRef, BooleanArray};
use arrow_buffer::BooleanBufferBuilder;
use arrow_schema::{DataType, Field};
use utf8_arrow::{InvalidValue, NestedError, OnInvalid, Utf8ArrowError};
use utf8_core::Ruleset;

use crate::import::is_bytes;

/// Why a chunk could not be checked: an array of a type this package does
/// not read, or a malformed layout.
#[derive(Debug)]
pub enum CheckError {
    Type(String),
    Layout(String),
}

impl From<Utf8ArrowError> for CheckError {
    fn from(e: Utf8ArrowError) -> Self {
        match e {
            Utf8ArrowError::UnsupportedType(t) => CheckError::Type(format!(
                "{t} is not read here: strings and binary are, inside lists, large lists, \
                 structs, maps and dictionaries too"
            )),
            e => CheckError::Layout(format!("malformed Arrow array: {e}")),
        }
    }
}

impl From<arrow_schema::ArrowError> for CheckError {
    fn from(e: arrow_schema::ArrowError) -> Self {
        CheckError::Layout(e.to_string())
    }
}

/// The type the chunk is checked as: each of its byte strings a string.
/// A chunk without one is refused, but for a table (a struct), whose other
/// columns are skipped.
fn target(field: &Field, chunk: &ArrayRef) -> Result<DataType, CheckError> {
    let data_type = chunk.data_type();
    if !utf8_arrow::holds_byte_strings(data_type) && !matches!(data_type, DataType::Struct(_)) {
        return Err(CheckError::Type(format!(
            "expected strings or bytes (string, large_string, string_view, binary, \
             large_binary, binary_view, or lists, structs, maps or dictionaries of them), \
             got {data_type}{}",
            match field.name().as_str() {
                "" => String::new(),
                name => format!(" (column {name})"),
            }
        )));
    }
    Ok(utf8_arrow::as_strings(data_type))
}

/// The path of a value: the column's name (a Polars Series has one), then
/// the path inside it.
fn named(field: &Field, invalid: InvalidValue) -> (String, InvalidValue) {
    let path = match (field.name().as_str(), invalid.path()) {
        ("", path) => path.to_owned(),
        (name, "") => name.to_owned(),
        (name, path) => format!("{name}.{path}"),
    };
    (path, invalid)
}

/// Every bad value of the chunk, by row, rows counted from the chunk's
/// first, each with its full path.
pub fn invalid_values<R: Ruleset>(
    field: &Field,
    chunk: &ArrayRef,
) -> Result<Vec<(String, InvalidValue)>, CheckError> {
    let target = target(field, chunk)?;
    let found = utf8_arrow::invalid_values_as::<R>(chunk.as_ref(), &target)?;
    Ok(found.into_iter().map(|bad| named(field, bad)).collect())
}

/// Whether each row of the chunk holds no bad value: null for a null row.
pub fn is_valid<R: Ruleset>(field: &Field, chunk: &ArrayRef) -> Result<BooleanArray, CheckError> {
    if !is_bytes(chunk.data_type()) {
        // Nested: looked at value by value.
        let mut valid = BooleanBufferBuilder::new(chunk.len());
        valid.append_n(chunk.len(), true);
        for (_, invalid) in invalid_values::<R>(field, chunk)? {
            valid.set_bit(invalid.row(), false);
        }
        return Ok(BooleanArray::new(valid.finish(), chunk.logical_nulls()));
    }
    Ok(utf8_arrow::is_valid_utf8_as::<R>(chunk.as_ref())?)
}

/// The chunk with its byte strings as strings, sharing their buffers where
/// every value is UTF-8; a bad value is an error (`Ok(Err(first))`), a
/// null, or repaired, as `on_invalid` asks.
pub fn to_string(
    field: &Field,
    chunk: &ArrayRef,
    on_invalid: OnInvalid,
) -> Result<Result<ArrayRef, (String, InvalidValue)>, CheckError> {
    let target = target(field, chunk)?;
    match utf8_arrow::to_strings(chunk, &target, on_invalid) {
        Ok(strings) => Ok(Ok(strings)),
        Err(NestedError::Invalid(first)) => Ok(Err(named(field, first))),
        Err(NestedError::Utf8Arrow(e)) => Err(e.into()),
        Err(NestedError::Arrow(e)) => Err(e.into()),
        Err(other) => Err(CheckError::Layout(other.to_string())),
    }
}
