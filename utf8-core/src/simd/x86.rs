//! The vector types for x86: AVX-512 (64 bytes), AVX2 (32 bytes) and
//! SSE4.1 (16 bytes).
//!
//! A `V` is made only by its `unsafe` constructors, which need the CPU to
//! have the module's target feature; every operation on a `V` is therefore
//! safe to call, and each `unsafe` block in one names that reason. Every
//! method is `#[inline(always)]`, so that it is compiled into the caller,
//! which runs with the target feature enabled.
//!
//! One file a level (`x86/avx512.rs`, `x86/avx2.rs`, `x86/sse41.rs`): its `V`,
//! then its instance of `crate::simd::algorithm!`.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse41;
