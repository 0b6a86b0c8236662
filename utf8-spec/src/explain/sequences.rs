//! The byte sequences a language is made of, read off the automaton: every
//! path from the start to the first accepting state it meets.

use std::fmt;

use super::names::{range_text, row};
use crate::byte_range::runs;
use crate::{ByteRange, Tables};

/// How many sequences [`sequences`] lists before it stops.
pub const SEQUENCE_LIMIT: usize = 64;

/// One form of a unit of the language: one range of bytes per position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence(pub Vec<ByteRange>);

/// `E0 A0–BF 80–BF`.
impl fmt::Display for Sequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let steps: Vec<String> = self.0.iter().map(|&r| range_text(r)).collect();
        f.write_str(&steps.join(" "))
    }
}

/// The sequences of a language, as far as they were listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequences {
    /// The sequences found, in the order of their bytes.
    pub listed: Vec<Sequence>,
    /// True when there are more than [`SEQUENCE_LIMIT`] and the rest were not listed.
    pub truncated: bool,
    /// True when some path loops through a state it already passed before
    /// accepting, so those paths (infinitely many) are not listed.
    pub loops: bool,
}

/// Every path from the start of `tables` to the first accepting state it
/// meets, each step one run of consecutive bytes that lead to the same state.
///
/// For RFC 3629 these are the nine lines of the RFC's table of well-formed
/// sequences, `00–7F` to `F4 80–8F 80–BF 80–BF`.
pub fn sequences(tables: &Tables) -> Sequences {
    let mut found = Sequences {
        listed: Vec::new(),
        truncated: false,
        loops: false,
    };
    let mut on_path = vec![false; tables.state_count()];
    walk(
        tables,
        tables.start(),
        &mut Vec::new(),
        &mut on_path,
        &mut found,
    );
    found
}

fn walk(
    tables: &Tables,
    state: u8,
    path: &mut Vec<ByteRange>,
    on_path: &mut [bool],
    found: &mut Sequences,
) {
    on_path[state as usize] = true;
    for (range, target) in runs(&row(tables, state)) {
        if found.truncated {
            break;
        }
        if target == tables.dead() {
            continue;
        }
        path.push(range);
        if tables.accepting()[target as usize] {
            if found.listed.len() == SEQUENCE_LIMIT {
                found.truncated = true;
            } else {
                found.listed.push(Sequence(path.clone()));
            }
        } else if on_path[target as usize] {
            found.loops = true;
        } else {
            walk(tables, target, path, on_path, found);
        }
        path.pop();
    }
    on_path[state as usize] = false;
}
