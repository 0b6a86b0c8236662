//! `utf8 derive`: the derivation explained, whole or one stage at a time.

use std::process::ExitCode;

use clap::ValueEnum;
use utf8_spec::explain::{Format, Stage, StageFormat, render, render_stage};

use crate::failure::{Failure, print};
use crate::spec::SpecArgs;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// The step-by-step report (or the stage's table) as plain text
    Text,
    /// The report (or the stage's table) as Markdown, diagrams as Mermaid blocks
    Markdown,
    /// The state diagram alone (or the stage's), as Mermaid
    Mermaid,
    /// The state diagram alone (or the stage's), as Graphviz DOT
    Dot,
    /// The minimal DFA (or the stage) drawn as SVG
    Svg,
    /// The stage's data as JSON (needs --stage)
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StageArg {
    /// The grammar as parsed, core rules added (text, markdown, json)
    Grammar,
    /// Thompson's NFA with its ε-moves
    Nfa,
    /// The subset construction's DFA: each state's NFA states and shortest input
    Dfa,
    /// Moore's refinement: each state's block after every round, one diagram a round
    Rounds,
    /// The minimal DFA, its states named
    Minimal,
    /// The byte classes and the grid of every byte's class (text, markdown, svg, json)
    Classes,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    spec: SpecArgs,
    /// How to write the explanation
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    format: FormatArg,
    /// Show one stage of the derivation alone; automata of more than 80
    /// states are given as a table in the picture formats
    #[arg(long, value_enum)]
    stage: Option<StageArg>,
}

pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    if args.stage.is_none() && args.format == FormatArg::Json {
        return Err(Failure::Usage(
            "--format json needs --stage: the whole explanation is prose \
             (`utf8 tables --emit json` writes the tables)"
                .to_owned(),
        ));
    }
    let derivation = args.spec.derive()?;
    let format = match args.format {
        FormatArg::Text => Format::Text,
        FormatArg::Markdown => Format::Markdown,
        FormatArg::Mermaid => Format::Mermaid,
        FormatArg::Dot => Format::Dot,
        FormatArg::Svg | FormatArg::Json => {
            let stage = args.stage.map_or(Stage::Minimal, stage);
            return show(&derivation, stage, stage_format(args.format));
        }
    };
    match args.stage {
        Some(chosen) => show(&derivation, stage(chosen), stage_format(args.format)),
        None => {
            print(&with_newline(render(&derivation, format)))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn show(
    derivation: &utf8_spec::Derivation,
    stage: Stage,
    format: StageFormat,
) -> Result<ExitCode, Failure> {
    let text = render_stage(derivation, stage, format)
        .map_err(|unsupported| Failure::Usage(unsupported.to_string()))?;
    print(&with_newline(text))?;
    Ok(ExitCode::SUCCESS)
}

fn with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn stage(arg: StageArg) -> Stage {
    match arg {
        StageArg::Grammar => Stage::Grammar,
        StageArg::Nfa => Stage::Nfa,
        StageArg::Dfa => Stage::Dfa,
        StageArg::Rounds => Stage::Rounds,
        StageArg::Minimal => Stage::Minimal,
        StageArg::Classes => Stage::Classes,
    }
}

fn stage_format(arg: FormatArg) -> StageFormat {
    match arg {
        FormatArg::Text => StageFormat::Text,
        FormatArg::Markdown => StageFormat::Markdown,
        FormatArg::Mermaid => StageFormat::Mermaid,
        FormatArg::Dot => StageFormat::Dot,
        FormatArg::Svg => StageFormat::Svg,
        FormatArg::Json => StageFormat::Json,
    }
}
