//! Arrow data from any Python object that speaks the Arrow PyCapsule
//! interface, as one column: its field and its chunks, each chunk's layout
//! checked before anything reads a value.
//!
//! - `__arrow_c_array__` (a pyarrow `Array` or `RecordBatch`, nanoarrow's
//!   arrays): one chunk, through arrow-rs's own `arrow-pyarrow`;
//! - `__arrow_c_stream__` (a pyarrow `ChunkedArray`, `Table` or
//!   `RecordBatchReader`, a Polars `Series` or `DataFrame`, a DuckDB
//!   result): a chunk per array of the stream, through arrow-rs's
//!   `ArrayStreamReader`, which takes a stream of any type (a table's is a
//!   struct, a column's is not);
//! - `__arrow_array__` (a pandas column with an Arrow dtype): pyarrow's
//!   protocol, which gives one of the above.
//!
//! Nothing is copied: the chunks are the producer's buffers.
//!
//! The import is arrow-rs's unchecked one, since its checked one refuses
//! a string array that is not UTF-8, the very arrays this package is for.
//! Every chunk's layout is then checked before it is read
//! ([`checked_layout`]).

use std::sync::Arc;

use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{ArrayRef, make_array};
use arrow_data::ArrayData;
use arrow_pyarrow::FromPyArrowUnchecked;
use arrow_schema::{DataType, Field, FieldRef};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// One column of Arrow data: its field (a table's is a struct of its
/// columns) and its chunks, in order.
pub struct Column {
    pub field: FieldRef,
    pub chunks: Vec<ArrayRef>,
    /// Whether it came as a stream (so goes back as a chunked array or a
    /// table) rather than as one array.
    pub streamed: bool,
}

/// The Arrow data `object` holds.
pub fn column(object: &Bound<'_, PyAny>) -> PyResult<Column> {
    let py = object.py();
    if object.hasattr(pyo3::intern!(py, "__arrow_c_array__"))? {
        // SAFETY: arrow-pyarrow imports the exported array as the C Data
        // Interface describes it; the buffers' sizes follow from the
        // lengths and offsets the producer declares, which is the
        // interface's contract with any consumer. What arrow-rs's checked
        // import would check beyond that (offsets, views, nested lengths,
        // UTF-8) is checked by `checked_layout` before any value is read.
        let data = unsafe { ArrayData::from_pyarrow_bound_unchecked(object)? };
        let field = Arc::new(Field::new("", data.data_type().clone(), true));
        return Ok(Column {
            field,
            chunks: vec![checked_layout(data)?],
            streamed: false,
        });
    }
    if object.hasattr(pyo3::intern!(py, "__arrow_c_stream__"))? {
        return stream(object);
    }
    if object.hasattr(pyo3::intern!(py, "__arrow_array__"))? {
        let arrow = object.call_method0(pyo3::intern!(py, "__arrow_array__"))?;
        if arrow.hasattr(pyo3::intern!(py, "__arrow_array__"))?
            && !arrow.hasattr(pyo3::intern!(py, "__arrow_c_array__"))?
            && !arrow.hasattr(pyo3::intern!(py, "__arrow_c_stream__"))?
        {
            return Err(PyTypeError::new_err(
                "__arrow_array__ gave an object without the Arrow PyCapsule interface",
            ));
        }
        return column(&arrow);
    }
    Err(PyTypeError::new_err(format!(
        "expected Arrow data (an object with __arrow_c_array__ or __arrow_c_stream__, \
         such as a pyarrow Array, ChunkedArray or Table, or a Polars Series), \
         got {}",
        object.get_type().name()?
    )))
}

fn stream(object: &Bound<'_, PyAny>) -> PyResult<Column> {
    let capsule = object
        .call_method0(pyo3::intern!(object.py(), "__arrow_c_stream__"))?
        .cast_into::<PyCapsule>()
        .map_err(|_| PyTypeError::new_err("__arrow_c_stream__ did not return a capsule"))?;
    let pointer = capsule
        .pointer_checked(Some(c"arrow_array_stream"))
        .map_err(|_| {
            PyTypeError::new_err("__arrow_c_stream__ did not return an arrow_array_stream capsule")
        })?;
    // SAFETY: an `arrow_array_stream` capsule points to an
    // `ArrowArrayStream` that the capsule owns (the PyCapsule interface);
    // `from_raw` moves it out and leaves a released stream behind, which
    // the capsule's destructor then leaves alone. `capsule` is alive for
    // the call.
    let reader =
        unsafe { ArrayStreamReader::from_raw(pointer.cast::<FFI_ArrowArrayStream>().as_ptr()) }
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let field = Arc::clone(arrow_array::ArrayReader::field(&reader));
    let chunks = reader
        .map(|chunk| {
            let chunk = chunk.map_err(|e| PyValueError::new_err(e.to_string()))?;
            checked_layout(chunk.to_data())
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Column {
        field,
        chunks,
        streamed: true,
    })
}

/// `data` as an array, once its layout is known to hold: a flat string or
/// binary array's buffer sizes here, and its offsets or views by
/// utf8-arrow's check, which checks them before it reads a value; any
/// other array in full by arrow-rs's own validation, with its strings
/// typed as bytes so that it does not judge them.
fn checked_layout(data: ArrayData) -> PyResult<ArrayRef> {
    let refused =
        |e: arrow_schema::ArrowError| PyValueError::new_err(format!("malformed Arrow array: {e}"));
    if is_bytes(data.data_type()) {
        data.validate().map_err(refused)?;
        data.validate_nulls().map_err(refused)?;
        return Ok(make_array(data));
    }
    Ok(make_array(as_bytes(&data).map_err(refused)?))
}

/// Whether arrays of this type are a column of byte strings that
/// utf8-arrow checks.
pub fn is_bytes(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
            | DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
    )
}

/// `data` with its strings typed as bytes, built (so validated in full) a
/// node at a time from the leaves up.
fn as_bytes(data: &ArrayData) -> Result<ArrayData, arrow_schema::ArrowError> {
    let children = data
        .child_data()
        .iter()
        .map(as_bytes)
        .collect::<Result<Vec<_>, _>>()?;
    data.clone()
        .into_builder()
        .data_type(utf8_arrow::as_bytes(data.data_type()))
        .child_data(children)
        .build()
}
