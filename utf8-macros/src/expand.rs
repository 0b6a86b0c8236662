//! The derived tables as `const` items.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use utf8_spec::shift::{RowWidth, ShiftDfa};
use utf8_spec::simd::{PairRule, SimdTables};
use utf8_spec::utf8_shortcut::{MAX_FORBIDDEN_RANGES, Utf8Shortcut};
use utf8_spec::{Derivation, Tables};

/// The longest sequence the vector code checks: it looks at most one byte
/// fewer than this back (`alignr` immediates 1..=5).
const SIMD_MAX_SEQUENCE_LEN: usize = 6;

pub(crate) fn tables(derivation: &Derivation, label: &str) -> TokenStream {
    let tables = derivation.tables();
    let start_rule = derivation.start_rule();
    let automaton = automaton_items(tables, label);
    let shift = shift_items(tables);
    let simd = simd_items(tables);
    let shortcut = shortcut_items(tables, label);
    let value_type = match utf8_spec::values::value_kind(tables) {
        utf8_spec::values::ValueKind::Scalars => quote!(char),
        utf8_spec::values::ValueKind::CodePoints => quote!(u32),
    };
    quote! {
        #automaton
        #[doc = "The ABNF rule the tables were derived from."]
        pub const START_RULE: &str = #start_rule;
        #[doc = "What decoding yields: `char` when every sequence decodes to a Unicode scalar value, `u32` when some may be a surrogate or above U+10FFFF (see `utf8_spec::values`)."]
        pub type Value = #value_type;
        #shift
        #simd
        #shortcut
    }
}

/// The class-table automaton: states, classes and the transition grid.
fn automaton_items(tables: &Tables, label: &str) -> TokenStream {
    let state_count = tables.state_count();
    let class_count = tables.class_count();
    let start = tables.start();
    let dead = tables.dead();
    let accepting = tables.accepting();
    let byte_classes = tables.byte_classes().iter();
    let transitions = tables.transitions().iter();
    let class_docs: Vec<String> = tables
        .classes()
        .ids()
        .map(|class| {
            let ranges: Vec<String> = tables
                .classes()
                .ranges(class)
                .iter()
                .map(ToString::to_string)
                .collect();
            format!("- class {class}: `{}`", ranges.join(" / "))
        })
        .collect();
    let class_doc = format!(
        "Byte → class, derived from {label}: the coarsest partition under which every state treats the bytes of a class alike.\n\n{}",
        class_docs.join("\n")
    );
    let transitions_doc = format!(
        "State × class → state, derived from {label}: the state after reading a byte of class `c` in state `s` is `TRANSITIONS[s * CLASS_COUNT + c]`.\n\n```text\n{}```",
        grid(tables)
    );
    let accepting_doc = format!(
        "Whether each state accepts (the input read so far is in the language); accepting states: {:?}.",
        tables.accepting_states()
    );
    quote! {
        #[doc = "Number of states of the minimal automaton, the dead state included."]
        pub const STATE_COUNT: usize = #state_count;
        #[doc = "Number of byte classes."]
        pub const CLASS_COUNT: usize = #class_count;
        #[doc = "The start state."]
        pub const START_STATE: u8 = #start;
        #[doc = "The dead state: every byte leads back to it and it does not accept."]
        pub const DEAD_STATE: u8 = #dead;
        #[doc = #accepting_doc]
        pub const ACCEPTING: [bool; #state_count] = [#(#accepting),*];
        #[doc = #class_doc]
        pub const BYTE_CLASSES: [u8; 256] = [#(#byte_classes),*];
        #[doc = #transitions_doc]
        pub const TRANSITIONS: [u8; #state_count * #class_count] = [#(#transitions),*];
    }
}

/// Whether valid UTF-8 without a few bytes is valid here too, and which
/// bytes (see `utf8_spec::utf8_shortcut`): up to two ranges, the unused ones
/// repeating the first (or `FF..=FF` ranges marked unused by the count).
///
/// With them, the module `utf8_shortcut_language`: the automaton and vector
/// check of valid UTF-8 without the forbidden bytes (see
/// `Utf8Shortcut::language`), which finds where the shortcut stops in one
/// pass. Without a shortcut it holds UTF-8's automaton and no check.
fn shortcut_items(tables: &Tables, label: &str) -> TokenStream {
    let utf8 = utf8_spec::rulesets::builtin("rfc3629")
        .expect("RFC 3629 is built in")
        .derive()
        .expect("RFC 3629 derives");
    let shortcut = Utf8Shortcut::find(tables, utf8.tables());
    let available = shortcut.is_some();
    let ranges = shortcut.as_ref().map_or(&[][..], Utf8Shortcut::forbidden);
    let count = ranges.len();
    let mut bounds = [(0xFFu8, 0xFFu8); MAX_FORBIDDEN_RANGES];
    for (bound, range) in bounds.iter_mut().zip(ranges) {
        *bound = (range.start(), range.end());
    }
    let los = bounds.iter().map(|b| b.0);
    let his = bounds.iter().map(|b| b.1);
    let listed: Vec<String> = ranges.iter().map(ToString::to_string).collect();
    let doc = if available {
        format!(
            "Valid UTF-8 holding no byte of {} is valid under this ruleset, and a validator may start afresh after it: found on the product automaton with RFC 3629's.",
            if listed.is_empty() {
                "nothing".to_string()
            } else {
                listed.join(", ")
            }
        )
    } else {
        "No UTF-8 shortcut: this ruleset differs from UTF-8 in more places than a scan of two byte ranges can rule out.".to_string()
    };
    let language_label = format!("the UTF-8 shortcut's language of {label}");
    let (language_automaton, language_check) = match &shortcut {
        Some(shortcut) => {
            let language = shortcut.language(utf8.tables());
            (
                automaton_items(&language, &language_label),
                simd_items(&language),
            )
        }
        None => (
            automaton_items(utf8.tables(), &language_label),
            vector_check_items(Err("this ruleset has no UTF-8 shortcut".to_string())),
        ),
    };
    quote! {
        #[doc = "Valid UTF-8 without the bytes of `UTF8_FORBIDDEN`: the language the UTF-8 shortcut settles, with the vector check that finds where it stops."]
        pub mod utf8_shortcut_language {
            #language_automaton
            #language_check
        }
        #[doc = #doc]
        pub const UTF8_SHORTCUT: bool = #available;
        #[doc = "How many of `UTF8_FORBIDDEN` are in use."]
        pub const UTF8_FORBIDDEN_COUNT: usize = #count;
        #[doc = "The forbidden byte ranges, `(first, last)`, inclusive."]
        pub const UTF8_FORBIDDEN: [(u8, u8); #MAX_FORBIDDEN_RANGES] = [#((#los, #his)),*];
    }
}

/// The shift DFA's rows, or an unavailable marker with zero rows.
fn shift_items(tables: &Tables) -> TokenStream {
    let shift = ShiftDfa::new(tables);
    let available = shift.is_some();
    let width = shift.as_ref().map_or(RowWidth::U128, ShiftDfa::width);
    let row_type = match width {
        RowWidth::U32 => quote!(u32),
        RowWidth::U64 => quote!(u64),
        RowWidth::U128 => quote!(u128),
    };
    let literal = |value: u128| match width {
        RowWidth::U32 => Literal::u32_suffixed(value as u32),
        RowWidth::U64 => Literal::u64_suffixed(value as u64),
        RowWidth::U128 => Literal::u128_suffixed(value),
    };
    let rows: Vec<Literal> = match &shift {
        Some(s) => s.rows().iter().map(|&r| literal(r)).collect(),
        None => vec![literal(0); 256],
    };
    let offset = |state: u8| shift.as_ref().map_or(0, |s| u128::from(s.offset(state)));
    let start = literal(offset(tables.start()));
    let dead = literal(offset(tables.dead()));
    let accepting_mask = literal(
        tables
            .accepting_states()
            .iter()
            .fold(0u128, |m, &s| m | 1 << offset(s)),
    );
    let field_mask = literal((1u128 << width.field_bits()) - 1);
    let rows_doc = match &shift {
        Some(s) => format!(
            "Shift DFA rows: `state = SHIFT_ROWS[byte] >> state` (a wrapping shift, which reads only the low {} bits of `state`). State `s` of `TRANSITIONS` is offset `{} * s`.\n\n```text\n{s:?}```",
            width.field_bits(),
            width.field_bits()
        ),
        None => format!(
            "No shift DFA: {} states do not fit a `u128` row ({} at most); the rows are zero.",
            tables.state_count(),
            RowWidth::U128.capacity()
        ),
    };
    quote! {
        #[doc = "The integer type of the shift DFA's rows."]
        pub type ShiftRow = #row_type;
        #[doc = "Whether the states fit a shift DFA; when false, `SHIFT_ROWS` is zero."]
        pub const SHIFT_AVAILABLE: bool = #available;
        #[doc = #rows_doc]
        pub const SHIFT_ROWS: [ShiftRow; 256] = [#(#rows),*];
        #[doc = "The start state as a shift-DFA offset."]
        pub const SHIFT_START: ShiftRow = #start;
        #[doc = "The dead state as a shift-DFA offset."]
        pub const SHIFT_DEAD: ShiftRow = #dead;
        #[doc = "The bits of a shift-DFA state that name it (the rest is left over from the row)."]
        pub const SHIFT_FIELD_MASK: ShiftRow = #field_mask;
        #[doc = "Bit `o` is set when the state at offset `o` accepts."]
        pub const SHIFT_ACCEPTING: ShiftRow = #accepting_mask;
    }
}

/// The vectorised check's tables, or an unavailable marker and the reason.
fn simd_items(tables: &Tables) -> TokenStream {
    let derived = SimdTables::new(tables)
        .map_err(|e| e.to_string())
        .and_then(|s| {
            let look_back = SIMD_MAX_SEQUENCE_LEN - 1;
            if s.max_sequence_len() > SIMD_MAX_SEQUENCE_LEN {
                Err(format!(
                    "sequences of {} bytes: the vector code looks at most {look_back} bytes back",
                    s.max_sequence_len(),
                ))
            } else if let Some(p) = s.pairing().filter(|p| p.distance > look_back) {
                Err(format!(
                    "a pairing term {} bytes apart: the vector code looks at most {look_back} bytes back",
                    p.distance,
                ))
            } else {
                Ok(s)
            }
        });
    vector_check_items(derived)
}

/// The vector check's items: its tables, or an unavailable marker, zero
/// tables and the reason.
fn vector_check_items(derived: Result<SimdTables, String>) -> TokenStream {
    let mut is_continuation = [false; 256];
    let (available, declined) = match &derived {
        Ok(s) => {
            for &b in s.continuation() {
                is_continuation[b as usize] = true;
            }
            (true, String::new())
        }
        Err(reason) => (false, reason.clone()),
    };
    let simd = derived.ok();
    let sets = simd.as_ref().map_or(0, |s| s.sets().len());
    let table = |set: usize, which: usize| -> [u8; 16] {
        simd.as_ref()
            .and_then(|s| s.sets().get(set))
            .map_or([0; 16], |t| match which {
                0 => t.prev_high,
                1 => t.prev_low,
                2 => t.cur_high,
                _ => t.cur_low,
            })
    };
    let set_tokens: Vec<TokenStream> = (0..2)
        .map(|set| {
            let parts: Vec<TokenStream> = (0..4)
                .map(|which| {
                    let entries = table(set, which);
                    quote!([#(#entries),*])
                })
                .collect();
            quote!([#(#parts),*])
        })
        .collect();
    let needs_cur_low = simd.as_ref().is_some_and(SimdTables::needs_cur_low);
    let max_len = simd.as_ref().map_or(0, |s| s.max_sequence_len());
    let mut must_continue = [0xFFu8; 4];
    let mut incomplete = [0xFFu8; 5];
    if let Some(s) = &simd {
        must_continue[..s.must_continue().len()].copy_from_slice(s.must_continue());
        incomplete[..s.incomplete().len()].copy_from_slice(s.incomplete());
    }
    let boundary = simd.as_ref().map_or(0, |s| s.boundary());
    // The vector code tests a block for `boundary..=7F` with one signed
    // comparison, so the skip needs the range to start at the boundary byte.
    let ascii_skip = simd
        .as_ref()
        .is_some_and(|s| s.ascii_skip_from() == Some(s.boundary()));
    let max_lag = simd.as_ref().map_or(0, |s| s.max_lag());
    // The vector code moves a lead bit onto the trail bit with one
    // addition; utf8-spec places the two side by side in one set for that.
    let (pair_rule, pair_distance, marker_set, lead_bit) =
        match simd.as_ref().and_then(|s| s.pairing().zip(s.marker_bits())) {
            Some((p, [(lead_set, lead), (trail_set, trail)])) => {
                assert!(
                    lead_set == trail_set && trail == lead << 1,
                    "utf8-spec places the trail marker's bit right above the lead's"
                );
                let rule = match p.rule {
                    PairRule::Required => 1u8,
                    PairRule::Forbidden => 2u8,
                };
                (rule, p.distance, lead_set, lead)
            }
            None => (0, 0, 0, 0),
        };
    let tables_doc = match &simd {
        Some(s) => format!(
            "The vectorised check's nibble tables, `[set][prev high, prev low, cur high, cur low]`, derived from the minimal DFA and proved exact.\n\n```text\n{s:?}```"
        ),
        None => format!("No vectorised check: {declined}. The tables are zero."),
    };
    quote! {
        #[doc = "Whether the vectorised check applies; when false, `SIMD_DECLINED` says why and the tables are zero."]
        pub const SIMD_AVAILABLE: bool = #available;
        #[doc = "Why the vectorised check was declined (empty when it applies)."]
        pub const SIMD_DECLINED: &str = #declined;
        #[doc = "How many table sets are used (1 or 2; 0 when declined)."]
        pub const SIMD_SETS: usize = #sets;
        #[doc = #tables_doc]
        pub const SIMD_TABLES: [[[u8; 16]; 4]; 2] = [#(#set_tokens),*];
        #[doc = "Whether the later byte's low-nibble lookup is needed (otherwise that table is all ones)."]
        pub const SIMD_NEEDS_CUR_LOW: bool = #needs_cur_low;
        #[doc = "The longest sequence in bytes; the check looks this many bytes minus one back."]
        pub const SIMD_MAX_SEQUENCE_LEN: usize = #max_len;
        #[doc = "`SIMD_MUST_CONTINUE[k - 2]`: a byte `k` back at least this needs a continuation byte (k up to `SIMD_MAX_SEQUENCE_LEN - 1`)."]
        pub const SIMD_MUST_CONTINUE: [u8; 4] = [#(#must_continue),*];
        #[doc = "`SIMD_INCOMPLETE[k - 1]`: the input ends inside a sequence when a byte `k` before the end is at least this (k up to `SIMD_MAX_SEQUENCE_LEN - 1`)."]
        pub const SIMD_INCOMPLETE: [u8; 5] = [#(#incomplete),*];
        #[doc = "The byte that frames the input for the check."]
        pub const SIMD_BOUNDARY: u8 = #boundary;
        #[doc = "Whether blocks of the bytes from `SIMD_BOUNDARY` to `%x7F` (`%x00-7F` for UTF-8, `%x01-7F` for modified UTF-8) can be skipped after checking the end of the block before."]
        pub const SIMD_ASCII_SKIP: bool = #ascii_skip;
        #[doc = "The most bytes the check reports an error after the byte where the DFA dies."]
        pub const SIMD_MAX_LAG: usize = #max_lag;
        #[doc = "Whether each byte is a continuation byte (never starts a sequence, continues some)."]
        pub const IS_CONTINUATION: [bool; 256] = [#(#is_continuation),*];
        #[doc = "The check's pairing term (CESU-8, WTF-8): 0 for none; 1 when a trail marker must stand exactly `SIMD_PAIR_DISTANCE` bytes after each lead marker; 2 when it must not."]
        pub const SIMD_PAIR_RULE: u8 = #pair_rule;
        #[doc = "How many bytes after a lead marker the trail marker is tested (0 without a pairing term)."]
        pub const SIMD_PAIR_DISTANCE: usize = #pair_distance;
        #[doc = "The table set that holds both markers."]
        pub const SIMD_MARKER_SET: usize = #marker_set;
        #[doc = "The lead marker's bit in that set; the trail marker's is the next one up. Neither is an error bit."]
        pub const SIMD_LEAD_BIT: u8 = #lead_bit;
    }
}

/// The transition grid as text, for the docs of `TRANSITIONS`.
fn grid(tables: &Tables) -> String {
    let mut out = String::from("state |");
    for class in 0..tables.class_count() {
        out.push_str(&format!(" {class:>3}"));
    }
    out.push('\n');
    for state in 0..tables.state_count() {
        let mark = if tables.accepting()[state] { '*' } else { ' ' };
        out.push_str(&format!("{state:>4}{mark} |"));
        for class in 0..tables.class_count() {
            out.push_str(&format!(
                " {:>3}",
                tables.transitions()[state * tables.class_count() + class]
            ));
        }
        out.push('\n');
    }
    out
}
