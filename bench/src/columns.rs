//! The columns of the columns benchmark (`benches/columns.rs`) and of its
//! interleaved ratios (`examples/columns_interleaved.rs`): Arrow offsets
//! and views columns of the valid corpus's lines and words, in arrow-rs's
//! buffers, which every contender reads.

use arrow_array::BinaryViewArray;
use arrow_array::builder::BinaryViewBuilder;
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use utf8_core::cpu::Level;
use utf8_core::paths::{self, Path};
use utf8_core::{Rfc3629, Ruleset, Utf8Error};

use crate::{SHORT, lines_cut_to};

/// The columns by name, in the order the benchmark runs them.
pub const NAMES: [&str; 5] = [
    "lines",
    "lines-up-to-64-bytes",
    "words",
    "non-latin-words",
    "words-10-million",
];

/// The rows of the column past every cache.
pub const TEN_MILLION: usize = 10_000_000;

/// The column `name` (one of [`NAMES`]) of the valid corpus (`corpus`,
/// as [`crate::valid_corpus`] reads it).
///
/// # Panics
///
/// If `name` is not one of [`NAMES`], or a file of `NON_LATIN` is not in
/// the corpus.
pub fn column(name: &str, corpus: &[(String, String)]) -> Layouts {
    let texts = || corpus.iter().map(|(_, text)| text.as_str());
    let words = || {
        texts()
            .flat_map(str::split_ascii_whitespace)
            .map(str::as_bytes)
    };
    match name {
        "lines" => Layouts::new(texts().flat_map(str::lines).map(str::as_bytes)),
        "lines-up-to-64-bytes" => Layouts::new(
            texts()
                .flat_map(|text| lines_cut_to(text, SHORT))
                .map(str::as_bytes),
        ),
        "words" => Layouts::new(words()),
        "non-latin-words" => Layouts::new(
            NON_LATIN
                .iter()
                .map(|name| {
                    let (_, text) = corpus
                        .iter()
                        .find(|(file, _)| file == name)
                        .unwrap_or_else(|| panic!("{name} is not in the corpus"));
                    text.as_str()
                })
                .flat_map(str::split_ascii_whitespace)
                .map(str::as_bytes),
        ),
        "words-10-million" => {
            let words: Vec<&[u8]> = words().collect();
            Layouts::new(words.iter().cycle().take(TEN_MILLION).copied())
        }
        _ => panic!("no column {name}; the columns are {NAMES:?}"),
    }
}

/// The files whose words make `non-latin-words`: every valid corpus file
/// in a script other than Latin (the emoji text left out).
const NON_LATIN: [&str; 17] = [
    "lipsum/Arabic-Lipsum",
    "lipsum/Chinese-Lipsum",
    "lipsum/Hebrew-Lipsum",
    "lipsum/Hindi-Lipsum",
    "lipsum/Japanese-Lipsum",
    "lipsum/Korean-Lipsum",
    "lipsum/Russian-Lipsum",
    "wikipedia_mars/arabic",
    "wikipedia_mars/chinese",
    "wikipedia_mars/greek",
    "wikipedia_mars/hebrew",
    "wikipedia_mars/hindi",
    "wikipedia_mars/japanese",
    "wikipedia_mars/korean",
    "wikipedia_mars/persan",
    "wikipedia_mars/russian",
    "wikipedia_mars/thai",
];

/// One row in this many is made invalid for the lossy contender.
pub const INVALID_EVERY: usize = 1000;

/// RFC 3629 with its vector check forced to AVX2: the built-in ruleset's
/// tables, so the column code takes the same paths, and `validate` through
/// `utf8_core::paths` instead of the dispatch. Used only where the CPU has
/// AVX2.
pub struct Rfc3629Avx2;

impl Ruleset for Rfc3629Avx2 {
    const NAME: &'static str = Rfc3629::NAME;
    type Value = <Rfc3629 as Ruleset>::Value;
    type Row = <Rfc3629 as Ruleset>::Row;
    const TABLES: utf8_core::__private::Tables<Self::Row> = Rfc3629::TABLES;

    fn validate(bytes: &[u8]) -> Result<(), Utf8Error> {
        paths::rfc3629(Path::Simd(Level::Avx2), bytes).expect("a CPU with AVX2")
    }
}

/// A column's rows in both layouts, in arrow-rs's buffers.
pub struct Layouts {
    /// The rows' `i32` offsets into `values`.
    pub offsets: OffsetBuffer<i32>,
    /// The rows one after another.
    pub values: Buffer,
    /// The same rows as views, as arrow-rs's `BinaryViewBuilder` lays
    /// them out.
    pub views: BinaryViewArray,
}

impl Layouts {
    /// The column of `rows`, in both layouts.
    pub fn new<'a>(rows: impl Iterator<Item = &'a [u8]>) -> Layouts {
        let mut offsets = vec![0i32];
        let mut values = Vec::new();
        let mut builder = BinaryViewBuilder::new();
        for row in rows {
            values.extend_from_slice(row);
            offsets.push(i32::try_from(values.len()).expect("a column under 2 GiB"));
            builder.append_value(row);
        }
        Layouts {
            offsets: OffsetBuffer::new(ScalarBuffer::from(offsets)),
            values: Buffer::from_vec(values),
            views: builder.finish(),
        }
    }

    /// The same rows, with the first byte of one row in
    /// [`INVALID_EVERY`] made `FF`; and how many rows that is.
    pub fn with_invalid_rows(&self) -> (Layouts, usize) {
        let mut values = self.values.to_vec();
        let rows = self.offsets.len() - 1;
        let mut invalid = 0;
        let mut row = 0;
        while row < rows {
            let Some(hit) = (row..rows).find(|&r| self.offsets[r] < self.offsets[r + 1]) else {
                break;
            };
            values[self.offsets[hit] as usize] = 0xFF;
            invalid += 1;
            row = (hit / INVALID_EVERY + 1) * INVALID_EVERY;
        }
        let rows: Vec<&[u8]> = self
            .offsets
            .windows(2)
            .map(|w| &values[w[0] as usize..w[1] as usize])
            .collect();
        (Layouts::new(rows.iter().copied()), invalid)
    }

    /// Each row, in order.
    pub fn rows(&self) -> impl Iterator<Item = &[u8]> {
        self.offsets
            .windows(2)
            .map(|w| &self.values[w[0] as usize..w[1] as usize])
    }
}

/// Runs `f` on each row of a views column, in order, while it returns
/// true: the per-row loops' way to read views, without a layout check.
#[inline]
pub fn each_view(views: &[u128], buffers: &[Buffer], mut f: impl FnMut(&[u8]) -> bool) -> bool {
    for &view in views {
        let len = view as u32 as usize;
        let ok = if len <= 12 {
            f(&view.to_le_bytes()[4..4 + len])
        } else {
            let buffer = &buffers[(view >> 64) as u32 as usize];
            let offset = (view >> 96) as u32 as usize;
            f(&buffer[offset..offset + len])
        };
        if !ok {
            return false;
        }
    }
    true
}
