//! Random files against per-value references: rows of 0 to 300 bytes cut
//! from one text (characters split across neighbouring rows), invalid
//! bytes, nulls; one to three row groups of pages of 7, 50 or 1,000 rows,
//! in each byte-array encoding, read as views and as offsets. With nulls
//! or replacements the read must give exactly what `core::str::from_utf8`
//! and `String::from_utf8_lossy` give per value; failing, it must name a
//! value that is bad exactly as `from_utf8` says, and the first one of a
//! column read alone.

use datafusion::parquet::basic::Encoding;
use datafusion::parquet::file::properties::WriterProperties;
use datafusion::parquet::schema::types::ColumnPath;

use super::write::{Leaf, TempDir, write_with};
use super::{ENCODINGS, assert_sound, checked_in, column, invalid_value, query, session};
use crate::common::{self, Rng};
use utf8_datafusion::parquet::{CheckedParquetOptions, InvalidValue, OnInvalid};

const SEEDS: u64 = 40;
const SCHEMA: &str = "message m {
    REQUIRED INT64 id;
    OPTIONAL BYTE_ARRAY s (STRING);
    OPTIONAL BYTE_ARRAY t (STRING);
}";

/// A file's values: per column, per row, `None` for a null.
struct Values {
    s: Vec<Option<Vec<u8>>>,
    t: Vec<Option<Vec<u8>>>,
}

fn leaf(values: &[Option<Vec<u8>>]) -> Leaf {
    Leaf::Bytes {
        values: values.iter().flatten().cloned().collect(),
        definition: Some(values.iter().map(|v| i16::from(v.is_some())).collect()),
        repetition: None,
    }
}

/// Writes a random file; `t` holds `s`'s rows in reverse order.
fn random_file(dir: &TempDir, seed: u64) -> Values {
    let mut rng = Rng::new(seed);
    let groups = 1 + rng.below(3);
    let (mut s, mut t, mut leaves) = (Vec::new(), Vec::new(), Vec::new());
    for group in 0..groups {
        let table = common::table(seed * 4 + group as u64);
        let rows: Vec<Option<Vec<u8>>> = table
            .rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                table
                    .valid
                    .as_ref()
                    .is_none_or(|v| v[i])
                    .then(|| row.clone())
            })
            .collect();
        let reversed: Vec<Option<Vec<u8>>> = rows.iter().rev().cloned().collect();
        let first = s.len() as i64;
        let ids = (first..first + rows.len() as i64).collect();
        leaves.push(vec![Leaf::Ids(ids), leaf(&rows), leaf(&reversed)]);
        s.extend(rows);
        t.extend(reversed);
    }
    let encoding: Encoding = ENCODINGS[rng.below(ENCODINGS.len())];
    let page_rows = [7, 50, 1000][rng.below(3)];
    let properties = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_column_encoding(ColumnPath::from("s"), encoding)
        .set_column_encoding(ColumnPath::from("t"), encoding)
        .set_data_page_row_count_limit(page_rows)
        .set_write_batch_size(page_rows)
        .build();
    write_with(
        &dir.path().join("random.parquet"),
        SCHEMA,
        properties,
        &leaves,
    );
    Values { s, t }
}

fn reference(values: &[Option<Vec<u8>>], on_invalid: OnInvalid) -> Vec<Option<String>> {
    values
        .iter()
        .map(|value| {
            let value = value.as_ref()?;
            match (std::str::from_utf8(value), on_invalid) {
                (Ok(valid), _) => Some(valid.to_owned()),
                (Err(_), OnInvalid::Null) => None,
                (Err(_), _) => Some(String::from_utf8_lossy(value).into_owned()),
            }
        })
        .collect()
}

fn is_bad(value: &Option<Vec<u8>>) -> bool {
    value
        .as_ref()
        .is_some_and(|v| std::str::from_utf8(v).is_err())
}

#[tokio::test]
async fn random_files_read_exactly_as_per_value_references_say() {
    for seed in 0..SEEDS {
        let dir = TempDir::new();
        let values = random_file(&dir, seed);
        let views = seed % 2 == 0;
        for on_invalid in [OnInvalid::Null, OnInvalid::Replace] {
            let options = CheckedParquetOptions::new().on_invalid(on_invalid);
            let ctx = checked_in(session(views), &dir, options).await;
            let batches = query(&ctx, "SELECT s, t FROM t ORDER BY id").await.unwrap();
            assert_sound(&batches);
            assert_eq!(
                column(&batches, 0),
                reference(&values.s, on_invalid),
                "seed {seed}"
            );
            assert_eq!(
                column(&batches, 1),
                reference(&values.t, on_invalid),
                "seed {seed}"
            );
        }

        let ctx = checked_in(session(views), &dir, CheckedParquetOptions::new()).await;
        let any_bad = values.s.iter().any(is_bad);
        match query(&ctx, "SELECT s, t FROM t").await {
            Ok(batches) => {
                assert!(!any_bad, "seed {seed}: a bad value read as valid");
                assert_sound(&batches);
            }
            Err(error) => {
                let bad = invalid_value(&error);
                let named = match bad.column() {
                    "s" => &values.s,
                    _ => &values.t,
                };
                assert_names_the_value(&bad, named, seed);
            }
        }
        // One column read alone, the other's bad values made null: it
        // fails exactly when it holds a bad value, and names one. Which
        // one is the first the read meets: DataFusion decodes a file's
        // row groups as morsels that may finish out of order.
        let options = CheckedParquetOptions::new().column("t", OnInvalid::Null);
        let ctx = checked_in(session(views), &dir, options).await;
        match query(&ctx, "SELECT s FROM t").await {
            Ok(_) => assert!(!any_bad, "seed {seed}: a bad value read as valid"),
            Err(error) => {
                let bad = invalid_value(&error);
                assert_eq!(bad.column(), "s", "seed {seed}: {bad}");
                assert_names_the_value(&bad, &values.s, seed);
            }
        }
    }
}

/// The named row holds a value that `from_utf8` rejects exactly as named.
fn assert_names_the_value(bad: &InvalidValue, column: &[Option<Vec<u8>>], seed: u64) {
    let value = column[bad.row() as usize].as_ref().expect("a null named");
    let e = std::str::from_utf8(value).expect_err("a valid value named");
    assert_eq!(
        (bad.valid_up_to(), bad.error_len()),
        (e.valid_up_to(), e.error_len()),
        "seed {seed}: {bad}"
    );
    let end = e
        .error_len()
        .map_or(value.len(), |len| e.valid_up_to() + len);
    assert_eq!(
        bad.bytes(),
        &value[e.valid_up_to()..end.min(e.valid_up_to() + 4)]
    );
}
