//! `utf8 check`: which inputs are valid under a ruleset, and where and why
//! the others are not.

use std::io::{BufWriter, StdoutLock, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use utf8_core::Ruleset;

use crate::diagnosis::{
    Cursor, Explainer, Explanation, Invalid, errors_from, hex_packed, hex_spaced,
};
use crate::failure::Failure;
use crate::input::Source;
use crate::progress::Progress;
use crate::rulesets::{RulesetArg, WithRuleset, validate, with_ruleset};

pub const EXIT_CODES: &str = "\
Exit status:
  0  every input is valid
  1  an input is invalid, and every input could be read
  2  usage error, unknown ruleset, or an input that cannot be read (a missing file,
     a directory, no permission); the other inputs are still checked";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    /// One line per error: path:line:column, offset, bytes, what was expected
    Human,
    /// One JSON object per line per error: path, offset, len (null when the
    /// input ends inside a sequence), line, column, bytes (hex), expected, message
    Json,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    ruleset: RulesetArg,
    /// Report every error, resynchronising after each invalid part as lossy
    /// decoding does; without it, the first error of each input
    #[arg(long)]
    all: bool,
    /// How to report errors (valid inputs print nothing)
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// The files to check; `-` reads standard input
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
}

pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    with_ruleset(&args.ruleset.ruleset, CheckInputs { args })?
}

struct CheckInputs<'a> {
    args: &'a Args,
}

impl WithRuleset for CheckInputs<'_> {
    type Output = Result<ExitCode, Failure>;

    fn call<R: Ruleset>(self) -> Self::Output {
        check_inputs::<R>(self.args)
    }
}

fn check_inputs<R: Ruleset>(args: &Args) -> Result<ExitCode, Failure> {
    let sources: Vec<Source> = args.paths.iter().map(|p| Source::from_arg(p)).collect();
    let total_bytes = sources.iter().filter_map(Source::size_hint).sum();
    let mut report = Report {
        format: args.format,
        ruleset: &args.ruleset.ruleset,
        explainer: None,
        out: BufWriter::new(std::io::stdout().lock()),
        progress: Progress::new(sources.len(), total_bytes),
    };
    let mut unreadable = false;
    let mut invalid = false;
    for source in &sources {
        let contents = match source.load() {
            Ok(contents) => contents,
            Err(message) => {
                report.note(&message);
                unreadable = true;
                continue;
            }
        };
        match check_one::<R>(&source.name(), &contents, args.all, &mut report) {
            Ok(valid) => invalid |= !valid,
            // A reader that stopped early (`| head`) has seen an error: the
            // answer is "invalid", and there is no one left to tell more.
            Err(Stop::ReaderGone) => return Ok(ExitCode::from(1)),
            Err(Stop::Failure(failure)) => return Err(failure),
        }
        report.progress.file_done(contents.len());
    }
    report.progress.clear();
    match report.flush() {
        Ok(()) => {}
        Err(Stop::ReaderGone) => return Ok(ExitCode::from(1)),
        Err(Stop::Failure(failure)) => return Err(failure),
    }
    Ok(if unreadable {
        ExitCode::from(2)
    } else if invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reports the first error of `bytes`, or all of them; whether it is valid.
fn check_one<R: Ruleset>(
    name: &str,
    bytes: &[u8],
    all: bool,
    report: &mut Report<'_>,
) -> Result<bool, Stop> {
    let Err(error) = validate::<R>(bytes) else {
        return Ok(true);
    };
    let first = Invalid::from_error(bytes, error);
    let mut cursor = Cursor::for_ruleset::<R>();
    let mut run_start = 0;
    for invalid in errors_from::<R>(bytes, first).take(if all { usize::MAX } else { 1 }) {
        cursor.advance_over_valid(bytes, invalid.offset);
        let explanation = report.explainer()?.explain(bytes, run_start, invalid);
        report.error(name, invalid, &cursor, &explanation)?;
        cursor.skip_invalid(invalid.len);
        run_start = invalid.offset + invalid.len;
        report.progress.at(run_start);
    }
    Ok(false)
}

struct Report<'a> {
    format: OutputFormat,
    ruleset: &'a str,
    /// Derived when the first error needs explaining, once per run.
    explainer: Option<Explainer>,
    out: BufWriter<StdoutLock<'static>>,
    progress: Progress,
}

impl Report<'_> {
    fn explainer(&mut self) -> Result<&Explainer, Stop> {
        if self.explainer.is_none() {
            self.explainer = Some(Explainer::new(self.ruleset)?);
        }
        Ok(self.explainer.as_ref().expect("derived just now"))
    }

    fn error(
        &mut self,
        name: &str,
        invalid: Invalid,
        cursor: &Cursor,
        explanation: &Explanation,
    ) -> Result<(), Stop> {
        self.progress.clear();
        let line = match self.format {
            OutputFormat::Human => format!(
                "{name}:{}:{}: offset {}: bytes {}: {}",
                cursor.line(),
                cursor.column(),
                invalid.offset,
                hex_spaced(&explanation.shown),
                explanation.message
            ),
            OutputFormat::Json => serde_json::json!({
                "path": name,
                "ruleset": self.ruleset,
                "offset": invalid.offset,
                "len": (!invalid.incomplete).then_some(invalid.len),
                "line": cursor.line(),
                "column": cursor.column(),
                "bytes": hex_packed(&explanation.shown),
                "expected": explanation.expected,
                "message": explanation.message,
            })
            .to_string(),
        };
        writeln!(self.out, "{line}").map_err(Stop::from)
    }

    /// A one-line message on standard error, after the errors reported so far.
    fn note(&mut self, message: &str) {
        self.progress.clear();
        // Errors already reported come first; a write failure here shows
        // again, and is reported, at the next write or the final flush.
        let _ = self.out.flush();
        eprintln!("utf8: {message}");
    }

    fn flush(&mut self) -> Result<(), Stop> {
        self.out.flush().map_err(Stop::from)
    }
}

/// Why checking stops before the last input.
enum Stop {
    /// Standard output was closed by its reader.
    ReaderGone,
    Failure(Failure),
}

impl From<Failure> for Stop {
    fn from(failure: Failure) -> Stop {
        Stop::Failure(failure)
    }
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Stop::ReaderGone
        } else {
            Stop::Failure(Failure::Usage(format!("cannot write the output: {e}")))
        }
    }
}
