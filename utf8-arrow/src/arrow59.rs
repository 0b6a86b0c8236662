//! The adapters for arrow-rs 59: `Binary`, `LargeBinary`, `BinaryView`,
//! `Utf8`, `LargeUtf8` and `Utf8View` arrays of arrow-rs 59 checked and
//! converted, with the `arrow_array`, `arrow_buffer` and `arrow_schema`
//! they are built on.

pub use arrow_array_59 as arrow_array;
pub use arrow_buffer_59 as arrow_buffer;
pub use arrow_schema_59 as arrow_schema;

/// arrow-rs 59's `GenericStringArray::try_new` checks the whole values
/// buffer for UTF-8, not only the bytes the offsets span: a string array
/// over a slice's buffer is only as `try_new` would accept it, which
/// `new_unchecked` requires, when its values are cut to those bytes.
const STRING_VALUES_CHECKED_WHOLE: bool = true;

// The one source of the adapters, compiled once a major against that
// major's arrow-rs: loading the file in each major's module is the point.
#[allow(clippy::duplicate_mod)]
#[path = "adapters/mod.rs"]
mod adapters;

pub use adapters::*;
