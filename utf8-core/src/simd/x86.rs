//! The vector types for x86: AVX-512 (64 bytes), AVX2 (32 bytes) and
//! SSE4.1 (16 bytes).
//!
//! A `V` is made only by its `unsafe` constructors, which need the CPU to
//! have the module's target feature; every operation on a `V` is therefore
//! safe to call, and each `unsafe` block in one names that reason. Every
//! method is `#[inline(always)]`, so that it is compiled into the caller,
//! which runs with the target feature enabled.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

pub(crate) mod avx512 {
    use super::*;

    /// One 64-byte vector: a whole block.
    #[derive(Clone, Copy)]
    pub(crate) struct V(__m512i);

    impl V {
        pub(crate) const LANES: usize = 64;

        /// The bytes before each vector loaded where they lie (three
        /// loads, each straddling two cache lines at this width) rather
        /// than shifted out (`valignq` and three `vpalignr`, on the one
        /// shuffle port of Intel's cores, which the three lookups already
        /// load). On this project's Zen 4 VM (AVX-512 executed as two
        /// 256-bit halves), same build, the corpus at this level: 32.1
        /// GB/s on geometric mean with loads, 22.7-25.5 with shifts.
        pub(crate) const PRIOR_BY_LOADS: bool = true;

        /// How many blocks ahead the ASCII skip asks for the cache line
        /// (none for 0): the hardware's own prefetch left the loop, one
        /// 64-byte compare a block, waiting on the L2 cache. On this
        /// project's Zen 4 VM, against the read-only pass: `Latin-Lipsum`
        /// (held in L2) 0.83 -> 0.95, 1 MiB of ASCII 0.92 -> 0.98 (4 blocks
        /// ahead gave 0.85 and 0.96); the other files of the corpus the
        /// same within this VM's noise.
        pub(crate) const PREFETCH_BLOCKS_AHEAD: usize = 16;

        /// One block a turn of the ASCII run's loop, with its prefetch: two
        /// (each tested on its own, without the prefetch) ran `Latin-Lipsum`
        /// 113 -> 101 GB/s, `english` and 1 MiB of ASCII 7-8% slower on
        /// this project's Zen 4 VM.
        pub(crate) const RUN_TWO_BLOCKS_A_TURN: bool = false;

        /// # Safety
        /// The CPU must support AVX-512 F and BW.
        #[inline(always)]
        pub(crate) unsafe fn load(bytes: &[u8; 64]) -> V {
            // SAFETY: the caller promises the feature; `bytes` is valid for the
            // 64 bytes read.
            unsafe { V(_mm512_loadu_si512(bytes.as_ptr().cast())) }
        }
        /// The vector of `bytes` (at most 64) in its first lanes and
        /// `fill`'s in the others: one masked load, which reads the lanes
        /// of `bytes` only.
        ///
        /// # Safety
        /// The CPU must support AVX-512 F and BW.
        #[inline(always)]
        pub(crate) unsafe fn load_partial(bytes: &[u8], fill: V) -> V {
            assert!(bytes.len() <= 64, "a partial vector is at most a vector");
            // The first `bytes.len()` lanes (none for an empty slice).
            let mask = u64::MAX.checked_shr(64 - bytes.len() as u32).unwrap_or(0);
            // SAFETY: the caller promises the feature; the mask selects the
            // first `bytes.len()` lanes, which lie inside `bytes`, and a
            // masked-off lane is neither read nor able to fault (AVX-512's
            // fault suppression), so no byte outside `bytes` is touched.
            unsafe { V(_mm512_mask_loadu_epi8(fill.0, mask, bytes.as_ptr().cast())) }
        }
        /// # Safety
        /// The CPU must support AVX-512 F and BW.
        #[inline(always)]
        pub(crate) unsafe fn splat(byte: u8) -> V {
            // SAFETY: the caller promises the feature.
            unsafe { V(_mm512_set1_epi8(byte as i8)) }
        }
        /// A 16-entry table in all four 128-bit lanes, as `vpshufb` indexes per lane.
        ///
        /// # Safety
        /// The CPU must support AVX-512 F and BW.
        #[inline(always)]
        pub(crate) unsafe fn table(entries: &[u8; 16]) -> V {
            // SAFETY: the caller promises the feature; `entries` is valid for
            // the 16 bytes read.
            unsafe {
                V(_mm512_broadcast_i32x4(_mm_loadu_si128(
                    entries.as_ptr().cast(),
                )))
            }
        }

        /// The bytes `n` (1..=5) positions back: `before`'s last `n` then
        /// `self`'s first `64 - n`.
        #[inline(always)]
        pub(crate) fn prev(self, before: V, n: usize) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe {
                // Each 128-bit lane of `straddle` is the lane before the same
                // lane of `self` (`before`'s last for the first): the pairing
                // that the per-lane `alignr` needs to shift across lanes.
                let straddle = _mm512_alignr_epi64(self.0, before.0, 6);
                V(match n {
                    1 => _mm512_alignr_epi8(self.0, straddle, 15),
                    2 => _mm512_alignr_epi8(self.0, straddle, 14),
                    3 => _mm512_alignr_epi8(self.0, straddle, 13),
                    4 => _mm512_alignr_epi8(self.0, straddle, 12),
                    _ => _mm512_alignr_epi8(self.0, straddle, 11),
                })
            }
        }
        #[inline(always)]
        pub(crate) fn or(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { V(_mm512_or_si512(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn and(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { V(_mm512_and_si512(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn xor(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { V(_mm512_xor_si512(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn high_nibbles(self) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe {
                V(_mm512_and_si512(
                    _mm512_srli_epi16(self.0, 4),
                    _mm512_set1_epi8(0x0F),
                ))
            }
        }
        #[inline(always)]
        pub(crate) fn low_nibbles(self) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { V(_mm512_and_si512(self.0, _mm512_set1_epi8(0x0F))) }
        }
        /// `self[index[i]]` for each lane; indices are nibbles.
        #[inline(always)]
        pub(crate) fn lookup(self, index: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { V(_mm512_shuffle_epi8(self.0, index.0)) }
        }
        #[inline(always)]
        pub(crate) fn saturating_sub(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { V(_mm512_subs_epu8(self.0, other.0)) }
        }
        /// Lane-wise wrapping addition: `x.add(x)` doubles each lane, moving
        /// every bit one place up without crossing lanes.
        #[inline(always)]
        pub(crate) fn add(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { V(_mm512_add_epi8(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn is_ascii(self) -> bool {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { _mm512_movepi8_mask(self.0) == 0 }
        }
        /// The smaller of each pair of lanes, read as signed bytes.
        #[inline(always)]
        pub(crate) fn min_signed(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { V(_mm512_min_epi8(self.0, other.0)) }
        }
        /// Whether every lane, read as a signed byte, is at least `floor`
        /// (0..=127): every byte lies in `floor..=0x7F`.
        #[inline(always)]
        pub(crate) fn all_in_ascii_from(self, floor: u8) -> bool {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { _mm512_cmplt_epi8_mask(self.0, _mm512_set1_epi8(floor as i8)) == 0 }
        }
        #[inline(always)]
        pub(crate) fn any(self) -> bool {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { _mm512_test_epi8_mask(self.0, self.0) != 0 }
        }
        /// The index of the first lane that is not zero; `LANES` if none.
        #[inline(always)]
        pub(crate) fn first_nonzero(self) -> usize {
            // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
            unsafe { _mm512_test_epi8_mask(self.0, self.0).trailing_zeros() as usize }
        }
    }

    crate::simd::algorithm!("avx512f,avx512bw", masked);
}

pub(crate) mod avx2 {
    use super::*;

    #[derive(Clone, Copy)]
    pub(crate) struct V(__m256i);

    impl V {
        pub(crate) const LANES: usize = 32;
        /// The bytes before each vector loaded where they lie, though one
        /// vector in two then straddles a cache line: shifting them out
        /// of the vector before takes four shuffles (`vperm2i128` and a
        /// `vpalignr` each) of the check's twenty or so operations, on the
        /// two pipes of Zen 3 that also run the lookups and shifts. On this
        /// VM's Zen 3 the loads took the non-ASCII Lipsum texts from 15.2
        /// to 18.5 GB/s, and the corpus from 0.99x to 1.12-1.21x
        /// simdutf8's AVX2 code (geometric mean, same binary).
        pub(crate) const PRIOR_BY_LOADS: bool = true;

        /// How many blocks ahead the ASCII skip asks for the cache line
        /// (none for 0): the hardware's own prefetch left the loop, two
        /// loads and an OR a block, waiting on the L2 cache. On this
        /// project's Zen 4 VM, against the read-only pass: `Latin-Lipsum`
        /// (held in L2) 0.85 -> 0.97, 1 MiB of ASCII 1.03 -> 1.06 (6
        /// blocks ahead and 16 no better); the other files of the corpus
        /// within 1%, the geometric mean over it the same.
        pub(crate) const PREFETCH_BLOCKS_AHEAD: usize = 4;

        /// One block a turn of the ASCII run's loop, with its prefetch: two
        /// (each tested on its own) ran the corpus the same within 1% on
        /// this project's Zen 4 VM (two interleaved runs, same binary).
        pub(crate) const RUN_TWO_BLOCKS_A_TURN: bool = false;

        /// # Safety
        /// The CPU must support AVX2.
        #[inline(always)]
        pub(crate) unsafe fn load(bytes: &[u8; 32]) -> V {
            // SAFETY: the caller promises the feature; `bytes` is valid for the
            // 32 bytes read.
            unsafe { V(_mm256_loadu_si256(bytes.as_ptr().cast())) }
        }
        /// # Safety
        /// The CPU must support AVX2.
        #[inline(always)]
        pub(crate) unsafe fn splat(byte: u8) -> V {
            // SAFETY: the caller promises the feature.
            unsafe { V(_mm256_set1_epi8(byte as i8)) }
        }
        /// A 16-entry table in both 128-bit lanes, as `vpshufb` indexes per lane.
        ///
        /// # Safety
        /// The CPU must support AVX2.
        #[inline(always)]
        pub(crate) unsafe fn table(entries: &[u8; 16]) -> V {
            // SAFETY: the caller promises the feature; `entries` is valid for
            // the 16 bytes read.
            unsafe {
                V(_mm256_broadcastsi128_si256(_mm_loadu_si128(
                    entries.as_ptr().cast(),
                )))
            }
        }

        /// The bytes `n` (1..=5) positions back: `before`'s last `n` then
        /// `self`'s first `32 - n`.
        #[inline(always)]
        pub(crate) fn prev(self, before: V, n: usize) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe {
                // The last 16 bytes of `before` then the first 16 of `self`: the lane
                // pairing that `alignr` needs to shift across the 128-bit boundary.
                let straddle = _mm256_permute2x128_si256(before.0, self.0, 0x21);
                V(match n {
                    1 => _mm256_alignr_epi8(self.0, straddle, 15),
                    2 => _mm256_alignr_epi8(self.0, straddle, 14),
                    3 => _mm256_alignr_epi8(self.0, straddle, 13),
                    4 => _mm256_alignr_epi8(self.0, straddle, 12),
                    _ => _mm256_alignr_epi8(self.0, straddle, 11),
                })
            }
        }
        #[inline(always)]
        pub(crate) fn or(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe { V(_mm256_or_si256(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn and(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe { V(_mm256_and_si256(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn xor(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe { V(_mm256_xor_si256(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn high_nibbles(self) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe {
                V(_mm256_and_si256(
                    _mm256_srli_epi16(self.0, 4),
                    _mm256_set1_epi8(0x0F),
                ))
            }
        }
        #[inline(always)]
        pub(crate) fn low_nibbles(self) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe { V(_mm256_and_si256(self.0, _mm256_set1_epi8(0x0F))) }
        }
        /// `self[index[i]]` for each lane; indices are nibbles.
        #[inline(always)]
        pub(crate) fn lookup(self, index: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe { V(_mm256_shuffle_epi8(self.0, index.0)) }
        }
        #[inline(always)]
        pub(crate) fn saturating_sub(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe { V(_mm256_subs_epu8(self.0, other.0)) }
        }
        /// Lane-wise wrapping addition: `x.add(x)` doubles each lane, moving
        /// every bit one place up without crossing lanes.
        #[inline(always)]
        pub(crate) fn add(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe { V(_mm256_add_epi8(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn is_ascii(self) -> bool {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe { _mm256_movemask_epi8(self.0) == 0 }
        }
        /// The smaller of each pair of lanes, read as signed bytes.
        #[inline(always)]
        pub(crate) fn min_signed(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe { V(_mm256_min_epi8(self.0, other.0)) }
        }
        /// Whether every lane, read as a signed byte, is at least `floor`
        /// (0..=127): every byte lies in `floor..=0x7F`.
        #[inline(always)]
        pub(crate) fn all_in_ascii_from(self, floor: u8) -> bool {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe {
                // `floor - 1 < byte`, signed; `floor - 1` is -1 for floor 0.
                let below = _mm256_cmpgt_epi8(_mm256_set1_epi8(floor as i8), self.0);
                _mm256_movemask_epi8(below) == 0
            }
        }
        #[inline(always)]
        pub(crate) fn any(self) -> bool {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            unsafe { _mm256_testz_si256(self.0, self.0) == 0 }
        }
        /// The index of the first lane that is not zero; `LANES` if none.
        #[inline(always)]
        pub(crate) fn first_nonzero(self) -> usize {
            // SAFETY: a `V` exists only where the CPU has AVX2.
            let zero_lanes =
                unsafe { _mm256_movemask_epi8(_mm256_cmpeq_epi8(self.0, _mm256_setzero_si256())) };
            (!(zero_lanes as u32)).trailing_zeros() as usize
        }
    }

    crate::simd::algorithm!("avx2", narrower: super::sse41);
}

pub(crate) mod sse41 {
    use super::*;

    #[derive(Clone, Copy)]
    pub(crate) struct V(__m128i);

    impl V {
        pub(crate) const LANES: usize = 16;
        /// The bytes before each vector loaded where they lie: on this
        /// VM's Zen 3, 1.19x simdutf8's SSE4.2 code over the corpus
        /// (geometric mean, same binary), against 1.01x with them shifted
        /// out by `palignr`.
        pub(crate) const PRIOR_BY_LOADS: bool = true;

        /// How many blocks ahead the ASCII skip asks for the cache line
        /// (none for 0). None here: on this project's Zen 4 VM, 4 blocks
        /// ahead left `Latin-Lipsum` at 0.87 the read-only pass, took 1 MiB
        /// of ASCII from 0.92 to 0.94, and ran the corpus 1-1.5% slower
        /// (two interleaved runs).
        pub(crate) const PREFETCH_BLOCKS_AHEAD: usize = 0;

        /// Two blocks a turn of the ASCII run's loop, each tested on its
        /// own (the run still ends at the first block that is not all
        /// ASCII): half the loop's counting and end tests, a fifth of its
        /// instructions. On this project's Zen 4 VM (two interleaved runs,
        /// same binary): 1 MiB of ASCII 74.7 -> 86.3 GB/s, `english` 51.8 ->
        /// 58.0, `Latin-Lipsum` 101.6 -> 104.3, the other files of the
        /// corpus 0-1% faster. (Two blocks in one test ran the texts whose
        /// runs end within a block or two, `french` and `german`, 3-4%
        /// slower.)
        pub(crate) const RUN_TWO_BLOCKS_A_TURN: bool = true;

        /// # Safety
        /// The CPU must support SSE4.1.
        #[inline(always)]
        pub(crate) unsafe fn load(bytes: &[u8; 16]) -> V {
            // SAFETY: the caller promises the feature; `bytes` is valid for the
            // 16 bytes read.
            unsafe { V(_mm_loadu_si128(bytes.as_ptr().cast())) }
        }
        /// # Safety
        /// The CPU must support SSE4.1.
        #[inline(always)]
        pub(crate) unsafe fn splat(byte: u8) -> V {
            // SAFETY: the caller promises the feature.
            unsafe { V(_mm_set1_epi8(byte as i8)) }
        }
        /// The vector whose lanes are `low`'s bytes then `high`'s, least
        /// significant first: built in registers, not through memory.
        ///
        /// # Safety
        /// The CPU must support SSE4.1.
        #[inline(always)]
        pub(crate) unsafe fn from_halves(low: u64, high: u64) -> V {
            // SAFETY: the caller promises the feature (SSE2 suffices).
            unsafe { V(_mm_set_epi64x(high as i64, low as i64)) }
        }
        /// # Safety
        /// The CPU must support SSE4.1.
        #[inline(always)]
        pub(crate) unsafe fn table(entries: &[u8; 16]) -> V {
            // SAFETY: the caller promises the feature; `entries` is valid for
            // the 16 bytes read.
            unsafe { Self::load(entries) }
        }

        /// The bytes `n` (1..=5) positions back: `before`'s last `n` then
        /// `self`'s first `16 - n`.
        #[inline(always)]
        pub(crate) fn prev(self, before: V, n: usize) -> V {
            // SAFETY: a `V` exists only where the CPU has SSE4.1 (and so SSSE3).
            unsafe {
                V(match n {
                    1 => _mm_alignr_epi8(self.0, before.0, 15),
                    2 => _mm_alignr_epi8(self.0, before.0, 14),
                    3 => _mm_alignr_epi8(self.0, before.0, 13),
                    4 => _mm_alignr_epi8(self.0, before.0, 12),
                    _ => _mm_alignr_epi8(self.0, before.0, 11),
                })
            }
        }
        #[inline(always)]
        pub(crate) fn or(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            unsafe { V(_mm_or_si128(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn and(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            unsafe { V(_mm_and_si128(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn xor(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            unsafe { V(_mm_xor_si128(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn high_nibbles(self) -> V {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            unsafe {
                V(_mm_and_si128(
                    _mm_srli_epi16(self.0, 4),
                    _mm_set1_epi8(0x0F),
                ))
            }
        }
        #[inline(always)]
        pub(crate) fn low_nibbles(self) -> V {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            unsafe { V(_mm_and_si128(self.0, _mm_set1_epi8(0x0F))) }
        }
        /// `self[index[i]]` for each lane; indices are nibbles.
        #[inline(always)]
        pub(crate) fn lookup(self, index: V) -> V {
            // SAFETY: a `V` exists only where the CPU has SSE4.1 (and so SSSE3).
            unsafe { V(_mm_shuffle_epi8(self.0, index.0)) }
        }
        #[inline(always)]
        pub(crate) fn saturating_sub(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            unsafe { V(_mm_subs_epu8(self.0, other.0)) }
        }
        /// Lane-wise wrapping addition: `x.add(x)` doubles each lane, moving
        /// every bit one place up without crossing lanes.
        #[inline(always)]
        pub(crate) fn add(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            unsafe { V(_mm_add_epi8(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) fn is_ascii(self) -> bool {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            unsafe { _mm_movemask_epi8(self.0) == 0 }
        }
        /// The smaller of each pair of lanes, read as signed bytes.
        #[inline(always)]
        pub(crate) fn min_signed(self, other: V) -> V {
            // SAFETY: a `V` exists only where the CPU has SSE4.1 (`pminsb`).
            unsafe { V(_mm_min_epi8(self.0, other.0)) }
        }
        /// Whether every lane, read as a signed byte, is at least `floor`
        /// (0..=127): every byte lies in `floor..=0x7F`.
        #[inline(always)]
        pub(crate) fn all_in_ascii_from(self, floor: u8) -> bool {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            unsafe {
                let below = _mm_cmpgt_epi8(_mm_set1_epi8(floor as i8), self.0);
                _mm_movemask_epi8(below) == 0
            }
        }
        #[inline(always)]
        pub(crate) fn any(self) -> bool {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            unsafe { _mm_testz_si128(self.0, self.0) == 0 }
        }
        /// The index of the first lane that is not zero; `LANES` if none.
        #[inline(always)]
        pub(crate) fn first_nonzero(self) -> usize {
            // SAFETY: a `V` exists only where the CPU has SSE4.1.
            let zero_lanes =
                unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, _mm_setzero_si128())) };
            // Bit 16 stands for "none": the mask has 16 lanes.
            (!(zero_lanes as u32) | 1 << 16).trailing_zeros() as usize
        }
    }

    crate::simd::algorithm!("sse4.1");
}
