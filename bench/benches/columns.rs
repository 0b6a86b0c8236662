//! Columns of many strings, Arrow's offsets and views layouts, checked by
//! `utf8_core::column` against arrow-rs's own checks and against a call per
//! row of `simdutf8::basic::from_utf8` (what polars does for views) and of
//! `core::str::from_utf8`, all over the same buffers, in the same run.
//!
//! The columns come from the valid corpus files:
//!
//! - `lines`: every line of every file (empty ones included);
//! - `lines-up-to-64-bytes`: the same lines cut into pieces of at most 64
//!   bytes at character boundaries, the strings of the validate
//!   benchmark's `generated/lines-up-to-64-bytes` (one call each there);
//! - `words`: every file split on ASCII whitespace;
//! - `non-latin-words`: the words of the files in non-Latin scripts
//!   (Arabic, Chinese, Greek, Hebrew, Hindi, Japanese, Korean, Persian,
//!   Russian, Thai): short strings of 2- and 3-byte characters;
//! - `words-10-million`: `words` over and over, to ten million rows
//!   (143 MB of values, 160 MB of views): a column such as a Polars or
//!   pyarrow user checks, far past the CPU's caches, where what bounds a
//!   check is the bytes memory delivers. Its groups take ten samples of a
//!   fixed count of runs, each run a third of a second for the per-row
//!   loops.
//!
//! Each is a group `columns/NAME/offsets` (`i32` offsets and one values
//! buffer) and `columns/NAME/views` (Arrow's 16-byte views over the data
//! buffers arrow-rs's `BinaryViewBuilder` writes, strings of up to 12 bytes
//! inline). Every contender of a group reads the same buffers: arrow-rs's
//! `Buffer`s, borrowed as slices by the others. The throughput is the
//! values bytes, the sum of the rows' lengths, in every group.
//!
//! The contenders:
//!
//! - `utf8-core`: `Offsets::validated::<Rfc3629>` (which checks the
//!   layout, as arrow-rs's constructors do, a batch of offsets before
//!   their rows) or `Views::validated::<Rfc3629>`, which checks each
//!   view's layout in the same pass as its string;
//! - `utf8-core AVX2`: the same with the vector check forced to AVX2,
//!   through a ruleset of this file that is RFC 3629 in all but that;
//! - `utf8-arrow`: `utf8_arrow::validate` of a `BinaryArray` over the same
//!   offsets and values, or of the `BinaryViewArray`: the wrapper an
//!   arrow-rs user calls, which should cost nothing over the `utf8-core`
//!   call it makes;
//! - `arrow-rs`: `StringArray::try_new` over clones of the offsets and
//!   values buffers, or `BinaryViewArray::to_string_view` on a clone of the
//!   array (clones of reference-counted buffers: no bytes copied);
//! - `simdutf8::basic per row`, `core::str per row`: a call per row, the
//!   row sliced from the values by two offsets, or read from its view
//!   (inline, or the buffer range it names; no layout check);
//! - `one buffer`: `utf8_core::from_utf8` over the values buffer, all rows
//!   as one string: the speed a column check is measured against;
//! - `utf8-core lossy`: `Offsets::lossy` or `Views::lossy` on a copy of
//!   the column whose first byte is made `FF` in one row in 1,000 (the
//!   first non-empty row from every 1,000th on), repaired to U+FFFD.
//!
//! `cargo xtask bench` runs this and prints one table of it; it looks the
//! contenders up by the names given here.
//!
//! Run: `cargo bench -p utf8-bench --bench columns`.

use std::hint::black_box;
use std::time::Duration;

use arrow_array::{BinaryArray, BinaryViewArray, StringArray};
use arrow_buffer::Buffer;
use criterion::measurement::WallTime;
use criterion::{
    BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use utf8_bench::columns::{self, Layouts, NAMES, Rfc3629Avx2, TEN_MILLION, each_view};
use utf8_bench::valid_corpus;
use utf8_core::Rfc3629;
use utf8_core::column::{LossyOffsets, LossyViews, Offsets, Views};
use utf8_core::cpu::{self, Level};
use utf8_core::paths;

type Group<'a> = BenchmarkGroup<'a, WallTime>;

fn bench_offsets(group: &mut Group, column: &Layouts, broken: &Layouts, invalid: usize) {
    let (offsets, values): (&[i32], &[u8]) = (&column.offsets, &column.values);
    let ours = |offsets, values| Offsets::validated::<Rfc3629>(offsets, values, None).map(drop);
    assert!(ours(offsets, values).is_ok());
    group.bench_function("utf8-core", |b| {
        b.iter(|| ours(black_box(offsets), black_box(values)))
    });
    if cpu::supports(Level::Avx2) {
        let avx2 =
            |offsets, values| Offsets::validated::<Rfc3629Avx2>(offsets, values, None).map(drop);
        assert!(avx2(offsets, values).is_ok());
        group.bench_function("utf8-core AVX2", |b| {
            b.iter(|| avx2(black_box(offsets), black_box(values)))
        });
    }
    let binary = BinaryArray::new(column.offsets.clone(), column.values.clone(), None);
    assert!(utf8_arrow::validate(&binary).is_ok());
    group.bench_function("utf8-arrow", |b| {
        b.iter(|| utf8_arrow::validate(black_box(&binary)))
    });
    let arrow = |c: &Layouts| StringArray::try_new(c.offsets.clone(), c.values.clone(), None);
    assert!(arrow(column).is_ok());
    group.bench_function("arrow-rs", |b| b.iter(|| arrow(black_box(column)).is_ok()));
    type PerRow = fn(&[u8]) -> bool;
    for (name, check) in [
        (
            "simdutf8::basic per row",
            (|row| simdutf8::basic::from_utf8(row).is_ok()) as PerRow,
        ),
        ("core::str per row", |row| core::str::from_utf8(row).is_ok()),
    ] {
        let per_row = |offsets: &[i32], values: &[u8]| {
            offsets
                .windows(2)
                .all(|w| check(&values[w[0] as usize..w[1] as usize]))
        };
        assert!(per_row(offsets, values));
        group.bench_function(name, |b| {
            b.iter(|| per_row(black_box(offsets), black_box(values)))
        });
    }
    one_buffer(group, values);
    let (bad_offsets, bad_values): (&[i32], &[u8]) = (&broken.offsets, &broken.values);
    let lossy = |offsets, values| Offsets::new(offsets, values)?.lossy::<Rfc3629>();
    let Ok(LossyOffsets::Repaired {
        values: repaired, ..
    }) = lossy(bad_offsets, bad_values)
    else {
        panic!("a column with invalid rows is repaired");
    };
    let expected: Vec<u8> = broken
        .rows()
        .flat_map(|row| String::from_utf8_lossy(row).into_owned().into_bytes())
        .collect();
    assert_eq!(repaired, expected);
    assert!(invalid > 0);
    group.bench_function("utf8-core lossy", |b| {
        b.iter(|| lossy(black_box(bad_offsets), black_box(bad_values)))
    });
}

fn bench_views(group: &mut Group, column: &Layouts, broken: &Layouts, invalid: usize) {
    let array = &column.views;
    let (views, buffers): (&[u128], &[Buffer]) = (array.views(), array.data_buffers());
    let ours = |views, buffers| Views::validated::<Rfc3629>(views, buffers, None).map(drop);
    assert!(ours(views, buffers).is_ok());
    group.bench_function("utf8-core", |b| {
        b.iter(|| ours(black_box(views), black_box(buffers)))
    });
    if cpu::supports(Level::Avx2) {
        let avx2 = |views, buffers| Views::validated::<Rfc3629Avx2>(views, buffers, None).map(drop);
        // The views' own kernels at AVX2 too, as a CPU without AVX-512
        // runs them.
        paths::cap_column_kernels_at_avx2(true);
        assert!(avx2(views, buffers).is_ok());
        group.bench_function("utf8-core AVX2", |b| {
            b.iter(|| avx2(black_box(views), black_box(buffers)))
        });
        paths::cap_column_kernels_at_avx2(false);
    }
    assert!(utf8_arrow::validate(array).is_ok());
    group.bench_function("utf8-arrow", |b| {
        b.iter(|| utf8_arrow::validate(black_box(array)))
    });
    let arrow = |array: &BinaryViewArray| array.clone().to_string_view();
    assert!(arrow(array).is_ok());
    group.bench_function("arrow-rs", |b| b.iter(|| arrow(black_box(array)).is_ok()));
    type PerRow = fn(&[u8]) -> bool;
    for (name, check) in [
        (
            "simdutf8::basic per row",
            (|row| simdutf8::basic::from_utf8(row).is_ok()) as PerRow,
        ),
        ("core::str per row", |row| core::str::from_utf8(row).is_ok()),
    ] {
        assert!(each_view(views, buffers, check));
        group.bench_function(name, |b| {
            b.iter(|| each_view(black_box(views), black_box(buffers), check))
        });
    }
    one_buffer(group, &column.values);
    let bad = &broken.views;
    let (bad_views, bad_buffers): (&[u128], &[Buffer]) = (bad.views(), bad.data_buffers());
    let lossy = |views, buffers| Views::new(views, buffers)?.lossy::<Rfc3629>();
    let Ok(LossyViews::Repaired {
        views: repaired, ..
    }) = lossy(bad_views, bad_buffers)
    else {
        panic!("a column with invalid rows is repaired");
    };
    let changed = repaired
        .iter()
        .zip(bad_views)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(changed, invalid, "one view repaired per invalid row");
    group.bench_function("utf8-core lossy", |b| {
        b.iter(|| lossy(black_box(bad_views), black_box(bad_buffers)))
    });
}

/// This project's speed on the values as one string: the reference.
fn one_buffer(group: &mut Group, values: &[u8]) {
    assert!(utf8_core::from_utf8(values).is_ok());
    group.bench_function("one buffer", |b| {
        b.iter(|| utf8_core::from_utf8(black_box(values)).is_ok())
    });
}

fn bench(c: &mut Criterion) {
    let corpus = valid_corpus();
    for name in NAMES {
        let column = columns::column(name, &corpus);
        let (broken, invalid) = column.with_invalid_rows();
        assert_eq!(broken.values.len(), column.values.len());
        let bytes = Throughput::Bytes(column.values.len() as u64);
        let mut group = c.benchmark_group(format!("columns/{name}/offsets"));
        sample_by_size(&mut group, &column);
        group.throughput(bytes.clone());
        bench_offsets(&mut group, &column, &broken, invalid);
        group.finish();
        let mut group = c.benchmark_group(format!("columns/{name}/views"));
        sample_by_size(&mut group, &column);
        group.throughput(bytes);
        bench_views(&mut group, &column, &broken, invalid);
        group.finish();
    }
}

/// Ten samples of a fixed count of runs for a column of millions of rows,
/// whose per-row loops take a third of a second a run: criterion's default
/// (runs growing from sample to sample) would take a minute each.
fn sample_by_size(group: &mut Group, column: &Layouts) {
    if column.offsets.len() > TEN_MILLION {
        group.sampling_mode(SamplingMode::Flat).sample_size(10);
    }
}

criterion_group! {
    name = benches;
    // The validate benchmark's times: `cargo xtask bench` runs them all.
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1200))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
