//! `utf8_core::from_utf8`, `from_utf8_mut` and `from_utf8_const` against
//! `core::str::from_utf8`, which is the specification here: the verdict,
//! `valid_up_to`, `error_len` and the `Display` text must all agree.

use std::cell::RefCell;
use std::time::Instant;

use proptest::prelude::*;
use utf8_tests::{
    Hex, Representatives, all_bytes, class_representatives, corpus_files, error_parts,
    for_each_string, kuhn_stress_test, mutate, same_display, std_error_parts,
};

/// Whether `ours` says what std says about `input`. An `Ok` must also be
/// that very memory, not merely an equal string.
fn agrees_with_std(
    input: *const [u8],
    ours: &Result<&str, utf8_core::Utf8Error>,
    std: &Result<&str, core::str::Utf8Error>,
) -> bool {
    match (ours, std) {
        (Ok(ours), Ok(_)) => core::ptr::eq(ours.as_bytes(), input),
        (Err(ours), Err(std)) => {
            error_parts(ours) == std_error_parts(std) && display_agrees(ours, std)
        }
        _ => false,
    }
}

thread_local! {
    /// Errors of ours whose text has been seen to match std's for an std
    /// error with the same parts.
    static DISPLAY_VERIFIED: RefCell<Vec<utf8_core::Utf8Error>> = const { RefCell::new(Vec::new()) };
}

/// Whether `ours` prints what `std` prints, given that their parts agree.
///
/// Rendering costs about 0.3 µs, more than everything else in the exhaustive
/// loops together, and the 16.7 million three-byte strings produce only a
/// dozen distinct errors; an error is `Eq` and `Copy`, so equal errors print
/// equal text and each distinct one needs rendering only once per thread.
fn display_agrees(ours: &utf8_core::Utf8Error, std: &core::str::Utf8Error) -> bool {
    const REMEMBERED: usize = 256;
    DISPLAY_VERIFIED.with_borrow_mut(|verified| {
        if verified.contains(ours) {
            return true;
        }
        let agrees = same_display(ours, std);
        if agrees && verified.len() < REMEMBERED {
            verified.push(*ours);
        }
        agrees
    })
}

fn assert_from_utf8_agrees(bytes: &[u8]) {
    let ours = utf8_core::from_utf8(bytes);
    let std = core::str::from_utf8(bytes);
    assert!(
        agrees_with_std(bytes, &ours, &std),
        "from_utf8({}) = {ours:?}, core::str::from_utf8 = {std:?}",
        Hex(bytes)
    );
}

fn assert_from_utf8_const_agrees(bytes: &[u8]) {
    let ours = utf8_core::from_utf8_const(bytes);
    let std = core::str::from_utf8(bytes);
    assert!(
        agrees_with_std(bytes, &ours, &std),
        "from_utf8_const({}) = {ours:?}, core::str::from_utf8 = {std:?}",
        Hex(bytes)
    );
}

fn assert_from_utf8_mut_agrees(bytes: &[u8]) {
    // A stack copy for short input keeps the exhaustive loops allocation-free.
    let mut stack = [0u8; 16];
    let mut heap;
    let copy: &mut [u8] = if let Some(stack) = stack.get_mut(..bytes.len()) {
        stack
    } else {
        heap = vec![0; bytes.len()];
        &mut heap
    };
    copy.copy_from_slice(bytes);
    let input: *const [u8] = copy;
    let ours = utf8_core::from_utf8_mut(copy).map(|text| &*text);
    let std = core::str::from_utf8(bytes);
    assert!(
        agrees_with_std(input, &ours, &std),
        "from_utf8_mut({}) = {ours:?}, core::str::from_utf8 = {std:?}",
        Hex(bytes)
    );
}

fn assert_every_form_agrees(bytes: &[u8]) {
    assert_from_utf8_agrees(bytes);
    assert_from_utf8_const_agrees(bytes);
    assert_from_utf8_mut_agrees(bytes);
}

#[test]
fn every_one_and_two_byte_string_in_every_form() {
    let started = Instant::now();
    let bytes = all_bytes();
    let one = for_each_string(&bytes, 1, assert_every_form_agrees);
    let two = for_each_string(&bytes, 2, assert_every_form_agrees);
    assert_eq!((one, two), (256, 65_536));
    eprintln!(
        "differential: {one} one-byte and {two} two-byte strings, each through from_utf8, \
         from_utf8_const and from_utf8_mut, in {:?}",
        started.elapsed()
    );
}

#[test]
fn every_three_byte_string() {
    let started = Instant::now();
    // from_utf8_const runs a separate byte-at-a-time loop, so it gets every
    // string too. from_utf8_mut shares from_utf8's loop and only adds the
    // cast; the four-byte, corpus, stress-test and proptest checks sample it.
    let count = for_each_string(&all_bytes(), 3, |bytes| {
        assert_from_utf8_agrees(bytes);
        assert_from_utf8_const_agrees(bytes);
    });
    assert_eq!(count, 16_777_216);
    eprintln!(
        "differential: {count} three-byte strings, each through from_utf8 and \
         from_utf8_const, in {:?}",
        started.elapsed()
    );
}

#[test]
fn every_four_byte_string_over_class_representatives() {
    let started = Instant::now();
    let table = &utf8_core::tables::rfc3629::BYTE_CLASSES;
    assert_eq!(
        utf8_tests::class_members(table).len(),
        utf8_core::tables::rfc3629::CLASS_COUNT
    );
    let representatives = class_representatives(table, Representatives::EdgesAndMiddle);
    let count = for_each_string(&representatives, 4, assert_every_form_agrees);
    eprintln!(
        "differential: {count} four-byte strings over {} class representatives {}, each \
         through all three forms, in {:?}",
        representatives.len(),
        Hex(&representatives),
        started.elapsed()
    );
}

/// Seed 002 walks through these examples of RFC 3629 §4 by hand.
#[test]
fn seed_002_examples() {
    let valid: [(&[u8], &str); 4] = [
        (b"\x41", "A"),
        (b"\xC2\xA9", "©"),
        (b"\xE4\xBD\xA0", "你"),
        (b"\xF0\x9F\x98\x80", "😀"),
    ];
    for (bytes, text) in valid {
        assert_eq!(utf8_core::from_utf8(bytes), Ok(text), "{}", Hex(bytes));
        assert_every_form_agrees(bytes);
    }
    // (input, valid_up_to, error_len): C0 can never start a sequence, ED A0
    // would be a surrogate, F5 is beyond U+10FFFF, and E4 BD is cut short.
    let invalid: [(&[u8], usize, Option<usize>); 4] = [
        (b"\xC0\x80", 0, Some(1)),
        (b"\xED\xA0\x80", 0, Some(1)),
        (b"\xF5\x80\x80\x80", 0, Some(1)),
        (b"\xE4\xBD", 0, None),
    ];
    for (bytes, valid_up_to, error_len) in invalid {
        let error = utf8_core::from_utf8(bytes).unwrap_err();
        assert_eq!(
            error_parts(&error),
            (valid_up_to, error_len),
            "{}",
            Hex(bytes)
        );
        assert_every_form_agrees(bytes);
    }

    // The same verdicts while compiling, where only the const form runs.
    const _: () = {
        assert!(matches!(
            utf8_core::from_utf8_const(b"\x41"),
            Ok(text) if text.len() == 1 && text.as_bytes()[0] == b'A'
        ));
        assert!(utf8_core::from_utf8_const(b"\xC2\xA9").is_ok());
        assert!(utf8_core::from_utf8_const(b"\xE4\xBD\xA0").is_ok());
        assert!(utf8_core::from_utf8_const(b"\xF0\x9F\x98\x80").is_ok());
        const fn error_of(bytes: &[u8]) -> (usize, Option<usize>) {
            match utf8_core::from_utf8_const(bytes) {
                Ok(_) => panic!("accepted invalid input"),
                Err(e) => (e.valid_up_to(), e.error_len()),
            }
        }
        assert!(matches!(error_of(b"\xC0\x80"), (0, Some(1))));
        assert!(matches!(error_of(b"\xED\xA0\x80"), (0, Some(1))));
        assert!(matches!(error_of(b"\xF5\x80\x80\x80"), (0, Some(1))));
        assert!(matches!(error_of(b"\xE4\xBD"), (0, None)));
    };
}

#[test]
fn kuhn_stress_test_whole_by_line_and_by_suffix() {
    let started = Instant::now();
    let file = kuhn_stress_test();
    assert!(
        core::str::from_utf8(&file).is_err(),
        "the stress test should contain malformed sequences"
    );
    assert_every_form_agrees(&file);

    let errors = assert_agrees_from_each_error_on(&file);

    let mut lines = 0;
    for line in file.split(|&byte| byte == b'\n') {
        assert_every_form_agrees(line);
        lines += 1;
    }

    // A suffix starts mid-sequence at many positions, which an aligned
    // whole-file check never does, and moves every later error's index.
    let suffix_starts = file.len().min(4096);
    for start in 0..suffix_starts {
        assert_every_form_agrees(&file[start..]);
    }
    eprintln!(
        "differential: UTF-8-test.txt ({} bytes) whole and resumed after each of its {errors} \
         errors, {lines} lines and {suffix_starts} suffixes, in {:?}",
        file.len(),
        started.elapsed()
    );
}

#[test]
fn corpus_files_agree() {
    let utf8_files = corpus_files(".utf8.txt");
    for (path, bytes) in &utf8_files {
        assert!(
            utf8_core::from_utf8(bytes).is_ok(),
            "{} should be valid UTF-8: {:?}",
            path.display(),
            utf8_core::from_utf8(bytes)
        );
        assert_every_form_agrees(bytes);
    }
    let latin1_files = corpus_files(".latin1.txt");
    let mut latin1_errors = 0;
    for (path, bytes) in &latin1_files {
        assert!(
            core::str::from_utf8(bytes).is_err(),
            "{} has no byte above 7F, so it tests nothing",
            path.display()
        );
        assert_every_form_agrees(bytes);
        latin1_errors += assert_agrees_from_each_error_on(bytes);
    }
    eprintln!(
        "differential: {} *.utf8.txt files, {} *.latin1.txt files resumed after each of \
         their {latin1_errors} errors",
        utf8_files.len(),
        latin1_files.len()
    );
}

/// The first sequence past ASCII at every place in the first 300 bytes,
/// in inputs from 128 bytes (where the scalar lead starts) to well past its
/// 256: where the lead's ASCII steps stop, where its sequence window would
/// run past the end, and where the vector check takes over after it.
#[test]
fn every_first_sequence_at_every_place_of_the_lead() {
    let sequences: Vec<&[u8]> = [
        &b"\xE9"[..],
        b"\xE9\xE9",
        b"\xC3\xA9",
        b"\xE2\x82\xAC",
        b"\xF0\x9F\x92\x96",
        b"\xF0\x9F\x92",
        b"\xE2\x82",
    ]
    .into_iter()
    .chain(MALFORMED.iter().copied())
    .collect();
    for len in [128, 129, 159, 160, 161, 200, 255, 256, 257, 263, 300, 1000] {
        let ascii: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        for at in 0..len.min(300) {
            for sequence in &sequences {
                let mut bytes = ascii.clone();
                let end = (at + sequence.len()).min(len);
                bytes[at..end].copy_from_slice(&sequence[..end - at]);
                assert_from_utf8_agrees(&bytes);
            }
        }
    }
}

/// Checks `bytes`, then the rest after each error as lossy decoding would
/// resume, so that every error of the input is compared, not only the first;
/// returns how many errors there were.
fn assert_agrees_from_each_error_on(bytes: &[u8]) -> usize {
    let mut errors = 0;
    let mut start = 0;
    while let Err(error) = core::str::from_utf8(&bytes[start..]) {
        errors += 1;
        let Some(error_len) = error.error_len() else {
            break;
        };
        start += error.valid_up_to() + error_len;
        assert_from_utf8_agrees(&bytes[start..]);
        assert_from_utf8_const_agrees(&bytes[start..]);
    }
    errors
}

/// Encodings that each break one rule of RFC 3629 §4, spliced into valid
/// text: surrogates, overlong forms, beyond U+10FFFF, stray continuations.
const MALFORMED: &[&[u8]] = &[
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF",
    b"\xC0\x80",
    b"\xC1\xBF",
    b"\xE0\x80\x80",
    b"\xE0\x9F\xBF",
    b"\xF0\x80\x80\x80",
    b"\xF0\x8F\xBF\xBF",
    b"\xF4\x90\x80\x80",
    b"\x80",
    b"\xBF",
];

/// Characters of every encoded length; ASCII is weighted up so that runs
/// long enough for the 16-byte ASCII fast path occur.
fn any_text() -> impl Strategy<Value = String> {
    let character = prop_oneof![
        3 => prop::char::range('\0', '\x7F'),
        1 => prop::char::range('\u{80}', '\u{7FF}'),
        1 => prop::char::range('\u{800}', '\u{FFFF}'),
        1 => prop::char::range('\u{10000}', '\u{10FFFF}'),
        1 => any::<char>(),
    ];
    prop::collection::vec(character, 0..120).prop_map(String::from_iter)
}

proptest! {
    #![proptest_config(utf8_tests::proptest_config(10_000))]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        assert_every_form_agrees(&bytes);
    }

    #[test]
    fn random_bytes_over_class_representatives(
        bytes in prop::collection::vec(
            prop::sample::select(class_representatives(
                &utf8_core::tables::rfc3629::BYTE_CLASSES,
                Representatives::EdgesAndMiddle,
            )),
            0..60,
        )
    ) {
        assert_every_form_agrees(&bytes);
    }

    #[test]
    fn valid_text(text in prop_oneof![any::<String>(), any_text()]) {
        prop_assert_eq!(utf8_core::from_utf8(text.as_bytes()), Ok(text.as_str()));
        assert_every_form_agrees(text.as_bytes());
    }

    #[test]
    fn mutated_valid_text(
        text in any_text(),
        mutations in prop::collection::vec(utf8_tests::mutation(MALFORMED), 1..=4),
    ) {
        let mut bytes = text.into_bytes();
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        assert_every_form_agrees(&bytes);
    }
}
