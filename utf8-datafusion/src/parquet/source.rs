//! The scan's file source: DataFusion's Parquet source, reading string
//! columns as bytes (with each row's number in its file), wrapped so that
//! every batch of every file is checked as it leaves the reader, while the
//! file's name is still known.
//!
//! DataFusion's Parquet source plans each file as morsels (units of
//! decoding) through planners (units of I/O); the wrappers here pass
//! every one through and map the batches of each morsel, and contain a
//! panic of the reader in any of them as an error naming the file.

use std::fmt;
use std::sync::Arc;

use datafusion::arrow::array::RecordBatch;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{DataFusionError, Result};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::{FileScanConfig, FileSource};
use datafusion::datasource::table_schema::TableSchema;
use datafusion::object_store::ObjectStore;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::projection::ProjectionExprs;
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion::physical_plan::{DisplayFormatType, apply_expression_roots};
use datafusion_datasource::file_stream::FileOpener;
use datafusion_datasource::morsel::{Morsel, MorselPlan, MorselPlanner, Morselizer};
use futures::StreamExt;
use futures::stream::BoxStream;

use super::batch::{BatchPlan, InvalidValue};
use super::contain::{self, ReaderPanic};

/// The checked read's file source: `inner` reads the projected columns,
/// the string columns to check, and the row number; `table_schema` and
/// `projection` are what the table shows.
#[derive(Clone)]
pub(crate) struct CheckedSource {
    pub(crate) inner: Arc<dyn FileSource>,
    pub(crate) table_schema: TableSchema,
    pub(crate) projection: ProjectionExprs,
    pub(crate) plan: Arc<BatchPlan>,
}

impl FileSource for CheckedSource {
    fn create_file_opener(
        &self,
        _object_store: Arc<dyn ObjectStore>,
        _base_config: &FileScanConfig,
        _partition: usize,
    ) -> Result<Arc<dyn FileOpener>> {
        datafusion::common::internal_err!("the checked Parquet read plans files as morsels")
    }

    fn create_morselizer(
        &self,
        object_store: Arc<dyn ObjectStore>,
        base_config: &FileScanConfig,
        partition: usize,
    ) -> Result<Box<dyn Morselizer>> {
        let inner = self
            .inner
            .create_morselizer(object_store, base_config, partition)?;
        Ok(Box::new(CheckedMorselizer {
            inner,
            plan: Arc::clone(&self.plan),
        }))
    }

    fn table_schema(&self) -> &TableSchema {
        &self.table_schema
    }

    fn with_batch_size(&self, batch_size: usize) -> Arc<dyn FileSource> {
        Arc::new(Self {
            inner: self.inner.with_batch_size(batch_size),
            ..self.clone()
        })
    }

    fn filter(&self) -> Option<Arc<dyn PhysicalExpr>> {
        self.inner.filter()
    }

    fn projection(&self) -> Option<&ProjectionExprs> {
        Some(&self.projection)
    }

    fn metrics(&self) -> &ExecutionPlanMetricsSet {
        self.inner.metrics()
    }

    fn file_type(&self) -> &str {
        "parquet"
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        let filter = self.inner.filter();
        let shown = self.projection.iter().map(|projected| &projected.expr);
        apply_expression_roots(filter.iter().chain(shown), f)
    }

    fn fmt_extra(&self, t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, ", strings checked as UTF-8")?;
        self.inner.fmt_extra(t, f)
    }
}

#[derive(Debug)]
struct CheckedMorselizer {
    inner: Box<dyn Morselizer>,
    plan: Arc<BatchPlan>,
}

impl Morselizer for CheckedMorselizer {
    fn plan_file(&self, file: PartitionedFile) -> Result<Box<dyn MorselPlanner>> {
        let check = FileCheck {
            file: Arc::from(file.object_meta.location.to_string()),
            plan: Arc::clone(&self.plan),
        };
        let planner = contain::call(&check.file, || self.inner.plan_file(file))?;
        Ok(check.planner(planner))
    }
}

#[derive(Debug)]
struct CheckedPlanner {
    inner: Box<dyn MorselPlanner>,
    file: Arc<str>,
    plan: Arc<BatchPlan>,
}

/// What every planner and morsel of one file shares: the file's name and
/// how its batches are checked.
#[derive(Clone, Debug)]
struct FileCheck {
    file: Arc<str>,
    plan: Arc<BatchPlan>,
}

impl FileCheck {
    fn planner(&self, inner: Box<dyn MorselPlanner>) -> Box<dyn MorselPlanner> {
        Box::new(CheckedPlanner {
            inner,
            file: Arc::clone(&self.file),
            plan: Arc::clone(&self.plan),
        })
    }

    fn morsel(&self, inner: Box<dyn Morsel>) -> Box<dyn Morsel> {
        Box::new(CheckedMorsel {
            inner,
            file: Arc::clone(&self.file),
            plan: Arc::clone(&self.plan),
        })
    }
}

impl MorselPlanner for CheckedPlanner {
    fn plan(self: Box<Self>) -> Result<Option<MorselPlan>> {
        let CheckedPlanner { inner, file, plan } = *self;
        let planned = contain::call(&file, || inner.plan()).map_err(|e| named(e, &file))?;
        let Some(mut planned) = planned else {
            return Ok(None);
        };
        let check = FileCheck { file, plan };
        let morsels = planned.take_morsels().into_iter();
        let planners = planned.take_ready_planners().into_iter();
        let mut wrapped = MorselPlan::new()
            .with_morsels(morsels.map(|morsel| check.morsel(morsel)).collect())
            .with_planners(planners.map(|planner| check.planner(planner)).collect());
        if let Some(pending) = planned.take_pending_planner() {
            let pending = contain::future(&check.file, Box::pin(pending));
            wrapped.set_pending_planner(async move {
                match pending.await {
                    Ok(planner) => Ok(check.planner(planner)),
                    Err(error) => Err(named(error, &check.file)),
                }
            });
        }
        Ok(Some(wrapped))
    }
}

#[derive(Debug)]
struct CheckedMorsel {
    inner: Box<dyn Morsel>,
    file: Arc<str>,
    plan: Arc<BatchPlan>,
}

impl Morsel for CheckedMorsel {
    fn into_stream(self: Box<Self>) -> BoxStream<'static, Result<RecordBatch>> {
        let CheckedMorsel { inner, file, plan } = *self;
        let batches = match contain::call(&file, || Ok(inner.into_stream())) {
            Ok(batches) => contain::stream(&file, batches),
            Err(panicked) => futures::stream::once(async { Err(panicked) }).boxed(),
        };
        batches
            .map(move |batch| {
                batch
                    .and_then(|batch| plan.apply(&batch, &file))
                    .map_err(|e| named(e, &file))
            })
            .boxed()
    }
}

/// The reader's own errors (a page that does not decompress, a checksum,
/// the walks' refusal of a footer or page) say nothing of the file; this
/// read's errors all name it.
fn named(error: DataFusionError, file: &str) -> DataFusionError {
    match error {
        DataFusionError::External(ref inner)
            if inner.is::<ReaderPanic>() || inner.is::<InvalidValue>() =>
        {
            error
        }
        error => error.context(format!("{file}: the Parquet reader failed on the file")),
    }
}
