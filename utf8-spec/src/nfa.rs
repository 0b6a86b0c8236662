//! Grammar → NFA: a Thompson construction whose transitions carry byte ranges.
//!
//! Each element of the start rule becomes a fragment with one entry and one
//! exit state; rule references are expanded in place. `n*m x` becomes `n`
//! copies of `x` followed by `m - n` optional copies, `n*x` becomes `n`
//! copies and a loop.
//!
//! A reference back to a rule being expanded is recursion, and expanding it
//! would never end. In tail position, where the rule being expanded ends
//! as soon as the reference has matched (`a = %x41 [a]`, or `a = "x" b /
//! "y"` with `b = "z" a`), it is a loop: an ε-move back to that rule's
//! entry, and what follows the rule follows the loop. Anywhere else
//! (`a = "(" a ")"`, `a = [a] "x"`) the language may not be regular, and the
//! reference is refused.

use std::fmt;
use std::ptr;

mod count;

use crate::abnf::Element;
use crate::error::Error;
use crate::grammar::GrammarRule;
use crate::{ByteRange, Grammar};
use count::{StateCount, too_large};

/// An NFA state's index.
pub type NfaStateId = u32;

/// Large repetition counts multiply the NFA; past this many states the
/// grammar is refused rather than exhausting memory at compile time.
pub const MAX_NFA_STATES: usize = 1_000_000;

/// One NFA state: its ε-moves and its byte-range moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NfaState {
    /// States reachable without reading a byte.
    pub epsilon: Vec<NfaStateId>,
    /// `(range, target)`: on a byte in `range`, go to `target`.
    pub transitions: Vec<(ByteRange, NfaStateId)>,
}

/// A nondeterministic automaton with a single start and a single accepting state.
#[derive(Clone, PartialEq, Eq)]
pub struct Nfa {
    states: Vec<NfaState>,
    start: NfaStateId,
    accept: NfaStateId,
}

impl Nfa {
    /// Builds the NFA of `grammar`'s rule `start_rule`, of at most
    /// [`MAX_NFA_STATES`] states.
    pub fn new(grammar: &Grammar, start_rule: &str) -> Result<Nfa, Error> {
        Nfa::within(grammar, start_rule, MAX_NFA_STATES)
    }

    /// Builds the NFA of `grammar`'s rule `start_rule` if it has at most
    /// `max_states` states.
    ///
    /// The states are counted first, so that a count past the limit is
    /// refused before it is allocated: building a million states one by one
    /// takes a tenth of a second in a release build and twenty times that
    /// under AddressSanitizer. A limit past what [`NfaStateId`] numbers is
    /// taken as that.
    pub fn within(grammar: &Grammar, start_rule: &str, max_states: usize) -> Result<Nfa, Error> {
        let max_states =
            usize::try_from(NfaStateId::MAX).map_or(max_states, |ids| max_states.min(ids));
        let rule = grammar.start_rule(start_rule)?;
        let size = StateCount::new(grammar, max_states).of_start(rule)?;
        if size > max_states {
            return Err(too_large(max_states));
        }
        let mut builder = Builder {
            grammar,
            states: Vec::with_capacity(size),
            expanding: Vec::new(),
        };
        let (start, accept) = builder.rule(rule, 0);
        debug_assert_eq!(builder.states.len(), size, "the count is the build's");
        Ok(Nfa {
            states: builder.states,
            start,
            accept,
        })
    }

    /// The states; a state's index is its id.
    pub fn states(&self) -> &[NfaState] {
        &self.states
    }

    /// The start state.
    pub fn start(&self) -> NfaStateId {
        self.start
    }

    /// The one accepting state.
    pub fn accept(&self) -> NfaStateId {
        self.accept
    }

    /// The number of byte-range transitions (ε-moves not counted).
    pub fn transition_count(&self) -> usize {
        self.states.iter().map(|s| s.transitions.len()).sum()
    }

    /// The ε-closure of `set`, sorted and without duplicates.
    pub fn epsilon_closure(&self, set: &[NfaStateId]) -> Vec<NfaStateId> {
        Closures::new(self).of(self, set)
    }
}

/// ε-closures of one NFA, one after another, without clearing a mark per
/// NFA state for each: the subset construction takes thousands of closures
/// of small sets in an NFA of up to [`MAX_NFA_STATES`] states.
pub(crate) struct Closures {
    /// The closure in which each state was last reached.
    seen_in: Vec<u32>,
    /// The closure being taken; 0 is no closure, so `seen_in` starts clear.
    current: u32,
    stack: Vec<NfaStateId>,
}

impl Closures {
    pub(crate) fn new(nfa: &Nfa) -> Closures {
        Closures {
            seen_in: vec![0; nfa.states.len()],
            current: 0,
            stack: Vec::new(),
        }
    }

    /// The ε-closure of `set` in `nfa` (the NFA `self` was made for),
    /// sorted and without duplicates.
    pub(crate) fn of(&mut self, nfa: &Nfa, set: &[NfaStateId]) -> Vec<NfaStateId> {
        self.current = match self.current.checked_add(1) {
            Some(next) => next,
            None => {
                self.seen_in.fill(0);
                1
            }
        };
        self.stack.clear();
        self.stack.extend_from_slice(set);
        let mut out = Vec::new();
        while let Some(state) = self.stack.pop() {
            let seen_in = &mut self.seen_in[state as usize];
            if *seen_in == self.current {
                continue;
            }
            *seen_in = self.current;
            out.push(state);
            self.stack
                .extend(nfa.states[state as usize].epsilon.iter().copied());
        }
        out.sort_unstable();
        out
    }
}

/// One line per state that has moves: `3: %x80-BF -> 4, ε -> 7`.
impl fmt::Debug for Nfa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Nfa {{ states: {}, start: {}, accept: {} }}",
            self.states.len(),
            self.start,
            self.accept
        )?;
        for (id, state) in self.states.iter().enumerate() {
            if state.transitions.is_empty() && state.epsilon.is_empty() {
                continue;
            }
            write!(f, "  {id:>4}:")?;
            let mut first = true;
            for (range, target) in &state.transitions {
                write!(f, "{} {range} -> {target}", if first { "" } else { "," })?;
                first = false;
            }
            for target in &state.epsilon {
                write!(f, "{} ε -> {target}", if first { "" } else { "," })?;
                first = false;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

struct Builder<'g> {
    grammar: &'g Grammar,
    states: Vec<NfaState>,
    /// The rules being expanded, outermost first, each with the states of
    /// the references back to it, which wait for its entry state.
    expanding: Vec<(&'g GrammarRule, Vec<NfaStateId>)>,
}

impl<'g> Builder<'g> {
    /// The fragment of `rule`'s definition, in tail position for the rules
    /// `expanding[tail_from..]`, its references back to it made loops.
    fn rule(&mut self, rule: &'g GrammarRule, tail_from: usize) -> (NfaStateId, NfaStateId) {
        self.expanding.push((rule, Vec::new()));
        let (entry, exit) = self.fragment(&rule.definition(), tail_from);
        let (_, back) = self.expanding.pop().expect("pushed above");
        for from in back {
            self.epsilon(from, entry);
        }
        (entry, exit)
    }

    fn state(&mut self) -> NfaStateId {
        self.states.push(NfaState::default());
        (self.states.len() - 1) as NfaStateId
    }

    fn epsilon(&mut self, from: NfaStateId, to: NfaStateId) {
        self.states[from as usize].epsilon.push(to);
    }

    fn byte_step(&mut self, ranges: &[ByteRange]) -> (NfaStateId, NfaStateId) {
        let (entry, exit) = (self.state(), self.state());
        for &range in ranges {
            self.states[entry as usize].transitions.push((range, exit));
        }
        (entry, exit)
    }

    /// Chains fragments built by `parts` one after another.
    fn chain(
        &mut self,
        count: usize,
        mut part: impl FnMut(&mut Self, usize) -> (NfaStateId, NfaStateId),
    ) -> (NfaStateId, NfaStateId) {
        let entry = self.state();
        let mut exit = entry;
        for i in 0..count {
            let (s, e) = part(self, i);
            self.epsilon(exit, s);
            exit = e;
        }
        (entry, exit)
    }

    /// The fragment of `element`, in tail position for the rules
    /// `expanding[tail_from..]` (as `StateCount::of` walks it).
    fn fragment(&mut self, element: &Element, tail_from: usize) -> (NfaStateId, NfaStateId) {
        let not_tail = self.expanding.len();
        match element {
            Element::Range(range) => self.byte_step(&[*range]),
            Element::Sequence(bytes) => self.chain(bytes.len(), |b, i| {
                b.byte_step(&[ByteRange::single(bytes[i])])
            }),
            Element::Literal {
                text,
                case_sensitive,
            } => {
                let bytes = text.as_bytes();
                self.chain(bytes.len(), |b, i| {
                    let byte = bytes[i];
                    if *case_sensitive || !byte.is_ascii_alphabetic() {
                        b.byte_step(&[ByteRange::single(byte)])
                    } else {
                        b.byte_step(&[
                            ByteRange::single(byte.to_ascii_uppercase()),
                            ByteRange::single(byte.to_ascii_lowercase()),
                        ])
                    }
                })
            }
            Element::Concatenation(items) => self.chain(items.len(), |b, i| {
                let tail = if i + 1 == items.len() {
                    tail_from
                } else {
                    not_tail
                };
                b.fragment(&items[i], tail)
            }),
            Element::Alternation(items) => {
                let (entry, exit) = (self.state(), self.state());
                for item in items {
                    let (s, e) = self.fragment(item, tail_from);
                    self.epsilon(entry, s);
                    self.epsilon(e, exit);
                }
                (entry, exit)
            }
            Element::Group(inner) => self.fragment(inner, tail_from),
            Element::Optional(inner) => self.optional(inner, tail_from),
            Element::Repetition { min, max, element } => {
                let tail = if *max == Some(1) { tail_from } else { not_tail };
                let (entry, mut exit) = self.chain(*min as usize, |b, _| b.fragment(element, tail));
                match max {
                    None => {
                        let (s, e) = self.fragment(element, tail);
                        // The loop: read `element` any number of times, then leave.
                        let hub = self.state();
                        self.epsilon(exit, hub);
                        self.epsilon(hub, s);
                        self.epsilon(e, hub);
                        exit = hub;
                    }
                    Some(max) => {
                        for _ in *min..*max {
                            let (s, e) = self.optional(element, tail);
                            self.epsilon(exit, s);
                            exit = e;
                        }
                    }
                }
                (entry, exit)
            }
            Element::RuleRef { name, .. } => {
                let grammar = self.grammar;
                let rule = grammar
                    .rule(name)
                    .expect("the grammar checked every reference");
                match self.expanding.iter().position(|&(r, _)| ptr::eq(r, rule)) {
                    Some(at) => {
                        debug_assert!(at >= tail_from, "the count refuses the rest");
                        // An ε-move to the rule's entry, added once it is
                        // made; what the loop matches ends where that rule
                        // does, so nothing reaches this fragment's exit.
                        let (from, exit) = (self.state(), self.state());
                        self.expanding[at].1.push(from);
                        (from, exit)
                    }
                    None => self.rule(rule, tail_from),
                }
            }
        }
    }

    fn optional(&mut self, inner: &Element, tail_from: usize) -> (NfaStateId, NfaStateId) {
        let (s, e) = self.fragment(inner, tail_from);
        let (entry, exit) = (self.state(), self.state());
        self.epsilon(entry, s);
        self.epsilon(entry, exit);
        self.epsilon(e, exit);
        (entry, exit)
    }
}

#[cfg(test)]
mod tests;
