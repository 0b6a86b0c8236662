//! Random columns for the differential tests, what a per-row reference
//! says of them, and the functions called directly or through SQL.

use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, LargeBinaryArray, LargeStringArray, StringArray,
    StringViewArray,
};
use datafusion::arrow::buffer::{BooleanBuffer, NullBuffer};
use datafusion::arrow::datatypes::Field;
use datafusion::common::config::ConfigOptions;
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF};

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

/// Pieces of text: UTF-8's one- to four-byte characters, and the forms the
/// other rulesets differ on (a CESU-8 surrogate pair, a lone surrogate,
/// modified UTF-8's `C0 80`, a `00`, RFC 2279's five-byte form).
const UTF8: [&[u8]; 8] = [
    b"a",
    b"z",
    b" ",
    "é".as_bytes(),
    "ß".as_bytes(),
    "€".as_bytes(),
    "日本".as_bytes(),
    "💖".as_bytes(),
];
const DIALECTS: [&[u8]; 6] = [
    b"\xED\xA0\xBD\xED\xB2\x96",
    b"\xED\xA0\xBD",
    b"\xED\xB2\x96",
    b"\xC0\x80",
    b"\x00",
    b"\xF8\x88\x80\x80\x80",
];

fn text(rng: &mut Rng, len: usize, dialects: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 6);
    while out.len() < len {
        if dialects && rng.chance(3) {
            out.extend_from_slice(DIALECTS[rng.below(DIALECTS.len())]);
        } else {
            out.extend_from_slice(UTF8[rng.below(UTF8.len())]);
        }
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
/// bytes.
pub fn table(seed: u64) -> Table {
    let mut rng = Rng::new(seed);
    let count = rng.below(150);
    let invalid_one_in = [0, 2, 10, 60][rng.below(4)];
    let nulls = rng.chance(2);
    let dialects = rng.chance(2);
    let lengths: Vec<usize> = (0..count).map(|_| length(&mut rng)).collect();
    let run = text(&mut rng, lengths.iter().sum(), dialects);
    let split = invalid_one_in != 0 && rng.chance(2);
    let (mut at, mut rows, mut valid) = (0, Vec::with_capacity(count), Vec::with_capacity(count));
    for &len in &lengths {
        let mut row = if split || dialects {
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
    let range = if count > 0 && rng.chance(2) {
        let start = rng.below(count);
        start..start + rng.below(count - start + 1)
    } else {
        0..count
    };
    Table {
        rows,
        valid: nulls.then_some(valid),
        range,
    }
}

/// Rows, which hold a value, and the slice of them the arrays are cut to.
pub struct Table {
    pub rows: Vec<Vec<u8>>,
    pub valid: Option<Vec<bool>>,
    pub range: std::ops::Range<usize>,
}

impl Table {
    fn nulls(&self) -> Option<NullBuffer> {
        self.valid
            .as_ref()
            .map(|v| NullBuffer::new(BooleanBuffer::from(v.as_slice())))
    }

    fn is_null(&self, row: usize) -> bool {
        self.valid.as_ref().is_some_and(|v| !v[row])
    }

    /// The six array types over every row (null rows holding their bytes),
    /// each sliced to the range. The string arrays are built unchecked, as
    /// an IPC reader with `skip_validation` or a Parquet reader that
    /// trusted its pages builds them.
    pub fn arrays(&self) -> Vec<ArrayRef> {
        let (offset, len) = (self.range.start, self.range.len());
        let (offsets, values, _) = BinaryArray::from_iter_values(&self.rows).into_parts();
        let binary = BinaryArray::new(offsets.clone(), values.clone(), self.nulls());
        // SAFETY: not met on purpose: the rows may be invalid UTF-8. The
        // array is only read as bytes, by the functions under test and by
        // DataFusion's plumbing, which never makes a `&str` of a row.
        let utf8 = unsafe { StringArray::new_unchecked(offsets, values, self.nulls()) };
        let (offsets, values, _) = LargeBinaryArray::from_iter_values(&self.rows).into_parts();
        let large = LargeBinaryArray::new(offsets.clone(), values.clone(), self.nulls());
        // SAFETY: as for `utf8`.
        let large_utf8 = unsafe { LargeStringArray::new_unchecked(offsets, values, self.nulls()) };
        let (views, buffers, _) = BinaryViewArray::from_iter_values(&self.rows).into_parts();
        let view = BinaryViewArray::new(views.clone(), buffers.clone(), self.nulls());
        // SAFETY: as for `utf8`.
        let utf8_view = unsafe { StringViewArray::new_unchecked(views, buffers, self.nulls()) };
        let arrays: [ArrayRef; 6] = [
            Arc::new(binary),
            Arc::new(large),
            Arc::new(view),
            Arc::new(utf8),
            Arc::new(large_utf8),
            Arc::new(utf8_view),
        ];
        arrays.into_iter().map(|a| a.slice(offset, len)).collect()
    }

    /// What `validate` of a ruleset says of each row of the range: `None`
    /// for a null row, else `Ok` or the error's `valid_up_to`.
    pub fn verdicts(
        &self,
        validate: impl Fn(&[u8]) -> Result<(), usize>,
    ) -> Vec<Option<Result<(), usize>>> {
        self.range
            .clone()
            .map(|r| (!self.is_null(r)).then(|| validate(&self.rows[r])))
            .collect()
    }

    /// Per-row `core::str::from_utf8`.
    pub fn reference_verdicts(&self) -> Vec<Option<Result<(), usize>>> {
        self.verdicts(|row| {
            core::str::from_utf8(row)
                .map(drop)
                .map_err(|e| e.valid_up_to())
        })
    }

    /// Per-row `String::from_utf8_lossy`; `None` for a null row.
    pub fn lossy(&self) -> Vec<Option<String>> {
        self.range
            .clone()
            .map(|r| {
                (!self.is_null(r)).then(|| String::from_utf8_lossy(&self.rows[r]).into_owned())
            })
            .collect()
    }
}

/// Calls `udf` directly, as DataFusion's physical plan does: the return
/// field from the arguments' fields and literals, then one call on the
/// batch.
pub fn invoke(udf: &ScalarUDF, args: Vec<ColumnarValue>, rows: usize) -> Result<ColumnarValue> {
    let arg_fields: Vec<_> = args
        .iter()
        .enumerate()
        .map(|(i, a)| Arc::new(Field::new(format!("arg{i}"), a.data_type(), true)))
        .collect();
    let literals: Vec<Option<&ScalarValue>> = args
        .iter()
        .map(|a| match a {
            ColumnarValue::Scalar(s) => Some(s),
            ColumnarValue::Array(_) => None,
        })
        .collect();
    let return_field = udf.return_field_from_args(ReturnFieldArgs {
        arg_fields: &arg_fields,
        scalar_arguments: &literals,
    })?;
    udf.invoke_with_args(ScalarFunctionArgs {
        args,
        arg_fields,
        number_rows: rows,
        return_field,
        config_options: Arc::new(ConfigOptions::default()),
    })
}

/// The three functions by name.
pub fn udf(name: &str) -> ScalarUDF {
    let function = utf8_datafusion::functions()
        .into_iter()
        .find(|f| f.name() == name)
        .unwrap_or_else(|| panic!("no function {name}"));
    Arc::unwrap_or_clone(function)
}
