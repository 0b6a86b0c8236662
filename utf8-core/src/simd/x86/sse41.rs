//! The SSE4.1 level: 16-byte vectors, four a block; an input shorter than a vector is one
//! vector built in registers.

use super::*;

#[derive(Clone, Copy)]
pub(crate) struct V(__m128i);

impl V {
    /// How many blocks ahead the ASCII skip asks for the cache line
    /// (none for 0). None here: on an AMD EPYC Zen 4 (family 25, model 17), 4 blocks
    /// ahead left `Latin-Lipsum` at 0.87 the read-only pass, took 1 MiB
    /// of ASCII from 0.92 to 0.94, and ran the corpus 1-1.5% slower
    /// (two interleaved runs).
    pub(crate) const PREFETCH_BLOCKS_AHEAD: usize = 0;

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
}

impl Vector for V {
    const LANES: usize = 16;
    type Bytes = [u8; 16];
    /// The bytes before each vector loaded where they lie: on a
    /// Zen 3, 1.19x simdutf8's SSE4.2 code over the corpus
    /// (geometric mean, same binary), against 1.01x with them shifted
    /// out by `palignr`.
    const PRIOR_BY_LOADS: bool = true;
    /// Two blocks a turn of the ASCII run's loop, each tested on its
    /// own (the run still ends at the first block that is not all
    /// ASCII): half the loop's counting and end tests, a fifth of its
    /// instructions. On an AMD EPYC Zen 4 (family 25, model 17) (two interleaved runs,
    /// same binary): 1 MiB of ASCII 74.7 -> 86.3 GB/s, `english` 51.8 ->
    /// 58.0, `Latin-Lipsum` 101.6 -> 104.3, the other files of the
    /// corpus 0-1% faster. (Two blocks in one test ran the texts whose
    /// runs end within a block or two, `french` and `german`, 3-4%
    /// slower.)
    const RUN_TWO_BLOCKS_A_TURN: bool = true;

    #[inline(always)]
    unsafe fn load(bytes: &[u8; 16]) -> V {
        // SAFETY: the caller promises the feature; `bytes` is valid for the
        // 16 bytes read.
        unsafe { V(_mm_loadu_si128(bytes.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn splat(byte: u8) -> V {
        // SAFETY: the caller promises the feature.
        unsafe { V(_mm_set1_epi8(byte as i8)) }
    }
    #[inline(always)]
    unsafe fn table(entries: &[u8; 16]) -> V {
        // SAFETY: the caller promises the feature; `entries` is valid for
        // the 16 bytes read.
        unsafe { Self::load(entries) }
    }
    #[inline(always)]
    fn prev(self, before: V, n: usize) -> V {
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
    fn or(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        unsafe { V(_mm_or_si128(self.0, other.0)) }
    }
    #[inline(always)]
    fn and(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        unsafe { V(_mm_and_si128(self.0, other.0)) }
    }
    #[inline(always)]
    fn xor(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        unsafe { V(_mm_xor_si128(self.0, other.0)) }
    }
    #[inline(always)]
    fn high_nibbles(self) -> V {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        unsafe {
            V(_mm_and_si128(
                _mm_srli_epi16(self.0, 4),
                _mm_set1_epi8(0x0F),
            ))
        }
    }
    #[inline(always)]
    fn low_nibbles(self) -> V {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        unsafe { V(_mm_and_si128(self.0, _mm_set1_epi8(0x0F))) }
    }
    #[inline(always)]
    fn lookup(self, index: V) -> V {
        // SAFETY: a `V` exists only where the CPU has SSE4.1 (and so SSSE3).
        unsafe { V(_mm_shuffle_epi8(self.0, index.0)) }
    }
    #[inline(always)]
    fn saturating_sub(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        unsafe { V(_mm_subs_epu8(self.0, other.0)) }
    }
    #[inline(always)]
    fn add(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        unsafe { V(_mm_add_epi8(self.0, other.0)) }
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        unsafe { _mm_movemask_epi8(self.0) == 0 }
    }
    #[inline(always)]
    fn min_signed(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has SSE4.1 (`pminsb`).
        unsafe { V(_mm_min_epi8(self.0, other.0)) }
    }
    #[inline(always)]
    fn all_in_ascii_from(self, floor: u8) -> bool {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        unsafe {
            let below = _mm_cmpgt_epi8(_mm_set1_epi8(floor as i8), self.0);
            _mm_movemask_epi8(below) == 0
        }
    }
    #[inline(always)]
    fn any(self) -> bool {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        unsafe { _mm_testz_si128(self.0, self.0) == 0 }
    }
    #[inline(always)]
    fn first_nonzero(self) -> usize {
        // SAFETY: a `V` exists only where the CPU has SSE4.1.
        let zero_lanes = unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, _mm_setzero_si128())) };
        // Bit 16 stands for "none": the mask has 16 lanes.
        (!(zero_lanes as u32) | 1 << 16).trailing_zeros() as usize
    }
}

crate::simd::algorithm!("sse4.1");
