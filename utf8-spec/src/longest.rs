//! The longest string a grammar's finite language holds, read from the
//! grammar before any automaton is built.
//!
//! A language whose longest string has `n` bytes has a minimal automaton of
//! at least `n + 2` states: the prefixes of that string each leave a
//! different longest continuation (`n`, `n - 1`, … `0`), so no two share a
//! state, and a byte past the end leads to a dead state apart from them
//! all. `a = 0*12000( %x41 / %x42.43 / … )` needs 36,002 states, and so
//! cannot become tables of 256; knowing it from the grammar spares the
//! subset construction's two seconds of finding it out.

use std::collections::HashMap;

use crate::Grammar;
use crate::abnf::Element;
use crate::grammar::GrammarRule;

/// The length of the longest string of rule `start`'s language, or `None`
/// when it has no longest string (a loop that reads bytes) or the rules
/// refer back to one another (the count does not follow cycles).
pub(crate) fn longest_string(grammar: &Grammar, start: &GrammarRule) -> Option<u64> {
    Longest {
        grammar,
        expanding: vec![start.name.to_ascii_lowercase()],
        of_rule: HashMap::new(),
    }
    .of(&start.definition())
}

struct Longest<'g> {
    grammar: &'g Grammar,
    expanding: Vec<String>,
    of_rule: HashMap<String, Option<u64>>,
}

impl Longest<'_> {
    fn of(&mut self, element: &Element) -> Option<u64> {
        match element {
            Element::Range(_) => Some(1),
            Element::Sequence(bytes) => Some(bytes.len() as u64),
            Element::Literal { text, .. } => Some(text.len() as u64),
            Element::Concatenation(items) => items
                .iter()
                .try_fold(0u64, |sum, item| Some(sum.saturating_add(self.of(item)?))),
            Element::Alternation(items) => items
                .iter()
                .try_fold(0u64, |most, item| Some(most.max(self.of(item)?))),
            Element::Group(inner) | Element::Optional(inner) => self.of(inner),
            Element::Repetition { max: Some(0), .. } => Some(0),
            Element::Repetition { max, element, .. } => match (self.of(element)?, max) {
                (0, _) => Some(0),
                (_, None) => None,
                (one, Some(max)) => Some(one.saturating_mul(u64::from(*max))),
            },
            Element::RuleRef { name, .. } => {
                let key = name.to_ascii_lowercase();
                if self.expanding.contains(&key) {
                    return None;
                }
                if let Some(&known) = self.of_rule.get(&key) {
                    return known;
                }
                let rule = self
                    .grammar
                    .rule(name)
                    .expect("the grammar checked every reference");
                self.expanding.push(key.clone());
                let longest = self.of(&rule.definition());
                self.expanding.pop();
                self.of_rule.insert(key, longest);
                longest
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn longest(abnf: &str) -> Option<u64> {
        let grammar = Grammar::parse(abnf).unwrap();
        longest_string(&grammar, &grammar.rules()[0])
    }

    #[test]
    fn the_longest_string_is_read_from_the_grammar() {
        assert_eq!(
            longest("a = %x41 b 3b [%x41.42.43]\nb = \"xy\" / %x00\n"),
            Some(1 + 2 + 6 + 3)
        );
        assert_eq!(
            longest("a = 0*12000( %x41 / %x42.43 / %x44.45.46 )\n"),
            Some(36_000)
        );
        assert_eq!(longest("a = *%x41\n"), None);
        assert_eq!(longest("a = *\"\" %x41\n"), Some(1));
        assert_eq!(longest("a = %x41 [a]\n"), None);
    }
}
