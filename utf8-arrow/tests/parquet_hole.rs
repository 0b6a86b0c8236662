//! A Parquet string column that arrow-rs's reader hands over as a string
//! array although its rows are not UTF-8, and utf8-arrow naming the row.
//!
//! The column holds `caf\xC3`, `\xA9lait`, `ok`: "é" (`C3 A9`) cut between
//! rows 0 and 1. Back to back the values are valid UTF-8; neither of the
//! first two rows is. A reader that checks the values as one run, without
//! checking that each row starts on a character boundary, lets it through.
//!
//! The arrays read here are never read as `&str` (their `value` would
//! make a `&str` of invalid UTF-8): they go to utf8-arrow as `&dyn Array`,
//! which reads their bytes.

// The parquet crate here is arrow-rs 60's.
#![cfg(feature = "arrow-60")]

use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use utf8_arrow::{arrow_array, arrow_schema};

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::basic::Encoding;
use parquet::data_type::{ByteArray, ByteArrayType};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

const ROWS: [&[u8]; 3] = [b"caf\xC3", b"\xA9lait", b"ok"];

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let unique = format!(
            "utf8-arrow-{}-{}-{name}.parquet",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        TempFile(std::env::temp_dir().join(unique))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Writes `ROWS` as one `BYTE_ARRAY` column of logical type String, in
/// `encoding`, no dictionary: through the low-level writer, which takes
/// bytes (arrow's writer would need a string array, which cannot hold
/// them).
fn write(encoding: Encoding) -> TempFile {
    let file = TempFile::new(&format!("{encoding:?}"));
    let schema = parse_message_type("message hole { REQUIRED BYTE_ARRAY s (STRING); }").unwrap();
    let properties = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_encoding(encoding)
        .build();
    let sink = File::create(&file.0).unwrap();
    let mut writer =
        SerializedFileWriter::new(sink, Arc::new(schema), Arc::new(properties)).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let mut column = group.next_column().unwrap().unwrap();
    let values: Vec<ByteArray> = ROWS.iter().map(|r| ByteArray::from(r.to_vec())).collect();
    column
        .typed::<ByteArrayType>()
        .write_batch(&values, None, None)
        .unwrap();
    column.close().unwrap();
    group.close().unwrap();
    let metadata = writer.close().unwrap();
    let chunk = metadata.row_group(0).column(0);
    assert!(
        chunk.encodings().any(|e| e == encoding),
        "{:?}",
        chunk.encodings().collect::<Vec<_>>()
    );
    file
}

/// The column as arrow-rs's reader gives it, as `as_type` (inferred from
/// the file, `Utf8`, or given as a schema hint), or the reader's error.
fn read(file: &TempFile, as_type: DataType) -> Result<ArrayRef, ParquetError> {
    let schema = Schema::new(vec![Field::new("s", as_type.clone(), false)]);
    let options = ArrowReaderOptions::new().with_schema(Arc::new(schema));
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(File::open(&file.0)?, options)?;
    let mut reader = builder.build()?;
    let batch = reader.next().expect("one batch")?;
    let column = batch.column(0).clone();
    assert_eq!(column.data_type(), &as_type);
    assert_eq!(column.len(), ROWS.len());
    Ok(column)
}

/// utf8-arrow's verdict: row 0 ends inside "é".
fn assert_row_0_rejected(array: &dyn Array) {
    let e = utf8_arrow::validate(array).unwrap_err();
    assert_eq!(e.column_error().map(|e| e.row()), Some(0));
    let u = e.utf8_error().unwrap();
    assert_eq!((u.valid_up_to(), u.error_len()), (3, None));
    let valid: Vec<Option<bool>> = utf8_arrow::is_valid_utf8(array).unwrap().iter().collect();
    assert_eq!(valid, [Some(false), Some(false), Some(true)]);
    // Checked again into a string array that can be read: refused, or
    // repaired.
    let repaired: Vec<String> = match array.data_type() {
        DataType::Utf8 => {
            let strings = array.as_string::<i32>();
            assert_eq!(
                utf8_arrow::to_string_array(strings)
                    .unwrap_err()
                    .column_error()
                    .map(|e| e.row()),
                Some(0)
            );
            let repaired = utf8_arrow::to_string_array_lossy(strings).unwrap();
            repaired.iter().map(|s| s.unwrap().to_owned()).collect()
        }
        _ => {
            let strings = array.as_string_view();
            assert_eq!(
                utf8_arrow::to_string_view_array(strings)
                    .unwrap_err()
                    .column_error()
                    .map(|e| e.row()),
                Some(0)
            );
            let repaired = utf8_arrow::to_string_view_array_lossy(strings).unwrap();
            repaired.iter().map(|s| s.unwrap().to_owned()).collect()
        }
    };
    assert_eq!(repaired, ["caf\u{FFFD}", "\u{FFFD}lait", "ok"]);
}

#[test]
fn delta_length_byte_array_read_as_utf8_passes_arrow_rs_and_utf8_arrow_names_row_0() {
    let file = write(Encoding::DELTA_LENGTH_BYTE_ARRAY);
    let array = read(&file, DataType::Utf8).expect("arrow-rs accepts it");
    assert_row_0_rejected(array.as_ref());
}

#[test]
fn delta_length_byte_array_read_as_utf8_view_passes_arrow_rs_and_utf8_arrow_names_row_0() {
    let file = write(Encoding::DELTA_LENGTH_BYTE_ARRAY);
    let array = read(&file, DataType::Utf8View).expect("arrow-rs accepts it");
    assert_row_0_rejected(array.as_ref());
}

#[test]
fn delta_byte_array_read_as_utf8_view_passes_arrow_rs_and_utf8_arrow_names_row_0() {
    let file = write(Encoding::DELTA_BYTE_ARRAY);
    let array = read(&file, DataType::Utf8View).expect("arrow-rs accepts it");
    assert_row_0_rejected(array.as_ref());
}

#[test]
fn delta_byte_array_read_as_utf8_is_refused_by_arrow_rs() {
    let file = write(Encoding::DELTA_BYTE_ARRAY);
    let e = read(&file, DataType::Utf8).expect_err("arrow-rs checks each row's first byte here");
    assert!(e.to_string().contains("non UTF-8"), "{e}");
}

#[test]
fn plain_read_as_utf8_is_refused_by_arrow_rs() {
    let file = write(Encoding::PLAIN);
    let e = read(&file, DataType::Utf8).expect_err("arrow-rs checks each row's first byte here");
    assert!(e.to_string().contains("non UTF-8"), "{e}");
}

#[test]
fn plain_read_as_utf8_view_is_refused_by_arrow_rs() {
    let file = write(Encoding::PLAIN);
    let e = read(&file, DataType::Utf8View).expect_err("arrow-rs checks each row here");
    assert!(e.to_string().to_lowercase().contains("utf"), "{e}");
}
