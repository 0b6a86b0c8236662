// Random arrays for the differential tests, and what per-row
// `core::str::from_utf8` says of them.


use arrow_array::{BinaryArray, BinaryViewArray, LargeBinaryArray};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use super::major::{arrow_array, arrow_buffer};

/// SplitMix64: a seeded generator, so that a failure names its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Text to cut rows from: ASCII, two-, three- and four-byte characters.
fn text(rng: &mut Rng, len: usize) -> Vec<u8> {
    const CHARS: [&str; 8] = ["a", "z", " ", "é", "ß", "€", "日本", "💖"];
    let mut out = Vec::with_capacity(len + 4);
    while out.len() < len {
        out.extend_from_slice(CHARS[rng.below(CHARS.len())].as_bytes());
    }
    out
}

/// A row's length: mostly short (inline views, one-byte rows), up to 300.
fn length(rng: &mut Rng) -> usize {
    match rng.below(4) {
        0 => rng.below(4),
        1 => rng.below(13),
        2 => rng.below(40),
        _ => rng.below(301),
    }
}

/// Rows and a validity per row. Rows are cut from one run of text at
/// random byte positions, so characters are split across neighbouring
/// rows; some rows get an invalid byte; null rows often hold invalid
/// bytes. `invalid_one_in` is how rare a damaged row is (0: never).
pub fn rows(rng: &mut Rng, count: usize, invalid_one_in: usize, nulls: bool) -> Table {
    let lengths: Vec<usize> = (0..count).map(|_| length(rng)).collect();
    let run = text(rng, lengths.iter().sum());
    let split = invalid_one_in != 0 && rng.chance(2);
    let mut at = 0;
    let mut rows = Vec::with_capacity(count);
    let mut valid = Vec::with_capacity(count);
    for &len in &lengths {
        let mut row = if split {
            run[at..at + len].to_vec()
        } else {
            // Whole characters only.
            let s = String::from_utf8_lossy(&run[at..at + len]).replace('\u{FFFD}', "");
            s.into_bytes()
        };
        at += len;
        if invalid_one_in != 0 && rng.chance(invalid_one_in) && !row.is_empty() {
            let i = rng.below(row.len());
            row[i] = [0xFF, 0xC0, 0x80, 0xED, 0xF4, 0xF8][rng.below(6)];
        }
        let null = nulls && rng.chance(4);
        if null && rng.chance(2) {
            row.push(0xFF);
        }
        rows.push(row);
        valid.push(!null);
    }
    Table {
        rows,
        valid: nulls.then_some(valid),
    }
}

/// Rows, and which hold a value.
pub struct Table {
    pub rows: Vec<Vec<u8>>,
    pub valid: Option<Vec<bool>>,
}

impl Table {
    pub fn nulls(&self) -> Option<NullBuffer> {
        self.valid
            .as_ref()
            .map(|v| NullBuffer::new(BooleanBuffer::from(v.as_slice())))
    }

    pub fn is_null(&self, row: usize) -> bool {
        self.valid.as_ref().is_some_and(|v| !v[row])
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
