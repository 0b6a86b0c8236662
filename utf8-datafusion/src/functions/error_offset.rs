//! `utf8_error_offset(bytes [, ruleset])`.

use std::sync::Arc;

use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{Result, internal_err};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility,
};

use datafusion::arrow::array::{Array, Int64Array};
use datafusion::arrow::buffer::{BooleanBuffer, Buffer, NullBuffer, ScalarBuffer};
use utf8_arrow::arrow59::Utf8ArrowError;
use utf8_core::Ruleset;
use utf8_core::named::{RulesetName, WithRuleset};

use crate::args::{self, Arity};
use crate::ruleset;

/// `utf8_error_offset(bytes [, ruleset])`: for each invalid row, where its
/// first error is: the length of its longest valid prefix, the
/// `valid_up_to` of `core::str::from_utf8`'s error (an `Int64`). Null for a
/// valid row and for a null one.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> datafusion::error::Result<()> {
/// use datafusion::prelude::SessionContext;
/// let ctx = SessionContext::new();
/// utf8_datafusion::register(&ctx);
/// let batches = ctx
///     .sql("SELECT utf8_error_offset(X'636166C3') AS bad, utf8_error_offset('café') AS good")
///     .await?
///     .collect()
///     .await?;
/// let table = datafusion::arrow::util::pretty::pretty_format_batches(&batches)?.to_string();
/// assert!(table.contains("| 3   |      |"), "{table}");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Utf8ErrorOffset {
    signature: Signature,
}

impl Utf8ErrorOffset {
    /// The function's name in SQL.
    pub const NAME: &str = "utf8_error_offset";

    /// The function, to wrap in a [`ScalarUDF`](datafusion::logical_expr::ScalarUDF).
    pub fn new() -> Utf8ErrorOffset {
        Utf8ErrorOffset {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

impl Default for Utf8ErrorOffset {
    fn default() -> Utf8ErrorOffset {
        Utf8ErrorOffset::new()
    }
}

impl ScalarUDFImpl for Utf8ErrorOffset {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        args::coerce(Self::NAME, Arity::OneOrTwo, arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        internal_err!("{} answers return_field_from_args", Self::NAME)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        args::return_field(Self::NAME, &args, DataType::Int64, true)
    }

    fn is_strict(&self) -> bool {
        true
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let ruleset = ruleset::invoked(Self::NAME, &args.args)?;
        args::on_bytes(&args.args, |bytes| {
            Ok(Arc::new(error_offsets(bytes, ruleset)?))
        })
    }
}

/// Each invalid row's `valid_up_to` (the length of its longest valid
/// prefix), null for a valid or null row (from utf8-arrow's
/// `invalid_rows_as`, one pass for a valid views batch).
fn error_offsets(array: &dyn Array, ruleset: RulesetName) -> Result<Int64Array> {
    struct InvalidRows<'a>(&'a dyn Array);

    impl WithRuleset for InvalidRows<'_> {
        type Output = std::result::Result<utf8_arrow::arrow59::InvalidRows, Utf8ArrowError>;
        fn call<R: Ruleset>(self) -> Self::Output {
            utf8_arrow::arrow59::invalid_rows_as::<R>(self.0)
        }
    }

    let invalid = ruleset
        .with(InvalidRows(array))
        .map_err(args::arrow_error)?;
    if invalid.len() == 0 {
        return Ok(Int64Array::new_null(array.len()));
    }
    let mut offsets = vec![0i64; array.len()];
    let mut valid = vec![0u8; array.len().div_ceil(8)];
    for (row, e) in invalid {
        offsets[row] = i64::try_from(e.valid_up_to()).expect("a row is shorter than 2^63 bytes");
        valid[row / 8] |= 1 << (row % 8);
    }
    let nulls = NullBuffer::new(BooleanBuffer::new(Buffer::from_vec(valid), 0, array.len()));
    Ok(Int64Array::new(ScalarBuffer::from(offsets), Some(nulls)))
}
