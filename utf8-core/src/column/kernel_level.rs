//! The vector level the column checks run at: the CPU's, except on a CPU
//! whose 512-bit instructions slow the whole core.
//!
//! On Intel's first AVX-512 cores (Skylake-SP and -X, Cascade Lake, Cooper
//! Lake) the core lowers its clock for a while after 512-bit instructions,
//! and everything it runs meanwhile is slower, scalar code included. One
//! buffer's check still gains from the wider vectors there; a column's
//! check, whose vector check of bytes is a fraction of its work among
//! scalar and AVX2 steps, loses more than it gains, so there the column
//! checks run at AVX2 throughout (`docs/performance.md`, "Columns", has
//! the figures). Those cores are the ones with AVX-512 F and BW but not
//! VBMI2: every core with VBMI2 (Ice Lake on, Zen 4 on) keeps its clock
//! closer, and runs the views' VBMI2 packing besides.

use crate::cpu::Level;
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

/// How [`level`] chooses on a CPU with AVX-512: as the CPU's features say
/// ([`AS_FEATURES_SAY`]), or held by a benchmark or a test to one level.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
static CHOICE: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(AS_FEATURES_SAY);
/// AVX-512 with VBMI2, AVX2 without.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
const AS_FEATURES_SAY: u8 = 0;
/// AVX2: the benchmarks' way to measure, on a CPU with VBMI2, what a CPU
/// without AVX-512 runs (`crate::paths::cap_column_kernels_at_avx2`).
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
const AVX2_AT_MOST: u8 = 1;
/// AVX-512 with or without VBMI2: the tests' way to run, on a CPU (or under
/// Miri) without VBMI2, the AVX-512 kernels that CPUs with it run
/// (`crate::paths::column_checks_at_cpu_level`).
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
const CPU_LEVEL: u8 = 2;

/// Keeps the column checks to AVX2 on a CPU with AVX-512 (`true`), or lets
/// them choose as the CPU's features say.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) fn cap_at_avx2(capped: bool) {
    let choice = if capped {
        AVX2_AT_MOST
    } else {
        AS_FEATURES_SAY
    };
    CHOICE.store(choice, core::sync::atomic::Ordering::Relaxed);
}

/// Runs the column checks at AVX-512 on any CPU with it (`true`), or lets
/// them choose as the CPU's features say.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) fn at_cpu_level(forced: bool) {
    let choice = if forced { CPU_LEVEL } else { AS_FEATURES_SAY };
    CHOICE.store(choice, core::sync::atomic::Ordering::Relaxed);
}

/// The level the column checks run at: the CPU's, or AVX2 where the CPU's
/// AVX-512 has no VBMI2 (unless a test holds them to the CPU's) or a
/// benchmark caps them. A level is only ever lowered, so a kernel never
/// asks for a feature the CPU lacks.
#[inline]
pub(crate) fn level() -> Level {
    match crate::cpu::level() {
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        Level::Avx512 => match CHOICE.load(core::sync::atomic::Ordering::Relaxed) {
            AVX2_AT_MOST => Level::Avx2,
            CPU_LEVEL => Level::Avx512,
            _ if crate::cpu::has_vbmi2() => Level::Avx512,
            _ => Level::Avx2,
        },
        level => level,
    }
}

/// `R::validate(bytes)`, its vector check run at [`level`]: the same
/// answer, the same error.
#[inline]
pub(crate) fn validate<R: Ruleset>(bytes: &[u8]) -> Result<(), Utf8Error> {
    validate_at::<R>(level(), bytes)
}

/// `R::validate(bytes)`, its vector check run at `column_level` where that
/// is not the CPU's level and `R` has a vector check of its own.
#[inline]
fn validate_at<R: Ruleset>(column_level: Level, bytes: &[u8]) -> Result<(), Utf8Error> {
    if column_level != crate::cpu::level()
        && bytes.len() >= crate::dispatch::SIMD_THRESHOLD
        && let Some(result) =
            crate::dispatch::validate_on::<R>(crate::dispatch::Path::Simd(column_level), bytes)
    {
        return result;
    }
    R::validate(bytes)
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::cesu8::Cesu8;
    use crate::dispatch::Rfc3629;
    use crate::wtf8::Wtf8;
    use std::vec::Vec;

    /// Inputs around the lengths where the entry points change paths, with
    /// an error (or none) at every place a small input has.
    fn inputs() -> impl Iterator<Item = Vec<u8>> {
        let text = "aé€😀".repeat(80).into_bytes();
        [0usize, 1, 15, 16, 17, 63, 64, 65, 127, 128, 255, 256, 257]
            .into_iter()
            .flat_map(move |len| {
                let valid = text[..len].to_vec();
                let broken = (0..len.min(70)).map({
                    let valid = valid.clone();
                    move |at| {
                        let mut bytes = valid.clone();
                        bytes[at] = [0x80, 0xC0, 0xED, 0xF8][at % 4];
                        bytes
                    }
                });
                core::iter::once(valid).chain(broken)
            })
    }

    /// At the column checks' level and at every level the CPU has, as a
    /// CPU whose column checks run below its level would.
    fn agrees<R: Ruleset>() {
        let levels = [
            Level::Portable,
            Level::Sse41,
            Level::Avx2,
            Level::Avx512,
            Level::Neon,
        ];
        for bytes in inputs() {
            let expected = R::validate(&bytes);
            assert_eq!(validate::<R>(&bytes), expected, "{bytes:x?}");
            for level in levels.into_iter().filter(|&l| crate::cpu::supports(l)) {
                assert_eq!(
                    validate_at::<R>(level, &bytes),
                    expected,
                    "{level:?} {bytes:x?}"
                );
            }
        }
    }

    #[test]
    fn the_column_checks_level_gives_each_rulesets_own_answer() {
        agrees::<Rfc3629>();
        agrees::<Cesu8>();
        agrees::<Wtf8>();
    }

    #[test]
    fn the_column_checks_run_below_the_cpus_level_only_for_avx512_without_vbmi2() {
        let cpu = crate::cpu::level();
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        if cpu == Level::Avx512 && !crate::cpu::has_vbmi2() {
            assert_eq!(level(), Level::Avx2);
            return;
        }
        assert_eq!(level(), cpu);
    }
}
