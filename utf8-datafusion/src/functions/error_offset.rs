//! `utf8_error_offset(bytes [, ruleset])`.

use std::sync::Arc;

use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{Result, internal_err};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility,
};

use crate::args::{self, Arity};
use crate::arrays;
use crate::ruleset::RulesetName;

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
        let ruleset = RulesetName::invoked(Self::NAME, &args.args)?;
        args::on_bytes(&args.args, |bytes| {
            Ok(Arc::new(arrays::error_offsets(bytes, ruleset)?))
        })
    }
}
