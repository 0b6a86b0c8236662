//! What a views column's passes ask of each view, answered for up to 64
//! views at a time without a branch on what a view holds: which views
//! point into a data buffer (a bitmap, walked with one step per such
//! view), whether any inline view has a byte other than `00` in its
//! padding, and the copy of the inline views that the in-place check
//! (`super::inline`) reads.
//!
//! A view's length is its low 32 bits; a string of at most
//! [`MAX_INLINE`] bytes is inline. At the AVX2 and AVX-512 levels two views
//! are one 32-byte register: the length spread over its 128-bit lane, one
//! unsigned minimum and compare say whether the view is inline, one byte
//! shuffle and compare mark its padding. A scalar loop does the same a
//! view at a time elsewhere, and for a chunk's odd last view.

use super::views::MAX_INLINE;

/// The most views one call takes: one bit each in a `u64`.
pub(crate) const CHUNK: usize = 64;

/// The bits (view `i` at bit `i`) of the views that point into a data
/// buffer, and whether an inline view's padding holds a byte other than
/// `00`. `views` holds at most [`CHUNK`] views.
#[inline]
pub(crate) fn layout(views: &[u128]) -> (u64, bool) {
    debug_assert!(views.len() <= CHUNK);
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    match level() {
        // SAFETY: the CPU has AVX-512 F and BW (the level says so).
        crate::cpu::Level::Avx512 => return unsafe { x86::layout_avx512(views) },
        // SAFETY: the CPU has AVX2 (the level says so).
        crate::cpu::Level::Avx2 => return unsafe { x86::layout_avx2(views) },
        _ => {}
    }
    layout_scalar(views, 0)
}

/// Copies each view's 16 bytes to `out` where the view is inline and its
/// bit in `keep` is set, and 16 zeros in its place otherwise; returns the
/// bits of the kept views that point into a data buffer. `views` holds at
/// most [`CHUNK`] views and `out` has 16 bytes for each.
#[inline]
pub(crate) fn copy_inline(views: &[u128], keep: u64, out: &mut [[u8; 16]]) -> u64 {
    let (long, _) = copy::<false>(views, keep, out);
    long & keep
}

/// [`copy_inline`] and [`layout`] in one pass over the views, for a check
/// that reads each view from memory once: the bits of every view that
/// points into a data buffer, kept or not (a null row's layout is checked
/// too), and whether an inline view's padding holds a byte other than
/// `00`.
#[inline]
pub(crate) fn copy_inline_and_layout(
    views: &[u128],
    keep: u64,
    out: &mut [[u8; 16]],
) -> (u64, bool) {
    copy::<true>(views, keep, out)
}

/// The copy, with the padding test when `PADDING`: every view's bit that
/// points into a data buffer, and whether a padding byte is dirty (always
/// `false` without the test).
#[inline]
fn copy<const PADDING: bool>(views: &[u128], keep: u64, out: &mut [[u8; 16]]) -> (u64, bool) {
    debug_assert!(views.len() <= CHUNK);
    let out = &mut out[..views.len()];
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    match level() {
        crate::cpu::Level::Avx512 => {
            // SAFETY: the CPU has AVX-512 F and BW (the level says so),
            // and `out` was cut to `views.len()` entries.
            return unsafe { x86::copy_avx512::<PADDING>(views, keep, out) };
        }
        // SAFETY: the CPU has AVX2 (the level says so), and `out` was cut
        // to `views.len()` entries.
        crate::cpu::Level::Avx2 => return unsafe { x86::copy_avx2::<PADDING>(views, keep, out) },
        _ => {}
    }
    copy_scalar::<PADDING>(views, keep, out, 0)
}

/// At most AVX2 when set: the benchmarks' way to measure what a CPU
/// without AVX-512 runs (`crate::paths::cap_column_kernels`).
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
static AVX2_AT_MOST: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

/// Keeps the kernels to AVX2 on a CPU with AVX-512 (`true`), or not.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) fn cap_at_avx2(capped: bool) {
    AVX2_AT_MOST.store(capped, core::sync::atomic::Ordering::Relaxed);
}

/// The level the kernels run at: the CPU's, or AVX2 where capped. A level
/// is only ever lowered, so a kernel never asks for a feature the CPU
/// lacks.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
#[inline]
fn level() -> crate::cpu::Level {
    use crate::cpu::Level;
    match crate::cpu::level() {
        Level::Avx512 if AVX2_AT_MOST.load(core::sync::atomic::Ordering::Relaxed) => Level::Avx2,
        level => level,
    }
}

/// Whether `view` holds its string itself.
#[inline(always)]
fn is_inline(view: u128) -> bool {
    view as u32 as usize <= MAX_INLINE
}

/// [`layout`] a view at a time, for views numbered from `first`.
#[inline]
fn layout_scalar(views: &[u128], first: usize) -> (u64, bool) {
    let mut long = 0;
    let mut dirty = false;
    for (i, &view) in views.iter().enumerate() {
        dirty |= dirty_padding(view);
        long |= u64::from(!is_inline(view)) << (first + i);
    }
    (long, dirty)
}

/// Whether `view` is inline and has a byte other than `00` in its padding.
#[inline(always)]
fn dirty_padding(view: u128) -> bool {
    let len = view as u32 as usize;
    // The bytes past an inline string, shifted down: zero when padded
    // right.
    let padding = (view >> 32) >> (8 * len.min(MAX_INLINE));
    is_inline(view) & (padding != 0)
}

/// [`copy`] a view at a time, for views numbered from `first` (their bits
/// in `keep` and the result).
#[inline]
fn copy_scalar<const PADDING: bool>(
    views: &[u128],
    keep: u64,
    out: &mut [[u8; 16]],
    first: usize,
) -> (u64, bool) {
    let mut long = 0;
    let mut dirty = false;
    for (i, (&view, to)) in views.iter().zip(out).enumerate() {
        let inline = is_inline(view);
        dirty |= PADDING && dirty_padding(view);
        let kept = keep >> (first + i) & 1 == 1;
        // A mask the compiler cannot see is all ones or all zeros: seeing
        // it, it loads the view's high half only for a kept view, which is
        // a branch on what the view holds.
        let mask = u128::from(core::hint::black_box(u64::from(inline & kept))).wrapping_neg();
        *to = (view & mask).to_le_bytes();
        long |= u64::from(!inline) << (first + i);
    }
    (long, dirty)
}

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
mod x86;

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;
    use std::vec;
    use std::vec::Vec;

    /// A view of `len` bytes whose other 12 bytes are `rest`.
    fn view(len: u32, rest: [u8; 12]) -> u128 {
        let mut bytes = [0u8; 16];
        bytes[..4].copy_from_slice(&len.to_le_bytes());
        bytes[4..].copy_from_slice(&rest);
        u128::from_le_bytes(bytes)
    }

    /// Views of every length class at every position of a chunk, with
    /// every padding byte dirtied in turn.
    fn sample() -> Vec<Vec<u128>> {
        let mut columns = Vec::new();
        let lens = [0u32, 1, 4, 11, 12, 13, 200, 0x8000_0000, 0x1_00, u32::MAX];
        for count in [0usize, 1, 2, 3, 4, 5, 6, 7, 62, 63, 64] {
            for shift in 0..lens.len() {
                let column: Vec<u128> = (0..count)
                    .map(|i| {
                        let len = lens[(i + shift) % lens.len()];
                        let mut rest = [0u8; 12];
                        let used = (len as usize).min(12);
                        rest[..used].fill(b'a' + (i % 26) as u8);
                        if len > 12 {
                            rest = [0xFF; 12];
                        }
                        view(len, rest)
                    })
                    .collect();
                columns.push(column);
            }
        }
        for len in 0..=12usize {
            for dirty in len..12 {
                let mut rest = [b'x'; 12];
                rest[len..].fill(0);
                rest[dirty] = 0x80;
                let mut column = vec![view(len as u32, [0; 12]); 5];
                column[dirty % 5] = view(len as u32, rest);
                columns.push(column);
            }
        }
        columns
    }

    type Layout = fn(&[u128]) -> (u64, bool);
    /// A copy kernel, with the padding test (`true`) or without.
    type Copy = fn(&[u128], u64, &mut [[u8; 16]], bool) -> (u64, bool);

    /// Each kernel this CPU runs, with its name: the dispatched ones, and
    /// every x86 level the CPU has, whichever the dispatch picks.
    fn kernels() -> Vec<(&'static str, Layout, Copy)> {
        // Only x86 adds kernels of its levels.
        #[cfg_attr(
            not(any(target_arch = "x86_64", target_arch = "x86")),
            allow(unused_mut)
        )]
        let mut kernels: Vec<(&'static str, Layout, Copy)> =
            vec![("dispatched", layout, |views, keep, out, padding| {
                if padding {
                    copy_inline_and_layout(views, keep, out)
                } else {
                    copy::<false>(views, keep, out)
                }
            })];
        #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
        {
            if std::is_x86_feature_detected!("avx2") {
                kernels.push((
                    "avx2",
                    // SAFETY: the CPU has AVX2 (detected above).
                    |views| unsafe { x86::layout_avx2(views) },
                    // SAFETY: the CPU has AVX2; the tests' `out` has an
                    // entry a view.
                    |views, keep, out, padding| unsafe {
                        if padding {
                            x86::copy_avx2::<true>(views, keep, out)
                        } else {
                            x86::copy_avx2::<false>(views, keep, out)
                        }
                    },
                ));
            }
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")
            {
                kernels.push((
                    "avx512",
                    // SAFETY: the CPU has AVX-512 F and BW (detected above).
                    |views| unsafe { x86::layout_avx512(views) },
                    // SAFETY: the CPU has AVX-512 F and BW; the tests'
                    // `out` has an entry a view.
                    |views, keep, out, padding| unsafe {
                        if padding {
                            x86::copy_avx512::<true>(views, keep, out)
                        } else {
                            x86::copy_avx512::<false>(views, keep, out)
                        }
                    },
                ));
            }
        }
        kernels
    }

    #[test]
    fn every_vector_scan_agrees_with_the_scalar_one_on_every_length_class_and_padding_byte() {
        for (name, layout, _) in kernels() {
            for column in sample() {
                assert_eq!(
                    layout(&column),
                    layout_scalar(&column, 0),
                    "{name} {column:x?}"
                );
            }
        }
    }

    #[test]
    fn every_vector_copy_agrees_with_the_scalar_one_for_every_keep_mask_and_finds_the_layout() {
        for (name, _, copy) in kernels() {
            for column in sample() {
                for keep in [0u64, u64::MAX, 0x5555_5555_5555_5555, 0xF0F0, 1, 1 << 63] {
                    for padding in [false, true] {
                        let mut vector = vec![[0xEEu8; 16]; column.len()];
                        let mut scalar = vec![[0xEEu8; 16]; column.len()];
                        let got = copy(&column, keep, &mut vector, padding);
                        let expected = if padding {
                            copy_scalar::<true>(&column, keep, &mut scalar, 0)
                        } else {
                            copy_scalar::<false>(&column, keep, &mut scalar, 0)
                        };
                        let what = format!("{name} {column:x?} {keep:x} padding {padding}");
                        assert_eq!((got, &vector), (expected, &scalar), "{what}");
                        // The padding test is the layout scan's, over every
                        // view, kept or not; without it nothing is dirty.
                        let (long, dirty) = layout_scalar(&column, 0);
                        assert_eq!(got, (long, dirty && padding), "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_padded_inline_view_is_clean_and_a_long_one_is_listed() {
        let views = [view(2, *b"hi\0\0\0\0\0\0\0\0\0\0"), view(13, [0xFF; 12])];
        assert_eq!(layout(&views), (0b10, false));
        let dirty = [view(2, *b"hi\0\0\0\0\0\0\0\0\0!")];
        assert_eq!(layout(&dirty), (0, true));
    }
}
