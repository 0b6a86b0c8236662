//! utf8-parquet's walks of a file's footer and pages, run on the bytes the
//! Parquet reader fetches before it parses or decodes them: the parquet
//! crate's reader allocates what a footer or page header declares, and
//! skips a Thrift field's declared length a failed read at a time, so a
//! file of a few hundred bytes could make it loop for an hour or ask for
//! gigabytes. The walks refuse such a file with an error instead.
//!
//! The footer is walked before the reader parses it, when a table is made
//! (schema inference reads every footer) and when a file is opened for a
//! scan; the column chunks are placed against the footer once it is
//! parsed, and each chunk's pages (or the run of pages the page index
//! selects) are walked as they are fetched.

use std::ops::Range;

use datafusion::parquet::arrow::async_reader::AsyncFileReader;
use datafusion::parquet::basic::Compression;
use datafusion::parquet::errors::{ParquetError, Result as ParquetResult};
use datafusion::parquet::file::metadata::{ColumnChunkMetaData, ParquetMetaData};
use utf8_parquet::walk::{ChunkPlace, Codec, check_footer, check_pages, chunk_range};

/// Walks the footer of a file of `file_len` bytes read through `file`,
/// before any reader parses it; gives where it starts.
pub(crate) async fn walk_footer<R: AsyncFileReader + ?Sized>(
    file: &mut R,
    file_len: u64,
) -> ParquetResult<u64> {
    let mut tail = [0; 8];
    if file_len >= 8 {
        let bytes = file.get_bytes(file_len - 8..file_len).await?;
        if bytes.len() != 8 {
            return Err(walk_error(format!(
                "the file's last 8 bytes read as {}",
                bytes.len()
            )));
        }
        tail.copy_from_slice(&bytes);
    }
    let footer_len = utf8_parquet::walk::footer_length(file_len, &tail).map_err(walk_error)?;
    let start = file_len - 8 - footer_len;
    let footer = file.get_bytes(start..start + footer_len).await?;
    check_footer(&footer).map_err(walk_error)?;
    Ok(start)
}

/// Every column chunk of a file, placed: its bytes, its codec, and how
/// many values the footer says its pages hold.
#[derive(Debug, Default)]
pub(crate) struct Chunks {
    /// By where the chunk starts.
    chunks: Vec<Chunk>,
}

#[derive(Debug)]
struct Chunk {
    bytes: Range<u64>,
    codec: Codec,
    values: i64,
}

impl Chunks {
    /// The chunks of `metadata`, each placed between the file's leading
    /// magic bytes and `footer_start`; the first one that is not is the
    /// error, naming its row group and column.
    pub(crate) fn place(metadata: &ParquetMetaData, footer_start: u64) -> ParquetResult<Chunks> {
        let mut chunks = Vec::new();
        for (group_index, group) in metadata.row_groups().iter().enumerate() {
            for chunk in group.columns() {
                let bytes = chunk_range(&place(chunk), footer_start).map_err(|e| {
                    walk_error(format!(
                        "row group {group_index}, column {}: {e}",
                        chunk.column_path()
                    ))
                })?;
                let codec = codec(chunk.compression());
                if !bytes.is_empty() {
                    chunks.push(Chunk {
                        bytes,
                        codec,
                        values: chunk.num_values(),
                    });
                }
            }
        }
        chunks.sort_by_key(|chunk| chunk.bytes.start);
        Ok(Chunks { chunks })
    }

    /// Walks the pages in `bytes`, fetched from `range` of the file: a
    /// whole column chunk, its values counted against the footer's, or a
    /// run of its pages. Bytes outside every chunk (the footer, the page
    /// index, a Bloom filter) are not pages, and are left to the reader.
    pub(crate) fn walk(&self, range: &Range<u64>, bytes: &[u8]) -> ParquetResult<()> {
        let after = self
            .chunks
            .partition_point(|chunk| chunk.bytes.start <= range.start);
        let Some(chunk) = after.checked_sub(1).map(|index| &self.chunks[index]) else {
            return Ok(());
        };
        if range.end > chunk.bytes.end || range.start >= range.end {
            return Ok(());
        }
        let values = (*range == chunk.bytes).then_some(chunk.values);
        check_pages(bytes, chunk.codec, values).map_err(|e| {
            walk_error(format!(
                "the column chunk at byte {}: {e}",
                chunk.bytes.start
            ))
        })
    }
}

fn place(chunk: &ColumnChunkMetaData) -> ChunkPlace {
    ChunkPlace {
        dictionary_page_offset: chunk.dictionary_page_offset(),
        data_page_offset: chunk.data_page_offset(),
        compressed_size: chunk.compressed_size(),
        num_values: chunk.num_values(),
    }
}

/// The walk's name of the parquet crate's (arrow-rs 59's) codec.
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

fn walk_error(error: impl std::fmt::Display) -> ParquetError {
    ParquetError::General(format!("a malformed Parquet file: {error}"))
}
