//! `utf8_is_valid` against a scalar UDF that calls `core::str::from_utf8`
//! once per row, in the same DataFusion session, over a column of 10
//! million short strings: the words of the valid corpus files
//! (`data/corpus/**/*.utf8.txt`, split on ASCII whitespace), repeated.
//!
//! ```text
//! cargo bench -p utf8-datafusion --bench sql
//! ```
//!
//! Each contender runs `SELECT count(*) FROM words WHERE f(word)` to the
//! end: the scan of an in-memory table of 8,192-row batches (DataFusion's
//! batch size), the function, the filter, the count. Every word is valid,
//! so the filter passes each batch on whole and both queries do the same
//! work but the check. Groups: the words as `Binary` (offsets) and as
//! `BinaryView`.

mod corpus;

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BinaryArray, BinaryViewArray, BooleanArray, RecordBatch,
};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::catalog::MemTable;
use datafusion::common::{Result, exec_err};
use datafusion::logical_expr::{
    ColumnarValue, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature, Volatility,
};
use datafusion::prelude::SessionContext;

const ROWS: usize = 10_000_000;
const BATCH: usize = 8192;

/// `from_utf8_per_row(bytes)`: the UDF a user writes first, a call of
/// `core::str::from_utf8` per row.
#[derive(Debug, PartialEq, Eq, Hash)]
struct FromUtf8PerRow {
    signature: Signature,
}

impl ScalarUDFImpl for FromUtf8PerRow {
    fn name(&self) -> &str {
        "from_utf8_per_row"
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Boolean)
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let ColumnarValue::Array(array) = &args.args[0] else {
            return exec_err!("from_utf8_per_row takes a column");
        };
        let valid: BooleanArray = match array.data_type() {
            DataType::Binary => array
                .as_binary::<i32>()
                .iter()
                .map(|row| row.map(|bytes| core::str::from_utf8(bytes).is_ok()))
                .collect(),
            DataType::BinaryView => array
                .as_binary_view()
                .iter()
                .map(|row| row.map(|bytes| core::str::from_utf8(bytes).is_ok()))
                .collect(),
            other => return exec_err!("from_utf8_per_row takes Binary or BinaryView, not {other}"),
        };
        Ok(ColumnarValue::Array(Arc::new(valid)))
    }
}

/// The words of every valid corpus file, repeated to [`ROWS`].
fn words() -> Vec<Vec<u8>> {
    let files = corpus::valid_files();
    let words: Vec<Vec<u8>> = files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read(path).unwrap();
            text.split(u8::is_ascii_whitespace)
                .filter(|w| !w.is_empty())
                .map(<[u8]>::to_vec)
                .collect::<Vec<_>>()
        })
        .collect();
    words.iter().cycle().take(ROWS).cloned().collect()
}

/// Builds a column of the words in one layout.
type Layout = fn(&[Vec<u8>]) -> ArrayRef;

/// A session with both functions and the words as the table `words`.
fn session(column: Layout, words: &[Vec<u8>]) -> SessionContext {
    let ctx = SessionContext::new();
    utf8_datafusion::register(&ctx);
    ctx.register_udf(ScalarUDF::from(FromUtf8PerRow {
        signature: Signature::any(1, Volatility::Immutable),
    }));
    let first = column(&words[..1]);
    let schema = Arc::new(Schema::new(vec![Field::new(
        "word",
        first.data_type().clone(),
        false,
    )]));
    let batches = words
        .chunks(BATCH)
        .map(|chunk| RecordBatch::try_new(Arc::clone(&schema), vec![column(chunk)]).unwrap())
        .collect();
    let table = MemTable::try_new(schema, vec![batches]).unwrap();
    ctx.register_table("words", Arc::new(table)).unwrap();
    ctx
}

fn count(runtime: &tokio::runtime::Runtime, ctx: &SessionContext, function: &str) -> usize {
    let query = format!("SELECT count(*) FROM words WHERE {function}(word)");
    runtime.block_on(async {
        let batches = ctx.sql(&query).await.unwrap().collect().await.unwrap();
        let counts = batches[0]
            .column(0)
            .as_primitive::<datafusion::arrow::datatypes::Int64Type>();
        counts.value(0) as usize
    })
}

fn bench(c: &mut Criterion) {
    let words = words();
    let bytes: usize = words.iter().map(Vec::len).sum();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let layouts: [(&str, Layout); 2] = [
        ("binary", |rows| {
            Arc::new(BinaryArray::from_iter_values(rows))
        }),
        ("binary-view", |rows| {
            Arc::new(BinaryViewArray::from_iter_values(rows))
        }),
    ];
    for (name, column) in layouts {
        let ctx = session(column, &words);
        for function in ["utf8_is_valid", "from_utf8_per_row"] {
            assert_eq!(
                count(&runtime, &ctx, function),
                ROWS,
                "{function}: every word is valid"
            );
        }
        let mut group = c.benchmark_group(format!("datafusion/10M-words/{name}"));
        group.throughput(Throughput::Bytes(bytes as u64));
        group.sample_size(10);
        for function in ["utf8_is_valid", "from_utf8_per_row"] {
            group.bench_function(function, |b| {
                b.iter(|| black_box(count(&runtime, &ctx, function)))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
