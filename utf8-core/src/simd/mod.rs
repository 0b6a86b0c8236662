//! The vectorised check: Keiser and Lemire's lookup algorithm, run on tables
//! that `utf8-spec` derived from the ruleset's minimal DFA and proved exact
//! (see `utf8_spec::simd`).
//!
//! The algorithm is written once, in the `algorithm!` macro, over a small vector type
//! that each instruction set provides (`x86::avx512`, `x86::avx2`,
//! `x86::sse41`, `neon`).
//! Which one runs is decided once per process, in `crate::cpu`.
//!
//! Input is checked in blocks of 64 bytes that `blocks::Blocks` hands out:
//! whole blocks inside the input (in the main loop with the few bytes before
//! each, `blocks::Preceded`), and the ends of the input read in place or, for
//! a ruleset with a pairing term, copied into local arrays. Each vector type
//! loads only from a reference to exactly its width, taken from those; the
//! bytes before each vector are loaded where they lie on x86 (`V::PRIOR_BY_LOADS`,
//! fewer shuffles) or shifted out of the vector before, carried in a
//! register, so the check cannot read outside the input.
//!
//! The error register is tested after each group of blocks, so an error early
//! in a large input is found early. A failing group only says *that* the
//! input is invalid near there; the group's blocks are checked again one by
//! one, down to the first lane with an error bit, and the exact
//! `valid_up_to` and `error_len` come from the class-table automaton, started
//! at a sequence boundary at least the check's proved lag before that lane:
//! a few bytes, whatever the block size.
//!
//! Public for the workspace's tests, fuzz targets and benchmarks, and hidden
//! from the docs: not part of the stable API; it may change in any release.
//! [`crate::cpu`] is the documented way to ask which level runs; `Level`,
//! `level` and `supports` stay re-exported here for the code that named them
//! here first.

use core::marker::PhantomData;

use crate::Utf8Error;
use crate::automaton::Automaton;
pub use crate::cpu::{Level, level, supports};
use crate::derived::VectorTables;
use crate::error::PackedError;
use crate::ruleset::Ruleset;

pub(crate) mod blocks;

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
macro_rules! algorithm {
    // A level with vectors wider than the shortest input it is given hands
    // an input shorter than its vector to the `$narrower` level, whose
    // feature its own implies.
    ($feature:literal, narrower: $narrower:path) => {
        /// Inputs shorter than this go to [`narrower`].
        const NARROWER_BELOW: usize = V::LANES;

        /// An input shorter than a vector, checked in place by the
        /// narrower level's vectors instead of in a framed block.
        #[inline(always)]
        fn narrower<R: VectorLanguage>(bytes: &[u8]) -> Option<Result<(), usize>> {
            use $narrower as narrower;
            // SAFETY: only called from this module's functions, built with
            // its target feature, which implies the narrower level's.
            Some(unsafe { narrower::validate::<R>(bytes) })
        }
        $crate::simd::algorithm!(@body $feature);
    };
    // The narrowest level (16-byte vectors) checks an input shorter than
    // its vector as one vector built in registers.
    ($feature:literal) => {
        /// Inputs shorter than this go to [`narrower`].
        const NARROWER_BELOW: usize = V::LANES;

        /// An input shorter than a vector: its bytes and boundary bytes
        /// after them in one vector, gathered by loads inside the input
        /// ([`tiny_lanes`](crate::simd::tiny_lanes)) and put together in
        /// registers, checked after boundary bytes. No branch on the bytes
        /// and no framed copy, whose reload would wait on its stores:
        /// strings this short come one call each, ASCII or not at random,
        /// and a mispredicted branch costs more than the check.
        #[inline(always)]
        fn narrower<R: VectorLanguage>(bytes: &[u8]) -> Option<Result<(), usize>> {
            const { assert!(V::LANES == 16) };
            // SAFETY: only called from this module's functions, built with
            // its target feature.
            let r = unsafe { registers::<R>() };
            let (low, high) = $crate::simd::tiny_lanes(bytes, R::VECTOR.boundary);
            // SAFETY: `r` exists only where the CPU has the target feature.
            let input = unsafe { V::from_halves(low, high) };
            Some(check_one_vector::<R>(&r, input, bytes.len()))
        }
        $crate::simd::algorithm!(@body $feature);
    };
    // A level with masked loads (AVX-512) checks an input shorter than its
    // vector as one vector, loaded with the lanes past its end masked off.
    ($feature:literal, masked) => {
        /// Inputs shorter than this (two vectors) go to [`narrower`].
        const NARROWER_BELOW: usize = 2 * V::LANES;

        /// An input shorter than two vectors: its bytes in one vector, or
        /// its first vector and a second of the rest, the lanes past its
        /// end masked off the load and boundary bytes, checked in order
        /// after boundary bytes. No branch on the bytes, and no byte read
        /// outside the input. (Two vectors for every input, with no branch
        /// on the length either, ran the corpus's lines 5% slower on this
        /// project's Zen 4 VM: the second check cost more than the
        /// mispredictions it saved.)
        #[inline(always)]
        fn narrower<R: VectorLanguage>(bytes: &[u8]) -> Option<Result<(), usize>> {
            debug_assert!(bytes.len() < NARROWER_BELOW);
            // SAFETY: only called from this module's functions, built with
            // its target feature.
            let r = unsafe { registers::<R>() };
            let Some((first, rest)) = bytes.split_first_chunk::<{ V::LANES }>() else {
                return Some(check_one_vector::<R>(&r, r.load_partial(bytes, r.boundary), bytes.len()));
            };
            let (first_error, after) = check::<R>(&r, r.load(first), framing(&r));
            let (rest_error, _) = check::<R>(&r, r.load_partial(rest, r.boundary), after);
            if !first_error.or(rest_error).any() {
                return Some(Ok(()));
            }
            // A lane past the input's end errs for the sequence left open
            // there: its position is the end.
            let erred_at = if first_error.any() {
                first_error.first_nonzero()
            } else {
                V::LANES + rest_error.first_nonzero()
            };
            Some(Err(erred_at.min(bytes.len())))
        }

        impl Registers {
            /// The vector of `bytes`, at most a vector, with the lanes past
            /// its end `fill`'s: a masked load of `bytes`' lanes only.
            #[inline(always)]
            fn load_partial(&self, bytes: &[u8], fill: V) -> V {
                // SAFETY: `self` exists only where the CPU has the target
                // feature (see `registers`); the load reads inside `bytes`
                // (`V::load_partial` refuses more than a vector).
                unsafe { V::load_partial(bytes, fill) }
            }
        }
        $crate::simd::algorithm!(@body $feature);
    };
    (@body $feature:literal) => {
        use $crate::__private::PairRule;
        use $crate::simd::VectorLanguage;
        use $crate::simd::blocks::{ALIGNED_FROM, Align, Blocks, Preceded, REACH, framed};
        use $crate::simd::{After, BLOCK, Flow, GROUP, look_back};

        /// The ruleset's tables in registers, and the proof that this CPU has
        /// the module's target feature.
        struct Registers {
            sets: [[V; 4]; 2],
            must_continue: [V; 4],
            incomplete: V,
            /// `incomplete`'s thresholds for the vector that starts
            /// [`REACH`] bytes before a block: see [`open_before_window`].
            incomplete_before_block: V,
            high_bit: V,
            zero: V,
            boundary: V,
            /// The pairing term's lead bit in every lane.
            lead: V,
            /// Every bit but the lead marker's.
            not_lead: V,
            /// Every bit but the two markers'.
            not_markers: V,
            /// The lead bit in a vector's last `distance` lanes, where a
            /// lead marker still waits for its trail at the vector's end.
            pending: V,
            /// All ones but in a vector's first [`look_back`] lanes: the
            /// lanes whose check does not depend on what the vector follows.
            fresh: V,
        }

        /// The vector before the one being checked, and its pair bits in
        /// the table set of the pairing term's markers (zero without one):
        /// what a check carries from one vector to the next.
        #[derive(Clone, Copy)]
        struct Before {
            bytes: V,
            marker_bits: V,
        }

        /// The thresholds of `open_after` for a vector whose lane `end - k`
        /// is the byte `k` bytes before the end of what it tests (`end` is
        /// `LANES` for a vector's own end, `REACH` for a block read from its
        /// window): `byte - threshold` is nonzero exactly where that byte
        /// leaves a sequence open; 0xFF, which nothing exceeds, elsewhere.
        const fn incomplete_thresholds<R: VectorLanguage>(end: usize) -> [u8; V::LANES] {
            let mut max = [0xFFu8; V::LANES];
            let frame = if R::VECTOR.max_sequence_len > 0 {
                R::VECTOR.max_sequence_len - 1
            } else {
                0
            };
            assert!(frame <= end && end <= V::LANES);
            let mut k = 1;
            while k <= frame {
                // What `open_after` relies on: the boundary byte, and the
                // skippable bytes (`%x00-7F` at most), open nothing.
                assert!(R::VECTOR.incomplete[k - 1] > R::VECTOR.boundary);
                assert!(!R::VECTOR.ascii_skip || R::VECTOR.incomplete[k - 1] > 0x7F);
                // `byte > threshold - 1` is `byte >= threshold`.
                max[end - k] = R::VECTOR.incomplete[k - 1] - 1;
                k += 1;
            }
            max
        }

        /// # Safety
        /// The CPU must support this module's target feature.
        #[inline(always)]
        unsafe fn registers<R: VectorLanguage>() -> Registers {
            let incomplete = const { incomplete_thresholds::<R>(V::LANES) };
            let incomplete_before_block = const { incomplete_thresholds::<R>(REACH) };
            let pending = const {
                let mut lanes = [0u8; V::LANES];
                let mut k = 1;
                while k <= R::VECTOR.pairing.distance
                    && matches!(R::VECTOR.pairing.rule, PairRule::Required)
                {
                    lanes[V::LANES - k] = R::VECTOR.pairing.lead_bit;
                    k += 1;
                }
                lanes
            };
            let fresh = const {
                let mut lanes = [0xFFu8; V::LANES];
                let mut k = 0;
                while k < look_back::<R>() {
                    lanes[k] = 0;
                    k += 1;
                }
                lanes
            };
            let lead = R::VECTOR.pairing.lead_bit;
            let t = &R::VECTOR.tables;
            // `byte - (threshold - 0x80)`, saturating, has its high bit set
            // exactly when byte >= threshold.
            let must_continue = |k: usize| R::VECTOR.must_continue[k].wrapping_sub(0x80);
            // SAFETY: the caller promises the target feature, which is all the
            // constructors need; every reference they read is a whole array.
            unsafe {
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
                    must_continue: [
                        V::splat(must_continue(0)),
                        V::splat(must_continue(1)),
                        V::splat(must_continue(2)),
                        V::splat(must_continue(3)),
                    ],
                    incomplete: V::load(&incomplete),
                    incomplete_before_block: V::load(&incomplete_before_block),
                    high_bit: V::splat(0x80),
                    zero: V::splat(0),
                    boundary: V::splat(R::VECTOR.boundary),
                    lead: V::splat(lead),
                    not_lead: V::splat(!lead),
                    not_markers: V::splat(!(lead | lead << 1)),
                    pending: V::load(&pending),
                    fresh: V::load(&fresh),
                }
            }
        }

        impl Registers {
            /// The vector of `bytes`: a reference to exactly one vector's width.
            #[inline(always)]
            fn load(&self, bytes: &[u8; V::LANES]) -> V {
                // SAFETY: `self` exists only where the CPU has the target
                // feature (see `registers`), and `bytes` is valid for the
                // `LANES` bytes the load reads.
                unsafe { V::load(bytes) }
            }

            /// Asks the cache for the line at `address`, which need not lie
            /// inside the input or any allocation (`PREFETCHT0`: a hint,
            /// which makes no byte visible to the program and cannot fault).
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            #[inline(always)]
            fn prefetch(&self, address: *const u8) {
                #[cfg(target_arch = "x86")]
                use core::arch::x86::{_MM_HINT_T0, _mm_prefetch};
                #[cfg(target_arch = "x86_64")]
                use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                // SAFETY: `self` exists only where the CPU has the target
                // feature (see `registers`), SSE4.1 or more, which implies
                // the SSE that the instruction needs; it is a hint that
                // reads nothing into the program and never faults, whatever
                // the address.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast()) }
            }
        }

        /// One table set's bits for each (previous byte, byte) pair.
        #[inline(always)]
        fn pair_bits<R: VectorLanguage>(
            set: &[V; 4],
            prev_high: V,
            prev_low: V,
            cur_high: V,
            cur_low: V,
        ) -> V {
            let bits = set[0]
                .lookup(prev_high)
                .and(set[1].lookup(prev_low))
                .and(set[2].lookup(cur_high));
            if R::VECTOR.needs_cur_low {
                bits.and(set[3].lookup(cur_low))
            } else {
                bits
            }
        }

        /// The check before any input: boundary bytes, and no marker (the
        /// generator declines a pairing term whose lead marker can end on
        /// the boundary byte).
        #[inline(always)]
        fn framing(r: &Registers) -> Before {
            Before {
                bytes: r.boundary,
                marker_bits: r.zero,
            }
        }

        /// What follows `bytes`, the last vector of a run of skippable bytes:
        /// no lead marker ends on one, since each reads like the boundary
        /// byte.
        #[inline(always)]
        fn after_skipped(r: &Registers, bytes: V) -> Before {
            Before {
                bytes,
                marker_bits: r.zero,
            }
        }

        /// The pairing term folded into the bits of the markers' table set:
        /// the lead bit `distance` lanes back, doubled, lands on the trail
        /// bit, which then errs where the rule is broken, and the marker
        /// bits that are not errors are cleared.
        #[inline(always)]
        fn with_pairing<R: VectorLanguage>(r: &Registers, bits: V, before_bits: V) -> V {
            let lead_then = bits.prev(before_bits, R::VECTOR.pairing.distance).and(r.lead);
            let on_trail = lead_then.add(lead_then);
            match R::VECTOR.pairing.rule {
                PairRule::None => bits,
                PairRule::Required => bits.and(r.not_lead).xor(on_trail),
                PairRule::Forbidden => bits.and(r.not_markers).or(bits.and(on_trail)),
            }
        }

        /// The vectors of the bytes 1 to [`look_back`] lanes before a
        /// vector, `n` lanes back at index `n - 1` (the rest unused).
        type Prior = [V; REACH];

        /// The [`Prior`] of `input`, shifted out of it and the vector before.
        #[inline(always)]
        fn shifted_prior<R: VectorLanguage>(r: &Registers, input: V, before: V) -> Prior {
            const { assert!(look_back::<R>() <= REACH) };
            let mut prior = [r.zero; REACH];
            prior[0] = input.prev(before, 1);
            if look_back::<R>() > 1 {
                prior[1] = input.prev(before, 2);
            }
            if look_back::<R>() > 2 {
                prior[2] = input.prev(before, 3);
            }
            if look_back::<R>() > 3 {
                prior[3] = input.prev(before, 4);
            }
            if look_back::<R>() > 4 {
                prior[4] = input.prev(before, 5);
            }
            prior
        }

        /// The [`Prior`] of the vector at `at` in `window` (at least
        /// [`REACH`] bytes in), loaded where its bytes lie: one load each
        /// instead of two shuffles' worth of work for the first and one for
        /// each further (see `V::PRIOR_BY_LOADS`).
        #[inline(always)]
        fn loaded_prior<R: VectorLanguage>(r: &Registers, window: &[u8], at: usize) -> Prior {
            const { assert!(look_back::<R>() <= REACH) };
            debug_assert!(at >= REACH);
            let mut prior = [r.zero; REACH];
            let mut n = 1;
            while n <= look_back::<R>() {
                prior[n - 1] = r.load(vector_at(window, at - n));
                n += 1;
            }
            prior
        }

        /// The check of `input`, a whole input of `len` bytes (shorter than
        /// a vector) with boundary bytes after them, following boundary
        /// bytes; on failure, where it first erred.
        #[inline(always)]
        #[allow(dead_code, reason = "only the narrowest and masked levels check an input in one vector")]
        fn check_one_vector<R: VectorLanguage>(r: &Registers, input: V, len: usize) -> Result<(), usize> {
            let (error, _) = check::<R>(r, input, framing(r));
            if error.any() {
                // A lane past the input's end errs for the sequence left
                // open there: its position is the end.
                Err(error.first_nonzero().min(len))
            } else {
                Ok(())
            }
        }

        /// The error bits of `input`, which follows `before` (boundary bytes
        /// at the start of the input), and what the next vector follows.
        #[inline(always)]
        fn check<R: VectorLanguage>(r: &Registers, input: V, before: Before) -> (V, Before) {
            check_after::<R>(r, input, shifted_prior::<R>(r, input, before.bytes), before.marker_bits)
        }

        /// The error bits of `input`, whose bytes before it are `prior` and
        /// whose vector before had `before_marker_bits`, and what the next
        /// vector follows.
        #[inline(always)]
        fn check_after<R: VectorLanguage>(
            r: &Registers,
            input: V,
            prior: Prior,
            before_marker_bits: V,
        ) -> (V, Before) {
            let prev1 = prior[0];
            let (prev_high, prev_low) = (prev1.high_nibbles(), prev1.low_nibbles());
            let cur_high = input.high_nibbles();
            let cur_low = if R::VECTOR.needs_cur_low {
                input.low_nibbles()
            } else {
                cur_high
            };
            let pairing = !matches!(R::VECTOR.pairing.rule, PairRule::None);
            let mut first = pair_bits::<R>(&r.sets[0], prev_high, prev_low, cur_high, cur_low);
            let mut second = if R::VECTOR.sets > 1 {
                pair_bits::<R>(&r.sets[1], prev_high, prev_low, cur_high, cur_low)
            } else {
                r.zero
            };
            let marker_bits = if R::VECTOR.pairing.set == 0 { first } else { second };
            if pairing && R::VECTOR.pairing.set == 0 {
                first = with_pairing::<R>(r, first, before_marker_bits);
            } else if pairing {
                second = with_pairing::<R>(r, second, before_marker_bits);
            }
            let mut error = first;
            if R::VECTOR.max_sequence_len > 2 {
                let mut must = prior[1].saturating_sub(r.must_continue[0]);
                if R::VECTOR.max_sequence_len > 3 {
                    must = must.or(prior[2].saturating_sub(r.must_continue[1]));
                }
                if R::VECTOR.max_sequence_len > 4 {
                    must = must.or(prior[3].saturating_sub(r.must_continue[2]));
                }
                if R::VECTOR.max_sequence_len > 5 {
                    must = must.or(prior[4].saturating_sub(r.must_continue[3]));
                }
                error = error.xor(must.and(r.high_bit));
            }
            if R::VECTOR.sets > 1 {
                error = error.or(second);
            }
            let next = Before {
                bytes: input,
                marker_bits: if pairing { marker_bits } else { r.zero },
            };
            (error, next)
        }

        /// What checking a block leaves: its error bits, and what the next
        /// block follows (whether that leaves a sequence open is
        /// [`open_after`] of it).
        #[derive(Clone, Copy)]
        struct Checked {
            error: V,
            last: Before,
        }

        /// Nonzero where `last`, the last vector checked, leaves a sequence
        /// (or a lead marker's pairing) open at its end. A function of
        /// `last` alone, worked out only where a run of skippable bytes or
        /// the input's end needs it, not after every block (one vector
        /// operation of about 35 in the main loop's block). After skippable
        /// bytes or the boundary bytes it is zero: no lead of a sequence is
        /// skippable or the boundary byte (asserted in [`registers`]).
        #[inline(always)]
        fn open_after<R: VectorLanguage>(r: &Registers, last: Before) -> V {
            let open = last.bytes.saturating_sub(r.incomplete);
            if matches!(R::VECTOR.pairing.rule, PairRule::Required) {
                open.or(last.marker_bits.and(r.pending))
            } else {
                open
            }
        }

        /// [`open_after`] the bytes before the block of `window`, a block
        /// of skippable bytes, read from the window's first vector: its
        /// first [`REACH`] lanes are the bytes before the block, and the
        /// rest, the block's, open nothing (the const assertions of
        /// `incomplete_thresholds`). Only without a pairing term, whose
        /// markers are not in memory.
        #[inline(always)]
        fn open_before_window<R: VectorLanguage>(r: &Registers, window: &[u8; REACH + BLOCK]) -> V {
            debug_assert!(matches!(R::VECTOR.pairing.rule, PairRule::None));
            r.load(vector_at(window, 0)).saturating_sub(r.incomplete_before_block)
        }

        /// Checks `block`, which follows `before`.
        #[inline(always)]
        fn check_block<R: VectorLanguage>(r: &Registers, block: &[u8; BLOCK], before: Before) -> Checked {
            let mut error = r.zero;
            let mut before = before;
            // Plain loops, no closures: a closure passed to a generic iterator
            // adaptor is compiled without this module's target feature, and
            // its intrinsics stop being inlined.
            for vector in block.as_chunks::<{ V::LANES }>().0 {
                let input = r.load(vector);
                let (vector_error, next) = check::<R>(r, input, before);
                error = error.or(vector_error);
                before = next;
            }
            Checked { error, last: before }
        }

        /// Checks the block that ends `window`, after the [`REACH`] bytes
        /// before it there; the lead markers before it are `before`'s.
        /// Equal to [`check_block`] on the block after the input's vector
        /// before it.
        #[inline(always)]
        fn check_preceded_block<R: VectorLanguage>(
            r: &Registers,
            window: &[u8; REACH + BLOCK],
            before: Before,
        ) -> Checked {
            let mut error = r.zero;
            let mut before = before;
            let mut at = REACH;
            while at < REACH + BLOCK {
                let input = r.load(vector_at(window, at));
                let prior = loaded_prior::<R>(r, window, at);
                let (vector_error, next) = check_after::<R>(r, input, prior, before.marker_bits);
                error = error.or(vector_error);
                before = next;
                at += V::LANES;
            }
            Checked { error, last: before }
        }

        /// The block of a [`Preceded::window`].
        #[inline(always)]
        fn block_of(window: &[u8; REACH + BLOCK]) -> &[u8; BLOCK] {
            let Some(block) = window.last_chunk() else {
                unreachable!("a window ends with its block")
            };
            block
        }

        /// The blocks the main loop walks: the body's from `first_block`
        /// (`rest`), their windows where the check loads from them, and the
        /// bound of the offsets of both.
        struct Walked<'a> {
            rest: &'a [[u8; BLOCK]],
            preceded: Preceded<'a>,
            offsets_below: usize,
            first_block: usize,
        }

        impl<'a> Walked<'a> {
            /// The block `at` bytes in.
            #[inline(always)]
            fn block(&self, at: usize) -> &'a [u8; BLOCK] {
                body_block(self.rest, &self.preceded, at)
            }

            /// The body's block number of the block `at` bytes in.
            #[inline(always)]
            fn number(&self, at: usize) -> usize {
                self.first_block + at / BLOCK
            }
        }

        /// Where the main loop is: the offset of its next block, the error
        /// bits of the blocks checked since the last test, what the next
        /// block follows (carried only where it is not read again from
        /// memory), and where the blocks since the last test start.
        #[derive(Clone, Copy)]
        struct Walk {
            at: usize,
            error: V,
            before: Before,
            group_start: usize,
            group_before: Before,
        }

        impl Walk {
            /// Whether the block before the next one, and so what that one
            /// follows, is read again from memory instead of carried.
            const fn reads_before_again<R: VectorLanguage>() -> bool {
                V::PRIOR_BY_LOADS && matches!(R::VECTOR.pairing.rule, PairRule::None)
            }

            /// What follows at `at`: the end of the blocks, a skippable block
            /// (a run), or one to check.
            #[inline(always)]
            fn next<R: VectorLanguage>(&self, r: &Registers, blocks: &Walked<'_>) -> After {
                if self.at >= blocks.offsets_below {
                    After::End
                } else if R::VECTOR.ascii_skip && is_skippable::<R>(r, blocks.block(self.at)) {
                    After::Run
                } else {
                    After::Check
                }
            }

            /// Checks the block at `at` (known not to be skippable) and moves
            /// past it.
            #[inline(always)]
            fn check<R: VectorLanguage>(&mut self, r: &Registers, blocks: &Walked<'_>) {
                let checked = check_body_block::<R>(r, blocks.rest, &blocks.preceded, self.at, self.before);
                self.error = self.error.or(checked.error);
                if !Self::reads_before_again::<R>() {
                    self.before = checked.last;
                }
                self.at += BLOCK;
            }

            /// [`check`](Self::check), and what follows.
            #[inline(always)]
            fn step<R: VectorLanguage>(&mut self, r: &Registers, blocks: &Walked<'_>) -> After {
                self.check::<R>(r, blocks);
                self.next::<R>(r, blocks)
            }

            /// A step within a group of blocks: whether the group goes on,
            /// or ends (at a run, which is then passed, or at the end).
            #[inline(always)]
            fn group_step<R: VectorLanguage>(
                &mut self,
                r: &Registers,
                input: &Blocks<'_>,
                blocks: &Walked<'_>,
            ) -> Result<Flow, usize> {
                Ok(match self.step::<R>(r, blocks) {
                    After::Check => Flow::Next,
                    After::Run => {
                        self.run::<R>(r, input, blocks)?;
                        Flow::Restart
                    }
                    After::End => Flow::End,
                })
            }

            /// Passes the run of skippable blocks at `at`, after testing
            /// what has been checked since the last test: ASCII reads to the
            /// check like boundary bytes, so all that can fail in a run of
            /// it is a sequence left open before the run.
            #[inline(always)]
            fn run<R: VectorLanguage>(&mut self, r: &Registers, input: &Blocks<'_>, blocks: &Walked<'_>) -> Result<(), usize> {
                let open = open_before::<R>(r, &blocks.preceded, self.at, self.before);
                if self.error.or(open).any() {
                    return Err(self.first_error::<R>(r, input, blocks));
                }
                self.error = r.zero;
                self.at = after_run::<R>(r, blocks.rest, self.at);
                if !Self::reads_before_again::<R>() {
                    self.before = after_skipped(r, last_vector(r, blocks.block(self.at - BLOCK)));
                }
                Ok(())
            }

            /// Tests the error bits of the blocks checked since the last
            /// test.
            #[inline(always)]
            fn test_group<R: VectorLanguage>(&mut self, r: &Registers, input: &Blocks<'_>, blocks: &Walked<'_>) -> Result<(), usize> {
                if self.error.any() {
                    return Err(self.first_error::<R>(r, input, blocks));
                }
                self.error = r.zero;
                Ok(())
            }

            /// Where the check first errs in the blocks since the last test.
            #[inline(always)]
            fn first_error<R: VectorLanguage>(&self, r: &Registers, input: &Blocks<'_>, blocks: &Walked<'_>) -> usize {
                let (from, to) = (blocks.number(self.group_start), blocks.number(self.at));
                // Without a pairing term `first_error` reads what the group
                // follows again from memory; not passing `group_before` then
                // keeps it out of the loop's registers.
                let before = if matches!(R::VECTOR.pairing.rule, PairRule::None) {
                    after_skipped(r, r.zero)
                } else {
                    self.group_before
                };
                // SAFETY: a `Registers` exists only where the CPU has the
                // module's target feature (see `registers`).
                unsafe { first_error::<R>(input, from, to, before) }
            }
        }

        /// Whether a sequence is left open before the skippable block `at`
        /// bytes into the main loop's blocks, which follows `before` (kept
        /// only where it is not read again from memory: see
        /// [`open_before_window`]).
        #[inline(always)]
        fn open_before<R: VectorLanguage>(r: &Registers, preceded: &Preceded<'_>, at: usize, before: Before) -> V {
            if Walk::reads_before_again::<R>() {
                open_before_window::<R>(r, preceded.window(at))
            } else {
                open_after::<R>(r, before)
            }
        }

        /// Where the run of skippable blocks from `at` bytes into the main
        /// loop's blocks (`rest`) ends: at the first block after it that is
        /// not skippable (tested), or at the end of `rest`.
        ///
        /// The run's blocks are read as `rest`'s, by number, not through
        /// their windows: LLVM then does not keep the loads for the check
        /// of the block that ends the run, which cost register copies
        /// (SSE4.1) or an unfolded load (AVX-512) at every block of the run
        /// (this project's Zen 4 VM: 1 MiB of ASCII 10% slower).
        #[inline(always)]
        fn after_run<R: VectorLanguage>(r: &Registers, rest: &[[u8; BLOCK]], at: usize) -> usize {
            let mut next = at / BLOCK + 1;
            // Two blocks a turn where the level measured faster for it (see
            // `V::RUN_TWO_BLOCKS_A_TURN`), then the rest one a turn.
            if V::RUN_TWO_BLOCKS_A_TURN {
                while let Some(pair) = rest.get(next..next + 2) {
                    if !is_skippable::<R>(r, &pair[0]) {
                        return next * BLOCK;
                    }
                    if !is_skippable::<R>(r, &pair[1]) {
                        return (next + 1) * BLOCK;
                    }
                    next += 2;
                }
            }
            // One block a test: a test of two blocks at a time (one per 128
            // bytes) was measured and not kept: on this VM's corpus (AVX2,
            // same binary) it ran `english` and `Latin-Lipsum` 3-8% faster
            // but the Latin-script texts with a few letters beyond ASCII to a
            // line, whose runs end within a block or two, 3-12% slower (and
            // again at stop 26: the corpus 1.21x -> 1.15x simdutf8's AVX2
            // code with a first block tested alone, then pairs).
            while next < rest.len() {
                let block = &rest[next];
                if !is_skippable::<R>(r, block) {
                    break;
                }
                // Inside a run of ASCII, a block further on is asked for,
                // where the level measured faster for it (see
                // `V::PREFETCH_BLOCKS_AHEAD`).
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                if V::PREFETCH_BLOCKS_AHEAD > 0 {
                    r.prefetch(block.as_ptr().wrapping_add(V::PREFETCH_BLOCKS_AHEAD * BLOCK));
                }
                next += 1;
            }
            next * BLOCK
        }

        /// The block `at` bytes into `rest` (the body's blocks from the main
        /// loop's first, whose windows `preceded` holds), checked after
        /// `before`: its bytes before each vector loaded where they lie, or
        /// shifted out of the vector before, whichever costs less on this
        /// instruction set.
        #[inline(always)]
        fn check_body_block<R: VectorLanguage>(
            r: &Registers,
            rest: &[[u8; BLOCK]],
            preceded: &Preceded<'_>,
            at: usize,
            before: Before,
        ) -> Checked {
            if V::PRIOR_BY_LOADS {
                check_preceded_block::<R>(r, preceded.window(at), before)
            } else {
                check_block::<R>(r, &rest[at / BLOCK], before)
            }
        }

        /// The block `at` bytes into `rest`, as the main loop reads it: from
        /// its [`Preceded::window`] where the check loads from it, so that
        /// the skip test's loads are the check's.
        #[inline(always)]
        fn body_block<'a>(rest: &'a [[u8; BLOCK]], preceded: &Preceded<'a>, at: usize) -> &'a [u8; BLOCK] {
            if V::PRIOR_BY_LOADS {
                block_of(preceded.window(at))
            } else {
                &rest[at / BLOCK]
            }
        }

        /// Folds one more vector into a skip test's accumulator: an OR
        /// where the skippable bytes are `%x00-7F` (a high bit anywhere
        /// shows), a signed minimum where they start higher (modified
        /// UTF-8's `%x01-7F`: the smallest byte shows).
        #[inline(always)]
        fn fold_skippable<R: VectorLanguage>(acc: V, vector: V) -> V {
            if R::VECTOR.boundary == 0 {
                acc.or(vector)
            } else {
                acc.min_signed(vector)
            }
        }

        /// Whether an accumulator of [`fold_skippable`] holds only
        /// skippable bytes.
        #[inline(always)]
        fn all_skippable<R: VectorLanguage>(acc: V) -> bool {
            if R::VECTOR.boundary == 0 {
                acc.is_ascii()
            } else {
                acc.all_in_ascii_from(R::VECTOR.boundary)
            }
        }

        /// Whether the block is all skippable: bytes of
        /// `%x(boundary)-7F`, which the generator proved read to the check
        /// like the boundary byte.
        #[inline(always)]
        fn is_skippable<R: VectorLanguage>(r: &Registers, block: &[u8; BLOCK]) -> bool {
            let vectors = block.as_chunks::<{ V::LANES }>().0;
            let mut acc = r.load(&vectors[0]);
            for vector in &vectors[1..] {
                acc = fold_skippable::<R>(acc, r.load(vector));
            }
            all_skippable::<R>(acc)
        }

        /// The last vector of `block`.
        #[inline(always)]
        fn last_vector(r: &Registers, block: &[u8; BLOCK]) -> V {
            let vectors = block.as_chunks::<{ V::LANES }>().0;
            r.load(&vectors[vectors.len() - 1])
        }

        /// What block `index` of the body follows, read again from memory:
        /// the last vector of the block before it, of the framed head, or
        /// boundary bytes. Without a pairing term that is all a check
        /// carries, and reading it again costs less than keeping a copy at
        /// each group's start in registers.
        #[inline(always)]
        fn before_block<R: VectorLanguage>(r: &Registers, input: &Blocks<'_>, index: usize) -> Before {
            let bytes = if index > 0 {
                last_vector(r, &input.body[index - 1])
            } else if !input.head.is_empty() {
                last_vector(r, &framed(input.head, Align::End, R::VECTOR.boundary))
            } else {
                r.boundary
            };
            Before {
                bytes,
                marker_bits: r.zero,
            }
        }

        /// Where the check of `block`, which follows `before`, first errs:
        /// the index of its first lane with an error bit, or `BLOCK` if it
        /// does not err.
        #[inline(always)]
        fn first_error_in<R: VectorLanguage>(r: &Registers, block: &[u8; BLOCK], before: Before) -> usize {
            let mut before = before;
            for (i, vector) in block.as_chunks::<{ V::LANES }>().0.iter().enumerate() {
                let input = r.load(vector);
                let (error, next) = check::<R>(r, input, before);
                if error.any() {
                    return i * V::LANES + error.first_nonzero();
                }
                before = next;
            }
            BLOCK
        }

        /// Where the check first errs in the body's blocks `from..to`, which
        /// follow `before` (read again from memory without a pairing term),
        /// checked again one by one; the start of block `to` if none errs
        /// alone (the error is then a sequence left open before a run of
        /// ASCII, on whose first byte the automaton dies). Only blocks the
        /// main loop checked are checked again.
        #[cold]
        #[inline(never)]
        #[target_feature(enable = $feature)]
        fn first_error<R: VectorLanguage>(
            input: &Blocks<'_>,
            from: usize,
            to: usize,
            before: Before,
        ) -> usize {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it.
            let r = &unsafe { registers::<R>() };
            let mut before = if matches!(R::VECTOR.pairing.rule, PairRule::None) {
                before_block::<R>(r, input, from)
            } else {
                before
            };
            for index in from..to {
                let checked = check_block::<R>(r, &input.body[index], before);
                if checked.error.any() {
                    return input.body_offset(index)
                        + first_error_in::<R>(r, &input.body[index], before);
                }
                before = checked.last;
            }
            input.body_offset(to)
        }

        /// Where the check of the framed end of the input first errs, as a
        /// position in the input: a lane in the closing boundary bytes
        /// stands for the end.
        #[cold]
        #[inline(never)]
        #[target_feature(enable = $feature)]
        fn first_error_at_end<R: VectorLanguage>(
            input: &Blocks<'_>,
            tail: &[u8; BLOCK],
            before: Before,
        ) -> usize {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it.
            let r = &unsafe { registers::<R>() };
            let at = first_error_in::<R>(r, tail, before).min(input.tail.len());
            input.body_offset(input.body.len()) + at
        }

        /// Whether `bytes`, at least a vector and less than [`ALIGNED_FROM`]
        /// long, passes the check where it lies: no framed copy of its end,
        /// whose bytes a vector load could only take from the stores of the
        /// copy (a store-forwarding stall per load, on strings where the
        /// check itself is a handful of instructions). The first vector
        /// follows the boundary bytes; see [`later_vectors`] for the rest.
        /// Without a pairing term, whose markers reach further back than
        /// [`look_back`] counts.
        #[inline(always)]
        fn passes_in_place<R: VectorLanguage>(r: &Registers, bytes: &[u8]) -> bool {
            let (first_error, _) = check::<R>(r, r.load(vector_at(bytes, 0)), framing(r));
            let (later_error, last) = later_vectors::<R>(r, bytes);
            let open = last.bytes.saturating_sub(r.incomplete);
            !first_error.or(later_error).or(open).any()
        }

        /// The check of `bytes` after its first vector (for
        /// [`passes_in_place`]), with as few branches on the length as the
        /// bytes allow, since short strings come in every length:
        ///
        /// - Two vectors or more: vectors a vector apart from the first,
        ///   the last moved back to end with the input, each following the
        ///   vector before it read again from memory, so exact wherever it
        ///   starts.
        /// - Less: the vector that ends the input and one more, each
        ///   following boundary bytes, so that only their
        ///   [`Registers::fresh`] lanes count: one starting [`look_back`]
        ///   lanes before the first vector's end, covering what the last
        ///   one's fresh lanes do not where the two overlap by less than
        ///   that (elsewhere it is the last one again).
        ///
        /// Returns the error bits, each lane checked exactly in some
        /// vector, and what follows the input.
        #[inline(always)]
        fn later_vectors<R: VectorLanguage>(r: &Registers, bytes: &[u8]) -> (V, Before) {
            let last_at = bytes.len() - V::LANES;
            if bytes.len() >= 2 * V::LANES {
                let mut error = r.zero;
                let mut at = V::LANES;
                loop {
                    let at_or_last = at.min(last_at);
                    let (vector_error, after) = check_after_prior::<R>(r, bytes, at_or_last);
                    error = error.or(vector_error);
                    if at_or_last == last_at {
                        return (error, after);
                    }
                    at += V::LANES;
                }
            }
            let middle_at = (V::LANES - look_back::<R>()).min(last_at);
            let (middle_error, _) = check::<R>(r, r.load(vector_at(bytes, middle_at)), framing(r));
            let (last_error, after) = check::<R>(r, r.load(vector_at(bytes, last_at)), framing(r));
            (middle_error.or(last_error).and(r.fresh), after)
        }

        /// The check of the vector of `bytes` at `at` (a vector or more into
        /// it), following the vector before it read again from memory.
        #[inline(always)]
        fn check_after_prior<R: VectorLanguage>(r: &Registers, bytes: &[u8], at: usize) -> (V, Before) {
            let prior = Before {
                bytes: r.load(vector_at(bytes, at - V::LANES)),
                marker_bits: r.zero,
            };
            check::<R>(r, r.load(vector_at(bytes, at)), prior)
        }

        /// Where the check of [`passes_in_place`] first errs: its vectors
        /// checked again one by one in order of position, each lane exactly
        /// in the first that counts it; the end of the input for a sequence
        /// left open there.
        #[cold]
        #[inline(never)]
        #[target_feature(enable = $feature)]
        fn first_error_in_place<R: VectorLanguage>(bytes: &[u8]) -> usize {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it.
            let r = &unsafe { registers::<R>() };
            let (error, _) = check::<R>(r, r.load(vector_at(bytes, 0)), framing(r));
            if error.any() {
                return error.first_nonzero();
            }
            let last_at = bytes.len() - V::LANES;
            if bytes.len() >= 2 * V::LANES {
                let mut at = V::LANES;
                loop {
                    let at_or_last = at.min(last_at);
                    let (error, _) = check_after_prior::<R>(r, bytes, at_or_last);
                    if error.any() {
                        return at_or_last + error.first_nonzero();
                    }
                    if at_or_last == last_at {
                        break;
                    }
                    at += V::LANES;
                }
            } else {
                let middle_at = (V::LANES - look_back::<R>()).min(last_at);
                for at in [middle_at, last_at] {
                    let (error, _) = check::<R>(r, r.load(vector_at(bytes, at)), framing(r));
                    let error = error.and(r.fresh);
                    if error.any() {
                        return at + error.first_nonzero();
                    }
                }
            }
            bytes.len()
        }

        /// Checks `bytes`; on failure returns the position where the check
        /// first erred (the end of the input for a sequence left open there).
        ///
        /// # Safety
        /// The CPU must support this module's target feature.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn validate<R: VectorLanguage>(bytes: &[u8]) -> Result<(), usize> {
            if bytes.len() < NARROWER_BELOW
                && matches!(R::VECTOR.pairing.rule, PairRule::None)
                && let Some(result) = narrower::<R>(bytes)
            {
                return result;
            }
            if bytes.len() >= V::LANES
                && bytes.len() < ALIGNED_FROM
                && matches!(R::VECTOR.pairing.rule, PairRule::None)
            {
                // SAFETY: the caller promises the target feature.
                let r = unsafe { registers::<R>() };
                return if passes_in_place::<R>(&r, bytes) {
                    Ok(())
                } else {
                    Err(first_error_in_place::<R>(bytes))
                };
            }
            validate_blocks::<R>(bytes)
        }

        /// How many bytes at the start of `bytes` are skippable, in whole
        /// blocks read where they lie: all of them (the bytes after the last
        /// whole block too) where every one is, else the start of the first
        /// block that is not. None of [`validate_blocks`]'s set-up, for a
        /// piece of a stream, whose cost a call is paid at every piece: a
        /// piece of ASCII then costs this loop and little else.
        ///
        /// # Safety
        /// The CPU must support this module's target feature.
        #[inline(never)]
        #[target_feature(enable = $feature)]
        #[allow(dead_code, reason = "the AVX-512 level runs AVX2's (see `skippable_prefix_detected`)")]
        pub(crate) unsafe fn skippable_prefix<R: VectorLanguage>(bytes: &[u8]) -> usize {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it. (The tables'
            // loads, unused here, are left out by the compiler.)
            let r = unsafe { registers::<R>() };
            let (blocks, rest) = bytes.as_chunks::<BLOCK>();
            let mut index = 0;
            while index < blocks.len() {
                if !is_skippable::<R>(&r, &blocks[index]) {
                    return index * BLOCK;
                }
                index += 1;
            }
            if $crate::simd::skippable::<R>(rest) {
                bytes.len()
            } else {
                blocks.len() * BLOCK
            }
        }

        /// The vector of `bytes` at `at`, which the caller knows to lie
        /// inside it.
        #[inline(always)]
        fn vector_at(bytes: &[u8], at: usize) -> &[u8; V::LANES] {
            let Some(vector) = bytes[at..].first_chunk::<{ V::LANES }>() else {
                unreachable!("a vector read in place lies inside the input")
            };
            vector
        }

        /// Checks the first `head_end` bytes of `bytes` (at least a vector,
        /// less than two blocks, and less than the input) in place: by
        /// vectors from the boundary bytes, the last of which may run past
        /// `head_end` into bytes the main loop checks again. Returns the
        /// error bits and, as for a block, what the bytes from `head_end`
        /// follow, read again from memory.
        #[inline(always)]
        fn check_head<R: VectorLanguage>(r: &Registers, bytes: &[u8], head_end: usize) -> Checked {
            debug_assert!((V::LANES..ALIGNED_FROM).contains(&head_end) && head_end < bytes.len());
            let last = Before {
                bytes: r.load(vector_at(bytes, head_end - V::LANES)),
                marker_bits: r.zero,
            };
            if R::VECTOR.ascii_skip && vectors_skippable::<R>(r, bytes, 0, head_end) {
                // As after a skipped block: nothing can be open.
                return Checked { error: r.zero, last };
            }
            let mut before = framing(r);
            let mut error = r.zero;
            let mut at = 0;
            while at < head_end {
                let (vector_error, next) = check::<R>(r, r.load(vector_at(bytes, at)), before);
                error = error.or(vector_error);
                before = next;
                at += V::LANES;
            }
            Checked { error, last }
        }

        /// Whether the vectors of `bytes` from `from`, a vector apart and
        /// starting before `to`, are all skippable (the last may run past
        /// `to`; it lies inside `bytes`).
        #[inline(always)]
        fn vectors_skippable<R: VectorLanguage>(r: &Registers, bytes: &[u8], from: usize, to: usize) -> bool {
            let mut acc = r.load(vector_at(bytes, from));
            let mut at = from + V::LANES;
            while at < to {
                acc = fold_skippable::<R>(acc, r.load(vector_at(bytes, at)));
                at += V::LANES;
            }
            all_skippable::<R>(acc)
        }

        /// Checks the bytes of `bytes` from `tail_at` (fewer than a block,
        /// following `before`) in place: whole vectors, then the vector that
        /// ends with the input, which follows the vector before it read
        /// again from memory (the input holds two blocks). Returns the error
        /// bits and whether a sequence is left open at the end.
        #[inline(always)]
        fn check_tail<R: VectorLanguage>(
            r: &Registers,
            bytes: &[u8],
            tail_at: usize,
            before: Before,
        ) -> Checked {
            debug_assert!(bytes.len() >= ALIGNED_FROM && bytes.len() - tail_at < BLOCK);
            let mut before = before;
            let mut error = r.zero;
            let mut at = tail_at;
            while bytes.len() - at >= V::LANES {
                let (vector_error, next) = check::<R>(r, r.load(vector_at(bytes, at)), before);
                error = error.or(vector_error);
                before = next;
                at += V::LANES;
            }
            if at < bytes.len() {
                let (last_error, last) = check_after_prior::<R>(r, bytes, bytes.len() - V::LANES);
                error = error.or(last_error);
                before = last;
            }
            Checked { error, last: before }
        }

        /// Where [`check_tail`] first errs: its vectors checked again one
        /// by one; the end of the input for a sequence left open there.
        /// What the tail follows is read again from memory, as
        /// [`before_block`] does: passed in, it would be passed by
        /// reference, and the main loop would keep its `before` in memory
        /// (see `in_place` in [`validate_blocks`]).
        #[cold]
        #[inline(never)]
        #[target_feature(enable = $feature)]
        fn first_error_in_tail<R: VectorLanguage>(bytes: &[u8], tail_at: usize) -> usize {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it.
            let r = &unsafe { registers::<R>() };
            debug_assert!(tail_at >= V::LANES && matches!(R::VECTOR.pairing.rule, PairRule::None));
            let mut before = Before {
                bytes: r.load(vector_at(bytes, tail_at - V::LANES)),
                marker_bits: r.zero,
            };
            let mut at = tail_at;
            while bytes.len() - at >= V::LANES {
                let (error, next) = check::<R>(r, r.load(vector_at(bytes, at)), before);
                if error.any() {
                    return at + error.first_nonzero();
                }
                before = next;
                at += V::LANES;
            }
            if at < bytes.len() {
                let last_at = bytes.len() - V::LANES;
                let (error, _) = check_after_prior::<R>(r, bytes, last_at);
                if error.any() {
                    return last_at + error.first_nonzero();
                }
            }
            bytes.len()
        }

        /// The head of `input` (the bytes before its first aligned block),
        /// checked in place or framed: what the body's block `first_block`
        /// follows and `first_block` (1 where the head ran through block 0),
        /// or where the check erred.
        #[inline]
        #[target_feature(enable = $feature)]
        fn start_of_body<R: VectorLanguage>(
            r: &Registers,
            bytes: &[u8],
            input: &Blocks<'_>,
            in_place: bool,
        ) -> Result<(Before, usize), usize> {
            // The check was proved with boundary bytes before the input.
            let before = framing(r);
            if input.head.is_empty() {
                return Ok((before, 0));
            }
            if in_place {
                // A head shorter than a vector leaves no vector before the
                // first block to read again: the head then runs through it.
                let (head_end, after_head) = if input.head.len() >= V::LANES {
                    (input.head.len(), 0)
                } else {
                    (input.head.len() + BLOCK, 1)
                };
                let head = check_head::<R>(r, bytes, head_end);
                if head.error.any() {
                    return Err(first_error_in_place::<R>(&bytes[..head_end]));
                }
                return Ok((head.last, after_head));
            }
            // A head of ASCII reads to the check like the boundary bytes
            // before the input (the generator proved that before allowing
            // the ASCII skip), so only a head with other bytes is framed and
            // checked.
            if R::VECTOR.ascii_skip && $crate::simd::skippable::<R>(input.head) {
                return Ok((before, 0));
            }
            let head = framed(input.head, Align::End, R::VECTOR.boundary);
            let checked = check_block::<R>(r, &head, before);
            if checked.error.any() {
                // The boundary bytes before the head cannot err.
                let lane = first_error_in::<R>(r, &head, before);
                return Err(lane.saturating_sub(BLOCK - input.head.len()));
            }
            Ok((checked.last, 0))
        }

        /// Body block 0, which follows `before`, where fewer than [`REACH`]
        /// bytes of the input lie before it for [`check_preceded_block`] to
        /// load: checked with the bytes before each vector shifted out of
        /// the vector before. What the next block follows, or where the
        /// check erred.
        #[inline]
        #[target_feature(enable = $feature)]
        fn block_without_reach<R: VectorLanguage>(
            r: &Registers,
            input: &Blocks<'_>,
            before: Before,
        ) -> Result<Before, usize> {
            let block = &input.body[0];
            if R::VECTOR.ascii_skip && is_skippable::<R>(r, block) {
                return if open_after::<R>(r, before).any() {
                    Err(input.body_offset(0))
                } else {
                    Ok(after_skipped(r, last_vector(r, block)))
                };
            }
            let checked = check_block::<R>(r, block, before);
            if checked.error.any() {
                return Err(first_error::<R>(input, 0, 1, before));
            }
            Ok(checked.last)
        }

        /// The tail of `input` (the bytes after its last aligned block,
        /// which follow `before`), checked in place or framed, and the end
        /// of the input.
        #[inline]
        #[target_feature(enable = $feature)]
        fn end_of_input<R: VectorLanguage>(
            r: &Registers,
            bytes: &[u8],
            input: &Blocks<'_>,
            in_place: bool,
            before: Before,
        ) -> Result<(), usize> {
            // A tail of ASCII reads like the boundary bytes after the input:
            // what can fail is only a sequence left open before it, which the
            // end test (proved equal to the closing check) finds.
            let tail_at = input.body_offset(input.body.len());
            let tail_skippable = if in_place && !input.tail.is_empty() {
                // The vectors that end with the input and cover the tail.
                let from = bytes.len() - input.tail.len().div_ceil(V::LANES) * V::LANES;
                vectors_skippable::<R>(r, bytes, from, bytes.len())
            } else {
                $crate::simd::skippable::<R>(input.tail)
            };
            if R::VECTOR.ascii_skip && tail_skippable {
                return if open_after::<R>(r, before).any() {
                    Err(tail_at)
                } else {
                    Ok(())
                };
            }
            if in_place {
                let tail = check_tail::<R>(r, bytes, tail_at, before);
                return if tail.error.or(open_after::<R>(r, tail.last)).any() {
                    Err(first_error_in_tail::<R>(bytes, tail_at))
                } else {
                    Ok(())
                };
            }
            // The tail, then boundary bytes: the check of those (proved equal
            // to the input's end) and the end test catch a sequence left open.
            let tail = framed(input.tail, Align::Start, R::VECTOR.boundary);
            let checked = check_block::<R>(r, &tail, before);
            if checked.error.or(open_after::<R>(r, checked.last)).any() {
                Err(first_error_at_end::<R>(input, &tail, before))
            } else {
                Ok(())
            }
        }

        /// The main loop over `blocks`, the first of which follows
        /// `before`: what the end of the input follows, or where the check
        /// first errs.
        ///
        /// The blocks are checked in groups: up to GROUP blocks in a row
        /// that are not skipped, after which the error register is tested,
        /// as it is at the start of a run of skippable blocks; a failing
        /// group is narrowed to a block, checked again from what it followed
        /// (kept only where the lead markers before it cannot be read again
        /// from memory). Each block is tested for the skip once: by the step
        /// before it within a group, at the loop's start otherwise. A
        /// group's blocks are counted by the code's shape (the steps
        /// unrolled), not by a counter or a test of the offset (AVX2: those
        /// cost a test and branch a block, and LLVM kept them beside
        /// register copies), and every way out of a group goes back to the
        /// loop's start, so that the steps of a group follow each other with
        /// no other path in between: LLVM then drops the windows' bounds
        /// tests and the copies of the offset between registers. (AVX2, this
        /// project's Zen 4 VM, one-off program: the corpus 1.16 -> 1.22x
        /// simdutf8's AVX2 code with the rest of this loop's changes.)
        #[inline(always)]
        fn walk_blocks<R: VectorLanguage>(
            r: &Registers,
            input: &Blocks<'_>,
            blocks: &Walked<'_>,
            before: Before,
        ) -> Result<Before, usize> {
            let mut walk = Walk {
                at: 0,
                error: r.zero,
                before,
                group_start: 0,
                group_before: before,
            };
            'groups: while walk.at < blocks.offsets_below {
                if R::VECTOR.ascii_skip && is_skippable::<R>(r, blocks.block(walk.at)) {
                    walk.run::<R>(r, input, blocks)?;
                    continue;
                }
                walk.group_start = walk.at;
                if !matches!(R::VECTOR.pairing.rule, PairRule::None) {
                    walk.group_before = walk.before;
                }
                for _ in 0..GROUP - 1 {
                    match walk.group_step::<R>(r, input, blocks)? {
                        Flow::Next => {}
                        Flow::Restart => continue 'groups,
                        Flow::End => break 'groups,
                    }
                }
                walk.check::<R>(r, blocks);
                walk.test_group::<R>(r, input, blocks)?;
            }
            walk.test_group::<R>(r, input, blocks)?;
            Ok(if Walk::reads_before_again::<R>() {
                after_skipped(r, last_vector(r, blocks.block(walk.at - BLOCK)))
            } else {
                walk.before
            })
        }

        /// [`validate`] by blocks: the main loop, out of line so that a
        /// string checked in place does not pay for its stack frame.
        #[inline(never)]
        #[target_feature(enable = $feature)]
        fn validate_blocks<R: VectorLanguage>(bytes: &[u8]) -> Result<(), usize> {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it.
            let r = unsafe { registers::<R>() };
            let input = Blocks::new(bytes);
            // Without a pairing term (whose markers a vector read again
            // from memory would not carry) the head and tail of an input of
            // two blocks or more are checked where they lie, instead of in
            // framed copies. Shorter inputs come here only with a pairing
            // term (`validate` checks the others itself), so that `in_place`
            // is known when this is compiled: the framed end, which takes
            // `before` by reference, is then not compiled in, and a main
            // loop that carries `before` keeps it in registers (AVX-512, this
            // project's Zen 4 VM: a store and a reload a block otherwise, the
            // corpus 5% slower).
            let in_place = matches!(R::VECTOR.pairing.rule, PairRule::None);
            debug_assert!(!in_place || bytes.len() >= ALIGNED_FROM);

            let (mut before, mut first_block) = start_of_body::<R>(&r, bytes, &input, in_place)?;
            if V::PRIOR_BY_LOADS && first_block < input.body.len() && !input.has_reach(first_block) {
                before = block_without_reach::<R>(&r, &input, before)?;
                first_block += 1;
            }
            // The loop counts the bytes of the blocks from `first_block`, so
            // that its own condition is the bounds test of the blocks it
            // reads and of their windows (the compiler drops those), and its
            // counter is their addresses' offset.
            let rest = &input.body[first_block..];
            // Unused without `V::PRIOR_BY_LOADS`, where it is never made.
            let preceded = if V::PRIOR_BY_LOADS {
                input.preceded_from(first_block)
            } else {
                Preceded::EMPTY
            };
            let offsets_below = if V::PRIOR_BY_LOADS {
                preceded.offsets_below()
            } else {
                (rest.len() * BLOCK).saturating_sub(BLOCK - 1)
            };
            debug_assert_eq!(offsets_below, (rest.len() * BLOCK).saturating_sub(BLOCK - 1));
            // Where the check loads the bytes before each vector and there is
            // no pairing term, all a block carries to the next is its last
            // vector: that is read again from memory where it is asked for
            // (the start of a run of ASCII, and the end), instead of being
            // carried from block to block, which cost a register copy a block
            // (AVX2): `before` then stays what the first block follows.
            let reads_before_again = Walk::reads_before_again::<R>();
            let blocks = Walked {
                rest,
                preceded,
                offsets_below,
                first_block,
            };
            // One call of the end, so that it is inlined; where nothing
            // reaches the loop the end follows what the first block would
            // have, and the loop, where it reads that again from memory,
            // does not keep it in its registers.
            let before = if reads_before_again && rest.is_empty() {
                before
            } else {
                walk_blocks::<R>(&r, &input, &blocks, before)?
            };
            end_of_input::<R>(&r, bytes, &input, in_place, before)
        }
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
/// most of a piece's addresses, costs more than two of 32 bytes (this
/// project's Zen 4 VM: `Latin-Lipsum` in 4 KiB pieces, one call each, 0.82x
/// one-shot validation against 1.00x).
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
    // strings that are ASCII or not at random, cost more than it saved (the
    // corpus's lines, this project's Zen 4 VM: 3.8 GB/s with it, 4.75
    // without; one 64-byte string of ASCII, over and over: 4.7 ns with it,
    // 6.8 without).
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
