//! What an entry point should answer, from std or from a dialect's
//! byte-at-a-time `validate_const`, in the one shape every suite compares.
//!
//! This file uses nothing but `utf8_core` and std, so that suites that
//! cannot depend on this crate include it by path: utf8-core's Miri suite
//! (this crate depends on utf8-core, so utf8-core's tests would link a
//! second utf8-core through it).

use std::io;

use utf8_core::Utf8Error;

/// What validation says: `Ok`, or `(valid_up_to, error_len)`.
pub type Verdict = Result<(), (usize, Option<usize>)>;

/// The verdict of one of this crate's answers.
pub fn verdict(result: Result<(), Utf8Error>) -> Verdict {
    result.map_err(|error| (error.valid_up_to(), error.error_len()))
}

/// `core::str::from_utf8`'s verdict: the reference for RFC 3629.
pub fn std_verdict(bytes: &[u8]) -> Verdict {
    core::str::from_utf8(bytes)
        .map(drop)
        .map_err(|error| (error.valid_up_to(), error.error_len()))
}

/// The verdict of a function that returns its input as a `&str`; panics
/// unless the string is the input itself, not a copy.
pub fn str_verdict(bytes: &[u8], result: Result<&str, Utf8Error>) -> Verdict {
    let text = result.map_err(|error| (error.valid_up_to(), error.error_len()))?;
    assert_eq!(
        (text.as_ptr(), text.len()),
        (bytes.as_ptr(), bytes.len()),
        "the string is not the input"
    );
    Ok(())
}

/// A decoded item, as `core::str` would give it.
pub type Item = Result<char, (usize, Option<usize>)>;

/// The items `decode` should yield, from std's chunks: each chunk's
/// characters, then its invalid part as one error.
pub fn std_items(bytes: &[u8]) -> Vec<Item> {
    let mut items = Vec::new();
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        items.extend(chunk.valid().chars().map(Ok));
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            let len = core::str::from_utf8(&bytes[at..])
                .expect_err("an invalid part")
                .error_len();
            items.push(Err((at, len)));
            at += chunk.invalid().len();
        }
    }
    items
}

/// What `utf8_chunks` should yield, from std's chunks: each chunk's valid
/// and invalid parts, and whether the invalid part is a sequence cut short
/// by the end of the input.
pub fn std_chunks(bytes: &[u8]) -> Vec<(&str, &[u8], bool)> {
    let mut at = 0;
    bytes
        .utf8_chunks()
        .map(|chunk| {
            at += chunk.valid().len();
            let incomplete = !chunk.invalid().is_empty()
                && core::str::from_utf8(&bytes[at..]).is_err_and(|e| e.error_len().is_none());
            at += chunk.invalid().len();
            (chunk.valid(), chunk.invalid(), incomplete)
        })
        .collect()
}

/// The error an `io` adapter reports: `InvalidData` carrying a `Utf8Error`.
pub fn io_error_parts(error: io::Error) -> (usize, Option<usize>) {
    assert_eq!(error.kind(), io::ErrorKind::InvalidData, "{error}");
    let error = error
        .into_inner()
        .expect("a Utf8Error inside")
        .downcast::<Utf8Error>()
        .expect("a Utf8Error");
    (error.valid_up_to(), error.error_len())
}
