//! The one place where validated bytes become `str` or `String` without a
//! second check. Each function is `unsafe`: the validation happened at the
//! call site, so the call site is where it is shown.

/// `bytes` as `&str`.
///
/// # Safety
///
/// `bytes` must be UTF-8: in this crate, bytes that the RFC 3629 automaton
/// (or a vector check proved equal to it) accepted. That automaton's
/// language is exactly UTF-8 (checked against `core::str::from_utf8` on
/// every 1-3 byte string and by the differential tests).
#[inline(always)]
pub(crate) const unsafe fn validated(bytes: &[u8]) -> &str {
    // SAFETY: the caller guarantees that `bytes` is UTF-8, which is all
    // `str` requires.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

/// `bytes` as `&str`, for bytes in the language of a ruleset's UTF-8
/// shortcut (`simd::ShortcutLanguage`).
///
/// # Safety
///
/// `bytes` must be in the language of a ruleset's UTF-8 shortcut, checked
/// by that language's vector check or automaton. A shortcut language is
/// RFC 3629's minimal automaton with the forbidden bytes sent to the dead
/// state (`utf8_spec::utf8_shortcut::Utf8Shortcut::language`, tested against
/// `core::str::from_utf8` there), so it accepts a subset of UTF-8, and its
/// vector check was proved to accept exactly that automaton's language.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) unsafe fn validated_by_shortcut_language(bytes: &[u8]) -> &str {
    debug_assert!(core::str::from_utf8(bytes).is_ok());
    // SAFETY: the caller guarantees that `bytes` is in a shortcut language,
    // a subset of UTF-8.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

/// `bytes` as `&mut str`.
///
/// # Safety
///
/// As for [`validated`]: `bytes` must be UTF-8.
#[inline(always)]
pub(crate) unsafe fn validated_mut(bytes: &mut [u8]) -> &mut str {
    // SAFETY: the caller guarantees that `bytes` is UTF-8.
    unsafe { core::str::from_utf8_unchecked_mut(bytes) }
}

/// `bytes` as a `String` in the same allocation.
///
/// # Safety
///
/// As for [`validated`]: the whole vector must be UTF-8.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) unsafe fn validated_string(bytes: alloc::vec::Vec<u8>) -> alloc::string::String {
    // SAFETY: the caller guarantees that the whole vector is UTF-8, which is
    // all `String` requires of its buffer.
    unsafe { alloc::string::String::from_utf8_unchecked(bytes) }
}
