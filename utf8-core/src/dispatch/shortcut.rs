//! The UTF-8 shortcut of a ruleset without a vector check of its own, or
//! with one that costs more than UTF-8's (CESU-8, WTF-8, and user rulesets
//! like them; modified UTF-8 for conversions): RFC 3629's
//! vector check and a scan for the few bytes on which the ruleset and UTF-8
//! part settle most of the input; the ruleset's own automaton reads only the
//! sequences around where they part, and the shortcut takes over again
//! after them.
//!
//! The derivation (`utf8_spec::utf8_shortcut`) proved that valid UTF-8
//! without those bytes is valid under the ruleset and leaves its automaton
//! in the start state at every UTF-8 sequence boundary: so wherever the
//! shortcut stops, at a boundary, the ruleset's automaton can start afresh.
//!
//! Where the ruleset has a vector check of its own that costs more than the
//! shortcut's (CESU-8's and WTF-8's, with a pairing term), the shortcut
//! goes first and that check reads on where it stops, in windows that grow
//! while the shortcut keeps stopping soon after (text dense with surrogate
//! pairs) instead of the automaton.
//!
//! Where the generator proved a vector check for that language itself
//! (valid UTF-8 without the forbidden bytes: CESU-8's is UTF-8 without
//! `F0-FF`, sequences of at most three bytes), the shortcut is that one
//! check, which stops at the first place the shortcut cannot settle;
//! otherwise (and on the paths without vectors) it is RFC 3629's check and
//! then the scan.

use super::Path;
use super::Rfc3629;
use crate::automaton::Progress;
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;
use crate::scan;
use crate::shift::{self, Walked};
use crate::simd::{self, ShortcutLanguage, VectorLanguage};

/// Which checks the shortcut runs, and where.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Via {
    /// One-shot validation at the level detected: RFC 3629's check keeps
    /// its scalar lead, which finds an error at the very start cheaply.
    OneShot,
    /// A stream's piece at the level detected, straight to the vector check.
    Piece,
    /// The path that `crate::paths` names, for tests and benchmarks; the
    /// caller has made sure that this CPU runs it.
    Path(Path),
}

impl Via {
    /// The vector check of `L` (`R`'s shortcut language, or `R` itself),
    /// where `L` has one and this path runs vectors (the vector entry
    /// points answer `None` for a language without a check).
    #[inline(always)]
    fn vector<L: VectorLanguage>(self, bytes: &[u8]) -> Option<Result<(), Utf8Error>> {
        match self {
            Via::OneShot | Via::Piece => simd::validate_detected::<L>(bytes),
            Via::Path(Path::Simd(level)) => simd::validate_at::<L>(level, bytes),
            Via::Path(_) => None,
        }
    }

    /// RFC 3629's check.
    #[inline(always)]
    fn utf8(self, bytes: &[u8]) -> Result<(), Utf8Error> {
        match self {
            Via::OneShot => super::validate::<Rfc3629>(bytes),
            Via::Piece => super::validate_piece::<Rfc3629>(bytes),
            Via::Path(path) => match super::validate_on::<Rfc3629>(path, bytes) {
                Some(result) => result,
                None => unreachable!("the caller checked that this CPU runs {path:?}"),
            },
        }
    }
}

/// How many bytes the ruleset's automaton reads, at least, after the
/// shortcut stops, before the shortcut is tried again. Doubled each time
/// the shortcut then settles less than that (text dense with surrogate
/// pairs, where each try costs more than it saves), reset after a long
/// stretch.
const FIRST_WINDOW: usize = 64;

/// How many bytes a ruleset's own vector check reads, at least, after the
/// shortcut stops (CESU-8's and WTF-8's, which cost more per block than the
/// shortcut's): enough to pay for setting it up. Doubled and reset as
/// [`FIRST_WINDOW`] is.
const FIRST_VECTOR_WINDOW: usize = 1024;

/// How much of the start of `bytes` the shortcut settles: the longest
/// prefix that is valid UTF-8 without a byte on which `R` and UTF-8 part,
/// ending at a UTF-8 sequence boundary. `R`'s automaton is in its start
/// state there. Also whether a parting byte (rather than UTF-8's own rules)
/// stopped it: such a byte may be valid under `R` and frequent, and
/// trying the shortcut again after each would read the text between them
/// twice.
///
/// The language's own check stops at the first place where the shortcut
/// cannot settle, so it reads nothing twice, and no parting counts as a
/// forbidden byte's.
#[inline(always)]
fn settled<R: Ruleset>(bytes: &[u8], via: Via) -> (usize, bool) {
    if let Some(result) = via.vector::<ShortcutLanguage<R>>(bytes) {
        // The language's valid prefix ends a sequence of it: a UTF-8
        // sequence boundary.
        return match result {
            Ok(()) => (bytes.len(), false),
            Err(e) => (e.valid_up_to(), false),
        };
    }
    let (parting, by_forbidden) = match via.utf8(bytes) {
        Ok(()) => match scan::find_forbidden::<R>(bytes) {
            None => return (bytes.len(), false),
            Some(at) => (at, true),
        },
        Err(e) => {
            let valid = e.valid_up_to();
            match scan::find_forbidden::<R>(&bytes[..valid]) {
                Some(at) => (at, true),
                None => (valid, false),
            }
        }
    };
    // A parting byte may continue a sequence: the boundary is at its lead.
    let mut boundary = parting;
    while boundary > 0 && Rfc3629::TABLES.vector.is_continuation[bytes[boundary] as usize] {
        boundary -= 1;
    }
    (boundary, by_forbidden)
}

/// The next window after the shortcut settled `settled_len` bytes after a
/// window of `window`: doubled while the shortcut settles less than a
/// window, back to `first` after it settles more.
#[inline]
fn next_window(window: usize, settled_len: usize, first: usize) -> usize {
    if settled_len < window {
        window.saturating_mul(2)
    } else {
        first
    }
}

/// Validates `bytes` under `R`, which has the UTF-8 shortcut: the one-shot
/// path of the dialects.
pub(crate) fn validate<R: Ruleset>(bytes: &[u8]) -> Result<(), Utf8Error> {
    validate_with::<R>(bytes, Via::OneShot)
}

/// [`validate`] with the checks `via` names: `crate::paths` names one
/// vector level. The whole input is one run of [`resume_with`]; where it
/// ends outside an accepting state, the input ends inside a sequence.
pub(crate) fn validate_with<R: Ruleset>(bytes: &[u8], via: Via) -> Result<(), Utf8Error> {
    let automaton = &R::TABLES.automaton;
    let Progress { state, last_accept } = resume_with::<R>(bytes, via)?;
    if automaton.is_accepting(state) {
        Ok(())
    } else {
        Err(automaton.incomplete(last_accept.unwrap_or(0)))
    }
}

/// Steps `R`'s automaton, in its start state at `bytes[0]`, through `bytes`
/// by the shortcut, for a stream: where it got to, as
/// [`Automaton::resume`](crate::automaton::Automaton::resume) tells it, or
/// the exact error (positions relative to `bytes`, whose start is a
/// sequence boundary). A stream's pieces go straight to the vector check.
pub(crate) fn resume<R: Ruleset>(bytes: &[u8]) -> Result<Progress, Utf8Error> {
    resume_with::<R>(bytes, Via::Piece)
}

/// [`resume`] with the checks `via` names.
fn resume_with<R: Ruleset>(bytes: &[u8], via: Via) -> Result<Progress, Utf8Error> {
    debug_assert!(R::TABLES.shortcut.available);
    let automaton = &R::TABLES.automaton;
    let mut at = 0;
    let mut last_accept = None;
    let mut window = FIRST_WINDOW;
    let mut vector_window = FIRST_VECTOR_WINDOW;
    loop {
        let (len, by_forbidden) = settled::<R>(&bytes[at..], via);
        if len > 0 {
            at += len;
            last_accept = Some(at);
        }
        if at == bytes.len() {
            return Ok(Progress {
                state: automaton.start,
                last_accept,
            });
        }
        // The shortcut stopped where `R`'s automaton is in its start state;
        // `R`'s own check, where it has one, reads on to a point where the
        // automaton is back there if the input is valid.
        if R::TABLES.vector.available {
            let end = simd::restart_point::<R>(bytes, at.saturating_add(vector_window));
            if end > at {
                match via.vector::<R>(&bytes[at..end]) {
                    Some(Ok(())) => {
                        (at, last_accept) = (end, Some(end));
                        vector_window = next_window(vector_window, len, FIRST_VECTOR_WINDOW);
                        continue;
                    }
                    Some(Err(error)) if error.error_len().is_some() => {
                        return Err(error.offset_by(at));
                    }
                    // No vectors on this path, or an input that ends
                    // inside a sequence at `end` only because it is
                    // invalid right after: the automaton reads on.
                    _ => {}
                }
            }
        }
        let window_now = if by_forbidden { usize::MAX } else { window };
        match shift::walk::<R>(bytes, at, window_now)? {
            Walked::Boundary(next) => {
                at = next;
                last_accept = Some(at);
            }
            Walked::End { last_start } => {
                // The start state accepts: the valid prefix reaches
                // `last_start`, and the few bytes after it tell the rest.
                if last_start > 0 {
                    last_accept = Some(last_start);
                }
                let tail = &bytes[last_start..];
                return match automaton.resume(automaton.start, tail) {
                    Ok(progress) => Ok(Progress {
                        state: progress.state,
                        last_accept: progress
                            .last_accept
                            .map(|end| last_start + end)
                            .or(last_accept),
                    }),
                    Err((index, tail_accept)) => Err(automaton.invalid(
                        tail_accept.map_or(last_start, |end| last_start + end),
                        last_start + index,
                    )),
                };
            }
        }
        window = next_window(window, len, FIRST_WINDOW);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialects::cesu8::Cesu8;
    use crate::dialects::mutf8::Mutf8;
    use crate::dialects::wtf8::Wtf8;
    use alloc::vec::Vec;

    /// A lead and a trail surrogate (U+1F600 in CESU-8), and a lone lead
    /// surrogate (valid in WTF-8 only at the end or before a non-trail).
    const PAIR: &[u8] = b"\xED\xA0\xBD\xED\xB8\x80";
    const LEAD: &[u8] = b"\xED\xA0\xBD";

    fn by_automaton<R: Ruleset>(bytes: &[u8]) -> Result<(), Utf8Error> {
        R::TABLES.automaton.validate_const(bytes)
    }

    fn by_automaton_resume<R: Ruleset>(bytes: &[u8]) -> Result<Progress, Utf8Error> {
        let automaton = &R::TABLES.automaton;
        automaton
            .resume(automaton.start, bytes)
            .map_err(|(index, last_accept)| automaton.invalid(last_accept.unwrap_or(0), index))
    }

    /// Text of `len` bytes with `special` every `gap` bytes of ASCII and a
    /// few two- and three-byte characters between.
    fn text(len: usize, gap: usize, special: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let filler = "aé€b".as_bytes();
        while out.len() < len {
            for _ in 0..gap / filler.len() {
                out.extend_from_slice(filler);
            }
            out.extend_from_slice(special);
        }
        out
    }

    fn agrees<R: Ruleset>(bytes: &[u8]) {
        assert_eq!(
            validate::<R>(bytes),
            by_automaton::<R>(bytes),
            "{}",
            R::NAME
        );
        assert_eq!(
            resume::<R>(bytes),
            by_automaton_resume::<R>(bytes),
            "{}",
            R::NAME
        );
    }

    #[test]
    fn the_shortcut_agrees_with_the_automaton_whatever_the_density_of_partings() {
        for gap in [0, 4, 20, 60, 100, 300, 1000, 5000] {
            for special in [
                PAIR,
                LEAD,
                b"\xC0\x80",
                b"\x00",
                b"\xF0\x9F\x98\x80",
                b"\xFF",
            ] {
                let mut bytes = text(20_000, gap, special);
                agrees::<Cesu8>(&bytes);
                agrees::<Mutf8>(&bytes);
                agrees::<Wtf8>(&bytes);
                // Cut inside the last special sequence, and after a stray byte late on.
                bytes.truncate(bytes.len() - 1);
                agrees::<Cesu8>(&bytes);
                agrees::<Mutf8>(&bytes);
                agrees::<Wtf8>(&bytes);
                let late = bytes.len() - 7;
                bytes[late] = 0x80;
                agrees::<Cesu8>(&bytes);
                agrees::<Mutf8>(&bytes);
                agrees::<Wtf8>(&bytes);
            }
        }
    }

    #[test]
    fn the_window_doubles_while_partings_come_close_and_resets_after_a_long_stretch() {
        assert_eq!(next_window(64, 10, FIRST_WINDOW), 128);
        assert_eq!(next_window(128, 127, FIRST_WINDOW), 256);
        assert_eq!(next_window(256, 256, FIRST_WINDOW), FIRST_WINDOW);
        assert_eq!(next_window(usize::MAX, 0, FIRST_WINDOW), usize::MAX);
        assert_eq!(
            next_window(4096, 5000, FIRST_VECTOR_WINDOW),
            FIRST_VECTOR_WINDOW
        );
    }
}
