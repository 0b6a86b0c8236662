//! The checked Parquet read against DataFusion's own read of the same
//! file, in the same session and run.
//!
//! ```text
//! cargo bench -p utf8-datafusion --bench parquet_read
//! ```
//!
//! The file: the lines of the valid corpus files (`data/corpus/**/*.utf8.txt`)
//! repeated to 300 MB of strings, one `STRING` column written by arrow-rs's
//! writer without a dictionary, in row groups of 1 Mi rows; it is written
//! to the temporary directory first. The query,
//! `SELECT max(octet_length(s)) FROM t`, reads every string and does
//! little else, so the check's share of the time is as large as any query
//! makes it. Both tables read with the session's defaults (string views);
//! the runtime has one thread, as the other benchmarks' (the dev-dependency
//! on tokio has no multi-thread runtime), so the partitions take turns and
//! the ratio is one of CPU work. Last, `checked-at-avx2`: the checked read
//! with utf8-core held to AVX2, as a CPU without AVX-512 runs it.

mod corpus;

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use datafusion::arrow::array::{ArrayRef, AsArray, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Int32Type, Schema};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::file::properties::WriterProperties;
use datafusion::prelude::{ParquetReadOptions, SessionContext};
use utf8_datafusion::parquet::{CheckedParquetOptions, register_checked_parquet};

const STRING_BYTES: usize = 300 << 20;
const BATCH: usize = 8192;
const QUERY: &str = "SELECT max(octet_length(s)) FROM";

/// The lines of every valid corpus file, each once.
fn lines() -> Vec<String> {
    let files = corpus::valid_files();
    files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            text.lines()
                .filter(|line| !line.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Writes the file; returns its folder and the longest line's length.
fn write_file() -> (PathBuf, usize) {
    let folder = std::env::temp_dir().join(format!("utf8-datafusion-bench-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let lines = lines();
    let longest = lines.iter().map(String::len).max().unwrap();
    let schema = Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, false)]));
    let properties = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_max_row_group_row_count(Some(1 << 20))
        .build();
    let sink = std::fs::File::create(folder.join("lines.parquet")).unwrap();
    let mut writer = ArrowWriter::try_new(sink, Arc::clone(&schema), Some(properties)).unwrap();
    let (mut written, mut cycle) = (0, lines.iter().cycle());
    while written < STRING_BYTES {
        let batch: Vec<&str> = cycle.by_ref().take(BATCH).map(String::as_str).collect();
        written += batch.iter().map(|line| line.len()).sum::<usize>();
        let column: ArrayRef = Arc::new(StringArray::from(batch));
        let batch = RecordBatch::try_new(Arc::clone(&schema), vec![column]).unwrap();
        writer.write(&batch).unwrap();
    }
    writer.close().unwrap();
    (folder, longest)
}

fn longest(runtime: &tokio::runtime::Runtime, ctx: &SessionContext, table: &str) -> i32 {
    runtime.block_on(async {
        let batches = ctx
            .sql(&format!("{QUERY} {table}"))
            .await
            .unwrap()
            .collect()
            .await
            .unwrap();
        batches[0].column(0).as_primitive::<Int32Type>().value(0)
    })
}

fn bench(c: &mut Criterion) {
    let (folder, expected) = write_file();
    let url = format!("{}/", folder.display());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let ctx = SessionContext::new();
    runtime.block_on(async {
        ctx.register_parquet("own", &url, ParquetReadOptions::default())
            .await
            .unwrap();
        register_checked_parquet(&ctx, "checked", &url, CheckedParquetOptions::new())
            .await
            .unwrap();
    });
    for table in ["own", "checked"] {
        assert_eq!(longest(&runtime, &ctx, table) as usize, expected, "{table}");
    }
    let mut group = c.benchmark_group("datafusion/parquet-300MB-lines");
    group.throughput(Throughput::Bytes(STRING_BYTES as u64));
    group.sample_size(10);
    for table in ["own", "checked"] {
        group.bench_function(table, |b| {
            b.iter(|| black_box(longest(&runtime, &ctx, table)))
        });
    }
    // What a CPU without AVX-512 runs: the check held to AVX2 from here on
    // (DataFusion's own read does not use utf8-core).
    utf8_core::paths::cap_level(utf8_core::cpu::Level::Avx2, false);
    group.bench_function("checked-at-avx2", |b| {
        b.iter(|| black_box(longest(&runtime, &ctx, "checked")))
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&folder);
}

criterion_group!(benches, bench);
criterion_main!(benches);
