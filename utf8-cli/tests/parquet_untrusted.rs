//! `utf8 check` on Parquet files as untrusted input: corrupt files found by
//! corrupting files of every encoding and codec (kept in
//! `tests/data/hostile/`, each the smallest of its kind) are each one line
//! naming the file, exit 2, and the next input is still checked; a value
//! cut inside a character and a value with several errors are reported as
//! the text check reports the same bytes; a Parquet file is read from a
//! FIFO or `/dev/stdin` as from a regular file.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::{arg, scratch, utf8_within_ten_seconds};
use parquet::data_type::{ByteArray, ByteArrayType};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use serde_json::Value;

/// Writes a file of one column of `values` under `schema`, whose only leaf
/// is a required byte array.
fn write_values(path: &Path, schema: &str, values: &[&[u8]]) {
    let schema = Arc::new(parse_message_type(schema).expect("a schema"));
    let properties = Arc::new(WriterProperties::builder().build());
    let file = std::fs::File::create(path).expect("a file");
    let mut writer = SerializedFileWriter::new(file, schema, properties).expect("a writer");
    let mut group = writer.next_row_group().expect("a row group");
    let mut column = group.next_column().expect("a column").expect("one");
    let values: Vec<ByteArray> = values.iter().map(|v| ByteArray::from(v.to_vec())).collect();
    column
        .typed::<ByteArrayType>()
        .write_batch(&values, None, None)
        .expect("written");
    column.close().expect("closed");
    group.close().expect("closed");
    writer.close().expect("closed");
}

fn one_string_column(directory: &Path, values: &[&[u8]]) -> PathBuf {
    let path = directory.join("values.parquet");
    write_values(
        &path,
        "message m { REQUIRED BYTE_ARRAY s (STRING); }",
        values,
    );
    path
}

/// What the human report says after `bytes `: the bytes and what was
/// expected, the same for a value and for a text of the same bytes but for
/// the name of what ends.
fn after_bytes(line: &str) -> String {
    line[line.find("bytes ").expect("a report of bytes")..]
        .replace("the value ends", "the input ends")
}

fn stdout_lines(args: &[&str]) -> Vec<String> {
    let output = utf8_within_ten_seconds(args);
    String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_value_cut_inside_a_character_shows_its_bytes_to_the_end_as_the_text_check_does() {
    let directory = scratch();
    for cut in [
        &b"\xF0\x9F\x98"[..],
        b"caf\xC3",
        b"\xE2\x82",
        b"ok\xF4\x8F\xBF",
    ] {
        let parquet = one_string_column(directory.path(), &[b"fine", cut]);
        let text = common::write(directory.path(), "cut.txt", cut);
        let value = stdout_lines(&["check", arg(&parquet)]);
        let bytes = stdout_lines(&["check", arg(&text)]);
        assert_eq!(value.len(), 1, "{value:?}");
        assert_eq!(after_bytes(&value[0]), after_bytes(&bytes[0]), "{cut:X?}");
    }
}

#[test]
fn with_all_every_error_of_a_value_is_reported_as_the_text_check_reports_them() {
    let directory = scratch();
    let bad: &[u8] = b"a\xFFb\xFEc\xC3";
    let parquet = one_string_column(directory.path(), &[bad]);
    let text = common::write(directory.path(), "bad.txt", bad);
    let values = stdout_lines(&["check", "--all", arg(&parquet)]);
    let texts = stdout_lines(&["check", "--all", arg(&text)]);
    assert_eq!(values.len(), 3, "{values:?}");
    let tails = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .map(|line| after_bytes(line).to_owned())
            .collect()
    };
    assert_eq!(tails(&values), tails(&texts));
    let offsets: Vec<&str> = values
        .iter()
        .map(|line| line.split(": ").nth(2).expect("an offset"))
        .collect();
    assert_eq!(offsets, ["offset 1", "offset 3", "offset 5"]);
}

#[test]
fn json_names_a_parquet_column_path_and_a_text_column_under_different_keys() {
    let directory = scratch();
    let parquet = one_string_column(directory.path(), &[b"\xFF"]);
    let text = common::write(directory.path(), "bad.txt", b"\xFF");
    let lines = stdout_lines(&["check", "--format", "json", arg(&parquet), arg(&text)]);
    let json: Vec<Value> = lines
        .iter()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    assert_eq!(json[0]["column_path"], "s");
    assert!(json[0].get("column").is_none(), "{}", lines[0]);
    assert_eq!(json[1]["column"], 1);
    assert!(json[1].get("column_path").is_none(), "{}", lines[1]);
}

#[cfg(unix)]
#[test]
fn a_parquet_file_is_read_from_a_fifo_and_from_dev_stdin() {
    let directory = scratch();
    let parquet = one_string_column(directory.path(), &[b"ok", b"\xC3("]);
    let bytes = std::fs::read(&parquet).expect("the file");

    let fifo = directory.path().join("fifo.parquet");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let writer = {
        let (fifo, bytes) = (fifo.clone(), bytes.clone());
        std::thread::spawn(move || std::fs::write(fifo, bytes).expect("written to the FIFO"))
    };
    let output = utf8_within_ten_seconds(&["check", "--parquet", "always", arg(&fifo)]);
    writer.join().expect("the writer ends");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        stdout.contains(": column s, row 1, row group 0: offset 0: bytes C3 28"),
        "{stdout}"
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let output = std::process::Command::new(env!("CARGO_BIN_EXE_utf8"))
        .args(["check", "--parquet", "always", "/dev/stdin"])
        .stdin(std::fs::File::open(&parquet).expect("the file"))
        .output()
        .expect("runs");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(stdout.contains("column s, row 1"), "{stdout}");
    assert_eq!(output.status.code(), Some(1));
}

/// A schema of `depth` groups, one inside the other, around one string.
fn nested_schema(depth: usize) -> String {
    let mut schema = String::from("message m { ");
    for level in 0..depth {
        schema.push_str(&format!("REQUIRED GROUP g{level} {{ "));
    }
    schema.push_str("REQUIRED BYTE_ARRAY s (STRING); ");
    schema.push_str(&"} ".repeat(depth + 1));
    schema
}

#[test]
fn a_schema_nested_255_levels_deep_is_read_and_one_past_the_limit_is_refused() {
    let directory = scratch();
    // The root counts as a level: 255 groups under it are 256.
    for (groups, readable) in [(0, true), (1, true), (254, true), (255, true), (256, false)] {
        let path = directory.path().join(format!("nested-{groups}.parquet"));
        write_values(&path, &nested_schema(groups), &[b"ok", b"\xFF"]);
        let output = utf8_within_ten_seconds(&["check", arg(&path)]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        if readable {
            assert_eq!(output.status.code(), Some(1), "{groups}: {stderr}");
        } else {
            assert_eq!(output.status.code(), Some(2), "{groups}: {stderr}");
            assert!(
                stderr.contains("a schema nested over 256 levels deep"),
                "{stderr}"
            );
        }
    }
}

/// The corrupt files, and what each is.
fn hostile_files() -> Vec<PathBuf> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&directory)
        .expect("the hostile files")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "parquet"))
        .collect();
    files.sort();
    files
}

#[test]
fn each_corrupt_file_is_one_line_naming_it_exit_2_and_the_next_input_is_still_checked() {
    let directory = scratch();
    let invalid = common::write(directory.path(), "after.txt", b"ok \xFF\n");
    let files = hostile_files();
    assert!(files.len() >= 8, "{files:?}");
    for file in files {
        let output = utf8_within_ten_seconds(&["check", "--all", arg(&file), arg(&invalid)]);
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        let stdout = String::from_utf8(output.stdout).expect("UTF-8");
        let name = file.file_name().expect("a name").to_string_lossy();
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(
            stderr.starts_with(&format!(
                "utf8: cannot read {} as Parquet: ",
                file.display()
            )),
            "{name}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(
            stdout.contains("after.txt:1:4: offset 3: bytes FF"),
            "{name}: {stdout}"
        );
    }
}

/// `utf8 check` on the hostile file `name`: exit status 2, and standard
/// error naming `reason`.
fn refused_with(name: &str, reason: &str) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hostile")
        .join(name);
    let output = utf8_within_ten_seconds(&["check", arg(&file)]);
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(reason), "{stderr}");
}

#[test]
fn a_footer_list_of_booleans_is_refused_where_the_parquet_crate_would_skip_it_as_no_bytes() {
    refused_with(
        "footer-list-of-booleans.parquet",
        "its footer: a Thrift collection of 9 booleans",
    );
}

#[test]
fn a_delta_run_longer_than_its_page_is_refused_before_the_parquet_crate_allocates_it() {
    refused_with(
        "delta-run-longer-than-its-page.parquet",
        "column s: page 0: its prefix lengths declare 16383 values in a page of 200",
    );
}
