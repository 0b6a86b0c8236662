//! `utf8 derive`: the derivation explained.

use std::process::ExitCode;

use clap::ValueEnum;
use utf8_spec::explain::{Format, render};

use crate::failure::{Failure, print};
use crate::spec::SpecArgs;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    /// The step-by-step report as plain text
    Text,
    /// The report as Markdown, its state diagram a Mermaid block
    Markdown,
    /// The state diagram alone, as Mermaid
    Mermaid,
    /// The state diagram alone, as Graphviz DOT
    Dot,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    spec: SpecArgs,
    /// How to write the explanation
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    format: FormatArg,
}

pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    let derivation = args.spec.derive()?;
    let format = match args.format {
        FormatArg::Text => Format::Text,
        FormatArg::Markdown => Format::Markdown,
        FormatArg::Mermaid => Format::Mermaid,
        FormatArg::Dot => Format::Dot,
    };
    let mut text = render(&derivation, format);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    print(&text)?;
    Ok(ExitCode::SUCCESS)
}
