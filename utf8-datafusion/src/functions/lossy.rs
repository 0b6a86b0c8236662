//! `utf8_lossy(bytes)`.

use datafusion::arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{Result, internal_err};
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility,
};

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::common::exec_err;
use utf8_arrow::arrow59::{to_string_array_lossy, to_string_view_array_lossy};

use crate::args::{self, Arity, arrow_error};

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
        let output = lossy_type(&input.unwrap_or(DataType::Binary))?;
        args::return_field(Self::NAME, &args, output, false)
    }

    fn is_strict(&self) -> bool {
        true
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        args::on_bytes(&args.args, lossy)
    }
}

/// The array as a string array of the matching width (`Binary` and `Utf8`
/// to `Utf8`, the large ones to `LargeUtf8`, the views to `Utf8View`), each
/// invalid part replaced by U+FFFD as `String::from_utf8_lossy` does, by
/// utf8-arrow's lossy conversions. Null rows stay null (their bytes are
/// repaired too: a string array holds UTF-8 in every slot).
fn lossy(array: &dyn Array) -> Result<ArrayRef> {
    Ok(match array.data_type() {
        DataType::Binary => {
            Arc::new(to_string_array_lossy(array.as_binary::<i32>()).map_err(arrow_error)?)
        }
        DataType::Utf8 => {
            Arc::new(to_string_array_lossy(array.as_string::<i32>()).map_err(arrow_error)?)
        }
        DataType::LargeBinary => {
            Arc::new(to_string_array_lossy(array.as_binary::<i64>()).map_err(arrow_error)?)
        }
        DataType::LargeUtf8 => {
            Arc::new(to_string_array_lossy(array.as_string::<i64>()).map_err(arrow_error)?)
        }
        DataType::BinaryView => {
            Arc::new(to_string_view_array_lossy(array.as_binary_view()).map_err(arrow_error)?)
        }
        DataType::Utf8View => {
            Arc::new(to_string_view_array_lossy(array.as_string_view()).map_err(arrow_error)?)
        }
        other => return unsupported(other),
    })
}

/// The string type [`lossy`] returns for `input`.
fn lossy_type(input: &DataType) -> Result<DataType> {
    Ok(match input {
        DataType::Binary | DataType::Utf8 => DataType::Utf8,
        DataType::LargeBinary | DataType::LargeUtf8 => DataType::LargeUtf8,
        DataType::BinaryView | DataType::Utf8View => DataType::Utf8View,
        other => return unsupported(other),
    })
}

fn unsupported<T>(data_type: &DataType) -> Result<T> {
    exec_err!(
        "utf8-datafusion checks Binary, LargeBinary, BinaryView, Utf8, LargeUtf8 and Utf8View arrays, not {data_type}"
    )
}
