//! The shift DFA ([`ShiftDfa`]) as source text: its rows and constants in
//! Rust, C and JSON, and in C a validator that runs on them.
//!
//! A state is a bit offset into a row; a step is `ROWS[byte] >> state`,
//! the shift reading only its low bits, so that one load, whose address
//! does not hang on the state, and one shift make a step, where the class
//! tables take two dependent loads.

use std::fmt::Write as _;

use crate::Tables;
use crate::shift::{RowWidth, ShiftDfa};

/// The shift DFA's numbers, as every language writes them.
pub(super) struct Shift {
    dfa: ShiftDfa,
    start: u32,
    dead: u32,
    /// Bit `s` set where state `s` (offset `s * field_bits`) accepts.
    accepting: u32,
}

impl Shift {
    /// `None` where the tables have more states than a 128-bit row holds.
    pub(super) fn new(tables: &Tables) -> Option<Shift> {
        let dfa = ShiftDfa::new(tables)?;
        let accepting = tables
            .accepting_states()
            .iter()
            .fold(0u32, |mask, &state| mask | 1 << state);
        Some(Shift {
            start: dfa.offset(tables.start()),
            dead: dfa.offset(tables.dead()),
            accepting,
            dfa,
        })
    }

    fn bits(&self) -> u32 {
        self.dfa.width().bits()
    }

    fn field_bits(&self) -> u32 {
        self.dfa.width().field_bits()
    }

    fn rows(&self) -> impl Iterator<Item = u128> + '_ {
        self.dfa.rows().iter().copied()
    }
}

/// Why a ruleset has no shift DFA, in a comment of each language.
pub(super) const TOO_MANY_STATES: &str = "no shift DFA: more states than a 128-bit row holds (18)";

fn hex(row: u128, bits: u32) -> String {
    let digits = (bits / 4) as usize;
    format!("0x{row:0digits$X}")
}

/// Rows four to a line (two for 128-bit ones), each line's first byte in
/// a comment.
fn row_lines(shift: &Shift, indent: &str, suffix: &str, comment: (&str, &str)) -> String {
    let per_line = if shift.bits() == 128 { 2 } else { 4 };
    let rows: Vec<u128> = shift.rows().collect();
    let mut out = String::new();
    for (line, chunk) in rows.chunks(per_line).enumerate() {
        let values: Vec<String> = chunk
            .iter()
            .map(|&row| format!("{}{suffix}", hex(row, shift.bits())))
            .collect();
        let _ = writeln!(
            out,
            "{indent}{}, {} {:02X} {}",
            values.join(", "),
            comment.0,
            line * per_line,
            comment.1
        );
    }
    out
}

pub(super) fn rust(shift: &Shift) -> String {
    let ty = match shift.dfa.width() {
        RowWidth::U32 => "u32",
        RowWidth::U64 => "u64",
        RowWidth::U128 => "u128",
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n// The same automaton as a shift DFA: a state is a bit offset into a row,\n\
         // and a byte `b` moves state `s` to `SHIFT_ROWS[b].wrapping_shr(s)`, whose low\n\
         // SHIFT_FIELD_BITS bits are the next state's offset (the bits above them\n\
         // are left over and ignored, since a wrapping shift reads only the low ones)."
    );
    let _ = writeln!(
        out,
        "/// Bits of a row that name a state: a state's offset is its number times this."
    );
    let _ = writeln!(
        out,
        "pub const SHIFT_FIELD_BITS: u32 = {};",
        shift.field_bits()
    );
    let _ = writeln!(out, "/// The start state's offset.");
    let _ = writeln!(out, "pub const SHIFT_START: u32 = {};", shift.start);
    let _ = writeln!(out, "/// The dead state's offset.");
    let _ = writeln!(out, "pub const SHIFT_DEAD: u32 = {};", shift.dead);
    let _ = writeln!(
        out,
        "/// Bit `n` set where the state at offset `n * SHIFT_FIELD_BITS` accepts."
    );
    let _ = writeln!(
        out,
        "pub const SHIFT_ACCEPTING: u32 = {:#b};",
        shift.accepting
    );
    let _ = writeln!(out, "/// One row per byte value.");
    let _ = writeln!(out, "pub const SHIFT_ROWS: [{ty}; 256] = [");
    out.push_str(&row_lines(shift, "    ", "", ("//", "")));
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "\n/// Whether `bytes` is in the language, run on the shift DFA.\n\
         pub const fn shift_accepts(bytes: &[u8]) -> bool {{\n    \
             let mut state = SHIFT_START;\n    \
             let mut i = 0;\n    \
             while i < bytes.len() {{\n        \
                 state = SHIFT_ROWS[bytes[i] as usize].wrapping_shr(state) as u32;\n        \
                 i += 1;\n    \
             }}\n    \
             let field = state & ((1 << SHIFT_FIELD_BITS) - 1);\n    \
             SHIFT_ACCEPTING >> (field / SHIFT_FIELD_BITS) & 1 == 1\n\
         }}"
    );
    out
}

pub(super) fn json(shift: &Shift) -> String {
    let rows: Vec<String> = shift
        .rows()
        .collect::<Vec<_>>()
        .chunks(4)
        .map(|chunk| {
            let values: Vec<String> = chunk
                .iter()
                .map(|&row| format!("\"{}\"", hex(row, shift.bits())))
                .collect();
            format!("      {}", values.join(", "))
        })
        .collect();
    let accepting: Vec<String> = (0..32)
        .filter(|state| shift.accepting >> state & 1 == 1)
        .map(|state| (state * shift.field_bits()).to_string())
        .collect();
    format!(
        "  \"shift\": {{\n    \
           \"row_bits\": {},\n    \
           \"field_bits\": {},\n    \
           \"start\": {},\n    \
           \"dead\": {},\n    \
           \"accepting\": [{}],\n    \
           \"rows\": [\n{}\n    ]\n  }}",
        shift.bits(),
        shift.field_bits(),
        shift.start,
        shift.dead,
        accepting.join(", "),
        rows.join(",\n")
    )
}

/// The rows' declarations and the step, in C99: a 128-bit row as two
/// 64-bit halves, which C99 has no type for.
fn c_rows_and_step(shift: &Shift) -> String {
    let mut out = String::new();
    if shift.bits() == 128 {
        let halves = |high: bool| -> String {
            let rows: Vec<u128> = shift.rows().collect();
            let mut text = String::new();
            for (line, chunk) in rows.chunks(4).enumerate() {
                let values: Vec<String> = chunk
                    .iter()
                    .map(|&row| {
                        let half = if high {
                            row >> 64
                        } else {
                            row & u128::from(u64::MAX)
                        };
                        format!("{}u", hex(half, 64))
                    })
                    .collect();
                let _ = writeln!(text, "    {}, /* {:02X} */", values.join(", "), line * 4);
            }
            text
        };
        let _ = writeln!(
            out,
            "/* One 128-bit row per byte value, as its low and high 64 bits. */\n\
             static const uint64_t utf8_shift_rows_low[256] = {{\n{}}};\n\
             static const uint64_t utf8_shift_rows_high[256] = {{\n{}}};\n",
            halves(false),
            halves(true)
        );
        let _ = writeln!(
            out,
            "/* One step: the row of `byte` shifted right by the state's offset (its\n   \
             low 7 bits), of which the low 32 bits are kept. */\n\
             static inline uint32_t utf8_shift_step(uint32_t state, uint8_t byte) {{\n    \
                 unsigned s = state & 127u;\n    \
                 uint64_t low = utf8_shift_rows_low[byte], high = utf8_shift_rows_high[byte];\n    \
                 if (s == 0) return (uint32_t)low;\n    \
                 if (s < 64) return (uint32_t)((low >> s) | (high << (64 - s)));\n    \
                 return (uint32_t)(high >> (s - 64));\n\
             }}\n"
        );
    } else {
        let ty = if shift.bits() == 32 {
            "uint32_t"
        } else {
            "uint64_t"
        };
        let _ = writeln!(
            out,
            "/* One row per byte value. */\nstatic const {ty} utf8_shift_rows[256] = {{"
        );
        out.push_str(&row_lines(shift, "    ", "u", ("/*", "*/")));
        let _ = writeln!(out, "}};\n");
        let _ = writeln!(
            out,
            "/* One step: the row of `byte` shifted right by the state's offset (its\n   \
             low {} bits), of which the low 32 bits are kept. */\n\
             static inline uint32_t utf8_shift_step(uint32_t state, uint8_t byte) {{\n    \
                 return (uint32_t)(utf8_shift_rows[byte] >> (state & {}u));\n\
             }}\n",
            shift.field_bits(),
            shift.bits() - 1
        );
    }
    out
}

pub(super) fn c(shift: &Shift) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/* The same automaton as a shift DFA: a state is a bit offset into a row, and\n   \
         a byte moves it to that byte's row shifted right by the offset, whose low\n   \
         UTF8_SHIFT_FIELD_BITS bits are the next state's offset (the bits above\n   \
         them are left over, and ignored: the shift reads only the low ones). */\n\
         enum {{ UTF8_SHIFT_FIELD_BITS = {}, UTF8_SHIFT_START = {}, UTF8_SHIFT_DEAD = {} }};\n\
         /* Bit n set where the state at offset n * UTF8_SHIFT_FIELD_BITS accepts. */\n\
         static const uint32_t utf8_shift_accepting = {:#X}u;\n",
        shift.field_bits(),
        shift.start,
        shift.dead,
        shift.accepting
    );
    out.push_str(&c_rows_and_step(shift));
    out.push_str(C_VALIDATOR);
    out
}

/// The validator on the shift DFA, the same for every ruleset: it reads
/// only the constants and `utf8_shift_step` above it.
const C_VALIDATOR: &str = r#"/* The state's offset, the bits above it dropped. */
static inline uint32_t utf8_shift_field(uint32_t state) {
    return state & ((1u << UTF8_SHIFT_FIELD_BITS) - 1u);
}

/* Whether a state accepts: the input so far is in the language. */
static inline bool utf8_state_accepts(uint32_t state) {
    return (utf8_shift_accepting >> (utf8_shift_field(state) / UTF8_SHIFT_FIELD_BITS)) & 1u;
}

/* Whether a state is dead: no continuation of the input is in the language. */
static inline bool utf8_state_dead(uint32_t state) {
    return utf8_shift_field(state) == UTF8_SHIFT_DEAD;
}

/* The state after n more bytes at p, from `state`: validation in pieces.
   Start from UTF8_SHIFT_START; after the last piece the input is valid
   when utf8_state_accepts holds. A dead state stays dead. */
static inline uint32_t utf8_stream(uint32_t state, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        state = utf8_shift_step(state, p[i]);
    }
    return state;
}

/* What utf8_validate found, as Rust's core::str::Utf8Error says it:
   valid_up_to, the length of the longest prefix that ends where the
   automaton accepts; error_len, the length of the invalid sequence there
   (1 to 255), 0 when the input is valid, and -1 when the input ends inside
   a sequence that more bytes could complete. */
struct utf8_result {
    size_t valid_up_to;
    int error_len;
};

/* The exact error, one byte at a time from `from`, where the automaton is
   in `state`, which accepts. */
static inline bool utf8_validate_from(const uint8_t *p, size_t n, size_t from,
                                      uint32_t state, struct utf8_result *result) {
    size_t valid_up_to = from;
    for (size_t i = from; i < n; i++) {
        state = utf8_shift_step(state, p[i]);
        if (utf8_state_dead(state)) {
            size_t len = i - valid_up_to;
            result->valid_up_to = valid_up_to;
            result->error_len = len == 0 ? 1 : len > 255 ? 255 : (int)len;
            return false;
        }
        if (utf8_state_accepts(state)) {
            valid_up_to = i + 1;
        }
    }
    result->valid_up_to = valid_up_to;
    result->error_len = utf8_state_accepts(state) ? 0 : -1;
    return result->error_len == 0;
}

/* Validates the n bytes at p: true when they are in the language, and in
   *result where they are not. Runs 16 bytes at a time without a test; the
   dead state, which never leaves, is looked for at the end of each run, and
   an error is then found exactly from the last run that started where the
   automaton accepted. */
static inline bool utf8_validate(const uint8_t *p, size_t n, struct utf8_result *result) {
    uint32_t state = UTF8_SHIFT_START, resume_state = state;
    size_t i = 0, resume_at = 0;
    while (n - i >= 16) {
        if (utf8_state_accepts(state)) {
            resume_at = i;
            resume_state = state;
        }
        for (size_t k = 0; k < 16; k++) {
            state = utf8_shift_step(state, p[i + k]);
        }
        i += 16;
        if (utf8_state_dead(state)) {
            return utf8_validate_from(p, n, resume_at, resume_state, result);
        }
    }
    state = utf8_stream(state, p + i, n - i);
    if (utf8_state_accepts(state)) {
        result->valid_up_to = n;
        result->error_len = 0;
        return true;
    }
    return utf8_validate_from(p, n, resume_at, resume_state, result);
}
"#;
