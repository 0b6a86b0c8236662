//! Which vector code validation runs on this CPU.
//!
//! [`level`] says which instruction set the vectorised check uses for
//! inputs of at least [`SIMD_THRESHOLD`](crate::SIMD_THRESHOLD) bytes, for
//! the rulesets whose vector tables the derivation could prove exact (RFC
//! 3629, `mutf8`, `rfc2279`, `legacy31`, and rulesets of your own where the
//! proof holds), and for the rulesets that take the UTF-8 shortcut
//! (`cesu8`, `wtf8`: RFC 3629's check, then a scan for the few bytes on
//! which the two part);
//! shorter inputs, and the other rulesets, run on the shift DFA whatever
//! the level.
//!
//! ```
//! use utf8_core::cpu::{self, Level};
//! match cpu::level() {
//!     Level::Portable => println!("no vector code: the shift DFA only"),
//!     level => println!("vector check: {level:?}"),
//! }
//! ```
//!
//! With `std` the CPU's features are detected at run time, once per process;
//! without it the level is what the enabled target features guarantee at
//! compile time (build with `-C target-cpu=native` or `-C
//! target-feature=+avx2` to get vector code in a `no_std` build).

// This module depends on neither validation path, so that the shift DFA
// (which asks for BMI2) does not import the vector check.

/// The vector code validation can use, decided once per process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum Level {
    /// The shift DFA only.
    Portable = 1,
    /// x86 SSE4.1 (16-byte vectors).
    Sse41 = 2,
    /// x86 AVX2 (32-byte vectors).
    Avx2 = 3,
    /// aarch64 NEON (16-byte vectors).
    Neon = 4,
    /// x86 AVX-512 F and BW (64-byte vectors, one per block).
    Avx512 = 5,
}

/// The best level this CPU supports: the one `from_utf8` and every ruleset
/// with a vector check run on.
#[inline]
pub fn level() -> Level {
    #[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")))]
    {
        use core::sync::atomic::{AtomicU8, Ordering};
        // 0 until detected; then a `Level` as its `u8`.
        static LEVEL: AtomicU8 = AtomicU8::new(0);
        match LEVEL.load(Ordering::Relaxed) {
            5 => Level::Avx512,
            3 => Level::Avx2,
            2 => Level::Sse41,
            1 => Level::Portable,
            _ => {
                let detected = detect_x86_level();
                LEVEL.store(detected as u8, Ordering::Relaxed);
                detected
            }
        }
    }
    #[cfg(not(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86"))))]
    {
        compile_time_level()
    }
}

#[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")))]
#[cold]
fn detect_x86_level() -> Level {
    // AVX2 too, which every CPU with AVX-512 has: code of the AVX-512 level
    // may use AVX2's (as the streaming validator's ASCII test does), and
    // `supports` ranks each level above the one before.
    if std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx2")
    {
        Level::Avx512
    } else if std::is_x86_feature_detected!("avx2") {
        Level::Avx2
    } else if std::is_x86_feature_detected!("sse4.1") {
        Level::Sse41
    } else {
        Level::Portable
    }
}

/// The level the enabled target features guarantee (used without `std`).
#[cfg_attr(
    all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")),
    allow(dead_code)
)]
const fn compile_time_level() -> Level {
    if cfg!(any(target_arch = "x86_64", target_arch = "x86"))
        && cfg!(target_feature = "avx512f")
        && cfg!(target_feature = "avx512bw")
        && cfg!(target_feature = "avx2")
    {
        Level::Avx512
    } else if cfg!(any(target_arch = "x86_64", target_arch = "x86"))
        && cfg!(target_feature = "avx2")
    {
        Level::Avx2
    } else if cfg!(any(target_arch = "x86_64", target_arch = "x86"))
        && cfg!(target_feature = "sse4.1")
    {
        Level::Sse41
    } else if cfg!(target_arch = "aarch64") && cfg!(target_feature = "neon") {
        Level::Neon
    } else {
        Level::Portable
    }
}

/// Whether this CPU runs code compiled for `level`: for the workspace's tests
/// and benchmarks, which run every level the CPU has; not part of the stable
/// API.
#[doc(hidden)]
pub fn supports(level: Level) -> bool {
    match level {
        Level::Portable => true,
        // NEON is in every aarch64 target's baseline but the soft-float ones.
        Level::Neon => cfg!(all(target_arch = "aarch64", target_feature = "neon")),
        Level::Sse41 | Level::Avx2 | Level::Avx512 => {
            cfg!(any(target_arch = "x86_64", target_arch = "x86"))
                && level_rank(level) <= level_rank(self::level())
        }
    }
}

/// The x86 levels in the order each includes the one before.
fn level_rank(level: Level) -> u8 {
    match level {
        Level::Portable | Level::Neon => 1,
        Level::Sse41 => 2,
        Level::Avx2 => 3,
        Level::Avx512 => 4,
    }
}

/// Whether the CPU has BMI2, for the shift DFA's variable shifts (detected
/// once with `std`, from the enabled target features without it).
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
#[inline]
pub(crate) fn has_bmi2() -> bool {
    #[cfg(feature = "std")]
    {
        static BMI2: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);
        detected_once(&BMI2, || std::is_x86_feature_detected!("bmi2"))
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "bmi2")
    }
}

/// Whether the CPU has AVX-512 VBMI2 and POPCNT, for the views' byte
/// compression (`column::view_scan`), on top of [`Level::Avx512`]
/// (detected once with `std`, from the enabled target features without
/// it).
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
#[inline]
pub(crate) fn has_vbmi2() -> bool {
    #[cfg(feature = "std")]
    {
        static VBMI2: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);
        detected_once(&VBMI2, || {
            std::is_x86_feature_detected!("avx512vbmi2") && std::is_x86_feature_detected!("popcnt")
        })
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx512vbmi2") && cfg!(target_feature = "popcnt")
    }
}

/// `detect`'s answer, asked once and kept in `cell`: 0 until asked, then 1
/// for no and 2 for yes.
#[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")))]
#[inline]
fn detected_once(cell: &core::sync::atomic::AtomicU8, detect: fn() -> bool) -> bool {
    use core::sync::atomic::Ordering;
    match cell.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let detected = detect();
            cell.store(1 + u8::from(detected), Ordering::Relaxed);
            detected
        }
    }
}
