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
        pub fn validate(bytes: &[u8]) -> Result<(), crate::error::Utf8Error> {
            $name::validate(bytes)
        }

        /// [`validate`] for `const` contexts.
        pub const fn validate_const(bytes: &[u8]) -> Result<(), crate::error::Utf8Error> {
            $name::validate_const(bytes)
        }

        /// The values of `bytes`, with an error item for each invalid part;
        /// see [`crate::decode::Decode`].
        pub fn decode(bytes: &[u8]) -> crate::decode::Decode<'_, $name> {
            crate::decode::Decode::new(bytes)
        }

        /// `bytes` as runs of valid sequences and the invalid bytes that end
        /// them; see [`crate::chunks::Chunks`].
        pub fn chunks(bytes: &[u8]) -> crate::chunks::Chunks<'_, $name> {
            crate::chunks::Chunks::new(bytes)
        }

        /// A streaming validator for this dialect's type; see [`crate::stream::Validator`].
        pub type Validator = crate::stream::Validator<$name>;

        /// A streaming validator at the start of a stream.
        pub const fn validator() -> Validator {
            crate::stream::Validator::for_ruleset()
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
    /// CESU-8 as UTF-8 text: borrowed when `bytes` are already UTF-8 (no
    /// surrogate pair in them), otherwise with each pair, six bytes, written
    /// as its character's four. `from_cesu8` of the `cesu8` crate, with
    /// [`Utf8Error`](crate::error::Utf8Error)s that name CESU-8; a four-byte form is
    /// an error here wherever it is (UTR #26 has none).
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use utf8_core::cesu8;
    /// assert!(matches!(cesu8::to_str(b"caf\xC3\xA9"), Ok(Cow::Borrowed("café"))));
    /// assert_eq!(cesu8::to_str(b"\xED\xA0\xBD\xED\xB2\x96!")?, "💖!");
    /// let e = cesu8::to_str("💖".as_bytes()).unwrap_err();
    /// assert_eq!(e.to_string(), "invalid CESU-8 (cesu8) sequence of 1 bytes from index 0");
    /// # Ok::<(), utf8_core::Utf8Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn to_str(bytes: &[u8]) -> Result<alloc::borrow::Cow<'_, str>, crate::error::Utf8Error> {
        crate::convert::to_str::<Cesu8>(bytes, crate::convert::Java::No)
    }

    /// [`to_str`] that never fails: each maximal invalid subpart (as
    /// [`chunks`] finds them, and as `utf8 fix --ruleset cesu8` replaces
    /// them) becomes U+FFFD. Borrowed when `bytes` are valid CESU-8 that is
    /// UTF-8 as it stands.
    ///
    /// ```
    /// use utf8_core::cesu8;
    /// // A pair, then a lone lead surrogate and a four-byte form.
    /// let bytes = b"\xED\xA0\xBD\xED\xB2\x96 \xED\xA0\xBD \xF0\x9F\x92\x96";
    /// assert_eq!(cesu8::to_str_lossy(bytes), "💖 \u{FFFD} \u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}");
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn to_str_lossy(bytes: &[u8]) -> alloc::borrow::Cow<'_, str> {
        use crate::convert::{Pairs, to_str_lossy};
        to_str_lossy::<Cesu8>(bytes, Pairs::Join)
    }

    /// `text` in CESU-8: each supplementary character as its surrogate
    /// pair, six bytes; borrowed when there is none. `to_cesu8` of the
    /// `cesu8` crate.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use utf8_core::cesu8;
    /// assert!(matches!(cesu8::from_str("café"), Cow::Borrowed(b"caf\xC3\xA9")));
    /// assert_eq!(cesu8::from_str("💖!"), &b"\xED\xA0\xBD\xED\xB2\x96!"[..]);
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn from_str(text: &str) -> alloc::borrow::Cow<'_, [u8]> {
        crate::convert::from_str(text, false)
    }
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
    /// Modified UTF-8 as UTF-8 text: borrowed when `bytes` are already
    /// UTF-8 (no `C0 80`, no surrogate), otherwise with `C0 80` written as
    /// `00` and each surrogate pair as its character's four bytes.
    /// `from_java_cesu8` of the `cesu8` crate, with errors that name
    /// modified UTF-8.
    ///
    /// A surrogate that is not half of a pair is valid modified UTF-8 (Java
    /// strings may hold one) but no `str` can hold it: it is an error of
    /// three bytes at its index, or, a lead surrogate that the input ends
    /// after or inside the start of a trail surrogate (`ED`, `ED B0-BF`),
    /// an incomplete one. A trail surrogate that the input ends inside is
    /// an error of the bytes of it that are there. [`to_str_lossy`]
    /// replaces them instead.
    ///
    /// ```
    /// use utf8_core::mutf8;
    /// assert_eq!(mutf8::to_str(b"a\xC0\x80\xED\xA0\xBD\xED\xB2\x96")?, "a\0💖");
    /// let e = mutf8::to_str(b"a\xED\xB2\x96").unwrap_err();
    /// assert_eq!((e.valid_up_to(), e.error_len(), e.ruleset()), (1, Some(3), "mutf8"));
    /// // The input may go on with the rest of a trail surrogate.
    /// let e = mutf8::to_str(b"a\xED\xA0\xBD\xED").unwrap_err();
    /// assert_eq!((e.valid_up_to(), e.error_len()), (1, None));
    /// # Ok::<(), utf8_core::Utf8Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn to_str(bytes: &[u8]) -> Result<alloc::borrow::Cow<'_, str>, crate::error::Utf8Error> {
        crate::convert::to_str::<Mutf8>(bytes, crate::convert::Java::Yes)
    }

    /// [`to_str`] that never fails: each maximal invalid subpart (as
    /// [`chunks`] finds them, and as `utf8 fix --ruleset mutf8` replaces
    /// them) and each surrogate that is not half of a pair becomes U+FFFD.
    ///
    /// ```
    /// use utf8_core::mutf8;
    /// assert_eq!(mutf8::to_str_lossy(b"a\x00b\xED\xB2\x96c\xC0\x80"), "a\u{FFFD}b\u{FFFD}c\0");
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn to_str_lossy(bytes: &[u8]) -> alloc::borrow::Cow<'_, str> {
        use crate::convert::{Pairs, to_str_lossy};
        to_str_lossy::<Mutf8>(bytes, Pairs::Join)
    }

    /// `text` in modified UTF-8: U+0000 as `C0 80`, each supplementary
    /// character as its surrogate pair; borrowed when there is neither.
    /// `to_java_cesu8` of the `cesu8` crate.
    ///
    /// ```
    /// use utf8_core::mutf8;
    /// assert_eq!(mutf8::from_str("a\0💖"), &b"a\xC0\x80\xED\xA0\xBD\xED\xB2\x96"[..]);
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn from_str(text: &str) -> alloc::borrow::Cow<'_, [u8]> {
        crate::convert::from_str(text, true)
    }
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
    pub use crate::wide::EncodeWide;

    /// WTF-8 as UTF-8 text, when it is: valid WTF-8 without surrogates is
    /// UTF-8 as it stands, so this never copies. An unpaired surrogate is an
    /// error of three bytes at its index (`Wtf8::as_str` of std's
    /// internals says `None` there), and one that the input ends inside an
    /// error of the bytes of it that are there, since no more input could
    /// make it convert; [`to_str_lossy`] replaces it instead.
    ///
    /// ```
    /// use utf8_core::wtf8;
    /// assert_eq!(wtf8::to_str("café".as_bytes()), Ok("café"));
    /// let e = wtf8::to_str(b"a\xED\xA0\x80").unwrap_err();
    /// assert_eq!((e.valid_up_to(), e.error_len(), e.ruleset()), (1, Some(3), "wtf8"));
    /// let e = wtf8::to_str(b"a\xED\xB8").unwrap_err();
    /// assert_eq!((e.valid_up_to(), e.error_len()), (1, Some(2)));
    /// ```
    pub fn to_str(bytes: &[u8]) -> Result<&str, crate::error::Utf8Error> {
        use crate::to_str_error::{Pairs, to_str_error};
        let error = match crate::strings::from_utf8(bytes) {
            Ok(text) => return Ok(text),
            Err(error) => error,
        };
        // UTF-8 and WTF-8 differ only in surrogates: where UTF-8 stops, a
        // WTF-8 sequence ends too, and either a surrogate starts or WTF-8
        // stops as well.
        Err(to_str_error::<Wtf8>(
            bytes,
            error.valid_up_to(),
            Pairs::Apart,
        ))
    }

    /// WTF-8 as UTF-8 text, with each unpaired surrogate replaced by U+FFFD
    /// (as std's `OsStr::to_string_lossy` does on Windows) and each maximal
    /// invalid subpart too (as `utf8 fix --ruleset wtf8` does); borrowed when
    /// `bytes` are UTF-8.
    ///
    /// ```
    /// use utf8_core::wtf8;
    /// let bytes = wtf8::from_wide(&[0x61, 0xD800, 0x62]);
    /// assert_eq!(wtf8::to_str_lossy(&bytes), "a\u{FFFD}b");
    /// assert_eq!(wtf8::to_str_lossy(b"a\xFFb"), "a\u{FFFD}b");
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn to_str_lossy(bytes: &[u8]) -> alloc::borrow::Cow<'_, str> {
        use crate::convert::{Pairs, to_str_lossy};
        to_str_lossy::<Wtf8>(bytes, Pairs::Apart)
    }

    /// The WTF-8 of potentially ill-formed UTF-16, as std's
    /// `OsString::from_wide` makes it on Windows: a lead surrogate followed
    /// by a trail surrogate is their character's four bytes, any other
    /// surrogate three bytes of its own.
    ///
    /// ```
    /// use utf8_core::wtf8;
    /// assert_eq!(wtf8::from_wide(&[0xD83D, 0xDC96]), "💖".as_bytes());
    /// assert_eq!(wtf8::from_wide(&[0xDC96, 0xD83D]), b"\xED\xB2\x96\xED\xA0\xBD");
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn from_wide(units: &[u16]) -> alloc::vec::Vec<u8> {
        crate::wide::from_wide(units)
    }

    /// The UTF-16 code units of WTF-8 `bytes`, once they are validated: std's
    /// `OsStr::encode_wide` for bytes that may not be WTF-8.
    ///
    /// ```
    /// use utf8_core::wtf8;
    /// let units: Vec<u16> = wtf8::encode_wide(b"\xED\xA0\x80\xF0\x9F\x92\x96")?.collect();
    /// assert_eq!(units, [0xD800, 0xD83D, 0xDC96]);
    /// assert!(wtf8::encode_wide(b"\xED\xA0\x80\xED\xB0\x80").is_err());
    /// # Ok::<(), utf8_core::Utf8Error>(())
    /// ```
    pub fn encode_wide(bytes: &[u8]) -> Result<EncodeWide<'_>, crate::error::Utf8Error> {
        validate(bytes)?;
        Ok(EncodeWide::new(bytes))
    }

    /// [`encode_wide`], collected: `bytes` as potentially ill-formed UTF-16,
    /// the inverse of [`from_wide`].
    ///
    /// ```
    /// use utf8_core::wtf8;
    /// let units = [0x61, 0xDC00, 0xD83D, 0xDC96, 0xD800];
    /// assert_eq!(wtf8::to_wide(&wtf8::from_wide(&units))?, units);
    /// # Ok::<(), utf8_core::Utf8Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn to_wide(bytes: &[u8]) -> Result<alloc::vec::Vec<u16>, crate::error::Utf8Error> {
        Ok(encode_wide(bytes)?.collect())
    }
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
    /// The text of `bytes` as UTF-8, with each maximal invalid subpart (as
    /// [`chunks`] finds them, and as `utf8 fix --ruleset rfc2279` replaces
    /// them), each surrogate and each value above U+10FFFF replaced by
    /// U+FFFD; borrowed when `bytes` are UTF-8.
    ///
    /// ```
    /// use utf8_core::rfc2279;
    /// // A surrogate, a value above U+10FFFF, an overlong form.
    /// let bytes = b"\xED\xA0\x80 \xF8\x88\x80\x80\x80 \xC0\x80";
    /// assert_eq!(rfc2279::to_str_lossy(bytes), "\u{FFFD} \u{FFFD} \u{FFFD}\u{FFFD}");
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn to_str_lossy(bytes: &[u8]) -> alloc::borrow::Cow<'_, str> {
        use crate::convert::{Pairs, to_str_lossy};
        to_str_lossy::<Rfc2279>(bytes, Pairs::Apart)
    }
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
    /// The text of `bytes` as UTF-8, with each maximal invalid subpart (as
    /// [`chunks`] finds them, and as `utf8 fix --ruleset legacy31` replaces
    /// them), each surrogate and each value above U+10FFFF replaced by
    /// U+FFFD; borrowed when `bytes` are UTF-8.
    ///
    /// ```
    /// use utf8_core::legacy31;
    /// let bytes = b"a\xFD\xBF\xBF\xBF\xBF\xBFb\xED\xA0\x80";
    /// assert_eq!(legacy31::to_str_lossy(bytes), "a\u{FFFD}b\u{FFFD}\u{FFFD}\u{FFFD}");
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn to_str_lossy(bytes: &[u8]) -> alloc::borrow::Cow<'_, str> {
        use crate::convert::{Pairs, to_str_lossy};
        to_str_lossy::<Legacy31>(bytes, Pairs::Apart)
    }
}
