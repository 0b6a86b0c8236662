//! Each validation path on its own, for tests, fuzzing and benchmarks.
//!
//! [`crate::from_utf8`] picks a path by input length and CPU; these
//! functions run the one you name, so that every path can be compared with
//! `core::str::from_utf8` and with each other. A path this build or CPU
//! cannot run gives `None`.
//!
//! Public for the workspace's tests, fuzz targets and benchmarks, and hidden
//! from the docs: not part of the stable API; it may change in any release.

use crate::dispatch::Rfc3629;
use crate::dispatch::{self, shortcut};
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;
use crate::simd;

pub use crate::dispatch::Path;

/// Keeps the column checks (their own vector code, and their checks of the
/// rows' bytes) to AVX2 on a CPU with AVX-512 while `capped`, so that a
/// benchmark measures there what a CPU without AVX-512 runs; they run at
/// AVX2 anyway where the CPU's AVX-512 has no VBMI2. Validation itself is
/// forced to a level through [`rfc3629`] and the other paths.
/// Process-wide; nothing on other architectures.
pub fn cap_column_kernels_at_avx2(capped: bool) {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    crate::column::kernel_level::cap_at_avx2(capped);
    #[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
    let _ = capped;
}

/// Runs the column checks at AVX-512 on a CPU whose AVX-512 has no VBMI2
/// while `forced`, where they would run at AVX2: for the tests, and Miri
/// (whose AVX-512 has no VBMI2), so that the AVX-512 column kernels that
/// CPUs with VBMI2 run are tested on every CPU with AVX-512.
/// Process-wide; nothing where the CPU has no AVX-512, nor on other
/// architectures.
pub fn column_checks_at_cpu_level(forced: bool) {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    crate::column::kernel_level::at_cpu_level(forced);
    #[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
    let _ = forced;
}

/// Holds everything that picks its own level (`cpu::level()`, and through
/// it `from_utf8`, every ruleset and the column API) to at most `level`,
/// with the views' AVX-512 VBMI2 kernel used only if `vbmi2` as well,
/// process-wide from now on: for the tests of the column API, which
/// chooses its level inside and is run once per level the CPU has, each
/// level in a process of its own. A level is only ever lowered: past the
/// CPU's, it is the CPU's. Nothing where the level is fixed at compile
/// time (without `std`, or off x86).
pub fn cap_level(level: crate::cpu::Level, vbmi2: bool) {
    crate::cpu::cap(level, vbmi2);
}

/// Any ruleset on `path`: the vector levels give `None` where `R` has no
/// vector check of its own (see [`by_utf8_shortcut`] for those that run on
/// RFC 3629's).
pub fn ruleset<R: Ruleset>(path: Path, bytes: &[u8]) -> Option<Result<(), Utf8Error>> {
    dispatch::validate_on::<R>(path, bytes)
}

/// RFC 3629 UTF-8 on `path`.
pub fn rfc3629(path: Path, bytes: &[u8]) -> Option<Result<(), Utf8Error>> {
    dispatch::validate_on::<Rfc3629>(path, bytes)
}

/// The 31-bit legacy form on `path`.
#[cfg(feature = "legacy-31bit")]
pub fn legacy31(path: Path, bytes: &[u8]) -> Option<Result<(), Utf8Error>> {
    dispatch::validate_on::<crate::dialects::legacy31::Legacy31>(path, bytes)
}

/// A ruleset with the UTF-8 shortcut (CESU-8, modified UTF-8, WTF-8, or a
/// user ruleset like them), validated through it with its checks on `path`
/// (the shortcut language's own vector check where it has one, RFC 3629's
/// otherwise); `None` where this build or CPU cannot run `path` or `R` has
/// no shortcut. For measuring and testing the dialects at each vector level.
pub fn by_utf8_shortcut<R: Ruleset>(path: Path, bytes: &[u8]) -> Option<Result<(), Utf8Error>> {
    if !R::TABLES.shortcut.available || dispatch::validate_on::<Rfc3629>(path, &[]).is_none() {
        return None;
    }
    Some(shortcut::validate_with::<R>(
        bytes,
        shortcut::Via::Path(path),
    ))
}

/// `R` on `path` the way [`Ruleset::validate`] runs it at that level: its
/// own vector check where that costs no more than the UTF-8 shortcut's
/// (`mutf8`), otherwise the shortcut, with the own check where the shortcut
/// stops (`cesu8`, `wtf8`). For measuring each dialect at each vector level.
pub fn dispatched<R: Ruleset>(path: Path, bytes: &[u8]) -> Option<Result<(), Utf8Error>> {
    if R::TABLES.vector.available && !R::TABLES.shortcut_first() {
        dispatch::validate_on::<R>(path, bytes)
    } else {
        by_utf8_shortcut::<R>(path, bytes)
    }
}

/// How many bytes at the start of `bytes` the streaming validator's test
/// for a piece of ASCII passes at `path`'s vector level: whole blocks of 64
/// skippable bytes (`R`'s ASCII skip), or all of `bytes` where every byte
/// is. `None` where `path` is not a vector level this build and CPU run.
pub fn skippable_prefix<R: Ruleset>(path: Path, bytes: &[u8]) -> Option<usize> {
    match path {
        Path::Simd(level) => simd::skippable_prefix_at::<R>(level, bytes),
        Path::Automaton | Path::Shift => None,
    }
}
