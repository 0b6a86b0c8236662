//! Minimal DFA + byte classes → the tables a validator runs on.

use std::fmt;

use crate::dfa::StateId;
use crate::error::{Error, ErrorKind};
use crate::{ByteClasses, MinimalDfa};

/// The most states a table can hold: state ids are stored as `u8`.
pub const MAX_TABLE_STATES: usize = 256;

/// The validator's tables: byte → class, and state × class → state.
///
/// State 0 is the start state and the last state is the dead state (see
/// [`MinimalDfa`] for the numbering). `transitions` is row-major by state:
/// the state after reading a byte of class `c` in state `s` is
/// `transitions[s * class_count + c]`.
#[derive(Clone, PartialEq, Eq)]
pub struct Tables {
    classes: ByteClasses,
    state_count: usize,
    transitions: Vec<u8>,
    accepting: Vec<bool>,
}

impl Tables {
    /// Lays out `dfa` over `classes`.
    pub fn new(dfa: &MinimalDfa, classes: &ByteClasses) -> Result<Tables, Error> {
        let state_count = dfa.state_count();
        if state_count > MAX_TABLE_STATES {
            return Err(Error::new(ErrorKind::TooLarge {
                what: format!("the minimal automaton's state count ({state_count})"),
                limit: MAX_TABLE_STATES,
            }));
        }
        let mut transitions = Vec::with_capacity(state_count * classes.count());
        for state in 0..state_count as StateId {
            for class in classes.ids() {
                let target = dfa.next(state, classes.representative(class));
                transitions.push(u8::try_from(target).expect("at most 256 states"));
            }
        }
        Ok(Tables {
            classes: classes.clone(),
            state_count,
            transitions,
            accepting: (0..state_count as StateId)
                .map(|s| dfa.is_accepting(s))
                .collect(),
        })
    }

    /// The number of states, the dead state included.
    pub fn state_count(&self) -> usize {
        self.state_count
    }

    /// Every state id, ascending: `0..state_count()` as `u8`s. A table may
    /// hold 256 states, whose count does not fit in a `u8`; iterating over
    /// this instead of `0..state_count() as u8` (an empty range at 256) keeps
    /// the last state from being dropped.
    pub fn states(&self) -> impl Iterator<Item = u8> + Clone + use<> {
        ids(self.state_count)
    }

    /// The number of byte classes.
    pub fn class_count(&self) -> usize {
        self.classes.count()
    }

    /// The byte classes.
    pub fn classes(&self) -> &ByteClasses {
        &self.classes
    }

    /// Byte → class.
    pub fn byte_classes(&self) -> &[u8; 256] {
        self.classes.map()
    }

    /// State × class → state, row-major by state.
    pub fn transitions(&self) -> &[u8] {
        &self.transitions
    }

    /// The start state (0).
    pub fn start(&self) -> u8 {
        0
    }

    /// The dead state (the last).
    pub fn dead(&self) -> u8 {
        (self.state_count - 1) as u8
    }

    /// Whether each state accepts, indexed by state.
    pub fn accepting(&self) -> &[bool] {
        &self.accepting
    }

    /// The accepting states, ascending.
    pub fn accepting_states(&self) -> Vec<u8> {
        self.states()
            .filter(|&s| self.accepting[s as usize])
            .collect()
    }

    /// The state after reading `byte` in `state`.
    pub fn next(&self, state: u8, byte: u8) -> u8 {
        self.transitions[state as usize * self.class_count() + self.classes.class(byte) as usize]
    }

    /// Runs the tables over `input` from the start state and returns where they end.
    pub fn run(&self, input: &[u8]) -> u8 {
        input
            .iter()
            .fold(self.start(), |state, &byte| self.next(state, byte))
    }

    /// Whether `input` is in the language.
    pub fn accepts(&self, input: &[u8]) -> bool {
        self.accepting[self.run(input) as usize]
    }
}

/// `0..count` as `u8`s, for counts of states or classes up to 256.
pub(crate) fn ids(count: usize) -> impl Iterator<Item = u8> + Clone {
    assert!(count <= 256, "ids are bytes: {count} of them do not fit");
    (0..count).map(|id| id as u8)
}

/// The class ranges, then the state × class grid in hex-friendly columns.
impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Tables {{ states: {}, classes: {}, start: {}, dead: {}, accepting: {:?} }}",
            self.state_count,
            self.class_count(),
            self.start(),
            self.dead(),
            self.accepting_states()
        )?;
        fmt::Debug::fmt(&self.classes, f)?;
        write!(f, "  state\\class")?;
        for class in 0..self.class_count() {
            write!(f, " {class:>3}")?;
        }
        writeln!(f)?;
        for state in 0..self.state_count {
            let mark = if self.accepting[state] { "*" } else { " " };
            write!(f, "  {state:>10}{mark}")?;
            for class in 0..self.class_count() {
                write!(
                    f,
                    " {:>3}",
                    self.transitions[state * self.class_count() + class]
                )?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
