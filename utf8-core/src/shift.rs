//! The portable path: the shift DFA, with runs of ASCII skipped 16 bytes at a
//! time at sequence boundaries. Also the path for inputs under 16 bytes where
//! the CPU has no vector level or the ruleset's check a pairing term, and
//! for the scalar lead of longer ones.

use crate::error::{PackedError, Utf8Error};
use crate::ruleset::{Ruleset, ShiftRow};

/// Bytes per step of the ASCII skip and per check for the dead state.
const CHUNK: usize = 16;
const HIGH_BITS: u128 = u128::from_ne_bytes([0x80; CHUNK]);

/// Validates `bytes` with the shift DFA of `R`, compiled for BMI2 where the
/// CPU has it: a step's variable shift is then one `shrx` instead of a
/// three-µop `shr` by `cl`, and the step is the whole dependency chain.
#[inline]
pub(crate) fn validate<R: Ruleset>(bytes: &[u8]) -> Result<(), Utf8Error> {
    validate_packed::<R>(bytes).map_err(PackedError::unpack_as::<R>)
}

/// [`validate`] with its error packed into two words (`R`'s ruleset left
/// out), for callers that merge it with other outcomes: it then comes back
/// in registers, not through memory (see `crate::error::PackedError`).
#[inline]
pub(crate) fn validate_packed<R: Ruleset>(bytes: &[u8]) -> Result<(), PackedError> {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    if crate::cpu::has_bmi2() {
        // SAFETY: `has_bmi2` found BMI2 on this CPU.
        return unsafe { validate_bmi2::<R>(bytes) };
    }
    validate_inline::<R>(bytes).map_err(PackedError::pack)
}

/// The shift DFA compiled with BMI2 (`shrx`), its error packed into two
/// words: returned in registers, where the three-word `Utf8Error` would
/// come back through memory and keep the caller's other outcomes there too
/// (see `crate::error::PackedError`).
///
/// # Safety
/// The CPU must support BMI2.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
#[target_feature(enable = "bmi2")]
unsafe fn validate_bmi2<R: Ruleset>(bytes: &[u8]) -> Result<(), PackedError> {
    validate_inline::<R>(bytes).map_err(PackedError::pack)
}

/// The shift-DFA loop, inlined into each instruction-set variant.
#[inline(always)]
fn validate_inline<R: Ruleset>(bytes: &[u8]) -> Result<(), Utf8Error> {
    if !R::TABLES.shift.available {
        return R::TABLES.automaton.validate_const(bytes);
    }
    let skip_ascii = const { R::TABLES.automaton.ascii_loops_at_start() };
    let rows = &R::TABLES.shift.rows;
    let mask = R::TABLES.shift.field_mask;
    let mut state = R::TABLES.shift.start;
    // The last chunk boundary where the state accepted: an exact error is
    // found by the class-table automaton from there.
    let mut good = 0;
    let mut good_state = R::TABLES.shift.start;
    let mut chunks = bytes.chunks_exact(CHUNK);
    for (i, chunk) in chunks.by_ref().enumerate() {
        let chunk: &[u8; CHUNK] = chunk.try_into().expect("chunks_exact");
        let at = i * CHUNK;
        if R::TABLES.shift.accepting.bit(state.and(mask)) {
            good = at;
            good_state = state;
        }
        if skip_ascii
            && state.and(mask) == R::TABLES.shift.start
            && u128::from_ne_bytes(*chunk) & HIGH_BITS == 0
        {
            continue;
        }
        for &byte in chunk {
            state = rows[byte as usize].step(state);
        }
        // The dead state keeps itself, so one test a chunk finds it.
        if state.and(mask) == R::TABLES.shift.dead {
            return Err(exact::<R>(bytes, good, good_state).unpack_as::<R>());
        }
    }
    let tail_start = bytes.len() - chunks.remainder().len();
    if R::TABLES.shift.accepting.bit(state.and(mask)) {
        good = tail_start;
        good_state = state;
    }
    for &byte in chunks.remainder() {
        state = rows[byte as usize].step(state);
    }
    if R::TABLES.shift.accepting.bit(state.and(mask)) {
        Ok(())
    } else {
        Err(exact::<R>(bytes, good, good_state).unpack_as::<R>())
    }
}

/// Where [`walk`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Walked {
    /// At this point, at least the window on, the DFA is back in its start
    /// state: a sequence boundary where a faster path can take over.
    Boundary(usize),
    /// The input ended first; the DFA was last seen in its start state here
    /// (at a chunk's end, or where the walk began). Whether the input ends
    /// valid, and in which state, the class-table automaton tells from there
    /// in a few steps.
    End {
        /// A point where the DFA was in its start state, near the end.
        last_start: usize,
    },
}

/// Steps the DFA of `R` over `bytes` from `from`, where it is in its start
/// state: through at least `window` bytes, 16 at a time as [`validate`]
/// does, then on to the next point where it is back in its start state.
/// The UTF-8 shortcut (`crate::dispatch::shortcut`) hands it the text
/// around the sequences where a dialect and UTF-8 part; the exact error if
/// the DFA dies.
#[inline]
pub(crate) fn walk<R: Ruleset>(
    bytes: &[u8],
    from: usize,
    window: usize,
) -> Result<Walked, Utf8Error> {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    if crate::cpu::has_bmi2() {
        // SAFETY: `has_bmi2` found BMI2 on this CPU.
        return unsafe { walk_bmi2::<R>(bytes, from, window) };
    }
    walk_inline::<R>(bytes, from, window)
}

/// [`walk`] compiled with BMI2 (`shrx`).
///
/// # Safety
/// The CPU must support BMI2.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
#[target_feature(enable = "bmi2")]
unsafe fn walk_bmi2<R: Ruleset>(
    bytes: &[u8],
    from: usize,
    window: usize,
) -> Result<Walked, Utf8Error> {
    walk_inline::<R>(bytes, from, window)
}

#[inline(always)]
fn walk_inline<R: Ruleset>(bytes: &[u8], from: usize, window: usize) -> Result<Walked, Utf8Error> {
    if !R::TABLES.shift.available {
        return walk_by_automaton::<R>(bytes, from, window);
    }
    let mask = R::TABLES.shift.field_mask;
    let stop = from.saturating_add(window).min(bytes.len());
    let mut state = R::TABLES.shift.start;
    // As in `validate_inline`: the last chunk boundary where the state
    // accepted, for the exact error; and the last where it was the start.
    let mut good = from;
    let mut good_state = state;
    let mut last_start = from;
    let (chunks, _) = bytes[from..stop].as_chunks::<CHUNK>();
    let mut at = from;
    for chunk in chunks {
        for &byte in chunk {
            state = R::TABLES.shift.rows[byte as usize].step(state);
        }
        at += CHUNK;
        let offset = state.and(mask);
        if offset == R::TABLES.shift.dead {
            return Err(exact::<R>(bytes, good, good_state).unpack_as::<R>());
        }
        if R::TABLES.shift.accepting.bit(offset) {
            (good, good_state) = (at, state);
        }
        if offset == R::TABLES.shift.start {
            last_start = at;
        }
    }
    // One byte at a time from here: the rest of the window, then on to the
    // next return to the start state.
    while at < bytes.len() {
        let offset = state.and(mask);
        if offset == R::TABLES.shift.start {
            if at >= stop {
                return Ok(Walked::Boundary(at));
            }
            last_start = at;
        }
        if R::TABLES.shift.accepting.bit(offset) {
            (good, good_state) = (at, state);
        }
        state = R::TABLES.shift.rows[bytes[at] as usize].step(state);
        if state.and(mask) == R::TABLES.shift.dead {
            return Err(exact::<R>(bytes, good, good_state).unpack_as::<R>());
        }
        at += 1;
    }
    if state.and(mask) == R::TABLES.shift.start {
        last_start = at;
    }
    Ok(Walked::End { last_start })
}

#[cold]
fn walk_by_automaton<R: Ruleset>(
    bytes: &[u8],
    from: usize,
    window: usize,
) -> Result<Walked, Utf8Error> {
    let automaton = &R::TABLES.automaton;
    let stop = from.saturating_add(window).min(bytes.len());
    let mut state = automaton.start;
    let mut valid_up_to = from;
    let mut last_start = from;
    let mut at = from;
    while at < bytes.len() {
        if state == automaton.start {
            if at >= stop {
                return Ok(Walked::Boundary(at));
            }
            last_start = at;
        }
        state = automaton.next(state, bytes[at]);
        if state == automaton.dead {
            return Err(automaton.invalid(valid_up_to, at));
        }
        at += 1;
        if automaton.is_accepting(state) {
            valid_up_to = at;
        }
    }
    if state == automaton.start {
        last_start = at;
    }
    Ok(Walked::End { last_start })
}

/// Whether every byte of `bytes` lies in `floor..=%x7F`, for a `floor` of
/// 0 or 1: each whole chunk and the chunk that ends the input, folded into
/// two words (their high bits, and for a floor of 1 the classic test for a
/// zero byte: borrows reach a byte's high bit only past a zero byte) and
/// tested once, so that a short string costs a few loads and one branch.
#[inline(always)]
pub(crate) fn short_all_in(bytes: &[u8], floor: u8) -> bool {
    debug_assert!(floor <= 1);
    let Some(last) = bytes.last_chunk::<CHUNK>() else {
        return bytes.iter().all(|&byte| byte >= floor && byte < 0x80);
    };
    let ones = u128::from_ne_bytes([1; CHUNK]);
    let fold = |(high, zero): (u128, u128), chunk: &[u8; CHUNK]| {
        let word = u128::from_ne_bytes(*chunk);
        (high | word, zero | (word.wrapping_sub(ones) & !word))
    };
    let (high, zero) = bytes
        .as_chunks::<CHUNK>()
        .0
        .iter()
        .fold(fold((0, 0), last), fold);
    let zero = if floor == 0 { 0 } else { zero };
    (high | zero) & HIGH_BITS == 0
}

/// Reads the start of an input: on through its first `ascii_limit` bytes
/// while they are ASCII, then the first sequence that is not (whole, even
/// where it runs past the limit), one byte at a time. Returns the exact
/// error if the automaton dies there, otherwise the end of the last
/// complete sequence read (where a faster path can start as at the start
/// of an input). Only for rulesets whose start state is their one
/// accepting state, as the vector check requires.
///
/// An error early in text that is mostly ASCII (a Latin-1 file read as
/// UTF-8, whose first byte that is not ASCII is the error) is then found
/// here, 32 bytes a test, without paying for vector set-up; text that is
/// valid pays for one sequence of shift-DFA steps, not for a fixed stretch
/// of them. Where the lead stops is only where the vector check starts: a
/// sequence it reads short or from an ASCII byte before it leaves a true
/// sequence boundary all the same, but it must never step past a byte that
/// is not ASCII.
///
/// It tests 32 bytes a step and writes the sequence's steps out, and every
/// error of `validate` comes back packed in registers ([`validate_packed`]):
/// faster than 16 bytes a test with the DFA's loop at each position of an
/// error measured in the first 256 bytes (see `docs/performance.md`,
/// section "The scalar lead").
///
/// Always inlined: it returns a three-word `Result`, which an outlined call
/// hands back through memory, and the caller's wider reload of it stalls
/// store forwarding (see `crate::error::PackedError`).
#[inline(always)]
pub(crate) fn lead<R: Ruleset>(bytes: &[u8], ascii_limit: usize) -> Result<usize, Utf8Error> {
    let lead = &bytes[..bytes.len().min(ascii_limit)];
    let mut at = 0;
    if const { R::TABLES.automaton.ascii_loops_at_start() } {
        for chunk in lead.as_chunks::<LEAD_STEP>().0 {
            let words = lead_words(chunk);
            // One mask a step: where the step finds no byte past ASCII,
            // which in the lead is every step but the last, it costs a load
            // and an `or` a word, as `core::str`'s ASCII loop does.
            if (words[0] | words[1] | words[2] | words[3]) & HIGH_WORD_BITS != 0 {
                at += first_not_ascii(words);
                break;
            }
            at += LEAD_STEP;
        }
    }
    // The sequence may run past the ASCII limit: read whole, its error is
    // found here too, not by the vector check after it.
    let max_len = R::TABLES.vector.max_sequence_len;
    if R::TABLES.shift.available
        && max_len <= SEQUENCE_WINDOW
        && let Some(window) = bytes[at..].first_chunk::<SEQUENCE_WINDOW>()
    {
        // A sequence of a constant length, which the compiler writes out
        // step by step: no loop counter or end test between the steps.
        let (_, boundary) = lead_bytes::<R>(&window[..max_len], R::TABLES.shift.start, at, at)?;
        return Ok(boundary);
    }
    let sequence = &bytes[at..bytes.len().min(at + max_len)];
    if !R::TABLES.shift.available {
        return lead_by_automaton::<R>(sequence, at);
    }
    let (_, boundary) = lead_bytes::<R>(sequence, R::TABLES.shift.start, at, at)?;
    Ok(boundary)
}

/// Bytes per step of the lead's ASCII loop: four words, tested together.
const LEAD_STEP: usize = 32;
/// Bytes read for the lead's first sequence where the input has them: any
/// ruleset's longest sequence fits.
const SEQUENCE_WINDOW: usize = 8;
const HIGH_WORD_BITS: u64 = u64::from_ne_bytes([0x80; 8]);

/// A step of the lead as four little-endian words, the first byte lowest.
#[inline(always)]
fn lead_words(chunk: &[u8; LEAD_STEP]) -> [u64; 4] {
    let (words, _) = chunk.as_chunks::<8>();
    core::array::from_fn(|i| u64::from_le_bytes(words[i]))
}

/// Where the first byte past ASCII lies in a step of the lead that has one.
#[inline(always)]
fn first_not_ascii(words: [u64; 4]) -> usize {
    debug_assert!(words.iter().any(|word| word & HIGH_WORD_BITS != 0));
    let high = |i: usize| u128::from(words[i] & HIGH_WORD_BITS);
    let (first, second) = (high(0) | high(1) << 64, high(2) | high(3) << 64);
    // Little-endian: the lowest set bit is in the first byte that is not
    // ASCII.
    if first != 0 {
        first.trailing_zeros() as usize / 8
    } else {
        16 + second.trailing_zeros() as usize / 8
    }
}

/// Steps the shift DFA over `bytes`, which start at `at` in the lead;
/// returns the state and the last sequence boundary, or the exact error.
#[inline(always)]
fn lead_bytes<R: Ruleset>(
    bytes: &[u8],
    mut state: R::Row,
    mut boundary: usize,
    at: usize,
) -> Result<(R::Row, usize), Utf8Error> {
    let mask = R::TABLES.shift.field_mask;
    for (i, &byte) in bytes.iter().enumerate() {
        state = R::TABLES.shift.rows[byte as usize].step(state);
        let offset = state.and(mask);
        if offset == R::TABLES.shift.dead {
            // The start state is the one accepting state here, so the last
            // return to it is where the valid prefix ends.
            return Err(R::TABLES.automaton.invalid(boundary, at + i));
        }
        if offset == R::TABLES.shift.start {
            boundary = at + i + 1;
        }
    }
    Ok((state, boundary))
}

/// [`lead`] by the automaton, where the shift DFA was not derived: the
/// first `sequence`, which starts at `at`, where the ASCII before it ends.
#[cold]
fn lead_by_automaton<R: Ruleset>(sequence: &[u8], at: usize) -> Result<usize, Utf8Error> {
    let automaton = &R::TABLES.automaton;
    let mut state = automaton.start;
    let mut boundary = at;
    for (i, &byte) in sequence.iter().enumerate() {
        state = automaton.next(state, byte);
        if state == automaton.dead {
            return Err(R::TABLES.automaton.invalid(boundary, at + i));
        }
        if state == automaton.start {
            boundary = at + i + 1;
        }
    }
    Ok(boundary)
}

/// The exact error, from a point where the shift DFA was in accepting state
/// `state`: one step at a time, noting where the valid prefix ends, until
/// the DFA dies (or the input ends inside a sequence). Packed, as
/// `validate_bmi2`'s is, to come back in registers.
#[cold]
#[inline(never)]
fn exact<R: Ruleset>(bytes: &[u8], from: usize, state: R::Row) -> PackedError {
    let mask = R::TABLES.shift.field_mask;
    let mut state = state;
    let mut valid_up_to = from;
    for (i, &byte) in bytes.iter().enumerate().skip(from) {
        state = R::TABLES.shift.rows[byte as usize].step(state);
        let offset = state.and(mask);
        if offset == R::TABLES.shift.dead {
            return PackedError::pack(R::TABLES.automaton.invalid(valid_up_to, i));
        }
        if R::TABLES.shift.accepting.bit(offset) {
            valid_up_to = i + 1;
        }
    }
    debug_assert!(
        !R::TABLES.shift.accepting.bit(state.and(mask)),
        "exact() is only called on invalid input"
    );
    PackedError::pack(R::TABLES.automaton.incomplete(valid_up_to))
}
