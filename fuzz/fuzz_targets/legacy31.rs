//! The 31-bit legacy form: every path of `utf8_core::paths::legacy31` that
//! this CPU runs, and `legacy31::validate`, against the class-table
//! automaton (`Path::Automaton`); and `legacy31::decode` against
//! `legacy31::validate`: the items cover the input in order, each value is
//! exactly the shortest-form encoding of the bytes it consumed, each error
//! item starts where the previous item ended and is what `validate` reports
//! for the input from there on, and the input is valid exactly when no item
//! is an error.

#![no_main]

mod common;

use common::{Verdict, verdict, with_alignment};
use libfuzzer_sys::fuzz_target;
use utf8_core::legacy31;
use utf8_core::paths::{self, Path};
use utf8_tests::dialect_text::push_generalized;

/// The RFC 2279 encoding of `value` in its shortest form (up to 6 bytes).
fn encode(value: u32) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(6);
    push_generalized(value, &mut bytes);
    bytes
}

fn check_paths(input: &[u8], alignment: Option<usize>) {
    let reference: Verdict =
        verdict(paths::legacy31(Path::Automaton, input).expect("the automaton runs everywhere"));
    for path in Path::ALL {
        if let Some(result) = paths::legacy31(path, input) {
            assert_eq!(
                verdict(result),
                reference,
                "{path:?} at alignment {alignment:?}"
            );
        }
    }
    assert_eq!(
        verdict(legacy31::validate(input)),
        reference,
        "legacy31::validate at alignment {alignment:?}"
    );
    assert_eq!(
        verdict(legacy31::validate_const(input)),
        reference,
        "legacy31::validate_const"
    );
}

fn check_decode(input: &[u8]) {
    let validated = verdict(legacy31::validate(input));
    let mut decode = legacy31::decode(input);
    let mut position = 0;
    let mut first_error = None;
    loop {
        assert_eq!(input.len() - decode.remaining().len(), position);
        let Some(item) = decode.next() else {
            break;
        };
        let end = input.len() - decode.remaining().len();
        assert!(
            end > position,
            "an item that consumed nothing at {position}"
        );
        match item {
            Ok(value) => {
                assert!(value <= 0x7FFF_FFFF);
                assert!(!(0xD800..=0xDFFF).contains(&value), "a surrogate");
                assert_eq!(encode(value), &input[position..end], "value {value:#X}");
            }
            Err(error) => {
                assert_eq!(error.valid_up_to(), position);
                // From here on, validation fails with this very error.
                let tail = verdict(legacy31::validate(&input[position..]))
                    .map_err(|(at, len)| (at + position, len));
                assert_eq!(tail, Err((error.valid_up_to(), error.error_len())));
                match error.error_len() {
                    Some(len) => assert_eq!(end, position + len),
                    None => assert_eq!(end, input.len()),
                }
                first_error.get_or_insert((error.valid_up_to(), error.error_len()));
            }
        }
        position = end;
    }
    assert_eq!(position, input.len());
    assert!(decode.next().is_none(), "decode is fused");
    assert_eq!(validated, first_error.map_or(Ok(()), Err));
}

fuzz_target!(|data: &[u8]| {
    check_paths(data, None);
    check_decode(data);
    with_alignment(data, |input, alignment| check_paths(input, Some(alignment)));
});
