//! The vectorised check: Keiser and Lemire's lookup algorithm, run on tables
//! that `utf8-spec` derived from the ruleset's minimal DFA and proved exact
//! (see `utf8_spec::simd`).
//!
//! The algorithm is written once, in the `algorithm!` macro, over a small vector type
//! that each instruction set provides (`x86::avx512`, `x86::avx2`,
//! `x86::sse41`, `neon`).
//! Which one runs is decided once per process (at run time with `std`, at
//! compile time from the enabled target features without it).
//!
//! Input is checked in blocks of 64 bytes, and the error register is tested
//! after each block, so an error early in a large input is found early. A
//! failing block only says *that* the input is invalid near there; the exact
//! `valid_up_to` and `error_len` come from the class-table automaton, started
//! at a sequence boundary at least the check's proved lag before the block.

use crate::Utf8Error;
use crate::ruleset::Ruleset;

/// Bytes per block: the unit of the ASCII skip.
pub(crate) const BLOCK: usize = 64;

/// Blocks per test of the error register: an error is found at most this
/// many blocks (256 bytes) after it, which keeps invalid input cheap without
/// a branch per block.
pub(crate) const GROUP: usize = 4;

/// The algorithm, generic over the ruleset `R`, for the vector type `V` in
/// scope (with `LANES` bytes per vector) and the target feature `$feature`.
///
/// The bytes 1 to 5 positions before each vector come from overlapping
/// unaligned loads rather than from shuffling the previous vector: loads go
/// to the load ports, while on many x86 cores every shuffle competes for one
/// port that the table lookups already keep busy.
macro_rules! algorithm {
    ($feature:literal) => {
        use $crate::ruleset::Ruleset;
        use $crate::simd::{BLOCK, GROUP};

        const VECTORS: usize = BLOCK / V::LANES;

        /// The ruleset's tables in registers.
        struct Registers {
            sets: [[V; 4]; 2],
            must_continue: [V; 4],
            incomplete: V,
            high_bit: V,
        }

        #[inline(always)]
        unsafe fn registers<R: Ruleset>() -> Registers {
            let incomplete = const {
                let mut max = [0xFFu8; V::LANES];
                let frame = if R::SIMD_MAX_SEQUENCE_LEN > 0 {
                    R::SIMD_MAX_SEQUENCE_LEN - 1
                } else {
                    0
                };
                let mut k = 1;
                while k <= frame {
                    // Lane LANES - k is k bytes before the end of the vector;
                    // `byte > threshold - 1` is `byte >= threshold`.
                    max[V::LANES - k] = R::SIMD_INCOMPLETE[k - 1] - 1;
                    k += 1;
                }
                max
            };
            // SAFETY: the caller runs with this module's target feature.
            unsafe {
                let t = &R::SIMD_TABLES;
                Registers {
                    sets: [
                        [
                            V::table(&t[0][0]),
                            V::table(&t[0][1]),
                            V::table(&t[0][2]),
                            V::table(&t[0][3]),
                        ],
                        [
                            V::table(&t[1][0]),
                            V::table(&t[1][1]),
                            V::table(&t[1][2]),
                            V::table(&t[1][3]),
                        ],
                    ],
                    // `byte - (threshold - 0x80)`, saturating, has its high bit set exactly when byte >= threshold.
                    must_continue: [
                        V::splat(R::SIMD_MUST_CONTINUE[0].wrapping_sub(0x80)),
                        V::splat(R::SIMD_MUST_CONTINUE[1].wrapping_sub(0x80)),
                        V::splat(R::SIMD_MUST_CONTINUE[2].wrapping_sub(0x80)),
                        V::splat(R::SIMD_MUST_CONTINUE[3].wrapping_sub(0x80)),
                    ],
                    incomplete: V::load(incomplete.as_ptr()),
                    high_bit: V::splat(0x80),
                }
            }
        }

        /// The vector of bytes `n` positions before `input`, which sits at `at`
        /// after the vector `before` (read only with `V::SHUFFLE_PREV`).
        #[inline(always)]
        unsafe fn back(at: *const u8, input: V, before: V, n: usize) -> V {
            // SAFETY: the caller guarantees the bytes before `at` are readable and
            // runs with this module's target feature.
            unsafe {
                if V::SHUFFLE_PREV {
                    input.prev(before, n)
                } else {
                    V::load(at.sub(n))
                }
            }
        }

        /// One table set's bits for each (previous byte, byte) pair.
        #[inline(always)]
        unsafe fn pair_bits<R: Ruleset>(
            set: &[V; 4],
            prev_high: V,
            prev_low: V,
            cur_high: V,
            cur_low: V,
        ) -> V {
            // SAFETY: the caller runs with this module's target feature.
            unsafe {
                let bits = set[0]
                    .lookup(prev_high)
                    .and(set[1].lookup(prev_low))
                    .and(set[2].lookup(cur_high));
                if R::SIMD_NEEDS_CUR_LOW {
                    bits.and(set[3].lookup(cur_low))
                } else {
                    bits
                }
            }
        }

        /// The error bits of the vector at `at`; the `SIMD_MAX_SEQUENCE_LEN - 1`
        /// bytes before it (a whole vector with `V::SHUFFLE_PREV`) must be
        /// readable too.
        #[inline(always)]
        unsafe fn check<R: Ruleset>(r: &Registers, at: *const u8) -> V {
            // SAFETY: the caller guarantees `at - reach_back .. at + LANES` is
            // readable and runs with this module's target feature.
            unsafe {
                let input = V::load(at);
                // The bytes 1..=5 positions back: shifted out of an aligned load of
                // the vector before, or loaded directly; which is cheaper depends
                // on the instruction set (see `V::SHUFFLE_PREV`).
                let before = if V::SHUFFLE_PREV {
                    V::load(at.sub(V::LANES))
                } else {
                    input
                };
                let prev1 = back(at, input, before, 1);
                let (prev_high, prev_low) = (prev1.high_nibbles(), prev1.low_nibbles());
                let cur_high = input.high_nibbles();
                let cur_low = if R::SIMD_NEEDS_CUR_LOW {
                    input.low_nibbles()
                } else {
                    cur_high
                };
                let mut error = pair_bits::<R>(&r.sets[0], prev_high, prev_low, cur_high, cur_low);
                if R::SIMD_MAX_SEQUENCE_LEN > 2 {
                    let mut must = back(at, input, before, 2).saturating_sub(r.must_continue[0]);
                    if R::SIMD_MAX_SEQUENCE_LEN > 3 {
                        must =
                            must.or(back(at, input, before, 3).saturating_sub(r.must_continue[1]));
                    }
                    if R::SIMD_MAX_SEQUENCE_LEN > 4 {
                        must =
                            must.or(back(at, input, before, 4).saturating_sub(r.must_continue[2]));
                    }
                    if R::SIMD_MAX_SEQUENCE_LEN > 5 {
                        must =
                            must.or(back(at, input, before, 5).saturating_sub(r.must_continue[3]));
                    }
                    error = error.xor(must.and(r.high_bit));
                }
                if R::SIMD_SETS > 1 {
                    error = error.or(pair_bits::<R>(
                        &r.sets[1], prev_high, prev_low, cur_high, cur_low,
                    ));
                }
                error
            }
        }

        /// Checks the block at `at` (with a sequence's worth of readable bytes
        /// before it); returns its error bits and whether it leaves a sequence
        /// open at its end.
        #[inline(always)]
        unsafe fn check_block<R: Ruleset>(r: &Registers, at: *const u8) -> (V, V) {
            // SAFETY: forwarded from the caller.
            unsafe {
                // Plain loops, no closures: a closure passed to a generic
                // iterator adaptor is compiled without this module's target
                // feature, and its intrinsics stop being inlined.
                let mut error = V::splat(0);
                for i in 0..VECTORS {
                    error = error.or(check::<R>(r, at.add(i * V::LANES)));
                }
                let last = V::load(at.add(BLOCK - V::LANES));
                (error, last.saturating_sub(r.incomplete))
            }
        }

        /// The first of the blocks from `from` to `to` whose check errs (`from`
        /// if none does alone): a failing group is narrowed to one block, so
        /// that the exact error is looked for in 64 bytes rather than 256.
        #[cold]
        #[inline(never)]
        #[target_feature(enable = $feature)]
        unsafe fn first_failing_block<R: Ruleset>(
            r: &Registers,
            ptr: *const u8,
            from: usize,
            to: usize,
        ) -> usize {
            let mut at = from;
            while at < to {
                // SAFETY: the main loop read these blocks (and the bytes before
                // them) just before; the target feature is the caller's.
                if unsafe { check_block::<R>(r, ptr.add(at)).0.any() } {
                    return at;
                }
                at += BLOCK;
            }
            from
        }

        /// The OR of the block's vectors: its high bits say whether it is all ASCII.
        #[inline(always)]
        unsafe fn block_or(at: *const u8) -> V {
            // SAFETY: the caller guarantees `at .. at + BLOCK` is readable and runs
            // with this module's target feature.
            unsafe {
                let mut acc = V::splat(0);
                for i in 0..VECTORS {
                    acc = acc.or(V::load(at.add(i * V::LANES)));
                }
                acc
            }
        }

        /// Checks `bytes`; on failure returns a position at or before the block
        /// where the check erred.
        ///
        /// # Safety
        /// The CPU must support this module's target feature.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn validate<R: Ruleset>(bytes: &[u8]) -> Result<(), usize> {
            // SAFETY: loads in the main loop read `pos - reach_back .. pos + BLOCK`
            // with `pos >= reach_back` and `pos + BLOCK <= len` (`reach_back` is
            // how far `check` reads back: a vector, or a sequence less one byte,
            // both at most `BLOCK`); the first and
            // last blocks are read at offset `BLOCK` of local buffers of
            // `2 * BLOCK` bytes; the target feature is the caller's promise.
            unsafe {
                let r = registers::<R>();
                let ptr = bytes.as_ptr();
                let len = bytes.len();

                // A short input is one block framed by boundary bytes on both sides.
                if len < BLOCK {
                    let mut framed = [R::SIMD_BOUNDARY; 2 * BLOCK];
                    framed[BLOCK..BLOCK + len].copy_from_slice(bytes);
                    let (error, open) = check_block::<R>(&r, framed.as_ptr().add(BLOCK));
                    return if error.or(open).any() { Err(0) } else { Ok(()) };
                }

                // The first block, after boundary bytes (the check assumes them
                // before the input).
                let mut head = [R::SIMD_BOUNDARY; 2 * BLOCK];
                head[BLOCK..].copy_from_slice(&bytes[..BLOCK]);
                let (mut error, mut prev_incomplete) =
                    check_block::<R>(&r, head.as_ptr().add(BLOCK));
                if error.any() {
                    return Err(0);
                }
                // Go on from the first cache-line boundary within the first block
                // that leaves room to read a sequence back (positions checked twice
                // are harmless): loads that straddle cache lines cost. Otherwise go
                // on after the first block, which is aligned when the input is.
                let reach_back = if V::SHUFFLE_PREV {
                    V::LANES
                } else {
                    R::SIMD_MAX_SEQUENCE_LEN - 1
                };
                let aligned = (BLOCK - ptr as usize % BLOCK) % BLOCK;
                let mut pos = if aligned >= reach_back {
                    aligned
                } else {
                    BLOCK
                };

                // The error register is tested after a run of ASCII and otherwise
                // once every GROUP blocks; a failure is reported at the first block
                // since the last test.
                let mut tested = 0;
                let mut since_test = 0;
                while pos + BLOCK <= len {
                    let at = ptr.add(pos);
                    if R::SIMD_ASCII_SKIP && block_or(at).is_ascii() {
                        // ASCII reads to the check like boundary bytes: all that can
                        // fail in a run of it is a sequence left open before the run.
                        error = error.or(prev_incomplete);
                        if error.any() {
                            return Err(tested);
                        }
                        pos += BLOCK;
                        while pos + BLOCK <= len {
                            if !block_or(ptr.add(pos)).is_ascii() {
                                break;
                            }
                            pos += BLOCK;
                        }
                        prev_incomplete = V::splat(0);
                        tested = pos;
                        since_test = 0;
                        continue;
                    }
                    let (block_error, open) = check_block::<R>(&r, at);
                    error = error.or(block_error);
                    prev_incomplete = open;
                    pos += BLOCK;
                    since_test += 1;
                    if since_test == GROUP {
                        if error.any() {
                            return Err(first_failing_block::<R>(&r, ptr, tested, pos));
                        }
                        tested = pos;
                        since_test = 0;
                    }
                }
                if error.any() {
                    return Err(first_failing_block::<R>(&r, ptr, tested, pos));
                }

                // The last, partial block: the bytes before it for context, then the
                // rest, then boundary bytes; its end test (proved equal to checking
                // boundary bytes after it) catches a sequence left open. An input
                // that ends at a block boundary gets a block of boundary bytes.
                let mut tail = [R::SIMD_BOUNDARY; 2 * BLOCK];
                let context = pos.min(BLOCK);
                tail[BLOCK - context..BLOCK].copy_from_slice(&bytes[pos - context..pos]);
                tail[BLOCK..BLOCK + len - pos].copy_from_slice(&bytes[pos..]);
                let (block_error, open) = check_block::<R>(&r, tail.as_ptr().add(BLOCK));
                error = error.or(block_error).or(open);
                if error.any() { Err(tested) } else { Ok(()) }
            }
        }
    };
}
pub(crate) use algorithm;

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) mod x86;

#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;

/// The vector code each call can use, decided once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Level {
    /// The shift DFA only.
    Portable = 1,
    /// x86 SSE4.1 (16-byte vectors).
    Sse41 = 2,
    /// x86 AVX2 (32-byte vectors).
    Avx2 = 3,
    /// aarch64 NEON (16-byte vectors).
    Neon = 4,
    /// x86 AVX-512 F and BW (64-byte vectors, one per block).
    Avx512 = 5,
}

/// The best level this CPU supports.
#[inline]
pub fn level() -> Level {
    #[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")))]
    {
        use core::sync::atomic::{AtomicU8, Ordering};
        static LEVEL: AtomicU8 = AtomicU8::new(0);
        match LEVEL.load(Ordering::Relaxed) {
            5 => Level::Avx512,
            3 => Level::Avx2,
            2 => Level::Sse41,
            1 => Level::Portable,
            _ => {
                let detected = if std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                {
                    Level::Avx512
                } else if std::is_x86_feature_detected!("avx2") {
                    Level::Avx2
                } else if std::is_x86_feature_detected!("sse4.1") {
                    Level::Sse41
                } else {
                    Level::Portable
                };
                LEVEL.store(detected as u8, Ordering::Relaxed);
                detected
            }
        }
    }
    #[cfg(not(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86"))))]
    {
        compile_time_level()
    }
}

/// Whether the CPU has BMI2, for the shift DFA's variable shifts (detected
/// once with `std`, from the enabled target features without it).
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
#[inline]
pub(crate) fn has_bmi2() -> bool {
    #[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")))]
    {
        use core::sync::atomic::{AtomicU8, Ordering};
        static BMI2: AtomicU8 = AtomicU8::new(0);
        match BMI2.load(Ordering::Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let detected = std::is_x86_feature_detected!("bmi2");
                BMI2.store(1 + u8::from(detected), Ordering::Relaxed);
                detected
            }
        }
    }
    #[cfg(not(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86"))))]
    {
        cfg!(target_feature = "bmi2")
    }
}

/// The level the enabled target features guarantee (used without `std`).
#[allow(dead_code)]
const fn compile_time_level() -> Level {
    if cfg!(any(target_arch = "x86_64", target_arch = "x86"))
        && cfg!(target_feature = "avx512f")
        && cfg!(target_feature = "avx512bw")
    {
        Level::Avx512
    } else if cfg!(any(target_arch = "x86_64", target_arch = "x86"))
        && cfg!(target_feature = "avx2")
    {
        Level::Avx2
    } else if cfg!(any(target_arch = "x86_64", target_arch = "x86"))
        && cfg!(target_feature = "sse4.1")
    {
        Level::Sse41
    } else if cfg!(target_arch = "aarch64") && cfg!(target_feature = "neon") {
        Level::Neon
    } else {
        Level::Portable
    }
}

/// Runs the check at `level`; `None` when this build or CPU has no such level.
#[inline]
pub(crate) fn check_at<R: Ruleset>(level: Level, bytes: &[u8]) -> Option<Result<(), usize>> {
    if !R::SIMD_AVAILABLE {
        return None;
    }
    match level {
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        // SAFETY: `supports` established AVX-512 F and BW support.
        Level::Avx512 if supports(Level::Avx512) => {
            Some(unsafe { x86::avx512::validate::<R>(bytes) })
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        // SAFETY: `supports` established AVX2 support.
        Level::Avx2 if supports(Level::Avx2) => Some(unsafe { x86::avx2::validate::<R>(bytes) }),
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        // SAFETY: `supports` established SSE4.1 support.
        Level::Sse41 if supports(Level::Sse41) => Some(unsafe { x86::sse41::validate::<R>(bytes) }),
        #[cfg(target_arch = "aarch64")]
        // SAFETY: NEON is part of the aarch64 baseline that Rust targets.
        Level::Neon => Some(unsafe { neon::validate::<R>(bytes) }),
        _ => None,
    }
}

/// Whether this CPU runs code compiled for `level`.
pub fn supports(level: Level) -> bool {
    match level {
        Level::Portable => true,
        Level::Avx512 | Level::Avx2 | Level::Sse41 | Level::Neon => {
            let best = level_rank(self::level());
            match level {
                Level::Neon => cfg!(target_arch = "aarch64"),
                _ => {
                    cfg!(any(target_arch = "x86_64", target_arch = "x86"))
                        && level_rank(level) <= best
                }
            }
        }
    }
}

fn level_rank(level: Level) -> u8 {
    match level {
        Level::Portable | Level::Neon => 1,
        Level::Sse41 => 2,
        Level::Avx2 => 3,
        Level::Avx512 => 4,
    }
}

/// Validates with the vector check at `level`, turning a failing block into
/// the exact error; `None` when the level is not available.
#[inline]
pub(crate) fn validate_at<R: Ruleset>(level: Level, bytes: &[u8]) -> Option<Result<(), Utf8Error>> {
    Some(match check_at::<R>(level, bytes)? {
        Ok(()) => Ok(()),
        Err(block) => Err(exact::<R>(bytes, block)),
    })
}

/// The exact error of an input whose check erred in the block at `block`.
#[cold]
#[inline(never)]
pub(crate) fn exact<R: Ruleset>(bytes: &[u8], block: usize) -> Utf8Error {
    // The DFA died at most `SIMD_MAX_LAG` bytes before the check erred, so it was
    // alive before `block - lag`; the last byte there that is not a
    // continuation byte starts a sequence, with the automaton at its start.
    let mut from = block.saturating_sub(R::SIMD_MAX_LAG).min(bytes.len());
    while from > 0 && (from == bytes.len() || R::IS_CONTINUATION[bytes[from] as usize]) {
        from -= 1;
    }
    match R::AUTOMATON.validate_from(bytes, from, R::AUTOMATON.start) {
        Err(e) => e,
        Ok(()) => {
            unreachable!("the vector check is proved to accept exactly the automaton's language")
        }
    }
}
