//! A ruleset's derived tables as associated constants, so that every
//! validation path is written once, generic over the ruleset, and each
//! instance sees its tables as constants.

use crate::automaton::Automaton;

/// The integer types that shift-DFA rows come in.
pub(crate) trait ShiftRow: Copy + Eq {
    /// `self >> (state mod BITS)`: what one step of the shift DFA computes.
    fn step(self, state: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn bit(self, index: Self) -> bool;
}

macro_rules! shift_row {
    ($($t:ty),*) => {$(
        impl ShiftRow for $t {
            #[inline(always)]
            fn step(self, state: Self) -> Self {
                // A wrapping shift masks the amount to the type's width, which is
                // what lets the state carry leftover high bits between steps.
                self.wrapping_shr(state as u32)
            }
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline(always)]
            fn bit(self, index: Self) -> bool {
                self.wrapping_shr(index as u32) & 1 == 1
            }

        }
    )*};
}
shift_row!(u32, u64, u128);

/// Everything `dfa_tables!` emits for one ruleset.
pub(crate) trait Ruleset {
    const AUTOMATON: Automaton;

    type Row: ShiftRow;
    const SHIFT_AVAILABLE: bool;
    const SHIFT_ROWS: [Self::Row; 256];
    const SHIFT_START: Self::Row;
    const SHIFT_DEAD: Self::Row;
    const SHIFT_FIELD_MASK: Self::Row;
    const SHIFT_ACCEPTING: Self::Row;

    const SIMD_AVAILABLE: bool;
    const SIMD_SETS: usize;
    const SIMD_TABLES: [[[u8; 16]; 4]; 2];
    const SIMD_NEEDS_CUR_LOW: bool;
    const SIMD_MAX_SEQUENCE_LEN: usize;
    const SIMD_MUST_CONTINUE: [u8; 4];
    const SIMD_INCOMPLETE: [u8; 5];
    const SIMD_BOUNDARY: u8;
    const SIMD_ASCII_SKIP: bool;
    const SIMD_MAX_LAG: usize;
    const IS_CONTINUATION: [bool; 256];
}

/// Implements [`Ruleset`] for `$name` from the `dfa_tables!` output in
/// `crate::tables::$m`.
macro_rules! ruleset {
    ($(#[$doc:meta])* $name:ident = $m:ident) => {
        $(#[$doc])*
        pub(crate) struct $name;
        impl $crate::ruleset::Ruleset for $name {
            const AUTOMATON: $crate::automaton::Automaton = $crate::automaton::automaton!($crate::tables::$m);
            type Row = $crate::tables::$m::ShiftRow;
            const SHIFT_AVAILABLE: bool = $crate::tables::$m::SHIFT_AVAILABLE;
            const SHIFT_ROWS: [Self::Row; 256] = $crate::tables::$m::SHIFT_ROWS;
            const SHIFT_START: Self::Row = $crate::tables::$m::SHIFT_START;
            const SHIFT_DEAD: Self::Row = $crate::tables::$m::SHIFT_DEAD;
            const SHIFT_FIELD_MASK: Self::Row = $crate::tables::$m::SHIFT_FIELD_MASK;
            const SHIFT_ACCEPTING: Self::Row = $crate::tables::$m::SHIFT_ACCEPTING;
            const SIMD_AVAILABLE: bool = $crate::tables::$m::SIMD_AVAILABLE;
            const SIMD_SETS: usize = $crate::tables::$m::SIMD_SETS;
            const SIMD_TABLES: [[[u8; 16]; 4]; 2] = $crate::tables::$m::SIMD_TABLES;
            const SIMD_NEEDS_CUR_LOW: bool = $crate::tables::$m::SIMD_NEEDS_CUR_LOW;
            const SIMD_MAX_SEQUENCE_LEN: usize = $crate::tables::$m::SIMD_MAX_SEQUENCE_LEN;
            const SIMD_MUST_CONTINUE: [u8; 4] = $crate::tables::$m::SIMD_MUST_CONTINUE;
            const SIMD_INCOMPLETE: [u8; 5] = $crate::tables::$m::SIMD_INCOMPLETE;
            const SIMD_BOUNDARY: u8 = $crate::tables::$m::SIMD_BOUNDARY;
            const SIMD_ASCII_SKIP: bool = $crate::tables::$m::SIMD_ASCII_SKIP;
            const SIMD_MAX_LAG: usize = $crate::tables::$m::SIMD_MAX_LAG;
            const IS_CONTINUATION: [bool; 256] = $crate::tables::$m::IS_CONTINUATION;
        }
    };
}
pub(crate) use ruleset;
