//! Every validation path of `utf8_core::paths` that this CPU and build can
//! run, on its own, at every alignment of the input's start address.
//!
//! RFC 3629 paths (and the dispatching `from_utf8`) are held against
//! `core::str::from_utf8`: the verdict, `valid_up_to` and `error_len`. The
//! 31-bit legacy paths (and `legacy31::validate`) are held against the
//! legacy class-table automaton, `paths::legacy31(Path::Automaton, ..)`.
//! Agreeing with one reference, the paths agree with each other.
//!
//! The inputs aim at what the vector check does with addresses and block
//! boundaries: 64-byte blocks, a main loop aligned to 64-byte addresses
//! (with the unaligned head checked apart), the error register tested once
//! per group of 4 blocks and after runs of ASCII, all-ASCII blocks skipped,
//! the last partial block padded, and the exact error recomputed from a few
//! bytes before the failing group. So every input is placed at each of the
//! 64 alignments, between guard bytes (0x80, a stray continuation byte),
//! and the error sweeps put each kind of error at each byte position of a
//! window that crosses several block boundaries and the group boundary at
//! 256.
//!
//! The guard bytes catch only a read outside the slice that changes the
//! answer: a path that takes a guard byte for part of the input reports
//! another error, or one where there is none. A read that leaves the
//! answer as it is goes unseen here; `guard_pages.rs` (pages that fault on
//! any access), `utf8-core/tests/miri_bounds.rs` under Miri (a read
//! outside the allocation is undefined behaviour) and the fuzz targets
//! under AddressSanitizer catch those.
//!
//! The streaming validator's test for a piece of ASCII
//! (`paths::skippable_prefix`) is held against the bytes at each vector
//! level too: it passes whole blocks of ASCII from a piece's first byte.

use std::cell::Cell;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::time::Instant;

use utf8_core::cpu::Level;
use utf8_core::legacy31;
use utf8_core::paths::{self, Path};
use utf8_tests::rng::Rng;
use utf8_tests::{Hex, Mutation, Verdict, error_parts, mutate, std_error_parts};

/// A validation under test.
type Validate = dyn Fn(&[u8]) -> Verdict;

/// `paths::rfc3629` or `paths::legacy31`.
type PathFn = fn(Path, &[u8]) -> Option<Result<(), utf8_core::Utf8Error>>;

/// The vector check's block, and the period of the alignments that matter.
const BLOCK: usize = 64;

/// Every alignment of the input's start address within a block.
const ALIGNMENTS: Range<usize> = 0..BLOCK;

/// What the bytes just outside the slice are set to.
const GUARD: u8 = 0x80;

/// The longest input any test here builds.
const LONGEST: usize = 4200;

fn verdict(result: Result<(), utf8_core::Utf8Error>) -> Verdict {
    result.map_err(|error| error_parts(&error))
}

// ---------------------------------------------------------------------------
// The forms under test: a reference, the paths, and the material to build
// inputs from.

/// One way of validating, under a name for failure reports.
struct Runner {
    name: String,
    run: Box<Validate>,
    /// Whether it runs at every alignment or at [`FEW_ALIGNMENTS`] only.
    /// The vector paths run at every one. The byte-at-a-time automaton and
    /// the shift DFA read no differently at any address, and the entry points
    /// (`from_utf8`, `legacy31::validate`) only dispatch to the shift DFA or
    /// to the best vector path, both run here at every alignment; running
    /// those at a few alignments halves the time of the sweeps, most of which
    /// goes into the automaton (the exact error after a failed vector check
    /// is the automaton run over up to a group of blocks).
    every_alignment: bool,
}

/// The alignments that paths indifferent to addresses are run at.
const FEW_ALIGNMENTS: [usize; 3] = [0, 1, BLOCK - 1];

/// One of the two languages, with everything the tests need to know of it.
struct Form {
    /// The verdict the runners must reproduce.
    reference: fn(&[u8]) -> Verdict,
    /// The paths this machine runs (and the public entry point), each with its name.
    runners: fn() -> (Vec<Runner>, Vec<Path>),
    /// Valid sequences that filler text is made of.
    units: &'static [&'static [u8]],
    /// Byte strings to place at each position: errors of every kind, and
    /// valid edge sequences.
    kinds: &'static [(&'static str, &'static [u8])],
}

/// Valid sequences of every length, edge values included, for filler.
const RFC3629_UNITS: &[&[u8]] = &[
    b"a",
    b"\xC3\xA9",         // é
    b"\xE2\x82\xAC",     // €
    b"\xF0\x9F\x98\x80", // 😀
    b"\xC2\x80",         // U+0080
    b"\xDF\xBF",         // U+07FF
    b"\xE0\xA0\x80",     // U+0800
    b"z",
    b"\xED\x9F\xBF",     // U+D7FF
    b"\xEE\x80\x80",     // U+E000
    b"\xEF\xBF\xBF",     // U+FFFF
    b"\xF0\x90\x80\x80", // U+10000
    b"\xF4\x8F\xBF\xBF", // U+10FFFF
    b"\x7F",
];

/// The RFC 3629 units and the 31-bit form's own: 5- and 6-byte sequences and
/// 4-byte ones beyond U+10FFFF.
const LEGACY31_UNITS: &[&[u8]] = &[
    b"a",
    b"\xF8\x88\x80\x80\x80",     // U+200000, the smallest 5-byte value
    b"\xC3\xA9",                 // é
    b"\xFC\x84\x80\x80\x80\x80", // U+4000000, the smallest 6-byte value
    b"\xE2\x82\xAC",             // €
    b"\xFD\xBF\xBF\xBF\xBF\xBF", // U+7FFFFFFF
    b"\xF0\x9F\x98\x80",         // 😀
    b"\xF4\x90\x80\x80",         // U+110000
    b"\xF7\xBF\xBF\xBF",         // U+1FFFFF
    b"\xFB\xBF\xBF\xBF\xBF",     // U+3FFFFFF
    b"\xE0\xA0\x80",             // U+0800
    b"\xED\x9F\xBF",             // U+D7FF
    b"\xEE\x80\x80",             // U+E000
    b"\xF4\x8F\xBF\xBF",         // U+10FFFF
    b"\xDF\xBF",                 // U+07FF
    b"z",
];

/// Errors of every kind, and valid edge sequences, for RFC 3629.
const RFC3629_KINDS: &[(&str, &[u8])] = &[
    ("valid U+0000", b"\x00"),
    ("valid U+007F", b"\x7F"),
    ("valid U+0080", b"\xC2\x80"),
    ("valid U+07FF", b"\xDF\xBF"),
    ("valid U+0800", b"\xE0\xA0\x80"),
    ("valid U+D7FF", b"\xED\x9F\xBF"),
    ("valid U+E000", b"\xEE\x80\x80"),
    ("valid U+FFFF", b"\xEF\xBF\xBF"),
    ("valid U+10000", b"\xF0\x90\x80\x80"),
    ("valid U+10FFFF", b"\xF4\x8F\xBF\xBF"),
    ("truncated 2-byte", b"\xC2"),
    ("truncated 3-byte after 1", b"\xE2"),
    ("truncated 3-byte after 2", b"\xE2\x82"),
    ("truncated E0 A0", b"\xE0\xA0"),
    ("truncated ED 9F", b"\xED\x9F"),
    ("truncated 4-byte after 1", b"\xF0"),
    ("truncated 4-byte after 2", b"\xF0\x9F"),
    ("truncated 4-byte after 3", b"\xF0\x9F\x98"),
    ("truncated F4 8F BF", b"\xF4\x8F\xBF"),
    ("truncated 3-byte cut by ASCII", b"\xE2\x82A"),
    ("truncated 4-byte cut by ASCII", b"\xF0\x9F\x98A"),
    ("truncated 2-byte cut by a lead", b"\xC2\xC2\x80"),
    (
        "truncated 4-byte cut by a lead",
        b"\xF1\x80\x80\xE2\x82\xAC",
    ),
    ("overlong C0 80", b"\xC0\x80"),
    ("overlong C1 BF", b"\xC1\xBF"),
    ("overlong E0 80 80", b"\xE0\x80\x80"),
    ("overlong E0 9F BF", b"\xE0\x9F\xBF"),
    ("overlong F0 80 80 80", b"\xF0\x80\x80\x80"),
    ("overlong F0 8F BF BF", b"\xF0\x8F\xBF\xBF"),
    ("surrogate ED A0 80", b"\xED\xA0\x80"),
    ("surrogate ED BF BF", b"\xED\xBF\xBF"),
    ("too large F4 90 80 80", b"\xF4\x90\x80\x80"),
    ("too large F4 BF BF BF", b"\xF4\xBF\xBF\xBF"),
    ("too large F5 80 80 80", b"\xF5\x80\x80\x80"),
    ("too large F7 BF BF BF", b"\xF7\xBF\xBF\xBF"),
    ("too large F8 88 80 80 80", b"\xF8\x88\x80\x80\x80"),
    ("too large FC 84 80 80 80 80", b"\xFC\x84\x80\x80\x80\x80"),
    ("too large FE", b"\xFE"),
    ("too large FF", b"\xFF"),
    ("stray continuation 80", b"\x80"),
    ("stray continuation BF", b"\xBF"),
    ("continuation after a 3-byte sequence", b"\xE2\x82\xAC\x80"),
    (
        "continuation after a 4-byte sequence",
        b"\xF0\x9F\x98\x80\xBF",
    ),
    ("missing continuation C2 41", b"\xC2\x41"),
    ("missing continuation E1 80 41", b"\xE1\x80\x41"),
    ("missing continuation F1 80 80 41", b"\xF1\x80\x80\x41"),
];

/// Errors of every kind, and valid edge sequences, for the 31-bit form.
const LEGACY31_KINDS: &[(&str, &[u8])] = &[
    ("valid U+0080", b"\xC2\x80"),
    ("valid U+0800", b"\xE0\xA0\x80"),
    ("valid U+D7FF", b"\xED\x9F\xBF"),
    ("valid U+E000", b"\xEE\x80\x80"),
    ("valid U+10FFFF", b"\xF4\x8F\xBF\xBF"),
    ("valid U+110000", b"\xF4\x90\x80\x80"),
    ("valid U+1FFFFF", b"\xF7\xBF\xBF\xBF"),
    ("valid U+200000", b"\xF8\x88\x80\x80\x80"),
    ("valid U+3FFFFFF", b"\xFB\xBF\xBF\xBF\xBF"),
    ("valid U+4000000", b"\xFC\x84\x80\x80\x80\x80"),
    ("valid U+7FFFFFFF", b"\xFD\xBF\xBF\xBF\xBF\xBF"),
    ("overlong C0 80", b"\xC0\x80"),
    ("overlong E0 9F BF", b"\xE0\x9F\xBF"),
    ("overlong F0 8F BF BF", b"\xF0\x8F\xBF\xBF"),
    ("overlong F8 87 BF BF BF", b"\xF8\x87\xBF\xBF\xBF"),
    ("overlong F8 80 80 80 80", b"\xF8\x80\x80\x80\x80"),
    ("overlong FC 83 BF BF BF BF", b"\xFC\x83\xBF\xBF\xBF\xBF"),
    ("overlong FC 80 80 80 80 80", b"\xFC\x80\x80\x80\x80\x80"),
    ("surrogate ED A0 80", b"\xED\xA0\x80"),
    ("surrogate ED BF BF", b"\xED\xBF\xBF"),
    ("too large FE", b"\xFE"),
    ("too large FF", b"\xFF"),
    (
        "too large FE 80 80 80 80 80 80",
        b"\xFE\x80\x80\x80\x80\x80\x80",
    ),
    ("truncated 4-byte F4 90 80", b"\xF4\x90\x80"),
    ("truncated 5-byte after 1", b"\xF8"),
    ("truncated 5-byte after 4", b"\xF8\x88\x80\x80"),
    ("truncated 6-byte after 1", b"\xFC"),
    ("truncated 6-byte after 2", b"\xFD\xBF"),
    ("truncated 6-byte after 5", b"\xFC\x84\x80\x80\x80"),
    ("truncated 5-byte cut by ASCII", b"\xF8\x88\x80\x41"),
    ("truncated 6-byte cut by ASCII", b"\xFC\x84\x80\x80\x80\x41"),
    (
        "truncated 6-byte cut by a lead",
        b"\xFD\xBF\xBF\xFD\xBF\xBF\xBF\xBF\xBF",
    ),
    ("stray continuation 80", b"\x80"),
    ("stray continuation BF", b"\xBF"),
    (
        "continuation after a 6-byte sequence",
        b"\xFD\xBF\xBF\xBF\xBF\xBF\x80",
    ),
    ("missing continuation C2 41", b"\xC2\x41"),
    ("missing continuation F1 80 80 41", b"\xF1\x80\x80\x41"),
];

fn rfc3629_reference(bytes: &[u8]) -> Verdict {
    core::str::from_utf8(bytes)
        .map(|_| ())
        .map_err(|error| std_error_parts(&error))
}

fn legacy31_reference(bytes: &[u8]) -> Verdict {
    verdict(paths::legacy31(Path::Automaton, bytes).expect("the automaton runs everywhere"))
}

/// The paths that give `Some` on this machine, and those that do not.
///
/// Whether a path runs depends on the CPU and the build, not on the input;
/// the probe is a block of ASCII so that a path that mishandles short input
/// is reported by the tests, with the input, rather than here.
fn available(run: PathFn) -> (Vec<Path>, Vec<Path>) {
    let probe = [b'a'; 2 * BLOCK];
    Path::ALL
        .into_iter()
        .partition(|&path| run(path, &probe).is_some())
}

fn path_runners(run: PathFn, skip: Option<Path>) -> (Vec<Runner>, Vec<Path>) {
    let (runnable, unavailable) = available(run);
    let runners = runnable
        .into_iter()
        .filter(|&path| Some(path) != skip)
        .map(|path| Runner {
            name: format!("{path:?}"),
            every_alignment: matches!(path, Path::Simd(_)),
            run: Box::new(move |bytes| {
                verdict(run(path, bytes).unwrap_or_else(|| {
                    panic!("{path:?} ran on the probe but not on {}", Hex(bytes))
                }))
            }),
        })
        .collect();
    (runners, unavailable)
}

fn rfc3629_runners() -> (Vec<Runner>, Vec<Path>) {
    let (mut runners, unavailable) = path_runners(paths::rfc3629, None);
    runners.push(Runner {
        name: "from_utf8".to_owned(),
        every_alignment: false,
        run: Box::new(|bytes| match utf8_core::from_utf8(bytes) {
            // An `Ok` must be the input itself; anything else reads as an
            // error no reference gives.
            Ok(text) if core::ptr::eq(text.as_bytes(), bytes) => Ok(()),
            Ok(_) => Err((usize::MAX, None)),
            Err(error) => Err(error_parts(&error)),
        }),
    });
    (runners, unavailable)
}

fn legacy31_runners() -> (Vec<Runner>, Vec<Path>) {
    // The reference is the automaton path itself.
    let (mut runners, unavailable) = path_runners(paths::legacy31, Some(Path::Automaton));
    runners.push(Runner {
        name: "legacy31::validate".to_owned(),
        every_alignment: false,
        run: Box::new(|bytes| verdict(legacy31::validate(bytes))),
    });
    (runners, unavailable)
}

const RFC3629: Form = Form {
    reference: rfc3629_reference,
    runners: rfc3629_runners,
    units: RFC3629_UNITS,
    kinds: RFC3629_KINDS,
};

const LEGACY31: Form = Form {
    reference: legacy31_reference,
    runners: legacy31_runners,
    units: LEGACY31_UNITS,
    kinds: LEGACY31_KINDS,
};

// ---------------------------------------------------------------------------
// Placing inputs at an alignment, between guard bytes.

/// A buffer that copies an input to a chosen address modulo 64, with guard
/// bytes on both sides.
struct Aligned {
    storage: Vec<u8>,
    /// The offset in `storage` of a 64-byte-aligned address with at least a
    /// block of guard bytes before it.
    base: usize,
    /// What the last placement overwrote, to restore the guard bytes.
    dirty: Range<usize>,
}

impl Aligned {
    fn new(longest: usize) -> Aligned {
        let storage = vec![GUARD; longest + 4 * BLOCK];
        let address = storage.as_ptr() as usize;
        let base = BLOCK + (BLOCK - address % BLOCK) % BLOCK;
        Aligned {
            storage,
            base,
            dirty: 0..0,
        }
    }

    /// `bytes`, copied to an address that is `alignment` past a multiple of 64.
    fn place(&mut self, bytes: &[u8], alignment: usize) -> &[u8] {
        assert!(alignment < BLOCK);
        self.storage[self.dirty.clone()].fill(GUARD);
        let start = self.base + alignment;
        let end = start + bytes.len();
        assert!(
            end + BLOCK <= self.storage.len(),
            "input longer than the buffer"
        );
        self.storage[start..end].copy_from_slice(bytes);
        self.dirty = start..end;
        let placed = &self.storage[start..end];
        assert_eq!(placed.as_ptr() as usize % BLOCK, alignment);
        placed
    }
}

// ---------------------------------------------------------------------------
// Checking, counting and reporting.

/// Failures of each runner reported in full; the rest are only counted.
const REPORTED: usize = 3;

/// Failures after which a runner is dropped from the rest of the test, so
/// that a broken path (which may panic on every input, and unwinding costs
/// microseconds) still fails the test quickly. Inputs shorter than
/// `SIMD_THRESHOLD` and the others are counted apart: the vector paths
/// frame short input differently, and one broken case should not hide the
/// other.
const GIVE_UP: u64 = 200;

/// Which failure count an input goes to: short (under `SIMD_THRESHOLD`) or not.
fn size_class(bytes: &[u8]) -> usize {
    usize::from(bytes.len() >= utf8_core::SIMD_THRESHOLD)
}

const SIZE_CLASSES: [&str; 2] = ["shorter than SIMD_THRESHOLD", "SIMD_THRESHOLD or longer"];

/// How many runs of one runner on one size class disagreed, and the first reports.
#[derive(Default)]
struct Failures {
    count: u64,
    reports: Vec<String>,
}

thread_local! {
    /// Whether this thread is inside a runner, whose panics are caught and
    /// reported with their input rather than printed one by one.
    static IN_RUNNER: Cell<bool> = const { Cell::new(false) };
}

/// Silences the panic hook inside runners only, so that the failure report
/// of a test (and every other test's output) still prints.
fn quiet_panics_in_runners() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_RUNNER.get() {
                default(info);
            }
        }));
    });
}

/// Runs `runner` on `bytes`, turning a panic into its message.
fn run_catching(runner: &Runner, bytes: &[u8]) -> Result<Verdict, String> {
    IN_RUNNER.set(true);
    let outcome = catch_unwind(AssertUnwindSafe(|| (runner.run)(bytes)));
    IN_RUNNER.set(false);
    outcome.map_err(|panic| {
        panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default()
    })
}

/// One test's comparisons: the form's runners at every alignment, against
/// the reference, with counts for the log and failures for the verdict.
struct Suite {
    test: &'static str,
    reference: fn(&[u8]) -> Verdict,
    runners: Vec<Runner>,
    /// Per runner and size class.
    failures: Vec<[Failures; 2]>,
    unavailable: Vec<Path>,
    buffer: Aligned,
    inputs: u64,
    placements: u64,
    runs: u64,
    started: Instant,
    /// Whether each input runs at an eighth of the alignments
    /// ([`SAMPLE_STRIDE`]), as `.ci/neon` asks under QEMU.
    sample: bool,
}

/// Under a sample, an input runs at every `SAMPLE_STRIDE`th alignment,
/// starting where the input's count says: eight inputs in a row cover every
/// alignment, and an error sweep's neighbouring positions every alignment at
/// nearly every position.
const SAMPLE_STRIDE: usize = 8;

impl Suite {
    fn new(test: &'static str, form: &Form) -> Suite {
        quiet_panics_in_runners();
        let (runners, unavailable) = (form.runners)();
        Suite {
            test,
            reference: form.reference,
            failures: runners.iter().map(|_| Default::default()).collect(),
            runners,
            unavailable,
            buffer: Aligned::new(LONGEST),
            inputs: 0,
            placements: 0,
            runs: 0,
            started: Instant::now(),
            sample: utf8_tests::levels::this_run().sample,
        }
    }

    /// Runs the runners on `bytes` at every alignment (those indifferent to
    /// addresses at [`FEW_ALIGNMENTS`]); `describe` says how the input was
    /// built (and where its error is), for reports.
    fn check(&mut self, bytes: &[u8], describe: impl Fn() -> String) {
        if self.sample {
            let first = self.inputs as usize % SAMPLE_STRIDE;
            self.run(
                bytes,
                ALIGNMENTS.skip(first).step_by(SAMPLE_STRIDE),
                false,
                describe,
            );
        } else {
            self.run(bytes, ALIGNMENTS, false, describe);
        }
    }

    /// Runs every runner on `bytes` at each of `alignments`.
    fn check_at(&mut self, bytes: &[u8], alignments: &[usize], describe: impl Fn() -> String) {
        self.run(bytes, alignments.iter().copied(), true, describe);
    }

    fn run(
        &mut self,
        bytes: &[u8],
        alignments: impl IntoIterator<Item = usize>,
        every_runner: bool,
        describe: impl Fn() -> String,
    ) {
        let expected = (self.reference)(bytes);
        self.inputs += 1;
        for alignment in alignments {
            let placed = self.buffer.place(bytes, alignment);
            self.placements += 1;
            let few = FEW_ALIGNMENTS.contains(&alignment);
            for (runner, failures) in self.runners.iter().zip(&mut self.failures) {
                let failures = &mut failures[size_class(bytes)];
                if !(every_runner || few || runner.every_alignment) || failures.count >= GIVE_UP {
                    continue;
                }
                self.runs += 1;
                // A panic (an `unreachable!` in the exact-error search, say)
                // is reported with its input like any other disagreement.
                let actual = match run_catching(runner, placed) {
                    Ok(actual) if actual == expected => continue,
                    Ok(actual) => format!("{actual:?}"),
                    Err(panic) => format!("a panic ({panic})"),
                };
                failures.count += 1;
                if failures.reports.len() < REPORTED {
                    failures.reports.push(format!(
                        "{} at alignment {alignment}: {}: expected {expected:?}, got {actual}; \
                         input of {} bytes: {}",
                        runner.name,
                        describe(),
                        bytes.len(),
                        Hex(bytes)
                    ));
                }
            }
        }
    }

    fn finish(self) {
        let names: Vec<&str> = self.runners.iter().map(|r| r.name.as_str()).collect();
        let failures: u64 = self.failures.iter().flatten().map(|f| f.count).sum();
        eprintln!(
            "{}: {} inputs, {} placements (input x alignment), {} runs of {names:?} \
             (not available here: {:?}), {failures} failures, in {:?}",
            self.test,
            self.inputs,
            self.placements,
            self.runs,
            self.unavailable,
            self.started.elapsed()
        );
        if failures == 0 {
            return;
        }
        let mut message = format!("{}: runs disagree with the reference\n", self.test);
        for (runner, failures) in self.runners.iter().zip(&self.failures) {
            for (failures, class) in failures.iter().zip(SIZE_CLASSES) {
                if failures.count > 0 {
                    let dropped = if failures.count >= GIVE_UP {
                        " (then no more runs of it there)"
                    } else {
                        ""
                    };
                    message += &format!(
                        "{} on inputs {class}: {} failures{dropped}; the first:\n",
                        runner.name, failures.count
                    );
                    for report in &failures.reports {
                        message += &format!("  {report}\n");
                    }
                }
            }
        }
        panic!("{message}");
    }
}

// ---------------------------------------------------------------------------
// Valid filler text.

const ASCII_TEXT: &[u8] = b"The quick brown fox jumps over the lazy dog, 0123456789 times.\n";

/// `len` bytes of ASCII text.
fn ascii(len: usize) -> impl Iterator<Item = u8> {
    ASCII_TEXT.iter().copied().cycle().take(len)
}

/// How the valid text around an error is made.
#[derive(Clone, Copy, Debug)]
enum Filler {
    /// ASCII only: every whole block of it is skipped by the vector check.
    Ascii,
    /// The form's units in turn from the one at this index, ASCII only where
    /// a unit would not fit.
    Units(usize),
    /// Units, then the last `ASCII_RUN` bytes before the error in ASCII: the
    /// error comes right after a run of ASCII that follows multi-byte text.
    UnitsThenAscii(usize),
}

/// Enough ASCII to hold a whole block wherever blocks start.
const ASCII_RUN: usize = 2 * BLOCK;

impl Filler {
    /// The same filler with its units started `by` further on, of `count`.
    fn shifted(self, by: usize, count: usize) -> Filler {
        match self {
            Filler::Ascii => Filler::Ascii,
            Filler::Units(phase) => Filler::Units((phase + by) % count),
            Filler::UnitsThenAscii(phase) => Filler::UnitsThenAscii((phase + by) % count),
        }
    }

    /// Exactly `len` bytes of valid text ending at a sequence boundary, its
    /// last unit (if any fits) right before the end.
    fn before(self, units: &[&[u8]], len: usize, out: &mut Vec<u8>) {
        match self {
            Filler::Ascii => out.extend(ascii(len)),
            Filler::Units(phase) => {
                // Units right to left from the end; ASCII for what is left at the start.
                let (chosen, left) = pick_units(units, phase, len);
                out.extend(ascii(left));
                for unit in chosen.into_iter().rev() {
                    out.extend_from_slice(unit);
                }
            }
            Filler::UnitsThenAscii(phase) => {
                let run = ASCII_RUN.min(len);
                Filler::Units(phase).before(units, len - run, out);
                out.extend(ascii(run));
            }
        }
    }

    /// Exactly `len` bytes of valid text, its first unit right at the start.
    fn after(self, units: &[&[u8]], len: usize, out: &mut Vec<u8>) {
        match self {
            Filler::Ascii => out.extend(ascii(len)),
            Filler::Units(phase) | Filler::UnitsThenAscii(phase) => {
                let (chosen, left) = pick_units(units, phase, len);
                for unit in chosen {
                    out.extend_from_slice(unit);
                }
                out.extend(ascii(left));
            }
        }
    }
}

/// The units from the one at `phase` on, cut after `len` bytes wherever that
/// falls (possibly inside a sequence).
fn cut_stream(units: &[&[u8]], phase: usize, len: usize) -> Vec<u8> {
    (phase..)
        .flat_map(|i| units[i % units.len()].iter().copied())
        .take(len)
        .collect()
}

// ---------------------------------------------------------------------------
// The three kinds of test, written once for both forms.

/// Lengths around the thresholds: every one up to a little past two blocks,
/// and the group, alignment and end-of-block sizes beyond.
fn interesting_lengths() -> Vec<usize> {
    let mut lengths: Vec<usize> = (0..=130).collect();
    lengths.extend([
        191, 192, 193, 255, 256, 257, 300, 319, 320, 321, 511, 512, 513, 1000, 4095, 4096, 4097,
        LONGEST,
    ]);
    lengths
}

fn valid_text_at_every_length_and_alignment(test: &'static str, form: &Form) {
    // The lengths must straddle the switch from the shift DFA to the vector paths.
    let threshold = utf8_core::SIMD_THRESHOLD;
    assert!(
        (threshold - 1..=threshold + 1).all(|len| interesting_lengths().contains(&len)),
        "interesting_lengths() must cover SIMD_THRESHOLD ({threshold}) and its neighbours"
    );
    let mut suite = Suite::new(test, form);
    let mut input = Vec::new();
    for len in interesting_lengths() {
        input.clear();
        Filler::Ascii.before(form.units, len, &mut input);
        suite.check(&input, || format!("{len} bytes of ASCII"));
        for phase in 0..form.units.len() {
            input.clear();
            Filler::Units(phase).before(form.units, len, &mut input);
            suite.check(&input, || {
                format!("{len} bytes of units from {phase}, ASCII first")
            });
            input.clear();
            Filler::Units(phase).after(form.units, len, &mut input);
            suite.check(&input, || {
                format!("{len} bytes of units from {phase}, ASCII last")
            });
            // Cut anywhere: valid, or truncated by the end of input.
            let cut = cut_stream(form.units, phase, len);
            suite.check(&cut, || format!("units from {phase} cut after {len} bytes"));
        }
    }
    suite.finish();
}

/// Where the sweeps put each kind: every byte of the first five blocks and a
/// little more (crossing the group boundary at 256 and the one after the
/// first aligned block of inputs over 256 bytes), and stretches around the
/// ends of later groups.
fn error_positions() -> impl Iterator<Item = usize> {
    (0..=330)
        .chain(500..=520)
        .chain(1020..=1030)
        .chain(4090..=4100)
}

fn each_kind_at_each_position(test: &'static str, form: &Form, fillers: &[Filler]) {
    let mut suite = Suite::new(test, form);
    let mut input = Vec::with_capacity(LONGEST);
    for &filler in fillers {
        for (index, &(kind, bytes)) in form.kinds.iter().enumerate() {
            for position in error_positions() {
                if matches!(filler, Filler::UnitsThenAscii(_)) && position <= ASCII_RUN {
                    // All ASCII before the error, as with `Filler::Ascii`.
                    continue;
                }
                // A different unit right before (and after) the error from
                // one position and kind to the next.
                let filler = filler.shifted(index + position, form.units.len());
                let end = position + bytes.len();
                // Right at the end of input (where a truncated sequence is
                // cut by the end), and followed by filler in an input long
                // enough for the aligned main loop (where it is cut by
                // ASCII or by a lead byte, as the kinds that end in one).
                let longer = if position < 500 { 700 } else { LONGEST };
                for total in [end, longer] {
                    input.clear();
                    filler.before(form.units, position, &mut input);
                    input.extend_from_slice(bytes);
                    filler.after(form.units, total - end, &mut input);
                    assert_eq!(input.len(), total);
                    suite.check(&input, || {
                        format!("{kind} at position {position} of {total}, filler {filler:?}")
                    });
                }
            }
        }
    }
    suite.finish();
}

/// Every kind of error at every position of every input length from
/// `SIMD_THRESHOLD` to past [`IN_PLACE_BELOW`], in multi-byte filler: the
/// inputs a vector level checks in place, by vectors that overlap where the
/// length is not a whole number of them (and one vector more where they
/// would overlap by less than a check looks back). Addresses do not matter
/// there, so two alignments suffice.
fn each_kind_at_each_position_of_each_short_length(test: &'static str, form: &Form) {
    let mut suite = Suite::new(test, form);
    let mut input = Vec::with_capacity(IN_PLACE_BELOW + 8);
    for total in utf8_core::SIMD_THRESHOLD..IN_PLACE_BELOW + 8 {
        for (index, &(kind, bytes)) in form.kinds.iter().enumerate() {
            for position in 0..=total.saturating_sub(bytes.len()) {
                let filler = Filler::Units(index + position);
                let end = position + bytes.len();
                input.clear();
                filler.before(form.units, position, &mut input);
                input.extend_from_slice(bytes);
                filler.after(form.units, total - end, &mut input);
                suite.check_at(&input, &[0, 1], || {
                    format!("{kind} at position {position} of {total}")
                });
            }
        }
    }
    suite.finish();
}

/// The length from which a vector level frames an input's ends in blocks
/// instead of checking it in place (`utf8-core`'s `ALIGNED_FROM`).
const IN_PLACE_BELOW: usize = 2 * BLOCK;

/// Valid text of about `len` bytes: runs of ASCII, of units, and of random
/// scalar values.
fn random_text(rng: &mut Rng, units: &[&[u8]], len: usize, out: &mut Vec<u8>) {
    while out.len() < len {
        let longest_run = if rng.below(4) == 0 { 300 } else { 24 };
        let run = 1 + rng.below(longest_run);
        match rng.below(3) {
            0 => out.extend(ascii(run)),
            1 => {
                for _ in 0..run {
                    out.extend_from_slice(units[rng.below(units.len())]);
                }
            }
            _ => {
                for _ in 0..run {
                    let value = match rng.below(4) {
                        0 => rng.below(0x80),
                        1 => rng.below(0x800),
                        2 => rng.below(0x1_0000),
                        _ => rng.below(0x11_0000),
                    };
                    let c = char::from_u32(value as u32).unwrap_or('\u{FFFD}');
                    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
            }
        }
    }
    out.truncate(len);
    // Truncating may cut a sequence; that is one more kind of error, kept.
}

fn random_mutation(rng: &mut Rng, kinds: &[(&'static str, &'static [u8])]) -> Mutation {
    let position = rng.below(usize::MAX);
    match rng.below(5) {
        0 => Mutation::Flip {
            position,
            mask: rng.below(256) as u8,
        },
        1 => Mutation::Insert {
            position,
            byte: rng.below(256) as u8,
        },
        2 => Mutation::Delete { position },
        3 => Mutation::Truncate { position },
        _ => Mutation::Splice {
            position,
            bytes: kinds[rng.below(kinds.len())].1,
        },
    }
}

fn random_mutations(test: &'static str, form: &Form, cases: usize, seed: u64) {
    let mut suite = Suite::new(test, form);
    let mut rng = Rng::new(seed);
    let mut input = Vec::with_capacity(LONGEST);
    for case in 0..cases {
        let len = rng.below(1200);
        input.clear();
        random_text(&mut rng, form.units, len, &mut input);
        // A quarter stay as they are (valid, or cut at the end); the rest get
        // up to four edits, and one in sixteen is random bytes outright.
        let mutations = match rng.below(16) {
            0 => {
                input.iter_mut().for_each(|b| *b = rng.below(256) as u8);
                0
            }
            1..=4 => 0,
            _ => 1 + rng.below(4),
        };
        for _ in 0..mutations {
            let mutation = random_mutation(&mut rng, form.kinds);
            mutate(&mut input, &mutation);
        }
        input.truncate(LONGEST);
        let alignments = [rng.below(BLOCK), rng.below(BLOCK)];
        suite.check_at(&input, &alignments, || {
            format!("random case {case} of seed {seed:#x}")
        });
    }
    suite.finish();
}

// ---------------------------------------------------------------------------
// RFC 3629.

#[test]
fn rfc3629_valid_text_at_every_length_and_alignment() {
    valid_text_at_every_length_and_alignment("rfc3629 valid text", &RFC3629);
}

#[test]
fn rfc3629_each_error_at_each_position_after_ascii() {
    each_kind_at_each_position("rfc3629 errors after ASCII", &RFC3629, &[Filler::Ascii]);
}

#[test]
fn rfc3629_each_error_at_each_position_after_multibyte_text() {
    each_kind_at_each_position(
        "rfc3629 errors after multi-byte text",
        &RFC3629,
        &[Filler::Units(0)],
    );
}

#[test]
fn rfc3629_each_error_at_each_position_after_an_ascii_run() {
    each_kind_at_each_position(
        "rfc3629 errors after an ASCII run",
        &RFC3629,
        &[Filler::UnitsThenAscii(1)],
    );
}

#[test]
fn rfc3629_each_error_at_each_position_of_each_short_length() {
    each_kind_at_each_position_of_each_short_length("rfc3629 errors in short inputs", &RFC3629);
}

#[test]
fn rfc3629_random_mutations() {
    random_mutations("rfc3629 random", &RFC3629, 40_000, 0x5EED_3629);
}

// ---------------------------------------------------------------------------
// The 31-bit legacy form.

#[test]
fn legacy31_valid_text_at_every_length_and_alignment() {
    valid_text_at_every_length_and_alignment("legacy31 valid text", &LEGACY31);
}

#[test]
fn legacy31_each_error_at_each_position_after_ascii() {
    each_kind_at_each_position(
        "legacy31 errors after ASCII",
        &LEGACY31,
        &[Filler::Ascii, Filler::UnitsThenAscii(3)],
    );
}

#[test]
fn legacy31_each_error_at_each_position_after_multibyte_text() {
    each_kind_at_each_position(
        "legacy31 errors after multi-byte text",
        &LEGACY31,
        &[Filler::Units(1)],
    );
}

#[test]
fn legacy31_each_error_at_each_position_of_each_short_length() {
    each_kind_at_each_position_of_each_short_length("legacy31 errors in short inputs", &LEGACY31);
}

#[test]
fn legacy31_random_mutations() {
    random_mutations("legacy31 random", &LEGACY31, 40_000, 0x5EED_0031);
}

// ---------------------------------------------------------------------------
// Which paths run where.

/// The vector levels that this machine's architecture has and its CPU
/// reports, in the order of `Path::ALL`.
fn levels_this_cpu_has() -> Vec<Level> {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    {
        let mut levels = Vec::new();
        if is_x86_feature_detected!("sse4.1") {
            levels.push(Level::Sse41);
        }
        if is_x86_feature_detected!("avx2") {
            levels.push(Level::Avx2);
        }
        if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
            levels.push(Level::Avx512);
        }
        levels
    }
    // NEON is part of the baseline of every aarch64 target Rust has.
    #[cfg(target_arch = "aarch64")]
    {
        vec![Level::Neon]
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "x86", target_arch = "aarch64")))]
    {
        Vec::new()
    }
}

/// The suites above run only the paths that `available` finds, so a vector
/// path that stopped running where it should (NEON under QEMU in CI, say)
/// would leave them all passing on the scalar paths. This holds each
/// architecture to the vector paths its CPU has, `from_utf8`'s dispatch to
/// the best of them, and each of them to the reference on inputs long
/// enough for the vector loop, errors at and across block boundaries.
#[test]
fn the_vector_paths_this_cpu_has_run_and_agree() {
    let levels = levels_this_cpu_has();
    let mut expected = vec![Path::Automaton, Path::Shift];
    expected.extend(levels.iter().copied().map(Path::Simd));
    assert_eq!(available(paths::rfc3629).0, expected, "RFC 3629 paths");
    assert_eq!(available(paths::legacy31).0, expected, "legacy31 paths");
    let best = levels.last().copied().unwrap_or(Level::Portable);
    assert_eq!(utf8_core::cpu::level(), best, "the level from_utf8 runs");

    let mut buffer = Aligned::new(LONGEST);
    for (form, run) in [
        (&RFC3629, paths::rfc3629 as PathFn),
        (&LEGACY31, paths::legacy31),
    ] {
        for position in [0, 63, 64, 130, 255, 256, 600, 699] {
            let mut input = Vec::new();
            Filler::Units(position).before(form.units, position, &mut input);
            input.extend_from_slice(b"\xED\xA0\x80");
            Filler::Units(0).after(form.units, 700 - position, &mut input);
            let expected_verdict = (form.reference)(&input);
            assert!(expected_verdict.is_err(), "a surrogate at {position}");
            for alignment in [0, 1, 15, 33] {
                let placed = buffer.place(&input, alignment);
                for level in &levels {
                    let path = Path::Simd(*level);
                    let result = run(path, placed).expect("available on the probe");
                    assert_eq!(
                        verdict(result),
                        expected_verdict,
                        "{path:?} at alignment {alignment}, surrogate at {position}: {}",
                        Hex(&input)
                    );
                }
            }
        }
    }
}

/// Units taken in turn from `phase` while they fit in `len` bytes, and the
/// bytes left over for ASCII.
fn pick_units<'u>(units: &[&'u [u8]], phase: usize, len: usize) -> (Vec<&'u [u8]>, usize) {
    let mut chosen = Vec::new();
    let mut left = len;
    for index in (phase..).map(|i| i % units.len()) {
        let unit = units[index];
        if unit.len() > left {
            break;
        }
        left -= unit.len();
        chosen.push(unit);
    }
    (chosen, left)
}

/// Where the streaming validator's test for a piece of ASCII should stop:
/// the start of the block that holds the first byte that is not
/// `skippable`, or the end where every byte is.
fn skippable_prefix_reference(bytes: &[u8], skippable: fn(u8) -> bool) -> usize {
    bytes
        .iter()
        .position(|&b| !skippable(b))
        .map_or(bytes.len(), |at| at / BLOCK * BLOCK)
}

/// `paths::skippable_prefix` of `R` at each vector level this CPU runs,
/// against [`skippable_prefix_reference`]: every length to 200 at five
/// alignments (past a 64-byte boundary), all skippable and with each of
/// `unskippable` at each place.
fn skippable_prefix_at_every_level<R: utf8_core::Ruleset>(
    skippable: fn(u8) -> bool,
    unskippable: &[u8],
) {
    let levels = [Level::Sse41, Level::Avx2, Level::Avx512, Level::Neon];
    let mut storage = vec![0u8; 256 + BLOCK];
    let aligned = storage.as_ptr().align_offset(BLOCK);
    let mut ran = 0;
    for level in levels {
        let path = Path::Simd(level);
        if paths::skippable_prefix::<R>(path, b"").is_none() {
            continue;
        }
        ran += 1;
        for offset in [0, 1, 17, 32, 63] {
            for len in 0..=200 {
                let at = aligned + offset;
                let bad_places =
                    (0..len).flat_map(|place| unskippable.iter().map(move |&b| Some((place, b))));
                for bad in [None].into_iter().chain(bad_places) {
                    let bytes = &mut storage[at..at + len];
                    for (i, byte) in bytes.iter_mut().enumerate() {
                        *byte = b'a' + (i % 26) as u8;
                    }
                    if let Some((place, byte)) = bad {
                        bytes[place] = byte;
                    }
                    assert_eq!(
                        paths::skippable_prefix::<R>(path, bytes),
                        Some(skippable_prefix_reference(bytes, skippable)),
                        "{} at {level:?}: {len} bytes at {offset} past 64, {bad:?}",
                        R::NAME
                    );
                }
            }
        }
    }
    assert!(ran > 0 || !cfg!(any(target_arch = "x86_64", target_arch = "aarch64")));
}

#[test]
fn the_streaming_validators_ascii_prefix_is_whole_blocks_at_every_level() {
    skippable_prefix_at_every_level::<utf8_core::Rfc3629>(|b| b < 0x80, &[0x80, 0xE9, 0xFF]);
    // Modified UTF-8 skips `%x01-7F`: its NUL is two bytes.
    skippable_prefix_at_every_level::<utf8_core::mutf8::Mutf8>(
        |b| (0x01..0x80).contains(&b),
        &[0x00, 0xC0],
    );
}
