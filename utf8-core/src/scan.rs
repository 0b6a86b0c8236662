//! The search for the first of a few bytes, which the conversions and the
//! UTF-8 shortcut of the dialects run over input already known to be UTF-8.

use crate::ruleset::Ruleset;

/// How many bytes [`find`] tests at once: a loop long enough for the
/// compiler's loop vectorizer, which ORs whole vectors of flags and tests
/// them once at the end. At 32 bytes the loop was unrolled instead, and the
/// OR of 32 flags became a chain of shuffles: a seventh of the speed on
/// Latin-Lipsum (7 GB/s against 37 for `cesu8::to_str`, AVX2).
const LANES: usize = 256;

/// How many bytes [`find`] looks at one at a time before it tests blocks.
const NEAR: usize = 16;

/// The index of the first byte for which `special` holds. Each block is
/// tested whole, without an early exit and with `special` as a mask rather
/// than a branch, so that the test vectorizes (a byte-by-byte search here
/// ran at a tenth of the speed of validation); only a block with a hit is
/// searched byte by byte. `special` must be free of short-circuits too.
///
/// Built for AVX2 where the CPU has it: the same loop at twice the vector
/// width, which the baseline x86-64 target cannot assume.
#[inline(always)]
pub(crate) fn find(bytes: &[u8], special: impl Fn(u8) -> bool + Copy) -> Option<usize> {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    if crate::cpu::supports(crate::cpu::Level::Avx2) {
        // SAFETY: `supports` found AVX2 on this CPU.
        return unsafe { find_avx2(bytes, special) };
    }
    find_in(bytes, special)
}

/// [`find`] compiled with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
#[target_feature(enable = "avx2")]
unsafe fn find_avx2(bytes: &[u8], special: impl Fn(u8) -> bool + Copy) -> Option<usize> {
    find_in(bytes, special)
}

/// The loop of [`find`], inlined into each instruction-set variant.
#[inline(always)]
fn find_in(bytes: &[u8], special: impl Fn(u8) -> bool + Copy) -> Option<usize> {
    // Where the bytes sought come close together (emoji in CESU-8), the next
    // is usually a few bytes on: a short look first keeps each call from
    // testing a whole block of flags to find it.
    let near = bytes.len().min(NEAR);
    if let Some(at) = bytes[..near].iter().position(|&byte| special(byte)) {
        return Some(at);
    }
    let far = &bytes[near..];
    let (blocks, rest) = far.as_chunks::<LANES>();
    for (index, block) in blocks.iter().enumerate() {
        let hits = block
            .iter()
            .fold(0u8, |hits, &byte| hits | u8::from(special(byte)));
        if hits != 0 {
            return block
                .iter()
                .position(|&byte| special(byte))
                .map(|at| near + index * LANES + at);
        }
    }
    if rest.is_empty() {
        return None;
    }
    // The last block's width at the end, overlapping blocks already tested
    // (which hold no hit): a stream's 4 KiB pieces would otherwise end in
    // 240 bytes read one at a time.
    if let Some(last) = far.last_chunk::<LANES>() {
        let hits = last
            .iter()
            .fold(0u8, |hits, &byte| hits | u8::from(special(byte)));
        return (hits != 0)
            .then(|| last.iter().position(|&byte| special(byte)))
            .flatten()
            .map(|at| near + far.len() - LANES + at);
    }
    rest.iter()
        .position(|&byte| special(byte))
        .map(|at| near + blocks.len() * LANES + at)
}

/// The sum of `weight` over `bytes`: each block's weights added as bytes
/// (at most [`COUNTED`] of them, so a weight up to 3 cannot overflow), in a
/// loop the compiler vectorizes, as [`find`]'s is. A weight must be free of
/// short-circuits too.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn count(bytes: &[u8], weight: impl Fn(u8) -> u8 + Copy) -> usize {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    if crate::cpu::supports(crate::cpu::Level::Avx2) {
        // SAFETY: `supports` found AVX2 on this CPU.
        return unsafe { count_avx2(bytes, weight) };
    }
    count_in(bytes, weight)
}

/// Bytes per block of [`count`]: 85 weights of 3 fit in a byte.
#[cfg(feature = "alloc")]
const COUNTED: usize = 64;

/// [`count`] compiled with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(all(feature = "alloc", any(target_arch = "x86_64", target_arch = "x86")))]
#[target_feature(enable = "avx2")]
unsafe fn count_avx2(bytes: &[u8], weight: impl Fn(u8) -> u8 + Copy) -> usize {
    count_in(bytes, weight)
}

/// The loop of [`count`], inlined into each instruction-set variant.
#[cfg(feature = "alloc")]
#[inline(always)]
fn count_in(bytes: &[u8], weight: impl Fn(u8) -> u8 + Copy) -> usize {
    let (blocks, rest) = bytes.as_chunks::<COUNTED>();
    let in_blocks: usize = blocks
        .iter()
        .map(|block| usize::from(block.iter().fold(0u8, |sum, &byte| sum + weight(byte))))
        .sum();
    in_blocks
        + rest
            .iter()
            .map(|&byte| usize::from(weight(byte)))
            .sum::<usize>()
}

/// Whether `byte` is one of the bytes on which `R` and UTF-8 part, as the
/// derivation found them (`utf8_spec::utf8_shortcut`): at most two ranges,
/// tested without a branch so that [`find`]'s blocks vectorize.
#[inline(always)]
fn is_forbidden<R: Ruleset>(byte: u8) -> bool {
    let [(lo0, hi0), (lo1, hi1)] = R::TABLES.shortcut.forbidden;
    (R::TABLES.shortcut.forbidden_count > 0) & (byte.wrapping_sub(lo0) <= hi0.wrapping_sub(lo0))
        | (R::TABLES.shortcut.forbidden_count > 1)
            & (byte.wrapping_sub(lo1) <= hi1.wrapping_sub(lo1))
}

/// The first byte of `utf8` (valid UTF-8, or a valid prefix of it) on
/// which `R` and UTF-8 may part; `None` when there is none, without a scan
/// where the derivation found no such byte.
#[inline]
pub(crate) fn find_forbidden<R: Ruleset>(utf8: &[u8]) -> Option<usize> {
    if R::TABLES.shortcut.forbidden_count == 0 {
        None
    } else {
        find(utf8, is_forbidden::<R>)
    }
}

/// Whether valid UTF-8 `utf8` is also valid under `R`, by the UTF-8
/// shortcut: false where `R` has none. For the built-in dialects such text
/// also means the same, since their forms of those characters are UTF-8's.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn utf8_is_valid_in<R: Ruleset>(utf8: &[u8]) -> bool {
    R::TABLES.shortcut.available && find_forbidden::<R>(utf8).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn is_long_lead(byte: u8) -> bool {
        byte >= 0xF0
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn count_sums_the_weights_at_every_length_even_where_every_byte_weighs_most() {
        let weight = |byte: u8| u8::from(byte >= 0xF0) * 2 + u8::from(byte == 0);
        for len in [0usize, 1, 63, 64, 65, 127, 128, 129, 700] {
            for bytes in [
                vec![0xF4; len],
                vec![0; len],
                (0..len).map(|i| i as u8).collect(),
            ] {
                let expected: usize = bytes.iter().map(|&b| usize::from(weight(b))).sum();
                assert_eq!(count(&bytes, weight), expected, "{len} bytes");
                assert_eq!(count_in(&bytes, weight), expected, "{len} bytes");
            }
        }
    }

    #[test]
    fn find_finds_the_first_special_byte_wherever_it_is_at_every_length() {
        let mut bytes = vec![b'a'; 700];
        for len in [
            0usize, 1, 15, 16, 17, 255, 256, 271, 272, 273, 300, 527, 528, 529, 700,
        ] {
            assert_eq!(
                find(&bytes[..len], is_long_lead),
                None,
                "{len} bytes of ASCII"
            );
            for at in (0..len).step_by(7).chain(len.checked_sub(1)) {
                bytes[at] = 0xF3;
                bytes[len - 1 - (len - 1 - at) / 2] = 0xF0;
                assert_eq!(
                    find(&bytes[..len], is_long_lead),
                    Some(at),
                    "{len} bytes, at {at}"
                );
                assert_eq!(
                    find_in(&bytes[..len], is_long_lead),
                    Some(at),
                    "{len} bytes, at {at}"
                );
                bytes[at..len].fill(b'a');
            }
        }
    }
}
