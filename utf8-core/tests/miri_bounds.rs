//! Every public entry point on slices that are whole allocations, for Miri:
//! a read of any byte before or after such a slice is a read outside its
//! allocation, which Miri reports as undefined behaviour whether or not the
//! byte would change the verdict.
//!
//! `.ci/miri` runs this file once per x86 level, choosing the level with
//! target features (under Miri, `is_x86_feature_detected!` says what the
//! enabled target features say), and names the level it expects in
//! `UTF8_MIRI_LEVEL`, which the first test holds `cpu::level()` to. A
//! plain `cargo test` runs it too, natively: then only the answers are
//! checked, each against `core::str` or the dialect's `validate_const`.
//!
//! # Placing a slice
//!
//! The vector check reads on a grid set by the slice's address mod 64, so
//! every alignment matters, and both ends of the slice must be ends of its
//! allocation. Miri places an allocation at a pseudo-random address above
//! its alignment (deterministic for a given seed), so allocations of
//! exactly `len` bytes are drawn (and kept until the length is done, so
//! that Miri does not hand the same address back) until one falls at each
//! alignment wanted. (Stacked Borrows, Miri's default, also rejects a read
//! through the slice's pointer outside the slice wherever the allocation
//! ends; whole allocations catch the read under any aliasing model.)
//! Natively the allocator aligns to 16 at best, so each slice is cut out of
//! a larger allocation instead: nothing natively would notice a read past
//! it anyway.
//!
//! # What is sampled
//!
//! Miri interprets every vector intrinsic; a call on a few hundred bytes
//! costs milliseconds. So:
//!
//! - the two reported inputs (332 bytes with the error at 312; 300 with it
//!   at 150) at every alignment, through `from_utf8` and each forced vector
//!   path;
//! - every length from 0 to 300 once, each at its own alignment (`len * 29
//!   mod 64`, which walks all 64 alignments every 64 lengths), with one
//!   error whose kind and position turn with the length over 0, 1, the end,
//!   the middle, and two before to one after each multiple of 64 (and every
//!   eighth length also valid), through the vector path of `paths::rfc3629`
//!   at the level in use; every third length (3 is prime to 64: still every
//!   alignment) through `from_utf8` and the vector path of
//!   `paths::legacy31`. Only the level in use is forced: `.ci/miri` runs
//!   each lower level on its own, and the automaton and the shift DFA are
//!   safe code;
//! - the other entry points (`from_utf8_mut`, `from_utf8_const`, the
//!   dialects, the `Validator` whole and in pieces, `utf8_chunks`,
//!   `decode`, `from_utf8_lossy`, `parallel::validate`, the `io` adapters)
//!   on 150 and 300 bytes at 4 alignments each, valid and with an error in
//!   the last block and one in the middle; `from_utf8_owned` and
//!   `from_utf8_lossy_owned` on the same bytes in a vector of exactly their
//!   length, a whole allocation at whatever address the allocator gives.

use std::alloc::{self, Layout};
use std::fmt;
use std::io::{self, BufRead, Read};
use std::ptr::NonNull;
use std::slice;
use std::sync::OnceLock;

use utf8_core::cpu::{self, Level};
use utf8_core::paths::{self, Path};
use utf8_core::{Utf8Error, ValidatingBufReader, ValidatingReader, Validator};

/// The vector check's block, and the period of the alignments that matter.
const BLOCK: usize = 64;

/// What validation says: `Ok`, or `(valid_up_to, error_len)`.
type Verdict = Result<(), (usize, Option<usize>)>;

/// `paths::rfc3629` or `paths::legacy31`.
type PathFn = fn(Path, &[u8]) -> Option<Result<(), Utf8Error>>;

fn verdict(result: Result<(), Utf8Error>) -> Verdict {
    result.map_err(|error| (error.valid_up_to(), error.error_len()))
}

fn std_verdict(bytes: &[u8]) -> Verdict {
    core::str::from_utf8(bytes)
        .map(drop)
        .map_err(|error| (error.valid_up_to(), error.error_len()))
}

/// The verdict of a function that returns its input as a `&str`, which must
/// be the input itself.
fn str_verdict(bytes: &[u8], result: Result<&str, Utf8Error>) -> Verdict {
    let text = result.map_err(|error| (error.valid_up_to(), error.error_len()))?;
    assert_eq!((text.as_ptr(), text.len()), (bytes.as_ptr(), bytes.len()));
    Ok(())
}

// ---------------------------------------------------------------------------
// Slices that are whole allocations.

/// Zeroed bytes that are an allocation of their own.
struct Allocation {
    ptr: NonNull<u8>,
    layout: Layout,
}

impl Allocation {
    /// `len` bytes at an address that is a multiple of `align`; no
    /// allocation at all, and a dangling address, for 0 bytes.
    fn new(len: usize, align: usize) -> Allocation {
        let layout = Layout::from_size_align(len, align).expect("a layout");
        if len == 0 {
            return Allocation {
                ptr: NonNull::dangling(),
                layout,
            };
        }
        // SAFETY: the layout's size is not zero (returned above).
        let ptr = unsafe { alloc::alloc_zeroed(layout) };
        let ptr = NonNull::new(ptr).unwrap_or_else(|| alloc::handle_alloc_error(layout));
        Allocation { ptr, layout }
    }

    fn address(&self) -> usize {
        self.ptr.as_ptr().addr()
    }

    fn bytes(&mut self) -> &mut [u8] {
        // SAFETY: `ptr` holds `layout.size()` bytes, zeroed when allocated
        // (or none, for a dangling `ptr`), owned by `self`, which the
        // `&mut self` borrow makes this slice's only user.
        unsafe { slice::from_raw_parts_mut(self.ptr.as_ptr(), self.layout.size()) }
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        if self.layout.size() > 0 {
            // SAFETY: allocated in `new` with this layout, and freed only here.
            unsafe { alloc::dealloc(self.ptr.as_ptr(), self.layout) }
        }
    }
}

/// `len` bytes at a chosen address alignment: under Miri a whole allocation,
/// natively a part of one.
struct Placed {
    allocation: Allocation,
    offset: usize,
    len: usize,
}

impl Placed {
    fn bytes(&mut self) -> &mut [u8] {
        &mut self.allocation.bytes()[self.offset..self.offset + self.len]
    }

    fn alignment(&self) -> usize {
        (self.allocation.address() + self.offset) % BLOCK
    }
}

/// A slice of `len` bytes at each of `alignments` (addresses mod 64), in
/// that order. An empty slice is placed once, wherever it falls: there is
/// no byte in it to align.
fn placements(len: usize, alignments: &[usize]) -> Vec<Placed> {
    if !cfg!(miri) {
        return alignments
            .iter()
            .map(|&offset| Placed {
                allocation: Allocation::new(len + BLOCK, BLOCK),
                offset,
                len,
            })
            .collect();
    }
    if len == 0 {
        return vec![Placed {
            allocation: Allocation::new(0, 1),
            offset: 0,
            len,
        }];
    }
    let mut found: Vec<Option<Allocation>> = (0..BLOCK).map(|_| None).collect();
    // Held until every alignment is found, so that no address comes back.
    let mut spare = Vec::new();
    let mut tries = 0;
    while let Some(&wanted) = alignments.iter().find(|&&a| found[a].is_none()) {
        tries += 1;
        assert!(
            tries <= 64 * BLOCK,
            "no allocation of {len} bytes at each of {alignments:?} in {tries} tries"
        );
        // Asking for the largest power of two that divides the alignment
        // wanted leaves only the bits above it to chance.
        let align = 1 << wanted.trailing_zeros().min(BLOCK.trailing_zeros());
        let allocation = Allocation::new(len, align);
        let slot = &mut found[allocation.address() % BLOCK];
        if slot.is_none() && alignments.contains(&(allocation.address() % BLOCK)) {
            *slot = Some(allocation);
        } else {
            spare.push(allocation);
        }
    }
    alignments
        .iter()
        .map(|&a| Placed {
            allocation: found[a].take().expect("found above, each alignment once"),
            offset: 0,
            len,
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The inputs.

/// The texts around the errors: the report's, and one- to four-byte
/// characters mixed; each longer than any input.
fn texts() -> &'static [String; 2] {
    static TEXTS: OnceLock<[String; 2]> = OnceLock::new();
    TEXTS.get_or_init(|| {
        [
            "é".repeat(200),
            ["€", "ñ", "中", "a", "💖"].concat().repeat(30),
        ]
    })
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

/// The errors, one form of each kind: a stray continuation byte, a sequence
/// cut off in mid-text, an overlong form, a surrogate, a code point above
/// U+10FFFF, an invalid byte, and a sequence cut off by the end (whose
/// position is always the end).
const ERRORS: [(&str, &[u8]); 7] = [
    ("a stray continuation byte", b"\x80"),
    ("a sequence cut off in mid-text", b"\xE2\x82"),
    ("an overlong form", b"\xE0\x9F\xBF"),
    ("a surrogate", b"\xED\xA0\x80"),
    ("a code point above U+10FFFF", b"\xF4\x90\x80\x80"),
    ("an invalid byte", b"\xF5"),
    ("a sequence cut off by the end", b"\xF0\x9F\x92"),
];

/// An input: `len` bytes of `texts()[text]`, with `ERRORS[kind]` at `at`.
#[derive(Clone, Copy, Debug)]
struct Case {
    len: usize,
    text: usize,
    error: Option<(usize, usize)>,
}

impl Case {
    fn bytes(&self) -> Vec<u8> {
        let text = &texts()[self.text];
        let mut out = Vec::with_capacity(self.len);
        match self.error {
            None => fill(&mut out, text, self.len),
            Some((kind, at)) => {
                let form = ERRORS[kind].1;
                fill(&mut out, text, at);
                out.extend_from_slice(form);
                fill(&mut out, text, self.len - at - form.len());
            }
        }
        out
    }

    /// The case with `ERRORS[kind]` at `at` (at the end for a cut-off
    /// sequence; pulled in from the end where it would not fit), or `None`
    /// when the input is too short for it.
    fn with_error(self, kind: usize, at: usize) -> Option<Case> {
        let form = ERRORS[kind].1;
        let last = self.len.checked_sub(form.len())?;
        let at = if kind == ERRORS.len() - 1 {
            last
        } else {
            at.min(last)
        };
        Some(Case {
            error: Some((kind, at)),
            ..self
        })
    }
}

/// Where the errors of the length sweep go: the first and last bytes, the
/// middle, and two before to one after each multiple of 64.
fn error_positions(len: usize) -> Vec<usize> {
    let mut positions = vec![0, 1, len / 2, len.saturating_sub(1)];
    for boundary in (BLOCK..len).step_by(BLOCK) {
        positions.extend(boundary - 2..=boundary + 1);
    }
    positions
}

/// Fails with the entry point and the input unless `got` is `want`.
#[track_caller]
fn expect<T: PartialEq + fmt::Debug>(
    entry: &dyn fmt::Display,
    input: &dyn fmt::Debug,
    alignment: usize,
    got: T,
    want: T,
) {
    assert!(
        got == want,
        "{entry} on {input:?} at alignment {alignment}: got {got:?}, want {want:?}"
    );
}

/// The vector path of `run` at the level in use, if there is one. The
/// lower levels get their own runs of `.ci/miri`, and the automaton and
/// the shift DFA are safe, bounds-checked code in which Miri has nothing to
/// find that the native suites would not.
fn vector_path(run: PathFn) -> Option<Path> {
    let path = Path::Simd(cpu::level());
    run(path, b"").map(|_| path)
}

// ---------------------------------------------------------------------------
// The level.

#[test]
fn the_vector_level_that_runs_is_the_one_the_target_features_ask_for() {
    let level = cpu::level();
    if let Ok(expected) = std::env::var("UTF8_MIRI_LEVEL") {
        assert_eq!(format!("{level:?}"), expected);
    }
    // Under Miri the features detected are exactly the ones enabled.
    #[cfg(all(miri, target_arch = "x86_64"))]
    {
        let enabled = [
            (Level::Sse41, cfg!(target_feature = "sse4.1")),
            (Level::Avx2, cfg!(target_feature = "avx2")),
            (
                Level::Avx512,
                cfg!(target_feature = "avx512f") && cfg!(target_feature = "avx512bw"),
            ),
        ];
        for (level, enabled) in enabled {
            assert_eq!(cpu::supports(level), enabled, "{level:?}");
        }
    }
    // A level that is supported is one that a forced path really runs.
    let input = "é".repeat(100);
    for level in [Level::Sse41, Level::Avx2, Level::Avx512, Level::Neon] {
        let ran = paths::rfc3629(Path::Simd(level), input.as_bytes());
        assert_eq!(ran.is_some(), cpu::supports(level), "{level:?}");
        assert_eq!(ran.unwrap_or(Ok(())), Ok(()), "{level:?}");
    }
}

// ---------------------------------------------------------------------------
// The reports, at every alignment.

/// `from_utf8` and the vector path of the level in use on `bytes`, at every
/// alignment.
fn at_every_alignment(input: &str, bytes: &[u8], want: Verdict) {
    assert_eq!(std_verdict(bytes), want, "{input} is not as reported");
    let path = vector_path(paths::rfc3629);
    let alignments: Vec<usize> = (0..BLOCK).collect();
    for mut placed in placements(bytes.len(), &alignments) {
        let alignment = placed.alignment();
        let slice = placed.bytes();
        slice.copy_from_slice(bytes);
        let got = str_verdict(slice, utf8_core::from_utf8(slice));
        expect(&"from_utf8", &input, alignment, got, want);
        if let Some(path) = path {
            let got = paths::rfc3629(path, slice).map(verdict);
            expect(&format!("{path:?}"), &input, alignment, got, Some(want));
        }
    }
}

#[test]
fn the_reported_332_bytes_are_rejected_inside_their_allocation_at_every_alignment() {
    let mut s = "é".repeat(166).into_bytes();
    s[312] = 0x80;
    s[313] = 0x41;
    at_every_alignment("the report's 332 bytes", &s, Err((312, Some(1))));
}

#[test]
fn an_error_at_byte_150_of_300_is_found_inside_the_allocation_at_every_alignment() {
    let mut s = "é".repeat(150).into_bytes();
    s[150] = 0x80;
    at_every_alignment("300 bytes with 80 at 150", &s, Err((150, Some(1))));
}

// ---------------------------------------------------------------------------
// Every length once.

/// The length sweep's cases for `len`: one error, whose kind and position
/// turn with the length, and at every eighth length (or where no error
/// fits) the valid text.
fn length_sweep_cases(len: usize) -> Vec<Case> {
    let valid = Case {
        len,
        text: len / 2 % texts().len(),
        error: None,
    };
    let positions = error_positions(len);
    let kind = len % ERRORS.len();
    let at = positions[len / ERRORS.len() % positions.len()];
    let mut cases: Vec<Case> = valid.with_error(kind, at).into_iter().collect();
    if len.is_multiple_of(8) || cases.is_empty() {
        cases.push(valid);
    }
    cases
}

/// The vector path of `run` on the length sweep's cases at every `step`th
/// length, against `reference`.
fn every_length_once(run: PathFn, step: usize, reference: fn(&[u8]) -> Verdict) {
    let Some(path) = vector_path(run) else {
        return;
    };
    for len in (0..=300).step_by(step) {
        let alignment = len * 29 % BLOCK;
        for case in length_sweep_cases(len) {
            let bytes = case.bytes();
            let want = reference(&bytes);
            let mut placed = placements(len, &[alignment]).pop().expect("one placement");
            let alignment = placed.alignment();
            let slice = placed.bytes();
            slice.copy_from_slice(&bytes);
            let got = run(path, slice).map(verdict);
            expect(&format!("{path:?}"), &case, alignment, got, Some(want));
        }
    }
}

#[test]
fn from_utf8_stays_inside_the_allocation_at_every_third_length() {
    // Below 128 bytes `from_utf8` runs the shift DFA, and above, the vector
    // path forced at every length below, after a lead of about 32 bytes:
    // every third length gives that lead every alignment at a third of the
    // cost.
    for len in (0..=300).step_by(3) {
        let alignment = len * 29 % BLOCK;
        for case in length_sweep_cases(len) {
            let bytes = case.bytes();
            let want = std_verdict(&bytes);
            let mut placed = placements(len, &[alignment]).pop().expect("one placement");
            let alignment = placed.alignment();
            let slice = placed.bytes();
            slice.copy_from_slice(&bytes);
            let got = str_verdict(slice, utf8_core::from_utf8(slice));
            expect(&"from_utf8", &case, alignment, got, want);
        }
    }
}

#[test]
fn every_rfc3629_path_of_this_level_stays_inside_the_allocation_at_every_length() {
    every_length_once(paths::rfc3629, 1, std_verdict);
}

#[cfg(feature = "legacy-31bit")]
#[test]
fn every_legacy31_path_of_this_level_stays_inside_the_allocation_at_every_length() {
    // The legacy check, with sequences of up to six bytes, costs twice as
    // much under Miri.
    every_length_once(paths::legacy31, 3, |bytes| {
        verdict(utf8_core::legacy31::validate_const(bytes))
    });
}

/// CESU-8's and WTF-8's own checks, whose pairing term carries lead bits
/// from vector to vector and leaves a block open on a pending lead: text
/// dense with surrogates (valid in the dialect, so that the check reads to
/// the end, and cut anywhere), at every fifth length.
#[test]
fn the_pairing_checks_of_cesu8_and_wtf8_stay_inside_the_allocation() {
    const PAIR: &[u8] = b"\xED\xA0\xBD\xED\xB8\x80";
    const LEAD: &[u8] = b"\xED\xA0\xBD";
    const TRAIL: &[u8] = b"\xED\xB8\x80";
    let cesu8_text = [PAIR, b"a", PAIR, PAIR, "\u{e9}\u{20ac}".as_bytes()].concat();
    let wtf8_text = [
        LEAD,
        b"b",
        TRAIL,
        LEAD,
        LEAD,
        "\u{1F600}".as_bytes(),
        TRAIL,
        LEAD,
    ]
    .concat();
    type Validate = fn(&[u8]) -> Result<(), Utf8Error>;
    let checks: [(&str, PathFn, Validate, &[u8]); 2] = [
        (
            "paths::ruleset::<Cesu8>",
            paths::ruleset::<utf8_core::cesu8::Cesu8>,
            utf8_core::cesu8::validate_const,
            &cesu8_text,
        ),
        (
            "paths::ruleset::<Wtf8>",
            paths::ruleset::<utf8_core::wtf8::Wtf8>,
            utf8_core::wtf8::validate_const,
            &wtf8_text,
        ),
    ];
    for (name, run, reference, period) in checks {
        let Some(path) = vector_path(run) else {
            continue;
        };
        let text = period.repeat(300 / period.len() + 1);
        for len in (0..=300).step_by(5) {
            let bytes = &text[..len];
            let want = verdict(reference(bytes));
            let mut placed = placements(len, &[len * 29 % BLOCK])
                .pop()
                .expect("one placement");
            let alignment = placed.alignment();
            let slice = placed.bytes();
            slice.copy_from_slice(bytes);
            let got = run(path, slice).map(verdict);
            expect(
                &format!("{name} on {path:?}"),
                &len,
                alignment,
                got,
                Some(want),
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The other entry points, on fewer inputs.

/// The inputs of the other entry points, each with its alignments.
fn layered_cases() -> Vec<(Case, Vec<usize>)> {
    let mut cases = Vec::new();
    for (index, len) in [150, 300].into_iter().enumerate() {
        // Four alignments, a different four for each length.
        let alignments: Vec<usize> = (0..4).map(|k| (k * 16 + index * 5 + 1) % BLOCK).collect();
        let valid = Case {
            len,
            text: index % texts().len(),
            error: None,
        };
        cases.push((valid, alignments.clone()));
        let last_block = valid.with_error(index % ERRORS.len(), len - BLOCK / 2);
        let middle = valid.with_error((index + 3) % ERRORS.len(), len / 2);
        cases.extend(
            [last_block, middle]
                .into_iter()
                .flatten()
                .map(|case| (case, alignments.clone())),
        );
    }
    cases
}

/// Runs `check` on each layered case at each of its alignments.
fn each_layered_case(mut check: impl FnMut(Case, usize, &mut [u8])) {
    for (case, alignments) in layered_cases() {
        let bytes = case.bytes();
        for mut placed in placements(case.len, &alignments) {
            let alignment = placed.alignment();
            let slice = placed.bytes();
            slice.copy_from_slice(&bytes);
            check(case, alignment, slice);
        }
    }
}

#[test]
fn the_mut_and_const_forms_and_the_dialects_stay_inside_the_allocation() {
    type Validate = fn(&[u8]) -> Result<(), Utf8Error>;
    let dialects: &[(&str, Validate, Validate)] = &[
        (
            "cesu8",
            utf8_core::cesu8::validate,
            utf8_core::cesu8::validate_const,
        ),
        (
            "mutf8",
            utf8_core::mutf8::validate,
            utf8_core::mutf8::validate_const,
        ),
        (
            "wtf8",
            utf8_core::wtf8::validate,
            utf8_core::wtf8::validate_const,
        ),
        (
            "rfc2279",
            utf8_core::rfc2279::validate,
            utf8_core::rfc2279::validate_const,
        ),
        #[cfg(feature = "legacy-31bit")]
        (
            "legacy31",
            utf8_core::legacy31::validate,
            utf8_core::legacy31::validate_const,
        ),
        #[cfg(feature = "rayon")]
        (
            "parallel",
            utf8_core::parallel::validate::<utf8_core::Rfc3629>,
            utf8_core::Rfc3629::validate_const,
        ),
        // WTF-8's summaries run the UTF-8 shortcut, and so the vector check.
        (
            "parallel::Summary::<Wtf8>",
            |bytes| utf8_core::parallel::Summary::<utf8_core::wtf8::Wtf8>::of(bytes).result(),
            utf8_core::wtf8::validate_const,
        ),
    ];
    each_layered_case(|case, alignment, slice| {
        let want = std_verdict(slice);
        let got = str_verdict(slice, utf8_core::from_utf8_const(slice));
        expect(&"from_utf8_const", &case, alignment, got, want);
        let (start, len) = (slice.as_ptr(), slice.len());
        let got = utf8_core::from_utf8_mut(slice)
            .map(|text| assert_eq!((text.as_ptr(), text.len()), (start, len)))
            .map_err(|error| (error.valid_up_to(), error.error_len()));
        expect(&"from_utf8_mut", &case, alignment, got, want);
        for &(name, validate, reference) in dialects {
            let got = verdict(validate(slice));
            expect(&name, &case, alignment, got, verdict(reference(slice)));
        }
    });
}

/// Feeds `pieces` to a validator, until the first error.
fn stream<'a>(pieces: impl IntoIterator<Item = &'a [u8]>) -> Verdict {
    stream_in::<utf8_core::Rfc3629>(pieces)
}

/// [`stream`] in ruleset `R`.
fn stream_in<'a, R: utf8_core::Ruleset>(pieces: impl IntoIterator<Item = &'a [u8]>) -> Verdict {
    let mut validator = Validator::<R>::for_ruleset();
    for piece in pieces {
        validator
            .update(piece)
            .map_err(|error| (error.valid_up_to(), error.error_len()))?;
    }
    verdict(validator.finish())
}

#[test]
fn the_validator_fed_whole_and_in_pieces_stays_inside_the_allocation() {
    each_layered_case(|case, alignment, slice| {
        let want = std_verdict(slice);
        expect(
            &"Validator, whole",
            &case,
            alignment,
            stream([&*slice]),
            want,
        );
        // Pieces under 128 bytes go to the shift DFA, safe code; 130 takes
        // the vector path.
        for cut in [7, 130] {
            let got = stream(slice.chunks(cut));
            expect(
                &format!("Validator, pieces of {cut}"),
                &case,
                alignment,
                got,
                want,
            );
            // Each piece an allocation of its own, so that a read past any
            // piece is caught, not only past the first and last.
            let pieces: Vec<Box<[u8]>> = slice.chunks(cut).map(Box::from).collect();
            let got = stream(pieces.iter().map(|piece| &**piece));
            expect(
                &format!("Validator, own pieces of {cut}"),
                &case,
                alignment,
                got,
                want,
            );
        }
    });
}

#[test]
fn the_dialects_validators_through_the_utf8_shortcut_stay_inside_the_allocation() {
    use utf8_core::{cesu8, mutf8, wtf8};
    type Stream = for<'a> fn(Vec<&'a [u8]>) -> Verdict;
    type Validate = fn(&[u8]) -> Result<(), Utf8Error>;
    let dialects: [(&str, Stream, Validate); 3] = [
        (
            "cesu8",
            |pieces| stream_in::<cesu8::Cesu8>(pieces),
            cesu8::validate_const,
        ),
        (
            "mutf8",
            |pieces| stream_in::<mutf8::Mutf8>(pieces),
            mutf8::validate_const,
        ),
        (
            "wtf8",
            |pieces| stream_in::<wtf8::Wtf8>(pieces),
            wtf8::validate_const,
        ),
    ];
    each_layered_case(|case, alignment, slice| {
        for (name, stream, reference) in dialects {
            let want = verdict(reference(slice));
            // 130: past the vector threshold, so the shortcut's vector check runs.
            let pieces: Vec<Box<[u8]>> = slice.chunks(130).map(Box::from).collect();
            let got = stream(pieces.iter().map(|piece| &**piece).collect());
            expect(
                &format!("{name} Validator, own pieces of 130"),
                &case,
                alignment,
                got,
                want,
            );
        }
    });
}

/// The CESU-8 of `text`: each UTF-16 code unit as UTF-8 would encode a code
/// point of its value (UTR #26).
fn cesu8_of(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for unit in text.encode_utf16() {
        let mut buffer = [0; 3];
        match char::from_u32(u32::from(unit)) {
            Some(c) => out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes()),
            // A surrogate: `ED A0-BF 80-BF`.
            None => out.extend_from_slice(&[
                0xED,
                0x80 | ((unit >> 6) & 0x3F) as u8,
                0x80 | (unit & 0x3F) as u8,
            ]),
        }
    }
    out
}

#[test]
fn the_dialects_conversions_to_str_stay_inside_the_allocation() {
    use utf8_core::{cesu8, mutf8};
    let text = |result: Result<std::borrow::Cow<'_, str>, Utf8Error>| {
        result
            .map(|text| text.into_owned())
            .map_err(|e| (e.valid_up_to(), e.error_len()))
    };
    each_layered_case(|case, alignment, slice| {
        let copy = slice.to_vec();
        expect(
            &"cesu8::to_str",
            &case,
            alignment,
            text(cesu8::to_str(slice)),
            text(cesu8::to_str(&copy)),
        );
        expect(
            &"mutf8::to_str",
            &case,
            alignment,
            text(mutf8::to_str(slice)),
            text(mutf8::to_str(&copy)),
        );
        // As CESU-8, surrogate pairs and all, in an allocation of its own
        // length: the pair loop reads eight bytes at a time.
        if let Ok(utf8) = std::str::from_utf8(slice) {
            let converted: Box<[u8]> = cesu8_of(utf8).into();
            expect(
                &"cesu8::to_str of converted text",
                &case,
                alignment,
                text(cesu8::to_str(&converted)),
                Ok(utf8.to_owned()),
            );
        }
    });
}

#[test]
fn chunks_decoding_and_lossy_conversion_stay_inside_the_allocation() {
    each_layered_case(|case, alignment, slice| {
        let got: Vec<_> = utf8_core::utf8_chunks(slice)
            .map(|chunk| (chunk.valid(), chunk.invalid()))
            .collect();
        let want: Vec<_> = slice
            .utf8_chunks()
            .map(|chunk| (chunk.valid(), chunk.invalid()))
            .collect();
        expect(&"utf8_chunks", &case, alignment, got, want);

        let got: String = utf8_core::decode(slice)
            .map(|item| item.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
        expect(
            &"decode",
            &case,
            alignment,
            got,
            String::from_utf8_lossy(slice).into_owned(),
        );

        let got = utf8_core::from_utf8_lossy(slice);
        expect(
            &"from_utf8_lossy",
            &case,
            alignment,
            got,
            String::from_utf8_lossy(slice),
        );

        // `to_vec` allocates exactly the slice's length.
        let got = utf8_core::from_utf8_owned(slice.to_vec())
            .map_err(|e| (verdict(Err(e.utf8_error())), e.into_bytes()));
        let want = String::from_utf8(slice.to_vec())
            .map_err(|e| (std_verdict(e.as_bytes()), e.into_bytes()));
        expect(&"from_utf8_owned", &case, alignment, got, want);
        let got = utf8_core::from_utf8_lossy_owned(slice.to_vec());
        let want = String::from_utf8_lossy(slice).into_owned();
        expect(&"from_utf8_lossy_owned", &case, alignment, got, want);
    });
}

/// The error an adapter reports: `InvalidData` carrying a `Utf8Error`.
fn utf8_error(error: io::Error) -> (usize, Option<usize>) {
    assert_eq!(error.kind(), io::ErrorKind::InvalidData, "{error}");
    let error = error
        .into_inner()
        .expect("a Utf8Error inside")
        .downcast::<Utf8Error>()
        .expect("a Utf8Error");
    (error.valid_up_to(), error.error_len())
}

#[test]
fn the_io_adapters_stay_inside_the_allocation() {
    each_layered_case(|case, alignment, slice| {
        let want = std_verdict(slice);
        // The reader validates the buffer it reads into: that is the slice.
        let input = slice.to_vec();
        let mut reader = ValidatingReader::new(&input[..]);
        let got = reader
            .read(slice)
            .and_then(|_| reader.read(&mut [0; 1]))
            .map(drop)
            .map_err(utf8_error);
        expect(&"ValidatingReader", &case, alignment, got, want);

        // The buffered reader validates what its inner reader buffers: a
        // `&[u8]` buffers itself.
        let mut reader = ValidatingBufReader::new(&*slice);
        let got = loop {
            match reader.fill_buf() {
                Ok([]) => break Ok(()),
                Ok(available) => {
                    let n = available.len();
                    reader.consume(n);
                }
                Err(error) => break Err(utf8_error(error)),
            }
        };
        expect(&"ValidatingBufReader", &case, alignment, got, want);
    });
}
