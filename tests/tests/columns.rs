//! The column API (`utf8_core::column`) against a row at a time: every
//! entry point of every layout (`new`, `with_nulls`, `validate`,
//! `invalid_rows`, `write_validity`, `lossy`), for every offset type and
//! every built-in ruleset, held to `core::str::from_utf8` and
//! `String::from_utf8_lossy` per row (a dialect's byte-at-a-time
//! `validate_const` and its chunks elsewhere), and every malformed layout
//! to the variant and row its definition names. The references are
//! `utf8_tests::columns`, which the fuzz target `columns` and the bounds
//! catalogue share.
//!
//! The random columns have rows of 0 to about 300 bytes built of valid
//! characters, the dialects' own sequences and every kind of error, with
//! code points split across neighbouring rows, null rows over invalid
//! bytes under a bitmap at any bit offset, and invalid bytes before and
//! after the rows of a sliced offsets column, between the strings of a
//! views column's buffers and after a page's values. The batch tests put
//! rows, empty and invalid ones, at the edges of the in-place check's
//! batches of 1024 rows and the copying check's batches of 4096 bytes or
//! 512 rows, with rows either side of its copying limit of 256 bytes.

use proptest::prelude::*;
use utf8_core::column::Layout;
use utf8_tests::columns::{
    CESU8, RFC3629, WTF8, check_every_layout, check_offsets, check_offsets_every_type, check_page,
    check_views, page_of, view_of, views_back_to_back, views_of,
};
use utf8_tests::levels::{each_lower_level, this_run};
use utf8_tests::{each_ruleset, proptest_config};

// ---------------------------------------------------------------------------
// Rows.

/// Valid UTF-8 of one to four bytes a character.
const VALID: &[&[u8]] = &[
    b"a",
    b"hello",
    b" ",
    b"\x7F",
    "\u{80}".as_bytes(),
    "é".as_bytes(),
    "\u{7FF}".as_bytes(),
    "\u{800}".as_bytes(),
    "€".as_bytes(),
    "中".as_bytes(),
    "\u{FFFF}".as_bytes(),
    "\u{10000}".as_bytes(),
    "💖".as_bytes(),
    "\u{10FFFF}".as_bytes(),
];

/// What some dialect accepts and RFC 3629 does not: modified UTF-8's NUL,
/// CESU-8's surrogate pair, WTF-8's lone surrogates, RFC 2279's values
/// above U+10FFFF and its five- and six-byte forms.
const DIALECTS: &[&[u8]] = &[
    b"\xC0\x80",
    b"\xED\xA0\xBD\xED\xB8\x80",
    b"\xED\xA0\xBD",
    b"\xED\xB8\x80",
    b"\xF4\x90\x80\x80",
    b"\xF8\x88\x80\x80\x80",
    b"\xFD\xBF\xBF\xBF\xBF\xBF",
];

/// Every kind of error: invalid lead bytes, stray continuation bytes,
/// sequences cut short (mid-row, or at the row's end when last), bad
/// continuations, overlong forms, surrogates, values above U+10FFFF.
const ERRORS: &[&[u8]] = &[
    b"\xC0",
    b"\xC1",
    b"\xF5",
    b"\xF8",
    b"\xFE",
    b"\xFF",
    b"\x80",
    b"\xBF",
    b"\xC3",
    b"\xE2\x82",
    b"\xF0\x9F\x92",
    b"\xC3\x41",
    b"\xE2\x82\x41",
    b"\xF0\x9F\x92\x41",
    b"\xC1\xBF",
    b"\xE0\x9F\xBF",
    b"\xF0\x8F\xBF\xBF",
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF",
    b"\xF4\xBF\xBF\xBF",
];

fn piece() -> impl Strategy<Value = &'static [u8]> {
    prop_oneof![
        12 => prop::sample::select(VALID),
        2 => prop::sample::select(DIALECTS),
        1 => prop::sample::select(ERRORS),
    ]
}

/// One row: its pieces, how many of its last bytes move to the front of
/// the next row (splitting a code point across the two), and whether it
/// is null.
#[derive(Clone, Debug)]
struct RowSpec {
    pieces: Vec<&'static [u8]>,
    split: usize,
    null: Null,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Null {
    No,
    /// Null over its bytes as they are.
    Yes,
    /// Null, its bytes ending in `FF`.
    OverFf,
}

fn row_spec() -> impl Strategy<Value = RowSpec> {
    (
        prop_oneof![
            4 => prop::collection::vec(piece(), 0..4),
            3 => prop::collection::vec(piece(), 0..16),
            1 => prop::collection::vec(piece(), 0..100),
        ],
        prop_oneof![6 => Just(0usize), 1 => 1usize..=3],
        prop_oneof![17 => Just(Null::No), 2 => Just(Null::Yes), 1 => Just(Null::OverFf)],
    )
        .prop_map(|(pieces, split, null)| RowSpec {
            pieces,
            split,
            null,
        })
}

/// Bytes put before and after the rows, where none may be read: each would
/// change the verdict of a row next to it.
const BEFORE: &[&[u8]] = &[b"", b"\x80", b"\xC3", b"\xE2\x82", b"\xFF"];
const AFTER: &[&[u8]] = &[b"", b"\xA9", b"\x82\xAC", b"\xBF\xBF\xBF", b"\xFF"];

#[derive(Clone, Debug)]
struct ColumnSpec {
    rows: Vec<RowSpec>,
    /// The bitmap's bit offset, when there is one.
    nulls: Option<usize>,
    before: &'static [u8],
    after: &'static [u8],
    buffers: usize,
}

fn column_spec(rows: std::ops::Range<usize>) -> impl Strategy<Value = ColumnSpec> {
    (
        prop::collection::vec(row_spec(), rows),
        prop::option::of(0usize..20),
        prop::sample::select(BEFORE),
        prop::sample::select(AFTER),
        1usize..=3,
    )
        .prop_map(|(rows, nulls, before, after, buffers)| ColumnSpec {
            rows,
            nulls,
            before,
            after,
            buffers,
        })
}

/// A column's rows, and its bitmap (with bits around the rows' alternating
/// 1 and 0) and the bitmap's bit offset.
struct Built {
    rows: Vec<Vec<u8>>,
    nulls: Option<(Vec<u8>, usize)>,
}

impl Built {
    fn rows(&self) -> Vec<&[u8]> {
        self.rows.iter().map(Vec::as_slice).collect()
    }

    fn nulls(&self) -> Option<(&[u8], usize)> {
        self.nulls
            .as_ref()
            .map(|(bits, offset)| (bits.as_slice(), *offset))
    }
}

fn build(spec: &ColumnSpec) -> Built {
    let mut rows: Vec<Vec<u8>> = spec.rows.iter().map(|r| r.pieces.concat()).collect();
    for k in 0..rows.len().saturating_sub(1) {
        let moved = spec.rows[k].split.min(rows[k].len());
        let keep = rows[k].len() - moved;
        let tail = rows[k].split_off(keep);
        rows[k + 1].splice(0..0, tail);
    }
    let nulls = spec.nulls.map(|offset| {
        let mut bits: Vec<u8> = vec![0b1010_1010; (offset + rows.len()).div_ceil(8)];
        for (k, row) in spec.rows.iter().enumerate() {
            let bit = offset + k;
            if row.null != Null::No {
                bits[bit / 8] &= !(1 << (bit % 8));
                if row.null == Null::OverFf {
                    rows[k].push(0xFF);
                }
            } else {
                bits[bit / 8] |= 1 << (bit % 8);
            }
        }
        (bits, offset)
    });
    Built { rows, nulls }
}

// ---------------------------------------------------------------------------
// Random columns.

proptest! {
    #![proptest_config(proptest_config(this_run().cases(96)))]

    #[test]
    fn every_entry_point_of_every_layout_agrees_with_the_per_row_reference_on_random_columns(
        spec in column_spec(0..300)
    ) {
        let built = build(&spec);
        check_every_layout(&built.rows(), built.nulls(), spec.before, spec.after, spec.buffers);
    }
}

// ---------------------------------------------------------------------------
// Named cases.

#[test]
fn a_code_point_split_across_neighbouring_rows_makes_both_rows_invalid() {
    this_run();
    // DuckDB's case: "café" cut inside "é", then a row starting with its tail.
    let rows: [&[u8]; 4] = [b"ok", b"caf\xC3", b"\xA9lait", b""];
    check_every_layout(&rows, None, b"", b"", 1);
    let values = b"okcaf\xC3\xA9lait";
    let column = utf8_core::column::Offsets::new(&[0u64, 2, 6, 11, 11], values).unwrap();
    use utf8_core::column::Column;
    let bad: Vec<usize> = column
        .invalid_rows::<utf8_core::Rfc3629>()
        .map(|(row, _)| row)
        .collect();
    assert_eq!(bad, [1, 2]);
    // The same between two rows long enough to lie in a data buffer, back
    // to back there.
    let rows: [&[u8]; 3] = [
        b"a thirteen-byte caf\xC3",
        b"\xA9lait, thirteen bytes",
        b"ok",
    ];
    check_every_layout(&rows, None, b"", b"", 1);
    // Every split of a four-byte character, and of one of each dialect.
    for text in VALID.iter().chain(DIALECTS) {
        for cut in 0..=text.len() {
            let rows = [b"x".as_slice(), &text[..cut], &text[cut..], b"y"];
            check_every_layout(&rows, None, b"", b"", 1);
        }
    }
}

#[test]
fn null_rows_over_invalid_bytes_are_skipped_at_any_bit_offset() {
    this_run();
    let rows: [&[u8]; 5] = [b"\xFF", b"ok", b"caf\xC3", b"\xA9lait", b"\xED\xA0\x80"];
    for offset in 0..20 {
        for pattern in 0u8..32 {
            let mut bits = vec![0u8; (offset + rows.len()).div_ceil(8) + 1];
            for (row, _) in rows.iter().enumerate() {
                if pattern >> row & 1 == 1 {
                    bits[(offset + row) / 8] |= 1 << ((offset + row) % 8);
                }
            }
            check_every_layout(&rows, Some((&bits, offset)), b"\xC3", b"\xA9", 2);
        }
    }
}

#[test]
fn bytes_before_and_after_a_sliced_offsets_column_are_never_read() {
    this_run();
    // Each byte outside the slice would complete or break the row beside it.
    let rows: [&[u8]; 3] = [b"\xA9abc", "é".as_bytes(), b"abc\xC3"];
    for before in BEFORE {
        for after in AFTER {
            check_every_layout(&rows, None, before, after, 1);
            check_every_layout(&rows[1..2], None, before, after, 1);
            check_every_layout(&[], None, before, after, 1);
        }
    }
}

// ---------------------------------------------------------------------------
// Malformed layouts: each the right variant, at the right row.

#[test]
fn each_malformed_offsets_layout_is_named_with_its_row() {
    this_run();
    use utf8_core::column::{Column, Offsets};
    let values = b"hello";
    let cases: &[(&[i128], usize, Layout)] = &[
        (&[], 0, Layout::NoOffsets),
        (&[-1, 2], 0, Layout::OffsetOutOfRange),
        (&[0, -1, 2], 0, Layout::OffsetOutOfRange),
        (&[0, 2, -1], 1, Layout::OffsetOutOfRange),
        (&[0, 2, i32::MIN as i128], 1, Layout::OffsetOutOfRange),
        (&[0, 2, i64::MIN as i128], 1, Layout::OffsetOutOfRange),
        (&[0, 4, 3, 5], 1, Layout::OffsetsDecrease),
        (&[3, 2], 0, Layout::OffsetsDecrease),
        (&[0, 5, 6], 1, Layout::OffsetPastValues),
        (&[6], 0, Layout::OffsetPastValues),
        (&[0, 1, 2, 3, 4, 5, 6], 5, Layout::OffsetPastValues),
        (&[0, i32::MAX as i128], 0, Layout::OffsetPastValues),
        (&[0, u32::MAX as i128], 0, Layout::OffsetPastValues),
        (&[0, i64::MAX as i128], 0, Layout::OffsetPastValues),
        (&[0, u64::MAX as i128], 0, Layout::OffsetPastValues),
        (&[0, 2, 1 << 40, 3], 1, Layout::OffsetPastValues),
    ];
    for &(offsets, row, layout) in cases {
        // Against the reference, in every type that holds the offsets...
        check_offsets_every_type(offsets, values, None);
        // ... and against the row and variant written here.
        let wide: Vec<i128> = offsets.to_vec();
        expect_fault::<i64>(&wide, values, row, layout);
        expect_fault::<u64>(&wide, values, row, layout);
    }
    // Well-formed edge cases: no rows, empty rows at the end of the values.
    for offsets in [&[0][..], &[5], &[0, 5, 5, 5], &[5, 5]] {
        check_offsets_every_type(offsets, values, None);
        let offsets: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
        let column = Offsets::new(&offsets, values).unwrap();
        assert_eq!(column.len(), offsets.len() - 1);
    }
}

#[test]
fn a_null_bitmap_too_short_is_refused_at_the_first_row_without_a_bit() {
    this_run();
    use utf8_core::column::{Nulls, Offsets, PlainPage, Views};
    let _ = PlainPage::new(b"", 0).unwrap();
    for rows in [0usize, 1, 7, 8, 9, 255, 256, 257] {
        let offsets: Vec<u32> = (0..=rows as u32).collect();
        let values = vec![b'a'; rows];
        let views = vec![view_of(b"a", 0, 0); rows];
        let buffers: [&[u8]; 0] = [];
        for offset in [0usize, 1, 3, 7, 8, 9, 13] {
            let bytes = (offset + rows).div_ceil(8);
            for len in [0, bytes.saturating_sub(1), bytes, bytes + 1] {
                let bits = vec![0xFFu8; len];
                let nulls = Some((bits.as_slice(), offset));
                check_offsets_every_type(
                    &offsets.iter().map(|&o| o as i128).collect::<Vec<_>>(),
                    &values,
                    nulls,
                );
                each_ruleset!(check_views(&views, &buffers, nulls));
                let fits = len * 8 >= offset + rows;
                let got = Offsets::new(&offsets, &values)
                    .unwrap()
                    .with_nulls(Nulls::new(&bits, offset))
                    .map(drop)
                    .map_err(|e| (e.row(), e.layout_error()));
                let want = if fits {
                    Ok(())
                } else {
                    Err((
                        (len * 8).saturating_sub(offset).min(rows),
                        Some(Layout::NullsTooShort),
                    ))
                };
                assert_eq!(got, want, "{rows} rows, {len} bytes at bit {offset}");
                let got = Views::new(&views, &buffers)
                    .unwrap()
                    .with_nulls(Nulls::new(&bits, offset))
                    .map(drop)
                    .map_err(|e| (e.row(), e.layout_error()));
                assert_eq!(got, want, "views: {rows} rows, {len} bytes at bit {offset}");
            }
        }
    }
}

#[test]
fn bytes_between_strings_of_a_data_buffer_are_never_read_with_them() {
    this_run();
    // Two long strings of one buffer with a byte between them that would
    // end the first one's "中" (E4 B8 AD): the first is invalid, whether
    // the byte belongs to no row or to a null one; so is a string that
    // starts inside the one before it; and strings in another order than
    // their rows, enough of them to leave the check in place.
    let first = "thirteen bytes, then a cut \u{4E2D}".as_bytes();
    let cut = &first[..first.len() - 1];
    let second = b" and a second string of this buffer";
    let mut buffer = cut.to_vec();
    buffer.push(0xAD);
    buffer.extend_from_slice(second);
    let after_gap = cut.len() as u32 + 1;
    let views = [view_of(cut, 0, 0), view_of(second, 0, after_gap)];
    let buffers = [buffer.as_slice()];
    each_ruleset!(check_views(&views, &buffers, None));
    let gap_row = view_of(&[0xAD], 0, 0);
    let with_null = [views[0], gap_row, views[1]];
    each_ruleset!(check_views(&with_null, &buffers, Some((&[0b101], 0))));
    let gap_as_null_string = view_of(
        &buffer[cut.len() - 12..cut.len() + 1],
        0,
        cut.len() as u32 - 12,
    );
    let overlapping = [views[0], gap_as_null_string, views[1]];
    each_ruleset!(check_views(&overlapping, &buffers, Some((&[0b101], 0))));
    each_ruleset!(check_views(&overlapping, &buffers, None));
    let mut shuffled: Vec<u128> = (0..600).map(|k| views[k % 2]).collect();
    shuffled.extend([views[1], views[0], views[0]]);
    each_ruleset!(check_views(&shuffled, &buffers, None));
}

#[test]
fn each_malformed_view_is_named_with_its_row() {
    this_run();
    use utf8_core::column::Views;
    let long = b"a string of thirty bytes, long";
    let buffers: [&[u8]; 2] = [long, b"\xC3\xA9 another buffer"];
    let good = view_of(long, 0, 0);
    let inline = view_of(b"inline", 0, 0);
    let with_word = |view: u128, word: usize, value: u32| {
        let mut bytes = view.to_le_bytes();
        bytes[4 * word..4 * word + 4].copy_from_slice(&value.to_le_bytes());
        u128::from_le_bytes(bytes)
    };
    let cases: Vec<(u128, Layout)> = vec![
        // A nonzero byte in an inline view's padding, at each position.
        (inline | 1 << (32 + 8 * 6), Layout::ViewPadding),
        (inline | 0x80 << 120, Layout::ViewPadding),
        (view_of(b"", 0, 0) | 1 << 32, Layout::ViewPadding),
        (view_of(b"", 0, 0) | 1 << 127, Layout::ViewPadding),
        (with_word(good, 2, 2), Layout::ViewBufferIndex),
        (with_word(good, 2, u32::MAX), Layout::ViewBufferIndex),
        (with_word(good, 3, 1), Layout::ViewRange),
        (with_word(good, 0, 31), Layout::ViewRange),
        (
            with_word(with_word(good, 0, u32::MAX), 3, u32::MAX),
            Layout::ViewRange,
        ),
        (with_word(good, 3, u32::MAX), Layout::ViewRange),
        (with_word(good, 0, u32::MAX), Layout::ViewRange),
        (
            with_word(good, 1, u32::from_le_bytes(*b"a st") ^ 1),
            Layout::ViewPrefix,
        ),
        (with_word(good, 1, 0), Layout::ViewPrefix),
    ];
    for (bad, layout) in cases {
        for at in [0, 1, 5] {
            let mut views = vec![good, inline, good, inline, good, inline];
            views[at] = bad;
            let e = Views::new(&views, &buffers).unwrap_err();
            assert_eq!(
                (e.row(), e.layout_error()),
                (at, Some(layout)),
                "{bad:#034x}"
            );
            each_ruleset!(check_views(&views, &buffers, None));
            // A null row's view is checked all the same.
            let bits = [!(1u8 << at)];
            each_ruleset!(check_views(&views, &buffers, Some((&bits, 0))));
        }
    }
    // Well-formed edges: 12 bytes inline, 13 in a buffer, a string ending
    // at its buffer's end, a view at offset 0 of a buffer of its length.
    let views = [
        view_of(b"twelve bytes", 0, 0),
        view_of(b"thirteen byte", 0, 0),
        view_of(&buffers[1][2..], 1, 2),
    ];
    let buffers: [&[u8]; 2] = [b"thirteen byte", buffers[1]];
    each_ruleset!(check_views(&views, &buffers, None));
}

/// Rows of 13 to 40 bytes, every eighth one inline, each the same
/// characters in turn (`é`, `中`, `💖` among ASCII), for columns whose
/// chunks of 64 views are mostly strings back to back in a data buffer:
/// the chunks the views check walks eight views at a time.
fn mostly_long_rows(count: usize) -> Vec<Vec<u8>> {
    let text = "é and 中 and 💖, then plain ASCII words to cut rows from. ".repeat(8);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut from = 0;
    (0..count)
        .map(|k| {
            let want = if k % 8 == 7 { 1 + k % 12 } else { 13 + k % 28 };
            // The character boundary at or past `want` bytes on.
            let end = chars
                .iter()
                .map(|&(at, _)| at)
                .find(|&at| at >= from + want)
                .unwrap_or(text.len());
            let row = text.as_bytes()[from..end].to_vec();
            from = if end + 48 >= text.len() { 0 } else { end };
            row
        })
        .collect()
}

#[test]
fn a_malformed_or_invalid_view_among_mostly_long_ones_is_named_with_its_row() {
    this_run();
    let rows = mostly_long_rows(300);
    let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
    let (views, buffers) = views_back_to_back(&rows);
    each_ruleset!(check_views(&views, &buffers, None));
    let with_word = |view: u128, word: usize, value: u32| {
        let mut bytes = view.to_le_bytes();
        bytes[4 * word..4 * word + 4].copy_from_slice(&value.to_le_bytes());
        u128::from_le_bytes(bytes)
    };
    let word = |view: u128, word: usize| (view >> (32 * word)) as u32;
    // Every third row null, for damage the check must find in a null
    // row's view too.
    let mut every_third_null = vec![0u8; views.len().div_ceil(8)];
    for row in (0..views.len()).filter(|row| row % 3 != 0) {
        every_third_null[row / 8] |= 1 << (row % 8);
    }
    // Rows at the edges of chunks of 64 views and of eights, and the last.
    for at in [0, 1, 7, 8, 63, 64, 65, 100, 127, 128, 200, 299] {
        if rows[at].len() <= 12 {
            continue;
        }
        let good = views[at];
        let damaged = [
            // The prefix, the buffer, the offset and the length moved.
            with_word(good, 1, word(good, 1) ^ 0x0100),
            with_word(good, 1, word(good, 1) ^ 0x8000_0000),
            with_word(good, 2, 1),
            with_word(good, 2, u32::MAX),
            with_word(good, 3, word(good, 3) + 1),
            with_word(good, 3, word(good, 3).wrapping_sub(1)),
            with_word(good, 3, u32::MAX),
            with_word(good, 3, i32::MAX as u32 + 1),
            with_word(good, 0, word(good, 0) + 1),
            with_word(good, 0, word(good, 0) - 1),
            with_word(good, 0, u32::MAX),
            with_word(good, 0, i32::MAX as u32 + 1),
            // Its string one that starts inside the row before (or, for
            // the first, one byte on).
            {
                let inside = (word(good, 3) + 1).saturating_sub(2);
                let bytes = &buffers[0][inside as usize..][..4];
                let prefix = u32::from_le_bytes(bytes.try_into().expect("4 bytes"));
                with_word(with_word(good, 3, inside), 1, prefix)
            },
        ];
        for bad in damaged {
            let mut views = views.clone();
            views[at] = bad;
            each_ruleset!(check_views(&views, &buffers, None));
            if at % 3 == 0 {
                let nulls = Some((every_third_null.as_slice(), 0));
                each_ruleset!(check_views(&views, &buffers, nulls));
            }
        }
        // A continuation byte at the row's start, in its buffer and its
        // prefix: a valid layout, and the row (and the one before, whose
        // last character it continues if any) invalid.
        let mut buffer = buffers[0].clone();
        let offset = word(good, 3) as usize;
        buffer[offset] = 0x80;
        let mut views = views.clone();
        views[at] = with_word(good, 1, word(good, 1) & !0xFF | 0x80);
        each_ruleset!(check_views(&views, &[buffer.as_slice()], None));
        // A character cut across this row and the one before: the
        // strings back to back are valid, each row is not.
        if at > 0 && rows[at - 1].len() > 12 {
            let mut cut: Vec<Vec<u8>> = rows.iter().map(|row| row.to_vec()).collect();
            cut[at - 1].push(0xC3);
            cut[at].insert(0, 0xA9);
            let cut: Vec<&[u8]> = cut.iter().map(Vec::as_slice).collect();
            let (views, buffers) = views_back_to_back(&cut);
            each_ruleset!(check_views(&views, &buffers, None));
        }
        // The same rows under a bitmap that holds every third one null.
        let nulls = Some((every_third_null.as_slice(), 0));
        each_ruleset!(check_views(&views, &[buffer.as_slice()], nulls));
    }
    // The inline strings among them (every eighth row), at the edges of
    // chunks and eights and in chunks of their own: padding, a first
    // byte that cannot start a row, and a length past what is inline.
    for at in [7, 15, 63, 71, 127, 135, 199, 295] {
        let good = views[at];
        let len = word(good, 0);
        assert!(len <= 12, "row {at} is inline");
        let mut damaged = vec![
            with_word(good, 1, word(good, 1) & !0xFF | 0x80),
            with_word(good, 0, 13),
            with_word(good, 0, u32::MAX),
        ];
        if len < 12 {
            damaged.push(good | 1 << (8 * (4 + len) + 1));
            damaged.push(good | 1 << 127);
            damaged.push(with_word(good, 0, len + 1));
        }
        for bad in damaged {
            let mut views = views.clone();
            views[at] = bad;
            each_ruleset!(check_views(&views, &buffers, None));
            let nulls = Some((every_third_null.as_slice(), 0));
            each_ruleset!(check_views(&views, &buffers, nulls));
        }
        // A character cut across this inline string and the next (eight
        // rows on), which the packed inline strings hold back to back.
        let next = at + 8;
        if len < 12 && next < rows.len() && rows[next].len() < 12 {
            let mut cut: Vec<Vec<u8>> = rows.iter().map(|row| row.to_vec()).collect();
            cut[at].push(0xC3);
            cut[next].insert(0, 0xA9);
            let cut: Vec<&[u8]> = cut.iter().map(Vec::as_slice).collect();
            let (views, buffers) = views_back_to_back(&cut);
            each_ruleset!(check_views(&views, &buffers, None));
        }
    }
    // Null rows with no string, as builders write them, so that the kept
    // strings lie back to back; then one null row's view malformed.
    let sparse: Vec<&[u8]> = (rows.iter().enumerate())
        .map(|(row, &string)| if row % 3 == 0 { &b""[..] } else { string })
        .collect();
    let (views, buffers) = views_back_to_back(&sparse);
    let nulls = Some((every_third_null.as_slice(), 0));
    each_ruleset!(check_views(&views, &buffers, nulls));
    for at in [3, 63, 66, 129, 195, 297] {
        let long = views[at..]
            .iter()
            .copied()
            .find(|&view| word(view, 0) > 12)
            .expect("a long string after the row");
        for bad in [
            with_word(long, 3, word(long, 3) + 1),
            with_word(long, 0, u32::MAX),
            with_word(long, 2, 1),
            1 << 127,
        ] {
            let mut views = views.clone();
            views[at] = bad;
            each_ruleset!(check_views(&views, &buffers, nulls));
        }
    }
}

#[test]
fn a_page_cut_inside_a_length_or_a_value_is_truncated_at_that_row() {
    this_run();
    use utf8_core::column::PlainPage;
    let rows: [&[u8]; 3] = [b"ok", b"", "caf\u{e9}".as_bytes()];
    let page = page_of(&rows, b"");
    // Cut at every byte: inside row 0's length (0..4), its value (4..6),
    // row 1's length (6..10), row 2's length (10..14) and value (14..19).
    for cut in 0..=page.len() {
        let want_row = match cut {
            0..=5 => Some(0),
            6..=9 => Some(1),
            10..=18 => Some(2),
            _ => None,
        };
        let got = PlainPage::new(&page[..cut], 3)
            .map(drop)
            .map_err(|e| (e.row(), e.layout_error()));
        assert_eq!(
            got,
            want_row.map_or(Ok(()), |row| Err((row, Some(Layout::PageTruncated))))
        );
        for count in 0..=4 {
            each_ruleset!(check_page(&page[..cut], count));
        }
    }
    // A length that runs past the page, or past any address.
    for len in [6u32, 1 << 31, u32::MAX] {
        let mut page = page.clone();
        page[10..14].copy_from_slice(&len.to_le_bytes());
        let e = PlainPage::new(&page, 3).unwrap_err();
        assert_eq!(
            (e.row(), e.layout_error()),
            (2, Some(Layout::PageTruncated))
        );
        each_ruleset!(check_page(&page, 3));
    }
}

// ---------------------------------------------------------------------------
// Random malformations.

/// Something done to a well-formed column.
#[derive(Clone, Debug)]
enum Damage {
    /// Offset `at` (modulo their count) set to a value near an edge.
    Offset {
        at: usize,
        value: i128,
    },
    /// No offsets at all.
    NoOffsets,
    /// A bit of a view flipped.
    ViewBit {
        at: usize,
        bit: u32,
    },
    /// A word of a view (0 the length, 1 the prefix or data, 2 the buffer,
    /// 3 the offset) set.
    ViewWord {
        at: usize,
        word: usize,
        value: u32,
    },
    /// The page cut short, or a bit of it flipped, or its count raised.
    PageCut(usize),
    PageBit(usize, u8),
    PageCount(usize),
    /// The bitmap cut short, or its bit offset moved.
    BitmapCut(usize),
    BitmapOffset(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    let edge = prop_oneof![
        Just(-1i128),
        Just(i32::MIN as i128),
        Just(i32::MAX as i128),
        Just(i32::MAX as i128 + 1),
        Just(u32::MAX as i128 + 1),
        Just(i64::MAX as i128),
        Just(i64::MIN as i128),
        Just(u64::MAX as i128),
        0i128..400,
    ];
    prop_oneof![
        (any::<usize>(), edge).prop_map(|(at, value)| Damage::Offset { at, value }),
        Just(Damage::NoOffsets),
        (any::<usize>(), 0u32..128).prop_map(|(at, bit)| Damage::ViewBit { at, bit }),
        (
            any::<usize>(),
            0usize..4,
            prop_oneof![0u32..40, any::<u32>()]
        )
            .prop_map(|(at, word, value)| Damage::ViewWord { at, word, value }),
        any::<usize>().prop_map(Damage::PageCut),
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Damage::PageBit(at, bit)),
        (1usize..4).prop_map(Damage::PageCount),
        any::<usize>().prop_map(Damage::BitmapCut),
        (1usize..20).prop_map(Damage::BitmapOffset),
    ]
}

proptest! {
    #![proptest_config(proptest_config(this_run().cases(512)))]

    #[test]
    fn damaged_layouts_are_the_right_layout_error_or_agree_with_the_per_row_reference(
        spec in column_spec(0..40),
        damages in prop::collection::vec(damage(), 1..3),
    ) {
        let built = build(&spec);
        let rows = built.rows();
        let mut values = spec.before.to_vec();
        let mut offsets = vec![values.len() as i128];
        for row in &rows {
            values.extend_from_slice(row);
            offsets.push(values.len() as i128);
        }
        values.extend_from_slice(spec.after);
        let (mut views, buffers) = views_of(&rows, spec.buffers);
        let mut page = page_of(&rows, spec.after);
        let mut count = rows.len();
        let mut nulls = built.nulls.clone();
        for damage in &damages {
            match *damage {
                Damage::Offset { at, value } => {
                    let at = at % offsets.len().max(1);
                    if let Some(offset) = offsets.get_mut(at) {
                        *offset = value;
                    }
                }
                Damage::NoOffsets => offsets.clear(),
                Damage::ViewBit { at, bit } => {
                    if !views.is_empty() {
                        let at = at % views.len();
                        views[at] ^= 1 << bit;
                    }
                }
                Damage::ViewWord { at, word, value } => {
                    if !views.is_empty() {
                        let at = at % views.len();
                        let mut bytes = views[at].to_le_bytes();
                        bytes[4 * word..4 * word + 4].copy_from_slice(&value.to_le_bytes());
                        views[at] = u128::from_le_bytes(bytes);
                    }
                }
                Damage::PageCut(at) => page.truncate(at % (page.len() + 1)),
                Damage::PageBit(at, bit) => {
                    if !page.is_empty() {
                        let at = at % page.len();
                        page[at] ^= 1 << bit;
                    }
                }
                Damage::PageCount(more) => count += more,
                Damage::BitmapCut(at) => {
                    if let Some((bits, _)) = &mut nulls {
                        let len = at % (bits.len() + 1);
                        bits.truncate(len);
                    }
                }
                Damage::BitmapOffset(more) => {
                    if let Some((_, offset)) = &mut nulls {
                        *offset += more;
                    }
                }
            }
        }
        let nulls = nulls.as_ref().map(|(bits, offset)| (bits.as_slice(), *offset));
        check_offsets_every_type(&offsets, &values, nulls);
        each_ruleset!(check_views(&views, &buffers, nulls));
        each_ruleset!(check_page(&page, count));
    }
}

// ---------------------------------------------------------------------------
// Batch edges.

/// In-place check: batches of this many rows.
const IN_PLACE_ROWS: usize = 1024;
/// The views' in-place check: batches of this many views.
const IN_PLACE_VIEWS: usize = 1024;
/// Copying check: rows longer than this are checked where they lie.
const COPY_LIMIT: usize = 256;

/// How many rows of `len` bytes the copying check puts in one batch: each
/// takes its length and a separator, a batch holds fewer than 4096 bytes
/// and at most 512 rows.
fn copied_per_batch(len: usize) -> usize {
    let (mut bytes, mut rows) = (0, 0);
    while rows < 512 && bytes + len < 4096 {
        bytes += len + 1;
        rows += 1;
    }
    rows
}

/// A valid row of exactly `len` bytes that ends in a two-byte character,
/// so that its last byte is a continuation byte.
fn row_of(len: usize) -> Vec<u8> {
    let mut row = vec![b'a'; len.saturating_sub(2)];
    row.extend_from_slice(&"é".as_bytes()[..len.min(2)]);
    if len == 1 {
        row = b"a".to_vec();
    }
    row
}

/// Rows `at` changed by `edit`: made invalid at their end, split with the
/// next (DuckDB's case), made empty, or given an invalid first byte.
#[derive(Clone, Copy, Debug)]
enum Edit {
    TruncatedEnd,
    SplitWithNext,
    Empty,
    InvalidFirst,
}

fn edited(mut rows: Vec<Vec<u8>>, at: &[usize], edit: Edit) -> Vec<Vec<u8>> {
    for &row in at {
        if row >= rows.len() {
            continue;
        }
        match edit {
            Edit::TruncatedEnd => rows[row].push(0xE2),
            Edit::SplitWithNext => {
                rows[row].push(0xC3);
                if let Some(next) = rows.get_mut(row + 1) {
                    next.insert(0, 0xA9);
                }
            }
            Edit::Empty => rows[row].clear(),
            Edit::InvalidFirst => rows[row].insert(0, 0x80),
        }
    }
    rows
}

/// One column in the layouts of the batch tests.
#[derive(Clone, Copy)]
struct Layouts<'a> {
    offsets: &'a [i32],
    values: &'a [u8],
    views: &'a [u128],
    buffers: &'a [Vec<u8>],
    page: &'a [u8],
    count: usize,
    nulls: Option<(&'a [u8], usize)>,
}

fn under<R: utf8_core::Ruleset>(dialect: &utf8_tests::columns::Dialect, column: Layouts<'_>) {
    check_offsets::<i32, R>(dialect, column.offsets, column.values, column.nulls);
    check_views::<R>(dialect, column.views, column.buffers, column.nulls);
    if column.nulls.is_none() {
        check_page::<R>(dialect, column.page, column.count);
    }
}

/// The layouts of the batch tests, under the rulesets that take each way
/// through them: RFC 3629 (first bytes mark boundaries; a separator),
/// CESU-8 (the same by its own table) and WTF-8 (a row at a time). Offsets
/// as `i32` only: the type changes nothing past `new`.
fn check_batches(rows: &[Vec<u8>], nulls: Option<(&[u8], usize)>) {
    let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
    let mut values = b"\xC3".to_vec();
    let mut offsets = vec![values.len() as i32];
    for row in &rows {
        values.extend_from_slice(row);
        offsets.push(values.len() as i32);
    }
    values.push(0xA9);
    let (views, buffers) = views_of(&rows, 2);
    let page = page_of(&rows, b"\xA9");
    let column = Layouts {
        offsets: &offsets,
        values: &values,
        views: &views,
        buffers: &buffers,
        page: &page,
        count: rows.len(),
        nulls,
    };
    under::<utf8_core::Rfc3629>(&RFC3629, column);
    under::<utf8_core::cesu8::Cesu8>(&CESU8, column);
    under::<utf8_core::wtf8::Wtf8>(&WTF8, column);
    // The long rows back to back in one buffer: checked where they lie.
    let (views, buffers) = views_back_to_back(&rows);
    let column = Layouts {
        views: &views,
        buffers: &buffers,
        ..column
    };
    under::<utf8_core::Rfc3629>(&RFC3629, column);
}

#[test]
fn columns_at_the_batch_edges_agree_with_the_per_row_reference() {
    // A sample: one row, and a count past the edges of each kind of batch
    // (1025), edited at both rows of each edge only.
    let sample = this_run().sample;
    let counts: &[usize] = if sample {
        &[1, 1025]
    } else {
        &[0, 1, 511, 512, 513, 1023, 1024, 1025, 2049]
    };
    // Rows of one length each, and rows of mixed lengths either side of the
    // inline limit (12) and the copying limit.
    let mixed = [0usize, 5, 256, 257, 13, 255, 12, 1];
    let shapes: Vec<Box<dyn Fn(usize) -> usize>> = [0usize, 1, 12, 15, 255, 256, 257]
        .into_iter()
        .map(|len| Box::new(move |_| len) as Box<dyn Fn(usize) -> usize>)
        .chain([Box::new(move |row: usize| mixed[row % mixed.len()]) as Box<_>])
        .collect();
    for len_of in &shapes {
        for &count in counts {
            let rows: Vec<Vec<u8>> = (0..count).map(|row| row_of(len_of(row))).collect();
            // The first row of each batch (and the last row of the one
            // before), for either check: the copying check's batches of
            // this shape when its rows are copied.
            let per_batch = copied_per_batch(len_of(0));
            let mut edges: Vec<usize> = (1..=count / IN_PLACE_VIEWS)
                .map(|k| k * IN_PLACE_VIEWS)
                .collect();
            debug_assert!(IN_PLACE_ROWS.is_multiple_of(IN_PLACE_VIEWS));
            if len_of(0) <= COPY_LIMIT && len_of(1) == len_of(0) {
                edges.extend((1..=count / per_batch).map(|k| k * per_batch));
            }
            edges.extend([count.saturating_sub(1), count]);
            let lasts: Vec<usize> = edges.iter().map(|e| e.saturating_sub(1)).collect();
            let both = [lasts.clone(), edges.clone()].concat();
            check_batches(&rows, None);
            let ats = if sample {
                vec![&both]
            } else {
                vec![&lasts, &edges, &both]
            };
            for at in ats {
                for edit in [
                    Edit::TruncatedEnd,
                    Edit::SplitWithNext,
                    Edit::Empty,
                    Edit::InvalidFirst,
                ] {
                    check_batches(&edited(rows.clone(), at, edit), None);
                }
            }
            // The edited rows null, their invalid bytes skipped, under a
            // bitmap at bit 5.
            let mut bits = vec![0xFFu8; (5 + count).div_ceil(8)];
            for &row in both.iter().filter(|&&row| row < count) {
                bits[(5 + row) / 8] &= !(1 << ((5 + row) % 8));
            }
            check_batches(
                &edited(rows.clone(), &both, Edit::SplitWithNext),
                Some((&bits, 5)),
            );
        }
    }
}

/// `Offsets::new` over `wide` converted to `O`, where every offset fits
/// in it, fails at `row` with `layout`.
fn expect_fault<O>(wide: &[i128], values: &[u8], row: usize, layout: Layout)
where
    O: utf8_core::column::Offset + TryFrom<i128> + std::fmt::Debug,
{
    if let Ok(offsets) = wide
        .iter()
        .map(|&o| O::try_from(o))
        .collect::<Result<Vec<O>, _>>()
    {
        let e = utf8_core::column::Offsets::new(&offsets, values).unwrap_err();
        assert_eq!(
            (e.row(), e.layout_error()),
            (row, Some(layout)),
            "{offsets:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Levels.

/// The column API picks its vector level itself: every test above runs
/// again at each level this CPU has below its own (AVX-512 without VBMI2's
/// views kernel, AVX2, SSE4.1, none), a sample of its cases, each level in
/// a process of its own (`utf8_tests::levels`).
#[test]
fn every_test_here_passes_at_each_lower_vector_level_this_cpu_has() {
    each_lower_level("every_test_here_passes_at_each_lower_vector_level_this_cpu_has");
}
