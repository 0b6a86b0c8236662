//! `check -r` reads the small files a walk finds ahead of their turn, on all
//! cores, a window at a time. What it reports must be what checking the
//! same files one by one, named on the command line, reports: the same
//! lines in the same order, the same listings and exit status, whatever the
//! number of files against the window, the threads, and the sizes against
//! the largest file read ahead.

mod common;

use std::path::Path;

use common::{arg, scratch, utf8_on_threads_within_ten_seconds, write};

/// How many inputs are read ahead at a time (`read_ahead::WINDOW`).
const WINDOW: usize = 256;
/// The largest file read ahead (`read_ahead::READ_AHEAD_AT_MOST`).
const AT_MOST: usize = 64 << 10;

/// The contents of the tree's `index`th file, and whether it is binary:
/// valid, invalid at several places, cut at its end, empty, binary, and a
/// text file that starts and ends with Parquet's magic bytes.
fn contents(index: usize) -> (Vec<u8>, bool) {
    let line = "un été à Noël 😀\n";
    let text = line.repeat(1 + index % 7).into_bytes();
    let mut bytes = text.clone();
    match index % 9 {
        0..=2 => {}
        3 => bytes.insert(index % bytes.len(), 0xFF),
        4 => bytes.extend_from_slice(b"\xF0\x9F\x98"),
        5 => {
            bytes[0] = 0xC0;
            bytes.push(0xED);
            bytes.extend_from_slice(b"\xA0\x80 ok \xFE");
        }
        6 => bytes.clear(),
        7 => return ([b"\0\xFF".as_slice(), &text].concat(), true),
        _ => return (b"PAR1 not Parquet PAR1".to_vec(), false),
    }
    (bytes, false)
}

/// A tree of `count` files in folders of 100, and the paths of those that
/// are not binary, in the order of their paths.
fn tree(root: &Path, count: usize) -> Vec<String> {
    let mut named = Vec::new();
    for index in 0..count {
        let name = format!("tree/d{:02}/f{index:04}.txt", index / 100);
        let (bytes, binary) = contents(index);
        write(root, &name, &bytes);
        if !binary {
            named.push(root.join(&name).to_str().expect("UTF-8").to_owned());
        }
    }
    named
}

/// `utf8 check ARGS PATHS` on `threads` threads: exit status, stdout, stderr.
fn check(threads: usize, args: &[&str], paths: &[&str]) -> (Option<i32>, String, String) {
    let output = utf8_on_threads_within_ten_seconds(threads, &[&["check"], args, paths].concat());
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

#[test]
fn a_walked_tree_reports_what_its_files_named_one_by_one_report() {
    for count in [0, 1, WINDOW - 1, WINDOW, WINDOW + 1, 2 * WINDOW + 1] {
        let dir = scratch();
        let named = tree(dir.path(), count);
        std::fs::create_dir_all(dir.path().join("tree")).expect("the tree's root");
        let root = dir.path().join("tree");
        let named: Vec<&str> = named.iter().map(String::as_str).collect();
        for args in [
            &["--all"][..],
            &["--format", "json"],
            &["-l"],
            &["--files-without-errors"],
            &["-q"],
        ] {
            let expected = if named.is_empty() {
                (Some(0), String::new(), String::new())
            } else {
                check(1, args, &named)
            };
            for threads in [1, 2, 5] {
                assert_eq!(
                    check(threads, &[args, &["-r"]].concat(), &[arg(&root)]),
                    expected,
                    "{count} files, {args:?}, {threads} threads"
                );
            }
        }
    }
}

#[test]
fn files_about_the_largest_read_ahead_are_reported_at_their_size() {
    let dir = scratch();
    let mut named = Vec::new();
    for len in [1, AT_MOST - 1, AT_MOST, AT_MOST + 1, 3 * AT_MOST] {
        for (kind, last) in [("bad", b"\xFF".as_slice()), ("cut", b"\xE2\x82")] {
            let bytes = [&"é".repeat(len / 2).into_bytes()[..], last].concat();
            let name = format!("tree/{len:07}-{kind}.txt");
            named.push(write(dir.path(), &name, &bytes));
        }
    }
    let named: Vec<&str> = named.iter().map(|path| arg(path)).collect();
    let root = dir.path().join("tree");
    let expected = check(1, &["--format", "json"], &named);
    assert_eq!(expected.0, Some(1));
    assert_eq!(expected.1.lines().count(), named.len(), "{}", expected.1);
    for threads in [1, 2] {
        assert_eq!(
            check(threads, &["--format", "json", "-r"], &[arg(&root)]),
            expected,
            "{threads} threads"
        );
    }
}
