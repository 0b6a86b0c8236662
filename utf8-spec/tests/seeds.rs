//! The derivation checked against the seed documents' own tables.
//!
//! The seeds' tables live in `tests/data/` as the text the seeds print, and
//! are read here by program: nothing below compares the derivation with
//! numbers typed into this file. Where two automata must agree, the test
//! finds the correspondence itself (a breadth-first walk from both start
//! states over all 256 bytes) instead of assuming a numbering.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::fs;

use utf8_spec::rulesets::{LEGACY31, RFC3629, Ruleset};
use utf8_spec::seeds::{
    Automaton, ONIGMO_TRANS, SEED004_STATE_MACHINE, onigmo_automaton, onigmo_state_name,
    parse_byte_range, parse_onigmo_trans, parse_seed004,
};
use utf8_spec::{Derivation, Error, ErrorKind, MinimalDfa, Position};

const SEED000_SUMMARY: &str = include_str!("data/seed000_summary.txt");

/// The isomorphism of `utf8_spec::seeds`, failing the test with `what` if there is none.
fn isomorphism(left: &Automaton, right: &Automaton, what: &str) -> Vec<usize> {
    utf8_spec::seeds::isomorphism(left, right).unwrap_or_else(|e| panic!("{what}: {e}"))
}

fn show_pairing(
    map: &[usize],
    left_name: impl Fn(usize) -> String,
    right_name: impl Fn(usize) -> String,
) -> String {
    map.iter()
        .enumerate()
        .map(|(l, &r)| format!("{} <-> {}", left_name(l), right_name(r)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn derive(ruleset: &Ruleset) -> Derivation {
    ruleset
        .derive()
        .unwrap_or_else(|e| panic!("built-in ruleset {} must derive: {e}", ruleset.name))
}

// ---------------------------------------------------------------------------
// Seed 001: Onigmo's trans[][0x100]
// ---------------------------------------------------------------------------

#[test]
fn onigmo_transcription_has_the_shape_of_the_c_table() {
    let trans = parse_onigmo_trans(ONIGMO_TRANS);
    assert_eq!(
        trans.default_build.len(),
        8,
        "S0..S7 without USE_UTF8_31BITS"
    );
    assert_eq!(
        trans.utf8_31bits_build.len(),
        12,
        "S0..S11 with USE_UTF8_31BITS"
    );
    // The builds differ only where the conditionals say: row f of S0, and S8..S11.
    assert_eq!(
        trans.default_build[0][..0xF0],
        trans.utf8_31bits_build[0][..0xF0]
    );
    assert_eq!(trans.default_build[1..], trans.utf8_31bits_build[1..8]);
}

#[test]
fn rfc3629_is_onigmo_default_table_with_the_same_numbering() {
    let derivation = derive(&RFC3629);
    let tables = derivation.tables();
    let trans = parse_onigmo_trans(ONIGMO_TRANS);
    let onigmo = onigmo_automaton(&trans.default_build);
    let failure = trans.default_build.len();
    let map = isomorphism(
        &Automaton::from_tables(tables),
        &onigmo,
        "rfc3629 vs Onigmo",
    );
    let shown = show_pairing(&map, |s| s.to_string(), onigmo_state_name(failure));
    // The canonical numbering (breadth-first, bytes ascending, dead last) is
    // documented to reproduce Onigmo's S0..S7 with FAILURE as 8.
    let same_numbering = map
        .iter()
        .enumerate()
        .all(|(derived, &onigmo)| derived == onigmo);
    assert!(
        same_numbering,
        "derived state i must be Onigmo's Si, and the dead state F: {shown}"
    );
    assert_eq!(
        (tables.dead() as usize, failure),
        (8, 8),
        "the dead state is 8 and pairs with Onigmo's FAILURE: {shown}"
    );
}

#[test]
fn legacy31_is_onigmo_31bit_table_restricted_to_reachable_states() {
    let derivation = derive(&LEGACY31);
    let tables = derivation.tables();
    let trans = parse_onigmo_trans(ONIGMO_TRANS);
    let onigmo = onigmo_automaton(&trans.utf8_31bits_build);
    let failure = trans.utf8_31bits_build.len();
    let reachable = onigmo.reachable();
    // With USE_UTF8_31BITS, F4 goes to S6 like F1-F3, so nothing leads to S7
    // (the U+10FFFF limit) any more.
    assert!(
        !reachable[7],
        "S7 must be unreachable in Onigmo's 31-bit table"
    );
    let reachable_count = reachable.iter().filter(|&&r| r).count();
    assert_eq!(
        reachable_count, 12,
        "11 live states and FAILURE are reachable"
    );
    let map = isomorphism(
        &Automaton::from_tables(tables),
        &onigmo,
        "legacy31 vs Onigmo 31-bit",
    );
    assert_eq!(
        tables.state_count(),
        reachable_count,
        "legacy31: {}",
        show_pairing(&map, |s| s.to_string(), onigmo_state_name(failure))
    );
}

// ---------------------------------------------------------------------------
// Seed 004: the 2003 state-machine validator
// ---------------------------------------------------------------------------

#[test]
fn seed004_transcription_is_consistent_with_itself() {
    let seed = parse_seed004(SEED004_STATE_MACHINE);
    assert_eq!(seed.state_count(), 9, "kSTART, kA..kG, kERROR");
    assert_eq!(seed.state_table.len(), 12 * 9, "12 classes x 9 states");
    // The row comments of state_table name each class's bytes; they must say
    // what byte_class_table says, byte for byte.
    for byte in 0..=255u8 {
        let labelled: Vec<usize> = seed
            .row_labels
            .iter()
            .enumerate()
            .filter(|(_, ranges)| {
                ranges
                    .iter()
                    .any(|&(first, last)| (first..=last).contains(&byte))
            })
            .map(|(class, _)| class)
            .collect();
        assert_eq!(
            labelled,
            [seed.byte_class_table[byte as usize] as usize],
            "seed 004: byte {byte:#04X}"
        );
    }
    let error = seed.state("kERROR");
    let automaton = seed.automaton();
    assert!(
        automaton.next[error].iter().all(|&next| next == error),
        "seed 004: kERROR never leaves"
    );
}

#[test]
fn rfc3629_is_seed004_state_machine() {
    let derivation = derive(&RFC3629);
    let tables = derivation.tables();
    let seed = parse_seed004(SEED004_STATE_MACHINE);

    assert_eq!(
        (tables.state_count(), tables.class_count()),
        (seed.state_count(), seed.class_count()),
        "states and classes"
    );
    assert_eq!((tables.state_count(), tables.class_count()), (9, 12));
    // Both number classes by their smallest byte, so the maps must be equal, not just alike.
    assert_eq!(
        tables.byte_classes(),
        &seed.byte_class_table,
        "byte classes"
    );

    let map = isomorphism(
        &Automaton::from_tables(tables),
        &seed.automaton(),
        "rfc3629 vs seed 004",
    );
    let shown = show_pairing(&map, |s| s.to_string(), |s| seed.state_names[s].clone());
    assert_eq!(
        seed.state_names[map[tables.dead() as usize]],
        "kERROR",
        "{shown}"
    );
    // The same, class by class on the two layouts: the derived table is
    // state-major, seed 004's is class-major.
    let classes = tables.class_count();
    for derived in 0..tables.state_count() {
        for class in 0..classes {
            let derived_next = tables.transitions()[derived * classes + class] as usize;
            let seed_next = seed.state_table[class * seed.state_count() + map[derived]];
            assert_eq!(
                map[derived_next], seed_next,
                "state {derived}, class {class}: {shown}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Seed 000: the byte-range summary and the state diagram
// ---------------------------------------------------------------------------

/// One form of a character: a byte range per position.
type CharacterForm = Vec<(u8, u8)>;

fn fenced_block<'a>(text: &'a str, after: &str, fence: &str) -> Vec<&'a str> {
    let mut lines = text.lines();
    lines
        .by_ref()
        .find(|line| *line == after)
        .unwrap_or_else(|| panic!("no line {after:?}"));
    lines
        .by_ref()
        .find(|line| *line == fence)
        .unwrap_or_else(|| panic!("no {fence:?} after {after:?}"));
    lines.take_while(|line| *line != "```").collect()
}

fn parse_seed000_summary(text: &str) -> Vec<CharacterForm> {
    let forms: Vec<CharacterForm> = fenced_block(text, "## まとめ", "```")
        .into_iter()
        .map(|line| line.split_whitespace().map(parse_byte_range).collect())
        .collect();
    assert_eq!(forms.len(), 9, "seed 000: the summary has 9 lines");
    forms
}

/// The Mermaid diagram as an automaton: states in order of appearance, START
/// the start and only accepting state, missing transitions to an added dead state.
fn parse_seed000_diagram(text: &str) -> (Vec<String>, Automaton) {
    let mut names: Vec<String> = Vec::new();
    let mut edges: Vec<(usize, usize, (u8, u8))> = Vec::new();
    let id = |name: &str, names: &mut Vec<String>| match names.iter().position(|n| n == name) {
        Some(index) => index,
        None => {
            names.push(name.to_owned());
            names.len() - 1
        }
    };
    let mut transitions = 0;
    for line in fenced_block(text, "## 有限状態機械での表現", "```mermaid") {
        let line = line.trim();
        if line == "stateDiagram" {
            continue;
        }
        let (from, rest) = line
            .split_once(" --> ")
            .unwrap_or_else(|| panic!("seed 000: not a transition: {line:?}"));
        let (to, ranges) = rest
            .split_once(':')
            .unwrap_or_else(|| panic!("seed 000: transition without label: {line:?}"));
        let (from, to) = (id(from.trim(), &mut names), id(to.trim(), &mut names));
        edges.extend(
            ranges
                .split(',')
                .map(|range| (from, to, parse_byte_range(range))),
        );
        transitions += 1;
    }
    assert_eq!(transitions, 15, "seed 000: the diagram has 15 arrows");
    assert_eq!(names.len(), 8, "seed 000: \"8つの状態で表現できます\"");
    let dead = names.len();
    let mut next = vec![[dead; 256]; dead + 1];
    for (from, to, (first, last)) in edges {
        for byte in first..=last {
            assert_eq!(
                next[from][byte as usize], dead,
                "seed 000: two arrows leave {} on byte {byte:#04X}",
                names[from]
            );
            next[from][byte as usize] = to;
        }
    }
    let start = names
        .iter()
        .position(|n| n == "START")
        .expect("seed 000 has a START state");
    let mut accepting = vec![false; dead + 1];
    accepting[start] = true;
    names.push("(dead)".to_owned());
    (
        names,
        Automaton {
            next,
            accepting,
            start,
        },
    )
}

/// Whether `input` is a concatenation of characters of the given forms,
/// by dynamic programming over the positions a character can end at.
fn is_sequence_of_characters(forms: &[CharacterForm], input: &[u8]) -> bool {
    let mut ends_a_character = vec![false; input.len() + 1];
    ends_a_character[0] = true;
    for start in 0..input.len() {
        if !ends_a_character[start] {
            continue;
        }
        for form in forms {
            let fits = input.len() - start >= form.len()
                && form
                    .iter()
                    .zip(&input[start..])
                    .all(|(&(first, last), byte)| (first..=last).contains(byte));
            if fits {
                ends_a_character[start + form.len()] = true;
            }
        }
    }
    ends_a_character[input.len()]
}

#[test]
fn rfc3629_accepts_exactly_what_seed000_summary_describes() {
    let derivation = derive(&RFC3629);
    let tables = derivation.tables();
    let forms = parse_seed000_summary(SEED000_SUMMARY);
    // Cut the bytes wherever a range of the summary or a derived class starts
    // or ends. Within one piece, the summary's matcher cannot tell bytes apart
    // (no range boundary falls inside) and neither can the tables (they see
    // only classes), so strings over the pieces' first and last bytes stand
    // for every string of the same length: the check below is exhaustive up
    // to 4 bytes, not a sample.
    let mut ranges: Vec<(u8, u8)> = forms.iter().flatten().copied().collect();
    for class in tables.classes().ids() {
        ranges.extend(
            tables
                .classes()
                .ranges(class)
                .iter()
                .map(|r| (r.start(), r.end())),
        );
    }
    let cuts: BTreeSet<u16> = ranges
        .iter()
        .flat_map(|&(first, last)| [u16::from(first), u16::from(last) + 1])
        .chain([0, 256])
        .collect();
    let cuts: Vec<u16> = cuts.into_iter().collect();
    let alphabet: Vec<u8> = cuts
        .windows(2)
        .flat_map(|piece| [piece[0], piece[1] - 1])
        .map(|byte| u8::try_from(byte).expect("pieces lie within 0..=255"))
        .collect::<BTreeSet<u8>>()
        .into_iter()
        .collect();
    let mut input = Vec::with_capacity(4);
    let mut checked = 0usize;
    // Odometer over alphabet^length, for every length 0..=4.
    for length in 0..=4 {
        let mut digits = vec![0usize; length];
        loop {
            input.clear();
            input.extend(digits.iter().map(|&d| alphabet[d]));
            assert_eq!(
                tables.accepts(&input),
                is_sequence_of_characters(&forms, &input),
                "{input:02X?}: tables vs seed 000's summary"
            );
            checked += 1;
            let Some(position) = digits.iter().rposition(|&d| d + 1 < alphabet.len()) else {
                break;
            };
            digits[position] += 1;
            digits[position + 1..].fill(0);
        }
    }
    assert!(
        checked > alphabet.len().pow(4),
        "every string up to 4 bytes was checked"
    );
}

#[test]
fn rfc3629_is_seed000_state_diagram() {
    let derivation = derive(&RFC3629);
    let (names, diagram) = parse_seed000_diagram(SEED000_SUMMARY);
    let map = isomorphism(
        &Automaton::from_tables(derivation.tables()),
        &diagram,
        "rfc3629 vs seed 000's diagram",
    );
    assert_eq!(map.len(), names.len(), "{names:?}");
}

// ---------------------------------------------------------------------------
// Minimality and determinism of the derivation
// ---------------------------------------------------------------------------

/// Two states of one automaton, walked in step.
type StatePair = (u32, u32);

/// A shortest byte string that `p` and `q` disagree on, by a breadth-first
/// walk over pairs of states; `None` if they accept the same continuations.
fn distinguishing_string(dfa: &MinimalDfa, p: u32, q: u32) -> Option<Vec<u8>> {
    let mut came_from: HashMap<StatePair, Option<(StatePair, u8)>> =
        HashMap::from([((p, q), None)]);
    let mut queue = VecDeque::from([(p, q)]);
    while let Some(pair) = queue.pop_front() {
        if dfa.is_accepting(pair.0) != dfa.is_accepting(pair.1) {
            let mut witness = Vec::new();
            let mut at = pair;
            while let Some((previous, byte)) = came_from[&at] {
                witness.push(byte);
                at = previous;
            }
            witness.reverse();
            return Some(witness);
        }
        for byte in 0..=255u8 {
            let next = (dfa.next(pair.0, byte), dfa.next(pair.1, byte));
            came_from.entry(next).or_insert_with(|| {
                queue.push_back(next);
                Some((pair, byte))
            });
        }
    }
    None
}

#[test]
fn derived_automata_are_minimal_and_reachable() {
    for ruleset in [RFC3629, LEGACY31] {
        let derivation = derive(&ruleset);
        let dfa = derivation.minimal_dfa();
        let states = dfa.state_count() as u32;
        for p in 0..states {
            for q in p + 1..states {
                let witness = distinguishing_string(dfa, p, q).unwrap_or_else(|| {
                    panic!(
                        "{}: states {p} and {q} accept the same continuations",
                        ruleset.name
                    )
                });
                let run = |from: u32| {
                    witness
                        .iter()
                        .fold(from, |state, &byte| dfa.next(state, byte))
                };
                assert_ne!(
                    dfa.is_accepting(run(p)),
                    dfa.is_accepting(run(q)),
                    "{}: {witness:02X?} should separate {p} and {q}",
                    ruleset.name
                );
            }
        }
        let mut reached = vec![false; states as usize];
        let mut stack = vec![dfa.start()];
        while let Some(state) = stack.pop() {
            if !std::mem::replace(&mut reached[state as usize], true) {
                stack.extend((0..=255u8).map(|byte| dfa.next(state, byte)));
            }
        }
        let unreachable: Vec<usize> = (0..reached.len()).filter(|&s| !reached[s]).collect();
        assert!(
            unreachable.is_empty(),
            "{}: unreachable states {unreachable:?}",
            ruleset.name
        );
    }
}

#[test]
fn deriving_twice_gives_equal_tables() {
    for ruleset in [RFC3629, LEGACY31] {
        let (first, second) = (derive(&ruleset), derive(&ruleset));
        assert_eq!(
            first.minimal_dfa(),
            second.minimal_dfa(),
            "{}",
            ruleset.name
        );
        assert_eq!(first.tables(), second.tables(), "{}", ruleset.name);
    }
}

/// RFC 3629's grammar turned around: rules bottom-up, alternatives reversed,
/// `2( x )` spelled `x x` or `2x`, one rule split with `=/`, names in other
/// cases. The language is the same, so the tables must be too.
const RFC3629_REORDERED: &str = "\
utf8-TAIL   = %x80-BF
UTF8-4      = %xF4 %x80-8F UTF8-tail UTF8-tail / %xF1-F3 3UTF8-tail /
              %xF0 %x90-BF 2( UTF8-tail )
UTF8-3      = %xEE-EF 2UTF8-tail / %xED %x80-9F UTF8-tail /
              %xE1-EC UTF8-tail UTF8-tail / %xE0 %xA0-BF UTF8-tail
UTF8-2      = %xC2-DF UTF8-tail
UTF8-1      = %x00-7F
UTF8-char   = UTF8-4 / UTF8-3
UTF8-char   =/ utf8-2 / utf8-1
UTF8-octets = *( UTF8-char )
";

#[test]
fn rule_order_does_not_change_the_tables() {
    let original = derive(&RFC3629);
    let reordered = Derivation::new(RFC3629_REORDERED, "utf8-octets")
        .unwrap_or_else(|e| panic!("the reordered grammar must derive: {e}"));
    assert_eq!(original.tables(), reordered.tables());

    // And mechanically, for every built-in ruleset: the same rules, last first.
    for ruleset in [RFC3629, LEGACY31] {
        let rules = utf8_spec::abnf::parse(ruleset.abnf)
            .unwrap_or_else(|e| panic!("{}: {e}", ruleset.name));
        let reversed: String = rules.iter().rev().map(|rule| format!("{rule}\n")).collect();
        let derived = Derivation::new(&reversed, ruleset.start)
            .unwrap_or_else(|e| panic!("{} reversed: {e}\n{reversed}", ruleset.name));
        assert_eq!(
            derive(&ruleset).tables(),
            derived.tables(),
            "{}:\n{reversed}",
            ruleset.name
        );
    }
}

// ---------------------------------------------------------------------------
// The built-in text is the RFC's
// ---------------------------------------------------------------------------

#[test]
fn rfc3629_abnf_is_verbatim_from_the_rfc() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/reference/rfc3629.txt");
    let rfc = fs::read_to_string(path).unwrap_or_else(|e| panic!("{path} must exist: {e}"));
    let abnf = RFC3629.abnf;
    // The page break between pages 5 and 6 falls inside the grammar; keeping
    // it is what makes the text verbatim.
    for page_break_line in [
        "[Page 5]",
        "\u{c}",
        "RFC 3629                         UTF-8",
    ] {
        assert!(
            abnf.contains(page_break_line),
            "the ABNF keeps the page break line {page_break_line:?}"
        );
    }
    let found = rfc
        .find(abnf)
        .unwrap_or_else(|| panic!("the built-in ABNF is not a substring of {path}"));
    let section_4 = rfc
        .find("\n4.  Syntax of UTF-8 Byte Sequences\n")
        .expect("the RFC has section 4");
    let section_5 = rfc[section_4..]
        .find("\n5.  ")
        .map(|offset| section_4 + offset)
        .expect("the RFC has section 5");
    assert!(
        (section_4..section_5).contains(&found),
        "the ABNF is quoted from section 4 (found at byte {found})"
    );
}

// ---------------------------------------------------------------------------
// Every way Derivation::new fails
// ---------------------------------------------------------------------------

fn derivation_error(abnf: &str, start: &str) -> Error {
    match Derivation::new(abnf, start) {
        Ok(_) => panic!("{abnf:?} from {start:?} should not derive"),
        Err(error) => error,
    }
}

/// Checks the position, the `line L, column C:` prefix of the message, and
/// that the snippet quotes the line the position is on.
fn assert_at(error: &Error, source: &str, line: usize, column: usize) {
    assert_eq!(error.position(), Some(Position { line, column }), "{error}");
    let prefix = format!("line {line}, column {column}: ");
    assert!(
        error.to_string().starts_with(&prefix),
        "{error:?} should start with {prefix:?}"
    );
    let quoted = source
        .lines()
        .nth(line - 1)
        .expect("the position is inside the source");
    let snippet = error.snippet().expect("a positioned error has a snippet");
    assert_eq!(
        snippet.lines().next(),
        Some(format!("{line} | {quoted}").as_str())
    );
}

#[test]
fn syntax_errors_point_at_the_offending_token() {
    let source = "s = t\nt = %x41%x42\n";
    let error = derivation_error(source, "s");
    assert!(matches!(error.kind(), ErrorKind::Syntax(_)), "{error}");
    assert_at(&error, source, 2, 9);

    // RFC 5234: `repetition = [repeat] element`, no space between the two, so
    // `0*0 %x41` is a syntax error rather than an empty language.
    let source = "s = 0*0 %x41\n";
    let error = derivation_error(source, "s");
    assert!(matches!(error.kind(), ErrorKind::Syntax(_)), "{error}");
    assert_at(&error, source, 1, 9);
}

#[test]
fn undefined_rule_points_at_the_reference() {
    let source = "s = *( %x41 / b )\n";
    let error = derivation_error(source, "s");
    assert_eq!(error.kind(), &ErrorKind::UndefinedRule { name: "b".into() });
    assert_at(&error, source, 1, 15);

    // Indented as in an RFC, with the reference on a continuation line.
    let source = "   s = t\n   t = %x41 /\n       u\n";
    let error = derivation_error(source, "s");
    assert_eq!(error.kind(), &ErrorKind::UndefinedRule { name: "u".into() });
    assert_at(&error, source, 3, 8);
}

#[test]
fn duplicate_rule_points_at_the_second_definition() {
    let source = "s = t\nt = %x41\nT = %x42\n";
    let error = derivation_error(source, "s");
    assert_eq!(
        error.kind(),
        &ErrorKind::DuplicateRule {
            name: "T".into(),
            first: Position { line: 2, column: 1 },
        }
    );
    assert_at(&error, source, 3, 1);
}

#[test]
fn incremental_rule_before_its_definition() {
    let source = "s = t\nt =/ %x41\nt = %x42\n";
    let error = derivation_error(source, "s");
    assert_eq!(
        error.kind(),
        &ErrorKind::IncrementalWithoutRule { name: "t".into() }
    );
    assert_at(&error, source, 2, 1);
}

#[test]
fn recursion_points_at_the_reference_that_closes_the_cycle() {
    let source = "s = %x41 t %x43\nt = [ s ]\n";
    let error = derivation_error(source, "s");
    assert_eq!(
        error.kind(),
        &ErrorKind::Recursion {
            cycle: vec!["s".into(), "t".into(), "s".into()],
        }
    );
    assert_at(&error, source, 2, 7);

    let source = "s = %x41 / s %x42\n";
    let error = derivation_error(source, "s");
    assert_eq!(
        error.kind(),
        &ErrorKind::Recursion {
            cycle: vec!["s".into(), "s".into()],
        }
    );
    assert_at(&error, source, 1, 12);
}

#[test]
fn unknown_start_rule_has_no_position() {
    let error = derivation_error("s = %x41\nt = s\n", "u");
    assert_eq!(
        error.kind(),
        &ErrorKind::UnknownStartRule {
            name: "u".into(),
            defined: vec!["s".into(), "t".into()],
        }
    );
    assert_eq!(error.position(), None);
    assert!(
        error.to_string().starts_with("no rule named `u`"),
        "{error}"
    );
    assert_eq!(error.snippet(), None);
}

#[test]
fn a_language_of_only_the_empty_string_is_empty() {
    for source in ["s = 0%x41\n", "s = 0*0%x41\n", "s = *0( %x41 / %x42 )\n"] {
        let error = derivation_error(source, "s");
        assert_eq!(
            error.kind(),
            &ErrorKind::EmptyLanguage { start: "s".into() },
            "{source:?}"
        );
        assert_at(&error, source, 1, 1);
    }
    // The position is the start rule's definition, wherever it is.
    let source = "a = %x41\n  ; comment\nb = 0a\n";
    let error = derivation_error(source, "B");
    assert_eq!(
        error.kind(),
        &ErrorKind::EmptyLanguage { start: "b".into() }
    );
    assert_at(&error, source, 3, 1);
}

#[test]
fn values_above_255_are_refused_where_written() {
    // The caret under the number that is too large, echoed in its base.
    let cases = [
        ("s = %x41 %x100\n", 12, 0x100, "%x100"),
        ("s = %d256\n", 7, 256, "%d256"),
        ("s = %x00-1FF\n", 10, 0x1FF, "%x1FF"),
        ("s = %x41-100\n", 10, 0x100, "%x100"),
        ("s = %x41.100\n", 10, 0x100, "%x100"),
        ("s = %b100000000\n", 7, 256, "%b100000000"),
        ("s = %X99999999999\n", 7, u32::MAX, "%X99999999999"),
    ];
    for (source, column, value, written) in cases {
        let error = derivation_error(source, "s");
        let written = written.to_owned();
        assert_eq!(
            error.kind(),
            &ErrorKind::ValueTooLarge { value, written },
            "{source:?}"
        );
        assert_at(&error, source, 1, column);
    }
}

#[test]
fn reversed_range_is_refused_where_written() {
    let source = "s = %x41\n    / %x80-7F\n";
    let error = derivation_error(source, "s");
    assert_eq!(
        error.kind(),
        &ErrorKind::ReversedRange {
            start: 0x80,
            end: 0x7F
        }
    );
    assert_at(&error, source, 2, 7);
    assert!(
        error
            .to_string()
            .ends_with("range %x80-7F ends below its start"),
        "{error}"
    );
}
