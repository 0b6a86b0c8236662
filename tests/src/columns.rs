//! What the column API (`utf8_core::column`) should answer, worked out a
//! row at a time from the layout's own definition: which malformation a
//! layout has and at which row, each row's bytes, and each row's verdict
//! and repair under a ruleset's byte-at-a-time check. One `check_*`
//! function per layout holds every entry point (`new`, `with_nulls`,
//! `validate`, `invalid_rows`, `write_validity`, `lossy`) to them.
//!
//! This file uses nothing but `utf8_core`, std and `crate::oracles`, so
//! that utf8-core's Miri suite can include it by path, as it does the
//! bounds catalogue, and the fuzz target can use it without proptest.

use std::fmt::Write as _;

use utf8_core::column::{
    Column, ColumnError, Layout, LossyOffsets, LossyViews, Nulls, Offset, Offsets, PlainPage, Views,
};
use utf8_core::{Chunks, Ruleset, cesu8, legacy31, mutf8, rfc2279, wtf8};

use crate::catalogue::Hex;
use crate::oracles::{Verdict, std_verdict, verdict};

/// A ruleset's references: its per-row verdict and its per-row repair.
pub struct Dialect {
    pub name: &'static str,
    pub reference: fn(&[u8]) -> Verdict,
    pub lossy: fn(&[u8]) -> Vec<u8>,
}

/// `core::str::from_utf8` and `String::from_utf8_lossy`.
pub const RFC3629: Dialect = Dialect {
    name: "rfc3629",
    reference: std_verdict,
    lossy: |row| String::from_utf8_lossy(row).into_owned().into_bytes(),
};
pub const CESU8: Dialect = Dialect {
    name: "cesu8",
    reference: |row| verdict(cesu8::validate_const(row)),
    lossy: lossy_by_chunks::<cesu8::Cesu8>,
};
pub const MUTF8: Dialect = Dialect {
    name: "mutf8",
    reference: |row| verdict(mutf8::validate_const(row)),
    lossy: lossy_by_chunks::<mutf8::Mutf8>,
};
pub const WTF8: Dialect = Dialect {
    name: "wtf8",
    reference: |row| verdict(wtf8::validate_const(row)),
    lossy: lossy_by_chunks::<wtf8::Wtf8>,
};
pub const RFC2279: Dialect = Dialect {
    name: "rfc2279",
    reference: |row| verdict(rfc2279::validate_const(row)),
    lossy: lossy_by_chunks::<rfc2279::Rfc2279>,
};
pub const LEGACY31: Dialect = Dialect {
    name: "legacy31",
    reference: |row| verdict(legacy31::validate_const(row)),
    lossy: lossy_by_chunks::<legacy31::Legacy31>,
};

/// Each maximal invalid subpart (as the dialect's chunks find them)
/// replaced by U+FFFD.
fn lossy_by_chunks<R: Ruleset>(row: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(row.len());
    for chunk in Chunks::<R>::new(row) {
        out.extend_from_slice(chunk.valid());
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
    out
}

/// Calls `$check::<R>(&DIALECT, args...)` for every built-in ruleset.
#[macro_export]
macro_rules! each_ruleset {
    ($check:ident $(::<$($t:ty),*>)? ($($arg:expr),* $(,)?)) => {{
        use $crate::columns::{CESU8, LEGACY31, MUTF8, RFC2279, RFC3629, WTF8};
        $check::<$($($t,)*)? utf8_core::Rfc3629>(&RFC3629, $($arg),*);
        $check::<$($($t,)*)? utf8_core::cesu8::Cesu8>(&CESU8, $($arg),*);
        $check::<$($($t,)*)? utf8_core::mutf8::Mutf8>(&MUTF8, $($arg),*);
        $check::<$($($t,)*)? utf8_core::wtf8::Wtf8>(&WTF8, $($arg),*);
        $check::<$($($t,)*)? utf8_core::rfc2279::Rfc2279>(&RFC2279, $($arg),*);
        $check::<$($($t,)*)? utf8_core::legacy31::Legacy31>(&LEGACY31, $($arg),*);
    }};
}

// ---------------------------------------------------------------------------
// The layouts, read a row at a time.

/// A null bitmap: the bits and the bit of row 0.
pub type Bitmap<'a> = Option<(&'a [u8], usize)>;

/// The malformation `with_nulls` should find for `rows` rows.
pub fn nulls_fault(nulls: Bitmap<'_>, rows: usize) -> Option<(usize, Layout)> {
    let (bits, offset) = nulls?;
    let available = bits.len() * 8;
    (offset.checked_add(rows)? > available).then(|| {
        (
            available.saturating_sub(offset).min(rows),
            Layout::NullsTooShort,
        )
    })
}

/// Whether each of `rows` rows holds a value.
pub fn holds(nulls: Bitmap<'_>, rows: usize) -> Vec<bool> {
    (0..rows)
        .map(|row| match nulls {
            None => true,
            Some((bits, offset)) => bits[(offset + row) / 8] >> ((offset + row) % 8) & 1 == 1,
        })
        .collect()
}

/// The malformation `Offsets::new` should find: the first offset, in
/// order, that is negative or past `usize`, below the one before, or past
/// the values; named by the row it ends (row 0 for the first).
pub fn offsets_fault<O: Offset>(offsets: &[O], values: usize) -> Option<(usize, Layout)>
where
    i128: TryFrom<O>,
{
    if offsets.is_empty() {
        return Some((0, Layout::NoOffsets));
    }
    let mut previous = 0i128;
    for (k, &offset) in offsets.iter().enumerate() {
        let row = k.saturating_sub(1);
        let at = i128::try_from(offset)
            .ok()
            .expect("every offset type fits i128");
        if at < 0 || at > usize::MAX as i128 {
            return Some((row, Layout::OffsetOutOfRange));
        }
        if k > 0 && at < previous {
            return Some((row, Layout::OffsetsDecrease));
        }
        if at > values as i128 {
            return Some((row, Layout::OffsetPastValues));
        }
        previous = at;
    }
    None
}

/// The rows of a well-formed offsets column.
pub fn offsets_rows<'a, O: Offset>(offsets: &[O], values: &'a [u8]) -> Vec<&'a [u8]>
where
    i128: TryFrom<O>,
{
    let index = |o: O| usize::try_from(i128::try_from(o).ok().expect("fits")).expect("in range");
    offsets
        .windows(2)
        .map(|pair| &values[index(pair[0])..index(pair[1])])
        .collect()
}

/// A view's string, or its malformation, from the Arrow format's words:
/// length, then 12 bytes inline or prefix, buffer index and offset.
pub fn view_text<B: AsRef<[u8]>>(view: u128, buffers: &[B]) -> Result<Vec<u8>, Layout> {
    let bytes = view.to_le_bytes();
    let len = u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes")) as usize;
    if len <= 12 {
        if bytes[4 + len..].iter().any(|&b| b != 0) {
            return Err(Layout::ViewPadding);
        }
        return Ok(bytes[4..4 + len].to_vec());
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let buffer = buffers
        .get(word(8) as usize)
        .ok_or(Layout::ViewBufferIndex)?
        .as_ref();
    let offset = word(12) as u64;
    if offset + len as u64 > buffer.len() as u64 {
        return Err(Layout::ViewRange);
    }
    let text = &buffer[offset as usize..offset as usize + len];
    if text[..4] != bytes[4..8] {
        return Err(Layout::ViewPrefix);
    }
    Ok(text.to_vec())
}

/// The malformation `Views::new` should find: the first view's, null or not.
pub fn views_fault<B: AsRef<[u8]>>(views: &[u128], buffers: &[B]) -> Option<(usize, Layout)> {
    views
        .iter()
        .enumerate()
        .find_map(|(row, &view)| view_text(view, buffers).err().map(|fault| (row, fault)))
}

/// A view of `text`: inline when it fits, else at `offset` in `buffer`
/// (where the caller puts it).
pub fn view_of(text: &[u8], buffer: u32, offset: u32) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..4].copy_from_slice(&(text.len() as u32).to_le_bytes());
    if text.len() <= 12 {
        bytes[4..4 + text.len()].copy_from_slice(text);
    } else {
        bytes[4..8].copy_from_slice(&text[..4]);
        bytes[8..12].copy_from_slice(&buffer.to_le_bytes());
        bytes[12..16].copy_from_slice(&offset.to_le_bytes());
    }
    u128::from_le_bytes(bytes)
}

/// The rows of a PLAIN page of `count` values, or the row the page ends in.
pub fn page_rows(page: &[u8], count: usize) -> Result<Vec<&[u8]>, (usize, Layout)> {
    let mut rows = Vec::new();
    let mut rest = page;
    for row in 0..count {
        let truncated = (row, Layout::PageTruncated);
        let (prefix, tail) = rest.split_at_checked(4).ok_or(truncated)?;
        let len = u32::from_le_bytes(prefix.try_into().expect("4 bytes")) as usize;
        let (value, tail) = tail.split_at_checked(len).ok_or(truncated)?;
        rows.push(value);
        rest = tail;
    }
    Ok(rows)
}

/// A PLAIN page of `rows`, then `after`.
pub fn page_of(rows: &[&[u8]], after: &[u8]) -> Vec<u8> {
    let mut page = Vec::new();
    for row in rows {
        page.extend_from_slice(&(row.len() as u32).to_le_bytes());
        page.extend_from_slice(row);
    }
    page.extend_from_slice(after);
    page
}

// ---------------------------------------------------------------------------
// The checks.

/// The rows, for a failure message: every row of a short column, else the
/// few around `row`.
fn describe(rows: &[&[u8]], holds: &[bool], row: usize) -> String {
    let shown = if rows.len() <= 16 {
        0..rows.len()
    } else {
        row.saturating_sub(3)..(row + 4).min(rows.len())
    };
    let mut text = format!("{} rows; ", rows.len());
    for k in shown {
        let null = if holds[k] { "" } else { " (null)" };
        let _ = write!(text, "\n  row {k}{null}: {}", Hex(rows[k]));
    }
    text
}

/// The row of the first difference of two lists of invalid rows.
fn first_difference(got: &[(usize, Verdict)], want: &[(usize, Verdict)]) -> usize {
    let k = got.iter().zip(want).take_while(|(g, w)| g == w).count();
    got.get(k).or(want.get(k)).map_or(0, |(row, _)| *row)
}

/// Holds `validate`, `invalid_rows` and `write_validity` to the per-row
/// reference; returns whether each row is invalid (a null one never is).
fn expect_rows<C: Column, R: Ruleset>(
    what: &str,
    dialect: &Dialect,
    column: &C,
    rows: &[&[u8]],
    holds: &[bool],
) -> Vec<bool> {
    let want: Vec<(usize, Verdict)> = rows
        .iter()
        .enumerate()
        .filter(|&(row, _)| holds[row])
        .map(|(row, bytes)| (row, (dialect.reference)(bytes)))
        .filter(|(_, verdict)| verdict.is_err())
        .collect();
    let fail = |entry: &str, got: &dyn std::fmt::Debug, want: &dyn std::fmt::Debug, row| {
        panic!(
            "{what} under {}: {entry}: got {got:?}, want {want:?}\n{}",
            dialect.name,
            describe(rows, holds, row)
        )
    };
    assert_eq!(column.len(), rows.len(), "{what}: len");
    assert_eq!(column.is_empty(), rows.is_empty(), "{what}: is_empty");

    let got: Vec<(usize, Verdict)> = column
        .invalid_rows::<R>()
        .map(|(row, error)| (row, verdict(Err(error))))
        .collect();
    if got != want {
        fail("invalid_rows", &got, &want, first_difference(&got, &want));
    }
    let mut rows_iter = column.invalid_rows::<R>();
    rows_iter.by_ref().for_each(drop);
    if rows_iter.next().is_some() {
        fail("invalid_rows after its end", &"Some", &"None", 0);
    }

    let first = column
        .validate::<R>()
        .map_err(|e| (e.row(), e.utf8_error().map(|e| verdict(Err(e)))));
    let want_first = want.first().map_or(Ok(()), |&(row, v)| Err((row, Some(v))));
    if first != want_first {
        let row = want.first().map_or(0, |w| w.0);
        fail("validate", &first, &want_first, row);
    }

    let invalid: Vec<bool> = (0..rows.len())
        .map(|row| want.iter().any(|w| w.0 == row))
        .collect();
    let bytes = rows.len().div_ceil(8);
    let mut out = vec![0xA5u8; bytes + 2];
    let count = column.write_validity::<R>(&mut out);
    let mut want_bits = vec![0u8; bytes];
    for row in 0..rows.len() {
        if holds[row] && !invalid[row] {
            want_bits[row / 8] |= 1 << (row % 8);
        }
    }
    let want_count = (0..rows.len()).filter(|&r| holds[r] && !invalid[r]).count();
    if (count, &out[..bytes]) != (want_count, &want_bits[..]) || out[bytes..] != [0xA5; 2] {
        let got = (count, Hex(&out));
        let want = (want_count, Hex(&want_bits));
        let row = (0..bytes)
            .find(|&b| out[b] != want_bits[b])
            .map_or(0, |b| b * 8);
        fail("write_validity", &got, &want, row);
    }
    invalid
}

/// Which rows `lossy` repairs: every row whose bytes the dialect's
/// reference refuses, null or not, since a repaired column is string data
/// whose every slot holds text.
fn invalid_bytes(dialect: &Dialect, rows: &[&[u8]]) -> Vec<bool> {
    rows.iter()
        .map(|row| (dialect.reference)(row).is_err())
        .collect()
}

/// What each row should hold after `lossy`: an invalid row repaired, null
/// or not, the others as they are.
fn repaired(dialect: &Dialect, rows: &[&[u8]], invalid: &[bool]) -> Vec<Vec<u8>> {
    rows.iter()
        .zip(invalid)
        .map(|(row, &bad)| {
            if bad {
                (dialect.lossy)(row)
            } else {
                row.to_vec()
            }
        })
        .collect()
}

/// Every entry point of an offsets column against the references:
/// `Offsets::new` and `with_nulls` against the layout's own definition,
/// then the rows, and `lossy`.
pub fn check_offsets<O: Offset + TryFrom<usize> + PartialEq + std::fmt::Debug, R: Ruleset>(
    dialect: &Dialect,
    offsets: &[O],
    values: &[u8],
    nulls: Bitmap<'_>,
) where
    i128: TryFrom<O>,
{
    let what = format!("Offsets<{}>", std::any::type_name::<O>());
    check_offsets_validated::<O, R>(dialect, offsets, values, nulls);
    let made = Offsets::new(offsets, values);
    let want = offsets_fault(offsets, values.len());
    let column = match (made, want) {
        (Err(e), Some(fault)) => return expect_fault(&what, e, fault),
        (Ok(column), None) => column,
        (made, want) => panic!(
            "{what}::new({offsets:?}, {} bytes): got {:?}, want {want:?}",
            values.len(),
            made.map(drop)
        ),
    };
    let rows = offsets_rows(offsets, values);
    let Some(column) = with_nulls(&what, column, nulls, rows.len(), Offsets::with_nulls) else {
        return;
    };
    let holds = holds(nulls, rows.len());
    expect_rows::<_, R>(&what, dialect, &column, &rows, &holds);
    let invalid = invalid_bytes(dialect, &rows);
    let lossy = column.lossy::<R>();
    let Ok(lossy) = lossy else {
        panic!("{what}: lossy under {}: {lossy:?}", dialect.name);
    };
    match lossy {
        LossyOffsets::Unchanged => assert!(
            !invalid.contains(&true),
            "{what}: lossy under {} left invalid rows unchanged",
            dialect.name
        ),
        LossyOffsets::Repaired { offsets, values } => {
            assert!(
                invalid.contains(&true),
                "{what}: lossy copied a valid column"
            );
            let want = repaired(dialect, &rows, &invalid);
            let mut want_offsets = vec![O::try_from(0).ok().expect("0")];
            let mut end = 0;
            for row in &want {
                end += row.len();
                want_offsets.push(O::try_from(end).ok().expect("fits"));
            }
            assert_eq!(
                (&offsets, values.as_slice()),
                (&want_offsets, want.concat().as_slice()),
                "{what}: lossy under {}\n{}",
                dialect.name,
                describe(&rows, &holds, 0)
            );
            let again = Offsets::new(&offsets, &values).expect("lossy's layout");
            let again = match nulls {
                Some((bits, offset)) => again.with_nulls(Nulls::new(bits, offset)).expect("same"),
                None => again,
            };
            assert_eq!(again.validate::<R>(), Ok(()), "{what}: lossy's output");
        }
    }
}

/// `Offsets::validated`, whose one pass checks the offsets a batch at a
/// time, against the three calls it stands for, which `check_offsets`
/// holds to the references: the same answer, the first malformed offset
/// before any invalid row.
fn check_offsets_validated<O: Offset, R: Ruleset>(
    dialect: &Dialect,
    offsets: &[O],
    values: &[u8],
    nulls: Bitmap<'_>,
) {
    let nulls = nulls.map(|(bits, offset)| Nulls::new(bits, offset));
    let want = Offsets::new(offsets, values)
        .and_then(|column| match nulls {
            Some(nulls) => column.with_nulls(nulls),
            None => Ok(column),
        })
        .and_then(|column| column.validate::<R>());
    let got = Offsets::validated::<R>(offsets, values, nulls).map(drop);
    assert_eq!(
        got,
        want,
        "Offsets<{}>::validated under {} ({} offsets, nulls {})",
        std::any::type_name::<O>(),
        dialect.name,
        offsets.len(),
        nulls.is_some()
    );
}

/// Every entry point of a views column against the references.
pub fn check_views<R: Ruleset>(
    dialect: &Dialect,
    views: &[u128],
    buffers: &[impl AsRef<[u8]>],
    nulls: Bitmap<'_>,
) {
    let what = "Views";
    check_validated::<R>(dialect, views, buffers, nulls);
    let made = Views::new(views, buffers);
    let want = views_fault(views, buffers);
    let column = match (made, want) {
        (Err(e), Some(fault)) => return expect_fault(what, e, fault),
        (Ok(column), None) => column,
        (made, want) => panic!(
            "Views::new({views:#034x?}): got {:?}, want {want:?}",
            made.map(drop)
        ),
    };
    let texts: Vec<Vec<u8>> = views
        .iter()
        .map(|&view| view_text(view, buffers).expect("checked"))
        .collect();
    let rows: Vec<&[u8]> = texts.iter().map(Vec::as_slice).collect();
    let Some(column) = with_nulls(what, column, nulls, rows.len(), Views::with_nulls) else {
        return;
    };
    let holds = holds(nulls, rows.len());
    expect_rows::<_, R>(what, dialect, &column, &rows, &holds);
    let invalid = invalid_bytes(dialect, &rows);
    let lossy = column.lossy::<R>();
    let Ok(lossy) = lossy else {
        panic!("{what}: lossy under {}: {lossy:?}", dialect.name);
    };
    match lossy {
        LossyViews::Unchanged => assert!(
            !invalid.contains(&true),
            "Views: lossy under {} left invalid rows unchanged",
            dialect.name
        ),
        LossyViews::Repaired {
            views: new_views,
            buffer,
        } => {
            assert!(
                invalid.contains(&true),
                "Views: lossy copied a valid column"
            );
            let mut all: Vec<&[u8]> = buffers.iter().map(AsRef::as_ref).collect();
            all.push(&buffer);
            let want = repaired(dialect, &rows, &invalid);
            assert_eq!(new_views.len(), views.len(), "Views: lossy's view count");
            for (row, &view) in new_views.iter().enumerate() {
                let got = view_text(view, &all);
                assert_eq!(
                    got.as_deref(),
                    Ok(want[row].as_slice()),
                    "Views: lossy under {}, row {row}\n{}",
                    dialect.name,
                    describe(&rows, &holds, row)
                );
                if !invalid[row] {
                    assert_eq!(view, views[row], "Views: lossy changed row {row}'s view");
                }
            }
            let again = Views::new(&new_views, &all).expect("lossy's layout");
            let again = match nulls {
                Some((bits, offset)) => again.with_nulls(Nulls::new(bits, offset)).expect("same"),
                None => again,
            };
            assert_eq!(again.validate::<R>(), Ok(()), "Views: lossy's output");
        }
    }
}

/// `Views::validated`, whose one pass checks the layout as it goes,
/// against the three calls it stands for, which `check_views` holds to the
/// references: the same answer, the first malformed view before any
/// invalid row.
fn check_validated<R: Ruleset>(
    dialect: &Dialect,
    views: &[u128],
    buffers: &[impl AsRef<[u8]>],
    nulls: Bitmap<'_>,
) {
    let nulls = nulls.map(|(bits, offset)| Nulls::new(bits, offset));
    let want = Views::new(views, buffers)
        .and_then(|column| match nulls {
            Some(nulls) => column.with_nulls(nulls),
            None => Ok(column),
        })
        .and_then(|column| column.validate::<R>());
    let got = Views::validated::<R>(views, buffers, nulls).map(drop);
    assert_eq!(
        got,
        want,
        "Views::validated under {} ({} views, nulls {})",
        dialect.name,
        views.len(),
        nulls.is_some()
    );
}

/// Every entry point of a PLAIN page against the references.
pub fn check_page<R: Ruleset>(dialect: &Dialect, page: &[u8], count: usize) {
    let what = "PlainPage";
    let made = PlainPage::new(page, count);
    let want = page_rows(page, count);
    let (column, rows) = match (made, want) {
        (Err(e), Err(fault)) => return expect_fault(what, e, fault),
        (Ok(column), Ok(rows)) => (column, rows),
        (made, want) => panic!(
            "PlainPage::new({}, {count}): got {:?}, want {:?}",
            Hex(page),
            made.map(drop),
            want.map(drop)
        ),
    };
    let end: usize = rows.iter().map(|r| 4 + r.len()).sum();
    assert_eq!(column.values_end(), end, "PlainPage::values_end");
    let holds = vec![true; rows.len()];
    let invalid = expect_rows::<_, R>(what, dialect, &column, &rows, &holds);
    let lossy = column.lossy::<R>();
    let Ok(lossy) = lossy else {
        panic!("{what}: lossy under {}: {lossy:?}", dialect.name);
    };
    match lossy {
        std::borrow::Cow::Borrowed(same) => {
            assert!(
                !invalid.contains(&true),
                "PlainPage: lossy left invalid rows"
            );
            assert!(
                std::ptr::eq(same, page),
                "PlainPage: lossy borrowed other bytes"
            );
        }
        std::borrow::Cow::Owned(new_page) => {
            assert!(
                invalid.contains(&true),
                "PlainPage: lossy copied a valid page"
            );
            let want = repaired(dialect, &rows, &invalid);
            let want: Vec<&[u8]> = want.iter().map(Vec::as_slice).collect();
            assert_eq!(
                Hex(&new_page).to_string(),
                Hex(&page_of(&want, &page[end..])).to_string(),
                "PlainPage: lossy under {}\n{}",
                dialect.name,
                describe(&rows, &holds, 0)
            );
            let again = PlainPage::new(&new_page, count).expect("lossy's layout");
            assert_eq!(again.validate::<R>(), Ok(()), "PlainPage: lossy's output");
        }
    }
}

/// The column with its bitmap, or `None` when `with_nulls` refused it as
/// it should have.
fn with_nulls<'a, C>(
    what: &str,
    column: C,
    nulls: Bitmap<'a>,
    rows: usize,
    with: fn(C, Nulls<'a>) -> Result<C, ColumnError>,
) -> Option<C> {
    let Some((bits, offset)) = nulls else {
        return Some(column);
    };
    match (
        with(column, Nulls::new(bits, offset)),
        nulls_fault(nulls, rows),
    ) {
        (Ok(column), None) => Some(column),
        (Err(e), Some(fault)) => {
            expect_fault(what, e, fault);
            None
        }
        (made, want) => panic!(
            "{what}::with_nulls({} bytes at bit {offset}, {rows} rows): got {:?}, want {want:?}",
            bits.len(),
            made.err()
        ),
    }
}

fn expect_fault(what: &str, error: ColumnError, (row, layout): (usize, Layout)) {
    assert_eq!(
        (error.row(), error.layout_error(), error.utf8_error()),
        (row, Some(layout), None),
        "{what}: the malformation"
    );
    // The message names the row and the malformation.
    let text = error.to_string();
    assert!(
        text.starts_with(&format!("row {row}: malformed column: {layout}")),
        "{text}"
    );
}

/// [`check_offsets`] for every offset type that holds every offset (given
/// as `i128`, so that negative and too large ones can be), and every
/// ruleset.
pub fn check_offsets_every_type(offsets: &[i128], values: &[u8], nulls: Bitmap<'_>) {
    fn each<O: Offset + TryFrom<usize> + TryFrom<i128> + PartialEq + std::fmt::Debug>(
        offsets: &[i128],
        values: &[u8],
        nulls: Bitmap<'_>,
    ) where
        i128: TryFrom<O>,
    {
        let Ok(offsets) = offsets
            .iter()
            .map(|&o| O::try_from(o))
            .collect::<Result<Vec<O>, _>>()
        else {
            return;
        };
        crate::each_ruleset!(check_offsets::<O>(&offsets, values, nulls));
    }
    each::<i32>(offsets, values, nulls);
    each::<i64>(offsets, values, nulls);
    each::<u32>(offsets, values, nulls);
    each::<u64>(offsets, values, nulls);
    each::<usize>(offsets, values, nulls);
}

/// A whole column in every layout, under every ruleset: offsets of every
/// type over `before`, the rows back to back, `after`; views over data
/// buffers of their own (the long rows spread over `buffers` of them, with
/// bytes between that would change a row's verdict if read with it); a
/// page (without the nulls: a page holds none), followed by `after`.
pub fn check_every_layout(
    rows: &[&[u8]],
    nulls: Bitmap<'_>,
    before: &[u8],
    after: &[u8],
    buffers: usize,
) {
    let mut values = before.to_vec();
    let mut offsets = vec![values.len() as i128];
    for row in rows {
        values.extend_from_slice(row);
        offsets.push(values.len() as i128);
    }
    values.extend_from_slice(after);
    check_offsets_every_type(&offsets, &values, nulls);

    let (views, data) = views_of(rows, buffers);
    crate::each_ruleset!(check_views(&views, &data, nulls));
    let (views, data) = views_back_to_back(rows);
    crate::each_ruleset!(check_views(&views, &data, nulls));

    let page = page_of(rows, after);
    crate::each_ruleset!(check_page(&page, rows.len()));
}

/// Views of `rows`, the long ones back to back in one data buffer, in row
/// order, as arrow-rs's `BinaryViewBuilder` writes them: the layout whose
/// strings are checked where they lie, many rows a call.
pub fn views_back_to_back(rows: &[&[u8]]) -> (Vec<u128>, Vec<Vec<u8>>) {
    let mut data = Vec::new();
    let views = rows
        .iter()
        .map(|row| {
            if row.len() <= 12 {
                return view_of(row, 0, 0);
            }
            let offset = data.len() as u32;
            data.extend_from_slice(row);
            view_of(row, 0, offset)
        })
        .collect();
    (views, vec![data])
}

/// Views of `rows`, the long ones in `buffers` data buffers in turn, each
/// second one between `C3` and `A9` (a lead and a tail byte).
pub fn views_of(rows: &[&[u8]], buffers: usize) -> (Vec<u128>, Vec<Vec<u8>>) {
    let mut data = vec![Vec::new(); buffers.max(1)];
    let mut long = 0;
    let views = rows
        .iter()
        .map(|row| {
            if row.len() <= 12 {
                return view_of(row, 0, 0);
            }
            let index = long % data.len();
            long += 1;
            let buffer = &mut data[index];
            let fenced = long % 2 == 0;
            if fenced {
                buffer.push(0xC3);
            }
            let offset = buffer.len() as u32;
            buffer.extend_from_slice(row);
            if fenced {
                buffer.push(0xA9);
            }
            view_of(row, index as u32, offset)
        })
        .collect();
    (views, data)
}
