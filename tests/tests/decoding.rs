//! The RFC 3629 decoding helpers against std: `from_utf8_lossy` against
//! `String::from_utf8_lossy`, `from_utf8_owned` against `String::from_utf8`
//! and `from_utf8_lossy_owned` against `String::from_utf8_lossy` (with the
//! allocation kept when the bytes are valid), `utf8_chunks` against
//! `<[u8]>::utf8_chunks` (with `is_incomplete` against std's verdict on the
//! invalid bytes), and `decode` against the characters of std's lossy string.

use std::borrow::Cow;

use proptest::prelude::*;
use utf8_tests::{Hex, corpus_files, error_parts, kuhn_stress_test, mutate, std_error_parts};

fn assert_lossy_agrees(bytes: &[u8]) {
    let ours = utf8_core::from_utf8_lossy(bytes);
    let std = String::from_utf8_lossy(bytes);
    assert_eq!(ours, std, "from_utf8_lossy {}", Hex(bytes));
    // Valid input must come back as the input itself, not a copy.
    match (&ours, &std) {
        (Cow::Borrowed(ours), Cow::Borrowed(_)) => {
            // An empty string has no address to keep.
            assert!(
                bytes.is_empty() || core::ptr::eq(ours.as_bytes(), bytes),
                "{}",
                Hex(bytes)
            );
        }
        (Cow::Owned(_), Cow::Owned(_)) => {}
        _ => panic!(
            "from_utf8_lossy {}: borrowed/owned differs from std",
            Hex(bytes)
        ),
    }
}

/// Inputs up to this long also have their `FromUtf8Error`'s `Debug` text
/// compared with std's: it lists every byte, which for the longer inputs
/// would cost more than the rest of the comparison.
const DEBUG_COMPARED_UP_TO: usize = 512;

fn assert_owned_conversions_agree(bytes: &[u8]) {
    let (input, address, capacity) = owned_copy(bytes);
    let ours = utf8_core::from_utf8_owned(input);
    match (ours, String::from_utf8(bytes.to_vec())) {
        (Ok(ours), Ok(std)) => {
            assert_eq!(ours, std, "from_utf8_owned {}", Hex(bytes));
            assert_same_allocation(ours.as_bytes(), ours.capacity(), address, capacity, bytes);
        }
        (Err(ours), Err(std)) => {
            assert_eq!(ours.as_bytes(), std.as_bytes(), "as_bytes {}", Hex(bytes));
            let (ours_error, std_error) = (ours.utf8_error(), std.utf8_error());
            assert_eq!(
                error_parts(&ours_error),
                std_error_parts(&std_error),
                "utf8_error {}",
                Hex(bytes)
            );
            assert_eq!(ours.to_string(), std.to_string(), "Display {}", Hex(bytes));
            assert!(
                core::error::Error::source(&ours).is_none()
                    && core::error::Error::source(&std).is_none(),
                "source {}",
                Hex(bytes)
            );
            if bytes.len() <= DEBUG_COMPARED_UP_TO {
                assert_eq!(
                    format!("{ours:?}"),
                    format!("{std:?}"),
                    "Debug {}",
                    Hex(bytes)
                );
            }
            assert_eq!(ours.clone(), ours, "Clone and PartialEq {}", Hex(bytes));
            let returned = ours.into_bytes();
            assert_eq!(returned, std.into_bytes(), "into_bytes {}", Hex(bytes));
            assert_same_allocation(&returned, returned.capacity(), address, capacity, bytes);
        }
        (ours, std) => panic!(
            "from_utf8_owned {}: {:?}, String::from_utf8: {:?}",
            Hex(bytes),
            ours.map(drop),
            std.map(drop)
        ),
    }

    let (input, address, capacity) = owned_copy(bytes);
    let ours = utf8_core::from_utf8_lossy_owned(input);
    assert_eq!(
        ours,
        String::from_utf8_lossy(bytes),
        "from_utf8_lossy_owned {}",
        Hex(bytes)
    );
    if core::str::from_utf8(bytes).is_ok() {
        assert_same_allocation(ours.as_bytes(), ours.capacity(), address, capacity, bytes);
    }
}

/// `bytes` in a vector with room to spare, so that a conversion that kept
/// the allocation can be told from one that copied into an exact fit; with
/// the vector's address and capacity.
fn owned_copy(bytes: &[u8]) -> (Vec<u8>, *const u8, usize) {
    let mut copy = Vec::with_capacity(bytes.len() + 7);
    copy.extend_from_slice(bytes);
    let (address, capacity) = (copy.as_ptr(), copy.capacity());
    (copy, address, capacity)
}

fn assert_same_allocation(
    got: &[u8],
    got_capacity: usize,
    address: *const u8,
    capacity: usize,
    input: &[u8],
) {
    assert_eq!(
        (got.as_ptr(), got_capacity),
        (address, capacity),
        "the input's allocation, not a copy: {}",
        Hex(input)
    );
}

fn assert_chunks_agree(bytes: &[u8]) {
    let ours: Vec<_> = utf8_core::utf8_chunks(bytes).collect();
    let std_chunks: Vec<_> = bytes.utf8_chunks().collect();
    let count = std_chunks.len();
    assert_eq!(ours.len(), count, "chunk count {}", Hex(bytes));
    for (index, (ours, std)) in ours.iter().zip(&std_chunks).enumerate() {
        assert_eq!(
            (ours.valid(), ours.invalid()),
            (std.valid(), std.invalid()),
            "chunk {index} of {}",
            Hex(bytes)
        );
        // Incomplete means: the last chunk, and its invalid bytes are what
        // std calls a sequence cut short rather than an invalid one.
        let cut_short = index + 1 == count
            && !std.invalid().is_empty()
            && core::str::from_utf8(std.invalid()).is_err_and(|e| e.error_len().is_none());
        assert_eq!(
            ours.is_incomplete(),
            cut_short,
            "is_incomplete of chunk {index} of {}",
            Hex(bytes)
        );
    }
}

fn assert_decode_agrees(bytes: &[u8]) {
    let lossy = String::from_utf8_lossy(bytes);
    let mut std_chars = lossy.chars();
    // Each error item stands for one replacement character, at the position
    // where std's chunk of invalid bytes starts.
    let mut invalid_starts = bytes
        .utf8_chunks()
        .filter(|c| !c.invalid().is_empty())
        .map(|c| {
            let start = c.invalid().as_ptr() as usize - bytes.as_ptr() as usize;
            (start, c.invalid().len())
        });
    for (index, item) in utf8_core::decode(bytes).enumerate() {
        let expected = std_chars.next();
        match item {
            Ok(character) => assert_eq!(
                Some(character),
                expected,
                "decode {} item {index}",
                Hex(bytes)
            ),
            Err(error) => {
                assert_eq!(
                    expected,
                    Some(char::REPLACEMENT_CHARACTER),
                    "decode {} item {index}",
                    Hex(bytes)
                );
                let (start, len) = invalid_starts
                    .next()
                    .unwrap_or_else(|| panic!("decode {}: an extra error", Hex(bytes)));
                assert_eq!(error.valid_up_to(), start, "decode {}", Hex(bytes));
                if let Some(error_len) = error.error_len() {
                    assert_eq!(error_len, len, "decode {}", Hex(bytes));
                }
            }
        }
    }
    assert_eq!(
        std_chars.next(),
        None,
        "decode {}: items missing",
        Hex(bytes)
    );
    assert_eq!(
        invalid_starts.next(),
        None,
        "decode {}: errors missing",
        Hex(bytes)
    );
}

fn assert_all_agree(bytes: &[u8]) {
    assert_lossy_agrees(bytes);
    assert_owned_conversions_agree(bytes);
    assert_chunks_agree(bytes);
    assert_decode_agrees(bytes);
}

#[test]
fn hand_checked_chunks() {
    // E2 82 at the end is cut short; the same bytes before "x" are invalid.
    let chunks: Vec<_> = utf8_core::utf8_chunks(b"a\xE2\x82x\xE2\x82")
        .map(|c| (c.valid(), c.invalid(), c.is_incomplete()))
        .collect();
    assert_eq!(
        chunks,
        [
            ("a", &b"\xE2\x82"[..], false),
            ("x", &b"\xE2\x82"[..], true)
        ]
    );
    assert_eq!(utf8_core::utf8_chunks(b"").count(), 0);
    assert_all_agree(b"a\xE2\x82x\xE2\x82");
}

#[test]
fn kuhn_stress_test_whole_by_line_and_by_suffix() {
    let file = kuhn_stress_test();
    assert!(core::str::from_utf8(&file).is_err());
    assert_all_agree(&file);
    for line in file.split(|&b| b == b'\n') {
        assert_all_agree(line);
    }
    // Suffixes start inside sequences; the first 1 KiB has every kind.
    for start in 0..file.len().min(1024) {
        assert_all_agree(&file[start..]);
    }
    // Prefixes end inside sequences, which only the last chunk may report.
    for end in (0..file.len()).step_by(7) {
        assert_all_agree(&file[..end]);
    }
}

#[test]
fn corpus_files_agree() {
    for (_, bytes) in corpus_files(".utf8.txt")
        .iter()
        .chain(&corpus_files(".latin1.txt"))
    {
        assert_all_agree(bytes);
    }
}

#[test]
fn valid_bytes_become_a_string_in_their_own_allocation_with_its_spare_capacity() {
    for text in ["", "a", "Grüße, 世界 💖", &"ascii and ä ".repeat(100)] {
        let mut bytes = Vec::with_capacity(text.len() + 100);
        bytes.extend_from_slice(text.as_bytes());
        let (address, capacity) = (bytes.as_ptr(), bytes.capacity());
        let owned = utf8_core::from_utf8_owned(bytes).expect("valid UTF-8");
        assert_eq!(owned, text);
        assert_eq!((owned.as_ptr(), owned.capacity()), (address, capacity));

        let lossy = utf8_core::from_utf8_lossy_owned(owned.into_bytes());
        assert_eq!(lossy, text);
        assert_eq!((lossy.as_ptr(), lossy.capacity()), (address, capacity));
    }
}

#[test]
fn invalid_bytes_come_back_in_their_own_allocation_and_lossy_makes_a_new_string() {
    let mut bytes = Vec::with_capacity(64);
    bytes.extend_from_slice(b"caf\xE9 au lait");
    let (address, capacity) = (bytes.as_ptr(), bytes.capacity());
    let error = utf8_core::from_utf8_owned(bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid utf-8 sequence of 1 bytes from index 3"
    );
    let bytes = error.into_bytes();
    assert_eq!((bytes.as_ptr(), bytes.capacity()), (address, capacity));

    let lossy = utf8_core::from_utf8_lossy_owned(bytes);
    assert_eq!(lossy, "caf\u{FFFD} au lait");
    assert_ne!(lossy.as_ptr(), address);
}

const MALFORMED: &[&[u8]] = &[
    b"\xED\xA0\x80",
    b"\xC0\x80",
    b"\xE0\x80\x80",
    b"\xF0\x8F\xBF\xBF",
    b"\xF4\x90\x80\x80",
    b"\xF0\x9F\x92",
    b"\xE2\x82",
    b"\x80",
    b"\xFF",
];

proptest! {
    #![proptest_config(utf8_tests::proptest_config(5_000))]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        assert_all_agree(&bytes);
    }

    #[test]
    fn mutated_text(
        text in any::<String>(),
        mutations in prop::collection::vec(utf8_tests::mutation(MALFORMED), 0..=4),
    ) {
        let mut bytes = text.into_bytes();
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        assert_all_agree(&bytes);
    }
}
