//! The vector type for aarch64 NEON (16 bytes).
//!
//! Every method is `#[inline(always)]` and `unsafe`: each is only called from
//! a function compiled with NEON, into which it is inlined.

use core::arch::aarch64::*;

#[derive(Clone, Copy)]
pub(crate) struct V(uint8x16_t);

// SAFETY (for every method): NEON is enabled; loads read exactly 16 bytes
// from a pointer the caller guarantees valid for them.
impl V {
    pub(crate) const LANES: usize = 16;
    /// `ext` is one cheap instruction; loads would straddle cache lines.
    pub(crate) const SHUFFLE_PREV: bool = true;

    /// The bytes `n` (1..=5) positions back.
    #[inline(always)]
    pub(crate) unsafe fn prev(self, before: V, n: usize) -> V {
        unsafe {
            V(match n {
                1 => vextq_u8::<15>(before.0, self.0),
                2 => vextq_u8::<14>(before.0, self.0),
                3 => vextq_u8::<13>(before.0, self.0),
                4 => vextq_u8::<12>(before.0, self.0),
                _ => vextq_u8::<11>(before.0, self.0),
            })
        }
    }

    #[inline(always)]
    pub(crate) unsafe fn load(ptr: *const u8) -> V {
        unsafe { V(vld1q_u8(ptr)) }
    }
    #[inline(always)]
    pub(crate) unsafe fn splat(byte: u8) -> V {
        unsafe { V(vdupq_n_u8(byte)) }
    }
    #[inline(always)]
    pub(crate) unsafe fn table(entries: &[u8; 16]) -> V {
        unsafe { V(vld1q_u8(entries.as_ptr())) }
    }
    #[inline(always)]
    pub(crate) unsafe fn or(self, other: V) -> V {
        unsafe { V(vorrq_u8(self.0, other.0)) }
    }
    #[inline(always)]
    pub(crate) unsafe fn and(self, other: V) -> V {
        unsafe { V(vandq_u8(self.0, other.0)) }
    }
    #[inline(always)]
    pub(crate) unsafe fn xor(self, other: V) -> V {
        unsafe { V(veorq_u8(self.0, other.0)) }
    }
    #[inline(always)]
    pub(crate) unsafe fn high_nibbles(self) -> V {
        unsafe { V(vshrq_n_u8::<4>(self.0)) }
    }
    #[inline(always)]
    pub(crate) unsafe fn low_nibbles(self) -> V {
        unsafe { V(vandq_u8(self.0, vdupq_n_u8(0x0F))) }
    }
    #[inline(always)]
    pub(crate) unsafe fn lookup(self, index: V) -> V {
        unsafe { V(vqtbl1q_u8(self.0, index.0)) }
    }
    #[inline(always)]
    pub(crate) unsafe fn saturating_sub(self, other: V) -> V {
        unsafe { V(vqsubq_u8(self.0, other.0)) }
    }
    #[inline(always)]
    pub(crate) unsafe fn is_ascii(self) -> bool {
        unsafe { vmaxvq_u8(self.0) < 0x80 }
    }
    #[inline(always)]
    pub(crate) unsafe fn any(self) -> bool {
        unsafe { vmaxvq_u8(self.0) != 0 }
    }
}

crate::simd::algorithm!("neon");
