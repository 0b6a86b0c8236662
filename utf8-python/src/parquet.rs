//! `check_parquet`: utf8-parquet's check of Parquet files (what `utf8
//! check` runs on them), its bad values as a pyarrow record batch.

use std::fs::File;
use std::ops::ControlFlow;
use std::sync::Arc;

use arrow_array::{ArrayRef, BinaryArray, Int64Array, RecordBatch, StringArray};
use arrow_pyarrow::ToPyArrow;
use arrow_schema::{DataType, Field, Schema};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use utf8_core::Ruleset;
use utf8_core::named::WithRuleset;
use utf8_parquet::{BadValue, ParquetCheck};

/// Bytes of a value kept before its error, as `invalid_rows` keeps.
const CONTEXT: usize = 16;

/// A bad value of one of the files.
struct Found {
    file: usize,
    row_group: usize,
    column: Arc<str>,
    value: BadValue,
}

/// Why a file could not be checked.
enum Failure {
    Open(std::io::Error),
    Read(String),
}

struct CheckFile<'a> {
    path: &'a str,
    strings_only: bool,
    threads: usize,
    file: usize,
}

impl WithRuleset for CheckFile<'_> {
    type Output = Result<Vec<Found>, Failure>;
    fn call<R: Ruleset>(self) -> Self::Output {
        let file = File::open(self.path).map_err(Failure::Open)?;
        if file.metadata().map_err(Failure::Open)?.is_dir() {
            return Err(Failure::Read("it is a directory".to_owned()));
        }
        let check = ParquetCheck::open(file, self.strings_only)
            .map_err(|e| Failure::Read(e.to_string()))?;
        let columns: Vec<Arc<str>> = check.columns().map(Arc::from).collect();
        let mut found = Vec::new();
        let mut failure = None;
        check.each_row_group::<R>(self.threads, true, |row_group, bad| match bad {
            Ok(bad) => {
                // Each value once, at its first error, as `invalid_rows`
                // reports it: the check lists every error of a value.
                found.extend(
                    bad.into_iter()
                        .filter(|value| value.resumed_at == 0)
                        .map(|value| Found {
                            file: self.file,
                            row_group,
                            column: Arc::clone(&columns[value.leaf]),
                            value,
                        }),
                );
                ControlFlow::Continue(())
            }
            Err(e) => {
                failure = Some(Failure::Read(e.to_string()));
                ControlFlow::Break(())
            }
        });
        match failure {
            Some(failure) => Err(failure),
            None => Ok(found),
        }
    }
}

/// Every bad value of the files at `paths`, as a pyarrow record batch:
/// `file`, `row_group`, `column`, `row`, `element`, `valid_up_to`,
/// `error_len`, `bytes`, `context`.
#[pyfunction]
#[pyo3(signature = (paths, strings_only = false, ruleset = "rfc3629", threads = 1))]
pub fn check_parquet<'py>(
    py: Python<'py>,
    paths: Vec<String>,
    strings_only: bool,
    ruleset: &str,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let ruleset = crate::ruleset(ruleset)?;
    let mut found = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        let checked = py.detach(|| {
            ruleset.with(CheckFile {
                path,
                strings_only,
                threads,
                file: index,
            })
        });
        match checked {
            Ok(mut in_file) => found.append(&mut in_file),
            Err(Failure::Open(e)) => {
                let message = format!("cannot open {path}: {e}");
                return Err(match e.raw_os_error() {
                    // (errno, message, filename): OSError picks the
                    // subclass the number names (FileNotFoundError, …).
                    Some(code) => PyOSError::new_err((code, message, path.clone())),
                    None => PyOSError::new_err(message),
                });
            }
            Err(Failure::Read(message)) => {
                return Err(PyValueError::new_err(format!(
                    "cannot read {path} as Parquet: {message}"
                )));
            }
        }
    }
    table(&paths, &found)?.to_pyarrow(py)
}

/// Where a value's error is: its offset, and the bytes from `CONTEXT`
/// before it to its end (the check keeps none past it).
fn error_bytes(value: &BadValue) -> (&[u8], &[u8]) {
    let start = value.offset.min(value.bytes.len());
    let end = value
        .error_len
        .map_or(value.bytes.len(), |len| start + len)
        .min(value.bytes.len());
    (
        &value.bytes[start..end],
        &value.bytes[start.saturating_sub(CONTEXT)..end],
    )
}

fn table(paths: &[String], found: &[Found]) -> PyResult<RecordBatch> {
    let to_i64 = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let as_i64 = |n: usize| to_i64(n as u64);
    let spans: Vec<(&[u8], &[u8])> = found.iter().map(|f| error_bytes(&f.value)).collect();
    let schema = Schema::new(vec![
        Field::new("file", DataType::Utf8, false),
        Field::new("row_group", DataType::Int64, false),
        Field::new("column", DataType::Utf8, false),
        Field::new("row", DataType::Int64, false),
        Field::new("element", DataType::Int64, true),
        Field::new("valid_up_to", DataType::Int64, false),
        Field::new("error_len", DataType::Int64, true),
        Field::new("bytes", DataType::Binary, false),
        Field::new("context", DataType::Binary, false),
    ]);
    let columns: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from_iter_values(
            found.iter().map(|f| paths[f.file].as_str()),
        )),
        Arc::new(Int64Array::from_iter_values(
            found.iter().map(|f| as_i64(f.row_group)),
        )),
        Arc::new(StringArray::from_iter_values(
            found.iter().map(|f| &*f.column),
        )),
        Arc::new(Int64Array::from_iter_values(
            found.iter().map(|f| to_i64(f.value.row)),
        )),
        Arc::new(Int64Array::from_iter(
            found.iter().map(|f| f.value.element.map(as_i64)),
        )),
        Arc::new(Int64Array::from_iter_values(
            found.iter().map(|f| as_i64(f.value.offset)),
        )),
        Arc::new(Int64Array::from_iter(
            found.iter().map(|f| f.value.error_len.map(as_i64)),
        )),
        Arc::new(BinaryArray::from_iter_values(
            spans.iter().map(|span| span.0),
        )),
        Arc::new(BinaryArray::from_iter_values(
            spans.iter().map(|span| span.1),
        )),
    ];
    RecordBatch::try_new(Arc::new(schema), columns)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}
