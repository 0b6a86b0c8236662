//! `utf8_core::parallel`: summaries of chunks cut anywhere, merged, give
//! one-shot validation's exact result for every ruleset; merging is
//! associative; and `parallel::validate` agrees with `from_utf8` on large
//! inputs with errors at and around the chunk boundaries it cuts at.

use std::sync::OnceLock;

use proptest::prelude::*;
use utf8_core::cesu8::Cesu8;
use utf8_core::legacy31::Legacy31;
use utf8_core::mutf8::Mutf8;
use utf8_core::parallel::{self, Summary};
use utf8_core::rfc2279::Rfc2279;
use utf8_core::wtf8::Wtf8;
use utf8_core::{Rfc3629, Ruleset};
use utf8_tests::{
    Mutation, corpus_files, error_parts, mutate, mutation, proptest_config, std_error_parts,
};

utf8_core::ruleset! {
    /// Pairs of bytes: runs started one byte apart stay one byte apart, so
    /// a summary never sees them merge and steps every start state to the end.
    struct EvenLength { abnf = "text = *( %x00-FF %x00-FF )\n", start = "text" }
}

utf8_core::ruleset! {
    /// Repetitions of a 17-byte word: 17 live states and a dead one, more
    /// than a summary has room for.
    struct LongWord {
        abnf = "text = *( %x61.62.63.64.65.66.67.68.69.6A.6B.6C.6D.6E.6F.70.71 )\n",
        start = "text"
    }
}

/// Bytes that the dialects treat differently: surrogates (paired, lone,
/// reversed), the two-byte NUL, 5- and 6-byte forms, 4-byte forms, NUL.
const SPLICES: &[&[u8]] = &[
    b"\xED\xA0\xBD\xED\xB2\x96",
    b"\xED\xA0\x80",
    b"\xED\xB0\x80",
    b"\xED\xB0\x80\xED\xA0\x80",
    b"\xC0\x80",
    b"\x00",
    b"\xF8\x88\x80\x80\x80",
    b"\xFC\x84\x80\x80\x80\x80",
    b"\xF0\x9F\x92\x96",
    b"\xF4\x90\x80\x80",
    b"\xE2\x82\xAC",
];

fn corpus_text() -> &'static [u8] {
    static TEXT: OnceLock<Vec<u8>> = OnceLock::new();
    TEXT.get_or_init(|| {
        corpus_files(".utf8.txt")
            .into_iter()
            .flat_map(|(_, bytes)| bytes)
            .collect()
    })
}

/// `bytes` cut at `cuts` (taken modulo `len + 1` and sorted, so equal cuts
/// make empty chunks).
fn cut<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut positions: Vec<usize> = cuts.iter().map(|cut| cut % (bytes.len() + 1)).collect();
    positions.sort_unstable();
    let mut chunks = Vec::new();
    let mut from = 0;
    for position in positions {
        chunks.push(&bytes[from..position]);
        from = position;
    }
    chunks.push(&bytes[from..]);
    chunks
}

fn fold<R: Ruleset>(chunks: &[&[u8]]) -> Summary<R> {
    chunks.iter().fold(Summary::identity(), |summary, chunk| {
        summary.then(&Summary::of(chunk))
    })
}

/// Every way of checking `bytes` through summaries that must agree with
/// `R::validate`: folded from `cuts`, with the identity mixed in, merged as
/// a balanced tree, byte by byte; and each chunk's summary equal to the one
/// merged from its single bytes (which never reaches the fast path).
fn check<R: Ruleset>(bytes: &[u8], cuts: &[usize]) {
    let expected = R::validate(bytes);
    let chunks = cut(bytes, cuts);
    let summaries: Vec<Summary<R>> = chunks.iter().map(|chunk| Summary::of(chunk)).collect();
    let folded = fold::<R>(&chunks);
    assert_eq!(folded.len(), bytes.len());
    assert_eq!(folded.result(), expected, "{} cut at {cuts:?}", R::NAME);

    let bytes_one_by_one: Vec<&[u8]> = bytes.chunks(1).collect();
    let by_byte = fold::<R>(&bytes_one_by_one);
    assert_eq!(by_byte.result(), expected, "{} byte by byte", R::NAME);
    assert_eq!(
        Summary::<R>::of(bytes),
        by_byte,
        "{} whole vs byte by byte",
        R::NAME
    );
    for (chunk, summary) in chunks.iter().zip(&summaries) {
        let one_by_one: Vec<&[u8]> = chunk.chunks(1).collect();
        assert_eq!(
            *summary,
            fold::<R>(&one_by_one),
            "{} on {chunk:02X?}",
            R::NAME
        );
    }

    let identity = Summary::<R>::identity();
    let with_identities = summaries.iter().fold(identity, |summary, next| {
        summary.then(&identity).then(next).then(&identity)
    });
    assert_eq!(with_identities, folded, "{}: identity not neutral", R::NAME);
    assert_eq!(tree(&summaries), folded, "{}: tree merge", R::NAME);

    for window in summaries.windows(3) {
        let [a, b, c] = window else { unreachable!() };
        assert_eq!(
            a.then(b).then(c),
            a.then(&b.then(c)),
            "{}: associativity",
            R::NAME
        );
    }
}

/// The summaries merged as a balanced tree, as rayon's reduce may.
fn tree<R: Ruleset>(summaries: &[Summary<R>]) -> Summary<R> {
    match summaries {
        [] => Summary::identity(),
        [one] => *one,
        _ => {
            let (left, right) = summaries.split_at(summaries.len() / 2);
            tree(left).then(&tree(right))
        }
    }
}

fn check_all(bytes: &[u8], cuts: &[usize]) {
    check::<Rfc3629>(bytes, cuts);
    check::<Legacy31>(bytes, cuts);
    check::<Cesu8>(bytes, cuts);
    check::<Mutf8>(bytes, cuts);
    check::<Wtf8>(bytes, cuts);
    check::<Rfc2279>(bytes, cuts);
    check::<EvenLength>(bytes, cuts);
}

/// A slice of the corpus, a few edits, and cut points.
fn corpus_case() -> impl Strategy<Value = (usize, usize, Vec<Mutation>, Vec<usize>)> {
    (
        any::<usize>(),
        0usize..1500,
        prop::collection::vec(mutation(SPLICES), 0..4),
        prop::collection::vec(any::<usize>(), 0..8),
    )
}

proptest! {
    #![proptest_config(proptest_config(256))]

    #[test]
    fn summaries_of_mutated_text_agree((start, len, mutations, cuts) in corpus_case()) {
        let text = corpus_text();
        let start = start % text.len();
        let mut bytes = text[start..(start + len).min(text.len())].to_vec();
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        check_all(&bytes, &cuts);
    }

    #[test]
    fn summaries_of_random_bytes_agree(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        check_all(&bytes, &cuts);
    }

    #[test]
    fn summaries_of_random_sequences_agree(
        pieces in prop::collection::vec(prop::sample::select(SPLICES), 0..40),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let bytes: Vec<u8> = pieces.concat();
        check_all(&bytes, &cuts);
    }
}

#[test]
fn every_builtin_ruleset_fits_in_a_summary() {
    const {
        assert!(Summary::<Rfc3629>::SUPPORTED);
        assert!(Summary::<Legacy31>::SUPPORTED);
        assert!(Summary::<Cesu8>::SUPPORTED);
        assert!(Summary::<Mutf8>::SUPPORTED);
        assert!(Summary::<Wtf8>::SUPPORTED);
        assert!(Summary::<Rfc2279>::SUPPORTED);
        assert!(!Summary::<LongWord>::SUPPORTED);
    }
}

#[test]
fn a_ruleset_too_large_for_a_summary_is_validated_on_one_core() {
    let word = b"abcdefghijklmnopq";
    let mut bytes = word.repeat(4 << 20 >> 4);
    assert_eq!(parallel::validate::<LongWord>(&bytes), Ok(()));
    let at = bytes.len() / 2 + 3;
    bytes[at] = b'z';
    assert_eq!(
        parallel::validate::<LongWord>(&bytes),
        LongWord::validate(&bytes)
    );
    bytes.truncate(bytes.len() - 1);
    let e = parallel::validate::<LongWord>(&bytes).unwrap_err();
    assert_eq!(Err(e), LongWord::validate(&bytes));
}

/// 16 MiB of corpus text (whole characters), so that `parallel::validate`
/// cuts it into several chunks even on a machine with few cores.
fn large_text() -> Vec<u8> {
    const LEN: usize = 16 << 20;
    let text = corpus_text();
    let mut bytes = Vec::with_capacity(LEN + text.len());
    while bytes.len() < LEN {
        bytes.extend_from_slice(text);
    }
    let mut end = LEN;
    while end > 0 && bytes[end] & 0xC0 == 0x80 {
        end -= 1;
    }
    bytes.truncate(end);
    bytes
}

fn assert_parallel_agrees(bytes: &[u8], what: &str) {
    let ours = parallel::from_utf8(bytes);
    let one_core = utf8_core::from_utf8(bytes);
    let std = core::str::from_utf8(bytes);
    assert_eq!(ours, one_core, "{what}");
    match (&ours, &std) {
        (Ok(ours), Ok(_)) => assert!(core::ptr::eq(ours.as_bytes(), bytes), "{what}"),
        (Err(ours), Err(std)) => assert_eq!(error_parts(ours), std_error_parts(std), "{what}"),
        _ => panic!("{what}: {ours:?} but std says {std:?}"),
    }
}

/// Byte patterns to place across a chunk boundary: a byte that is never
/// UTF-8, a stray continuation, sequences cut short by ASCII, a surrogate,
/// an overlong form, one above U+10FFFF, and a valid 4-byte character.
const PATTERNS: &[&[u8]] = &[
    b"\xFF",
    b"\x80",
    b"\xE2\x82A",
    b"\xF0\x9F\x92A",
    b"\xED\xA0\x80",
    b"\xC0\x80",
    b"\xF4\x90\x80\x80",
    b"\xF0\x9F\x92\x96",
];

#[test]
fn parallel_validation_agrees_around_chunk_boundaries() {
    let mut bytes = large_text();
    let chunk = parallel::chunk_len(bytes.len());
    assert!(
        chunk < bytes.len(),
        "one chunk only: {chunk} of {}",
        bytes.len()
    );
    assert_parallel_agrees(&bytes, "valid");
    let last_boundary = (bytes.len() - 1) / chunk * chunk;
    let boundaries = [chunk, last_boundary, bytes.len() - 2];
    for boundary in boundaries {
        for pattern in PATTERNS {
            // The pattern in ASCII, so that the error is the pattern's own.
            let padded = [b"    ".as_slice(), pattern, b"    "].concat();
            for offset in 0..=pattern.len() {
                let at = (boundary + 4 - offset).min(bytes.len() - padded.len());
                let saved = bytes[at..at + padded.len()].to_vec();
                bytes[at..at + padded.len()].copy_from_slice(&padded);
                assert_parallel_agrees(&bytes, &format!("{pattern:02X?} at {}", at + 4));
                bytes[at..at + padded.len()].copy_from_slice(&saved);
            }
        }
    }
}

#[test]
fn parallel_validation_reports_the_first_of_several_errors() {
    let mut bytes = large_text();
    let chunk = parallel::chunk_len(bytes.len());
    let last = bytes.len() - 10;
    bytes[last] = 0xFF;
    assert_parallel_agrees(&bytes, "an error in the last chunk");
    bytes[2 * chunk + 1] = 0xC0;
    assert_parallel_agrees(&bytes, "errors in the third and last chunks");
    bytes[chunk - 1] = 0xF0;
    assert_parallel_agrees(&bytes, "errors in the first, third and last chunks");
}

#[test]
fn parallel_validation_of_input_ending_inside_a_sequence() {
    let mut bytes = large_text();
    let chunk = parallel::chunk_len(bytes.len());
    for tail in [&b"\xF0\x9F\x92"[..], b"\xE2", b"\xED\x9F"] {
        for len in [bytes.len() - 20, 4 * chunk + 1, 3 * chunk + 2] {
            let mut input = bytes[..len].to_vec();
            while input.last().is_some_and(|&byte| byte >= 0x80) {
                input.pop();
            }
            input.extend_from_slice(tail);
            assert_parallel_agrees(&input, &format!("{len} bytes then {tail:02X?}"));
            let e = parallel::from_utf8(&input).unwrap_err();
            assert_eq!(e.error_len(), None);
        }
    }
    bytes.truncate(bytes.len() / 2);
    assert_parallel_agrees(&bytes, "half");
}

#[test]
fn parallel_validation_of_every_dialect_agrees() {
    let mut bytes = large_text();
    let chunk = parallel::chunk_len(bytes.len());
    fn agree<R: Ruleset>(bytes: &[u8]) {
        assert_eq!(
            parallel::validate::<R>(bytes),
            R::validate(bytes),
            "{}",
            R::NAME
        );
    }
    // A lone lead surrogate right before a boundary: valid in WTF-8, and the
    // WTF-8 run then ends the chunk in an accepting state that is not the
    // start state.
    let at = 2 * chunk - 3;
    bytes[at - 2..at + 5].copy_from_slice(b"  \xED\xA0\x80  ");
    agree::<Rfc3629>(&bytes);
    agree::<Legacy31>(&bytes);
    agree::<Cesu8>(&bytes);
    agree::<Mutf8>(&bytes);
    agree::<Wtf8>(&bytes);
    agree::<Rfc2279>(&bytes);
    agree::<EvenLength>(&bytes);
}
