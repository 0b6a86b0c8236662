//! The optional second argument, `'cesu8'` and the like: a string literal
//! naming one of utf8-core's rulesets, read once when the query is planned
//! and again, as the same literal, when it runs.

use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::ColumnarValue;
pub use utf8_core::named::RulesetName;
use utf8_core::named::UnknownRuleset;

/// The ruleset called `name` (or one of its aliases, as utf8-core's
/// [`named`](utf8_core::named) lists them); an unknown name is a planning
/// error that lists the known ones.
///
/// ```
/// use utf8_datafusion::RulesetName;
/// assert_eq!(RulesetName::from_name("cesu8"), Ok(RulesetName::Cesu8));
/// let e = RulesetName::from_name("utf9").unwrap_err();
/// assert!(e.to_string().starts_with("unknown ruleset `utf9`; the rulesets are rfc3629, rfc2279"));
/// ```
fn from_name(name: &str) -> Result<RulesetName> {
    RulesetName::from_name(name)
        .map_err(|e: UnknownRuleset<'_>| datafusion::error::DataFusionError::Plan(e.to_string()))
}

/// The ruleset a planned call names: its second argument, which must be a
/// string literal (a constant a column cannot vary), or the default.
pub(crate) fn planned(function: &str, literals: &[Option<&ScalarValue>]) -> Result<RulesetName> {
    match literals.get(1) {
        None => Ok(RulesetName::default()),
        Some(Some(literal)) => match string(literal) {
            Some(name) => from_name(name),
            None => plan_err!(
                "{function}'s second argument names a ruleset ({}), not {literal}",
                known()
            ),
        },
        Some(None) => plan_err!(
            "{function}'s second argument must be a string literal naming a ruleset ({}), not a column",
            known()
        ),
    }
}

/// The ruleset a running call names, from the same literal.
pub(crate) fn invoked(function: &str, args: &[ColumnarValue]) -> Result<RulesetName> {
    match args.get(1) {
        None => Ok(RulesetName::default()),
        Some(ColumnarValue::Scalar(literal)) => match string(literal) {
            Some(name) => from_name(name),
            None => {
                exec_err!("{function}'s second argument is {literal}, not a ruleset's name")
            }
        },
        Some(ColumnarValue::Array(_)) => {
            exec_err!("{function}'s second argument must be a string literal, not a column")
        }
    }
}

/// The known names, for error messages.
fn known() -> String {
    let names: Vec<&str> = RulesetName::ALL.iter().map(|r| r.name()).collect();
    names.join(", ")
}

/// A string scalar's text, whatever its string type.
fn string(value: &ScalarValue) -> Option<&str> {
    match value {
        ScalarValue::Utf8(Some(s))
        | ScalarValue::LargeUtf8(Some(s))
        | ScalarValue::Utf8View(Some(s)) => Some(s),
        _ => None,
    }
}
