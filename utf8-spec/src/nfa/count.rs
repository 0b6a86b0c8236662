//! The NFA's states counted before they are made, and what cannot be made refused.

use std::collections::HashMap;
use std::ptr;

use crate::Grammar;
use crate::abnf::Element;
use crate::error::{Error, ErrorKind, Position};
use crate::grammar::{GrammarRule, MAX_DEPTH};

pub(super) fn too_large(limit: usize) -> Error {
    Error::new(ErrorKind::TooLarge {
        what: "the NFA's state count (large repetition counts multiply it)".to_owned(),
        limit,
    })
}

/// The walk that [`Builder`](super::Builder) makes, counting the states it would make
/// without making them, and refusing what it could not build: a reference
/// back to a rule being expanded where more may follow it, and nesting
/// deeper than [`MAX_DEPTH`].
///
/// A count is saturating, so that counts nested past `usize` stay past the
/// limit, and a rule whose expansion meets no reference back is counted
/// once, wherever it is used, so that rules that each refer to the one
/// before twice are counted in linear time rather than expanded. A rule on
/// a cycle counts differently wherever it is expanded, and is walked each
/// time: the walk stops once the states it has counted pass the limit, so
/// that the ways around a cycle of many rules cannot keep it going.
pub(super) struct StateCount<'g> {
    grammar: &'g Grammar,
    limit: usize,
    /// States counted so far: each element's own once however many copies
    /// of it a repetition makes, so never more than the build makes.
    walked: usize,
    /// The rules being expanded, outermost first.
    expanding: Vec<&'g GrammarRule>,
    /// The references back to a rule being expanded met so far.
    back_references: usize,
    /// The deepest level the walk has reached in the rule being expanded.
    deepest: usize,
    /// Rules counted once: their states and the levels they nest.
    of_rule: HashMap<&'g str, (usize, usize)>,
}

impl<'g> StateCount<'g> {
    pub(super) fn new(grammar: &'g Grammar, limit: usize) -> StateCount<'g> {
        StateCount {
            grammar,
            limit,
            walked: 0,
            expanding: Vec::new(),
            back_references: 0,
            deepest: 0,
            of_rule: HashMap::new(),
        }
    }

    pub(super) fn of_start(&mut self, rule: &'g GrammarRule) -> Result<usize, Error> {
        self.expanding.push(rule);
        self.of(&rule.definition(), 0, 1)
    }

    /// The states of `element` at nesting level `depth`, in tail position
    /// for the rules `expanding[tail_from..]`.
    fn of(&mut self, element: &Element, tail_from: usize, depth: usize) -> Result<usize, Error> {
        self.reach(depth)?;
        if !matches!(element, Element::Group(_) | Element::RuleRef { .. }) {
            self.walk(1)?;
        }
        let not_tail = self.expanding.len();
        Ok(match element {
            Element::Range(_) => 2,
            Element::Sequence(bytes) => 1 + 2 * bytes.len(),
            Element::Literal { text, .. } => 1 + 2 * text.len(),
            Element::Concatenation(items) => {
                let mut sum = 1usize;
                for (i, item) in items.iter().enumerate() {
                    let tail = if i + 1 == items.len() {
                        tail_from
                    } else {
                        not_tail
                    };
                    sum = sum.saturating_add(self.of(item, tail, depth + 1)?);
                }
                sum
            }
            Element::Alternation(items) => {
                let mut sum = 2usize;
                for item in items {
                    sum = sum.saturating_add(self.of(item, tail_from, depth + 1)?);
                }
                sum
            }
            Element::Group(inner) => self.of(inner, tail_from, depth + 1)?,
            Element::Optional(inner) => self.of(inner, tail_from, depth + 1)?.saturating_add(2),
            Element::Repetition { min, max, element } => {
                if *max == Some(0) {
                    // No copy is made: only the chain's entry.
                    return Ok(1);
                }
                // Only a repetition of at most one copy leaves nothing after it.
                let tail = if *max == Some(1) { tail_from } else { not_tail };
                let one = self.of(element, tail, depth + 1)?;
                let required = one.saturating_mul(*min as usize).saturating_add(1);
                let rest = match max {
                    None => one.saturating_add(1),
                    Some(max) => one.saturating_add(2).saturating_mul((max - min) as usize),
                };
                required.saturating_add(rest)
            }
            Element::RuleRef { name, position } => {
                self.reference(name, *position, tail_from, depth)?
            }
        })
    }

    fn reference(
        &mut self,
        name: &str,
        position: Position,
        tail_from: usize,
        depth: usize,
    ) -> Result<usize, Error> {
        let grammar = self.grammar;
        let rule = grammar
            .rule(name)
            .expect("the grammar checked every reference");
        if let Some(at) = self.expanding.iter().position(|&r| ptr::eq(r, rule)) {
            if at < tail_from {
                let mut cycle: Vec<String> = self.expanding[at..]
                    .iter()
                    .map(|r| r.name.clone())
                    .collect();
                cycle.push(rule.name.clone());
                return Err(Error::at(ErrorKind::Recursion { cycle }, position));
            }
            self.back_references += 1;
            self.walk(2)?;
            return Ok(2);
        }
        if let Some(&(count, height)) = self.of_rule.get(rule.name.as_str()) {
            self.reach(depth + height)?;
            self.walk(count)?;
            return Ok(count);
        }
        let (back_references, deepest) = (self.back_references, self.deepest);
        self.deepest = depth;
        self.expanding.push(rule);
        let count = self.of(&rule.definition(), tail_from, depth + 1)?;
        self.expanding.pop();
        let height = self.deepest - depth;
        self.deepest = self.deepest.max(deepest);
        if self.back_references == back_references {
            self.of_rule.insert(rule.name.as_str(), (count, height));
        }
        Ok(count)
    }

    /// Counts `states` more walked, refused past the limit.
    fn walk(&mut self, states: usize) -> Result<(), Error> {
        self.walked = self.walked.saturating_add(states);
        if self.walked > self.limit {
            return Err(too_large(self.limit));
        }
        Ok(())
    }

    /// Notes that the walk reaches nesting level `depth`, refused past
    /// [`MAX_DEPTH`]: the grammar refuses a rule nested that deep, but the
    /// levels a rule on a cycle nests depend on where its expansion starts.
    fn reach(&mut self, depth: usize) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            let start = self.expanding[0];
            return Err(Error::at(
                ErrorKind::TooDeep {
                    rule: start.name.clone(),
                    limit: MAX_DEPTH,
                },
                start.position,
            ));
        }
        self.deepest = self.deepest.max(depth);
        Ok(())
    }
}
