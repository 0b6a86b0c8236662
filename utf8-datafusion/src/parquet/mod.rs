//! A checked Parquet read: Parquet files as a table whose string columns
//! are read from the file as bytes, never as unchecked strings, and checked
//! by utf8-core's column check before any operator sees them.
//!
//! DataFusion's own read trusts what a file's schema says: a `STRING`
//! column is read as strings, and the Parquet reader's check of their bytes
//! has holes (a character cut across two values of a `DELTA_BYTE_ARRAY`
//! page passes it), so a bad file can make a query read past a string's
//! end. This read asks the reader for bytes, checks every batch as it
//! leaves the reader, and hands on string arrays over the same buffers.
//!
//! | stage | what it does |
//! |---|---|
//! | `walk` | each footer and page walked before the reader parses or decodes it (utf8-parquet's walks) |
//! | `footer` | each file's footer without its string annotations, so the reader reads bytes |
//! | `source` | DataFusion's Parquet source, wrapped: every batch of every file checked, the file named |
//! | `batch` | the check and conversion of one batch; the error naming file, column, row and byte |
//! | `table` | the table: listing, partitions, projection, pruning |

use std::collections::HashMap;
use std::sync::Arc;

use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::datasource::listing::ListingTableUrl;
use datafusion::prelude::SessionContext;

mod batch;
mod contain;
mod footer;
mod source;
mod table;
mod types;
mod walk;

pub use batch::InvalidValue;
pub use contain::ReaderPanic;
pub use table::CheckedParquetTable;

/// What a checked read does with a value that is not UTF-8 (utf8-arrow's,
/// whose conversion the read runs): `Fail` (the default) fails the query
/// with an [`InvalidValue`] naming the file, the column, the row and the
/// byte, and checks the string columns the query does not read too, so
/// that `SELECT count(*)` fails; `Null` makes the value null (in a list,
/// the element); `Replace` puts U+FFFD for each invalid part, valid values
/// not copied.
pub use utf8_arrow::arrow59::OnInvalid;

/// The options of a checked Parquet read, in the shape of DataFusion's
/// `ParquetReadOptions`.
#[derive(Clone, Debug)]
pub struct CheckedParquetOptions {
    on_invalid: OnInvalid,
    columns: HashMap<String, OnInvalid>,
    table_partition_cols: Vec<(String, DataType)>,
    file_extension: String,
}

impl Default for CheckedParquetOptions {
    fn default() -> Self {
        Self {
            on_invalid: OnInvalid::Fail,
            columns: HashMap::new(),
            table_partition_cols: Vec::new(),
            file_extension: ".parquet".to_owned(),
        }
    }
}

impl CheckedParquetOptions {
    /// Options that fail the query on the first bad value.
    pub fn new() -> Self {
        Self::default()
    }

    /// What becomes of bad values in every column not named by
    /// [`column`](Self::column).
    pub fn on_invalid(mut self, on_invalid: OnInvalid) -> Self {
        self.on_invalid = on_invalid;
        self
    }

    /// What becomes of bad values in the top-level column `name` (and
    /// every string nested in it).
    pub fn column(mut self, name: impl Into<String>, on_invalid: OnInvalid) -> Self {
        self.columns.insert(name.into(), on_invalid);
        self
    }

    /// Hive-style partition columns (`year=2026/`), as DataFusion's
    /// `ParquetReadOptions::table_partition_cols`.
    pub fn table_partition_cols(mut self, columns: Vec<(String, DataType)>) -> Self {
        self.table_partition_cols = columns;
        self
    }

    /// The extension of the files read in a folder (`.parquet`).
    pub fn file_extension(mut self, extension: impl Into<String>) -> Self {
        self.file_extension = extension.into();
        self
    }
}

/// Registers the Parquet files at `path` (a file, or a folder read whole)
/// as the table `name`, read with their string columns checked: as
/// `SessionContext::register_parquet`, for files that may hold bytes that
/// are not UTF-8 where their schema says strings.
///
/// ```no_run
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> datafusion::error::Result<()> {
/// use datafusion::prelude::SessionContext;
/// use utf8_datafusion::parquet::{CheckedParquetOptions, OnInvalid};
/// let ctx = SessionContext::new();
/// let options = CheckedParquetOptions::new().column("comment", OnInvalid::Replace);
/// utf8_datafusion::parquet::register_checked_parquet(&ctx, "orders", "data/orders/", options).await?;
/// ctx.sql("SELECT upper(comment) FROM orders").await?.show().await?;
/// # Ok(())
/// # }
/// ```
pub async fn register_checked_parquet(
    ctx: &SessionContext,
    name: &str,
    path: &str,
    options: CheckedParquetOptions,
) -> Result<()> {
    let state = ctx.state();
    let url = ListingTableUrl::parse(path)?;
    // The footers are read here; the reader's errors do not name the file.
    let table = CheckedParquetTable::try_new(&state, vec![url], options)
        .await
        .map_err(|e| {
            e.context(format!(
                "{path}: the Parquet files' footers could not be read"
            ))
        })?;
    ctx.register_table(name, Arc::new(table))?;
    Ok(())
}
