#![doc = include_str!("../README.md")]
//!
//! ## The API
//!
//! [`from_utf8`] and [`from_utf8_mut`] have the signatures and the error
//! semantics of their `core::str` namesakes; [`from_utf8_const`] does the
//! same in `const` contexts. [`Utf8Error`] explains how its position is found
//! only on failure. The tables they run on are each produced by
//! `utf8_macros::dfa_tables!`, and [`cpu::level`] says which vector code
//! runs them on this CPU.
//!
//! ## Beyond UTF-8
//!
//! The same machinery runs every [`Ruleset`]: the dialects in [`cesu8`],
//! [`mutf8`], [`wtf8`] and [`rfc2279`] (and `legacy31` behind a feature),
//! and rulesets of your own, from ABNF or from a set of scalar ranges, that
//! [`ruleset!`] derives at compile time. Each gets one-shot validation, the
//! streaming [`Validator`], [`Decode`] and [`Chunks`]. [`named`] finds a
//! built-in one by a name known only at run time.
//!
//! ## A ruleset of your own, worked through
//!
//! XML 1.0 allows only some characters in a document (production 2):
//!
//! ```text
//! Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
//! ```
//!
//! Give those ranges to [`ruleset!`] and it derives, while your crate
//! compiles, the automaton of exactly their UTF-8 encodings:
//!
//! ```
//! utf8_core::ruleset! {
//!     /// Text that XML 1.0 allows in a document.
//!     pub struct XmlChar {
//!         scalars = [0x9, 0xA, 0xD, 0x20..=0xD7FF, 0xE000..=0xFFFD, 0x10000..=0x10FFFF]
//!     }
//! }
//!
//! // Valid UTF-8 and valid XML text.
//! assert!(XmlChar::validate("<p>naïve café</p>\n".as_bytes()).is_ok());
//!
//! // U+0001 is valid UTF-8 but not an XML character; so is U+FFFE, whose
//! // three bytes EF BF BE are all that is wrong: the error starts at the EF
//! // and covers EF BF, the part that could still have become a character.
//! let e = XmlChar::validate(b"a\x01").unwrap_err();
//! assert_eq!((e.valid_up_to(), e.error_len()), (1, Some(1)));
//! let e = XmlChar::validate(b"a\xEF\xBF\xBE").unwrap_err();
//! assert_eq!((e.valid_up_to(), e.error_len()), (1, Some(2)));
//!
//! // Everything a built-in ruleset has: streaming, chunks, decoding. The
//! // derivation proved that every value is a scalar value, so decoding
//! // yields `char`.
//! let text = "<p>café".as_bytes();
//! let mut stream = XmlChar::validator();
//! stream.update(&text[..7])?; // ends between the two bytes of "é"
//! stream.update(&text[7..])?;
//! stream.finish()?;
//! let decoded: Vec<char> = XmlChar::decode("é\t".as_bytes()).map(Result::unwrap).collect();
//! assert_eq!(decoded, ['é', '\t']);
//! # Ok::<(), utf8_core::Utf8Error>(())
//! ```
//!
//! The same works from ABNF, inline (`abnf = "...", start = "rule"`) or in a
//! file next to your `Cargo.toml` (`abnf_file = "text.abnf", start = "rule"`,
//! rebuilt when the file changes); a spec that does not derive is a compile
//! error pointing at it. `cargo run -p utf8-cli -- derive --abnf FILE --start
//! RULE` shows the derivation step by step.

#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]
// Every `unsafe` block names the bound it relies on, and every `unsafe fn`
// says what its caller must guarantee.
#![deny(
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    clippy::missing_safety_doc
)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod automaton;
mod chunks;
pub mod column;
#[cfg(feature = "alloc")]
mod convert;
pub mod cpu;
mod decode;
mod derived;
mod dialects;
mod dispatch;
mod error;
#[cfg(feature = "std")]
mod io;
pub mod named;
pub mod parallel;
#[doc(hidden)]
pub mod paths;
mod ruleset;
mod scan;
mod shift;
#[doc(hidden)]
pub mod simd;
mod str_cast;
mod stream;
mod strings;
#[doc(hidden)]
pub mod tables;
mod to_str_error;
mod wide;

pub use chunks::{Chunk, Chunks, Utf8Chunk, Utf8Chunks};
pub use decode::Decode;
#[cfg(feature = "legacy-31bit")]
#[cfg_attr(docsrs, doc(cfg(feature = "legacy-31bit")))]
pub use dialects::legacy31;
pub use dialects::{cesu8, mutf8, rfc2279, wtf8};
pub use dispatch::Rfc3629;
pub use dispatch::SIMD_THRESHOLD;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub use error::FromUtf8Error;
pub use error::Utf8Error;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use io::{ValidatingBufReader, ValidatingReader};
pub use ruleset::{Ruleset, Value};
pub use stream::Validator;
pub use strings::{decode, from_utf8, from_utf8_const, from_utf8_mut, utf8_chunks};
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub use strings::{from_utf8_lossy, from_utf8_lossy_owned, from_utf8_owned};

/// What [`ruleset!`] expands to needs: not part of the stable API; it may
/// change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::automaton::Automaton;
    pub use crate::derived::{
        PairRule, Pairing, ShiftTables, Tables, Utf8Shortcut, VectorTables, padded,
    };
    pub use crate::dispatch::validate;
    pub use crate::error::RulesetLabel;
    pub use utf8_macros::dfa_tables;
}
