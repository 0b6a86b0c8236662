//! `--ruleset NAME` for the commands that validate: the name, and the
//! compile-time ruleset type of `utf8-core` that a generic function runs on.

use utf8_core::{Ruleset, cesu8, legacy31, mutf8, rfc2279, wtf8};
use utf8_spec::rulesets::BUILTIN;

use crate::failure::Failure;

/// The ruleset the commands validate against when given none.
pub const DEFAULT_RULESET: &str = "rfc3629";

fn ruleset_help() -> String {
    let names: Vec<&str> = BUILTIN.iter().map(|r| r.name).collect();
    format!("The ruleset to validate against: {}", names.join(", "))
}

/// The `--ruleset` option of `check` and `fix`.
#[derive(clap::Args, Debug)]
pub struct RulesetArg {
    #[arg(long, value_name = "NAME", default_value = DEFAULT_RULESET, help = ruleset_help())]
    pub ruleset: String,
}

/// Work that is generic over the ruleset, so that each built-in ruleset runs
/// it with its own derived tables as constants.
pub trait WithRuleset {
    type Output;
    fn call<R: Ruleset>(self) -> Self::Output;
}

/// Runs `job` with the `utf8-core` ruleset type called `name`.
pub fn with_ruleset<W: WithRuleset>(name: &str, job: W) -> Result<W::Output, Failure> {
    Ok(match name {
        "rfc3629" => job.call::<utf8_core::Rfc3629>(),
        "legacy31" => job.call::<legacy31::Legacy31>(),
        "cesu8" => job.call::<cesu8::Cesu8>(),
        "mutf8" => job.call::<mutf8::Mutf8>(),
        "wtf8" => job.call::<wtf8::Wtf8>(),
        "rfc2279" => job.call::<rfc2279::Rfc2279>(),
        _ => return Err(unknown_ruleset(name)),
    })
}

pub fn unknown_ruleset(name: &str) -> Failure {
    let names: Vec<&str> = BUILTIN.iter().map(|r| r.name).collect();
    Failure::Usage(format!(
        "unknown ruleset `{name}`; the built-in rulesets are {}",
        names.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn an_unknown_name_lists_the_known_ones() {
        let Err(failure) = with_ruleset("utf9", Name) else {
            panic!("utf9 is not a ruleset");
        };
        assert!(
            failure
                .to_string()
                .starts_with("unknown ruleset `utf9`; the built-in rulesets are rfc3629, "),
            "{failure}"
        );
    }
}
