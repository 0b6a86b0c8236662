//! The footer each file is read with: walked first (`walk`), then its
//! string leaves without their string annotation, so that the Parquet
//! reader reads them as `Binary` and never judges (or trusts) their bytes
//! as UTF-8.
//!
//! The reader's choice of Arrow type comes from two places in the footer:
//! each leaf's logical type (`STRING`, `ENUM`, `JSON`, or the older
//! converted type `UTF8`), and the Arrow schema a writer such as pyarrow
//! embeds under `ARROW:schema`, which can only widen `Binary` to a string
//! type, never the reverse. Both are rewritten: the leaves lose the
//! annotation, and the embedded schema says the byte twin of each string
//! type (`LargeBinary` for `LargeUtf8`, `BinaryView` for `Utf8View`).

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use datafusion::common::Result;
use datafusion::datasource::listing::PartitionedFile;
use datafusion::parquet::arrow::arrow_reader::ArrowReaderOptions;
use datafusion::parquet::arrow::async_reader::AsyncFileReader;
use datafusion::parquet::arrow::{
    ARROW_SCHEMA_META_KEY, encode_arrow_schema, parquet_to_arrow_schema,
};
use datafusion::parquet::basic::{ConvertedType, LogicalType, Type as PhysicalType};
use datafusion::parquet::errors::Result as ParquetResult;
use datafusion::parquet::file::metadata::{
    FileMetaData, KeyValue, ParquetMetaData, ParquetMetaDataBuilder,
};
use datafusion::parquet::schema::types::{SchemaDescriptor, Type, TypePtr};
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion_datasource_parquet::ParquetFileReaderFactory;
use futures::FutureExt;
use futures::future::BoxFuture;

use super::types::fields_as_bytes;
use super::walk::{Chunks, walk_footer};

/// Makes each file's reader through `inner` (DataFusion's, which caches
/// footers) and hands the reader's footer over rewritten.
#[derive(Debug)]
pub(crate) struct BytesReaderFactory {
    inner: Arc<dyn ParquetFileReaderFactory>,
}

impl BytesReaderFactory {
    pub(crate) fn new(inner: Arc<dyn ParquetFileReaderFactory>) -> Self {
        Self { inner }
    }
}

impl ParquetFileReaderFactory for BytesReaderFactory {
    fn create_reader(
        &self,
        partition_index: usize,
        partitioned_file: PartitionedFile,
        metadata_size_hint: Option<usize>,
        metrics: &ExecutionPlanMetricsSet,
    ) -> Result<Box<dyn AsyncFileReader + Send>> {
        let file_len = partitioned_file.object_meta.size;
        let inner = self.inner.create_reader(
            partition_index,
            partitioned_file,
            metadata_size_hint,
            metrics,
        )?;
        Ok(Box::new(BytesReader {
            inner,
            file_len,
            chunks: Arc::default(),
        }))
    }
}

/// A file's reader whose footer is walked before it is parsed and whose
/// pages are walked as they are fetched (`walk`), and whose footer the
/// reader gets with strings as bytes.
struct BytesReader {
    inner: Box<dyn AsyncFileReader + Send>,
    file_len: u64,
    /// The file's column chunks, once its footer is read.
    chunks: Arc<Chunks>,
}

impl fmt::Debug for BytesReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BytesReader")
    }
}

impl AsyncFileReader for BytesReader {
    fn get_bytes(&mut self, range: Range<u64>) -> BoxFuture<'_, ParquetResult<Bytes>> {
        async move {
            let bytes = self.inner.get_bytes(range.clone()).await?;
            self.chunks.walk(&range, &bytes)?;
            Ok(bytes)
        }
        .boxed()
    }

    fn get_byte_ranges(
        &mut self,
        ranges: Vec<Range<u64>>,
    ) -> BoxFuture<'_, ParquetResult<Vec<Bytes>>> {
        async move {
            let fetched = self.inner.get_byte_ranges(ranges.clone()).await?;
            for (range, bytes) in ranges.iter().zip(&fetched) {
                self.chunks.walk(range, bytes)?;
            }
            Ok(fetched)
        }
        .boxed()
    }

    fn get_metadata<'a>(
        &'a mut self,
        options: Option<&'a ArrowReaderOptions>,
    ) -> BoxFuture<'a, ParquetResult<Arc<ParquetMetaData>>> {
        async move {
            let footer_start = walk_footer(self.inner.as_mut(), self.file_len).await?;
            let metadata = self.inner.get_metadata(options).await?;
            self.chunks = Arc::new(Chunks::place(&metadata, footer_start)?);
            Ok(Arc::new(strings_as_bytes(&metadata)?))
        }
        .boxed()
    }
}

/// The footer with every string leaf unannotated and the embedded Arrow
/// schema (if any) saying bytes where it said strings. Row groups, page
/// indexes and statistics are the file's own: only types change.
pub(crate) fn strings_as_bytes(metadata: &ParquetMetaData) -> ParquetResult<ParquetMetaData> {
    let file = metadata.file_metadata();
    let root = unannotated(&file.schema_descr().root_schema_ptr())?;
    let key_value = match file.key_value_metadata() {
        Some(pairs) if pairs.iter().any(|pair| pair.key == ARROW_SCHEMA_META_KEY) => {
            // What the embedded schema makes of the file, with strings as
            // bytes, written back in its place.
            let arrow = parquet_to_arrow_schema(file.schema_descr(), Some(pairs))?;
            let bytes = datafusion::arrow::datatypes::Schema::new_with_metadata(
                fields_as_bytes(arrow.fields()),
                arrow.metadata().clone(),
            );
            let encoded = encode_arrow_schema(&bytes);
            Some(
                pairs
                    .iter()
                    .map(|pair| match pair.key == ARROW_SCHEMA_META_KEY {
                        true => KeyValue::new(pair.key.clone(), encoded.clone()),
                        false => pair.clone(),
                    })
                    .collect(),
            )
        }
        other => other.cloned(),
    };
    let file = FileMetaData::new(
        file.version(),
        file.num_rows(),
        file.created_by().map(str::to_owned),
        key_value,
        Arc::new(SchemaDescriptor::new(root)),
        file.column_orders().cloned(),
    );
    Ok(ParquetMetaDataBuilder::new(file)
        .set_row_groups(metadata.row_groups().to_vec())
        .set_column_index(metadata.column_index().cloned())
        .set_offset_index(metadata.offset_index().cloned())
        .build())
}

/// Whether a leaf is one the reader would read as a string.
fn is_string_leaf(leaf: &Type) -> bool {
    let info = leaf.get_basic_info();
    leaf.get_physical_type() == PhysicalType::BYTE_ARRAY
        && (matches!(
            info.logical_type_ref(),
            Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
        ) || matches!(
            info.converted_type(),
            ConvertedType::UTF8 | ConvertedType::ENUM | ConvertedType::JSON
        ))
}

/// The schema tree with each string leaf's annotation removed.
fn unannotated(node: &TypePtr) -> ParquetResult<TypePtr> {
    let info = node.get_basic_info();
    if node.is_primitive() {
        if !is_string_leaf(node) {
            return Ok(Arc::clone(node));
        }
        let mut leaf = Type::primitive_type_builder(info.name(), PhysicalType::BYTE_ARRAY)
            .with_repetition(info.repetition());
        if info.has_id() {
            leaf = leaf.with_id(Some(info.id()));
        }
        return Ok(Arc::new(leaf.build()?));
    }
    let fields = node
        .get_fields()
        .iter()
        .map(unannotated)
        .collect::<ParquetResult<Vec<_>>>()?;
    let mut group = Type::group_type_builder(info.name())
        .with_fields(fields)
        .with_converted_type(info.converted_type())
        .with_logical_type(info.logical_type_ref().cloned());
    if info.has_repetition() {
        group = group.with_repetition(info.repetition());
    }
    if info.has_id() {
        group = group.with_id(Some(info.id()));
    }
    Ok(Arc::new(group.build()?))
}
