//! [`super::continued`] at AVX2 (and AVX-512, which has AVX2): eight
//! views a step (`super`'s essay says how).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::column::view::MAX_INLINE;

/// How far past the next string the walk asks the CPU to fetch a
/// buffer's bytes, and how many 64-byte lines from there each step: text
/// of lines up to 64 bytes runs about 400 bytes an eight, and with fewer
/// lines asked for a step than an eight reads, the gathers wait on
/// memory.
const AHEAD: usize = 1024;
const AHEAD_LINES: usize = 6;

/// The view each 32-bit lane holds once eight views are split into
/// their four fields (`split`): the lanes of each 128-bit half hold
/// every other view.
const LANE_VIEW: [i32; 8] = [0, 2, 4, 6, 1, 3, 5, 7];
/// The lane that holds each view, in row order: `LANE_VIEW`'s
/// inverse.
const VIEW_LANE: [i32; 8] = [0, 4, 1, 5, 2, 6, 3, 7];

/// Eight views' lengths, prefixes, buffer indexes and offsets, each
/// field in a register with one view a 32-bit lane, in
/// [`LANE_VIEW`]'s order.
#[inline]
#[target_feature(enable = "avx2")]
fn split(eight: &[u128; 8]) -> [__m256i; 4] {
    let pairs: [__m256i; 4] = core::array::from_fn(|k| {
        let pair: &[u128; 2] = eight[2 * k..2 * k + 2].try_into().expect("two views");
        // SAFETY: `pair` is 32 bytes, read unaligned.
        unsafe { _mm256_loadu_si256(pair.as_ptr().cast()) }
    });
    // Each half: a view's length, prefix, buffer index and offset;
    // interleaved by 32 then by 64 bits, four views' fields line up.
    let low_01 = _mm256_unpacklo_epi32(pairs[0], pairs[1]);
    let low_23 = _mm256_unpacklo_epi32(pairs[2], pairs[3]);
    let high_01 = _mm256_unpackhi_epi32(pairs[0], pairs[1]);
    let high_23 = _mm256_unpackhi_epi32(pairs[2], pairs[3]);
    [
        _mm256_unpacklo_epi64(low_01, low_23),
        _mm256_unpackhi_epi64(low_01, low_23),
        _mm256_unpacklo_epi64(high_01, high_23),
        _mm256_unpackhi_epi64(high_01, high_23),
    ]
}

/// Each lane's running total of `lengths` up to and including its
/// own, in row order, for lanes in row order.
#[inline]
#[target_feature(enable = "avx2")]
fn running_total(lengths: __m256i) -> __m256i {
    let sum = _mm256_add_epi32(lengths, _mm256_slli_si256::<4>(lengths));
    let sum = _mm256_add_epi32(sum, _mm256_slli_si256::<8>(sum));
    // The first half's total, added to each lane of the second.
    let first_total = _mm256_shuffle_epi32::<0xFF>(sum);
    _mm256_add_epi32(
        sum,
        _mm256_permute2x128_si256::<0x08>(first_total, first_total),
    )
}

/// [`super::continued`] eight views a step (`WHOLE` off: `picked` are
/// the listed views), or [`super::whole_chunk`] (`WHOLE` on: `picked`
/// are the kept views, of which those that are not inline are listed,
/// and every inline view's padding is tested with `PADDING`). The span's
/// end, and with `WHOLE` the bits of the inline views.
///
/// # Safety
///
/// The CPU has AVX2; `data.len()` and `end` are below 2^31.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn walk_avx2<const WHOLE: bool, const PADDING: bool>(
    chunk: &[u128],
    picked: u64,
    buffer: u32,
    end: u32,
    data: &[u8],
) -> Option<(u32, u64)> {
    let (eights, _) = chunk.as_chunks::<8>();
    // SAFETY: the arrays are 32 bytes, read unaligned.
    let [lane_view, view_lane] =
        [LANE_VIEW, VIEW_LANE].map(|order| unsafe { _mm256_loadu_si256(order.as_ptr().cast()) });
    let bit = _mm256_sllv_epi32(_mm256_set1_epi32(1), lane_view);
    let limit = _mm256_set1_epi32(data.len() as i32);
    let span_buffer = _mm256_set1_epi32(buffer as i32);
    // Where the next listed string must start, in every lane.
    let mut start = _mm256_set1_epi32(end as i32);
    let mut wrong = _mm256_setzero_si256();
    let mut inline_bits = 0u64;
    for (j, eight) in eights.iter().enumerate() {
        // The bytes a few groups on, which the gathers ahead read
        // first: a gather waits on all its lanes, so that one that
        // misses the cache stalls the walk.
        let ahead = (_mm256_cvtsi256_si32(start) as u32 as usize) + AHEAD;
        for line in 0..AHEAD_LINES {
            crate::column::view_scan::prefetch_byte(data, ahead + 64 * line);
        }
        let [lengths, prefixes, buffers, offsets] = split(eight);
        let picked = _mm256_set1_epi32((picked >> (8 * j)) as u8 as i32);
        let picked = _mm256_cmpeq_epi32(_mm256_and_si256(picked, bit), bit);
        // A first byte below `C0` as `i8` (`80`–`BF`) cannot start a
        // row: in the top byte, a lane below `C0000000` as `i32`. An
        // inline view's is its string's (or, for an empty one, padding:
        // `00`).
        let boundary = _mm256_cmpgt_epi32(
            _mm256_slli_epi32::<24>(prefixes),
            _mm256_set1_epi32(0xBFFF_FFFFu32 as i32),
        );
        let listed = match WHOLE {
            true => {
                // Unsigned: a length of 2^31 or more is not inline.
                let inline = _mm256_cmpeq_epi32(
                    _mm256_min_epu32(lengths, _mm256_set1_epi32(MAX_INLINE as i32)),
                    lengths,
                );
                let in_rows = _mm256_permutevar8x32_epi32(inline, view_lane);
                let bits = _mm256_movemask_ps(_mm256_castsi256_ps(in_rows)) as u8;
                inline_bits |= u64::from(bits) << (8 * j);
                if PADDING {
                    let dirty = dirty_padding(lengths, [prefixes, buffers, offsets]);
                    wrong = _mm256_or_si256(wrong, _mm256_and_si256(dirty, inline));
                }
                wrong = _mm256_or_si256(wrong, _mm256_andnot_si256(boundary, picked));
                _mm256_andnot_si256(inline, picked)
            }
            false => picked,
        };
        let counted = _mm256_and_si256(lengths, listed);
        // Row order for the running total, and back.
        let total = running_total(_mm256_permutevar8x32_epi32(counted, view_lane));
        let before = _mm256_sub_epi32(total, _mm256_permutevar8x32_epi32(counted, view_lane));
        let starts = _mm256_add_epi32(start, _mm256_permutevar8x32_epi32(before, lane_view));
        start = _mm256_add_epi32(
            start,
            _mm256_permutevar8x32_epi32(total, _mm256_set1_epi32(7)),
        );
        // Within `data`: the end does not wrap, and is at most its
        // length (below 2^31, so that these unsigned tests see every
        // offset as it is).
        let ends = _mm256_add_epi32(offsets, lengths);
        let no_wrap = _mm256_cmpeq_epi32(_mm256_max_epu32(ends, offsets), ends);
        let within = _mm256_cmpeq_epi32(_mm256_max_epu32(ends, limit), limit);
        let four = _mm256_cmpgt_epi32(lengths, _mm256_set1_epi32(3));
        let readable = _mm256_and_si256(_mm256_and_si256(no_wrap, within), four);
        let read = _mm256_and_si256(readable, listed);
        // SAFETY: a lane reads the four bytes at `data + offset` only
        // where `read` is set: there `offset + length` does not wrap
        // and is at most `data.len()`, which is below 2^31 (so the
        // signed offset is the offset), and `length` is at least 4.
        let heads = unsafe {
            _mm256_mask_i32gather_epi32::<1>(
                _mm256_setzero_si256(),
                data.as_ptr().cast(),
                offsets,
                read,
            )
        };
        let right = _mm256_and_si256(
            _mm256_and_si256(
                _mm256_cmpeq_epi32(offsets, starts),
                _mm256_cmpeq_epi32(buffers, span_buffer),
            ),
            _mm256_and_si256(
                _mm256_and_si256(readable, boundary),
                _mm256_cmpeq_epi32(heads, prefixes),
            ),
        );
        wrong = _mm256_or_si256(wrong, _mm256_andnot_si256(right, listed));
    }
    // Every listed string ends within `data`, below 2^31: the total
    // has not wrapped.
    (_mm256_testz_si256(wrong, wrong) == 1)
        .then(|| (_mm256_cvtsi256_si32(start) as u32, inline_bits))
}

/// The bytes of each view's padding that are not `00`, read as an
/// inline view (the caller keeps the inline views' lanes), from its
/// length and the three fields past it: a field holds `length - 4k`
/// of the string's bytes (k its place, none below 0, all four from 4),
/// and the bytes above them are padding.
#[inline]
#[target_feature(enable = "avx2")]
fn dirty_padding(lengths: __m256i, fields: [__m256i; 3]) -> __m256i {
    let ones = _mm256_set1_epi32(-1);
    let mut dirty = _mm256_setzero_si256();
    for (k, field) in fields.into_iter().enumerate() {
        let held = _mm256_max_epi32(
            _mm256_sub_epi32(lengths, _mm256_set1_epi32(4 * k as i32)),
            _mm256_setzero_si256(),
        );
        // A shift of 32 bits or more leaves no padding.
        let padding = _mm256_sllv_epi32(ones, _mm256_slli_epi32::<3>(held));
        dirty = _mm256_or_si256(dirty, _mm256_and_si256(field, padding));
    }
    dirty
}
