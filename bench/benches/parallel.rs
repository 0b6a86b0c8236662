//! `utf8_core::parallel::from_utf8` (all cores) against `utf8_core::from_utf8`
//! (one core), `core::str::from_utf8` and `simdutf8::basic`, on 256 MiB of
//! valid corpus text, which no cache holds, and on 4 MiB, which the last
//! level cache may: the first shows what memory bandwidth allows, the second
//! how the computation itself scales.
//!
//! After criterion's measurements (when run by `cargo bench`), a table of
//! GB/s and the parallel ÷ one-core ratio, each the best of a few timed
//! runs, so the ratio comes from one run of both; beside it, how many cores
//! the parallel runs really got (CPU time ÷ wall time) and how the AVX2
//! read-only pass scales from one thread to two, the bound that memory
//! bandwidth sets.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use utf8_bench::{corpus_dir, read_only_pass};

type Validator = fn(&[u8]) -> bool;

const CONTENDERS: [(&str, Validator); 4] = [
    ("utf8-core", |b| utf8_core::from_utf8(b).is_ok()),
    ("utf8-core parallel", |b| {
        utf8_core::parallel::from_utf8(b).is_ok()
    }),
    ("core::str", |b| core::str::from_utf8(b).is_ok()),
    ("simdutf8::basic", |b| simdutf8::basic::from_utf8(b).is_ok()),
];

const SIZES: [(&str, usize); 2] = [("valid-256MiB", 256 << 20), ("valid-4MiB", 4 << 20)];

/// The corpus's UTF-8 files, repeated up to `len` bytes and cut at a
/// character boundary.
fn text(len: usize) -> Vec<u8> {
    let mut files = Vec::new();
    for directory in ["lipsum", "wikipedia_mars"] {
        let path = corpus_dir().join(directory);
        let entries =
            std::fs::read_dir(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.to_string_lossy().ends_with(".utf8.txt") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(
        !files.is_empty(),
        "no corpus under {}",
        corpus_dir().display()
    );
    let corpus: Vec<u8> = files
        .iter()
        .flat_map(|path| std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect();
    let mut bytes = Vec::with_capacity(len + corpus.len());
    while bytes.len() < len {
        bytes.extend_from_slice(&corpus);
    }
    let mut end = len;
    while bytes[end] & 0xC0 == 0x80 {
        end -= 1;
    }
    bytes.truncate(end);
    bytes
}

fn bench(c: &mut Criterion, inputs: &[(&str, Vec<u8>)]) {
    for (name, bytes) in inputs {
        let mut group = c.benchmark_group(format!("parallel/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        for (contender, validate) in CONTENDERS {
            assert!(validate(bytes), "{contender} on {name}");
            group.bench_function(contender, |b| b.iter(|| validate(black_box(bytes))));
        }
        group.finish();
    }
}

/// The best time of `runs` runs of `validate` on `bytes`.
fn best_of(runs: usize, validate: impl Fn(&[u8]) -> bool, bytes: &[u8]) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            black_box(validate(black_box(bytes)));
            start.elapsed()
        })
        .min()
        .expect("at least one run")
}

/// The read-only pass over two halves on two threads: how far memory
/// bandwidth lets two cores go, whatever they compute.
fn read_only_two_threads(bytes: &[u8]) -> bool {
    let (left, right) = bytes.split_at(bytes.len() / 2);
    std::thread::scope(|scope| {
        let other = scope.spawn(|| read_only_pass(left));
        let here = read_only_pass(right);
        other.join().expect("no panic").is_some() && here.is_some()
    })
}

/// CPU seconds this process has used, user and system, from `/proc/self/stat`
/// (Linux; clock ticks taken as the usual 100 a second).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

fn summary(inputs: &[(&str, Vec<u8>)]) {
    const RUNS: usize = 20;
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    println!("\nbest of {RUNS} runs, {threads} hardware threads, GB/s (10^9 bytes/s)");
    println!(
        "| input | utf8-core | parallel | core::str | simdutf8 basic | parallel ÷ one core \
         | CPU ÷ wall in parallel | read-only 1 thread | read-only 2 threads | 2 ÷ 1 |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (name, bytes) in inputs {
        let rate = |time: Duration| bytes.len() as f64 / time.as_secs_f64() / 1e9;
        let rates: Vec<f64> = CONTENDERS
            .iter()
            .map(|&(_, validate)| rate(best_of(RUNS, validate, bytes)))
            .collect();
        // Whether the pool really had two cores while it ran: a busy
        // neighbour shows as CPU time well under twice the wall time.
        // Long enough for the 100 Hz tick count to resolve it.
        let (cpu, wall) = (cpu_seconds(), Instant::now());
        while wall.elapsed() < Duration::from_millis(500) {
            black_box(CONTENDERS[1].1(black_box(bytes)));
        }
        let busy = cpu_seconds()
            .zip(cpu)
            .map(|(after, before)| (after - before) / wall.elapsed().as_secs_f64());
        let read_only = |pass: fn(&[u8]) -> bool| {
            if read_only_pass(bytes).is_none() {
                return f64::NAN;
            }
            rate(best_of(RUNS, pass, bytes))
        };
        let one = read_only(|b| read_only_pass(b).is_some());
        let two = read_only(read_only_two_threads);
        println!(
            "| {name} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2}× | {} | {one:.2} | {two:.2} | {:.2}× |",
            rates[0],
            rates[1],
            rates[2],
            rates[3],
            rates[1] / rates[0],
            busy.map_or("–".to_owned(), |busy| format!("{busy:.2}")),
            two / one,
        );
    }
}

fn main() {
    let inputs: Vec<(&str, Vec<u8>)> = SIZES.iter().map(|&(name, len)| (name, text(len))).collect();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(10)
        .configure_from_args();
    bench(&mut criterion, &inputs);
    criterion.final_summary();
    // `cargo bench` passes `--bench`; `cargo test --benches` runs each
    // benchmark once to check it works, and needs no table.
    if std::env::args().any(|arg| arg == "--bench") {
        summary(&inputs);
    }
}
