//! Every kernel the CPU runs against the scalar one, and the scalar ones
//! against what the views say, on every length class at every place of a
//! chunk and every padding byte dirtied in turn.

use super::*;
use crate::column::rule::RuleOf;
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

/// Views of every length class at every position of a chunk, with every
/// padding byte dirtied in turn, and inline strings that start with each
/// kind of byte.
fn sample() -> Vec<Vec<u128>> {
    let mut columns = Vec::new();
    let lens = [0u32, 1, 4, 11, 12, 13, 200, 0x8000_0000, 0x1_00, u32::MAX];
    // ASCII, a continuation byte, a lead byte, the last byte.
    let firsts = [b'a', 0x80, 0xBF, 0xC3, 0xFF];
    for count in [0usize, 1, 2, 3, 4, 5, 6, 7, 62, 63, 64] {
        for shift in 0..lens.len() {
            let column: Vec<u128> = (0..count)
                .map(|i| {
                    let len = lens[(i + shift) % lens.len()];
                    let mut rest = [0u8; 12];
                    let used = (len as usize).min(12);
                    rest[..used].fill(b'a' + (i % 26) as u8);
                    if used > 0 && (i + shift) % 3 == 0 {
                        rest[0] = firsts[(i + count) % firsts.len()];
                    }
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

/// The keep masks every copy and packing is tried with.
const KEEPS: [u64; 6] = [0, u64::MAX, 0x5555_5555_5555_5555, 0xF0F0, 1, 1 << 63];

type Layout = fn(&[u128]) -> (u64, bool);
type Copy = fn(&[u128], u64, &mut [[u8; 16]]) -> u64;
/// A packing, with the padding test (`true`) or without, for a ruleset
/// whose row starts are UTF-8's.
type Pack = fn(&[u128], u64, &mut [u8], &mut usize, bool) -> Packed;

/// A kernel of each kind.
struct Kernels {
    name: &'static str,
    layout: Layout,
    copy: Copy,
    pack: Pack,
}

/// Each kernel this CPU runs, with its name: the dispatched ones, and every
/// x86 level the CPU has, whichever the dispatch picks.
fn kernels() -> Vec<Kernels> {
    // Only x86 adds kernels of its levels.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "x86")),
        allow(unused_mut)
    )]
    let mut kernels = vec![Kernels {
        name: "dispatched",
        layout,
        copy: |views, keep, out| {
            // The dispatch returns the kept views' bits; the kernels every
            // view's.
            let long = copy_inline(views, keep, out);
            long | (layout(views).0 & !keep)
        },
        pack: |views, keep, text, at, padding| {
            let rule = RuleOf::<crate::Rfc3629>::RULE;
            if padding {
                pack_inline::<true>(views, keep, text, at, &rule, false)
            } else {
                pack_inline::<false>(views, keep, text, at, &rule, false)
            }
        },
    }];
    kernels.push(Kernels {
        name: "dispatched, mostly long",
        layout,
        copy: kernels[0].copy,
        pack: |views, keep, text, at, padding| {
            let rule = RuleOf::<crate::Rfc3629>::RULE;
            if padding {
                pack_inline::<true>(views, keep, text, at, &rule, true)
            } else {
                pack_inline::<false>(views, keep, text, at, &rule, true)
            }
        },
    });
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    {
        if std::is_x86_feature_detected!("avx2") {
            kernels.push(Kernels {
                name: "avx2",
                // SAFETY: the CPU has AVX2 (detected above).
                layout: |views| unsafe { x86::layout_avx2(views) },
                // SAFETY: the CPU has AVX2; the tests' `out` has an entry
                // a view.
                copy: |views, keep, out| unsafe { x86::copy_avx2(views, keep, out) },
                // SAFETY: the CPU has AVX2; the tests' `text` has the room.
                pack: |views, keep, text, at, padding| unsafe {
                    if padding {
                        x86::pack_avx2::<true, true>(views, keep, text, at)
                    } else {
                        x86::pack_avx2::<false, true>(views, keep, text, at)
                    }
                },
            });
            kernels.push(Kernels {
                name: "avx2, mostly long",
                // SAFETY: the CPU has AVX2 (detected above).
                layout: |views| unsafe { x86::layout_avx2(views) },
                // SAFETY: as just above, with `out`'s entry a view.
                copy: |views, keep, out| unsafe { x86::copy_avx2(views, keep, out) },
                // SAFETY: the CPU has AVX2; the tests' `text` has the room.
                pack: |views, keep, text, at, padding| unsafe {
                    if padding {
                        x86::pack_avx2::<true, false>(views, keep, text, at)
                    } else {
                        x86::pack_avx2::<false, false>(views, keep, text, at)
                    }
                },
            });
        }
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") {
            kernels.push(Kernels {
                name: "avx512",
                // SAFETY: the CPU has AVX-512 F and BW (detected above).
                layout: |views| unsafe { x86::layout_avx512(views) },
                // SAFETY: the CPU has AVX-512 F and BW; the tests' `out`
                // has an entry a view.
                copy: |views, keep, out| unsafe { x86::copy_avx512(views, keep, out) },
                pack: |views, keep, text, at, padding| {
                    // Without VBMI2, no kernel packs at this level: the
                    // scalar one stands in for it.
                    if !std::is_x86_feature_detected!("avx512vbmi2") {
                        let starts_row = |byte| (byte as i8) >= -0x40;
                        return if padding {
                            pack_scalar::<true>(views, keep, text, at, 0, starts_row)
                        } else {
                            pack_scalar::<false>(views, keep, text, at, 0, starts_row)
                        };
                    }
                    // SAFETY: the CPU has AVX-512 F, BW and VBMI2 (detected
                    // above) and POPCNT (every CPU with AVX-512 has it);
                    // the tests' `text` has the room.
                    unsafe {
                        if padding {
                            x86::pack_vbmi2::<true>(views, keep, text, at)
                        } else {
                            x86::pack_vbmi2::<false>(views, keep, text, at)
                        }
                    }
                },
            });
        }
    }
    kernels
}

#[test]
fn every_vector_scan_agrees_with_the_scalar_one_on_every_length_class_and_padding_byte() {
    for kernel in kernels() {
        for column in sample() {
            assert_eq!(
                (kernel.layout)(&column),
                layout_scalar(&column, 0),
                "{} {column:x?}",
                kernel.name
            );
        }
    }
}

#[test]
fn every_vector_copy_agrees_with_the_scalar_one_for_every_keep_mask() {
    for kernel in kernels() {
        for column in sample() {
            for keep in KEEPS {
                let mut vector = vec![[0xEEu8; 16]; column.len()];
                let mut scalar = vec![[0xEEu8; 16]; column.len()];
                let got = (kernel.copy)(&column, keep, &mut vector);
                let expected = copy_scalar(&column, keep, &mut scalar, 0);
                let what = format!("{} {column:x?} {keep:x}", kernel.name);
                assert_eq!((got, &vector), (expected, &scalar), "{what}");
                assert_eq!(got, layout_scalar(&column, 0).0, "{what}");
            }
        }
    }
}

/// What packing `column`'s views kept by `keep` must give: their strings
/// one after another, and whether one starts with `80`–`BF`.
fn packed_by_hand(column: &[u128], keep: u64) -> (Vec<u8>, bool) {
    let mut text = Vec::new();
    let mut bad_start = false;
    for (i, &view) in column.iter().enumerate() {
        let len = view as u32 as usize;
        if len <= MAX_INLINE && keep >> i & 1 == 1 {
            let string = &view.to_le_bytes()[4..4 + len];
            bad_start |= string.first().is_some_and(|&b| (0x80..=0xBF).contains(&b));
            text.extend_from_slice(string);
        }
    }
    (text, bad_start)
}

#[test]
fn every_packing_writes_the_kept_inline_strings_back_to_back_and_finds_a_tail_at_a_start() {
    for kernel in kernels() {
        for column in sample() {
            let (long, dirty) = layout_scalar(&column, 0);
            for keep in KEEPS {
                let (strings, bad_start) = packed_by_hand(&column, keep);
                for padding in [false, true] {
                    // After bytes already packed, and over bytes that are not
                    // zeros, as a batch's second chunk finds its room.
                    for from in [0, 5] {
                        let mut text = vec![0xEEu8; from + packed_room(column.len())];
                        let mut at = from;
                        let got = (kernel.pack)(&column, keep, &mut text, &mut at, padding);
                        let what = format!(
                            "{} {column:x?} {keep:x} padding {padding} from {from}",
                            kernel.name
                        );
                        let expected = Packed {
                            long,
                            dirty: dirty && padding,
                            // A kernel may read a dirty padding byte as a
                            // string's first, which does not matter: a
                            // column with one is malformed, and the
                            // packing with the padding test says so.
                            bad_start: if dirty { got.bad_start } else { bad_start },
                        };
                        assert_eq!(got, expected, "{what}");
                        assert_eq!(&text[from..at], &strings[..], "{what}");
                        assert_eq!(&text[..from], &[0xEE; 5][..from], "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_ruleset_without_utf8_tails_packs_with_its_own_row_starts() {
    // A rule under which only `b'x'` cannot start a row.
    let starts_row = |byte| byte != b'x';
    let column = [
        view(2, *b"ab\0\0\0\0\0\0\0\0\0\0"),
        view(1, *b"x\0\0\0\0\0\0\0\0\0\0\0"),
    ];
    let mut text = vec![0u8; packed_room(2)];
    let mut at = 0;
    let found = pack_scalar::<true>(&column, 0b01, &mut text, &mut at, 0, starts_row);
    assert_eq!((found.bad_start, &text[..at]), (false, &b"ab"[..]));
    let mut at = 0;
    let found = pack_scalar::<true>(&column, 0b11, &mut text, &mut at, 0, starts_row);
    assert_eq!((found.bad_start, &text[..at]), (true, &b"abx"[..]));
}

#[test]
fn a_padded_inline_view_is_clean_and_a_long_one_is_listed() {
    let views = [view(2, *b"hi\0\0\0\0\0\0\0\0\0\0"), view(13, [0xFF; 12])];
    assert_eq!(layout(&views), (0b10, false));
    let dirty = [view(2, *b"hi\0\0\0\0\0\0\0\0\0!")];
    assert_eq!(layout(&dirty), (0, true));
}
