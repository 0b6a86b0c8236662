//! Rules resolved into a grammar: every reference defined, no rule defined
//! twice, `=/` alternatives merged, no rule nested too deep.
//!
//! A grammar resolved from a start rule ([`Grammar::parse_from`]) holds the
//! rules that the start rule reaches, so that a rule it never uses, however
//! unfinished, cannot refuse it.
//!
//! [`Nfa::new`](crate::Nfa::new) takes it from here, and it is there that
//! recursion is judged: a rule that refers back to itself only as the last
//! thing it matches (`a = %x41 [a]`) is a loop, and regular; elsewhere
//! (`a = "(" a ")"`) the NFA refuses it at the reference.

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::abnf::{self, Element, Rule};
use crate::error::{Error, ErrorKind, Position};

/// The core rules of RFC 5234 Appendix B.1, available to every grammar that
/// does not define a rule of the same name.
const CORE_RULES: &str = "\
ALPHA  = %x41-5A / %x61-7A
BIT    = \"0\" / \"1\"
CHAR   = %x01-7F
CR     = %x0D
CRLF   = CR LF
CTL    = %x00-1F / %x7F
DIGIT  = %x30-39
DQUOTE = %x22
HEXDIG = DIGIT / \"A\" / \"B\" / \"C\" / \"D\" / \"E\" / \"F\"
HTAB   = %x09
LF     = %x0A
LWSP   = *(WSP / CRLF WSP)
OCTET  = %x00-FF
SP     = %x20
VCHAR  = %x21-7E
WSP    = SP / HTAB
";

/// The most levels a rule may nest, counting each bracket, repetition and
/// alternative around an element and each rule reference followed to its
/// definition. The parser and the NFA's construction recurse once a level;
/// 256 keeps them within a 2 MiB stack (a test thread's) in a debug build,
/// where grammars written by people nest a few levels.
pub const MAX_DEPTH: usize = 256;

/// One rule of a resolved grammar, its `=/` additions merged in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarRule {
    /// The name as first written.
    pub name: String,
    /// Where the rule is defined (with `=`).
    pub position: Position,
    /// The alternatives, in the order written (those added with `=/` last).
    pub alternatives: Vec<Element>,
    /// True for an RFC 5234 core rule that the text used without defining.
    pub core: bool,
}

impl GrammarRule {
    /// The right-hand side as one element.
    pub fn definition(&self) -> Element {
        match self.alternatives.as_slice() {
            [one] => one.clone(),
            many => Element::Alternation(many.to_vec()),
        }
    }
}

/// A resolved ABNF grammar.
#[derive(Clone, PartialEq, Eq)]
pub struct Grammar {
    rules: Vec<GrammarRule>,
    index: HashMap<String, usize>,
}

impl Grammar {
    /// Parses and resolves ABNF text, every rule of it.
    pub fn parse(source: &str) -> Result<Grammar, Error> {
        let rules = abnf::parse(source)?;
        Grammar::new(rules).map_err(|e| e.with_source(source))
    }

    /// Parses ABNF text and resolves the rules that rule `start` reaches:
    /// an undefined reference, or a rule nested too deep, in a rule that
    /// `start` never uses is no error (RFC 5322's recursive `comment` does
    /// not stop `dot-atom-text`). Text that is not ABNF, a rule defined
    /// twice, or `=/` before its rule are errors wherever they are.
    pub fn parse_from(source: &str, start: &str) -> Result<Grammar, Error> {
        let rules = abnf::parse(source)?;
        Grammar::resolve(rules, Some(start)).map_err(|e| e.with_source(source))
    }

    /// Resolves parsed rules: merges `=/`, rejects duplicates, undefined
    /// references and rules nested too deep, and adds the core rules that
    /// are used.
    pub fn new(parsed: Vec<Rule>) -> Result<Grammar, Error> {
        Grammar::resolve(parsed, None)
    }

    /// Resolves parsed rules, those that `start` reaches when there is one.
    fn resolve(parsed: Vec<Rule>, start: Option<&str>) -> Result<Grammar, Error> {
        let mut grammar = Grammar {
            rules: Vec::new(),
            index: HashMap::new(),
        };
        for rule in parsed {
            grammar.add(rule, false)?;
        }
        grammar.add_used_core_rules()?;
        if let Some(start) = start {
            grammar.keep_reached_from(start)?;
        }
        grammar.check_references()?;
        grammar.check_depth(&grammar.references_first())?;
        Ok(grammar)
    }

    fn add(&mut self, rule: Rule, core: bool) -> Result<(), Error> {
        let key = rule.name.to_ascii_lowercase();
        match (self.index.get(&key), rule.incremental) {
            (Some(&i), true) => {
                self.rules[i]
                    .alternatives
                    .extend(alternatives(rule.elements));
                Ok(())
            }
            (Some(&i), false) => Err(Error::at(
                ErrorKind::DuplicateRule {
                    name: rule.name,
                    first: self.rules[i].position,
                },
                rule.position,
            )),
            (None, true) => {
                // RFC 5234 §3.3 lets `=/` add to a core rule (`ALPHA =/ "_"`):
                // the text defines it, from the core definition, where it adds.
                let Some(definition) = core_rules()
                    .into_iter()
                    .find(|c| c.name.eq_ignore_ascii_case(&key))
                else {
                    return Err(Error::at(
                        ErrorKind::IncrementalWithoutRule { name: rule.name },
                        rule.position,
                    ));
                };
                self.add(
                    Rule {
                        name: rule.name.clone(),
                        position: rule.position,
                        incremental: false,
                        elements: definition.elements,
                    },
                    false,
                )?;
                self.add(rule, core)
            }
            (None, false) => {
                self.index.insert(key, self.rules.len());
                self.rules.push(GrammarRule {
                    name: rule.name,
                    position: rule.position,
                    alternatives: alternatives(rule.elements),
                    core,
                });
                Ok(())
            }
        }
    }

    fn add_used_core_rules(&mut self) -> Result<(), Error> {
        let core = core_rules();
        // Core rules refer to each other (CRLF to CR and LF), so add until nothing new is needed.
        loop {
            let missing: Vec<String> = self
                .references()
                .filter(|(name, _)| !self.index.contains_key(&name.to_ascii_lowercase()))
                .map(|(name, _)| name.to_ascii_lowercase())
                .collect();
            let mut added = false;
            for rule in &core {
                if missing.contains(&rule.name.to_ascii_lowercase())
                    && !self.index.contains_key(&rule.name.to_ascii_lowercase())
                {
                    self.add(rule.clone(), true)?;
                    added = true;
                }
            }
            if !added {
                return Ok(());
            }
        }
    }

    /// Every rule reference in the grammar, with its position.
    fn references(&self) -> impl Iterator<Item = (String, Position)> + '_ {
        self.rules.iter().flat_map(references_of)
    }

    /// Drops the rules that rule `start` does not reach, through
    /// references that are defined (an undefined one is reported later).
    fn keep_reached_from(&mut self, start: &str) -> Result<(), Error> {
        let first = self.start_rule(start)?.name.to_ascii_lowercase();
        let mut reached = HashSet::from([first.clone()]);
        let mut stack = vec![first];
        while let Some(name) = stack.pop() {
            let Some(&index) = self.index.get(&name) else {
                continue;
            };
            for (reference, _) in references_of(&self.rules[index]) {
                let key = reference.to_ascii_lowercase();
                if !reached.contains(&key) {
                    reached.insert(key.clone());
                    stack.push(key);
                }
            }
        }
        self.rules
            .retain(|rule| reached.contains(&rule.name.to_ascii_lowercase()));
        self.index = (self.rules.iter().enumerate())
            .map(|(i, rule)| (rule.name.to_ascii_lowercase(), i))
            .collect();
        Ok(())
    }

    fn check_references(&self) -> Result<(), Error> {
        let mut undefined: Vec<(String, Position)> = self
            .references()
            .filter(|(name, _)| !self.index.contains_key(&name.to_ascii_lowercase()))
            .collect();
        // Report the first one in the text, whatever the order of the rules that use it.
        undefined.sort_by_key(|(_, position)| *position);
        match undefined.into_iter().next() {
            Some((name, position)) => Err(Error::at(ErrorKind::UndefinedRule { name }, position)),
            None => Ok(()),
        }
    }

    /// The rules ordered so that every rule comes after the rules it refers
    /// to, but for a reference back to a rule whose references are still
    /// being followed.
    fn references_first(&self) -> Vec<usize> {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            OnPath,
            Done,
        }
        let edges: Vec<Vec<usize>> = (self.rules.iter())
            .map(|rule| {
                references_of(rule)
                    .into_iter()
                    .map(|(name, _)| self.index[&name.to_ascii_lowercase()])
                    .collect()
            })
            .collect();
        let mut marks = vec![Mark::New; self.rules.len()];
        let mut references_first = Vec::with_capacity(self.rules.len());
        // Depth-first search with an explicit stack of (rule, next edge to follow).
        for root in 0..self.rules.len() {
            if marks[root] != Mark::New {
                continue;
            }
            let mut stack = vec![(root, 0usize)];
            marks[root] = Mark::OnPath;
            while let Some(&mut (rule, ref mut edge)) = stack.last_mut() {
                if let Some(&target) = edges[rule].get(*edge) {
                    *edge += 1;
                    // A rule already on the path closes a cycle: the NFA
                    // makes it a loop, or refuses it, at that reference.
                    if marks[target] == Mark::New {
                        marks[target] = Mark::OnPath;
                        stack.push((target, 0));
                    }
                } else {
                    marks[rule] = Mark::Done;
                    references_first.push(rule);
                    stack.pop();
                }
            }
        }
        references_first
    }

    /// Refuses a rule that nests deeper than [`MAX_DEPTH`] with its
    /// references expanded, taking the rules in `references_first` order so
    /// that each one's depth is known before a rule refers to it.
    fn check_depth(&self, references_first: &[usize]) -> Result<(), Error> {
        let mut depths: HashMap<String, usize> = HashMap::new();
        for &index in references_first {
            let rule = &self.rules[index];
            let nested = |element: &Element| element_depth(element, &depths);
            let deepest = rule.alternatives.iter().map(nested).max().unwrap_or(0);
            let depth = deepest + usize::from(rule.alternatives.len() > 1);
            if depth > MAX_DEPTH {
                return Err(Error::at(
                    ErrorKind::TooDeep {
                        rule: rule.name.clone(),
                        limit: MAX_DEPTH,
                    },
                    rule.position,
                ));
            }
            depths.insert(rule.name.to_ascii_lowercase(), depth);
        }
        Ok(())
    }

    /// The rules, in the order defined; the core rules that were used come
    /// last, in the order of RFC 5234 Appendix B.1.
    pub fn rules(&self) -> &[GrammarRule] {
        &self.rules
    }

    /// The rule called `name` (compared case-insensitively, as ABNF does).
    pub fn rule(&self, name: &str) -> Option<&GrammarRule> {
        self.index
            .get(&name.to_ascii_lowercase())
            .map(|&i| &self.rules[i])
    }

    /// The rule to start from, or an error naming the rules that do exist.
    pub fn start_rule(&self, name: &str) -> Result<&GrammarRule, Error> {
        self.rule(name).ok_or_else(|| {
            Error::new(ErrorKind::UnknownStartRule {
                name: name.to_owned(),
                defined: self
                    .rules
                    .iter()
                    .filter(|r| !r.core)
                    .map(|r| r.name.clone())
                    .collect(),
            })
        })
    }
}

impl fmt::Debug for Grammar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Prints the grammar back as ABNF, one rule a line, `=/` additions merged.
impl fmt::Display for Grammar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.rules.iter().map(|r| r.name.len()).max().unwrap_or(0);
        for rule in &self.rules {
            writeln!(f, "{:width$} = {}", rule.name, rule.definition())?;
        }
        Ok(())
    }
}

fn core_rules() -> Vec<Rule> {
    abnf::parse(CORE_RULES).expect("the RFC 5234 core rules parse")
}

fn alternatives(element: Element) -> Vec<Element> {
    match element {
        Element::Alternation(items) => items,
        other => vec![other],
    }
}

/// How many levels `element` nests, its references as deep as `depths`
/// says their rules are. A rule not there yet is one whose references are
/// being followed: the reference closes a cycle, which the NFA makes an
/// ε-move back rather than expanding it again (or refuses), so it nests no
/// deeper.
fn element_depth(element: &Element, depths: &HashMap<String, usize>) -> usize {
    1 + match element {
        Element::Alternation(items) | Element::Concatenation(items) => items
            .iter()
            .map(|item| element_depth(item, depths))
            .max()
            .unwrap_or(0),
        Element::Repetition { element, .. } => element_depth(element, depths),
        Element::Optional(inner) | Element::Group(inner) => element_depth(inner, depths),
        Element::RuleRef { name, .. } => {
            depths.get(&name.to_ascii_lowercase()).copied().unwrap_or(0)
        }
        Element::Range(_) | Element::Sequence(_) | Element::Literal { .. } => 0,
    }
}

/// The references of `rule`'s alternatives, with their positions.
fn references_of(rule: &GrammarRule) -> Vec<(String, Position)> {
    let mut found = Vec::new();
    for alternative in &rule.alternatives {
        collect_references(alternative, &mut found);
    }
    found
}

fn collect_references(element: &Element, found: &mut Vec<(String, Position)>) {
    match element {
        Element::Alternation(items) | Element::Concatenation(items) => {
            for item in items {
                collect_references(item, found);
            }
        }
        Element::Repetition { element, .. } => collect_references(element, found),
        Element::Optional(inner) | Element::Group(inner) => collect_references(inner, found),
        Element::RuleRef { name, position } => found.push((name.clone(), *position)),
        Element::Range(_) | Element::Sequence(_) | Element::Literal { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_alternatives_merge() {
        let g = Grammar::parse("a = %x00\nb = %x02\na =/ %x01\n").unwrap();
        assert_eq!(g.rule("A").unwrap().definition().to_string(), "%x00 / %x01");
    }

    #[test]
    fn names_compare_case_insensitively() {
        let g = Grammar::parse("Utf8-Tail = %x80-BF\na = UTF8-tail\n").unwrap();
        assert!(g.rule("utf8-TAIL").is_some());
    }

    #[test]
    fn undefined_rule_points_at_the_reference() {
        let e = Grammar::parse("a = %x00 b\n").unwrap_err();
        assert_eq!(e.to_string(), "line 1, column 10: undefined rule `b`");
        assert_eq!(e.snippet().unwrap(), "1 | a = %x00 b\n  |          ^");
    }

    #[test]
    fn duplicate_rule_names_both_places() {
        let e = Grammar::parse("a = %x00\nA = %x01\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 1: rule `A` is defined twice (first at line 1, column 1); use `=/` to add alternatives"
        );
    }

    #[test]
    fn incremental_before_definition_is_an_error() {
        let e = Grammar::parse("a =/ %x00\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 1: `=/` adds alternatives to rule `a`, which is not defined above it"
        );
    }

    #[test]
    fn core_rules_are_there_when_used() {
        let g = Grammar::parse("line = *VCHAR CRLF\n").unwrap();
        let names: Vec<&str> = g.rules().iter().map(|r| r.name.as_str()).collect();
        // Used core rules follow the text's own, in the order of RFC 5234 Appendix B.1.
        assert_eq!(names, ["line", "CRLF", "VCHAR", "CR", "LF"]);
        assert!(g.rule("CR").unwrap().core);
    }

    #[test]
    fn a_grammar_may_redefine_a_core_rule() {
        let g = Grammar::parse("DIGIT = %x30-31\na = DIGIT\n").unwrap();
        assert_eq!(g.rule("digit").unwrap().definition().to_string(), "%x30-31");
        assert!(!g.rule("digit").unwrap().core);
    }

    #[test]
    fn equals_slash_adds_to_a_core_rule() {
        for text in [
            "ALPHA =/ \"_\"\nname = 1*ALPHA\n",
            "name = 1*alpha\nalpha =/ \"_\" / DIGIT\n",
        ] {
            let g = Grammar::parse(text).unwrap();
            let alpha = g.rule("ALPHA").unwrap();
            assert!(
                alpha
                    .definition()
                    .to_string()
                    .starts_with("%x41-5A / %x61-7A / \"_\""),
                "{g}"
            );
            assert!(!alpha.core);
            assert!(crate::Derivation::new(text, "name").is_ok());
        }
        let e = Grammar::parse("ALPHA =/ \"_\"\nALPHA = %x41\n").unwrap_err();
        assert!(
            e.to_string().contains("rule `ALPHA` is defined twice"),
            "{e}"
        );
    }

    #[test]
    fn unknown_start_rule_lists_the_rules() {
        let g = Grammar::parse("a = %x00\nb = a\n").unwrap();
        let e = g.start_rule("c").unwrap_err();
        assert_eq!(
            e.to_string(),
            "no rule named `c` to start from; the grammar defines a, b"
        );
    }

    /// RFC 5322 §3.2.2-3.2.3, with `comment` recursive and `obs-ctext`,
    /// `quoted-pair` and `FWS` left undefined.
    const RFC5322_ATOMS: &str = r##"
atext           =   ALPHA / DIGIT /    ; Printable US-ASCII
                    "!" / "#" /        ;  characters not including
                    "$" / "%" /        ;  specials.  Used for atoms.
                    "&" / "'" /
                    "*" / "+" /
                    "-" / "/" /
                    "=" / "?" /
                    "^" / "_" /
                    "`" / "{" /
                    "|" / "}" /
                    "~"
dot-atom-text   =   1*atext *("." 1*atext)
ctext           =   %d33-39 /          ; Printable US-ASCII
                    %d42-91 /          ;  characters not including
                    %d93-126 /         ;  "(", ")", or "\"
                    obs-ctext
ccontent        =   ctext / quoted-pair / comment
comment         =   "(" *([FWS] ccontent) [FWS] ")"
"##;

    #[test]
    fn a_rule_the_start_rule_does_not_reach_cannot_refuse_the_grammar() {
        assert!(Grammar::parse(RFC5322_ATOMS).is_err());
        let g = Grammar::parse_from(RFC5322_ATOMS, "dot-atom-text").unwrap();
        let names: Vec<&str> = g.rules().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["atext", "dot-atom-text", "ALPHA", "DIGIT"]);
        let derivation = crate::Derivation::new(RFC5322_ATOMS, "dot-atom-text").unwrap();
        assert_eq!(derivation.grammar(), &g);
    }

    #[test]
    fn the_rules_the_start_rule_reaches_are_still_checked() {
        let e = Grammar::parse_from(RFC5322_ATOMS, "ctext").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 17, column 21: undefined rule `obs-ctext`"
        );
        let e = Grammar::parse_from("a = %x41\n", "c").unwrap_err();
        assert_eq!(
            e.to_string(),
            "no rule named `c` to start from; the grammar defines a"
        );
    }

    #[test]
    fn what_is_wrong_wherever_it_is_still_refuses_the_grammar() {
        let e = Grammar::parse_from("a = %x41\nb = %x42\nb = %x43\n", "a").unwrap_err();
        assert!(e.to_string().contains("rule `b` is defined twice"), "{e}");
        let e = Grammar::parse_from("a = %x41\nb = (\n", "a").unwrap_err();
        assert!(e.to_string().starts_with("line 2, column"), "{e}");
    }
}
