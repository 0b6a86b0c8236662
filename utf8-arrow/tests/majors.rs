//! What each arrow-rs major's own `try_new` makes of the string arrays the
//! conversions build over a slice whose other rows are not UTF-8: the
//! conversions use `new_unchecked`, whose contract is that `try_new` would
//! accept the same parts, and the two majors check different bytes.

/// Rows 1 and 2 of four, between rows that are not UTF-8.
fn rows() -> [&'static [u8]; 4] {
    [b"\xFFbad", b"caf\xC3\xA9", b"lait", b"bad\xC3"]
}

#[cfg(feature = "arrow-60")]
#[test]
fn arrow_60_string_arrays_share_a_slices_buffers_and_its_try_new_accepts_them() {
    use arrow_array::{BinaryArray, StringArray};
    use utf8_arrow::arrow60::{self, arrow_array};

    let array = BinaryArray::from_iter_values(rows()).slice(1, 2);
    let strings = arrow60::to_string_array(&array).unwrap();
    assert_eq!(strings.values().as_ptr(), array.values().as_ptr());
    assert_eq!(
        strings.value_offsets().as_ptr(),
        array.value_offsets().as_ptr()
    );
    let parts = strings.clone().into_parts();
    assert!(StringArray::try_new(parts.0, parts.1, parts.2).is_ok());
    assert_eq!(
        strings.iter().flatten().collect::<Vec<_>>(),
        ["café", "lait"]
    );

    let lossy = arrow60::to_string_array_lossy(&array).unwrap();
    assert_eq!(lossy.values().as_ptr(), array.values().as_ptr());
}

#[cfg(feature = "arrow-59")]
#[test]
fn arrow_59_string_arrays_take_a_slices_own_bytes_since_its_try_new_checks_the_whole_buffer() {
    use arrow_array::{BinaryArray, StringArray};
    use utf8_arrow::arrow59::{self, arrow_array};

    let whole = BinaryArray::from_iter_values(rows());
    let array = whole.slice(1, 2);
    for strings in [
        arrow59::to_string_array(&array).unwrap(),
        arrow59::to_string_array_lossy(&array).unwrap(),
    ] {
        // The rows' bytes, in the array's own allocation.
        assert_eq!(strings.values().as_ptr(), array.values()[4..].as_ptr());
        assert_eq!(strings.values().len(), b"caf\xC3\xA9lait".len());
        let parts = strings.clone().into_parts();
        assert!(StringArray::try_new(parts.0, parts.1, parts.2).is_ok());
        assert_eq!(
            strings.iter().flatten().collect::<Vec<_>>(),
            ["café", "lait"]
        );
    }
    // Unsliced and valid: nothing is copied.
    let valid = BinaryArray::from_iter_values(&rows()[1..3]);
    let strings = arrow59::to_string_array(&valid).unwrap();
    assert_eq!(strings.values().as_ptr(), valid.values().as_ptr());
    assert_eq!(
        strings.value_offsets().as_ptr(),
        valid.value_offsets().as_ptr()
    );
}
