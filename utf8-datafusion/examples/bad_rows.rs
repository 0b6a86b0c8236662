//! Finds the rows of a directory of Parquet files whose `name` column is
//! not UTF-8: `SELECT ... WHERE NOT utf8_is_valid(name)`.
//!
//! ```text
//! cargo run -p utf8-datafusion --example bad_rows [DIRECTORY]
//! ```
//!
//! Writes three Parquet files of names into DIRECTORY (a new folder under
//! the temporary directory when none is given), a few of them damaged,
//! registers the directory as a table, and prints the bad rows: where each
//! one's first error is, and the name as it would be shown.
//!
//! `cargo test` runs the test at the end of this file (the manifest builds
//! the example as a test), so the example cannot rot.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::array::{BinaryArray, Int64Array, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::dataframe::DataFrameWriteOptions;
use datafusion::error::Result;
use datafusion::prelude::{ParquetReadOptions, SessionContext};

/// Names as bytes, the way a system that never checked them stores them:
/// UTF-8 mostly, Latin-1 in places, one cut in the middle of a character.
const NAMES: [&[u8]; 9] = [
    b"Ana",
    b"Zo\xC3\xAB",
    b"Ren\xE9e",
    b"\xE5\x8C\x97\xE4\xBA\xAC",
    b"Bj\xC3",
    b"M\xFCller",
    b"\xF0\x9F\x92\x96 fan",
    b"",
    b"Ol\xC3\xA1",
];

/// Writes the names into `dir` as three Parquet files, with an `id` column
/// numbering them across files.
async fn write_files(ctx: &SessionContext, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("name", DataType::Binary, true),
    ]));
    for (file, names) in NAMES.chunks(3).enumerate() {
        let first = (file * 3) as i64;
        let ids = Int64Array::from_iter_values(first..first + names.len() as i64);
        let names = BinaryArray::from_iter_values(names);
        let batch =
            RecordBatch::try_new(Arc::clone(&schema), vec![Arc::new(ids), Arc::new(names)])?;
        let path = dir.join(format!("names-{file}.parquet"));
        ctx.read_batch(batch)?
            .write_parquet(
                path.to_str().expect("a UTF-8 path"),
                DataFrameWriteOptions::new().with_single_file_output(true),
                None,
            )
            .await?;
    }
    Ok(())
}

/// The query: each bad row's id, where its first error is, and its name
/// with the invalid parts replaced.
const QUERY: &str = "SELECT id, utf8_error_offset(name) AS error_at, utf8_lossy(name) AS shown \
                         FROM names WHERE NOT utf8_is_valid(name) ORDER BY id";

/// Registers the functions and the directory as the table `names`, and
/// runs [`QUERY`].
async fn bad_rows(ctx: &SessionContext, dir: &Path) -> Result<Vec<RecordBatch>> {
    utf8_datafusion::register(ctx);
    let dir = dir.to_str().expect("a UTF-8 path");
    ctx.register_parquet("names", dir, ParquetReadOptions::default())
        .await?;
    ctx.sql(QUERY).await?.collect().await
}

#[cfg_attr(test, allow(dead_code))]
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    let dir = match std::env::args_os().nth(1) {
        Some(dir) => PathBuf::from(dir),
        None => {
            std::env::temp_dir().join(format!("utf8-datafusion-bad-rows-{}", std::process::id()))
        }
    };
    let ctx = SessionContext::new();
    write_files(&ctx, &dir).await?;
    let bad = bad_rows(&ctx, &dir).await?;
    println!("{}: {QUERY}", dir.display());
    println!(
        "{}",
        datafusion::arrow::util::pretty::pretty_format_batches(&bad)?
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use datafusion::arrow::array::{Array, AsArray};
    use datafusion::arrow::datatypes::{DataType, Int64Type};
    use datafusion::prelude::SessionContext;

    #[tokio::test]
    async fn the_example_finds_the_rows_whose_names_are_not_utf8_in_a_directory_of_parquet_files() {
        let dir = std::env::temp_dir().join(format!(
            "utf8-datafusion-example-test-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let ctx = SessionContext::new();
        super::write_files(&ctx, &dir).await.unwrap();
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
        let batches = super::bad_rows(&ctx, &dir).await.unwrap();
        std::fs::remove_dir_all(&dir).unwrap();

        let mut found = vec![];
        for batch in &batches {
            let ids = batch.column(0).as_primitive::<Int64Type>();
            let at = batch.column(1).as_primitive::<Int64Type>();
            let shown = batch.column(2);
            for row in 0..batch.num_rows() {
                let shown = match shown.data_type() {
                    DataType::Utf8View => shown.as_string_view().value(row),
                    _ => shown.as_string::<i32>().value(row),
                };
                found.push((ids.value(row), at.value(row), shown.to_owned()));
            }
        }
        let expected = [
            (2, 3, "Ren\u{FFFD}e"),
            (4, 2, "Bj\u{FFFD}"),
            (5, 1, "M\u{FFFD}ller"),
        ];
        let expected: Vec<_> = expected
            .iter()
            .map(|&(i, a, s)| (i, a, s.to_owned()))
            .collect();
        assert_eq!(found, expected);
    }
}
