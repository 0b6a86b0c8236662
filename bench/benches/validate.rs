//! This project against `core::str::from_utf8`, the `simdutf8` crate and
//! (with the `cpp-simdutf` feature) C++ simdutf, in the same run, on the
//! inputs of `utf8_bench::inputs()`: each at the level its library picks for
//! this CPU, and each vector level forced on its own where the CPU has it, to
//! compare like with like.
//!
//! `cargo xtask bench` runs this and prints GB/s and ratios; it looks the
//! contenders up by the names given here. Criterion's own output (and
//! `$CARGO_TARGET_DIR/criterion/report`) has the details.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use utf8_bench::{Kind, inputs, read_only_pass};
use utf8_core::cpu::{self, Level};
use utf8_core::paths::{self, Path};

type Validator = fn(&[u8]) -> bool;

/// The piece size of the streaming contender: a typical read buffer.
const STREAM_PIECE: usize = 4096;

/// Our vector check forced to one level; only listed where the CPU has it.
fn utf8_core_at(level: Level, bytes: &[u8]) -> bool {
    paths::rfc3629(Path::Simd(level), bytes)
        .expect("a level this CPU supports")
        .is_ok()
}

/// Every contender this build and CPU can run, in table order.
fn contenders() -> Vec<(&'static str, Validator)> {
    let mut all: Vec<(&'static str, Validator)> =
        vec![("utf8-core", |b| utf8_core::from_utf8(b).is_ok())];
    let forced: [(&'static str, Level, Validator); 3] = [
        ("utf8-core AVX-512", Level::Avx512, |b| {
            utf8_core_at(Level::Avx512, b)
        }),
        ("utf8-core AVX2", Level::Avx2, |b| {
            utf8_core_at(Level::Avx2, b)
        }),
        ("utf8-core SSE4.1", Level::Sse41, |b| {
            utf8_core_at(Level::Sse41, b)
        }),
    ];
    all.extend(
        forced
            .into_iter()
            .filter(|(_, level, _)| cpu::supports(*level))
            .map(|(name, _, validate)| (name, validate)),
    );
    all.extend::<[(&'static str, Validator); 5]>([
        // The same input fed to the streaming validator a read buffer at a time.
        ("utf8-core streaming 4K", |b| {
            let mut validator = utf8_core::Validator::new();
            b.chunks(STREAM_PIECE)
                .all(|piece| validator.update(piece).is_ok())
                && validator.finish().is_ok()
        }),
        ("utf8-core legacy31", |b| {
            utf8_core::legacy31::validate(b).is_ok()
        }),
        ("core::str", |b| core::str::from_utf8(b).is_ok()),
        ("simdutf8::basic", |b| simdutf8::basic::from_utf8(b).is_ok()),
        ("simdutf8::compat", |b| {
            simdutf8::compat::from_utf8(b).is_ok()
        }),
    ]);
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    simdutf8_levels(&mut all);
    #[cfg(feature = "cpp-simdutf")]
    all.push(("C++ simdutf", simdutf::validate_utf8));
    all
}

/// simdutf8's AVX2 and SSE4.2 validators on their own, where the CPU has them.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
fn simdutf8_levels(all: &mut Vec<(&'static str, Validator)>) {
    use simdutf8::basic::imp::x86::{avx2, sse42};
    if std::is_x86_feature_detected!("avx2") {
        all.push(("simdutf8 AVX2", |b| {
            // SAFETY: listed only after AVX2 was detected on this CPU.
            unsafe { avx2::validate_utf8(b) }.is_ok()
        }));
    }
    if std::is_x86_feature_detected!("sse4.2") {
        all.push(("simdutf8 SSE4.2", |b| {
            // SAFETY: listed only after SSE4.2 was detected on this CPU.
            unsafe { sse42::validate_utf8(b) }.is_ok()
        }));
    }
}

fn bench(c: &mut Criterion) {
    for input in inputs() {
        let mut group = c.benchmark_group(&input.name);
        group.throughput(Throughput::Bytes(input.len() as u64));
        for (name, validate) in contenders() {
            let (Kind::Whole { valid, .. } | Kind::Many { valid, .. }) = &input.kind;
            // The legacy form accepts Latin-1 text that UTF-8 rejects; only
            // compare it where both agree on what the input is.
            if name.contains("legacy31") && !valid {
                continue;
            }
            match &input.kind {
                Kind::Whole { bytes, valid } => {
                    assert_eq!(validate(bytes), *valid, "{name} on {}", input.name);
                    group.bench_function(name, |b| b.iter(|| validate(black_box(bytes))));
                }
                Kind::Many { strings, valid } => {
                    // Every contender, forced levels too: the dispatching
                    // ones answer short strings and early errors without
                    // vector code, and the columns show what that is worth.
                    assert!(
                        strings.iter().all(|s| validate(s) == *valid),
                        "{name} on {}",
                        input.name
                    );
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
