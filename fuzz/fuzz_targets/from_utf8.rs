//! `utf8_core::from_utf8`, `from_utf8_mut`, `from_utf8_const` and
//! `parallel::from_utf8` against `core::str::from_utf8` (an `Ok` must be the
//! input itself; an error must have the same `valid_up_to` and `error_len`),
//! and every path of `utf8_core::paths` that this CPU runs against the same
//! verdict: on the fuzzer's bytes as they are, and on all but the first byte
//! placed at the alignment the first byte chooses.

#![no_main]

mod common;

use common::{Placed, Verdict, verdict, with_alignment};
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
    // Under `parallel::PARALLEL_THRESHOLD` (1 MiB, far beyond the inputs
    // fuzzed here) this validates on the calling thread; the merging it does
    // on large inputs is fuzzed in the `streaming` target, through
    // `parallel::Summary` at cuts the fuzzer chooses.
    assert_eq!(
        verdict(utf8_core::parallel::from_utf8(input).map(|_| ())),
        std,
        "parallel::from_utf8 at alignment {alignment:?}"
    );
    for path in Path::ALL {
        if let Some(result) = paths::rfc3629(path, input) {
            assert_eq!(verdict(result), std, "{path:?} at alignment {alignment:?}");
        }
    }
}

/// `from_utf8_mut` on a copy it may borrow mutably, at `alignment`.
fn check_mut(input: &[u8], alignment: usize) {
    let std: Verdict = core::str::from_utf8(input)
        .map(|_| ())
        .map_err(|e| (e.valid_up_to(), e.error_len()));
    let mut placed = Placed::new(input, alignment);
    let bytes = placed.bytes_mut();
    let address = bytes.as_ptr();
    let result = utf8_core::from_utf8_mut(bytes);
    if let Ok(text) = &result {
        assert!(
            core::ptr::eq(text.as_ptr(), address) && text.len() == input.len(),
            "from_utf8_mut returned other memory than its input"
        );
    }
    assert_eq!(
        verdict(result.map(|_| ())),
        std,
        "from_utf8_mut at alignment {alignment}"
    );
}

fuzz_target!(|data: &[u8]| {
    check(data, None);
    with_alignment(data, |input, alignment| {
        check(input, Some(alignment));
        check_mut(input, alignment);
    });
});
