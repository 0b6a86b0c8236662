//! The check of a whole file: [`ParquetCheck`] over the parquet crate's
//! reader, after the walks.

use std::fs::File;
use std::ops::ControlFlow;

use utf8_core::Ruleset;

use super::Error;
use super::contain::contained;
use super::file::ParquetFile;
use super::in_order::in_order;
pub use super::values::BadValue;
use super::values::bad_values;

/// A Parquet file opened for the check: its footer read and walked, and its
/// byte array columns chosen.
pub struct ParquetCheck {
    file: ParquetFile,
}

impl ParquetCheck {
    /// Reads the footer of `file` and chooses the columns to check: every
    /// `BYTE_ARRAY` column, or with `strings_only` those annotated as text
    /// (`STRING`, `ENUM`, `JSON`, `UTF8`).
    pub fn open(file: File, strings_only: bool) -> Result<ParquetCheck, Error> {
        contained(|| ParquetFile::open(file, strings_only))
            .map(|file| ParquetCheck { file })
            .map_err(Error::new)
    }

    /// How many row groups the file has.
    pub fn row_groups(&self) -> usize {
        self.file.row_groups()
    }

    /// The first row of row group `group`, counted from the file's start
    /// (the footer's row counts added up); `group == row_groups()` gives
    /// the file's row count.
    ///
    /// # Panics
    ///
    /// If `group` is past `row_groups()`.
    pub fn first_row(&self, group: usize) -> u64 {
        self.file.row_group_starts[group]
    }

    /// The checked columns' paths in the schema, dot-joined
    /// (`tags.list.element`), in the order [`BadValue::leaf`] counts them.
    pub fn columns(&self) -> impl ExactSizeIterator<Item = &str> {
        self.file.leaves.iter().map(|leaf| leaf.path.as_str())
    }

    /// The path of checked column `leaf` ([`BadValue::leaf`]).
    ///
    /// # Panics
    ///
    /// If `leaf` is not a checked column's index.
    pub fn column(&self, leaf: usize) -> &str {
        &self.file.leaves[leaf].path
    }

    /// The bad values of row group `group` under ruleset `R`, ordered by
    /// row, then column, then element, their rows counted from the file's
    /// start: all of them, each error of a value, or with `all` unset, the
    /// first only.
    ///
    /// # Panics
    ///
    /// If `group` is not below `row_groups()`.
    pub fn row_group<R: Ruleset>(&self, group: usize, all: bool) -> Result<Vec<BadValue>, Error> {
        contained(|| bad_values_of_row_group::<R>(&self.file, group, all))
            .map_err(|message| Error::new(format!("row group {group}: {message}")))
    }

    /// Each row group's [`row_group`](Self::row_group), on `threads`
    /// threads, handed to `hand_over` in the file's order on the calling
    /// thread. The first error ends the run, and so does, with `all` unset,
    /// the first bad value, or a break from `hand_over`: the row groups
    /// after it are not read.
    pub fn each_row_group<R: Ruleset>(
        &self,
        threads: usize,
        all: bool,
        hand_over: impl FnMut(usize, Result<Vec<BadValue>, Error>) -> ControlFlow<()>,
    ) {
        in_order(
            self.row_groups(),
            threads,
            |group| self.row_group::<R>(group, all),
            |bad| bad.as_ref().map_or(true, |bad| !bad.is_empty() && !all),
            hand_over,
        );
    }
}

/// The whole check of `file` with `--all`, under RFC 3629, on the calling
/// thread: how many bad values it holds, or why it cannot be read. For the
/// fuzz target, which holds it to never crashing, hanging or running out
/// of memory.
#[doc(hidden)]
pub fn check_for_fuzzing(file: File) -> Result<usize, Error> {
    let check = ParquetCheck::open(file, false)?;
    let mut bad = 0;
    for group in 0..check.row_groups() {
        bad += check.row_group::<utf8_core::Rfc3629>(group, true)?.len();
    }
    Ok(bad)
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
