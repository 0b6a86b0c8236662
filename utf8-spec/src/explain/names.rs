//! Names for the states of the minimal automaton, computed from its
//! transitions: what a state has seen and what it still allows.

use std::collections::HashMap;

use crate::byte_range::runs;
use crate::walk::shortest_paths;
use crate::{ByteRange, Tables};

/// What a state of the minimal automaton is, found from the automaton alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateRole {
    /// The start state.
    Start {
        /// Whether the empty input is accepted, so that the start sits between
        /// whole characters.
        accepting: bool,
    },
    /// The state from which nothing is accepted any more.
    Dead,
    /// A state whose live bytes are exactly the tail range, each leading on
    /// to the state with one tail fewer, so that every path to acceptance has
    /// the same length.
    TailsLeft {
        /// How many bytes every path to acceptance takes.
        count: usize,
        /// The bytes each of them may be.
        tail: Vec<ByteRange>,
    },
    /// Any other state, described by the shortest input that reaches it.
    After {
        /// The shortest path from the start, one run of equivalent bytes a step.
        path: Vec<ByteRange>,
        /// The bytes that do not lead to the dead state.
        next: Vec<ByteRange>,
        /// Whether the input may end here.
        accepting: bool,
    },
}

/// The role of every state of `tables`, indexed by state.
pub fn state_roles(tables: &Tables) -> Vec<StateRole> {
    roles_on_paths(tables, &shortest_paths(tables))
}

/// [`state_roles`], the shortest input to each state given.
fn roles_on_paths(tables: &Tables, paths: &[Option<Vec<ByteRange>>]) -> Vec<StateRole> {
    let dead = tables.dead();
    // What a state allows is one set of bytes, wherever they lead: adjacent
    // runs into different states print as one range.
    let live = |state: u8| -> Vec<ByteRange> {
        let mut allowed: Vec<ByteRange> = Vec::new();
        for (range, target) in runs(&row(tables, state)) {
            if target == dead {
                continue;
            }
            match allowed.last_mut() {
                Some(last) if u16::from(last.end()) + 1 == u16::from(range.start()) => {
                    *last = ByteRange::new(last.start(), range.end());
                }
                _ => allowed.push(range),
            }
        }
        allowed
    };
    let countdowns = countdowns(tables);
    tables
        .states()
        .map(|state| {
            if state == tables.start() {
                StateRole::Start {
                    accepting: tables.accepting()[state as usize],
                }
            } else if state == dead {
                StateRole::Dead
            } else if let Some((count, tail)) = &countdowns[state as usize] {
                StateRole::TailsLeft {
                    count: *count,
                    tail: tail.clone(),
                }
            } else {
                StateRole::After {
                    path: paths[state as usize].clone().unwrap_or_default(),
                    next: live(state),
                    accepting: tables.accepting()[state as usize],
                }
            }
        })
        .collect()
}

/// A unique, self-explaining name for every state of `tables`, indexed by
/// state: `start: between characters`, `error`, `2 tails left (80–BF)`,
/// `after E0: A0–BF`.
pub fn state_names(tables: &Tables) -> Vec<String> {
    let paths = shortest_paths(tables);
    let roles = roles_on_paths(tables, &paths);
    let mut names: Vec<String> = roles.iter().map(role_name).collect();
    // Two countdowns of one length and range can differ in where they end;
    // their shortest inputs tell them apart, and the state number settles the rest.
    let mut uses = Uses::of(&names);
    for state in 0..names.len() {
        if uses.repeated(&names[state]) {
            let colliding: Vec<usize> = (0..names.len())
                .filter(|&other| names[other] == names[state])
                .collect();
            for other in colliding {
                if let Some(path) = &paths[other] {
                    let renamed = format!("{} via {}", names[other], path_text(path));
                    uses.rename(&mut names[other], renamed);
                }
            }
        }
    }
    for (state, name) in names.iter_mut().enumerate() {
        if uses.repeated(name) {
            let renamed = format!("{name} #{state}");
            uses.rename(name, renamed);
        }
    }
    names
}

/// How many states bear each name: kept as names change, so that finding
/// the repeated ones takes a look-up a state rather than a pass over all.
struct Uses(HashMap<String, usize>);

impl Uses {
    fn of(names: &[String]) -> Uses {
        let mut uses = HashMap::new();
        for name in names {
            *uses.entry(name.clone()).or_default() += 1;
        }
        Uses(uses)
    }

    fn repeated(&self, name: &str) -> bool {
        self.0.get(name).is_some_and(|&n| n > 1)
    }

    fn rename(&mut self, name: &mut String, renamed: String) {
        if let Some(n) = self.0.get_mut(name.as_str()) {
            *n -= 1;
        }
        *self.0.entry(renamed.clone()).or_default() += 1;
        *name = renamed;
    }
}

fn role_name(role: &StateRole) -> String {
    match role {
        StateRole::Start { accepting: true } => "start: between characters".to_owned(),
        StateRole::Start { accepting: false } => "start".to_owned(),
        StateRole::Dead => "error".to_owned(),
        StateRole::TailsLeft { count, tail } => format!(
            "{count} {} left ({})",
            if *count == 1 { "tail" } else { "tails" },
            ranges_text(tail)
        ),
        StateRole::After {
            path,
            next,
            accepting,
        } => {
            let allowed = if next.is_empty() {
                "end".to_owned()
            } else {
                ranges_text(next)
            };
            let end = if *accepting && !next.is_empty() {
                " or end"
            } else {
                ""
            };
            format!("after {}: {allowed}{end}", path_text(path))
        }
    }
}

/// What every input that reaches a state with this role has in common, in
/// words that complete "the inputs ...": the reason states merge.
pub(crate) fn role_reason(
    role: &StateRole,
    names: &[String],
    tables: &Tables,
    state: u8,
) -> String {
    match role {
        StateRole::Start { accepting: true } => {
            "end between characters: they accept, and continue exactly as the start does".to_owned()
        }
        StateRole::Start { accepting: false } => "continue exactly as the start does".to_owned(),
        StateRole::Dead => "can never be completed: no continuation is accepted".to_owned(),
        StateRole::TailsLeft { count, tail } => format!(
            "need exactly {} more {} in {}",
            number_word(*count),
            if *count == 1 { "byte" } else { "bytes" },
            ranges_text(tail)
        ),
        StateRole::After { accepting, .. } => {
            let dead = tables.dead();
            let mut by_target: Vec<(u8, Vec<ByteRange>)> = Vec::new();
            for (range, target) in runs(&row(tables, state)) {
                if target == dead {
                    continue;
                }
                match by_target.iter_mut().find(|(t, _)| *t == target) {
                    Some((_, ranges)) => ranges.push(range),
                    None => by_target.push((target, vec![range])),
                }
            }
            let moves: Vec<String> = by_target
                .iter()
                .map(|(target, ranges)| {
                    format!(
                        "{} into \"{}\"",
                        ranges_text(ranges),
                        names[*target as usize]
                    )
                })
                .collect();
            let mut reason = if moves.is_empty() {
                "allow no further byte".to_owned()
            } else {
                format!("allow next only {}", moves.join(", "))
            };
            if *accepting {
                reason.push_str(", and may end here");
            }
            reason
        }
    }
}

fn number_word(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| (*w).to_owned())
}

/// For each state that counts down tails: how many are left and their range.
///
/// A state counts down when its live bytes all lead to one state, and that
/// state either accepts (one tail left) or counts down with the same range.
/// Such chains are what RFC 3629 calls `UTF8-tail`, found without its name.
fn countdowns(tables: &Tables) -> Vec<Option<(usize, Vec<ByteRange>)>> {
    let state_count = tables.state_count();
    let dead = tables.dead();
    let single_target = |state: u8| -> Option<(u8, Vec<ByteRange>)> {
        let live: Vec<(ByteRange, u8)> = runs(&row(tables, state))
            .into_iter()
            .filter(|&(_, target)| target != dead)
            .collect();
        let target = live.first()?.1;
        live.iter()
            .all(|&(_, t)| t == target)
            .then(|| (target, live.iter().map(|&(r, _)| r).collect()))
    };
    // Taken once: a pass below may resolve one state only (a chain whose
    // states are numbered against its direction), and a row costs 256 steps.
    let single_targets: Vec<Option<(u8, Vec<ByteRange>)>> = tables
        .states()
        .map(|state| {
            let counts_down =
                state != dead && state != tables.start() && !tables.accepting()[state as usize];
            counts_down.then(|| single_target(state)).flatten()
        })
        .collect();
    let mut result: Vec<Option<(usize, Vec<ByteRange>)>> = vec![None; state_count];
    // Each pass extends the chains by one; a chain is at most as long as the automaton.
    for _ in 0..state_count {
        let mut changed = false;
        for state in tables.states() {
            if result[state as usize].is_some() {
                continue;
            }
            let Some((target, tail)) = single_targets[state as usize].clone() else {
                continue;
            };
            let found = if tables.accepting()[target as usize] {
                Some((1, tail))
            } else {
                match &result[target as usize] {
                    Some((count, next_tail)) if *next_tail == tail => Some((count + 1, tail)),
                    _ => None,
                }
            };
            if found.is_some() {
                result[state as usize] = found;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    result
}

/// The row of `state` as 256 targets.
pub(crate) fn row(tables: &Tables, state: u8) -> [u8; 256] {
    std::array::from_fn(|byte| tables.next(state, byte as u8))
}

/// `E0`, `80–BF`: one range the way the explanations print bytes.
pub fn range_text(range: ByteRange) -> String {
    if range.start() == range.end() {
        format!("{:02X}", range.start())
    } else {
        format!("{:02X}–{:02X}", range.start(), range.end())
    }
}

/// `C0–C1, F5–FF`: several ranges.
pub fn ranges_text(ranges: &[ByteRange]) -> String {
    ranges
        .iter()
        .map(|&r| range_text(r))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `E0 A0–BF`: the steps of a path, or `the empty input`.
pub fn path_text(path: &[ByteRange]) -> String {
    if path.is_empty() {
        "the empty input".to_owned()
    } else {
        path.iter()
            .map(|&r| range_text(r))
            .collect::<Vec<_>>()
            .join(" ")
    }
}
