//! The vector check over part of an input, from a point where the
//! automaton is at its start to a restart point, where it is at its start
//! again if the part is valid: the windows in which the ruleset's own check
//! reads where the UTF-8 shortcut stops, and the streaming form.
//!
//! The shortcut is for a ruleset whose own vector check costs more a block
//! than UTF-8's (CESU-8's and WTF-8's, with a pairing term): the check of
//! the shortcut's language (valid UTF-8 without the bytes on which the
//! ruleset and UTF-8 part, see [`Utf8Shortcut`]) reads first, and the
//! ruleset's own check reads only windows from where it stops, as
//! utf8-core's validator does.

use std::fmt::Write as _;

use super::vector::{self, Vector};
use super::vector_paths::{Names, SHORTCUT};
use crate::simd::SimdTables;
use crate::utf8_shortcut::Utf8Shortcut;
use crate::{ByteRange, Tables};

/// How many bytes the ruleset's own check reads, at least, after the
/// shortcut stops: enough to pay for starting it. Doubled while the
/// shortcut then settles less than a window (text dense with surrogate
/// pairs), back to this after it settles more.
const FIRST_WINDOW: usize = 1024;

/// The shortcut the validator takes first: the forbidden bytes' ranges, as
/// text, and the proved vector check of the shortcut's language.
pub(super) struct Shortcut {
    forbidden: Vec<ByteRange>,
    pub check: SimdTables,
}

impl Shortcut {
    /// The language the shortcut settles, in words.
    fn language(&self) -> String {
        if self.forbidden.is_empty() {
            return "valid UTF-8".to_owned();
        }
        let ranges: Vec<String> = self.forbidden.iter().map(ToString::to_string).collect();
        format!("valid UTF-8 without {}", ranges.join(" or "))
    }

    /// What the shortcut is, as comment lines.
    fn preamble(&self) -> [String; 4] {
        [
            format!(
                "The UTF-8 shortcut: {} is valid under this ruleset too, and",
                self.language()
            ),
            "leaves its automaton at its start at every sequence boundary (found on the product"
                .to_owned(),
            "automaton with RFC 3629's). The vector check of that language, proved exact as the"
                .to_owned(),
            "ruleset's own is, costs less a block than the ruleset's own, and a validator runs it first."
                .to_owned(),
        ]
    }
}

/// The shortcut, where it pays: the ruleset has one, its language's check
/// proves, and the ruleset's own check costs more a block (a pairing term,
/// or more table sets). The same choice as utf8-core's `shortcut_first`.
pub(super) fn find(tables: &Tables, own: &Vector) -> Option<Shortcut> {
    let own = own.as_ref().ok()?;
    let utf8 = crate::rulesets::builtin("rfc3629")?.derive().ok()?;
    let shortcut = Utf8Shortcut::find(tables, utf8.tables())?;
    let check = SimdTables::new(&shortcut.language(utf8.tables())).ok()?;
    let pays = own.pairing().is_some() || own.sets().len() > check.sets().len();
    pays.then(|| Shortcut {
        forbidden: shortcut.forbidden().to_vec(),
        check,
    })
}

/// The shortcut language's tables, `utf8_shortcut_*`, with what they are.
pub(super) fn constants(shortcut: &Shortcut, out: &mut String) {
    let _ = writeln!(out, "\n/* {} */", shortcut.preamble().join("\n   "));
    vector::c_constants(&shortcut.check, SHORTCUT, false, out);
}

/// The shortcut in Rust: `SHORTCUT_FORBIDDEN` and the language's check as
/// `SHORTCUT_VECTOR_*`; or why there is none.
pub(super) fn rust(shortcut: Option<&Shortcut>) -> String {
    let Some(shortcut) = shortcut else {
        return format!("\n// {NONE}.\n");
    };
    let mut out = String::from("\n");
    for line in shortcut.preamble() {
        let _ = writeln!(out, "// {line}");
    }
    let ranges: Vec<String> = shortcut
        .forbidden
        .iter()
        .map(|r| format!("({:#04X}, {:#04X})", r.start(), r.end()))
        .collect();
    let _ = writeln!(
        out,
        "/// The forbidden byte ranges, inclusive.\n\
         pub const SHORTCUT_FORBIDDEN: [(u8, u8); {}] = [{}];",
        ranges.len(),
        ranges.join(", ")
    );
    vector::rust_constants(&shortcut.check, "SHORTCUT_VECTOR", &mut out);
    out
}

/// The `shortcut` key's value: `null`, or the forbidden ranges and the
/// language's check in the form of the `vector` key.
pub(super) fn json(shortcut: Option<&Shortcut>) -> String {
    let Some(shortcut) = shortcut else {
        return "  \"shortcut\": null".to_owned();
    };
    let ranges: Vec<String> = shortcut
        .forbidden
        .iter()
        .map(|r| format!("[{}, {}]", r.start(), r.end()))
        .collect();
    let check = vector::json_tables(&shortcut.check);
    let nested: Vec<String> = check.lines().map(|line| format!("  {line}")).collect();
    format!(
        "  \"shortcut\": {{\n    \"forbidden\": [{}],\n{}\n  }}",
        ranges.join(", "),
        nested.join("\n")
    )
}

/// Why a ruleset's tables have no shortcut.
const NONE: &str = "No UTF-8 shortcut taken first: the ruleset has none, its language's check is not proved, or the ruleset's own check costs no more a block";

/// `utf8_validate_simd` by the shortcut: the loop that hands the input
/// between the two checks.
pub(super) fn driver(out: &mut String) {
    let _ = writeln!(
        out,
        "/* Validates the n bytes at p as utf8_validate does. The shortcut's check reads first;\n   \
            where it stops, the ruleset's automaton is at its start, and the ruleset's own check\n   \
            reads on over a window that ends at a restart point, after which the shortcut takes\n   \
            over again. The window doubles while the shortcut keeps stopping soon after it\n   \
            (text dense with the bytes it forbids), and starts again at UTF8_SHORTCUT_WINDOW\n   \
            after a long run. An error is found exactly from the last point known settled. */\n\
         enum {{ UTF8_SHORTCUT_WINDOW = {FIRST_WINDOW} }};\n\
         static inline bool utf8_validate_simd(const uint8_t *p, size_t n, struct utf8_result *result) {{\n    \
             size_t at = 0, window = UTF8_SHORTCUT_WINDOW, settled, resume;\n    \
             while (!utf8_shortcut_scan(p + at, n - at, &settled)) {{\n        \
                 at += settled;\n        \
                 size_t end = n - at > window ? utf8_vec_restart_point(p, n, at + window) : n;\n        \
                 if (end <= at) end = n;\n        \
                 if (!utf8_vec_scan(p + at, end - at, &resume)) {{\n            \
                     return utf8_validate_from(p, n, at + resume, UTF8_SHIFT_START, result);\n        \
                 }}\n        \
                 if (end == n) break;\n        \
                 at = end;\n        \
                 window = settled >= window ? (size_t)UTF8_SHORTCUT_WINDOW : window <= SIZE_MAX / 2 ? 2 * window : window;\n    \
             }}\n    \
             result->valid_up_to = n;\n    \
             result->error_len = 0;\n    \
             return true;\n\
         }}"
    );
}

/// `utf8_{lower}_restart_point`: where an exact error restarts the
/// automaton, and where a window of the ruleset's own check may end; with
/// the continuation bytes and pending lead markers it steps back over.
pub(super) fn restart_point(simd: &SimdTables, names: Names, out: &mut String) {
    let Names { lower, .. } = names;
    let mut continuation = [false; 256];
    for &byte in simd.continuation() {
        continuation[usize::from(byte)] = true;
    }
    let _ = writeln!(
        out,
        "/* The continuation bytes: those that some state inside a sequence accepts. */\n\
         static const bool utf8_{lower}_continuation[256] = {{"
    );
    for (row, chunk) in continuation.chunks(16).enumerate() {
        let flags: Vec<&str> = chunk.iter().map(|&c| if c { "1" } else { "0" }).collect();
        let _ = writeln!(out, "    {}, /* {row:X}0-{row:X}F */", flags.join(", "));
    }
    let _ = writeln!(out, "}};\n");
    let step_back =
        format!("while (from > 0 && (from == n || utf8_{lower}_continuation[p[from]])) from--;");
    let body = match (simd.pairing(), simd.marker_bits()) {
        (Some(pairing), Some([(lead_set, lead_bit), _])) => {
            let _ = writeln!(
                out,
                "/* Whether a lead marker stands in the {} positions before `at`, its trail still to come. */\n\
                 static inline bool utf8_{lower}_lead_pending(const uint8_t *p, size_t at) {{\n    \
                     size_t earliest = at > {} ? at - {} : 1;\n    \
                     for (size_t i = earliest; i < at; i++) {{\n        \
                         if (utf8_{lower}_bits({lead_set}, p[i - 1], p[i]) & {lead_bit:#04X}) return true;\n    \
                     }}\n    \
                     return false;\n\
                 }}\n",
                pairing.distance - 1,
                pairing.distance,
                pairing.distance - 1,
            );
            format!(
                "    for (;;) {{\n        \
                         {step_back}\n        \
                         if (from == 0 || !utf8_{lower}_lead_pending(p, from)) return from;\n        \
                         from--;\n    \
                     }}"
            )
        }
        _ => format!("    {step_back}\n    return from;"),
    };
    let _ = writeln!(
        out,
        "/* The last point at or before `at`, and before n, where the automaton is at its start if\n   \
            the input is valid that far: a byte that is not a continuation byte starts a sequence,\n   \
            and the derivation proved the automaton at its start there unless a lead marker before\n   \
            it still waits for its trail. 0 if there is none. */\n\
         static inline size_t utf8_{lower}_restart_point(const uint8_t *p, size_t n, size_t at) {{\n    \
             size_t from = at < n ? at : n;\n\
         {body}\n\
         }}\n"
    );
}

/// `utf8_stream_simd`: `utf8_stream` with the vector validator over each
/// piece from where the automaton is at its start to the piece's last
/// restart point.
pub(super) fn stream(out: &mut String) {
    out.push_str(
        "/* The state after n more bytes at p, from `state`, as utf8_stream gives it: validation in\n   \
            pieces. The shift DFA reads up to the first point where the automaton is at its start,\n   \
            utf8_validate_simd from there to the piece's last restart point, where the automaton is\n   \
            at its start again if the input is valid, and the shift DFA the rest. */\n\
         static inline uint32_t utf8_stream_simd(uint32_t state, const uint8_t *p, size_t n) {\n    \
             size_t i = 0;\n    \
             while (i < n && utf8_shift_field(state) != UTF8_SHIFT_START) {\n        \
                 if (utf8_state_dead(state)) return state;\n        \
                 state = utf8_shift_step(state, p[i++]);\n    \
             }\n    \
             size_t end = utf8_vec_restart_point(p, n, n);\n    \
             if (end > i) {\n        \
                 struct utf8_result result;\n        \
                 if (!utf8_validate_simd(p + i, end - i, &result)) return UTF8_SHIFT_DEAD;\n        \
                 i = end;\n        \
                 state = UTF8_SHIFT_START;\n    \
             }\n    \
             return utf8_stream(state, p + i, n - i);\n\
         }\n",
    );
}

/// `utf8_validate_simd` and `utf8_stream_simd` where there is no vector
/// code (a declined check, or a target without vector instructions): the
/// shift DFA's `utf8_validate` and `utf8_stream`.
pub(super) const SCALAR: &str = "static inline bool utf8_validate_simd(const uint8_t *p, size_t n, struct utf8_result *result) {\n    \
        return utf8_validate(p, n, result);\n\
    }\n\
    static inline uint32_t utf8_stream_simd(uint32_t state, const uint8_t *p, size_t n) {\n    \
        return utf8_stream(state, p, n);\n\
    }\n";
