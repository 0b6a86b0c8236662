//! The inputs of the benchmarks: every file of `data/corpus`, 1 MiB of
//! ASCII, random text of 1–4-byte characters, many strings of 0–64 bytes, and
//! invalid inputs whose first error is early.
//!
//! Generated inputs come from a fixed-seed generator, so every run measures
//! the same bytes.

use std::path::{Path, PathBuf};

pub mod columns;

/// One benchmark input.
pub struct Input {
    /// `lipsum/Arabic-Lipsum`, `generated/ascii-1MiB`, ...
    pub name: String,
    /// What the input is made of.
    pub kind: Kind,
}

/// The shape of an input.
pub enum Kind {
    /// One buffer, validated in one call; `valid` says whether it is UTF-8.
    Whole {
        /// The bytes.
        bytes: Vec<u8>,
        /// Whether the bytes are valid UTF-8.
        valid: bool,
    },
    /// Many strings, one call each; `valid` says whether every one is UTF-8
    /// (or none is).
    Many {
        /// The strings.
        strings: Vec<Vec<u8>>,
        /// Whether the strings are valid UTF-8.
        valid: bool,
    },
}

impl Input {
    /// Bytes validated per iteration.
    pub fn len(&self) -> usize {
        match &self.kind {
            Kind::Whole { bytes, .. } => bytes.len(),
            Kind::Many { strings, .. } => strings.iter().map(Vec::len).sum(),
        }
    }

    /// Whether the input has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The bandwidth reference: an AVX2 pass that reads every byte and only ORs
/// them together (what any validator must at least do), or `None` on a CPU
/// without AVX2.
pub fn read_only_pass(bytes: &[u8]) -> Option<u8> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 support was just detected.
            return Some(unsafe { read_only_avx2(bytes) });
        }
    }
    let _ = bytes;
    None
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn read_only_avx2(bytes: &[u8]) -> u8 {
    use std::arch::x86_64::*;
    let mut acc = _mm256_setzero_si256();
    let mut blocks = bytes.chunks_exact(32);
    for block in blocks.by_ref() {
        // SAFETY: `block` is 32 readable bytes; unaligned loads are allowed.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        acc = _mm256_or_si256(acc, v);
    }
    let mut lanes = [0u8; 32];
    // SAFETY: `lanes` is 32 writable bytes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), acc) };
    lanes
        .iter()
        .chain(blocks.remainder())
        .fold(0, |a, &b| a | b)
}

/// The corpus directory: `data/corpus` at the workspace root, or where
/// `UTF8_CORPUS` names one (a binary built here and run on a machine that
/// holds the repository at another path: `bench/scaling.sh`).
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("UTF8_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/corpus"),
    }
}

/// A small xorshift generator: reproducible inputs without a dependency.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (not zero).
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Random text: each character 1, 2, 3 or 4 bytes long with equal chance.
pub fn random_text(len: usize, rng: &mut Rng) -> String {
    let mut text = String::with_capacity(len + 4);
    while text.len() < len {
        let c = match rng.below(4) {
            0 => char::from_u32(0x20 + rng.below(0x5F) as u32),
            1 => char::from_u32(0x80 + rng.below(0x780) as u32),
            2 => char::from_u32(0x800 + rng.below(0xF800) as u32),
            _ => char::from_u32(0x10000 + rng.below(0x100000) as u32),
        };
        // Surrogate code points are not chars; draw again.
        if let Some(c) = c {
            text.push(c);
        }
    }
    text
}

/// The longest of the short strings: `generated/lines-up-to-64-bytes`.
pub const SHORT: usize = 64;

/// The lines of `text` cut into pieces of at most `max` bytes at character
/// boundaries (`max` at least 4): short strings as a program meets them.
/// Empty lines give no piece.
pub fn lines_cut_to(text: &str, max: usize) -> impl Iterator<Item = &str> {
    text.lines().flat_map(move |line| {
        let mut rest = line;
        std::iter::from_fn(move || {
            if rest.is_empty() {
                return None;
            }
            let mut cut = rest.len().min(max);
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            let (piece, after) = rest.split_at(cut);
            rest = after;
            Some(piece)
        })
    })
}

/// The valid corpus files, as `(dir/name, text)`, in path order.
pub fn valid_corpus() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["lipsum", "wikipedia_mars"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(corpus_dir().join(dir))
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", corpus_dir().join(dir).display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|p| p.to_string_lossy().ends_with(".utf8.txt"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("a valid UTF-8 corpus file");
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("utf-8 name")
                .trim_end_matches(".utf8.txt");
            files.push((format!("{dir}/{name}"), text));
        }
    }
    assert!(
        !files.is_empty(),
        "no corpus under {}",
        corpus_dir().display()
    );
    files
}

/// Every input, in report order.
pub fn inputs() -> Vec<Input> {
    let mut inputs = Vec::new();
    for dir in ["lipsum", "wikipedia_mars"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir().join(dir))
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", corpus_dir().join(dir).display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        for path in files {
            let bytes = std::fs::read(&path).expect("corpus file");
            let stem = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("utf-8 name");
            let valid = stem.ends_with(".utf8.txt");
            let name = stem.trim_end_matches(".txt").trim_end_matches(".utf8");
            inputs.push(Input {
                name: format!("{dir}/{name}"),
                kind: Kind::Whole { bytes, valid },
            });
        }
    }
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let ascii: Vec<u8> = (0..1 << 20).map(|_| b' ' + rng.below(95) as u8).collect();
    inputs.push(Input {
        name: "generated/ascii-1MiB".into(),
        kind: Kind::Whole {
            bytes: ascii,
            valid: true,
        },
    });
    inputs.push(Input {
        name: "generated/random-1-4-byte-1MiB".into(),
        kind: Kind::Whole {
            bytes: random_text(1 << 20, &mut rng).into_bytes(),
            valid: true,
        },
    });
    // Lines of the corpus cut into strings of at most 64 bytes.
    let mut short = Vec::new();
    for input in &inputs {
        if let Kind::Whole { bytes, valid: true } = &input.kind {
            if input.name.starts_with("generated/") {
                continue;
            }
            let text = std::str::from_utf8(bytes).expect("valid corpus file");
            short.extend(lines_cut_to(text, SHORT).map(|s| s.as_bytes().to_vec()));
        }
    }
    inputs.push(Input {
        name: "generated/lines-up-to-64-bytes".into(),
        kind: Kind::Many {
            strings: short,
            valid: true,
        },
    });
    // The first error within the first KiB of a 1 MiB input.
    let mut early = random_text(1 << 20, &mut rng).into_bytes();
    let at = 700;
    early[at] = 0xFF;
    inputs.push(Input {
        name: "generated/error-at-700-of-1MiB".into(),
        kind: Kind::Whole {
            bytes: early,
            valid: false,
        },
    });
    // A Latin-1 `é` (one byte, E9) at each of bytes 0-256 of 1 KiB of ASCII,
    // one call each: the time to an error in the first bytes, where
    // `core::str`'s byte loop needs no set-up.
    let ascii_kib: Vec<u8> = (0..1024).map(|_| b' ' + rng.below(95) as u8).collect();
    let latin1 = (0..=256)
        .map(|at| {
            let mut bytes = ascii_kib.clone();
            bytes[at] = 0xE9;
            bytes
        })
        .collect();
    inputs.push(Input {
        name: "generated/latin1-error-at-each-of-bytes-0-256".into(),
        kind: Kind::Many {
            strings: latin1,
            valid: false,
        },
    });
    inputs
}

/// Each UTF-16 code unit of `text` as UTF-8 encodes a code point of that
/// value (UTR #26); with `java`, U+0000 as `C0 80` too (JVMS §4.4.7).
pub fn to_cesu8(text: &str, java: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / 2);
    for unit in text.encode_utf16() {
        let unit = u32::from(unit);
        match unit {
            0 if java => out.extend_from_slice(&[0xC0, 0x80]),
            0..=0x7F => out.push(unit as u8),
            0x80..=0x7FF => {
                out.extend_from_slice(&[0xC0 | (unit >> 6) as u8, 0x80 | (unit & 0x3F) as u8])
            }
            _ => out.extend_from_slice(&[
                0xE0 | (unit >> 12) as u8,
                0x80 | ((unit >> 6) & 0x3F) as u8,
                0x80 | (unit & 0x3F) as u8,
            ]),
        }
    }
    out
}

/// The C validators `utf8 tables --emit c` writes, compiled by `build.rs`
/// (the `emitted-c` feature): for RFC 3629, CESU-8 and WTF-8, the vector
/// validator (AVX2 on x86-64), the shift DFA, and the class tables a byte
/// at a time.
#[cfg(feature = "emitted-c")]
pub mod emitted {
    macro_rules! validators {
        ($($name:ident => $symbol:ident),* $(,)?) => {
            unsafe extern "C" {
                $(fn $symbol(bytes: *const u8, len: usize) -> bool;)*
            }
            $(
                /// Whether `bytes` are valid, by the emitted C.
                pub fn $name(bytes: &[u8]) -> bool {
                    // SAFETY: the emitted C reads the `len` bytes from
                    // `bytes` and no others (its tail is copied into a
                    // block of its own; tested under AddressSanitizer and
                    // before a PROT_NONE page in utf8-spec's emit tests),
                    // and keeps no pointer.
                    unsafe { $symbol(bytes.as_ptr(), bytes.len()) }
                }
            )*
        };
    }

    validators! {
        rfc3629_simd => emitted_rfc3629_simd,
        rfc3629_shift => emitted_rfc3629_shift,
        rfc3629_accepts => emitted_rfc3629_accepts,
        cesu8_simd => emitted_cesu8_simd,
        cesu8_shift => emitted_cesu8_shift,
        cesu8_accepts => emitted_cesu8_accepts,
        wtf8_simd => emitted_wtf8_simd,
        wtf8_shift => emitted_wtf8_shift,
        wtf8_accepts => emitted_wtf8_accepts,
    }
}

/// The CPU as `/proc/cpuinfo` names it, with its family and model (a
/// virtual machine's name may say no more than "AMD EPYC"), for the
/// examples that print figures; `cargo xtask bench` says the same with the
/// vector levels.
pub fn cpu_model() -> String {
    let Ok(cpuinfo) = std::fs::read_to_string("/proc/cpuinfo") else {
        return "a CPU without /proc/cpuinfo".to_owned();
    };
    let field = |name: &str| {
        cpuinfo.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_owned())
        })
    };
    format!(
        "{}, family {} model {}",
        field("model name").unwrap_or_else(|| "an unnamed CPU".to_owned()),
        field("cpu family").unwrap_or_default(),
        field("model").unwrap_or_default()
    )
}

/// The median of `values` (the upper one of an even count), for the
/// examples that take a ratio in turns.
///
/// # Panics
///
/// If `values` is empty.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
