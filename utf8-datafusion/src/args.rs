//! What the three functions share: the argument types they take (and the
//! casts DataFusion is asked for), the ruleset checked when the query is
//! planned, and a literal argument run as a one-row column.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{DataFusionError, Result, ScalarValue, internal_err, plan_err};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs};

use utf8_arrow::arrow59::Utf8ArrowError;

use crate::ruleset;

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

/// utf8-arrow's error as DataFusion's: a malformed layout (an array built
/// unchecked) or a type the functions do not take.
pub(crate) fn arrow_error(e: Utf8ArrowError) -> DataFusionError {
    match e.column_error() {
        Some(column) if column.layout_error().is_some() => {
            DataFusionError::Execution(format!("malformed string array: {column}"))
        }
        _ => DataFusionError::Execution(e.to_string()),
    }
}

/// Whether a function takes the ruleset's name as a second argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arity {
    /// `f(bytes)`.
    One,
    /// `f(bytes [, ruleset])`.
    OneOrTwo,
}

/// The types DataFusion casts the arguments to: the bytes as they are
/// when already one of the six types; a dictionary of them as its values;
/// `NULL` as `Binary`. The ruleset's name as it is, when a string.
pub(crate) fn coerce(
    function: &str,
    arity: Arity,
    arg_types: &[DataType],
) -> Result<Vec<DataType>> {
    let usage = match arity {
        Arity::One => "(bytes)",
        Arity::OneOrTwo => "(bytes [, ruleset])",
    };
    let (bytes, rest) = match (arity, arg_types) {
        (_, [bytes]) | (Arity::OneOrTwo, [bytes, _]) => (bytes, &arg_types[1..]),
        _ => {
            return plan_err!(
                "{function} takes {usage}, not {} arguments",
                arg_types.len()
            );
        }
    };
    let bytes = match bytes {
        t if INPUT_TYPES.contains(t) => t.clone(),
        DataType::Null => DataType::Binary,
        DataType::Dictionary(_, values) if INPUT_TYPES.contains(values) => values.as_ref().clone(),
        other => {
            return plan_err!(
                "{function} takes Binary, LargeBinary, BinaryView, Utf8, LargeUtf8 or Utf8View, not {other}"
            );
        }
    };
    let mut types = vec![bytes];
    for ruleset in rest {
        match ruleset {
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
                types.push(ruleset.clone())
            }
            other => {
                return plan_err!(
                    "{function}'s second argument names a ruleset: a string, not {other}"
                );
            }
        }
    }
    Ok(types)
}

/// The function's result field: `data_type`, nullable where the bytes are
/// (or always, for a function that returns null for valid rows too), once
/// the ruleset the call names is known.
pub(crate) fn return_field(
    function: &str,
    args: &ReturnFieldArgs<'_>,
    data_type: DataType,
    always_nullable: bool,
) -> Result<FieldRef> {
    ruleset::planned(function, args.scalar_arguments)?;
    let nullable = always_nullable || args.arg_fields.first().is_none_or(|f| f.is_nullable());
    Ok(Arc::new(Field::new(function, data_type, nullable)))
}

/// Runs `f` on the bytes argument: a column as it is, a literal as a
/// column of one row whose answer becomes a literal again.
pub(crate) fn on_bytes(
    args: &[ColumnarValue],
    f: impl FnOnce(&dyn Array) -> Result<ArrayRef>,
) -> Result<ColumnarValue> {
    match args.first() {
        Some(ColumnarValue::Array(array)) => Ok(ColumnarValue::Array(f(array.as_ref())?)),
        Some(ColumnarValue::Scalar(scalar)) => {
            let answer = f(scalar.to_array_of_size(1)?.as_ref())?;
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(
                &answer, 0,
            )?))
        }
        None => internal_err!("a call without arguments got past coerce_types"),
    }
}
