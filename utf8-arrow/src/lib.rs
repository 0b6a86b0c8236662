#![doc = include_str!("../README.md")]
//!
//! ## How it works
//!
//! The adapters are written once (`src/adapters/`) and compiled once per
//! arrow-rs major that is enabled, each time against that major's crates:
//!
//! | feature | module | arrow-rs |
//! |---|---|---|
//! | `arrow-60` (default) | [`arrow60`], re-exported at the root | 60 |
//! | `arrow-59` | [`arrow59`] | 59 (what DataFusion 55 is built on) |
//!
//! The root re-exports the items of [`arrow60`] when `arrow-60` is enabled,
//! and of [`arrow59`] when only `arrow-59` is: code written against one
//! major names its module (`utf8_arrow::arrow59::validate`) to be sure of
//! it whatever else turns features on. Each module re-exports the
//! `arrow_array`, `arrow_buffer` and `arrow_schema` it is built on.
//!
//! Each function hands the array's own buffers to one of utf8-core's
//! [column layouts](utf8_core::column), which checks the whole array in a
//! few long runs instead of a call per row, and names the first invalid row
//! exactly: `Binary`, `LargeBinary`, `Utf8` and `LargeUtf8` as
//! [`Offsets`](utf8_core::column::Offsets), `BinaryView` and `Utf8View` as
//! [`Views`](utf8_core::column::Views). The array's null bitmap goes with it,
//! so null rows are not checked by `is_valid_utf8` and `invalid_rows`, nor
//! by `validate` of a binary array. `validate` of a string array and the
//! conversions to string arrays check null rows too, since arrow-rs's
//! string arrays promise UTF-8 in every slot. A layout the array's type promises
//! but that does not hold (an array built unchecked) is an error naming the
//! row, not a panic.

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

#[cfg(not(any(feature = "arrow-59", feature = "arrow-60")))]
compile_error!(
    "utf8-arrow needs an arrow-rs major: the feature `arrow-60` (the default) or `arrow-59`"
);

mod invalid;

#[cfg(feature = "arrow-60")]
pub mod arrow60;

// With both majors, the doctests of the shared adapters run once, for 60.
#[cfg(all(feature = "arrow-59", not(all(doctest, feature = "arrow-60"))))]
pub mod arrow59;

#[cfg(feature = "arrow-60")]
pub use arrow60::*;

#[cfg(all(feature = "arrow-59", not(feature = "arrow-60")))]
pub use arrow59::*;
