//! `utf8`: the derivation of a UTF-8 validator from its ABNF, on the command line.
//!
//! Each subcommand lives in its own module with an `Args` struct (its clap
//! definition) and a `run` function returning the exit code or a
//! [`failure::Failure`]; adding one is a module, a variant of [`Command`] and an arm
//! in [`main`].

mod derive;
mod failure;
mod spec;
mod tables;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

const EXIT_CODES: &str = "\
Exit status:
  0  success
  2  usage error, unknown ruleset, or a file that cannot be read or written
  3  the spec does not derive (bad ABNF, unknown start rule, empty language); the message gives the file, line and column";

#[derive(Parser)]
#[command(
    name = "utf8",
    version,
    about = "Derive a UTF-8 validating automaton from ABNF, explain the derivation, export the tables",
    after_help = EXIT_CODES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Explain the derivation step by step: grammar, byte sequences, NFA, DFA,
    /// minimization, byte classes, tables and state diagram.
    #[command(after_help = EXIT_CODES)]
    Derive(derive::Args),
    /// Write the derived tables as Rust, C or JSON source.
    #[command(after_help = EXIT_CODES)]
    Tables(tables::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Derive(args) => derive::run(&args),
        Command::Tables(args) => tables::run(&args),
    };
    outcome.unwrap_or_else(|failure| {
        eprintln!("utf8: {failure}");
        failure.exit_code()
    })
}
