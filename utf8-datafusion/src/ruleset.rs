//! The optional second argument, `'cesu8'` and the like: a string literal
//! naming one of utf8-core's rulesets, read once when the query is planned
//! and again, as the same literal, when it runs.

use std::fmt;

use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::ColumnarValue;
use utf8_core::{Rfc3629, Ruleset, cesu8, mutf8, rfc2279, wtf8};

/// A ruleset of utf8-core, by the name the `utf8` command gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RulesetName {
    /// UTF-8 as RFC 3629 defines it (`rfc3629`), what `core::str::from_utf8`
    /// accepts: the ruleset when none is named.
    #[default]
    Rfc3629,
    /// UTF-8 as RFC 2279 defined it (`rfc2279`): every value up to
    /// U+7FFFFFFF in one to six bytes, surrogates included.
    Rfc2279,
    /// RFC 2279's forms up to U+7FFFFFFF without surrogates (`legacy31`),
    /// with the `legacy-31bit` feature.
    #[cfg(feature = "legacy-31bit")]
    Legacy31,
    /// CESU-8 (`cesu8`).
    Cesu8,
    /// Java's modified UTF-8 (`mutf8`).
    Mutf8,
    /// WTF-8 (`wtf8`).
    Wtf8,
}

/// Work generic over the ruleset, so that each ruleset runs it with its own
/// tables as constants.
pub(crate) trait WithRuleset {
    type Output;
    fn call<R: Ruleset>(self) -> Self::Output;
}

impl RulesetName {
    /// Every ruleset this build knows, the default first.
    pub const ALL: &[RulesetName] = &[
        RulesetName::Rfc3629,
        RulesetName::Rfc2279,
        #[cfg(feature = "legacy-31bit")]
        RulesetName::Legacy31,
        RulesetName::Cesu8,
        RulesetName::Mutf8,
        RulesetName::Wtf8,
    ];

    /// The name SQL gives it: `rfc3629`, `cesu8`, ...
    pub const fn name(self) -> &'static str {
        match self {
            RulesetName::Rfc3629 => "rfc3629",
            RulesetName::Rfc2279 => "rfc2279",
            #[cfg(feature = "legacy-31bit")]
            RulesetName::Legacy31 => "legacy31",
            RulesetName::Cesu8 => "cesu8",
            RulesetName::Mutf8 => "mutf8",
            RulesetName::Wtf8 => "wtf8",
        }
    }

    /// The ruleset called `name`; an unknown name is a planning error that
    /// lists the known ones.
    ///
    /// ```
    /// use utf8_datafusion::RulesetName;
    /// assert_eq!(RulesetName::from_name("cesu8")?, RulesetName::Cesu8);
    /// let e = RulesetName::from_name("utf9").unwrap_err();
    /// assert!(e.to_string().contains("unknown ruleset 'utf9'; the rulesets are rfc3629, rfc2279"));
    /// # Ok::<(), datafusion::error::DataFusionError>(())
    /// ```
    pub fn from_name(name: &str) -> Result<RulesetName> {
        match RulesetName::ALL.iter().find(|r| r.name() == name) {
            Some(ruleset) => Ok(*ruleset),
            None => plan_err!("unknown ruleset '{name}'; the rulesets are {}", known()),
        }
    }

    pub(crate) fn with<W: WithRuleset>(self, job: W) -> W::Output {
        match self {
            RulesetName::Rfc3629 => job.call::<Rfc3629>(),
            RulesetName::Rfc2279 => job.call::<rfc2279::Rfc2279>(),
            #[cfg(feature = "legacy-31bit")]
            RulesetName::Legacy31 => job.call::<utf8_core::legacy31::Legacy31>(),
            RulesetName::Cesu8 => job.call::<cesu8::Cesu8>(),
            RulesetName::Mutf8 => job.call::<mutf8::Mutf8>(),
            RulesetName::Wtf8 => job.call::<wtf8::Wtf8>(),
        }
    }

    /// The ruleset a planned call names: its second argument, which must be
    /// a string literal (a constant a column cannot vary), or the default.
    pub(crate) fn planned(function: &str, literals: &[Option<&ScalarValue>]) -> Result<Self> {
        match literals.get(1) {
            None => Ok(RulesetName::default()),
            Some(Some(literal)) => match string(literal) {
                Some(name) => RulesetName::from_name(name),
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
    pub(crate) fn invoked(function: &str, args: &[ColumnarValue]) -> Result<Self> {
        match args.get(1) {
            None => Ok(RulesetName::default()),
            Some(ColumnarValue::Scalar(literal)) => match string(literal) {
                Some(name) => RulesetName::from_name(name),
                None => {
                    exec_err!("{function}'s second argument is {literal}, not a ruleset's name")
                }
            },
            Some(ColumnarValue::Array(_)) => {
                exec_err!("{function}'s second argument must be a string literal, not a column")
            }
        }
    }
}

impl fmt::Display for RulesetName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
