// Random arrays for the differential tests, and what per-row
// `core::str::from_utf8` says of them.


use arrow_array::{BinaryArray, BinaryViewArray, LargeBinaryArray};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use super::major::{arrow_array, arrow_buffer};

pub use utf8_tests::rng::Rng;
use utf8_tests::random_rows::{RandomRows, RowsShape};

/// Rows and a validity per row (`utf8_tests::random_rows`): characters
/// split across neighbouring rows, some rows damaged, null rows often
/// holding invalid bytes. `invalid_one_in` is how rare a damaged row is
/// (0: never).
pub fn rows(rng: &mut Rng, count: usize, invalid_one_in: usize, nulls: bool) -> Table {
    let shape = RowsShape {
        count,
        invalid_one_in,
        nulls,
        dialects: false,
    };
    Table(RandomRows::new(rng, shape))
}

/// The rows, and the arrays and references made of them.
pub struct Table(pub RandomRows);

impl std::ops::Deref for Table {
    type Target = RandomRows;

    fn deref(&self) -> &RandomRows {
        &self.0
    }
}

impl Table {
    pub fn nulls(&self) -> Option<NullBuffer> {
        self.valid
            .as_ref()
            .map(|v| NullBuffer::new(BooleanBuffer::from(v.as_slice())))
    }

    /// A `Binary` array holding the rows' bytes, null rows' included.
    pub fn binary(&self) -> BinaryArray {
        let (offsets, values, _) = BinaryArray::from_iter_values(&self.rows).into_parts();
        BinaryArray::new(offsets, values, self.nulls())
    }

    pub fn large_binary(&self) -> LargeBinaryArray {
        let (offsets, values, _) = LargeBinaryArray::from_iter_values(&self.rows).into_parts();
        LargeBinaryArray::new(offsets, values, self.nulls())
    }

    pub fn binary_view(&self) -> BinaryViewArray {
        let (views, buffers, _) = BinaryViewArray::from_iter_values(&self.rows).into_parts();
        BinaryViewArray::new(views, buffers, self.nulls())
    }

    /// Per-row `core::str::from_utf8` on rows `range`: the first invalid
    /// row that is not null, counted from the range's start, and the
    /// `Utf8Error`'s (valid_up_to, error_len).
    pub fn first_invalid(
        &self,
        range: std::ops::Range<usize>,
    ) -> Option<(usize, (usize, Option<usize>))> {
        let start = range.start;
        range.filter(|&r| !self.is_null(r)).find_map(|r| {
            core::str::from_utf8(&self.rows[r])
                .err()
                .map(|e| (r - start, (e.valid_up_to(), e.error_len())))
        })
    }

    /// Per-row `core::str::from_utf8`, null rows included: the first
    /// invalid row, and whether it is null.
    pub fn first_invalid_slot(&self, range: std::ops::Range<usize>) -> Option<(usize, bool)> {
        let start = range.start;
        range
            .clone()
            .find(|&r| core::str::from_utf8(&self.rows[r]).is_err())
            .map(|r| (r - start, self.is_null(r)))
    }

    /// What `is_valid_utf8` must say of rows `range`.
    pub fn validity(&self, range: std::ops::Range<usize>) -> Vec<Option<bool>> {
        range
            .map(|r| (!self.is_null(r)).then(|| core::str::from_utf8(&self.rows[r]).is_ok()))
            .collect()
    }

    /// What the lossy conversion must give for rows `range`: each row
    /// through `String::from_utf8_lossy`, null or not.
    pub fn lossy(&self, range: std::ops::Range<usize>) -> Vec<String> {
        range
            .map(|r| String::from_utf8_lossy(&self.rows[r]).into_owned())
            .collect()
    }
}
