//! `cargo xtask <task>`: maintenance tasks.
//!
//! - `codegen`: regenerate `docs/tables/*.md` and `docs/derivation/*.md`
//!   from the derivation of every built-in ruleset, and the `utf8` command's
//!   shell completions (`utf8-cli/completions/`) and man pages
//!   (`utf8-cli/man/`) from its clap definition.
//! - `codegen --check`: exit with status 1 if any of them is stale.
//! - `bench [FILTER]`: run the benchmarks (criterion, release build) and print
//!   GB/s per input and contender with ratios, as Markdown.
//! - `bench --report`: print that table from the last run without running.
//!
//! Exit status: 0 done, 1 stale files found by `--check` (or the benchmarks
//! failed), 2 usage error, 3 a file could not be written.

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask codegen [--check] | cargo xtask bench [FILTER | --report]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let root = xtask::workspace_root();
    match args.as_slice() {
        ["codegen"] => match xtask::write_all(&root) {
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
        },
        ["codegen", "--check"] => {
            let stale = xtask::stale(&root);
            if stale.is_empty() {
                println!("generated files are up to date");
                ExitCode::SUCCESS
            } else {
                let names: Vec<String> = stale.iter().map(|p| p.display().to_string()).collect();
                eprintln!(
                    "xtask: stale generated files: {}; run `cargo xtask codegen`",
                    names.join(", ")
                );
                ExitCode::from(1)
            }
        }
        ["bench", rest @ ..] if rest.len() <= 1 => {
            // `cargo bench` writes under the target directory, which
            // CARGO_TARGET_DIR or a config file may put outside the checkout.
            let target = match xtask::bench::target_dir(xtask::bench::metadata_command(&root)) {
                Ok(target) => target,
                Err(e) => {
                    eprintln!("xtask: cannot find the target directory: {e}");
                    return ExitCode::from(1);
                }
            };
            let criterion_dir = target.join("criterion");
            if rest != ["--report"] {
                // Ratios are only meaningful within one run: drop earlier results.
                if let Err(e) = std::fs::remove_dir_all(&criterion_dir)
                    && e.kind() != std::io::ErrorKind::NotFound
                {
                    eprintln!("xtask: cannot clear {}: {e}", criterion_dir.display());
                    return ExitCode::from(3);
                }
                let log_path = target.join("bench.log");
                let log = std::fs::create_dir_all(&target)
                    .and_then(|()| std::fs::File::create(&log_path));
                let log = match log {
                    Ok(log) => log,
                    Err(e) => {
                        eprintln!("xtask: cannot create {}: {e}", log_path.display());
                        return ExitCode::from(3);
                    }
                };
                eprintln!(
                    "running the benchmarks; criterion's output goes to {}",
                    log_path.display()
                );
                let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
                let status = std::process::Command::new(cargo)
                    .current_dir(&root)
                    .args(["bench", "-p", "utf8-bench", "--bench", "validate", "--"])
                    .args(rest)
                    .stdout(log)
                    .status();
                match status {
                    Ok(status) if status.success() => {}
                    Ok(status) => {
                        eprintln!(
                            "xtask: cargo bench failed ({status}); see {}",
                            log_path.display()
                        );
                        return ExitCode::from(1);
                    }
                    Err(e) => {
                        eprintln!("xtask: cannot run cargo bench: {e}");
                        return ExitCode::from(1);
                    }
                }
            }
            let measurements = xtask::bench::read_criterion(&criterion_dir);
            if measurements.is_empty() {
                eprintln!(
                    "xtask: no benchmark results under {}",
                    criterion_dir.display()
                );
                return ExitCode::from(1);
            }
            print!("{}", xtask::bench::report(&measurements));
            ExitCode::SUCCESS
        }
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
