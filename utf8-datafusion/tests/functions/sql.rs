//! The functions as SQL sees them: literals, nulls, the ruleset argument
//! and the errors a query gets when planned.

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::Int64Type;
use datafusion::common::ScalarValue;
use datafusion::error::DataFusionError;
use datafusion::prelude::SessionContext;

fn context() -> SessionContext {
    let ctx = SessionContext::new();
    utf8_datafusion::register(&ctx);
    ctx
}

/// The one row a query returns.
async fn row(query: &str) -> Vec<ScalarValue> {
    let batches = context().sql(query).await.unwrap().collect().await.unwrap();
    let batch: Vec<&RecordBatch> = batches.iter().filter(|b| b.num_rows() > 0).collect();
    assert_eq!(batch.len(), 1, "{query}");
    assert_eq!(batch[0].num_rows(), 1, "{query}");
    batch[0]
        .columns()
        .iter()
        .map(|c| ScalarValue::try_from_array(c, 0).unwrap())
        .collect()
}

/// The error planning (or running) a query ends in.
async fn error(query: &str) -> DataFusionError {
    let ctx = context();
    match ctx.sql(query).await {
        Err(e) => e,
        Ok(df) => df.collect().await.expect_err(query),
    }
}

#[tokio::test]
async fn literal_bytes_are_checked_like_a_column_of_one_row() {
    assert_eq!(
        row("SELECT utf8_is_valid(X'C3'), utf8_is_valid(X'C3A9'), utf8_is_valid('café')").await,
        [
            ScalarValue::from(false),
            ScalarValue::from(true),
            ScalarValue::from(true)
        ]
    );
    assert_eq!(
        row("SELECT utf8_error_offset(X'61C3'), utf8_error_offset(X'616263FF'), utf8_error_offset(X'61')").await,
        [ScalarValue::from(1i64), ScalarValue::from(3i64), ScalarValue::Int64(None)]
    );
    assert_eq!(
        row("SELECT utf8_lossy(X'61C3'), utf8_lossy('ok')").await,
        [ScalarValue::from("a\u{FFFD}"), ScalarValue::from("ok")]
    );
}

#[tokio::test]
async fn a_dictionary_of_bytes_is_checked_as_its_values() {
    assert_eq!(
        row(
            "SELECT utf8_is_valid(arrow_cast(X'C3', 'Dictionary(Int32, Binary)')), \
             utf8_error_offset(arrow_cast(X'61C3', 'Dictionary(Int32, LargeBinary)'))"
        )
        .await,
        [ScalarValue::from(false), ScalarValue::from(1i64)]
    );
}

#[tokio::test]
async fn a_null_gives_null() {
    assert_eq!(
        row("SELECT utf8_is_valid(NULL), utf8_error_offset(NULL), utf8_lossy(NULL)").await,
        [
            ScalarValue::Boolean(None),
            ScalarValue::Int64(None),
            ScalarValue::Utf8(None)
        ]
    );
    assert_eq!(
        row("SELECT utf8_is_valid(CAST(NULL AS BYTEA), 'cesu8')").await,
        [ScalarValue::Boolean(None)]
    );
}

#[tokio::test]
async fn the_ruleset_argument_chooses_the_language() {
    // U+1F496 as a CESU-8 surrogate pair: CESU-8 and RFC 2279, not UTF-8.
    let pair = "X'EDA0BDEDB296'";
    assert_eq!(
        row(&format!(
            "SELECT utf8_is_valid({pair}), utf8_is_valid({pair}, 'rfc3629'), \
             utf8_is_valid({pair}, 'cesu8'), utf8_is_valid({pair}, 'rfc2279'), \
             utf8_error_offset({pair}, 'mutf8'), utf8_error_offset({pair}, 'wtf8')"
        ))
        .await,
        [
            ScalarValue::from(false),
            ScalarValue::from(false),
            ScalarValue::from(true),
            ScalarValue::from(true),
            ScalarValue::Int64(None),
            ScalarValue::from(3i64),
        ]
    );
    // Modified UTF-8's U+0000.
    assert_eq!(
        row("SELECT utf8_is_valid(X'C080', 'mutf8'), utf8_error_offset(X'61C080')").await,
        [ScalarValue::from(true), ScalarValue::from(1i64)]
    );
}

#[tokio::test]
async fn an_unknown_ruleset_fails_at_planning_and_names_the_known_ones() {
    let e = error("SELECT utf8_is_valid(X'61', 'utf9')").await;
    assert!(matches!(e.find_root(), DataFusionError::Plan(_)), "{e:?}");
    assert!(
        e.to_string()
            .contains("unknown ruleset `utf9`; the rulesets are rfc3629, rfc2279, "),
        "{e}"
    );
    for name in utf8_datafusion::RulesetName::ALL {
        assert!(e.to_string().contains(name.name()), "{e}");
    }
}

#[tokio::test]
async fn the_ruleset_must_be_a_literal_and_the_bytes_bytes() {
    let e = error("SELECT utf8_is_valid(column1, column2) FROM (VALUES (X'61', 'cesu8'))").await;
    assert!(e.to_string().contains("must be a string literal"), "{e}");
    let e = error("SELECT utf8_is_valid(42)").await;
    assert!(
        e.to_string()
            .contains("utf8_is_valid takes Binary, LargeBinary, BinaryView, Utf8, LargeUtf8 or Utf8View, not Int64"),
        "{e}"
    );
    let e = error("SELECT utf8_lossy(X'61', 'cesu8')").await;
    assert!(
        e.to_string()
            .contains("utf8_lossy takes (bytes), not 2 arguments"),
        "{e}"
    );
}

#[tokio::test]
async fn a_filter_keeps_the_invalid_rows() {
    let ctx = context();
    let batches = ctx
        .sql(
            "SELECT column1 AS n, utf8_error_offset(column2) AS at FROM (VALUES \
             (1, X'6F6B'), (2, X'636166C3'), (3, NULL), (4, X'A96C616974')) \
             WHERE NOT utf8_is_valid(column2) ORDER BY n",
        )
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let rows: Vec<(i64, i64)> = batches
        .iter()
        .flat_map(|b| {
            let n = b.column(0).as_primitive::<Int64Type>();
            let at = b.column(1).as_primitive::<Int64Type>();
            (0..b.num_rows())
                .map(|r| (n.value(r), at.value(r)))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(rows, [(2, 3), (4, 0)]);
    assert!(batches.iter().all(|b| b.column(1).null_count() == 0));
}
