//! The vector types for x86: AVX-512 (64 bytes), AVX2 (32 bytes) and
//! SSE4.1 (16 bytes).
//!
//! One file a level (`x86/avx512.rs`, `x86/avx2.rs`, `x86/sse41.rs`): its `V`,
//! which implements `crate::simd::Vector` (whose documentation says why
//! every operation on a `V` is safe to call), a few operations of the
//! level's own, then its instance of `crate::simd::algorithm!`.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::Vector;

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse41;
