//! One breadth-first walk for every automaton type: the shortest input that
//! reaches each state, for the state names, the report and the drawings.

use crate::byte_range::runs;
use crate::{ByteRange, Dfa, MinimalDfa, Tables};

/// What a walk needs of an automaton: a start, a total transition function
/// and a state count.
pub(crate) trait Transitions {
    fn start_state(&self) -> u32;
    fn next_state(&self, state: u32, byte: u8) -> u32;
    fn states(&self) -> usize;

    /// The row of `state` as 256 targets.
    fn targets(&self, state: u32) -> [u32; 256] {
        std::array::from_fn(|byte| self.next_state(state, byte as u8))
    }
}

impl Transitions for Dfa {
    fn start_state(&self) -> u32 {
        self.start()
    }
    fn next_state(&self, state: u32, byte: u8) -> u32 {
        self.next(state, byte)
    }
    fn states(&self) -> usize {
        self.state_count()
    }
}

impl Transitions for MinimalDfa {
    fn start_state(&self) -> u32 {
        self.start()
    }
    fn next_state(&self, state: u32, byte: u8) -> u32 {
        self.next(state, byte)
    }
    fn states(&self) -> usize {
        self.state_count()
    }
}

impl Transitions for Tables {
    fn start_state(&self) -> u32 {
        u32::from(self.start())
    }
    fn next_state(&self, state: u32, byte: u8) -> u32 {
        u32::from(self.next(state as u8, byte))
    }
    fn states(&self) -> usize {
        self.state_count()
    }
}

/// For every state, the shortest input from the start that reaches it
/// (breadth-first, bytes ascending), one step as the run of bytes that leads
/// from the same state to the same state; `None` when unreachable. The
/// smallest byte of each step spells the shortest input itself.
pub(crate) fn shortest_paths(automaton: &impl Transitions) -> Vec<Option<Vec<ByteRange>>> {
    let mut paths: Vec<Option<Vec<ByteRange>>> = vec![None; automaton.states()];
    let start = automaton.start_state();
    paths[start as usize] = Some(Vec::new());
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(state) = queue.pop_front() {
        let here = paths[state as usize]
            .clone()
            .expect("queued states have paths");
        for (range, target) in runs(&automaton.targets(state)) {
            if paths[target as usize].is_none() {
                let mut path = here.clone();
                path.push(range);
                paths[target as usize] = Some(path);
                queue.push_back(target);
            }
        }
    }
    paths
}

/// The bytes of the shortest input a path from [`shortest_paths`] stands for.
pub(crate) fn shortest_input(path: &[ByteRange]) -> Vec<u8> {
    path.iter().map(|range| range.start()).collect()
}
