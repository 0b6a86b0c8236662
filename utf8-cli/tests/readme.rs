//! The console examples of the command's manual (`utf8-cli/README.md`) and
//! of the repository README's section on the `utf8` command, run as they are
//! written (with trycmd): each `$ utf8 …` line is run, its standard output
//! and error must be the lines below it, and its exit status the `? N` line
//! (0 without one).
//!
//! Of the repository README the section alone is run: the other sections are
//! not about this command. Each runs in a scratch copy of `data/examples/`,
//! the files the examples name, from which a reader runs them as written;
//! the copy also gets `names/`, which is made here rather than checked in
//! because its file is named with a byte that is not UTF-8.

mod common;

use std::path::Path;

use common::scratch;

const README: &str = include_str!("../../README.md");

/// The command's manual, the crate's own README.
const MANUAL: &str = include_str!("../README.md");

/// The section "The `utf8` command", from its heading to the next one.
fn section() -> &'static str {
    let start = README
        .find("\n## The `utf8` command\n")
        .expect("the README has the section");
    let rest = &README[start + 1..];
    let end = rest[1..].find("\n## ").map_or(rest.len(), |end| end + 2);
    &rest[..end]
}

/// The examples' files, shipped in the repository for a reader to run them.
const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/examples");

/// The files the examples name, copied to `root`.
fn example_files(root: &Path) {
    copy_tree(Path::new(EXAMPLES), root);
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        // café.txt, its name written in Latin-1, as the manual says to make it.
        let name = std::ffi::OsStr::from_bytes(b"caf\xE9.txt");
        std::fs::create_dir_all(root.join("names")).unwrap();
        std::fs::write(root.join("names").join(name), b"ok \xE9\n").unwrap();
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("make the copy's directory");
    for entry in std::fs::read_dir(from).expect("the examples' directory") {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy an example file");
        }
    }
}

/// A Parquet file of four orders in two row groups, written as a foreign
/// writer would: a string column holding a Latin-1 name, and a binary one
/// holding a value cut inside a character. Its writer is named in the file
/// as this test, not the parquet crate's version, so that a new version
/// writes the same bytes.
fn orders() -> Vec<u8> {
    use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use std::sync::Arc;

    let schema = "message orders { REQUIRED INT64 id; \
        REQUIRED BYTE_ARRAY customer (STRING); OPTIONAL BYTE_ARRAY note; }";
    let schema = Arc::new(parquet::schema::parser::parse_message_type(schema).unwrap());
    let properties = WriterProperties::builder()
        .set_created_by("utf8-cli/tests/readme.rs".to_owned())
        .build();
    let mut writer = SerializedFileWriter::new(Vec::new(), schema, Arc::new(properties)).unwrap();
    // Each row: the customer, and the note if there is one.
    type Row = (&'static [u8], Option<&'static [u8]>);
    let groups: [[Row; 2]; 2] = [
        [(b"Zo\xC3\xAB", Some(b"fragile")), (b"Ann", None)],
        [(b"Ren\xE9e", Some(b"gift")), (b"Bo", Some(b"caf\xC3"))],
    ];
    for (group_index, rows) in groups.iter().enumerate() {
        let mut group = writer.next_row_group().unwrap();
        let ids: Vec<i64> = (0..2)
            .map(|row| (group_index * 2 + row) as i64 + 1)
            .collect();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<Int64Type>()
            .write_batch(&ids, None, None)
            .unwrap();
        column.close().unwrap();
        let customers: Vec<ByteArray> =
            rows.iter().map(|r| ByteArray::from(r.0.to_vec())).collect();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&customers, None, None)
            .unwrap();
        column.close().unwrap();
        let notes: Vec<ByteArray> = rows
            .iter()
            .filter_map(|r| r.1)
            .map(|n| ByteArray::from(n.to_vec()))
            .collect();
        let defined: Vec<i16> = rows.iter().map(|r| i16::from(r.1.is_some())).collect();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&notes, Some(&defined), None)
            .unwrap();
        column.close().unwrap();
        group.close().unwrap();
    }
    writer.into_inner().unwrap()
}

#[test]
fn the_shipped_parquet_example_is_the_one_the_test_writes() {
    let path = Path::new(EXAMPLES).join("orders.parquet");
    let written = orders();
    if std::env::var_os("UTF8_BLESS").is_some() {
        std::fs::write(&path, &written).expect("write data/examples/orders.parquet");
    }
    let shipped = std::fs::read(&path).unwrap_or_default();
    assert!(
        shipped == written,
        "data/examples/orders.parquet is stale or missing: run \
         `UTF8_BLESS=1 cargo test -p utf8-cli --test readme` to write it again"
    );
}

#[cfg(unix)]
#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    let dir = scratch();
    std::fs::write(dir.path().join("readme.md"), section()).unwrap();
    example_files(&dir.path().join("readme.in"));
    trycmd::TestCases::new()
        .register_bin("utf8", Path::new(env!("CARGO_BIN_EXE_utf8")).to_path_buf())
        .case(dir.path().join("readme.md"))
        .run();
}

#[cfg(unix)]
#[test]
fn the_manual_examples_print_what_the_manual_shows() {
    let dir = scratch();
    std::fs::write(dir.path().join("manual.md"), MANUAL).unwrap();
    example_files(&dir.path().join("manual.in"));
    trycmd::TestCases::new()
        .register_bin("utf8", Path::new(env!("CARGO_BIN_EXE_utf8")).to_path_buf())
        .case(dir.path().join("manual.md"))
        .run();
}

#[test]
fn the_section_is_found_and_holds_examples() {
    assert!(section().starts_with("## The `utf8` command\n"));
    assert!(!section()[3..].contains("\n## "));
    assert!(section().contains("```console\n$ utf8 check"));
}

#[test]
fn the_manual_holds_examples_of_every_subcommand() {
    for command in ["check", "fix", "derive"] {
        assert!(
            MANUAL.contains(&format!("\n$ utf8 {command} ")),
            "no example of `utf8 {command}`"
        );
    }
}

#[test]
fn the_manual_has_a_whole_commands_table_and_a_heading_for_every_subcommand() {
    let table_start = MANUAL.find("\n| command |").expect("the commands table") + 1;
    let table = MANUAL[table_start..]
        .split("\n\n")
        .next()
        .expect("the table ends at a blank line");
    for line in table.lines() {
        assert!(line.starts_with('|'), "a line inside the table: {line}");
    }
    for command in ["check", "fix", "derive", "tables"] {
        assert!(
            table.contains(&format!("| `utf8 {command} ")),
            "no row for `utf8 {command}`"
        );
        assert!(
            MANUAL.contains(&format!("\n## `utf8 {command}`\n")),
            "no heading for `utf8 {command}`"
        );
    }
}

/// The manual's C program (which the book shows on each ruleset's page),
/// compiled against `utf8 tables --ruleset NAME --emit c` for every
/// built-in ruleset and run at each vector level the machine has, and
/// without vector code: it prints what its comment says.
#[test]
fn the_manuals_c_program_compiles_against_the_emitted_tables_and_prints_what_it_says() {
    let start = MANUAL.find("```c\n").expect("the manual's C program") + "```c\n".len();
    let program = &MANUAL[start..];
    let program = &program[..program.find("```").expect("its end")];
    let said = program
        .split("/* Prints \"")
        .nth(1)
        .and_then(|rest| rest.split("\". */").next())
        .expect("the comment that says what it prints");

    let directory = scratch();
    std::fs::write(directory.path().join("main.c"), program).unwrap();
    for ruleset in ["rfc3629", "legacy31", "cesu8", "mutf8", "wtf8", "rfc2279"] {
        let tables = std::process::Command::new(env!("CARGO_BIN_EXE_utf8"))
            .args(["tables", "--ruleset", ruleset, "--emit", "c"])
            .output()
            .expect("utf8 tables runs");
        assert!(tables.status.success(), "{ruleset}");
        std::fs::write(directory.path().join("tables.h"), tables.stdout).unwrap();
        compiles_and_says(directory.path(), ruleset, said);
    }
}

/// `main.c` in `directory`, compiled at each level and run, prints `said`.
fn compiles_and_says(directory: &std::path::Path, ruleset: &str, said: &str) {
    let mut levels: Vec<&[&str]> = vec![&[], &["-DUTF8_NO_VECTOR"]];
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("sse4.1") {
            levels.push(&["-msse4.1"]);
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            levels.push(&["-O2", "-mavx2"]);
        }
    }
    for flags in levels {
        let binary = directory.join("main");
        let compiled = std::process::Command::new("cc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror"])
            .args(flags)
            .arg("-o")
            .arg(&binary)
            .arg(directory.join("main.c"))
            .output()
            .expect("cc runs");
        assert!(
            compiled.status.success(),
            "{ruleset} {flags:?}: {}",
            String::from_utf8_lossy(&compiled.stderr)
        );
        let ran = std::process::Command::new(&binary)
            .output()
            .expect("it runs");
        assert!(ran.status.success());
        assert_eq!(
            String::from_utf8(ran.stdout).unwrap(),
            format!("{said}\n"),
            "{ruleset} {flags:?}"
        );
    }
}
