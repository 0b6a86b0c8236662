//! `utf8_is_valid(bytes [, ruleset])`.

use std::sync::Arc;

use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{Result, internal_err};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility,
};

use datafusion::arrow::array::{Array, BooleanArray};
use utf8_arrow::arrow59::Utf8ArrowError;
use utf8_core::Ruleset;
use utf8_core::named::{RulesetName, WithRuleset};

use crate::args::{self, Arity};
use crate::ruleset;

/// `utf8_is_valid(bytes [, ruleset])`: for each row, `true` when its bytes
/// are valid under the ruleset (RFC 3629's UTF-8, what
/// `core::str::from_utf8` accepts, unless another is named), `false` when
/// not, null when the row is null.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> datafusion::error::Result<()> {
/// use datafusion::prelude::SessionContext;
/// let ctx = SessionContext::new();
/// utf8_datafusion::register(&ctx);
/// let batches = ctx
///     .sql("SELECT utf8_is_valid(X'C3A9') AS a, utf8_is_valid(X'C3') AS b, \
///           utf8_is_valid(X'EDA0BDEDB296', 'cesu8') AS c")
///     .await?
///     .collect()
///     .await?;
/// let table = datafusion::arrow::util::pretty::pretty_format_batches(&batches)?.to_string();
/// assert!(table.contains("| true | false | true |"), "{table}");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Utf8IsValid {
    signature: Signature,
}

impl Utf8IsValid {
    /// The function's name in SQL.
    pub const NAME: &str = "utf8_is_valid";

    /// The function, to wrap in a [`ScalarUDF`](datafusion::logical_expr::ScalarUDF).
    pub fn new() -> Utf8IsValid {
        Utf8IsValid {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

impl Default for Utf8IsValid {
    fn default() -> Utf8IsValid {
        Utf8IsValid::new()
    }
}

impl ScalarUDFImpl for Utf8IsValid {
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
        args::return_field(Self::NAME, &args, DataType::Boolean, false)
    }

    fn is_strict(&self) -> bool {
        true
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let ruleset = ruleset::invoked(Self::NAME, &args.args)?;
        args::on_bytes(&args.args, |bytes| Ok(Arc::new(is_valid(bytes, ruleset)?)))
    }
}

/// Whether each row is valid under `ruleset`: `true`, `false`, or null for
/// a null row (utf8-arrow's `is_valid_utf8_as`, one pass for a valid views batch).
fn is_valid(array: &dyn Array, ruleset: RulesetName) -> Result<BooleanArray> {
    struct IsValid<'a>(&'a dyn Array);

    impl WithRuleset for IsValid<'_> {
        type Output = std::result::Result<BooleanArray, Utf8ArrowError>;
        fn call<R: Ruleset>(self) -> Self::Output {
            utf8_arrow::arrow59::is_valid_utf8_as::<R>(self.0)
        }
    }

    ruleset.with(IsValid(array)).map_err(args::arrow_error)
}
