//! What a views column's passes ask of each view, answered for up to 64
//! views at a time without a branch on what a view holds: which views
//! point into a data buffer (a bitmap, walked with one step per such
//! view), whether any inline view has a byte other than `00` in its
//! padding, and the inline strings themselves, in one of two forms:
//!
//! - **copied views** ([`copy_inline`]): each inline view's 16 bytes, or
//!   16 zeros for any other, for a check that reads views as they lie
//!   (`super::inline`'s check by copying, which names a row by its place);
//! - **packed strings** ([`pack_inline`]): the inline strings one after
//!   another with nothing between them, for the in-place check. Inline
//!   strings are short (a few bytes on average in text), so this is a
//!   fraction of the bytes of the copied views for the vector check to
//!   read. A string whose first byte cannot start a row is reported, since
//!   packed strings are valid exactly when each is only where each starts
//!   on a boundary (`super::rule`).
//!
//! A view's length is its low 32 bits; a string of at most
//! [`MAX_INLINE`] bytes is inline. At the AVX2 and AVX-512 levels two views
//! are one 32-byte register: the length spread over its 128-bit lane, one
//! unsigned minimum and compare say whether the view is inline, one byte
//! shuffle and compare mark its padding. The packing stores each inline
//! string (its view shifted down past the length) where the last one ended,
//! the next store overwriting what lay past it; in a chunk of mostly
//! longer strings (a column of lines), the tests run two views a step and
//! then one store is made for each kept inline string only (where such a
//! chunk continues an open span, `super::span_scan` makes these tests in
//! its own pass, and this packing runs only when that one fails). With AVX-512
//! VBMI2, one byte compression packs four views' strings for one store. A
//! scalar loop does the same a view at a time elsewhere, and for a chunk's
//! last views.

use super::rule::RowRule;
use super::view::{MAX_INLINE, View};

/// The most views one call takes: one bit each in a `u64`.
pub(crate) const CHUNK: usize = 64;

/// The bits (view `i` at bit `i`) of the views that point into a data
/// buffer, and whether an inline view's padding holds a byte other than
/// `00`. `views` holds at most [`CHUNK`] views.
#[inline]
pub(crate) fn layout(views: &[u128]) -> (u64, bool) {
    debug_assert!(views.len() <= CHUNK);
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    match super::kernel_level::level() {
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
    debug_assert!(views.len() <= CHUNK);
    let out = &mut out[..views.len()];
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    let long = match super::kernel_level::level() {
        // SAFETY: the CPU has AVX-512 F and BW (the level says so), and
        // `out` was cut to `views.len()` entries.
        crate::cpu::Level::Avx512 => unsafe { x86::copy_avx512(views, keep, out) },
        // SAFETY: the CPU has AVX2 (the level says so), and `out` was cut
        // to `views.len()` entries.
        crate::cpu::Level::Avx2 => unsafe { x86::copy_avx2(views, keep, out) },
        _ => copy_scalar(views, keep, out, 0),
    };
    #[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
    let long = copy_scalar(views, keep, out, 0);
    long & keep
}

/// Asks the CPU to bring `views` into its cache, a 64-byte line at a
/// time, ahead of the pass that reads them. Between a batch's first pass
/// and the next batch's, the check reads only what is cached or what a
/// span holds, so the hardware's own prefetch, which follows the loads it
/// sees, stops short of the next batch's views.
#[inline(always)]
pub(crate) fn prefetch(views: &[u128]) {
    #[cfg(target_arch = "x86_64")]
    for line in views.iter().step_by(64 / size_of::<u128>()) {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is a hint that changes nothing the program
        // sees, here of memory that `views` holds.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(core::ptr::from_ref(line).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = views;
}

/// Asks the CPU to bring the 64-byte line that holds `data[at]` into its
/// cache, where there is such a byte: for strings read one after another
/// in a data buffer, what lies a little past the one being read.
#[inline(always)]
pub(crate) fn prefetch_byte(data: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(byte) = data.get(at) {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is a hint that changes nothing the program
        // sees, here of a byte that `data` holds.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(core::ptr::from_ref(byte).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (data, at);
}

/// Room for the packed strings of `views` views: each at the longest an
/// inline string is, and a store of a whole vector past the last.
pub(crate) const fn packed_room(views: usize) -> usize {
    views * MAX_INLINE + PACK_STORE
}

/// The widest store a packing makes, of which the bytes past the string
/// are overwritten by the next or lie past the packed strings' end.
const PACK_STORE: usize = 64;

/// What [`pack_inline`] found in its views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Packed {
    /// The bits of the views that point into a data buffer, kept or not.
    pub(crate) long: u64,
    /// With the padding test, whether an inline view, kept or not, has a
    /// byte other than `00` in its padding (always `false` without it).
    pub(crate) dirty: bool,
    /// Whether a kept inline string starts with a byte that cannot start
    /// a row under `rule`.
    pub(crate) bad_start: bool,
}

/// Writes the strings of the inline views whose bit in `keep` is set to
/// `text` from `*at`, one after another, and moves `*at` past them; tests
/// the padding of every inline view with `PADDING`. `views` holds at most
/// [`CHUNK`] views, and `text` has at least
/// [`packed_room`]`(views.len())` bytes from `*at`: what lies past the new
/// `*at` is anything. `mostly_long` says whether few of the views are
/// likely inline (as in the chunk before), which picks the faster of two
/// ways at AVX2.
#[inline]
pub(crate) fn pack_inline<const PADDING: bool>(
    views: &[u128],
    keep: u64,
    text: &mut [u8],
    at: &mut usize,
    rule: &RowRule,
    mostly_long: bool,
) -> Packed {
    debug_assert!(views.len() <= CHUNK);
    debug_assert!(text.len() >= *at + packed_room(views.len()));
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    if rule.utf8_tails {
        match super::kernel_level::level() {
            crate::cpu::Level::Avx512 if crate::cpu::has_vbmi2() => {
                // SAFETY: the CPU has AVX-512 F, BW, VBMI2 and POPCNT
                // (the level and `has_vbmi2` say so); the room asked of
                // the caller is the room the kernel needs.
                return unsafe { x86::pack_vbmi2::<PADDING>(views, keep, text, at) };
            }
            crate::cpu::Level::Avx512 | crate::cpu::Level::Avx2 => {
                // SAFETY: the CPU has AVX2 (the level says so: AVX-512 is
                // detected with it), and the room asked of the caller is
                // the room the kernel needs, whether it stores each view
                // or each inline string.
                return unsafe {
                    match mostly_long {
                        true => x86::pack_avx2::<PADDING, false>(views, keep, text, at),
                        false => x86::pack_avx2::<PADDING, true>(views, keep, text, at),
                    }
                };
            }
            _ => {}
        }
    }
    // Which way is faster is a question for the AVX2 kernel only.
    #[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
    let _ = mostly_long;
    pack_scalar::<PADDING>(views, keep, text, at, 0, |byte| rule.starts_row(byte))
}

/// Stores the strings of the views `strings` picks (view `i` at bit `i`)
/// one after another in `text` from `*at`, and moves `*at` past them;
/// `text` has room for a 16-byte store at each string's start.
#[inline]
pub(crate) fn store_each_string(views: &[u128], mut strings: u64, text: &mut [u8], at: &mut usize) {
    let mut to = *at;
    while strings != 0 {
        let view = View(views[strings.trailing_zeros() as usize]);
        strings &= strings - 1;
        let store: &mut [u8; 16] = (&mut text[to..to + 16]).try_into().expect("16 bytes");
        *store = view.after_len();
        to += view.len();
    }
    *at = to;
}

/// [`layout`] a view at a time, for views numbered from `first`.
#[inline]
fn layout_scalar(views: &[u128], first: usize) -> (u64, bool) {
    let mut long = 0;
    let mut dirty = false;
    for (i, &view) in views.iter().enumerate() {
        let view = View(view);
        dirty |= view.has_dirty_padding();
        long |= u64::from(!view.is_inline()) << (first + i);
    }
    (long, dirty)
}

/// [`copy_inline`] a view at a time, for views numbered from `first`
/// (their bits in `keep` and the result), returning every view's bit that
/// points into a data buffer.
#[inline]
fn copy_scalar(views: &[u128], keep: u64, out: &mut [[u8; 16]], first: usize) -> u64 {
    let mut long = 0;
    for (i, (&view, to)) in views.iter().zip(out).enumerate() {
        let inline = View(view).is_inline();
        let kept = keep >> (first + i) & 1 == 1;
        // A mask the compiler cannot see is all ones or all zeros: seeing
        // it, it loads the view's high half only for a kept view, which is
        // a branch on what the view holds.
        let mask = u128::from(core::hint::black_box(u64::from(inline & kept))).wrapping_neg();
        *to = (view & mask).to_le_bytes();
        long |= u64::from(!inline) << (first + i);
    }
    long
}

/// [`pack_inline`] a view at a time, for views numbered from `first`
/// (their bits in `keep` and in the result's), with the row rule's test of
/// a first byte.
#[inline]
fn pack_scalar<const PADDING: bool>(
    views: &[u128],
    keep: u64,
    text: &mut [u8],
    at: &mut usize,
    first: usize,
    starts_row: impl Fn(u8) -> bool,
) -> Packed {
    let mut found = Packed {
        long: 0,
        dirty: false,
        bad_start: false,
    };
    for (i, &view) in views.iter().enumerate() {
        let view = View(view);
        let inline = view.is_inline();
        found.dirty |= PADDING && view.has_dirty_padding();
        found.long |= u64::from(!inline) << (first + i);
        let kept = keep >> (first + i) & 1 == 1;
        // Every view's bytes past its length are stored, and only a kept
        // inline view's string is counted, so that no branch asks which.
        let len = view.len() & usize::from(inline & kept).wrapping_neg();
        let string = view.after_len();
        text[*at..*at + 16].copy_from_slice(&string);
        found.bad_start |= len != 0 && !starts_row(string[0]);
        *at += len;
    }
    found
}

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
mod x86;

#[cfg(test)]
mod tests;
