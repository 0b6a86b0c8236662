//! `utf8_automaton._native`: utf8-core's column check for the Arrow data
//! Python holds. The Python package (`python/utf8_automaton/`) wraps these
//! functions with their documented signatures; this module takes any
//! object with the Arrow PyCapsule interface and answers with pyarrow
//! arrays and record batches, through arrow-rs's `arrow-pyarrow`.
//!
//! The GIL is released while the chunks are checked: the checks read only
//! the Arrow buffers, which the imported arrays own.

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

mod check;
mod import;
mod parquet;

use std::sync::Arc;

use arrow_array::{ArrayRef, BinaryArray, Int64Array, RecordBatch, StringArray};
use arrow_pyarrow::ToPyArrow;
use arrow_schema::{DataType, Field, Schema};
use pyo3::exceptions::{PyBaseException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use utf8_core::Ruleset;
use utf8_core::named::{RulesetName, WithRuleset};

use check::CheckError;
use utf8_arrow::{InvalidValue, OnInvalid};

/// A bad value of the whole column: its path, its row across the chunks.
struct Invalid {
    path: String,
    row: usize,
    value: InvalidValue,
}
use import::Column;

pyo3::create_exception!(
    utf8_automaton,
    InvalidUtf8Error,
    PyValueError,
    "A value that is not valid under the ruleset: `column`, `row`, \
     `valid_up_to`, `error_len` and `bytes` say which and where."
);

impl From<CheckError> for PyErr {
    fn from(e: CheckError) -> PyErr {
        match e {
            CheckError::Type(message) => PyTypeError::new_err(message),
            CheckError::Layout(message) => PyValueError::new_err(message),
        }
    }
}

fn ruleset(name: &str) -> PyResult<RulesetName> {
    RulesetName::from_name(name).map_err(|e| PyValueError::new_err(e.to_string()))
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The exception for the first bad value, with its fields as attributes.
fn invalid_error(py: Python<'_>, invalid: &Invalid, ruleset: RulesetName) -> PyErr {
    let language = match ruleset {
        RulesetName::Rfc3629 => "UTF-8".to_owned(),
        other => other.name().to_owned(),
    };
    let column = match invalid.path.as_str() {
        "" => String::new(),
        path => format!("column {path}: "),
    };
    let cut = match invalid.value.error_len() {
        Some(_) => "",
        None => ", the value ends inside a character",
    };
    let message = format!(
        "{column}row {}: invalid {language} at byte {} of the value ({}{cut})",
        invalid.row,
        invalid.value.valid_up_to(),
        hex(invalid.value.bytes()),
    );
    let error = InvalidUtf8Error::new_err(message);
    match set_fields(error.value(py), invalid, ruleset) {
        Ok(()) => error,
        Err(e) => e,
    }
}

fn set_fields(
    error: &Bound<'_, PyBaseException>,
    invalid: &Invalid,
    ruleset: RulesetName,
) -> PyResult<()> {
    error.setattr("column", invalid.path.as_str())?;
    error.setattr("row", invalid.row)?;
    error.setattr("valid_up_to", invalid.value.valid_up_to())?;
    error.setattr("error_len", invalid.value.error_len())?;
    error.setattr("bytes", PyBytes::new(error.py(), invalid.value.bytes()))?;
    error.setattr("ruleset", ruleset.name())
}

/// The arrays, as a list of pyarrow arrays.
fn pyarrow_list<'py>(py: Python<'py>, arrays: &[ArrayRef]) -> PyResult<Bound<'py, PyList>> {
    let exported = arrays
        .iter()
        .map(|array| array.to_data().to_pyarrow(py))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, exported)
}

/// Every chunk's answer to `job`, the GIL released while they are worked
/// out.
fn each_chunk<T: Send>(
    py: Python<'_>,
    column: &Column,
    job: impl Fn(&Field, &ArrayRef) -> Result<T, CheckError> + Sync,
) -> PyResult<Vec<T>> {
    let field = column.field.as_ref();
    let chunks = &column.chunks;
    py.detach(|| {
        chunks
            .iter()
            .map(|chunk| job(field, chunk))
            .collect::<Result<Vec<_>, _>>()
    })
    .map_err(PyErr::from)
}

struct IsValid<'a> {
    field: &'a Field,
    chunk: &'a ArrayRef,
}

impl WithRuleset for IsValid<'_> {
    type Output = Result<ArrayRef, CheckError>;
    fn call<R: Ruleset>(self) -> Self::Output {
        Ok(Arc::new(check::is_valid::<R>(self.field, self.chunk)?))
    }
}

struct InvalidValues<'a> {
    field: &'a Field,
    chunk: &'a ArrayRef,
}

impl WithRuleset for InvalidValues<'_> {
    type Output = Result<Vec<(String, InvalidValue)>, CheckError>;
    fn call<R: Ruleset>(self) -> Self::Output {
        check::invalid_values::<R>(self.field, self.chunk)
    }
}

/// Whether each row holds no bad value: `(chunks, streamed)`, the chunks
/// pyarrow boolean arrays.
#[pyfunction]
#[pyo3(signature = (data, ruleset = "rfc3629"))]
fn is_valid<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    ruleset: &str,
) -> PyResult<(Bound<'py, PyList>, bool)> {
    let ruleset = self::ruleset(ruleset)?;
    let column = import::column(data)?;
    let answers = each_chunk(py, &column, |field, chunk| {
        ruleset.with(IsValid { field, chunk })
    })?;
    Ok((pyarrow_list(py, &answers)?, column.streamed))
}

/// Every bad value, rows counted across the chunks: the first only where
/// `first` is set.
fn all_invalid(
    py: Python<'_>,
    column: &Column,
    ruleset: RulesetName,
    first: bool,
) -> PyResult<Vec<Invalid>> {
    let per_chunk = each_chunk(py, column, |field, chunk| {
        let found = ruleset.with(InvalidValues { field, chunk })?;
        Ok(match first {
            true => found.into_iter().take(1).collect(),
            false => found,
        })
    })?;
    let mut start = 0;
    let mut all = Vec::new();
    for (chunk, found) in column.chunks.iter().zip(per_chunk) {
        all.extend(found.into_iter().map(|(path, value)| Invalid {
            path,
            row: start + value.row(),
            value,
        }));
        if first && !all.is_empty() {
            break;
        }
        start += chunk.len();
    }
    Ok(all)
}

/// Raises `InvalidUtf8Error` for the first bad value.
#[pyfunction]
#[pyo3(signature = (data, ruleset = "rfc3629"))]
fn validate(py: Python<'_>, data: &Bound<'_, PyAny>, ruleset: &str) -> PyResult<()> {
    let ruleset = self::ruleset(ruleset)?;
    let column = import::column(data)?;
    match all_invalid(py, &column, ruleset, true)?.first() {
        Some(invalid) => Err(invalid_error(py, invalid, ruleset)),
        None => Ok(()),
    }
}

/// Every bad value, as a pyarrow record batch.
#[pyfunction]
#[pyo3(signature = (data, ruleset = "rfc3629"))]
fn invalid_rows<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    ruleset: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let ruleset = self::ruleset(ruleset)?;
    let column = import::column(data)?;
    let all = all_invalid(py, &column, ruleset, false)?;
    let to_i64 = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let schema = Schema::new(vec![
        Field::new("column", DataType::Utf8, false),
        Field::new("row", DataType::Int64, false),
        Field::new("valid_up_to", DataType::Int64, false),
        Field::new("error_len", DataType::Int64, true),
        Field::new("bytes", DataType::Binary, false),
        Field::new("context", DataType::Binary, false),
    ]);
    let columns: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from_iter_values(
            all.iter().map(|i| i.path.as_str()),
        )),
        Arc::new(Int64Array::from_iter_values(
            all.iter().map(|i| to_i64(i.row)),
        )),
        Arc::new(Int64Array::from_iter_values(
            all.iter().map(|i| to_i64(i.value.valid_up_to())),
        )),
        Arc::new(Int64Array::from_iter(
            all.iter().map(|i| i.value.error_len().map(to_i64)),
        )),
        Arc::new(BinaryArray::from_iter_values(
            all.iter().map(|i| i.value.bytes()),
        )),
        Arc::new(BinaryArray::from_iter_values(
            all.iter().map(|i| i.value.context()),
        )),
    ];
    let batch = RecordBatch::try_new(Arc::new(schema), columns)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    batch.to_pyarrow(py)
}

/// The data with its byte strings as strings: `(chunks, streamed)`.
#[pyfunction]
#[pyo3(signature = (data, errors = "raise"))]
fn to_string<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    errors: &str,
) -> PyResult<(Bound<'py, PyList>, bool)> {
    let on_invalid = match errors {
        "raise" => OnInvalid::Fail,
        "null" => OnInvalid::Null,
        "replace" => OnInvalid::Replace,
        other => {
            return Err(PyValueError::new_err(format!(
                "errors must be \"raise\", \"null\" or \"replace\", not {other:?}"
            )));
        }
    };
    let column = import::column(data)?;
    let converted = each_chunk(py, &column, |field, chunk| {
        check::to_string(field, chunk, on_invalid)
    })?;
    let mut start = 0;
    let mut chunks = Vec::with_capacity(converted.len());
    for (chunk, outcome) in column.chunks.iter().zip(converted) {
        match outcome {
            Ok(strings) => chunks.push(strings),
            Err((path, value)) => {
                let invalid = Invalid {
                    path,
                    row: start + value.row(),
                    value,
                };
                return Err(invalid_error(py, &invalid, RulesetName::Rfc3629));
            }
        }
        start += chunk.len();
    }
    Ok((pyarrow_list(py, &chunks)?, column.streamed))
}

/// For the benchmark (`benches/is_valid.py`): the fewest seconds, of
/// `repeat` runs, that `utf8_arrow::is_valid_utf8` takes over the chunks of
/// `data` in Rust alone, once they are imported: the figure `is_valid`'s
/// crossing into Python is held to.
#[pyfunction]
fn _rust_is_valid_seconds(py: Python<'_>, data: &Bound<'_, PyAny>, repeat: usize) -> PyResult<f64> {
    let column = import::column(data)?;
    py.detach(|| {
        let mut fewest = f64::INFINITY;
        for _ in 0..repeat.max(1) {
            let start = std::time::Instant::now();
            for chunk in &column.chunks {
                let valid = utf8_arrow::is_valid_utf8(chunk.as_ref())
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                std::hint::black_box(valid);
            }
            fewest = fewest.min(start.elapsed().as_secs_f64());
        }
        Ok(fewest)
    })
}

/// The built-in rulesets' names, the default first.
#[pyfunction]
fn rulesets() -> Vec<&'static str> {
    RulesetName::ALL.iter().map(|r| r.name()).collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(invalid_rows, m)?)?;
    m.add_function(wrap_pyfunction!(to_string, m)?)?;
    m.add_function(wrap_pyfunction!(rulesets, m)?)?;
    m.add_function(wrap_pyfunction!(parquet::check_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(_rust_is_valid_seconds, m)?)?;
    m.add("InvalidUtf8Error", m.py().get_type::<InvalidUtf8Error>())?;
    Ok(())
}
