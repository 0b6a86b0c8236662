//! Tables → shift DFA: one integer per byte value that holds every state's
//! next state, so that a step is `state = ROWS[byte] >> state`.
//!
//! Each state is a bit offset into the row; the field at a state's offset
//! holds the offset of the next state. The shift amount's low bits are all
//! that a wrapping shift reads, so the state can stay unmasked between steps
//! and a step is one load (whose address does not depend on the state) and
//! one shift (the only link in the dependency chain). The idea is Per
//! Vognsen's; the layout here is the plain one, fields of equal width:
//!
//! | row type | field width | states that fit |
//! |---|---|---|
//! | `u32` | 5 bits | 6 |
//! | `u64` | 6 bits | 10 |
//! | `u128` | 7 bits | 18 |
//!
//! The field width is the shift type's mask width, so that an offset can
//! name any field. RFC 3629's 9 states fit a `u64`; the 31-bit legacy form's
//! 12 need a `u128`.

use std::fmt;

use crate::Tables;

/// The integer type of a shift DFA's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RowWidth {
    /// `u32` rows, 5-bit fields.
    U32,
    /// `u64` rows, 6-bit fields.
    U64,
    /// `u128` rows, 7-bit fields.
    U128,
}

impl RowWidth {
    /// Bits in a row.
    pub const fn bits(self) -> u32 {
        match self {
            RowWidth::U32 => 32,
            RowWidth::U64 => 64,
            RowWidth::U128 => 128,
        }
    }

    /// Bits in a field: the number of low bits a wrapping shift of this type reads.
    pub const fn field_bits(self) -> u32 {
        self.bits().trailing_zeros()
    }

    /// How many states fit.
    pub const fn capacity(self) -> usize {
        (self.bits() / self.field_bits()) as usize
    }
}

/// A shift DFA: rows indexed by byte, states as bit offsets.
#[derive(Clone, PartialEq, Eq)]
pub struct ShiftDfa {
    width: RowWidth,
    rows: Vec<u128>,
    state_count: usize,
}

impl ShiftDfa {
    /// Lays out `tables` as a shift DFA in the narrowest row type that fits,
    /// or `None` when it has more states than a `u128` row holds.
    pub fn new(tables: &Tables) -> Option<ShiftDfa> {
        let width = [RowWidth::U32, RowWidth::U64, RowWidth::U128]
            .into_iter()
            .find(|w| tables.state_count() <= w.capacity())?;
        let field = width.field_bits();
        let rows = (0..=255u8)
            .map(|byte| {
                tables.states().fold(0u128, |row, state| {
                    let next = u128::from(tables.next(state, byte)) * u128::from(field);
                    row | next << (u32::from(state) * field)
                })
            })
            .collect();
        Some(ShiftDfa {
            width,
            rows,
            state_count: tables.state_count(),
        })
    }

    /// The row type.
    pub fn width(&self) -> RowWidth {
        self.width
    }

    /// One row per byte value, widened to `u128` (the high bits are zero
    /// beyond [`RowWidth::bits`]).
    pub fn rows(&self) -> &[u128] {
        &self.rows
    }

    /// The offset that stands for state `state` of the tables.
    pub fn offset(&self, state: u8) -> u32 {
        u32::from(state) * self.width.field_bits()
    }

    /// The table state that offset `offset` stands for.
    pub fn state(&self, offset: u32) -> u8 {
        (offset / self.width.field_bits()) as u8
    }

    /// One step, the way generated code does it: a wrapping shift reads only
    /// the low bits of the state, the rest of it is left over from the row.
    pub fn step(&self, state: u128, byte: u8) -> u128 {
        let row = self.rows[byte as usize];
        let shift = (state as u32) & (self.width.bits() - 1);
        let next = row >> shift;
        // Truncate to the row type, as a narrower integer would.
        if self.width.bits() == 128 {
            next
        } else {
            next & ((1u128 << self.width.bits()) - 1)
        }
    }

    /// The offset after running over `input` from the start state.
    pub fn run(&self, input: &[u8]) -> u32 {
        let state = input
            .iter()
            .fold(u128::from(self.offset(0)), |s, &b| self.step(s, b));
        (state as u32) & ((1 << self.width.field_bits()) - 1)
    }

    /// The number of states.
    pub fn state_count(&self) -> usize {
        self.state_count
    }
}

impl fmt::Debug for ShiftDfa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "ShiftDfa {{ width: {:?}, field bits: {}, states: {} }}",
            self.width,
            self.width.field_bits(),
            self.state_count
        )?;
        let digits = (self.width.bits() / 4) as usize;
        for (range, row) in crate::runs(&self.rows.clone().try_into().expect("256 rows")) {
            writeln!(f, "  {range}: {row:0digits$X}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets;

    #[test]
    fn capacities_follow_the_shift_mask() {
        assert_eq!(RowWidth::U32.capacity(), 6);
        assert_eq!(RowWidth::U64.capacity(), 10);
        assert_eq!(RowWidth::U128.capacity(), 18);
    }

    #[test]
    fn builtins_pick_the_narrowest_row_that_fits() {
        let rfc = rulesets::RFC3629.derive().unwrap();
        assert_eq!(ShiftDfa::new(rfc.tables()).unwrap().width(), RowWidth::U64);
        let legacy = rulesets::LEGACY31.derive().unwrap();
        assert_eq!(
            ShiftDfa::new(legacy.tables()).unwrap().width(),
            RowWidth::U128
        );
    }

    #[test]
    fn every_step_agrees_with_the_tables() {
        for ruleset in rulesets::BUILTIN {
            let derivation = ruleset.derive().unwrap();
            let tables = derivation.tables();
            let shift = ShiftDfa::new(tables).unwrap();
            for state in tables.states() {
                for byte in 0..=255u8 {
                    // Garbage above the field, within the row, must not matter: that is what
                    // lets generated code skip the mask between steps.
                    let width = shift.width();
                    let garbage = (u128::MAX / 0xFF * 0xA5) << width.field_bits();
                    let garbage = if width.bits() == 128 {
                        garbage
                    } else {
                        garbage & ((1u128 << width.bits()) - 1)
                    };
                    let dirty = u128::from(shift.offset(state)) | garbage;
                    let next =
                        shift.step(dirty, byte) as u32 & ((1 << shift.width().field_bits()) - 1);
                    assert_eq!(
                        shift.state(next),
                        tables.next(state, byte),
                        "{} state {state} byte {byte:02X}",
                        ruleset.name
                    );
                }
            }
        }
    }
}
