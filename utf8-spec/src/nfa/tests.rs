//! The NFA's loops, and the recursion it refuses.

use super::*;
use crate::Dfa;
use crate::error::ErrorKind;

fn dfa_of(abnf: &str, start: &str) -> Dfa {
    let grammar = Grammar::parse_from(abnf, start).unwrap();
    Dfa::new(&Nfa::new(&grammar, start).unwrap()).unwrap()
}

fn accepts(dfa: &Dfa, input: &str) -> bool {
    let end = input
        .bytes()
        .fold(dfa.start(), |state, b| dfa.next(state, b));
    dfa.is_accepting(end)
}

fn refusal(abnf: &str, start: &str) -> Error {
    let grammar = Grammar::parse_from(abnf, start).unwrap();
    Nfa::new(&grammar, start).unwrap_err().with_source(abnf)
}

#[test]
fn a_rule_that_refers_to_itself_last_is_a_loop() {
    let one_or_more = dfa_of("a = %x41 [a]\n", "a");
    for (input, accepted) in [("", false), ("A", true), ("AAAA", true), ("AB", false)] {
        assert_eq!(accepts(&one_or_more, input), accepted, "{input:?}");
    }
    let then_b = dfa_of("a = %x41 a / %x42\n", "a");
    for (input, accepted) in [("B", true), ("AAB", true), ("A", false), ("BA", false)] {
        assert_eq!(accepts(&then_b, input), accepted, "{input:?}");
    }
}

#[test]
fn rules_that_refer_to_each_other_last_are_a_loop() {
    let dfa = dfa_of("a = \"x\" b / \"y\"\nb = \"z\" a\n", "a");
    for (input, accepted) in [("y", true), ("xzy", true), ("xzxzy", true), ("xy", false)] {
        assert_eq!(accepts(&dfa, input), accepted, "{input:?}");
    }
    // Starting from the other rule of the cycle, and from a rule that
    // uses the cycle where more follows it.
    let dfa = dfa_of("a = \"x\" b / \"y\"\nb = \"z\" a\n", "b");
    assert!(accepts(&dfa, "zxzy") && !accepts(&dfa, "y"));
    let dfa = dfa_of("s = a \"!\"\na = \"x\" [a]\n", "s");
    assert!(accepts(&dfa, "xxx!") && !accepts(&dfa, "xxx") && !accepts(&dfa, "!"));
}

#[test]
fn recursion_where_more_may_follow_is_refused_at_that_reference() {
    let e = refusal("a = \"(\" a \")\" / \"x\"\n", "a");
    assert_eq!(
        e.to_string(),
        "line 1, column 9: rule `a` refers back to itself (a -> a) where more may follow the reference; \
         a finite automaton follows recursion only in tail position, as the last thing a rule matches"
    );
    assert_eq!(
        e.snippet().unwrap(),
        "1 | a = \"(\" a \")\" / \"x\"\n  |         ^"
    );
    let e = refusal("a = [a] \"x\"\n", "a");
    assert_eq!(e.position().map(|p| p.column), Some(6));
    let e = refusal("a = %x41 b\nb = %x42 / 2c\nc = [ a ]\n", "a");
    assert!(
        e.to_string()
            .starts_with("line 3, column 7: rule `a` refers back to itself (a -> b -> c -> a)"),
        "{e}"
    );
    let e = refusal("a = *(%x41 a)\n", "a");
    assert!(matches!(e.kind(), ErrorKind::Recursion { .. }), "{e}");
}

#[test]
fn a_cycle_of_many_rules_is_refused_at_the_state_limit_without_walking_every_way_round() {
    // 40 rules, each of which may go on to any later one: the ways
    // around the cycle number 2^40, and the walk stops at the limit.
    let mut abnf = String::new();
    for i in 0..40 {
        let later: Vec<String> = (i + 1..40)
            .map(|j| format!("\"{}\" r{j}", i % 10))
            .collect();
        let back = if later.is_empty() {
            String::new()
        } else {
            format!(" / {}", later.join(" / "))
        };
        abnf.push_str(&format!("r{i} = \"x\" r0{back}\n"));
    }
    let grammar = Grammar::parse(&abnf).unwrap();
    let started = std::time::Instant::now();
    let e = Nfa::within(&grammar, "r0", 100_000).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::TooLarge { limit: 100_000, .. }),
        "{e}"
    );
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
}

#[test]
fn the_count_of_a_loop_is_the_build_s() {
    // `within` asserts the count in a debug build; at the exact count it builds.
    for (abnf, start) in [
        ("a = \"x\" b / \"y\"\nb = \"z\" a\n", "a"),
        ("s = 2a\na = %x41 [a] / 0*0a\n", "s"),
        ("s = a a\na = \"x\" b\nb = %x42 / [a]\n", "s"),
    ] {
        let grammar = Grammar::parse(abnf).unwrap();
        let states = Nfa::new(&grammar, start).unwrap().states().len();
        assert!(Nfa::within(&grammar, start, states).is_ok());
        assert!(Nfa::within(&grammar, start, states - 1).is_err());
    }
}
