//! Which path a validation takes: by input length, by what the ruleset's
//! derivation proved (a vector check of its own, the UTF-8 shortcut, or
//! neither), and by the vector level the CPU has ([`crate::cpu`]).
//!
//! Every entry point that validates a whole input or a stream's piece comes
//! here, so the thresholds that pick a path live in one place: a short input
//! is checked in one vector, where it costs no branch on its bytes; a long
//! one first reads a scalar lead, where an early error is cheaper found than
//! with vector registers set up; a dialect whose own check costs more than
//! UTF-8's goes through the UTF-8 shortcut ([`shortcut`]). [`Path`] names
//! each path on its own, for the workspace's tests and benchmarks
//! (`crate::paths`).

use crate::cpu::Level;
use crate::error::{PackedError, RulesetLabel, Utf8Error};
use crate::ruleset::Ruleset;
use crate::{shift, simd, tables};

pub(crate) mod shortcut;

/// RFC 3629 UTF-8: the ruleset of [`from_utf8`](crate::from_utf8), and the default of every
/// generic type here.
///
/// Defined with the dispatch rather than beside the [`Ruleset`] trait: its
/// validation is this module's, and this module's UTF-8 shortcut checks
/// other rulesets' inputs with it, so the trait stays below both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rfc3629;
crate::ruleset!(@impl Rfc3629, RulesetLabel::RFC3629, tables::rfc3629);
crate::ruleset!(@inherent pub Rfc3629);

/// Inputs shorter than this are one vector of the narrowest level (16
/// bytes), built in registers (or the shift DFA, where the CPU has no vector
/// level or the ruleset's check a pairing term); longer ones go to the
/// vector check at the widest level.
///
/// A short string checked in one vector costs no branch on its bytes: the
/// shift DFA's loops exit on the length and its ASCII skip on the bytes, and
/// on short strings of mixed lengths and scripts, one call each, those
/// mispredictions cost more than the whole vector check (see
/// `docs/performance.md`, section "Short strings in one vector").
pub const SIMD_THRESHOLD: usize = 16;

/// Inputs of this length and longer first read a scalar lead (`shift::lead`:
/// the ASCII at their start, and the first sequence after it); shorter ones
/// go to the vector check whole, where an early error costs no more than a
/// late one.
const LEAD_FROM: usize = 128;

/// How far the scalar lead goes on through ASCII: where `core::str` finds
/// an error in a Latin-1 file read as UTF-8 faster than vector registers
/// can be set up.
const SCALAR_LEAD_ASCII: usize = 256;

/// The fastest path this CPU has for `R`. Inlined into each entry point, so
/// that a short string pays for one call before the vector code, not a
/// chain of them.
///
/// Public for [`ruleset!`](crate::ruleset!)'s expansion, which writes each
/// ruleset's [`Ruleset::validate`] as a call of it.
#[inline(always)]
pub fn validate<R: Ruleset>(bytes: &[u8]) -> Result<(), Utf8Error> {
    if bytes.len() >= SIMD_THRESHOLD
        && R::TABLES.vector.available
        && !const { R::TABLES.shortcut_first() }
    {
        // The scalar lead takes the last return to the start state for the
        // end of the valid prefix, which holds only where no other state
        // accepts (WTF-8 also accepts after a lead surrogate).
        if bytes.len() < LEAD_FROM || !const { R::TABLES.automaton.only_start_accepts() } {
            validate_short::<R>(bytes).map_err(PackedError::unpack_as::<R>)
        } else {
            match shift::lead::<R>(bytes, SCALAR_LEAD_ASCII) {
                Ok(from) => {
                    validate_after_lead::<R>(bytes, from).map_err(PackedError::unpack_as::<R>)
                }
                Err(error) => Err(error),
            }
        }
    } else if bytes.len() >= SIMD_THRESHOLD && R::TABLES.shortcut.available {
        shortcut::validate::<R>(bytes)
    } else if bytes.len() < SIMD_THRESHOLD
        && let Some(result) = simd::validate_tiny_detected::<R>(bytes)
    {
        result
    } else {
        shift::validate_packed::<R>(bytes).map_err(PackedError::unpack_as::<R>)
    }
}

/// [`validate`] for a string too short for the scalar lead, in a ruleset
/// with a vector check: kept apart from [`validate_after_lead`], whose lead needs
/// registers that a short string would save and restore for nothing.
#[inline]
fn validate_short<R: Ruleset>(bytes: &[u8]) -> Result<(), PackedError> {
    match simd::validate_detected::<R>(bytes) {
        Some(result) => result.map_err(PackedError::pack),
        None => validate_without_vectors::<R>(bytes),
    }
}

/// The shift DFA, where the CPU has no vector level: out of line, so that
/// [`validate_short`] stays small where it has one, and its error packed to
/// come back in registers ([`PackedError`]).
#[cold]
#[inline(never)]
fn validate_without_vectors<R: Ruleset>(bytes: &[u8]) -> Result<(), PackedError> {
    shift::validate_packed::<R>(bytes)
}

/// [`validate`] for an input of at least [`LEAD_FROM`] bytes in a ruleset
/// with a vector check, from `from`, where the scalar lead left off; its
/// error is `R`'s, packed into two words ([`PackedError`]).
///
/// The lead itself is inlined into the entry point, so that an error it
/// finds returns without this call's register saves and with no result
/// passed through memory. The split pays only because this call returns
/// its error packed in two registers ([`PackedError`]): with a result that
/// comes back through memory, the caller's reload stalls and the split is
/// slower (see `docs/performance.md`, section "The scalar lead").
#[inline(never)]
fn validate_after_lead<R: Ruleset>(bytes: &[u8], from: usize) -> Result<(), PackedError> {
    let pack = |error: Utf8Error| {
        debug_assert_eq!(error.ruleset, R::TABLES.automaton.label);
        PackedError::pack(error)
    };
    let rest = &bytes[from..];
    let result = if rest.len() >= simd::BLOCK {
        simd::validate_detected::<R>(rest)
    } else {
        None
    };
    result
        .unwrap_or_else(|| shift::validate::<R>(rest))
        .map_err(|e| pack(e.offset_by(from)))
}

/// [`validate`] for a piece of a stream that has been valid so far, where
/// an error right at the start is no likelier than anywhere else: straight
/// to the vector check, without the scalar lead.
#[inline]
pub(crate) fn validate_piece<R: Ruleset>(bytes: &[u8]) -> Result<(), Utf8Error> {
    if bytes.len() >= SIMD_THRESHOLD
        && R::TABLES.vector.available
        && const { R::TABLES.automaton.only_start_accepts() }
        && let Some(result) = simd::validate_detected::<R>(bytes)
    {
        return result;
    }
    shift::validate::<R>(bytes)
}

/// A validation path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The class-table automaton, one byte at a time (what `from_utf8_const` runs).
    Automaton,
    /// The shift DFA with its ASCII skip (inputs under
    /// [`SIMD_THRESHOLD`] where the CPU has no vector level).
    Shift,
    /// The vectorised check at a level, then the automaton for the exact error.
    Simd(Level),
}

impl Path {
    /// Every path, whether or not this CPU runs it.
    pub const ALL: [Path; 7] = [
        Path::Automaton,
        Path::Shift,
        Path::Simd(Level::Portable),
        Path::Simd(Level::Sse41),
        Path::Simd(Level::Avx2),
        Path::Simd(Level::Avx512),
        Path::Simd(Level::Neon),
    ];
}

/// `R` on `path` alone: `None` where this build or CPU cannot run `path`,
/// or `path` is a vector level and `R` has no vector check of its own.
pub(crate) fn validate_on<R: Ruleset>(path: Path, bytes: &[u8]) -> Option<Result<(), Utf8Error>> {
    match path {
        Path::Automaton => Some(R::TABLES.automaton.validate_const(bytes)),
        Path::Shift => Some(shift::validate::<R>(bytes)),
        Path::Simd(level) => simd::validate_at::<R>(level, bytes),
    }
}
