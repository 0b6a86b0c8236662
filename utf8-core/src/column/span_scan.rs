//! The views check's walk of the strings in data buffers, eight views at a
//! time: whether each of a chunk's listed views continues the open span
//! (its string lies where the one before ended, in the span's buffer),
//! lies within the buffer, starts on a boundary, and has the prefix its
//! bytes there have. Writers lay strings out one after another (arrow-rs's
//! `BinaryViewBuilder`, Parquet readers), so a chunk of text's views almost
//! always passes; `super::inline`'s walk a string at a time is for the
//! chunk that does not, and says which string is wrong.
//!
//! A string that continues the span starts where the span's end plus the
//! lengths of the listed strings before it says: one prefix sum of the
//! eight views' lengths (the others' counted as 0) gives each string's
//! start. The prefix test reads each string's first four bytes with one
//! gather, only for the views found within the buffer: every byte it
//! reads is in the buffer by the test before it, not by trust in the
//! views.
//!
//! A whole chunk of mostly such strings, once a span is open, is read in
//! one pass ([`whole_chunk`]): the same eights also say which views are
//! inline, and test those as the first pass would (`super::view_scan`:
//! the first byte, and the padding), so that the chunk's views are read
//! once and only its few inline strings are then packed, one store each.
//! In a column of lines this is most chunks; a chunk that does not pass
//! goes through the two passes, which say what is wrong.

use super::rule::RuleOf;
use crate::ruleset::Ruleset;

/// Where the span (in buffer `buffer`, `data`, up to `end`) ends once the
/// strings of the views that `long` picks from `chunk` (view `i` at bit
/// `i`) are added, when each lies where the one before ended, within
/// `data`, starts with a byte that can start a row, and has its first four
/// bytes as its prefix; and how many of the chunk's views that covers (a
/// multiple of eight: the caller walks the rest). `None` when any does
/// not, and where no kernel applies (a CPU without AVX2, a ruleset other
/// than UTF-8's tails, a buffer past 2 GiB): the caller then walks the
/// strings one at a time.
#[inline]
pub(super) fn continued<R: Ruleset>(
    chunk: &[u128],
    long: u64,
    buffer: usize,
    end: usize,
    data: &[u8],
) -> Option<(usize, usize)> {
    debug_assert!(chunk.len() <= super::view_scan::CHUNK);
    let (end, _) = walk::<R, false, false>(chunk, long, buffer, end, data)?;
    Some((end, chunk.len() / 8 * 8))
}

/// A whole chunk of mostly strings in data buffers, in one pass: the
/// walk of [`continued`] over the kept views (`keep`, view `i` at bit
/// `i`) that are not inline, with the tests the first pass makes of the
/// others (`super::view_scan::pack_inline`): each kept inline string's
/// first byte, and with `PADDING` each inline view's padding. The span's
/// end and the bits of the inline views, kept or not, when every test
/// passes; `None` when one does not or no kernel applies, and the caller
/// then checks the chunk in two passes, which say what is wrong.
#[inline]
pub(super) fn whole_chunk<R: Ruleset, const PADDING: bool>(
    chunk: &[u128; super::view_scan::CHUNK],
    keep: u64,
    buffer: usize,
    end: usize,
    data: &[u8],
) -> Option<(usize, u64)> {
    walk::<R, true, PADDING>(chunk, keep, buffer, end, data)
}

/// The kernel of [`continued`] and [`whole_chunk`], where one applies.
#[inline(always)]
fn walk<R: Ruleset, const WHOLE: bool, const PADDING: bool>(
    chunk: &[u128],
    picked: u64,
    buffer: usize,
    end: usize,
    data: &[u8],
) -> Option<(usize, u64)> {
    let rule = const { RuleOf::<R>::RULE };
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    if rule.utf8_tails
        && chunk.len() <= 64
        && matches!(
            crate::cpu::level(),
            crate::cpu::Level::Avx2 | crate::cpu::Level::Avx512
        )
    {
        // Gathers take signed 32-bit offsets.
        let fits = |n: usize| i32::try_from(n).is_ok();
        if !(fits(data.len()) && fits(end) && u32::try_from(buffer).is_ok()) {
            return None;
        }
        // SAFETY: the level is AVX2 or AVX-512, and the CPU has AVX2 at
        // both (`cpu::level` detects AVX-512 only with AVX2); `data` and
        // `end` are below 2^31 and `buffer` below 2^32 (just tested).
        let walked = unsafe {
            x86::walk_avx2::<WHOLE, PADDING>(chunk, picked, buffer as u32, end as u32, data)
        };
        return walked.map(|(end, inline)| (end as usize, inline));
    }
    let _ = (rule, chunk, picked, buffer, end, data);
    None
}

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
mod x86;
