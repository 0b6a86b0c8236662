//! `--ruleset NAME` for the commands that validate: the name, looked up in
//! utf8-core's one list ([`utf8_core::named`]), and the compile-time
//! ruleset type that a generic function runs on.

pub use utf8_core::named::WithRuleset;
use utf8_core::named::{NAMES, RulesetName, UnknownRuleset};

use crate::failure::Failure;

/// The ruleset the commands validate against when given none.
pub const DEFAULT_RULESET: &str = "rfc3629";

fn ruleset_help() -> String {
    let names: Vec<&str> = NAMES.iter().map(|entry| entry.name).collect();
    format!("The ruleset to validate against: {}", names.join(", "))
}

/// The `--ruleset` option of `check` and `fix`.
#[derive(clap::Args, Debug)]
pub struct RulesetArg {
    #[arg(long, value_name = "NAME", default_value = DEFAULT_RULESET, help = ruleset_help())]
    pub ruleset: String,
}

/// Runs `job` with the `utf8-core` ruleset type called `name`; an unknown
/// name is a usage error that lists the known ones.
pub fn with_ruleset<W: WithRuleset>(name: &str, job: W) -> Result<W::Output, Failure> {
    utf8_core::named::with_ruleset(name, job).map_err(unknown_ruleset)
}

/// The name of the ruleset called `name` or one of its aliases: the one
/// its spec in `utf8-spec` goes by.
pub fn canonical(name: &str) -> Result<&'static str, Failure> {
    match RulesetName::from_name(name) {
        Ok(ruleset) => Ok(ruleset.name()),
        Err(e) => Err(unknown_ruleset(e)),
    }
}

fn unknown_ruleset(e: UnknownRuleset<'_>) -> Failure {
    Failure::Usage(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use utf8_core::Ruleset;
    use utf8_spec::rulesets::BUILTIN;

    struct Name;

    impl WithRuleset for Name {
        type Output = &'static str;
        fn call<R: Ruleset>(self) -> &'static str {
            R::NAME
        }
    }

    #[test]
    fn every_builtin_name_runs_the_type_derived_under_that_name() {
        for ruleset in BUILTIN {
            assert_eq!(
                with_ruleset(ruleset.name, Name).expect("built-in"),
                ruleset.name
            );
        }
    }

    #[test]
    fn an_alias_is_its_rulesets_name() {
        assert_eq!(canonical("UTF-8").expect("an alias"), "rfc3629");
        assert_eq!(canonical("cesu-8").expect("an alias"), "cesu8");
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let Err(failure) = with_ruleset("utf9", Name) else {
            panic!("utf9 is not a ruleset");
        };
        assert_eq!(
            failure.to_string(),
            "unknown ruleset `utf9`; the rulesets are rfc3629, rfc2279, legacy31, cesu8, mutf8, wtf8"
        );
    }
}
