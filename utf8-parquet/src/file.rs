//! Opening a Parquet file for the check: its footer read once, its byte
//! array columns chosen, and a reader per row group that hands their values
//! over as bytes, unchecked.
//!
//! The parquet crate's Arrow reader checks the values of a column annotated
//! as a string itself, and stops at the first bad one with no row. So the
//! schema the reader is given is the file's with every `BYTE_ARRAY` leaf's
//! annotation taken off: it reads them as `Binary`, and nothing but this
//! check judges them. A leaf whose column chunks are dictionary-encoded
//! throughout is read as a dictionary, so that each dictionary is checked
//! once.

use std::fs::File;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    ParquetRecordBatchReaderBuilder,
};
use parquet::basic::{Compression, ConvertedType, Encoding, LogicalType, Type as PhysicalType};
use parquet::file::metadata::{
    ColumnChunkMetaData, FileMetaData, ParquetMetaData, ParquetMetaDataReader,
};
use parquet::file::reader::{ChunkReader, Length};
use parquet::schema::types::{SchemaDescriptor, Type, TypePtr};

use super::delta::check_delta_pages;
use super::footer::{ChunkPlace, check_file_metadata, chunk_range, footer_length};
use super::pages::{Codec, check_pages};
use super::reader::{Positional, RowGroupBytes};

/// How many rows a batch holds: the memory a row group's check holds at
/// once is a batch of each checked column, not the row group.
const BATCH_ROWS: usize = 1024;

/// A byte array column of the file that is checked.
pub struct Leaf {
    /// Its path in the schema, dot-joined (`tags.list.element`).
    pub path: String,
}

/// An open Parquet file, ready to read its checked columns a row group at
/// a time.
pub struct ParquetFile {
    reader: Positional,
    metadata: ArrowReaderMetadata,
    /// The reader's view with no leaf read as a dictionary, for a row group
    /// where a chunk read as one has an empty dictionary.
    plain: ArrowReaderMetadata,
    projection: ProjectionMask,
    /// The checked leaves, in the order the reader's batches hold them.
    pub leaves: Vec<Leaf>,
    /// Their indices among the schema's leaves.
    leaf_indices: Vec<usize>,
    /// Each row group's first row, counted from the file's start, and one
    /// past the last group's last row.
    pub row_group_starts: Vec<u64>,
    /// By row group, each checked leaf's column chunk: where its bytes lie.
    chunks: Vec<Vec<(u64, u64)>>,
}

impl ParquetFile {
    /// Reads the footer of `file` and chooses its byte array columns
    /// (annotated as text only, if `strings_only`). The error says what in
    /// the footer is wrong, or is the parquet crate's message.
    pub fn open(file: File, strings_only: bool) -> Result<ParquetFile, String> {
        let reader = Positional::new(file).map_err(|e| e.to_string())?;
        let footer_start = check_footer(&reader)?;
        let metadata = ParquetMetaDataReader::new()
            .parse_and_finish(&reader)
            .map_err(|e| e.to_string())?;
        let schema = metadata.file_metadata().schema_descr();
        let mut leaves = Vec::new();
        let mut leaf_indices = Vec::new();
        // By the schema's leaf index: checked and dictionary-encoded.
        let mut dictionary_encoded = vec![false; schema.num_columns()];
        for (index, column) in schema.columns().iter().enumerate() {
            if column.physical_type() != PhysicalType::BYTE_ARRAY
                || (strings_only && !annotated_as_text(column.self_type()))
            {
                continue;
            }
            leaves.push(Leaf {
                path: column.path().string(),
            });
            leaf_indices.push(index);
            dictionary_encoded[index] = metadata
                .row_groups()
                .iter()
                .all(|group| all_dictionary_encoded(group.column(index)));
        }
        let mut row_group_starts = vec![0u64];
        let mut chunks = Vec::with_capacity(metadata.num_row_groups());
        for (index, group) in metadata.row_groups().iter().enumerate() {
            let rows = u64::try_from(group.num_rows())
                .map_err(|_| format!("row group {index}: {} rows", group.num_rows()))?;
            row_group_starts
                .push(row_group_starts[row_group_starts.len() - 1].saturating_add(rows));
            let ranges = leaf_indices
                .iter()
                .zip(&leaves)
                .map(|(&leaf, Leaf { path })| {
                    chunk_range(&place(group.column(leaf)), footer_start)
                        .map_err(|e| format!("row group {index}, column {path}: {e}"))
                })
                .collect::<Result<_, _>>()?;
            chunks.push(ranges);
        }
        let bytes_as_binary = Arc::new(unannotated(&metadata));
        let projection = ProjectionMask::leaves(
            bytes_as_binary.file_metadata().schema_descr(),
            leaf_indices.iter().copied(),
        );
        let (plain, metadata) = reader_metadata(bytes_as_binary, &dictionary_encoded)?;
        Ok(ParquetFile {
            reader,
            metadata,
            plain,
            projection,
            leaves,
            leaf_indices,
            row_group_starts,
            chunks,
        })
    }

    /// How many row groups the file has.
    pub fn row_groups(&self) -> usize {
        self.row_group_starts.len() - 1
    }

    /// A reader of the checked columns of row group `group`, a batch at a
    /// time: their chunks read whole and their pages walked first, so that
    /// the memory it holds is bounded by the chunks' own size.
    pub fn row_group(&self, group: usize) -> Result<ParquetRecordBatchReader, String> {
        let metadata = self.metadata.metadata().row_group(group);
        let mut chunks = Vec::with_capacity(self.leaves.len());
        let mut empty_dictionary = false;
        for ((&(start, len), leaf), &index) in self.chunks[group]
            .iter()
            .zip(&self.leaves)
            .zip(&self.leaf_indices)
        {
            let chunk = metadata.column(index);
            let rows = usize::try_from(metadata.num_rows()).unwrap_or(0);
            let bytes = usize::try_from(len)
                .map_err(|_| format!("column {}: a chunk of {len} bytes", leaf.path))
                .and_then(|len| self.reader.get_bytes(start, len).map_err(|e| e.to_string()))
                .and_then(|bytes| {
                    let walked =
                        check_pages(&bytes, codec(chunk.compression()), Some(chunk.num_values()))?;
                    empty_dictionary |= walked.empty_dictionary;
                    if walked.delta_byte_arrays {
                        let held = RowGroupBytes {
                            file: self.reader.clone(),
                            chunks: vec![(start, bytes.clone())],
                        };
                        check_delta_pages(held, chunk, rows)?;
                    }
                    Ok(bytes)
                })
                .map_err(|e| format!("column {}: {e}", leaf.path))?;
            chunks.push((start, bytes));
        }
        let held = RowGroupBytes {
            file: self.reader.clone(),
            chunks,
        };
        // Statistics that said so chose plain values for an all-null
        // chunk already; this is for a file without them, or that lies.
        let view = if empty_dictionary {
            &self.plain
        } else {
            &self.metadata
        };
        ParquetRecordBatchReaderBuilder::new_with_metadata(held, view.clone())
            .with_row_groups(vec![group])
            .with_projection(self.projection.clone())
            .with_batch_size(BATCH_ROWS)
            .build()
            .map_err(|e| e.to_string())
    }
}

/// Where the footer begins, its length checked against the file and its
/// Thrift walked: the bytes before it hold the row groups.
fn check_footer(file: &Positional) -> Result<u64, String> {
    let len = file.len();
    let mut tail = [0; 8];
    if len >= 8 {
        tail.copy_from_slice(&file.read_exact_at(len - 8, 8)?);
    }
    let footer_len = footer_length(len, &tail)?;
    let start = len - 8 - footer_len;
    let footer = file.read_exact_at(start, footer_len as usize)?;
    check_file_metadata(&footer).map_err(|e| format!("its footer: {e}"))?;
    Ok(start)
}

/// A column chunk's place, as the walk reads it.
fn place(chunk: &ColumnChunkMetaData) -> ChunkPlace {
    ChunkPlace {
        dictionary_page_offset: chunk.dictionary_page_offset(),
        data_page_offset: chunk.data_page_offset(),
        compressed_size: chunk.compressed_size(),
        num_values: chunk.num_values(),
    }
}

/// The walk's name of the parquet crate's codec.
fn codec(compression: Compression) -> Codec {
    match compression {
        Compression::UNCOMPRESSED => Codec::Uncompressed,
        Compression::SNAPPY => Codec::Snappy,
        Compression::GZIP(_) => Codec::Gzip,
        Compression::LZO => Codec::Lzo,
        Compression::BROTLI(_) => Codec::Brotli,
        Compression::LZ4 => Codec::Lz4,
        Compression::ZSTD(_) => Codec::Zstd,
        Compression::LZ4_RAW => Codec::Lz4Raw,
    }
}

/// Whether every data page of a column chunk is dictionary-encoded, as the
/// footer's page encoding statistics tell (the parquet crate's own test).
/// Read as a dictionary, such a chunk's values are its dictionary's; a
/// chunk whose writer fell back to plain pages would have the reader build
/// a dictionary of each batch by hashing its values, slower than reading
/// them as they are. Without statistics, a chunk is read as plain values.
fn all_dictionary_encoded(chunk: &ColumnChunkMetaData) -> bool {
    let declared_all_null = chunk
        .statistics()
        .and_then(|statistics| statistics.null_count_opt())
        .is_some_and(|nulls| i64::try_from(nulls).is_ok_and(|nulls| nulls >= chunk.num_values()));
    !declared_all_null
        && chunk.dictionary_page_offset().is_some()
        && chunk.page_encoding_stats_mask().is_some_and(|mask| {
            mask.is_only(Encoding::PLAIN_DICTIONARY) || mask.is_only(Encoding::RLE_DICTIONARY)
        })
}

/// Whether a byte array leaf is annotated as text: a string, an enum's
/// name or JSON, each UTF-8 by Parquet's format.
fn annotated_as_text(leaf: &Type) -> bool {
    let info = leaf.get_basic_info();
    matches!(
        info.logical_type_ref(),
        Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
    ) || matches!(
        info.converted_type(),
        ConvertedType::UTF8 | ConvertedType::ENUM | ConvertedType::JSON
    )
}

/// The file's metadata with every byte array leaf's annotation taken off.
fn unannotated(metadata: &ParquetMetaData) -> ParquetMetaData {
    let file = metadata.file_metadata();
    let root = without_text_annotations(file.schema_descr().root_schema_ptr());
    let file = FileMetaData::new(
        file.version(),
        file.num_rows(),
        file.created_by().map(str::to_owned),
        None,
        Arc::new(SchemaDescriptor::new(root)),
        file.column_orders().cloned(),
    );
    ParquetMetaData::new(file, metadata.row_groups().to_vec())
}

fn without_text_annotations(node: TypePtr) -> TypePtr {
    let info = node.get_basic_info();
    let rebuilt = match node.as_ref() {
        Type::PrimitiveType { physical_type, .. } => {
            if *physical_type != PhysicalType::BYTE_ARRAY {
                return node;
            }
            let mut leaf = Type::primitive_type_builder(info.name(), *physical_type)
                .with_id(info.has_id().then(|| info.id()));
            if info.has_repetition() {
                leaf = leaf.with_repetition(info.repetition());
            }
            leaf.build()
        }
        Type::GroupType { fields, .. } => {
            let mut group = Type::group_type_builder(info.name())
                .with_converted_type(info.converted_type())
                .with_logical_type(info.logical_type_ref().cloned())
                .with_id(info.has_id().then(|| info.id()))
                .with_fields(
                    fields
                        .iter()
                        .map(|field| without_text_annotations(Arc::clone(field)))
                        .collect(),
                );
            if info.has_repetition() {
                group = group.with_repetition(info.repetition());
            }
            group.build()
        }
    };
    // The builders refuse only what the file's own schema already passed.
    Arc::new(rebuilt.expect("a schema node rebuilt from a valid one"))
}

/// The Arrow reader's views of the unannotated file: byte array leaves as
/// `Binary`, and beside it the dictionary-encoded ones as dictionaries of
/// `Binary` where the reader takes that.
fn reader_metadata(
    metadata: Arc<ParquetMetaData>,
    dictionary_encoded: &[bool],
) -> Result<(ArrowReaderMetadata, ArrowReaderMetadata), String> {
    let options = ArrowReaderOptions::new().with_skip_arrow_metadata(true);
    let plain = ArrowReaderMetadata::try_new(Arc::clone(&metadata), options.clone())
        .map_err(|e| e.to_string())?;
    if !dictionary_encoded.contains(&true) {
        return Ok((plain.clone(), plain));
    }
    let mut leaf = 0;
    let fields: Fields = plain
        .schema()
        .fields()
        .iter()
        .map(|field| with_dictionaries(field, dictionary_encoded, &mut leaf))
        .collect();
    let hinted = Schema::new_with_metadata(fields, plain.schema().metadata().clone());
    // A reader that turns the hint down is left with plain `Binary` leaves:
    // the same rows checked, each dictionary entry at every use.
    let hinted = ArrowReaderMetadata::try_new(metadata, options.with_schema(Arc::new(hinted)))
        .unwrap_or_else(|_| plain.clone());
    Ok((plain, hinted))
}

/// `field` with each byte array leaf that `dictionary_encoded` marks read
/// as a dictionary; `leaf` counts the schema's leaves in order, as the
/// Arrow schema holds them in the order of Parquet's.
fn with_dictionaries(
    field: &Arc<Field>,
    dictionary_encoded: &[bool],
    leaf: &mut usize,
) -> Arc<Field> {
    let mut nested = |child: &Arc<Field>| with_dictionaries(child, dictionary_encoded, leaf);
    let data_type = match field.data_type() {
        DataType::List(child) => DataType::List(nested(child)),
        DataType::LargeList(child) => DataType::LargeList(nested(child)),
        DataType::FixedSizeList(child, size) => DataType::FixedSizeList(nested(child), *size),
        DataType::Struct(children) => DataType::Struct(children.iter().map(nested).collect()),
        DataType::Map(entries, sorted) => DataType::Map(nested(entries), *sorted),
        other => {
            *leaf += 1;
            let encoded = dictionary_encoded.get(*leaf - 1).copied().unwrap_or(false);
            if encoded && matches!(other, DataType::Binary | DataType::LargeBinary) {
                DataType::Dictionary(Box::new(DataType::Int32), Box::new(other.clone()))
            } else {
                other.clone()
            }
        }
    };
    Arc::new(field.as_ref().clone().with_data_type(data_type))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::{EnabledStatistics, WriterProperties};
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;

    /// A file of one string column of `values`, the writer's dictionary
    /// limited to `dictionary_bytes`.
    fn written(values: &[Vec<u8>], dictionary_bytes: usize) -> File {
        let schema = parse_message_type("message m { REQUIRED BYTE_ARRAY s (STRING); }").unwrap();
        let properties = WriterProperties::builder()
            .set_dictionary_page_size_limit(dictionary_bytes)
            .set_data_page_row_count_limit(16)
            .set_write_batch_size(16)
            .build();
        let file = tempfile::tempfile().unwrap();
        let mut writer = SerializedFileWriter::new(
            file.try_clone().unwrap(),
            Arc::new(schema),
            Arc::new(properties),
        )
        .unwrap();
        let mut group = writer.next_row_group().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        let values: Vec<ByteArray> = values.iter().map(|v| ByteArray::from(v.clone())).collect();
        column
            .typed::<ByteArrayType>()
            .write_batch(&values, None, None)
            .unwrap();
        column.close().unwrap();
        group.close().unwrap();
        writer.close().unwrap();
        file
    }

    /// A file of one optional string column of `rows` nulls, written with
    /// a dictionary, and with statistics if `statistics`.
    fn written_null(rows: usize, statistics: bool) -> File {
        let schema = parse_message_type("message m { OPTIONAL BYTE_ARRAY s (STRING); }").unwrap();
        let file = tempfile::tempfile().unwrap();
        let mut writer = SerializedFileWriter::new(
            file.try_clone().unwrap(),
            Arc::new(schema),
            Arc::new(
                WriterProperties::builder()
                    .set_statistics_enabled(if statistics {
                        EnabledStatistics::Chunk
                    } else {
                        EnabledStatistics::None
                    })
                    .build(),
            ),
        )
        .unwrap();
        let mut group = writer.next_row_group().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&[], Some(&vec![0; rows]), None)
            .unwrap();
        column.close().unwrap();
        group.close().unwrap();
        writer.close().unwrap();
        file
    }

    fn read_as(file: File) -> DataType {
        let parquet = ParquetFile::open(file, false).unwrap();
        let batch = parquet.row_group(0).unwrap().next().unwrap().unwrap();
        batch.column(0).data_type().clone()
    }

    #[test]
    fn a_column_dictionary_encoded_throughout_is_read_as_a_dictionary_of_bytes() {
        let values: Vec<Vec<u8>> = (0..200).map(|i| vec![b'a' + (i % 3) as u8]).collect();
        assert_eq!(
            read_as(written(&values, 1 << 20)),
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Binary))
        );
    }

    #[test]
    fn a_column_of_nulls_alone_is_read_as_bytes_not_as_an_empty_dictionary() {
        // Told by the statistics, or found by the page walk without them.
        for statistics in [true, false] {
            let file = written_null(300, statistics);
            let parquet = ParquetFile::open(file.try_clone().unwrap(), false).unwrap();
            let batch = parquet.row_group(0).unwrap().next().unwrap().unwrap();
            assert_eq!(batch.column(0).null_count(), 300);
            assert_eq!(read_as(file), DataType::Binary, "statistics: {statistics}");
        }
    }

    #[test]
    fn a_column_whose_writer_fell_back_to_plain_pages_is_read_as_bytes() {
        let values: Vec<Vec<u8>> = (0..200u32).map(|i| i.to_be_bytes().to_vec()).collect();
        assert_eq!(read_as(written(&values, 64)), DataType::Binary);
    }
}
