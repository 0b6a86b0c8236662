//! utf8-parquet's check (what `utf8 check` and the Python package's
//! `check_parquet` run) on the fuzzer's bytes as a file: the footer's and
//! pages' walks, the parquet crate's reader behind them, and the check of
//! every byte array value, with `--all`. A malformed file must be an
//! error, never a crash, a hang (`-timeout`), or memory past libFuzzer's
//! limit: they read untrusted files.
//!
//! Seeded by `.ci/fuzz` with files of every encoding, codec and page
//! version (`fuzz/seeds/parquet/`).

#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut file = tempfile::tempfile().expect("a temporary file");
    file.write_all(data).expect("written");
    // An error is the right answer for most inputs; the point is what it
    // does not do.
    let _ = utf8_parquet::check_for_fuzzing(file);
});
