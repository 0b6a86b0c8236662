//! The engine behind `docs/playground/index.html`: `utf8-spec`'s derivation,
//! compiled to `wasm32-unknown-unknown` by `cargo xtask playground`, answering
//! a page in JSON.
//!
//! Everything the page shows is computed here, in Rust, so that the native
//! tests check what a learner sees: [`rulesets()`] lists the built-in rulesets,
//! [`derive()`] runs the derivation of the learner's ABNF and renders every
//! stage (the same renderers as `utf8 derive --stage`), and [`trace()`] steps an
//! input through the minimal DFA byte by byte. [`exchange`] is the thin layer
//! the page calls through the WebAssembly memory.

pub mod exchange;
mod json;
mod trace;

use utf8_spec::explain::{Stage, StageFormat, is_drawn, render_stage, state_names};
use utf8_spec::rulesets::BUILTIN;
use utf8_spec::{Derivation, Error};

pub use trace::{Step, Trace, Verdict, trace};

use json::{Object, string};

/// The stages in the order the page shows them, with the heading of each.
const STAGES: [(Stage, &str); 6] = [
    (Stage::Grammar, "Grammar"),
    (Stage::Nfa, "NFA"),
    (Stage::Dfa, "DFA"),
    (Stage::Rounds, "Moore's rounds"),
    (Stage::Minimal, "Minimal DFA"),
    (Stage::Classes, "Byte classes"),
];

/// The built-in rulesets as a JSON array of `{name, start, abnf, source}`,
/// RFC 3629 first: the page's one-click examples.
pub fn rulesets() -> String {
    let items: Vec<String> = BUILTIN
        .iter()
        .map(|ruleset| {
            Object::new()
                .field("name", &string(ruleset.name))
                .field("start", &string(ruleset.start))
                .field("abnf", &string(ruleset.abnf))
                .field("source", &string(ruleset.source))
                .finish()
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// Derives rule `start` of `abnf` and renders it for the page: `{"ok": true,
/// "counts": …, "names": […], "stages": [{"name", "heading", "drawn",
/// "svg", "table", "data"}…]}`, or on a bad spec `{"ok": false, "message",
/// "line", "column", "snippet"}` (line and column `null` when the error is
/// about no place in the text, such as an unknown start rule).
pub fn derive(abnf: &str, start: &str) -> (String, Option<Derivation>) {
    match Derivation::new(abnf, start) {
        Ok(derivation) => (rendered(&derivation), Some(derivation)),
        Err(error) => (error_json(&error), None),
    }
}

fn rendered(derivation: &Derivation) -> String {
    let tables = derivation.tables();
    let counts = Object::new()
        .field("nfa", &derivation.nfa().states().len().to_string())
        .field("dfa", &derivation.dfa().state_count().to_string())
        .field(
            "rounds",
            &derivation.minimal_dfa().refinement_rounds().to_string(),
        )
        .field("minimal", &tables.state_count().to_string())
        .field("classes", &tables.class_count().to_string())
        .finish();
    let names: Vec<String> = state_names(tables).iter().map(|n| string(n)).collect();
    let stages: Vec<String> = STAGES
        .iter()
        .map(|&(stage, heading)| stage_json(derivation, stage, heading))
        .collect();
    Object::new()
        .field("ok", "true")
        .field("start_rule", &string(derivation.start_rule()))
        .field("counts", &counts)
        .field("start", &tables.start().to_string())
        .field("dead", &tables.dead().to_string())
        .field("names", &format!("[{}]", names.join(",")))
        .field("stages", &format!("[{}]", stages.join(",")))
        .finish()
}

fn stage_json(derivation: &Derivation, stage: Stage, heading: &str) -> String {
    let render = |format| render_stage(derivation, stage, format).ok();
    let svg = if is_drawn(derivation, stage) {
        render(StageFormat::Svg)
    } else {
        None
    };
    let text = render(StageFormat::Text).unwrap_or_default();
    let data = render(StageFormat::Json).unwrap_or_else(|| "null".to_owned());
    Object::new()
        .field("name", &string(stage.name()))
        .field("heading", &string(heading))
        .field("drawn", if svg.is_some() { "true" } else { "false" })
        .field(
            "svg",
            &svg.as_deref().map_or_else(|| "null".to_owned(), string),
        )
        .field("table", &string(&text))
        .field("data", &data)
        .finish()
}

fn error_json(error: &Error) -> String {
    let position = error.position();
    let number = |n: Option<usize>| n.map_or_else(|| "null".to_owned(), |n| n.to_string());
    Object::new()
        .field("ok", "false")
        .field("message", &string(&error.kind().to_string()))
        .field("line", &number(position.map(|p| p.line)))
        .field("column", &number(position.map(|p| p.column)))
        .field(
            "snippet",
            &error
                .snippet()
                .as_deref()
                .map_or_else(|| "null".to_owned(), string),
        )
        .finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
    }

    #[test]
    fn rulesets_are_the_built_in_ones_rfc3629_first() {
        let list = parse(&rulesets());
        let names: Vec<&str> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["rfc3629", "legacy31", "cesu8", "mutf8", "wtf8", "rfc2279"]
        );
        assert_eq!(list[0]["start"], "UTF8-octets");
        assert!(list[0]["abnf"].as_str().unwrap().contains("UTF8-tail"));
    }

    #[test]
    fn rfc3629_shows_nine_states_twelve_classes_and_every_stage() {
        let ruleset = &BUILTIN[0];
        let (text, derivation) = derive(ruleset.abnf, ruleset.start);
        assert!(derivation.is_some());
        let page = parse(&text);
        assert_eq!(page["ok"], true);
        assert_eq!(page["counts"]["minimal"], 9);
        assert_eq!(page["counts"]["classes"], 12);
        assert_eq!(page["counts"]["nfa"], 75);
        assert_eq!(page["names"].as_array().unwrap().len(), 9);
        let stages = page["stages"].as_array().unwrap();
        let names: Vec<&str> = stages.iter().map(|s| s["name"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            ["grammar", "nfa", "dfa", "rounds", "minimal", "classes"]
        );
        for stage in stages {
            let drawn = stage["drawn"].as_bool().unwrap();
            assert_eq!(drawn, stage["name"] != "grammar", "{}", stage["name"]);
            if drawn {
                assert!(stage["svg"].as_str().unwrap().starts_with("<svg"));
            }
            assert!(!stage["table"].as_str().unwrap().is_empty());
        }
        // The minimal stage's data numbers its states as the names and the trace do.
        assert_eq!(stages[4]["data"]["states"], 9);
        assert_eq!(stages[4]["data"]["dead"], page["dead"]);
    }

    #[test]
    fn a_large_nfa_is_given_as_a_table_not_a_picture() {
        let ruleset = utf8_spec::rulesets::builtin("legacy31").unwrap();
        let page = parse(&derive(ruleset.abnf, ruleset.start).0);
        let nfa = &page["stages"][1];
        assert_eq!(nfa["drawn"], false);
        assert!(nfa["svg"].is_null());
        assert!(nfa["table"].as_str().unwrap().len() > 100);
    }

    #[test]
    fn a_mistake_is_reported_with_its_line_and_column() {
        let abnf = "text = *char\nchar = %x00-7F / bad-rule\n";
        let (text, derivation) = derive(abnf, "text");
        assert!(derivation.is_none());
        let error = parse(&text);
        assert_eq!(error["ok"], false);
        assert_eq!(error["line"], 2);
        assert_eq!(error["column"], 18);
        assert_eq!(error["message"], "undefined rule `bad-rule`");
        assert!(error["snippet"].as_str().unwrap().contains("^"));
    }

    #[test]
    fn an_unknown_start_rule_has_no_place_in_the_text() {
        let error = parse(&derive("a = %x61\n", "b").0);
        assert_eq!(error["ok"], false);
        assert!(error["line"].is_null());
        assert!(error["message"].as_str().unwrap().contains("`b`"));
    }
}
