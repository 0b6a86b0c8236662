//! One pass over an input in a fixed buffer: its valid bytes and its errors,
//! in order, exactly as validating the whole input at once finds them.
//!
//! `check` and `fix` both read every input, a file or standard input, through
//! [`stream`], so memory stays at one buffer however large the input is.
//!
//! Each buffer is summarized on all cores ([`Summary`], which carries the
//! automaton's state across the cut at the buffer's end exactly, whatever the
//! ruleset). A sequence cut by the end of the buffer is kept: it moves to the
//! front of the buffer, before the next bytes, so that an error that
//! straddles the cut is handed over whole, with the byte that broke it. After an error, validation starts afresh, as lossy decoding does
//! ([`utf8_core::Chunks`]); errors close together are found by one-shot
//! validation, which stops at each.

use utf8_core::Ruleset;
use utf8_core::parallel::{PARALLEL_THRESHOLD, Summary, chunk_len};

use crate::diagnosis::Invalid;
use crate::mapped::Mapping;

/// How many bytes `check` and `fix` read at a time: 4 MiB, or 1 MiB per
/// core on machines with more than four, up to 32 MiB.
///
/// Each buffer is read three times (copied in by the kernel, validated,
/// searched for line ends): while it stays within the caches the later
/// reads are cheap. With 4 MiB buffers a 1 GiB file in the page cache took
/// about two thirds of the CPU time it took with 16 MiB ones. A buffer is
/// validated in chunks of at least [`PARALLEL_THRESHOLD`] (1 MiB), so that
/// each core has one.
pub fn buffer_len() -> usize {
    #[cfg(debug_assertions)]
    if let Some(len) = crate::hooks::buffer_len() {
        return len;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores * PARALLEL_THRESHOLD).clamp(4 << 20, 32 << 20)
}

/// Where the bytes come from.
pub trait Fill {
    /// Reads into `buffer`: all of it unless the input ends first, or for
    /// an input whose bytes arrive as they are written (a pipe), what has
    /// arrived, so that it is checked as it comes. `true` once the input has
    /// ended (after what was read this time). The error is a one-line
    /// message naming the input.
    fn fill(&mut self, buffer: &mut [u8]) -> Result<(usize, bool), String>;

    /// [`fill`](Fill::fill) with the [`Summary`] of the bytes read, for an
    /// input that can be read at positions (a regular file): the buffer is
    /// read in chunks of [`FILL_CHUNK`] bytes on all cores, each chunk
    /// summarized by the thread that read it while its bytes are still in
    /// that core's cache. `None` where the input is read in order only (a
    /// pipe, standard input): then `fill` reads it and the pass summarizes.
    fn fill_summarized<R: Ruleset>(
        &mut self,
        buffer: &mut [u8],
    ) -> Option<Result<Summarized<R>, String>> {
        let _ = buffer;
        None
    }

    /// The whole input in memory, a mapped file (see [`crate::mapped`]),
    /// before anything was read: then the pass reads it there, a window at
    /// a time, with no copy. `None` where it is to be read.
    fn map_whole(&mut self) -> Option<Whole> {
        None
    }

    /// After a pass that reached the end of `whole`: an error if the input
    /// changed meanwhile, as [`fill`](Fill::fill) says at its end.
    fn whole_done(&mut self, whole: Whole) -> Result<(), String> {
        let _ = whole;
        Ok(())
    }
}

/// What [`Fill::map_whole`] hands over: the input is the first `len` bytes
/// of `mapping` (all of them, or none for an input skipped as binary).
pub struct Whole {
    pub mapping: Mapping,
    pub len: usize,
}

impl Whole {
    /// The input's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.mapping.bytes()[..self.len]
    }
}

/// What a [`Fill::fill_summarized`] read.
#[derive(Clone, Copy, Debug)]
pub struct Summarized<R: Ruleset> {
    /// How many bytes, as [`Fill::fill`] counts them.
    pub filled: usize,
    /// Whether the input has ended, as [`Fill::fill`] tells it.
    pub at_end: bool,
    /// The summary of the bytes read.
    pub summary: Summary<R>,
}

/// The bytes one thread reads and then summarizes in a
/// [`Fill::fill_summarized`]: the unit of parallel validation,
/// [`PARALLEL_THRESHOLD`]. A chunk is read and summarized by the same core,
/// so it must be large enough that a read's fixed cost outweighs the cache
/// misses of summarizing bytes no longer in L2: smaller chunks were slower
/// (see `docs/performance.md`, section "The command's chunks and windows").
pub const FILL_CHUNK: usize = PARALLEL_THRESHOLD;

/// What is done with the input as it is read.
pub trait Sink {
    type Error;

    /// Whether the sink uses the valid bytes only to place the errors after
    /// them (a position's line and column). A pass over an input in memory
    /// (a mapped file) then hands them over late, all at once before the
    /// next error, and not at all after the last one, where they would
    /// place nothing: a valid file is then never read a second time.
    const VALID_ONLY_PLACES_ERRORS: bool = false;

    /// The next valid bytes of the input. Consecutive calls may split the
    /// input anywhere between two sequences, never inside one.
    fn valid(&mut self, bytes: &[u8]) -> Result<(), Self::Error>;

    /// The next error; whether to go on to the next one.
    fn invalid(&mut self, found: &Found<'_>) -> Result<Flow, Self::Error>;

    /// The buffer is about to be refilled: `run` are the bytes of the
    /// current run (see [`Found::run`]) that it held before the bytes it
    /// keeps, the last of them read for the last time.
    fn cut(&mut self, run: Run<'_>) {
        let _ = run;
    }

    /// The bytes of a buffer, `read` bytes of the input so far, have been
    /// handled.
    fn buffer_done(&mut self, read: u64) -> Result<(), Self::Error> {
        let _ = read;
        Ok(())
    }
}

/// Whether to look for more errors after one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// The bytes of the current run (from where validation last started afresh:
/// the input's start or the end of the previous error) that are still in
/// the buffer.
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    pub bytes: &'a [u8],
    /// Whether the run starts at `bytes`' first byte; if not, it started in
    /// an earlier buffer, before the last [`Sink::cut`].
    pub starts_here: bool,
}

/// An error, with what explaining it takes.
#[derive(Clone, Copy, Debug)]
pub struct Found<'a> {
    /// Where it is, from the input's start.
    pub invalid: Invalid,
    /// Its bytes.
    pub subpart: &'a [u8],
    /// The byte after them, if the buffer holds it (it always does when
    /// that byte is what broke the sequence).
    pub following: Option<u8>,
    /// The valid bytes of the run before the error.
    pub run: Run<'a>,
}

/// Why a pass ended before the end of the input.
#[derive(Debug)]
pub enum Halt<E> {
    /// The input could not be read: a one-line message naming it.
    Read(String),
    /// The sink gave up.
    Sink(E),
}

/// A pass that read to the end, or up to an error after which the sink
/// stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Streamed {
    /// The bytes read.
    pub len: u64,
    /// Whether no error was found.
    pub valid: bool,
}

/// The bytes that a pass reads into, reused from one input to the next.
///
/// Fresh bytes are always read to the same cache-line-aligned place, with
/// room before it for the bytes kept from the last fill: the kernel copies
/// into an unaligned destination several times slower.
pub struct Buffer {
    bytes: Vec<u8>,
    /// Where fresh bytes are read to.
    fresh_at: usize,
    /// How many are read at a time.
    fresh: usize,
}

/// Room for the bytes kept from one fill to the next: the start of a
/// sequence cut by the buffer's end, at most 5 bytes in every built-in
/// ruleset (6-byte sequences of RFC 2279). More makes the room grow.
const KEPT_ROOM: usize = 64;
const CACHE_LINE: usize = 64;

impl Buffer {
    /// A buffer that reads `fresh` bytes at a time (at least one).
    pub fn new(fresh: usize) -> Buffer {
        Buffer::with_room(fresh.max(1), KEPT_ROOM)
    }

    /// The buffer `check` and `fix` read with.
    pub fn for_inputs() -> Buffer {
        Buffer::new(buffer_len())
    }

    fn with_room(fresh: usize, room: usize) -> Buffer {
        // Zeroed memory from the allocator is untouched memory: a small
        // input costs only the pages its bytes are read into.
        let bytes = vec![0; room + CACHE_LINE + fresh];
        let misaligned = (bytes.as_ptr() as usize + room) % CACHE_LINE;
        Buffer {
            fresh_at: room + (CACHE_LINE - misaligned) % CACHE_LINE,
            bytes,
            fresh,
        }
    }

    /// Moves `kept`, bytes of the last fill, to just before where the next
    /// fill goes; where they start.
    fn keep(&mut self, kept: std::ops::Range<usize>) -> usize {
        if kept.len() > self.fresh_at {
            let mut larger = Buffer::with_room(self.fresh, kept.len().next_multiple_of(KEPT_ROOM));
            let start = larger.fresh_at - kept.len();
            larger.bytes[start..larger.fresh_at].copy_from_slice(&self.bytes[kept]);
            *self = larger;
            return start;
        }
        let start = self.fresh_at - kept.len();
        self.bytes.copy_within(kept, start);
        start
    }
}

/// Reads `input` through `buffer` to its end, or until `sink` stops after an
/// error, handing `sink` the valid bytes and the errors in order.
pub fn stream<R: Ruleset, S: Sink>(
    input: &mut impl Fill,
    buffer: &mut Buffer,
    sink: &mut S,
) -> Result<Streamed, Halt<S::Error>> {
    if let Some(whole) = input.map_whole() {
        let streamed = stream_whole::<R, S>(&whole, mapped_window_len(), sink)?;
        if streamed.len == whole.len as u64 {
            input.whole_done(whole).map_err(Halt::Read)?;
        }
        return Ok(streamed);
    }
    let mut pass = Pass::<R>::new();
    // The buffer's bytes start here: those kept from the last fill, then
    // the fresh ones.
    let mut start = buffer.fresh_at;
    let mut read = 0;
    loop {
        let fresh_at = buffer.fresh_at;
        let fresh = &mut buffer.bytes[fresh_at..fresh_at + buffer.fresh];
        let (filled, at_end, summary) = match input.fill_summarized::<R>(fresh) {
            Some(summarized) => {
                let summarized = summarized.map_err(Halt::Read)?;
                (
                    summarized.filled,
                    summarized.at_end,
                    Some(summarized.summary),
                )
            }
            None => {
                let (filled, at_end) = input.fill(fresh).map_err(Halt::Read)?;
                (filled, at_end, None)
            }
        };
        read += filled as u64;
        let end = fresh_at + filled;
        let bytes = &buffer.bytes[start..end];
        let kept = fresh_at - start;
        let Scanned::KeepFrom(keep_from) = pass.scan(bytes, kept, summary, at_end, sink)? else {
            break;
        };
        sink.buffer_done(read).map_err(Halt::Sink)?;
        if at_end {
            break;
        }
        sink.cut(pass.run_in(bytes, keep_from));
        pass.base += keep_from as u64;
        start = buffer.keep(start + keep_from..end);
    }
    Ok(Streamed {
        len: read,
        valid: pass.valid,
    })
}

/// A sink whose valid bytes wait, as a range of the input in memory, for
/// the next error ([`Sink::VALID_ONLY_PLACES_ERRORS`]).
struct HeldBack<'m, 's, S> {
    input: &'m [u8],
    sink: &'s mut S,
    held: std::ops::Range<usize>,
}

impl<S: Sink> HeldBack<'_, '_, S> {
    fn hand_over(&mut self) -> Result<(), S::Error> {
        let held = std::mem::replace(&mut self.held, 0..0);
        if held.is_empty() {
            return Ok(());
        }
        self.sink.valid(&self.input[held])
    }
}

impl<S: Sink> Sink for HeldBack<'_, '_, S> {
    type Error = S::Error;

    fn valid(&mut self, bytes: &[u8]) -> Result<(), S::Error> {
        if bytes.is_empty() {
            return Ok(());
        }
        // A pass hands over slices of the input it reads: where this one
        // starts in it, by address.
        let at = (bytes.as_ptr() as usize).wrapping_sub(self.input.as_ptr() as usize);
        assert!(
            at <= self.input.len() && bytes.len() <= self.input.len() - at,
            "valid bytes from outside the input"
        );
        if self.held.is_empty() {
            self.held = at..at + bytes.len();
        } else {
            assert_eq!(self.held.end, at, "valid bytes handed over in order");
            self.held.end += bytes.len();
        }
        Ok(())
    }

    fn invalid(&mut self, found: &Found<'_>) -> Result<Flow, S::Error> {
        self.hand_over()?;
        self.sink.invalid(found)
    }

    fn cut(&mut self, run: Run<'_>) {
        self.sink.cut(run);
    }

    fn buffer_done(&mut self, read: u64) -> Result<(), S::Error> {
        self.sink.buffer_done(read)
    }
}

/// How many bytes of a mapped input [`stream`] summarizes at a time: 16 MiB
/// per core. Nothing is copied, so a window costs no memory, and it must be
/// large: the cores meet at the end of every window, each waiting there for
/// the other's page-table work, whose time varies from chunk to chunk, so
/// fewer windows mean fewer waits (a window of the read buffer's 1 MiB per
/// core was measured slower: see `docs/performance.md`, section "The
/// command's chunks and windows").
fn mapped_window_len() -> usize {
    #[cfg(debug_assertions)]
    if let Some(len) = crate::hooks::buffer_len() {
        return len;
    }
    rayon::current_num_threads() * (16 << 20)
}

/// [`stream`] over `whole`, in windows of `window` bytes: the bytes kept
/// from one window to the next are those before it in memory. The valid
/// bytes are held back for a sink that only places errors with them.
fn stream_whole<R: Ruleset, S: Sink>(
    whole: &Whole,
    window: usize,
    sink: &mut S,
) -> Result<Streamed, Halt<S::Error>> {
    if S::VALID_ONLY_PLACES_ERRORS {
        let mut held = HeldBack {
            input: whole.bytes(),
            sink,
            held: 0..0,
        };
        return stream_windows::<R, _>(whole, window, &mut held);
    }
    stream_windows::<R, S>(whole, window, sink)
}

/// [`stream_whole`], each valid byte handed to `sink` as it is found.
fn stream_windows<R: Ruleset, S: Sink>(
    whole: &Whole,
    window: usize,
    sink: &mut S,
) -> Result<Streamed, Halt<S::Error>> {
    let bytes = whole.bytes();
    let mut pass = Pass::<R>::new();
    let mut start = 0;
    let mut fresh_at = 0;
    loop {
        let end = bytes.len().min(fresh_at + window.max(1));
        let at_end = end == bytes.len();
        let fresh = summarize_mapped::<R>(&whole.mapping, fresh_at..end);
        let in_window = &bytes[start..end];
        let kept = fresh_at - start;
        let Scanned::KeepFrom(keep_from) = pass.scan(in_window, kept, Some(fresh), at_end, sink)?
        else {
            return Ok(Streamed {
                len: end as u64,
                valid: pass.valid,
            });
        };
        sink.buffer_done(end as u64).map_err(Halt::Sink)?;
        if at_end {
            return Ok(Streamed {
                len: end as u64,
                valid: pass.valid,
            });
        }
        #[cfg(debug_assertions)]
        if fresh_at == 0 {
            crate::hooks::pause_after_first_fill();
        }
        sink.cut(pass.run_in(in_window, keep_from));
        pass.base += keep_from as u64;
        start += keep_from;
        fresh_at = end;
    }
}

/// Where a pass is.
struct Pass<R: Ruleset> {
    /// The offset in the input of the buffer's first byte.
    base: u64,
    /// Where validation last started afresh.
    run_start: u64,
    /// The summary of the run up to the end of the bytes scanned so far.
    run: Summary<R>,
    valid: bool,
}

enum Scanned {
    /// The sink stopped after an error.
    Stopped,
    /// Everything before this index of the buffer has been handed to the
    /// sink; the rest is the start of a sequence that the next bytes may
    /// complete.
    KeepFrom(usize),
}

impl<R: Ruleset> Pass<R> {
    /// At the input's start.
    fn new() -> Pass<R> {
        Pass {
            base: 0,
            run_start: 0,
            run: Summary::identity(),
            valid: true,
        }
    }

    /// Hands `sink` the valid bytes and errors of `bytes`, the buffer, whose
    /// first `kept` bytes were scanned with the previous fill; `fresh` is
    /// the summary of the rest where the fill made it.
    fn scan<S: Sink>(
        &mut self,
        bytes: &[u8],
        kept: usize,
        fresh: Option<Summary<R>>,
        at_end: bool,
        sink: &mut S,
    ) -> Result<Scanned, Halt<S::Error>> {
        let fresh = fresh.unwrap_or_else(|| summarize(&bytes[kept..]));
        let run = self.run.then(&fresh);
        let mut handed = 0;
        match run.result() {
            Err(error) if error.error_len().is_some() => {
                let offset = self.index(error.valid_up_to());
                let len = error.error_len().unwrap_or_default();
                if self.found(bytes, &mut handed, offset, len, false, sink)? == Flow::Stop {
                    return Ok(Scanned::Stopped);
                }
                // Errors often come in clusters (each stray byte of a broken
                // text is one): one-shot validation stops at each, where a
                // summary would read all of the rest of the buffer every time.
                loop {
                    let rest = &bytes[handed..];
                    match R::validate(rest) {
                        Err(error) if error.error_len().is_some() => {
                            let offset = handed + error.valid_up_to();
                            let len = error.error_len().unwrap_or_default();
                            if self.found(bytes, &mut handed, offset, len, false, sink)?
                                == Flow::Stop
                            {
                                return Ok(Scanned::Stopped);
                            }
                        }
                        _ => {
                            self.run = summarize(rest);
                            break;
                        }
                    }
                }
            }
            _ => self.run = run,
        }
        let keep_from = match self.run.result() {
            Ok(()) => bytes.len(),
            Err(error) => self.index(error.valid_up_to()),
        };
        sink.valid(&bytes[handed..keep_from]).map_err(Halt::Sink)?;
        handed = keep_from;
        if at_end && keep_from < bytes.len() {
            let len = bytes.len() - keep_from;
            if self.found(bytes, &mut handed, keep_from, len, true, sink)? == Flow::Stop {
                return Ok(Scanned::Stopped);
            }
        }
        Ok(Scanned::KeepFrom(keep_from))
    }

    /// Hands `sink` the valid bytes from `handed` to the error at `offset`,
    /// then the error; starts the next run after it.
    fn found<S: Sink>(
        &mut self,
        bytes: &[u8],
        handed: &mut usize,
        offset: usize,
        len: usize,
        incomplete: bool,
        sink: &mut S,
    ) -> Result<Flow, Halt<S::Error>> {
        self.valid = false;
        sink.valid(&bytes[*handed..offset]).map_err(Halt::Sink)?;
        let found = Found {
            invalid: Invalid {
                offset: self.base + offset as u64,
                len,
                incomplete,
            },
            subpart: &bytes[offset..offset + len],
            following: bytes.get(offset + len).copied(),
            run: self.run_in(bytes, offset),
        };
        let flow = sink.invalid(&found).map_err(Halt::Sink)?;
        *handed = offset + len;
        self.run_start = self.base + *handed as u64;
        self.run = Summary::identity();
        Ok(flow)
    }

    /// The index in the buffer of the position `from_run_start` bytes into the run.
    fn index(&self, from_run_start: usize) -> usize {
        (self.run_start + from_run_start as u64 - self.base) as usize
    }

    /// The run's bytes in the buffer before index `end`.
    fn run_in<'b>(&self, bytes: &'b [u8], end: usize) -> Run<'b> {
        let starts_here = self.run_start >= self.base;
        let start = if starts_here {
            (self.run_start - self.base) as usize
        } else {
            0
        };
        Run {
            bytes: &bytes[start..end],
            starts_here,
        }
    }
}

/// The summary of `bytes`, on all cores when they are many: what
/// `utf8_core::parallel::validate` computes, kept to carry on with.
/// (Every built-in ruleset fits a summary; `Summary::of` panics on one with
/// more than 16 states.)
fn summarize<R: Ruleset>(bytes: &[u8]) -> Summary<R> {
    summarize_by(0..bytes.len(), |chunk| Summary::of(&bytes[chunk]))
}

/// The summary of `range` of `mapping`, as [`summarize`] makes it, each
/// chunk's pages mapped by the thread that summarizes it
/// ([`Mapping::populate`]), so that on several cores they are mapped side
/// by side.
fn summarize_mapped<R: Ruleset>(mapping: &Mapping, range: std::ops::Range<usize>) -> Summary<R> {
    summarize_by(range, |chunk| {
        mapping.populate(chunk.clone());
        Summary::of(&mapping.bytes()[chunk])
    })
}

/// The summary of `range`, from `summary_of` each chunk of it: the whole
/// range at once when it is short or there is one thread, else chunks of
/// [`chunk_len`] on all cores.
fn summarize_by<R: Ruleset>(
    range: std::ops::Range<usize>,
    summary_of: impl Fn(std::ops::Range<usize>) -> Summary<R> + Sync,
) -> Summary<R> {
    use rayon::prelude::*;
    if range.len() < PARALLEL_THRESHOLD || rayon::current_num_threads() < 2 {
        return summary_of(range);
    }
    let chunk = chunk_len(range.len());
    (0..range.len().div_ceil(chunk))
        .into_par_iter()
        .map(|index| {
            let start = range.start + index * chunk;
            summary_of(start..range.end.min(start + chunk))
        })
        .reduce(Summary::identity, |left, right| left.then(&right))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::{WithRuleset, with_ruleset};
    use crate::samples::{self, Memory};

    /// What a pass hands its sink, with adjacent valid bytes joined (a pass
    /// may split them wherever it likes between two sequences).
    #[derive(Debug, PartialEq, Eq)]
    enum Event {
        Valid(Vec<u8>),
        Invalid(Invalid, Vec<u8>),
    }

    fn push_valid(events: &mut Vec<Event>, bytes: &[u8]) {
        match events.last_mut() {
            Some(Event::Valid(valid)) => valid.extend_from_slice(bytes),
            _ if bytes.is_empty() => {}
            _ => events.push(Event::Valid(bytes.to_vec())),
        }
    }

    /// The events of `bytes` read whole, as lossy decoding splits them.
    fn whole<R: Ruleset>(bytes: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        let mut offset = 0;
        for chunk in utf8_core::Chunks::<R>::new(bytes) {
            push_valid(&mut events, chunk.valid());
            offset += chunk.valid().len();
            if !chunk.invalid().is_empty() {
                let invalid = Invalid {
                    offset: offset as u64,
                    len: chunk.invalid().len(),
                    incomplete: chunk.is_incomplete(),
                };
                events.push(Event::Invalid(invalid, chunk.invalid().to_vec()));
            }
            offset += chunk.invalid().len();
        }
        events
    }

    struct Record<'a, R> {
        events: Vec<Event>,
        input: &'a [u8],
        stop_after: usize,
        ruleset: std::marker::PhantomData<R>,
    }

    impl<R: Ruleset> Sink for Record<'_, R> {
        type Error = ();

        fn valid(&mut self, bytes: &[u8]) -> Result<(), ()> {
            assert!(
                R::validate(bytes).is_ok(),
                "cut inside a sequence: {bytes:02X?}"
            );
            push_valid(&mut self.events, bytes);
            Ok(())
        }

        fn invalid(&mut self, found: &Found<'_>) -> Result<Flow, ()> {
            let end = found.invalid.offset as usize + found.invalid.len;
            if let Some(following) = found.following {
                assert_eq!(Some(&following), self.input.get(end));
            }
            let run = found.run.bytes;
            assert_eq!(
                &self.input[end - found.invalid.len - run.len()..][..run.len()],
                run
            );
            self.events
                .push(Event::Invalid(found.invalid, found.subpart.to_vec()));
            let errors = self
                .events
                .iter()
                .filter(|e| matches!(e, Event::Invalid(..)));
            Ok(if errors.count() == self.stop_after {
                Flow::Stop
            } else {
                Flow::Continue
            })
        }
    }

    fn stream_events<R: Ruleset>(
        bytes: &[u8],
        fresh: usize,
        early_end: bool,
        stop_after: usize,
    ) -> (Vec<Event>, Streamed) {
        let mut record = Record::<R> {
            events: Vec::new(),
            input: bytes,
            stop_after,
            ruleset: std::marker::PhantomData,
        };
        let mut input = Memory {
            rest: bytes,
            early_end,
        };
        let streamed = stream::<R, _>(&mut input, &mut Buffer::new(fresh), &mut record)
            .expect("memory is always read");
        (record.events, streamed)
    }

    /// [`stream_events`] over `bytes` mapped from a file, in windows of
    /// `window` bytes; `None` where the platform maps nothing (or `bytes`
    /// is empty).
    fn mapped_events<R: Ruleset>(bytes: &[u8], window: usize) -> Option<(Vec<Event>, Streamed)> {
        use std::io::Write;
        let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
        file.write_all(bytes).expect("written");
        let mapping = Mapping::of(file.as_file(), bytes.len()).expect("mapped")?;
        let whole = Whole {
            mapping,
            len: bytes.len(),
        };
        let mut record = Record::<R> {
            events: Vec::new(),
            input: bytes,
            stop_after: 0,
            ruleset: std::marker::PhantomData,
        };
        let streamed = stream_whole::<R, _>(&whole, window, &mut record).expect("a map is read");
        Some((record.events, streamed))
    }

    /// A [`Record`] that only places errors with the valid bytes.
    struct Placing<'a, R>(Record<'a, R>);

    impl<R: Ruleset> Sink for Placing<'_, R> {
        type Error = ();
        const VALID_ONLY_PLACES_ERRORS: bool = true;

        fn valid(&mut self, bytes: &[u8]) -> Result<(), ()> {
            self.0.valid(bytes)
        }

        fn invalid(&mut self, found: &Found<'_>) -> Result<Flow, ()> {
            self.0.invalid(found)
        }
    }

    #[test]
    fn a_mapped_pass_holds_valid_bytes_back_until_an_error_for_a_sink_that_only_places_errors() {
        use std::io::Write;
        for (name, bytes) in samples::all() {
            let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
            file.write_all(&bytes).expect("written");
            let Some(mapping) = Mapping::of(file.as_file(), bytes.len()).expect("mapped") else {
                continue;
            };
            let mut expected = whole::<utf8_core::Rfc3629>(&bytes);
            if matches!(expected.last(), Some(Event::Valid(_))) {
                expected.pop();
            }
            let input = Whole {
                mapping,
                len: bytes.len(),
            };
            for window in [1, 3, 64, bytes.len() + 1] {
                let mut placing = Placing(Record::<utf8_core::Rfc3629> {
                    events: Vec::new(),
                    input: &bytes,
                    stop_after: 0,
                    ruleset: std::marker::PhantomData,
                });
                let streamed = stream_whole::<utf8_core::Rfc3629, _>(&input, window, &mut placing)
                    .expect("a map is read");
                assert_eq!(placing.0.events, expected, "{name}, {window}-byte windows");
                assert_eq!(streamed.len, bytes.len() as u64);
            }
        }
    }

    struct PiecesMatchTheWhole;

    impl WithRuleset for PiecesMatchTheWhole {
        type Output = ();

        fn call<R: Ruleset>(self) {
            for (name, bytes) in samples::all() {
                let expected = whole::<R>(&bytes);
                let errors = expected
                    .iter()
                    .filter(|e| matches!(e, Event::Invalid(..)))
                    .count();
                for fresh in (1..=17).chain([64, 4096, bytes.len() + 1]) {
                    if let Some((events, streamed)) = mapped_events::<R>(&bytes, fresh) {
                        assert_eq!(events, expected, "{} {name}, {fresh}-byte windows", R::NAME);
                        assert_eq!(streamed.valid, errors == 0);
                        assert_eq!(streamed.len, bytes.len() as u64);
                    }
                    let (events, streamed) = stream_events::<R>(&bytes, fresh, fresh % 2 == 0, 0);
                    assert_eq!(events, expected, "{} {name}, {fresh}-byte buffers", R::NAME);
                    assert_eq!(streamed.valid, errors == 0);
                    assert_eq!(streamed.len, bytes.len() as u64);
                    if errors > 0 {
                        let (first, _) = stream_events::<R>(&bytes, fresh, false, 1);
                        assert_eq!(
                            first.last(),
                            expected.iter().find(|e| matches!(e, Event::Invalid(..)))
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_pass_in_buffers_of_any_size_finds_what_reading_the_whole_input_finds() {
        for ruleset in utf8_spec::rulesets::BUILTIN {
            with_ruleset(ruleset.name, PiecesMatchTheWhole).expect("built-in");
        }
    }

    #[test]
    fn bytes_kept_beyond_the_room_for_them_grow_it() {
        // No built-in ruleset keeps more than 5 bytes: keep 150 by hand.
        let mut buffer = Buffer::new(300);
        let pattern: Vec<u8> = (0..150).collect();
        let at = buffer.fresh_at;
        buffer.bytes[at..at + 150].copy_from_slice(&pattern);
        let start = buffer.keep(at..at + 150);
        assert_eq!(buffer.bytes[start..buffer.fresh_at], pattern);
        assert!(
            buffer.bytes.len() - buffer.fresh_at >= 300,
            "room for a whole fill"
        );
        assert_eq!(
            (buffer.bytes.as_ptr() as usize + buffer.fresh_at) % CACHE_LINE,
            0
        );
    }
}
