//! The one place where validated bytes become `str` without a second check.

/// `bytes` as `&str`; the caller has just validated it against RFC 3629.
#[inline(always)]
pub(crate) const fn validated(bytes: &[u8]) -> &str {
    // SAFETY: every caller passes bytes that the RFC 3629 automaton accepted,
    // and that automaton's language is exactly UTF-8 (checked against
    // `core::str::from_utf8` on every 1-3 byte string and by the differential
    // tests), which is what `str` requires.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

/// `bytes` as `&mut str`; the caller has just validated it against RFC 3629.
#[inline(always)]
pub(crate) fn validated_mut(bytes: &mut [u8]) -> &mut str {
    // SAFETY: as in `validated`: the RFC 3629 automaton accepted these bytes.
    unsafe { core::str::from_utf8_unchecked_mut(bytes) }
}
