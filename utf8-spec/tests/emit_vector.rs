//! The vector validator `utf8 tables --emit c` writes (`utf8_validate_simd`),
//! compiled by gcc at each vector level the machine has (AVX2, SSE4.1) and
//! without vector code, under AddressSanitizer and UndefinedBehaviorSanitizer,
//! for every grammar of the emit tests and a user grammar whose check
//! proves (the Basic Multilingual Plane by scalars): its `valid_up_to` and
//! `error_len` against the class tables' on the corpus, windows of it cut
//! and mutated, random inputs, every length 0 to 300 at each of 32
//! alignments, and long texts that stop the UTF-8 shortcut (which CESU-8,
//! WTF-8 and RFC 2279 take first) at every density. Each input lies at the end of its allocation, where ASan
//! guards the next byte, and again just before a page without access.
//!
//! CI's NEON step runs it again with `UTF8_TEST_C_CROSS=aarch64-linux-gnu-gcc`
//! and `UTF8_TEST_C_RUNNER="qemu-aarch64 -L SYSROOT"`: the NEON path and the
//! shift DFA cross-compiled, without the sanitizers, and run under QEMU.

mod emit_common;

use std::process::Command;

use emit_common::{Rng, Toolchain, grammars, inputs, reference, run_c_on, run_ok, scratch};
use utf8_spec::simd::SimdTables;
use utf8_spec::{Derivation, Tables};

/// `utf8_validate_simd` on the input placed at 32 alignments in turn, and
/// again ending where a `PROT_NONE` page begins: `valid_up_to error_len`;
/// and `utf8_stream_simd` on it in three pieces, which must reach the state
/// `utf8_stream` reaches on the whole.
const VALIDATE_SIMD: &str = r#"
        static size_t record = 0;
        size_t shift = record++ % 32;
        uint8_t *placed = malloc(n + shift ? n + shift : 1);
        if (!placed) return 2;
        if (n) memcpy(placed + shift, input, n);
        struct utf8_result result;
        bool valid = utf8_validate_simd(placed + shift, n, &result);
        if (valid != (result.error_len == 0)) return 3;
        size_t page = (size_t)sysconf(_SC_PAGESIZE), span = (n + page - 1) / page * page;
        uint8_t *pages = mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (pages == MAP_FAILED || mprotect(pages + span, page, PROT_NONE) != 0) return 4;
        if (n) memcpy(pages + span - n, input, n);
        struct utf8_result guarded;
        utf8_validate_simd(pages + span - n, n, &guarded);
        if (guarded.valid_up_to != result.valid_up_to || guarded.error_len != result.error_len) return 5;
        munmap(pages, span + page);
        free(placed);
        /* utf8_stream_simd over three pieces, each in an allocation of its own, cut at
           places that move from input to input: the state utf8_stream reaches. */
        size_t cuts[4] = {0, (record * 7919u) % (n + 1), 0, n};
        cuts[2] = cuts[1] + (n - cuts[1]) / 2;
        uint32_t state = UTF8_SHIFT_START;
        for (int k = 0; k < 3; k++) {
            size_t len = cuts[k + 1] - cuts[k];
            uint8_t *piece = malloc(len ? len : 1);
            if (!piece) return 2;
            if (len) memcpy(piece, input + cuts[k], len);
            state = utf8_stream_simd(state, piece, len);
            free(piece);
        }
        if (utf8_shift_field(state) != utf8_shift_field(utf8_stream(UTF8_SHIFT_START, input, n))) return 6;
        printf("%zu %d\n", result.valid_up_to, result.error_len);
"#;

/// The vector levels this machine runs: gcc's flags, and the block width
/// the emitted code must pick with them (none: the shift DFA alone). A
/// cross compiler's target is AArch64, whose NEON is always there.
fn levels(toolchain: &Toolchain) -> Vec<(&'static str, &'static [&'static str], Option<u32>)> {
    let mut levels: Vec<(&str, &[&str], Option<u32>)> =
        vec![("scalar", &["-DUTF8_NO_VECTOR"], None)];
    if toolchain.cross {
        levels.push(("neon", &[], Some(16)));
        return levels;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("sse4.1") {
            levels.push(("sse41", &["-msse4.1"], Some(16)));
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            levels.push(("avx2", &["-mavx2"], Some(32)));
        }
    }
    levels
}

/// Windows of the corpus up to 3 KB, most with a byte or two changed, and
/// runs of ASCII between characters of every length, so that blocks are
/// skipped, checked, and cut everywhere.
fn long_inputs(corpus: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(0xB10C);
    let mut inputs = Vec::new();
    let texts: Vec<&Vec<u8>> = corpus.iter().filter(|text| text.len() > 3000).collect();
    for _ in 0..1500 {
        let text = texts[rng.below(texts.len())];
        let len = rng.below(3000);
        let start = rng.below(text.len() - len);
        let mut input = text[start..start + len].to_vec();
        for _ in 0..rng.below(3) {
            if !input.is_empty() {
                let at = rng.below(input.len());
                input[at] = rng.next_u64() as u8;
            }
        }
        inputs.push(input);
    }
    let pieces: [&[u8]; 6] = [
        b"\xC3\xA9",
        b"\xE2\x82\xAC",
        b"\xF0\x9F\x9A\x80",
        b"\xED\xA0\x80",
        b"\xFF",
        b"\xE2\x82",
    ];
    // Each piece cut by the end of a turn of four blocks (128 bytes under
    // AVX2), followed by turns of ASCII that may be skipped only after it.
    for len in 0..=140 {
        for piece in pieces {
            inputs.push([&vec![b'a'; len][..], piece, &[b'a'; 300]].concat());
        }
    }
    // Each piece ending the input, and starting it, at every offset of a block.
    for len in 0..=70 {
        for piece in pieces {
            for other in pieces {
                let run = vec![b'a'; len];
                inputs.push([&run[..], piece].concat());
                inputs.push([piece, &run[..]].concat());
                inputs.push([&run[..], other, piece].concat());
            }
        }
    }
    for _ in 0..1500 {
        let mut input = Vec::new();
        while input.len() < 200 {
            input.extend(std::iter::repeat_n(b'a', rng.below(70)));
            input.extend_from_slice(pieces[rng.below(pieces.len())]);
        }
        inputs.push(input);
    }
    inputs
}

/// Text the UTF-8 shortcut stops on again and again, at every density,
/// up to 12 KB: characters of one to three bytes with surrogate pairs
/// (CESU-8's supplementary characters), or with lone surrogates and
/// four-byte characters (WTF-8's), every `gap` bytes or so. The ruleset's
/// own check then reads windows that grow, end at restart points and are
/// cut by the input's end. Each text also with a byte changed, and cut.
fn shortcut_stops() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(0x5C07);
    let filler = ["a", "b", " ", "\u{E9}", "\u{20AC}"];
    let cesu8: [&[u8]; 1] = [b"\xED\xA0\xBD\xED\xB8\x80"];
    let wtf8: [&[u8]; 3] = [b"\xED\xA0\xBD", b"\xED\xB8\x80", "\u{1F600}".as_bytes()];
    let mut inputs = Vec::new();
    for gap in [0, 1, 7, 60, 400, 1000, 1100, 2100, 5000] {
        for round in 0..6 {
            let specials: &[&[u8]] = if round % 2 == 0 { &cesu8 } else { &wtf8 };
            let len = 1 + rng.below(12_000);
            let mut input = Vec::new();
            while input.len() < len {
                // At least one character between specials, so that a lone
                // lead never meets a trail.
                for _ in 0..=rng.below(2 * gap + 1) {
                    input.extend_from_slice(filler[rng.below(filler.len())].as_bytes());
                }
                input.extend_from_slice(specials[rng.below(specials.len())]);
            }
            let mut changed = input.clone();
            let at = rng.below(changed.len());
            changed[at] = rng.next_u64() as u8;
            let cut = input[..rng.below(input.len())].to_vec();
            inputs.extend([input, changed, cut]);
        }
    }
    // A surrogate at the start stops the shortcut there, so the own check's
    // first window ends near byte 1024: a pair of surrogates (CESU-8's
    // character, WTF-8's error) at every place across that end.
    for start in [cesu8[0], wtf8[0], wtf8[1]] {
        for at in 1000..1040 {
            let run = vec![b'a'; at - start.len()];
            inputs.push([start, &run[..], cesu8[0], &[b'a'; 100]].concat());
        }
    }
    inputs
}

/// Each length 0 to 300 of a mixed text, 32 times in a row: the harness
/// places the copies at 32 alignments.
fn every_length_at_every_alignment() -> Vec<Vec<u8>> {
    let text = "Mars \u{2642} caf\u{E9} \u{65E5}\u{672C} \u{1F680} ascii runs of some length, then \u{10FFFF}\n";
    let text = text.repeat(6).into_bytes();
    (0..=300)
        .flat_map(|len| std::iter::repeat_n(text[..len].to_vec(), 32))
        .collect()
}

/// The grammars: the emit tests' (whose vector checks prove, or are
/// declined and get the shift DFA alone), and the Basic Multilingual Plane,
/// a user's scalar set whose check proves.
fn grammars_with_a_proved_user_grammar() -> Vec<(String, Derivation)> {
    let mut all = grammars();
    let bmp =
        utf8_spec::scalars::derive(&[(0, 0xD7FF), (0xE000, 0xFFFF)]).expect("the BMP derives");
    assert!(
        SimdTables::new(bmp.tables()).is_ok(),
        "the BMP's vector check proves"
    );
    all.push(("bmp".to_owned(), bmp));
    all
}

/// The block width the program's source picks under `flags`.
fn width_picked(toolchain: &Toolchain, name: &str, flags: &[&str]) -> Option<u32> {
    let source = scratch(name).join("validate.c");
    let defines = run_ok(
        Command::new(&toolchain.compiler)
            .args(["-std=c99", "-dM", "-E"])
            .args(flags)
            .arg(&source),
        "gcc -dM -E",
    );
    String::from_utf8(defines)
        .expect("text")
        .lines()
        .find_map(|line| line.strip_prefix("#define UTF8_V_WIDTH "))
        .map(|width| width.trim().parse().expect("a width"))
}

fn check(toolchain: &Toolchain, name: &str, tables: &Tables, inputs: &[Vec<u8>]) {
    for (level, flags, width) in levels(toolchain) {
        let program = format!("{name}-simd-{level}");
        let flags = [flags, &["-D_DEFAULT_SOURCE"]].concat();
        let answers = run_c_on(toolchain, &program, tables, VALIDATE_SIMD, inputs, &flags);
        let vector = SimdTables::new(tables).is_ok();
        assert_eq!(
            width_picked(toolchain, &program, &flags),
            width.filter(|_| vector),
            "{program}: the vector path compiled where the level has one"
        );
        for (input, answer) in inputs.iter().zip(answers) {
            let (valid_up_to, error_len) = reference(tables, input);
            assert_eq!(
                answer,
                format!("{valid_up_to} {error_len}"),
                "{program}: {input:02X?}"
            );
        }
    }
}

#[test]
fn the_emitted_vector_validator_finds_the_exact_error_at_every_level_under_the_sanitizers() {
    let corpus = inputs();
    let mut all = corpus.clone();
    all.extend(long_inputs(&corpus));
    all.extend(every_length_at_every_alignment());
    all.extend(shortcut_stops());
    let toolchain = Toolchain::from_env();
    for (name, derivation) in grammars_with_a_proved_user_grammar() {
        check(&toolchain, &name, derivation.tables(), &all);
    }
}

/// The UTF-8 shortcut in every language: JSON's `shortcut` holds the
/// forbidden ranges and the tables of the shortcut language's own proved
/// check, where the ruleset's own check costs more a block; `null` where it
/// does not (RFC 3629 is its own shortcut; modified UTF-8's check is as
/// cheap as UTF-8's); the C and the Rust carry the same tables.
#[test]
fn the_shortcut_taken_first_is_emitted_with_its_languages_proved_tables() {
    use utf8_spec::explain::{Emit, emit};
    use utf8_spec::rulesets::builtin;
    use utf8_spec::utf8_shortcut::Utf8Shortcut;

    let utf8 = builtin("rfc3629").unwrap().derive().unwrap();
    for (name, forbidden) in [
        ("rfc3629", None),
        ("mutf8", None),
        ("cesu8", Some(vec![(0xF0, 0xFF)])),
        ("wtf8", Some(vec![])),
        ("rfc2279", Some(vec![])),
    ] {
        let tables = builtin(name).unwrap().derive().unwrap().tables().clone();
        let json: serde_json::Value =
            serde_json::from_str(&emit(&tables, Emit::Json)).expect("JSON");
        let c = emit(&tables, Emit::C);
        let rust = emit(&tables, Emit::Rust);
        let Some(forbidden) = forbidden else {
            assert!(json["shortcut"].is_null(), "{name}");
            assert!(!c.contains("utf8_shortcut_scan"), "{name}");
            assert!(!rust.contains("SHORTCUT_VECTOR_SETS"), "{name}");
            continue;
        };
        let ranges: Vec<(u64, u64)> = json["shortcut"]["forbidden"]
            .as_array()
            .expect("ranges")
            .iter()
            .map(|r| (r[0].as_u64().unwrap(), r[1].as_u64().unwrap()))
            .collect();
        assert_eq!(ranges, forbidden, "{name}");
        let language = Utf8Shortcut::find(&tables, utf8.tables())
            .expect("a shortcut")
            .language(utf8.tables());
        let check = SimdTables::new(&language).expect("the language's check proves");
        let sets = json["shortcut"]["vector"]["sets"].as_array().expect("sets");
        assert_eq!(sets.len(), check.sets().len(), "{name}");
        for (emitted, set) in sets.iter().zip(check.sets()) {
            let table: Vec<u8> = emitted["prev_high"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u8)
                .collect();
            assert_eq!(table, set.prev_high, "{name}");
        }
        let first = check.sets()[0]
            .prev_high
            .map(|b| format!("0x{b:02X}"))
            .join(", ");
        assert!(c.contains("utf8_shortcut_scan"), "{name}");
        assert!(c.contains(&first) && rust.contains(&first), "{name}");
        assert!(rust.contains("pub const SHORTCUT_VECTOR_SETS"), "{name}");
    }
}
