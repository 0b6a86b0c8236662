//! Every public entry point on slices that touch a page no one may read.
//!
//! The cases and what each entry point is held to on one case are the
//! bounds catalogue's (`utf8_tests::catalogue`), which
//! `utf8-core/tests/miri_bounds.rs` runs under Miri on slices that are
//! allocations of their own; this file places them against guard pages and
//! sweeps them on the dense grids that only native speed allows.
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
//!   `utf8_chunks`, `decode`, `from_utf8_lossy`, `from_utf8_owned`,
//!   `from_utf8_lossy_owned`, `parallel::validate` below
//!   its threshold, the two `io` adapters, the column API over values, a
//!   views column's data buffer, a page and a null bitmap each against a
//!   guard page) get a coarser grid of lengths:
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
use std::io;
use std::sync::Once;
use std::sync::atomic::{AtomicPtr, Ordering};

use utf8_core::Rfc3629;
use utf8_core::parallel::{self, PARALLEL_THRESHOLD};
use utf8_core::paths;
use utf8_tests::catalogue::{
    self, Case, Entry, FILLERS, Grid, LONGEST, PathCheck, Placement, Spot, Suite,
};
use utf8_tests::oracles::{std_verdict, verdict};

// ---------------------------------------------------------------------------
// Memory with a guard page on each side.

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

    /// `len` bytes against `edge` ([`Spot::Start`] or [`Spot::End`]): the
    /// first right after the leading guard page, or the last right before
    /// the trailing one.
    fn slice(&mut self, edge: Spot, len: usize) -> &mut [u8] {
        assert!(len <= self.usable, "{len} bytes in {} pages", self.usable);
        let offset = match edge {
            Spot::Start => self.page,
            Spot::End => self.page + self.usable - len,
            Spot::Alignment(_) => panic!("guard pages place slices at an edge, not an alignment"),
        };
        // SAFETY: `offset .. offset + len` lies within the read-write pages
        // (`page .. page + usable`, as `len <= usable`), which stay mapped
        // while `self` lives, and the `&mut self` borrow makes this slice the
        // only reference to them.
        unsafe { std::slice::from_raw_parts_mut(self.mapping.add(offset), len) }
    }
}

/// A slice that starts at a page start, and one that ends at a page end.
const EDGES: [Spot; 2] = [Spot::Start, Spot::End];

impl Placement for GuardedPages {
    fn each(&mut self, spots: &[Spot], bytes: &[u8], check: &mut dyn FnMut(Spot, &mut [u8])) {
        for &edge in spots {
            check(edge, self.own_copy(edge, bytes));
        }
    }

    fn own(&mut self, edge: Spot, len: usize) -> &mut [u8] {
        self.slice(edge, len)
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

/// What this thread is running, for the fault handler.
#[derive(Clone, Copy)]
struct Note {
    entry: Entry,
    case: Case,
    edge: Spot,
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
/// `slice` against `edge`, and makes sure the handler that reports a fault
/// is installed.
fn watch(entry: Entry, case: Case, edge: Spot, slice: &[u8]) -> Note {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(install_fault_report);
    let note = Note {
        entry,
        case,
        edge,
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
                "guard_pages: {} read {address:#x}, byte {distance} {side} its {}-byte slice: {} {}",
                note.entry, note.len, note.case, note.edge
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
        let slice = memory.slice(Spot::Start, len);
        let start = slice.as_ptr() as usize;
        assert_eq!(
            protection(start - 1),
            "---p",
            "before {len} bytes at the start"
        );
        assert_eq!(protection(start), "rw-p");
        let slice = memory.slice(Spot::End, len);
        let end = slice.as_ptr() as usize + len;
        assert_eq!(protection(end), "---p", "after {len} bytes at the end");
        assert_eq!(protection(end - 1), "rw-p");
    }
}

// ---------------------------------------------------------------------------
// ---------------------------------------------------------------------------
// The catalogue, against the guard pages.

/// Every call noted for the fault report; streams cut every so many bytes;
/// adapters read whole and a hundred bytes at a time.
const SUITE: Suite = Suite {
    watch: |entry, case, edge, slice| {
        watch(entry, case, edge, slice);
    },
    cuts: &[1, 7, 64, 100, 128, 200, 333],
    read_steps: &[usize::MAX, 100],
};

/// Runs `check` on every input of `grid` at both edges of memory of its
/// own, with memory for pieces and buffers at the same edge.
fn sweep(grid: &Grid, mut check: impl FnMut(catalogue::At<'_>, &mut [u8], &mut GuardedPages)) {
    let longest = grid.lengths.iter().copied().max().unwrap_or(0);
    let mut memory = GuardedPages::new(longest);
    // CESU-8 is at most 1.5 times as long as the UTF-8 it converts.
    let mut own = GuardedPages::new(longest * 3 / 2);
    grid.each(|case, bytes| {
        let input = (case, bytes.to_vec(), EDGES.to_vec());
        catalogue::run_cases(&SUITE, &mut memory, [input], |at, slice| {
            check(at, slice, &mut own);
        });
    });
}

#[test]
fn the_reported_inputs_are_rejected_without_reading_past_the_page_they_end_or_start_at() {
    let mut memory = GuardedPages::new(LONGEST);
    let paths = catalogue::paths_under_test(paths::rfc3629);
    let reports = catalogue::reports().map(|(case, bytes, want, edge)| {
        assert_eq!(std_verdict(&bytes), want, "{case} is not as reported");
        (case, bytes, vec![edge])
    });
    catalogue::run_cases(&SUITE, &mut memory, reports, |at, slice| {
        catalogue::from_utf8_and_paths(at, slice, &paths, std_verdict(slice));
    });
}

// ---------------------------------------------------------------------------
// The dense sweeps: where the vector code is.

#[test]
fn from_utf8_and_its_mut_and_const_forms_stay_inside_slices_beside_guard_pages() {
    // The slice that fills its pages exactly, guarded on both sides.
    let grid = Grid::dense(GuardedPages::new(LONGEST).usable);
    sweep(&grid, |at, slice, _| catalogue::from_utf8_forms(at, slice));
}

/// Every path of `check` that this CPU runs, on the dense grid, against
/// its reference.
fn every_path_stays_inside(check: PathCheck) {
    let paths = catalogue::paths_under_test(check.1);
    let grid = Grid::dense(GuardedPages::new(LONGEST).usable);
    sweep(&grid, |at, slice, _| {
        catalogue::each_path(at, slice, check, &paths)
    });
}

#[test]
fn every_rfc3629_path_this_cpu_runs_stays_inside_slices_beside_guard_pages() {
    every_path_stays_inside(("paths::rfc3629", paths::rfc3629, std_verdict));
}

#[test]
fn every_legacy31_path_this_cpu_runs_stays_inside_slices_beside_guard_pages() {
    let reference = catalogue::legacy31_verdict;
    every_path_stays_inside(("paths::legacy31", paths::legacy31, reference));
}

/// On every path this CPU runs, at every length up to [`LONGEST`],
/// against either guard page.
#[test]
fn the_pairing_checks_of_cesu8_and_wtf8_stay_inside_slices_beside_guard_pages() {
    let mut memory = GuardedPages::new(LONGEST);
    for (check, period) in catalogue::pairing_checks() {
        let text = period.repeat(LONGEST / period.len() + 1);
        let paths = catalogue::paths_under_test(check.1);
        let cases = (0..=LONGEST).map(|len| {
            let case = Case {
                len,
                text: "surrogate-dense text",
                error: None,
            };
            (case, text[..len].to_vec(), EDGES.to_vec())
        });
        catalogue::run_cases(&SUITE, &mut memory, cases, |at, slice| {
            catalogue::each_path(at, slice, check, &paths);
        });
    }
}

// ---------------------------------------------------------------------------
// The coarse sweeps: the same code through more layers.

#[test]
fn each_dialect_and_parallel_validate_stay_inside_slices_beside_guard_pages() {
    sweep(&Grid::coarse(), |at, slice, _| {
        catalogue::dialects_and_parallel(at, slice);
    });
}

#[test]
fn the_validator_fed_whole_and_in_pieces_stays_inside_slices_beside_guard_pages() {
    sweep(&Grid::coarse(), |at, slice, own| {
        catalogue::validators(at, slice, own);
    });
}

#[test]
fn the_dialects_validators_through_the_utf8_shortcut_stay_inside_slices_beside_guard_pages() {
    sweep(&Grid::coarse(), |at, slice, own| {
        catalogue::dialect_validators(at, slice, own);
    });
}

#[test]
fn the_dialects_conversions_to_str_stay_inside_slices_beside_guard_pages() {
    sweep(&Grid::coarse(), |at, slice, own| {
        catalogue::conversions_to_str(at, slice, own);
    });
}

#[test]
fn chunks_decoding_and_lossy_conversion_stay_inside_slices_beside_guard_pages() {
    sweep(&Grid::coarse(), |at, slice, _| {
        catalogue::chunks_decoding_and_lossy(at, slice);
    });
}

#[test]
fn the_io_adapters_stay_inside_slices_beside_guard_pages() {
    sweep(&Grid::coarse(), |at, slice, own| {
        catalogue::io_adapters(at, slice, own);
    });
}

#[test]
fn the_column_api_stays_inside_values_views_pages_and_bitmaps_beside_guard_pages() {
    sweep(&Grid::columns(), |at, slice, own| {
        catalogue::columns(at, slice, own);
    });
}

#[test]
fn the_views_walk_of_mostly_long_strings_stays_inside_the_data_buffer_beside_guard_pages() {
    let mut memory = GuardedPages::new(catalogue::MOSTLY_LONG_BYTES);
    let sample = catalogue::mostly_long_sample()
        .into_iter()
        .map(|(case, bytes, _)| (case, bytes, EDGES.to_vec()));
    catalogue::run_cases(&SUITE, &mut memory, sample, |at, slice| {
        catalogue::mostly_long_views(at, slice, 0);
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
    grid.each(|case, bytes| {
        memory.each(&EDGES, bytes, &mut |edge, slice| {
            let note = watch(entry, case, edge, slice);
            let got = verdict(sharing(&note, || parallel::validate::<Rfc3629>(slice)));
            let want = std_verdict(slice);
            // Not `expect`: the input is megabytes long.
            if got != want {
                panic!("{entry} on {case} {edge}: got {got:?}, want {want:?}");
            }
        });
    });
}
