//! `check` on Parquet files: every byte array column's values checked as
//! UTF-8 (or under the chosen ruleset), and each bad one reported with its
//! column, row and row group.
//!
//! | stage | module | product |
//! |---|---|---|
//! | the footer, the columns to check, the schema given to the reader | `file` | a [`ParquetFile`]: a reader per row group that hands the values over as unchecked bytes |
//! | a batch's values, through the lists, maps and structs above them | `values` | the batch's [`BadValue`]s, each traced to its row |
//! | the row groups on all cores, each thread taking the next as it comes free | `in_order` | their results, in the file's order |
//! | the reports | here | the lines, in the file's order |
//!
//! Memory: a row group's reader holds a batch of rows of each checked
//! column, and as many row groups are read at once as there are threads;
//! the bad values of row groups up to two per thread past the one being
//! reported wait for their turn, the first of each only when `--all` is
//! not given.

mod contain;
mod delta;
mod file;
mod footer;
mod in_order;
mod pages;
mod reader;
mod thrift;
mod values;

use std::fs::File;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;

use clap::ValueEnum;
use utf8_core::Ruleset;

use super::Listing;
use super::report::{Report, Stop};
use crate::input::Source;
use crate::name::Name;
use crate::stream::Halt;
use contain::contained;
use file::ParquetFile;
use in_order::in_order;
pub use values::BadValue;
use values::bad_values;

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
            Ok((
                contained(|| ParquetFile::open(file, wanted.strings_only))?,
                len,
            ))
        })
        .map_err(cannot);
    let (parquet, len) = match opened {
        Ok(opened) => opened,
        Err(halt) => return (false, Err(halt)),
    };
    let all = wanted.all && wanted.listing == Listing::Errors;
    let mut found = false;
    let mut halt = None;
    in_order(
        parquet.row_groups(),
        rayon::current_num_threads(),
        |group| contained(|| bad_values_of_row_group::<R>(&parquet, group, all)),
        |bad| bad.as_ref().map_or(true, |bad| !bad.is_empty() && !all),
        |group, bad| {
            let bad = match bad {
                Ok(bad) => bad,
                Err(message) => {
                    halt = Some(cannot(format!("row group {group}: {message}")));
                    return ControlFlow::Break(());
                }
            };
            found |= !bad.is_empty();
            if wanted.listing == Listing::Errors {
                for value in &bad {
                    let column = &parquet.leaves[value.leaf].path;
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
        },
    );
    match halt {
        Some(halt) => (found, Err(halt)),
        None => (found, Ok(len)),
    }
}

/// The Parquet reading path of `check --all` on `file`, under RFC 3629: how
/// many bad values it holds, or why it cannot be read. For the fuzz target,
/// which holds it to never crashing, hanging or running out of memory.
pub fn check_for_fuzzing(file: File) -> Result<usize, String> {
    let parquet = contained(|| ParquetFile::open(file, false))?;
    let mut bad = 0;
    for group in 0..parquet.row_groups() {
        bad += contained(|| bad_values_of_row_group::<utf8_core::Rfc3629>(&parquet, group, true))?
            .len();
    }
    Ok(bad)
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

/// The bad values of one row group, their rows counted from the file's
/// start: all of them, or the first.
fn bad_values_of_row_group<R: Ruleset>(
    parquet: &ParquetFile,
    group: usize,
    all: bool,
) -> Result<Vec<BadValue>, String> {
    let mut first_row = parquet.row_group_starts[group];
    if parquet.leaves.is_empty() {
        return Ok(Vec::new());
    }
    let mut dictionaries = Vec::new();
    let mut found = Vec::new();
    for batch in parquet.row_group(group)? {
        let batch = batch.map_err(|e| e.to_string())?;
        let mut bad = bad_values::<R>(&batch, all, &mut dictionaries)?;
        for value in &mut bad {
            value.row += first_row;
        }
        if !all {
            bad.truncate(1);
        }
        found.append(&mut bad);
        if !all && !found.is_empty() {
            return Ok(found);
        }
        first_row += batch.num_rows() as u64;
    }
    let declared = parquet.row_group_starts[group + 1];
    if first_row != declared {
        return Err(format!(
            "its columns hold {} rows where the footer says {}",
            first_row - parquet.row_group_starts[group],
            declared - parquet.row_group_starts[group]
        ));
    }
    Ok(found)
}
