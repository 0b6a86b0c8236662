//! Scratch files for the command's end-to-end tests.

// Each test crate compiles its own copy and uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// Writes `contents` at `name` under `directory`, making the directories
/// `name` names.
pub fn write(directory: &Path, name: &str, contents: &[u8]) -> PathBuf {
    let path = directory.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("make the scratch directories");
    }
    std::fs::write(&path, contents).expect("write a scratch file");
    path
}

pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Runs `utf8 ARGS` for at most ten seconds: a command that would wait
/// forever, or work for minutes, is killed, and the test fails instead of
/// hanging. Its output is read as it comes, so that a command that writes
/// more than a pipe holds is not mistaken for one that waits.
pub fn utf8_within_ten_seconds(args: &[&str]) -> Output {
    within_ten_seconds(Command::new(env!("CARGO_BIN_EXE_utf8")).args(args))
}

/// [`utf8_within_ten_seconds`] on a pool of `threads` threads.
pub fn utf8_on_threads_within_ten_seconds(threads: usize, args: &[&str]) -> Output {
    within_ten_seconds(
        Command::new(env!("CARGO_BIN_EXE_utf8"))
            .args(args)
            .env("RAYON_NUM_THREADS", threads.to_string()),
    )
}

/// [`utf8_within_ten_seconds`] with standard error sent to `stderr`
/// (`/dev/full`, a pipe whose reader is gone) instead of read: the
/// output's `stderr` is empty.
pub fn utf8_with_stderr_within_ten_seconds(stderr: Stdio, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_utf8"));
    command.args(args).stderr(stderr);
    run_within_ten_seconds(&mut command)
}

fn within_ten_seconds(command: &mut Command) -> Output {
    run_within_ten_seconds(command.stderr(Stdio::piped()))
}

/// Runs `command` with its standard error as it is set: read when piped.
fn run_within_ten_seconds(command: &mut Command) -> Output {
    let args: Vec<_> = command.get_args().map(|arg| arg.to_owned()).collect();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the utf8 binary runs");
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).expect("read the output");
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = child
        .stderr
        .take()
        .map(|pipe| drain(Box::new(pipe) as Box<dyn std::io::Read + Send>));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child is there") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(10) {
            child.kill().expect("kill the waiting command");
            child.wait().expect("the killed command ends");
            panic!("utf8 {args:?} was still running after ten seconds");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.map_or_else(Vec::new, |stderr| stderr.join().expect("stderr read")),
    }
}

/// The standard output of a command that must have succeeded (its standard
/// error in the message if it did not).
pub fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("the output is UTF-8")
}
