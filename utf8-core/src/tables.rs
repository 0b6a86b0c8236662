//! The derived tables, one module per ruleset, as `utf8_macros::dfa_tables!`
//! emits them. Their docs list the byte classes and the transition grid.
//!
//! Public for the workspace's tests and examples, and hidden from the docs:
//! not part of the stable API; it may change in any release. A ruleset's
//! tables are `utf8_macros::dfa_tables!`'s output, which that crate
//! documents.

/// RFC 3629 §4: 9 states (8 live and the dead one), 12 byte classes.
pub mod rfc3629 {
    utf8_macros::dfa_tables!(ruleset = "rfc3629");
}

/// The 31-bit legacy form of RFC 2279 (Onigmo's `USE_UTF8_31BITS`):
/// 12 states, 17 byte classes.
#[cfg(feature = "legacy-31bit")]
pub mod legacy31 {
    utf8_macros::dfa_tables!(ruleset = "legacy31");
}

/// CESU-8 (Unicode Technical Report #26), strict.
pub mod cesu8 {
    utf8_macros::dfa_tables!(ruleset = "cesu8");
}

/// Java's modified UTF-8 (JVMS §4.4.7, `DataOutput.writeUTF`).
pub mod mutf8 {
    utf8_macros::dfa_tables!(ruleset = "mutf8");
}

/// WTF-8: generalized UTF-8 without a lead surrogate followed by a trail surrogate.
pub mod wtf8 {
    utf8_macros::dfa_tables!(ruleset = "wtf8");
}

/// RFC 2279's shortest forms up to U+7FFFFFFF, surrogates allowed.
pub mod rfc2279 {
    utf8_macros::dfa_tables!(ruleset = "rfc2279");
}
