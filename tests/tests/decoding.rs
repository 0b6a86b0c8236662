//! The RFC 3629 decoding helpers against std: `from_utf8_lossy` against
//! `String::from_utf8_lossy`, `utf8_chunks` against `<[u8]>::utf8_chunks`
//! (with `is_incomplete` against std's verdict on the invalid bytes), and
//! `decode` against the characters of std's lossy string.

use std::borrow::Cow;

use proptest::prelude::*;
use utf8_tests::{Hex, corpus_files, kuhn_stress_test, mutate};

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
