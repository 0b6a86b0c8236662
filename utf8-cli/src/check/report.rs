//! What `check` writes: errors, paths, notes and the progress line, in
//! order on one output.

use std::io::Write;

use super::OutputFormat;
use crate::diagnosis::{Cursor, Explainer, Explanation, Invalid, hex_packed, hex_spaced};
use crate::failure::Failure;
use crate::name::Name;
use crate::progress::Progress;
use utf8_parquet::BadValue;

pub(super) struct Report<'a, W: Write> {
    pub(super) format: OutputFormat,
    pub(super) ruleset: &'a str,
    /// Derived when the first error needs explaining, once per run.
    pub(super) explainer: Option<Explainer>,
    pub(super) out: W,
    pub(super) progress: Progress,
}

impl<W: Write> Report<'_, W> {
    pub(super) fn explainer(&mut self) -> Result<&Explainer, Stop> {
        if self.explainer.is_none() {
            self.explainer = Some(Explainer::new(self.ruleset)?);
        }
        Ok(self.explainer.as_ref().expect("derived just now"))
    }

    pub(super) fn error(
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

    /// A bad value of a Parquet file: its column, row and row group, where
    /// the error is inside the value, its bytes and what was expected.
    pub(super) fn value_error(
        &mut self,
        name: &Name,
        column: &str,
        row_group: usize,
        value: &BadValue,
    ) -> Result<(), Stop> {
        self.progress.clear();
        let start = value.offset;
        let incomplete = value.error_len.is_none();
        let end = start + value.error_len.unwrap_or(value.bytes.len() - start);
        let explainer = self.explainer()?;
        let before = explainer.state_after(None, &value.bytes[value.resumed_at..start]);
        let explanation = explainer.explain_in(
            "value",
            before,
            &value.bytes[start..end],
            value.bytes.get(end).copied(),
            incomplete,
        );
        let line = match self.format {
            OutputFormat::Human => {
                let element = value
                    .element
                    .map(|element| format!(", element {element}"))
                    .unwrap_or_default();
                format!(
                    "{}: column {column}, row {}{element}, row group {row_group}: offset {start}: bytes {}: {}",
                    name.text,
                    value.row,
                    hex_spaced(&explanation.shown),
                    explanation.message
                )
            }
            OutputFormat::Json => serde_json::json!({
                "path": name.json,
                "ruleset": self.ruleset,
                "column_path": column,
                "row": value.row,
                "element": value.element,
                "row_group": row_group,
                "offset": start,
                "len": value.error_len,
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
    pub(super) fn path(&mut self, name: &Name) -> Result<(), Stop> {
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
    pub(super) fn note(&mut self, message: &str) {
        self.progress.clear();
        // Errors already reported come first; a write failure here shows
        // again, and is reported, at the next write or the final flush.
        let _ = self.out.flush();
        crate::failure::tell(&message);
    }

    pub(super) fn flush(&mut self) -> Result<(), Stop> {
        self.out.flush().map_err(Stop::from)
    }

    /// Draws the progress line, `done` bytes into the current input, if it
    /// is due, after the reports so far: standard output may be the
    /// terminal the line is on, and a report written after the line would
    /// go on at its end.
    pub(super) fn progress_at(&mut self, done: u64) -> Result<(), Stop> {
        if self.progress.due() {
            self.flush()?;
            self.progress.at(done);
        }
        Ok(())
    }

    /// The current input, `len` bytes long, is done.
    pub(super) fn file_done(&mut self, len: u64) -> Result<(), Stop> {
        self.progress.file_done(len);
        self.progress_at(0)
    }
}

/// Why checking stops before the last input.
pub(super) enum Stop {
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
