//! Random columns for the differential tests, what a per-row reference
//! says of them, and the functions called directly or through SQL.

use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, LargeBinaryArray, LargeStringArray, StringArray,
    StringViewArray,
};
use datafusion::arrow::buffer::{BooleanBuffer, NullBuffer};
use datafusion::arrow::datatypes::Field;
use datafusion::common::config::ConfigOptions;
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF};
use utf8_tests::random_rows::{RandomRows, RowsShape};
pub use utf8_tests::rng::Rng;

/// Rows and a validity per row (`utf8_tests::random_rows`), in a shape
/// drawn from the seed, dialects' forms among them in half the tables,
/// and the slice of them the arrays are cut to.
pub fn table(seed: u64) -> Table {
    let mut rng = Rng::new(seed);
    let count = rng.below(150);
    let shape = RowsShape {
        count,
        invalid_one_in: [0, 2, 10, 60][rng.below(4)],
        nulls: rng.chance(2),
        dialects: rng.chance(2),
    };
    let rows = RandomRows::new(&mut rng, shape);
    let range = if count > 0 && rng.chance(2) {
        let start = rng.below(count);
        start..start + rng.below(count - start + 1)
    } else {
        0..count
    };
    Table { drawn: rows, range }
}

/// Rows, which hold a value, and the slice of them the arrays are cut to.
pub struct Table {
    pub drawn: RandomRows,
    pub range: std::ops::Range<usize>,
}

impl std::ops::Deref for Table {
    type Target = RandomRows;

    fn deref(&self) -> &RandomRows {
        &self.drawn
    }
}

impl Table {
    fn nulls(&self) -> Option<NullBuffer> {
        self.valid
            .as_ref()
            .map(|v| NullBuffer::new(BooleanBuffer::from(v.as_slice())))
    }

    /// The six array types over every row (null rows holding their bytes),
    /// each sliced to the range. The string arrays are built unchecked, as
    /// an IPC reader with `skip_validation` or a Parquet reader that
    /// trusted its pages builds them.
    pub fn arrays(&self) -> Vec<ArrayRef> {
        let (offset, len) = (self.range.start, self.range.len());
        let (offsets, values, _) = BinaryArray::from_iter_values(&self.rows).into_parts();
        let binary = BinaryArray::new(offsets.clone(), values.clone(), self.nulls());
        // SAFETY: not met on purpose: the rows may be invalid UTF-8. The
        // array is only read as bytes, by the functions under test and by
        // DataFusion's plumbing, which never makes a `&str` of a row.
        let utf8 = unsafe { StringArray::new_unchecked(offsets, values, self.nulls()) };
        let (offsets, values, _) = LargeBinaryArray::from_iter_values(&self.rows).into_parts();
        let large = LargeBinaryArray::new(offsets.clone(), values.clone(), self.nulls());
        // SAFETY: as for `utf8`.
        let large_utf8 = unsafe { LargeStringArray::new_unchecked(offsets, values, self.nulls()) };
        let (views, buffers, _) = BinaryViewArray::from_iter_values(&self.rows).into_parts();
        let view = BinaryViewArray::new(views.clone(), buffers.clone(), self.nulls());
        // SAFETY: as for `utf8`.
        let utf8_view = unsafe { StringViewArray::new_unchecked(views, buffers, self.nulls()) };
        let arrays: [ArrayRef; 6] = [
            Arc::new(binary),
            Arc::new(large),
            Arc::new(view),
            Arc::new(utf8),
            Arc::new(large_utf8),
            Arc::new(utf8_view),
        ];
        arrays.into_iter().map(|a| a.slice(offset, len)).collect()
    }

    /// What `validate` of a ruleset says of each row of the range: `None`
    /// for a null row, else `Ok` or the error's `valid_up_to`.
    pub fn verdicts(
        &self,
        validate: impl Fn(&[u8]) -> Result<(), usize>,
    ) -> Vec<Option<Result<(), usize>>> {
        self.range
            .clone()
            .map(|r| (!self.is_null(r)).then(|| validate(&self.rows[r])))
            .collect()
    }

    /// Per-row `core::str::from_utf8`.
    pub fn reference_verdicts(&self) -> Vec<Option<Result<(), usize>>> {
        self.verdicts(|row| {
            core::str::from_utf8(row)
                .map(drop)
                .map_err(|e| e.valid_up_to())
        })
    }

    /// Per-row `String::from_utf8_lossy`; `None` for a null row.
    pub fn lossy(&self) -> Vec<Option<String>> {
        self.range
            .clone()
            .map(|r| {
                (!self.is_null(r)).then(|| String::from_utf8_lossy(&self.rows[r]).into_owned())
            })
            .collect()
    }
}

/// Calls `udf` directly, as DataFusion's physical plan does: the return
/// field from the arguments' fields and literals, then one call on the
/// batch.
pub fn invoke(udf: &ScalarUDF, args: Vec<ColumnarValue>, rows: usize) -> Result<ColumnarValue> {
    let arg_fields: Vec<_> = args
        .iter()
        .enumerate()
        .map(|(i, a)| Arc::new(Field::new(format!("arg{i}"), a.data_type(), true)))
        .collect();
    let literals: Vec<Option<&ScalarValue>> = args
        .iter()
        .map(|a| match a {
            ColumnarValue::Scalar(s) => Some(s),
            ColumnarValue::Array(_) => None,
        })
        .collect();
    let return_field = udf.return_field_from_args(ReturnFieldArgs {
        arg_fields: &arg_fields,
        scalar_arguments: &literals,
    })?;
    udf.invoke_with_args(ScalarFunctionArgs {
        args,
        arg_fields,
        number_rows: rows,
        return_field,
        config_options: Arc::new(ConfigOptions::default()),
    })
}

/// The three functions by name.
pub fn udf(name: &str) -> ScalarUDF {
    let function = utf8_datafusion::functions()
        .into_iter()
        .find(|f| f.name() == name)
        .unwrap_or_else(|| panic!("no function {name}"));
    Arc::unwrap_or_clone(function)
}
