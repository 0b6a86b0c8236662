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
        use core::sync::atomic::Ordering;
        match LEVEL.load(Ordering::Relaxed) {
            5 => Level::Avx512,
            3 => Level::Avx2,
            2 => Level::Sse41,
            1 => Level::Portable,
            _ => {
                let detected = detect_x86_level();
                // The first answer stays, whether detected here or set by
                // `cap`: the level never changes under a caller's feet.
                match LEVEL.compare_exchange(
                    0,
                    detected as u8,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => detected,
                    Err(_) => level(),
                }
            }
        }
    }
    #[cfg(not(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86"))))]
    {
        compile_time_level()
    }
}

/// [`level`]'s answer: 0 until detected (or capped); then a `Level` as its
/// `u8`.
#[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")))]
static LEVEL: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// `has_vbmi2`'s answer, in `detected_once`'s form.
#[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")))]
static VBMI2: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Holds [`level`] to at most `cap`, and [`has_vbmi2`] to no unless
/// `vbmi2`, process-wide from now on (`crate::paths::cap_level`). Only
/// ever below what the CPU has: the capped answers are the detected ones
/// at most, so no code runs with a feature the CPU lacks. Nothing without
/// `std` or off x86, where the level is fixed at compile time.
pub(crate) fn cap(cap: Level, vbmi2: bool) {
    #[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")))]
    {
        use core::sync::atomic::Ordering;
        let detected = detect_x86_level();
        let capped = match cap {
            Level::Neon => Level::Portable,
            cap if level_rank(cap) < level_rank(detected) => cap,
            _ => detected,
        };
        let vbmi2 = vbmi2 && capped == Level::Avx512 && detect_vbmi2();
        LEVEL.store(capped as u8, Ordering::Relaxed);
        VBMI2.store(1 + u8::from(vbmi2), Ordering::Relaxed);
    }
    #[cfg(not(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86"))))]
    let _ = (cap, vbmi2);
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
        detected_once(&VBMI2, detect_vbmi2)
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx512vbmi2") && cfg!(target_feature = "popcnt")
    }
}

#[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")))]
fn detect_vbmi2() -> bool {
    std::is_x86_feature_detected!("avx512vbmi2") && std::is_x86_feature_detected!("popcnt")
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
            // The first answer stays (`cap` may have given one meanwhile).
            match cell.compare_exchange(
                0,
                1 + u8::from(detected),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => detected,
                Err(stored) => stored == 2,
            }
        }
    }
}
