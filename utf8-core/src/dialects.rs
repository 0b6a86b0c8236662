//! The built-in dialects, each a module with its ruleset type and the
//! functions every ruleset gets.

/// A dialect module's contents: the ruleset type over `crate::tables::$m`
/// and free functions that forward to it.
macro_rules! dialect {
    ($(#[$doc:meta])* $name:ident = $m:ident, $title:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        use crate::tables;
        crate::ruleset!(
            @impl $name,
            crate::error::RulesetLabel {
                name: ::core::stringify!($m),
                title: ::core::concat!($title, " (", ::core::stringify!($m), ")"),
            },
            tables::$m
        );
        crate::ruleset!(@inherent pub $name);

        /// Checks `bytes` against this dialect.
        ///
        /// Errors mean what they mean for [`crate::from_utf8`]: `valid_up_to`
        /// is the end of the last complete sequence; `error_len` is the
        /// length of the valid prefix of the failing sequence (at least 1),
        /// or `None` when the input ends inside a sequence.
        pub fn validate(bytes: &[u8]) -> Result<(), crate::Utf8Error> {
            $name::validate(bytes)
        }

        /// [`validate`] for `const` contexts.
        pub const fn validate_const(bytes: &[u8]) -> Result<(), crate::Utf8Error> {
            $name::validate_const(bytes)
        }

        /// The values of `bytes`, with an error item for each invalid part;
        /// see [`crate::Decode`].
        pub fn decode(bytes: &[u8]) -> crate::Decode<'_, $name> {
            crate::Decode::new(bytes)
        }

        /// `bytes` as runs of valid sequences and the invalid bytes that end
        /// them; see [`crate::Chunks`].
        pub fn chunks(bytes: &[u8]) -> crate::Chunks<'_, $name> {
            crate::Chunks::new(bytes)
        }

        /// A streaming validator for this dialect's type; see [`crate::Validator`].
        pub type Validator = crate::Validator<$name>;

        /// A streaming validator at the start of a stream.
        pub const fn validator() -> Validator {
            crate::Validator::for_ruleset()
        }
    };
}

pub mod cesu8 {
    //! CESU-8, as Unicode Technical Report #26 defines it, read strictly:
    //! UTF-8 for U+0000–FFFF without surrogates, and each supplementary
    //! character as its UTF-16 surrogate pair, a lead surrogate `ED A0-AF xx`
    //! immediately followed by a trail surrogate `ED B0-BF xx`. No four-byte
    //! forms; an unpaired surrogate is invalid. Decodes to `char`: the
    //! derivation proves that every sequence is a scalar value or a pair.
    //!
    //! ```
    //! use utf8_core::cesu8;
    //! // U+1F496 as CESU-8: D83D DC96, three bytes each.
    //! let pair = b"\xED\xA0\xBD\xED\xB2\x96";
    //! assert!(cesu8::validate(pair).is_ok());
    //! assert_eq!(cesu8::decode(pair).collect::<Vec<_>>(), [Ok('💖')]);
    //! // Its four-byte UTF-8 form is not CESU-8.
    //! assert!(cesu8::validate("💖".as_bytes()).is_err());
    //! // A lead surrogate alone: the input ends inside the pair.
    //! let e = cesu8::validate(b"\xED\xA0\xBD").unwrap_err();
    //! assert_eq!((e.valid_up_to(), e.error_len()), (0, None));
    //! ```
    dialect!(
        /// CESU-8.
        Cesu8 = cesu8, "CESU-8"
    );
}

pub mod mutf8 {
    //! Java's modified UTF-8, as the class-file format (JVMS §4.4.7) and
    //! `java.io.DataOutput.writeUTF` write it: no `00` byte (U+0000 is
    //! `C0 80`), no byte in `F0-FF`, one- to three-byte forms, and surrogate
    //! halves in three bytes each, paired or not. Decodes to `u32`: the
    //! UTF-16 code units Java wrote, which `char::decode_utf16` pairs up.
    //!
    //! ```
    //! use utf8_core::mutf8;
    //! assert!(mutf8::validate(b"a\xC0\x80b").is_ok());
    //! // A raw zero byte is what modified UTF-8 exists to avoid.
    //! let e = mutf8::validate(b"a\x00b").unwrap_err();
    //! assert_eq!((e.valid_up_to(), e.error_len()), (1, Some(1)));
    //! // An unpaired surrogate is fine.
    //! assert_eq!(mutf8::decode(b"\xED\xA0\x80").collect::<Vec<_>>(), [Ok(0xD800)]);
    //! ```
    dialect!(
        /// Modified UTF-8.
        Mutf8 = mutf8, "modified UTF-8"
    );
}

pub mod wtf8 {
    //! WTF-8, Simon Sapin's encoding of potentially ill-formed UTF-16:
    //! generalized UTF-8 (surrogate code points allowed, in three bytes)
    //! except that a lead surrogate immediately followed by a trail
    //! surrogate is invalid, since that pair has a four-byte form. Decodes
    //! to `u32` code points.
    //!
    //! ```
    //! use utf8_core::wtf8;
    //! // A lone lead surrogate, then a lone trail surrogate after an "a".
    //! assert!(wtf8::validate(b"\xED\xA0\x80a\xED\xB0\x80").is_ok());
    //! // The same two surrogates side by side: the trail surrogate's first
    //! // byte may start a sequence, its second may not follow it here.
    //! let e = wtf8::validate(b"\xED\xA0\x80\xED\xB0\x80").unwrap_err();
    //! assert_eq!((e.valid_up_to(), e.error_len()), (3, Some(1)));
    //! ```
    dialect!(
        /// WTF-8.
        Wtf8 = wtf8, "WTF-8"
    );
}

pub mod rfc2279 {
    //! UTF-8 as RFC 2279 defined it: the shortest form of every value up
    //! to U+7FFFFFFF, in one to six bytes, surrogates included (RFC 2279
    //! did not exclude them). Decodes to `u32`.
    //!
    //! ```
    //! use utf8_core::rfc2279;
    //! assert_eq!(rfc2279::decode(b"\xED\xA0\x80").collect::<Vec<_>>(), [Ok(0xD800)]);
    //! assert_eq!(rfc2279::decode(b"\xFD\xBF\xBF\xBF\xBF\xBF").collect::<Vec<_>>(), [Ok(0x7FFF_FFFF)]);
    //! assert!(rfc2279::validate(b"\xC0\x80").is_err());
    //! ```
    dialect!(
        /// RFC 2279 UTF-8.
        Rfc2279 = rfc2279, "RFC 2279 UTF-8"
    );
}

#[cfg(feature = "legacy-31bit")]
#[cfg_attr(docsrs, doc(cfg(feature = "legacy-31bit")))]
pub mod legacy31 {
    //! The 31-bit legacy form of UTF-8: RFC 2279's shortest forms up to
    //! U+7FFFFFFF, five- and six-byte sequences included, surrogates still
    //! rejected — the language of Onigmo's table built with `USE_UTF8_31BITS`.
    //!
    //! ```
    //! use utf8_core::legacy31;
    //! // U+7FFFFFFF, the largest 31-bit value, in six bytes.
    //! let max = b"\xFD\xBF\xBF\xBF\xBF\xBF";
    //! assert!(legacy31::validate(max).is_ok());
    //! assert_eq!(legacy31::decode(max).collect::<Vec<_>>(), [Ok(0x7FFF_FFFF)]);
    //! // FC 83 ... would be an overlong six-byte form of a five-byte value.
    //! let e = legacy31::validate(b"\xFC\x83\xBF\xBF\xBF\xBF").unwrap_err();
    //! assert_eq!((e.valid_up_to(), e.error_len()), (0, Some(1)));
    //! ```
    dialect!(
        /// The 31-bit legacy form.
        Legacy31 = legacy31, "31-bit legacy UTF-8"
    );
}
