//! The Arrow validity bitmap: which rows are null, and so never checked.

use super::error::{ColumnError, Layout};

/// A validity bitmap in Arrow's layout: bit `offset + row` (least
/// significant bit first within each byte) is 1 for a row that holds a
/// value and 0 for a null. A null row may hold any bytes; the checks skip
/// it.
///
/// ```
/// use utf8_core::column::{Column, Nulls, Offsets};
/// // Row 1 is null: its invalid byte does not matter.
/// let column = Offsets::new(&[0i32, 2, 3, 5], b"ok\xFFhi")?.with_nulls(Nulls::new(&[0b101], 0))?;
/// assert!(column.validate::<utf8_core::Rfc3629>().is_ok());
/// # Ok::<(), utf8_core::column::ColumnError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Nulls<'a> {
    bits: &'a [u8],
    offset: usize,
}

impl<'a> Nulls<'a> {
    /// The bitmap whose bit for row 0 is bit `offset` of `bits` (an Arrow
    /// array's offset, for a sliced array).
    pub const fn new(bits: &'a [u8], offset: usize) -> Nulls<'a> {
        Nulls { bits, offset }
    }

    /// The bitmap from row `rows` on.
    #[cfg(feature = "alloc")]
    pub(crate) fn skip(&self, rows: usize) -> Nulls<'a> {
        Nulls {
            bits: self.bits,
            offset: self.offset + rows,
        }
    }

    /// Checks that the bitmap has a bit for each of `rows` rows.
    pub(crate) fn check(&self, rows: usize) -> Result<(), ColumnError> {
        let available = self
            .bits
            .len()
            .saturating_mul(8)
            .saturating_sub(self.offset);
        if self.offset > self.bits.len().saturating_mul(8) || available < rows {
            return Err(ColumnError::layout(
                available.min(rows),
                Layout::NullsTooShort,
            ));
        }
        Ok(())
    }

    /// Whether `row` holds a value; `row` is below the row count that
    /// [`check`](Self::check) accepted.
    #[inline]
    pub(crate) fn is_valid(&self, row: usize) -> bool {
        let bit = self.offset + row;
        self.bits[bit / 8] >> (bit % 8) & 1 == 1
    }
}

impl Nulls<'_> {
    /// Copies the bits of the first `out.len() * 8` rows (bits past the
    /// last row, which [`check`](Self::check) may not have vouched for,
    /// read as 0) to `out`, from bit 0: a byte a step, not a bit.
    pub(crate) fn copy_to(&self, out: &mut [u8]) {
        let (skip, shift) = (self.offset / 8, self.offset % 8);
        let byte = |i: usize| u16::from(self.bits.get(skip + i).copied().unwrap_or(0));
        for (i, to) in out.iter_mut().enumerate() {
            *to = ((byte(i) | byte(i + 1) << 8) >> shift) as u8;
        }
    }
}

impl Nulls<'_> {
    /// The bits of rows `row..row + 64` (row `row` at bit 0), those past
    /// the bitmap's last byte read as 0.
    #[inline]
    pub(crate) fn bits64(&self, row: usize) -> u64 {
        let bit = self.offset + row;
        let from = self.bits.get(bit / 8..).unwrap_or(&[]);
        // Nine bytes hold 64 bits from any bit of the first.
        let mut word = [0u8; 16];
        let len = from.len().min(9);
        word[..len].copy_from_slice(&from[..len]);
        (u128::from_le_bytes(word) >> (bit % 8)) as u64
    }
}

/// The bits of rows `row..row + 64` that hold a value under an optional
/// bitmap.
#[inline]
pub(crate) fn holding64(nulls: Option<&Nulls<'_>>, row: usize) -> u64 {
    nulls.map_or(u64::MAX, |nulls| nulls.bits64(row))
}

/// Whether `row` holds a value under an optional bitmap.
#[inline]
pub(crate) fn holds_value(nulls: Option<&Nulls<'_>>, row: usize) -> bool {
    match nulls {
        Some(nulls) => nulls.is_valid(row),
        None => true,
    }
}
