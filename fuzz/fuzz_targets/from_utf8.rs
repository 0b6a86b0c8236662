//! `utf8_core::from_utf8` against `core::str::from_utf8` (the `Ok` must be
//! the input itself; an error must have the same `valid_up_to` and
//! `error_len`), and every path of `utf8_core::paths` that this CPU runs
//! against the same verdict: on the fuzzer's bytes as they are, and on all
//! but the first byte placed at the alignment the first byte chooses.

#![no_main]

mod common;

use common::{Verdict, verdict, with_alignment};
use libfuzzer_sys::fuzz_target;
use utf8_core::paths::{self, Path};

fn check(input: &[u8], alignment: Option<usize>) {
    let std: Verdict = core::str::from_utf8(input)
        .map(|_| ())
        .map_err(|e| (e.valid_up_to(), e.error_len()));
    let ours = utf8_core::from_utf8(input);
    if let Ok(text) = ours {
        assert!(
            core::ptr::eq(text.as_bytes(), input),
            "from_utf8 returned other memory than its input"
        );
    }
    assert_eq!(
        verdict(ours.map(|_| ())),
        std,
        "from_utf8 at alignment {alignment:?}"
    );
    assert_eq!(
        verdict(utf8_core::from_utf8_const(input).map(|_| ())),
        std,
        "from_utf8_const"
    );
    for path in Path::ALL {
        if let Some(result) = paths::rfc3629(path, input) {
            assert_eq!(verdict(result), std, "{path:?} at alignment {alignment:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check(data, None);
    with_alignment(data, |input, alignment| check(input, Some(alignment)));
});
