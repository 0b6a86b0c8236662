//! `cargo xtask <task>`: maintenance tasks.
//!
//! - `codegen`: regenerate `docs/tables/*.md`, `docs/derivation/*.md` and
//!   the book `docs/book/` from the derivation of every built-in ruleset, and the `utf8` command's
//!   shell completions (`utf8-cli/completions/`) and man pages
//!   (`utf8-cli/man/`) from its clap definition.
//! - `codegen --check`: exit with status 1 if any of them is stale.
//! - `book`: regenerate just the book, `docs/book/` (`codegen` writes it too).
//! - `playground`: build the playground's engine (`utf8-playground` for
//!   `wasm32-unknown-unknown`) into `docs/playground/engine.js`; `codegen
//!   --check` reports it stale when its sources changed since.
//! - `bench [--quick] [FILTER]`: run the benchmarks (criterion, release
//!   build; with C++ simdutf where a C++ compiler is found) and print GB/s
//!   per input, contender and vector level with ratios, as one Markdown
//!   table headed by the CPU, then one table per dialect (CESU-8, modified
//!   UTF-8, WTF-8) with its ratios to RFC 3629 on the same text; `--quick`
//!   measures briefly. It also writes `bench/chart.svg`: the main
//!   contenders' GB/s on a few groups of inputs, named with the CPU and the
//!   command.
//! - `bench --report`: print that table from the last run without running,
//!   and draw `bench/chart.svg` from it again.
//! - `inlining`: build a release probe of `utf8-core` and check, in its
//!   machine code, which functions stay out of line, which are inlined, and
//!   each x86 level's main loop's instructions a 64-byte block, against the
//!   expectations in `xtask/src/inlining.rs`; exit status 1 when one fails.
//!
//! Exit status: 0 done, 1 stale files found by `--check` (or the benchmarks
//! or the playground's build failed), 2 usage error, 3 a file could not be
//! written.

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask codegen [--check] | cargo xtask book | cargo xtask playground | cargo xtask bench [--quick] [FILTER] | cargo xtask bench --report | cargo xtask inlining";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let root = xtask::workspace_root();
    match args.as_slice() {
        ["codegen"] => report_written(xtask::write_all(&root)),
        ["book"] => report_written(xtask::write(&root, xtask::book::files())),
        ["playground"] => match xtask::playground::build(&root) {
            Ok(changed) => report_written(Ok(changed)),
            Err(message) => {
                eprintln!("xtask: {message}");
                ExitCode::from(1)
            }
        },
        ["codegen", "--check"] => {
            let stale = xtask::stale(&root);
            if stale.is_empty() {
                println!("generated files are up to date");
                ExitCode::SUCCESS
            } else {
                let names: Vec<String> = stale.iter().map(|p| p.display().to_string()).collect();
                let engine = std::path::Path::new(xtask::playground::ENGINE);
                let mut commands = Vec::new();
                if stale.iter().any(|p| p != engine) {
                    commands.push("`cargo xtask codegen`");
                }
                if stale.iter().any(|p| p == engine) {
                    commands.push("`cargo xtask playground`");
                }
                eprintln!(
                    "xtask: stale generated files: {}; run {}",
                    names.join(", "),
                    commands.join(" and ")
                );
                ExitCode::from(1)
            }
        }
        ["bench", rest @ ..] => xtask::bench::run(&root, rest),
        ["inlining"] => xtask::inlining::run(&root),
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("xtask: unknown arguments {args:?}; {USAGE}");
            ExitCode::from(2)
        }
    }
}

/// What a write of generated files did, and the exit status it makes.
fn report_written(written: std::io::Result<Vec<std::path::PathBuf>>) -> ExitCode {
    match written {
        Ok(changed) if changed.is_empty() => {
            println!("generated files are up to date");
            ExitCode::SUCCESS
        }
        Ok(changed) => {
            for path in changed {
                println!("wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("xtask: cannot write generated files: {e}");
            ExitCode::from(3)
        }
    }
}
