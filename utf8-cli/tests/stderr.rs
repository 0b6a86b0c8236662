//! The command when standard error cannot be written: a full disk
//! (`/dev/full`) or a pipe whose reader is gone. A message that cannot be
//! written is lost, and the command still ends with the status its failure
//! is documented to have, as grep does: 101, a panic's, means none of them.

mod common;

use std::process::{Output, Stdio};

use common::{arg, scratch, utf8_with_stderr_within_ten_seconds, write};

/// The ways standard error can refuse a message, each named for the test's
/// message.
fn unwritable_stderrs() -> Vec<(&'static str, Stdio)> {
    let mut stderrs = Vec::new();
    #[cfg(target_os = "linux")]
    stderrs.push((
        "/dev/full",
        Stdio::from(std::fs::File::create("/dev/full").expect("/dev/full opens")),
    ));
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    stderrs.push(("a pipe whose reader is gone", Stdio::from(writer)));
    stderrs
}

/// Runs `utf8 ARGS` with each unwritable standard error and checks its exit
/// status, and standard output, which is written all the same.
fn assert_status_without_stderr(args: &[&str], status: i32, stdout: &str) {
    for (stderr_name, stderr) in unwritable_stderrs() {
        let output: Output = utf8_with_stderr_within_ten_seconds(stderr, args);
        assert_eq!(
            output.status.code(),
            Some(status),
            "utf8 {args:?} with standard error on {stderr_name}"
        );
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            stdout,
            "utf8 {args:?} with standard error on {stderr_name}"
        );
    }
}

#[test]
fn an_unreadable_input_exits_2_when_standard_error_cannot_be_written() {
    let dir = scratch();
    let missing = dir.path().join("missing.txt");
    assert_status_without_stderr(&["check", arg(&missing)], 2, "");
    assert_status_without_stderr(&["check", "-q", arg(&missing)], 2, "");
    assert_status_without_stderr(&["fix", arg(&missing)], 2, "");
}

#[test]
fn the_other_inputs_are_still_checked_when_standard_error_cannot_be_written() {
    let dir = scratch();
    let good = write(dir.path(), "good.txt", b"fine\n");
    let bad = write(dir.path(), "bad.txt", b"caf\xE9\n");
    let missing = dir.path().join("missing.txt");
    let expected = format!(
        "{}:1:4: offset 3: bytes E9 0A: after E9 expected a byte in 80–BF\n",
        arg(&bad)
    );
    assert_status_without_stderr(
        &["check", arg(&good), arg(&missing), arg(&bad)],
        2,
        &expected,
    );
    let listed = format!("{}\n", arg(&bad));
    assert_status_without_stderr(
        &["check", "-l", arg(&missing), arg(&good), arg(&bad)],
        2,
        &listed,
    );
}

#[test]
fn a_usage_error_or_a_spec_that_does_not_derive_keeps_its_status_when_standard_error_cannot_be_written()
 {
    let dir = scratch();
    let abnf = write(dir.path(), "bad.abnf", b"s = *( %x41 / b )\n");
    assert_status_without_stderr(&["tables", "--ruleset", "nope", "--emit", "c"], 2, "");
    assert_status_without_stderr(&["derive", "--abnf", arg(&abnf), "--start", "s"], 3, "");
}
