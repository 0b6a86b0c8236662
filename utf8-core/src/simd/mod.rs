//! The vectorised check: Keiser and Lemire's lookup algorithm, run on tables
//! that `utf8-spec` derived from the ruleset's minimal DFA and proved exact
//! (see `utf8_spec::simd`).
//!
//! Each byte `c` is checked with the byte `p` before it and the bytes 2, 3,
//! ... positions back, a vector's lanes at a time. With `T` and `U` the
//! ruleset's two sets of four nibble tables (`U` all zero where one set
//! suffices, `CUR_LOW` all ones where the ruleset needs no low-nibble table
//! for `c`):
//!
//! ```text
//! bits(T)  = T.PREV_HIGH[p >> 4] & T.PREV_LOW[p & 15] & T.CUR_HIGH[c >> 4] & T.CUR_LOW[c & 15]
//! error(i) = (bits(T) ^ (0x80 if some byte k back is >= MUST_CONTINUE[k - 2], else 0))
//!            | bits(U)
//! open     = some byte k before the end is >= INCOMPLETE[k - 1]
//! ```
//!
//! A ruleset with a pairing term (CESU-8, WTF-8) also compares, in the set
//! that holds its markers, the lead bit `distance` lanes back with the trail
//! bit. The input is framed by boundary bytes: the check starts as if they
//! came before it, and `open` (or the check of boundary bytes after it) finds
//! a sequence cut short at its end.
//!
//! The algorithm is written once, in the `algorithm!` macro, over a small
//! vector type that each instruction set provides (`x86::avx512`,
//! `x86::avx2`, `x86::sse41`, `neon`): `#[target_feature]` needs the code
//! compiled once per level, so each level's module invokes `algorithm!`,
//! which invokes one macro per stage there. Which level runs is decided once
//! per process, in `crate::cpu`.
//!
//! Input is checked in blocks of 64 bytes that `blocks::Blocks` hands out:
//! whole blocks inside the input (in the main loop with the few bytes before
//! each, `blocks::Preceded`), and the ends of the input read in place or, for
//! a ruleset with a pairing term, copied into local arrays. Each vector type
//! loads only from a reference to exactly its width, taken from those; the
//! bytes before each vector are loaded where they lie on x86
//! (`V::PRIOR_BY_LOADS`, fewer shuffles) or shifted out of the vector
//! before, carried in a register, so the check cannot read outside the input.
//! An input shorter than two blocks is checked in place by overlapping
//! vectors, and one shorter than a vector as one vector.
//!
//! The error register is tested after each group of blocks, so an error early
//! in a large input is found early. A failing group only says *that* the
//! input is invalid near there; the group's blocks are checked again one by
//! one, down to the first lane with an error bit, and the exact
//! `valid_up_to` and `error_len` come from the class-table automaton, started
//! at a sequence boundary at least the check's proved lag before that lane:
//! a few bytes, whatever the block size.
//!
//! The stages, in the order `algorithm!` invokes them (the order of their
//! items, kept so that the generated code stays the same); a first reading
//! can start at `entry`, which picks the path for an input's length:
//!
//! | stage | file | what it makes, per level |
//! |---|---|---|
//! | an input shorter than a vector | `short.rs` | `NARROWER_BELOW`, `narrower` |
//! | registers and tables | `registers.rs` | `Registers`, `Before`, `registers` |
//! | the check step | `check.rs` | `check`, `check_after`: one vector's error bits |
//! | one block | `one_block.rs` | `check_block`, `check_preceded_block`, `open_after` |
//! | the main loop's steps | `walk.rs` | `Walked`, `Walk`, `after_run` |
//! | the skip test | `skip.rs` | `is_skippable`, `before_block` |
//! | locating an error | `locate.rs` | `first_error`, `first_error_at_end` |
//! | short inputs in place | `in_place.rs` | `passes_in_place`, `first_error_in_place` |
//! | the entry points | `entry.rs` | `validate`, `skippable_prefix` |
//! | head and tail | `ends.rs` | `start_of_body`, `end_of_input` |
//! | the main loop | `main_loop.rs` | `walk_blocks`, `validate_blocks` |
//! | blocks and windows | `blocks.rs` | `Blocks`, `Preceded`, `framed` (not a macro) |
//! | the operations on vectors | `vector.rs` | `Vector`, the contract each level's `V` meets |
//! | the vector types | `x86/*.rs`, `neon.rs` | `V`, and the `algorithm!` invocations |
//! | between levels; the exact error | this file | `check_at`, `validate_detected`, `exact` |
//!
//! Public for the workspace's tests, fuzz targets and benchmarks, and hidden
//! from the docs: not part of the stable API; it may change in any release.
//! Which level runs is [`crate::cpu`]'s to say.

use core::marker::PhantomData;

use crate::automaton::Automaton;
use crate::cpu::{Level, level, supports};
use crate::derived::VectorTables;
use crate::error::{PackedError, Utf8Error};
use crate::ruleset::Ruleset;

pub(crate) mod blocks;

// The algorithm's stages, in reading order: each file holds one stage's
// macro, which `algorithm!` invokes once per instruction set level.
mod check;
mod ends;
mod entry;
mod in_place;
mod locate;
mod main_loop;
mod one_block;
mod registers;
mod short;
mod skip;
mod vector;
mod walk;

pub(crate) use vector::Vector;

/// A language with a proved vector check: a ruleset's own
/// ([`Ruleset::TABLES`]`.vector`), or the language of a ruleset's UTF-8
/// shortcut ([`ShortcutLanguage`]). The check reads its tables from
/// `VECTOR`, and an exact error comes from `AUTOMATON`.
pub(crate) trait VectorLanguage {
    const VECTOR: VectorTables;
    const AUTOMATON: Automaton;
}

impl<R: Ruleset> VectorLanguage for R {
    const VECTOR: VectorTables = R::TABLES.vector;
    const AUTOMATON: Automaton = R::TABLES.automaton;
}

/// Valid UTF-8 without the bytes on which `R` and UTF-8 part: what `R`'s
/// UTF-8 shortcut settles, checked in one pass.
pub(crate) struct ShortcutLanguage<R>(PhantomData<R>);

impl<R: Ruleset> VectorLanguage for ShortcutLanguage<R> {
    const VECTOR: VectorTables = R::TABLES.shortcut.check;
    const AUTOMATON: Automaton = R::TABLES.shortcut.language;
}

/// The lanes of a 16-byte vector holding `bytes` (fewer than 16) and `fill`
/// after them, as two little-endian words: what a vector load of the input
/// followed by boundary bytes would read, gathered with loads inside the
/// input only (two overlapping words from 8 bytes, two overlapping 4-byte
/// words from 4, single bytes under that), so that no byte outside it is
/// read and the branches depend on the length alone.
#[inline(always)]
pub(crate) fn tiny_lanes(bytes: &[u8], fill: u8) -> (u64, u64) {
    let len = bytes.len();
    assert!(len < 16, "a tiny input is shorter than a vector");
    let fills = u64::from_ne_bytes([fill; 8]);
    if let (Some(first), Some(last)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        // The last word's bytes that the first lacks move down to lane 8:
        // a shift of 8 to 64 bits, split so that no single shift is 64.
        let high = (u64::from_le_bytes(*last) >> 1) >> (8 * (16 - len) - 1);
        let high_fill = fills << (8 * (len - 8));
        return (u64::from_le_bytes(*first), high | high_fill);
    }
    let low = if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>())
    {
        let first = u64::from(u32::from_le_bytes(*first));
        let last = u64::from(u32::from_le_bytes(*last));
        first | (last >> (8 * (8 - len))) << 32
    } else if let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) {
        let middle = bytes[len / 2];
        u64::from(first) | u64::from(middle) << (8 * (len / 2)) | u64::from(last) << (8 * (len - 1))
    } else {
        0
    };
    // `len` is under 8 here: the shift is at most 56 bits.
    (low | fills << (8 * len), fills)
}

/// Bytes per block: the unit of the ASCII skip.
pub(crate) const BLOCK: usize = 64;

/// Blocks per test of the error register: an error is found at most this
/// many blocks (256 bytes) after it, which keeps invalid input cheap without
/// a branch per block.
pub(crate) const GROUP: usize = 4;

/// The algorithm, generic over the ruleset `R`, for the vector type `V` in
/// scope (with `LANES` bytes per vector) and the target feature `$feature`.
///
/// `V`'s operations are safe, its constructors `unsafe`: they need the target
/// feature. `Registers`, made only by the `unsafe` `registers`, is the proof
/// that the CPU has it, and `Registers::load` (with `load_partial` at a level
/// with masked loads) is the one place where input
/// bytes become vectors.
///
/// Its stages are macros of their own, one a file (see the table above),
/// invoked in this order in the level's module; the arguments after
/// `$feature` pick the arm of `short_input!`.
macro_rules! algorithm {
    ($feature:literal $(, $($level:tt)+)?) => {
        $crate::simd::short::short_input!($($($level)+)?);
        use $crate::__private::PairRule;
        use $crate::simd::VectorLanguage;
        use $crate::simd::blocks::{ALIGNED_FROM, Align, Blocks, Preceded, REACH, framed};
        use $crate::simd::{After, BLOCK, Flow, GROUP, look_back};
        $crate::simd::registers::registers_and_tables!();
        $crate::simd::check::check_step!();
        $crate::simd::one_block::one_block!();
        $crate::simd::walk::walk_steps!();
        $crate::simd::skip::skip_test!();
        $crate::simd::locate::locate_error!($feature);
        $crate::simd::in_place::in_place_check!($feature);
        $crate::simd::entry::entry_points!($feature);
        $crate::simd::ends::head_and_tail!($feature);
        $crate::simd::main_loop::main_loop!($feature);
    };
}
pub(crate) use algorithm;

/// What the main loop meets at its next block.
#[derive(Clone, Copy)]
enum After {
    /// The end of the blocks.
    End,
    /// A skippable block: a run starts there.
    Run,
    /// A block to check.
    Check,
}

/// How a group of the main loop goes on after a block.
#[derive(Clone, Copy)]
enum Flow {
    /// With the next block, which is to be checked.
    Next,
    /// Ended by a run, passed: a new group starts after it.
    Restart,
    /// The blocks ended.
    End,
}

/// How many lanes at the start of a vector the check of `R` reads from the
/// vector before it, when there is no pairing term: one for the byte pair,
/// and the bytes back to a sequence's lead for the continuation terms. The
/// check of every later lane depends on the vector alone.
pub(crate) const fn look_back<R: VectorLanguage>() -> usize {
    if R::VECTOR.max_sequence_len > 2 {
        R::VECTOR.max_sequence_len - 1
    } else {
        1
    }
}

/// Whether `bytes`, shorter than [`blocks::ALIGNED_FROM`], are all bytes
/// the ASCII skip may pass over, tested as 16-byte words before any vector
/// code runs ([`crate::shift::short_all_in`]); false where the ruleset has no
/// skip, for a longer input, or for skippable bytes from above `%x01`.
#[inline(always)]
fn short_skippable<R: VectorLanguage>(bytes: &[u8]) -> bool {
    R::VECTOR.ascii_skip
        && R::VECTOR.boundary <= 1
        && bytes.len() < blocks::ALIGNED_FROM
        && crate::shift::short_all_in(bytes, R::VECTOR.boundary)
}

/// Whether every byte of `bytes` lies in `%x(boundary)-7F`, the bytes
/// that the ASCII skip may pass over: the scalar test, for pieces shorter
/// than a vector.
#[inline(always)]
pub(crate) fn skippable<R: VectorLanguage>(bytes: &[u8]) -> bool {
    if R::VECTOR.boundary == 0 {
        bytes.is_ascii()
    } else {
        bytes.iter().all(|&b| b >= R::VECTOR.boundary && b < 0x80)
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) mod x86;

#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;

/// Runs the check at `level`; `None` for the portable level, a level this
/// build has no code for, or a ruleset without a vector check.
///
/// # Safety
/// The CPU must support `level`.
#[inline(always)]
unsafe fn check_on<R: VectorLanguage>(level: Level, bytes: &[u8]) -> Option<Result<(), usize>> {
    if !R::VECTOR.available {
        return None;
    }
    match level {
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        // SAFETY: the caller promises AVX-512 F and BW.
        Level::Avx512 => Some(unsafe { x86::avx512::validate::<R>(bytes) }),
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        // SAFETY: the caller promises AVX2.
        Level::Avx2 => Some(unsafe { x86::avx2::validate::<R>(bytes) }),
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        // SAFETY: the caller promises SSE4.1.
        Level::Sse41 => Some(unsafe { x86::sse41::validate::<R>(bytes) }),
        #[cfg(target_arch = "aarch64")]
        // SAFETY: the caller promises NEON.
        Level::Neon => Some(unsafe { neon::validate::<R>(bytes) }),
        _ => None,
    }
}

/// How many bytes at the start of `bytes` are skippable, found in whole
/// blocks at `level` (see each level's `skippable_prefix`); 0 for the
/// portable level, a level this build has no code for, or a ruleset without
/// a vector check or the ASCII skip. The AVX-512 level reads them in AVX2's
/// vectors: a 64-byte load that crosses a cache line, as every one does at
/// most of a piece's addresses, costs more than two of 32 bytes (figures in
/// docs/performance.md, "Streaming: the ASCII test").
///
/// # Safety
/// The CPU must support `level`.
#[inline(always)]
unsafe fn skippable_prefix_on<R: VectorLanguage>(level: Level, bytes: &[u8]) -> usize {
    if !R::VECTOR.available || !R::VECTOR.ascii_skip {
        return 0;
    }
    match level {
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        // SAFETY: the caller promises the level, and the AVX-512 level comes
        // with AVX2: `cpu` detects it, or finds it enabled at compile time,
        // only together with AVX2.
        Level::Avx512 | Level::Avx2 => unsafe { x86::avx2::skippable_prefix::<R>(bytes) },
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        // SAFETY: the caller promises SSE4.1.
        Level::Sse41 => unsafe { x86::sse41::skippable_prefix::<R>(bytes) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: the caller promises NEON.
        Level::Neon => unsafe { neon::skippable_prefix::<R>(bytes) },
        _ => 0,
    }
}

/// [`skippable_prefix_on`] the level [`level`] detected.
#[inline(always)]
pub(crate) fn skippable_prefix_detected<R: VectorLanguage>(bytes: &[u8]) -> usize {
    // SAFETY: `level` returns only a level this CPU has (without `std`, one
    // the build's target features guarantee).
    unsafe { skippable_prefix_on::<R>(level(), bytes) }
}

/// [`skippable_prefix_on`] `level`; `None` where this build or CPU has no
/// such level.
pub(crate) fn skippable_prefix_at<R: VectorLanguage>(level: Level, bytes: &[u8]) -> Option<usize> {
    if !supports(level) || matches!(level, Level::Portable) {
        return None;
    }
    // SAFETY: `supports` found `level` on this CPU (NEON: enabled in this build).
    Some(unsafe { skippable_prefix_on::<R>(level, bytes) })
}

/// Runs the check at `level`; `None` when this build or CPU has no such level.
#[inline(always)]
pub(crate) fn check_at<R: VectorLanguage>(level: Level, bytes: &[u8]) -> Option<Result<(), usize>> {
    if !supports(level) || !R::VECTOR.available || matches!(level, Level::Portable) {
        return None;
    }
    if short_skippable::<R>(bytes) {
        return Some(Ok(()));
    }
    // SAFETY: `supports` found `level` on this CPU (NEON: enabled in this build).
    unsafe { check_on::<R>(level, bytes) }
}

/// Runs the check at the level [`level`] detected, without asking again
/// whether the CPU has it; `None` where that level is the portable one.
#[inline(always)]
pub(crate) fn check_detected<R: VectorLanguage>(bytes: &[u8]) -> Option<Result<(), usize>> {
    // A short string of ASCII is answered before the vector code is
    // called: for one call per string, the set-up is most of the cost.
    // (Answered on a CPU without a vector level too: the answer is the
    // same.) Not at AVX-512, whose masked loads check a short string with
    // no branch on its bytes: there the test's branch, mispredicted on
    // strings that are ASCII or not at random, cost more than it saved
    // (figures in docs/performance.md, "Short strings in one vector").
    let level = level();
    if R::VECTOR.available && !matches!(level, Level::Avx512) && short_skippable::<R>(bytes) {
        return Some(Ok(()));
    }
    // SAFETY: `level` returns only a level this CPU has (without `std`, one
    // the build's target features guarantee).
    unsafe { check_on::<R>(level, bytes) }
}

/// [`validate_detected`] for an input shorter than 16 bytes: one vector, of
/// the AVX-512 level with its masked load, or else of the narrowest level
/// this CPU has, built in registers (AVX2 implies SSE4.1, as Rust's target
/// features do). `None` without a vector level, or where
/// `R`'s check has a pairing term, whose markers reach past a vector.
#[inline(always)]
pub(crate) fn validate_tiny_detected<R: VectorLanguage>(
    bytes: &[u8],
) -> Option<Result<(), Utf8Error>> {
    debug_assert!(bytes.len() < 16);
    if !R::VECTOR.available || !matches!(R::VECTOR.pairing.rule, crate::derived::PairRule::None) {
        return None;
    }
    // AVX-512 loads the string with the lanes past its end masked off;
    // AVX2 has no byte-masked load and hands it to SSE4.1.
    let narrowest = match level() {
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        Level::Avx2 => Level::Sse41,
        detected => detected,
    };
    // SAFETY: `level` returns only a level this CPU has, and SSE4.1 comes
    // with AVX2.
    let checked = unsafe { check_on::<R>(narrowest, bytes) }?;
    Some(located::<R>(bytes, checked))
}

/// [`check_detected`], turning a failing block into the exact error.
#[inline(always)]
pub(crate) fn validate_detected<R: VectorLanguage>(bytes: &[u8]) -> Option<Result<(), Utf8Error>> {
    Some(located::<R>(bytes, check_detected::<R>(bytes)?))
}

/// Validates with the vector check at `level`, turning a failing block into
/// the exact error; `None` when the level is not available.
#[inline(always)]
pub(crate) fn validate_at<R: VectorLanguage>(
    level: Level,
    bytes: &[u8],
) -> Option<Result<(), Utf8Error>> {
    Some(located::<R>(bytes, check_at::<R>(level, bytes)?))
}

/// A check's outcome on `bytes`, a failure made the exact error.
#[inline(always)]
fn located<R: VectorLanguage>(bytes: &[u8], checked: Result<(), usize>) -> Result<(), Utf8Error> {
    checked.map_err(|erred_at| exact::<R>(bytes, erred_at).unpack(R::AUTOMATON.label))
}

/// Whether a lead marker of the pairing term stands in the `distance - 1`
/// positions before `at`, so that its trail is still to come.
fn lead_pending<R: VectorLanguage>(bytes: &[u8], at: usize) -> bool {
    let pairing = R::VECTOR.pairing;
    if matches!(pairing.rule, crate::derived::PairRule::None) {
        return false;
    }
    let earliest = at.saturating_sub(pairing.distance - 1).max(1);
    (earliest..at).any(|i| R::VECTOR.is_lead(bytes[i - 1], bytes[i]))
}

/// The last point at or before `at` (and before the end of `bytes`) where
/// `R`'s automaton is in its start state if the input is valid that far: a
/// byte that is not a continuation byte starts a sequence, and the
/// generator proved the automaton at its start there unless a lead marker
/// before it still waits for its trail (`utf8_spec::simd`'s restart
/// obligation). 0 if there is none.
pub(crate) fn restart_point<R: VectorLanguage>(bytes: &[u8], at: usize) -> usize {
    let mut from = at.min(bytes.len());
    loop {
        while from > 0 && (from == bytes.len() || R::VECTOR.is_continuation[bytes[from] as usize]) {
            from -= 1;
        }
        if from == 0 || !lead_pending::<R>(bytes, from) {
            return from;
        }
        from -= 1;
    }
}

/// The exact error of an input whose check first erred at `erred_at`,
/// packed into two words (the ruleset is `R`'s automaton's): returned in
/// registers, so that a caller that merges it with its other outcomes keeps
/// them all out of memory (see [`PackedError`]).
#[cold]
#[inline(never)]
pub(crate) fn exact<R: VectorLanguage>(bytes: &[u8], erred_at: usize) -> PackedError {
    // The DFA died at most `max_lag` bytes before the check erred, so it was
    // alive before `erred_at - lag`, and restarts at a sequence start there.
    let from = restart_point::<R>(bytes, erred_at.saturating_sub(R::VECTOR.max_lag));
    match R::AUTOMATON.validate_from(bytes, from, R::AUTOMATON.start) {
        Err(e) => PackedError::pack(e),
        Ok(()) => {
            unreachable!("the vector check is proved to accept exactly the automaton's language")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_lanes_are_the_input_then_fill_bytes_at_every_length() {
        let source: [u8; 15] = core::array::from_fn(|i| 0x80 | i as u8);
        for len in 0..16 {
            for fill in [0x00, 0x01, 0x7F] {
                let (low, high) = tiny_lanes(&source[..len], fill);
                let mut lanes = [0u8; 16];
                lanes[..8].copy_from_slice(&low.to_le_bytes());
                lanes[8..].copy_from_slice(&high.to_le_bytes());
                let mut expected = [fill; 16];
                expected[..len].copy_from_slice(&source[..len]);
                assert_eq!(lanes, expected, "{len} bytes, fill {fill:#04x}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "shorter than a vector")]
    fn tiny_lanes_refuse_a_whole_vector() {
        tiny_lanes(&[0; 16], 0);
    }
}
