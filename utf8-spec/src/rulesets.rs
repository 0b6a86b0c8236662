//! The built-in rulesets: ABNF text with its source, and the rule to start from.

use crate::{Derivation, Error};

/// A named spec: ABNF text, the rule that describes a whole valid input, and
/// where the text comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruleset {
    /// The name the macro and tools know it by.
    pub name: &'static str,
    /// The rule that a whole valid input matches.
    pub start: &'static str,
    /// The ABNF text.
    pub abnf: &'static str,
    /// Where the text comes from.
    pub source: &'static str,
}

impl Ruleset {
    /// Runs the derivation on this ruleset.
    pub fn derive(&self) -> Result<Derivation, Error> {
        Derivation::new(self.abnf, self.start)
    }
}

/// UTF-8 as RFC 3629 §4 defines it, in the RFC's own words: the ABNF is the
/// section's text verbatim, three-space indentation and the page break
/// between pages 5 and 6 included.
pub const RFC3629: Ruleset = Ruleset {
    name: "rfc3629",
    start: "UTF8-octets",
    abnf: include_str!("rulesets/rfc3629.abnf"),
    source: "RFC 3629, section 4 (Syntax of UTF-8 Byte Sequences), as printed",
};

/// The 31-bit legacy form: RFC 2279's shortest forms up to U+7FFFFFFF, with
/// the surrogates rejected — the language of Onigmo's `USE_UTF8_31BITS` table.
pub const LEGACY31: Ruleset = Ruleset {
    name: "legacy31",
    start: "UTF8-octets",
    abnf: include_str!("rulesets/legacy31.abnf"),
    source: "RFC 2279, section 2, shortest forms, surrogates excluded (Onigmo enc/utf_8.c, USE_UTF8_31BITS)",
};

/// Every built-in ruleset.
pub const BUILTIN: &[Ruleset] = &[RFC3629, LEGACY31];

/// The built-in ruleset called `name`.
pub fn builtin(name: &str) -> Option<&'static Ruleset> {
    BUILTIN.iter().find(|r| r.name == name)
}
