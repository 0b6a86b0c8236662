//! The built-in rulesets by name: the one list of names and aliases that
//! the `utf8` command's `--ruleset` and the SQL functions' second argument
//! read, and the step from a name known only at run time to the ruleset's
//! type, whose tables the work then sees as constants.
//!
//! ```
//! use utf8_core::Ruleset;
//! use utf8_core::named::{RulesetName, WithRuleset, with_ruleset};
//!
//! /// Validates its bytes under whichever ruleset it is called with.
//! struct Check<'a>(&'a [u8]);
//!
//! impl WithRuleset for Check<'_> {
//!     type Output = bool;
//!     fn call<R: Ruleset>(self) -> bool {
//!         R::validate(self.0).is_ok()
//!     }
//! }
//!
//! // U+1F496 as a CESU-8 surrogate pair: CESU-8, not UTF-8.
//! let pair = b"\xED\xA0\xBD\xED\xB2\x96";
//! assert_eq!(with_ruleset("cesu8", Check(pair)), Ok(true));
//! assert_eq!(with_ruleset("utf-8", Check(pair)), Ok(false)); // an alias of rfc3629
//! assert_eq!(RulesetName::from_name("CESU-8")?, RulesetName::Cesu8);
//!
//! let e = with_ruleset("utf9", Check(pair)).unwrap_err();
//! assert!(e.to_string().starts_with("unknown ruleset `utf9`; the rulesets are rfc3629, rfc2279, "));
//! # Ok::<(), utf8_core::named::UnknownRuleset<'static>>(())
//! ```
//!
//! A name is matched ignoring ASCII case. `legacy31` is a name in every
//! build, but its ruleset only with this crate's `legacy-31bit` feature:
//! without it the name is an [`UnknownRuleset`] that says so.

use core::fmt;

use crate::{Rfc3629, Ruleset, cesu8, mutf8, rfc2279, wtf8};

/// A built-in ruleset of this crate, as a value: what a name resolves to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RulesetName {
    /// UTF-8 as RFC 3629 defines it ([`Rfc3629`]), what `core::str::from_utf8`
    /// accepts: the ruleset when none is named.
    #[default]
    Rfc3629,
    /// UTF-8 as RFC 2279 defined it ([`rfc2279::Rfc2279`]): every value up to
    /// U+7FFFFFFF in one to six bytes, surrogates included.
    Rfc2279,
    /// RFC 2279's forms up to U+7FFFFFFF without surrogates
    /// ([`legacy31::Legacy31`](crate::legacy31::Legacy31)).
    #[cfg(feature = "legacy-31bit")]
    #[cfg_attr(docsrs, doc(cfg(feature = "legacy-31bit")))]
    Legacy31,
    /// CESU-8 ([`cesu8::Cesu8`]).
    Cesu8,
    /// Java's modified UTF-8 ([`mutf8::Mutf8`]).
    Mutf8,
    /// WTF-8 ([`wtf8::Wtf8`]).
    Wtf8,
}

/// One entry of [`NAMES`]: a ruleset's name, the other names it answers to,
/// and the ruleset (`None` where it is not compiled in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameEntry {
    /// The name the ruleset's tables were derived under (its
    /// [`Ruleset::NAME`]), and the one messages use.
    pub name: &'static str,
    /// Other names for it.
    pub aliases: &'static [&'static str],
    /// The ruleset, or `None` where a cargo feature leaves it out.
    pub ruleset: Option<RulesetName>,
    /// The feature of this crate that compiles it in, if one does.
    pub feature: Option<&'static str>,
}

/// Every built-in ruleset's name and aliases, the default first: the one
/// list the names are looked up in.
pub const NAMES: &[NameEntry] = &[
    NameEntry {
        name: "rfc3629",
        aliases: &["utf8", "utf-8"],
        ruleset: Some(RulesetName::Rfc3629),
        feature: None,
    },
    NameEntry {
        name: "rfc2279",
        aliases: &[],
        ruleset: Some(RulesetName::Rfc2279),
        feature: None,
    },
    NameEntry {
        name: "legacy31",
        aliases: &[],
        #[cfg(feature = "legacy-31bit")]
        ruleset: Some(RulesetName::Legacy31),
        #[cfg(not(feature = "legacy-31bit"))]
        ruleset: None,
        feature: Some("legacy-31bit"),
    },
    NameEntry {
        name: "cesu8",
        aliases: &["cesu-8"],
        ruleset: Some(RulesetName::Cesu8),
        feature: None,
    },
    NameEntry {
        name: "mutf8",
        aliases: &["mutf-8"],
        ruleset: Some(RulesetName::Mutf8),
        feature: None,
    },
    NameEntry {
        name: "wtf8",
        aliases: &["wtf-8"],
        ruleset: Some(RulesetName::Wtf8),
        feature: None,
    },
];

/// A name that is not a ruleset of this build: unknown, or (`legacy31`)
/// known but not compiled in. Its message lists the rulesets there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownRuleset<'a> {
    name: &'a str,
    /// The feature that would compile it in, for a known name.
    feature: Option<&'static str>,
}

impl<'a> UnknownRuleset<'a> {
    /// The name as it was given.
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The feature of this crate that would make it a ruleset; `None` for
    /// a name that is not one in any build.
    pub fn missing_feature(&self) -> Option<&'static str> {
        self.feature
    }
}

impl fmt::Display for UnknownRuleset<'_> {
    /// ``unknown ruleset `utf9`; the rulesets are rfc3629, rfc2279, ...``
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.feature {
            None => write!(f, "unknown ruleset `{}`", self.name)?,
            Some(feature) => write!(
                f,
                "ruleset `{}` is not compiled in (utf8-core's `{feature}` feature)",
                self.name
            )?,
        }
        f.write_str("; the rulesets are ")?;
        let mut known = RulesetName::ALL.iter();
        if let Some(first) = known.next() {
            f.write_str(first.name())?;
        }
        for ruleset in known {
            write!(f, ", {}", ruleset.name())?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UnknownRuleset<'_> {}

impl RulesetName {
    /// Every ruleset this build has, in the order of [`NAMES`].
    pub const ALL: &[RulesetName] = &[
        RulesetName::Rfc3629,
        RulesetName::Rfc2279,
        #[cfg(feature = "legacy-31bit")]
        RulesetName::Legacy31,
        RulesetName::Cesu8,
        RulesetName::Mutf8,
        RulesetName::Wtf8,
    ];

    /// The ruleset called `name` (or one of its aliases), ignoring ASCII
    /// case.
    pub fn from_name(name: &str) -> Result<RulesetName, UnknownRuleset<'_>> {
        let entry = NAMES.iter().find(|entry| {
            entry.name.eq_ignore_ascii_case(name)
                || entry.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        });
        match entry {
            Some(NameEntry {
                ruleset: Some(ruleset),
                ..
            }) => Ok(*ruleset),
            Some(entry) => Err(UnknownRuleset {
                name,
                feature: entry.feature,
            }),
            None => Err(UnknownRuleset {
                name,
                feature: None,
            }),
        }
    }

    /// Its name: the [`Ruleset::NAME`] of its type.
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

    /// Runs `job` with this ruleset's type.
    pub fn with<W: WithRuleset>(self, job: W) -> W::Output {
        match self {
            RulesetName::Rfc3629 => job.call::<Rfc3629>(),
            RulesetName::Rfc2279 => job.call::<rfc2279::Rfc2279>(),
            #[cfg(feature = "legacy-31bit")]
            RulesetName::Legacy31 => job.call::<crate::legacy31::Legacy31>(),
            RulesetName::Cesu8 => job.call::<cesu8::Cesu8>(),
            RulesetName::Mutf8 => job.call::<mutf8::Mutf8>(),
            RulesetName::Wtf8 => job.call::<wtf8::Wtf8>(),
        }
    }
}

impl fmt::Display for RulesetName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Work generic over the ruleset, so that each built-in ruleset runs it
/// with its own derived tables as constants: what [`with_ruleset`] and
/// [`RulesetName::with`] call.
pub trait WithRuleset {
    /// What the work gives.
    type Output;
    /// Does the work under ruleset `R`.
    fn call<R: Ruleset>(self) -> Self::Output;
}

/// Runs `job` with the type of the built-in ruleset called `name` (or one
/// of its aliases).
pub fn with_ruleset<W: WithRuleset>(name: &str, job: W) -> Result<W::Output, UnknownRuleset<'_>> {
    Ok(RulesetName::from_name(name)?.with(job))
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::format;
    use std::string::ToString;

    use super::*;

    struct Name;

    impl WithRuleset for Name {
        type Output = &'static str;
        fn call<R: Ruleset>(self) -> &'static str {
            R::NAME
        }
    }

    #[test]
    fn every_name_and_alias_runs_the_type_derived_under_that_name() {
        let mut compiled = 0;
        for entry in NAMES {
            let Some(ruleset) = entry.ruleset else {
                continue;
            };
            compiled += 1;
            assert_eq!(ruleset.name(), entry.name);
            for name in core::iter::once(&entry.name).chain(entry.aliases) {
                assert_eq!(with_ruleset(name, Name), Ok(entry.name), "{name}");
                assert_eq!(RulesetName::from_name(name), Ok(ruleset), "{name}");
            }
        }
        assert_eq!(compiled, RulesetName::ALL.len());
    }

    #[test]
    fn the_aliases_are_the_hyphenated_names_and_utf8() {
        assert_eq!(RulesetName::from_name("utf8"), Ok(RulesetName::Rfc3629));
        assert_eq!(RulesetName::from_name("UTF-8"), Ok(RulesetName::Rfc3629));
        assert_eq!(RulesetName::from_name("cesu-8"), Ok(RulesetName::Cesu8));
        assert_eq!(RulesetName::from_name("mutf-8"), Ok(RulesetName::Mutf8));
        assert_eq!(RulesetName::from_name("WTF-8"), Ok(RulesetName::Wtf8));
    }

    #[test]
    fn every_ruleset_has_one_entry_and_the_default_comes_first() {
        assert_eq!(NAMES[0].ruleset, Some(RulesetName::default()));
        for ruleset in RulesetName::ALL {
            let entries = NAMES.iter().filter(|e| e.ruleset == Some(*ruleset));
            assert_eq!(entries.count(), 1, "{ruleset}");
        }
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let e = with_ruleset("utf9", Name).unwrap_err();
        assert_eq!((e.name(), e.missing_feature()), ("utf9", None));
        let message = e.to_string();
        #[cfg(feature = "legacy-31bit")]
        let known = "rfc3629, rfc2279, legacy31, cesu8, mutf8, wtf8";
        #[cfg(not(feature = "legacy-31bit"))]
        let known = "rfc3629, rfc2279, cesu8, mutf8, wtf8";
        assert_eq!(
            message,
            format!("unknown ruleset `utf9`; the rulesets are {known}")
        );
    }

    #[test]
    fn legacy31_is_a_ruleset_only_with_its_feature() {
        let found = RulesetName::from_name("legacy31");
        #[cfg(feature = "legacy-31bit")]
        assert_eq!(found, Ok(RulesetName::Legacy31));
        #[cfg(not(feature = "legacy-31bit"))]
        {
            let e = found.unwrap_err();
            assert_eq!(e.missing_feature(), Some("legacy-31bit"));
            let message = e.to_string();
            assert!(
                message.starts_with(
                    "ruleset `legacy31` is not compiled in (utf8-core's `legacy-31bit` feature); the rulesets are rfc3629, "
                ),
                "{message}"
            );
        }
    }
}
