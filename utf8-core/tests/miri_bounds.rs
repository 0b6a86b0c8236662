//! The bounds catalogue (`tests/src/catalogue.rs` of the workspace's test
//! crate, included here by path) on slices that are whole allocations, for
//! Miri: a read of any byte before or after such a slice is a read outside
//! its allocation, which Miri reports as undefined behaviour whether or not
//! the byte would change the verdict. `tests/tests/guard_pages.rs` runs the
//! same catalogue natively against guard pages, on denser grids.
//!
//! The catalogue is included rather than depended on: the test crate
//! depends on utf8-core, so a dependency on it from here would link a
//! second utf8-core, whose types are not this one's; and what Miri builds
//! here stays utf8-core, std and these two files.
//!
//! `.ci/miri` runs this file once per x86 level, choosing the level with
//! target features (under Miri, `is_x86_feature_detected!` says what the
//! enabled target features say), and names the level it expects in
//! `UTF8_MIRI_LEVEL`, which the first test holds `cpu::level()` to. A
//! plain `cargo test` runs it too, natively (with the `legacy-31bit` and
//! `rayon` features, which a workspace build turns on): then only the
//! answers are checked, and every path the CPU has is forced.
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
//! costs milliseconds. So, of the catalogue:
//!
//! - the two reported inputs (332 bytes with the error at 312; 300 with it
//!   at 150) at every alignment, through `from_utf8` and the vector path of
//!   the level in use;
//! - every length from 0 to 300 once, each at its own alignment (`len * 29
//!   mod 64`, which walks all 64 alignments every 64 lengths), the
//!   catalogue's length sample (one error whose kind and position turn with
//!   the length), through the vector path of `paths::rfc3629` at the level
//!   in use; every third length (3 is prime to 64: still every alignment)
//!   through `from_utf8` and the vector path of `paths::legacy31`; every
//!   fifth through the pairing checks of CESU-8 and WTF-8. Only the level
//!   in use is forced: `.ci/miri` runs each lower level on its own;
//! - the other entry points (the `from_utf8` forms, the dialects, the
//!   validators whole and in pieces, the conversions, `utf8_chunks`,
//!   `decode`, the lossy and owned conversions, `parallel::validate`, the
//!   `io` adapters, the column API with the slice as values, as a views
//!   column's data buffer and, copied, as a page) on the layered sample, 150
//!   and 300 bytes at 2 alignments each, valid and with an error in the
//!   last block and one in the middle. Their pieces, buffers and converted copies are
//!   allocations of their own, of exactly their length.

// The dense grids are the guard-page suite's.
#[allow(dead_code)]
#[path = "../../tests/src/catalogue.rs"]
mod catalogue;
#[path = "../../tests/src/oracles.rs"]
mod oracles;
// The catalogue's column entries use part of it.
#[allow(dead_code)]
#[path = "../../tests/src/columns.rs"]
mod columns;

use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::slice;

use catalogue::{BLOCK, Case, Placement, Spot, Suite};
use oracles::std_verdict;
use utf8_core::cpu::{self, Level};
use utf8_core::paths::{self, Path};

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

/// Slices that are whole allocations under Miri, and memory of their own
/// for pieces and buffers: an allocation of exactly their length.
struct Allocations {
    own: Allocation,
}

impl Allocations {
    fn new() -> Allocations {
        Allocations {
            own: Allocation::new(0, 1),
        }
    }
}

impl Placement for Allocations {
    fn each(&mut self, spots: &[Spot], bytes: &[u8], check: &mut dyn FnMut(Spot, &mut [u8])) {
        let alignments: Vec<usize> = spots
            .iter()
            .map(|spot| match spot {
                Spot::Alignment(alignment) => *alignment,
                edge => panic!("allocations are placed at an alignment, not {edge}"),
            })
            .collect();
        for mut placed in placements(bytes.len(), &alignments) {
            let spot = Spot::Alignment(placed.alignment());
            let slice = placed.bytes();
            slice.copy_from_slice(bytes);
            check(spot, slice);
        }
    }

    fn own(&mut self, _: Spot, len: usize) -> &mut [u8] {
        self.own = Allocation::new(len, 1);
        self.own.bytes()
    }
}

/// Nothing to note (Miri names the call that read outside); streams cut
/// below and above the vector threshold of 128 bytes; adapters read whole.
const SUITE: Suite = Suite {
    watch: |_, _, _, _| {},
    cuts: &[7, 130],
    read_steps: &[usize::MAX],
};

/// Each length of `lengths`, the catalogue's length sample, at alignment
/// `len * 29 mod 64`.
fn length_sample(
    lengths: impl Iterator<Item = usize>,
) -> impl Iterator<Item = (Case, Vec<u8>, Vec<Spot>)> {
    lengths.flat_map(|len| {
        catalogue::length_sample(len)
            .into_iter()
            .map(move |(case, bytes)| (case, bytes, vec![Spot::Alignment(len * 29 % BLOCK)]))
    })
}

/// The catalogue's layered sample, each case at its alignments.
fn layered_sample() -> impl Iterator<Item = (Case, Vec<u8>, Vec<Spot>)> {
    catalogue::layered_sample()
        .into_iter()
        .map(|(case, bytes, alignments)| {
            (
                case,
                bytes,
                alignments.into_iter().map(Spot::Alignment).collect(),
            )
        })
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

#[test]
fn the_reported_inputs_are_rejected_inside_their_allocation_at_every_alignment() {
    let paths = catalogue::paths_under_test(paths::rfc3629);
    let every_alignment: Vec<Spot> = (0..BLOCK).map(Spot::Alignment).collect();
    let reports = catalogue::reports().map(|(case, bytes, want, _)| {
        assert_eq!(std_verdict(&bytes), want, "{case} is not as reported");
        (case, bytes, every_alignment.clone())
    });
    catalogue::run_cases(&SUITE, &mut Allocations::new(), reports, |at, slice| {
        catalogue::from_utf8_and_paths(at, slice, &paths, std_verdict(slice));
    });
}

// ---------------------------------------------------------------------------
// Every length once.

#[test]
fn every_rfc3629_path_of_this_level_stays_inside_the_allocation_at_every_length() {
    let paths = catalogue::paths_under_test(paths::rfc3629);
    let check = (
        "paths::rfc3629",
        paths::rfc3629 as catalogue::PathFn,
        std_verdict as _,
    );
    catalogue::run_cases(
        &SUITE,
        &mut Allocations::new(),
        length_sample(0..=300),
        |at, slice| {
            catalogue::each_path(at, slice, check, &paths);
        },
    );
}

#[test]
fn every_legacy31_path_of_this_level_stays_inside_the_allocation_at_every_third_length() {
    // The legacy check, with sequences of up to six bytes, costs twice as
    // much under Miri.
    let paths = catalogue::paths_under_test(paths::legacy31);
    let check: catalogue::PathCheck = (
        "paths::legacy31",
        paths::legacy31,
        catalogue::legacy31_verdict,
    );
    let lengths = (0..=300).step_by(3);
    catalogue::run_cases(
        &SUITE,
        &mut Allocations::new(),
        length_sample(lengths),
        |at, slice| {
            catalogue::each_path(at, slice, check, &paths);
        },
    );
}

#[test]
fn from_utf8_stays_inside_the_allocation_at_every_third_length() {
    // Below 128 bytes `from_utf8` runs the shift DFA, and above, the vector
    // path forced at every length above, after a lead of about 32 bytes:
    // every third length gives that lead every alignment at a third of the
    // cost.
    let lengths = (0..=300).step_by(3);
    catalogue::run_cases(
        &SUITE,
        &mut Allocations::new(),
        length_sample(lengths),
        |at, slice| {
            catalogue::from_utf8_and_paths(at, slice, &[], std_verdict(slice));
        },
    );
}

#[test]
fn the_pairing_checks_of_cesu8_and_wtf8_stay_inside_the_allocation_at_every_fifth_length() {
    for (check, period) in catalogue::pairing_checks() {
        let paths = catalogue::paths_under_test(check.1);
        let text = period.repeat(300 / period.len() + 1);
        let cases = (0..=300).step_by(5).map(|len| {
            let case = Case {
                len,
                text: "surrogate-dense text",
                error: None,
            };
            (
                case,
                text[..len].to_vec(),
                vec![Spot::Alignment(len * 29 % BLOCK)],
            )
        });
        catalogue::run_cases(&SUITE, &mut Allocations::new(), cases, |at, slice| {
            catalogue::each_path(at, slice, check, &paths);
        });
    }
}

// ---------------------------------------------------------------------------
// The other entry points, on the layered sample.

/// Runs `check` on the layered sample, with memory of its own for pieces.
fn layered(mut check: impl FnMut(catalogue::At<'_>, &mut [u8], &mut Allocations)) {
    let mut own = Allocations::new();
    catalogue::run_cases(
        &SUITE,
        &mut Allocations::new(),
        layered_sample(),
        |at, slice| {
            check(at, slice, &mut own);
        },
    );
}

#[test]
fn the_from_utf8_forms_the_dialects_and_parallel_validate_stay_inside_the_allocation() {
    layered(|at, slice, _| {
        catalogue::from_utf8_forms(at, slice);
        catalogue::dialects_and_parallel(at, slice);
    });
}

#[test]
fn the_validator_fed_whole_and_in_pieces_stays_inside_the_allocation() {
    layered(|at, slice, own| catalogue::validators(at, slice, own));
}

#[test]
fn the_dialects_validators_through_the_utf8_shortcut_stay_inside_the_allocation() {
    layered(|at, slice, own| catalogue::dialect_validators(at, slice, own));
}

#[test]
fn the_dialects_conversions_to_str_stay_inside_the_allocation() {
    layered(|at, slice, own| catalogue::conversions_to_str(at, slice, own));
}

#[test]
fn chunks_decoding_and_lossy_conversion_stay_inside_the_allocation() {
    layered(|at, slice, _| catalogue::chunks_decoding_and_lossy(at, slice));
}

#[test]
fn the_io_adapters_stay_inside_the_allocation() {
    layered(|at, slice, own| catalogue::io_adapters(at, slice, own));
}

/// The layered sample's 150-byte cases (valid, an error in the last block,
/// one in the middle) at the first of their alignments: the column checks
/// hold each answer to a reference worked out a row at a time, seconds a
/// case under Miri. At the AVX2 and AVX-512 levels only: the column code's
/// `unsafe` is the gathered first-byte test, which runs there, and the
/// views' bytes, which run the same at every level; the validation it calls
/// is the other tests' at each level.
#[test]
fn the_column_api_stays_inside_values_views_pages_and_bitmaps_in_their_allocations() {
    if !matches!(cpu::level(), Level::Avx2 | Level::Avx512) {
        return;
    }
    // Miri's AVX-512 has no VBMI2, where the column checks would run at
    // AVX2: the AVX-512 kernels that CPUs with VBMI2 run are held to here.
    paths::column_checks_at_cpu_level(true);
    let mut own = Allocations::new();
    let sample = layered_sample()
        .filter(|(_, bytes, _)| bytes.len() == 150)
        .map(|(case, bytes, spots)| (case, bytes, spots[..1].to_vec()));
    catalogue::run_cases(&SUITE, &mut Allocations::new(), sample, |at, slice| {
        catalogue::columns(at, slice, &mut own);
    });
}

#[test]
fn the_views_walk_of_mostly_long_strings_gathers_only_inside_the_data_buffer() {
    if !matches!(cpu::level(), Level::Avx2 | Level::Avx512) {
        return;
    }
    paths::column_checks_at_cpu_level(true);
    // Valid text, and an error in the middle, long enough for a chunk of
    // mostly strings in the data buffer, at two alignments.
    let sample = catalogue::mostly_long_sample()
        .into_iter()
        .map(|(case, bytes, alignments)| {
            let spots = alignments.into_iter().map(Spot::Alignment).collect();
            (case, bytes, spots)
        });
    catalogue::run_cases(&SUITE, &mut Allocations::new(), sample, |at, slice| {
        catalogue::mostly_long_views(at, slice, 0);
    });
}
