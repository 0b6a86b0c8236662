#![doc = include_str!("../README.md")]
//!
//! ## Examples
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
//! // XML 1.0's `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
//! mod xml_char {
//!     utf8_macros::dfa_tables!(
//!         scalars = [0x9, 0xA, 0xD, 0x20..=0xD7FF, 0xE000..=0xFFFD, 0x10000..=0x10FFFF]
//!     );
//! }
//! // A NUL byte is UTF-8 but not an XML character.
//! assert_eq!(xml_char::TRANSITIONS[xml_char::BYTE_CLASSES[0] as usize], xml_char::DEAD_STATE);
//! ```
//!
//! With `abnf_file`, the grammar sits in a file of its own:
//!
//! ```ignore
//! utf8_macros::dfa_tables!(abnf_file = "grammar/ascii.abnf", start = "text");
//! ```
//!
//! Built-in rulesets are those of [`utf8_spec::rulesets`]; `scalars` takes
//! integer or char literals and inclusive ranges of them, and goes through
//! [`utf8_spec::scalars`].
//!
//! ## The items emitted
//!
//! Each is documented in the expansion:
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
//! Then, for the fast paths of `utf8-core` (each item says what it is in its
//! docs): the shift DFA (`ShiftRow`, `SHIFT_*`), the vector check
//! (`SIMD_*`, `IS_CONTINUATION`; `SIMD_AVAILABLE` false and `SIMD_DECLINED`
//! saying why where the generator declined it), the UTF-8 shortcut
//! (`UTF8_SHORTCUT`, `UTF8_FORBIDDEN*`), and the module
//! `utf8_shortcut_language`: the automaton and vector check of valid UTF-8
//! without the forbidden bytes, the language the shortcut settles.
//!
//! ## Errors
//!
//! A spec that cannot be derived is a compile error:
//!
//! ```compile_fail
//! utf8_macros::dfa_tables!(abnf = "s = *( %x41 / b )\n", start = "s");
//! // error: ABNF line 1, column 15: undefined rule `b`
//! //         1 | s = *( %x41 / b )
//! //           |               ^
//! ```
//!
//! ## Inside
//!
//! This crate is a thin wrapper. It reads the macro input (`parse.rs`), checks
//! what it means (`validate.rs`), hands the spec to [`utf8_spec`]
//! (`derive.rs`), and quotes (`expand.rs`) the resulting tables. All the
//! automaton work happens in `utf8-spec`, which is tested there without any
//! macro.

mod derive;
mod expand;
mod parse;
mod validate;

use proc_macro::TokenStream;

/// Derives the tables of a built-in ruleset (`ruleset = "rfc3629"`), of
/// inline ABNF (`abnf = "...", start = "rule"`), of an ABNF file
/// (`abnf_file = "path", start = "rule"`) or of a set of Unicode scalar values
/// (`scalars = [0x20..=0x7E, ...]`), and emits them as `pub const` items in the
/// surrounding module. See the [crate docs](crate).
#[proc_macro]
pub fn dfa_tables(input: TokenStream) -> TokenStream {
    let args = syn::parse_macro_input!(input as parse::Args);
    let derived = match validate::Spec::new(args).and_then(|spec| spec.derive()) {
        Ok(derived) => derived,
        Err(error) => return error.to_compile_error().into(),
    };
    let mut tokens = expand::tables(&derived.derivation, &derived.label);
    if let Some(file) = derived.file {
        // The compiler rebuilds when a file it includes changes; nothing else
        // tells it that the tables depend on this one.
        let path = file.to_string_lossy().into_owned();
        tokens.extend(quote::quote! {
            const _: &[u8] = include_bytes!(#path);
        });
    }
    tokens.into()
}
