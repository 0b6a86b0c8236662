//! `utf8-spec`'s derivation of ABNF text the fuzzer writes:
//!
//! - parsing and deriving never panic, and an error formats;
//! - an accepted grammar renders through every `explain` form (each
//!   `Format`, each stage in each `StageFormat`, each `emit` language), and
//!   the JSON forms parse as JSON;
//! - its `Tables`, minimal DFA and DFA agree with a walk of its NFA written
//!   here, on every prefix of every probe string.
//!
//! The input is the ABNF text, then (optionally) a NUL byte, a byte that
//! picks the start rule, a byte that picks the forms to render and the
//! probes. NUL cannot stand in ABNF, so the text is everything before it,
//! and an ABNF file on its own is a complete input (start rule: the first
//! defined, forms: the grammar stage's, probes: none). The rule byte
//! indexes `Grammar::rules()` modulo one more than their number, the extra
//! one being a name no grammar defines. The form byte, modulo 7, picks a
//! stage to render in every `StageFormat`, or (6) every `Format`: all of
//! them for every input would take most of the second an input has (the
//! instrumented build runs them about thirty times slower than a release
//! build), and the fuzzer reaches each through the byte.
//!
//! The probes are pieces, each a header byte and its bytes: a header below
//! 0x80 is followed by that many bytes, taken as they are; one from 0x80
//! is followed by `header - 0x80` choice bytes, each choosing the next byte
//! among those the NFA can read there, which reaches the accepted strings
//! that random bytes rarely hit. 0x7F and 0xFF take the rest of the input,
//! so that one piece can be longer than 127 bytes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use utf8_spec::explain::{self, Emit, Format, Stage, StageFormat};
use utf8_spec::{Derivation, Grammar, Limits, MinimalDfa, Nfa};

/// Bounds the NFA walk's work (states visited, summed over every byte of
/// every probe): it steps through every state of the set a byte, and a
/// grammar's NFA may have up to 50,000 states (`LIMITS`), so without a bound the
/// walk itself, not the library, would pass the time limit.
const WALK_BUDGET: usize = 1 << 21;

/// The stack the derivation runs on: what `std::thread::spawn` gives a
/// thread. The main thread's 8 MiB, with AddressSanitizer's frames (about
/// 1.8 KiB a level of ABNF nesting), would hold a nesting deeper than a
/// 4 KiB input can write, so a parser that recurses without bound would
/// never overflow here; 2 MiB overflows at about 1,600 levels, which a
/// program that derives a spec on a thread of its own may meet.
const STACK: usize = 2 << 20;

/// The derivation's limits here: a twentieth of the defaults' NFA states,
/// an eighth of their DFA states, a 256th of their subset work. At the
/// defaults a grammar can ask for work that takes a tenth of a second or
/// more to refuse in a release build, which the instrumented build takes 20
/// to 50 times as long over, past the second an input has (993,333 copies
/// of `%x41.3` did, before the NFA was counted ahead of its construction).
/// At these, the slowest inputs tried (a chain at the NFA limit, a subset
/// construction at its work limit) take under 0.3 s there. The defaults'
/// edges are tested in `utf8-spec/tests/limits.rs`.
const LIMITS: Limits = Limits {
    nfa_states: 50_000,
    dfa_states: 2_048,
    subset_work: 1 << 16,
};

/// The most DFA states of a grammar whose report and stages are rendered
/// (see `explain`).
const RENDERED_UP_TO: usize = 128;

fuzz_target!(|data: &[u8]| {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(scope, || check(data))
            .expect("a thread to derive on")
            .join()
            .expect("libFuzzer's panic hook aborts before a panic gets here");
    });
});

fn check(data: &[u8]) {
    let (text, rest) = match data.iter().position(|&b| b == 0) {
        Some(nul) => (&data[..nul], &data[nul + 1..]),
        None => (data, &[][..]),
    };
    // As the command and the macro read a spec file: bytes that are not
    // UTF-8 are an error at their place, which must format.
    let abnf = match utf8_spec::abnf::text(text) {
        Ok(abnf) => abnf,
        Err(error) => {
            let _ = format!("{error} {:?}", error.snippet());
            return;
        }
    };
    let (&pick, rest) = rest.split_first().unwrap_or((&0, &[]));
    let (&form, probes) = rest.split_first().unwrap_or((&0, &[]));

    let grammar = match Grammar::parse(abnf) {
        Ok(grammar) => grammar,
        Err(error) => {
            let _ = format!("{error} {error:?}");
            return;
        }
    };
    let rules = grammar.rules();
    let start = match rules.get(usize::from(pick) % (rules.len() + 1)) {
        Some(rule) => rule.name.as_str(),
        None => "no-such-rule",
    };
    let derivation = match Derivation::within(abnf, start, LIMITS) {
        Ok(derivation) => derivation,
        Err(error) => {
            let _ = format!("{error} {error:?}");
            return;
        }
    };

    check_tables(&derivation);
    let nfa = derivation.nfa();
    let mut walk = NfaWalk::new(nfa);
    let mut start = walk.start();
    start.sort_unstable();
    assert_eq!(
        start,
        nfa.epsilon_closure(&[nfa.start()]),
        "the start state's ε-closure"
    );
    let live = live_states(derivation.minimal_dfa());
    let budget = WALK_BUDGET / nfa.states().len().max(1);
    for probe in pieces(probes, budget, &mut walk) {
        agree(&derivation, &mut walk, &live, &probe);
    }
    // The empty string, which no probe may have covered.
    agree(&derivation, &mut walk, &live, &[]);
    explain(&derivation, form);
}

/// The forms `form` picks (see the module's doc), and the tables in every
/// `emit` language.
fn explain(derivation: &Derivation, form: u8) {
    let stages = [
        Stage::Grammar,
        Stage::Nfa,
        Stage::Dfa,
        Stage::Rounds,
        Stage::Minimal,
        Stage::Classes,
    ];
    // The report and the stages grow with the square of the states (a row
    // a state of each round, each with its shortest input); past 128 DFA
    // states the instrumented build takes more than the second an input
    // has to write one stage in six forms. The tables' emitters, below, run
    // on every grammar; `utf8-spec/tests/limits.rs` renders every form at
    // 255 and 256 states.
    if derivation.dfa().state_count() <= RENDERED_UP_TO {
        match stages.get(usize::from(form % 7)) {
            Some(&stage) => render_stage(derivation, stage),
            None => {
                for format in [Format::Text, Format::Markdown, Format::Mermaid, Format::Dot] {
                    let _ = explain::render(derivation, format);
                }
            }
        }
    }
    let tables = derivation.tables();
    for language in [Emit::Rust, Emit::C, Emit::Json] {
        let out = explain::emit(tables, language);
        if language == Emit::Json {
            json(&out, "emit");
        }
    }
    // The rest of `explain` runs within these calls: the report calls
    // `sequences` and `byte_class_grid`, `render_stage` runs `is_drawn`'s
    // test, and the formats `Mermaid` and `Dot` are `mermaid` and `dot`.
    let names = explain::state_names(tables);
    assert_eq!(names.len(), tables.state_count());
}

fn render_stage(derivation: &Derivation, stage: Stage) {
    let formats = [
        StageFormat::Text,
        StageFormat::Markdown,
        StageFormat::Mermaid,
        StageFormat::Dot,
        StageFormat::Svg,
        StageFormat::Json,
    ];
    for format in formats {
        match explain::render_stage(derivation, stage, format) {
            Ok(out) if format == StageFormat::Json => json(&out, stage.name()),
            Ok(_) => {}
            // The documented refusals: the grammar is no graph, the
            // classes are a grid drawn only as SVG.
            Err(refused) => {
                let _ = refused.to_string();
                let documented = matches!(
                    (stage, format),
                    (
                        Stage::Grammar,
                        StageFormat::Mermaid | StageFormat::Dot | StageFormat::Svg
                    ) | (Stage::Classes, StageFormat::Mermaid | StageFormat::Dot)
                );
                assert!(documented, "{stage:?} refused {format:?}");
            }
        }
    }
}

fn json(text: &str, what: &str) {
    if let Err(error) = serde_json::from_str::<serde_json::Value>(text) {
        panic!("{what}: the JSON does not parse: {error}\n{text}");
    }
}

/// What the tables say of themselves, against each other.
fn check_tables(derivation: &Derivation) {
    let tables = derivation.tables();
    let states = tables.state_count();
    assert_eq!(states, derivation.minimal_dfa().state_count());
    assert_eq!(tables.accepting().len(), states);
    assert_eq!(tables.transitions().len(), states * tables.class_count());
    let accepting: Vec<usize> = (0..states).filter(|&s| tables.accepting()[s]).collect();
    let listed: Vec<usize> = tables
        .accepting_states()
        .into_iter()
        .map(usize::from)
        .collect();
    assert_eq!(listed, accepting, "accepting_states() against accepting()");
    let dead = tables.dead();
    assert_eq!(usize::from(dead), states - 1, "the dead state is the last");
    assert!(!tables.accepting()[usize::from(dead)]);
    for byte in 0..=255u8 {
        assert_eq!(tables.next(dead, byte), dead, "the dead state is left");
        assert_eq!(
            tables.classes().class(byte),
            tables.byte_classes()[usize::from(byte)]
        );
        assert!(usize::from(tables.classes().class(byte)) < tables.class_count());
    }
}

/// A set-of-states walk of the NFA, with its own ε-closure: what the
/// subset construction computes once for all inputs, done here an input at
/// a time.
struct NfaWalk<'n> {
    nfa: &'n Nfa,
    /// Marks for the closure, all false between steps.
    seen: Vec<bool>,
}

impl<'n> NfaWalk<'n> {
    fn new(nfa: &'n Nfa) -> NfaWalk<'n> {
        NfaWalk {
            nfa,
            seen: vec![false; nfa.states().len()],
        }
    }

    fn start(&mut self) -> Vec<u32> {
        self.closure(vec![self.nfa.start()])
    }

    fn closure(&mut self, mut stack: Vec<u32>) -> Vec<u32> {
        let mut set = Vec::new();
        while let Some(state) = stack.pop() {
            if std::mem::replace(&mut self.seen[state as usize], true) {
                continue;
            }
            set.push(state);
            stack.extend(&self.nfa.states()[state as usize].epsilon);
        }
        for &state in &set {
            self.seen[state as usize] = false;
        }
        set
    }

    fn step(&mut self, set: &[u32], byte: u8) -> Vec<u32> {
        let mut targets = Vec::new();
        for &state in set {
            for &(range, target) in &self.nfa.states()[state as usize].transitions {
                if range.contains(byte) {
                    targets.push(target);
                }
            }
        }
        self.closure(targets)
    }

    fn accepts(&self, set: &[u32]) -> bool {
        set.contains(&self.nfa.accept())
    }
}

/// The probe strings of `probes` (see the module's doc), the guided ones
/// generated by `walk`, `budget` bytes in all.
fn pieces(mut probes: &[u8], mut budget: usize, walk: &mut NfaWalk<'_>) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while budget > 0
        && let Some((&header, rest)) = probes.split_first()
    {
        let len = match header & 0x7F {
            0x7F => rest.len(),
            len => usize::from(len).min(rest.len()),
        }
        .min(budget);
        budget -= len;
        let (bytes, tail) = rest.split_at(len);
        probes = tail;
        if header < 0x80 {
            out.push(bytes.to_vec());
        } else {
            out.push(guided(walk, bytes));
        }
    }
    out
}

/// A string the NFA can read: each choice picks one of the byte-range
/// moves out of the current set, and a byte within the range.
fn guided(walk: &mut NfaWalk<'_>, choices: &[u8]) -> Vec<u8> {
    let mut set = walk.start();
    let mut out = Vec::new();
    for &choice in choices {
        set.sort_unstable();
        let moves: Vec<_> = set
            .iter()
            .flat_map(|&s| walk.nfa.states()[s as usize].transitions.iter())
            .map(|&(range, _)| range)
            .collect();
        if moves.is_empty() {
            break;
        }
        let choice = usize::from(choice);
        let range = moves[choice % moves.len()];
        let byte = range.start() + ((choice / moves.len()) % range.len()) as u8;
        out.push(byte);
        set = walk.step(&set, byte);
    }
    out
}

/// The NFA walk, the DFA, the minimal DFA and the tables on every prefix
/// of `probe`, and `Tables::accepts` and `run` on the whole.
fn agree(derivation: &Derivation, walk: &mut NfaWalk<'_>, live: &[bool], probe: &[u8]) {
    let (dfa, minimal, tables) = (
        derivation.dfa(),
        derivation.minimal_dfa(),
        derivation.tables(),
    );
    let mut set = walk.start();
    let (mut d, mut m, mut t) = (dfa.start(), minimal.start(), tables.start());
    for i in 0..=probe.len() {
        let nfa_accepts = walk.accepts(&set);
        let prefix = &probe[..i];
        assert_eq!(
            dfa.is_accepting(d),
            nfa_accepts,
            "DFA against the NFA on {prefix:02X?}"
        );
        assert_eq!(
            minimal.is_accepting(m),
            nfa_accepts,
            "minimal DFA against the NFA on {prefix:02X?}"
        );
        assert_eq!(
            tables.accepting()[usize::from(t)],
            nfa_accepts,
            "tables against the NFA on {prefix:02X?}"
        );
        // Minimal: one state, the last, for every input that no continuation
        // makes acceptable, and where the NFA has no state left it is there.
        assert_eq!(
            m == minimal.dead(),
            !live[m as usize],
            "the minimal DFA's dead state on {prefix:02X?}"
        );
        assert!(
            !set.is_empty() || m == minimal.dead(),
            "the NFA has no state left but the minimal DFA is live on {prefix:02X?}"
        );
        if let Some(&byte) = probe.get(i) {
            set = walk.step(&set, byte);
            d = dfa.next(d, byte);
            m = minimal.next(m, byte);
            t = tables.next(t, byte);
        }
    }
    assert_eq!(tables.run(probe), t, "Tables::run on {probe:02X?}");
    assert_eq!(
        tables.accepts(probe),
        walk.accepts(&set),
        "Tables::accepts against the NFA on {probe:02X?}"
    );
}

/// For each state of the minimal DFA, whether some input leads from it to
/// acceptance.
fn live_states(minimal: &MinimalDfa) -> Vec<bool> {
    let count = minimal.state_count();
    let mut sources: Vec<Vec<u32>> = vec![Vec::new(); count];
    for state in 0..count as u32 {
        for &target in minimal.row(state) {
            sources[target as usize].push(state);
        }
    }
    let mut live = vec![false; count];
    let mut stack: Vec<u32> = (0..count as u32)
        .filter(|&s| minimal.is_accepting(s))
        .collect();
    while let Some(state) = stack.pop() {
        if std::mem::replace(&mut live[state as usize], true) {
            continue;
        }
        stack.extend(&sources[state as usize]);
    }
    live
}
