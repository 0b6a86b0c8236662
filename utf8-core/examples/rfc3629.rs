//! Prints the RFC 3629 tables that `utf8_macros::dfa_tables!` derived at
//! compile time, then validates a file (or stdin, given `-`).
//!
//! ```text
//! cargo run --release --example rfc3629 -- FILE
//! ```
//!
//! Exit status: 0 valid, 1 invalid, 2 usage error, 3 the file cannot be read.

use std::io::Read;
use std::process::ExitCode;

use utf8_core::tables::rfc3629 as t;

const USAGE: &str = "usage: rfc3629 [FILE | -]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = match args.as_slice() {
        [] => None,
        [flag] if flag == "-h" || flag == "--help" => {
            println!(
                "{USAGE}\nPrints the derived RFC 3629 tables, then validates FILE (`-` for stdin)."
            );
            return ExitCode::SUCCESS;
        }
        [path] => Some(path.as_str()),
        _ => {
            eprintln!(
                "rfc3629: expected at most one file, got {}; {USAGE}",
                args.len()
            );
            return ExitCode::from(2);
        }
    };

    print_tables();

    let Some(path) = path else {
        return ExitCode::SUCCESS;
    };
    let bytes = match read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("rfc3629: cannot read {path}: {e}");
            return ExitCode::from(3);
        }
    };
    println!();
    match utf8_core::from_utf8(&bytes) {
        Ok(text) => {
            println!(
                "{path}: valid UTF-8: {} bytes, {} characters, {} lines",
                bytes.len(),
                text.chars().count(),
                text.lines().count()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            let at = e.valid_up_to();
            // Line and column of the error, the column counted in characters of the valid prefix.
            let prefix =
                utf8_core::from_utf8(&bytes[..at]).expect("the prefix up to valid_up_to is valid");
            let line = prefix.matches('\n').count() + 1;
            let column = prefix.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            let shown = &bytes[at..bytes.len().min(at + e.error_len().unwrap_or(4))];
            let hex: Vec<String> = shown.iter().map(|b| format!("{b:02X}")).collect();
            println!("{path}:{line}:{column}: {e} (bytes {})", hex.join(" "));
            ExitCode::from(1)
        }
    }
}

fn read(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(path)
    }
}

fn print_tables() {
    println!(
        "RFC 3629 section 4, derived at compile time from its ABNF (start rule {}):",
        t::START_RULE
    );
    let accepting: Vec<usize> = (0..t::STATE_COUNT).filter(|&s| t::ACCEPTING[s]).collect();
    println!(
        "{} states (start {}, dead {}, accepting {accepting:?}), {} byte classes",
        t::STATE_COUNT,
        t::START_STATE,
        t::DEAD_STATE,
        t::CLASS_COUNT
    );

    println!("\nbyte classes: BYTE_CLASSES[byte], high nibble down, low nibble across");
    print!("      ");
    for low in 0..16 {
        print!(" {low:>2X}");
    }
    println!();
    for high in 0..16 {
        print!("  {high:X}_ |");
        for low in 0..16 {
            print!(" {:>2}", t::BYTE_CLASSES[high * 16 + low]);
        }
        println!();
    }

    println!("\nclass members:");
    // Up to 256 classes: a `u8` range would wrap to nothing at 256.
    for class in (0..t::CLASS_COUNT).map(|class| class as u8) {
        let mut ranges: Vec<String> = Vec::new();
        let mut byte = 0usize;
        while byte < 256 {
            if t::BYTE_CLASSES[byte] != class {
                byte += 1;
                continue;
            }
            let start = byte;
            while byte < 256 && t::BYTE_CLASSES[byte] == class {
                byte += 1;
            }
            ranges.push(if start == byte - 1 {
                format!("{start:02X}")
            } else {
                format!("{start:02X}-{:02X}", byte - 1)
            });
        }
        println!("  {class:>2}: {}", ranges.join(", "));
    }

    println!(
        "\ntransitions: TRANSITIONS[state * {} + class] (* accepting)",
        t::CLASS_COUNT
    );
    print!("  state |");
    for class in 0..t::CLASS_COUNT {
        print!(" {class:>2}");
    }
    println!();
    for state in 0..t::STATE_COUNT {
        let mark = if t::ACCEPTING[state] { '*' } else { ' ' };
        print!("  {state:>4}{mark} |");
        for class in 0..t::CLASS_COUNT {
            print!(" {:>2}", t::TRANSITIONS[state * t::CLASS_COUNT + class]);
        }
        println!();
    }
}
