//! A file's lines as a column of strings, checked in one call: prints each
//! invalid line with the error inside it, then how many lines are valid.
//! The column API at work on a layout every reader knows (Arrow's offsets
//! layout: one buffer, and where each row starts).
//!
//! ```text
//! cargo run --release --example lines_column -- FILE
//! ```
//!
//! Exit status: 0 every line valid, 1 some line invalid, 2 usage error, 3
//! the file cannot be read.

use std::process::ExitCode;

use utf8_core::Rfc3629;
use utf8_core::column::{Column, Offsets};

const USAGE: &str = "usage: lines_column FILE";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path] = args.as_slice() else {
        eprintln!(
            "lines_column: expected one file, got {}; {USAGE}",
            args.len()
        );
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("lines_column: cannot read {path}: {e}");
            return ExitCode::from(3);
        }
    };
    // Row `i` is line `i + 1` with its newline: each row ends where the
    // next starts, as the offsets layout has it.
    let newlines = bytes.iter().enumerate().filter(|&(_, &b)| b == b'\n');
    let mut offsets: Vec<usize> = [0]
        .into_iter()
        .chain(newlines.map(|(at, _)| at + 1))
        .collect();
    if offsets.last() != Some(&bytes.len()) {
        offsets.push(bytes.len());
    }
    let column = match Offsets::new(&offsets, &bytes) {
        Ok(column) => column,
        Err(e) => unreachable!("the offsets are in order and within the file: {e}"),
    };
    let mut invalid = 0;
    for (row, e) in column.invalid_rows::<Rfc3629>() {
        invalid += 1;
        let line = &bytes[offsets[row]..offsets[row + 1]];
        let shown = String::from_utf8_lossy(line.strip_suffix(b"\n").unwrap_or(line));
        println!("{path}:{}: {e}: {}", row + 1, shown.trim_end());
    }
    println!(
        "{path}: {} of {} lines valid",
        column.len() - invalid,
        column.len()
    );
    if invalid == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
