//! Each batch the reader hands over, its string columns still bytes, made
//! into the batch the table's schema promises: every string checked by
//! utf8-core's column check and turned into a string array over the same
//! buffers, or the read stopped at the first bad value, named by file,
//! column, row and byte; or, where asked for, bad values made null or
//! repaired with U+FFFD.

use std::fmt;
use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, AsArray, RecordBatch, RecordBatchOptions};
use datafusion::arrow::datatypes::{FieldRef, Int64Type, SchemaRef};
use datafusion::common::{DataFusionError, Result};
use utf8_arrow::arrow59 as arrow;
use utf8_arrow::arrow59::NestedError;

use super::OnInvalid;

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
        let file_row = |row: usize| u64::try_from(rows.value(row)).unwrap_or(u64::MAX);
        let run = |check: &Check| convert(batch.column(check.index), check, file, file_row);
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

/// The column, read as bytes, as the type the table gives it: utf8-arrow's
/// conversion of strings at any depth. A bad value is named by the file,
/// the column's path and the row in the file.
fn convert(
    array: &ArrayRef,
    check: &Check,
    file: &str,
    file_row: impl Fn(usize) -> u64,
) -> Result<ArrayRef> {
    arrow::to_strings(array, check.field.data_type(), check.on_invalid).map_err(|e| match e {
        NestedError::Invalid(bad) => {
            let column = match bad.path() {
                "" => check.field.name().clone(),
                path => format!("{}.{path}", check.field.name()),
            };
            DataFusionError::External(Box::new(InvalidValue {
                file: file.to_owned(),
                column,
                row: file_row(bad.row()),
                valid_up_to: bad.valid_up_to(),
                error_len: bad.error_len(),
                bytes: bad.bytes().to_vec(),
            }))
        }
        NestedError::Arrow(e) => e.into(),
        other => DataFusionError::External(Box::new(other)),
    })
}
