#![doc = include_str!("../README.md")]
//!
//! ## How it works
//!
//! | stage | module | product |
//! |---|---|---|
//! | the footer walked before the parquet crate parses it, the columns to check, the schema given to the reader | `footer`, `file` | a [`ParquetCheck`]: a reader per row group that hands the values over as unchecked bytes |
//! | each column chunk's pages walked before the reader decodes them | `pages`, `delta` | the chunk, or why it cannot be read |
//! | a batch's values, through the lists, maps and structs above them | `values` | the batch's [`BadValue`]s, each traced to its row |
//! | the row groups on all cores, each thread taking the next as it comes free | `in_order` | their results, in the file's order |
//!
//! The walks of the footer and the pages are public in [`walk`], for a
//! reader built on another major of the parquet crate. They need none of
//! it: without the default feature `reader`, [`walk`] is all this crate
//! compiles, over its own Thrift reader and the gzip and Brotli decoders.
//!
//! Memory: a row group's reader holds a batch of rows of each checked
//! column, and as many row groups are read at once as there are threads;
//! the results of row groups up to two per thread past the one being handed
//! over wait for their turn.
//!
//! A malformed file is an [`Error`]: the walks of the footer and the pages
//! refuse what is known to crash, hang or exhaust the parquet crate's
//! reader, and a panic in the reader on one not yet known is caught and
//! becomes an error too.

#![warn(missing_docs)]

#[cfg(feature = "reader")]
mod contain;
#[cfg(feature = "reader")]
mod delta;
#[cfg(feature = "reader")]
mod file;
mod footer;
#[cfg(feature = "reader")]
mod in_order;
mod pages;
#[cfg(feature = "reader")]
mod reader;
mod thrift;
#[cfg(feature = "reader")]
mod values;
pub mod walk;

use std::fmt;

#[cfg(feature = "reader")]
mod check;
#[cfg(feature = "reader")]
pub use check::{BadValue, ParquetCheck, check_for_fuzzing};

/// Why a Parquet file cannot be checked: what in it is malformed, or the
/// parquet crate's own message. A row group's error names the row group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    pub(crate) fn new(message: String) -> Error {
        Error { message }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
