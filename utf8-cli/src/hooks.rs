//! Hooks for the end-to-end tests, read from the environment in debug builds
//! only (the tests' own builds); a release build has none of them.
//!
//! What happens when a file changes while it is read cannot be tested by
//! racing a writer against the reader: the outcome would depend on timing.
//! Instead the test makes the command pause at a known point: it sets a
//! small buffer and a directory, the command reads one buffer of the first
//! file, creates `paused` in the directory and waits until `resume` exists;
//! meanwhile the test truncates the file. A FIFO could not stand in for
//! this: it is not a regular file, so there is no size to fall short of.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// `UTF8_TEST_BUFFER_LEN`: how many bytes to read at a time.
pub fn buffer_len() -> Option<usize> {
    std::env::var("UTF8_TEST_BUFFER_LEN").ok()?.parse().ok()
}

/// `UTF8_TEST_MAP_AT_LEAST`: the size from which `check` maps a file.
pub fn map_at_least() -> Option<u64> {
    std::env::var("UTF8_TEST_MAP_AT_LEAST").ok()?.parse().ok()
}

/// `UTF8_TEST_PAUSE_DIR`: the directory of the handshake above, once
/// per process, after the first full buffer read from a file.
pub fn pause_after_first_fill() {
    static PAUSED: AtomicBool = AtomicBool::new(false);
    let Some(directory) = std::env::var_os("UTF8_TEST_PAUSE_DIR").map(PathBuf::from) else {
        return;
    };
    if PAUSED.swap(true, Ordering::Relaxed) {
        return;
    }
    std::fs::write(directory.join("paused"), b"").expect("the pause directory is writable");
    while !directory.join("resume").exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// `UTF8_TEST_PEAK_MEMORY_TO`: a file to write, as the command ends, its
/// peak resident memory in KiB, as the kernel counts it (`VmHWM` in
/// `/proc/self/status`, Linux only).
///
/// The parent's view of a child's peak (`ru_maxrss` from `wait4`) would not
/// do: it includes the memory of the test process that spawned the child,
/// whose image the child had until it executed this command.
pub fn report_peak_memory() {
    let Some(path) = std::env::var_os("UTF8_TEST_PEAK_MEMORY_TO") else {
        return;
    };
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().strip_suffix("kB"))
        .expect("a VmHWM line in kB");
    std::fs::write(path, kib.trim()).expect("the peak memory file is writable");
}
