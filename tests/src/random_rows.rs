//! Random rows for the column suites of utf8-arrow and utf8-datafusion,
//! which build their arrays of every layout from them: rows cut from one
//! run of text at random byte positions, so that characters are split
//! across neighbouring rows, some damaged, some null (and a null row often
//! holding invalid bytes, which no check may report).

use crate::rng::Rng;

/// UTF-8's one- to four-byte characters.
const UTF8_PIECES: [&[u8]; 8] = [
    b"a",
    b"z",
    b" ",
    "é".as_bytes(),
    "ß".as_bytes(),
    "€".as_bytes(),
    "日本".as_bytes(),
    "💖".as_bytes(),
];

/// The forms the other rulesets part from UTF-8 on: a CESU-8 surrogate
/// pair, a lone lead and trail surrogate, modified UTF-8's `C0 80`, a
/// `00`, and RFC 2279's five-byte form.
const DIALECT_PIECES: [&[u8]; 6] = [
    b"\xED\xA0\xBD\xED\xB2\x96",
    b"\xED\xA0\xBD",
    b"\xED\xB2\x96",
    b"\xC0\x80",
    b"\x00",
    b"\xF8\x88\x80\x80\x80",
];

/// What rows [`RandomRows::new`] draws.
#[derive(Clone, Copy, Debug)]
pub struct RowsShape {
    /// How many rows.
    pub count: usize,
    /// How rare a row with a byte overwritten is: one in this many (0:
    /// none).
    pub invalid_one_in: usize,
    /// Whether a row in four is null (half of those with a byte `FF`
    /// added), and the rows have a validity.
    pub nulls: bool,
    /// Whether a piece in three of the text is one of the forms the other
    /// rulesets part from UTF-8 on; the rows are then cut anywhere.
    pub dialects: bool,
}

/// Rows, and which hold a value (`None`: all of them).
#[derive(Clone, Debug)]
pub struct RandomRows {
    pub rows: Vec<Vec<u8>>,
    pub valid: Option<Vec<bool>>,
}

impl RandomRows {
    /// Rows drawn from `rng` in `shape`. Without damage and without
    /// dialects, half the time each row keeps only its whole characters
    /// (a valid column); otherwise the cuts fall anywhere.
    pub fn new(rng: &mut Rng, shape: RowsShape) -> RandomRows {
        let lengths: Vec<usize> = (0..shape.count).map(|_| length(rng)).collect();
        let run = text(rng, lengths.iter().sum(), shape.dialects);
        let split = shape.invalid_one_in != 0 && rng.chance(2);
        let mut at = 0;
        let mut rows = Vec::with_capacity(shape.count);
        let mut valid = Vec::with_capacity(shape.count);
        for &len in &lengths {
            let mut row = if split || shape.dialects {
                run[at..at + len].to_vec()
            } else {
                String::from_utf8_lossy(&run[at..at + len])
                    .replace('\u{FFFD}', "")
                    .into_bytes()
            };
            at += len;
            if shape.invalid_one_in != 0 && rng.chance(shape.invalid_one_in) && !row.is_empty() {
                let i = rng.below(row.len());
                row[i] = [0xFF, 0xC0, 0x80, 0xED, 0xF4, 0xF8][rng.below(6)];
            }
            let null = shape.nulls && rng.chance(4);
            if null && rng.chance(2) {
                row.push(0xFF);
            }
            rows.push(row);
            valid.push(!null);
        }
        RandomRows {
            rows,
            valid: shape.nulls.then_some(valid),
        }
    }

    /// Whether row `row` is null.
    pub fn is_null(&self, row: usize) -> bool {
        self.valid.as_ref().is_some_and(|valid| !valid[row])
    }
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

/// At least `len` bytes of text, with dialects' pieces among UTF-8's when
/// asked for.
fn text(rng: &mut Rng, len: usize, dialects: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 6);
    while out.len() < len {
        let piece = if dialects && rng.chance(3) {
            DIALECT_PIECES[rng.below(DIALECT_PIECES.len())]
        } else {
            UTF8_PIECES[rng.below(UTF8_PIECES.len())]
        };
        out.extend_from_slice(piece);
    }
    out
}
