//! The manual's memory bound for Parquet: per core, a row group's checked
//! column chunks and a batch of rows, not the file. A file of 40 row groups
//! of 1.5 MB each (60 MB) is checked on two threads, and the command's peak
//! resident memory is held to far less than the file over what it takes on
//! a file of one small row group. Alone in its test binary: the peak is
//! read with `getrusage(RUSAGE_CHILDREN)`, the most any child of this
//! process has held.
#![cfg(target_os = "linux")]

mod common;

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use common::{arg, scratch, utf8_on_threads_within_ten_seconds};
use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

const ROW_BYTES: usize = 100;

/// Writes `groups` row groups of `rows` values of `ROW_BYTES` bytes each,
/// the last value of the file cut inside a character where `cut_last`,
/// uncompressed and without a dictionary, so that each row group takes its
/// values' size in the file.
fn write(path: &Path, groups: usize, rows: usize, cut_last: bool) {
    let schema = parse_message_type("message m { REQUIRED BYTE_ARRAY s (STRING); }").unwrap();
    let properties = WriterProperties::builder()
        .set_compression(Compression::UNCOMPRESSED)
        .set_dictionary_enabled(false)
        .build();
    let sink = File::create(path).unwrap();
    let mut writer =
        SerializedFileWriter::new(sink, Arc::new(schema), Arc::new(properties)).unwrap();
    for group in 0..groups {
        let mut values: Vec<ByteArray> = (0..rows)
            .map(|row| {
                let mut value = format!("row {row} of group {group}, caf\u{e9} ").into_bytes();
                value.resize(ROW_BYTES, b'x');
                ByteArray::from(value)
            })
            .collect();
        if cut_last && group == groups - 1 {
            let mut last = vec![b'y'; ROW_BYTES - 1];
            last.push(0xC3);
            values[rows - 1] = ByteArray::from(last);
        }
        let mut row_group = writer.next_row_group().unwrap();
        let mut column = row_group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&values, None, None)
            .unwrap();
        column.close().unwrap();
        row_group.close().unwrap();
    }
    writer.close().unwrap();
}

/// The most resident memory any child of this process has held, in KiB.
fn children_peak_kib() -> i64 {
    // SAFETY: `rusage` is integers and `timeval`s of integers, for which
    // all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid, writable `rusage` that outlives the call,
    // which writes only it; RUSAGE_CHILDREN is a `who` getrusage accepts.
    let status = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(status, 0, "getrusage");
    usage.ru_maxrss
}

#[test]
fn checking_a_parquet_file_holds_a_row_group_per_thread_not_the_file() {
    let directory = scratch();
    let small = directory.path().join("small.parquet");
    write(&small, 1, 100, false);
    let large = directory.path().join("large.parquet");
    let rows = 15_000;
    write(&large, 40, rows, true);
    let file_kib = std::fs::metadata(&large).unwrap().len() as i64 / 1024;
    assert!(file_kib > 55 * 1024, "{file_kib} KiB");

    let output = utf8_on_threads_within_ten_seconds(2, &["check", arg(&small)]);
    assert_eq!(output.status.code(), Some(0));
    let baseline = children_peak_kib();

    let output = utf8_on_threads_within_ten_seconds(2, &["check", arg(&large)]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    // The check read to the file's last value.
    assert!(
        stdout.contains(&format!("row {}", 40 * rows - 1)),
        "{stdout}"
    );
    assert_eq!(output.status.code(), Some(1));
    let peak = children_peak_kib();

    // Two row groups of 1.5 MB as stored, and what is decoded from them a
    // batch at a time: 12 MiB is eight times that, a fifth of the file.
    let grew = peak - baseline;
    eprintln!("peak {peak} KiB, {baseline} KiB on a small file, file {file_kib} KiB");
    assert!(
        grew < 12 * 1024,
        "peak {peak} KiB, {baseline} KiB on a small file: {grew} KiB more for a {file_kib} KiB file"
    );
}
