//! The adapters for arrow-rs 60: `Binary`, `LargeBinary`, `BinaryView`,
//! `Utf8`, `LargeUtf8` and `Utf8View` arrays of arrow-rs 60 checked and
//! converted, with the `arrow_array`, `arrow_buffer` and `arrow_schema`
//! they are built on.

pub use arrow_array_60 as arrow_array;
pub use arrow_buffer_60 as arrow_buffer;
pub use arrow_schema_60 as arrow_schema;

/// arrow-rs 60's `GenericStringArray::try_new` checks only the bytes
/// the offsets span, so a slice's string array keeps its whole buffer.
const STRING_VALUES_CHECKED_WHOLE: bool = false;

// The one source of the adapters, compiled once a major against that
// major's arrow-rs: loading the file in each major's module is the point.
#[allow(clippy::duplicate_mod)]
#[path = "adapters/mod.rs"]
mod adapters;

pub use adapters::*;
