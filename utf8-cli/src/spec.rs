//! Which spec to derive: a built-in ruleset, or an ABNF file and its start rule.

use std::path::PathBuf;

use utf8_spec::Derivation;
use utf8_spec::rulesets::{BUILTIN, builtin};

use crate::failure::Failure;

/// The ruleset the commands derive when given no spec.
const DEFAULT_RULESET: &str = "rfc3629";

fn ruleset_help() -> String {
    let names: Vec<&str> = BUILTIN.iter().map(|r| r.name).collect();
    format!(
        "A built-in ruleset: {} [default: {DEFAULT_RULESET}]",
        names.join(", ")
    )
}

/// The spec options shared by every subcommand that derives.
#[derive(clap::Args, Debug)]
pub struct SpecArgs {
    #[arg(long, value_name = "NAME", help = ruleset_help(), conflicts_with = "abnf")]
    ruleset: Option<String>,
    /// An ABNF file to derive instead of a built-in ruleset
    #[arg(long, value_name = "FILE", requires = "start")]
    abnf: Option<PathBuf>,
    /// The rule of the ABNF file that a whole valid input matches
    #[arg(long, value_name = "RULE", requires = "abnf")]
    start: Option<String>,
}

impl SpecArgs {
    /// Reads and derives the chosen spec.
    pub fn derive(&self) -> Result<Derivation, Failure> {
        match (&self.abnf, &self.start) {
            (Some(path), Some(start)) => {
                let shown = path.display();
                let bytes = std::fs::read(path)
                    .map_err(|e| Failure::Usage(format!("cannot read {shown}: {e}")))?;
                utf8_spec::abnf::text(&bytes)
                    .and_then(|text| Derivation::new(text, start))
                    .map_err(|e| {
                        let mut message = format!("{shown}: {e}");
                        if let Some(snippet) = e.snippet() {
                            message.push('\n');
                            message.push_str(&snippet);
                        }
                        Failure::Spec(message)
                    })
            }
            _ => {
                let name = self.ruleset.as_deref().unwrap_or(DEFAULT_RULESET);
                let ruleset = builtin(name).ok_or_else(|| {
                    let names: Vec<&str> = BUILTIN.iter().map(|r| r.name).collect();
                    Failure::Usage(format!(
                        "unknown ruleset `{name}`; the built-in rulesets are {}",
                        names.join(", ")
                    ))
                })?;
                ruleset
                    .derive()
                    .map_err(|e| Failure::Spec(format!("built-in ruleset {name}: {e}")))
            }
        }
    }
}
