//! `utf8 check` on Parquet files the tests write with the parquet crate's
//! own low-level writer (as a foreign writer would, bad bytes and all, in a
//! column declared as strings): every encoding, several codecs, row groups
//! and pages, nulls, a dictionary, a `list<string>`, and broken files. The
//! reports are held to a reference: `core::str::from_utf8` on each value.

mod common;

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use common::{arg, scratch, utf8_on_threads_within_ten_seconds, utf8_within_ten_seconds};
use parquet::basic::{BrotliLevel, Compression, Encoding, GzipLevel, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;
use serde_json::Value;
use utf8_tests::rng::Rng;

const VALID: [&[u8]; 8] = [
    b"",
    b"a",
    b"word",
    "caf\u{e9}".as_bytes(),
    "\u{65e5}\u{672c}\u{8a9e}".as_bytes(),
    "\u{1F980} crab".as_bytes(),
    b"a value long enough not to fit in a view's twelve inline bytes",
    b"ok",
];

/// Each kind of error: a byte that starts nothing, a sequence cut by the
/// value's end and one cut by a wrong byte, a lone continuation, a
/// surrogate, a code point past U+10FFFF, an overlong form; and the
/// DuckDB case, `caf\xC3` then `\xA9lait`, valid only back to back.
const INVALID: [&[u8]; 8] = [
    b"\xFF",
    b"caf\xC3",
    b"\xA9lait",
    b"\xED\xA0\x80",
    b"ok\xF4\x90\x80\x80",
    b"\xC0\xAF",
    b"ab\xE2\x82z",
    b"a value long enough not to fit in a view's inline bytes, then \xE2\x28\xA1",
];

fn value(choices: &mut Rng) -> Vec<u8> {
    match choices.below(10) {
        0 => INVALID[choices.below(INVALID.len())].to_vec(),
        1 => [&b"caf\xC3"[..], b"\xA9lait"][choices.below(2)].to_vec(),
        _ => VALID[choices.below(VALID.len())].to_vec(),
    }
}

/// A flat column: its name, its schema line, and its values by row.
struct Column {
    name: &'static str,
    schema: &'static str,
    rows: Vec<Option<Vec<u8>>>,
}

/// A report as the reference expects it and as the JSON output gives it.
#[derive(Debug, PartialEq, Eq, Clone, PartialOrd, Ord)]
struct Reported {
    row: u64,
    leaf: usize,
    element: Option<u64>,
    column: String,
    offset: u64,
    len: Option<u64>,
}

/// What `core::str::from_utf8` finds wrong with `value`: each invalid
/// part, the check taken up again after it as lossy decoding does (what
/// `--all` reports), as an offset and a length (`None`: cut at the end).
fn reference(value: &[u8]) -> Vec<(u64, Option<u64>)> {
    let mut errors = Vec::new();
    let mut resumed_at = 0;
    while let Err(e) = std::str::from_utf8(&value[resumed_at..]) {
        let offset = resumed_at + e.valid_up_to();
        errors.push((offset as u64, e.error_len().map(|len| len as u64)));
        match e.error_len() {
            Some(len) => resumed_at = offset + len,
            None => break,
        }
    }
    errors
}

/// The flat columns' reports, in the order the command gives them.
fn expected_flat(columns: &[&Column]) -> Vec<Reported> {
    let mut expected = Vec::new();
    for (leaf, column) in columns.iter().enumerate() {
        for (row, value) in column.rows.iter().enumerate() {
            for (offset, len) in value.as_deref().map(reference).unwrap_or_default() {
                expected.push(Reported {
                    row: row as u64,
                    leaf,
                    element: None,
                    column: column.name.to_owned(),
                    offset,
                    len,
                });
            }
        }
    }
    expected.sort();
    expected
}

/// Writes `columns` to `path` in row groups of `group_rows` rows.
fn write_flat(path: &Path, columns: &[&Column], group_rows: usize, properties: WriterProperties) {
    let schema = format!(
        "message flat {{ {} }}",
        columns
            .iter()
            .map(|c| c.schema)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let schema = Arc::new(parse_message_type(&schema).expect("a schema"));
    let sink = File::create(path).expect("create the file");
    let mut writer =
        SerializedFileWriter::new(sink, schema, Arc::new(properties)).expect("a writer");
    let rows = columns[0].rows.len();
    for start in (0..rows).step_by(group_rows) {
        let end = (start + group_rows).min(rows);
        let mut group = writer.next_row_group().expect("a row group");
        for column in columns {
            let rows = &column.rows[start..end];
            let values: Vec<ByteArray> = rows
                .iter()
                .flatten()
                .map(|v| ByteArray::from(v.clone()))
                .collect();
            let optional = column.schema.starts_with("OPTIONAL");
            let levels: Vec<i16> = rows.iter().map(|v| i16::from(v.is_some())).collect();
            let mut writer = group.next_column().expect("a column").expect("one more");
            writer
                .typed::<ByteArrayType>()
                .write_batch(&values, optional.then_some(&levels[..]), None)
                .expect("written");
            writer.close().expect("closed");
        }
        group.close().expect("row group closed");
    }
    writer.close().expect("file closed");
}

/// The reports of `utf8 check ARGS`, parsed from its JSON lines, and its
/// exit status and standard error.
fn check_json(args: &[&str]) -> (Vec<Reported>, i32, String) {
    check_json_on_threads(None, args)
}

/// [`check_json`] on a pool of `threads` threads, or as many as the
/// machine has.
fn check_json_on_threads(threads: Option<usize>, args: &[&str]) -> (Vec<Reported>, i32, String) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let output = match threads {
        Some(threads) => utf8_on_threads_within_ten_seconds(threads, &all),
        None => utf8_within_ten_seconds(&all),
    };
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let reported = stdout
        .lines()
        .map(|line| {
            let json: Value = serde_json::from_str(line).expect("a JSON line");
            Reported {
                row: json["row"].as_u64().expect("a row"),
                leaf: 0,
                element: json["element"].as_u64(),
                column: json["column_path"].as_str().expect("a column").to_owned(),
                offset: json["offset"].as_u64().expect("an offset"),
                len: json["len"].as_u64(),
            }
        })
        .collect();
    (
        reported,
        output.status.code().expect("an exit status"),
        String::from_utf8(output.stderr).expect("UTF-8 errors"),
    )
}

fn without_leaves(reports: &[Reported]) -> Vec<Reported> {
    reports
        .iter()
        .map(|r| Reported {
            leaf: 0,
            ..r.clone()
        })
        .collect()
}

/// Three columns of `rows` random rows: a required string column, an
/// optional binary one (no annotation) and an optional string column that
/// draws from six values, two of them bad, as dictionaries hold.
fn flat_columns(rows: usize, seed: u64) -> [Column; 3] {
    let mut choices = Rng::new(seed);
    let mut column = |name, schema, null_one_in: usize, pool: Option<&[&[u8]]>| Column {
        name,
        schema,
        rows: (0..rows)
            .map(|_| {
                if null_one_in > 0 && choices.below(null_one_in) == 0 {
                    return None;
                }
                Some(match pool {
                    Some(pool) => pool[choices.below(pool.len())].to_vec(),
                    None => value(&mut choices),
                })
            })
            .collect(),
    };
    let pool: [&[u8]; 6] = [
        b"red",
        b"gr\xC3\xBCn",
        b"bl\xFFu",
        b"",
        b"caf\xC3",
        b"yellow",
    ];
    [
        column("s", "REQUIRED BYTE_ARRAY s (STRING);", 0, None),
        column("b", "OPTIONAL BYTE_ARRAY b;", 8, None),
        column("d", "OPTIONAL BYTE_ARRAY d (STRING);", 5, Some(&pool)),
    ]
}

fn properties(encoding: Option<Encoding>, compression: Compression) -> WriterProperties {
    let mut builder = WriterProperties::builder()
        .set_compression(compression)
        // Several pages a row group: a page holds at most 64 rows.
        .set_data_page_row_count_limit(64)
        .set_write_batch_size(64)
        .set_column_dictionary_enabled(ColumnPath::from("d"), true);
    for name in ["s", "b"] {
        builder = builder.set_column_dictionary_enabled(ColumnPath::from(name), false);
        if let Some(encoding) = encoding {
            builder = builder.set_column_encoding(ColumnPath::from(name), encoding);
        }
    }
    builder.build()
}

#[test]
fn every_bad_value_of_every_encoding_and_codec_is_reported_at_its_row_and_column() {
    let encodings = [
        (Some(Encoding::PLAIN), Compression::UNCOMPRESSED),
        (Some(Encoding::DELTA_LENGTH_BYTE_ARRAY), Compression::SNAPPY),
        (
            Some(Encoding::DELTA_BYTE_ARRAY),
            Compression::ZSTD(ZstdLevel::default()),
        ),
        (
            Some(Encoding::PLAIN),
            Compression::GZIP(GzipLevel::default()),
        ),
        (Some(Encoding::PLAIN), Compression::LZ4_RAW),
        (
            Some(Encoding::DELTA_BYTE_ARRAY),
            Compression::BROTLI(BrotliLevel::default()),
        ),
    ];
    let directory = scratch();
    for (case, (encoding, compression)) in encodings.into_iter().enumerate() {
        let columns = flat_columns(1500, 0x5EED + case as u64);
        let columns: Vec<&Column> = columns.iter().collect();
        let path = directory.path().join(format!("flat-{case}.parquet"));
        write_flat(&path, &columns, 500, properties(encoding, compression));
        let expected = expected_flat(&columns);
        assert!(expected.len() > 100, "{case}: the file holds bad values");

        let (all, status, stderr) = check_json(&["--all", arg(&path)]);
        assert_eq!(
            all,
            without_leaves(&expected),
            "{encoding:?} {compression:?}: {stderr}"
        );
        assert_eq!(status, 1, "{stderr}");

        let (first, status, _) = check_json(&[arg(&path)]);
        assert_eq!(
            first,
            without_leaves(&expected[..1]),
            "{encoding:?} {compression:?}"
        );
        assert_eq!(status, 1);

        let strings: Vec<&Column> = columns
            .iter()
            .copied()
            .filter(|c| c.schema.contains("STRING"))
            .collect();
        let (strings_only, _, _) = check_json(&["--all", "--strings-only", arg(&path)]);
        assert_eq!(
            strings_only,
            without_leaves(&expected_flat(&strings)),
            "--strings-only, {encoding:?} {compression:?}"
        );
    }
}

#[test]
fn a_bad_dictionary_entry_is_reported_at_every_row_that_uses_it() {
    let directory = scratch();
    let path = directory.path().join("dictionary.parquet");
    let rows: Vec<Option<Vec<u8>>> = (0..3000)
        .map(|row| match row % 7 {
            0 => None,
            3 => Some(b"bl\xFFu".to_vec()),
            _ => Some(b"red".to_vec()),
        })
        .collect();
    let column = Column {
        name: "d",
        schema: "OPTIONAL BYTE_ARRAY d (STRING);",
        rows,
    };
    write_flat(
        &path,
        &[&column],
        1000,
        properties(None, Compression::SNAPPY),
    );
    let (all, status, _) = check_json(&["--all", arg(&path)]);
    assert_eq!(status, 1);
    let rows: Vec<u64> = all.iter().map(|r| r.row).collect();
    assert_eq!(rows, (3..3000).step_by(7).collect::<Vec<u64>>());
    assert!(all.iter().all(|r| r.offset == 2 && r.len == Some(1)));
}

/// Writes a `list<string>` column, `lists[row]` being the row's list
/// (null, or elements that may be null), in row groups of `group_rows`.
fn write_lists(path: &Path, lists: &[Option<Vec<Option<Vec<u8>>>>], group_rows: usize) {
    let schema = "message nested { OPTIONAL group tags (LIST) { REPEATED group list { OPTIONAL BYTE_ARRAY element (STRING); } } }";
    let schema = Arc::new(parse_message_type(schema).expect("a schema"));
    let properties = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_data_page_row_count_limit(32)
        .set_write_batch_size(32)
        .build();
    let sink = File::create(path).expect("create the file");
    let mut writer =
        SerializedFileWriter::new(sink, schema, Arc::new(properties)).expect("a writer");
    for group_lists in lists.chunks(group_rows) {
        let (mut values, mut definitions, mut repetitions) = (Vec::new(), Vec::new(), Vec::new());
        for list in group_lists {
            match list {
                None => {
                    definitions.push(0);
                    repetitions.push(0);
                }
                Some(elements) if elements.is_empty() => {
                    definitions.push(1);
                    repetitions.push(0);
                }
                Some(elements) => {
                    for (at, element) in elements.iter().enumerate() {
                        repetitions.push(i16::from(at > 0));
                        match element {
                            None => definitions.push(2),
                            Some(bytes) => {
                                definitions.push(3);
                                values.push(ByteArray::from(bytes.clone()));
                            }
                        }
                    }
                }
            }
        }
        let mut group = writer.next_row_group().expect("a row group");
        let mut column = group.next_column().expect("a column").expect("the one");
        column
            .typed::<ByteArrayType>()
            .write_batch(&values, Some(&definitions), Some(&repetitions))
            .expect("written");
        column.close().expect("closed");
        group.close().expect("row group closed");
    }
    writer.close().expect("file closed");
}

#[test]
fn a_bad_element_of_a_list_of_strings_is_reported_at_its_row_and_place_in_the_list() {
    let mut choices = Rng::new(0x115);
    let lists: Vec<Option<Vec<Option<Vec<u8>>>>> = (0..1200)
        .map(|_| match choices.below(8) {
            0 => None,
            1 => Some(Vec::new()),
            _ => Some(
                (0..choices.below(6))
                    .map(|_| (choices.below(6) != 0).then(|| value(&mut choices)))
                    .collect(),
            ),
        })
        .collect();
    let directory = scratch();
    let path = directory.path().join("lists.parquet");
    write_lists(&path, &lists, 400);
    let mut expected = Vec::new();
    for (row, list) in lists.iter().enumerate() {
        for (element, value) in list.iter().flatten().enumerate() {
            for (offset, len) in value.as_deref().map(reference).unwrap_or_default() {
                expected.push(Reported {
                    row: row as u64,
                    leaf: 0,
                    element: Some(element as u64),
                    column: "tags.list.element".to_owned(),
                    offset,
                    len,
                });
            }
        }
    }
    assert!(expected.len() > 50);
    let (all, status, stderr) = check_json(&["--all", arg(&path)]);
    assert_eq!(all, expected, "{stderr}");
    assert_eq!(status, 1);
}

#[test]
fn row_groups_checked_on_any_number_of_threads_are_reported_in_the_files_order() {
    // 0, 1, 255, 256 and 257 row groups of two rows, a bad value in some
    // of them: the threads take row groups as they come free and finish
    // them out of order, and the report is the same on every count.
    for groups in [0, 1, 255, 256, 257] {
        let mut choices = Rng::new(0x600D + groups as u64);
        let rows: Vec<Option<Vec<u8>>> =
            (0..groups * 2).map(|_| Some(value(&mut choices))).collect();
        let directory = scratch();
        let path = directory.path().join("groups.parquet");
        let column = Column {
            name: "s",
            schema: "REQUIRED BYTE_ARRAY s;",
            rows,
        };
        write_flat(
            &path,
            &[&column],
            2,
            properties(None, Compression::UNCOMPRESSED),
        );
        let expected: Vec<Reported> = column
            .rows
            .iter()
            .enumerate()
            .flat_map(|(row, value)| {
                value
                    .as_deref()
                    .map(reference)
                    .unwrap_or_default()
                    .into_iter()
                    .map(move |(offset, len)| Reported {
                        row: row as u64,
                        leaf: 0,
                        element: None,
                        column: "s".to_owned(),
                        offset,
                        len,
                    })
            })
            .collect();
        let status = if expected.is_empty() { 0 } else { 1 };
        for threads in [1, 2, 3, 8, 64] {
            let (all, code, stderr) = check_json_on_threads(Some(threads), &["--all", arg(&path)]);
            assert_eq!(
                all, expected,
                "{groups} row groups, {threads} threads: {stderr}"
            );
            assert_eq!(code, status);
            let (first, code, _) = check_json_on_threads(Some(threads), &[arg(&path)]);
            assert_eq!(
                first,
                expected[..expected.len().min(1)],
                "{groups} row groups, {threads} threads"
            );
            assert_eq!(code, status);
        }
    }
}

#[test]
fn the_human_report_names_the_file_column_row_row_group_and_bytes() {
    let directory = scratch();
    let path = directory.path().join("two.parquet");
    let column = Column {
        name: "s",
        schema: "REQUIRED BYTE_ARRAY s (STRING);",
        rows: vec![
            Some(b"ok".to_vec()),
            Some(b"caf\xC3".to_vec()),
            Some(b"\xA9lait".to_vec()),
        ],
    };
    write_flat(
        &path,
        &[&column],
        2,
        properties(None, Compression::UNCOMPRESSED),
    );
    let output = utf8_within_ten_seconds(&["check", "--all", arg(&path)]);
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let name = path.display();
    assert_eq!(
        stdout,
        format!(
            "{name}: column s, row 1, row group 0: offset 3: bytes C3: the value ends after C3; expected a byte in 80–BF\n\
             {name}: column s, row 2, row group 1: offset 0: bytes A9: A9 cannot start a sequence; expected 00–7F, C2–F4\n"
        )
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn listing_and_quiet_modes_tell_valid_and_invalid_parquet_files_apart() {
    let directory = scratch();
    let good = directory.path().join("good.parquet");
    let bad = directory.path().join("bad.parquet");
    let column = |rows: Vec<Option<Vec<u8>>>| Column {
        name: "s",
        schema: "REQUIRED BYTE_ARRAY s (STRING);",
        rows,
    };
    let valid = column(vec![Some(b"fine".to_vec()); 10]);
    let invalid = column(vec![Some(b"fine".to_vec()), Some(b"\xFF".to_vec())]);
    write_flat(
        &good,
        &[&valid],
        4,
        properties(None, Compression::UNCOMPRESSED),
    );
    write_flat(
        &bad,
        &[&invalid],
        4,
        properties(None, Compression::UNCOMPRESSED),
    );
    let run = |args: &[&str]| {
        let output = utf8_within_ten_seconds(args);
        (
            String::from_utf8(output.stdout).expect("UTF-8"),
            output.status.code(),
        )
    };
    let (good, bad) = (arg(&good), arg(&bad));
    assert_eq!(run(&["check", "-q", good, bad]), (String::new(), Some(1)));
    assert_eq!(run(&["check", "-q", good]), (String::new(), Some(0)));
    assert_eq!(
        run(&["check", "-l", good, bad]),
        (format!("{bad}\n"), Some(1))
    );
    assert_eq!(
        run(&["check", "--files-without-errors", good, bad]),
        (format!("{good}\n"), Some(1))
    );
    // As text, the same file is judged on its bytes: the footer's binary
    // numbers are not UTF-8.
    let (_, status) = run(&["check", "-q", "--parquet", "never", good]);
    assert_eq!(status, Some(1));
}

#[test]
fn a_file_named_otherwise_is_read_as_parquet_by_its_magic_bytes_and_a_text_starting_with_them_is_text()
 {
    let directory = scratch();
    let path = directory.path().join("data.bin");
    let column = Column {
        name: "s",
        schema: "REQUIRED BYTE_ARRAY s (STRING);",
        rows: vec![Some(b"\xFF".to_vec())],
    };
    write_flat(
        &path,
        &[&column],
        1,
        properties(None, Compression::UNCOMPRESSED),
    );
    let (reports, status, _) = check_json(&[arg(&path)]);
    assert_eq!((reports.len(), status), (1, 1));

    let text = common::write(directory.path(), "notes.txt", b"PAR1 is a magic number\n");
    let output = utf8_within_ten_seconds(&["check", arg(&text)]);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn parquet_on_standard_input_is_read_when_asked_for() {
    let directory = scratch();
    let path = directory.path().join("stdin.parquet");
    let column = Column {
        name: "s",
        schema: "REQUIRED BYTE_ARRAY s (STRING);",
        rows: vec![Some(b"ok".to_vec()), Some(b"\xC3(".to_vec())],
    };
    write_flat(&path, &[&column], 2, properties(None, Compression::SNAPPY));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_utf8"))
        .args(["check", "--parquet", "always", "--format", "json", "-"])
        .stdin(File::open(&path).expect("the file"))
        .output()
        .expect("runs");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let json: Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    assert_eq!(json["path"], "<stdin>");
    assert_eq!(
        (json["row"].as_u64(), json["offset"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(output.status.code(), Some(1));
}

/// A valid file of a few row groups, compressed, to break.
fn file_to_break(directory: &Path) -> Vec<u8> {
    let path = directory.join("whole.parquet");
    let column = Column {
        name: "s",
        schema: "REQUIRED BYTE_ARRAY s (STRING);",
        rows: (0..300)
            .map(|row| Some(format!("value number {row}").into_bytes()))
            .collect(),
    };
    write_flat(
        &path,
        &[&column],
        100,
        properties(None, Compression::SNAPPY),
    );
    std::fs::read(&path).expect("read back")
}

#[test]
fn a_broken_parquet_file_is_one_line_naming_it_exit_2_and_the_other_inputs_are_still_checked() {
    let directory = scratch();
    let whole = file_to_break(directory.path());
    let footer_len =
        u32::from_le_bytes(whole[whole.len() - 8..whole.len() - 4].try_into().unwrap());
    let footer_start = whole.len() - 8 - footer_len as usize;
    let mut bad_footer = whole.clone();
    for byte in &mut bad_footer[footer_start..footer_start + 16] {
        *byte = 0xFF;
    }
    let mut bad_page = whole.clone();
    // The first page's compressed bytes, past its header.
    for byte in &mut bad_page[40..70] {
        *byte ^= 0x5A;
    }
    let broken = [
        ("truncated.parquet", whole[..whole.len() - 100].to_vec()),
        ("footer.parquet", bad_footer),
        ("page.parquet", bad_page),
        ("empty.parquet", Vec::new()),
    ];
    let text = common::write(directory.path(), "bad.txt", b"\xFF\n");
    for (name, bytes) in broken {
        let path = common::write(directory.path(), name, &bytes);
        let output = utf8_within_ten_seconds(&["check", arg(&path), arg(&text)]);
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        let stdout = String::from_utf8(output.stdout).expect("UTF-8");
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(
            stderr.starts_with(&format!(
                "utf8: cannot read {} as Parquet: ",
                path.display()
            )),
            "{name}: {stderr}"
        );
        assert!(
            stdout.contains("bad.txt:1:1"),
            "{name}: the text file is checked: {stdout}"
        );
    }
}

#[test]
fn a_parquet_file_found_under_a_directory_is_checked_as_parquet_not_skipped_as_binary() {
    let directory = scratch();
    let path = directory.path().join("lake/part-0.parquet");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let column = Column {
        name: "s",
        schema: "REQUIRED BYTE_ARRAY s (STRING);",
        rows: vec![Some(b"ok".to_vec()), Some(b"caf\xC3".to_vec())],
    };
    write_flat(&path, &[&column], 2, properties(None, Compression::SNAPPY));
    common::write(directory.path(), "lake/notes.txt", b"fine\n");
    let (reports, status, stderr) = check_json(&["-r", arg(directory.path())]);
    assert_eq!(status, 1, "{stderr}");
    assert_eq!(
        reports,
        [Reported {
            row: 1,
            leaf: 0,
            element: None,
            column: "s".to_owned(),
            offset: 3,
            len: None,
        }]
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_is_read_once_as_text_not_opened_to_look_for_parquet_magic() {
    let directory = scratch();
    let fifo = directory.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Write as _;
            let mut pipe = std::fs::OpenOptions::new().write(true).open(&fifo)?;
            pipe.write_all(b"ok\n\xFF\n")
        })
    };
    let output = utf8_within_ten_seconds(&["check", arg(&fifo)]);
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!(
            "{}:2:1: offset 3: bytes FF: FF cannot start a sequence; expected 00\u{2013}7F, C2\u{2013}F4\n",
            fifo.display()
        )
    );
    assert_eq!(output.status.code(), Some(1));
    writer
        .join()
        .unwrap()
        .expect("the writer's bytes all went to the check");
}

/// What the manual promises for `--strings-only` (string, enum and JSON
/// columns, no others) and for the legacy LZ4 codec and data page v2,
/// on files the writer stores each way.
#[test]
fn strings_only_checks_string_enum_and_json_columns_in_legacy_lz4_and_data_page_v2_files() {
    use parquet::file::properties::WriterVersion;

    let [strings, binary, _] = flat_columns(700, 0xE5);
    let renamed = |from: &Column, name: &'static str, schema: &'static str| Column {
        name,
        schema,
        rows: from.rows.clone(),
    };
    let enums = renamed(&strings, "e", "REQUIRED BYTE_ARRAY e (ENUM);");
    let json = renamed(&binary, "j", "OPTIONAL BYTE_ARRAY j (JSON);");
    let bson = renamed(&binary, "x", "OPTIONAL BYTE_ARRAY x (BSON);");
    let columns = [&strings, &binary, &enums, &json, &bson];
    let texts = [&strings, &enums, &json];
    let directory = scratch();
    for (name, compression, version) in [
        ("lz4-v1", Compression::LZ4, WriterVersion::PARQUET_1_0),
        ("lz4-v2", Compression::LZ4, WriterVersion::PARQUET_2_0),
        ("snappy-v2", Compression::SNAPPY, WriterVersion::PARQUET_2_0),
    ] {
        let path = directory.path().join(format!("{name}.parquet"));
        let properties = WriterProperties::builder()
            .set_compression(compression)
            .set_writer_version(version)
            .set_data_page_row_count_limit(64)
            .set_write_batch_size(64)
            .build();
        write_flat(&path, &columns, 300, properties);

        let (all, status, stderr) = check_json(&["--all", arg(&path)]);
        assert_eq!(
            all,
            without_leaves(&expected_flat(&columns)),
            "{name}: {stderr}"
        );
        assert_eq!(status, 1, "{name}: {stderr}");
        let (strings_only, status, stderr) = check_json(&["--all", "--strings-only", arg(&path)]);
        let expected = without_leaves(&expected_flat(&texts));
        assert!(expected.iter().any(|r| r.column == "e"), "{name}");
        assert!(expected.iter().any(|r| r.column == "j"), "{name}");
        assert_eq!(strings_only, expected, "{name}: {stderr}");
        assert_eq!(status, 1, "{name}: {stderr}");
    }
}
