//! The column API (`utf8_core::column`): the fuzzer's bytes decoded into a
//! column (offsets of any type, views or a PLAIN page; a null bitmap at a
//! bit offset; a ruleset), well formed or damaged, and every entry point
//! (`new`, `with_nulls`, `validate`, `invalid_rows`, `write_validity`,
//! `lossy`) held to `utf8_tests::columns`, which works each answer out a
//! row at a time: a malformed layout must be the error its definition
//! names, at its row, and never a panic; a well-formed one must agree with
//! the ruleset's per-row check (`core::str::from_utf8` for RFC 3629) and
//! repair. The values, data buffer, page and bitmap each lie in memory
//! that ends where they end, so that AddressSanitizer reports a read past
//! any of them.
//!
//! The input: a header of 6 bytes (layout and ruleset; offset type and
//! damage; bitmap bit offset, or none; the damage's place; the damage's
//! value; the alignment), then row lengths (a byte each; `FF` adds the
//! next byte to 255, for rows either side of 256), ended by `FE`; then the
//! bytes the rows are cut from, back to back.

#![no_main]

mod common;

use common::Placed;
use libfuzzer_sys::fuzz_target;
use utf8_core::Ruleset;
use utf8_tests::columns::{
    CESU8, Dialect, LEGACY31, MUTF8, RFC2279, RFC3629, WTF8, check_offsets, check_page,
    check_views, page_of, views_back_to_back, views_of,
};

/// What the header asks for.
struct Header {
    layout: u8,
    ruleset: u8,
    offset_type: u8,
    damage: u8,
    nulls: Option<usize>,
    at: usize,
    value: u8,
    alignment: usize,
}

/// The rows the input describes, and the header.
fn decode(data: &[u8]) -> Option<(Header, Vec<&[u8]>)> {
    let (header, mut rest) = data.split_first_chunk::<6>()?;
    let header = Header {
        layout: header[0] % 4,
        ruleset: header[0] / 4 % 6,
        offset_type: header[1] % 5,
        damage: header[1] / 5 % 12,
        nulls: (header[2] < 0xC0).then_some(usize::from(header[2] % 24)),
        at: usize::from(header[3]),
        value: header[4],
        alignment: usize::from(header[5]) % common::BLOCK,
    };
    let mut lengths = Vec::new();
    while let Some((&len, tail)) = rest.split_first() {
        rest = tail;
        match len {
            0xFE => break,
            0xFF => {
                let (&more, tail) = rest.split_first().unwrap_or((&0, rest));
                rest = tail;
                lengths.push(255 + usize::from(more));
            }
            len => lengths.push(usize::from(len)),
        }
    }
    let mut rows = Vec::with_capacity(lengths.len());
    for len in lengths {
        let (row, tail) = rest.split_at(len.min(rest.len()));
        rows.push(row);
        rest = tail;
    }
    Some((header, rows))
}

/// A value near one of the edges a malformed offset has.
fn offset_value(value: u8, values: usize) -> i128 {
    match value % 10 {
        0 => -1,
        1 => i128::from(i32::MIN),
        2 => i128::from(i32::MAX),
        3 => i128::from(u32::MAX) + 1,
        4 => i128::from(i64::MIN),
        5 => i128::from(i64::MAX),
        6 => i128::from(u64::MAX),
        7 => values as i128 + 1,
        _ => i128::from(value / 10),
    }
}

fn check<R: Ruleset>(dialect: &Dialect, header: &Header, rows: &[&[u8]]) {
    let Header {
        damage, at, value, ..
    } = *header;
    // The bitmap: every row whose bit in `value`'s pattern is 0 null; cut
    // short by damage 10.
    let mut bits = header.nulls.map(|offset| {
        let mut bits = vec![0u8; (offset + rows.len()).div_ceil(8)];
        for row in 0..rows.len() {
            if value.rotate_left(row as u32) & 1 == 1 || row % 3 == 0 {
                bits[(offset + row) / 8] |= 1 << ((offset + row) % 8);
            }
        }
        (bits, offset)
    });
    if damage == 10 {
        if let Some((bits, _)) = &mut bits {
            bits.truncate(at % (bits.len() + 1));
        }
    }
    let placed_bits = bits
        .as_ref()
        .map(|(b, o)| (Placed::new(b, header.alignment), *o));
    let nulls = placed_bits.as_ref().map(|(b, o)| (b.bytes(), *o));

    match header.layout {
        0 | 1 => {
            // Offsets over the rows back to back, a byte of junk before
            // (when `value` is odd) and after; damage 0-3 sets one offset.
            let junk = b"\xC3\xA9";
            let mut values = Vec::new();
            if value & 1 == 1 {
                values.push(junk[1]);
            }
            let mut offsets = vec![values.len() as i128];
            for row in rows {
                values.extend_from_slice(row);
                offsets.push(values.len() as i128);
            }
            values.push(junk[0]);
            match damage {
                0..=2 if !offsets.is_empty() => {
                    let k = at % offsets.len();
                    offsets[k] = offset_value(value, values.len());
                }
                3 => offsets.clear(),
                _ => {}
            }
            let placed = Placed::new(&values, header.alignment);
            let values = placed.bytes();
            match header.offset_type {
                0 => each::<i32, R>(dialect, &offsets, values, nulls),
                1 => each::<i64, R>(dialect, &offsets, values, nulls),
                2 => each::<u32, R>(dialect, &offsets, values, nulls),
                3 => each::<u64, R>(dialect, &offsets, values, nulls),
                _ => each::<usize, R>(dialect, &offsets, values, nulls),
            }
        }
        2 => {
            // Views over one or two buffers, with bytes between strings, or
            // their strings back to back in one (the check in place);
            // damage 4-6 flips a bit of a view, 7 sets a word.
            let (mut views, buffers) = if value & 2 == 0 {
                views_of(rows, 1 + usize::from(value & 1))
            } else {
                views_back_to_back(rows)
            };
            if !views.is_empty() {
                let k = at % views.len();
                match damage {
                    4..=6 => views[k] ^= 1 << (value % 128),
                    7 => {
                        let mut bytes = views[k].to_le_bytes();
                        let word = 4 * usize::from(value % 4);
                        let new = u32::from(value) * 0x0101_0101 >> (at % 32);
                        bytes[word..word + 4].copy_from_slice(&new.to_le_bytes());
                        views[k] = u128::from_le_bytes(bytes);
                    }
                    _ => {}
                }
            }
            let placed: Vec<Placed> = buffers
                .iter()
                .map(|b| Placed::new(b, header.alignment))
                .collect();
            let buffers: Vec<&[u8]> = placed.iter().map(Placed::bytes).collect();
            check_views::<R>(dialect, &views, &buffers, nulls);
        }
        _ => {
            // A page with a byte of junk after it; damage 8 cuts it short,
            // 9 asks for more values than it has.
            let mut page = page_of(rows, &[value]);
            let mut count = rows.len();
            match damage {
                8 => page.truncate(at % (page.len() + 1)),
                9 => count += 1 + usize::from(value % 3),
                _ => {}
            }
            let placed = Placed::new(&page, header.alignment);
            check_page::<R>(dialect, placed.bytes(), count);
        }
    }
}

/// The offsets in type `O`, when they fit it.
fn each<O, R: Ruleset>(
    dialect: &Dialect,
    offsets: &[i128],
    values: &[u8],
    nulls: Option<(&[u8], usize)>,
) where
    O: utf8_core::column::Offset + TryFrom<usize> + TryFrom<i128> + PartialEq + core::fmt::Debug,
    i128: TryFrom<O>,
{
    let Ok(offsets) = offsets
        .iter()
        .map(|&o| O::try_from(o))
        .collect::<Result<Vec<O>, _>>()
    else {
        return;
    };
    check_offsets::<O, R>(dialect, &offsets, values, nulls);
}

fuzz_target!(|data: &[u8]| {
    let Some((header, rows)) = decode(data) else {
        return;
    };
    match header.ruleset {
        0 => check::<utf8_core::Rfc3629>(&RFC3629, &header, &rows),
        1 => check::<utf8_core::cesu8::Cesu8>(&CESU8, &header, &rows),
        2 => check::<utf8_core::mutf8::Mutf8>(&MUTF8, &header, &rows),
        3 => check::<utf8_core::wtf8::Wtf8>(&WTF8, &header, &rows),
        4 => check::<utf8_core::rfc2279::Rfc2279>(&RFC2279, &header, &rows),
        _ => check::<utf8_core::legacy31::Legacy31>(&LEGACY31, &header, &rows),
    }
});
