//! `utf8 check -r`: directory arguments walked as ripgrep walks them.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{arg, scratch, write};

fn utf8_in(directory: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_utf8"))
        .args(args)
        .current_dir(directory)
        .output()
        .expect("the utf8 binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The paths `check -l ARGS` prints, run in `root`.
fn listed(root: &Path, args: &[&str]) -> Vec<String> {
    let output = utf8_in(root, &[&["check", "-l"][..], args].concat());
    assert!(
        output.stderr.is_empty() && matches!(output.status.code(), Some(0 | 1)),
        "{args:?}: {output:?}"
    );
    text(&output.stdout).lines().map(str::to_owned).collect()
}

#[test]
fn recursive_checks_every_file_under_a_directory_in_the_order_of_their_paths() {
    let dir = scratch();
    for name in [
        "tree/z.txt",
        "tree/b/c.txt",
        "tree/a.txt",
        "tree/b/a/deep.txt",
    ] {
        write(dir.path(), name, b"\xFF");
    }
    write(dir.path(), "tree/b/valid.txt", b"fine");
    let output = utf8_in(dir.path(), &["check", "-r", "tree"]);
    assert_eq!(output.status.code(), Some(1));
    let report = text(&output.stdout);
    let paths: Vec<&str> = report
        .lines()
        .map(|line| line.split(':').next().expect("a path"))
        .collect();
    assert_eq!(
        paths,
        [
            "tree/a.txt",
            "tree/b/a/deep.txt",
            "tree/b/c.txt",
            "tree/z.txt"
        ]
    );
    assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
    let output = utf8_in(dir.path(), &["check", "--recursive", "tree/b/a"]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn recursive_skips_hidden_files_and_directories_unless_hidden() {
    let dir = scratch();
    write(dir.path(), "tree/.hidden.txt", b"\xFF");
    write(dir.path(), "tree/.config/settings.txt", b"\xFF");
    write(dir.path(), "tree/shown.txt", b"\xFF");
    assert_eq!(listed(dir.path(), &["-r", "tree"]), ["tree/shown.txt"]);
    assert_eq!(
        listed(dir.path(), &["-r", "--hidden", "tree"]),
        [
            "tree/.config/settings.txt",
            "tree/.hidden.txt",
            "tree/shown.txt"
        ]
    );
}

#[test]
fn recursive_skips_what_ignore_files_exclude_unless_no_ignore() {
    let dir = scratch();
    // .gitignore counts inside a Git repository only, as for git and ripgrep;
    // .ignore counts anywhere.
    std::fs::create_dir_all(dir.path().join("repo/.git")).unwrap();
    write(dir.path(), "repo/.gitignore", b"build/\n");
    write(dir.path(), "repo/src/.ignore", b"*.log\n");
    write(dir.path(), "repo/build/out.txt", b"\xFF");
    write(dir.path(), "repo/src/run.log", b"\xFF");
    write(dir.path(), "repo/src/main.txt", b"\xFF");
    assert_eq!(listed(dir.path(), &["-r", "repo"]), ["repo/src/main.txt"]);
    assert_eq!(
        listed(dir.path(), &["-r", "--no-ignore", "repo"]),
        [
            "repo/build/out.txt",
            "repo/src/main.txt",
            "repo/src/run.log"
        ]
    );
}

#[test]
fn recursive_skips_binary_files_unless_binary() {
    let dir = scratch();
    write(
        dir.path(),
        "tree/image.png",
        b"\x89PNG\r\n\x1A\n\x00\x00\x00\x0DIHDR\xFF",
    );
    // A NUL past the first 8 KiB does not make a file binary.
    let mut late = vec![b'a'; 8 << 10];
    late.extend_from_slice(b"\x00\xFF");
    write(dir.path(), "tree/late-nul.txt", &late);
    write(dir.path(), "tree/valid.txt", b"fine");
    assert_eq!(listed(dir.path(), &["-r", "tree"]), ["tree/late-nul.txt"]);
    assert_eq!(
        listed(dir.path(), &["-r", "--binary", "tree"]),
        ["tree/image.png", "tree/late-nul.txt"]
    );
    // A skipped binary file is not valid either.
    let output = utf8_in(
        dir.path(),
        &["check", "-r", "--files-without-errors", "tree"],
    );
    assert_eq!(text(&output.stdout), "tree/valid.txt\n");
}

#[test]
fn named_files_are_checked_whatever_ignore_files_hidden_names_or_nul_bytes_say() {
    let dir = scratch();
    write(dir.path(), "tree/.ignore", b"ignored.txt\n");
    write(dir.path(), "tree/ignored.txt", b"\xFF");
    write(dir.path(), "tree/.hidden.txt", b"\xFF");
    write(dir.path(), "tree/binary.bin", b"\x00\xFF");
    let named = ["tree/ignored.txt", "tree/.hidden.txt", "tree/binary.bin"];
    assert_eq!(listed(dir.path(), &named), named);
    assert_eq!(listed(dir.path(), &[&["-r"][..], &named].concat()), named);
    assert!(listed(dir.path(), &["-r", "tree"]).is_empty());
}

#[cfg(unix)]
#[test]
fn recursive_does_not_follow_symbolic_links() {
    let dir = scratch();
    write(dir.path(), "outside/bad.txt", b"\xFF");
    write(dir.path(), "tree/good.txt", b"fine");
    std::os::unix::fs::symlink(dir.path().join("outside"), dir.path().join("tree/dir-link"))
        .unwrap();
    std::os::unix::fs::symlink(
        dir.path().join("outside/bad.txt"),
        dir.path().join("tree/file-link.txt"),
    )
    .unwrap();
    assert!(listed(dir.path(), &["-r", arg(&dir.path().join("tree"))]).is_empty());
}

#[test]
fn the_walking_flags_need_recursive() {
    for flag in ["--hidden", "--no-ignore", "--binary"] {
        let output = utf8_in(Path::new("."), &["check", flag, "-"]);
        assert_eq!(output.status.code(), Some(2), "{flag}");
        assert!(
            text(&output.stderr).contains("--recursive"),
            "{flag}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn a_directory_among_files_is_named_with_a_hint_and_the_files_are_still_checked() {
    let dir = scratch();
    write(dir.path(), "tree/bad.txt", b"\xFF");
    write(dir.path(), "bad.txt", b"\xFF");
    let output = utf8_in(dir.path(), &["check", "-l", "tree", "bad.txt"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(text(&output.stdout), "bad.txt\n");
    assert_eq!(
        text(&output.stderr),
        "utf8: cannot read tree: it is a directory (use -r to check the files under it)\n"
    );
}
