//! utf8-arrow against per-row `core::str::from_utf8` on random arrays:
//! rows of 0 to 300 bytes cut from one text (characters split across
//! neighbouring rows), invalid bytes, nulls over invalid bytes, slices.
//!
//! Run once for each arrow-rs major the crate is built with, against that
//! major's module (`utf8_arrow::arrow60`, `utf8_arrow::arrow59`) and
//! arrays: the tests are written once, in `each_major/differential.rs`.

macro_rules! for_each_major {
    ($($feature:literal => $major:ident, values cut: $cut:literal,)*) => {$(
        #[cfg(feature = $feature)]
        mod $major {
            use utf8_arrow::$major as major;

            /// Whether a string array over a slice holds only the slice's
            /// bytes of its values (arrow-rs 59, whose `try_new` checks
            /// the whole values buffer) rather than the whole buffer.
            #[allow(dead_code, reason = "each test file uses its own part")]
            const STRING_VALUES_CUT: bool = $cut;

            #[allow(dead_code, reason = "each test file uses its own part")]
            mod common {
                include!("each_major/common.rs");
            }

            include!("each_major/differential.rs");
        }
    )*};
}

for_each_major! {
    "arrow-60" => arrow60, values cut: false,
    "arrow-59" => arrow59, values cut: true,
}
