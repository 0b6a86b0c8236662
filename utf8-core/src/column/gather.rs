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
/// How many bytes a short row's copy moves at once, whatever its length:
/// one fixed-size load and store instead of a call of `memcpy`.
const WIDE: usize = 64;
/// Rows longer than this are checked in place: a call costs them little
/// next to their length, and copying them would not pay.
pub(crate) const COPY_LIMIT: usize = 256;

/// Rows copied for one check, each followed by the separator. Where each
/// row starts is not kept: the rare failure walks the rows again.
///
/// The bytes are borrowed from the caller's stack rather than held, so
/// that the batch itself is three values the compiler keeps in registers:
/// the length is not reloaded from memory after each byte stored.
pub struct Batch<'b> {
    /// `CAPACITY` bytes of rows, and room for one wide copy past them.
    bytes: &'b mut [u8; CAPACITY + WIDE],
    len: usize,
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

impl<'b> Batch<'b> {
    fn new(bytes: &'b mut [u8; CAPACITY + WIDE], separator: u8) -> Batch<'b> {
        Batch {
            bytes,
            len: 0,
            separator,
        }
    }

    fn filled(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Copies `source[start..start + len]` and a separator; the range is
    /// within `source`.
    #[inline(always)]
    pub(crate) fn push(&mut self, source: &[u8], start: usize, len: usize) -> Pushed {
        let at = self.len;
        // One test on the common path: a row that fits and may be copied.
        if at + len >= CAPACITY || len > COPY_LIMIT {
            return if len > COPY_LIMIT {
                Pushed::TooLong
            } else {
                Pushed::Full
            };
        }
        // `at < CAPACITY`: a wide copy fits in the slack, and the bytes it
        // writes past the row are overwritten by what comes next.
        match source.get(start..start.wrapping_add(WIDE)) {
            Some(wide) if len <= WIDE => self.bytes[at..at + WIDE].copy_from_slice(wide),
            _ => self.bytes[at..at + len].copy_from_slice(&source[start..start + len]),
        }
        self.bytes[at + len] = self.separator;
        self.len = at + len + 1;
        Pushed::Copied
    }
}

/// The first invalid row at or after `from`, checked by copying.
pub(crate) fn next_invalid<R: Ruleset, S: Rows + ?Sized>(
    source: &S,
    from: Resume,
    separator: u8,
) -> Option<(usize, Utf8Error, Resume)> {
    let mut bytes = [0; CAPACITY + WIDE];
    let mut batch = Batch::new(&mut bytes, separator);
    let rows = source.rows();
    let Resume { mut row, mut at } = from;
    let mut batch_from = from;
    while row < rows {
        let pushed = source.gather(row, &mut at, &mut batch);
        if let Pushed::Copied = pushed {
            row += 1;
            continue;
        }
        if let Some(found) = check::<R, S>(source, batch.filled(), batch_from, row) {
            return Some(found);
        }
        batch.len = 0;
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
    check::<R, S>(source, batch.filled(), batch_from, rows)
}

/// Checks a batch; on failure, finds its first invalid row from where the
/// check stopped: the rows copied before that point lie in a valid run,
/// each ended by a separator, so they are valid.
fn check<R: Ruleset, S: Rows + ?Sized>(
    source: &S,
    batch: &[u8],
    batch_from: Resume,
    batch_end: usize,
) -> Option<(usize, Utf8Error, Resume)> {
    let e = super::kernel_level::validate::<R>(batch).err()?;
    let stop = e.valid_up_to();
    // Walk the batch's rows again, as the copy laid them out, to the one
    // holding byte `stop`.
    let (mut row, mut at, mut end) = (batch_from.row, batch_from.at, 0);
    while row < batch_end {
        let holds_value = super::nulls::holds_value(source.nulls(), row);
        let mut next = at;
        let len = source.with_row(row, &mut next, <[u8]>::len);
        if holds_value {
            end += len + 1;
            if end > stop {
                break;
            }
        }
        row += 1;
        at = next;
    }
    per_row::<R, S>(source, Resume { row, at }, batch_end)
}
