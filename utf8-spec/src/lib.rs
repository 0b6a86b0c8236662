#![doc = include_str!("../README.md")]
//!
//! ## The derivation, stage by stage
//!
//! RFC 3629 §4 defines UTF-8 with a grammar:
//!
//! ```text
//! UTF8-octets = *( UTF8-char )
//! UTF8-char   = UTF8-1 / UTF8-2 / UTF8-3 / UTF8-4
//! UTF8-1      = %x00-7F
//! UTF8-2      = %xC2-DF UTF8-tail
//! UTF8-3      = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
//!               %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
//! UTF8-4      = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
//!               %xF4 %x80-8F 2( UTF8-tail )
//! UTF8-tail   = %x80-BF
//! ```
//!
//! This crate keeps that text as the source of truth ([`rulesets::RFC3629`])
//! and derives, one stage a module, each product a type you can inspect:
//!
//! | stage | module | product |
//! |---|---|---|
//! | read the ABNF | [`abnf`] | [`abnf::Rule`]s |
//! | resolve rules | [`grammar`] | [`Grammar`] |
//! | Thompson construction | [`nfa`] | [`Nfa`] over byte ranges |
//! | subset construction | [`dfa`] | [`Dfa`] |
//! | Moore's refinement | [`minimize`] | [`MinimalDfa`] |
//! | coarsest byte partition | [`classes`] | [`ByteClasses`] |
//! | layout | [`tables`] | [`Tables`] |
//!
//! Then the faster forms of those tables, each checked against them:
//!
//! | form | module | product |
//! |---|---|---|
//! | one shift per byte | [`shift`] | [`shift::ShiftDfa`] |
//! | a vector check, proved on the product automaton (with a pairing term where sequences depend on their neighbours: CESU-8, WTF-8) | [`simd`] | [`simd::SimdTables`], [`simd::Pairing`], or why not: [`simd::Declined`] |
//! | valid UTF-8 without a few bytes is valid here too | [`utf8_shortcut`] | [`utf8_shortcut::Utf8Shortcut`], and its language's [`Tables`], which get a vector check of their own |
//!
//! A spec can also be a set of Unicode scalar values, such as the characters
//! a format allows: [`scalars`] turns it into the ABNF of their UTF-8
//! encodings and derives that.

#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod abnf;
mod byte_range;
pub mod classes;
pub mod dfa;
mod error;
pub mod explain;
pub mod grammar;
mod longest;
pub mod minimize;
pub mod nfa;
pub mod rulesets;
pub mod scalars;
#[cfg(feature = "seeds")]
#[cfg_attr(docsrs, doc(cfg(feature = "seeds")))]
pub mod seeds;
pub mod shift;
pub mod simd;
pub mod tables;
pub mod utf8_shortcut;
pub mod values;
mod walk;

pub use byte_range::{ByteRange, runs};
pub use classes::ByteClasses;
pub use dfa::Dfa;
pub use error::{Error, ErrorKind, Position};
pub use grammar::Grammar;
pub use minimize::MinimalDfa;
pub use nfa::Nfa;
pub use scalars::ScalarSet;
pub use tables::Tables;

/// Every product of the derivation of one spec, kept for inspection.
#[derive(Clone, Debug)]
pub struct Derivation {
    start_rule: String,
    grammar: Grammar,
    nfa: Nfa,
    dfa: Dfa,
    minimal: MinimalDfa,
    tables: Tables,
}

/// How large the stages of a derivation may grow before it is refused.
///
/// A spec is text a user writes, or a program generates, and a small one
/// can ask for a great deal: a repetition count multiplies the NFA, and the
/// subset construction's time and memory grow with its state count times
/// the NFA states each of its states holds. These limits end such a
/// derivation with [`ErrorKind::TooLarge`] instead. The defaults, which
/// [`Derivation::new`] uses, are far above the rulesets that ship and the
/// scalar sets of real formats; a tool that derives untrusted specs under a
/// time budget (a fuzzer under a sanitizer, say) sets lower ones. The
/// tables' own limit, [`tables::MAX_TABLE_STATES`], is not among them: it is
/// the most states a byte can number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most NFA states ([`nfa::MAX_NFA_STATES`] by default).
    pub nfa_states: usize,
    /// The most states of the DFA before minimization
    /// ([`dfa::MAX_DFA_STATES`] by default).
    pub dfa_states: usize,
    /// The most NFA states the subset construction's closures may gather,
    /// summed over all of them ([`dfa::MAX_SUBSET_WORK`] by default).
    pub subset_work: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            nfa_states: nfa::MAX_NFA_STATES,
            dfa_states: dfa::MAX_DFA_STATES,
            subset_work: dfa::MAX_SUBSET_WORK,
        }
    }
}

impl Derivation {
    /// Derives the automaton of rule `start_rule` of the ABNF text `abnf`,
    /// within the default [`Limits`].
    pub fn new(abnf: &str, start_rule: &str) -> Result<Derivation, Error> {
        Derivation::within(abnf, start_rule, Limits::default())
    }

    /// Derives the automaton of rule `start_rule` of the ABNF text `abnf`,
    /// refused where a stage would pass `limits`. Only the rules that
    /// `start_rule` reaches are resolved (see [`Grammar::parse_from`]).
    pub fn within(abnf: &str, start_rule: &str, limits: Limits) -> Result<Derivation, Error> {
        let grammar = Grammar::parse_from(abnf, start_rule)?;
        let with_source = |e: Error| e.with_source(abnf);
        let nfa = Nfa::within(&grammar, start_rule, limits.nfa_states).map_err(with_source)?;
        // A language too long for the tables is refused before the subset
        // construction spends its work limit finding that out.
        let longest = longest::longest_string(&grammar, grammar.start_rule(start_rule)?);
        if let Some(states) = longest.map(|n| n.saturating_add(2))
            && states > tables::MAX_TABLE_STATES as u64
        {
            return Err(Error::new(ErrorKind::TooLarge {
                what: format!("the minimal automaton's state count (at least {states})"),
                limit: tables::MAX_TABLE_STATES,
            }));
        }
        let dfa = Dfa::within(&nfa, limits.dfa_states, limits.subset_work).map_err(with_source)?;
        let minimal = MinimalDfa::within(&dfa, tables::MAX_TABLE_STATES).map_err(with_source)?;
        if !matches_a_nonempty_string(&minimal) {
            let rule = grammar.start_rule(start_rule)?;
            return Err(with_source(Error::at(
                ErrorKind::EmptyLanguage {
                    start: rule.name.clone(),
                },
                rule.position,
            )));
        }
        let classes = ByteClasses::new(&minimal);
        let tables = Tables::new(&minimal, &classes).map_err(with_source)?;
        Ok(Derivation {
            start_rule: start_rule.to_owned(),
            grammar,
            nfa,
            dfa,
            minimal,
            tables,
        })
    }

    /// The name of the rule the automaton starts from.
    pub fn start_rule(&self) -> &str {
        &self.start_rule
    }

    /// The resolved grammar.
    pub fn grammar(&self) -> &Grammar {
        &self.grammar
    }

    /// The Thompson NFA.
    pub fn nfa(&self) -> &Nfa {
        &self.nfa
    }

    /// The DFA from subset construction, before minimization.
    pub fn dfa(&self) -> &Dfa {
        &self.dfa
    }

    /// The minimal DFA, canonically numbered.
    pub fn minimal_dfa(&self) -> &MinimalDfa {
        &self.minimal
    }

    /// The byte classes.
    pub fn classes(&self) -> &ByteClasses {
        self.tables.classes()
    }

    /// The tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }
}

/// Whether some state reachable by at least one byte accepts.
fn matches_a_nonempty_string(dfa: &MinimalDfa) -> bool {
    let mut seen = vec![false; dfa.state_count()];
    let mut stack: Vec<u32> = dfa.row(dfa.start()).to_vec();
    while let Some(state) = stack.pop() {
        if std::mem::replace(&mut seen[state as usize], true) {
            continue;
        }
        if dfa.is_accepting(state) {
            return true;
        }
        stack.extend(dfa.row(state).iter().copied());
    }
    false
}
