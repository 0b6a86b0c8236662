//! Parquet files written as a foreign writer would: the `parquet` crate's
//! low-level writer, which takes bytes whatever the column's type says.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use datafusion::parquet::basic::Encoding;
use datafusion::parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
use datafusion::parquet::file::properties::WriterProperties;
use datafusion::parquet::file::writer::SerializedFileWriter;
use datafusion::parquet::schema::parser::parse_message_type;
use datafusion::parquet::schema::types::ColumnPath;

/// A folder in the temporary directory, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new() -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "utf8-datafusion-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn url(&self) -> String {
        format!("{}/", self.0.display())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One leaf column of one row group: its values and levels.
pub enum Leaf {
    Ids(Vec<i64>),
    Bytes {
        values: Vec<Vec<u8>>,
        definition: Option<Vec<i16>>,
        repetition: Option<Vec<i16>>,
    },
}

pub fn strings(values: &[&[u8]]) -> Leaf {
    Leaf::Bytes {
        values: values.iter().map(|v| v.to_vec()).collect(),
        definition: Some(vec![1; values.len()]),
        repetition: None,
    }
}

/// Writes row groups of leaves in `schema`'s order, without a
/// dictionary, the column `s` in `encoding`.
pub fn write(path: &Path, schema: &str, encoding: Encoding, groups: &[Vec<Leaf>]) {
    let properties = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_column_encoding(ColumnPath::from("s"), encoding)
        .build();
    write_with(path, schema, properties, groups);
}

/// Writes row groups of leaves in `schema`'s order.
pub fn write_with(path: &Path, schema: &str, properties: WriterProperties, groups: &[Vec<Leaf>]) {
    let schema = Arc::new(parse_message_type(schema).unwrap());
    let sink = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(sink, schema, Arc::new(properties)).unwrap();
    for leaves in groups {
        let mut group = writer.next_row_group().unwrap();
        for leaf in leaves {
            let mut column = group.next_column().unwrap().unwrap();
            match leaf {
                Leaf::Ids(ids) => {
                    column
                        .typed::<Int64Type>()
                        .write_batch(ids, None, None)
                        .unwrap();
                }
                Leaf::Bytes {
                    values,
                    definition,
                    repetition,
                } => {
                    let values: Vec<ByteArray> =
                        values.iter().map(|v| ByteArray::from(v.clone())).collect();
                    column
                        .typed::<ByteArrayType>()
                        .write_batch(&values, definition.as_deref(), repetition.as_deref())
                        .unwrap();
                }
            }
            column.close().unwrap();
        }
        group.close().unwrap();
    }
    writer.close().unwrap();
}
