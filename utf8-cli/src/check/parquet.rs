//! `check` on Parquet files: every byte array column's values checked as
//! UTF-8 (or under the chosen ruleset) by the utf8-parquet crate, and each
//! bad one reported with its column, row and row group, in the file's
//! order.

use std::fs::File;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;

use clap::ValueEnum;
use utf8_core::Ruleset;
use utf8_parquet::ParquetCheck;

use super::Listing;
use super::report::{Report, Stop};
use crate::input::Source;
use crate::name::Name;
use crate::stream::Halt;

/// When an input is read as a Parquet file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ParquetMode {
    /// A file whose name ends in `.parquet`, or that starts and ends with
    /// Parquet's magic bytes `PAR1`
    Auto,
    /// Every input, standard input too (copied to a temporary file first:
    /// Parquet's footer is at the end)
    Always,
    /// None: every input is text
    Never,
}

/// Whether `source` is to be read as a Parquet file, as far as its name
/// tells: `None` for a file whose magic bytes decide, which the caller
/// reads from the file it opens anyway ([`Input::has_parquet_magic`]),
/// rather than opening it twice.
///
/// [`Input::has_parquet_magic`]: crate::input::Input::has_parquet_magic
pub fn is_parquet_by_name(source: &Source, mode: ParquetMode) -> Option<bool> {
    match (mode, source) {
        (ParquetMode::Always, _) => Some(true),
        (ParquetMode::Never, _) | (ParquetMode::Auto, Source::Stdin) => Some(false),
        (ParquetMode::Auto, Source::File(path)) => has_parquet_name(path).then_some(true),
    }
}

fn has_parquet_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("parquet"))
}

/// What to look for in a Parquet file.
pub struct Wanted {
    pub listing: Listing,
    pub all: bool,
    pub strings_only: bool,
}

/// Checks the Parquet file `source` and reports what `wanted` asks for:
/// whether a bad value was found, and the file's size.
pub fn check_parquet<R: Ruleset, W: Write>(
    source: &Source,
    name: &Name,
    wanted: &Wanted,
    report: &mut Report<'_, W>,
) -> (bool, Result<u64, Halt<Stop>>) {
    let cannot =
        |message: String| Halt::Read(format!("cannot read {} as Parquet: {message}", name.text));
    let opened = open(source)
        .and_then(|file| {
            let len = file.metadata().map_err(|e| e.to_string())?.len();
            let check = ParquetCheck::open(file, wanted.strings_only).map_err(|e| e.to_string())?;
            Ok((check, len))
        })
        .map_err(cannot);
    let (parquet, len) = match opened {
        Ok(opened) => opened,
        Err(halt) => return (false, Err(halt)),
    };
    let all = wanted.all && wanted.listing == Listing::Errors;
    let mut found = false;
    let mut halt = None;
    parquet.each_row_group::<R>(rayon::current_num_threads(), all, |group, bad| {
        let bad = match bad {
            Ok(bad) => bad,
            Err(error) => {
                halt = Some(cannot(error.to_string()));
                return ControlFlow::Break(());
            }
        };
        found |= !bad.is_empty();
        if wanted.listing == Listing::Errors {
            for value in &bad {
                let column = parquet.column(value.leaf);
                if let Err(stop) = report.value_error(name, column, group, value) {
                    halt = Some(Halt::Sink(stop));
                    return ControlFlow::Break(());
                }
            }
            if let Err(stop) = report.flush() {
                halt = Some(Halt::Sink(stop));
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    });
    match halt {
        Some(halt) => (found, Err(halt)),
        None => (found, Ok(len)),
    }
}

/// The file behind `source`. One that cannot be read at positions (standard
/// input, a FIFO, `/dev/stdin`, a process substitution) is copied to a
/// temporary file first, which is deleted when closed: Parquet's footer is
/// at its end.
fn open(source: &Source) -> Result<File, String> {
    match source {
        Source::File(path) => {
            let mut file = File::open(path).map_err(|e| e.to_string())?;
            let kind = file.metadata().map_err(|e| e.to_string())?.file_type();
            if kind.is_dir() {
                return Err("it is a directory".to_owned());
            }
            if kind.is_file() {
                Ok(file)
            } else {
                copied(&mut file)
            }
        }
        Source::Stdin => copied(&mut std::io::stdin().lock()),
    }
}

/// What `input` holds, in a temporary file.
fn copied(input: &mut impl std::io::Read) -> Result<File, String> {
    let mut copy = tempfile::tempfile()
        .map_err(|e| format!("cannot create a temporary file to copy it to: {e}"))?;
    std::io::copy(input, &mut copy).map_err(|e| e.to_string())?;
    Ok(copy)
}
