//! The derived tables, one module per ruleset, as `utf8_macros::dfa_tables!`
//! emits them. Their docs list the byte classes and the transition grid.

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
