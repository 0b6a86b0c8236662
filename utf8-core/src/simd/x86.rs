//! The vector types for x86: AVX2 (32 bytes) and SSE4.1 (16 bytes).
//!
//! Every method is `#[inline(always)]` and `unsafe`: each is only called from
//! a function compiled with the matching target feature, into which it is
//! inlined.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

pub(crate) mod avx2 {
    use super::*;

    #[derive(Clone, Copy)]
    pub(crate) struct V(__m256i);

    // SAFETY (for every method): callers run with AVX2 enabled; loads read
    // exactly 32 bytes from a pointer the caller guarantees valid for them.
    impl V {
        pub(crate) const LANES: usize = 32;
        /// Shuffling the previous vector measured faster here than overlapping
        /// loads, half of which straddle cache lines at this width.
        pub(crate) const SHUFFLE_PREV: bool = true;

        /// The bytes `n` (1..=5) positions back: `before`'s last `n` then
        /// `self`'s first `32 - n`.
        #[inline(always)]
        pub(crate) unsafe fn prev(self, before: V, n: usize) -> V {
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
        pub(crate) unsafe fn load(ptr: *const u8) -> V {
            unsafe { V(_mm256_loadu_si256(ptr.cast())) }
        }
        #[inline(always)]
        pub(crate) unsafe fn splat(byte: u8) -> V {
            unsafe { V(_mm256_set1_epi8(byte as i8)) }
        }
        /// A 16-entry table in both 128-bit lanes, as `vpshufb` indexes per lane.
        #[inline(always)]
        pub(crate) unsafe fn table(entries: &[u8; 16]) -> V {
            unsafe {
                V(_mm256_broadcastsi128_si256(_mm_loadu_si128(
                    entries.as_ptr().cast(),
                )))
            }
        }
        #[inline(always)]
        pub(crate) unsafe fn or(self, other: V) -> V {
            unsafe { V(_mm256_or_si256(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn and(self, other: V) -> V {
            unsafe { V(_mm256_and_si256(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn xor(self, other: V) -> V {
            unsafe { V(_mm256_xor_si256(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn high_nibbles(self) -> V {
            unsafe {
                V(_mm256_and_si256(
                    _mm256_srli_epi16(self.0, 4),
                    _mm256_set1_epi8(0x0F),
                ))
            }
        }
        #[inline(always)]
        pub(crate) unsafe fn low_nibbles(self) -> V {
            unsafe { V(_mm256_and_si256(self.0, _mm256_set1_epi8(0x0F))) }
        }
        /// `self[index[i]]` for each lane; indices are nibbles.
        #[inline(always)]
        pub(crate) unsafe fn lookup(self, index: V) -> V {
            unsafe { V(_mm256_shuffle_epi8(self.0, index.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn saturating_sub(self, other: V) -> V {
            unsafe { V(_mm256_subs_epu8(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn is_ascii(self) -> bool {
            unsafe { _mm256_movemask_epi8(self.0) == 0 }
        }
        #[inline(always)]
        pub(crate) unsafe fn any(self) -> bool {
            unsafe { _mm256_testz_si256(self.0, self.0) == 0 }
        }
    }

    crate::simd::algorithm!("avx2");
}

pub(crate) mod sse41 {
    use super::*;

    #[derive(Clone, Copy)]
    pub(crate) struct V(__m128i);

    // SAFETY (for every method): callers run with SSE4.1 (and so SSSE3)
    // enabled; loads read exactly 16 bytes from a pointer the caller
    // guarantees valid for them.
    impl V {
        pub(crate) const LANES: usize = 16;
        /// `palignr` is one cheap instruction; loads would straddle cache lines.
        pub(crate) const SHUFFLE_PREV: bool = true;

        /// The bytes `n` (1..=5) positions back.
        #[inline(always)]
        pub(crate) unsafe fn prev(self, before: V, n: usize) -> V {
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
        pub(crate) unsafe fn load(ptr: *const u8) -> V {
            unsafe { V(_mm_loadu_si128(ptr.cast())) }
        }
        #[inline(always)]
        pub(crate) unsafe fn splat(byte: u8) -> V {
            unsafe { V(_mm_set1_epi8(byte as i8)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn table(entries: &[u8; 16]) -> V {
            unsafe { V(_mm_loadu_si128(entries.as_ptr().cast())) }
        }
        #[inline(always)]
        pub(crate) unsafe fn or(self, other: V) -> V {
            unsafe { V(_mm_or_si128(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn and(self, other: V) -> V {
            unsafe { V(_mm_and_si128(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn xor(self, other: V) -> V {
            unsafe { V(_mm_xor_si128(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn high_nibbles(self) -> V {
            unsafe {
                V(_mm_and_si128(
                    _mm_srli_epi16(self.0, 4),
                    _mm_set1_epi8(0x0F),
                ))
            }
        }
        #[inline(always)]
        pub(crate) unsafe fn low_nibbles(self) -> V {
            unsafe { V(_mm_and_si128(self.0, _mm_set1_epi8(0x0F))) }
        }
        #[inline(always)]
        pub(crate) unsafe fn lookup(self, index: V) -> V {
            unsafe { V(_mm_shuffle_epi8(self.0, index.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn saturating_sub(self, other: V) -> V {
            unsafe { V(_mm_subs_epu8(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn is_ascii(self) -> bool {
            unsafe { _mm_movemask_epi8(self.0) == 0 }
        }
        #[inline(always)]
        pub(crate) unsafe fn any(self) -> bool {
            unsafe { _mm_testz_si128(self.0, self.0) == 0 }
        }
    }

    crate::simd::algorithm!("sse4.1");
}

pub(crate) mod bmi2 {
    use crate::Utf8Error;
    use crate::ruleset::Ruleset;

    /// The shift DFA compiled with BMI2 (`shrx`).
    ///
    /// # Safety
    /// The CPU must support BMI2.
    #[target_feature(enable = "bmi2")]
    pub(crate) unsafe fn shift_validate<R: Ruleset>(bytes: &[u8]) -> Result<(), Utf8Error> {
        crate::shift::validate_inline::<R>(bytes)
    }
}

pub(crate) mod avx512 {
    use super::*;

    /// One 64-byte vector: a whole block.
    #[derive(Clone, Copy)]
    pub(crate) struct V(__m512i);

    // SAFETY (for every method): callers run with AVX-512F and AVX-512BW
    // enabled; loads read exactly 64 bytes from a pointer the caller
    // guarantees valid for them.
    impl V {
        pub(crate) const LANES: usize = 64;
        /// Shifting bytes across 128-bit lanes takes several shuffles at this
        /// width; overlapping loads go to the load ports instead.
        pub(crate) const SHUFFLE_PREV: bool = false;

        #[inline(always)]
        pub(crate) unsafe fn prev(self, _before: V, _n: usize) -> V {
            unreachable!("AVX-512 reads previous bytes with loads")
        }

        #[inline(always)]
        pub(crate) unsafe fn load(ptr: *const u8) -> V {
            unsafe { V(_mm512_loadu_si512(ptr.cast())) }
        }
        #[inline(always)]
        pub(crate) unsafe fn splat(byte: u8) -> V {
            unsafe { V(_mm512_set1_epi8(byte as i8)) }
        }
        /// A 16-entry table in all four 128-bit lanes, as `vpshufb` indexes per lane.
        #[inline(always)]
        pub(crate) unsafe fn table(entries: &[u8; 16]) -> V {
            unsafe {
                V(_mm512_broadcast_i32x4(_mm_loadu_si128(
                    entries.as_ptr().cast(),
                )))
            }
        }
        #[inline(always)]
        pub(crate) unsafe fn or(self, other: V) -> V {
            unsafe { V(_mm512_or_si512(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn and(self, other: V) -> V {
            unsafe { V(_mm512_and_si512(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn xor(self, other: V) -> V {
            unsafe { V(_mm512_xor_si512(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn high_nibbles(self) -> V {
            unsafe {
                V(_mm512_and_si512(
                    _mm512_srli_epi16(self.0, 4),
                    _mm512_set1_epi8(0x0F),
                ))
            }
        }
        #[inline(always)]
        pub(crate) unsafe fn low_nibbles(self) -> V {
            unsafe { V(_mm512_and_si512(self.0, _mm512_set1_epi8(0x0F))) }
        }
        #[inline(always)]
        pub(crate) unsafe fn lookup(self, index: V) -> V {
            unsafe { V(_mm512_shuffle_epi8(self.0, index.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn saturating_sub(self, other: V) -> V {
            unsafe { V(_mm512_subs_epu8(self.0, other.0)) }
        }
        #[inline(always)]
        pub(crate) unsafe fn is_ascii(self) -> bool {
            unsafe { _mm512_movepi8_mask(self.0) == 0 }
        }
        #[inline(always)]
        pub(crate) unsafe fn any(self) -> bool {
            unsafe { _mm512_test_epi8_mask(self.0, self.0) != 0 }
        }
    }

    crate::simd::algorithm!("avx512f,avx512bw");
}
