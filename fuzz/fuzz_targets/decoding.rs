//! RFC 3629 decoding against std, on the fuzzer's bytes as they are and on
//! all but the first byte placed at the alignment the first byte chooses
//! (each of these validates what is left of the input after every error,
//! on the vector path when enough is left):
//!
//! - `from_utf8_lossy` against `String::from_utf8_lossy`: the same text,
//!   borrowed exactly when std borrows, and then the input itself;
//! - `from_utf8_owned` against `String::from_utf8` (the same string, or the
//!   same error and bytes back) and `from_utf8_lossy_owned` against
//!   `String::from_utf8_lossy`, each keeping the input's allocation where
//!   std's `from_utf8` does;
//! - `utf8_chunks` against `<[u8]>::utf8_chunks`: the same valid and invalid
//!   parts, and `is_incomplete` exactly for a last chunk whose invalid bytes
//!   std calls a sequence cut short;
//! - `decode` against the characters of std's lossy string: an error item
//!   for each replacement character, at the start of std's invalid part and
//!   as long (to the end of the input where that ends inside a sequence).

#![no_main]

mod common;

use std::borrow::Cow;

use common::with_alignment;
use libfuzzer_sys::fuzz_target;

fn check_lossy(bytes: &[u8]) {
    let ours = utf8_core::from_utf8_lossy(bytes);
    let std = String::from_utf8_lossy(bytes);
    assert_eq!(ours, std, "from_utf8_lossy");
    match (&ours, &std) {
        // An empty string has no address to keep.
        (Cow::Borrowed(ours), Cow::Borrowed(_)) => assert!(
            bytes.is_empty() || core::ptr::eq(ours.as_bytes(), bytes),
            "from_utf8_lossy borrowed other memory than its input"
        ),
        (Cow::Owned(_), Cow::Owned(_)) => {}
        _ => panic!("from_utf8_lossy: borrowed where std owns, or the other way round"),
    }
}

fn check_owned(bytes: &[u8]) {
    let input = bytes.to_vec();
    let address = input.as_ptr();
    match (
        utf8_core::from_utf8_owned(input),
        String::from_utf8(bytes.to_vec()),
    ) {
        (Ok(ours), Ok(std)) => {
            assert_eq!(ours, std, "from_utf8_owned");
            assert_eq!(ours.as_ptr(), address, "from_utf8_owned copied valid input");
        }
        (Err(ours), Err(std)) => {
            let (e, s) = (ours.utf8_error(), std.utf8_error());
            assert_eq!(
                (e.valid_up_to(), e.error_len()),
                (s.valid_up_to(), s.error_len()),
                "from_utf8_owned's error"
            );
            assert_eq!(ours.to_string(), std.to_string(), "FromUtf8Error's Display");
            let returned = ours.into_bytes();
            assert_eq!(returned, std.into_bytes(), "into_bytes");
            assert_eq!(returned.as_ptr(), address, "into_bytes copied the input");
        }
        _ => panic!("from_utf8_owned: valid where std says invalid, or the other way round"),
    }

    let input = bytes.to_vec();
    let address = input.as_ptr();
    let ours = utf8_core::from_utf8_lossy_owned(input);
    assert_eq!(
        ours,
        String::from_utf8_lossy(bytes),
        "from_utf8_lossy_owned"
    );
    if core::str::from_utf8(bytes).is_ok() {
        assert_eq!(
            ours.as_ptr(),
            address,
            "from_utf8_lossy_owned copied valid input"
        );
    }
}

fn check_chunks(bytes: &[u8]) {
    let ours: Vec<_> = utf8_core::utf8_chunks(bytes).collect();
    let std: Vec<_> = bytes.utf8_chunks().collect();
    let count = std.len();
    assert_eq!(ours.len(), count, "the number of chunks");
    for (index, (ours, std)) in ours.iter().zip(&std).enumerate() {
        assert_eq!(
            (ours.valid(), ours.invalid()),
            (std.valid(), std.invalid()),
            "chunk {index}"
        );
        let cut_short = index + 1 == count
            && core::str::from_utf8(std.invalid()).is_err_and(|e| e.error_len().is_none());
        assert_eq!(
            ours.is_incomplete(),
            cut_short,
            "is_incomplete of chunk {index}"
        );
    }
}

fn check_decode(bytes: &[u8]) {
    let lossy = String::from_utf8_lossy(bytes);
    let mut std_chars = lossy.chars();
    let mut invalid_parts = bytes.utf8_chunks().filter_map(|chunk| {
        let invalid = chunk.invalid();
        let start = invalid.as_ptr() as usize - bytes.as_ptr() as usize;
        (!invalid.is_empty()).then_some((start, invalid.len()))
    });
    for (index, item) in utf8_core::decode(bytes).enumerate() {
        let expected = std_chars.next();
        match item {
            Ok(character) => assert_eq!(Some(character), expected, "decode item {index}"),
            Err(error) => {
                assert_eq!(
                    expected,
                    Some(char::REPLACEMENT_CHARACTER),
                    "decode item {index}"
                );
                let (start, len) = invalid_parts.next().expect("decode: an extra error");
                assert_eq!(error.valid_up_to(), start, "decode item {index}");
                // Cut short by the end, the error covers what is left.
                let covered = error.error_len().unwrap_or(bytes.len() - start);
                assert_eq!(covered, len, "decode item {index}: the error's length");
            }
        }
    }
    assert_eq!(std_chars.next(), None, "decode: items missing");
    assert_eq!(invalid_parts.next(), None, "decode: errors missing");
}

fn check(bytes: &[u8]) {
    check_lossy(bytes);
    check_owned(bytes);
    check_chunks(bytes);
    check_decode(bytes);
}

fuzz_target!(|data: &[u8]| {
    check(data);
    with_alignment(data, |input, _| check(input));
});
