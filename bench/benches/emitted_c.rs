//! The C validators `utf8 tables --emit c` writes, against utf8-core on the
//! same ruleset and (with `cpp-simdutf`) C++ simdutf, in the same run, on
//! the valid corpus files joined into one input: RFC 3629 as it is, CESU-8
//! converted (supplementary characters as surrogate pairs), WTF-8 as it is.
//!
//! For each ruleset: utf8-core dispatched and held to AVX2; the emitted
//! `utf8_validate_simd` (built with `-mavx2` on x86-64); the emitted
//! shift DFA (`utf8_validate`); and the emitted `utf8_accepts`, the class
//! tables a byte at a time, which the shift DFA replaces.
//!
//! Run: `cargo bench -p utf8-bench --features emitted-c --bench emitted_c`
//! (add `cpp-simdutf` for C++ simdutf beside them).

#[cfg(feature = "emitted-c")]
mod race {
    use std::hint::black_box;
    use std::time::Duration;

    use criterion::{Criterion, Throughput};
    use utf8_bench::{emitted, to_cesu8, valid_corpus};
    use utf8_core::Ruleset;
    use utf8_core::cpu::{self, Level};
    use utf8_core::paths::{self, Path};

    type Contender = (&'static str, Box<dyn Fn(&[u8]) -> bool>);

    /// utf8-core's contenders for `R`: dispatched, and held to AVX2 where
    /// the CPU has it.
    fn ours<R: Ruleset>() -> Vec<Contender> {
        let mut contenders: Vec<Contender> =
            vec![("utf8-core", Box::new(|b: &[u8]| R::validate(b).is_ok()))];
        if cpu::supports(Level::Avx2) {
            contenders.push((
                "utf8-core AVX2",
                Box::new(|b: &[u8]| {
                    paths::dispatched::<R>(Path::Simd(Level::Avx2), b)
                        .expect("AVX2 on this CPU")
                        .is_ok()
                }),
            ));
        }
        contenders
    }

    /// The emitted C's three validators.
    fn emitted_c(
        simd: fn(&[u8]) -> bool,
        shift: fn(&[u8]) -> bool,
        accepts: fn(&[u8]) -> bool,
    ) -> Vec<Contender> {
        vec![
            ("emitted C simd", Box::new(simd)),
            ("emitted C shift DFA", Box::new(shift)),
            ("emitted C accepts", Box::new(accepts)),
        ]
    }

    pub fn bench(c: &mut Criterion) {
        let text: String = valid_corpus().into_iter().map(|(_, text)| text).collect();
        let utf8 = text.as_bytes().to_vec();
        let cesu8 = to_cesu8(&text, false);

        let mut rfc3629 = ours::<utf8_core::Rfc3629>();
        rfc3629.extend(emitted_c(
            emitted::rfc3629_simd,
            emitted::rfc3629_shift,
            emitted::rfc3629_accepts,
        ));
        #[cfg(feature = "cpp-simdutf")]
        rfc3629.push(("C++ simdutf", Box::new(simdutf::validate_utf8)));
        let mut cesu = ours::<utf8_core::cesu8::Cesu8>();
        cesu.extend(emitted_c(
            emitted::cesu8_simd,
            emitted::cesu8_shift,
            emitted::cesu8_accepts,
        ));
        let mut wtf = ours::<utf8_core::wtf8::Wtf8>();
        wtf.extend(emitted_c(
            emitted::wtf8_simd,
            emitted::wtf8_shift,
            emitted::wtf8_accepts,
        ));

        for (ruleset, bytes, contenders) in [
            ("rfc3629", &utf8, rfc3629),
            ("cesu8", &cesu8, cesu),
            ("wtf8", &utf8, wtf),
        ] {
            let mut group = c.benchmark_group(format!("emitted_c/{ruleset}"));
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            group.warm_up_time(Duration::from_millis(500));
            group.measurement_time(Duration::from_secs(2));
            for (name, validate) in &contenders {
                assert!(validate(bytes), "{ruleset}: {name} accepts the corpus");
                group.bench_function(*name, |b| b.iter(|| validate(black_box(bytes))));
            }
            group.finish();
        }
    }
}

#[cfg(feature = "emitted-c")]
criterion::criterion_group!(benches, race::bench);
#[cfg(feature = "emitted-c")]
criterion::criterion_main!(benches);

#[cfg(not(feature = "emitted-c"))]
fn main() {
    eprintln!("emitted_c: build with `--features emitted-c`");
}
