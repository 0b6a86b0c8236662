//! The copying check of a views column, where the bytes from `00` to `0C`
//! are separators (`super::rule`): each inline view's 16 bytes as they lie
//! (its length, string and padding), then a separator and the listed
//! strings, each followed by one, and a call checks the batch. What the
//! check in place (`super::inline`) hands on when it is in doubt, and the
//! whole check of a ruleset whose first bytes do not mark boundaries; it
//! names the row.

use super::nulls::holding64;
use super::view::Place;
use super::views::Views;
use super::{Resume, Rows, kernel_level, per_row, view_scan};
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

/// Views a batch holds at most: 2 KiB of them.
const BATCH_VIEWS: usize = 128;
const INLINE: usize = BATCH_VIEWS * 16;
/// Room for the batch's strings that are not inline.
const STRINGS: usize = 4096;
/// Strings up to this long are copied with one fixed-size copy.
const WIDE: usize = 64;
/// Strings longer than this are checked where they lie.
const COPY_LIMIT: usize = 256;
/// The batch: the views, a separator, the strings, and room for one wide
/// copy past them.
const SIZE: usize = INLINE + 1 + STRINGS + WIDE;

/// The first invalid row at or after `from`, every short string copied.
pub(super) fn copied<R: Ruleset, B: AsRef<[u8]>>(
    column: &Views<'_, B>,
    from: Resume,
    separator: u8,
) -> Option<(usize, Utf8Error, Resume)> {
    let rows = column.views().len();
    let mut bytes = [0u8; SIZE];
    bytes[INLINE] = separator;
    let mut listed = [0u8; BATCH_VIEWS];
    let mut first = from.row;
    while first < rows {
        let mut end = rows.min(first + BATCH_VIEWS);
        let count = copy_views(column, first, end, &mut bytes, &mut listed);
        let (strings_end, copied) =
            copy_strings(column, first, &listed[..count], &mut bytes, separator);
        if copied < count {
            // A string too long to copy, or past the room: the batch ends
            // before its row, which starts the next one.
            let cut = first + usize::from(listed[copied]);
            bytes[(cut - first) * 16..(end - first) * 16].fill(0);
            end = cut;
        }
        if end == first {
            let found = per_row::<R, _>(column, Resume { row: first, at: 0 }, first + 1);
            if found.is_some() {
                return found;
            }
            first += 1;
            continue;
        }
        if (end - first) < BATCH_VIEWS {
            // The views of the last, short batch are followed by zeros.
            bytes[(end - first) * 16..INLINE].fill(0);
        }
        if let Err(e) = kernel_level::validate::<R>(&bytes[..strings_end]) {
            let listed = &listed[..copied.min(count)];
            let row = first_invalid::<R, B>(column, first, listed, &bytes[..strings_end], e);
            let found = per_row::<R, _>(column, Resume { row, at: 0 }, end);
            if found.is_some() {
                return found;
            }
        }
        first = end;
    }
    None
}

/// The first pass: each view's bytes, or zeros; returns how many views
/// were listed as strings to copy (`listed`, relative to `first`).
#[inline]
fn copy_views<B: AsRef<[u8]>>(
    column: &Views<'_, B>,
    first: usize,
    end: usize,
    bytes: &mut [u8; SIZE],
    listed: &mut [u8; BATCH_VIEWS],
) -> usize {
    let nulls = column.nulls();
    let mut count = 0;
    let views = &column.views()[first..end];
    let (slots, _) = bytes[..INLINE].as_chunks_mut::<16>();
    for (c, (chunk, slots)) in views
        .chunks(view_scan::CHUNK)
        .zip(slots.chunks_mut(view_scan::CHUNK))
        .enumerate()
    {
        let base = c * view_scan::CHUNK;
        let keep = holding64(nulls, first + base);
        let mut long = view_scan::copy_inline(chunk, keep, slots);
        while long != 0 {
            // `base + i < BATCH_VIEWS`, which fits in a byte.
            listed[count] = (base + long.trailing_zeros() as usize) as u8;
            count += 1;
            long &= long - 1;
        }
    }
    count
}

/// The second pass: the listed strings after the views and a separator,
/// each followed by a separator. Returns where they end, and how many were
/// copied: fewer than listed when one is past `COPY_LIMIT` or the room.
#[inline]
fn copy_strings<B: AsRef<[u8]>>(
    column: &Views<'_, B>,
    first: usize,
    listed: &[u8],
    bytes: &mut [u8; SIZE],
    separator: u8,
) -> (usize, usize) {
    let mut at = INLINE + 1;
    for (copied, &i) in listed.iter().enumerate() {
        let Place::InBuffer(buffer, start, len) = column.place(first + usize::from(i)) else {
            continue;
        };
        if len > COPY_LIMIT || at + len >= INLINE + 1 + STRINGS {
            return (at, copied);
        }
        // `at < INLINE + 1 + STRINGS`: a wide copy fits in the room past
        // the strings, and what it writes past this one is overwritten by
        // the next.
        match buffer.get(start..start.wrapping_add(WIDE)) {
            Some(wide) if len <= WIDE => bytes[at..at + WIDE].copy_from_slice(wide),
            _ => bytes[at..at + len].copy_from_slice(&buffer[start..start + len]),
        }
        bytes[at + len] = separator;
        at += len + 1;
    }
    (at, listed.len())
}

/// The row to search from after the batch failed with `e`: the first
/// invalid inline row if the check stopped among the views, and before it
/// the first listed string that fails on its own.
#[cold]
fn first_invalid<R: Ruleset, B: AsRef<[u8]>>(
    column: &Views<'_, B>,
    first: usize,
    listed: &[u8],
    batch: &[u8],
    e: Utf8Error,
) -> usize {
    let stop = e.valid_up_to();
    // Where the strings' check stopped, relative to their start.
    let strings_stop = if stop < INLINE {
        kernel_level::validate::<R>(&batch[INLINE + 1..])
            .err()
            .map(|e| e.valid_up_to())
    } else {
        // The views were valid to their end, so they ended on a
        // boundary, after which the separator is valid: `stop` is past it.
        Some(stop.saturating_sub(INLINE + 1))
    };
    let inline_row = (stop < INLINE).then_some(first + stop / 16);
    let string_row = strings_stop.and_then(|stop| {
        let mut end = 0;
        listed.iter().find_map(|&i| {
            let row = first + usize::from(i);
            end += column.len_of(row) + 1;
            (end > stop).then_some(row)
        })
    });
    match (inline_row, string_row) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => first,
    }
}
