//! The AVX2 level: 32-byte vectors, two a block; inputs shorter than a vector go to SSE4.1.

use super::*;

#[derive(Clone, Copy)]
pub(crate) struct V(__m256i);

impl V {
    /// How many blocks ahead the ASCII skip asks for the cache line
    /// (none for 0): the hardware's own prefetch left the loop, two
    /// loads and an OR a block, waiting on the L2 cache. On an
    /// AMD EPYC Zen 4 (family 25, model 17), against the read-only pass: `Latin-Lipsum`
    /// (held in L2) 0.85 -> 0.97, 1 MiB of ASCII 1.03 -> 1.06 (6
    /// blocks ahead and 16 no better); the other files of the corpus
    /// within 1%, the geometric mean over it the same.
    pub(crate) const PREFETCH_BLOCKS_AHEAD: usize = 4;
}

impl Vector for V {
    const LANES: usize = 32;
    type Bytes = [u8; 32];
    /// The bytes before each vector loaded where they lie, though one
    /// vector in two then straddles a cache line: shifting them out
    /// of the vector before takes four shuffles (`vperm2i128` and a
    /// `vpalignr` each) of the check's twenty or so operations, on the
    /// two pipes of Zen 3 that also run the lookups and shifts. On a
    /// Zen 3 the loads took the non-ASCII Lipsum texts from 15.2
    /// to 18.5 GB/s, and the corpus from 0.99x to 1.12-1.21x
    /// simdutf8's AVX2 code (geometric mean, same binary).
    const PRIOR_BY_LOADS: bool = true;
    /// One block a turn of the ASCII run's loop, with its prefetch: two
    /// (each tested on its own) ran the corpus the same within 1% on
    /// an AMD EPYC Zen 4 (family 25, model 17) (two interleaved runs, same binary).
    const RUN_TWO_BLOCKS_A_TURN: bool = false;

    #[inline(always)]
    unsafe fn load(bytes: &[u8; 32]) -> V {
        // SAFETY: the caller promises the feature; `bytes` is valid for the
        // 32 bytes read.
        unsafe { V(_mm256_loadu_si256(bytes.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn splat(byte: u8) -> V {
        // SAFETY: the caller promises the feature.
        unsafe { V(_mm256_set1_epi8(byte as i8)) }
    }
    #[inline(always)]
    unsafe fn table(entries: &[u8; 16]) -> V {
        // SAFETY: the caller promises the feature; `entries` is valid for
        // the 16 bytes read.
        unsafe {
            V(_mm256_broadcastsi128_si256(_mm_loadu_si128(
                entries.as_ptr().cast(),
            )))
        }
    }
    #[inline(always)]
    fn prev(self, before: V, n: usize) -> V {
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
    fn or(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe { V(_mm256_or_si256(self.0, other.0)) }
    }
    #[inline(always)]
    fn and(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe { V(_mm256_and_si256(self.0, other.0)) }
    }
    #[inline(always)]
    fn xor(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe { V(_mm256_xor_si256(self.0, other.0)) }
    }
    #[inline(always)]
    fn high_nibbles(self) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe {
            V(_mm256_and_si256(
                _mm256_srli_epi16(self.0, 4),
                _mm256_set1_epi8(0x0F),
            ))
        }
    }
    #[inline(always)]
    fn low_nibbles(self) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe { V(_mm256_and_si256(self.0, _mm256_set1_epi8(0x0F))) }
    }
    #[inline(always)]
    fn lookup(self, index: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe { V(_mm256_shuffle_epi8(self.0, index.0)) }
    }
    #[inline(always)]
    fn saturating_sub(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe { V(_mm256_subs_epu8(self.0, other.0)) }
    }
    #[inline(always)]
    fn add(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe { V(_mm256_add_epi8(self.0, other.0)) }
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe { _mm256_movemask_epi8(self.0) == 0 }
    }
    #[inline(always)]
    fn min_signed(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe { V(_mm256_min_epi8(self.0, other.0)) }
    }
    #[inline(always)]
    fn all_in_ascii_from(self, floor: u8) -> bool {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe {
            // `floor - 1 < byte`, signed; `floor - 1` is -1 for floor 0.
            let below = _mm256_cmpgt_epi8(_mm256_set1_epi8(floor as i8), self.0);
            _mm256_movemask_epi8(below) == 0
        }
    }
    #[inline(always)]
    fn any(self) -> bool {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        unsafe { _mm256_testz_si256(self.0, self.0) == 0 }
    }
    #[inline(always)]
    fn first_nonzero(self) -> usize {
        // SAFETY: a `V` exists only where the CPU has AVX2.
        let zero_lanes =
            unsafe { _mm256_movemask_epi8(_mm256_cmpeq_epi8(self.0, _mm256_setzero_si256())) };
        (!(zero_lanes as u32)).trailing_zeros() as usize
    }
}

crate::simd::algorithm!("avx2", narrower: super::sse41);
