//! The AVX-512 level (F and BW): 64-byte vectors, one a block, with masked loads for the
//! short inputs.

use super::*;

/// One 64-byte vector: a whole block.
#[derive(Clone, Copy)]
pub(crate) struct V(__m512i);

impl V {
    /// How many blocks ahead the ASCII skip asks for the cache line
    /// (none for 0): the hardware's own prefetch left the loop, one
    /// 64-byte compare a block, waiting on the L2 cache. On an
    /// AMD EPYC Zen 4 (family 25, model 17), against the read-only pass: `Latin-Lipsum`
    /// (held in L2) 0.83 -> 0.95, 1 MiB of ASCII 0.92 -> 0.98 (4 blocks
    /// ahead gave 0.85 and 0.96); the other files of the corpus the
    /// same within the noise.
    pub(crate) const PREFETCH_BLOCKS_AHEAD: usize = 16;

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
}

impl Vector for V {
    const LANES: usize = 64;
    type Bytes = [u8; 64];
    /// The bytes before each vector loaded where they lie (three
    /// loads, each straddling two cache lines at this width) rather
    /// than shifted out (`valignq` and three `vpalignr`, on the one
    /// shuffle port of Intel's cores, which the three lookups already
    /// load). On an AMD EPYC Zen 4 (family 25, model 17) (AVX-512 executed as two
    /// 256-bit halves), same build, the corpus at this level: 32.1
    /// GB/s on geometric mean with loads, 22.7-25.5 with shifts.
    const PRIOR_BY_LOADS: bool = true;
    /// One block a turn of the ASCII run's loop, with its prefetch: two
    /// (each tested on its own, without the prefetch) ran `Latin-Lipsum`
    /// 113 -> 101 GB/s, `english` and 1 MiB of ASCII 7-8% slower on
    /// an AMD EPYC Zen 4 (family 25, model 17).
    const RUN_TWO_BLOCKS_A_TURN: bool = false;

    #[inline(always)]
    unsafe fn load(bytes: &[u8; 64]) -> V {
        // SAFETY: the caller promises the feature; `bytes` is valid for the
        // 64 bytes read.
        unsafe { V(_mm512_loadu_si512(bytes.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn splat(byte: u8) -> V {
        // SAFETY: the caller promises the feature.
        unsafe { V(_mm512_set1_epi8(byte as i8)) }
    }
    #[inline(always)]
    unsafe fn table(entries: &[u8; 16]) -> V {
        // SAFETY: the caller promises the feature; `entries` is valid for
        // the 16 bytes read.
        unsafe {
            V(_mm512_broadcast_i32x4(_mm_loadu_si128(
                entries.as_ptr().cast(),
            )))
        }
    }
    #[inline(always)]
    fn prev(self, before: V, n: usize) -> V {
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
    fn or(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { V(_mm512_or_si512(self.0, other.0)) }
    }
    #[inline(always)]
    fn and(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { V(_mm512_and_si512(self.0, other.0)) }
    }
    #[inline(always)]
    fn xor(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { V(_mm512_xor_si512(self.0, other.0)) }
    }
    #[inline(always)]
    fn high_nibbles(self) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe {
            V(_mm512_and_si512(
                _mm512_srli_epi16(self.0, 4),
                _mm512_set1_epi8(0x0F),
            ))
        }
    }
    #[inline(always)]
    fn low_nibbles(self) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { V(_mm512_and_si512(self.0, _mm512_set1_epi8(0x0F))) }
    }
    #[inline(always)]
    fn lookup(self, index: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { V(_mm512_shuffle_epi8(self.0, index.0)) }
    }
    #[inline(always)]
    fn saturating_sub(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { V(_mm512_subs_epu8(self.0, other.0)) }
    }
    #[inline(always)]
    fn add(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { V(_mm512_add_epi8(self.0, other.0)) }
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { _mm512_movepi8_mask(self.0) == 0 }
    }
    #[inline(always)]
    fn min_signed(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { V(_mm512_min_epi8(self.0, other.0)) }
    }
    #[inline(always)]
    fn all_in_ascii_from(self, floor: u8) -> bool {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { _mm512_cmplt_epi8_mask(self.0, _mm512_set1_epi8(floor as i8)) == 0 }
    }
    #[inline(always)]
    fn any(self) -> bool {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { _mm512_test_epi8_mask(self.0, self.0) != 0 }
    }
    #[inline(always)]
    fn first_nonzero(self) -> usize {
        // SAFETY: a `V` exists only where the CPU has AVX-512 F and BW.
        unsafe { _mm512_test_epi8_mask(self.0, self.0).trailing_zeros() as usize }
    }
}

crate::simd::algorithm!("avx512f,avx512bw", masked);
