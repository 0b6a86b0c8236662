//! The one place where validated bytes become `str` or `String` without a
//! second check.

/// `bytes` as `&str`; the caller has just validated it against RFC 3629.
#[inline(always)]
pub(crate) const fn validated(bytes: &[u8]) -> &str {
    // SAFETY: every caller passes bytes that the RFC 3629 automaton accepted,
    // and that automaton's language is exactly UTF-8 (checked against
    // `core::str::from_utf8` on every 1-3 byte string and by the differential
    // tests), which is what `str` requires.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

/// `bytes` as `&str`; the caller has just validated it against the
/// language of a ruleset's UTF-8 shortcut (`simd::ShortcutLanguage`).
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn validated_by_shortcut_language(bytes: &[u8]) -> &str {
    debug_assert!(core::str::from_utf8(bytes).is_ok());
    // SAFETY: a shortcut language is RFC 3629's minimal automaton with the
    // forbidden bytes sent to the dead state (`utf8_spec::utf8_shortcut::
    // Utf8Shortcut::language`, tested against `core::str::from_utf8` there),
    // so it accepts a subset of UTF-8, and its vector check was proved to
    // accept exactly that automaton's language: the bytes are UTF-8.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

/// `bytes` as `&mut str`; the caller has just validated it against RFC 3629.
#[inline(always)]
pub(crate) fn validated_mut(bytes: &mut [u8]) -> &mut str {
    // SAFETY: as in `validated`: the RFC 3629 automaton accepted these bytes.
    unsafe { core::str::from_utf8_unchecked_mut(bytes) }
}

/// `bytes` as a `String` in the same allocation; the caller has just
/// validated them against RFC 3629.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn validated_string(bytes: alloc::vec::Vec<u8>) -> alloc::string::String {
    // SAFETY: as in `validated`: the caller has just run the RFC 3629
    // automaton over exactly these bytes (the whole vector) and it accepted
    // them, so they are UTF-8, which is all `String` requires of its buffer.
    unsafe { alloc::string::String::from_utf8_unchecked(bytes) }
}
