//! A ruleset's derived tables as associated constants, so that every
//! validation path is written once, generic over the ruleset, and each
//! instance sees its tables as constants.

use crate::derived::Tables;
use crate::error::{PackedError, Utf8Error};

/// The integer types that shift-DFA rows come in.
#[doc(hidden)]
pub trait ShiftRow: Copy + Eq {
    /// `self >> (state mod BITS)`: what one step of the shift DFA computes.
    fn step(self, state: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn bit(self, index: Self) -> bool;
}

macro_rules! shift_row {
    ($($t:ty),*) => {$(
        impl ShiftRow for $t {
            #[inline(always)]
            fn step(self, state: Self) -> Self {
                // A wrapping shift masks the amount to the type's width, which is
                // what lets the state carry leftover high bits between steps.
                self.wrapping_shr(state as u32)
            }
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline(always)]
            fn bit(self, index: Self) -> bool {
                self.wrapping_shr(index as u32) & 1 == 1
            }

        }
    )*};
}
shift_row!(u32, u64, u128);

/// What decoding a ruleset yields: `char` when the derivation proved that
/// every sequence decodes to a Unicode scalar value, `u32` otherwise (see
/// `utf8_spec::values`).
pub trait Value: Copy + core::fmt::Debug + Eq + Ord + core::hash::Hash + sealed::Sealed {
    #[doc(hidden)]
    fn from_code_point(value: u32) -> Self;
}

impl Value for char {
    #[inline]
    fn from_code_point(value: u32) -> char {
        // The derivation proved that this ruleset's values are scalar values,
        // so the replacement is never taken; it keeps this free of `unsafe`.
        char::from_u32(value).unwrap_or(char::REPLACEMENT_CHARACTER)
    }
}

impl Value for u32 {
    #[inline]
    fn from_code_point(value: u32) -> u32 {
        value
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for char {}
    impl Sealed for u32 {}
}

/// A language of byte strings whose validating automaton was derived at
/// compile time: RFC 3629 UTF-8 ([`Rfc3629`](crate::Rfc3629)), one of the
/// dialects in this crate, or one you define with [`ruleset!`](crate::ruleset!).
///
/// Everything generic in this crate ([`Validator`](crate::Validator),
/// [`Decode`](crate::Decode), [`Chunks`](crate::Chunks)) takes a ruleset as a
/// type parameter. The hidden items are the derived tables, one value of
/// them; they are only meant to be written by [`ruleset!`](crate::ruleset!).
pub trait Ruleset {
    /// The name the tables were derived under.
    const NAME: &'static str;
    /// What decoding yields: `char` or `u32`.
    type Value: Value;

    #[doc(hidden)]
    type Row: ShiftRow + 'static;
    /// Everything derived for this ruleset, as one value.
    #[doc(hidden)]
    const TABLES: Tables<Self::Row>;

    /// Checks that `bytes` is in the language, on the fastest path this CPU
    /// has for it. Errors mean what they mean for [`crate::from_utf8`].
    ///
    /// Written by [`ruleset!`](crate::ruleset!), as a call of the dispatch
    /// that [`crate::from_utf8`] makes: the trait knows the tables, not the
    /// paths over them, which are built on the trait.
    fn validate(bytes: &[u8]) -> Result<(), Utf8Error>
    where
        Self: Sized;
}

// Here rather than beside `PackedError`, so that the error types need not
// know what a ruleset is.
impl PackedError {
    /// The error under ruleset `R`, the one it was found under.
    #[inline]
    pub(crate) fn unpack_as<R: Ruleset>(self) -> Utf8Error {
        self.unpack(R::TABLES.automaton.label)
    }
}

/// Defines a ruleset type from a spec, derived at compile time: inline ABNF,
/// an ABNF file, a set of Unicode scalar ranges, or a built-in ruleset by
/// name. The type implements [`Ruleset`] and gets the same API as the
/// built-in ones: `validate`, `validate_const`, `decode`, `chunks` and
/// `validator` as associated functions.
///
/// ```
/// utf8_core::ruleset! {
///     /// ASCII without control characters other than tab and newline.
///     pub struct PrintableAscii {
///         abnf = "text = *( %x09 / %x0A / %x20-7E )\n", start = "text"
///     }
/// }
/// assert!(PrintableAscii::validate(b"key\tvalue\n").is_ok());
/// // A bell is not printable: one invalid byte at index 3.
/// let e = PrintableAscii::validate(b"key\x07").unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (3, Some(1)));
/// // Its errors are named by the type.
/// assert_eq!(e.to_string(), "invalid PrintableAscii sequence of 1 bytes from index 3");
/// // The derivation proves these values are scalar values: they decode to `char`.
/// let chars: Vec<char> = PrintableAscii::decode(b"a\t").map(Result::unwrap).collect();
/// assert_eq!(chars, ['a', '\t']);
/// ```
///
/// The spec between the braces is what `utf8_macros::dfa_tables!` takes:
/// `ruleset = "cesu8"`, `abnf = "...", start = "rule"`,
/// `abnf_file = "path/from/your/Cargo.toml/dir.abnf", start = "rule"` (the
/// file is tracked: editing it rebuilds), or `scalars = [...]`. A spec that
/// does not derive is a compile error pointing at it.
#[macro_export]
macro_rules! ruleset {
    ($(#[$attr:meta])* $vis:vis struct $name:ident { $($spec:tt)* }) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $name;
        const _: () = {
            mod tables {
                $crate::__private::dfa_tables!($($spec)*);
            }
            $crate::ruleset!(
                @impl $name,
                $crate::__private::RulesetLabel {
                    name: ::core::stringify!($name),
                    title: ::core::stringify!($name),
                },
                tables
            );
        };
        $crate::ruleset!(@inherent $vis $name);
    };
    (@impl $name:ident, $label:expr, $($tables:ident)::+) => {
        impl $crate::Ruleset for $name {
            const NAME: &'static str = $label.name;
            type Value = $($tables)::+::Value;
            type Row = $($tables)::+::ShiftRow;
            const TABLES: $crate::__private::Tables<Self::Row> = $crate::__private::Tables {
                automaton: $crate::ruleset!(@automaton $label, $($tables)::+),
                shift: $crate::__private::ShiftTables {
                    available: $($tables)::+::SHIFT_AVAILABLE,
                    rows: $($tables)::+::SHIFT_ROWS,
                    start: $($tables)::+::SHIFT_START,
                    dead: $($tables)::+::SHIFT_DEAD,
                    field_mask: $($tables)::+::SHIFT_FIELD_MASK,
                    accepting: $($tables)::+::SHIFT_ACCEPTING,
                },
                vector: $crate::ruleset!(@vector $($tables)::+),
                shortcut: $crate::__private::Utf8Shortcut {
                    available: $($tables)::+::UTF8_SHORTCUT,
                    forbidden_count: $($tables)::+::UTF8_FORBIDDEN_COUNT,
                    forbidden: $crate::__private::padded(&$($tables)::+::UTF8_FORBIDDEN, (0xFF, 0xFF)),
                    language: $crate::ruleset!(
                        @automaton $label, $($tables)::+::utf8_shortcut_language
                    ),
                    check: $crate::ruleset!(@vector $($tables)::+::utf8_shortcut_language),
                },
            };

            #[inline]
            fn validate(bytes: &[u8]) -> ::core::result::Result<(), $crate::Utf8Error> {
                $crate::__private::validate::<Self>(bytes)
            }
        }
    };
    (@automaton $label:expr, $($tables:ident)::+) => {
        $crate::__private::Automaton::new(
            &$($tables)::+::BYTE_CLASSES,
            &$($tables)::+::TRANSITIONS,
            $($tables)::+::CLASS_COUNT,
            $($tables)::+::START_STATE,
            $($tables)::+::DEAD_STATE,
            &$($tables)::+::ACCEPTING,
            &$label,
        )
    };
    (@vector $($tables:ident)::+) => {
        $crate::__private::VectorTables {
            available: $($tables)::+::SIMD_AVAILABLE,
            sets: $($tables)::+::SIMD_SETS,
            tables: $crate::__private::padded(&$($tables)::+::SIMD_TABLES, [[0; 16]; 4]),
            needs_cur_low: $($tables)::+::SIMD_NEEDS_CUR_LOW,
            max_sequence_len: $($tables)::+::SIMD_MAX_SEQUENCE_LEN,
            must_continue: $crate::__private::padded(&$($tables)::+::SIMD_MUST_CONTINUE, 0xFF),
            incomplete: $crate::__private::padded(&$($tables)::+::SIMD_INCOMPLETE, 0xFF),
            boundary: $($tables)::+::SIMD_BOUNDARY,
            ascii_skip: $($tables)::+::SIMD_ASCII_SKIP,
            max_lag: $($tables)::+::SIMD_MAX_LAG,
            is_continuation: $($tables)::+::IS_CONTINUATION,
            pairing: $crate::__private::Pairing::new(
                $($tables)::+::SIMD_PAIR_RULE,
                $($tables)::+::SIMD_PAIR_DISTANCE,
                $($tables)::+::SIMD_MARKER_SET,
                $($tables)::+::SIMD_LEAD_BIT,
            ),
        }
    };
    (@inherent $vis:vis $name:ident) => {
        #[allow(dead_code)]
        impl $name {
            /// Checks that `bytes` is in this ruleset's language, on the
            /// fastest path this CPU has for it. Errors mean what they mean
            /// for `core::str::from_utf8`: `valid_up_to` is the end of the
            /// last complete sequence, `error_len` the length of the invalid
            /// part (`None` when the input ends inside a sequence).
            #[inline]
            $vis fn validate(bytes: &[u8]) -> ::core::result::Result<(), $crate::Utf8Error> {
                <Self as $crate::Ruleset>::validate(bytes)
            }

            /// [`validate`](Self::validate) for `const` contexts, one byte at a time.
            $vis const fn validate_const(bytes: &[u8]) -> ::core::result::Result<(), $crate::Utf8Error> {
                <Self as $crate::Ruleset>::TABLES.automaton.validate_const(bytes)
            }

            /// The values encoded in `bytes`, with an error item for each
            /// invalid part.
            $vis fn decode(bytes: &[u8]) -> $crate::Decode<'_, Self> {
                $crate::Decode::new(bytes)
            }

            /// `bytes` as runs of valid sequences, each followed by the
            /// invalid or incomplete bytes that end it.
            $vis fn chunks(bytes: &[u8]) -> $crate::Chunks<'_, Self> {
                $crate::Chunks::new(bytes)
            }

            /// A streaming validator for input that arrives in pieces.
            $vis fn validator() -> $crate::Validator<Self> {
                $crate::Validator::for_ruleset()
            }
        }
    };
}
