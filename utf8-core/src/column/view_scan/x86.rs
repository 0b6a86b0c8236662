//! The views' kernels at the AVX2 and AVX-512 levels: two views a 256-bit
//! register, four a 512-bit one (`super`'s essay says how).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::{Packed, copy_scalar, layout_scalar, pack_scalar, store_each_string};
use crate::column::rule::{LOWEST_UTF8_START, starts_utf8_row};

/// Whether each view of a pair is inline: a 32-bit lane of all ones in
/// each of an inline view's four lanes, and the pair's two bits (first
/// view at bit 0).
#[inline]
#[target_feature(enable = "avx2")]
fn inline_lanes(pair: __m256i) -> (__m256i, u64) {
    // Each 128-bit lane's low 32 bits, the view's length, in all four
    // of its 32-bit lanes.
    let len = _mm256_shuffle_epi32::<0>(pair);
    let max = _mm256_set1_epi32(super::MAX_INLINE as i32);
    // Unsigned: a length of 2^31 or more is not inline.
    let inline = _mm256_cmpeq_epi32(_mm256_min_epu32(len, max), len);
    let signs = _mm256_movemask_ps(_mm256_castsi256_ps(inline)) as u32;
    // The sign bits of lanes 0 and 4, one for each view.
    let bits = (signs & 1) | (signs >> 3 & 2);
    (inline, u64::from(bits))
}

/// The padding bytes of a pair's inline views that are not `00` (the
/// others zero), given `inline_lanes`' lanes and [`lane_index`] in
/// both halves.
#[inline]
#[target_feature(enable = "avx2")]
fn dirty_padding(pair: __m256i, inline: __m256i, index: __m256i) -> __m256i {
    // Each lane's byte 0 (the low byte of the length) in all its
    // bytes: for an inline view, the bytes at `len + 4` and past are
    // padding. Lengths are at most 12 there, so the signed compare
    // sees no wrap.
    let len = _mm256_shuffle_epi8(pair, _mm256_setzero_si256());
    let past = _mm256_cmpgt_epi8(index, _mm256_add_epi8(len, _mm256_set1_epi8(3)));
    _mm256_and_si256(_mm256_and_si256(past, inline), pair)
}

/// [`super::layout`] two views a step.
///
/// # Safety
///
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn layout_avx2(views: &[u128]) -> (u64, bool) {
    let (pairs, rest) = views.as_chunks::<2>();
    // SAFETY: the CPU has AVX2, and so SSE2.
    let index = _mm256_broadcastsi128_si256(unsafe { lane_index() });
    let mut padding = _mm256_setzero_si256();
    let mut inline_bits = 0u64;
    for (j, pair) in pairs.iter().enumerate() {
        // SAFETY: `pair` is 32 bytes, read unaligned.
        let pair = unsafe { _mm256_loadu_si256(pair.as_ptr().cast()) };
        let (inline, bits) = inline_lanes(pair);
        inline_bits |= bits << (2 * j);
        padding = _mm256_or_si256(padding, dirty_padding(pair, inline, index));
    }
    let paired = 2 * pairs.len();
    let long = !inline_bits & low_bits(paired);
    let (rest_long, rest_dirty) = layout_scalar(rest, paired);
    let dirty = _mm256_testz_si256(padding, padding) == 0;
    (long | rest_long, dirty | rest_dirty)
}

/// [`super::copy_inline`] two views a step, returning every view's bit
/// that points into a data buffer.
///
/// # Safety
///
/// The CPU has AVX2; `out` has as many entries as `views`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn copy_avx2(views: &[u128], keep: u64, out: &mut [[u8; 16]]) -> u64 {
    let (pairs, rest) = views.as_chunks::<2>();
    let (out_pairs, out_rest) = out.as_chunks_mut::<2>();
    let mut inline_bits = 0u64;
    for (j, (pair, to)) in pairs.iter().zip(out_pairs.iter_mut()).enumerate() {
        // SAFETY: `pair` is 32 bytes, read unaligned.
        let pair = unsafe { _mm256_loadu_si256(pair.as_ptr().cast()) };
        let (inline, bits) = inline_lanes(pair);
        inline_bits |= bits << (2 * j);
        let copy = _mm256_and_si256(pair, _mm256_and_si256(inline, kept_lanes(keep >> (2 * j))));
        // SAFETY: `to` is 32 bytes, written unaligned.
        unsafe { _mm256_storeu_si256(to.as_mut_ptr().cast(), copy) };
    }
    let paired = 2 * pairs.len();
    let long = !inline_bits & low_bits(paired);
    long | copy_scalar(rest, keep, out_rest, paired)
}

/// [`super::pack_inline`] two views a step, for a ruleset whose bytes
/// that cannot start a row are `80`–`BF`. With `STORE_EACH_VIEW`, each
/// pair's two views are stored as they are tested (a chunk of mostly
/// inline strings); without, a chunk of mostly longer strings, the views
/// are tested first and then a store is made for each kept inline string
/// only.
///
/// # Safety
///
/// The CPU has AVX2; `text` has [`super::packed_room`]`(views.len())`
/// bytes from `*at`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn pack_avx2<const PADDING: bool, const STORE_EACH_VIEW: bool>(
    views: &[u128],
    keep: u64,
    text: &mut [u8],
    at: &mut usize,
) -> Packed {
    let (pairs, rest) = views.as_chunks::<2>();
    // SAFETY: the CPU has AVX2, and so SSE2.
    let index = _mm256_broadcastsi128_si256(unsafe { lane_index() });
    let mut padding = _mm256_setzero_si256();
    // The bytes of the copied views that cannot start a row, of which
    // each string's first (byte 4 of its lane) is read at the end.
    let mut tails = _mm256_setzero_si256();
    let mut inline_bits = 0u64;
    let mut to = *at;
    for (j, pair) in pairs.iter().enumerate() {
        // SAFETY: `pair` is 32 bytes, read unaligned.
        let pair = unsafe { _mm256_loadu_si256(pair.as_ptr().cast()) };
        let (inline, bits) = inline_lanes(pair);
        inline_bits |= bits << (2 * j);
        if PADDING {
            padding = _mm256_or_si256(padding, dirty_padding(pair, inline, index));
        }
        // The kept inline views, the others zeros: length 0, and a first
        // byte of `00`. A chunk with no null row (most) needs no mask of
        // kept lanes: the test is the same on every pair, so the compiler
        // makes the loop twice, and words run 4–6% faster.
        let kept = match keep {
            u64::MAX => inline,
            _ => _mm256_and_si256(inline, kept_lanes(keep >> (2 * j))),
        };
        let copy = _mm256_and_si256(pair, kept);
        tails = _mm256_or_si256(
            tails,
            _mm256_cmpgt_epi8(_mm256_set1_epi8(LOWEST_UTF8_START), copy),
        );
        if !STORE_EACH_VIEW {
            continue;
        }
        // Each view's string at the start of its lane.
        let strings = _mm256_srli_si256::<4>(copy);
        for (string, len) in [
            (_mm256_castsi256_si128(strings), _mm256_cvtsi256_si32(copy)),
            (
                _mm256_extracti128_si256::<1>(strings),
                _mm256_extract_epi32::<4>(copy),
            ),
        ] {
            let store: &mut [u8; 16] = (&mut text[to..to + 16]).try_into().expect("16 bytes");
            // SAFETY: `store` is 16 bytes, written unaligned.
            unsafe { _mm_storeu_si128(store.as_mut_ptr().cast(), string) };
            to += len as u32 as usize;
        }
    }
    *at = to;
    let paired = 2 * pairs.len();
    if !STORE_EACH_VIEW {
        let strings = inline_bits & keep & low_bits(paired);
        store_each_string(pairs.as_flattened(), strings, text, at);
    }
    let starts = (_mm256_movemask_epi8(tails) as u32) & (1 << 4 | 1 << 20);
    let found = pack_scalar::<PADDING>(rest, keep, text, at, paired, starts_utf8_row);
    Packed {
        long: !inline_bits & low_bits(paired) | found.long,
        dirty: _mm256_testz_si256(padding, padding) == 0 || found.dirty,
        bad_start: starts != 0 || found.bad_start,
    }
}

/// A pair's two bits of `keep` (the low two), spread to the lanes of its
/// views: all ones for a kept view's four 32-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn kept_lanes(keep: u64) -> __m256i {
    let select = _mm256_setr_epi32(1, 1, 1, 1, 2, 2, 2, 2);
    let kept = _mm256_set1_epi32((keep & 3) as i32);
    _mm256_cmpeq_epi32(_mm256_and_si256(kept, select), select)
}

/// The bits of a quad's views (first view at bit 0) from a mask with
/// one bit per 32-bit lane, of which those of lanes 0, 4, 8 and 12
/// (each view's first) are read: one multiply moves them to bits 12
/// to 15, each partial product landing apart from the others.
#[inline(always)]
fn view_bits(lanes: u16) -> u64 {
    (u64::from(lanes & 0x1111) * 0x1248) >> 12 & 0xF
}

/// The mask of each set view bit's four 32-bit lanes.
#[inline(always)]
fn view_lanes(bits: u64) -> u16 {
    /// The lanes of each of the 16 sets of four views.
    const LANES: [u16; 16] = {
        let mut lanes = [0u16; 16];
        let mut bits = 0;
        while bits < 16 {
            let mut view = 0;
            while view < 4 {
                if bits >> view & 1 == 1 {
                    lanes[bits] |= 0xF << (4 * view);
                }
                view += 1;
            }
            bits += 1;
        }
        lanes
    };
    LANES[(bits & 0xF) as usize]
}

/// Whether each view of a quad is inline: a mask of the four 32-bit
/// lanes of each inline view.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn inline_lanes512(quad: __m512i) -> u16 {
    // Each view's length in its four lanes, compared unsigned, so that
    // a length of 2^31 or more is not inline.
    let len = _mm512_shuffle_epi32::<0>(quad);
    _mm512_cmple_epu32_mask(len, _mm512_set1_epi32(super::MAX_INLINE as i32))
}

/// The padding bytes of a quad's inline views that are not `00`, one
/// bit each, given `inline_lanes512`'s lanes and [`lane_index`] in
/// every 128-bit lane.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn dirty_padding512(quad: __m512i, inline: u16, index: __m512i) -> u64 {
    // The inline views alone (the others zeros, whose padding is
    // clean), then as at AVX2: each lane's length byte in all its
    // bytes, and the bytes at `len + 4` and past are padding, which
    // must be `00`.
    let kept = _mm512_maskz_mov_epi32(inline, quad);
    let len = _mm512_shuffle_epi8(kept, _mm512_setzero_si512());
    let past = _mm512_cmpgt_epi8_mask(index, _mm512_add_epi8(len, _mm512_set1_epi8(3)));
    _mm512_mask_test_epi8_mask(past, kept, kept)
}

/// [`super::layout`] four views a step.
///
/// # Safety
///
/// The CPU has AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn layout_avx512(views: &[u128]) -> (u64, bool) {
    let (quads, rest) = views.as_chunks::<4>();
    // SAFETY: the CPU has AVX-512 F, and so SSE2.
    let index = _mm512_broadcast_i32x4(unsafe { lane_index() });
    let mut dirty = 0u64;
    let mut inline_bits = 0u64;
    for (j, quad) in quads.iter().enumerate() {
        // SAFETY: `quad` is 64 bytes, read unaligned.
        let quad = unsafe { _mm512_loadu_si512(quad.as_ptr().cast()) };
        let inline = inline_lanes512(quad);
        inline_bits |= view_bits(inline) << (4 * j);
        dirty |= dirty_padding512(quad, inline, index);
    }
    let quadded = 4 * quads.len();
    let long = !inline_bits & low_bits(quadded);
    let (rest_long, rest_dirty) = layout_scalar(rest, quadded);
    (long | rest_long, dirty != 0 || rest_dirty)
}

/// [`super::copy_inline`] four views a step, returning every view's bit
/// that points into a data buffer.
///
/// # Safety
///
/// The CPU has AVX-512 F and BW; `out` has as many entries as `views`.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn copy_avx512(views: &[u128], keep: u64, out: &mut [[u8; 16]]) -> u64 {
    let (quads, rest) = views.as_chunks::<4>();
    let (out_quads, out_rest) = out.as_chunks_mut::<4>();
    let mut inline_bits = 0u64;
    for (j, (quad, to)) in quads.iter().zip(out_quads.iter_mut()).enumerate() {
        // SAFETY: `quad` is 64 bytes, read unaligned.
        let quad = unsafe { _mm512_loadu_si512(quad.as_ptr().cast()) };
        let inline = inline_lanes512(quad);
        inline_bits |= view_bits(inline) << (4 * j);
        let copied = inline & view_lanes(keep >> (4 * j));
        // SAFETY: `to` is 64 bytes, written unaligned.
        unsafe {
            _mm512_storeu_si512(to.as_mut_ptr().cast(), _mm512_maskz_mov_epi32(copied, quad))
        };
    }
    let quadded = 4 * quads.len();
    let long = !inline_bits & low_bits(quadded);
    long | copy_scalar(rest, keep, out_rest, quadded)
}

/// Bytes 4 to 15 of each 128-bit lane: where a view's string may be.
const STRING_BYTES: u64 = 0xFFF0_FFF0_FFF0_FFF0;
/// Byte 4 of each 128-bit lane: a view's first string byte.
const FIRST_BYTES: u64 = 0x0010_0010_0010_0010;

/// [`super::pack_inline`] four views a step, one byte compression and one
/// store for the four, for a ruleset whose bytes that cannot start a row
/// are `80`–`BF`.
///
/// # Safety
///
/// The CPU has AVX-512 F, BW and VBMI2 and POPCNT; `text` has
/// [`super::packed_room`]`(views.len())` bytes from `*at`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
pub(super) unsafe fn pack_vbmi2<const PADDING: bool>(
    views: &[u128],
    keep: u64,
    text: &mut [u8],
    at: &mut usize,
) -> Packed {
    let (quads, rest) = views.as_chunks::<4>();
    // SAFETY: the CPU has AVX-512 F, and so SSE2.
    let index = _mm512_broadcast_i32x4(unsafe { lane_index() });
    let mut dirty = 0u64;
    let mut tails = 0u64;
    let mut inline_bits = 0u64;
    let mut to = *at;
    for (j, quad) in quads.iter().enumerate() {
        // SAFETY: `quad` is 64 bytes, read unaligned.
        let quad = unsafe { _mm512_loadu_si512(quad.as_ptr().cast()) };
        let inline = inline_lanes512(quad);
        inline_bits |= view_bits(inline) << (4 * j);
        if PADDING {
            dirty |= dirty_padding512(quad, inline, index);
        }
        // The kept inline views, the others zeros: length 0, and a first
        // byte of `00`.
        let kept = _mm512_maskz_mov_epi32(inline & view_lanes(keep >> (4 * j)), quad);
        tails |=
            _mm512_mask_cmplt_epi8_mask(FIRST_BYTES, kept, _mm512_set1_epi8(LOWEST_UTF8_START));
        // Each lane's length byte in all its bytes; its string is bytes
        // 4 to `len + 4`.
        let len = _mm512_shuffle_epi8(kept, _mm512_setzero_si512());
        let ends = _mm512_add_epi8(len, _mm512_set1_epi8(4));
        let string = _mm512_mask_cmplt_epi8_mask(STRING_BYTES, index, ends);
        let store: &mut [u8; 64] = (&mut text[to..to + 64]).try_into().expect("64 bytes");
        // SAFETY: `store` is 64 bytes, written unaligned.
        unsafe {
            _mm512_storeu_si512(
                store.as_mut_ptr().cast(),
                _mm512_maskz_compress_epi8(string, kept),
            )
        };
        to += string.count_ones() as usize;
    }
    *at = to;
    let quadded = 4 * quads.len();
    let found = pack_scalar::<PADDING>(rest, keep, text, at, quadded, starts_utf8_row);
    Packed {
        long: !inline_bits & low_bits(quadded) | found.long,
        dirty: dirty != 0 || found.dirty,
        bad_start: tails != 0 || found.bad_start,
    }
}

/// Each byte's place in its 128-bit lane: what a view's padding test
/// compares the string's end against.
const LANE_INDEX: [u8; 16] = {
    let mut index = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        index[i] = i as u8;
        i += 1;
    }
    index
};

/// [`LANE_INDEX`] in a register.
///
/// # Safety
///
/// The CPU has SSE2 (every x86-64 CPU, and every CPU with AVX2).
#[inline(always)]
unsafe fn lane_index() -> __m128i {
    // SAFETY: `LANE_INDEX` is 16 bytes, read unaligned.
    unsafe { _mm_loadu_si128(LANE_INDEX.as_ptr().cast()) }
}

/// The low `n` bits, `n` at most 64.
#[inline(always)]
fn low_bits(n: usize) -> u64 {
    u64::MAX.checked_shr(64 - n as u32).unwrap_or(0)
}
