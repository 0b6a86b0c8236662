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
        let end = unsafe { x86::continued_avx2(chunk, long, buffer as u32, end as u32, data) };
        return end.map(|end| (end as usize, chunk.len() / 8 * 8));
    }
    let _ = (rule, chunk, long, buffer, end, data);
    None
}

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
mod x86;
