//! The cases of the bounds suites, and what each entry point is held to on
//! one case: one catalogue that two placements run.
//!
//! - `tests/tests/guard_pages.rs` places each case against a page that
//!   faults on any access (natively, where a call costs microseconds: the
//!   dense grids below);
//! - `utf8-core/tests/miri_bounds.rs` places each case in an allocation of
//!   its own, for Miri, which reports a read outside it as undefined
//!   behaviour (a call on a few hundred bytes costs milliseconds there: the
//!   samples below).
//!
//! A placement decides where a slice lies ([`Spot`]) and supplies memory
//! of its own for the pieces and buffers some entry points take
//! ([`Placement::own`]); everything else, the inputs, the entry points and
//! their references, is here. This file uses nothing but `utf8_core`, std,
//! `crate::oracles` and `crate::columns`, so that the Miri suite, which
//! cannot depend on this crate, includes the three files by path.

use std::fmt::{self, Write as _};
use std::io::{BufRead, Read};

use utf8_core::paths::{self, Path};
use utf8_core::{
    Rfc3629, Ruleset, Utf8Error, ValidatingBufReader, ValidatingReader, Validator, cesu8, legacy31,
    mutf8, parallel, rfc2279, wtf8,
};

use crate::oracles::{
    Item, Verdict, io_error_parts, std_chunks, std_items, std_verdict, str_verdict, verdict,
};

/// The vector check's block, and the period of the alignments that matter.
pub const BLOCK: usize = 64;

/// One-shot validation in one ruleset, as a function pointer.
pub type Validate = fn(&[u8]) -> Result<(), Utf8Error>;

/// `paths::rfc3629`, `paths::legacy31` or `paths::ruleset::<R>`.
pub type PathFn = fn(Path, &[u8]) -> Option<Result<(), Utf8Error>>;

/// The answer a function is held to.
pub type Reference = fn(&[u8]) -> Verdict;

/// The paths of one ruleset under a name, and their reference.
pub type PathCheck = (&'static str, PathFn, Reference);

/// Bytes as `[C2 A9]`, so that a failing input can be pasted back into a test.
pub struct Hex<'a>(pub &'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('[')?;
        for (index, byte) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_char(' ')?;
            }
            write!(f, "{byte:02X}")?;
        }
        f.write_char(']')
    }
}

impl fmt::Debug for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

// ---------------------------------------------------------------------------
// The inputs.

/// Valid text that fills any length: its units in turn, then ASCII.
pub struct Filler {
    pub name: &'static str,
    pub units: &'static [&'static str],
}

/// The report's text, and one- to four-byte characters mixed.
pub const FILLERS: [Filler; 2] = [
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
    pub fn text(&self, len: usize) -> String {
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
pub struct Kind {
    pub name: &'static str,
    /// The forms, used in turn by position.
    pub forms: &'static [&'static [u8]],
    /// Whether the form must end the input (a sequence cut off by the end).
    pub at_end: bool,
    /// The form of the samples, which place one form of each kind.
    pub sampled: usize,
}

pub const KINDS: [Kind; 7] = [
    Kind {
        name: "a stray continuation byte",
        forms: &[b"\x80", b"\xBF"],
        at_end: false,
        sampled: 0,
    },
    Kind {
        name: "a sequence cut off in mid-text",
        forms: &[b"\xC3", b"\xE2\x82", b"\xF0\x9F\x92"],
        at_end: false,
        sampled: 1,
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
        sampled: 1,
    },
    Kind {
        name: "a surrogate",
        forms: &[b"\xED\xA0\x80", b"\xED\xBF\xBF"],
        at_end: false,
        sampled: 0,
    },
    Kind {
        name: "a code point above U+10FFFF",
        forms: &[b"\xF4\x90\x80\x80", b"\xF4\xBF\xBF\xBF"],
        at_end: false,
        sampled: 0,
    },
    Kind {
        name: "an invalid byte",
        forms: &[
            b"\xF5", b"\xF6", b"\xF7", b"\xF8", b"\xF9", b"\xFA", b"\xFB", b"\xFC", b"\xFD",
            b"\xFE", b"\xFF",
        ],
        at_end: false,
        sampled: 0,
    },
    Kind {
        name: "a sequence cut off by the end",
        forms: &[b"\xC3", b"\xE2\x82", b"\xF0\x9F\x92"],
        at_end: true,
        sampled: 2,
    },
];

/// An input: `len` bytes of a text, valid or with one error.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub len: usize,
    /// The text around the error.
    pub text: &'static str,
    /// What is wrong, and where.
    pub error: Option<(&'static str, usize)>,
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes of {}", self.len, self.text)?;
        match self.error {
            Some((kind, at)) => write!(f, ", with {kind} at {at}"),
            None => f.write_str(", valid"),
        }
    }
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

/// The case of `len` bytes of `filler` with `form` of `kind` at `at` (or
/// valid), and its bytes.
pub fn case(filler: &Filler, len: usize, error: Option<(&Kind, &[u8], usize)>) -> (Case, Vec<u8>) {
    let mut bytes = Vec::with_capacity(len);
    build(
        &mut bytes,
        &filler.text(len),
        len,
        error.map(|(_, form, at)| (form, at)),
    );
    let case = Case {
        len,
        text: filler.name,
        error: error.map(|(kind, _, at)| (kind.name, at)),
    };
    (case, bytes)
}

/// The inputs of a dense sweep: lengths, and where in each the errors go.
///
/// [`Grid::columns`] is the column API's: lengths around a block and the
/// copying limit, errors first, in the middle and last.
pub struct Grid {
    pub fillers: &'static [Filler],
    pub lengths: Vec<usize>,
    pub positions: fn(usize) -> Vec<usize>,
}

/// The longest input of the grids: eleven blocks, into a third group.
pub const LONGEST: usize = 700;

impl Grid {
    /// Every length up to [`LONGEST`] and `also`, errors at every block
    /// boundary.
    pub fn dense(also: usize) -> Grid {
        Grid {
            fillers: &FILLERS,
            lengths: (0..=LONGEST).chain([also]).collect(),
            positions: at_block_boundaries,
        }
    }

    /// Lengths at and around each block boundary up to two groups, one of
    /// each alignment, and the report's; errors at every block boundary and
    /// in the middle.
    pub fn coarse() -> Grid {
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

    /// Lengths 0–8, four either side of 64 and of 256 and 257 (the copying
    /// check's limit), 300, 332 and [`LONGEST`]; errors at bytes 0, the
    /// middle and last.
    pub fn columns() -> Grid {
        let mut lengths: Vec<usize> = (0..=8).chain(60..=68).chain(252..=261).collect();
        lengths.extend([300, 332, LONGEST]);
        Grid {
            fillers: &FILLERS,
            lengths,
            positions: |len| vec![0, len / 2, len.saturating_sub(1)],
        }
    }

    /// Calls `check` on each input of the grid: each filler at each length,
    /// valid and then with each kind at each position (in turn through the
    /// kind's forms, each placement once).
    pub fn each(&self, mut check: impl FnMut(Case, &[u8])) {
        let mut bytes = Vec::new();
        let mut placed = Vec::new();
        let longest = self.lengths.iter().copied().max().unwrap_or(0);
        for filler in self.fillers {
            let text = filler.text(longest);
            for &len in &self.lengths {
                let mut case = Case {
                    len,
                    text: filler.name,
                    error: None,
                };
                build(&mut bytes, &text, len, None);
                check(case, &bytes);
                for kind in &KINDS {
                    let positions = if kind.at_end {
                        vec![len; kind.forms.len()]
                    } else {
                        (self.positions)(len)
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
                        check(case, &bytes);
                    }
                }
            }
        }
    }
}

/// Bytes 0 and 1, two before to one after each multiple of 64, and the last.
pub fn at_block_boundaries(len: usize) -> Vec<usize> {
    let mut positions = vec![0, 1];
    for boundary in (BLOCK..len).step_by(BLOCK) {
        positions.extend(boundary - 2..=boundary + 1);
    }
    positions.push(len.saturating_sub(1));
    positions
}

/// The sampled form of `kind` at `at` (at the end for a cut-off sequence;
/// pulled in from the end where it would not fit) in `len` bytes of
/// `filler`, or `None` when the input is too short for it.
fn sampled(filler: &Filler, len: usize, kind: usize, at: usize) -> Option<(Case, Vec<u8>)> {
    let kind = &KINDS[kind];
    let form = kind.forms[kind.sampled];
    let last = len.checked_sub(form.len())?;
    let at = if kind.at_end { last } else { at.min(last) };
    Some(case(filler, len, Some((kind, form, at))))
}

/// The length sample's cases for `len`: one error, whose kind and position
/// turn with the length over 0, 1, the middle, the end, and two before to
/// one after each multiple of 64, and at every eighth length (or where no
/// error fits) the valid text.
pub fn length_sample(len: usize) -> Vec<(Case, Vec<u8>)> {
    let filler = &FILLERS[len / 2 % FILLERS.len()];
    let mut positions = vec![0, 1, len / 2, len.saturating_sub(1)];
    for boundary in (BLOCK..len).step_by(BLOCK) {
        positions.extend(boundary - 2..=boundary + 1);
    }
    let kind = len % KINDS.len();
    let at = positions[len / KINDS.len() % positions.len()];
    let mut cases: Vec<_> = sampled(filler, len, kind, at).into_iter().collect();
    if len.is_multiple_of(8) || cases.is_empty() {
        cases.push(case(filler, len, None));
    }
    cases
}

/// The layered sample, for the entry points that reach the vector code
/// through more layers: 150 and 300 bytes, valid, with an error in the
/// last block and with one in the middle, each at the two alignments
/// (addresses mod 64) listed with it, a different two for each length,
/// 16 bytes apart so that they differ mod 32 too. The vector code under
/// these layers is held to every alignment by the length sample; what is
/// sampled here is the layers, which Miri interprets at every level, CI's
/// longest step.
pub fn layered_sample() -> Vec<(Case, Vec<u8>, Vec<usize>)> {
    let mut cases = Vec::new();
    for (index, len) in [150, 300].into_iter().enumerate() {
        let alignments: Vec<usize> = (0..2).map(|k| (k * 16 + index * 5 + 1) % BLOCK).collect();
        let filler = &FILLERS[index % FILLERS.len()];
        let (case, bytes) = case(filler, len, None);
        cases.push((case, bytes, alignments.clone()));
        let last_block = sampled(filler, len, index % KINDS.len(), len - BLOCK / 2);
        let middle = sampled(filler, len, (index + 3) % KINDS.len(), len / 2);
        cases.extend(
            [last_block, middle]
                .into_iter()
                .flatten()
                .map(|(case, bytes)| (case, bytes, alignments.clone())),
        );
    }
    cases
}

/// Inputs for [`mostly_long_views`] alone: 2,200 bytes (about 140 views,
/// two whole chunks of 64 and a part), valid and with an error in the
/// middle, at two alignments each. Under Miri, where each costs seconds,
/// the valid one at one alignment: the gathers read the same places in
/// both.
pub fn mostly_long_sample() -> Vec<(Case, Vec<u8>, Vec<usize>)> {
    let len = MOSTLY_LONG_BYTES;
    let filler = &FILLERS[1 % FILLERS.len()];
    let (case, bytes) = case(filler, len, None);
    if cfg!(miri) {
        return vec![(case, bytes, vec![3])];
    }
    let alignments = vec![3, 40];
    let mut cases = vec![(case, bytes, alignments.clone())];
    cases.extend(sampled(filler, len, 2, len / 2).map(|(case, bytes)| (case, bytes, alignments)));
    cases
}

/// The reported inputs: 332 bytes of "é" rejected at 312, the place of the
/// first report; 300 with the error at 150, the second's. Each with the
/// verdict the report gave, and the edge of a page it was found against.
pub fn reports() -> [(Case, Vec<u8>, Verdict, Spot); 2] {
    let mut the_332 = "é".repeat(166).into_bytes();
    the_332[312] = 0x80;
    the_332[313] = 0x41;
    let mut the_300 = "é".repeat(150).into_bytes();
    the_300[150] = 0x80;
    let case = |len, error| Case {
        len,
        text: FILLERS[0].name,
        error: Some(error),
    };
    [
        (
            case(332, ("80 41", 312)),
            the_332,
            Err((312, Some(1))),
            Spot::End,
        ),
        (
            case(300, ("80", 150)),
            the_300,
            Err((150, Some(1))),
            Spot::Start,
        ),
    ]
}

/// CESU-8's and WTF-8's own checks, whose pairing term carries lead bits
/// from vector to vector and leaves a block open on a pending lead: each
/// with its reference and text dense with surrogates (valid in the dialect,
/// so that the check reads to the end), cut at any byte.
pub fn pairing_checks() -> [(PathCheck, Vec<u8>); 2] {
    const PAIR: &[u8] = b"\xED\xA0\xBD\xED\xB8\x80";
    const LEAD: &[u8] = b"\xED\xA0\xBD";
    const TRAIL: &[u8] = b"\xED\xB8\x80";
    let cesu8_text = [PAIR, b"a", PAIR, PAIR, "é€".as_bytes()].concat();
    let wtf8_text = [LEAD, b"b", TRAIL, LEAD, LEAD, "😀".as_bytes(), TRAIL, LEAD].concat();
    [
        (
            (
                "paths::ruleset::<Cesu8>",
                paths::ruleset::<cesu8::Cesu8>,
                |bytes| verdict(cesu8::validate_const(bytes)),
            ),
            cesu8_text,
        ),
        (
            (
                "paths::ruleset::<Wtf8>",
                paths::ruleset::<wtf8::Wtf8>,
                |bytes| verdict(wtf8::validate_const(bytes)),
            ),
            wtf8_text,
        ),
    ]
}

// ---------------------------------------------------------------------------
// Placements.

/// Where a slice lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// Its first byte is the first after a guard page.
    Start,
    /// Its last byte is the last before a guard page.
    End,
    /// At this address mod 64, the slice an allocation of its own.
    Alignment(usize),
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spot::Start => f.write_str("starting at a page start"),
            Spot::End => f.write_str("ending at a page end"),
            Spot::Alignment(alignment) => write!(f, "at alignment {alignment}"),
        }
    }
}

/// Memory in which a read outside a slice is caught.
pub trait Placement {
    /// Calls `check` with a copy of `bytes` at each of `spots`.
    fn each(&mut self, spots: &[Spot], bytes: &[u8], check: &mut dyn FnMut(Spot, &mut [u8]));

    /// `len` bytes of memory of its own, lying as `spot` says where that
    /// means something, for a piece, a buffer or a converted copy; valid
    /// until the next call.
    fn own(&mut self, spot: Spot, len: usize) -> &mut [u8];

    /// A copy of `bytes` in [`Placement::own`] memory.
    fn own_copy(&mut self, spot: Spot, bytes: &[u8]) -> &mut [u8] {
        let slice = self.own(spot, bytes.len());
        slice.copy_from_slice(bytes);
        slice
    }
}

/// An entry point under test, as a failure names it.
#[derive(Clone, Copy, Debug)]
pub enum Entry {
    Named(&'static str),
    Cut(&'static str, usize),
    Path(&'static str, Path),
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Named(name) => f.write_str(name),
            Entry::Cut(name, cut) => write!(f, "{name}, pieces of {cut} bytes"),
            Entry::Path(name, path) => write!(f, "{name}({path:?})"),
        }
    }
}

/// What a suite does around each call, and how finely it cuts.
pub struct Suite {
    /// Called before each entry point runs on a slice: the guard-page
    /// suite notes the call for its fault report.
    pub watch: fn(Entry, Case, Spot, &[u8]),
    /// The pieces a stream is fed in, besides whole.
    pub cuts: &'static [usize],
    /// The most bytes an `io` adapter is read or consumed by at a time.
    pub read_steps: &'static [usize],
}

/// One case at one spot, in a suite.
#[derive(Clone, Copy)]
pub struct At<'s> {
    pub suite: &'s Suite,
    pub case: Case,
    pub spot: Spot,
}

impl At<'_> {
    /// Notes that `entry` is about to run on `slice`.
    pub fn watch(&self, entry: Entry, slice: &[u8]) {
        (self.suite.watch)(entry, self.case, self.spot, slice);
    }

    /// Fails with the entry point, the case and the bytes unless `got` is
    /// `want`.
    #[track_caller]
    pub fn expect<T: PartialEq + fmt::Debug>(&self, entry: Entry, bytes: &[u8], got: T, want: T) {
        if got != want {
            panic!(
                "{entry} on {} {}: got {got:?}, want {want:?}\ninput: {}",
                self.case,
                self.spot,
                Hex(bytes)
            );
        }
    }
}

/// Runs `check` on each input of `cases` at each of its spots.
pub fn run_cases<P: Placement + ?Sized>(
    suite: &Suite,
    memory: &mut P,
    cases: impl IntoIterator<Item = (Case, Vec<u8>, Vec<Spot>)>,
    mut check: impl FnMut(At<'_>, &mut [u8]),
) {
    for (case, bytes, spots) in cases {
        memory.each(&spots, &bytes, &mut |spot, slice| {
            check(Suite::at(suite, case, spot), slice);
        });
    }
}

impl Suite {
    fn at(&self, case: Case, spot: Spot) -> At<'_> {
        At {
            suite: self,
            case,
            spot,
        }
    }
}

// ---------------------------------------------------------------------------
// The paths.

/// The paths of `run` to force: natively each one this CPU runs, so that
/// every vector level it has is run rather than only the best; under Miri
/// the vector path of the level in use only, as `.ci/miri` runs each level
/// on its own, and the automaton and the shift DFA are safe, bounds-checked
/// code in which Miri has nothing to find that the native suites would not.
pub fn paths_under_test(run: PathFn) -> Vec<Path> {
    if cfg!(miri) {
        let path = Path::Simd(utf8_core::cpu::level());
        return run(path, b"").map(|_| path).into_iter().collect();
    }
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

/// The 31-bit legacy reference: the dialect's byte-at-a-time check.
pub fn legacy31_verdict(bytes: &[u8]) -> Verdict {
    verdict(legacy31::validate_const(bytes))
}

// ---------------------------------------------------------------------------
// What each entry point is held to on one case.

/// `from_utf8`, `from_utf8_const` and `from_utf8_mut` against std, each
/// answering with the input itself.
pub fn from_utf8_forms(at: At<'_>, slice: &mut [u8]) {
    let want = std_verdict(slice);
    let entry = Entry::Named("from_utf8");
    at.watch(entry, slice);
    at.expect(
        entry,
        slice,
        str_verdict(slice, utf8_core::from_utf8(slice)),
        want,
    );
    let entry = Entry::Named("from_utf8_const");
    at.watch(entry, slice);
    let got = str_verdict(slice, utf8_core::from_utf8_const(slice));
    at.expect(entry, slice, got, want);
    let entry = Entry::Named("from_utf8_mut");
    at.watch(entry, slice);
    let (start, len) = (slice.as_ptr(), slice.len());
    let got = match utf8_core::from_utf8_mut(slice) {
        Ok(text) => {
            assert_eq!((text.as_ptr(), text.len()), (start, len), "not the input");
            Ok(())
        }
        Err(error) => Err((error.valid_up_to(), error.error_len())),
    };
    at.expect(entry, slice, got, want);
}

/// `from_utf8` and each of `paths` of `paths::rfc3629` against `want`.
pub fn from_utf8_and_paths(at: At<'_>, slice: &[u8], paths: &[Path], want: Verdict) {
    let entry = Entry::Named("from_utf8");
    at.watch(entry, slice);
    at.expect(
        entry,
        slice,
        str_verdict(slice, utf8_core::from_utf8(slice)),
        want,
    );
    for &path in paths {
        let entry = Entry::Path("paths::rfc3629", path);
        at.watch(entry, slice);
        at.expect(
            entry,
            slice,
            paths::rfc3629(path, slice).map(verdict),
            Some(want),
        );
    }
}

/// Each of `paths` of `run`, named `name`, against `reference`.
pub fn each_path(at: At<'_>, slice: &[u8], (name, run, reference): PathCheck, paths: &[Path]) {
    let want = reference(slice);
    for &path in paths {
        let entry = Entry::Path(name, path);
        at.watch(entry, slice);
        at.expect(entry, slice, run(path, slice).map(verdict), Some(want));
    }
}

/// Each dialect's `validate`, `parallel::validate` below its threshold and
/// WTF-8's summaries (which run the UTF-8 shortcut, and so the vector
/// check), against the dialect's `validate_const`.
pub fn dialects_and_parallel(at: At<'_>, slice: &[u8]) {
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
            parallel::validate::<legacy31::Legacy31>,
            legacy31::validate_const,
        ),
        (
            "parallel::Summary::<Wtf8>::of",
            |bytes| parallel::Summary::<wtf8::Wtf8>::of(bytes).result(),
            wtf8::validate_const,
        ),
    ];
    for (name, validate, reference) in entries {
        at.watch(Entry::Named(name), slice);
        at.expect(
            Entry::Named(name),
            slice,
            verdict(validate(slice)),
            verdict(reference(slice)),
        );
    }
}

/// Feeds `pieces` to a validator of `R`, until the first error.
pub fn stream<'a, R: Ruleset>(pieces: impl IntoIterator<Item = &'a [u8]>) -> Verdict {
    let mut validator = Validator::<R>::for_ruleset();
    for piece in pieces {
        validator
            .update(piece)
            .map_err(|error| (error.valid_up_to(), error.error_len()))?;
    }
    verdict(validator.finish())
}

/// A validator of `R` fed `input` whole, in sub-slices of it, and in pieces
/// that each lie in `own` memory, so that a read past any piece is caught,
/// not only past the first or last.
fn stream_stays_inside<R: Ruleset>(
    at: At<'_>,
    name: &'static str,
    input: &[u8],
    own: &mut dyn Placement,
    want: Verdict,
) {
    at.watch(Entry::Named(name), input);
    at.expect(Entry::Named(name), input, stream::<R>([input]), want);
    for &cut in at.suite.cuts {
        at.watch(Entry::Cut(name, cut), input);
        at.expect(
            Entry::Cut(name, cut),
            input,
            stream::<R>(input.chunks(cut)),
            want,
        );
        let mut validator = Validator::<R>::for_ruleset();
        let got = input
            .chunks(cut)
            .try_for_each(|piece| {
                let piece = own.own_copy(at.spot, piece);
                at.watch(Entry::Cut(name, cut), piece);
                validator.update(piece)
            })
            .and_then(|()| validator.finish());
        at.expect(Entry::Cut(name, cut), input, verdict(got), want);
    }
}

/// The RFC 3629 and the 31-bit legacy validators, against one-shot
/// validation.
pub fn validators(at: At<'_>, slice: &[u8], own: &mut dyn Placement) {
    stream_stays_inside::<Rfc3629>(at, "Validator", slice, own, std_verdict(slice));
    let want = legacy31_verdict(slice);
    stream_stays_inside::<legacy31::Legacy31>(at, "legacy31::Validator", slice, own, want);
}

/// The validators of CESU-8, modified UTF-8 and WTF-8, which pass valid
/// UTF-8 through the UTF-8 shortcut, against the dialect's
/// `validate_const`.
pub fn dialect_validators(at: At<'_>, slice: &[u8], own: &mut dyn Placement) {
    let want = verdict(cesu8::validate_const(slice));
    stream_stays_inside::<cesu8::Cesu8>(at, "cesu8::Validator", slice, own, want);
    let want = verdict(mutf8::validate_const(slice));
    stream_stays_inside::<mutf8::Mutf8>(at, "mutf8::Validator", slice, own, want);
    let want = verdict(wtf8::validate_const(slice));
    stream_stays_inside::<wtf8::Wtf8>(at, "wtf8::Validator", slice, own, want);
}

/// `cesu8::to_str` and `mutf8::to_str` against themselves on a copy in
/// ordinary memory; and valid text converted to CESU-8, surrogate pairs and
/// all (the conversion's pair loop reads eight bytes at a time), in `own`
/// memory, against the text.
pub fn conversions_to_str(at: At<'_>, slice: &[u8], own: &mut dyn Placement) {
    type ToStr = for<'a> fn(&'a [u8]) -> Result<std::borrow::Cow<'a, str>, Utf8Error>;
    let entries: [(&str, ToStr); 2] = [
        ("cesu8::to_str", cesu8::to_str),
        ("mutf8::to_str", mutf8::to_str),
    ];
    let copy = slice.to_vec();
    for (name, to_str) in entries {
        let text = |bytes| {
            to_str(bytes)
                .map(|text| text.into_owned())
                .map_err(|e| (e.valid_up_to(), e.error_len()))
        };
        at.watch(Entry::Named(name), slice);
        at.expect(Entry::Named(name), slice, text(slice), text(&copy));
    }
    if let Ok(text) = std::str::from_utf8(slice) {
        // The library's own encoder: the answer wanted is the text itself,
        // so a wrong encoding fails here as surely as a wrong decoding.
        let placed = own.own_copy(at.spot, &cesu8::from_str(text));
        let entry = Entry::Named("cesu8::to_str of converted text");
        at.watch(entry, placed);
        let got = cesu8::to_str(placed).map(|text| text.into_owned());
        at.expect(entry, placed, got, Ok(text.to_owned()));
    }
}

/// `utf8_chunks`, `decode` and `from_utf8_lossy` against std's chunks, and
/// `from_utf8_owned` and `from_utf8_lossy_owned` (on a vector of exactly
/// the slice's length) against `String`'s.
pub fn chunks_decoding_and_lossy(at: At<'_>, slice: &[u8]) {
    let entry = Entry::Named("utf8_chunks");
    at.watch(entry, slice);
    let got: Vec<_> = utf8_core::utf8_chunks(slice)
        .map(|chunk| (chunk.valid(), chunk.invalid(), chunk.is_incomplete()))
        .collect();
    at.expect(entry, slice, got, std_chunks(slice));

    let entry = Entry::Named("decode");
    at.watch(entry, slice);
    let got: Vec<Item> = utf8_core::decode(slice)
        .map(|item| item.map_err(|error| (error.valid_up_to(), error.error_len())))
        .collect();
    at.expect(entry, slice, got, std_items(slice));

    let entry = Entry::Named("from_utf8_lossy");
    at.watch(entry, slice);
    let got = utf8_core::from_utf8_lossy(slice);
    at.expect(entry, slice, got, String::from_utf8_lossy(slice));

    let entry = Entry::Named("from_utf8_owned");
    at.watch(entry, slice);
    let got = utf8_core::from_utf8_owned(slice.to_vec())
        .map_err(|e| (verdict(Err(e.utf8_error())), e.into_bytes()));
    let want =
        String::from_utf8(slice.to_vec()).map_err(|e| (std_verdict(e.as_bytes()), e.into_bytes()));
    at.expect(entry, slice, got, want);

    let entry = Entry::Named("from_utf8_lossy_owned");
    at.watch(entry, slice);
    let got = utf8_core::from_utf8_lossy_owned(slice.to_vec());
    at.expect(
        entry,
        slice,
        got,
        String::from_utf8_lossy(slice).into_owned(),
    );
}

/// What an adapter handed out, and how the stream ended.
type Outcome = (Vec<u8>, Verdict);

/// `ValidatingReader` over `input`, reading into `buffer` (the input's
/// length) in reads of `step` bytes, then one more byte to reach the end
/// of the stream.
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
            Err(error) => return (buffer[..filled].to_vec(), Err(io_error_parts(error))),
        }
    }
}

/// `ValidatingBufReader` over `input` itself (a `&[u8]` hands out itself
/// from `fill_buf`), consuming at most `step` bytes at a time.
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
            Err(error) => return (out, Err(io_error_parts(error))),
        }
    }
}

/// Holds an adapter's outcome to what `io` promises: the input up to the
/// error (and at most the failing sequence's valid prefix past it, handed
/// out while it was still open), then one-shot validation's error.
fn expect_read(at: At<'_>, entry: Entry, input: &[u8], (out, got): Outcome, want: Verdict) {
    at.expect(entry, input, got, want);
    let handed_out_enough = match want {
        Ok(()) => out.len() == input.len(),
        Err((valid_up_to, _)) => out.len() >= valid_up_to && out.len() < valid_up_to + 4,
    };
    if !handed_out_enough || !input.starts_with(&out) {
        panic!(
            "{entry} on {} {}: handed out {}",
            at.case,
            at.spot,
            Hex(&out)
        );
    }
}

/// The reader validating the buffer it reads into, a buffer in `own`
/// memory, and the buffered reader validating what a `&[u8]` of the slice
/// buffers: the slice itself.
pub fn io_adapters(at: At<'_>, slice: &[u8], own: &mut dyn Placement) {
    let want = std_verdict(slice);
    for &step in at.suite.read_steps {
        let entry = Entry::Cut("ValidatingReader", step.min(slice.len()));
        let buffer = own.own(at.spot, slice.len());
        at.watch(entry, buffer);
        expect_read(at, entry, slice, read_into(slice, buffer, step), want);
        let entry = Entry::Cut("ValidatingBufReader", step.min(slice.len()));
        at.watch(entry, slice);
        expect_read(at, entry, slice, buf_read(slice, step), want);
    }
}

/// Rows cut from a slice, as lengths taken in turn until the slice ends
/// (the last row cut to end with it): short rows, and rows either side of
/// the copying check's limit of 256 bytes.
const COLUMN_CUTS: [&[usize]; 2] = [&[0, 1, 3, 7, 2, 13, 0, 5, 17, 12], &[129, 0, 257, 256, 1]];

/// The offsets of rows cut from `from..to` by `cuts`, then two empty rows
/// at `to`.
fn column_offsets(from: usize, to: usize, cuts: &[usize]) -> Vec<usize> {
    let mut offsets = vec![from];
    let mut at = from;
    for &cut in cuts.iter().cycle() {
        if at >= to {
            break;
        }
        at = (at + cut).min(to);
        offsets.push(at);
    }
    offsets.extend([to, to]);
    offsets
}

/// Runs a check of `crate::columns` as `entry`, failing with the case and
/// the spot as well as the check's own message.
fn column_check(at: At<'_>, entry: &'static str, slice: &[u8], check: impl FnOnce()) {
    at.watch(Entry::Named(entry), slice);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check));
    if let Err(panic) = result {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("a panic");
        panic!(
            "{entry} on {} {}: {message}\ninput: {}",
            at.case,
            at.spot,
            Hex(slice)
        );
    }
}

/// The column API with the slice as an offsets column's values and as the
/// data buffer of a views column, each cut into rows (short ones at even
/// lengths, ones either side of 256 bytes at odd) whose last ends at the
/// slice's end (and then two empty rows, so that the in-place check's
/// first-byte test meets offsets at the end of the values), whole and
/// sliced a byte in at both ends; with a null bitmap in `own` memory
/// (at the slice's spot, so ending at a guard page); and a page of the
/// same rows in `own` memory, whole and cut a byte short. Under RFC 3629
/// (the in-place and the copying check), CESU-8 (the same, by its own
/// table) and WTF-8 (a row at a time), and modified UTF-8's views (the
/// copying check, which reads inline strings through the views' bytes),
/// against `crate::columns`. Under Miri, where each check of a few hundred
/// bytes costs seconds, the whole slice alone and RFC 3629 and modified
/// UTF-8 alone: the paths with `unsafe` code (the gathered first-byte test
/// of `i32` offsets, the views' bytes) and the copying check.
pub fn columns(at: At<'_>, slice: &[u8], own: &mut dyn Placement) {
    use crate::columns::{CESU8, MUTF8, RFC3629, WTF8, check_offsets, check_page, check_views};
    use crate::columns::{page_of, view_of};
    use utf8_core::cesu8::Cesu8;
    use utf8_core::mutf8::Mutf8;
    use utf8_core::wtf8::Wtf8;

    let len = slice.len();
    let cuts = COLUMN_CUTS[len % 2];
    let inner = (len.min(1), len.saturating_sub(1).max(len.min(1)));
    let ranges: &[(usize, usize)] = if cfg!(miri) {
        &[(0, len)]
    } else {
        &[(0, len), inner]
    };
    let full = !cfg!(miri);
    for &(from, to) in ranges {
        let offsets = column_offsets(from, to, cuts);
        let rows = offsets.len() - 1;
        let narrow: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
        let wide: Vec<u64> = offsets.iter().map(|&o| o as u64).collect();
        column_check(at, "column::Offsets", slice, || {
            check_offsets::<i32, Rfc3629>(&RFC3629, &narrow, slice, None);
            if full {
                check_offsets::<u64, Cesu8>(&CESU8, &wide, slice, None);
                check_offsets::<i32, Wtf8>(&WTF8, &narrow, slice, None);
            }
        });
        // Every third row null, the bitmap at bit 3 and of exactly the
        // bytes it needs, ending where the spot says.
        let mut bits = vec![0u8; (3 + rows).div_ceil(8)];
        for row in (0..rows).filter(|row| row % 3 != 1) {
            bits[(3 + row) / 8] |= 1 << ((3 + row) % 8);
        }
        let bits = &*own.own_copy(at.spot, &bits);
        column_check(at, "column::Offsets with nulls", slice, || {
            check_offsets::<i32, Rfc3629>(&RFC3629, &narrow, slice, Some((bits, 3)));
            if full {
                check_offsets::<i32, Wtf8>(&WTF8, &narrow, slice, Some((bits, 3)));
            }
        });

        // The same rows as views of the slice, and the last 13 bytes
        // and the whole slice as two more.
        let mut views: Vec<u128> = offsets
            .windows(2)
            .map(|pair| view_of(&slice[pair[0]..pair[1]], 0, pair[0] as u32))
            .collect();
        for start in [len.saturating_sub(13), 0] {
            views.push(view_of(&slice[start..], 0, start as u32));
        }
        let buffers = [slice];
        column_check(at, "column::Views", slice, || {
            check_views::<Rfc3629>(&RFC3629, &views, &buffers, None);
            check_views::<Mutf8>(&MUTF8, &views, &buffers, None);
            if full {
                check_views::<Cesu8>(&CESU8, &views, &buffers, None);
                check_views::<Wtf8>(&WTF8, &views, &buffers, None);
                check_views::<Rfc3629>(&RFC3629, &views[..rows], &buffers, Some((bits, 3)));
            }
        });

        if full {
            mostly_long_views(at, &slice[..to], from);
        }

        // The rows as a page, ending where the spot says; and cut short.
        let cut: Vec<&[u8]> = offsets.windows(2).map(|p| &slice[p[0]..p[1]]).collect();
        let page = page_of(&cut, b"");
        for end in [page.len(), page.len() - 1] {
            let placed = &*own.own_copy(at.spot, &page[..end]);
            column_check(at, "column::PlainPage", placed, || {
                check_page::<Rfc3629>(&RFC3629, placed, rows);
                if full {
                    check_page::<Cesu8>(&CESU8, placed, rows);
                    check_page::<Wtf8>(&WTF8, placed, rows);
                }
            });
        }
    }
}

/// How many strings of at least 13 bytes (in data buffers) a chunk of 64
/// views needs for the views check to walk them eight views at a time
/// (utf8-core's `column::inline`).
const MOSTLY_LONG: usize = 32;

/// The length of [`mostly_long_sample`]'s inputs: views for two whole
/// chunks of 64, the second of which the views check reads in one pass
/// (its first begins the span the second continues), and a part chunk.
pub const MOSTLY_LONG_BYTES: usize = 2200;

/// The views column of `slice` from `from` to its end cut into strings of
/// 13 to 20 bytes back to back (the last ending at the slice's end), each
/// moved back to the start of a character, every eighth row inline, where
/// the slice has room for a chunk of mostly such strings: the views
/// check's eight-at-a-time walk, whose gather reads each string's first
/// four bytes once its range is found within the data buffer, and in a
/// second whole chunk its one pass over the views. Then with a view's
/// offset 2 bytes before the end, and far past it, and its length past the
/// end, in the first chunk, the second and the last view: the gather must
/// not read there. Under RFC 3629, against `crate::columns`.
pub fn mostly_long_views(at: At<'_>, slice: &[u8], from: usize) {
    use crate::columns::{RFC3629, check_views, view_of};

    // Rows from the end back, as (start, end) in `slice`: the strings in
    // the data buffer back to back, and the inline ones copied from the
    // text where the cursor is, taking no room in the buffer, as arrow-rs's
    // builder lays them out.
    let mut rows = Vec::new();
    let mut end = slice.len();
    for k in 0.. {
        let len = if k % 8 == 7 { 1 + k % 12 } else { 13 + k % 8 };
        if end < from + len + 3 {
            break;
        }
        // Back to the start of a character, as a writer cuts rows: a row
        // that starts inside one fails the walk's first test, and only
        // rows that pass them all reach the whole of the one pass.
        let mut start = end - len;
        while start > from && (0x80..0xC0).contains(&slice[start]) {
            start -= 1;
        }
        if k % 8 == 7 {
            // Forward instead, to stay inline.
            start = end - len;
            while start < end && (0x80..0xC0).contains(&slice[start]) {
                start += 1;
            }
            rows.push((start, end));
        } else {
            rows.push((start, end));
            end = start;
        }
    }
    let long = rows.iter().filter(|(start, end)| end - start > 12).count();
    if long < MOSTLY_LONG {
        return;
    }
    rows.reverse();
    let mut views: Vec<u128> = (rows.iter())
        .map(|&(start, end)| view_of(&slice[start..end], 0, start as u32))
        .collect();
    let buffers = [slice];
    // Under Miri, where the whole check of a few hundred bytes costs
    // seconds, only the pass with the gather; natively, every entry point
    // against the references.
    let check = |views: &[u128]| {
        if cfg!(miri) {
            let _ = utf8_core::column::Views::validated::<Rfc3629>(views, &buffers, None);
        } else {
            check_views::<Rfc3629>(&RFC3629, views, &buffers, None);
        }
    };
    column_check(at, "column::Views, mostly long", slice, || check(&views));
    // The last view, one in the first chunk's eights, and one in the
    // second whole chunk, where there is one.
    let len = slice.len() as u32;
    let mut damaged_views = vec![views.len() - 1, views.len().min(64) / 8 * 8 - 5];
    if views.len() >= 128 {
        damaged_views.push(64 + 13);
    }
    for mut damaged in damaged_views {
        // A string in the data buffer: the row before an inline one.
        if views[damaged] as u32 <= 12 {
            damaged -= 1;
        }
        let good = views[damaged];
        for (word, value) in [(3, len - 2), (3, len + 64), (3, u32::MAX - 2), (0, len)] {
            let mut bytes = good.to_le_bytes();
            bytes[4 * word..4 * word + 4].copy_from_slice(&value.to_le_bytes());
            views[damaged] = u128::from_le_bytes(bytes);
            column_check(at, "column::Views, mostly long, damaged", slice, || {
                check(&views);
            });
        }
        views[damaged] = good;
    }
}
