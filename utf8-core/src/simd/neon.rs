//! The vector type for aarch64 NEON (16 bytes): a `V` that implements
//! `crate::simd::Vector` (whose documentation says why every operation on
//! a `V` is safe to call), one operation of its own, then the level's
//! instance of `crate::simd::algorithm!`.

use core::arch::aarch64::*;

use super::Vector;

#[derive(Clone, Copy)]
pub(crate) struct V(uint8x16_t);

impl V {
    /// The vector whose lanes are `low`'s bytes then `high`'s, least
    /// significant first: built in registers, not through memory.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[inline(always)]
    pub(crate) unsafe fn from_halves(low: u64, high: u64) -> V {
        if cfg!(target_endian = "big") {
            // Lane order under reinterpretation follows the target's byte
            // order: through memory there, as the bytes they stand for.
            let bytes: [[u8; 8]; 2] = [low.to_le_bytes(), high.to_le_bytes()];
            // SAFETY: the caller promises NEON.
            return unsafe { Self::load(bytes.as_flattened().try_into().expect("16 bytes")) };
        }
        // SAFETY: the caller promises NEON. On a little-endian target, lane
        // `i` of the reinterpreted vector is byte `i` of the two words.
        unsafe {
            V(vreinterpretq_u8_u64(vcombine_u64(
                vcreate_u64(low),
                vcreate_u64(high),
            )))
        }
    }
}

impl Vector for V {
    const LANES: usize = 16;
    type Bytes = [u8; 16];
    /// The bytes before each vector shifted out by `ext`, one cheap
    /// instruction here; loads not measured (this project runs NEON under
    /// qemu only).
    const PRIOR_BY_LOADS: bool = false;
    /// One block a turn of the ASCII run's loop: two, as SSE4.1 runs it,
    /// not measured here.
    const RUN_TWO_BLOCKS_A_TURN: bool = false;

    #[inline(always)]
    unsafe fn load(bytes: &[u8; 16]) -> V {
        // SAFETY: the caller promises NEON; `bytes` is valid for the 16 bytes read.
        unsafe { V(vld1q_u8(bytes.as_ptr())) }
    }
    #[inline(always)]
    unsafe fn splat(byte: u8) -> V {
        // SAFETY: the caller promises NEON.
        unsafe { V(vdupq_n_u8(byte)) }
    }
    #[inline(always)]
    unsafe fn table(entries: &[u8; 16]) -> V {
        // SAFETY: the caller promises NEON; `entries` is valid for the 16 bytes read.
        unsafe { Self::load(entries) }
    }
    #[inline(always)]
    fn prev(self, before: V, n: usize) -> V {
        // SAFETY: a `V` exists only where the CPU has NEON.
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
    fn or(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { V(vorrq_u8(self.0, other.0)) }
    }
    #[inline(always)]
    fn and(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { V(vandq_u8(self.0, other.0)) }
    }
    #[inline(always)]
    fn xor(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { V(veorq_u8(self.0, other.0)) }
    }
    #[inline(always)]
    fn high_nibbles(self) -> V {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { V(vshrq_n_u8::<4>(self.0)) }
    }
    #[inline(always)]
    fn low_nibbles(self) -> V {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { V(vandq_u8(self.0, vdupq_n_u8(0x0F))) }
    }
    #[inline(always)]
    fn lookup(self, index: V) -> V {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { V(vqtbl1q_u8(self.0, index.0)) }
    }
    #[inline(always)]
    fn saturating_sub(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { V(vqsubq_u8(self.0, other.0)) }
    }
    #[inline(always)]
    fn add(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { V(vaddq_u8(self.0, other.0)) }
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { vmaxvq_u8(self.0) < 0x80 }
    }
    #[inline(always)]
    fn min_signed(self, other: V) -> V {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe {
            V(vreinterpretq_u8_s8(vminq_s8(
                vreinterpretq_s8_u8(self.0),
                vreinterpretq_s8_u8(other.0),
            )))
        }
    }
    #[inline(always)]
    fn all_in_ascii_from(self, floor: u8) -> bool {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { vminvq_s8(vreinterpretq_s8_u8(self.0)) >= floor as i8 }
    }
    #[inline(always)]
    fn any(self) -> bool {
        // SAFETY: a `V` exists only where the CPU has NEON.
        unsafe { vmaxvq_u8(self.0) != 0 }
    }
    #[inline(always)]
    fn first_nonzero(self) -> usize {
        // SAFETY: a `V` exists only where the CPU has NEON.
        let nibbles = unsafe {
            // Narrowing each 16-bit pair of "lane is zero" masks by 4 keeps
            // four bits per lane: a 64-bit mask with lanes in order.
            let zero = vceqzq_u8(self.0);
            vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(
                zero,
            ))))
        };
        ((!nibbles).trailing_zeros() / 4) as usize
    }
}

crate::simd::algorithm!("neon");
