//! Validation split at arbitrary byte positions, with the exact first error.
//!
//! A [`Summary`] of a chunk records, for every state the automaton could be
//! in when the chunk starts, where it ends up (or where it dies) and where
//! the last complete sequence in the chunk ends. That is the chunk's
//! transition function, and functions compose: summaries of consecutive
//! chunks merge with [`Summary::then`], associatively, and the merged
//! summary read from the start state ([`Summary::result`]) is exactly what
//! one-shot validation of the whole input returns, `valid_up_to` and
//! `error_len` included, however the input was cut, even inside a sequence.
//!
//! ```
//! use utf8_core::parallel::Summary;
//!
//! // "€" is E2 82 AC: cut inside it, and inside "💖" (F0 9F 92 96).
//! let text = "a € and a 💖".as_bytes();
//! let (first, rest) = text.split_at(3);
//! let (second, third) = rest.split_at(10);
//! // `Summary` alone is RFC 3629's; `Summary<R>` is ruleset `R`'s.
//! let summary: Summary = Summary::of(first).then(&Summary::of(second));
//! assert_eq!(summary.then(&Summary::of(third)).result(), Ok(()));
//!
//! // An input that ends inside a sequence, cut inside it.
//! let summary: Summary = Summary::of(b"ok \xF0\x9F").then(&Summary::of(b"\x92"));
//! let e = summary.result().unwrap_err();
//! assert_eq!((e.valid_up_to(), e.error_len()), (3, None));
//! ```
//!
//! With the `rayon` feature, `validate` and `from_utf8` cut a large
//! input into a few chunks per thread of rayon's pool, summarize the chunks
//! on all cores and merge the summaries in order.
//!
//! A summary holds one entry per state in a fixed array of [`CAPACITY`]
//! entries, so it needs no allocation and works without `std`. Every
//! built-in ruleset fits (the largest has 12 states); for a ruleset with
//! more states, [`Summary::SUPPORTED`] is false and `validate` validates
//! on one core.

use core::fmt;
use core::marker::PhantomData;

use crate::automaton::Progress;
use crate::dispatch::Rfc3629;
use crate::dispatch::shortcut;
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;

/// The most states, the dead one included, that a [`Summary`] has room for.
pub const CAPACITY: usize = 16;

/// Within this many bytes of a chunk's start the automaton's runs from every
/// start state have merged for every built-in ruleset (at the first
/// sequence boundary: at most 6 bytes), so agreement is checked after every
/// byte only this far; after that it is checked once a block, which keeps a
/// ruleset whose runs never merge from paying for the check on every byte.
const CONVERGE_WITHIN: usize = 64;

/// Where the run from one start state got to by the end of a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum End {
    /// Still alive, in this state.
    In(u8),
    /// Killed by the byte at this index.
    DiedAt(usize),
}

/// The run of the automaton over a chunk from one start state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Entry {
    /// The last position (0 to the chunk's length) where the automaton was
    /// in an accepting state, the chunk's start included: the end of the
    /// valid prefix if the input turns out to be invalid further on.
    last_accept: Option<usize>,
    end: End,
}

impl Entry {
    /// What the dead state's slot and unused slots hold, whatever the chunk,
    /// so that summaries of the same function compare equal. No run is ever
    /// looked up there: a run that dies is not continued.
    const UNUSED: Entry = Entry {
        last_accept: None,
        end: End::DiedAt(0),
    };

    /// This run followed by `next`, the run from where this one ended over a
    /// chunk that starts `offset` bytes later.
    #[inline]
    fn then(self, next: Entry, offset: usize) -> Entry {
        Entry {
            last_accept: next.last_accept.map(|at| offset + at).or(self.last_accept),
            end: match next.end {
                End::In(state) => End::In(state),
                End::DiedAt(at) => End::DiedAt(offset + at),
            },
        }
    }
}

/// What one chunk of an input does to a ruleset's automaton, from every
/// state it could start in: the summary of validation that merges.
///
/// [`of`](Self::of) summarizes a chunk, [`then`](Self::then) merges the
/// summaries of consecutive chunks (associatively, with
/// [`identity`](Self::identity) as the neutral element), and
/// [`result`](Self::result) reads off the verdict for an input that starts
/// where the summary starts. See the [module documentation](self).
pub struct Summary<R: Ruleset = Rfc3629> {
    /// The chunk's length, by which the positions of the next chunk shift.
    len: usize,
    /// One entry per start state; [`Entry::UNUSED`] for the dead state and
    /// beyond the ruleset's states.
    entries: [Entry; CAPACITY],
    /// `fn() -> R` so that a summary is `Send` and `Sync` whatever `R` is:
    /// it holds no `R`.
    ruleset: PhantomData<fn() -> R>,
}

impl<R: Ruleset> Summary<R> {
    /// Whether `R`'s automaton fits in a summary: at most [`CAPACITY`] states.
    pub const SUPPORTED: bool = R::TABLES.automaton.accepting.len() <= CAPACITY;

    /// Whether a chunk in the start state may be handed to `R::validate`:
    /// that treats its input as starting in the start state and reports the
    /// last accepting point as `valid_up_to`, which after an error tells
    /// where the next run must resume only if the start state is the one
    /// accepting state.
    const ONE_SHOT_RESUMES: bool = R::TABLES.automaton.only_start_accepts()
        && R::TABLES.automaton.is_accepting(R::TABLES.automaton.start);

    /// The summary of an empty chunk: every state stays where it is.
    ///
    /// # Panics
    ///
    /// If `R` has more than [`CAPACITY`] states (see [`SUPPORTED`](Self::SUPPORTED)).
    pub fn identity() -> Summary<R> {
        Self::assert_supported();
        Self::from_entries(0, |state| Entry {
            last_accept: R::TABLES.automaton.is_accepting(state).then_some(0),
            end: End::In(state),
        })
    }

    /// The summary of `chunk`.
    ///
    /// The runs from all start states are stepped together only until they
    /// agree (for UTF-8, by the first sequence boundary); the rest of the
    /// chunk is read once, on the same vector or shift-DFA path as one-shot
    /// validation when the runs agree on the start state.
    ///
    /// # Panics
    ///
    /// If `R` has more than [`CAPACITY`] states (see [`SUPPORTED`](Self::SUPPORTED)).
    pub fn of(chunk: &[u8]) -> Summary<R> {
        Self::assert_supported();
        Self::summarize(chunk)
    }

    /// The summary of this chunk followed by `next`, the chunk right after it.
    pub fn then(&self, next: &Summary<R>) -> Summary<R> {
        let mut entries = self.entries;
        for entry in entries.iter_mut() {
            if let End::In(state) = entry.end {
                *entry = entry.then(next.entries[state as usize], self.len);
            }
        }
        Summary {
            len: self.len + next.len,
            entries,
            ruleset: PhantomData,
        }
    }

    /// The verdict on an input that this summary covers from its first byte:
    /// what `R::validate` returns for the whole input.
    pub fn result(&self) -> Result<(), Utf8Error> {
        let automaton = &R::TABLES.automaton;
        let entry = self.entries[automaton.start as usize];
        // As in one-shot validation, the valid prefix is empty until a
        // sequence ends, whether or not the start state accepts.
        let valid_up_to = entry.last_accept.unwrap_or(0);
        match entry.end {
            End::In(state) if automaton.is_accepting(state) => Ok(()),
            End::In(_) => Err(automaton.incomplete(valid_up_to)),
            End::DiedAt(at) => Err(automaton.invalid(valid_up_to, at)),
        }
    }

    /// The number of bytes summarized.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no bytes were summarized.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn assert_supported() {
        assert!(
            Self::SUPPORTED,
            "the ruleset has more states than a Summary has room for"
        );
    }

    /// A summary with `entry(state)` for each state of `R` but the dead one.
    fn from_entries(len: usize, mut entry: impl FnMut(u8) -> Entry) -> Summary<R> {
        let automaton = &R::TABLES.automaton;
        let mut entries = [Entry::UNUSED; CAPACITY];
        for (state, slot) in entries.iter_mut().enumerate() {
            let state = state as u8;
            if (state as usize) < automaton.accepting.len() && state != automaton.dead {
                *slot = entry(state);
            }
        }
        Summary {
            len,
            entries,
            ruleset: PhantomData,
        }
    }

    /// [`of`](Self::of) for a ruleset known to fit.
    fn summarize(chunk: &[u8]) -> Summary<R> {
        let automaton = &R::TABLES.automaton;
        let mut summary = Self::from_entries(chunk.len(), |state| Entry {
            last_accept: automaton.is_accepting(state).then_some(0),
            end: End::In(state),
        });
        // The start states whose runs are still alive, each run's current
        // state kept in its entry.
        let mut live = [0u8; CAPACITY];
        let mut live_count = 0;
        for (state, entry) in summary.entries.iter().enumerate() {
            if let End::In(_) = entry.end {
                live[live_count] = state as u8;
                live_count += 1;
            }
        }
        let entries = &mut summary.entries;
        let mut at = 0;
        loop {
            if at < CONVERGE_WITHIN || at.is_multiple_of(CONVERGE_WITHIN) {
                let Some(first) = live[..live_count].first() else {
                    return summary;
                };
                let End::In(common) = entries[*first as usize].end else {
                    unreachable!("a live run is in a state");
                };
                let agree = live[..live_count]
                    .iter()
                    .all(|&start| entries[start as usize].end == End::In(common));
                if agree {
                    let rest = Self::run(common, &chunk[at..]);
                    for &start in &live[..live_count] {
                        let entry = &mut entries[start as usize];
                        *entry = entry.then(rest, at);
                    }
                    return summary;
                }
            }
            let Some(&byte) = chunk.get(at) else {
                return summary;
            };
            let mut index = 0;
            while index < live_count {
                let entry = &mut entries[live[index] as usize];
                let End::In(state) = entry.end else {
                    unreachable!("a live run is in a state");
                };
                let next = automaton.next(state, byte);
                if next == automaton.dead {
                    entry.end = End::DiedAt(at);
                    live_count -= 1;
                    live[index] = live[live_count];
                    continue;
                }
                entry.end = End::In(next);
                if automaton.is_accepting(next) {
                    entry.last_accept = Some(at + 1);
                }
                index += 1;
            }
            at += 1;
        }
    }

    /// The run from `state` over `bytes`, with positions relative to `bytes`
    /// (`last_accept` is `None` when no accepting point follows a byte).
    fn run(state: u8, bytes: &[u8]) -> Entry {
        let automaton = &R::TABLES.automaton;
        let from_automaton = |state: u8, bytes: &[u8]| match automaton.resume(state, bytes) {
            Ok(Progress { state, last_accept }) => Entry {
                last_accept,
                end: End::In(state),
            },
            Err((at, last_accept)) => Entry {
                last_accept,
                end: End::DiedAt(at),
            },
        };
        // WTF-8 and rulesets like it (an accepting state besides the start
        // state) cannot resume from one-shot validation's `valid_up_to`, but
        // the UTF-8 shortcut reports where its run ends, in which state.
        let by_shortcut =
            !Self::ONE_SHOT_RESUMES && R::TABLES.shortcut.available && !R::TABLES.vector.available;
        if !Self::ONE_SHOT_RESUMES && !by_shortcut {
            return from_automaton(state, bytes);
        }
        // Finish the sequence the chunk starts inside of, a byte at a time,
        // until the run is back at the start state, where the fast paths can
        // take over as at the start of an input.
        let mut head = Entry {
            last_accept: None,
            end: End::In(state),
        };
        let mut at = 0;
        while head.end != End::In(automaton.start) && at < bytes.len() {
            head = head.then(from_automaton(state_of(head), &bytes[at..at + 1]), at);
            if let End::DiedAt(_) = head.end {
                return head;
            }
            at += 1;
        }
        let rest = &bytes[at..];
        if rest.is_empty() {
            return head;
        }
        if by_shortcut {
            let tail = match shortcut::resume::<R>(rest) {
                Ok(Progress { state, last_accept }) => Entry {
                    last_accept,
                    end: End::In(state),
                },
                // The error does not say which byte killed the run when the
                // last accepting state was not the start; the automaton
                // reads the chunk again to find it. Only invalid input pays.
                Err(_) => from_automaton(automaton.start, rest),
            };
            return head.then(tail, at);
        }
        let tail = match R::validate(rest) {
            Ok(()) => Entry {
                last_accept: Some(rest.len()),
                end: End::In(automaton.start),
            },
            Err(error) => {
                // `valid_up_to` is a sequence boundary, in the start state (the
                // one accepting state). The automaton from there finds the
                // exact byte that kills it (`error_len` is capped and cannot
                // tell a lone invalid byte from a one-byte prefix) or the
                // state the chunk ends in, within a sequence's length.
                let boundary = error.valid_up_to();
                let after = from_automaton(automaton.start, &rest[boundary..]);
                let before = Entry {
                    last_accept: (boundary > 0).then_some(boundary),
                    end: End::In(automaton.start),
                };
                before.then(after, boundary)
            }
        };
        head.then(tail, at)
    }
}

/// The state a live run is in.
fn state_of(entry: Entry) -> u8 {
    match entry.end {
        End::In(state) => state,
        End::DiedAt(_) => unreachable!("only live runs are continued"),
    }
}

impl<R: Ruleset> Clone for Summary<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Ruleset> Copy for Summary<R> {}

impl<R: Ruleset> PartialEq for Summary<R> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.entries == other.entries
    }
}

impl<R: Ruleset> Eq for Summary<R> {}

impl<R: Ruleset> Default for Summary<R> {
    /// The [`identity`](Self::identity).
    fn default() -> Self {
        Self::identity()
    }
}

impl<R: Ruleset> fmt::Debug for Summary<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let states = R::TABLES.automaton.accepting.len().min(CAPACITY);
        f.debug_struct("Summary")
            .field("ruleset", &R::NAME)
            .field("len", &self.len)
            .field("entries", &&self.entries[..states])
            .finish()
    }
}

/// Inputs shorter than this are validated on one core: below it, handing
/// chunks to other threads costs more than it saves.
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub const PARALLEL_THRESHOLD: usize = 1 << 20;

/// Checks `bytes` against `R` on all the cores of rayon's thread pool, with
/// the result of `R::validate` (the exact first error).
///
/// The input is cut into chunks of [`chunk_len`] bytes, wherever the cuts
/// fall;
/// the chunks' [`Summary`]s are computed in parallel and merged in order.
/// Inputs under [`PARALLEL_THRESHOLD`], a pool of one thread, and rulesets
/// with more than [`CAPACITY`] states are validated on the calling thread.
///
/// ```
/// use utf8_core::{Rfc3629, parallel};
/// let text = "Grüße, 世界! ".repeat(200_000);
/// assert_eq!(parallel::validate::<Rfc3629>(text.as_bytes()), Ok(()));
/// ```
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub fn validate<R: Ruleset>(bytes: &[u8]) -> Result<(), Utf8Error> {
    use rayon::prelude::*;
    if bytes.len() < PARALLEL_THRESHOLD
        || rayon::current_num_threads() < 2
        || !Summary::<R>::SUPPORTED
    {
        return R::validate(bytes);
    }
    bytes
        .par_chunks(chunk_len(bytes.len()))
        .map(Summary::<R>::summarize)
        .reduce(Summary::identity, |left, right| left.then(&right))
        .result()
}

/// The length of the chunks that [`validate`] cuts an input of `len` bytes
/// into on the current thread pool (the last chunk may be shorter): about
/// four per thread, so that a thread that falls behind holds up little, and
/// at least [`PARALLEL_THRESHOLD`].
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub fn chunk_len(len: usize) -> usize {
    (len / (4 * rayon::current_num_threads())).max(PARALLEL_THRESHOLD)
}

/// [`crate::from_utf8`] on all cores: the same result, from [`validate`].
///
/// ```
/// let text = "Grüße, 世界! ".repeat(200_000);
/// assert_eq!(utf8_core::parallel::from_utf8(text.as_bytes()), Ok(text.as_str()));
/// let mut bytes = text.into_bytes();
/// bytes[1_500_000] = 0xFF;
/// let e = utf8_core::parallel::from_utf8(&bytes).unwrap_err();
/// assert_eq!(e, utf8_core::from_utf8(&bytes).unwrap_err());
/// ```
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub fn from_utf8(v: &[u8]) -> Result<&str, Utf8Error> {
    match validate::<Rfc3629>(v) {
        // SAFETY: `validate::<Rfc3629>` accepted all of `v`, with the same
        // result as `crate::from_utf8`: it is UTF-8.
        Ok(()) => Ok(unsafe { crate::str_cast::validated(v) }),
        Err(e) => Err(e),
    }
}
