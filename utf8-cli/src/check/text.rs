//! Checking a text input: its bytes streamed through the validator, each
//! error explained where it is found.

use std::io::Write;
use std::marker::PhantomData;

use utf8_core::Ruleset;

use super::report::{Report, Stop};
use crate::diagnosis::Cursor;
use crate::name::Name;
use crate::progress::Progress;
use crate::stream::{Buffer, Fill, Flow, Found, Halt, Run, Sink, stream};
/// Reports the errors of one input as they are found, the first or all of
/// them: whether there were any, and how many bytes were read.
pub(super) fn check_input<R: Ruleset, W: Write>(
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
pub(super) fn first_error<R: Ruleset>(
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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::OutputFormat;
    use crate::diagnosis::Explainer;
    use crate::input::Source;
    use crate::progress::tests::Screen;
    use crate::rulesets::{WithRuleset, with_ruleset};
    use crate::samples::{self, Memory};
    use std::io::BufWriter;
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
    fn reports_read_in_buffers_of_any_size_are_those_of_the_whole_input() {
        for ruleset in utf8_spec::rulesets::BUILTIN {
            with_ruleset(ruleset.name, ReportsMatchTheWhole).expect("built-in");
        }
    }
}
