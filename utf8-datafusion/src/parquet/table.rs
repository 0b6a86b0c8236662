//! The checked read as a table: DataFusion's listing of Parquet files
//! (partitions, pruning on partition values), its Parquet source reading
//! string columns as bytes, and [`CheckedSource`] between them and the
//! query.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Schema, SchemaRef};
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::{DFSchema, DataFusionError, Result};
use datafusion::datasource::TableType;
use datafusion::datasource::file_format::parquet::ParquetFormat;
use datafusion::datasource::listing::helpers::expr_applicable_for_cols;
use datafusion::datasource::listing::{
    ListingOptions, ListingTable, ListingTableConfig, ListingTableUrl,
};
use datafusion::datasource::physical_plan::{FileScanConfigBuilder, FileSource, ParquetSource};
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::logical_expr::utils::conjunction;
use datafusion::logical_expr::{Expr, TableProviderFilterPushDown};
use datafusion::parquet::arrow::RowNumber;
use datafusion::physical_expr::projection::ProjectionExprs;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::empty::EmptyExec;
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion_datasource_parquet::{
    CachedParquetFileReaderFactory, DefaultParquetFileReaderFactory, ParquetFileReaderFactory,
};
use futures::TryStreamExt;

use super::batch::{BatchPlan, Check, Output};
use super::footer::BytesReaderFactory;
use super::source::CheckedSource;
use super::types::{fields_as_bytes, holds_strings};
use super::walk::walk_footer;
use super::{CheckedParquetOptions, OnInvalid};

/// Parquet files read as a table whose string columns are checked before
/// any operator sees them; made by
/// [`register_checked_parquet`](super::register_checked_parquet) or
/// [`CheckedParquetTable::try_new`].
#[derive(Debug)]
pub struct CheckedParquetTable {
    /// Lists the files and prunes them by partition values; its schema is
    /// the files' with strings as bytes.
    listing: ListingTable,
    paths: Vec<ListingTableUrl>,
    /// The files' columns as the reader reads them: strings as bytes.
    read: SchemaRef,
    /// What the table shows: the files' columns, then the partitions'.
    schema: SchemaRef,
    file_columns: usize,
    on_invalid: OnInvalid,
    columns: HashMap<String, OnInvalid>,
}

impl CheckedParquetTable {
    /// The table of the Parquet files under `paths` (files, or folders
    /// read whole), its schema read from the first path's files as
    /// DataFusion's own Parquet read would (string views where the
    /// session asks for them).
    pub async fn try_new(
        state: &dyn Session,
        paths: Vec<ListingTableUrl>,
        options: CheckedParquetOptions,
    ) -> Result<Self> {
        let Some(first) = paths.first() else {
            return datafusion::common::plan_err!("a checked Parquet read needs a path");
        };
        let format = ParquetFormat::default().with_options(state.table_options().parquet.clone());
        let listing_options = ListingOptions::new(Arc::new(format))
            .with_file_extension(options.file_extension.clone())
            .with_table_partition_cols(options.table_partition_cols.clone());
        walk_footers(state, first, &options.file_extension).await?;
        let strings = listing_options.infer_schema(state, first).await?;
        let bytes = Arc::new(Schema::new_with_metadata(
            fields_as_bytes(strings.fields()),
            strings.metadata().clone(),
        ));
        let config = ListingTableConfig::new_with_multi_paths(paths.clone())
            .with_listing_options(listing_options)
            .with_schema(Arc::clone(&bytes));
        let listing = ListingTable::try_new(config)?;
        let partitions = options
            .table_partition_cols
            .iter()
            .map(|(name, data_type)| Field::new(name, data_type.clone(), false));
        let schema = Arc::new(Schema::new_with_metadata(
            strings
                .fields()
                .iter()
                .cloned()
                .chain(partitions.map(Arc::new))
                .collect::<Vec<_>>(),
            strings.metadata().clone(),
        ));
        Ok(Self {
            listing,
            paths,
            read: bytes,
            schema,
            file_columns: strings.fields().len(),
            on_invalid: options.on_invalid,
            columns: options.columns,
        })
    }

    fn partition_names(&self) -> Vec<&str> {
        self.schema.fields()[self.file_columns..]
            .iter()
            .map(|field| field.name().as_str())
            .collect()
    }

    /// The file columns that hold strings: those the read checks.
    fn checked(&self) -> impl Iterator<Item = (usize, &FieldRef)> {
        self.schema.fields()[..self.file_columns]
            .iter()
            .enumerate()
            .filter(|(_, field)| holds_strings(field.data_type()))
    }

    fn check(&self, index: usize, field: &FieldRef) -> Check {
        Check {
            index,
            field: Arc::clone(field),
            on_invalid: *self.columns.get(field.name()).unwrap_or(&self.on_invalid),
        }
    }

    /// How the reader's batches become the table's: the projected
    /// columns in their order, then the checked columns the query does not
    /// read but whose bad values still fail it, then the row number.
    fn batch_plan(&self, projection: &[usize]) -> Result<(BatchPlan, Vec<usize>)> {
        let outputs: Vec<Output> = projection
            .iter()
            .enumerate()
            .map(|(position, &column)| {
                let field = &self.schema.fields()[column];
                match column < self.file_columns && holds_strings(field.data_type()) {
                    true => Output::Checked(self.check(position, field)),
                    false => Output::Kept(position),
                }
            })
            .collect();
        let mut read = projection.to_vec();
        let mut checked_only = Vec::new();
        for (column, field) in self.checked() {
            let check = self.check(read.len(), field);
            if !projection.contains(&column) && check.on_invalid == OnInvalid::Fail {
                checked_only.push(check);
                read.push(column);
            }
        }
        let row_number = read.len();
        read.push(self.schema.fields().len());
        let schema = Arc::new(
            self.schema
                .project(projection)
                .expect("projection in range"),
        );
        let plan = BatchPlan {
            outputs,
            checked_only,
            row_number,
            schema,
        };
        Ok((plan, read))
    }
}

#[async_trait]
impl TableProvider for CheckedParquetTable {
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    /// Filters on partition values prune files, exactly; filters on other
    /// columns that are not checked prune row groups and pages, and are
    /// applied again after the read; filters on checked columns are left
    /// to the query, which applies them to the checked strings.
    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        let checked: Vec<&str> = self.checked().map(|(_, f)| f.name().as_str()).collect();
        let partitions = self.partition_names();
        Ok(filters
            .iter()
            .map(|filter| {
                let columns = filter.column_refs();
                if columns.iter().any(|c| checked.contains(&c.name.as_str())) {
                    TableProviderFilterPushDown::Unsupported
                } else if expr_applicable_for_cols(&partitions, filter) {
                    TableProviderFilterPushDown::Exact
                } else {
                    TableProviderFilterPushDown::Inexact
                }
            })
            .collect())
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let all: Vec<usize> = (0..self.schema.fields().len()).collect();
        let projection = projection.unwrap_or(&all);
        let partitions = self.partition_names();
        let (partition_filters, row_filters): (Vec<Expr>, Vec<Expr>) = filters
            .iter()
            .cloned()
            .partition(|filter| expr_applicable_for_cols(&partitions, filter));
        let listed = self
            .listing
            .list_files_for_scan(state, &partition_filters, None)
            .await?;
        if listed.file_groups.is_empty() {
            let schema = Arc::new(self.schema.project(projection)?);
            return Ok(Arc::new(EmptyExec::new(schema)));
        }

        let partition_fields: Vec<FieldRef> = self.schema.fields()[self.file_columns..].to_vec();
        let row_number =
            Field::new("__utf8_row_number", DataType::Int64, false).with_extension_type(RowNumber);
        let read_schema = TableSchema::builder(Arc::clone(&self.read))
            .with_table_partition_cols(partition_fields.clone())
            .with_virtual_columns(vec![Arc::new(row_number)])
            .build();
        let shown_schema = TableSchema::builder(Arc::new(Schema::new(
            self.schema.fields()[..self.file_columns].to_vec(),
        )))
        .with_table_partition_cols(partition_fields)
        .build();

        let (plan, read) = self.batch_plan(projection)?;
        let store_url = self.paths[0].object_store();
        let store = state.runtime_env().object_store(&store_url)?;
        let metadata_cache = state.runtime_env().cache_manager.get_file_metadata_cache();
        let readers = BytesReaderFactory::new(Arc::new(CachedParquetFileReaderFactory::new(
            store,
            metadata_cache,
        )));
        let mut parquet = ParquetSource::new(read_schema.clone())
            .with_table_parquet_options(state.table_options().parquet.clone())
            .with_parquet_file_reader_factory(Arc::new(readers));
        if let Some(predicate) = conjunction(row_filters) {
            let schema =
                DFSchema::try_from(Arc::clone(read_schema.schema_without_virtual_columns()))?;
            parquet = parquet.with_predicate(state.create_physical_expr(predicate, &schema)?);
        }
        let read_projection = ProjectionExprs::from_indices(&read, read_schema.table_schema());
        let Some(inner) = parquet.try_pushdown_projection(&read_projection)? else {
            return datafusion::common::internal_err!("the Parquet source took no projection");
        };
        let shown_projection =
            ProjectionExprs::from_indices(projection, shown_schema.table_schema());
        let source: Arc<dyn FileSource> = Arc::new(CheckedSource {
            inner,
            table_schema: shown_schema,
            projection: shown_projection,
            plan: Arc::new(plan),
        });
        let config = FileScanConfigBuilder::new(store_url, source)
            .with_file_groups(listed.file_groups)
            .with_limit(limit)
            .build();
        Ok(DataSourceExec::from_data_source(config))
    }
}

/// Walks the footer of each file under `path` before DataFusion's schema
/// inference parses them all; the first malformed one is the error,
/// naming the file.
async fn walk_footers(state: &dyn Session, path: &ListingTableUrl, extension: &str) -> Result<()> {
    let store = state.runtime_env().object_store(path)?;
    let readers = DefaultParquetFileReaderFactory::new(Arc::clone(&store));
    let metrics = ExecutionPlanMetricsSet::new();
    let mut files = path
        .list_all_files(state, store.as_ref(), extension)
        .await?;
    while let Some(file) = files.try_next().await? {
        let (location, size) = (file.location.to_string(), file.size);
        let mut reader = readers.create_reader(0, file.into(), None, &metrics)?;
        walk_footer(reader.as_mut(), size)
            .await
            .map_err(|e| DataFusionError::from(e).context(location))?;
    }
    Ok(())
}
