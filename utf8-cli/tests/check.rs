//! `utf8 check` run as a user runs it.

mod common;

use std::io::Write as _;
use std::path::Path;

use common::{arg, scratch, write};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const STRESS_TEST: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../data/reference/UTF-8-test.txt"
);

fn utf8_in(directory: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_utf8"))
        .args(args)
        .current_dir(directory)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the utf8 binary runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(stdin)
        .expect("write standard input");
    child.wait_with_output().expect("the utf8 binary ends")
}

fn utf8(args: &[&str]) -> Output {
    utf8_in(Path::new("."), args, b"")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

fn json_lines(output: &Output) -> Vec<Value> {
    text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is a JSON object"))
        .collect()
}

/// The errors `core::str::from_utf8` finds when restarted after each one,
/// as lossy decoding does: (offset, Some(len) or None at a truncated end).
fn reference_errors(bytes: &[u8]) -> Vec<(usize, Option<usize>)> {
    let mut errors = Vec::new();
    let mut position = 0;
    while let Err(e) = std::str::from_utf8(&bytes[position..]) {
        let offset = position + e.valid_up_to();
        errors.push((offset, e.error_len()));
        match e.error_len() {
            Some(len) => position = offset + len,
            None => break,
        }
    }
    errors
}

/// Line and column as the lossy text shows them, computed without the tool's code.
fn reference_line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |newline| newline + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = 1 + String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count();
    (line, column)
}

#[test]
fn a_valid_file_exits_0_and_prints_nothing() {
    let dir = scratch();
    let path = write(dir.path(), "valid.txt", "Grüße, 世界 💖\n".as_bytes());
    let output = utf8(&["check", arg(&path)]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty() && output.stderr.is_empty());
}

#[test]
fn an_empty_file_is_valid() {
    let dir = scratch();
    let path = write(dir.path(), "empty.txt", b"");
    assert_eq!(utf8(&["check", arg(&path)]).status.code(), Some(0));
}

#[test]
fn an_invalid_file_exits_1_with_its_first_error() {
    let dir = scratch();
    let path = write(dir.path(), "bad.txt", b"one\ntwo \xE0\x80 three \xC0\n");
    let output = utf8(&["check", arg(&path)]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        format!(
            "{}:2:5: offset 8: bytes E0 80: after E0 expected a byte in A0–BF\n",
            arg(&path)
        )
    );
    assert!(output.stderr.is_empty());
}

#[test]
fn a_truncated_file_says_the_input_ends_inside_a_sequence() {
    let dir = scratch();
    let path = write(dir.path(), "cut.txt", b"price: 5 \xE2\x82");
    let output = utf8(&["check", arg(&path)]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stdout).ends_with(
            ":1:10: offset 9: bytes E2 82: the input ends after E2 82; expected a byte in 80–BF\n"
        ),
        "{}",
        text(&output.stdout)
    );
    let json = json_lines(&utf8(&["check", "--format", "json", arg(&path)]));
    assert_eq!(json.len(), 1);
    assert_eq!(json[0]["len"], Value::Null);
    assert_eq!(json[0]["offset"], 9);
    assert_eq!(json[0]["bytes"], "E282");
}

#[test]
fn json_lines_carry_every_field() {
    let dir = scratch();
    let path = write(dir.path(), "bad.txt", b"a\xF0\x9F\x92b\n\xFF");
    let output = utf8(&["check", "--all", "--format", "json", arg(&path)]);
    assert_eq!(output.status.code(), Some(1));
    let json = json_lines(&output);
    assert_eq!(
        json[0],
        serde_json::json!({
            "path": arg(&path),
            "ruleset": "rfc3629",
            "offset": 1,
            "len": 3,
            "line": 1,
            "column": 2,
            "bytes": "F09F9262",
            "expected": "a byte in 80–BF",
            "message": "after F0 9F 92 expected a byte in 80–BF",
        })
    );
    assert_eq!(json[1]["offset"], 6);
    assert_eq!(
        (&json[1]["line"], &json[1]["column"]),
        (&2.into(), &1.into())
    );
    assert_eq!(
        json[1]["message"],
        "FF cannot start a sequence; expected 00–7F, C2–F4"
    );
}

#[test]
fn a_directory_and_a_missing_file_exit_2_with_one_line_each() {
    let dir = scratch();
    let output = utf8(&["check", arg(dir.path())]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        format!(
            "utf8: cannot read {}: it is a directory (use -r to check the files under it)\n",
            arg(dir.path())
        )
    );
    let missing = dir.path().join("missing.txt");
    let output = utf8(&["check", arg(&missing)]);
    assert_eq!(output.status.code(), Some(2));
    let message = text(&output.stderr);
    assert!(
        message.starts_with(&format!("utf8: cannot read {}: ", arg(&missing))),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1, "{message}");
}

#[test]
fn the_other_files_are_still_checked_after_one_cannot_be_read() {
    let dir = scratch();
    let valid = write(dir.path(), "valid.txt", b"fine");
    let invalid = write(dir.path(), "invalid.txt", b"not \xFF fine");
    let missing = dir.path().join("missing.txt");
    let output = utf8(&["check", arg(&missing), arg(&valid), arg(&invalid)]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "an I/O error outranks invalid"
    );
    assert_eq!(
        text(&output.stdout),
        format!(
            "{}:1:5: offset 4: bytes FF: FF cannot start a sequence; expected 00–7F, C2–F4\n",
            arg(&invalid)
        )
    );
    assert_eq!(text(&output.stderr).lines().count(), 1);
    let output = utf8(&["check", arg(&valid), arg(&invalid)]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn a_dash_reads_standard_input() {
    let dir = scratch();
    let output = utf8_in(dir.path(), &["check", "-"], "ok ✓".as_bytes());
    assert_eq!(output.status.code(), Some(0));
    let output = utf8_in(dir.path(), &["check", "-"], b"ok \xED\xA0\x80");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        "<stdin>:1:4: offset 3: bytes ED A0: after ED expected a byte in 80–9F\n"
    );
}

#[test]
fn each_ruleset_accepts_its_own_forms_and_rejects_the_others() {
    let dir = scratch();
    // (ruleset, valid under it but not under RFC 3629, invalid under it but valid under RFC 3629)
    let cases: [(&str, &[u8], &[u8]); 6] = [
        ("rfc3629", "💖".as_bytes(), b""),
        // U+1F496 as a CESU-8 surrogate pair; its four-byte form is not CESU-8.
        ("cesu8", b"\xED\xA0\xBD\xED\xB2\x96", "💖".as_bytes()),
        // U+0000 as C0 80; a raw zero byte is not modified UTF-8.
        ("mutf8", b"a\xC0\x80b", b"a\x00b"),
        // A lone surrogate is WTF-8.
        ("wtf8", b"\xED\xA0\x80", b"\xF4\x90\x80\x80"),
        // U+7FFFFFFF in six bytes, surrogates allowed.
        ("rfc2279", b"\xFD\xBF\xBF\xBF\xBF\xBF\xED\xA0\x80", b"\xF8"),
        // Six bytes too, but no surrogates.
        ("legacy31", b"\xFD\xBF\xBF\xBF\xBF\xBF", b"\xED\xA0\x80"),
    ];
    for (ruleset, own, foreign) in cases {
        let own_path = write(dir.path(), &format!("{ruleset}-own"), own);
        let output = utf8(&["check", "--ruleset", ruleset, arg(&own_path)]);
        assert_eq!(output.status.code(), Some(0), "{ruleset}: {output:?}");
        if ruleset != "rfc3629" {
            let output = utf8(&["check", arg(&own_path)]);
            assert_eq!(output.status.code(), Some(1), "{ruleset} under rfc3629");
        }
        if !foreign.is_empty() {
            let foreign_path = write(dir.path(), &format!("{ruleset}-foreign"), foreign);
            let output = utf8(&["check", "--ruleset", ruleset, arg(&foreign_path)]);
            assert_eq!(output.status.code(), Some(1), "{ruleset}: {output:?}");
        }
    }
}

#[test]
fn dialect_errors_are_explained_by_their_own_automaton() {
    let dir = scratch();
    let path = write(dir.path(), "pair.txt", b"x\xED\xA0\xBD!");
    let output = utf8(&["check", "--ruleset", "cesu8", arg(&path)]);
    assert!(
        text(&output.stdout).ends_with("bytes ED A0 BD 21: after ED A0 BD expected ED\n"),
        "{}",
        text(&output.stdout)
    );
    // A pair is one character: the error after it is in column 2.
    let path = write(
        dir.path(),
        "after-pair.txt",
        b"\xED\xA0\xBD\xED\xB2\x96\xFF",
    );
    let output = utf8(&["check", "--ruleset", "cesu8", arg(&path)]);
    assert!(
        text(&output.stdout).contains(":1:2: offset 6: bytes FF: "),
        "{}",
        text(&output.stdout)
    );
    let path = write(dir.path(), "zero.txt", b"\x00");
    let output = utf8(&["check", "--ruleset", "mutf8", arg(&path)]);
    assert!(
        text(&output.stdout)
            .ends_with("bytes 00: 00 cannot start a sequence; expected 01–7F, C0, C2–EF\n"),
        "{}",
        text(&output.stdout)
    );
    // Right after a lead surrogate, WTF-8 forbids a trail surrogate.
    let path = write(dir.path(), "halves.txt", b"\xED\xA0\x80\xED\xB0\x80");
    let output = utf8(&["check", "--ruleset", "wtf8", arg(&path)]);
    assert!(
        text(&output.stdout)
            .ends_with(":1:2: offset 3: bytes ED B0: after ED expected a byte in 80–AF\n"),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn an_unknown_ruleset_is_a_usage_error_naming_the_known_ones() {
    let output = utf8(&["check", "--ruleset", "utf9", "-"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "utf8: unknown ruleset `utf9`; the rulesets are rfc3629, rfc2279, legacy31, cesu8, \
         mutf8, wtf8\n"
    );
}

#[test]
fn the_stress_test_errors_are_those_core_str_finds() {
    let bytes = std::fs::read(STRESS_TEST).expect("the stress test is in data/reference");
    let output = utf8(&["check", "--all", "--format", "json", STRESS_TEST]);
    assert_eq!(output.status.code(), Some(1));
    let json = json_lines(&output);
    let found: Vec<(usize, Option<usize>)> = json
        .iter()
        .map(|error| {
            (
                error["offset"].as_u64().expect("an offset") as usize,
                error["len"].as_u64().map(|len| len as usize),
            )
        })
        .collect();
    assert_eq!(found, reference_errors(&bytes));
    for error in &json {
        let offset = error["offset"].as_u64().unwrap() as usize;
        let (line, column) = reference_line_column(&bytes, offset);
        assert_eq!(
            (error["line"].as_u64(), error["column"].as_u64()),
            (Some(line as u64), Some(column as u64)),
            "{error}"
        );
    }
}

#[test]
fn the_stress_test_lines_and_columns_are_where_a_reader_finds_them() {
    let report = text(&utf8(&["check", "--all", STRESS_TEST]).stdout);
    // Each example's invalid bytes follow the quote that opens it: the
    // column is the length of the line's text up to that quote, plus one.
    for expected in [
        // `2.3.5  U-00110000 = f4 90 80 80 = "`, 35 characters
        ":93:36: offset 5932: bytes F4 90: after F4 expected a byte in 80–8F",
        // `3.1.1  First continuation byte 0x80: "`, 38 characters
        ":102:39: offset 6658: bytes 80: 80 cannot start a sequence; expected 00–7F, C2–F4",
        // `3.3.1  2-byte sequence with last byte missing (U+0000):     "`, 61
        ":153:62: offset 10761: bytes C0: C0 cannot start a sequence; expected 00–7F, C2–F4",
        // `5.1.1  U+D800 = ed a0 80 = "`, 28 characters, then A0 and 80 each alone
        ":247:29: offset 18333: bytes ED A0: after ED expected a byte in 80–9F",
        ":247:30: offset 18334: bytes A0: A0 cannot start a sequence; expected 00–7F, C2–F4",
        ":247:31: offset 18335: bytes 80: 80 cannot start a sequence; expected 00–7F, C2–F4",
    ] {
        let line = format!("{STRESS_TEST}{expected}\n");
        assert!(report.contains(&line), "{line}");
    }
}

#[test]
fn a_file_of_several_mebibytes_is_checked() {
    let dir = scratch();
    let mut bytes = "Grüße, 世界 💖\n".repeat(200_000).into_bytes();
    let offset = bytes.len() - 5;
    bytes[offset] = 0xC1;
    let path = write(dir.path(), "large.txt", &bytes);
    let output = utf8(&["check", "--format", "json", arg(&path)]);
    assert_eq!(output.status.code(), Some(1));
    let json = json_lines(&output);
    assert_eq!(json[0]["offset"], offset);
    let (line, column) = reference_line_column(&bytes, offset);
    assert_eq!(
        (json[0]["line"].as_u64(), json[0]["column"].as_u64()),
        (Some(line as u64), Some(column as u64))
    );
}

#[test]
fn human_output_on_a_crafted_file() {
    let dir = scratch();
    write(
        dir.path(),
        "crafted.txt",
        b"caf\xC3\xA9 ok\n\
          overlong \xC0\xAF slash\n\
          surrogate \xED\xA0\x80 half\n\
          too big \xF4\x90\x80\x80!\n\
          stray \x80\x80 tails, then \xE2\x82\xACuro\n\
          cut \xF0\x9F\x92",
    );
    let output = utf8_in(dir.path(), &["check", "--all", "crafted.txt"], b"");
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!("check_all_crafted", text(&output.stdout));
}

#[test]
fn help_documents_the_exit_codes() {
    let output = utf8(&["check", "--help"]);
    let help = text(&output.stdout);
    assert!(
        help.contains("Exit status:")
            && help.contains("1  an input is invalid")
            && help.contains("2  usage error"),
        "{help}"
    );
}

#[test]
fn quiet_prints_nothing_and_exits_with_the_status_alone() {
    let dir = scratch();
    let valid = write(dir.path(), "valid.txt", "Grüße\n".as_bytes());
    let invalid = write(dir.path(), "invalid.txt", b"not \xFF fine \xC0\n");
    for (flag, paths, status) in [
        ("-q", vec![arg(&valid)], 0),
        ("--quiet", vec![arg(&valid), arg(&invalid)], 1),
        ("-q", vec![arg(&invalid), arg(&valid)], 1),
    ] {
        let output = utf8(&[&["check", flag][..], &paths].concat());
        assert_eq!(output.status.code(), Some(status), "{paths:?}");
        assert!(output.stdout.is_empty(), "{}", text(&output.stdout));
        assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
    }
    let json = utf8(&["check", "-q", "--format", "json", arg(&invalid)]);
    assert_eq!(json.status.code(), Some(1));
    assert!(json.stdout.is_empty());
}

#[test]
fn quiet_still_names_an_unreadable_input_on_standard_error() {
    let dir = scratch();
    let invalid = write(dir.path(), "invalid.txt", b"\xFF");
    let missing = dir.path().join("missing.txt");
    let output = utf8(&["check", "-q", arg(&invalid), arg(&missing)]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let message = text(&output.stderr);
    assert!(
        message.starts_with(&format!("utf8: cannot read {}: ", arg(&missing))),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1, "{message}");
}

#[test]
fn quiet_with_all_is_a_usage_error() {
    let output = utf8(&["check", "-q", "--all", "-"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("cannot be used with"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn files_with_errors_lists_each_invalid_input_once_in_argument_order() {
    let dir = scratch();
    write(dir.path(), "valid.txt", "Grüße\n".as_bytes());
    write(dir.path(), "many.txt", &b"\xFF\n".repeat(1000));
    write(dir.path(), "cut.txt", b"ends inside \xE2\x82");
    let args = ["valid.txt", "many.txt", "cut.txt", "-"];
    for flag in ["-l", "--files-with-errors"] {
        let output = utf8_in(dir.path(), &[&["check", flag][..], &args].concat(), b"\xC0");
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(text(&output.stdout), "many.txt\ncut.txt\n<stdin>\n");
        assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
    }
    let output = utf8_in(dir.path(), &["check", "-l", "valid.txt"], b"");
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
}

#[test]
fn files_without_errors_lists_the_valid_inputs_and_still_exits_1_for_the_others() {
    let dir = scratch();
    write(dir.path(), "valid.txt", "Grüße\n".as_bytes());
    write(dir.path(), "empty.txt", b"");
    write(dir.path(), "invalid.txt", b"\xFF");
    let output = utf8_in(
        dir.path(),
        &[
            "check",
            "--files-without-errors",
            "valid.txt",
            "invalid.txt",
            "empty.txt",
            "missing.txt",
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(2), "missing.txt cannot be read");
    assert_eq!(text(&output.stdout), "valid.txt\nempty.txt\n");
    assert!(
        text(&output.stderr).starts_with("utf8: cannot read missing.txt: "),
        "{}",
        text(&output.stderr)
    );
    let output = utf8_in(
        dir.path(),
        &[
            "check",
            "--files-without-errors",
            "valid.txt",
            "invalid.txt",
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn listed_paths_in_json_are_one_path_object_per_line() {
    let dir = scratch();
    write(dir.path(), "valid.txt", b"fine");
    write(dir.path(), "invalid.txt", b"\xFF");
    for (flag, listed) in [
        ("-l", "invalid.txt"),
        ("--files-without-errors", "valid.txt"),
    ] {
        let output = utf8_in(
            dir.path(),
            &[
                "check",
                flag,
                "--format",
                "json",
                "valid.txt",
                "invalid.txt",
            ],
            b"",
        );
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(json_lines(&output), [serde_json::json!({ "path": listed })]);
    }
}

#[test]
fn the_listings_exclude_each_other_and_all_and_quiet() {
    for flags in [
        &["-l", "--files-without-errors"][..],
        &["-l", "--all"],
        &["-l", "-q"],
        &["--files-without-errors", "--all"],
        &["--files-without-errors", "--quiet"],
    ] {
        let output = utf8(&[&["check"][..], flags, &["-"]].concat());
        assert_eq!(output.status.code(), Some(2), "{flags:?}");
        assert!(
            text(&output.stderr).contains("cannot be used with"),
            "{flags:?}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn files_with_errors_names_an_input_at_its_first_error_without_reading_on() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_utf8"))
        .args(["check", "-l", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the utf8 binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    stdin
        .write_all(b"one \xFF\n")
        .expect("write standard input");
    // Standard input stays open: the command must answer from what it has
    // read, and be done before the input ends.
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done_tx.send(child.wait_with_output());
    });
    let output = done_rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("done while standard input is still open")
        .expect("the utf8 binary ends");
    drop(stdin);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&output.stdout), "<stdin>\n");
}

#[cfg(unix)]
#[test]
fn a_path_that_is_not_utf8_is_named_by_its_bytes_in_json_and_as_is_by_l() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = scratch();
    let name = std::ffi::OsStr::from_bytes(b"bad\xFF.txt");
    std::fs::create_dir(dir.path().join("tree")).unwrap();
    std::fs::write(dir.path().join("tree").join(name), b"\xC0").unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_utf8"))
            .args(args)
            .arg(std::path::Path::new("tree").join(name))
            .current_dir(dir.path())
            .output()
            .expect("the utf8 binary runs")
    };
    // base64 of the bytes of `tree/bad\xFF.txt`, as ripgrep writes it.
    let bytes = serde_json::json!({ "bytes": "dHJlZS9iYWT/LnR4dA==" });
    let output = run(&["check", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json_lines(&output)[0]["path"], bytes);
    let output = run(&["check", "-l", "--format", "json"]);
    assert_eq!(json_lines(&output), [serde_json::json!({ "path": bytes })]);
    // `-l` writes the name's own bytes, for `xargs` to hand on.
    let output = run(&["check", "-l"]);
    assert_eq!(output.stdout, b"tree/bad\xFF.txt\n");
    // A person reads it with U+FFFD in place of the byte.
    let output = run(&["check"]);
    assert!(
        text(&output.stdout).starts_with("tree/bad\u{FFFD}.txt:1:1: offset 0: bytes C0: "),
        "{}",
        text(&output.stdout)
    );
    // Found by walking a directory, it is named the same way.
    let output = utf8_in(
        dir.path(),
        &["check", "-r", "--format", "json", "tree"],
        b"",
    );
    assert_eq!(json_lines(&output)[0]["path"], bytes);
}

#[test]
fn a_sysfs_file_that_holds_fewer_bytes_than_its_size_says_is_checked_as_cat_reads_it() {
    // sysfs says 4096 bytes for each of these and holds a line.
    let files = [
        "/sys/devices/system/cpu/online",
        "/sys/kernel/mm/transparent_hugepage/enabled",
    ];
    let Some(file) = files.into_iter().find(|file| std::fs::read(file).is_ok()) else {
        eprintln!("skipped: none of {files:?} can be read here");
        return;
    };
    let said = std::fs::metadata(file).unwrap().len();
    let held = std::fs::read(file).unwrap().len() as u64;
    if held >= said {
        eprintln!("skipped: {file} holds the {said} bytes it says");
        return;
    }
    for extra in [&[][..], &["--no-mmap"]] {
        let output = utf8(&[&["check", file][..], extra].concat());
        assert_eq!(
            (output.status.code(), text(&output.stderr)),
            (Some(0), String::new()),
            "{file} {extra:?}"
        );
    }
}
