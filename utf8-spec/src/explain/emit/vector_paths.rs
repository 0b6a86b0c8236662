//! The vectorised check as C vector code: the emitted tables put to work
//! 16 or 32 bytes at a time (SSE4.1, AVX2, or NEON on AArch64, chosen at
//! compile time from the target's macros), with the exact error found by
//! the shift DFA, restarted at the restart point before the block where
//! the check erred. The code reads only inside the caller's buffer: the last bytes
//! are copied into a block framed by boundary bytes, as the Rust tail does.
//!
//! The ISA layer is a dozen one-line functions over one vector type, the
//! same names for each instruction set; the check over them is written
//! once, with this ruleset's thresholds, table sets and pairing term
//! unrolled into it by the emitter, since a shift by a byte count must be
//! an immediate.

use std::fmt::Write as _;

use super::vector_restart::{self, Shortcut};
use crate::simd::{CONTINUATION_BIT, PairRule, SimdTables};

/// The instruction sets' layers, each defining `UTF8_V_WIDTH` and the
/// `utf8_v_*` operations, chosen by the target's macros.
const ISA_LAYERS: &str = r#"
/* The vector validator's instruction sets: AVX2, SSE4.1 or NEON (AArch64),
   whichever the target has, best first; none where UTF8_NO_VECTOR is
   defined. Each gives the same operations on one vector type. */
#if !defined(UTF8_NO_VECTOR) && defined(__AVX2__)
#include <immintrin.h>
#define UTF8_V_WIDTH 32
typedef __m256i utf8_v;
static inline utf8_v utf8_v_load(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
static inline utf8_v utf8_v_splat(uint8_t b) { return _mm256_set1_epi8((char)b); }
static inline utf8_v utf8_v_table(const uint8_t *t) { return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t)); }
/* The bytes k places before each byte of cur, prev's last bytes first. */
#define UTF8_V_PREV(prev, cur, k) _mm256_alignr_epi8((cur), _mm256_permute2x128_si256((prev), (cur), 0x21), 16 - (k))
static inline utf8_v utf8_v_lookup(utf8_v t, utf8_v i) { return _mm256_shuffle_epi8(t, i); }
static inline utf8_v utf8_v_high(utf8_v x) { return _mm256_and_si256(_mm256_srli_epi16(x, 4), _mm256_set1_epi8(0x0F)); }
static inline utf8_v utf8_v_low(utf8_v x) { return _mm256_and_si256(x, _mm256_set1_epi8(0x0F)); }
static inline utf8_v utf8_v_and(utf8_v a, utf8_v b) { return _mm256_and_si256(a, b); }
static inline utf8_v utf8_v_or(utf8_v a, utf8_v b) { return _mm256_or_si256(a, b); }
static inline utf8_v utf8_v_xor(utf8_v a, utf8_v b) { return _mm256_xor_si256(a, b); }
static inline utf8_v utf8_v_eq(utf8_v a, utf8_v b) { return _mm256_cmpeq_epi8(a, b); }
static inline utf8_v utf8_v_max(utf8_v a, utf8_v b) { return _mm256_max_epu8(a, b); }
static inline utf8_v utf8_v_subs(utf8_v a, utf8_v b) { return _mm256_subs_epu8(a, b); }
static inline bool utf8_v_any(utf8_v x) { return !_mm256_testz_si256(x, x); }
/* Whether a byte lies outside t..=0x7F: below t when read as signed. */
static inline bool utf8_v_any_below(utf8_v x, uint8_t t) {
    return t == 0 ? _mm256_movemask_epi8(x) != 0 : utf8_v_any(_mm256_cmpgt_epi8(_mm256_set1_epi8((char)t), x));
}
#elif !defined(UTF8_NO_VECTOR) && defined(__SSE4_1__)
#include <smmintrin.h>
#define UTF8_V_WIDTH 16
typedef __m128i utf8_v;
static inline utf8_v utf8_v_load(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
static inline utf8_v utf8_v_splat(uint8_t b) { return _mm_set1_epi8((char)b); }
static inline utf8_v utf8_v_table(const uint8_t *t) { return utf8_v_load(t); }
#define UTF8_V_PREV(prev, cur, k) _mm_alignr_epi8((cur), (prev), 16 - (k))
static inline utf8_v utf8_v_lookup(utf8_v t, utf8_v i) { return _mm_shuffle_epi8(t, i); }
static inline utf8_v utf8_v_high(utf8_v x) { return _mm_and_si128(_mm_srli_epi16(x, 4), _mm_set1_epi8(0x0F)); }
static inline utf8_v utf8_v_low(utf8_v x) { return _mm_and_si128(x, _mm_set1_epi8(0x0F)); }
static inline utf8_v utf8_v_and(utf8_v a, utf8_v b) { return _mm_and_si128(a, b); }
static inline utf8_v utf8_v_or(utf8_v a, utf8_v b) { return _mm_or_si128(a, b); }
static inline utf8_v utf8_v_xor(utf8_v a, utf8_v b) { return _mm_xor_si128(a, b); }
static inline utf8_v utf8_v_eq(utf8_v a, utf8_v b) { return _mm_cmpeq_epi8(a, b); }
static inline utf8_v utf8_v_max(utf8_v a, utf8_v b) { return _mm_max_epu8(a, b); }
static inline utf8_v utf8_v_subs(utf8_v a, utf8_v b) { return _mm_subs_epu8(a, b); }
static inline bool utf8_v_any(utf8_v x) { return !_mm_testz_si128(x, x); }
static inline bool utf8_v_any_below(utf8_v x, uint8_t t) {
    return t == 0 ? _mm_movemask_epi8(x) != 0 : utf8_v_any(_mm_cmpgt_epi8(_mm_set1_epi8((char)t), x));
}
#elif !defined(UTF8_NO_VECTOR) && defined(__ARM_NEON) && defined(__aarch64__)
#include <arm_neon.h>
#define UTF8_V_WIDTH 16
typedef uint8x16_t utf8_v;
static inline utf8_v utf8_v_load(const uint8_t *p) { return vld1q_u8(p); }
static inline utf8_v utf8_v_splat(uint8_t b) { return vdupq_n_u8(b); }
static inline utf8_v utf8_v_table(const uint8_t *t) { return vld1q_u8(t); }
#define UTF8_V_PREV(prev, cur, k) vextq_u8((prev), (cur), 16 - (k))
static inline utf8_v utf8_v_lookup(utf8_v t, utf8_v i) { return vqtbl1q_u8(t, i); }
static inline utf8_v utf8_v_high(utf8_v x) { return vshrq_n_u8(x, 4); }
static inline utf8_v utf8_v_low(utf8_v x) { return vandq_u8(x, vdupq_n_u8(0x0F)); }
static inline utf8_v utf8_v_and(utf8_v a, utf8_v b) { return vandq_u8(a, b); }
static inline utf8_v utf8_v_or(utf8_v a, utf8_v b) { return vorrq_u8(a, b); }
static inline utf8_v utf8_v_xor(utf8_v a, utf8_v b) { return veorq_u8(a, b); }
static inline utf8_v utf8_v_eq(utf8_v a, utf8_v b) { return vceqq_u8(a, b); }
static inline utf8_v utf8_v_max(utf8_v a, utf8_v b) { return vmaxq_u8(a, b); }
static inline utf8_v utf8_v_subs(utf8_v a, utf8_v b) { return vqsubq_u8(a, b); }
static inline bool utf8_v_any(utf8_v x) { return vmaxvq_u8(x) != 0; }
static inline bool utf8_v_any_below(utf8_v x, uint8_t t) { return vminvq_s8(vreinterpretq_s8_u8(x)) < (int8_t)t; }
#endif
"#;

/// The C names of one vector check's items: functions and tables
/// `utf8_{lower}_*`, constants `UTF8_{upper}_*`. The ruleset's own check is
/// `vec`; the UTF-8 shortcut's language, where the validator takes it
/// first, is `shortcut`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Names {
    pub lower: &'static str,
    pub upper: &'static str,
}

/// The ruleset's own check.
pub(super) const OWN: Names = Names {
    lower: "vec",
    upper: "VEC",
};

/// The UTF-8 shortcut's language.
pub(super) const SHORTCUT: Names = Names {
    lower: "shortcut",
    upper: "SHORTCUT",
};

/// The vector validator for `simd`'s ruleset: the ISA layers, the block
/// checks, and `utf8_validate_simd`, which takes the UTF-8 shortcut first
/// where `shortcut` is given.
pub(super) fn c(simd: &SimdTables, shortcut: Option<&Shortcut>) -> String {
    let mut out = String::from(ISA_LAYERS);
    out.push_str("\n#ifdef UTF8_V_WIDTH\n");
    helpers(&mut out);
    vector_restart::restart_point(simd, OWN, &mut out);
    scan(simd, OWN, &mut out);
    let _ = writeln!(
        out,
        "/* The ruleset's own check over the whole input, the exact error found by the shift DFA\n   \
            from the restart point before the block where the check erred. */\n\
         static inline bool utf8_vec_validate(const uint8_t *p, size_t n, struct utf8_result *result) {{\n    \
             size_t resume;\n    \
             if (utf8_vec_scan(p, n, &resume)) {{\n        \
                 result->valid_up_to = n;\n        \
                 result->error_len = 0;\n        \
                 return true;\n    \
             }}\n    \
             return utf8_validate_from(p, n, resume, UTF8_SHIFT_START, result);\n\
         }}\n"
    );
    match shortcut {
        Some(shortcut) => {
            vector_restart::constants(shortcut, &mut out);
            vector_restart::restart_point(&shortcut.check, SHORTCUT, &mut out);
            scan(&shortcut.check, SHORTCUT, &mut out);
            vector_restart::driver(&mut out);
        }
        None => out.push_str(
            "/* Validates the n bytes at p as utf8_validate does, the check a block at a time. */\n\
             static inline bool utf8_validate_simd(const uint8_t *p, size_t n, struct utf8_result *result) {\n    \
                 return utf8_vec_validate(p, n, result);\n\
             }\n",
        ),
    }
    vector_restart::stream(&mut out);
    out.push_str(
        "#else\n\
         /* No vector instructions: the shift DFA alone. */\n",
    );
    out.push_str(vector_restart::SCALAR);
    out.push_str("#endif\n");
    out
}

/// The lead marker's flag (`0xFF` or 0) over two boundary bytes: what the
/// bytes before the input give the pairing term.
fn lead_over_boundary(simd: &SimdTables) -> u8 {
    match simd.marker_bits() {
        Some([(set, bit), _]) => {
            let boundary = simd.boundary();
            if simd.sets()[set].bits(boundary, boundary) & bit != 0 {
                0xFF
            } else {
                0
            }
        }
        None => 0,
    }
}

/// What every check's blocks share: the state carried between blocks, a
/// table set's bits, and the comparison with a threshold.
fn helpers(out: &mut String) {
    out.push_str(
        "/* What a check carries from one block to the next. */\n\
         struct utf8_v_state {\n    \
             utf8_v prev;  /* the block before */\n    \
             utf8_v lead;  /* its pairing lead markers, 0xFF where set */\n    \
             utf8_v error; /* every error bit so far */\n\
         };\n\n\
         /* The bits table set `t` gives each pair of bytes. */\n\
         static inline utf8_v utf8_v_bits(const utf8_v t[4], utf8_v prev1, utf8_v cur) {\n    \
             return utf8_v_and(utf8_v_and(utf8_v_lookup(t[0], utf8_v_high(prev1)), utf8_v_lookup(t[1], utf8_v_low(prev1))),\n                      \
                               utf8_v_and(utf8_v_lookup(t[2], utf8_v_high(cur)), utf8_v_lookup(t[3], utf8_v_low(cur))));\n\
         }\n\n\
         /* Whether each byte is at least t: 0xFF where it is. */\n\
         static inline utf8_v utf8_v_at_least(utf8_v x, uint8_t t) {\n    \
             return utf8_v_eq(utf8_v_max(x, utf8_v_splat(t)), x);\n\
         }\n\n",
    );
}

/// Where a block's check finds the bytes before each of its bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Before {
    /// Shifted in from the block before, carried in `s->prev`: the first
    /// block, and the framed tail.
    Carried,
    /// Loaded from memory, 1, 2, ... bytes before the block, which the
    /// buffer holds: every other block. Cheaper than a shift across the
    /// two halves of an AVX2 vector (utf8-core loads them too).
    Loaded,
}

/// `utf8_{lower}_block` (the bytes before carried) and
/// `utf8_{lower}_block_at` (loaded): one block's errors, with this check's
/// sets, thresholds and pairing term written out.
fn block(simd: &SimdTables, names: Names, out: &mut String) {
    block_of(simd, names, Before::Carried, out);
    block_of(simd, names, Before::Loaded, out);
}

fn block_of(simd: &SimdTables, names: Names, before: Before, out: &mut String) {
    let Names { lower, upper } = names;
    let masks: Vec<u8> = (0..simd.sets().len())
        .map(|set| simd.error_mask(set))
        .collect();
    let prev = |back: usize| match before {
        Before::Carried => format!("UTF8_V_PREV(s->prev, cur, {back})"),
        Before::Loaded => format!("utf8_v_load(q - {back})"),
    };
    let head = match before {
        Before::Carried => format!(
            "/* The check of the block `cur` after s->prev, as the utf8_{lower}_* tables make it a byte\n   \
                at a time: its errors ORed into s->error. */\n\
             static inline void utf8_{lower}_block(utf8_v tables[UTF8_{upper}_SETS][4], struct utf8_v_state *s, utf8_v cur) {{"
        ),
        Before::Loaded => format!(
            "/* utf8_{lower}_block on the block at q, the bytes before it loaded from q - 1, q - 2, ...,\n   \
                which the caller's buffer holds. */\n\
             static inline void utf8_{lower}_block_at(utf8_v tables[UTF8_{upper}_SETS][4], struct utf8_v_state *s, const uint8_t *q) {{\n    \
                 utf8_v cur = utf8_v_load(q);"
        ),
    };
    let _ = writeln!(out, "{head}\n    utf8_v prev1 = {};", prev(1));
    for set in 0..simd.sets().len() {
        let _ = writeln!(
            out,
            "    utf8_v bits{set} = utf8_v_bits(tables[{set}], prev1, cur);"
        );
    }
    let _ = writeln!(out, "    utf8_v must = utf8_v_splat(0);");
    // Bit 7 is what counts: a saturating subtraction sets it from a
    // threshold of 0x80 or more in one instruction.
    for (back, &threshold) in (2..).zip(simd.must_continue()) {
        let test = if threshold >= 0x80 {
            format!(
                "utf8_v_subs({}, utf8_v_splat({:#04X}))",
                prev(back),
                threshold - 0x80
            )
        } else {
            format!("utf8_v_at_least({}, {threshold:#04X})", prev(back))
        };
        let _ = writeln!(out, "    must = utf8_v_or(must, {test});");
    }
    let _ = writeln!(
        out,
        "    utf8_v error = utf8_v_xor(utf8_v_and(bits0, utf8_v_splat({:#04X})), utf8_v_and(must, utf8_v_splat({CONTINUATION_BIT:#04X})));",
        masks[0]
    );
    for (set, mask) in masks.iter().enumerate().skip(1) {
        let _ = writeln!(
            out,
            "    error = utf8_v_or(error, utf8_v_and(bits{set}, utf8_v_splat({mask:#04X})));"
        );
    }
    if let (Some(pairing), Some([(lead_set, lead_bit), (trail_set, trail_bit)])) =
        (simd.pairing(), simd.marker_bits())
    {
        let combine = match pairing.rule {
            PairRule::Required => "utf8_v_xor(lead_before, trail)",
            PairRule::Forbidden => "utf8_v_and(lead_before, trail)",
        };
        let _ = writeln!(
            out,
            "    utf8_v lead = utf8_v_eq(utf8_v_and(bits{lead_set}, utf8_v_splat({lead_bit:#04X})), utf8_v_splat({lead_bit:#04X}));\n    \
                 utf8_v trail = utf8_v_eq(utf8_v_and(bits{trail_set}, utf8_v_splat({trail_bit:#04X})), utf8_v_splat({trail_bit:#04X}));\n    \
                 utf8_v lead_before = UTF8_V_PREV(s->lead, lead, {});\n    \
                 error = utf8_v_or(error, {combine});\n    \
                 s->lead = lead;",
            pairing.distance
        );
    }
    let carry = match before {
        Before::Carried => "\n    s->prev = cur;",
        Before::Loaded => "",
    };
    let _ = writeln!(
        out,
        "    s->error = utf8_v_or(s->error, error);{carry}\n\
         }}\n"
    );
}

/// `utf8_{lower}_like_boundary` and its four-block form: whether blocks can
/// be skipped.
fn like_boundary(simd: &SimdTables, Names { lower, upper }: Names, out: &mut String) {
    let (one, four) = match simd.ascii_skip_from() {
        None => ("false".to_owned(), "false".to_owned()),
        // Bytes below 0x80 alone: their OR has bit 7 clear.
        Some(0) => (
            "!utf8_v_any_below(x, 0x00)".to_owned(),
            "!utf8_v_any_below(utf8_v_or(utf8_v_or(a, b), utf8_v_or(c, d)), 0x00)".to_owned(),
        ),
        Some(from) => (
            format!("!utf8_v_any_below(x, {from:#04X})"),
            format!(
                "utf8_{lower}_like_boundary(a) && utf8_{lower}_like_boundary(b) && utf8_{lower}_like_boundary(c) && utf8_{lower}_like_boundary(d)"
            ),
        ),
    };
    let _ = writeln!(
        out,
        "/* Whether every byte of a block looks like the boundary byte to the check and the\n   \
            automaton (UTF8_{upper}_ASCII_SKIP_FROM to 0x7F); of four blocks. */\n\
         static inline bool utf8_{lower}_like_boundary(utf8_v x) {{\n    \
             return {one};\n\
         }}\n\
         static inline bool utf8_{lower}_like_boundary4(utf8_v a, utf8_v b, utf8_v c, utf8_v d) {{\n    \
             return {four};\n\
         }}\n"
    );
}

/// `utf8_{lower}_scan`: the blocks and the framed tail; where the check
/// errs, a point before the error where the automaton is at its start.
fn scan(simd: &SimdTables, names: Names, out: &mut String) {
    block(simd, names, out);
    like_boundary(simd, names, out);
    let Names { lower, upper } = names;
    let _ = writeln!(
        out,
        "/* Whether the n bytes at p are in the language, the check a block at a time; where they\n   \
            are not, *resume_at is a point before the error where the automaton is at its start:\n   \
            the check errs at most UTF8_{upper}_MAX_LAG bytes after the byte on which the automaton\n   \
            dies, so the automaton is alive up to that far before the block that erred, and the\n   \
            restart point at or before there is where a sequence starts. */\n\
         static inline bool utf8_{lower}_scan(const uint8_t *p, size_t n, size_t *resume_at) {{\n    \
             utf8_v tables[UTF8_{upper}_SETS][4];\n    \
             for (int set = 0; set < UTF8_{upper}_SETS; set++) {{\n        \
                 tables[set][0] = utf8_v_table(utf8_{lower}_prev_high[set]);\n        \
                 tables[set][1] = utf8_v_table(utf8_{lower}_prev_low[set]);\n        \
                 tables[set][2] = utf8_v_table(utf8_{lower}_cur_high[set]);\n        \
                 tables[set][3] = utf8_v_table(utf8_{lower}_cur_low[set]);\n    \
             }}\n    \
             const utf8_v boundary = utf8_v_splat(UTF8_{upper}_BOUNDARY), lead_over_boundary = utf8_v_splat({lead:#04X});\n    \
             struct utf8_v_state s = {{boundary, lead_over_boundary, utf8_v_splat(0)}};\n    \
             /* Whether the bytes before the block look like boundary bytes: the automaton is\n       \
                at its start, and a block of such bytes can be skipped. */\n    \
             bool like_boundary_before = true;\n    \
             size_t i = 0;\n    \
             /* The first block, after boundary bytes; the others after the bytes before them. */\n    \
             if (n >= UTF8_V_WIDTH) {{\n        \
                 utf8_v first = utf8_v_load(p);\n        \
                 like_boundary_before = utf8_{lower}_like_boundary(first);\n        \
                 if (!like_boundary_before) utf8_{lower}_block(tables, &s, first);\n        \
                 if (!utf8_v_any(s.error)) i = UTF8_V_WIDTH;\n    \
             }}\n    \
             if (!utf8_v_any(s.error)) {{\n        \
                 /* Four blocks a turn, tested once for errors and for bytes that all look like\n           \
                    boundary bytes. */\n        \
                 for (; n - i >= 4 * UTF8_V_WIDTH; i += 4 * UTF8_V_WIDTH) {{\n            \
                     utf8_v a = utf8_v_load(p + i), b = utf8_v_load(p + i + UTF8_V_WIDTH);\n            \
                     utf8_v c = utf8_v_load(p + i + 2 * UTF8_V_WIDTH), d = utf8_v_load(p + i + 3 * UTF8_V_WIDTH);\n            \
                     if (like_boundary_before && utf8_{lower}_like_boundary4(a, b, c, d)) continue;\n            \
                     if (like_boundary_before) s.lead = lead_over_boundary;\n            \
                     utf8_{lower}_block_at(tables, &s, p + i);\n            \
                     utf8_{lower}_block_at(tables, &s, p + i + UTF8_V_WIDTH);\n            \
                     utf8_{lower}_block_at(tables, &s, p + i + 2 * UTF8_V_WIDTH);\n            \
                     utf8_{lower}_block_at(tables, &s, p + i + 3 * UTF8_V_WIDTH);\n            \
                     if (utf8_v_any(s.error)) break;\n            \
                     like_boundary_before = utf8_{lower}_like_boundary(d);\n        \
                 }}\n        \
                 for (; !utf8_v_any(s.error) && n - i >= UTF8_V_WIDTH; i += UTF8_V_WIDTH) {{\n            \
                     bool like_boundary = utf8_{lower}_like_boundary(utf8_v_load(p + i));\n            \
                     if (like_boundary && like_boundary_before) continue;\n            \
                     if (like_boundary_before) s.lead = lead_over_boundary;\n            \
                     utf8_{lower}_block_at(tables, &s, p + i);\n            \
                     if (utf8_v_any(s.error)) break;\n            \
                     like_boundary_before = like_boundary;\n        \
                 }}\n    \
             }}\n    \
             if (!utf8_v_any(s.error)) {{\n        \
                 uint8_t last[UTF8_V_WIDTH];\n        \
                 for (size_t k = 0; k < UTF8_V_WIDTH; k++) last[k] = k < n - i ? p[i + k] : UTF8_{upper}_BOUNDARY;\n        \
                 if (like_boundary_before) {{\n            \
                     s.prev = boundary;\n            \
                     s.lead = lead_over_boundary;\n        \
                 }} else {{\n            \
                     s.prev = utf8_v_load(p + i - UTF8_V_WIDTH);\n        \
                 }}\n        \
                 utf8_{lower}_block(tables, &s, utf8_v_load(last));\n        \
                 utf8_{lower}_block(tables, &s, boundary);\n        \
                 if (!utf8_v_any(s.error)) return true;\n    \
             }}\n    \
             *resume_at = utf8_{lower}_restart_point(p, n, i > UTF8_{upper}_MAX_LAG ? i - UTF8_{upper}_MAX_LAG : 0);\n    \
             return false;\n\
         }}",
        lead = lead_over_boundary(simd),
    );
}
