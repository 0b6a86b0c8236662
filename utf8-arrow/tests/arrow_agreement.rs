//! utf8-arrow's verdicts beside arrow-rs's own, where arrow-rs checks
//! every row: `try_new` and `ArrayData::validate_full` of string arrays.
//!
//! Run once for each arrow-rs major the crate is built with, against that
//! major's module (`utf8_arrow::arrow60`, `utf8_arrow::arrow59`) and
//! arrays: the tests are written once, in `each_major/arrow_agreement.rs`.

#[macro_use]
mod each_major;

for_each_major! {
    #[allow(dead_code, reason = "each test file uses its own part")]
    mod common {
        include!("each_major/common.rs");
    }

    include!("each_major/arrow_agreement.rs");
}
