//! Minimal DFA → byte classes: the coarsest partition of the 256 byte values
//! under which every state treats the bytes of one class alike.
//!
//! Two bytes share a class exactly when their columns of the transition
//! function are equal. Classes are numbered by their smallest byte, so class 0
//! always holds byte 0x00. For RFC 3629 this gives the twelve classes of the
//! 2003 state-machine validator, in its order:
//! `00-7F | 80-8F | 90-9F | A0-BF | C0-C1,F5-FF | C2-DF | E0 | E1-EC,EE-EF | ED | F0 | F1-F3 | F4`.

use std::collections::HashMap;
use std::fmt;

use crate::byte_range::runs;
use crate::dfa::StateId;
use crate::{ByteRange, MinimalDfa};

/// A partition of the byte values into classes.
#[derive(Clone, PartialEq, Eq)]
pub struct ByteClasses {
    class_of: [u8; 256],
    count: usize,
}

impl ByteClasses {
    /// The coarsest partition that `dfa` respects.
    pub fn new(dfa: &MinimalDfa) -> ByteClasses {
        let mut ids: HashMap<Vec<StateId>, u8> = HashMap::new();
        let mut class_of = [0u8; 256];
        for byte in 0..=255u8 {
            let column: Vec<StateId> = (0..dfa.state_count() as StateId)
                .map(|s| dfa.next(s, byte))
                .collect();
            let next_id = u8::try_from(ids.len()).expect("at most 256 classes");
            class_of[byte as usize] = *ids.entry(column).or_insert(next_id);
        }
        ByteClasses {
            class_of,
            count: ids.len(),
        }
    }

    /// The class of every byte: `map()[b]` is the class of `b`.
    pub fn map(&self) -> &[u8; 256] {
        &self.class_of
    }

    /// The class of `byte`.
    pub fn class(&self, byte: u8) -> u8 {
        self.class_of[byte as usize]
    }

    /// The number of classes (1 to 256).
    pub fn count(&self) -> usize {
        self.count
    }

    /// Every class id, ascending: `0..count()` as `u8`s (256 classes do not
    /// leave `0..count() as u8` anything to iterate over).
    pub fn ids(&self) -> impl Iterator<Item = u8> + Clone + use<> {
        crate::tables::ids(self.count)
    }

    /// The bytes of `class`, as maximal ranges in ascending order.
    pub fn ranges(&self, class: u8) -> Vec<ByteRange> {
        runs(&self.class_of)
            .into_iter()
            .filter(|&(_, c)| c == class)
            .map(|(range, _)| range)
            .collect()
    }

    /// The smallest byte of `class`.
    pub fn representative(&self, class: u8) -> u8 {
        self.class_of
            .iter()
            .position(|&c| c == class)
            .expect("every class has a byte") as u8
    }
}

/// One class a line, with its ranges: `4: %xC0-C1 / %xF5-FF`.
impl fmt::Debug for ByteClasses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "ByteClasses {{ count: {} }}", self.count)?;
        for class in self.ids() {
            let ranges: Vec<String> = self.ranges(class).iter().map(ToString::to_string).collect();
            writeln!(f, "  {class:>3}: {}", ranges.join(" / "))?;
        }
        Ok(())
    }
}
