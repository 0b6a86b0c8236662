//! The checked Parquet read: files with bytes that are not UTF-8 in
//! string columns, written as a foreign writer would (the `parquet`
//! crate's low-level writer, which takes bytes), read through
//! `register_checked_parquet`; and valid files read as DataFusion's own
//! read reads them.

mod hostile;
mod random;
mod write;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::common::{DataFusionError, Result};
use datafusion::parquet::arrow::{ARROW_SCHEMA_META_KEY, encode_arrow_schema};
use datafusion::parquet::basic::Encoding;
use datafusion::parquet::file::metadata::KeyValue;
use datafusion::parquet::file::properties::WriterProperties;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};
use utf8_datafusion::parquet::{
    CheckedParquetOptions, InvalidValue, OnInvalid, register_checked_parquet,
};
use write::{Leaf, TempDir, strings, write, write_with};

const FLAT: &str = "message m { REQUIRED INT64 id; OPTIONAL BYTE_ARRAY s (STRING); }";
/// "é" (`C3 A9`) cut between rows 1 and 2: back to back the values are
/// UTF-8, neither row is.
const CUT: [&[u8]; 4] = [b"ok", b"caf\xC3", b"\xA9lait", b"fine"];
const ENCODINGS: [Encoding; 3] = [
    Encoding::PLAIN,
    Encoding::DELTA_LENGTH_BYTE_ARRAY,
    Encoding::DELTA_BYTE_ARRAY,
];

fn cut_file(dir: &TempDir, encoding: Encoding) {
    let group = vec![Leaf::Ids((0..4).collect()), strings(&CUT)];
    write(&dir.path().join("cut.parquet"), FLAT, encoding, &[group]);
}

/// A session whose string columns are read as views (DataFusion's
/// default) or as offsets, one partition, so that the first bad value of
/// a file is the one named.
fn session(views: bool) -> SessionContext {
    let config = SessionConfig::new().with_target_partitions(1).set_bool(
        "datafusion.execution.parquet.schema_force_view_types",
        views,
    );
    SessionContext::new_with_config(config)
}

async fn checked(dir: &TempDir, options: CheckedParquetOptions) -> SessionContext {
    checked_in(session(true), dir, options).await
}

async fn checked_in(
    ctx: SessionContext,
    dir: &TempDir,
    options: CheckedParquetOptions,
) -> SessionContext {
    register_checked_parquet(&ctx, "t", &dir.url(), options)
        .await
        .unwrap();
    ctx
}

async fn query(ctx: &SessionContext, sql: &str) -> Result<Vec<RecordBatch>> {
    ctx.sql(sql).await?.collect().await
}

/// The `InvalidValue` a query failed with, wherever DataFusion wrapped it.
fn invalid_value(error: &DataFusionError) -> InvalidValue {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if let Some(found) = e.downcast_ref::<InvalidValue>() {
            return found.clone();
        }
        if let Some(DataFusionError::External(inner)) = e.downcast_ref::<DataFusionError>() {
            source = Some(inner.as_ref());
            continue;
        }
        if let Some(DataFusionError::Context(_, inner)) = e.downcast_ref::<DataFusionError>() {
            source = Some(inner.as_ref());
            continue;
        }
        source = e.source();
    }
    panic!("not an invalid value: {error}");
}

/// Every string array a query gave, each as arrow-rs itself checks it.
fn assert_sound(batches: &[RecordBatch]) {
    for batch in batches {
        for column in batch.columns() {
            column.to_data().validate_full().unwrap();
        }
    }
}

/// The rows of a one-column result of strings.
fn rows(batches: &[RecordBatch]) -> Vec<Option<String>> {
    column(batches, 0)
}

/// The rows of column `index` of a result of strings.
fn column(batches: &[RecordBatch], index: usize) -> Vec<Option<String>> {
    let mut rows = Vec::new();
    for batch in batches {
        let column =
            datafusion::arrow::compute::cast(batch.column(index), &DataType::Utf8).unwrap();
        let strings = column.as_string::<i32>().iter();
        rows.extend(strings.map(|v| v.map(str::to_owned)));
    }
    rows
}

#[tokio::test]
async fn a_cut_character_fails_the_query_naming_file_column_row_and_byte() {
    for (encoding, views) in ENCODINGS.into_iter().flat_map(|e| [(e, true), (e, false)]) {
        let dir = TempDir::new();
        cut_file(&dir, encoding);
        let ctx = checked_in(session(views), &dir, CheckedParquetOptions::new()).await;
        for sql in [
            "SELECT upper(s) FROM t",
            "SELECT count(*) FROM t",
            "SELECT id FROM t",
        ] {
            let error = query(&ctx, sql).await.unwrap_err();
            let bad = invalid_value(&error);
            assert!(
                bad.file().ends_with("cut.parquet"),
                "{encoding:?} {sql}: {bad}"
            );
            assert_eq!(
                (
                    bad.column(),
                    bad.row(),
                    bad.valid_up_to(),
                    bad.error_len(),
                    bad.bytes()
                ),
                ("s", 1, 3, None, &b"\xC3"[..]),
                "{encoding:?} {sql}: {bad}"
            );
            assert!(
                bad.to_string()
                    .contains("cut.parquet: column s: row 1: invalid UTF-8 at byte 3")
            );
        }
    }
}

#[tokio::test]
async fn null_and_replace_change_exactly_the_rows_from_utf8_rejects() {
    for (encoding, views) in ENCODINGS.into_iter().flat_map(|e| [(e, true), (e, false)]) {
        let dir = TempDir::new();
        cut_file(&dir, encoding);
        for on_invalid in [OnInvalid::Null, OnInvalid::Replace] {
            let options = CheckedParquetOptions::new().column("s", on_invalid);
            let ctx = checked_in(session(views), &dir, options).await;
            let batches = query(&ctx, "SELECT s FROM t ORDER BY id").await.unwrap();
            assert_sound(&batches);
            let expected: Vec<Option<String>> = CUT
                .iter()
                .map(|value| match (std::str::from_utf8(value), on_invalid) {
                    (Ok(valid), _) => Some(valid.to_owned()),
                    (Err(_), OnInvalid::Null) => None,
                    (Err(_), _) => Some(String::from_utf8_lossy(value).into_owned()),
                })
                .collect();
            assert_eq!(rows(&batches), expected, "{encoding:?} {on_invalid:?}");
            let upper = query(&ctx, "SELECT upper(s) FROM t").await.unwrap();
            assert_sound(&upper);
        }
    }
}

#[tokio::test]
async fn rows_count_from_the_file_start_when_row_groups_are_pruned() {
    let dir = TempDir::new();
    let groups: Vec<Vec<Leaf>> = (0..3)
        .map(|group| {
            let ids: Vec<i64> = (group * 100..group * 100 + 100).collect();
            let mut values: Vec<&'static [u8]> = vec![b"valid"; 100];
            if group == 2 {
                values[50] = b"bad \xFF here";
            }
            vec![Leaf::Ids(ids), strings(&values)]
        })
        .collect();
    write(
        &dir.path().join("groups.parquet"),
        FLAT,
        Encoding::PLAIN,
        &groups,
    );
    let ctx = checked(&dir, CheckedParquetOptions::new()).await;

    let error = query(&ctx, "SELECT s FROM t WHERE id >= 200")
        .await
        .unwrap_err();
    let bad = invalid_value(&error);
    assert_eq!(
        (bad.row(), bad.valid_up_to(), bad.error_len()),
        (250, 4, Some(1)),
        "{bad}"
    );
    // The bad row's group is pruned by its statistics: nothing bad is read.
    let batches = query(&ctx, "SELECT s FROM t WHERE id < 200").await.unwrap();
    assert_eq!(rows(&batches).len(), 200);
    let plan = query(&ctx, "EXPLAIN ANALYZE SELECT s FROM t WHERE id < 200")
        .await
        .unwrap();
    let plan = pretty_format_batches(&plan).unwrap().to_string();
    assert!(plan.contains("strings checked as UTF-8"), "{plan}");
    assert!(
        plan.contains("row_groups_pruned_statistics=3 total → 2 matched"),
        "{plan}"
    );
}

const NESTED: &str = "message m {
    REQUIRED INT64 id;
    OPTIONAL GROUP tags (LIST) { REPEATED GROUP list { OPTIONAL BYTE_ARRAY element (STRING); } }
    OPTIONAL GROUP who { OPTIONAL BYTE_ARRAY name (STRING); }
}";

fn nested_file(dir: &TempDir) {
    let tags = Leaf::Bytes {
        values: vec![
            b"a".to_vec(),
            b"b".to_vec(),
            b"c".to_vec(),
            b"x\xFF".to_vec(),
        ],
        definition: Some(vec![3, 3, 3, 3]),
        repetition: Some(vec![0, 1, 0, 0]),
    };
    let names = Leaf::Bytes {
        values: vec![b"n0".to_vec(), b"n\xC3".to_vec(), b"n2".to_vec()],
        definition: Some(vec![2, 2, 2]),
        repetition: None,
    };
    let group = vec![Leaf::Ids(vec![0, 1, 2]), tags, names];
    write(
        &dir.path().join("nested.parquet"),
        NESTED,
        Encoding::PLAIN,
        &[group],
    );
}

#[tokio::test]
async fn strings_in_lists_and_structs_are_checked_and_named_by_path() {
    let dir = TempDir::new();
    nested_file(&dir);
    let ctx = checked(&dir, CheckedParquetOptions::new()).await;
    let bad = invalid_value(&query(&ctx, "SELECT tags FROM t").await.unwrap_err());
    assert_eq!(
        (bad.column(), bad.row(), bad.valid_up_to()),
        ("tags.element", 2, 1),
        "{bad}"
    );
    let bad = invalid_value(&query(&ctx, "SELECT who FROM t").await.unwrap_err());
    assert_eq!(
        (bad.column(), bad.row(), bad.error_len()),
        ("who.name", 1, None),
        "{bad}"
    );

    let options = CheckedParquetOptions::new().on_invalid(OnInvalid::Null);
    let ctx = checked(&dir, options).await;
    let batches = query(&ctx, "SELECT tags, who FROM t ORDER BY id")
        .await
        .unwrap();
    assert_sound(&batches);
    let batch = datafusion::arrow::compute::concat_batches(&batches[0].schema(), &batches).unwrap();
    // Only the bad element and the bad field became null.
    let tags = batch.column(0).as_list::<i32>();
    let lengths: Vec<usize> = (0..3).map(|row| tags.value(row).len()).collect();
    assert_eq!(lengths, [2, 1, 1]);
    let elements = tags.values();
    let nulls: Vec<bool> = (0..elements.len()).map(|i| elements.is_null(i)).collect();
    assert_eq!(nulls, [false, false, false, true]);
    let names = batch.column(1).as_struct().column(0);
    let nulls: Vec<bool> = (0..3).map(|row| names.is_null(row)).collect();
    assert_eq!(nulls, [false, true, false]);
    assert!(batch.column(1).as_struct().is_valid(1));
}

#[tokio::test]
async fn valid_files_read_as_datafusions_own_read_reads_them() {
    let dir = TempDir::new();
    for (year, first) in [(2025, 0), (2026, 100)] {
        let folder = dir.path().join(format!("year={year}"));
        std::fs::create_dir_all(&folder).unwrap();
        let ids: Vec<i64> = (first..first + 100).collect();
        let values: Vec<&'static [u8]> = (0..100)
            .map(|i| [&b"caf\xC3\xA9"[..], b"na\xC3\xAFve", b"\xE2\x82\xAC5", b""][i % 4])
            .collect();
        let group = vec![Leaf::Ids(ids), strings(&values)];
        write(
            &folder.join("part.parquet"),
            FLAT,
            Encoding::DELTA_BYTE_ARRAY,
            &[group],
        );
    }
    let partitions = vec![("year".to_owned(), DataType::Utf8)];
    let ctx = SessionContext::new();
    let options = CheckedParquetOptions::new().table_partition_cols(partitions.clone());
    register_checked_parquet(&ctx, "checked", &dir.url(), options)
        .await
        .unwrap();
    let own = ParquetReadOptions::default().table_partition_cols(partitions);
    ctx.register_parquet("own", &dir.url(), own).await.unwrap();

    let checked_schema = ctx.table("checked").await.unwrap().schema().clone();
    let own_schema = ctx.table("own").await.unwrap().schema().clone();
    assert_eq!(checked_schema.fields(), own_schema.fields());
    for sql in [
        "SELECT * FROM {} ORDER BY id",
        "SELECT upper(s) AS u, id FROM {} WHERE year = '2026' AND id > 150 ORDER BY id",
        "SELECT count(*) AS n, count(s) AS k, max(s) AS m FROM {}",
        "SELECT s FROM {} ORDER BY id LIMIT 3",
    ] {
        let mine = query(&ctx, &sql.replace("{}", "checked")).await.unwrap();
        let theirs = query(&ctx, &sql.replace("{}", "own")).await.unwrap();
        assert_sound(&mine);
        assert_eq!(
            pretty_format_batches(&mine).unwrap().to_string(),
            pretty_format_batches(&theirs).unwrap().to_string(),
            "{sql}"
        );
    }
}

/// A file whose embedded Arrow schema (as pyarrow writes it) says what
/// the string column was: `LargeUtf8`, or a dictionary.
fn hinted_file(dir: &TempDir, hint: DataType) {
    let schema = Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("s", hint, true),
    ]);
    let metadata = KeyValue::new(
        ARROW_SCHEMA_META_KEY.to_owned(),
        encode_arrow_schema(&schema),
    );
    let properties = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_key_value_metadata(Some(vec![metadata]))
        .build();
    let group = vec![Leaf::Ids((0..4).collect()), strings(&CUT)];
    write_with(
        &dir.path().join("hinted.parquet"),
        FLAT,
        properties,
        &[group],
    );
}

#[tokio::test]
async fn large_and_dictionary_string_columns_are_read_as_the_writer_declared_them() {
    let dictionary = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
    for hint in [DataType::LargeUtf8, dictionary] {
        let dir = TempDir::new();
        hinted_file(&dir, hint.clone());
        let ctx = checked_in(session(false), &dir, CheckedParquetOptions::new()).await;
        let shown = ctx
            .table("t")
            .await
            .unwrap()
            .schema()
            .field(1)
            .data_type()
            .clone();
        assert_eq!(shown, hint);
        let bad = invalid_value(&query(&ctx, "SELECT s FROM t").await.unwrap_err());
        assert_eq!(
            (bad.column(), bad.row(), bad.valid_up_to()),
            ("s", 1, 3),
            "{hint}: {bad}"
        );

        for on_invalid in [OnInvalid::Null, OnInvalid::Replace] {
            let options = CheckedParquetOptions::new().on_invalid(on_invalid);
            let ctx = checked_in(session(false), &dir, options).await;
            let batches = query(&ctx, "SELECT s FROM t ORDER BY id").await.unwrap();
            assert_sound(&batches);
            assert_eq!(batches[0].schema().field(0).data_type(), &hint);
            let expected = match on_invalid {
                OnInvalid::Null => vec![Some("ok"), None, None, Some("fine")],
                _ => vec![
                    Some("ok"),
                    Some("caf\u{FFFD}"),
                    Some("\u{FFFD}lait"),
                    Some("fine"),
                ],
            };
            let expected: Vec<Option<String>> =
                expected.into_iter().map(|v| v.map(str::to_owned)).collect();
            assert_eq!(rows(&batches), expected, "{hint} {on_invalid:?}");
        }
    }
}

#[tokio::test]
async fn pages_pruned_by_the_page_index_are_not_read_and_rows_still_count_from_the_start() {
    let dir = TempDir::new();
    let ids: Vec<i64> = (0..1000).collect();
    let mut values: Vec<&[u8]> = vec![b"valid"; 1000];
    values[50] = b"\xFFbad";
    let properties = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_data_page_row_count_limit(100)
        .set_write_batch_size(100)
        .build();
    let group = vec![Leaf::Ids(ids), strings(&values)];
    write_with(
        &dir.path().join("pages.parquet"),
        FLAT,
        properties,
        &[group],
    );
    let ctx = checked(&dir, CheckedParquetOptions::new()).await;

    // The bad value's page holds rows 0 to 99: a filter past them skips it.
    let batches = query(&ctx, "SELECT s FROM t WHERE id >= 500")
        .await
        .unwrap();
    assert_eq!(rows(&batches).len(), 500);
    let plan = query(&ctx, "EXPLAIN ANALYZE SELECT s FROM t WHERE id >= 500")
        .await
        .unwrap();
    let plan = pretty_format_batches(&plan).unwrap().to_string();
    assert!(
        plan.contains("page_index_rows_pruned=1.00 K total → 500 matched"),
        "{plan}"
    );
    let bad = invalid_value(
        &query(&ctx, "SELECT s FROM t WHERE id >= 40")
            .await
            .unwrap_err(),
    );
    assert_eq!(
        (bad.row(), bad.valid_up_to(), bad.error_len()),
        (50, 0, Some(1)),
        "{bad}"
    );
}

/// The README's file: `ok`, then "é" cut across two rows, in
/// `DELTA_BYTE_ARRAY`, the encoding whose read DataFusion 55 lets through.
const EXAMPLE: [&[u8]; 3] = [b"ok", b"caf\xC3", b"\xA9lait"];

#[test]
fn the_readmes_example_file_is_the_one_this_test_writes() {
    let dir = TempDir::new();
    let written = dir.path().join("cut-across-rows.parquet");
    let properties = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_encoding(Encoding::DELTA_BYTE_ARRAY)
        .build();
    let schema = "message m { OPTIONAL BYTE_ARRAY s (STRING); }";
    write_with(&written, schema, properties, &[vec![strings(&EXAMPLE)]]);
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/examples/cut-across-rows.parquet");
    let bytes = std::fs::read(&written).unwrap();
    if std::env::var_os("UTF8_BLESS").is_some() {
        std::fs::write(&shipped, &bytes).unwrap();
    }
    assert!(
        std::fs::read(&shipped).is_ok_and(|old| old == bytes),
        "data/examples/cut-across-rows.parquet is stale: UTF8_BLESS=1 rewrites it"
    );
}

/// What the README says of DataFusion's own read of its file: the two
/// halves of "é" come through as strings, which `utf8_is_valid` (reading
/// their bytes, never a `&str`) finds invalid. Should DataFusion close the
/// hole, this fails, and the README's first paragraph wants rewriting.
#[tokio::test]
async fn datafusions_own_read_lets_the_readmes_cut_character_through() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/examples/cut-across-rows.parquet"
    );
    let ctx = SessionContext::new();
    utf8_datafusion::register(&ctx);
    ctx.register_parquet("own", file, ParquetReadOptions::default())
        .await
        .unwrap();
    let schema = ctx.table("own").await.unwrap().schema().clone();
    assert_eq!(schema.field(0).data_type(), &DataType::Utf8View);
    let batches = query(&ctx, "SELECT utf8_is_valid(s) AS valid FROM own")
        .await
        .unwrap();
    let valid: Vec<Option<bool>> = batches
        .iter()
        .flat_map(|batch| batch.column(0).as_boolean().iter().collect::<Vec<_>>())
        .collect();
    assert_eq!(valid, [Some(true), Some(false), Some(false)]);
}

/// A file cut short (its footer gone) or with its footer's bytes damaged
/// is an error from registering or reading, never a panic.
#[tokio::test]
async fn a_truncated_or_damaged_file_is_an_error_not_a_panic() {
    let shipped = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/examples/cut-across-rows.parquet"
    );
    let bytes = std::fs::read(shipped).unwrap();
    let mut damaged = bytes.clone();
    let footer = damaged.len() - 40;
    damaged[footer..footer + 16].fill(0xFF);
    for (name, contents) in [
        ("truncated", &bytes[..bytes.len() / 2]),
        ("damaged", &damaged[..]),
    ] {
        let dir = TempDir::new();
        std::fs::write(dir.path().join("bad.parquet"), contents).unwrap();
        let ctx = session(true);
        let outcome =
            match register_checked_parquet(&ctx, "t", &dir.url(), CheckedParquetOptions::new())
                .await
            {
                Err(e) => Err(e),
                Ok(()) => query(&ctx, "SELECT s FROM t").await.map(drop),
            };
        assert!(outcome.is_err(), "{name}: read as valid");
    }
}
