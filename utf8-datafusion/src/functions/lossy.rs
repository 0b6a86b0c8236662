//! `utf8_lossy(bytes)`.

use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{Result, internal_err};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility,
};

use crate::args::{self, Arity};
use crate::arrays;

/// `utf8_lossy(bytes)`: each row as a string, every invalid part replaced
/// by U+FFFD as `String::from_utf8_lossy` replaces it; null for a null
/// row. `Binary` and `Utf8` give `Utf8`, the large types `LargeUtf8`, the
/// view types `Utf8View`. Only valid rows' bytes are reused as they are.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> datafusion::error::Result<()> {
/// use datafusion::prelude::SessionContext;
/// let ctx = SessionContext::new();
/// utf8_datafusion::register(&ctx);
/// let batches = ctx.sql("SELECT utf8_lossy(X'636166C321') AS s").await?.collect().await?;
/// let table = datafusion::arrow::util::pretty::pretty_format_batches(&batches)?.to_string();
/// assert!(table.contains("| caf\u{FFFD}! |"), "{table}");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Utf8Lossy {
    signature: Signature,
}

impl Utf8Lossy {
    /// The function's name in SQL.
    pub const NAME: &str = "utf8_lossy";

    /// The function, to wrap in a [`ScalarUDF`](datafusion::logical_expr::ScalarUDF).
    pub fn new() -> Utf8Lossy {
        Utf8Lossy {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

impl Default for Utf8Lossy {
    fn default() -> Utf8Lossy {
        Utf8Lossy::new()
    }
}

impl ScalarUDFImpl for Utf8Lossy {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        args::coerce(Self::NAME, Arity::One, arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        internal_err!("{} answers return_field_from_args", Self::NAME)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        let input = args.arg_fields.first().map(|f| f.data_type().clone());
        let output = arrays::lossy_type(&input.unwrap_or(DataType::Binary))?;
        args::return_field(Self::NAME, &args, output, false)
    }

    fn is_strict(&self) -> bool {
        true
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        args::on_bytes(&args.args, arrays::lossy)
    }
}
