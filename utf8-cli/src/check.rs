//! `utf8 check`: which inputs are valid under a ruleset, and where and why
//! the others are not.

use std::io::{BufWriter, Write};
use std::marker::PhantomData;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use utf8_core::Ruleset;

use crate::diagnosis::{Cursor, Explainer, Explanation, Invalid, hex_packed, hex_spaced};
use crate::failure::Failure;
use crate::input::{MAP_AT_LEAST, Source};
use crate::name::Name;
use crate::progress::Progress;
use crate::rulesets::{RulesetArg, WithRuleset, with_ruleset};
use crate::stream::{Buffer, Fill, Flow, Found, Halt, Run, Sink, stream};
use crate::walk::{self, Entry, SkipBinary};

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

fn check_inputs<R: Ruleset>(args: &Args) -> Result<ExitCode, Failure> {
    let entries = walk::entries(&args.paths, &args.walk);
    let sources = entries.iter().filter_map(|entry| match entry {
        Entry::Input { source, .. } => Some(source),
        Entry::Unreadable(_) => None,
    });
    let total_bytes = known_total(sources.clone());
    let mut report = Report {
        format: args.format,
        ruleset: &args.ruleset.ruleset,
        explainer: None,
        out: BufWriter::new(std::io::stdout().lock()),
        progress: Progress::new(sources.count(), total_bytes),
    };
    let mut buffer = Buffer::for_inputs();
    let mut tally = Tally::default();
    for entry in &entries {
        let (source, skip_binary) = match entry {
            Entry::Input {
                source,
                skip_binary,
            } => (source, *skip_binary),
            Entry::Unreadable(message) => {
                report.note(message);
                tally.unreadable = true;
                continue;
            }
        };
        let checked = check_source::<R>(
            source,
            skip_binary,
            args,
            &mut buffer,
            &mut report,
            &mut tally,
        )
        .and_then(|len| report.file_done(len).map_err(Halt::Sink));
        match checked {
            Ok(()) => {}
            Err(Halt::Read(message)) => {
                report.note(&message);
                tally.unreadable = true;
            }
            // A reader that stopped early (`| head`) has what it wanted, and
            // no one is left to tell more: stop quietly, as ripgrep does,
            // with the answer for the inputs checked so far (an error line
            // that went out means "invalid").
            Err(Halt::Sink(Stop::ReaderGone)) => return Ok(tally.exit_code()),
            Err(Halt::Sink(Stop::Failure(failure))) => return Err(failure),
        }
    }
    report.progress.clear();
    match report.flush() {
        Ok(()) | Err(Stop::ReaderGone) => Ok(tally.exit_code()),
        Err(Stop::Failure(failure)) => Err(failure),
    }
}

/// The inputs' total size, if each input's is known before reading:
/// standard input's is not, and its bytes counted against the others' total
/// would pass it.
fn known_total<'s>(sources: impl Iterator<Item = &'s Source>) -> Option<u64> {
    sources.map(Source::size_hint).sum()
}

/// Checks one input and prints what `args` ask for: its errors, or its
/// path. How many bytes were read.
fn check_source<R: Ruleset>(
    source: &Source,
    skip_binary: bool,
    args: &Args,
    buffer: &mut Buffer,
    report: &mut Report<'_, impl Write>,
    tally: &mut Tally,
) -> Result<u64, Halt<Stop>> {
    let name = Name::of(source);
    let mut input = source.open().map_err(Halt::Read)?;
    if !args.no_mmap {
        input = input.mapped_from(MAP_AT_LEAST);
    }
    let mut input = SkipBinary::new(input, skip_binary);
    let listing = args.listing();
    let (found, checked) = if listing == Listing::Errors {
        check_input::<R, _>(&name, &mut input, buffer, args.all, report)
    } else {
        first_error::<R>(&mut input, buffer, &mut report.progress)
    };
    tally.invalid |= found;
    let len = checked?;
    let listed = match listing {
        Listing::Invalid => found,
        Listing::Valid => !found && !input.binary,
        Listing::Errors | Listing::Nothing => false,
    };
    if listed {
        report.path(&name).map_err(Halt::Sink)?;
    }
    Ok(len)
}

/// Reports the errors of one input as they are found, the first or all of
/// them: whether there were any, and how many bytes were read.
fn check_input<R: Ruleset, W: Write>(
    name: &Name,
    input: &mut impl Fill,
    buffer: &mut Buffer,
    all: bool,
    report: &mut Report<'_, W>,
) -> (bool, Result<u64, Halt<Stop>>) {
    let mut file = CheckFile::<R, W>::new(name, all, report);
    let streamed = stream::<R, _>(input, buffer, &mut file);
    (file.found_any, streamed.map(|streamed| streamed.len))
}

/// Reads one input up to its first error, without explaining it: whether
/// there was one, and how many bytes were read.
fn first_error<R: Ruleset>(
    input: &mut impl Fill,
    buffer: &mut Buffer,
    progress: &mut Progress,
) -> (bool, Result<u64, Halt<Stop>>) {
    match stream::<R, _>(input, buffer, &mut FirstError { progress }) {
        Ok(streamed) => (!streamed.valid, Ok(streamed.len)),
        Err(Halt::Read(message)) => (false, Err(Halt::Read(message))),
        Err(Halt::Sink(never)) => match never {},
    }
}

/// Stops at the first error; nothing to report but progress.
struct FirstError<'p> {
    progress: &'p mut Progress,
}

impl Sink for FirstError<'_> {
    type Error = std::convert::Infallible;

    fn valid(&mut self, _: &[u8]) -> Result<(), Self::Error> {
        Ok(())
    }

    fn invalid(&mut self, _: &Found<'_>) -> Result<Flow, Self::Error> {
        Ok(Flow::Stop)
    }

    fn buffer_done(&mut self, read: u64) -> Result<(), Self::Error> {
        self.progress.at(read);
        Ok(())
    }
}

/// Reports the errors of one input as they are found.
struct CheckFile<'r, 'a, R: Ruleset, W: Write> {
    name: &'r Name,
    all: bool,
    report: &'r mut Report<'a, W>,
    cursor: Cursor,
    /// The automaton's state where the current run enters the buffer, when
    /// it started in an earlier one (see [`Explainer::state_after`]).
    entry: Option<u8>,
    found_any: bool,
    /// Whether reports were written since the output was last flushed.
    unflushed: bool,
    ruleset: PhantomData<R>,
}

impl<'r, 'a, R: Ruleset, W: Write> CheckFile<'r, 'a, R, W> {
    fn new(name: &'r Name, all: bool, report: &'r mut Report<'a, W>) -> Self {
        CheckFile {
            name,
            all,
            report,
            cursor: Cursor::for_ruleset::<R>(),
            entry: None,
            found_any: false,
            unflushed: false,
            ruleset: PhantomData,
        }
    }

    /// The state the automaton was in after `run`.
    fn state_after(&mut self, run: Run<'_>) -> Result<u8, Stop> {
        let entry = if run.starts_here { None } else { self.entry };
        Ok(self.report.explainer()?.state_after(entry, run.bytes))
    }
}

impl<R: Ruleset, W: Write> Sink for CheckFile<'_, '_, R, W> {
    type Error = Stop;
    // The valid bytes move the cursor, which only an error's report reads.
    const VALID_ONLY_PLACES_ERRORS: bool = true;

    fn valid(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        self.cursor.advance(bytes);
        Ok(())
    }

    fn invalid(&mut self, found: &Found<'_>) -> Result<Flow, Stop> {
        self.found_any = true;
        let before = self.state_after(found.run)?;
        let invalid = found.invalid;
        let explanation = self.report.explainer()?.explain(
            before,
            found.subpart,
            found.following,
            invalid.incomplete,
        );
        self.report
            .error(self.name, invalid, &self.cursor, &explanation)?;
        self.unflushed = true;
        self.cursor.skip_invalid();
        Ok(if self.all { Flow::Continue } else { Flow::Stop })
    }

    fn cut(&mut self, run: Run<'_>) {
        // The state at a boundary needs carrying across the cut only where
        // it depends on the bytes before it (after a WTF-8 lead surrogate,
        // among the built-in rulesets); the tables tell, derived once per run.
        if let Ok(explainer) = self.report.explainer()
            && explainer.boundaries_differ()
        {
            let entry = if run.starts_here { None } else { self.entry };
            self.entry = Some(explainer.state_after(entry, run.bytes));
        }
    }

    fn buffer_done(&mut self, read: u64) -> Result<(), Stop> {
        // The reports go out as the errors are found, not when the output's
        // buffer fills: the next buffer of a slow input (a pipe) may be long
        // in coming.
        if std::mem::take(&mut self.unflushed) {
            self.report.flush()?;
        }
        self.report.progress_at(read)
    }
}

struct Report<'a, W: Write> {
    format: OutputFormat,
    ruleset: &'a str,
    /// Derived when the first error needs explaining, once per run.
    explainer: Option<Explainer>,
    out: W,
    progress: Progress,
}

impl<W: Write> Report<'_, W> {
    fn explainer(&mut self) -> Result<&Explainer, Stop> {
        if self.explainer.is_none() {
            self.explainer = Some(Explainer::new(self.ruleset)?);
        }
        Ok(self.explainer.as_ref().expect("derived just now"))
    }

    fn error(
        &mut self,
        name: &Name,
        invalid: Invalid,
        cursor: &Cursor,
        explanation: &Explanation,
    ) -> Result<(), Stop> {
        self.progress.clear();
        let line = match self.format {
            OutputFormat::Human => format!(
                "{}:{}:{}: offset {}: bytes {}: {}",
                name.text,
                cursor.line(),
                cursor.column(),
                invalid.offset,
                hex_spaced(&explanation.shown),
                explanation.message
            ),
            OutputFormat::Json => serde_json::json!({
                "path": name.json,
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

    /// The path of an input, for `-l` and `--files-without-errors`; it goes
    /// out at once, for a reader that acts on each path as it comes.
    fn path(&mut self, name: &Name) -> Result<(), Stop> {
        self.progress.clear();
        match self.format {
            OutputFormat::Human => self
                .out
                .write_all(&name.raw)
                .and_then(|()| self.out.write_all(b"\n")),
            OutputFormat::Json => {
                writeln!(self.out, "{}", serde_json::json!({ "path": name.json }))
            }
        }
        .and_then(|()| self.out.flush())
        .map_err(Stop::from)
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

    /// Draws the progress line, `done` bytes into the current input, if it
    /// is due, after the reports so far: standard output may be the
    /// terminal the line is on, and a report written after the line would
    /// go on at its end.
    fn progress_at(&mut self, done: u64) -> Result<(), Stop> {
        if self.progress.due() {
            self.flush()?;
            self.progress.at(done);
        }
        Ok(())
    }

    /// The current input, `len` bytes long, is done.
    fn file_done(&mut self, len: u64) -> Result<(), Stop> {
        self.progress.file_done(len);
        self.progress_at(0)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::tests::Screen;
    use crate::samples::{self, Memory};
    use utf8_core::Rfc3629;

    /// What `check` prints for `bytes` read `fresh` bytes at a time.
    fn report_of<R: Ruleset>(
        explainer: &Explainer,
        bytes: &[u8],
        fresh: usize,
        all: bool,
        format: OutputFormat,
    ) -> String {
        let mut report = Report {
            format,
            ruleset: R::NAME,
            // Derived once per ruleset, not for each of the thousands of runs.
            explainer: Some(explainer.clone()),
            out: Vec::new(),
            progress: Progress::new(1, Some(0)),
        };
        let mut input = Memory {
            rest: bytes,
            early_end: false,
        };
        let (_, checked) = check_input::<R, _>(
            &Name::of(&Source::File("sample".into())),
            &mut input,
            &mut Buffer::new(fresh),
            all,
            &mut report,
        );
        assert!(checked.is_ok(), "memory is always read");
        String::from_utf8(report.out).expect("UTF-8 reports")
    }

    struct ReportsMatchTheWhole;

    impl WithRuleset for ReportsMatchTheWhole {
        type Output = ();

        fn call<R: Ruleset>(self) {
            let explainer = Explainer::new(R::NAME).expect("built-in");
            for (name, bytes) in samples::all() {
                for (all, format) in [
                    (true, OutputFormat::Human),
                    (true, OutputFormat::Json),
                    (false, OutputFormat::Human),
                ] {
                    let whole = report_of::<R>(&explainer, &bytes, bytes.len() + 1, all, format);
                    for fresh in 1..=17 {
                        assert_eq!(
                            report_of::<R>(&explainer, &bytes, fresh, all, format),
                            whole,
                            "{} {name}, {fresh}-byte buffers, all: {all}, {format:?}",
                            R::NAME
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn no_report_line_goes_on_the_progress_line() {
        let screen = Screen::default();
        let bytes = b"ab\xFFcd\xFFef\xFFgh\xFFij\xFFkl\xFF";
        let mut report = Report {
            format: OutputFormat::Human,
            ruleset: Rfc3629::NAME,
            explainer: None,
            // Standard output, buffered, on the terminal the line is on.
            out: BufWriter::new(screen.clone()),
            progress: Progress::on_screen(&screen, 1, Some(bytes.len() as u64)),
        };
        let mut input = Memory {
            rest: bytes,
            early_end: false,
        };
        let (found, checked) = check_input::<Rfc3629, _>(
            &Name::of(&Source::File("sample".into())),
            &mut input,
            &mut Buffer::new(4),
            true,
            &mut report,
        );
        assert!(found && checked.is_ok());
        assert!(report.file_done(bytes.len() as u64).is_ok());
        drop(report);
        let shown = String::from_utf8(screen.0.take()).expect("UTF-8");
        assert_eq!(shown.matches("sample:1:").count(), 6, "{shown:?}");
        assert!(shown.contains("checked 1/1 files"), "{shown:?}");
        // Each drawing of the line starts with the clearing sequence: what
        // follows a line up to the next clearing is on that line.
        for drawn in shown.split("\r\x1b[2K") {
            assert!(
                !drawn.starts_with("checked ") || !drawn.contains('\n'),
                "a report on the progress line: {drawn:?} in {shown:?}"
            );
        }
        assert!(
            shown.ends_with("\r\x1b[2K"),
            "the line is cleared at the end"
        );
    }

    #[test]
    fn standard_input_among_the_inputs_leaves_the_total_unknown() {
        let file = tempfile::NamedTempFile::new().expect("a temporary file");
        std::fs::write(file.path(), b"53 bytes").expect("written");
        let file = Source::File(file.path().to_owned());
        assert_eq!(known_total([&file, &file].into_iter()), Some(16));
        assert_eq!(known_total([&file, &Source::Stdin].into_iter()), None);
    }

    #[test]
    fn reports_read_in_buffers_of_any_size_are_those_of_the_whole_input() {
        for ruleset in utf8_spec::rulesets::BUILTIN {
            with_ruleset(ruleset.name, ReportsMatchTheWhole).expect("built-in");
        }
    }
}
