//! `utf8 fix` run as a user runs it.

mod common;

use std::io::Write as _;

use common::{arg, scratch, write};
use std::process::{Command, Output, Stdio};
use utf8_tests::rng::Rng;

const STRESS_TEST: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../data/reference/UTF-8-test.txt"
);

fn utf8_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_utf8"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the utf8 binary runs");
    let mut input = child.stdin.take().expect("piped");
    let stdin = stdin.to_vec();
    // Written from another thread: the output may fill its pipe before the
    // input is all written.
    let writer = std::thread::spawn(move || input.write_all(&stdin));
    let output = child.wait_with_output().expect("the utf8 binary ends");
    writer
        .join()
        .expect("the writer ends")
        .expect("write standard input");
    output
}

fn utf8(args: &[&str]) -> Output {
    utf8_with_stdin(args, b"")
}

fn succeeded(output: Output) -> Vec<u8> {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn dropped(bytes: &[u8]) -> Vec<u8> {
    bytes
        .utf8_chunks()
        .flat_map(|chunk| chunk.valid().as_bytes().to_vec())
        .collect()
}

/// Bytes that hit every kind of error often, from `seed`.
fn random_bytes(seed: u64, len: usize) -> Vec<u8> {
    Rng::new(seed).error_prone_bytes(len)
}

#[test]
fn the_stress_test_comes_out_as_lossy_decoding_reads_it() {
    let bytes = std::fs::read(STRESS_TEST).expect("the stress test is in data/reference");
    let fixed = succeeded(utf8(&["fix", STRESS_TEST]));
    assert_eq!(fixed, String::from_utf8_lossy(&bytes).as_bytes());
    let dropped_output = succeeded(utf8(&["fix", "--drop", STRESS_TEST]));
    assert_eq!(dropped_output, dropped(&bytes));
}

#[test]
fn random_bytes_come_out_as_lossy_decoding_reads_them() {
    for seed in 1..=20 {
        let bytes = random_bytes(seed, 64 + seed as usize * 997);
        let fixed = succeeded(utf8_with_stdin(&["fix", "-"], &bytes));
        assert_eq!(
            fixed,
            String::from_utf8_lossy(&bytes).as_bytes(),
            "seed {seed}"
        );
        let fixed = succeeded(utf8_with_stdin(&["fix", "--drop", "-"], &bytes));
        assert_eq!(fixed, dropped(&bytes), "seed {seed}");
    }
}

#[test]
fn a_file_of_several_mebibytes_is_fixed() {
    let dir = scratch();
    let mut bytes = random_bytes(99, 3 << 20);
    bytes.extend_from_slice(b"\xF0\x9F");
    let path = write(dir.path(), "large.bin", &bytes);
    let fixed = succeeded(utf8(&["fix", arg(&path)]));
    assert_eq!(fixed, String::from_utf8_lossy(&bytes).as_bytes());
}

#[test]
fn a_valid_input_comes_out_unchanged() {
    let text = "Grüße, 世界 💖\n";
    assert_eq!(
        succeeded(utf8_with_stdin(&["fix", "-"], text.as_bytes())),
        text.as_bytes()
    );
}

#[test]
fn the_output_is_valid_under_the_chosen_ruleset() {
    // A raw zero is invalid modified UTF-8; U+FFFD takes its place.
    let fixed = succeeded(utf8_with_stdin(
        &["fix", "--ruleset", "mutf8", "-"],
        b"a\x00b\xC0\x80",
    ));
    assert_eq!(fixed, b"a\xEF\xBF\xBDb\xC0\x80");
    // The CESU-8 pair is kept; F0 starts nothing in CESU-8, so each byte of
    // the four-byte form is a subpart of its own.
    let fixed = succeeded(utf8_with_stdin(
        &["fix", "--ruleset", "cesu8", "-"],
        b"\xED\xA0\xBD\xED\xB2\x96\xF0\x9F\x92\x96",
    ));
    let mut expected = b"\xED\xA0\xBD\xED\xB2\x96".to_vec();
    expected.extend("\u{FFFD}".repeat(4).as_bytes());
    assert_eq!(fixed, expected);
}

#[test]
fn output_goes_to_the_named_file() {
    let dir = scratch();
    let input = write(dir.path(), "in.txt", b"a\xFFb");
    let out = dir.path().join("out.txt");
    let stdout = succeeded(utf8(&["fix", "-o", arg(&out), arg(&input)]));
    assert!(stdout.is_empty());
    assert_eq!(std::fs::read(&out).unwrap(), "a\u{FFFD}b".as_bytes());
    assert_eq!(std::fs::read(&input).unwrap(), b"a\xFFb");
}

#[test]
fn a_dash_as_the_output_is_standard_output_not_a_file_named_dash() {
    let dir = scratch();
    write(dir.path(), "notes.txt", b"caf\xE9\n");
    for input in ["notes.txt", "-"] {
        let output = Command::new(env!("CARGO_BIN_EXE_utf8"))
            .args(["fix", input, "-o", "-"])
            .current_dir(dir.path())
            .stdin(std::fs::File::open(dir.path().join("notes.txt")).unwrap())
            .output()
            .expect("the utf8 binary runs");
        assert_eq!(
            succeeded(output),
            "caf\u{FFFD}\n".as_bytes(),
            "input {input}"
        );
        assert!(
            !dir.path().join("-").exists(),
            "utf8 fix {input} -o - made a file named -"
        );
    }
}

#[test]
fn in_place_replaces_the_file_and_leaves_no_temporary_file() {
    let dir = scratch();
    let input = write(dir.path(), "notes.txt", b"caf\xE9 \xC3\xA9\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let stdout = succeeded(utf8(&["fix", "--in-place", arg(&input)]));
    assert!(stdout.is_empty());
    assert_eq!(std::fs::read(&input).unwrap(), "caf\u{FFFD} é\n".as_bytes());
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(names, ["notes.txt"]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&input).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640, "the input's permissions are kept");
    }
}

#[test]
fn in_place_with_a_relative_path_and_drop() {
    let dir = scratch();
    write(dir.path(), "notes.txt", b"a\xC0\xAFb");
    let output = Command::new(env!("CARGO_BIN_EXE_utf8"))
        .args(["fix", "--drop", "--in-place", "notes.txt"])
        .current_dir(dir.path())
        .output()
        .expect("the utf8 binary runs");
    succeeded(output);
    assert_eq!(std::fs::read(dir.path().join("notes.txt")).unwrap(), b"ab");
}

#[test]
fn the_input_is_never_the_output_without_in_place() {
    let dir = scratch();
    let input = write(dir.path(), "in.txt", b"a\xFFb");
    let same = dir.path().join(".").join("in.txt");
    for out in [arg(&input), arg(&same)] {
        let output = utf8(&["fix", "-o", out, arg(&input)]);
        assert_eq!(output.status.code(), Some(2));
        let message = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            message,
            format!(
                "utf8: refusing to write over the input {}; use --in-place to replace it\n",
                arg(&input)
            )
        );
        assert_eq!(std::fs::read(&input).unwrap(), b"a\xFFb");
    }
}

#[test]
fn conflicting_or_impossible_requests_exit_2() {
    let dir = scratch();
    let input = write(dir.path(), "in.txt", b"a\xFFb");
    let out = dir.path().join("out.txt");
    let output = utf8(&["fix", "--in-place", "-o", arg(&out), arg(&input)]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!out.exists());
    let output = utf8(&["fix", "--in-place", "-"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "utf8: --in-place needs a file, not standard input\n"
    );
    let output = utf8(&["fix", arg(&dir.path().join("missing.txt"))]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&output.stderr).lines().count(), 1);
    let output = utf8(&["fix", "--ruleset", "utf9", arg(&input)]);
    assert_eq!(output.status.code(), Some(2));
    let output = utf8(&["fix", arg(dir.path())]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn help_documents_the_exit_codes() {
    let help = String::from_utf8(succeeded(utf8(&["fix", "--help"]))).unwrap();
    assert!(
        help.contains("Exit status:")
            && help.contains("-o naming it")
            && help.contains("as the file standard input reads")
            && help.contains("--in-place on standard input or on\n     what is not a regular file")
            && help.contains("its owner and group"),
        "{help}"
    );
}

#[cfg(unix)]
#[test]
fn in_place_on_a_symbolic_link_fixes_its_target_and_keeps_the_link() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = scratch();
    let target = write(dir.path(), "real/notes.txt", b"caf\xE9\n");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o604)).unwrap();
    // A relative link, from another directory: the temporary file must go
    // beside the target, not beside the link.
    std::fs::create_dir(dir.path().join("links")).unwrap();
    let link = dir.path().join("links/notes.txt");
    std::os::unix::fs::symlink("../real/notes.txt", &link).unwrap();
    succeeded(utf8(&["fix", "--in-place", arg(&link)]));
    let metadata = std::fs::symlink_metadata(&link).unwrap();
    assert!(
        metadata.file_type().is_symlink(),
        "the link is still a link"
    );
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        std::path::Path::new("../real/notes.txt")
    );
    assert_eq!(std::fs::read(&target).unwrap(), "caf\u{FFFD}\n".as_bytes());
    let mode = std::fs::metadata(&target).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o604, "the target's permissions are kept");
    for directory in ["real", "links"] {
        let names: Vec<_> = std::fs::read_dir(dir.path().join(directory))
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(
            names,
            ["notes.txt"],
            "no temporary file left in {directory}"
        );
    }
}

#[cfg(unix)]
#[test]
fn the_output_is_never_the_file_standard_input_reads() {
    let dir = scratch();
    let input = write(dir.path(), "notes.txt", b"caf\xE9\n");
    let output = Command::new(env!("CARGO_BIN_EXE_utf8"))
        .args(["fix", "-", "-o", arg(&input)])
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .expect("the utf8 binary runs");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "utf8: refusing to write over {0}, which is also standard input; use --in-place {0} to replace it\n",
            arg(&input)
        )
    );
    assert_eq!(std::fs::read(&input).unwrap(), b"caf\xE9\n");
    // Another file on standard input is fixed into it.
    let other = write(dir.path(), "other.txt", b"na\xEFve\n");
    let output = Command::new(env!("CARGO_BIN_EXE_utf8"))
        .args(["fix", "-", "-o", arg(&input)])
        .stdin(std::fs::File::open(&other).unwrap())
        .output()
        .expect("the utf8 binary runs");
    succeeded(output);
    assert_eq!(std::fs::read(&input).unwrap(), "na\u{FFFD}ve\n".as_bytes());
}

#[cfg(unix)]
#[test]
fn in_place_refuses_a_fifo_at_once() {
    let dir = scratch();
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", fifo.display());
    let output = common::utf8_within_ten_seconds(&["fix", "--in-place", arg(&fifo)]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!("utf8: cannot edit {}: not a regular file\n", arg(&fifo))
    );
    let metadata = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(&metadata.file_type()),
        "the FIFO is still a FIFO"
    );
}

/// Whether the tests run as root: the owner of a file this process makes.
#[cfg(unix)]
fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt as _;
    let probe = tempfile::tempfile().expect("a temporary file");
    probe.metadata().expect("its metadata").uid() == 0
}

/// `nobody` and `nogroup` on Linux distributions.
#[cfg(unix)]
const NOBODY: u32 = 65534;

#[cfg(unix)]
#[test]
fn in_place_as_root_keeps_the_owner_group_and_permissions() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    if !running_as_root() {
        eprintln!("skipped: only root can give a file to another user");
        return;
    }
    let dir = scratch();
    let input = write(dir.path(), "notes.txt", b"caf\xE9\n");
    std::os::unix::fs::chown(&input, Some(NOBODY), Some(NOBODY)).unwrap();
    std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o640)).unwrap();
    succeeded(utf8(&["fix", "--in-place", arg(&input)]));
    assert_eq!(std::fs::read(&input).unwrap(), "caf\u{FFFD}\n".as_bytes());
    let metadata = std::fs::metadata(&input).unwrap();
    assert_eq!((metadata.uid(), metadata.gid()), (NOBODY, NOBODY));
    assert_eq!(metadata.permissions().mode() & 0o7777, 0o640);
}

/// `utf8` to be run by `nobody`, with `groups` as its supplementary groups,
/// through `setpriv`: where the tests run as root and `setpriv` is there.
#[cfg(unix)]
fn utf8_as_nobody(groups: &str) -> Option<Command> {
    let setpriv = Command::new("setpriv").arg("--version").output();
    if !running_as_root() || !setpriv.is_ok_and(|output| output.status.success()) {
        return None;
    }
    let id = NOBODY.to_string();
    let mut command = Command::new("setpriv");
    command
        .args(["--reuid", &id, "--regid", &id, "--groups", groups, "--"])
        .arg(env!("CARGO_BIN_EXE_utf8"));
    Some(command)
}

#[cfg(unix)]
#[test]
fn in_place_by_another_user_keeps_the_group_the_user_is_in() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let Some(mut as_nobody) = utf8_as_nobody("100") else {
        eprintln!("skipped: needs root and setpriv to run the command as another user");
        return;
    };
    let dir = scratch();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let input = write(dir.path(), "notes.txt", b"caf\xE9\n");
    // Root's file, of group 100, which the command's user is in: the user
    // may replace it (the directory lets them) and give it its group, but
    // not root as its owner.
    std::os::unix::fs::chown(&input, Some(0), Some(100)).unwrap();
    std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o664)).unwrap();
    let output = as_nobody
        .args(["fix", "--in-place", arg(&input)])
        .output()
        .expect("the utf8 binary runs");
    succeeded(output);
    assert_eq!(std::fs::read(&input).unwrap(), "caf\u{FFFD}\n".as_bytes());
    let metadata = std::fs::metadata(&input).unwrap();
    assert_eq!((metadata.uid(), metadata.gid()), (NOBODY, 100));
    assert_eq!(metadata.permissions().mode() & 0o7777, 0o664);
}

#[cfg(unix)]
#[test]
fn in_place_in_a_directory_the_user_cannot_write_says_so_in_plain_words() {
    use std::os::unix::fs::PermissionsExt as _;
    // Root writes in any directory: the command runs as nobody then.
    let mut command = if running_as_root() {
        let Some(as_nobody) = utf8_as_nobody(&NOBODY.to_string()) else {
            eprintln!("skipped: needs setpriv to run the command as another user than root");
            return;
        };
        as_nobody
    } else {
        Command::new(env!("CARGO_BIN_EXE_utf8"))
    };
    let dir = scratch();
    let input = write(dir.path(), "notes.txt", b"caf\xE9\n");
    std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    let output = command
        .args(["fix", "--in-place", arg(&input)])
        .output()
        .expect("the utf8 binary runs");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "utf8: cannot replace {}: cannot create a temporary file in {}: Permission denied (os error 13)\n",
            arg(&input),
            std::fs::canonicalize(dir.path()).unwrap().display()
        )
    );
    assert_eq!(std::fs::read(&input).unwrap(), b"caf\xE9\n");
}
