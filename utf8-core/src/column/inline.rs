//! The check of a views column whose ruleset lets inline views be checked
//! in few calls. Each batch's first pass (`super::view_scan`) lists the
//! views that point into a data buffer, with no branch on what a view
//! holds, and collects the inline strings. Then, two ways:
//!
//! - **In place** (here), where the ruleset's first bytes mark boundaries
//!   (UTF-8, `super::rule`): the inline strings packed one after another,
//!   and each run of listed strings that lie back to back in one data
//!   buffer, in row order (a span), checked where it lies, each in one
//!   call. Each row's first byte is tested as the offsets check tests it:
//!   packed strings, or the rows of a span, are valid exactly when each
//!   row is and each starts on a boundary. Where the strings lie in
//!   another order (a span every few rows) or a test fails, the rest is
//!   checked by copying, which names the row. A chunk of mostly listed
//!   strings is walked eight views at a time (`super::span_scan`), and
//!   otherwise, or where an eight does not pass, a string at a time; once
//!   a span is open, such a chunk is first tried in one pass that makes
//!   the first pass's tests too. A span checked at the end of a batch
//!   stays open from its end, so that the next batch continues it.
//! - **By copying** (`super::views_copied`), where the bytes from `00` to
//!   `0C` are separators (`super::rule`).

use super::nulls::holding64;
use super::rule::RuleOf;
use super::view::View;
use super::views::Views;
use super::views_copied::copied;
use super::{Resume, Rows, kernel_level, span_scan, view_scan};
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

/// Views the check in place reads at a time (16 KiB of them): it copies
/// only their inline strings (at most 12 KiB, on the stack), which one
/// call then checks. A call's fixed cost is about that of checking 1 KiB,
/// and text's inline strings pack to a few bytes a view, so that fewer
/// views a batch spend a large part of the check on calls.
const IN_PLACE_VIEWS: usize = 1024;
/// How far past a string in a data buffer the walk asks the CPU to
/// fetch.
const DATA_AHEAD: usize = 512;
/// A chunk with this many kept strings in data buffers or more (half of
/// [`view_scan::CHUNK`]) is mostly long strings: its strings in data
/// buffers are walked eight views at a time (`span_scan`), and the next
/// chunk's inline strings are packed as few. Below it, an eight's fixed
/// cost is more than the walk a string at a time costs (a column of words,
/// a fifth of them long, is a little slower at a quarter).
const MOSTLY_LONG: u32 = 32;
/// A span this long is checked at the end of its batch.
const SPAN_BYTES: usize = 4096;
/// More spans begun in one batch than this (one every 32 views), and the
/// rest of the column is checked by copying.
const MAX_SPANS_A_BATCH: usize = IN_PLACE_VIEWS / 32;

/// The first invalid row at or after `from`.
pub(crate) fn next_invalid<R: Ruleset, B: AsRef<[u8]>>(
    column: &Views<'_, B>,
    from: Resume,
    separator: u8,
) -> Option<(usize, Utf8Error, Resume)> {
    let rule = const { RuleOf::<R>::RULE };
    if !rule.first_byte_marks_boundary {
        return copied::<R, B>(column, from, separator);
    }
    match in_place::<R, B, false>(column, from.row) {
        Ok(()) => None,
        Err(doubt) => copied::<R, B>(column, Resume { row: doubt, at: 0 }, separator),
    }
}

/// The strings of a run of rows that lie one after another in a data
/// buffer, as its writer (arrow-rs's `BinaryViewBuilder`, Parquet
/// readers) lays them out: checked where they lie, as one run.
#[derive(Clone, Copy)]
struct Span<'a> {
    /// The first row whose string the span holds, or one before it (the
    /// next batch's first, where a span stays open past a check): where
    /// a check by copying starts when the span fails.
    row: usize,
    buffer: usize,
    /// The data buffer, looked up once for the span's rows.
    data: &'a [u8],
    start: usize,
    end: usize,
}

/// The check that copies only the inline views: the strings in data
/// buffers are checked where they lie, a run of them at a time (a
/// [`Span`]), and one test of each row's first byte (a boundary, as in
/// the offsets check: `super::rule`). `Ok` when every row from `from` that
/// holds a value is valid; otherwise the first row from which that is in
/// doubt, to be checked by copying.
///
/// With `CHECK_LAYOUT`, the column's layout is not yet known to be sound
/// ([`Views::validated`]), and this pass checks it as it goes, each view
/// before anything is read through it: the same tests as [`Views::new`]
/// on every view from `from`, null rows' included. A malformed view is an
/// `Err` like any other doubt.
pub(super) fn in_place<R: Ruleset, B: AsRef<[u8]>, const CHECK_LAYOUT: bool>(
    column: &Views<'_, B>,
    from: usize,
) -> Result<(), usize> {
    let views = column.views();
    let nulls = column.nulls();
    let mut text = [0u8; view_scan::packed_room(IN_PLACE_VIEWS)];
    let mut span: Option<Span<'_>> = None;
    let mut first = from;
    // Whether the chunk before had mostly strings in data buffers, as the
    // next likely has too.
    let mut mostly_long = false;
    while first < views.len() {
        let batch = &views[first..views.len().min(first + IN_PLACE_VIEWS)];
        // Every row from the span's first, or this batch's, is in doubt
        // once a test fails.
        let doubt = span.map_or(first, |span| span.row);
        let mut walk = Walk {
            span,
            starts_right: true,
            spans_begun: 0,
            first,
            doubt,
        };
        let mut packed = 0;
        for (c, chunk) in batch.chunks(view_scan::CHUNK).enumerate() {
            let chunk_first = first + c * view_scan::CHUNK;
            let keep = holding64(nulls, chunk_first);
            // The views a batch ahead, so that memory delivers them
            // while this batch's strings are checked.
            let ahead = views
                .get(chunk_first + IN_PLACE_VIEWS..)
                .unwrap_or_default();
            view_scan::prefetch(&ahead[..ahead.len().min(view_scan::CHUNK)]);
            if mostly_long {
                let fused = in_one_pass::<R, B, CHECK_LAYOUT>(
                    column,
                    (chunk, keep),
                    (&mut text, &mut packed),
                    &mut walk.span,
                );
                if let Some(long) = fused {
                    mostly_long = long.count_ones() >= MOSTLY_LONG;
                    continue;
                }
            }
            let found = first_pass::<R, B, CHECK_LAYOUT>(
                chunk,
                keep,
                (&mut text, &mut packed),
                column,
                mostly_long,
            );
            let Some(long) = found else {
                return Err(doubt);
            };
            mostly_long = long.count_ones() >= MOSTLY_LONG;
            walk_long::<R, B, CHECK_LAYOUT>(
                column,
                (chunk, chunk_first),
                long,
                mostly_long,
                &mut walk,
            )?;
        }
        span = walk.span;
        // Strings laid out in another order than their rows' make a span
        // each, and a call each costs more than copying them.
        if !walk.starts_right || walk.spans_begun > MAX_SPANS_A_BATCH {
            return Err(doubt);
        }
        if kernel_level::validate::<R>(&text[..packed]).is_err() {
            return Err(doubt);
        }
        first += batch.len();
        // A span checked once it is long enough that the call's fixed cost
        // is spread thin, so that a failure sends only a few batches round
        // again by copying. It stays open from its end, in the same
        // buffer, so that the next batch's strings continue it: its row is
        // then the next batch's first, no later than its first string's.
        if let Some(long) = span.filter(|span| span.end - span.start >= SPAN_BYTES) {
            check_span::<R>(long)?;
            span = Some(Span {
                row: first,
                start: long.end,
                ..long
            });
        }
    }
    match span {
        Some(span) => check_span::<R>(span),
        None => Ok(()),
    }
}

/// A batch's walk of its views that point into a data buffer: the span
/// they extend, whether each string starts on a boundary, and how many
/// spans the batch began; the batch's first row, and the first row in
/// doubt when a view is malformed (the open span's first, or the batch's).
struct Walk<'a> {
    span: Option<Span<'a>>,
    starts_right: bool,
    spans_begun: usize,
    first: usize,
    doubt: usize,
}

/// Walks a chunk's kept views that point into a data buffer (`long`, the
/// chunk's first row at bit 0, numbered from `chunk_first`): each string
/// extends the span or begins the next, the one before checked. `Err`
/// holds the first row in doubt: the walk's `doubt` for a malformed view,
/// else the failed span's first row or the batch's (the walk's `first`),
/// whose inline strings are not checked yet.
///
/// A chunk of mostly such views (`by_eights`) is first tested eight views
/// at a time (`span_scan`). A string that continues the span (most, as writers lay
/// them out) is tested against the span's buffer, looked up when the span
/// began: its range and prefix with `CHECK_LAYOUT`, with no lookup of its
/// own.
#[inline(always)]
fn walk_long<'a, R: Ruleset, B: AsRef<[u8]>, const CHECK_LAYOUT: bool>(
    column: &Views<'a, B>,
    (chunk, chunk_first): (&[u128], usize),
    mut long: u64,
    mut by_eights: bool,
    walk: &mut Walk<'a>,
) -> Result<(), usize> {
    let rule = const { RuleOf::<R>::RULE };
    let doubt = walk.doubt;
    let mut starts_right = true;
    while long != 0 {
        let mut view = View(chunk[long.trailing_zeros() as usize]);
        let (buffer, start) = (view.buffer_index(), view.offset());
        let span = match &mut walk.span {
            Some(span) if span.buffer == buffer && span.end == start => span,
            _ => {
                let row = chunk_first + long.trailing_zeros() as usize;
                begin_span::<R, B>(column, row, buffer, start, walk)?
            }
        };
        // Once a chunk, on the span its first string continues or
        // begins: the eights whose strings all continue it, leaving the
        // views past them, or all when an eight does not pass.
        if by_eights {
            by_eights = false;
            if let Some((end, walked)) =
                span_scan::continued::<R>(chunk, long, buffer, span.end, span.data)
            {
                span.end = end;
                long &= u64::MAX.checked_shl(walked as u32).unwrap_or(0);
                continue;
            }
        }
        // The run of strings that continue the span, with the span's
        // buffer and end held apart from the walk.
        let data = span.data;
        let mut end = span.end;
        loop {
            long &= long - 1;
            // The prefix, checked by `Views::new` or just below, is the
            // string's first byte.
            starts_right &= rule.starts_row(view.first_byte());
            let len = view.len();
            if CHECK_LAYOUT {
                let string = end.checked_add(len).and_then(|to| data.get(end..to));
                if string.and_then(<[u8]>::first_chunk) != Some(&view.prefix().to_le_bytes()) {
                    return Err(doubt);
                }
            }
            // The strings that follow this one, read by the rows ahead,
            // which memory delivers while they are reached.
            view_scan::prefetch_byte(data, end + DATA_AHEAD);
            end += len;
            if long == 0 {
                break;
            }
            view = View(chunk[long.trailing_zeros() as usize]);
            if view.buffer_index() != buffer || view.offset() != end {
                break;
            }
        }
        span.end = end;
    }
    walk.starts_right &= starts_right;
    Ok(())
}

/// Checks the walk's open span, if any, and begins a span at `row`, whose
/// string starts at `start` in buffer `buffer`. `Err` as [`walk_long`]'s.
#[inline(never)]
fn begin_span<'a, 'w, R: Ruleset, B: AsRef<[u8]>>(
    column: &Views<'a, B>,
    row: usize,
    buffer: usize,
    start: usize,
    walk: &'w mut Walk<'a>,
) -> Result<&'w mut Span<'a>, usize> {
    if let Some(done) = walk.span {
        check_span::<R>(done).map_err(|row| row.min(walk.first))?;
    }
    // A column that `Views::new` checked has every buffer its views name.
    let Some(data) = column.buffers().get(buffer) else {
        return Err(walk.doubt);
    };
    walk.spans_begun += 1;
    Ok(walk.span.insert(Span {
        row,
        buffer,
        data: data.as_ref(),
        start,
        end: start,
    }))
}

/// A chunk of mostly strings in data buffers checked in one pass
/// (`span_scan::whole_chunk`), when the open span is in a buffer and
/// every kept string of the chunk there continues it: the kept inline
/// strings packed into `text` from `*packed`, the span extended, and the
/// bits of the kept views that point into a data buffer returned. With
/// `CHECK_LAYOUT`, null rows' views are tested as [`first_pass`] tests
/// them. `None`, with nothing changed, when there is no open span, the
/// chunk is short (the column's last), or a test fails: the chunk is then
/// checked in two passes, which say what is wrong.
#[inline(always)]
fn in_one_pass<R: Ruleset, B: AsRef<[u8]>, const CHECK_LAYOUT: bool>(
    column: &Views<'_, B>,
    (chunk, keep): (&[u128], u64),
    (text, packed): (&mut [u8], &mut usize),
    span: &mut Option<Span<'_>>,
) -> Option<u64> {
    let span = span.as_mut()?;
    let whole = chunk.try_into().ok()?;
    let (end, inline) =
        span_scan::whole_chunk::<R, CHECK_LAYOUT>(whole, keep, span.buffer, span.end, span.data)?;
    if CHECK_LAYOUT && null_views_fault(chunk, !inline & !keep, column) {
        return None;
    }
    view_scan::store_each_string(chunk, inline & keep, text, packed);
    span.end = end;
    Some(!inline & keep)
}

/// Whether any of the null rows' views that `null_long` picks (each
/// pointing into a data buffer) is malformed, as `Views::new` tests
/// them.
fn null_views_fault<B: AsRef<[u8]>>(
    chunk: &[u128],
    mut null_long: u64,
    column: &Views<'_, B>,
) -> bool {
    let mut fault = false;
    while null_long != 0 {
        let view = View(chunk[null_long.trailing_zeros() as usize]);
        null_long &= null_long - 1;
        fault |= view.fault_in_buffer(column.buffers()).is_err();
    }
    fault
}

/// A chunk's first pass: its kept inline strings packed into `text` from
/// `*packed`, and the bits of the kept views that point into a data
/// buffer; `None` when a kept inline string starts with a byte that cannot
/// start a row. With `CHECK_LAYOUT`, also the tests `Views::new` makes of
/// each of the chunk's views but the kept ones that point into a buffer,
/// which `in_place` tests as it walks them: `None` when a view is
/// malformed.
#[inline(always)]
fn first_pass<R: Ruleset, B: AsRef<[u8]>, const CHECK_LAYOUT: bool>(
    chunk: &[u128],
    keep: u64,
    (text, packed): (&mut [u8], &mut usize),
    column: &Views<'_, B>,
    mostly_long: bool,
) -> Option<u64> {
    let rule = const { RuleOf::<R>::RULE };
    let found =
        view_scan::pack_inline::<CHECK_LAYOUT>(chunk, keep, text, packed, &rule, mostly_long);
    let mut doubt = found.bad_start | found.dirty;
    // Null rows' views are checked too, as `Views::new` does.
    if CHECK_LAYOUT {
        doubt |= null_views_fault(chunk, found.long & !keep, column);
    }
    (!doubt).then_some(found.long & keep)
}

/// Checks a span's bytes where they lie; the error is its first row,
/// and a span past its buffer's end (possible only in a column whose
/// layout is not yet checked) fails too.
fn check_span<R: Ruleset>(span: Span<'_>) -> Result<(), usize> {
    let bytes = span.data.get(span.start..span.end).ok_or(span.row)?;
    kernel_level::validate::<R>(bytes).map_err(|_| span.row)
}
