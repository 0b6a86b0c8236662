//! The copying check, for rows that do not lie next to each other (views,
//! a page's length-prefixed values) or whose ruleset's first bytes do not
//! mark boundaries: short rows are copied into a buffer on the stack, each
//! followed by the ruleset's separator ([`super::rule`]), and the buffer is
//! checked in one call. A long row is checked where it lies.

use super::{Resume, Rows, per_row};
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

/// The buffer's size: a few pages, so that the copies stay in the first
/// cache level, checked in one call whose fixed cost is spread over many
/// rows.
const CAPACITY: usize = 4096;
/// Room past the capacity for one fixed-size copy of an inline view.
const SLACK: usize = 16;
/// Rows a batch holds at most (its start table's size).
const MAX_ROWS: usize = 512;
/// Rows longer than this are checked in place: a call costs them little
/// next to their length, and copying them would not pay.
pub(crate) const COPY_LIMIT: usize = 256;

/// Rows copied for one check, and where each starts.
pub struct Batch {
    bytes: [u8; CAPACITY + SLACK],
    len: usize,
    starts: [u16; MAX_ROWS],
    count: usize,
    separator: u8,
}

/// What [`Batch::push`] did with a row.
pub enum Pushed {
    Copied,
    /// The batch has no room; check it and start another.
    Full,
    /// The row is past [`COPY_LIMIT`]: check it where it lies.
    TooLong,
}

impl Batch {
    fn new(separator: u8) -> Batch {
        Batch {
            bytes: [0; CAPACITY + SLACK],
            len: 0,
            starts: [0; MAX_ROWS],
            count: 0,
            separator,
        }
    }

    fn room(&self, len: usize) -> bool {
        self.count < MAX_ROWS && self.len + len < CAPACITY
    }

    fn note_start(&mut self) {
        // `len < CAPACITY` fits in `u16` (a const assertion below).
        self.starts[self.count] = self.len as u16;
        self.count += 1;
    }

    /// Copies a row and its separator.
    #[inline]
    pub(crate) fn push(&mut self, row: &[u8]) -> Pushed {
        if row.len() > COPY_LIMIT {
            return Pushed::TooLong;
        }
        if !self.room(row.len()) {
            return Pushed::Full;
        }
        self.note_start();
        self.bytes[self.len..self.len + row.len()].copy_from_slice(row);
        self.len += row.len();
        self.bytes[self.len] = self.separator;
        self.len += 1;
        Pushed::Copied
    }

    /// Copies a row of `len <= 16` bytes held at the start of `data` as one
    /// fixed-size store, and its separator.
    #[inline]
    pub(crate) fn push_inline(&mut self, data: [u8; 16], len: usize) -> Pushed {
        if !self.room(len) {
            return Pushed::Full;
        }
        self.note_start();
        // `len < CAPACITY` after `room`, and `SLACK` is 16: in bounds.
        self.bytes[self.len..self.len + 16].copy_from_slice(&data);
        self.len += len.min(16);
        self.bytes[self.len] = self.separator;
        self.len += 1;
        Pushed::Copied
    }

    /// A null row: an entry that takes no bytes, so that entry `k` is row
    /// `first + k`.
    #[inline]
    pub(crate) fn push_null(&mut self) -> Pushed {
        if self.count == MAX_ROWS {
            return Pushed::Full;
        }
        self.note_start();
        Pushed::Copied
    }
}

const _: () = assert!(CAPACITY + SLACK <= u16::MAX as usize);

/// The first invalid row at or after `from`, checked by copying.
pub(crate) fn next_invalid<R: Ruleset, S: Rows + ?Sized>(
    source: &S,
    from: Resume,
    separator: u8,
) -> Option<(usize, Utf8Error, Resume)> {
    let mut batch = Batch::new(separator);
    let rows = source.rows();
    let Resume { mut row, mut at } = from;
    let mut batch_from = from;
    while row < rows {
        let pushed = source.gather(row, &mut at, &mut batch);
        if let Pushed::Copied = pushed {
            row += 1;
            continue;
        }
        if let Some(found) = check::<R, S>(source, &batch, batch_from) {
            return Some(found);
        }
        batch.len = 0;
        batch.count = 0;
        if let Pushed::TooLong = pushed {
            let found = per_row::<R, S>(source, Resume { row, at }, row + 1);
            if found.is_some() {
                return found;
            }
            source.with_row(row, &mut at, |_| ());
            row += 1;
        }
        // A full batch: the row goes into the next one, which cannot be
        // full for it (a row past `COPY_LIMIT` is never copied).
        batch_from = Resume { row, at };
    }
    check::<R, S>(source, &batch, batch_from)
}

/// Checks a batch; on failure, finds its first invalid row from the entry
/// where the check stopped (the rows copied before it lie in a valid run,
/// each ended by a separator, so they are valid).
fn check<R: Ruleset, S: Rows + ?Sized>(
    source: &S,
    batch: &Batch,
    batch_from: Resume,
) -> Option<(usize, Utf8Error, Resume)> {
    let e = R::validate(&batch.bytes[..batch.len]).err()?;
    let position = e.valid_up_to();
    let starts = &batch.starts[..batch.count];
    let entry = starts
        .partition_point(|&s| usize::from(s) <= position)
        .saturating_sub(1);
    let mut at = batch_from.at;
    for row in batch_from.row..batch_from.row + entry {
        source.with_row(row, &mut at, |_| ());
    }
    per_row::<R, S>(
        source,
        Resume {
            row: batch_from.row + entry,
            at,
        },
        batch_from.row + batch.count,
    )
}
