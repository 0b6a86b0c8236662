//! This project against `core::str::from_utf8` and the `simdutf8` crate, in
//! the same run, on the inputs of `utf8_bench::inputs()`.
//!
//! `cargo xtask bench` runs this and prints GB/s and ratios. Criterion's own
//! output (and `target/criterion/report`) has the details.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use utf8_bench::{Kind, inputs, read_only_pass};
use utf8_core::paths::Path;
use utf8_core::simd::Level;

type Validator = fn(&[u8]) -> bool;

/// The piece size of the streaming contender: a typical read buffer.
const STREAM_PIECE: usize = 4096;

const CONTENDERS: [(&str, Validator); 7] = [
    ("utf8-core", |b| utf8_core::from_utf8(b).is_ok()),
    // The same input fed to the streaming validator a read buffer at a time.
    ("utf8-core streaming 4K", |b| {
        let mut validator = utf8_core::Validator::new();
        b.chunks(STREAM_PIECE)
            .all(|piece| validator.update(piece).is_ok())
            && validator.finish().is_ok()
    }),
    // The AVX2 path on its own, to compare like with like where the CPU has AVX-512.
    ("utf8-core avx2", |b| {
        utf8_core::paths::rfc3629(Path::Simd(Level::Avx2), b)
            .expect("an AVX2 CPU")
            .is_ok()
    }),
    ("core::str", |b| core::str::from_utf8(b).is_ok()),
    ("simdutf8::basic", |b| simdutf8::basic::from_utf8(b).is_ok()),
    ("simdutf8::compat", |b| {
        simdutf8::compat::from_utf8(b).is_ok()
    }),
    ("utf8-core legacy31", |b| {
        utf8_core::legacy31::validate(b).is_ok()
    }),
];

fn bench(c: &mut Criterion) {
    for input in inputs() {
        let mut group = c.benchmark_group(&input.name);
        group.throughput(Throughput::Bytes(input.len() as u64));
        for (name, validate) in CONTENDERS {
            match &input.kind {
                Kind::Whole { bytes, valid } => {
                    // The legacy form accepts Latin-1 text that UTF-8 rejects; only
                    // compare it where both agree on what the input is.
                    if name.contains("legacy31") && !valid {
                        continue;
                    }
                    assert_eq!(validate(bytes), *valid, "{name} on {}", input.name);
                    group.bench_function(name, |b| b.iter(|| validate(black_box(bytes))));
                }
                Kind::Many(strings) => {
                    // Short strings never reach the vector code, nor span two pieces.
                    if name.contains("avx2") || name.contains("streaming") {
                        continue;
                    }
                    group.bench_function(name, |b| {
                        b.iter(|| {
                            let mut ok = true;
                            for s in strings {
                                ok &= validate(black_box(s));
                            }
                            ok
                        })
                    });
                }
            }
        }
        // The bandwidth reference, on whole inputs only.
        if let Kind::Whole { bytes, .. } = &input.kind
            && read_only_pass(bytes).is_some()
        {
            group.bench_function("read-only pass", |b| {
                b.iter(|| read_only_pass(black_box(bytes)))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1200))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
