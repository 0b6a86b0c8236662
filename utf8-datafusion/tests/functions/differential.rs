//! The three functions against per-row references on random columns of
//! every input type: `core::str::from_utf8` and `String::from_utf8_lossy`,
//! and each other ruleset's own single-buffer validator in utf8-core. Rows
//! of 0 to 300 bytes cut from one text (characters split across
//! neighbouring rows), invalid bytes, nulls over invalid bytes, slices,
//! empty arrays; called directly and through SQL.

use std::sync::Arc;

use crate::common::{self, Table, invoke, udf};
use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BinaryViewArray, Int64Array, RecordBatch, UInt32Array,
};
use datafusion::arrow::compute::concat_batches;
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::common::ScalarValue;
use datafusion::logical_expr::ColumnarValue;
use datafusion::prelude::SessionContext;
use utf8_tests::random_rows::RandomRows;

const SEEDS: u64 = 300;

type Verdicts = Vec<Option<Result<(), usize>>>;

/// `utf8_is_valid` and `utf8_error_offset`'s answers as verdicts: `None`
/// for a null row, else `Ok` or the offset.
fn verdicts(valid: &dyn Array, offsets: &dyn Array) -> Verdicts {
    let valid = valid.as_boolean();
    let offsets = offsets.as_primitive::<datafusion::arrow::datatypes::Int64Type>();
    (0..valid.len())
        .map(
            |row| match (valid.is_null(row), valid.value(row), offsets.is_null(row)) {
                (true, _, true) => None,
                (false, true, true) => Some(Ok(())),
                (false, false, false) => Some(Err(usize::try_from(offsets.value(row)).unwrap())),
                other => {
                    panic!("row {row}: utf8_is_valid and utf8_error_offset disagree: {other:?}")
                }
            },
        )
        .collect()
}

/// A string array's rows, `None` for a null one.
fn strings(array: &dyn Array) -> Vec<Option<String>> {
    let strings: Vec<Option<&str>> = match array.data_type() {
        DataType::Utf8 => array.as_string::<i32>().iter().collect(),
        DataType::LargeUtf8 => array.as_string::<i64>().iter().collect(),
        DataType::Utf8View => array.as_string_view().iter().collect(),
        other => panic!("utf8_lossy gave {other}"),
    };
    strings.into_iter().map(|s| s.map(str::to_owned)).collect()
}

fn column(array: &ArrayRef) -> Vec<ColumnarValue> {
    vec![ColumnarValue::Array(Arc::clone(array))]
}

fn array(value: ColumnarValue) -> ArrayRef {
    match value {
        ColumnarValue::Array(array) => array,
        ColumnarValue::Scalar(s) => panic!("a column in, a literal out: {s}"),
    }
}

#[test]
fn each_row_gets_per_row_from_utf8_s_verdict_and_offset_on_every_input_type() {
    let (mut invalid, mut null) = (0, 0);
    for seed in 0..SEEDS {
        let table = common::table(seed);
        let expected = table.reference_verdicts();
        invalid += expected
            .iter()
            .filter(|v| matches!(v, Some(Err(_))))
            .count();
        null += expected.iter().filter(|v| v.is_none()).count();
        for input in table.arrays() {
            let rows = input.len();
            let valid = array(invoke(&udf("utf8_is_valid"), column(&input), rows).unwrap());
            let offsets = array(invoke(&udf("utf8_error_offset"), column(&input), rows).unwrap());
            assert_eq!(
                verdicts(&valid, &offsets),
                expected,
                "seed {seed}, {}",
                input.data_type()
            );
        }
    }
    assert!(
        invalid > 1000 && null > 1000,
        "the cases hold {invalid} invalid and {null} null rows"
    );
}

#[test]
fn utf8_lossy_gives_each_row_as_from_utf8_lossy_does_on_every_input_type() {
    for seed in 0..SEEDS {
        let table = common::table(seed);
        for input in table.arrays() {
            let lossy = array(invoke(&udf("utf8_lossy"), column(&input), input.len()).unwrap());
            assert_eq!(
                strings(&lossy),
                table.lossy(),
                "seed {seed}, {}",
                input.data_type()
            );
            let expected_type = match input.data_type() {
                DataType::Binary | DataType::Utf8 => DataType::Utf8,
                DataType::LargeBinary | DataType::LargeUtf8 => DataType::LargeUtf8,
                _ => DataType::Utf8View,
            };
            assert_eq!(lossy.data_type(), &expected_type);
        }
    }
}

/// A single-buffer validator's verdict: `Ok`, or the error's `valid_up_to`.
type Validator = fn(&[u8]) -> Result<(), usize>;

/// Each ruleset's name and its own single-buffer validator.
fn rulesets() -> Vec<(&'static str, Validator)> {
    fn of(result: Result<(), utf8_core::Utf8Error>) -> Result<(), usize> {
        result.map_err(|e| e.valid_up_to())
    }
    vec![
        ("rfc3629", |b| of(utf8_core::from_utf8(b).map(drop))),
        ("rfc2279", |b| of(utf8_core::rfc2279::validate(b))),
        ("cesu8", |b| of(utf8_core::cesu8::validate(b))),
        ("mutf8", |b| of(utf8_core::mutf8::validate(b))),
        ("wtf8", |b| of(utf8_core::wtf8::validate(b))),
        #[cfg(feature = "legacy-31bit")]
        ("legacy31", |b| of(utf8_core::legacy31::validate(b))),
    ]
}

#[test]
fn each_named_ruleset_gives_its_own_validators_verdicts_and_offsets() {
    for seed in 0..SEEDS {
        let table = common::table(seed);
        for (name, validate) in rulesets() {
            let expected = table.verdicts(validate);
            for input in table.arrays() {
                let args = || {
                    vec![
                        ColumnarValue::Array(Arc::clone(&input)),
                        ColumnarValue::Scalar(ScalarValue::Utf8(Some(name.to_owned()))),
                    ]
                };
                let rows = input.len();
                let valid = array(invoke(&udf("utf8_is_valid"), args(), rows).unwrap());
                let offsets = array(invoke(&udf("utf8_error_offset"), args(), rows).unwrap());
                assert_eq!(
                    verdicts(&valid, &offsets),
                    expected,
                    "seed {seed}, {name}, {}",
                    input.data_type()
                );
            }
        }
    }
}

#[test]
fn empty_arrays_give_empty_answers() {
    let table = Table {
        drawn: RandomRows {
            rows: vec![],
            valid: None,
        },
        range: 0..0,
    };
    for input in table.arrays() {
        for name in ["utf8_is_valid", "utf8_error_offset", "utf8_lossy"] {
            let answer = array(invoke(&udf(name), column(&input), 0).unwrap());
            assert_eq!(answer.len(), 0, "{name} of an empty {}", input.data_type());
        }
    }
}

/// The three functions over `input` through SQL, in row order.
async fn through_sql(input: &ArrayRef) -> (Verdicts, Vec<Option<String>>) {
    let ctx = SessionContext::new();
    utf8_datafusion::register(&ctx);
    let schema = Arc::new(Schema::new(vec![
        Field::new("i", DataType::UInt32, false),
        Field::new("c", input.data_type().clone(), true),
    ]));
    let rows = UInt32Array::from_iter_values(0..input.len() as u32);
    let batch = RecordBatch::try_new(Arc::clone(&schema), vec![Arc::new(rows), Arc::clone(input)]);
    ctx.register_batch("t", batch.unwrap()).unwrap();
    let query = "SELECT utf8_is_valid(c), utf8_error_offset(c), utf8_lossy(c) FROM t ORDER BY i";
    let batches = ctx.sql(query).await.unwrap().collect().await.unwrap();
    let Some(first) = batches.first() else {
        return (vec![], vec![]);
    };
    let all = concat_batches(&first.schema(), &batches).unwrap();
    let offsets: &Int64Array = all.column(1).as_primitive();
    (verdicts(all.column(0), offsets), strings(all.column(2)))
}

#[tokio::test]
async fn through_sql_each_row_gets_the_per_row_references_answers() {
    for seed in 0..SEEDS / 6 {
        let table = common::table(seed);
        for input in table.arrays() {
            let (verdicts, lossy) = through_sql(&input).await;
            let context = format!("seed {seed}, {}", input.data_type());
            assert_eq!(verdicts, table.reference_verdicts(), "{context}");
            assert_eq!(lossy, table.lossy(), "{context}");
        }
    }
}

#[test]
fn a_malformed_view_is_an_error_naming_its_row_whatever_row_comes_before_it() {
    for first in [&b"ok"[..], b"\xFF"] {
        let view = BinaryViewArray::from_iter_values([first, b"a string longer than twelve"]);
        let (views, buffers, nulls) = view.into_parts();
        let mut views = views.to_vec();
        views[1] = (views[1] & !(u128::from(u32::MAX) << 64)) | (7u128 << 64); // buffer 7
        // SAFETY: not met on purpose (a view naming a missing buffer): the
        // array goes only to the functions, which check each view's layout
        // before they read through it.
        let broken: ArrayRef =
            Arc::new(unsafe { BinaryViewArray::new_unchecked(views.into(), buffers, nulls) });
        for name in ["utf8_is_valid", "utf8_error_offset", "utf8_lossy"] {
            let e = invoke(&udf(name), column(&broken), 2).unwrap_err();
            assert!(
                e.to_string().contains("malformed string array: row 1"),
                "{name}, row 0 {first:x?}: {e}"
            );
        }
    }
}
