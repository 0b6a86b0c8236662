//! The row-start test of the in-place check (`super::offsets`) for UTF-8's
//! continuation bytes: the lowest first byte of a run of rows, as a signed
//! byte, is below `C0` (-64) exactly when one of them starts on a
//! continuation byte. A scalar loop takes two loads a row; at the AVX2 and
//! AVX-512 levels, `i32` offsets (Arrow's `Utf8`) are read eight at a time
//! and their bytes gathered in one instruction.

use super::offset::Offset;

/// The lowest of the bytes at `offsets`, each read as `i8`, and 0 if that
/// is lower; the offsets are in order, and every one is below
/// `values.len()`.
#[inline]
pub(crate) fn lowest<O: Offset>(offsets: &[O], values: &[u8]) -> i8 {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    if let Some(offsets) = O::as_i32s(offsets) {
        use crate::cpu::{Level, level};
        if matches!(level(), Level::Avx2 | Level::Avx512) {
            // A gather reads four bytes at each offset: the offsets whose
            // four bytes lie within `values` go to it, the last few (they
            // are in order) to the scalar loop.
            let gathered = offsets.partition_point(|&o| o as usize + 4 <= values.len());
            let (wide, rest) = offsets.split_at(gathered);
            // SAFETY: the level is AVX2 or AVX-512, and the CPU has AVX2 at
            // both (`cpu::level` detects AVX-512 only with AVX2); the
            // offsets are at least 0 and in order (the column's layout,
            // checked by `Offsets::new`, or batch by batch before this call
            // by `Offsets::validated`), so every one in `wide` is at most
            // `values.len() - 4` (the partition).
            let low = unsafe { x86::lowest_avx2(wide, values) };
            return low.min(scalar(rest, values));
        }
    }
    scalar(offsets, values)
}

#[inline]
fn scalar<O: Offset>(offsets: &[O], values: &[u8]) -> i8 {
    // Four minima, so that each step waits on its own load rather than on
    // the step before.
    let (quads, rest) = offsets.as_chunks::<4>();
    let lowest = quads.iter().fold([0i8; 4], |lowest, quad| {
        core::array::from_fn(|k| lowest[k].min(values[quad[k].index()] as i8))
    });
    rest.iter()
        .fold(lowest.into_iter().min().unwrap_or(0), |lowest, &offset| {
            lowest.min(values[offset.index()] as i8)
        })
}

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
mod x86 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;

    /// [`super::lowest`] eight rows a step.
    ///
    /// # Safety
    ///
    /// The CPU has AVX2, and every offset is in `0..=values.len() - 4`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn lowest_avx2(offsets: &[i32], values: &[u8]) -> i8 {
        let base = values.as_ptr().cast::<i32>();
        let mut lowest = _mm256_setzero_si256();
        let (eights, rest) = offsets.as_chunks::<8>();
        for eight in eights {
            // SAFETY: `eight` is 32 bytes, read unaligned.
            let index = unsafe { _mm256_loadu_si256(eight.as_ptr().cast()) };
            // SAFETY: each lane reads the four bytes at `base + offset`,
            // which the caller guarantees lie within `values`.
            let words = unsafe { _mm256_i32gather_epi32::<1>(base, index) };
            // Each word's first byte in its top byte, over zeros: words so
            // shifted are in the order of those bytes as `i8`.
            lowest = _mm256_min_epi32(lowest, _mm256_slli_epi32::<24>(words));
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 bytes, written unaligned.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), lowest) };
        let lowest = (lanes.into_iter().min().unwrap_or(0) >> 24) as i8;
        rest.iter().fold(lowest, |lowest, &offset| {
            lowest.min(values[offset as usize] as i8)
        })
    }
}
