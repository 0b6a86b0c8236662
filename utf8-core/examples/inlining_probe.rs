//! The program whose machine code `cargo xtask inlining` reads: it links
//! the entry points whose code shape the speed depends on, as a user's
//! release build would, and runs none of them.
//!
//! ```text
//! cargo xtask inlining
//! ```

use std::hint::black_box;

use utf8_core::column::Views;
use utf8_core::{Rfc3629, Utf8Error, Validator};

fn main() {
    // Taken by address, each entry is linked in whole, as a caller in
    // another crate gets it, whatever the optimizer could prove of a call.
    let entries: [fn(&mut [u8]) -> bool; 6] = [
        |bytes| utf8_core::from_utf8(bytes).is_ok(),
        |bytes| utf8_core::from_utf8_mut(bytes).is_ok(),
        |bytes| utf8_core::cesu8::to_str(bytes).is_ok(),
        |bytes| utf8_core::mutf8::to_str(bytes).is_ok(),
        |bytes| utf8_core::wtf8::to_str(bytes).is_ok(),
        |bytes| update(&mut Validator::new(), bytes).is_ok(),
    ];
    black_box(entries);
    // A views column's one-pass check, and through its slow path the
    // layout scan and the check of a column already made.
    let columns: [fn(&[u128]) -> bool; 1] =
        [|views| Views::validated::<Rfc3629>(views, &[] as &[&[u8]], None).is_ok()];
    black_box(columns);
}

/// Streaming, whose pieces take their own path (`skippable_prefix`).
fn update(validator: &mut Validator, piece: &[u8]) -> Result<(), Utf8Error> {
    validator.update(piece)
}
