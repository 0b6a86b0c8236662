//! The vectorised check's tables ([`SimdTables`]) as source text: the
//! nibble tables, the thresholds and the pairing term in Rust, C and JSON,
//! each with what the proof found, and the check they make written a byte
//! at a time (`vector_check`, `utf8_vec_check`), which vector code computes
//! 16, 32 or 64 bytes at a time. A ruleset whose check the derivation
//! declines gets the reason instead.

use std::fmt::Write as _;

use super::super::stage::json::string as json_string;
use super::vector_paths::{self, Names, OWN};
use super::vector_restart::{self, Shortcut};
use crate::Tables;
use crate::simd::{CONTINUATION_BIT, Declined, PairRule, SimdTables};

/// The vectorised check of a ruleset, or why there is none.
pub(super) type Vector = Result<SimdTables, Declined>;

pub(super) fn new(tables: &Tables) -> Vector {
    SimdTables::new(tables)
}

/// What the tables are, and how the proof went, as comment lines.
fn preamble(simd: &SimdTables) -> Vec<String> {
    let mut lines = vec![
        "The vectorised check's tables (Keiser and Lemire's lookup algorithm), derived from the"
            .to_owned(),
        "minimal DFA. A byte c after a byte p errs when".to_owned(),
        "  PREV_HIGH[p >> 4] & PREV_LOW[p & 15] & CUR_HIGH[c >> 4] & CUR_LOW[c & 15] & ERROR_MASK"
            .to_owned(),
        format!(
            "is not zero in some table set, the first set's bit 7 ({CONTINUATION_BIT:#04X}) first XORed with whether a byte"
        ),
        "k = 2, 3, ... positions back is at least MUST_CONTINUE[k - 2] (a lead byte that needs c)."
            .to_owned(),
        format!(
            "The input is framed by the boundary byte {:#04X}: as if boundary bytes came before it, and",
            simd.boundary()
        ),
        "checked with boundary bytes after it, which catches a sequence cut short; equally, the".to_owned(),
        "input ends inside a sequence when the byte k before its end is at least INCOMPLETE[k - 1].".to_owned(),
    ];
    if let Some(pairing) = simd.pairing() {
        let rule = match pairing.rule {
            PairRule::Required => "must stand exactly where a lead marker was",
            PairRule::Forbidden => "may not stand where a lead marker was",
        };
        lines.push(format!(
            "Pairing: two marker bits, a lead and a trail pair, are not errors; a trail marker {rule}"
        ));
        lines.push(format!("{} bytes before.", pairing.distance));
    }
    lines.push(format!(
        "Proved exact: a walk of the {} reachable states of the product of the check (a window of",
        simd.proof_states()
    ));
    lines.push(
        "the last bytes, bytes in classes) and the minimal DFA found that the check errs on a byte"
            .to_owned(),
    );
    lines.push(
        "exactly when the DFA dies on it, and at the closing boundary bytes exactly when the DFA"
            .to_owned(),
    );
    let lag = simd.max_lag();
    let bytes = if lag == 1 { "byte" } else { "bytes" };
    lines.push(format!(
        "does not accept. It reports an error at most {lag} {bytes} after the byte on which the DFA dies."
    ));
    lines
}

fn hex_bytes(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("0x{b:02X}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each set's four tables, by name.
fn tables_of(simd: &SimdTables) -> [(&'static str, Vec<[u8; 16]>); 4] {
    let sets = simd.sets();
    [
        ("PREV_HIGH", sets.iter().map(|s| s.prev_high).collect()),
        ("PREV_LOW", sets.iter().map(|s| s.prev_low).collect()),
        ("CUR_HIGH", sets.iter().map(|s| s.cur_high).collect()),
        ("CUR_LOW", sets.iter().map(|s| s.cur_low).collect()),
    ]
}

fn error_masks(simd: &SimdTables) -> Vec<u8> {
    (0..simd.sets().len()).map(|s| simd.error_mask(s)).collect()
}

/// How many boundary bytes come before and after the input in the check
/// written a byte at a time.
fn frame(simd: &SimdTables) -> (usize, usize) {
    (simd.closing_frame() + 1, simd.closing_frame())
}

pub(super) fn rust(vector: &Vector) -> String {
    let simd = match vector {
        Ok(simd) => simd,
        Err(declined) => return format!("\n// No vectorised check: {declined}.\n"),
    };
    let mut out = String::from("\n");
    for line in preamble(simd) {
        let _ = writeln!(out, "// {line}");
    }
    rust_constants(simd, "VECTOR", &mut out);
    rust_check(simd, &mut out);
    out
}

/// The tables as `const` items, each name `prefix` and `_` and what it is.
pub(super) fn rust_constants(simd: &SimdTables, prefix: &str, out: &mut String) {
    let sets = simd.sets().len();
    let _ = writeln!(out, "/// How many table sets the check has.");
    let _ = writeln!(out, "pub const {prefix}_SETS: usize = {sets};");
    for (name, tables) in tables_of(simd) {
        let _ = writeln!(out, "/// Each set's {name} table.");
        let _ = writeln!(
            out,
            "pub const {prefix}_{name}: [[u8; 16]; {prefix}_SETS] = ["
        );
        for table in tables {
            let _ = writeln!(out, "    [{}],", hex_bytes(&table));
        }
        let _ = writeln!(out, "];");
    }
    let _ = writeln!(
        out,
        "/// Each set's error bits: all but the pairing term's markers."
    );
    let _ = writeln!(
        out,
        "pub const {prefix}_ERROR_MASK: [u8; {prefix}_SETS] = [{}];",
        hex_bytes(&error_masks(simd))
    );
    let _ = writeln!(out, "/// The longest sequence, in bytes.");
    let _ = writeln!(
        out,
        "pub const {prefix}_MAX_SEQUENCE: usize = {};",
        simd.max_sequence_len()
    );
    let _ = writeln!(
        out,
        "/// A byte k positions back (k = 2, 3, ...) at least `{prefix}_MUST_CONTINUE[k - 2]` needs a continuation byte."
    );
    let _ = writeln!(
        out,
        "pub const {prefix}_MUST_CONTINUE: [u8; {}] = [{}];",
        simd.must_continue().len(),
        hex_bytes(simd.must_continue())
    );
    let _ = writeln!(
        out,
        "/// The input ends inside a sequence when the byte k before its end is at least `{prefix}_INCOMPLETE[k - 1]`."
    );
    let _ = writeln!(
        out,
        "pub const {prefix}_INCOMPLETE: [u8; {}] = [{}];",
        simd.incomplete().len(),
        hex_bytes(simd.incomplete())
    );
    let _ = writeln!(out, "/// The byte that frames the input.");
    let _ = writeln!(
        out,
        "pub const {prefix}_BOUNDARY: u8 = {:#04X};",
        simd.boundary()
    );
    let _ = writeln!(
        out,
        "/// The lowest byte from which every byte up to 0x7F looks like the boundary byte: a block\n\
         /// of them is skipped after testing the end of the block before it."
    );
    let _ = writeln!(
        out,
        "pub const {prefix}_ASCII_SKIP_FROM: Option<u8> = {};",
        simd.ascii_skip_from()
            .map_or_else(|| "None".to_owned(), |b| format!("Some({b:#04X})"))
    );
    let _ = writeln!(
        out,
        "/// The most bytes after the byte on which the DFA dies that an error is reported."
    );
    let _ = writeln!(
        out,
        "pub const {prefix}_MAX_LAG: usize = {};",
        simd.max_lag()
    );
}

/// The pairing term's constant, if any, and the check a byte at a time.
fn rust_check(simd: &SimdTables, out: &mut String) {
    let (before, after) = frame(simd);
    let pairing = match (simd.pairing(), simd.marker_bits()) {
        (Some(p), Some([(lead_set, lead_bit), (trail_set, trail_bit)])) => {
            let _ = writeln!(
                out,
                "/// The pairing term: `(distance, required, (lead set, lead bit), (trail set, trail bit))`."
            );
            let _ = writeln!(
                out,
                "pub const VECTOR_PAIRING: (usize, bool, (usize, u8), (usize, u8)) = ({}, {}, ({lead_set}, {lead_bit:#04X}), ({trail_set}, {trail_bit:#04X}));",
                p.distance,
                p.rule == PairRule::Required
            );
            "\n        \
             let (distance, required, (lead_set, lead_bit), (trail_set, trail_bit)) = VECTOR_PAIRING;\n        \
             let lead_before = bits(lead_set, at(i - distance - 1), at(i - distance)) & lead_bit != 0;\n        \
             let trail_here = bits(trail_set, prev, cur) & trail_bit != 0;\n        \
             if (required && lead_before != trail_here) || (!required && lead_before && trail_here) {\n            \
                 return false;\n        \
             }"
        }
        _ => "",
    };
    let _ = writeln!(
        out,
        "\n/// The check the tables make, a byte at a time: whether `bytes` is in the language.\n\
         pub fn vector_check(bytes: &[u8]) -> bool {{\n    \
             const BEFORE: usize = {before};\n    \
             const AFTER: usize = {after};\n    \
             let at = |j: usize| match j.checked_sub(BEFORE) {{\n        \
                 Some(k) if k < bytes.len() => bytes[k],\n        \
                 _ => VECTOR_BOUNDARY,\n    \
             }};\n    \
             let bits = |set: usize, p: u8, c: u8| {{\n        \
                 VECTOR_PREV_HIGH[set][usize::from(p >> 4)]\n            \
                     & VECTOR_PREV_LOW[set][usize::from(p & 15)]\n            \
                     & VECTOR_CUR_HIGH[set][usize::from(c >> 4)]\n            \
                     & VECTOR_CUR_LOW[set][usize::from(c & 15)]\n    \
             }};\n    \
             for i in BEFORE..BEFORE + bytes.len() + AFTER {{\n        \
                 let (prev, cur) = (at(i - 1), at(i));\n        \
                 let must = (2..VECTOR_MAX_SEQUENCE).any(|k| at(i - k) >= VECTOR_MUST_CONTINUE[k - 2]);\n        \
                 for set in 0..VECTOR_SETS {{\n            \
                     let mut error = bits(set, prev, cur) & VECTOR_ERROR_MASK[set];\n            \
                     if set == 0 && must {{\n                \
                         error ^= {CONTINUATION_BIT:#04X};\n            \
                     }}\n            \
                     if error != 0 {{\n                \
                         return false;\n            \
                     }}\n        \
                 }}{pairing}\n    \
             }}\n    \
             true\n\
         }}\n\n\
         /// Whether `bytes`, in the language up to its end, ends inside a sequence: the end of\n\
         /// the input tested in one comparison a position, as vector code tests a block's end.\n\
         pub fn vector_ends_inside(bytes: &[u8]) -> bool {{\n    \
             (1..=VECTOR_INCOMPLETE.len())\n        \
                 .any(|k| bytes.len() >= k && bytes[bytes.len() - k] >= VECTOR_INCOMPLETE[k - 1])\n\
         }}"
    );
}

/// The tables, the check a byte at a time and, where the shift DFA is
/// there to find an exact error (`with_validator`), the vector validator
/// `utf8_validate_simd`.
pub(super) fn c(vector: &Vector, with_validator: bool, shortcut: Option<&Shortcut>) -> String {
    let simd = match vector {
        Ok(simd) => simd,
        Err(declined) => {
            let reason = declined.to_string().replace("*/", "* /");
            let mut out = format!("\n/* No vectorised check: {reason}. */\n");
            if with_validator {
                out.push_str(
                    "\n/* The shift DFA alone: this ruleset has no vectorised check. */\n",
                );
                out.push_str(vector_restart::SCALAR);
            }
            return out;
        }
    };
    let mut out = String::from("\n/* ");
    out.push_str(&preamble(simd).join("\n   "));
    out.push_str(" */\n");
    c_constants(simd, OWN, true, &mut out);
    c_check(simd, &mut out);
    if with_validator {
        out.push_str(&vector_paths::c(simd, shortcut));
    }
    out
}

/// The tables as an `enum` of constants and `static const` arrays, named
/// by `names`. Without `byte_check` (the check a byte at a time, the one
/// reader of the error masks and the thresholds: the vector code has the
/// masks and the must-continue thresholds written into it, and finds the
/// end of the input by a block of boundary bytes), those are comments, as
/// C warns of a table nothing reads.
pub(super) fn c_constants(simd: &SimdTables, names: Names, byte_check: bool, out: &mut String) {
    let Names { lower, upper } = names;
    let sets = simd.sets().len();
    let (before, after) = frame(simd);
    let _ = writeln!(
        out,
        "enum {{ UTF8_{upper}_SETS = {sets}, UTF8_{upper}_MAX_SEQUENCE = {}, UTF8_{upper}_BOUNDARY = {:#04X},\n       \
         UTF8_{upper}_MAX_LAG = {}, UTF8_{upper}_ASCII_SKIP_FROM = {}, UTF8_{upper}_BEFORE = {before}, UTF8_{upper}_AFTER = {after} }};",
        simd.max_sequence_len(),
        simd.boundary(),
        simd.max_lag(),
        simd.ascii_skip_from()
            .map_or_else(|| "-1 /* none */".to_owned(), |b| format!("{b:#04X}"))
    );
    for (name, tables) in tables_of(simd) {
        let _ = writeln!(
            out,
            "static const uint8_t utf8_{lower}_{}[UTF8_{upper}_SETS][16] = {{",
            name.to_lowercase()
        );
        for table in tables {
            let _ = writeln!(out, "    {{{}}},", hex_bytes(&table));
        }
        let _ = writeln!(out, "}};");
    }
    let masks = hex_bytes(&error_masks(simd));
    if byte_check {
        let _ = writeln!(
            out,
            "/* Each set's error bits: all but the pairing term's markers. */\n\
             static const uint8_t utf8_{lower}_error_mask[UTF8_{upper}_SETS] = {{{masks}}};"
        );
    } else {
        let _ = writeln!(
            out,
            "/* Each set's error bits, written into utf8_{lower}_block: {masks}. */"
        );
    }
    // C has no empty arrays: a ruleset of one-byte sequences has neither
    // thresholds.
    for (name, values, what) in [
        (
            "must_continue",
            simd.must_continue(),
            "a byte k = 2, 3, ... back at least must_continue[k - 2] needs a continuation byte",
        ),
        (
            "incomplete",
            simd.incomplete(),
            "the input ends inside a sequence when the byte k before its end is at least incomplete[k - 1]",
        ),
    ] {
        if values.is_empty() {
            continue;
        }
        if !byte_check {
            let _ = writeln!(out, "/* {what}: {}. */", hex_bytes(values));
        } else {
            let _ = writeln!(
                out,
                "/* {what} */\nstatic const uint8_t utf8_{lower}_{name}[{}] = {{{}}};",
                values.len(),
                hex_bytes(values)
            );
        }
    }
}

/// The check a byte at a time, and the end test.
fn c_check(simd: &SimdTables, out: &mut String) {
    let must = if simd.must_continue().is_empty() {
        String::new()
    } else {
        "\n        \
         for (size_t k = 2; k < UTF8_VEC_MAX_SEQUENCE; k++) {\n            \
             if (utf8_vec_at(p, n, i - k) >= utf8_vec_must_continue[k - 2]) must = 0x80;\n        \
         }"
        .to_owned()
    };
    let pairing = match (simd.pairing(), simd.marker_bits()) {
        (Some(pair), Some([(lead_set, lead_bit), (trail_set, trail_bit)])) => {
            let distance = pair.distance;
            let test = match pair.rule {
                PairRule::Required => "lead_before != trail_here",
                PairRule::Forbidden => "lead_before && trail_here",
            };
            format!(
                "\n        {{\n            \
                 bool lead_before = utf8_vec_bits({lead_set}, utf8_vec_at(p, n, i - {}), utf8_vec_at(p, n, i - {distance})) & {lead_bit:#04X};\n            \
                 bool trail_here = utf8_vec_bits({trail_set}, prev, cur) & {trail_bit:#04X};\n            \
                 if ({test}) return false;\n        \
                 }}",
                distance + 1
            )
        }
        _ => String::new(),
    };
    let _ = writeln!(
        out,
        "\nstatic inline uint8_t utf8_vec_bits(int set, uint8_t p, uint8_t c) {{\n    \
             return utf8_vec_prev_high[set][p >> 4] & utf8_vec_prev_low[set][p & 15] &\n           \
                    utf8_vec_cur_high[set][c >> 4] & utf8_vec_cur_low[set][c & 15];\n\
         }}\n\n\
         /* Byte j of the input framed by UTF8_VEC_BEFORE boundary bytes before it and\n   \
            UTF8_VEC_AFTER after it. */\n\
         static inline uint8_t utf8_vec_at(const uint8_t *p, size_t n, size_t j) {{\n    \
             return j >= UTF8_VEC_BEFORE && j - UTF8_VEC_BEFORE < n ? p[j - UTF8_VEC_BEFORE] : UTF8_VEC_BOUNDARY;\n\
         }}\n\n\
         /* The check the tables make, a byte at a time: whether the n bytes at p are in the\n   \
            language. Vector code computes the same 16, 32 or 64 bytes at a time. */\n\
         static inline bool utf8_vec_check(const uint8_t *p, size_t n) {{\n    \
             for (size_t i = UTF8_VEC_BEFORE; i < UTF8_VEC_BEFORE + n + UTF8_VEC_AFTER; i++) {{\n        \
                 uint8_t prev = utf8_vec_at(p, n, i - 1), cur = utf8_vec_at(p, n, i);\n        \
                 uint8_t must = 0;{must}\n        \
                 for (int set = 0; set < UTF8_VEC_SETS; set++) {{\n            \
                     uint8_t error = utf8_vec_bits(set, prev, cur) & utf8_vec_error_mask[set];\n            \
                     if (set == 0) error ^= must;\n            \
                     if (error) return false;\n        \
                 }}{pairing}\n    \
             }}\n    \
             return true;\n\
         }}"
    );
    if !simd.incomplete().is_empty() {
        let _ = writeln!(
            out,
            "\n/* Whether the n bytes at p, in the language up to their end, end inside a sequence:\n   \
                the end of the input tested in one comparison a position, as vector code tests\n   \
                a block's end. */\n\
             static inline bool utf8_vec_ends_inside(const uint8_t *p, size_t n) {{\n    \
                 for (size_t k = 1; k <= sizeof utf8_vec_incomplete; k++) {{\n        \
                     if (n >= k && p[n - k] >= utf8_vec_incomplete[k - 1]) return true;\n    \
                 }}\n    \
                 return false;\n\
             }}"
        );
    }
}

/// The `vector` key's value.
pub(super) fn json(vector: &Vector) -> String {
    match vector {
        Ok(simd) => json_tables(simd),
        Err(declined) => format!(
            "  \"vector\": {{ \"declined\": {} }}",
            json_string(&declined.to_string())
        ),
    }
}

/// The `vector` key of a proved check.
pub(super) fn json_tables(simd: &SimdTables) -> String {
    let numbers = |bytes: &[u8]| {
        bytes
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::from("  \"vector\": {\n");
    let sets: Vec<String> = simd
        .sets()
        .iter()
        .map(|set| {
            format!(
                "      {{ \"prev_high\": [{}],\n        \"prev_low\": [{}],\n        \"cur_high\": [{}],\n        \"cur_low\": [{}] }}",
                numbers(&set.prev_high),
                numbers(&set.prev_low),
                numbers(&set.cur_high),
                numbers(&set.cur_low)
            )
        })
        .collect();
    let _ = writeln!(out, "    \"sets\": [\n{}\n    ],", sets.join(",\n"));
    let _ = writeln!(
        out,
        "    \"error_mask\": [{}],",
        numbers(&error_masks(simd))
    );
    let _ = writeln!(
        out,
        "    \"continuation_bit\": {CONTINUATION_BIT},\n    \"max_sequence_len\": {},",
        simd.max_sequence_len()
    );
    let _ = writeln!(
        out,
        "    \"must_continue\": [{}],",
        numbers(simd.must_continue())
    );
    let _ = writeln!(out, "    \"incomplete\": [{}],", numbers(simd.incomplete()));
    let _ = writeln!(out, "    \"boundary\": {},", simd.boundary());
    let _ = writeln!(
        out,
        "    \"ascii_skip_from\": {},",
        simd.ascii_skip_from()
            .map_or_else(|| "null".to_owned(), |b| b.to_string())
    );
    let _ = writeln!(out, "    \"max_lag\": {},", simd.max_lag());
    let _ = writeln!(out, "    \"proof_states\": {},", simd.proof_states());
    let pairing = match (simd.pairing(), simd.marker_bits()) {
        (Some(p), Some([(lead_set, lead_bit), (trail_set, trail_bit)])) => format!(
            "{{ \"distance\": {}, \"rule\": \"{}\", \"lead\": {{ \"set\": {lead_set}, \"bit\": {lead_bit} }}, \"trail\": {{ \"set\": {trail_set}, \"bit\": {trail_bit} }} }}",
            p.distance,
            match p.rule {
                PairRule::Required => "required",
                PairRule::Forbidden => "forbidden",
            }
        ),
        _ => "null".to_owned(),
    };
    let _ = write!(out, "    \"pairing\": {pairing}\n  }}");
    out
}
