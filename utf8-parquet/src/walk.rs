//! The walks that come before a Parquet reader parses a footer or decodes
//! a page, for a reader other than this crate's: DataFusion's, built on
//! another major of the parquet crate, runs them on the bytes it fetches.
//!
//! Each walk reads the compact Thrift bytes with a reader that checks every
//! length against the bytes left, so that it costs at most its input's
//! length in time and nothing in memory. What it refuses is what is known
//! to make the parquet crate's reader allocate gigabytes, loop for an
//! hour, or read past a chunk: a footer list of 2³¹ booleans, a schema
//! group with more children than elements, a page header whose sizes run
//! past its chunk, a page declaring more bytes than its codec's data can
//! hold.

use std::ops::Range;

use super::Error;
use super::footer::{self, check_file_metadata, footer_length as length};
pub use super::footer::{ChunkPlace, MAX_SCHEMA_DEPTH};
use super::pages;
pub use super::pages::Codec;

/// The length of the footer of a file of `file_len` bytes whose last 8
/// bytes are `tail` (the footer's length, then Parquet's magic `PAR1`),
/// checked to fit in the file; the footer is the `length` bytes before the
/// tail.
///
/// ```
/// use utf8_parquet::walk::footer_length;
///
/// let tail = [100, 0, 0, 0, b'P', b'A', b'R', b'1'];
/// assert_eq!(footer_length(1000, &tail), Ok(100));
/// assert!(footer_length(100, &tail).is_err());
/// ```
pub fn footer_length(file_len: u64, tail: &[u8; 8]) -> Result<u64, Error> {
    length(file_len, tail).map_err(Error::new)
}

/// Walks a footer's `FileMetaData` (the bytes [`footer_length`] places):
/// every Thrift length in it within the footer, its nesting bounded, its
/// schema a tree that fits its own element count and is at most
/// [`MAX_SCHEMA_DEPTH`] deep.
pub fn check_footer(footer: &[u8]) -> Result<(), Error> {
    check_file_metadata(footer).map_err(|e| Error::new(format!("its footer: {e}")))
}

/// The bytes of a column chunk, where the footer places it: between the
/// file's leading magic and `footer_start`, its value count not negative.
/// A chunk with neither bytes nor values may be anywhere, and is empty.
pub fn chunk_range(chunk: &ChunkPlace, footer_start: u64) -> Result<Range<u64>, Error> {
    footer::chunk_range(chunk, footer_start)
        .map(|(start, len)| start..start + len)
        .map_err(Error::new)
}

/// Walks the pages in `pages`, a column chunk's bytes compressed with
/// `codec` (or a run of its pages, as a reader that skips pages by the
/// page index fetches them): each header within the bytes, each page's
/// declared sizes against what its codec's data holds, and with `values`
/// (the footer's count, for a whole chunk) the values the pages hold
/// against it.
pub fn check_pages(pages: &[u8], codec: Codec, values: Option<i64>) -> Result<(), Error> {
    pages::check_pages(pages, codec, values)
        .map(|_| ())
        .map_err(Error::new)
}
