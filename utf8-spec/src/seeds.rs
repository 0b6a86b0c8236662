//! Published UTF-8 automata as data, and the tools to hold a derivation
//! against them: readers for Onigmo's `enc/utf_8.c` `trans[][0x100]` and for
//! the tables of Frank Yung-Fong Tang's 2003 state-machine validator ("The
//! Algorithm to Validate an UTF-8 String"), and a search for the isomorphism
//! between two automata.
//!
//! The tables live in `tests/data/` as the text their sources print and are
//! read by program; nothing here is a number typed from them. Behind the
//! `seeds` feature: the tests and `xtask` use it, the derivation does not.

use std::collections::{BTreeSet, VecDeque};

use crate::Tables;

/// Onigmo's `enc/utf_8.c` `trans[][0x100]`, both builds, as transcribed.
pub const ONIGMO_TRANS: &str = include_str!("../tests/data/onigmo_utf_8.txt");
/// Tang's 2003 state-machine validator, as transcribed.
pub const SEED004_STATE_MACHINE: &str = include_str!("../tests/data/seed004_state_machine.txt");

// ---------------------------------------------------------------------------
// A common shape for every automaton, whatever its source's numbering
// ---------------------------------------------------------------------------

/// A complete deterministic automaton over bytes.
#[derive(Clone, Debug)]
pub struct Automaton {
    /// The next state, by state and byte.
    pub next: Vec<[usize; 256]>,
    /// Whether each state accepts.
    pub accepting: Vec<bool>,
    /// The start state.
    pub start: usize,
}

impl Automaton {
    /// The automaton that `tables` runs.
    pub fn from_tables(tables: &Tables) -> Automaton {
        Automaton {
            next: (0..tables.state_count())
                .map(|state| {
                    std::array::from_fn(|byte| tables.next(state as u8, byte as u8) as usize)
                })
                .collect(),
            accepting: tables.accepting().to_vec(),
            start: tables.start() as usize,
        }
    }

    /// The number of states.
    pub fn state_count(&self) -> usize {
        self.next.len()
    }

    /// Which states a walk from the start reaches.
    pub fn reachable(&self) -> Vec<bool> {
        let mut seen = vec![false; self.state_count()];
        let mut stack = vec![self.start];
        while let Some(state) = stack.pop() {
            if !std::mem::replace(&mut seen[state], true) {
                stack.extend(self.next[state].iter().copied());
            }
        }
        seen
    }
}

/// Pairs the states of `left` and `right` that a breadth-first walk from the
/// two start states reaches by the same byte strings, and checks that the
/// pairing is one-to-one and agrees on acceptance. `Ok(map)` gives, for each
/// state of `left`, its partner in `right` (`None` if `left` never reaches it).
pub fn pair_states(left: &Automaton, right: &Automaton) -> Result<Vec<Option<usize>>, String> {
    let mut left_to_right: Vec<Option<usize>> = vec![None; left.state_count()];
    let mut right_to_left: Vec<Option<usize>> = vec![None; right.state_count()];
    let mut queue = VecDeque::new();
    let mut pair = |l: usize,
                    r: usize,
                    queue: &mut VecDeque<(usize, usize)>|
     -> Result<(), String> {
        match (left_to_right[l], right_to_left[r]) {
            (Some(known), _) if known != r => Err(format!(
                "left state {l} is paired with right {known} and also with right {r}"
            )),
            (_, Some(known)) if known != l => Err(format!(
                "right state {r} is paired with left {known} and also with left {l}"
            )),
            (Some(_), Some(_)) => Ok(()),
            _ => {
                if left.accepting[l] != right.accepting[r] {
                    return Err(format!(
                        "left state {l} (accepting: {}) pairs with right state {r} (accepting: {})",
                        left.accepting[l], right.accepting[r]
                    ));
                }
                left_to_right[l] = Some(r);
                right_to_left[r] = Some(l);
                queue.push_back((l, r));
                Ok(())
            }
        }
    };
    pair(left.start, right.start, &mut queue)?;
    while let Some((l, r)) = queue.pop_front() {
        for byte in 0..256 {
            pair(left.next[l][byte], right.next[r][byte], &mut queue)
                .map_err(|e| format!("after byte {byte:#04X} from pair ({l}, {r}): {e}"))?;
        }
    }
    Ok(left_to_right)
}

/// The pairing of `left`'s states with `right`'s reachable states, or why
/// there is none: it must be a bijection, every state of `left` paired and
/// exactly the reachable states of `right`. `Ok(map)` gives, for each state
/// of `left`, its partner in `right`.
pub fn isomorphism(left: &Automaton, right: &Automaton) -> Result<Vec<usize>, String> {
    let map = pair_states(left, right).map_err(|e| format!("not isomorphic: {e}"))?;
    let map: Vec<usize> = map
        .iter()
        .enumerate()
        .map(|(state, partner)| partner.ok_or_else(|| format!("left state {state} is unreachable")))
        .collect::<Result<_, _>>()?;
    let image: BTreeSet<usize> = map.iter().copied().collect();
    let right_reachable: BTreeSet<usize> = right
        .reachable()
        .iter()
        .enumerate()
        .filter_map(|(state, &reached)| reached.then_some(state))
        .collect();
    if image != right_reachable {
        return Err(format!(
            "the pairing covers right states {image:?}, but the reachable ones are {right_reachable:?}"
        ));
    }
    Ok(map)
}

// ---------------------------------------------------------------------------
// Onigmo's trans[][0x100]
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// One entry of Onigmo's table.
pub enum OnigmoEntry {
    /// `A`: a whole character has been read.
    Accept,
    /// `F`: the input is not UTF-8.
    Failure,
    /// The next state, `Si`.
    Next(usize),
}

/// Both builds of Onigmo's table: without and with `USE_UTF8_31BITS`.
pub struct OnigmoTrans {
    /// The states without `USE_UTF8_31BITS`: S0..S7.
    pub default_build: Vec<[OnigmoEntry; 256]>,
    /// The states with `USE_UTF8_31BITS`: S0..S11.
    pub utf8_31bits_build: Vec<[OnigmoEntry; 256]>,
}

/// Reads the C text of `trans[][0x100]`, following the `USE_UTF8_31BITS`
/// conditionals so that each build gets the rows the preprocessor would give it.
pub fn parse_onigmo_trans(text: &str) -> OnigmoTrans {
    const DEFAULT: usize = 0;
    const BITS31: usize = 1;
    // Per build: the states read so far, each a list of rows of 16 entries.
    let mut builds: [Vec<Vec<Vec<OnigmoEntry>>>; 2] = [Vec::new(), Vec::new()];
    let mut active = [true, true];
    let mut inside_state = false;
    for (index, raw) in text.lines().enumerate() {
        let line_number = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        match line {
            "#ifndef USE_UTF8_31BITS" => active = [true, false],
            "#ifdef USE_UTF8_31BITS" => active = [false, true],
            "#else" => active = [!active[DEFAULT], !active[BITS31]],
            "#endif" => active = [true, true],
            "static const signed char trans[][0x100] = {" | "};" => {}
            _ if line.starts_with('#') => {
                panic!("onigmo_utf_8.txt line {line_number}: unknown directive {line:?}")
            }
            _ if line.starts_with("{ /* S") => {
                let number: usize = line["{ /* S".len()..]
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| {
                        panic!("onigmo_utf_8.txt line {line_number}: state header without a number")
                    });
                for build in 0..2 {
                    if active[build] {
                        assert_eq!(
                            builds[build].len(),
                            number,
                            "onigmo_utf_8.txt line {line_number}: states out of order"
                        );
                        builds[build].push(Vec::new());
                    }
                }
                inside_state = true;
            }
            "}," | "}" => inside_state = false,
            _ if line.starts_with("/*") => {
                assert!(
                    inside_state,
                    "onigmo_utf_8.txt line {line_number}: row outside a state"
                );
                let (label, entries) = line["/*".len()..].split_once("*/").unwrap_or_else(|| {
                    panic!("onigmo_utf_8.txt line {line_number}: unclosed row label")
                });
                let row = usize::from_str_radix(label.trim(), 16).unwrap_or_else(|_| {
                    panic!("onigmo_utf_8.txt line {line_number}: bad row label {label:?}")
                });
                let entries: Vec<OnigmoEntry> = entries
                    .split(',')
                    .map(str::trim)
                    .filter(|entry| !entry.is_empty())
                    .map(|entry| match entry {
                        "A" => OnigmoEntry::Accept,
                        "F" => OnigmoEntry::Failure,
                        number => OnigmoEntry::Next(number.parse().unwrap_or_else(|_| {
                            panic!("onigmo_utf_8.txt line {line_number}: bad entry {number:?}")
                        })),
                    })
                    .collect();
                assert_eq!(
                    entries.len(),
                    16,
                    "onigmo_utf_8.txt line {line_number}: a row holds 16 entries"
                );
                for build in 0..2 {
                    if active[build] {
                        let state = builds[build]
                            .last_mut()
                            .expect("a row follows its state's header");
                        assert_eq!(
                            state.len(),
                            row,
                            "onigmo_utf_8.txt line {line_number}: rows must come in order 0..f"
                        );
                        state.push(entries.clone());
                    }
                }
            }
            _ => panic!("onigmo_utf_8.txt line {line_number}: unexpected line {line:?}"),
        }
    }
    let [default_build, utf8_31bits_build] = builds.map(|states| {
        let count = states.len();
        states
            .into_iter()
            .enumerate()
            .map(|(number, rows)| {
                assert_eq!(
                    rows.len(),
                    16,
                    "onigmo_utf_8.txt: S{number} must have 16 rows"
                );
                let entries: Vec<OnigmoEntry> = rows.into_iter().flatten().collect();
                for entry in &entries {
                    if let OnigmoEntry::Next(target) = entry {
                        assert!(
                            *target < count,
                            "onigmo_utf_8.txt: S{number} -> missing S{target}"
                        );
                    }
                }
                <[OnigmoEntry; 256]>::try_from(entries).expect("16 rows of 16 entries")
            })
            .collect::<Vec<_>>()
    });
    OnigmoTrans {
        default_build,
        utf8_31bits_build,
    }
}

/// Onigmo's table as a validator of whole strings: ACCEPT means a character
/// is complete, so it goes back to S0, and S0 is the only accepting state;
/// FAILURE becomes a dead state after the last Si.
pub fn onigmo_automaton(states: &[[OnigmoEntry; 256]]) -> Automaton {
    let failure = states.len();
    let target = |entry: OnigmoEntry| match entry {
        OnigmoEntry::Accept => 0,
        OnigmoEntry::Failure => failure,
        OnigmoEntry::Next(state) => state,
    };
    let mut next: Vec<[usize; 256]> = states.iter().map(|row| row.map(target)).collect();
    next.push([failure; 256]);
    let mut accepting = vec![false; failure + 1];
    accepting[0] = true;
    Automaton {
        next,
        accepting,
        start: 0,
    }
}

/// Onigmo's names for the states of [`onigmo_automaton`]: `S0`.. and `F`.
pub fn onigmo_state_name(failure: usize) -> impl Fn(usize) -> String {
    move |state| {
        if state == failure {
            "F".to_owned()
        } else {
            format!("S{state}")
        }
    }
}

// ---------------------------------------------------------------------------
// Tang's 2003 state-machine validator
// ---------------------------------------------------------------------------

/// Tang's 2003 validator's tables, as its C text gives them.
pub struct Seed004 {
    /// The enumerators of `utf8_state`, in order, `kNumOfStates` left out.
    pub state_names: Vec<String>,
    /// The class of every byte.
    pub byte_class_table: [u8; 256],
    /// One entry per class and state: `state_table[class * state_count + state]`.
    pub state_table: Vec<usize>,
    /// The byte ranges each state_table row's comment names, by class.
    pub row_labels: Vec<Vec<(u8, u8)>>,
}

impl Seed004 {
    /// The number of states, kERROR included.
    pub fn state_count(&self) -> usize {
        self.state_names.len()
    }

    /// The number of byte classes.
    pub fn class_count(&self) -> usize {
        self.row_labels.len()
    }

    /// The number of the state called `name`.
    pub fn state(&self, name: &str) -> usize {
        self.state_names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("seed 004 has no state {name}"))
    }

    /// As `IsUTF8Text` runs it: accept iff the input ends in kSTART.
    pub fn automaton(&self) -> Automaton {
        let states = self.state_count();
        Automaton {
            next: (0..states)
                .map(|state| {
                    std::array::from_fn(|byte| {
                        self.state_table[self.byte_class_table[byte] as usize * states + state]
                    })
                })
                .collect(),
            accepting: (0..states)
                .map(|state| state == self.state("kSTART"))
                .collect(),
            start: self.state("kSTART"),
        }
    }
}

/// The lines strictly between the line equal to `opening` and the next `closing`.
fn c_block<'a>(text: &'a str, opening: &str, closing: &str) -> Vec<&'a str> {
    let mut lines = text.lines().map(str::trim);
    lines
        .by_ref()
        .find(|line| *line == opening)
        .unwrap_or_else(|| panic!("no line {opening:?}"));
    lines.take_while(|line| *line != closing).collect()
}

/// `0x80-0x8F`, `0xe0`, `0x80-BF`: a byte or an inclusive range, `0x` optional on each end.
pub fn parse_byte_range(token: &str) -> (u8, u8) {
    let byte = |hex: &str| {
        let digits = hex.trim().trim_start_matches("0x").trim_start_matches("0X");
        u8::from_str_radix(digits, 16).unwrap_or_else(|_| panic!("{hex:?} is not a hex byte"))
    };
    match token.split_once('-') {
        Some((first, last)) => (byte(first), byte(last)),
        None => (byte(token), byte(token)),
    }
}

/// Splits `/* label */ values` into the label and the comma-separated values.
fn labelled_row(line: &str) -> Option<(&str, Vec<&str>)> {
    let (label, values) = line.strip_prefix("/*")?.split_once("*/")?;
    let values: Vec<&str> = values
        .split(',')
        .map(str::trim)
        .filter(|value| !value.is_empty())
        .collect();
    Some((label.trim(), values))
}

/// Reads Tang's 2003 validator's C text: the enum of states,
/// `byte_class_table` and the class-major `state_table`, checking their
/// shapes.
pub fn parse_seed004(text: &str) -> Seed004 {
    let enum_lines = c_block(text, "typedef enum {", "} utf8_state;");
    let mut state_names: Vec<String> = Vec::new();
    for line in enum_lines {
        let name = line.trim_end_matches(',');
        if let Some((name, value)) = name.split_once('=') {
            assert_eq!(
                (state_names.len(), value.trim()),
                (0, "0"),
                "seed 004: only the first enumerator has a value, 0"
            );
            state_names.push(name.trim().to_owned());
        } else {
            state_names.push(name.to_owned());
        }
    }
    // C numbers the rest consecutively; kNumOfStates is the count, not a state.
    assert_eq!(
        state_names.pop().as_deref(),
        Some("kNumOfStates"),
        "seed 004: the enum ends with kNumOfStates"
    );

    let mut byte_class_table = [0u8; 256];
    let class_rows: Vec<(&str, Vec<&str>)> =
        c_block(text, "static int byte_class_table[256] =", "};")
            .into_iter()
            .filter_map(labelled_row)
            // The column-header comments carry no values.
            .filter(|(_, values)| !values.is_empty())
            .collect();
    assert_eq!(
        class_rows.len(),
        16,
        "seed 004: byte_class_table has 16 rows"
    );
    for (row, (label, values)) in class_rows.iter().enumerate() {
        assert_eq!(
            u8::from_str_radix(label, 16).ok(),
            Some(row as u8 * 16),
            "seed 004: byte_class_table row {row} is labelled {label:?}"
        );
        assert_eq!(
            values.len(),
            16,
            "seed 004: byte_class_table row {label} has 16 entries"
        );
        for (column, value) in values.iter().enumerate() {
            byte_class_table[row * 16 + column] = value
                .parse()
                .unwrap_or_else(|_| panic!("seed 004: class {value:?} in row {label}"));
        }
    }

    let mut state_table = Vec::new();
    let mut row_labels = Vec::new();
    let state_rows: Vec<(&str, Vec<&str>)> =
        c_block(text, "static utf8_state state_table[] = {", "};")
            .into_iter()
            .filter_map(labelled_row)
            .filter(|(_, values)| !values.is_empty())
            .collect();
    assert_eq!(
        state_rows.len(),
        12,
        "seed 004: state_table has one row per class, 12"
    );
    for (class, (label, values)) in state_rows.iter().enumerate() {
        let (ranges, number) = label
            .rsplit_once(':')
            .unwrap_or_else(|| panic!("seed 004: row label {label:?} has no `: class`"));
        assert_eq!(
            number.trim().parse::<usize>().ok(),
            Some(class),
            "seed 004: state_table rows come in class order"
        );
        row_labels.push(ranges.split(',').map(parse_byte_range).collect());
        assert_eq!(
            values.len(),
            state_names.len(),
            "seed 004: state_table row {label:?} has one entry per state"
        );
        for name in values {
            let state = state_names
                .iter()
                .position(|n| n == name)
                .unwrap_or_else(|| panic!("seed 004: unknown state {name} in row {label:?}"));
            state_table.push(state);
        }
    }
    Seed004 {
        state_names,
        byte_class_table,
        state_table,
        row_labels,
    }
}
