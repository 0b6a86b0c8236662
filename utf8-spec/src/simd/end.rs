//! The end of the input: the thresholds that let vector code test whether a
//! block ends inside a sequence with one comparison per distance.

use super::{Declined, SimdTables};

/// For each distance k back from the end, the smallest byte that, with only
/// boundary bytes around it, makes the closing check err; and a check that
/// every larger byte does too (so that one unsigned comparison tests it).
///
/// Bytes the check rejects wherever they stand (modified UTF-8's `00`) are
/// left out: the check has erred on them before the end is tested, so the
/// end test may say anything about them. The proof then holds the test to
/// the closing check on every window the check can pass through.
pub(super) fn incomplete_thresholds(simd: &SimdTables) -> Result<Vec<u8>, Declined> {
    let frame = simd.max_sequence_len - 1;
    let closing_errs_with = |k: usize, b: u8| {
        let mut framed = vec![simd.boundary; 2 * frame];
        framed[frame - k] = b;
        (frame..2 * frame).any(|i| {
            let must = (2..=frame).any(|j| framed[i - j] >= simd.must_continue[j - 2]);
            simd.errs(framed[i - 1], framed[i], must)
        })
    };
    let can_pass = |b: u8| {
        (0..=255u8).any(|prev| {
            [false, true]
                .into_iter()
                .any(|must| !simd.errs(prev, b, must))
        })
    };
    let passing: Vec<u8> = (0..=255u8).filter(|&b| can_pass(b)).collect();
    (1..=frame)
        .map(|k| {
            let threshold = passing
                .iter()
                .copied()
                .find(|&b| closing_errs_with(k, b))
                .unwrap_or(0xFF);
            let one_comparison = passing
                .iter()
                .all(|&b| closing_errs_with(k, b) == (b >= threshold))
                && (closing_errs_with(k, threshold) || !can_pass(threshold));
            if one_comparison {
                Ok(threshold)
            } else {
                Err(Declined::OpenEndNotFromOneValueUp { before_end: k })
            }
        })
        .collect()
}
