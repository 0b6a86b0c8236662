//! `utf8`: the derivation of a UTF-8 validator from its ABNF, and validation
//! and repair of files under it, on the command line.
//!
//! Each subcommand lives in its own module with an `Args` struct (its clap
//! definition) and a `run` function returning the exit code or a
//! `failure::Failure`; adding one is a module, a variant of `Command` and an
//! arm in [`main`].
//!
//! The library is the command itself, for the `utf8` binary (`src/main.rs`)
//! to run, and its clap definition, [`command`], for `cargo xtask codegen` to
//! write the shell completions and man pages from: nothing else of it is
//! public. `check` reads Parquet files through the utf8-parquet crate.

// The command's `unsafe` is its system calls (the terminal's width, extended
// attributes): each block names the bound it relies on.
#![deny(
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    clippy::missing_safety_doc
)]

mod check;
mod derive;
mod diagnosis;
mod failure;
mod fix;
#[cfg(debug_assertions)]
mod hooks;
mod input;
mod mapped;
mod name;
mod progress;
mod read_ahead;
mod rulesets;
#[cfg(test)]
mod samples;
mod spec;
mod stream;
mod tables;
mod walk;
#[cfg(target_os = "linux")]
mod xattrs;

use std::process::ExitCode;

use clap::{CommandFactory as _, Parser, Subcommand};

const EXIT_CODES: &str = "\
Exit status:
  0  success
  1  check: an input is not valid
  2  usage error, unknown ruleset, or a file that cannot be read or written
  3  the spec does not derive (bad ABNF, a file that is not UTF-8, unknown start rule, empty language, nesting deeper than 256 levels, more than 256 states); the message gives the file, line and column";

#[derive(Parser)]
#[command(
    name = "utf8",
    version,
    about = "Derive a UTF-8 validating automaton from ABNF, explain the derivation, export the tables; check and fix files",
    after_help = EXIT_CODES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Explain the derivation step by step: grammar, byte sequences, NFA, DFA,
    /// minimization, byte classes, tables and state diagram; or, with
    /// --stage, one stage alone as a table, a picture or JSON.
    #[command(after_help = EXIT_CODES)]
    Derive(derive::Args),
    /// Write the derived tables as Rust, C or JSON source.
    #[command(after_help = EXIT_CODES)]
    Tables(tables::Args),
    /// Check that files are valid under a ruleset; report where and why they
    /// are not: line, column, offset, the bytes, and what was expected.
    #[command(after_help = check::EXIT_CODES)]
    Check(check::Args),
    /// Write a file with each invalid part replaced by U+FFFD (or dropped),
    /// as lossy decoding reads it.
    #[command(after_help = fix::EXIT_CODES)]
    Fix(fix::Args),
}

/// The command line that [`main`] parses, with every subcommand, flag and
/// help text: what the completions and man pages are generated from.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Runs `utf8` on the process's arguments.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Derive(args) => derive::run(&args),
        Command::Tables(args) => tables::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Fix(args) => fix::run(&args),
    };
    #[cfg(debug_assertions)]
    hooks::report_peak_memory();
    outcome.unwrap_or_else(|failure| {
        failure::tell(&failure);
        failure.exit_code()
    })
}
