//! utf8-arrow against per-row `core::str::from_utf8` on random arrays:
//! rows of 0 to 300 bytes cut from one text (characters split across
//! neighbouring rows), invalid bytes, nulls over invalid bytes, slices.
//!
//! Run once for each arrow-rs major the crate is built with, against that
//! major's module (`utf8_arrow::arrow60`, `utf8_arrow::arrow59`) and
//! arrays: the tests are written once, in `each_major/differential.rs`.

#[macro_use]
mod each_major;

for_each_major! {
    #[allow(dead_code, reason = "each test file uses its own part")]
    mod common {
        include!("each_major/common.rs");
    }

    include!("each_major/differential.rs");
}
