//! The tests that run once per arrow-rs major: `for_each_major!` puts the
//! items it is given (the `include!`s of a test file's body and of
//! `common.rs`) in a module per major the crate is built with, where
//! `major` is that major's module of utf8-arrow (`utf8_arrow::arrow60`,
//! `utf8_arrow::arrow59`), whose `arrow_array` the bodies build arrays
//! with.

macro_rules! for_each_major {
    ($($items:tt)*) => {
        #[cfg(feature = "arrow-60")]
        mod arrow60 {
            use utf8_arrow::arrow60 as major;

            /// Whether a string array over a slice holds only the slice's
            /// bytes of its values (arrow-rs 59, whose `try_new` checks
            /// the whole values buffer) rather than the whole buffer.
            #[allow(dead_code, reason = "each test file uses its own part")]
            const STRING_VALUES_CUT: bool = false;

            $($items)*
        }

        #[cfg(feature = "arrow-59")]
        mod arrow59 {
            use utf8_arrow::arrow59 as major;

            #[allow(dead_code, reason = "each test file uses its own part")]
            const STRING_VALUES_CUT: bool = true;

            $($items)*
        }
    };
}
