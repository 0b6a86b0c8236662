use std::ops::Range;
use major::arrow_array;

use arrow_array::{
    Array, BinaryArray, BinaryViewArray, LargeBinaryArray, LargeStringArray, StringArray,
    StringViewArray,
};
use self::common::{Rng, Table};
use utf8_tests::random_rows::RandomRows;
use major::Utf8ArrowError;

const SEEDS: u64 = 300;

/// The same buffers as a string array whose validation was skipped, the
/// situation utf8-arrow is for (IPC's `skip_validation`, FFI).
fn unchecked_utf8(array: &BinaryArray) -> StringArray {
    let (offsets, values, nulls) = array.clone().into_parts();
    // SAFETY: not met on purpose: the rows may be invalid UTF-8, as in an
    // array read with validation skipped. The array is only handed to
    // utf8_arrow as `&dyn Array`, which reads its bytes, never a `&str`.
    unsafe { StringArray::new_unchecked(offsets, values, nulls) }
}

fn unchecked_large_utf8(array: &LargeBinaryArray) -> LargeStringArray {
    let (offsets, values, nulls) = array.clone().into_parts();
    // SAFETY: as in `unchecked_utf8`: only its bytes are read.
    unsafe { LargeStringArray::new_unchecked(offsets, values, nulls) }
}

fn unchecked_utf8_view(array: &BinaryViewArray) -> StringViewArray {
    let (views, buffers, nulls) = array.clone().into_parts();
    // SAFETY: as in `unchecked_utf8`: only its bytes are read.
    unsafe { StringViewArray::new_unchecked(views, buffers, nulls) }
}

/// The six array types over the table's rows, each sliced to `range`.
fn arrays(table: &Table, range: &Range<usize>) -> Vec<Box<dyn Array>> {
    let (offset, len) = (range.start, range.len());
    let binary = table.binary();
    let large = table.large_binary();
    let view = table.binary_view();
    vec![
        Box::new(unchecked_utf8(&binary).slice(offset, len)),
        Box::new(unchecked_large_utf8(&large).slice(offset, len)),
        Box::new(unchecked_utf8_view(&view).slice(offset, len)),
        Box::new(binary.slice(offset, len)),
        Box::new(large.slice(offset, len)),
        Box::new(view.slice(offset, len)),
    ]
}

/// A random table and a random range of it: the whole or a slice.
fn case(seed: u64) -> (Table, Range<usize>) {
    let mut rng = Rng::new(seed);
    let count = rng.below(150);
    let invalid_one_in = [0, 2, 10, 60][rng.below(4)];
    let nulls = rng.chance(2);
    let table = common::rows(&mut rng, count, invalid_one_in, nulls);
    let range = if count > 0 && rng.chance(2) {
        let start = rng.below(count);
        start..start + rng.below(count - start + 1)
    } else {
        0..count
    };
    (table, range)
}

#[test]
fn validate_names_the_row_and_error_that_per_row_from_utf8_names() {
    let (mut invalid, mut invalid_under_null_only) = (0, 0);
    for seed in 0..SEEDS {
        let (table, range) = case(seed);
        let expected = table.first_invalid(range.clone());
        invalid += usize::from(expected.is_some());
        invalid_under_null_only +=
            usize::from(expected.is_none() && table.first_invalid_slot(range.clone()).is_some());
        // A string array promises UTF-8 in every slot: its null rows count.
        let start = range.start;
        let in_any_slot = range.clone().find_map(|r| {
            let e = core::str::from_utf8(&table.rows[r]).err()?;
            Some((r - start, (e.valid_up_to(), e.error_len())))
        });
        for array in arrays(&table, &range) {
            let holds_strings = matches!(
                array.data_type(),
                major::arrow_schema::DataType::Utf8
                    | major::arrow_schema::DataType::LargeUtf8
                    | major::arrow_schema::DataType::Utf8View
            );
            let got = major::validate(array.as_ref()).map_err(|e| {
                let u = e.utf8_error().expect("an invalid row, not a layout");
                let under_null = matches!(e, Utf8ArrowError::InvalidUnderNull(_));
                let row = e.column_error().unwrap().row();
                assert_eq!(under_null, table.is_null(start + row), "seed {seed}");
                (row, (u.valid_up_to(), u.error_len()))
            });
            let expected = if holds_strings { in_any_slot } else { expected };
            assert_eq!(
                got.err(),
                expected,
                "seed {seed}, {:?}, rows {range:?}",
                array.data_type()
            );
        }
    }
    // The cases cover both answers, and nulls that hide invalid bytes.
    assert!(invalid > SEEDS as usize / 4, "{invalid} invalid");
    assert!(SEEDS as usize - invalid > SEEDS as usize / 4);
    assert!(invalid_under_null_only > 10, "{invalid_under_null_only}");
}

#[test]
fn is_valid_is_per_row_from_utf8_with_null_for_each_null_row() {
    for seed in 0..SEEDS {
        let (table, range) = case(seed);
        let expected = table.validity(range.clone());
        for array in arrays(&table, &range) {
            let got: Vec<Option<bool>> = major::is_valid_utf8(array.as_ref())
                .unwrap()
                .iter()
                .collect();
            assert_eq!(got, expected, "seed {seed}, {:?}", array.data_type());
        }
    }
}

#[test]
fn invalid_rows_are_every_row_per_row_from_utf8_rejects_that_is_not_null() {
    for seed in 0..SEEDS {
        let (table, range) = case(seed);
        let start = range.start;
        let expected: Vec<(usize, (usize, Option<usize>))> = range
            .clone()
            .filter(|&r| !table.is_null(r))
            .filter_map(|r| {
                core::str::from_utf8(&table.rows[r])
                    .err()
                    .map(|e| (r - start, (e.valid_up_to(), e.error_len())))
            })
            .collect();
        for array in arrays(&table, &range) {
            let got: Vec<_> = major::invalid_rows(array.as_ref())
                .unwrap()
                .map(|(row, e)| (row, (e.valid_up_to(), e.error_len())))
                .collect();
            assert_eq!(got, expected, "seed {seed}, {:?}", array.data_type());
        }
    }
}

/// What a conversion must answer: the array's own buffers when every row,
/// null or not, is valid; otherwise the first invalid row, which is
/// `InvalidUnderNull` when null.
fn check_conversion<A: Array>(
    seed: u64,
    table: &Table,
    range: &Range<usize>,
    got: Result<A, Utf8ArrowError>,
    strings: impl Fn(&A) -> Vec<String>,
) {
    match (table.first_invalid_slot(range.clone()), got) {
        (None, Ok(array)) => {
            let expected: Vec<String> = table.lossy(range.clone());
            assert_eq!(strings(&array), expected, "seed {seed}");
            assert_eq!(
                array.nulls().map(|n| n.iter().collect::<Vec<_>>()),
                table.valid.as_ref().map(|v| v[range.clone()].to_vec()),
                "seed {seed}"
            );
        }
        (Some((row, null)), Err(e)) => {
            assert_eq!(e.column_error().map(|e| e.row()), Some(row), "seed {seed}");
            assert_eq!(
                matches!(e, Utf8ArrowError::InvalidUnderNull(_)),
                null,
                "seed {seed}: {e}"
            );
        }
        (expected, got) => panic!("seed {seed}: expected {expected:?}, got {:?}", got.err()),
    }
}

/// Whether `binary`'s rows span its whole values buffer (no slice cut it).
fn covers_its_values(binary: &BinaryArray) -> bool {
    let offsets = binary.value_offsets();
    offsets[0] == 0 && offsets[offsets.len() - 1] as usize == binary.values().len()
}

/// Where a string array that shares `binary`'s values has them: the same
/// buffer, or, under a major whose `try_new` checks the whole buffer
/// (`STRING_VALUES_CUT`), the rows' own bytes of it.
fn shared_values(binary: &BinaryArray) -> *const u8 {
    if STRING_VALUES_CUT {
        binary.values()[binary.value_offsets()[0] as usize..].as_ptr()
    } else {
        binary.values().as_ptr()
    }
}

#[test]
fn to_string_array_shares_the_buffers_or_names_the_first_invalid_row_null_or_not() {
    for seed in 0..SEEDS {
        let (table, range) = case(seed);
        let (offset, len) = (range.start, range.len());
        let binary = table.binary().slice(offset, len);
        let strings = major::to_string_array(&binary);
        if let Ok(strings) = &strings {
            assert_eq!(strings.values().as_ptr(), shared_values(&binary));
            if !STRING_VALUES_CUT || covers_its_values(&binary) {
                assert_eq!(
                    strings.value_offsets().as_ptr(),
                    binary.value_offsets().as_ptr()
                );
            }
        }
        let all = |a: &StringArray| (0..a.len()).map(|i| a.value(i).to_owned()).collect();
        check_conversion(seed, &table, &range, strings, all);
        let large = table.large_binary().slice(offset, len);
        let all = |a: &LargeStringArray| (0..a.len()).map(|i| a.value(i).to_owned()).collect();
        check_conversion(
            seed,
            &table,
            &range,
            major::to_string_array(&large),
            all,
        );
    }
}

#[test]
fn to_string_view_array_shares_the_buffers_or_names_the_first_invalid_row_null_or_not() {
    for seed in 0..SEEDS {
        let (table, range) = case(seed);
        let view = table.binary_view().slice(range.start, range.len());
        let strings = major::to_string_view_array(&view);
        if let Ok(strings) = &strings {
            assert_eq!(strings.views().as_ptr(), view.views().as_ptr());
        }
        let all = |a: &StringViewArray| (0..a.len()).map(|i| a.value(i).to_owned()).collect();
        check_conversion(seed, &table, &range, strings, all);
    }
}

#[test]
fn lossy_conversions_are_string_from_utf8_lossy_per_row_and_copy_nothing_when_all_are_valid() {
    for seed in 0..SEEDS {
        let (table, range) = case(seed);
        let (offset, len) = (range.start, range.len());
        let expected = table.lossy(range.clone());
        let nulls = table.valid.as_ref().map(|v| v[range.clone()].to_vec());
        let all_valid = table.first_invalid_slot(range.clone()).is_none();

        let binary = table.binary().slice(offset, len);
        let strings = major::to_string_array_lossy(&binary).unwrap();
        let got: Vec<String> = (0..len).map(|i| strings.value(i).to_owned()).collect();
        assert_eq!(got, expected, "seed {seed}");
        assert_eq!(strings.nulls().map(|n| n.iter().collect::<Vec<_>>()), nulls);
        assert_eq!(
            strings.values().as_ptr() == shared_values(&binary),
            all_valid
        );

        let large = table.large_binary().slice(offset, len);
        let strings = major::to_string_array_lossy(&large).unwrap();
        let got: Vec<String> = (0..len).map(|i| strings.value(i).to_owned()).collect();
        assert_eq!(got, expected, "seed {seed}");

        let view = table.binary_view().slice(offset, len);
        let strings = major::to_string_view_array_lossy(&view).unwrap();
        let got: Vec<String> = (0..len).map(|i| strings.value(i).to_owned()).collect();
        assert_eq!(got, expected, "seed {seed}");
        assert_eq!(strings.nulls().map(|n| n.iter().collect::<Vec<_>>()), nulls);
        assert_eq!(strings.views().as_ptr() == view.views().as_ptr(), all_valid);
    }
}

#[test]
fn a_slice_is_checked_alone_whatever_the_bytes_around_it() {
    let rows: [&[u8]; 5] = [
        b"caf\xC3",
        b"\xA9",
        b"ok",
        "d\u{e9}j\u{e0}".as_bytes(),
        b"\xFFx",
    ];
    let table = Table(RandomRows {
        rows: rows.iter().map(|r| r.to_vec()).collect(),
        valid: None,
    });
    let range = 2..4;
    for array in arrays(&table, &range) {
        assert_eq!(
            major::validate(array.as_ref()),
            Ok(()),
            "{:?}",
            array.data_type()
        );
    }
    let array = table.binary().slice(1, 3);
    assert_eq!(major::validate(&array).unwrap_err().column_error().map(|e| e.row()), Some(0));
    let array = table.binary_view().slice(2, 3);
    assert_eq!(major::validate(&array).unwrap_err().column_error().map(|e| e.row()), Some(2));
}

#[test]
fn a_null_row_is_not_checked_but_a_string_array_may_not_hold_it() {
    let table = Table(RandomRows {
        rows: vec![b"ok".to_vec(), b"\xFF".to_vec(), b"fine".to_vec()],
        valid: Some(vec![true, false, true]),
    });
    let binary = table.binary();
    assert_eq!(major::validate(&binary), Ok(()));
    let e = major::to_string_array(&binary).unwrap_err();
    assert!(matches!(e, Utf8ArrowError::InvalidUnderNull(_)));
    assert_eq!(e.column_error().map(|e| e.row()), Some(1));
    assert_eq!(
        e.to_string(),
        "Encountered non-UTF-8 data at index 1, a null slot, which a string array may not hold: \
         invalid utf-8 sequence of 1 bytes from index 0"
    );
    let repaired = major::to_string_array_lossy(&binary).unwrap();
    assert!(repaired.is_null(1));
    assert_eq!(repaired.value(1), "\u{FFFD}");
}

#[test]
fn other_rulesets_agree_with_their_own_per_row_validate() {
    use utf8_core::cesu8::Cesu8;
    use utf8_core::mutf8::Mutf8;
    let pieces: [&[u8]; 6] = [
        b"a",
        b"\xC0\x80",
        b"\xED\xA0\xBD\xED\xB2\x96",
        "é".as_bytes(),
        "💖".as_bytes(),
        b"\xFF",
    ];
    for seed in 0..SEEDS {
        let mut rng = Rng::new(seed);
        let rows: Vec<Vec<u8>> = (0..rng.below(60))
            .map(|_| {
                (0..rng.below(8))
                    .flat_map(|_| pieces[rng.below(pieces.len())].to_vec())
                    .collect()
            })
            .collect();
        let table = Table(RandomRows { rows, valid: None });
        let binary = table.binary();
        let view = table.binary_view();
        let cesu8 = table
            .rows
            .iter()
            .position(|r| utf8_core::cesu8::validate(r).is_err());
        let mutf8 = table
            .rows
            .iter()
            .position(|r| utf8_core::mutf8::validate(r).is_err());
        for array in [&binary as &dyn Array, &view] {
            assert_eq!(
                major::validate_as::<Cesu8>(array)
                    .err()
                    .and_then(|e| e.column_error().map(|e| e.row())),
                cesu8
            );
            assert_eq!(
                major::validate_as::<Mutf8>(array)
                    .err()
                    .and_then(|e| e.column_error().map(|e| e.row())),
                mutf8
            );
            let valid: Vec<bool> = major::is_valid_utf8_as::<Cesu8>(array)
                .unwrap()
                .values()
                .iter()
                .collect();
            let expected: Vec<bool> = table
                .rows
                .iter()
                .map(|r| utf8_core::cesu8::validate(r).is_ok())
                .collect();
            assert_eq!(valid, expected, "seed {seed}");
        }
    }
}
