//! `dfa_tables!`: derive a validator's tables from a spec at compile time and
//! emit them as `const` items.
//!
//! This crate is a thin wrapper. It parses the macro input (`parse.rs`), hands the
//! ABNF to [`utf8_spec::Derivation`], and quotes (`expand.rs`) the resulting
//! tables. All the automaton work happens in `utf8-spec`, which is tested
//! there without any macro.
//!
//! ```
//! mod rfc3629 {
//!     utf8_macros::dfa_tables!(ruleset = "rfc3629");
//! }
//! assert_eq!(rfc3629::STATE_COUNT, 9);
//! assert_eq!(rfc3629::CLASS_COUNT, 12);
//! // E0 is a class of its own: it needs A0-BF next.
//! assert_eq!(rfc3629::BYTE_CLASSES[0xE0], 6);
//!
//! mod digits {
//!     utf8_macros::dfa_tables!(abnf = "number = 1*DIGIT\n", start = "number");
//! }
//! assert_eq!(digits::STATE_COUNT, 3);
//! ```
//!
//! The items emitted, each documented in the expansion:
//!
//! | item | type | meaning |
//! |---|---|---|
//! | `STATE_COUNT` | `usize` | states, the dead one included |
//! | `CLASS_COUNT` | `usize` | byte classes |
//! | `START_STATE` | `u8` | always 0 |
//! | `DEAD_STATE` | `u8` | always `STATE_COUNT - 1` |
//! | `ACCEPTING` | `[bool; STATE_COUNT]` | whether each state accepts |
//! | `BYTE_CLASSES` | `[u8; 256]` | byte → class |
//! | `TRANSITIONS` | `[u8; STATE_COUNT * CLASS_COUNT]` | `TRANSITIONS[state * CLASS_COUNT + class]` |
//! | `START_RULE` | `&str` | the ABNF rule derived from |
//!
//! A spec that cannot be derived is a compile error that points at the macro
//! input and quotes the ABNF line and column:
//!
//! ```compile_fail
//! utf8_macros::dfa_tables!(abnf = "s = *( %x41 / b )\n", start = "s");
//! // error: ABNF line 1, column 15: undefined rule `b`
//! //         1 | s = *( %x41 / b )
//! //           |               ^
//! ```

mod expand;
mod parse;

use proc_macro::TokenStream;

/// Derives the tables of a built-in ruleset (`ruleset = "rfc3629"`) or of
/// inline ABNF (`abnf = "...", start = "rule"`) and emits them as `pub const`
/// items in the surrounding module. See the [crate docs](crate).
#[proc_macro]
pub fn dfa_tables(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as parse::Input);
    match input.derive() {
        Ok((derivation, label)) => expand::tables(&derivation, &label).into(),
        Err(error) => error.to_compile_error().into(),
    }
}
