//! `utf8 check`: which inputs are valid under a ruleset, and where and why
//! the others are not.

mod parquet;
mod report;
mod text;

use std::io::{BufWriter, IsTerminal as _};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use utf8_core::Ruleset;

use crate::failure::Failure;
use crate::input::{Input, MAP_AT_LEAST, Source};
use crate::name::Name;
use crate::progress::Progress;
use crate::read_ahead::{self, Ahead, ToRead};
use crate::rulesets::{RulesetArg, WithRuleset, with_ruleset};
use crate::stream::{Buffer, Halt};
use crate::walk::{self, Entry, SkipBinary};
use parquet::{ParquetMode, Wanted, check_parquet, is_parquet_by_name};
use report::{Report, Stop};
use text::{check_input, first_error};

pub const EXIT_CODES: &str = "\
Exit status:
  0  every input is valid
  1  an input is invalid, and every input could be read
  2  usage error, unknown ruleset, or an input that cannot be read (a missing file,
     a directory without -r, no permission); the other inputs are still checked
A reader that stops reading early (`| head`) ends the command quietly, with the
status for the inputs checked so far.";

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
    #[arg(long, conflicts_with = "quiet")]
    all: bool,
    /// How to report errors (valid inputs print nothing), or with -l and
    /// --files-without-errors, how to print the paths (JSON: one
    /// `{"path": ...}` object per line)
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Print nothing on standard output; the exit status tells. Each input
    /// is read up to its first error. An input that cannot be read is still
    /// named on standard error
    #[arg(short, long)]
    quiet: bool,
    /// Print the path of each invalid input, one per line, instead of its
    /// errors. Each input is read up to its first error
    #[arg(short = 'l', long, conflicts_with_all = ["all", "quiet", "files_without_errors"])]
    files_with_errors: bool,
    /// Print the path of each valid input, one per line, instead of the
    /// errors of the others
    #[arg(long, conflicts_with_all = ["all", "quiet"])]
    files_without_errors: bool,
    /// Read every file; without it, a regular file of 1 MiB or more is
    /// checked where it lies in the page cache, through a read-only memory
    /// map (Linux), which saves copying it. A file truncated meanwhile is
    /// reported as changed either way; bytes rewritten in place under a map
    /// are checked partly old, partly new, and reported as changed
    #[arg(long)]
    no_mmap: bool,
    /// When to read an input as a Parquet file, whose byte array columns are
    /// checked value by value (a bad value is reported with its column, row
    /// and row group)
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ParquetMode::Auto)]
    parquet: ParquetMode,
    /// In Parquet files, check only the byte array columns annotated as
    /// text (string, enum, JSON); without it, unannotated ones (binary) too
    #[arg(long)]
    strings_only: bool,
    #[command(flatten)]
    walk: walk::WalkArgs,
    /// The files to check; `-` reads standard input; a directory, with -r,
    /// the files under it
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
}

/// What `check` prints on standard output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Listing {
    /// The errors of each input.
    Errors,
    /// Nothing (`-q`).
    Nothing,
    /// The paths of the invalid inputs (`-l`).
    Invalid,
    /// The paths of the valid inputs.
    Valid,
}

impl Args {
    fn listing(&self) -> Listing {
        if self.quiet {
            Listing::Nothing
        } else if self.files_with_errors {
            Listing::Invalid
        } else if self.files_without_errors {
            Listing::Valid
        } else {
            Listing::Errors
        }
    }
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

/// What the inputs checked so far have shown.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    unreadable: bool,
    invalid: bool,
}

impl Tally {
    fn exit_code(self) -> ExitCode {
        if self.unreadable {
            ExitCode::from(2)
        } else if self.invalid {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// Runs on a thread of the pool: where it waits for the files read ahead
/// ([`read_ahead`]), it reads some of them itself, where a thread of its
/// own beside the pool's would share the cores with them.
fn check_inputs<R: Ruleset>(args: &Args) -> Result<ExitCode, Failure> {
    rayon::scope(|_| check_inputs_in_pool::<R>(args))
}

fn check_inputs_in_pool<R: Ruleset>(args: &Args) -> Result<ExitCode, Failure> {
    let (entries, progress) = entries_and_progress(args);
    let mut report = Report {
        format: args.format,
        ruleset: &args.ruleset.ruleset,
        explainer: None,
        out: BufWriter::new(std::io::stdout().lock()),
        progress,
    };
    let mut buffer = Buffer::for_inputs();
    let mut tally = Tally::default();
    let stopped = read_ahead::in_windows(
        entries,
        |entry| to_read_ahead(entry, args.parquet),
        |bytes| R::validate(bytes).is_ok(),
        |entry, ahead| {
            let (source, skip_binary) = match entry {
                Entry::Input {
                    source,
                    skip_binary,
                    ..
                } => (source, *skip_binary),
                Entry::Unreadable(message) => {
                    report.note(message);
                    tally.unreadable = true;
                    return ControlFlow::Continue(());
                }
            };
            let turn = Turn {
                source,
                ahead,
                skip_binary,
            };
            let checked = check_source::<R>(turn, args, &mut buffer, &mut report, &mut tally)
                .and_then(|len| report.file_done(len).map_err(Halt::Sink));
            match checked {
                Ok(()) => ControlFlow::Continue(()),
                Err(Halt::Read(message)) => {
                    report.note(&message);
                    tally.unreadable = true;
                    ControlFlow::Continue(())
                }
                // A reader that stopped early (`| head`) has what it wanted, and
                // no one is left to tell more: stop quietly, as ripgrep does,
                // with the answer for the inputs checked so far (an error line
                // that went out means "invalid").
                Err(Halt::Sink(Stop::ReaderGone)) => ControlFlow::Break(Ok(tally.exit_code())),
                Err(Halt::Sink(Stop::Failure(failure))) => ControlFlow::Break(Err(failure)),
            }
        },
    );
    if let ControlFlow::Break(stopped) = stopped {
        return stopped;
    }
    report.progress.clear();
    match report.flush() {
        Ok(()) | Err(Stop::ReaderGone) => Ok(tally.exit_code()),
        Err(Stop::Failure(failure)) => Err(failure),
    }
}

/// The entries the arguments stand for, and the progress line. The line,
/// drawn only where standard error is a terminal, counts the inputs and
/// sums their sizes: only then is the walk finished before the first check.
fn entries_and_progress(args: &Args) -> (Box<dyn Iterator<Item = Entry> + '_>, Progress) {
    let entries = walk::entries(&args.paths, &args.walk);
    if !std::io::stderr().is_terminal() {
        return (Box::new(entries), Progress::new(0, None));
    }
    let entries: Vec<Entry> = entries.collect();
    let sources = entries.iter().filter_map(|entry| match entry {
        Entry::Input { source, .. } => Some(source),
        Entry::Unreadable(_) => None,
    });
    let progress = Progress::new(sources.clone().count(), known_total(sources));
    (Box::new(entries.into_iter()), progress)
}

/// The inputs' total size, if each input's is known before reading:
/// standard input's is not, and its bytes counted against the others' total
/// would pass it.
fn known_total<'s>(sources: impl Iterator<Item = &'s Source>) -> Option<u64> {
    sources.map(Source::size_hint).sum()
}

/// The file of `entry` if it is read ahead ([`read_ahead`]): one the walk
/// found, unless its name makes it a Parquet file, which is read by the
/// Parquet reader.
fn to_read_ahead(entry: &Entry, parquet: ParquetMode) -> Option<ToRead<'_>> {
    let Entry::Input {
        source,
        walked: true,
        skip_binary,
    } = entry
    else {
        return None;
    };
    let Source::File(path) = source else {
        return None;
    };
    let by_name = is_parquet_by_name(source, parquet);
    (by_name != Some(true)).then_some(ToRead {
        path,
        skip_binary: *skip_binary,
        sniff_parquet: by_name.is_none(),
    })
}

/// One input at its turn.
struct Turn<'e> {
    source: &'e Source,
    /// What reading it ahead gave.
    ahead: Ahead,
    /// Whether it is skipped if binary.
    skip_binary: bool,
}

/// Checks one input and prints what `args` ask for: its errors, or its
/// path. How many bytes were read.
fn check_source<R: Ruleset>(
    Turn {
        source,
        ahead,
        skip_binary,
    }: Turn<'_>,
    args: &Args,
    buffer: &mut Buffer,
    report: &mut Report<'_, impl std::io::Write>,
    tally: &mut Tally,
) -> Result<u64, Halt<Stop>> {
    let listing = args.listing();
    if let Ahead::Passed { len, binary } = ahead {
        if !binary {
            list(listing, false, source, report)?;
        }
        return Ok(len);
    }
    let by_name = is_parquet_by_name(source, args.parquet);
    let mut input = match by_name {
        Some(true) => None,
        _ => Some(match ahead {
            Ahead::Read(input) => input,
            Ahead::Failed(message) => return Err(Halt::Read(message)),
            Ahead::AtItsTurn | Ahead::Passed { .. } => source.open().map_err(Halt::Read)?,
        }),
    };
    if by_name.is_none() && input.as_ref().is_some_and(Input::has_parquet_magic) {
        input = None;
    }
    let Some(mut input) = input else {
        let wanted = Wanted {
            listing,
            all: args.all,
            strings_only: args.strings_only,
        };
        let (found, checked) = check_parquet::<R, _>(source, &Name::of(source), &wanted, report);
        tally.invalid |= found;
        let len = checked?;
        return list(listing, found, source, report).map(|()| len);
    };
    if !args.no_mmap {
        input = input.mapped_from(MAP_AT_LEAST);
    }
    let mut input = SkipBinary::new(input, skip_binary);
    let (found, checked) = if listing == Listing::Errors {
        check_input::<R, _>(&Name::of(source), &mut input, buffer, args.all, report)
    } else {
        first_error::<R>(&mut input, buffer, &mut report.progress)
    };
    tally.invalid |= found;
    let len = checked?;
    if !input.binary {
        list(listing, found, source, report)?;
    }
    Ok(len)
}

/// Prints the input's path if `listing` asks for it, knowing whether the
/// input was `found` invalid.
fn list(
    listing: Listing,
    found: bool,
    source: &Source,
    report: &mut Report<'_, impl std::io::Write>,
) -> Result<(), Halt<Stop>> {
    let listed = match listing {
        Listing::Invalid => found,
        Listing::Valid => !found,
        Listing::Errors | Listing::Nothing => false,
    };
    if listed {
        report.path(&Name::of(source)).map_err(Halt::Sink)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_input_among_the_inputs_leaves_the_total_unknown() {
        let file = tempfile::NamedTempFile::new().expect("a temporary file");
        std::fs::write(file.path(), b"53 bytes").expect("written");
        let file = Source::File(file.path().to_owned());
        assert_eq!(known_total([&file, &file].into_iter()), Some(16));
        assert_eq!(known_total([&file, &Source::Stdin].into_iter()), None);
    }
}
