//! The page on the published automata: which built-in ruleset's minimal DFA
//! is Onigmo's `enc/utf_8.c` table or Tang's 2003 validator, the state
//! mapping the search found, and each state's moves in both numberings side
//! by side, so that a reader can hold one against the other.

use std::fmt::Write as _;

use utf8_spec::explain::state_names;
use utf8_spec::rulesets::{BUILTIN, Ruleset};
use utf8_spec::runs;
use utf8_spec::seeds::Automaton;

use super::markdown::{escape, inline};
use crate::derivation::{SeedAutomaton, published_matches};

pub(crate) const FILE_NAME: &str = "isomorphism.html";

const INTRO: &str = "<h1>The published automata, found by isomorphism</h1>\n\
<p>Two validators were written by hand long before this library: Onigmo's \
<code>trans[][0x100]</code> in <code>enc/utf_8.c</code> (states S0–S7, and S0–S11 when built with \
<code>USE_UTF8_31BITS</code>), and the <code>utf8_state</code> table of Frank Yung-Fong Tang's 2003 \
&ldquo;The Algorithm to Validate an UTF-8 String&rdquo;. Their tables are kept as the text their \
sources print, in <code>utf8-spec/tests/data/</code>, and read by program (Onigmo's S8–S11 are \
reconstructed from RFC 2279's shortest forms, as that file says).</p>\n\
<p>Onigmo's ACCEPT goes back to S0, the only accepting state, and FAILURE becomes a dead state F. \
A breadth-first walk from both start states over all 256 bytes then pairs every derived state \
with the published state the same inputs reach. Where the pairing is one-to-one and agrees on \
acceptance, the two automata are the same up to the names of their states; nothing below is \
asserted by hand.</p>\n";

/// The page's title and body.
pub(crate) fn page() -> (String, String) {
    let mut body = INTRO.to_owned();
    let mut unmatched = Vec::new();
    for ruleset in BUILTIN {
        let derivation = ruleset.derive().expect("built-in rulesets derive");
        let matches = published_matches(derivation.tables());
        if matches.is_empty() {
            unmatched.push(format!(
                "<a href=\"{}\"><code>{}</code></a>",
                super::ruleset::file_name(ruleset),
                ruleset.name
            ));
        } else {
            body.push_str(&section(ruleset, &derivation, &matches));
        }
    }
    let _ = writeln!(
        body,
        "<p>The other built-in rulesets ({}) match none of the published automata.</p>",
        unmatched.join(", ")
    );
    ("The published automata".to_owned(), body)
}

fn section(
    ruleset: &Ruleset,
    derivation: &utf8_spec::Derivation,
    matches: &[(SeedAutomaton, Vec<usize>)],
) -> String {
    let tables = derivation.tables();
    let names = state_names(tables);
    let titles: Vec<String> = matches.iter().map(|(seed, _)| inline(seed.title)).collect();
    let mut out = format!(
        "<section id=\"{0}\">\n<h2><a href=\"{1}\"><code>{0}</code></a> is {2}</h2>\n\
         <p>Its minimal DFA has {3} states; each pairs with exactly one state of {2}:</p>\n",
        ruleset.name,
        super::ruleset::file_name(ruleset),
        titles.join(" and "),
        tables.state_count()
    );
    out.push_str("<table>\n<thead><tr><th>state</th><th>derived name</th>");
    for title in &titles {
        let _ = write!(out, "<th>{title}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (state, name) in names.iter().enumerate() {
        let _ = write!(out, "<tr><td>{state}</td><td>{}</td>", escape(name));
        for (seed, map) in matches {
            let _ = write!(out, "<td>{}</td>", escape(&seed.names[map[state]]));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    let derived = Automaton::from_tables(tables);
    for (seed, map) in matches {
        out.push_str(&moves(&derived, seed, map));
        // A published state no input reaches pairs with nothing; say so
        // rather than let it look forgotten.
        let unreached: Vec<&str> = (0..seed.names.len())
            .filter(|s| !map.contains(s))
            .map(|s| seed.names[s].as_str())
            .collect();
        if !unreached.is_empty() {
            let _ = writeln!(
                out,
                "<p>In {}, {} cannot be reached from the start, so no derived state pairs \
                 with it.</p>",
                inline(seed.title),
                escape(&unreached.join(", "))
            );
        }
    }
    out.push_str("</section>\n");
    out
}

/// Each live state's moves, bytes grouped into ranges, in the derived
/// numbering and in the published one; moves to the dead state left out.
fn moves(derived: &Automaton, seed: &SeedAutomaton, map: &[usize]) -> String {
    let dead = (0..derived.state_count())
        .find(|&s| !derived.accepting[s] && derived.next[s].iter().all(|&t| t == s));
    let listing = |automaton: &Automaton,
                   state: usize,
                   skip: Option<usize>,
                   name: &dyn Fn(usize) -> String| {
        runs(&automaton.next[state])
            .into_iter()
            .filter(|&(_, to)| Some(to) != skip)
            .map(|(range, to)| format!("{range} → {}", name(to)))
            .collect::<Vec<_>>()
            .join("<br>")
    };
    let mut out = format!(
        "<details open><summary>Every move, side by side with {}</summary>\n<table>\n\
         <thead><tr><th>state</th><th>its moves</th><th>{0}</th><th>its moves</th></tr></thead>\n<tbody>\n",
        inline(seed.title)
    );
    for state in (0..derived.state_count()).filter(|&s| Some(s) != dead) {
        let _ = writeln!(
            out,
            "<tr><td>{state}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            listing(derived, state, dead, &|to| to.to_string()),
            escape(&seed.names[map[state]]),
            listing(&seed.automaton, map[state], dead.map(|d| map[d]), &|to| {
                escape(&seed.names[to])
            })
        );
    }
    out.push_str("</tbody>\n</table>\n</details>\n");
    out
}
