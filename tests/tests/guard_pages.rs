//! Every public entry point on slices that touch a page no one may read.
//!
//! Each input is copied into memory from `mmap` between two `PROT_NONE`
//! pages, so that the slice either starts at the first byte after a guard
//! page or ends at the last byte before one. Then a read even one byte
//! outside the slice faults, whatever the byte would have done to the verdict
//! (the guard bytes of `paths.rs` catch only reads that change one). A fault
//! kills the test binary with SIGSEGV; a handler installed first prints which
//! entry point touched which address, how far outside its slice, and on
//! which input, then lets the fault take its course. Every answer is also
//! held against a reference: `core::str` for RFC 3629, the dialect's
//! byte-at-a-time `validate_const` for the others.
//!
//! # What is swept, and why
//!
//! The vector check reads 64-byte blocks on a grid set by the slice's
//! address, tests its error register once per group of 4 blocks (256 bytes)
//! and after runs of ASCII, and reads a failing group's blocks again to find
//! the first failing one. Where it reads depends on the slice's start
//! alignment, its length, and where the first error sits among blocks and
//! groups. A slice that ends at a page end starts at alignment `-len mod 64`,
//! so every length from 0 to 700 gives every alignment eleven times, each
//! time with the end elsewhere in the grid; a slice that starts at a page
//! start is aligned, and the length moves only its end. (A read before a
//! slice that starts inside a block is for the Miri set,
//! `utf8-core/tests/miri_bounds.rs`, to catch.) Each length is
//! filled with two texts ("é" repeated, as in the report, and a mix of one-
//! to four-byte characters) and carries either no error or one of seven
//! kinds (a stray continuation byte, a sequence cut off in mid-text, an
//! overlong form, a surrogate, a code point above U+10FFFF, an invalid byte
//! F5–FF, a sequence cut off by the end), the positional kinds at bytes 0
//! and 1, at two before to one after every multiple of 64, and last.
//!
//! - `from_utf8`, `from_utf8_mut`, `from_utf8_const`, and every path of
//!   `paths::rfc3629` and `paths::legacy31` that this CPU runs, get that
//!   whole grid, plus the slice that fills its page exactly (guarded on both
//!   sides): the vector code is there, each call costs a microsecond or two,
//!   and forcing each path runs every vector level the CPU has rather than
//!   only the best one.
//! - The entry points that reach the same code through more layers (each
//!   dialect's `validate`, the `Validator` fed whole and in pieces,
//!   `utf8_chunks`, `decode`, `from_utf8_lossy`, `parallel::validate` below
//!   its threshold, the two `io` adapters) get a coarser grid of lengths:
//!   0–8, four either side of 64, 128, 256 and 512, every length of 160–224
//!   (each alignment once), and 300, 332 and 700, with the errors placed as
//!   above and in the middle. What these add is how they cut and hand on
//!   their input, and that is the same at every length: the coarse grid puts
//!   each of their cuts against both edges at every alignment. The
//!   `Validator` gets its pieces both as sub-slices of the guarded input and
//!   each copied against a guard page of its own, so that a read past any
//!   piece faults, not only past the last.
//! - `parallel::validate` also gets inputs over its threshold of 1 MiB, cut
//!   into two and three chunks, with the errors at the start, at 150 and
//!   300, next to each cut and 150 and 312 bytes after it, and last.
//!
//! The whole file takes about 5 s of CPU in the `test` profile, 3 s on two
//! cores: about 1–1.5 s for each dense sweep, under 1 s for each other test.

#![cfg(target_os = "linux")]

use std::cell::Cell;
use std::fmt::{self, Write as _};
use std::io::{self, BufRead, Read};
use std::sync::Once;
use std::sync::atomic::{AtomicPtr, Ordering};

use utf8_core::legacy31::Legacy31;
use utf8_core::parallel::{self, PARALLEL_THRESHOLD};
use utf8_core::paths::{self, Path};
use utf8_core::{
    Rfc3629, Ruleset, Utf8Error, ValidatingBufReader, ValidatingReader, Validator, cesu8, legacy31,
    mutf8, rfc2279, wtf8,
};
use utf8_tests::{Hex, error_parts, std_error_parts};

/// What validation says: `Ok`, or `(valid_up_to, error_len)`.
type Verdict = Result<(), (usize, Option<usize>)>;

/// One-shot validation in one ruleset, as a function pointer.
type Validate = fn(&[u8]) -> Result<(), Utf8Error>;

/// `paths::rfc3629` or `paths::legacy31`.
type PathFn = fn(Path, &[u8]) -> Option<Result<(), Utf8Error>>;

/// The longest input of the sweeps: eleven blocks, into a third group.
const LONGEST: usize = 700;

fn verdict(result: Result<(), Utf8Error>) -> Verdict {
    result.map_err(|error| error_parts(&error))
}

fn std_verdict(bytes: &[u8]) -> Verdict {
    core::str::from_utf8(bytes)
        .map(drop)
        .map_err(|error| std_error_parts(&error))
}

/// The verdict of a function that returns the input as a `&str`, which must
/// be the input itself.
fn str_verdict(bytes: &[u8], result: Result<&str, Utf8Error>) -> Verdict {
    let text = result.map_err(|error| error_parts(&error))?;
    assert_eq!(
        (text.as_ptr(), text.len()),
        (bytes.as_ptr(), bytes.len()),
        "the string is not the input"
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// Memory with a guard page on each side.

/// Which edge of the read-write pages a slice is placed against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge {
    Start,
    End,
}

const EDGES: [Edge; 2] = [Edge::Start, Edge::End];

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Edge::Start => "starting at a page start",
            Edge::End => "ending at a page end",
        })
    }
}

/// Read-write pages between two pages that fault on any access.
struct GuardedPages {
    mapping: *mut u8,
    page: usize,
    /// The read-write bytes, a whole number of pages.
    usable: usize,
}

impl GuardedPages {
    /// At least `bytes` read-write bytes (and at least one page).
    fn new(bytes: usize) -> GuardedPages {
        // SAFETY: sysconf reads a constant of the system; no pointer is involved.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let page = usize::try_from(page).expect("a page size");
        let usable = bytes.div_ceil(page).max(1) * page;
        // SAFETY: an anonymous private mapping at an address of the kernel's
        // choosing overlaps no memory that Rust knows of.
        let mapping = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                usable + 2 * page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(
            mapping,
            libc::MAP_FAILED,
            "mmap: {}",
            io::Error::last_os_error()
        );
        let mapping = mapping.cast::<u8>();
        for guard in [0, page + usable] {
            // SAFETY: `guard .. guard + page` is a page-aligned page of the
            // mapping made above (`page + usable + page` bytes long), to which
            // no reference exists yet.
            let result =
                unsafe { libc::mprotect(mapping.add(guard).cast(), page, libc::PROT_NONE) };
            assert_eq!(result, 0, "mprotect: {}", io::Error::last_os_error());
        }
        GuardedPages {
            mapping,
            page,
            usable,
        }
    }

    /// `len` bytes against `edge`: the first right after the leading guard
    /// page, or the last right before the trailing one.
    fn slice(&mut self, edge: Edge, len: usize) -> &mut [u8] {
        assert!(len <= self.usable, "{len} bytes in {} pages", self.usable);
        let offset = match edge {
            Edge::Start => self.page,
            Edge::End => self.page + self.usable - len,
        };
        // SAFETY: `offset .. offset + len` lies within the read-write pages
        // (`page .. page + usable`, as `len <= usable`), which stay mapped
        // while `self` lives, and the `&mut self` borrow makes this slice the
        // only reference to them.
        unsafe { std::slice::from_raw_parts_mut(self.mapping.add(offset), len) }
    }

    /// `bytes`, copied against `edge`.
    fn place(&mut self, edge: Edge, bytes: &[u8]) -> &mut [u8] {
        let slice = self.slice(edge, bytes.len());
        slice.copy_from_slice(bytes);
        slice
    }
}

impl Drop for GuardedPages {
    fn drop(&mut self) {
        // SAFETY: exactly the mapping `new` made; no slice of it outlives
        // `self`, as each borrows `self`.
        let result = unsafe { libc::munmap(self.mapping.cast(), self.usable + 2 * self.page) };
        // Panicking in a drop would hide the failure that is unwinding.
        debug_assert_eq!(result, 0, "munmap: {}", io::Error::last_os_error());
    }
}

// ---------------------------------------------------------------------------
// Saying who faulted: a note of the running call on each thread, printed by a
// SIGSEGV handler, so that a crash names its entry point and input.

/// An input of a sweep.
#[derive(Clone, Copy, Debug)]
struct Case {
    edge: Edge,
    len: usize,
    /// The text around the error.
    text: &'static str,
    /// What is wrong, and where.
    error: Option<(&'static str, usize)>,
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes of {} {}", self.len, self.text, self.edge)?;
        match self.error {
            Some((kind, at)) => write!(f, ", with {kind} at {at}"),
            None => f.write_str(", valid"),
        }
    }
}

/// An entry point under test, as a failure names it.
#[derive(Clone, Copy, Debug)]
enum Entry {
    Named(&'static str),
    Cut(&'static str, usize),
    Rfc3629(Path),
    Legacy31(Path),
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Named(name) => f.write_str(name),
            Entry::Cut(name, cut) => write!(f, "{name}, pieces of {cut} bytes"),
            Entry::Rfc3629(path) => write!(f, "paths::rfc3629({path:?})"),
            Entry::Legacy31(path) => write!(f, "paths::legacy31({path:?})"),
        }
    }
}

/// What this thread is running, for the fault handler.
#[derive(Clone, Copy)]
struct Note {
    entry: Entry,
    case: Case,
    start: usize,
    len: usize,
}

thread_local! {
    static NOTE: Cell<Option<Note>> = const { Cell::new(None) };
}

/// The note of a call that hands its work to other threads (rayon's), for a
/// fault on a thread that noted nothing; null between such calls.
static SHARED_NOTE: AtomicPtr<Note> = AtomicPtr::new(std::ptr::null_mut());

/// Notes that `entry` is about to run on `case`, whose guarded bytes are
/// `slice`, and makes sure the handler that reports a fault is installed.
fn watch(entry: Entry, case: Case, slice: &[u8]) -> Note {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(install_fault_report);
    let note = Note {
        entry,
        case,
        start: slice.as_ptr() as usize,
        len: slice.len(),
    };
    NOTE.set(Some(note));
    note
}

/// Runs `call` with `note` shared with the threads it hands work to.
fn sharing<T>(note: &Note, call: impl FnOnce() -> T) -> T {
    SHARED_NOTE.store(std::ptr::from_ref(note).cast_mut(), Ordering::Release);
    let result = call();
    SHARED_NOTE.store(std::ptr::null_mut(), Ordering::Release);
    result
}

fn install_fault_report() {
    // SAFETY: a zeroed `sigaction` is a valid value (empty mask, no flags),
    // and the handler has the three-argument form that `SA_SIGINFO` asks for.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = report_fault as extern "C" fn(_, _, _) as libc::sighandler_t;
        action.sa_flags = libc::SA_SIGINFO;
        assert_eq!(
            libc::sigaction(libc::SIGSEGV, &action, std::ptr::null_mut()),
            0,
            "sigaction: {}",
            io::Error::last_os_error()
        );
    }
}

/// Text for the handler to write, formatted without allocating.
struct Message {
    bytes: [u8; 512],
    len: usize,
}

impl fmt::Write for Message {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = self.bytes.len() - self.len;
        let take = s.len().min(room);
        self.bytes[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

/// Prints the note of the faulting thread, then restores the default action,
/// so that the faulting load runs again and the process dies of SIGSEGV, as
/// a crash should look to the test harness. The address is the first byte
/// the load could not read: for a vector load that runs from the slice into
/// the page after it, the page's first byte, "byte 1 past the end".
extern "C" fn report_fault(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: with SA_SIGINFO the kernel passes a valid `siginfo_t`, whose
    // `si_addr` is the faulting address for SIGSEGV.
    let address = unsafe { (*info).si_addr() } as usize;
    let mut message = Message {
        bytes: [0; 512],
        len: 0,
    };
    // The note is a plain `Copy` value of a const-initialized thread local:
    // reading it neither allocates nor locks.
    let shared = SHARED_NOTE.load(Ordering::Acquire);
    let note = match NOTE.try_with(Cell::get) {
        Ok(Some(note)) => Some(note),
        // SAFETY: a non-null shared note lives in the frame of `sharing`,
        // which clears it before returning, and was written before it was
        // published (release, then acquire here).
        _ if !shared.is_null() => Some(unsafe { *shared }),
        _ => None,
    };
    let _ = match note {
        Some(note) => {
            let end = note.start + note.len;
            // Counted so that the first byte outside either end is 1.
            let (distance, side) = if address >= end {
                (address - end + 1, "past the end of")
            } else {
                (note.start.saturating_sub(address), "before the start of")
            };
            writeln!(
                message,
                "guard_pages: {} read {address:#x}, byte {distance} {side} its {}-byte slice: {}",
                note.entry, note.len, note.case
            )
        }
        None => writeln!(
            message,
            "guard_pages: a thread with no case noted read {address:#x}"
        ),
    };
    // SAFETY: `message.bytes[..len]` is initialized; write(2) and sigaction(2)
    // are async-signal-safe.
    unsafe {
        libc::write(2, message.bytes.as_ptr().cast(), message.len);
        libc::signal(libc::SIGSEGV, libc::SIG_DFL);
    }
}

// ---------------------------------------------------------------------------
// The inputs.

/// Valid text that fills any length: its units in turn, then ASCII.
struct Filler {
    name: &'static str,
    units: &'static [&'static str],
}

const FILLERS: [Filler; 2] = [
    Filler {
        name: "\"é\" text",
        units: &["é"],
    },
    Filler {
        name: "mixed text",
        units: &["€", "ñ", "中", "a", "💖"],
    },
];

impl Filler {
    /// The units in turn, at least `len` bytes of them.
    fn text(&self, len: usize) -> String {
        let period = self.units.concat();
        period.repeat(len / period.len() + 1)
    }
}

/// Appends `len` bytes: the longest prefix of whole characters of `text`
/// that fits, then `a`s.
fn fill(out: &mut Vec<u8>, text: &str, len: usize) {
    let mut whole = len.min(text.len());
    while !text.is_char_boundary(whole) {
        whole -= 1;
    }
    out.extend_from_slice(&text.as_bytes()[..whole]);
    out.resize(out.len() + len - whole, b'a');
}

/// A kind of error, in one or more forms.
struct Kind {
    name: &'static str,
    /// The forms, used in turn by position.
    forms: &'static [&'static [u8]],
    /// Whether the form must end the input (a sequence cut off by the end).
    at_end: bool,
}

const KINDS: [Kind; 7] = [
    Kind {
        name: "a stray continuation byte",
        forms: &[b"\x80", b"\xBF"],
        at_end: false,
    },
    Kind {
        name: "a sequence cut off in mid-text",
        forms: &[b"\xC3", b"\xE2\x82", b"\xF0\x9F\x92"],
        at_end: false,
    },
    Kind {
        name: "an overlong form",
        forms: &[
            b"\xC0\x80",
            b"\xE0\x9F\xBF",
            b"\xC1\xBF",
            b"\xF0\x8F\xBF\xBF",
        ],
        at_end: false,
    },
    Kind {
        name: "a surrogate",
        forms: &[b"\xED\xA0\x80", b"\xED\xBF\xBF"],
        at_end: false,
    },
    Kind {
        name: "a code point above U+10FFFF",
        forms: &[b"\xF4\x90\x80\x80", b"\xF4\xBF\xBF\xBF"],
        at_end: false,
    },
    Kind {
        name: "an invalid byte",
        forms: &[
            b"\xF5", b"\xF6", b"\xF7", b"\xF8", b"\xF9", b"\xFA", b"\xFB", b"\xFC", b"\xFD",
            b"\xFE", b"\xFF",
        ],
        at_end: false,
    },
    Kind {
        name: "a sequence cut off by the end",
        forms: &[b"\xC3", b"\xE2\x82", b"\xF0\x9F\x92"],
        at_end: true,
    },
];

/// The inputs of a sweep: lengths, and where in each the errors go.
struct Grid {
    fillers: &'static [Filler],
    lengths: Vec<usize>,
    positions: fn(usize) -> Vec<usize>,
}

impl Grid {
    /// Every length up to [`LONGEST`] and `also`, errors at every block
    /// boundary.
    fn dense(also: usize) -> Grid {
        Grid {
            fillers: &FILLERS,
            lengths: (0..=LONGEST).chain([also]).collect(),
            positions: at_block_boundaries,
        }
    }

    /// Lengths at and around each block boundary up to two groups, one of
    /// each alignment, and the report's; errors at every block boundary and
    /// in the middle.
    fn coarse() -> Grid {
        let mut lengths: Vec<usize> = (0..=8).chain(160..=224).collect();
        for boundary in [64, 128, 256, 512] {
            lengths.extend(boundary - 4..=boundary + 4);
        }
        lengths.extend([300, 332, LONGEST]);
        Grid {
            fillers: &FILLERS,
            lengths,
            positions: |len| {
                let mut positions = at_block_boundaries(len);
                positions.push(len / 2);
                positions
            },
        }
    }
}

/// Bytes 0 and 1, two before to one after each multiple of 64, and the last.
fn at_block_boundaries(len: usize) -> Vec<usize> {
    let mut positions = vec![0, 1];
    for boundary in (64..len).step_by(64) {
        positions.extend(boundary - 2..=boundary + 1);
    }
    positions.push(len.saturating_sub(1));
    positions
}

/// Builds `len` bytes of filler `text` with `form` at `at` into `out`.
fn build(out: &mut Vec<u8>, text: &str, len: usize, error: Option<(&[u8], usize)>) {
    out.clear();
    match error {
        None => fill(out, text, len),
        Some((form, at)) => {
            fill(out, text, at);
            out.extend_from_slice(form);
            fill(out, text, len - at - form.len());
        }
    }
}

/// Runs `check` on every input of `grid` at both edges of `memory`.
fn sweep(memory: &mut GuardedPages, grid: &Grid, mut check: impl FnMut(Case, &mut [u8])) {
    let mut bytes = Vec::new();
    let mut placed = Vec::new();
    let longest = grid.lengths.iter().copied().max().unwrap_or(0);
    for edge in EDGES {
        for filler in grid.fillers {
            let text = filler.text(longest);
            for &len in &grid.lengths {
                let mut case = Case {
                    edge,
                    len,
                    text: filler.name,
                    error: None,
                };
                build(&mut bytes, &text, len, None);
                check(case, memory.place(edge, &bytes));
                for kind in &KINDS {
                    let positions = if kind.at_end {
                        vec![len; kind.forms.len()]
                    } else {
                        (grid.positions)(len)
                    };
                    placed.clear();
                    for (index, &position) in positions.iter().enumerate() {
                        let form = kind.forms[(index + position) % kind.forms.len()];
                        let Some(at) = len.checked_sub(form.len()).map(|last| position.min(last))
                        else {
                            continue;
                        };
                        if placed.contains(&(at, form)) {
                            continue;
                        }
                        placed.push((at, form));
                        case.error = Some((kind.name, at));
                        build(&mut bytes, &text, len, Some((form, at)));
                        check(case, memory.place(edge, &bytes));
                    }
                }
            }
        }
    }
}

/// Fails with the entry point, the case and the bytes unless `got` is `want`.
#[track_caller]
fn expect<T: PartialEq + fmt::Debug>(entry: Entry, case: Case, bytes: &[u8], got: T, want: T) {
    if got != want {
        panic!(
            "{entry} on {case}: got {got:?}, want {want:?}\ninput: {}",
            Hex(bytes)
        );
    }
}

/// The paths of `run` that this CPU runs.
fn forced_paths(run: PathFn) -> Vec<Path> {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    x86_levels_are_offered_as_detected(run);
    Path::ALL
        .into_iter()
        .filter(|&path| run(path, b"").is_some())
        .collect()
}

/// Checks that `run` offers each x86 vector level exactly when the CPU has
/// its features, so that a level the CPU has cannot go untested unnoticed.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
fn x86_levels_are_offered_as_detected(run: PathFn) {
    use utf8_core::cpu::Level;
    let levels = [
        (Level::Sse41, std::is_x86_feature_detected!("sse4.1")),
        (Level::Avx2, std::is_x86_feature_detected!("avx2")),
        (
            Level::Avx512,
            std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw"),
        ),
    ];
    for (level, detected) in levels {
        assert_eq!(
            run(Path::Simd(level), b"").is_some(),
            detected,
            "{level:?} is offered unlike the CPU's features say"
        );
    }
}

// ---------------------------------------------------------------------------
// The helper itself.

/// The protection of the mapping that holds `address`, from /proc/self/maps.
fn protection(address: usize) -> String {
    let maps = std::fs::read_to_string("/proc/self/maps").expect("/proc/self/maps");
    for line in maps.lines() {
        let mut fields = line.split_whitespace();
        let range = fields.next().expect("an address range");
        let (start, end) = range.split_once('-').expect("start-end");
        let start = usize::from_str_radix(start, 16).expect("a hex address");
        let end = usize::from_str_radix(end, 16).expect("a hex address");
        if (start..end).contains(&address) {
            return fields.next().expect("permissions").to_owned();
        }
    }
    panic!("{address:#x} is not mapped");
}

#[test]
fn the_byte_beside_a_guarded_slice_is_in_a_page_that_cannot_be_read() {
    let mut memory = GuardedPages::new(LONGEST);
    let usable = memory.usable;
    for len in [1, 332, usable] {
        let slice = memory.slice(Edge::Start, len);
        let start = slice.as_ptr() as usize;
        assert_eq!(
            protection(start - 1),
            "---p",
            "before {len} bytes at the start"
        );
        assert_eq!(protection(start), "rw-p");
        let slice = memory.slice(Edge::End, len);
        let end = slice.as_ptr() as usize + len;
        assert_eq!(protection(end), "---p", "after {len} bytes at the end");
        assert_eq!(protection(end - 1), "rw-p");
    }
}

// ---------------------------------------------------------------------------
// The reports.

#[test]
fn the_reported_332_bytes_that_end_at_a_page_end_are_rejected_without_reading_past_it() {
    let mut memory = GuardedPages::new(332);
    let s = memory.slice(Edge::End, 332);
    s.copy_from_slice(&"é".repeat(166).into_bytes());
    s[312] = 0x80;
    s[313] = 0x41;
    let case = Case {
        edge: Edge::End,
        len: 332,
        text: "\"é\" text",
        error: Some(("80 41", 312)),
    };
    watch(Entry::Named("from_utf8"), case, s);
    let e = utf8_core::from_utf8(s).unwrap_err();
    assert_eq!((e.valid_up_to(), e.error_len()), (312, Some(1)));
}

#[test]
fn an_error_at_byte_150_of_300_at_a_page_start_is_found_without_reading_before_it() {
    let mut memory = GuardedPages::new(300);
    let s = memory.slice(Edge::Start, 300);
    s.copy_from_slice(&"é".repeat(150).into_bytes());
    s[150] = 0x80;
    let case = Case {
        edge: Edge::Start,
        len: 300,
        text: "\"é\" text",
        error: Some(("80", 150)),
    };
    let want = std_verdict(s);
    assert_eq!(want, Err((150, Some(1))));
    watch(Entry::Named("from_utf8"), case, s);
    expect(
        Entry::Named("from_utf8"),
        case,
        s,
        verdict(utf8_core::from_utf8(s).map(drop)),
        want,
    );
    for path in forced_paths(paths::rfc3629) {
        watch(Entry::Rfc3629(path), case, s);
        let got = paths::rfc3629(path, s).map(verdict);
        expect(Entry::Rfc3629(path), case, s, got, Some(want));
    }
}

// ---------------------------------------------------------------------------
// The dense sweeps: where the vector code is.

#[test]
fn from_utf8_and_its_mut_and_const_forms_stay_inside_slices_beside_guard_pages() {
    let mut memory = GuardedPages::new(LONGEST);
    let grid = Grid::dense(memory.usable);
    sweep(&mut memory, &grid, |case, slice| {
        let want = std_verdict(slice);
        let entry = Entry::Named("from_utf8");
        watch(entry, case, slice);
        expect(
            entry,
            case,
            slice,
            str_verdict(slice, utf8_core::from_utf8(slice)),
            want,
        );
        let entry = Entry::Named("from_utf8_const");
        watch(entry, case, slice);
        let got = str_verdict(slice, utf8_core::from_utf8_const(slice));
        expect(entry, case, slice, got, want);
        let entry = Entry::Named("from_utf8_mut");
        watch(entry, case, slice);
        let (start, len) = (slice.as_ptr(), slice.len());
        let got = match utf8_core::from_utf8_mut(slice) {
            Ok(text) => {
                assert_eq!((text.as_ptr(), text.len()), (start, len), "not the input");
                Ok(())
            }
            Err(error) => Err(error_parts(&error)),
        };
        expect(entry, case, slice, got, want);
    });
}

/// Every path of `run` that this CPU runs, on the dense grid, against `reference`.
fn every_path_stays_inside(run: PathFn, name: fn(Path) -> Entry, reference: fn(&[u8]) -> Verdict) {
    let paths = forced_paths(run);
    let mut memory = GuardedPages::new(LONGEST);
    let grid = Grid::dense(memory.usable);
    sweep(&mut memory, &grid, |case, slice| {
        let want = reference(slice);
        for &path in &paths {
            watch(name(path), case, slice);
            expect(
                name(path),
                case,
                slice,
                run(path, slice).map(verdict),
                Some(want),
            );
        }
    });
}

#[test]
fn every_rfc3629_path_this_cpu_runs_stays_inside_slices_beside_guard_pages() {
    every_path_stays_inside(paths::rfc3629, Entry::Rfc3629, std_verdict);
}

#[test]
fn every_legacy31_path_this_cpu_runs_stays_inside_slices_beside_guard_pages() {
    every_path_stays_inside(paths::legacy31, Entry::Legacy31, |bytes| {
        verdict(legacy31::validate_const(bytes))
    });
}

/// CESU-8's and WTF-8's own checks, whose pairing term carries lead bits
/// from vector to vector and leaves a block open on a pending lead, on
/// every path this CPU runs: every length of text dense with surrogates
/// (valid in the dialect, so that the check reads to the end), against
/// either guard page.
#[test]
fn the_pairing_checks_of_cesu8_and_wtf8_stay_inside_slices_beside_guard_pages() {
    const PAIR: &[u8] = b"\xED\xA0\xBD\xED\xB8\x80";
    const LEAD: &[u8] = b"\xED\xA0\xBD";
    const TRAIL: &[u8] = b"\xED\xB8\x80";
    let cesu8_text = [PAIR, b"a", PAIR, PAIR, "é€".as_bytes()].concat();
    let wtf8_text = [LEAD, b"b", TRAIL, LEAD, LEAD, "😀".as_bytes(), TRAIL, LEAD].concat();
    let checks: [(&str, PathFn, Validate, &[u8]); 2] = [
        (
            "paths::ruleset::<Cesu8>",
            paths::ruleset::<cesu8::Cesu8>,
            cesu8::validate_const,
            &cesu8_text,
        ),
        (
            "paths::ruleset::<Wtf8>",
            paths::ruleset::<wtf8::Wtf8>,
            wtf8::validate_const,
            &wtf8_text,
        ),
    ];
    let mut memory = GuardedPages::new(LONGEST);
    for (name, run, reference, period) in checks {
        let text = period.repeat(LONGEST / period.len() + 1);
        let paths = forced_paths(run);
        for edge in EDGES {
            for len in 0..=LONGEST {
                let case = Case {
                    edge,
                    len,
                    text: "surrogate-dense text",
                    error: None,
                };
                let slice = memory.place(edge, &text[..len]);
                let want = verdict(reference(slice));
                for &path in &paths {
                    watch(Entry::Named(name), case, slice);
                    expect(
                        Entry::Named(name),
                        case,
                        slice,
                        run(path, slice).map(verdict),
                        Some(want),
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The coarse sweeps: the same code through more layers.

#[test]
fn each_dialect_and_parallel_validate_stay_inside_slices_beside_guard_pages() {
    let entries: [(&str, Validate, Validate); 8] = [
        ("cesu8::validate", cesu8::validate, cesu8::validate_const),
        ("mutf8::validate", mutf8::validate, mutf8::validate_const),
        ("wtf8::validate", wtf8::validate, wtf8::validate_const),
        (
            "rfc2279::validate",
            rfc2279::validate,
            rfc2279::validate_const,
        ),
        (
            "legacy31::validate",
            legacy31::validate,
            legacy31::validate_const,
        ),
        (
            "parallel::validate::<Rfc3629>",
            parallel::validate::<Rfc3629>,
            Rfc3629::validate_const,
        ),
        (
            "parallel::validate::<Legacy31>",
            parallel::validate::<Legacy31>,
            legacy31::validate_const,
        ),
        (
            "parallel::Summary::<Wtf8>::of",
            |bytes| parallel::Summary::<wtf8::Wtf8>::of(bytes).result(),
            wtf8::validate_const,
        ),
    ];
    let mut memory = GuardedPages::new(LONGEST);
    sweep(&mut memory, &Grid::coarse(), |case, slice| {
        for (name, validate, reference) in entries {
            watch(Entry::Named(name), case, slice);
            expect(
                Entry::Named(name),
                case,
                slice,
                verdict(validate(slice)),
                verdict(reference(slice)),
            );
        }
    });
}

/// The pieces a stream is fed in: whole, and cut every so many bytes.
const CUTS: [usize; 7] = [1, 7, 64, 100, 128, 200, 333];

/// Feeds `pieces` to a validator of `R`, until the first error.
fn stream<'a, R: Ruleset>(pieces: impl IntoIterator<Item = &'a [u8]>) -> Verdict {
    let mut validator = Validator::<R>::for_ruleset();
    for piece in pieces {
        validator
            .update(piece)
            .map_err(|error| error_parts(&error))?;
    }
    verdict(validator.finish())
}

/// A validator of `R` fed `input` whole, in sub-slices of it, and in pieces
/// that each lie against an edge of `own` pages.
fn stream_stays_inside<R: Ruleset>(
    name: &'static str,
    case: Case,
    input: &[u8],
    own: &mut GuardedPages,
    want: Verdict,
) {
    watch(Entry::Named(name), case, input);
    expect(Entry::Named(name), case, input, stream::<R>([input]), want);
    for cut in CUTS {
        watch(Entry::Cut(name, cut), case, input);
        expect(
            Entry::Cut(name, cut),
            case,
            input,
            stream::<R>(input.chunks(cut)),
            want,
        );
        // Each piece against the guard page, so that a read past any piece
        // faults, not only past the first or last.
        let mut validator = Validator::<R>::for_ruleset();
        let got = input
            .chunks(cut)
            .try_for_each(|piece| {
                let piece = own.place(case.edge, piece);
                watch(Entry::Cut(name, cut), case, piece);
                validator.update(piece)
            })
            .and_then(|()| validator.finish());
        expect(Entry::Cut(name, cut), case, input, verdict(got), want);
    }
}

#[test]
fn the_validator_fed_whole_and_in_pieces_stays_inside_slices_beside_guard_pages() {
    let mut memory = GuardedPages::new(LONGEST);
    let mut own = GuardedPages::new(LONGEST);
    sweep(&mut memory, &Grid::coarse(), |case, slice| {
        let want = std_verdict(slice);
        stream_stays_inside::<Rfc3629>("Validator", case, slice, &mut own, want);
        let want = verdict(legacy31::validate_const(slice));
        stream_stays_inside::<Legacy31>("legacy31::Validator", case, slice, &mut own, want);
    });
}

#[test]
fn the_dialects_validators_through_the_utf8_shortcut_stay_inside_slices_beside_guard_pages() {
    let mut memory = GuardedPages::new(LONGEST);
    let mut own = GuardedPages::new(LONGEST);
    sweep(&mut memory, &Grid::coarse(), |case, slice| {
        let want = verdict(cesu8::validate_const(slice));
        stream_stays_inside::<cesu8::Cesu8>("cesu8::Validator", case, slice, &mut own, want);
        let want = verdict(mutf8::validate_const(slice));
        stream_stays_inside::<mutf8::Mutf8>("mutf8::Validator", case, slice, &mut own, want);
        let want = verdict(wtf8::validate_const(slice));
        stream_stays_inside::<wtf8::Wtf8>("wtf8::Validator", case, slice, &mut own, want);
    });
}

#[test]
fn the_dialects_conversions_to_str_stay_inside_slices_beside_guard_pages() {
    type ToStr = for<'a> fn(&'a [u8]) -> Result<std::borrow::Cow<'a, str>, Utf8Error>;
    let entries: [(&str, ToStr); 2] = [
        ("cesu8::to_str", cesu8::to_str),
        ("mutf8::to_str", mutf8::to_str),
    ];
    let mut memory = GuardedPages::new(LONGEST);
    // CESU-8 is at most 1.5 times as long as the UTF-8 it converts.
    let mut own = GuardedPages::new(LONGEST * 3 / 2);
    sweep(&mut memory, &Grid::coarse(), |case, slice| {
        let copy = slice.to_vec();
        for (name, to_str) in entries {
            let text = |bytes| {
                to_str(bytes)
                    .map(|text| text.into_owned())
                    .map_err(|e| (e.valid_up_to(), e.error_len()))
            };
            watch(Entry::Named(name), case, slice);
            expect(Entry::Named(name), case, slice, text(slice), text(&copy));
        }
        // The text as CESU-8, surrogate pairs and all (the conversion's
        // pair loop reads eight bytes at a time), against the same edge.
        if let Ok(text) = std::str::from_utf8(slice) {
            let converted = utf8_tests::dialect_text::cesu8_from_str(text);
            let placed = own.place(case.edge, &converted);
            let name = "cesu8::to_str of converted text";
            watch(Entry::Named(name), case, placed);
            let got = cesu8::to_str(placed).map(|text| text.into_owned());
            expect(Entry::Named(name), case, placed, got, Ok(text.to_owned()));
        }
    });
}

/// A decoded item, as `core::str` would give it.
type Item = Result<char, (usize, Option<usize>)>;

/// The items `decode` should yield, from std's chunks: each chunk's
/// characters, then its invalid part as one error.
fn std_items(bytes: &[u8]) -> Vec<Item> {
    let mut items = Vec::new();
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        items.extend(chunk.valid().chars().map(Ok));
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            let len = core::str::from_utf8(&bytes[at..])
                .expect_err("an invalid part")
                .error_len();
            items.push(Err((at, len)));
            at += chunk.invalid().len();
        }
    }
    items
}

#[test]
fn chunks_decoding_and_lossy_conversion_stay_inside_slices_beside_guard_pages() {
    let mut memory = GuardedPages::new(LONGEST);
    sweep(&mut memory, &Grid::coarse(), |case, slice| {
        let entry = Entry::Named("utf8_chunks");
        watch(entry, case, slice);
        let got: Vec<_> = utf8_core::utf8_chunks(slice)
            .map(|chunk| (chunk.valid(), chunk.invalid(), chunk.is_incomplete()))
            .collect();
        let mut at = 0;
        let want: Vec<_> = slice
            .utf8_chunks()
            .map(|chunk| {
                at += chunk.valid().len();
                let incomplete = !chunk.invalid().is_empty()
                    && core::str::from_utf8(&slice[at..]).is_err_and(|e| e.error_len().is_none());
                at += chunk.invalid().len();
                (chunk.valid(), chunk.invalid(), incomplete)
            })
            .collect();
        expect(entry, case, slice, got, want);

        let entry = Entry::Named("decode");
        watch(entry, case, slice);
        let got: Vec<Item> = utf8_core::decode(slice)
            .map(|item| item.map_err(|error| error_parts(&error)))
            .collect();
        expect(entry, case, slice, got, std_items(slice));

        let entry = Entry::Named("from_utf8_lossy");
        watch(entry, case, slice);
        let got = utf8_core::from_utf8_lossy(slice);
        expect(entry, case, slice, got, String::from_utf8_lossy(slice));
    });
}

/// What an adapter handed out, and how the stream ended.
type Outcome = (Vec<u8>, Verdict);

/// The error an adapter reports: `InvalidData` carrying a `Utf8Error`.
fn utf8_error(error: io::Error) -> (usize, Option<usize>) {
    assert_eq!(error.kind(), io::ErrorKind::InvalidData, "{error}");
    let error = error
        .into_inner()
        .expect("a Utf8Error inside")
        .downcast::<Utf8Error>()
        .expect("a Utf8Error");
    error_parts(&error)
}

/// `ValidatingReader` over `input`, reading into guarded `buffer` (the
/// input's length) in reads of `step` bytes, then one more byte to reach
/// the end of the stream.
fn read_into(input: &[u8], buffer: &mut [u8], step: usize) -> Outcome {
    let mut reader = ValidatingReader::new(input);
    let mut filled = 0;
    loop {
        let read = if filled < buffer.len() {
            let end = filled + step.min(buffer.len() - filled);
            reader.read(&mut buffer[filled..end])
        } else {
            reader.read(&mut [0; 1])
        };
        match read {
            Ok(0) => return (buffer[..filled].to_vec(), Ok(())),
            Ok(n) => filled += n,
            Err(error) => return (buffer[..filled].to_vec(), Err(utf8_error(error))),
        }
    }
}

/// `ValidatingBufReader` over guarded `input` itself (a `&[u8]` hands out
/// itself from `fill_buf`), consuming at most `step` bytes at a time.
fn buf_read(input: &[u8], step: usize) -> Outcome {
    let mut reader = ValidatingBufReader::new(input);
    let mut out = Vec::new();
    loop {
        match reader.fill_buf() {
            Ok([]) => return (out, Ok(())),
            Ok(available) => {
                let n = available.len().min(step);
                out.extend_from_slice(&available[..n]);
                reader.consume(n);
            }
            Err(error) => return (out, Err(utf8_error(error))),
        }
    }
}

/// Holds an adapter's outcome to what `io` promises: the input up to the
/// error (and at most the failing sequence's valid prefix past it, handed
/// out while it was still open), then one-shot validation's error.
fn expect_read(entry: Entry, case: Case, input: &[u8], (out, got): Outcome, want: Verdict) {
    expect(entry, case, input, got, want);
    let handed_out_enough = match want {
        Ok(()) => out.len() == input.len(),
        Err((valid_up_to, _)) => out.len() >= valid_up_to && out.len() < valid_up_to + 4,
    };
    if !handed_out_enough || !input.starts_with(&out) {
        panic!("{entry} on {case}: handed out {}", Hex(&out));
    }
}

#[test]
fn the_io_adapters_stay_inside_slices_beside_guard_pages() {
    let mut memory = GuardedPages::new(LONGEST);
    let mut buffer = GuardedPages::new(LONGEST);
    let mut input = Vec::new();
    sweep(&mut memory, &Grid::coarse(), |case, slice| {
        let want = std_verdict(slice);
        input.clear();
        input.extend_from_slice(slice);
        for step in [usize::MAX, 100] {
            let entry = Entry::Cut("ValidatingReader", step.min(input.len()));
            let guarded = buffer.slice(case.edge, input.len());
            watch(entry, case, guarded);
            expect_read(entry, case, &input, read_into(&input, guarded, step), want);
            let entry = Entry::Cut("ValidatingBufReader", step.min(input.len()));
            watch(entry, case, slice);
            expect_read(entry, case, slice, buf_read(slice, step), want);
        }
    });
}

// ---------------------------------------------------------------------------
// Parallel validation above its threshold.

#[test]
fn parallel_validate_of_a_few_mebibytes_stays_inside_slices_beside_guard_pages() {
    const CUT: usize = PARALLEL_THRESHOLD;
    let grid = Grid {
        // The other sweeps have the "é" text; each case here costs a few
        // milliseconds.
        fillers: &FILLERS[1..],
        // Two chunks, the second of one byte or of the report's length;
        // three chunks.
        lengths: vec![CUT + 1, CUT + 332, 2 * CUT + 100],
        // Each chunk is validated on its own, so the errors go where they
        // would in a short input: into the first groups of the first chunk,
        // around each cut, and where the report had it in the last chunk.
        positions: |len| {
            let mut positions = vec![0, 150, 300, len - 1];
            for cut in [CUT, 2 * CUT] {
                positions.extend(
                    [cut - 1, cut, cut + 1, cut + 150, cut + 312]
                        .into_iter()
                        .filter(|&at| at < len),
                );
            }
            positions
        },
    };
    let mut memory = GuardedPages::new(2 * CUT + 100);
    let entry = Entry::Named("parallel::validate::<Rfc3629>");
    sweep(&mut memory, &grid, |case, slice| {
        let note = watch(entry, case, slice);
        let got = verdict(sharing(&note, || parallel::validate::<Rfc3629>(slice)));
        let want = std_verdict(slice);
        // Not `expect`: the input is megabytes long.
        if got != want {
            panic!("{entry} on {case}: got {got:?}, want {want:?}");
        }
    });
}
