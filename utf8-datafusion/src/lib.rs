#![doc = include_str!("../README.md")]
//!
//! ## How it works
//!
//! Each call gets a batch of rows, and hands it to utf8-arrow's adapters
//! for arrow-rs 59 ([`utf8_arrow::arrow59`]), which hand the batch's own
//! buffers to one of utf8-core's [column layouts](utf8_core::column), which checks the
//! whole batch in a few long runs instead of a call per row, and still
//! answers for each row exactly as `core::str::from_utf8` would:
//!
//! | argument | column |
//! |---|---|
//! | `Binary`, `LargeBinary`, `Utf8`, `LargeUtf8` | [`Offsets`](utf8_core::column::Offsets): the batch's offsets over its values |
//! | `BinaryView`, `Utf8View` | [`Views`](utf8_core::column::Views): the batch's views over its data buffers |
//!
//! | function | from the column |
//! |---|---|
//! | `utf8_is_valid` | [`write_validity`](utf8_core::column::Column::write_validity): a bit per row |
//! | `utf8_error_offset` | [`invalid_rows`](utf8_core::column::Column::invalid_rows): each invalid row and its `valid_up_to` |
//! | `utf8_lossy` | `lossy`: a copy with the invalid rows repaired, made only when a row is invalid |
//!
//! The batch's null bitmap goes with it, so null rows are not checked,
//! whatever bytes they hold, and their answer is null. A literal argument
//! (`utf8_is_valid(X'C3')`) is checked as a column of one row.
//!
//! The second argument, where a function takes one, is a string literal
//! naming the ruleset ([`RulesetName`]); it is read when the query is
//! planned, so an unknown name fails before any data is read.

#![deny(unsafe_code)]
#![warn(missing_docs)]

use std::sync::Arc;

use datafusion::logical_expr::ScalarUDF;
use datafusion::prelude::SessionContext;

mod args;
mod functions;
pub mod parquet;
mod ruleset;

pub use functions::{Utf8ErrorOffset, Utf8IsValid, Utf8Lossy};
pub use ruleset::RulesetName;

/// The three functions, each as a [`ScalarUDF`]: what a
/// [`SessionStateBuilder`](datafusion::execution::SessionStateBuilder)
/// takes (`with_scalar_functions`), and what a cluster's scheduler and
/// executors register (see the README).
pub fn functions() -> Vec<Arc<ScalarUDF>> {
    vec![
        Arc::new(ScalarUDF::from(Utf8IsValid::new())),
        Arc::new(ScalarUDF::from(Utf8ErrorOffset::new())),
        Arc::new(ScalarUDF::from(Utf8Lossy::new())),
    ]
}

/// Registers `utf8_is_valid`, `utf8_error_offset` and `utf8_lossy` on
/// `ctx`, replacing any functions of those names.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> datafusion::error::Result<()> {
/// use datafusion::prelude::SessionContext;
/// let ctx = SessionContext::new();
/// utf8_datafusion::register(&ctx);
/// let df = ctx.sql("SELECT utf8_is_valid(X'FF')").await?;
/// assert_eq!(df.count().await?, 1);
/// # Ok(())
/// # }
/// ```
pub fn register(ctx: &SessionContext) {
    for function in functions() {
        ctx.register_udf(Arc::unwrap_or_clone(function));
    }
}
