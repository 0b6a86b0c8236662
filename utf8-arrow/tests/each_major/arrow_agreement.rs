use arrow_array::{
    Array, BinaryArray, BinaryViewArray, Int32Array, LargeBinaryArray, StringArray, StringViewArray,
};
use arrow_schema::{ArrowError, DataType};
use self::common::Rng;
use major::Utf8ArrowError;
use major::{arrow_array, arrow_schema};

const SEEDS: u64 = 300;

/// The rows of a binary array as a `Utf8` array's data, validated by
/// arrow-rs in full.
fn arrow_validate_full(array: &BinaryArray) -> Result<(), ArrowError> {
    let data = array
        .to_data()
        .into_builder()
        .data_type(DataType::Utf8)
        .build()?;
    data.validate_full()
}

#[test]
fn to_string_array_accepts_what_string_array_try_new_and_validate_full_accept() {
    for seed in 0..SEEDS {
        let mut rng = Rng::new(seed);
        let count = rng.below(120);
        let (damage, nulls) = ([0, 3, 30][rng.below(3)], rng.chance(2));
        let table = common::rows(&mut rng, count, damage, nulls);
        let binary = table.binary();
        let (offset, len) = if count > 0 && rng.chance(2) {
            let start = rng.below(count);
            (start, rng.below(count - start + 1))
        } else {
            (0, count)
        };
        let binary = binary.slice(offset, len);
        let ours = major::to_string_array(&binary);
        let (offsets, values, nulls) = binary.clone().into_parts();
        // arrow-rs 59's `try_new` also checks the bytes of a slice's
        // buffer outside its rows, which `validate_full` leaves alone.
        let try_new_reads_other_rows = STRING_VALUES_CUT && (offset, len) != (0, count);
        let theirs = StringArray::try_new(offsets, values, nulls);
        if !try_new_reads_other_rows {
            assert_eq!(
                ours.is_ok(),
                theirs.is_ok(),
                "seed {seed}: {:?} / {:?}",
                ours.as_ref().err(),
                theirs.as_ref().err()
            );
        }
        assert_eq!(
            ours.is_ok(),
            arrow_validate_full(&binary).is_ok(),
            "seed {seed}"
        );
        if let (Ok(strings), Ok(theirs)) = (ours, theirs) {
            assert_eq!(strings, theirs);
        }

        let large = table.large_binary().slice(offset, len);
        let (offsets, values, nulls) = large.clone().into_parts();
        let theirs = arrow_array::LargeStringArray::try_new(offsets, values, nulls);
        if !try_new_reads_other_rows {
            assert_eq!(
                major::to_string_array(&large).is_ok(),
                theirs.is_ok(),
                "seed {seed}"
            );
        }
    }
}

#[test]
fn to_string_view_array_accepts_what_string_view_array_try_new_accepts_and_names_its_row() {
    for seed in 0..SEEDS {
        let mut rng = Rng::new(seed);
        let count = rng.below(120);
        let (damage, nulls) = ([0, 3, 30][rng.below(3)], rng.chance(2));
        let table = common::rows(&mut rng, count, damage, nulls);
        let view = table.binary_view();
        let ours = major::to_string_view_array(&view);
        let (views, buffers, nulls) = view.clone().into_parts();
        let theirs = StringViewArray::try_new(views, buffers, nulls);
        match (&ours, &theirs) {
            (Ok(ours), Ok(theirs)) => assert_eq!(ours, theirs),
            // arrow-rs checks every view in order, null or not, and names
            // the first invalid one with the words utf8-arrow uses.
            (Err(ours), Err(ArrowError::InvalidArgumentError(theirs))) => {
                let row = ours.column_error().unwrap().row();
                assert!(
                    theirs.starts_with(&format!("Encountered non-UTF-8 data at index {row}: ")),
                    "seed {seed}: {theirs} / {ours}"
                );
                if matches!(ours, Utf8ArrowError::Column(_)) {
                    let e = ArrowError::from(ours.clone()).to_string();
                    assert_eq!(e, format!("Invalid argument error: {theirs}"));
                }
            }
            _ => panic!("seed {seed}: {ours:?} / {theirs:?}"),
        }
        // arrow-rs's own conversion agrees.
        assert_eq!(ours.is_ok(), view.to_string_view().is_ok(), "seed {seed}");
    }
}

#[test]
fn without_nulls_validate_agrees_with_arrow_rs_validate_full() {
    for seed in 0..SEEDS {
        let mut rng = Rng::new(seed);
        let count = rng.below(120);
        let damage = [0, 3, 30][rng.below(3)];
        let table = common::rows(&mut rng, count, damage, false);
        let binary = table.binary();
        assert_eq!(
            major::validate(&binary).is_ok(),
            arrow_validate_full(&binary).is_ok(),
            "seed {seed}"
        );
        let large = table.large_binary();
        let data = large
            .to_data()
            .into_builder()
            .data_type(DataType::LargeUtf8)
            .build();
        assert_eq!(
            major::validate(&large).is_ok(),
            data.is_ok(),
            "seed {seed}"
        );
    }
}

#[test]
fn an_array_of_another_type_is_an_error_that_names_the_type() {
    let e = major::validate(&Int32Array::from(vec![1, 2])).unwrap_err();
    assert_eq!(e, Utf8ArrowError::UnsupportedType(DataType::Int32));
    assert_eq!(e.column_error().map(|e| e.row()), None);
    assert!(major::is_valid_utf8(&Int32Array::from(vec![1])).is_err());
    assert!(ArrowError::from(e).to_string().ends_with("not Int32"));
}

#[test]
fn the_error_is_arrow_rs_invalid_argument_error_through_the_question_mark() {
    fn read(array: &dyn Array) -> Result<(), ArrowError> {
        major::validate(array)?;
        Ok(())
    }
    let array = BinaryArray::from_iter_values([&b"ok"[..], b"\xE2\x82"]);
    match read(&array) {
        Err(ArrowError::InvalidArgumentError(message)) => assert_eq!(
            message,
            "Encountered non-UTF-8 data at index 1: incomplete utf-8 byte sequence from index 0"
        ),
        other => panic!("{other:?}"),
    }
    let large = LargeBinaryArray::from_iter_values([&b"\xF0\x9F\x92\x96"[..], b"\x80"]);
    assert_eq!(major::validate(&large).unwrap_err().column_error().map(|e| e.row()), Some(1));
    let view = BinaryViewArray::from_iter_values([&b"x"[..]; 3]);
    assert_eq!(major::validate(&view), Ok(()));
}

#[test]
fn a_malformed_view_is_a_layout_error_naming_its_row_not_a_panic() {
    let view = BinaryViewArray::from_iter_values([&b"fine"[..], b"a string longer than twelve"]);
    let (views, buffers, nulls) = view.into_parts();
    let mut views = views.to_vec();
    views[1] = (views[1] & !(u128::from(u32::MAX) << 64)) | (7u128 << 64); // buffer 7
    let broken = BinaryViewArray::try_new(views.clone().into(), buffers.clone(), nulls.clone());
    assert!(broken.is_err(), "arrow-rs refuses it too");
    // SAFETY: not met on purpose (a view naming a missing buffer): the
    // array goes only to utf8_arrow, which checks each view's layout
    // before it reads through it.
    let broken = unsafe { BinaryViewArray::new_unchecked(views.into(), buffers, nulls) };
    let e = major::validate(&broken).unwrap_err();
    assert_eq!(e.column_error().map(|e| e.row()), Some(1));
    assert!(e.layout_error().is_some());
    let e = major::to_string_view_array(&broken).unwrap_err();
    assert_eq!((e.column_error().map(|e| e.row()), e.layout_error().is_some()), (Some(1), true));
}

#[test]
fn a_malformed_view_after_an_invalid_row_is_the_error_named() {
    // The one-pass check stops at row 0's invalid byte: the layout error of
    // row 1 is still the one reported, as a check of the layout first
    // reports it.
    let view = BinaryViewArray::from_iter_values([&b"\xFF"[..], b"a string longer than twelve"]);
    let (views, buffers, nulls) = view.into_parts();
    let mut views = views.to_vec();
    views[1] ^= 1u128 << 32; // its prefix
    // SAFETY: not met on purpose (a view whose prefix is not its string's
    // start): the array goes only to utf8_arrow, which checks each view's
    // layout before it reads through it.
    let broken = unsafe { BinaryViewArray::new_unchecked(views.into(), buffers, nulls) };
    let e = major::to_string_view_array(&broken).unwrap_err();
    assert_eq!(
        (e.column_error().map(|e| e.row()), e.layout_error()),
        (Some(1), Some(utf8_core::column::Layout::ViewPrefix))
    );
}

#[test]
fn validate_of_a_string_array_is_ok_exactly_when_validate_full_is() {
    for seed in 0..SEEDS {
        let mut rng = Rng::new(seed);
        let count = rng.below(120);
        let (damage, nulls) = ([0, 3, 30][rng.below(3)], rng.chance(2));
        let table = common::rows(&mut rng, count, damage, nulls);
        let (offsets, values, nulls) = table.binary().into_parts();
        // SAFETY: not met on purpose: the rows may be invalid UTF-8, as in
        // an array read with validation skipped. The array is only read as
        // bytes, by `validate` and by arrow-rs's `validate_full`.
        let strings = unsafe { StringArray::new_unchecked(offsets, values, nulls) };
        let full = strings.to_data().validate_full();
        assert_eq!(major::validate(&strings).is_ok(), full.is_ok(), "seed {seed}");
        let (views, buffers, nulls) = table.binary_view().into_parts();
        // SAFETY: as for `strings`.
        let strings = unsafe { StringViewArray::new_unchecked(views, buffers, nulls) };
        let full = strings.to_data().validate_full();
        assert_eq!(major::validate(&strings).is_ok(), full.is_ok(), "seed {seed}");
        // A binary array's null rows are not its values: only the rows
        // that are not null count.
        let binary = table.binary();
        let first = table.first_invalid(0..count);
        assert_eq!(major::validate(&binary).is_ok(), first.is_none(), "seed {seed}");
    }
}

#[test]
fn the_conversions_from_dyn_array_give_each_layouts_string_type() {
    for seed in 0..SEEDS {
        let mut rng = Rng::new(seed);
        let count = rng.below(60);
        let (damage, nulls) = ([0, 10][rng.below(2)], rng.chance(2));
        let table = common::rows(&mut rng, count, damage, nulls);
        let binary = table.binary();
        let sound = arrow_validate_full(&binary).is_ok();
        let inputs: [(std::sync::Arc<dyn Array>, DataType); 3] = [
            (std::sync::Arc::new(binary.clone()), DataType::Utf8),
            (std::sync::Arc::new(table.large_binary()), DataType::LargeUtf8),
            (std::sync::Arc::new(table.binary_view()), DataType::Utf8View),
        ];
        for (input, string_type) in inputs {
            let converted = major::to_string(input.as_ref());
            assert_eq!(converted.is_ok(), sound, "seed {seed} {string_type}");
            if let Ok(converted) = converted {
                assert_eq!(converted.data_type(), &string_type);
                converted.to_data().validate_full().unwrap();
                let again = major::to_string(converted.as_ref()).unwrap();
                assert_eq!(again.data_type(), &string_type, "a string array stays one");
            }
            let lossy = major::to_string_lossy(input.as_ref()).unwrap();
            assert_eq!(lossy.data_type(), &string_type);
            lossy.to_data().validate_full().unwrap();
            // An offsets array's null rows get empty views, so their bytes
            // do not count; a views array's null views are checked too.
            let view = major::to_string_view(input.as_ref());
            let values_valid = table.first_invalid(0..count).is_none();
            assert!(view.is_ok() || !sound, "seed {seed} {string_type}");
            assert!(view.is_err() || values_valid, "seed {seed} {string_type}");
            if let Ok(view) = view {
                view.to_data().validate_full().unwrap();
                let expected: Vec<Option<&str>> = (0..count)
                    .map(|r| (!table.is_null(r)).then(|| std::str::from_utf8(&table.rows[r]).unwrap()))
                    .collect();
                assert_eq!(view.iter().collect::<Vec<_>>(), expected, "seed {seed}");
            }
        }
    }
    assert!(major::to_string(&Int32Array::from(vec![1])).is_err());
    assert!(major::to_string_view(&Int32Array::from(vec![1])).is_err());
}
