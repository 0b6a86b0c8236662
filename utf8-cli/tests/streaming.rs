//! `utf8 check` and `fix` on inputs read a buffer at a time: files that
//! change while they are read, standard input far larger than the memory the
//! command may take, readers that go away, and buffers small enough to cut
//! every sequence.

mod common;

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{arg, scratch, write};

const STRESS_TEST: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../data/reference/UTF-8-test.txt"
);

fn utf8() -> Command {
    Command::new(env!("CARGO_BIN_EXE_utf8"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run_with_stdin(mut command: Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the utf8 binary runs");
    let mut input = child.stdin.take().expect("piped");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&stdin));
    let output = child.wait_with_output().expect("the utf8 binary ends");
    match writer.join().expect("the writer ends") {
        // A command given a path has no use for standard input.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("write standard input"),
    }
    output
}

/// A file that changes while the command reads it. The change must land
/// between two reads, every time: racing a writer against the reader would
/// make the test pass or fail with the timing. So the command, built for
/// tests, reads 4 KiB at a time and, after the first 4 KiB of its first
/// file, creates `paused` in a directory we give it and waits there until we
/// create `resume`; in between, the test changes the file. (A FIFO would not
/// do: it is no regular file, with no size to fall short of.)
struct Paused {
    child: Child,
    directory: PathBuf,
}

impl Paused {
    /// Runs `utf8 ARGS` in `directory` until it pauses.
    fn start(directory: &Path, args: &[&str]) -> Paused {
        Paused::start_with(directory, args, &[])
    }

    /// [`Paused::start`] with more variables in the command's environment.
    fn start_with(directory: &Path, args: &[&str], env: &[(&str, &str)]) -> Paused {
        let handshake = directory.join("handshake");
        std::fs::create_dir(&handshake).expect("a handshake directory");
        let child = utf8()
            .args(args)
            .envs(env.iter().copied())
            .env("UTF8_TEST_BUFFER_LEN", "4096")
            .env("UTF8_TEST_PAUSE_DIR", &handshake)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the utf8 binary runs");
        let started = Instant::now();
        while !handshake.join("paused").exists() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the command never paused"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        Paused {
            child,
            directory: handshake,
        }
    }

    fn resume(self) -> Output {
        std::fs::write(self.directory.join("resume"), b"").expect("resume");
        self.child.wait_with_output().expect("the utf8 binary ends")
    }
}

fn truncate(path: &Path, len: u64) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|file| file.set_len(len))
        .expect("truncate the file");
}

/// 64 KiB of text: 16 buffers of the tests' 4 KiB.
fn text_file(directory: &Path, name: &str) -> PathBuf {
    let line = "Grüße, 世界 💖 and some ASCII to fill the line up.\n";
    let mut bytes = line.repeat(65536 / line.len() + 1).into_bytes();
    bytes.truncate(65536);
    write(directory, name, &bytes)
}

/// `check` maps a file of at least this many bytes: all of them.
const MAP_EVERY_FILE: (&str, &str) = ("UTF8_TEST_MAP_AT_LEAST", "0");

#[test]
fn a_file_truncated_while_it_is_checked_is_an_error_and_the_next_inputs_are_still_checked() {
    if !cfg!(debug_assertions) {
        return; // The pause is a hook of debug builds only.
    }
    // Read, the file ends early; mapped (Linux), the command has checked
    // the first 4 KiB window of the map when it pauses, and the pages after
    // the new end are gone from the map when it goes on: each would raise
    // SIGBUS.
    let mut modes = vec![(&[][..], "65536 bytes expected, 4096 read")];
    if cfg!(target_os = "linux") {
        modes.push((
            &[MAP_EVERY_FILE][..],
            "65536 bytes at the start, 1000 at the end",
        ));
    }
    for (env, detail) in modes {
        let dir = scratch();
        let shrinking = text_file(dir.path(), "shrinking.txt");
        let valid = write(dir.path(), "valid.txt", "fine ✓\n".as_bytes());
        let invalid = write(dir.path(), "invalid.txt", b"not \xFF fine");
        let paused = Paused::start_with(
            dir.path(),
            &["check", arg(&shrinking), arg(&valid), arg(&invalid)],
            env,
        );
        truncate(&shrinking, 1000);
        let output = paused.resume();
        assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
        assert_eq!(
            text(&output.stderr),
            format!(
                "utf8: {} changed while it was read ({detail})\n",
                arg(&shrinking)
            )
        );
        // The valid file prints nothing; the invalid one after it was
        // checked too.
        assert_eq!(
            text(&output.stdout),
            format!(
                "{}:1:5: offset 4: bytes FF: FF cannot start a sequence; expected 00–7F, C2–F4\n",
                arg(&invalid)
            )
        );
    }
}

#[test]
fn a_mapped_file_in_windows_that_cut_every_sequence_reports_what_a_read_one_does() {
    if !cfg!(debug_assertions) || !cfg!(target_os = "linux") {
        return;
    }
    let dir = scratch();
    let stress = std::fs::read(STRESS_TEST).expect("the stress test is in data/reference");
    let mut binary = stress.clone();
    binary[100] = 0;
    let binary = write(dir.path(), "binary.txt", &binary);
    let runs: [&[&str]; 4] = [
        &["check", "--all", "--format", "json", STRESS_TEST],
        &["check", "--all", "--ruleset", "cesu8", STRESS_TEST],
        &["check", "-l", STRESS_TEST],
        &["check", "-r", "--files-without-errors", arg(&binary)],
    ];
    for args in runs {
        let read = utf8()
            .args(args)
            .arg("--no-mmap")
            .output()
            .expect("the utf8 binary runs");
        assert!(!read.stdout.is_empty() || args.contains(&"-r"));
        for len in [1, 2, 3, 5, 64, 4096, 1 << 20] {
            let mapped = utf8()
                .args(args)
                .env("UTF8_TEST_BUFFER_LEN", len.to_string())
                .env(MAP_EVERY_FILE.0, MAP_EVERY_FILE.1)
                .output()
                .expect("the utf8 binary runs");
            assert_eq!(mapped.status.code(), read.status.code(), "{args:?}, {len}");
            assert!(mapped.stdout == read.stdout, "{args:?}, {len}-byte windows");
            assert_eq!(mapped.stderr, read.stderr, "{args:?}, {len}");
        }
    }
}

#[test]
fn a_file_rewritten_in_place_while_it_is_checked_is_an_error_read_or_mapped() {
    if !cfg!(debug_assertions) {
        return;
    }
    let modes: &[&[(&str, &str)]] = if cfg!(target_os = "linux") {
        &[&[], &[MAP_EVERY_FILE]]
    } else {
        &[&[]]
    };
    for env in modes {
        let dir = scratch();
        let changing = text_file(dir.path(), "changing.txt");
        let valid = write(dir.path(), "valid.txt", b"fine\n");
        let paused = Paused::start_with(dir.path(), &["check", arg(&changing), arg(&valid)], env);
        // Same size, other bytes: only the modification time tells.
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(&changing)
            .expect("open for writing");
        file.write_all(b"rewritten").expect("rewrite");
        drop(file);
        let output = paused.resume();
        assert_eq!(output.status.code(), Some(2), "{env:?}");
        assert_eq!(
            text(&output.stderr),
            format!(
                "utf8: {} changed while it was read (modified during the read)\n",
                arg(&changing)
            ),
            "{env:?}"
        );
    }
}

#[test]
fn a_file_truncated_while_it_is_fixed_is_an_error_and_is_not_replaced() {
    if !cfg!(debug_assertions) {
        return;
    }
    let dir = scratch();
    let shrinking = text_file(dir.path(), "shrinking.txt");
    let original = std::fs::read(&shrinking).expect("read the file");
    let paused = Paused::start(dir.path(), &["fix", arg(&shrinking)]);
    truncate(&shrinking, 1000);
    let output = paused.resume();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        format!(
            "utf8: {} changed while it was read (65536 bytes expected, 4096 read)\n",
            arg(&shrinking)
        )
    );
    assert!(
        original.starts_with(&output.stdout),
        "what was written came from the file"
    );

    // In place, the file is left as the truncation left it, and no
    // temporary file stays behind. (The error comes after the first
    // buffer, where the check that precedes the repair is stopped.)
    let dir = scratch();
    let mut bytes = original.clone();
    bytes[5000] = 0xFF;
    let shrinking = write(dir.path(), "shrinking.txt", &bytes);
    let paused = Paused::start(dir.path(), &["fix", "--in-place", arg(&shrinking)]);
    truncate(&shrinking, 1000);
    let output = paused.resume();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert_eq!(text(&output.stderr).lines().count(), 1);
    assert_eq!(
        std::fs::read(&shrinking).expect("read the file"),
        bytes[..1000]
    );
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list the directory")
        .map(|entry| entry.expect("an entry").file_name())
        .collect();
    assert_eq!(names.len(), 2, "the file and the handshake: {names:?}");
}

#[test]
fn buffers_that_cut_every_sequence_change_no_report_and_no_fix() {
    if !cfg!(debug_assertions) {
        return; // The buffer size is a hook of debug builds only.
    }
    let stress = std::fs::read(STRESS_TEST).expect("the stress test is in data/reference");
    let runs: [&[&str]; 4] = [
        &["check", "--all", "--format", "json", STRESS_TEST],
        &["check", "--all", "--ruleset", "cesu8", "-"],
        &["fix", STRESS_TEST],
        &["fix", "--drop", "--ruleset", "wtf8", "-"],
    ];
    for args in runs {
        let mut command = utf8();
        command.args(args);
        let whole = run_with_stdin(command, &stress);
        assert!(!whole.stdout.is_empty());
        for len in [1, 2, 3, 5, 7, 11, 13, 17] {
            let mut command = utf8();
            command
                .args(args)
                .env("UTF8_TEST_BUFFER_LEN", len.to_string());
            let output = run_with_stdin(command, &stress);
            assert_eq!(output.status.code(), whole.status.code(), "{args:?}, {len}");
            assert!(
                output.stdout == whole.stdout,
                "{args:?}, {len}-byte buffers"
            );
            assert_eq!(output.stderr, whole.stderr, "{args:?}, {len}");
        }
    }
}

/// 1 MiB of text in lines, ending with one invalid byte.
fn block() -> Vec<u8> {
    let line = "Grüße, 世界 💖 — text in a few scripts, Ελληνικά, русский.\n";
    let mut bytes = line.repeat((1 << 20) / line.len()).into_bytes();
    bytes.resize((1 << 20) - 1, b'.');
    bytes.push(0xFF);
    bytes
}

/// Runs `utf8 ARGS` with `blocks` blocks on standard input: how many bytes
/// and lines it wrote, its exit status, and its peak resident memory in KiB
/// as it measured it itself (see `UTF8_TEST_PEAK_MEMORY_TO` in the command's
/// `hooks.rs`).
fn run_measured(args: &[&str], blocks: usize) -> (u64, u64, Option<i32>, u64) {
    let dir = scratch();
    let peak_file = dir.path().join("peak");
    let mut child = utf8()
        .args(args)
        .env("UTF8_TEST_PEAK_MEMORY_TO", &peak_file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the utf8 binary runs");
    let mut input = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || {
        let block = block();
        for _ in 0..blocks {
            input.write_all(&block)?;
        }
        Ok::<(), std::io::Error>(())
    });
    let mut output = child.stdout.take().expect("piped");
    let mut buffer = vec![0; 1 << 20];
    let (mut bytes, mut lines) = (0u64, 0u64);
    loop {
        let n = output.read(&mut buffer).expect("read the output");
        if n == 0 {
            break;
        }
        bytes += n as u64;
        lines += buffer[..n].iter().filter(|&&b| b == b'\n').count() as u64;
    }
    writer
        .join()
        .expect("the writer ends")
        .expect("write standard input");
    let status = child.wait().expect("the utf8 binary ends");
    let peak = std::fs::read_to_string(&peak_file).expect("the command wrote its peak memory");
    let peak = peak.parse().expect("KiB");
    (bytes, lines, status.code(), peak)
}

#[test]
#[cfg(target_os = "linux")]
fn a_gigabyte_of_standard_input_is_checked_and_fixed_in_constant_memory() {
    const BLOCKS: usize = 1024;
    const LIMIT_KIB: u64 = 64 << 10;
    if !cfg!(debug_assertions) {
        return; // The command measures itself in debug builds only.
    }
    let (_, reports, status, peak) = run_measured(&["check", "--all", "-"], BLOCKS);
    assert_eq!(
        (status, reports),
        (Some(1), BLOCKS as u64),
        "an error in each block"
    );
    assert!(peak < LIMIT_KIB, "check took {peak} KiB");
    let (written, _, status, peak) = run_measured(&["fix", "-"], BLOCKS);
    assert_eq!(status, Some(0));
    // Each FF became EF BF BD.
    assert_eq!(written, ((BLOCKS as u64) << 20) + 2 * BLOCKS as u64);
    assert!(peak < LIMIT_KIB, "fix took {peak} KiB");
}

#[test]
fn a_reader_that_goes_away_ends_every_command_at_once_and_quietly() {
    let dir = scratch();
    let big = write(dir.path(), "big.txt", &block().repeat(64));
    // Far more reports than a pipe holds.
    let broken = write(dir.path(), "broken.txt", &b"\xFF\n".repeat(200_000));
    // Far more paths than a pipe holds, all of valid files.
    for i in 0..3000 {
        write(
            dir.path(),
            &format!("tree/a-valid-file-with-a-long-name-{i:04}.txt"),
            b"ok",
        );
    }
    let tree = dir.path().join("tree");
    // The status is the answer for what was checked before the reader went:
    // the error lines it read mean "invalid", the paths of valid files do not.
    for (args, status) in [
        (vec!["fix", "--drop", arg(&big)], 0),
        (vec!["check", "--all", arg(&broken)], 1),
        (vec!["check", "-r", "--files-without-errors", arg(&tree)], 0),
    ] {
        let mut child = utf8()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the utf8 binary runs");
        // Read 10 bytes, as `| head -c 10` does, and go away.
        let mut stdout = child.stdout.take().expect("piped");
        let mut first = [0; 10];
        stdout.read_exact(&mut first).expect("some output");
        drop(stdout);
        let output = child.wait_with_output().expect("the utf8 binary ends");
        assert_eq!(output.status.code(), Some(status), "{args:?}");
        // No one is left to read a message about it, and `2>&1 | head` would
        // mix one into what the reader did read.
        assert!(
            output.stderr.is_empty(),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn derive_and_tables_end_quietly_when_the_reader_is_gone_before_they_write() {
    for args in [
        &["derive", "--format", "markdown"][..],
        &["tables", "--emit", "json"],
    ] {
        let mut child = utf8()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the utf8 binary runs");
        // Gone before the derivation is done, as a rule: the write fails.
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("the utf8 binary ends");
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(
            output.stderr.is_empty(),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn errors_on_a_pipe_are_reported_before_the_input_ends() {
    let mut child = utf8()
        .args(["check", "--all", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the utf8 binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    stdin
        .write_all(b"one \xFF\n")
        .expect("write standard input");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("piped"));
    let (line_tx, line_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = line_tx.send(std::io::BufRead::read_line(&mut stdout, &mut line).map(|_| line));
    });
    // Standard input is still open: the report must not wait for its end.
    let line = line_rx
        .recv_timeout(Duration::from_secs(60))
        .expect("a report while the input is still open")
        .expect("read the report");
    assert_eq!(
        line,
        "<stdin>:1:5: offset 4: bytes FF: FF cannot start a sequence; expected 00–7F, C2–F4\n"
    );
    drop(stdin);
    assert_eq!(child.wait().expect("the utf8 binary ends").code(), Some(1));
}
