//! `utf8_core::cesu8::validate` and `utf8_core::mutf8::validate` against the
//! `cesu8` crate's `from_cesu8` and `from_java_cesu8`, on the valid corpus
//! files converted to CESU-8 (supplementary characters as surrogate pairs)
//! and to Java's modified UTF-8 (the same, and U+0000 as `C0 80`).
//!
//! The crate has no validate-only function: `from_cesu8` returns a
//! `Cow<str>`, and that is the cheapest way it offers to learn whether input
//! is valid. It first runs `core::str::from_utf8` over the whole input and,
//! when that succeeds, borrows it; otherwise it decodes into a new `String`
//! byte by byte. So on a file with no supplementary character (and, for
//! modified UTF-8, no U+0000) its converted form is plain UTF-8 and the crate
//! runs at `core::str::from_utf8`'s speed; only files with surrogate pairs
//! or `C0 80` take its decoding path: here `lipsum/Emoji-Lipsum` (16,384
//! emoji) and `wikipedia_mars/portuguese` (one, which costs the crate the
//! whole file). The ratios below
//! therefore compare us with `core::str` on most files, and with a decoder
//! on the others.
//!
//! The `to_str` groups race the conversions to UTF-8 on the same inputs:
//! `cesu8::to_str` and `mutf8::to_str` against `from_cesu8` and
//! `from_java_cesu8`, whose `Cow<str>` results they match (the borrowed
//! ones on files without pairs, new strings on the others). The `from_str`
//! groups race `cesu8::from_str` and `mutf8::from_str` against `to_cesu8`
//! and `to_java_cesu8`.
//!
//! Each dialect's validation is also measured forced to each vector level
//! this CPU has (its own check where it has one, the UTF-8 shortcut's RFC
//! 3629 check otherwise; `paths::dispatched`), and streamed through a
//! `Validator` in 4 KiB pieces; WTF-8 on the corpus as it is (UTF-8 text is
//! WTF-8). `cargo xtask bench` runs the validation groups and prints them
//! beside RFC 3629's speed on the same text.
//!
//! Run: `cargo bench -p utf8-bench --bench dialects`; only the conversions:
//! `cargo bench -p utf8-bench --bench dialects -- _str/`.

use std::borrow::Cow;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use utf8_bench::{to_cesu8, valid_corpus};
use utf8_core::cpu::{self, Level};
use utf8_core::paths::{self, Path};
use utf8_core::{Ruleset, Validator};

type Contender = (&'static str, Box<dyn Fn(&[u8]) -> bool>);

type CrateDecode = for<'a> fn(&'a [u8]) -> Result<Cow<'a, str>, cesu8::Cesu8DecodingError>;

/// The vector levels measured apart, where this CPU has them.
const LEVELS: [(&str, Level); 3] = [
    ("utf8-core AVX-512", Level::Avx512),
    ("utf8-core AVX2", Level::Avx2),
    ("utf8-core SSE4.1", Level::Sse41),
];

/// This project's contenders for ruleset `R`: `validate` as a user calls
/// it, each vector level, and a `Validator` fed 4 KiB pieces.
fn ours<R: Ruleset + 'static>(validate: fn(&[u8]) -> bool) -> Vec<Contender> {
    let mut contenders: Vec<Contender> = vec![("utf8-core", Box::new(validate))];
    for (name, level) in LEVELS.into_iter().filter(|(_, l)| cpu::supports(*l)) {
        contenders.push((
            name,
            Box::new(move |b| {
                paths::dispatched::<R>(Path::Simd(level), b)
                    .expect("a level this CPU supports")
                    .is_ok()
            }),
        ));
    }
    contenders.push((
        "utf8-core streaming 4K",
        Box::new(|b| {
            let mut validator = Validator::<R>::for_ruleset();
            b.chunks(4096).all(|piece| validator.update(piece).is_ok())
                && validator.finish().is_ok()
        }),
    ));
    contenders
}

fn cesu8_contenders() -> Vec<Contender> {
    let mut contenders = ours::<utf8_core::cesu8::Cesu8>(|b| utf8_core::cesu8::validate(b).is_ok());
    contenders.push(("cesu8 crate", Box::new(|b| cesu8::from_cesu8(b).is_ok())));
    contenders
}

fn mutf8_contenders() -> Vec<Contender> {
    let mut contenders = ours::<utf8_core::mutf8::Mutf8>(|b| utf8_core::mutf8::validate(b).is_ok());
    contenders.push((
        "cesu8 crate",
        Box::new(|b| cesu8::from_java_cesu8(b).is_ok()),
    ));
    contenders
}

type ToStr = for<'a> fn(&'a [u8]) -> Option<Cow<'a, str>>;
type FromStr = for<'a> fn(&'a str) -> Cow<'a, [u8]>;

const CESU8_TO_STR: [(&str, ToStr); 2] = [
    ("utf8-core", |b| utf8_core::cesu8::to_str(b).ok()),
    ("cesu8 crate", |b| cesu8::from_cesu8(b).ok()),
];

const MUTF8_TO_STR: [(&str, ToStr); 2] = [
    ("utf8-core", |b| utf8_core::mutf8::to_str(b).ok()),
    ("cesu8 crate", |b| cesu8::from_java_cesu8(b).ok()),
];

const CESU8_FROM_STR: [(&str, FromStr); 2] = [
    ("utf8-core", utf8_core::cesu8::from_str),
    ("cesu8 crate", cesu8::to_cesu8),
];

const MUTF8_FROM_STR: [(&str, FromStr); 2] = [
    ("utf8-core", utf8_core::mutf8::from_str),
    ("cesu8 crate", cesu8::to_java_cesu8),
];

/// The conversions, both ways, on `text` and its form in the dialect.
fn bench_conversions(c: &mut Criterion, name: &str, text: &str) {
    for (dialect, java, to_str, from_str) in [
        ("cesu8", false, CESU8_TO_STR, CESU8_FROM_STR),
        ("mutf8", true, MUTF8_TO_STR, MUTF8_FROM_STR),
    ] {
        let bytes = to_cesu8(text, java);
        let mut group = c.benchmark_group(format!("{dialect}_to_str/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        for (contender, convert) in to_str {
            assert_eq!(convert(&bytes).as_deref(), Some(text), "{contender}");
            group.bench_function(contender, |b| b.iter(|| convert(black_box(&bytes))));
        }
        group.finish();
        let mut group = c.benchmark_group(format!("{dialect}_from_str/{name}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        for (contender, convert) in from_str {
            assert_eq!(&*convert(text), bytes.as_slice(), "{contender}");
            group.bench_function(contender, |b| b.iter(|| convert(black_box(text))));
        }
        group.finish();
    }
}

fn bench(c: &mut Criterion) {
    for (name, text) in valid_corpus() {
        for (dialect, java, contenders, decode) in [
            (
                "cesu8",
                false,
                cesu8_contenders(),
                cesu8::from_cesu8 as CrateDecode,
            ),
            ("mutf8", true, mutf8_contenders(), cesu8::from_java_cesu8),
        ] {
            let bytes = to_cesu8(&text, java);
            // Both must accept the input, and the crate must give the text
            // back, or the race would not be over the same work.
            assert_eq!(
                decode(&bytes).ok().as_deref(),
                Some(text.as_str()),
                "{dialect} {name}"
            );
            let mut group = c.benchmark_group(format!("{dialect}/{name}"));
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            for (contender, validate) in &contenders {
                assert!(validate(&bytes), "{contender} on {dialect} {name}");
                group.bench_function(*contender, |b| b.iter(|| validate(black_box(&bytes))));
            }
            group.finish();
        }
        // WTF-8 on the text as it is: UTF-8 is WTF-8 without lone surrogates.
        let mut group = c.benchmark_group(format!("wtf8/{name}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        for (contender, validate) in
            ours::<utf8_core::wtf8::Wtf8>(|b| utf8_core::wtf8::validate(b).is_ok())
        {
            assert!(validate(text.as_bytes()), "{contender} on wtf8 {name}");
            group.bench_function(contender, |b| {
                b.iter(|| validate(black_box(text.as_bytes())))
            });
        }
        group.finish();
        bench_conversions(c, &name, &text);
    }
}

criterion_group! {
    name = benches;
    // The validate benchmark's times: `cargo xtask bench` runs both.
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1200))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
