//! The emitted C's `utf8_validate_simd` against utf8-core held to AVX2, in
//! turns: ten validations of the joined corpus by one, then ten by the
//! other, 41 times, and the median of each turn's ratio. Where the machine's
//! speed drifts between criterion's groups (a shared 2-core machine moved by
//! a quarter between runs), a ratio taken within one turn is the one to
//! quote; `benches/emitted_c.rs` gives each contender's throughput.
//!
//! Run: `cargo run --release -p utf8-bench --features emitted-c --example emitted_c_interleaved`

#[cfg(feature = "emitted-c")]
fn main() {
    use std::hint::black_box;
    use std::time::Instant;

    use utf8_bench::{emitted, median, to_cesu8, valid_corpus};
    use utf8_core::cpu::{self, Level};
    use utf8_core::paths::{self, Path};
    use utf8_core::{Ruleset, cesu8::Cesu8, wtf8::Wtf8};

    type Validator = fn(&[u8]) -> bool;

    fn gib_per_second(validate: Validator, bytes: &[u8]) -> f64 {
        let started = Instant::now();
        for _ in 0..10 {
            assert!(validate(black_box(bytes)));
        }
        (bytes.len() * 10) as f64 / started.elapsed().as_secs_f64() / f64::from(1u32 << 30)
    }

    fn core<R: Ruleset>(bytes: &[u8]) -> bool {
        paths::dispatched::<R>(Path::Simd(Level::Avx2), bytes)
            .expect("AVX2 on this CPU")
            .is_ok()
    }

    assert!(cpu::supports(Level::Avx2), "this comparison needs AVX2");
    let text: String = valid_corpus().into_iter().map(|(_, text)| text).collect();
    let utf8 = text.as_bytes().to_vec();
    let cesu8 = to_cesu8(&text, false);
    let races: [(&str, &[u8], Validator, Validator); 3] = [
        (
            "rfc3629",
            &utf8,
            core::<utf8_core::Rfc3629>,
            emitted::rfc3629_simd,
        ),
        ("cesu8", &cesu8, core::<Cesu8>, emitted::cesu8_simd),
        ("wtf8", &utf8, core::<Wtf8>, emitted::wtf8_simd),
    ];
    for (name, bytes, ours, emitted_c) in races {
        let (mut core_speeds, mut emitted_speeds, mut ratios) = (vec![], vec![], vec![]);
        for _ in 0..41 {
            let core_speed = gib_per_second(ours, bytes);
            let emitted_speed = gib_per_second(emitted_c, bytes);
            ratios.push(emitted_speed / core_speed);
            core_speeds.push(core_speed);
            emitted_speeds.push(emitted_speed);
        }
        println!(
            "{name}: utf8-core AVX2 {:.2} GiB/s, emitted C AVX2 {:.2} GiB/s, emitted / utf8-core {:.2} (median of 41 turns)",
            median(core_speeds),
            median(emitted_speeds),
            median(ratios)
        );
    }
}

#[cfg(not(feature = "emitted-c"))]
fn main() {
    eprintln!("emitted_c_interleaved: build with `--features emitted-c`");
}
