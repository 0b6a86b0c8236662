//! The three SQL functions, each a [`ScalarUDFImpl`](datafusion::logical_expr::ScalarUDFImpl).

mod error_offset;
mod is_valid;
mod lossy;

pub use error_offset::Utf8ErrorOffset;
pub use is_valid::Utf8IsValid;
pub use lossy::Utf8Lossy;
