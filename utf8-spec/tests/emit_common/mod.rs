//! What the tests of the emitted code share: the grammars, the inputs,
//! the reference answers, and the C harness that feeds the inputs to a
//! compiled program under the sanitizers.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use utf8_spec::explain::{Emit, emit};
use utf8_spec::rulesets::BUILTIN;
use utf8_spec::{Derivation, Tables};

/// The grammars under test, by name.
pub fn grammars() -> Vec<(String, Derivation)> {
    let mut all: Vec<(String, Derivation)> = BUILTIN
        .iter()
        .map(|r| (r.name.to_owned(), r.derive().expect("a built-in derives")))
        .collect();
    let xml_char = [
        (0x9, 0xA),
        (0xD, 0xD),
        (0x20, 0xD7FF),
        (0xE000, 0xFFFD),
        (0x10000, 0x10FFFF),
    ];
    all.push((
        "xml-char".to_owned(),
        utf8_spec::scalars::derive(&xml_char).expect("XML's Char derives"),
    ));
    let small = "words = 1*( %x61-7A / %xC3 %xA0-BF / %x20 )\n";
    all.push((
        "small".to_owned(),
        Derivation::new(small, "words").expect("the small grammar derives"),
    ));
    all
}

pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("emit-shift")
        .join(name);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// What `Utf8Error` says of `input` under `tables`: `valid_up_to`, and
/// `error_len` (0 when valid, -1 when cut short), as utf8-core's automaton
/// finds them.
pub fn reference(tables: &Tables, input: &[u8]) -> (usize, i32) {
    let mut state = tables.start();
    let mut valid_up_to = 0;
    for (index, &byte) in input.iter().enumerate() {
        state = tables.next(state, byte);
        if state == tables.dead() {
            let len = (index - valid_up_to).clamp(1, 255);
            return (valid_up_to, len as i32);
        }
        if tables.accepting()[usize::from(state)] {
            valid_up_to = index + 1;
        }
    }
    if tables.accepting()[usize::from(state)] {
        (input.len(), 0)
    } else {
        (valid_up_to, -1)
    }
}

// The suites' seeded generator, by path: utf8-spec's suites are built
// without the workspace's test crate, which needs the macro.
#[allow(dead_code, reason = "the emitters' suites use a part of it")]
#[path = "../../../tests/src/rng.rs"]
mod rng;
pub use rng::Rng;

/// The inputs: the corpus files, each prefix of 0 to 300 bytes of a mixed
/// text, and random and mutated ones.
pub fn inputs() -> Vec<Vec<u8>> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/corpus");
    let mut inputs = Vec::new();
    for folder in ["lipsum", "wikipedia_mars"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(corpus.join(folder))
            .expect("the corpus")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        for file in files {
            inputs.push(std::fs::read(file).expect("a corpus file"));
        }
    }
    let text = "Mars \u{2642} caf\u{E9} \u{65E5}\u{672C} \u{1F680} \u{10FFFF} \u{0}\t\r\n";
    let text = text.repeat(12).into_bytes();
    for len in 0..=300 {
        inputs.push(text[..len.min(text.len())].to_vec());
    }
    let mut rng = Rng::new(0x5EED);
    for _ in 0..2000 {
        let len = rng.below(80);
        let mut input: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        if rng.below(2) == 0 {
            // Mostly valid: mixed text with a byte or two changed.
            let start = rng.below(text.len() - len.min(text.len()) + 1);
            input = text[start..start + len.min(text.len() - start)].to_vec();
            for _ in 0..=rng.below(2) {
                if !input.is_empty() {
                    let at = rng.below(input.len());
                    input[at] = rng.next_u64() as u8;
                }
            }
        }
        inputs.push(input);
    }
    inputs
}

/// Reads records (a 4-byte little-endian length, then the bytes) from
/// standard input; each is copied into an allocation of its own size, so
/// that a read past it is ASan's report, and answered by `answer`, C
/// statements that see it as `input` and `n` ([`run_c`]).
pub const HARNESS: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void) {
    unsigned char header[4];
    while (fread(header, 1, 4, stdin) == 4) {
        size_t n = (size_t)header[0] | (size_t)header[1] << 8 | (size_t)header[2] << 16 |
                   (size_t)header[3] << 24;
        uint8_t *input = malloc(n ? n : 1);
        if (!input || fread(input, 1, n, stdin) != n) return 2;
        ANSWER
        free(input);
    }
    return 0;
}
"#;

/// [`HARNESS`] with `answer` appended to the emitted C of `tables`,
/// compiled under the sanitizers and fed every input in an allocation of
/// its own: its lines.
pub fn run_c(name: &str, tables: &Tables, answer: &str, inputs: &[Vec<u8>]) -> Vec<String> {
    run_c_on(&Toolchain::native(), name, tables, answer, inputs, &[])
}

/// The C compiler and how its programs run: gcc under the sanitizers,
/// run here; or, where `UTF8_TEST_C_CROSS` names a cross compiler (the CI's
/// NEON step: `aarch64-linux-gnu-gcc`), that compiler without them, its
/// programs linked statically and run by `UTF8_TEST_C_RUNNER` (`qemu-aarch64`).
pub struct Toolchain {
    pub compiler: String,
    pub cross: bool,
    pub runner: Vec<String>,
}

impl Toolchain {
    pub fn from_env() -> Toolchain {
        match std::env::var("UTF8_TEST_C_CROSS") {
            Ok(compiler) => Toolchain {
                compiler,
                cross: true,
                runner: std::env::var("UTF8_TEST_C_RUNNER")
                    .expect("UTF8_TEST_C_RUNNER with UTF8_TEST_C_CROSS")
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect(),
            },
            Err(_) => Toolchain::native(),
        }
    }

    /// gcc, its programs run here.
    pub fn native() -> Toolchain {
        Toolchain {
            compiler: "gcc".to_owned(),
            cross: false,
            runner: Vec::new(),
        }
    }
}

/// [`run_c`] compiled and run by `toolchain`, with `flags` given to the
/// compiler besides.
pub fn run_c_on(
    toolchain: &Toolchain,
    name: &str,
    tables: &Tables,
    answer: &str,
    inputs: &[Vec<u8>],
    flags: &[&str],
) -> Vec<String> {
    let mut records = Vec::new();
    for input in inputs {
        records.extend_from_slice(&(input.len() as u32).to_le_bytes());
        records.extend_from_slice(input);
    }
    let dir = scratch(name);
    let source = dir.join("validate.c");
    let program = emit(tables, Emit::C) + &HARNESS.replace("ANSWER", answer.trim());
    std::fs::write(&source, program).expect("the program");
    let binary = dir.join("validate");
    let checks: &[&str] = if toolchain.cross {
        &["-static"]
    } else {
        &["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    };
    run_ok(
        Command::new(&toolchain.compiler)
            .args(["-std=c99", "-O1", "-Wall", "-Wextra", "-Werror"])
            .args(checks)
            .args(flags)
            .arg("-o")
            .arg(&binary)
            .arg(&source),
        &format!("{} on the {name} program", toolchain.compiler),
    );
    let mut command = match toolchain.runner.split_first() {
        Some((runner, args)) => {
            let mut command = Command::new(runner);
            command.args(args).arg(&binary);
            command
        }
        None => Command::new(&binary),
    };
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    let mut stdin = child.stdin.take().expect("its input");
    // A program that fails stops reading: its status says why, not the pipe.
    let feed = std::thread::spawn(move || stdin.write_all(&records));
    let output = child.wait_with_output().expect("its answers");
    let fed = feed.join().expect("the feeding thread");
    assert!(
        output.status.success(),
        "{name}: {} {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    fed.expect("the records written");
    let answers = String::from_utf8(output.stdout).expect("text");
    let answers: Vec<String> = answers.lines().map(str::to_owned).collect();
    assert_eq!(answers.len(), inputs.len(), "{name}");
    answers
}

pub fn run_ok(command: &mut Command, what: &str) -> Vec<u8> {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}
