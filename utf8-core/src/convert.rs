//! Conversions between the dialects and UTF-8 (`str`), and between WTF-8 and
//! potentially ill-formed UTF-16.
//!
//! Every conversion to `str` has the same shape: one check on the fast
//! path proves the input needs no conversion. Otherwise the input is
//! converted in one pass into a vector sized for the result, copying the
//! runs that need none whole. The strict conversions ([`to_str`]) find those
//! runs with the vector check of the dialect's UTF-8 shortcut language
//! (valid UTF-8 without the bytes on which the dialect and UTF-8 part: one
//! pass), the lossy ones ([`to_str_lossy`]) with the crate's vector
//! [`from_utf8`](crate::from_utf8), a scan for those bytes, and the
//! dialect's chunks.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::chunks::Chunks;
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;
use crate::scan::find;
use crate::strings::from_utf8;
pub(crate) use crate::to_str_error::Pairs;
use crate::to_str_error::to_str_error;

/// U+FFFD REPLACEMENT CHARACTER, what lossy conversions put in place of each
/// maximal invalid subpart and of each value `str` cannot hold.
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// A first byte of a four-byte (or longer) form, which neither CESU-8 nor
/// modified UTF-8 has.
#[inline(always)]
fn is_long_lead(byte: u8) -> bool {
    byte >= 0xF0
}

/// The bytes where a valid run in any of the dialects stops being UTF-8 as it
/// stands: `C0` (modified UTF-8's `C0 80`), `ED` (a surrogate, when `A0-BF`
/// follows) and `F4-FD` (values above U+10FFFF, when the form allows them).
#[inline(always)]
fn may_differ(byte: u8) -> bool {
    (byte == 0xC0) | (byte == 0xED) | (byte >= 0xF4)
}

/// The value of the generalized UTF-8 sequence at the start of `bytes`, and
/// its length: a lead byte's bits after its first zero, then six bits from
/// each continuation byte. `bytes` must start with a whole sequence that some
/// dialect accepted (the caller has validated it).
#[inline(always)]
fn code_point(bytes: &[u8]) -> (u32, usize) {
    let lead = bytes[0];
    let len = match lead.leading_ones() {
        0 => return (u32::from(lead), 1),
        ones => (ones as usize).clamp(2, 6),
    };
    let mut value = u32::from(lead & (0x7F >> len));
    for &byte in &bytes[1..len.min(bytes.len())] {
        value = (value << 6) | u32::from(byte & 0x3F);
    }
    (value, len)
}

/// Appends the UTF-8 of `valid`, bytes that one of the dialects accepted
/// whole, to `out`: runs that are UTF-8 as they stand are copied, `C0 80`
/// becomes `00`, a lead surrogate followed by a trail surrogate becomes the
/// four-byte form of their character (with [`Pairs::Join`]), and any other
/// surrogate or any value above U+10FFFF is replaced by U+FFFD.
fn push_as_utf8(valid: &[u8], out: &mut Vec<u8>, pairs: Pairs) {
    let mut at = 0;
    while let Some(found) = find(&valid[at..], may_differ) {
        let start = at + found;
        out.extend_from_slice(&valid[at..start]);
        let (value, len) = code_point(&valid[start..]);
        at = start + len;
        match value {
            0xD800..=0xDBFF => {
                let (trail, trail_len) = match valid.get(at..) {
                    Some(next) if !next.is_empty() => code_point(next),
                    _ => (0, 0),
                };
                if pairs == Pairs::Join && (0xDC00..=0xDFFF).contains(&trail) {
                    let c = 0x1_0000 + ((value - 0xD800) << 10) + (trail - 0xDC00);
                    push_char(c, out);
                    at += trail_len;
                } else {
                    out.extend_from_slice(REPLACEMENT);
                }
            }
            0xDC00..=0xDFFF => out.extend_from_slice(REPLACEMENT),
            _ => push_char(value, out),
        }
    }
    out.extend_from_slice(&valid[at..]);
}

/// Appends the UTF-8 of `value`, or U+FFFD if it is no scalar value.
#[inline]
fn push_char(value: u32, out: &mut Vec<u8>) {
    let c = char::from_u32(value).unwrap_or(char::REPLACEMENT_CHARACTER);
    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
}

/// The UTF-8 of a supplementary character (U+10000-10FFFF, what every
/// surrogate pair stands for), without `encode_utf8`'s choice of length.
#[inline(always)]
fn four_byte_form(c: u32) -> [u8; 4] {
    debug_assert!((0x1_0000..=0x10_FFFF).contains(&c));
    [
        0xF0 | (c >> 18) as u8,
        0x80 | ((c >> 12) & 0x3F) as u8,
        0x80 | ((c >> 6) & 0x3F) as u8,
        0x80 | (c & 0x3F) as u8,
    ]
}

/// `bytes`, converted by [`push_as_utf8`], as a `String`.
///
/// The result is UTF-8 by construction; it is checked again anyway, with the
/// vector check, rather than trusted with `unsafe`: at the speed of that
/// check the second pass costs a fraction of the conversion.
fn into_string(bytes: Vec<u8>) -> String {
    match crate::strings::from_utf8_owned(bytes) {
        Ok(text) => text,
        Err(e) => unreachable!("a conversion wrote invalid UTF-8: {}", e.utf8_error()),
    }
}

/// Which of CESU-8's two dialects a strict conversion reads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Java {
    /// CESU-8: `00` is U+0000.
    No,
    /// Modified UTF-8: U+0000 is `C0 80`, and `00` is invalid.
    Yes,
}

/// The text of `bytes` in CESU-8 or modified UTF-8 (`R`, as `java` says) as
/// a `str`, borrowed when the bytes are UTF-8 as they stand.
///
/// The crate's vector `from_utf8` finds each place where the input stops
/// being UTF-8 (where the conversion has work to do); there a
/// surrogate pair or `C0 80` is converted and the search goes on after it.
/// The runs between are scanned, whole blocks at a time, for the bytes that
/// UTF-8 allows and the dialect does not, as the derivation found them
/// (`F0-FF`, and `00` in modified UTF-8; see
/// [`crate::scan::find_forbidden`]). Anything else ends the conversion with
/// the error [`to_str_error`] finds there: `R`'s own, or, at a surrogate
/// that is not half of a pair (or may yet become one), the conversion's.
pub(crate) fn to_str<R: Ruleset>(bytes: &[u8], java: Java) -> Result<Cow<'_, str>, Utf8Error> {
    let java = java == Java::Yes;
    if let Settled::Whole = settled::<R>(bytes) {
        // SAFETY: `Whole` means that the shortcut language's vector check
        // accepted all of `bytes`, or that `from_utf8` did and the scan found
        // none of the bytes that language forbids: either way the bytes are
        // in it.
        return Ok(Cow::Borrowed(unsafe {
            crate::str_cast::validated_by_shortcut_language(bytes)
        }));
    }
    // No conversion lengthens the text: 6 bytes become 4, 2 become 1.
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    loop {
        let rest = &bytes[at..];
        let (run, ended) = match settled::<R>(rest) {
            Settled::Whole => (rest, true),
            Settled::Prefix(len) => (&rest[..len], false),
            Settled::Forbidden(found) => {
                return Err(to_str_error::<R>(bytes, at + found, Pairs::Join));
            }
        };
        out.extend_from_slice(run);
        at += run.len();
        if ended {
            return Ok(Cow::Owned(into_string(out)));
        }
        let Some((c, len)) = special_at(&bytes[at..], java) else {
            return Err(to_str_error::<R>(bytes, at, Pairs::Join));
        };
        push_char(c, &mut out);
        at += len;
        at = take_dense(bytes, at, java, &mut out);
    }
}

/// How much of a dialect's text [`settled`] found needs no conversion.
enum Settled {
    /// All of it: valid UTF-8 without a byte on which the dialect and UTF-8
    /// part, so UTF-8 as it stands and valid in the dialect.
    Whole,
    /// This many bytes, up to a sequence boundary: what follows is a
    /// surrogate pair, `C0 80` or an error.
    Prefix(usize),
    /// A byte that the dialect forbids where UTF-8 allows it, at this
    /// index, with valid UTF-8 before it: an error.
    Forbidden(usize),
}

/// How far `bytes` are UTF-8 that `R` reads the same, in one pass: the vector
/// check of `R`'s UTF-8 shortcut language (valid UTF-8 without the bytes
/// on which `R` and UTF-8 part), or, where that does not run, `from_utf8`
/// and a scan for those bytes.
fn settled<R: Ruleset>(bytes: &[u8]) -> Settled {
    match crate::simd::validate_detected::<crate::simd::ShortcutLanguage<R>>(bytes) {
        Some(Ok(())) => return Settled::Whole,
        Some(Err(e)) => return Settled::Prefix(e.valid_up_to()),
        None => {}
    }
    let run = match from_utf8(bytes) {
        Ok(_) => bytes,
        Err(e) => &bytes[..e.valid_up_to()],
    };
    match crate::scan::find_forbidden::<R>(run) {
        Some(found) => Settled::Forbidden(found),
        None if run.len() == bytes.len() => Settled::Whole,
        None => Settled::Prefix(run.len()),
    }
}

/// How many ASCII bytes in a row [`take_dense`] copies one at a time before
/// it hands the rest back to the vector check.
const DENSE_ASCII: usize = 16;

/// Converts on from `at`, just after a converted sequence, while what
/// follows is ASCII or another surrogate pair (or `C0 80`): in text dense
/// with supplementary characters (emoji), the next pair is a few bytes on,
/// and taking those bytes here costs less than one more call of the vector
/// check per pair. Stops at anything else, or after [`DENSE_ASCII`] ASCII
/// bytes in a row; returns where it stopped.
fn take_dense(bytes: &[u8], mut at: usize, java: bool, out: &mut Vec<u8>) -> usize {
    let mut ascii_run = 0;
    while let Some(&byte) = bytes.get(at) {
        if byte == 0xED {
            // Pairs back to back (emoji-dense text): one masked comparison
            // and four bytes written each.
            let from = at;
            // Two pairs a test where two follow (16 bytes read), then one.
            while let Some(sixteen) = bytes.get(at..).and_then(<[u8]>::first_chunk::<16>)
                && let Some(eight) = two_surrogate_pairs(sixteen)
            {
                out.extend_from_slice(&eight);
                at += 12;
            }
            while let Some(c) = bytes.get(at..).and_then(surrogate_pair_at) {
                out.extend_from_slice(&four_byte_form(c));
                at += 6;
            }
            if at > from {
                ascii_run = 0;
                continue;
            }
        }
        if byte < 0x80 && (byte != 0 || !java) && ascii_run < DENSE_ASCII {
            out.push(byte);
            at += 1;
            ascii_run += 1;
        } else if let Some((c, len)) = special_at(&bytes[at..], java) {
            push_char(c, out);
            at += len;
            ascii_run = 0;
        } else {
            break;
        }
    }
    at
}

/// The code point and length of the sequence at the start of `bytes` that
/// valid UTF-8 cannot hold but the dialect converts: a surrogate pair in six
/// bytes, or (in modified UTF-8) `C0 80` for U+0000.
#[inline]
fn special_at(bytes: &[u8], java: bool) -> Option<(u32, usize)> {
    if let Some(c) = surrogate_pair_at(bytes) {
        return Some((c, 6));
    }
    match *bytes {
        [0xC0, 0x80, ..] if java => Some((0, 2)),
        _ => None,
    }
}

/// The supplementary character of the surrogate pair that `bytes` starts
/// with (`ED A0-AF 80-BF ED B0-BF 80-BF`), tested as one masked comparison
/// of the six bytes: in text dense with emoji this runs once per character.
#[inline(always)]
fn surrogate_pair_at(bytes: &[u8]) -> Option<u32> {
    const MASK: u64 = 0xC0_F0_FF_C0_F0_FF;
    const PAIR: u64 = 0x80_B0_ED_80_A0_ED;
    // One eight-byte load where the input has them; the last pair of an
    // input may have only its own six.
    let word = match bytes.first_chunk::<8>() {
        Some(eight) => u64::from_le_bytes(*eight),
        None => {
            let &[a, b, c, d, e, f] = bytes.first_chunk::<6>()?;
            u64::from_le_bytes([a, b, c, d, e, f, 0, 0])
        }
    };
    if word & MASK != PAIR {
        return None;
    }
    // Ten bits from each half: the low nibble of its second byte and the
    // six bits of its third.
    let high = ((word >> 8) as u32 & 0x0F) << 6 | (word >> 16) as u32 & 0x3F;
    let low = ((word >> 32) as u32 & 0x0F) << 6 | (word >> 40) as u32 & 0x3F;
    Some(0x1_0000 + (high << 10) + low)
}

/// The UTF-8 of two surrogate pairs back to back at the start of
/// `sixteen`, as one masked comparison of their twelve bytes: `None` unless
/// both are pairs.
#[inline(always)]
fn two_surrogate_pairs(sixteen: &[u8; 16]) -> Option<[u8; 8]> {
    const MASK: u64 = 0xC0_F0_FF_C0_F0_FF;
    const PAIR: u64 = 0x80_B0_ED_80_A0_ED;
    let word = u128::from_le_bytes(*sixteen);
    let twelve = (MASK as u128) << 48 | MASK as u128;
    if word & twelve != (PAIR as u128) << 48 | PAIR as u128 {
        return None;
    }
    let first = pair_as_utf8(word as u64);
    let second = pair_as_utf8((word >> 48) as u64);
    Some((u64::from(second) << 32 | u64::from(first)).to_le_bytes())
}

/// The four UTF-8 bytes (little-endian) of the surrogate pair in the low
/// six bytes of `pair` (little-endian, already matched), moved bit field by
/// bit field rather than through the code point. With the pair's ten-bit
/// halves H and L the character is U+10000 + H·2¹⁰ + L, so its UTF-8 is
/// `F0 | W >> 6`, `80 | W & 3F`, `80 | (H & 3) << 4 | L >> 6`, `80 | L & 3F`
/// with `W = 10 + H >> 2`; L's low six bits and their `10` prefix are the
/// pair's last byte as it stands.
#[inline(always)]
fn pair_as_utf8(pair: u64) -> u32 {
    // H >> 2: the high half's nibble (byte 1) and the top four of its
    // last six bits (byte 2).
    let w = ((pair >> 4) & 0xF0 | (pair >> 18) & 0x0F) as u32 + 0x10;
    let lead = 0xF0 | w >> 6;
    let second = (0x80 | w & 0x3F) << 8;
    // (H & 3) << 4 from byte 2, L >> 6 from byte 4's nibble.
    let third = (0x80_0000 | (pair << 4) & 0x30_0000 | (pair >> 16) & 0x0F_0000) as u32;
    let last = ((pair >> 16) & 0xFF00_0000) as u32;
    lead | second | third | last
}

/// The text of `bytes` in dialect `R` as a `str`, with each maximal invalid
/// subpart under `R`, each surrogate that is not half of a pair and each
/// value above U+10FFFF replaced by U+FFFD (each maximal invalid subpart as
/// `utf8 fix --ruleset` replaces it); borrowed when `bytes` are UTF-8
/// that `R` reads the same (see [`crate::scan::utf8_is_valid_in`]).
pub(crate) fn to_str_lossy<R: Ruleset>(bytes: &[u8], pairs: Pairs) -> Cow<'_, str> {
    if let Ok(text) = from_utf8(bytes)
        && crate::scan::utf8_is_valid_in::<R>(bytes)
    {
        return Cow::Borrowed(text);
    }
    // Room for the text and for one replacement of a one-byte error.
    let mut out = Vec::with_capacity(bytes.len() + 2);
    for chunk in Chunks::<R>::new(bytes) {
        push_as_utf8(chunk.valid(), &mut out, pairs);
        if !chunk.invalid().is_empty() {
            out.extend_from_slice(REPLACEMENT);
        }
    }
    Cow::Owned(into_string(out))
}

/// The surrogate pair (its six bytes, little-endian, then two zeros) of the
/// supplementary character whose UTF-8 is `utf8` (little-endian), moved bit
/// field by bit field. With the character at U+10000 + H·2¹⁰ + L, the pair
/// is `ED`, `A0 | H >> 6`, `80 | H & 3F`, `ED`, `B0 | L >> 6`, `80 | L & 3F`;
/// `H + 40` is the character's bits from the tenth up (`utf8`'s first three
/// bytes), L's top four bits are the low nibble of its third byte, and
/// `80 | L & 3F` is its last byte as it stands.
#[inline(always)]
fn utf8_as_pair(utf8: u32) -> [u8; 8] {
    let [u0, u1, u2, u3] = utf8.to_le_bytes().map(u32::from);
    let high = ((u0 & 0x07) << 8 | (u1 & 0x3F) << 2 | (u2 & 0x3F) >> 4) - 0x40;
    let pair = 0xED
        | u64::from(0xA0 | high >> 6) << 8
        | u64::from(0x80 | high & 0x3F) << 16
        | 0xED << 24
        | u64::from(0xB0 | u2 & 0x0F) << 32
        | u64::from(u3) << 40;
    pair.to_le_bytes()
}

/// `text` in CESU-8 (`java`: modified UTF-8, with U+0000 as `C0 80`):
/// borrowed when there is nothing to change, otherwise written in one pass
/// into a vector of exactly the right size.
pub(crate) fn from_str(text: &str, java: bool) -> Cow<'_, [u8]> {
    let bytes = text.as_bytes();
    let special = move |byte: u8| is_long_lead(byte) | (java & (byte == 0));
    let Some(first) = find(bytes, special) else {
        return Cow::Borrowed(bytes);
    };
    // Four bytes become six, one becomes two.
    let growth = crate::scan::count(&bytes[first..], move |byte| {
        u8::from(is_long_lead(byte)) * 2 + u8::from(java & (byte == 0))
    });
    let mut out = Vec::with_capacity(bytes.len() + growth);
    let mut at = 0;
    while let Some(found) = find(&bytes[at..], special) {
        let start = at + found;
        out.extend_from_slice(&bytes[at..start]);
        at = start;
        // Characters that need converting back to back (emoji-dense text)
        // are taken here, one at a time, rather than with one more call of
        // the vector scan each.
        while let Some(&byte) = bytes.get(at) {
            // `text` is UTF-8: a lead of `F0` up starts four bytes, and the
            // byte after them starts the next character.
            if let Some(eight) = bytes[at..].first_chunk::<8>()
                && u64::from_le_bytes(*eight) & 0xF0_0000_00F0 == 0xF0_0000_00F0
            {
                let word = u64::from_le_bytes(*eight);
                let first = utf8_as_pair(word as u32);
                let second = utf8_as_pair((word >> 32) as u32);
                out.extend_from_slice(&first[..6]);
                out.extend_from_slice(&second[..6]);
                at += 8;
            } else if is_long_lead(byte)
                && let Some(four) = bytes[at..].first_chunk::<4>()
            {
                out.extend_from_slice(&utf8_as_pair(u32::from_le_bytes(*four))[..6]);
                at += 4;
            } else if java && byte == 0 {
                out.extend_from_slice(&[0xC0, 0x80]);
                at += 1;
            } else {
                break;
            }
        }
    }
    out.extend_from_slice(&bytes[at..]);
    debug_assert_eq!(out.len(), bytes.len() + growth);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The six bytes of `c`'s surrogate pair, as CESU-8 writes it.
    fn pair_bytes(c: char) -> [u8; 6] {
        let mut units = [0u16; 2];
        c.encode_utf16(&mut units);
        let three = |unit: u16| {
            [
                0xE0 | (unit >> 12) as u8,
                0x80 | ((unit >> 6) & 0x3F) as u8,
                0x80 | (unit & 0x3F) as u8,
            ]
        };
        let [a, b, c] = three(units[0]);
        let [d, e, f] = three(units[1]);
        [a, b, c, d, e, f]
    }

    #[test]
    fn every_supplementary_character_converts_by_bit_fields_as_encode_utf8_writes_it() {
        for c in (0x1_0000..=0x10_FFFF).filter_map(char::from_u32) {
            let pair = pair_bytes(c);
            let mut sixteen = [0u8; 16];
            sixteen[..6].copy_from_slice(&pair);
            sixteen[6..12].copy_from_slice(&pair_bytes('\u{1F600}'));
            let mut utf8 = [0u8; 8];
            c.encode_utf8(&mut utf8[..4]);
            '\u{1F600}'.encode_utf8(&mut utf8[4..]);
            assert_eq!(two_surrogate_pairs(&sixteen), Some(utf8), "{c:?}");
            sixteen[6..12].copy_from_slice(&pair);
            assert_eq!(surrogate_pair_at(&sixteen), Some(u32::from(c)), "{c:?}");
        }
    }

    #[test]
    fn every_supplementary_character_converts_to_its_pair_by_bit_fields() {
        for c in (0x1_0000..=0x10_FFFF).filter_map(char::from_u32) {
            let mut utf8 = [0u8; 4];
            c.encode_utf8(&mut utf8);
            let pair = utf8_as_pair(u32::from_le_bytes(utf8));
            assert_eq!(pair[..6], pair_bytes(c), "{c:?}");
            assert_eq!(pair[6..], [0, 0], "{c:?}");
        }
    }

    #[test]
    fn two_pairs_need_both_halves_of_both() {
        let mut sixteen = [0u8; 16];
        sixteen[..6].copy_from_slice(&pair_bytes('\u{10000}'));
        sixteen[6..12].copy_from_slice(&pair_bytes('\u{10FFFF}'));
        assert!(two_surrogate_pairs(&sixteen).is_some());
        for at in 0..12 {
            for flip in [0x40u8, 0x10, 0x01] {
                let mut broken = sixteen;
                broken[at] ^= flip;
                // Flipping a bit inside a pair's free bits keeps a pair.
                let still_pairs = matches!((at % 6, flip), (1 | 4, 0x01) | (2 | 5, 0x10 | 0x01));
                assert_eq!(
                    two_surrogate_pairs(&broken).is_some(),
                    still_pairs,
                    "byte {at} ^ {flip:#04x}"
                );
            }
        }
    }
}
