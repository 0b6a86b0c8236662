//! `utf8 tables`: the derived tables as source for another program.

use std::process::ExitCode;

use clap::ValueEnum;
use utf8_spec::explain::{Emit, emit};

use crate::failure::{Failure, print};
use crate::spec::SpecArgs;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Language {
    /// `const` items and a `const fn accepts`
    Rust,
    /// `static const` arrays and an `accepts` function (C99)
    C,
    /// One object: states, classes, start, accepting, byte_classes, transitions
    Json,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    spec: SpecArgs,
    /// The language to write the tables in
    #[arg(long, value_enum)]
    emit: Language,
}

pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    let derivation = args.spec.derive()?;
    let language = match args.emit {
        Language::Rust => Emit::Rust,
        Language::C => Emit::C,
        Language::Json => Emit::Json,
    };
    print(&emit(derivation.tables(), language))?;
    Ok(ExitCode::SUCCESS)
}
