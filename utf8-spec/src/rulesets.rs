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

/// CESU-8 (Unicode Technical Report #26), strict: UTF-8 for U+0000-FFFF
/// without surrogates, and each supplementary character as a lead surrogate
/// immediately followed by a trail surrogate, three bytes each.
pub const CESU8: Ruleset = Ruleset {
    name: "cesu8",
    start: "CESU8-octets",
    abnf: include_str!("rulesets/cesu8.abnf"),
    source: "Unicode Technical Report #26 (CESU-8), surrogate halves only in pairs",
};

/// Java's modified UTF-8, as `DataOutput.writeUTF` writes it: no zero byte
/// (U+0000 is C0 80), no byte in F0-FF, any surrogate half in three bytes.
pub const MUTF8: Ruleset = Ruleset {
    name: "mutf8",
    start: "MUTF8-octets",
    abnf: include_str!("rulesets/mutf8.abnf"),
    source: "The Java Virtual Machine Specification, section 4.4.7; java.io.DataOutput.writeUTF",
};

/// WTF-8: generalized UTF-8 (surrogates allowed) without a lead surrogate
/// immediately followed by a trail surrogate.
pub const WTF8: Ruleset = Ruleset {
    name: "wtf8",
    start: "WTF8-octets",
    abnf: include_str!("rulesets/wtf8.abnf"),
    source: "The WTF-8 encoding, Simon Sapin (https://simonsapin.github.io/wtf-8/)",
};

/// RFC 2279's shortest forms up to U+7FFFFFFF, surrogates allowed.
pub const RFC2279: Ruleset = Ruleset {
    name: "rfc2279",
    start: "UTF8-octets",
    abnf: include_str!("rulesets/rfc2279.abnf"),
    source: "RFC 2279, section 2: shortest forms up to U+7FFFFFFF, surrogates not excluded",
};

/// Every built-in ruleset.
pub const BUILTIN: &[Ruleset] = &[RFC3629, LEGACY31, CESU8, MUTF8, WTF8, RFC2279];

/// The built-in ruleset called `name`.
pub fn builtin(name: &str) -> Option<&'static Ruleset> {
    BUILTIN.iter().find(|r| r.name == name)
}
