//! WTF-8 to and from potentially ill-formed UTF-16, as
//! `std::os::windows::ffi::{OsStringExt::from_wide, OsStrExt::encode_wide}`
//! convert, for bytes that the [`wtf8`](crate::wtf8) ruleset validated.

use core::iter::FusedIterator;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// The UTF-16 code units of WTF-8 text: what
/// [`wtf8::encode_wide`](crate::wtf8::encode_wide) returns, once the text
/// has been validated. A supplementary character gives its surrogate pair,
/// an unpaired surrogate its own unit.
#[derive(Clone, Debug)]
pub struct EncodeWide<'a> {
    /// Valid WTF-8, not yet read.
    bytes: &'a [u8],
    /// The trail surrogate of the character whose lead was given last.
    trail: Option<u16>,
}

impl<'a> EncodeWide<'a> {
    /// The units of `bytes`, which the WTF-8 automaton has accepted.
    pub(crate) fn new(bytes: &'a [u8]) -> EncodeWide<'a> {
        EncodeWide { bytes, trail: None }
    }
}

impl Iterator for EncodeWide<'_> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        if let Some(trail) = self.trail.take() {
            return Some(trail);
        }
        let (&lead, rest) = self.bytes.split_first()?;
        if lead < 0x80 {
            self.bytes = rest;
            return Some(u16::from(lead));
        }
        // Valid WTF-8 has one- to four-byte sequences; a lead byte of n ones
        // starts n bytes.
        let len = (lead.leading_ones() as usize)
            .clamp(2, 4)
            .min(self.bytes.len());
        let (sequence, rest) = self.bytes.split_at(len);
        self.bytes = rest;
        let mut value = u32::from(lead & (0x7F >> len));
        for &byte in &sequence[1..] {
            value = (value << 6) | u32::from(byte & 0x3F);
        }
        match value.checked_sub(0x1_0000) {
            None => Some(value as u16),
            Some(offset) => {
                self.trail = Some(0xDC00 | (offset & 0x3FF) as u16);
                Some(0xD800 | (offset >> 10) as u16)
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Three bytes make at least one unit (four make two); one byte at
        // most one.
        let pending = usize::from(self.trail.is_some());
        (
            self.bytes.len().div_ceil(3) + pending,
            Some(self.bytes.len() + pending),
        )
    }
}

impl FusedIterator for EncodeWide<'_> {}

/// The WTF-8 of `units`, paired or not, written into a vector sized once for
/// the longest result they can have.
#[cfg(feature = "alloc")]
pub(crate) fn from_wide(units: &[u16]) -> Vec<u8> {
    // One, two or three bytes for each unit; a pair takes four bytes for its
    // two units, so the bound is exact but for pairs.
    let bound: usize = units
        .iter()
        .map(|&unit| 1 + usize::from(unit >= 0x80) + usize::from(unit >= 0x800))
        .sum();
    let mut out = Vec::with_capacity(bound);
    for item in char::decode_utf16(units.iter().copied()) {
        match item {
            Ok(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Err(unpaired) => {
                // A surrogate as UTF-8 would encode a code point of its value.
                let unit = unpaired.unpaired_surrogate();
                out.extend_from_slice(&[
                    0xE0 | (unit >> 12) as u8,
                    0x80 | ((unit >> 6) & 0x3F) as u8,
                    0x80 | (unit & 0x3F) as u8,
                ]);
            }
        }
    }
    debug_assert!(out.len() <= bound);
    out
}
