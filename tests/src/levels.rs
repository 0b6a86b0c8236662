//! A test binary run once per vector level the CPU has, for code that picks
//! its level itself (the column API) and so cannot be handed a
//! [`Path`](utf8_core::paths::Path) the way the single-buffer suites are.
//!
//! The level is process-wide ([`paths::cap_level`]), so each level below
//! the CPU's runs in a process of its own: [`each_lower_level`] runs the
//! test binary again with [`LEVEL_VAR`] naming the level and
//! [`SAMPLE_VAR`] asking for a sample of the cases, and every test of that
//! binary starts with [`this_run`], which holds the library to the level
//! the variable names (and checks that it did) before the test reads a
//! byte. The CPU's own level runs in the first process, with every case.

use std::process::Command;
use std::sync::Once;
use utf8_core::cpu::{self, Level};
use utf8_core::paths;

/// The level a run of a test binary holds the library to, by its name in
/// [`LEVELS`]; unset: the CPU's.
pub const LEVEL_VAR: &str = "UTF8_TEST_LEVEL";

/// Set to `1`: each test runs a sample of its cases ([`Run::cases`]), as
/// the runs at the levels below the CPU's do, and `.ci/neon` under QEMU.
pub const SAMPLE_VAR: &str = "UTF8_TEST_SAMPLE";

/// The x86 levels, best first: a name, the level, and whether the views'
/// AVX-512 VBMI2 kernel runs.
pub const LEVELS: [(&str, Level, bool); 5] = [
    ("avx512-vbmi2", Level::Avx512, true),
    ("avx512", Level::Avx512, false),
    ("avx2", Level::Avx2, false),
    ("sse4.1", Level::Sse41, false),
    ("portable", Level::Portable, false),
];

/// How this run of a test binary runs its tests.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// Whether to run a sample of the cases rather than all of them.
    pub sample: bool,
}

impl Run {
    /// `full` cases, or an eighth of them (at least one) in a sample.
    pub fn cases(self, full: u32) -> u32 {
        if self.sample { (full / 8).max(1) } else { full }
    }
}

/// The level [`LEVEL_VAR`] names, applied once per process and checked, and
/// whether to run a sample: the first call of every test of a binary that
/// [`each_lower_level`] runs again.
pub fn this_run() -> Run {
    static CAPPED: Once = Once::new();
    if let Some(name) = std::env::var_os(LEVEL_VAR) {
        let name = name.to_string_lossy();
        let &(_, level, vbmi2) = LEVELS
            .iter()
            .find(|(known, ..)| *known == name)
            .unwrap_or_else(|| panic!("{LEVEL_VAR}={name}: not one of {LEVELS:?}"));
        CAPPED.call_once(|| {
            paths::cap_level(level, vbmi2);
            // Where the CPU's AVX-512 has no VBMI2 the column checks run
            // at AVX2, which the AVX2 run tests; this run tests the
            // AVX-512 kernels that CPUs with VBMI2 run beside it.
            paths::column_checks_at_cpu_level(level == Level::Avx512);
        });
        assert_eq!(cpu::level(), level, "{LEVEL_VAR}={name}: the level in use");
    }
    Run {
        sample: std::env::var_os(SAMPLE_VAR).is_some_and(|v| v == "1"),
    }
}

/// The levels of [`LEVELS`] this CPU has below its own (the x86 levels;
/// none elsewhere, where the level is fixed at compile time).
pub fn lower_levels() -> Vec<&'static str> {
    let own = own_level();
    LEVELS
        .iter()
        .filter(|&&(name, level, vbmi2)| {
            cfg!(any(target_arch = "x86_64", target_arch = "x86"))
                && name != own
                && cpu::supports(level)
                && (!vbmi2 || has_vbmi2())
        })
        .map(|&(name, ..)| name)
        .collect()
}

/// The name in [`LEVELS`] of the level this process runs at.
fn own_level() -> &'static str {
    match cpu::level() {
        Level::Avx512 if has_vbmi2() => "avx512-vbmi2",
        Level::Avx512 => "avx512",
        Level::Avx2 => "avx2",
        Level::Sse41 => "sse4.1",
        _ => "portable",
    }
}

/// Whether the CPU has what the views' VBMI2 kernel asks for.
fn has_vbmi2() -> bool {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    {
        std::is_x86_feature_detected!("avx512vbmi2") && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
    {
        false
    }
}

/// Runs this test binary again at each of [`lower_levels`], a sample of
/// each test's cases, all tests but `caller` (the test that calls this),
/// one level after another; panics with the output of the first level
/// whose run fails or runs no test. Nothing in a run [`this_run`] capped
/// (a run does not start runs of its own).
pub fn each_lower_level(caller: &str) {
    if std::env::var_os(LEVEL_VAR).is_some() {
        return;
    }
    let binary = std::env::current_exe().expect("the test binary's path");
    for name in lower_levels() {
        let start = std::time::Instant::now();
        let output = Command::new(&binary)
            .args(["--skip", caller, "--exact"])
            .env(LEVEL_VAR, name)
            .env(SAMPLE_VAR, "1")
            .output()
            .expect("the test binary runs again");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let ran = stdout
            .lines()
            .filter_map(|line| line.strip_prefix("test result: ok. "))
            .filter_map(|rest| rest.split(' ').next()?.parse::<usize>().ok())
            .sum::<usize>();
        assert!(
            output.status.success() && ran > 0,
            "at level {name} ({LEVEL_VAR}={name} {SAMPLE_VAR}=1 {}): {}, {ran} tests passed\n{stdout}\n{}",
            binary.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr),
        );
        println!(
            "level {name}: {ran} tests passed in {:.1?}",
            start.elapsed()
        );
    }
}
