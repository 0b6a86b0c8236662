//! The columns benchmark's ratios, taken in turns: in each turn every
//! contender checks the same column (a run of checks long enough to take
//! about a twentieth of a second, one check for the column of ten million
//! rows), and each ratio is of two contenders of the same turn; the median
//! of the turns' ratios is printed. Where the machine's speed drifts
//! between criterion's groups (a shared 2-core machine moved by a quarter
//! between runs of the same group), these are the ratios to quote;
//! `benches/columns.rs` gives each contender's throughput.
//!
//! The ratios, each a speed over a speed:
//!
//! - offsets ÷ one buffer: `Offsets::validated::<Rfc3629>`
//!   against `utf8_core::from_utf8` of the values as one string;
//! - views ÷ `core::str` per row, views ÷ simdutf8 per row:
//!   `Views::validated::<Rfc3629>` against a call per row;
//! - utf8-arrow ÷ utf8-core, for each layout: `utf8_arrow::validate` of a
//!   `BinaryArray` or `BinaryViewArray` over the same buffers against the
//!   utf8-core call it makes.
//!
//! Run: `cargo run --release -p utf8-bench --example columns_interleaved
//! [--level avx2] [COLUMN...]` (by default `lines-up-to-64-bytes`, `words`
//! and `words-10-million`; the names are `utf8_bench::columns::NAMES`).
//! `--level avx2` holds utf8-core, and so utf8-arrow, to AVX2 on a CPU
//! with AVX-512, as most users' CPUs run it; the peers keep their own
//! choice (simdutf8's and `core::str`'s do not go past AVX2).

use std::hint::black_box;
use std::time::Instant;

use arrow_array::BinaryArray;
use utf8_bench::columns::{self, Layouts, each_view};
use utf8_bench::{median, valid_corpus};
use utf8_core::Rfc3629;
use utf8_core::column::{Offsets, Views};
use utf8_core::cpu::Level;
use utf8_core::paths;

/// Turns taken for each column.
const TURNS: usize = 15;
/// About how many values bytes each contender checks in a turn.
const BYTES_A_TURN: usize = 60_000_000;

type Check<'a> = Box<dyn Fn() -> bool + 'a>;

/// The contenders, by name, over `column`'s buffers.
fn contenders<'a>(column: &'a Layouts, binary: &'a BinaryArray) -> Vec<(&'static str, Check<'a>)> {
    let offsets: &[i32] = &column.offsets;
    let values: &[u8] = &column.values;
    let array = &column.views;
    let (views, buffers) = (array.views(), array.data_buffers());
    vec![
        (
            "offsets",
            Box::new(move || {
                Offsets::validated::<Rfc3629>(black_box(offsets), black_box(values), None).is_ok()
            }),
        ),
        (
            "one buffer",
            Box::new(move || utf8_core::from_utf8(black_box(values)).is_ok()),
        ),
        (
            "utf8-arrow offsets",
            Box::new(move || utf8_arrow::validate(black_box(binary)).is_ok()),
        ),
        (
            "views",
            Box::new(move || {
                Views::validated::<Rfc3629>(black_box(views), black_box(buffers), None).is_ok()
            }),
        ),
        (
            "core::str per row",
            Box::new(move || {
                each_view(black_box(views), buffers, |row| {
                    core::str::from_utf8(row).is_ok()
                })
            }),
        ),
        (
            "simdutf8 per row",
            Box::new(move || {
                each_view(black_box(views), buffers, |row| {
                    simdutf8::basic::from_utf8(row).is_ok()
                })
            }),
        ),
        (
            "utf8-arrow views",
            Box::new(move || utf8_arrow::validate(black_box(array)).is_ok()),
        ),
    ]
}

/// The ratios printed: a name, and the contenders whose speeds divide.
const RATIOS: [(&str, &str, &str); 5] = [
    ("offsets ÷ one buffer", "offsets", "one buffer"),
    ("views ÷ core::str per row", "views", "core::str per row"),
    ("views ÷ simdutf8 per row", "views", "simdutf8 per row"),
    (
        "utf8-arrow ÷ utf8-core, offsets",
        "utf8-arrow offsets",
        "offsets",
    ),
    ("utf8-arrow ÷ utf8-core, views", "utf8-arrow views", "views"),
];

fn main() {
    let mut asked: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = asked.iter().position(|arg| arg == "--level") {
        match asked.get(at + 1).map(String::as_str) {
            Some("avx2") => paths::cap_level(Level::Avx2, false),
            other => {
                eprintln!("columns_interleaved: --level takes avx2, not {other:?}");
                std::process::exit(2);
            }
        }
        asked.drain(at..at + 2);
    }
    let names: Vec<&str> = match asked.is_empty() {
        true => vec!["lines-up-to-64-bytes", "words", "words-10-million"],
        false => asked.iter().map(String::as_str).collect(),
    };
    println!(
        "{} ({} CPUs), utf8-core at {:?}; median of {TURNS} turns",
        utf8_bench::cpu_model(),
        std::thread::available_parallelism().map_or(0, usize::from),
        utf8_core::cpu::level()
    );
    let corpus = valid_corpus();
    for name in names {
        let column = columns::column(name, &corpus);
        let binary = BinaryArray::new(column.offsets.clone(), column.values.clone(), None);
        let contenders = contenders(&column, &binary);
        let runs = (BYTES_A_TURN / column.values.len().max(1)).max(1);
        // Seconds a check, per contender, per turn.
        let mut times = vec![Vec::new(); contenders.len()];
        for _ in 0..TURNS {
            for ((_, check), times) in contenders.iter().zip(&mut times) {
                let started = Instant::now();
                for _ in 0..runs {
                    assert!(check());
                }
                times.push(started.elapsed().as_secs_f64() / runs as f64);
            }
        }
        let at = |contender: &str| {
            contenders
                .iter()
                .position(|(name, _)| *name == contender)
                .expect("a contender of the list")
        };
        let gb = |seconds: f64| column.values.len() as f64 / seconds / 1e9;
        println!(
            "\n{name}: {} rows, {} values bytes, {runs} checks a turn",
            column.offsets.len() - 1,
            column.values.len()
        );
        for (i, (contender, _)) in contenders.iter().enumerate() {
            println!("  {contender}: {:.2} GB/s", gb(median(times[i].clone())));
        }
        for (ratio, over, under) in RATIOS {
            let (over, under) = (&times[at(over)], &times[at(under)]);
            // A speed over a speed: the other's time over this one's.
            let turns = over.iter().zip(under).map(|(o, u)| u / o).collect();
            println!("  {ratio}: {:.2}×", median(turns));
        }
    }
}
