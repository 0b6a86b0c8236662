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
//! - `utf8-core`: `Offsets::new` (which checks the layout, as arrow-rs's
//!   constructors do) and `validate::<Rfc3629>()`, or
//!   `Views::validated::<Rfc3629>`, which checks each view's layout in the
//!   same pass as its string;
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

use arrow_array::builder::BinaryViewBuilder;
use arrow_array::{BinaryArray, BinaryViewArray, StringArray};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use criterion::measurement::WallTime;
use criterion::{
    BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use utf8_bench::{SHORT, lines_cut_to, valid_corpus};
use utf8_core::column::{Column, LossyOffsets, LossyViews, Offsets, Views};
use utf8_core::cpu::{self, Level};
use utf8_core::paths::{self, Path};
use utf8_core::{Rfc3629, Ruleset, Utf8Error};

/// The files whose words make `non-latin-words`: every valid corpus file
/// in a script other than Latin (the emoji text left out).
const NON_LATIN: [&str; 17] = [
    "lipsum/Arabic-Lipsum",
    "lipsum/Chinese-Lipsum",
    "lipsum/Hebrew-Lipsum",
    "lipsum/Hindi-Lipsum",
    "lipsum/Japanese-Lipsum",
    "lipsum/Korean-Lipsum",
    "lipsum/Russian-Lipsum",
    "wikipedia_mars/arabic",
    "wikipedia_mars/chinese",
    "wikipedia_mars/greek",
    "wikipedia_mars/hebrew",
    "wikipedia_mars/hindi",
    "wikipedia_mars/japanese",
    "wikipedia_mars/korean",
    "wikipedia_mars/persan",
    "wikipedia_mars/russian",
    "wikipedia_mars/thai",
];

/// One row in this many is made invalid for the lossy contender.
const INVALID_EVERY: usize = 1000;

/// RFC 3629 with its vector check forced to AVX2: the built-in ruleset's
/// tables, so the column code takes the same paths, and `validate` through
/// `utf8_core::paths` instead of the dispatch. Used only where the CPU has
/// AVX2.
struct Rfc3629Avx2;

impl Ruleset for Rfc3629Avx2 {
    const NAME: &'static str = Rfc3629::NAME;
    type Value = <Rfc3629 as Ruleset>::Value;
    type Row = <Rfc3629 as Ruleset>::Row;
    const TABLES: utf8_core::__private::Tables<Self::Row> = Rfc3629::TABLES;

    fn validate(bytes: &[u8]) -> Result<(), Utf8Error> {
        paths::rfc3629(Path::Simd(Level::Avx2), bytes).expect("a CPU with AVX2")
    }
}

/// A column's rows in both layouts, in arrow-rs's buffers.
struct Layouts {
    offsets: OffsetBuffer<i32>,
    values: Buffer,
    views: BinaryViewArray,
}

impl Layouts {
    fn new<'a>(rows: impl Iterator<Item = &'a [u8]>) -> Layouts {
        let mut offsets = vec![0i32];
        let mut values = Vec::new();
        let mut builder = BinaryViewBuilder::new();
        for row in rows {
            values.extend_from_slice(row);
            offsets.push(i32::try_from(values.len()).expect("a column under 2 GiB"));
            builder.append_value(row);
        }
        Layouts {
            offsets: OffsetBuffer::new(ScalarBuffer::from(offsets)),
            values: Buffer::from_vec(values),
            views: builder.finish(),
        }
    }

    /// The same rows, with the first byte of one row in
    /// [`INVALID_EVERY`] made `FF`; and how many rows that is.
    fn with_invalid_rows(&self) -> (Layouts, usize) {
        let mut values = self.values.to_vec();
        let rows = self.offsets.len() - 1;
        let mut invalid = 0;
        let mut row = 0;
        while row < rows {
            let Some(hit) = (row..rows).find(|&r| self.offsets[r] < self.offsets[r + 1]) else {
                break;
            };
            values[self.offsets[hit] as usize] = 0xFF;
            invalid += 1;
            row = (hit / INVALID_EVERY + 1) * INVALID_EVERY;
        }
        let rows: Vec<&[u8]> = self
            .offsets
            .windows(2)
            .map(|w| &values[w[0] as usize..w[1] as usize])
            .collect();
        (Layouts::new(rows.iter().copied()), invalid)
    }

    fn rows(&self) -> impl Iterator<Item = &[u8]> {
        self.offsets
            .windows(2)
            .map(|w| &self.values[w[0] as usize..w[1] as usize])
    }
}

/// Runs `f` on each row of a views column, in order, while it returns
/// true: the per-row loops' way to read views, without a layout check.
#[inline]
fn each_view(views: &[u128], buffers: &[Buffer], mut f: impl FnMut(&[u8]) -> bool) -> bool {
    for &view in views {
        let len = view as u32 as usize;
        let ok = if len <= 12 {
            f(&view.to_le_bytes()[4..4 + len])
        } else {
            let buffer = &buffers[(view >> 64) as u32 as usize];
            let offset = (view >> 96) as u32 as usize;
            f(&buffer[offset..offset + len])
        };
        if !ok {
            return false;
        }
    }
    true
}

type Group<'a> = BenchmarkGroup<'a, WallTime>;

fn bench_offsets(group: &mut Group, column: &Layouts, broken: &Layouts, invalid: usize) {
    let (offsets, values): (&[i32], &[u8]) = (&column.offsets, &column.values);
    let ours = |offsets, values| Offsets::new(offsets, values)?.validate::<Rfc3629>();
    assert!(ours(offsets, values).is_ok());
    group.bench_function("utf8-core", |b| {
        b.iter(|| ours(black_box(offsets), black_box(values)))
    });
    if cpu::supports(Level::Avx2) {
        let avx2 = |offsets, values| Offsets::new(offsets, values)?.validate::<Rfc3629Avx2>();
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
    let texts = || corpus.iter().map(|(_, text)| text.as_str());
    let non_latin: Vec<&str> = NON_LATIN
        .iter()
        .map(|name| {
            let (_, text) = corpus
                .iter()
                .find(|(file, _)| file == name)
                .unwrap_or_else(|| panic!("{name} is not in the corpus"));
            text.as_str()
        })
        .collect();
    let words: Vec<&[u8]> = texts()
        .flat_map(str::split_ascii_whitespace)
        .map(str::as_bytes)
        .collect();
    let columns = [
        (
            "lines",
            Layouts::new(texts().flat_map(str::lines).map(str::as_bytes)),
        ),
        (
            "lines-up-to-64-bytes",
            Layouts::new(
                texts()
                    .flat_map(|text| lines_cut_to(text, SHORT))
                    .map(str::as_bytes),
            ),
        ),
        ("words", Layouts::new(words.iter().copied())),
        (
            "non-latin-words",
            Layouts::new(
                non_latin
                    .iter()
                    .flat_map(|text| text.split_ascii_whitespace())
                    .map(str::as_bytes),
            ),
        ),
        (
            "words-10-million",
            Layouts::new(words.iter().cycle().take(TEN_MILLION).copied()),
        ),
    ];
    for (name, column) in &columns {
        let (broken, invalid) = column.with_invalid_rows();
        assert_eq!(broken.values.len(), column.values.len());
        let bytes = Throughput::Bytes(column.values.len() as u64);
        let mut group = c.benchmark_group(format!("columns/{name}/offsets"));
        sample_by_size(&mut group, column);
        group.throughput(bytes.clone());
        bench_offsets(&mut group, column, &broken, invalid);
        group.finish();
        let mut group = c.benchmark_group(format!("columns/{name}/views"));
        sample_by_size(&mut group, column);
        group.throughput(bytes);
        bench_views(&mut group, column, &broken, invalid);
        group.finish();
    }
}

/// The rows of the column past every cache.
const TEN_MILLION: usize = 10_000_000;

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
