//! Valid text in each dialect, written from the dialects' definitions alone
//! (no table, no `utf8_spec`), so that tests can mutate it and compare.

/// The shortest form of `value` in RFC 2279's bit layout: one byte below
/// 0x80, otherwise a lead byte of `n` ones, a zero and the top bits, then
/// `10xxxxxx` bytes of six bits each. Surrogate values are encoded like any
/// other, which is what CESU-8, modified UTF-8 and WTF-8 need.
pub fn push_generalized(value: u32, out: &mut Vec<u8>) {
    assert!(value <= 0x7FFF_FFFF, "{value:#X} has more than 31 bits");
    if value < 0x80 {
        out.push(value as u8);
        return;
    }
    // A sequence of `len` bytes carries 7 - len bits in its lead and six in
    // each of the others: 11, 16, 21, 26, 31 bits for 2..=6 bytes.
    let len = (2..=6u32)
        .find(|&len| u64::from(value) < 1 << (7 - len + 6 * (len - 1)))
        .expect("31 bits fit in six bytes");
    out.push(!(0xFFu8 >> len) | (value >> (6 * (len - 1))) as u8);
    for tail in (0..len - 1).rev() {
        out.push(0x80 | ((value >> (6 * tail)) & 0x3F) as u8);
    }
}

/// UTR #26's CESU-8 of `text`: each UTF-16 code unit as UTF-8 would encode
/// a code point of that value, so a supplementary character becomes its two
/// surrogates, three bytes each.
pub fn cesu8_from_str(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / 2);
    let mut units = [0u16; 2];
    for character in text.chars() {
        for &unit in character.encode_utf16(&mut units).iter() {
            push_generalized(u32::from(unit), &mut out);
        }
    }
    out
}

/// JVMS §4.4.7's modified UTF-8 of UTF-16 code units, paired or not: each
/// unit on its own, and U+0000 as `C0 80`.
pub fn mutf8_from_utf16(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len() * 2);
    for &unit in units {
        if unit == 0 {
            out.extend_from_slice(&[0xC0, 0x80]);
        } else {
            push_generalized(u32::from(unit), &mut out);
        }
    }
    out
}

/// Modified UTF-8 of `text`.
pub fn mutf8_from_str(text: &str) -> Vec<u8> {
    mutf8_from_utf16(&text.encode_utf16().collect::<Vec<_>>())
}

/// WTF-8 of potentially ill-formed UTF-16, as its specification converts
/// it: a lead surrogate followed by a trail surrogate is one supplementary
/// code point, any other surrogate stays a code point of its own. Returns
/// the bytes and the code points they encode.
pub fn wtf8_from_utf16(units: &[u16]) -> (Vec<u8>, Vec<u32>) {
    let mut code_points = Vec::with_capacity(units.len());
    let mut index = 0;
    while index < units.len() {
        let unit = u32::from(units[index]);
        let next = units.get(index + 1).copied().map(u32::from);
        match next {
            Some(trail)
                if (0xD800..=0xDBFF).contains(&unit) && (0xDC00..=0xDFFF).contains(&trail) =>
            {
                code_points.push(0x1_0000 + ((unit - 0xD800) << 10) + (trail - 0xDC00));
                index += 2;
            }
            _ => {
                code_points.push(unit);
                index += 1;
            }
        }
    }
    let mut bytes = Vec::with_capacity(units.len() * 3);
    for &code_point in &code_points {
        push_generalized(code_point, &mut bytes);
    }
    (bytes, code_points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generalized_form_is_std_utf8_for_scalar_values() {
        let mut out = Vec::new();
        let mut buffer = [0u8; 4];
        for character in (0..=0x10_FFFF).filter_map(char::from_u32) {
            out.clear();
            push_generalized(u32::from(character), &mut out);
            assert_eq!(out, character.encode_utf8(&mut buffer).as_bytes());
        }
    }

    #[test]
    fn utr26_and_jvms_examples() {
        // UTR #26 §2: U+10400 is D801 DC00, ED A0 81 ED B0 80 in CESU-8.
        assert_eq!(cesu8_from_str("\u{10400}"), b"\xED\xA0\x81\xED\xB0\x80");
        // JVMS §4.4.7: the null character is 0xC0 0x80.
        assert_eq!(mutf8_from_str("a\0"), b"a\xC0\x80");
        // WTF-8: a lone trail surrogate is ED B0 80; a pair is one 4-byte form.
        assert_eq!(wtf8_from_utf16(&[0xDC00]).0, b"\xED\xB0\x80");
        assert_eq!(wtf8_from_utf16(&[0xD801, 0xDC00]).0, "\u{10400}".as_bytes());
    }
}
