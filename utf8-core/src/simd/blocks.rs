//! The input as the vector check reads it: every byte it loads comes from a
//! whole block handed out here, and a block is either a `&[u8; BLOCK]` inside
//! the caller's slice, a block with the [`REACH`] bytes before it (a
//! `&[u8; REACH + BLOCK]`, also inside the slice), or a local array. No
//! pointer arithmetic happens in the vector code, so no load can reach
//! outside the input, whatever its length or address.

use super::BLOCK;

/// The shortest input whose body is aligned: below it, the input is cut from
/// its first byte.
pub(crate) const ALIGNED_FROM: usize = 2 * BLOCK;

/// The most bytes before a vector that the check reads: the derived
/// tables' bound on its look-back.
pub(crate) const REACH: usize = crate::derived::MAX_LOOK_BACK;

/// An input cut at the first `BLOCK`-aligned address in it: a head shorter
/// than a block, whole aligned blocks, and a tail shorter than a block.
///
/// Aligned blocks keep the main loop's loads inside cache lines; the head and
/// tail are checked in place by vectors that overlap the blocks, or (for a
/// ruleset with a pairing term) in [`framed`] copies, padded with the
/// ruleset's boundary byte, which the check is proved to read as "no input
/// here".
///
/// An input shorter than [`ALIGNED_FROM`] is cut from its first byte
/// instead, with no head: the vector code checks it in place whole, or,
/// with a pairing term, as body blocks and a framed tail.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocks<'a> {
    pub(crate) head: &'a [u8],
    pub(crate) body: &'a [[u8; BLOCK]],
    pub(crate) tail: &'a [u8],
    /// The whole input, for blocks read with the bytes before them.
    bytes: &'a [u8],
}

impl<'a> Blocks<'a> {
    #[inline(always)]
    pub(crate) fn new(bytes: &'a [u8]) -> Blocks<'a> {
        let to_aligned = if bytes.len() < ALIGNED_FROM {
            0
        } else {
            let misalignment = bytes.as_ptr().addr() % BLOCK;
            (BLOCK - misalignment) % BLOCK
        };
        let (head, rest) = bytes.split_at(to_aligned);
        let (body, tail) = rest.as_chunks::<BLOCK>();
        debug_assert!(head.len() < BLOCK && tail.len() < BLOCK);
        debug_assert!(
            body.is_empty() || bytes.len() < ALIGNED_FROM || body.as_ptr().addr() % BLOCK == 0
        );
        debug_assert_eq!(head.len() + body.len() * BLOCK + tail.len(), bytes.len());
        Blocks {
            head,
            body,
            tail,
            bytes,
        }
    }

    /// Whether body block `index` has [`REACH`] bytes of the input before
    /// it: every block but the first, and the first after a head that long.
    #[inline(always)]
    pub(crate) fn has_reach(&self, index: usize) -> bool {
        index > 0 || self.head.len() >= REACH
    }

    /// The body's blocks from `from` on, each with the [`REACH`] bytes of
    /// the input before it, for a check that loads the bytes before each
    /// vector where they lie instead of shifting them out of the vector
    /// before. Window `k` is body block `from + k`.
    ///
    /// # Panics
    /// If block `from` is one of the body's and has fewer bytes before it
    /// ([`has_reach`](Self::has_reach)). From past the body's end, no
    /// windows.
    #[inline(always)]
    pub(crate) fn preceded_from(&self, from: usize) -> Preceded<'a> {
        assert!(
            from >= self.body.len() || self.has_reach(from),
            "block {from} has no reach before it"
        );
        let count = self.body.len().saturating_sub(from);
        if count == 0 {
            return Preceded::EMPTY;
        }
        let start = self.body_offset(from) - REACH;
        Preceded {
            bytes: &self.bytes[start..start + REACH + count * BLOCK],
        }
    }

    /// Where block `index` of the body starts in the input.
    #[inline(always)]
    pub(crate) fn body_offset(&self, index: usize) -> usize {
        debug_assert!(index <= self.body.len());
        self.head.len() + index * BLOCK
    }
}

/// Body blocks `from..` of an input, each with the [`REACH`] bytes
/// before it: see [`Blocks::preceded_from`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Preceded<'a> {
    /// From `REACH` bytes before block `from` to the end of the body.
    bytes: &'a [u8],
}

impl<'a> Preceded<'a> {
    /// No blocks: for a loop that reads none through windows.
    pub(crate) const EMPTY: Preceded<'static> = Preceded { bytes: &[] };

    /// The offsets of the windows, `0, BLOCK, 2 * BLOCK, ...`, are those
    /// below this: one more than the last's, or 0 if there are none.
    #[inline(always)]
    pub(crate) fn offsets_below(&self) -> usize {
        self.bytes.len().saturating_sub(REACH + BLOCK - 1)
    }

    /// The window at `offset` (a multiple of `BLOCK` below
    /// [`offsets_below`](Self::offsets_below)): body block
    /// `from + offset / BLOCK` after the [`REACH`] bytes before it.
    ///
    /// Offsets in bytes, not block numbers, so that the main loop's
    /// counter is the address's offset too: a block number is shifted
    /// into one at every block.
    ///
    /// # Panics
    /// If `offset` is not below `offsets_below`: the main loop's own
    /// condition, so the compiler drops the test. (Counted from the body's
    /// first block, the lower bound stayed, one fused compare and branch a
    /// block; a slice index here, whose bound the compiler cannot relate to
    /// the loop's, was measured to cost a tenth of the check's speed on the
    /// AVX2 level.) The panic is a call of its own, taking the offset by
    /// value: a message formatted here takes it by reference, and the main
    /// loop then stored it on the stack at every block.
    #[inline(always)]
    pub(crate) fn window(&self, offset: usize) -> &'a [u8; REACH + BLOCK] {
        if offset >= self.offsets_below() {
            window_outside(offset, self.offsets_below());
        }
        debug_assert_eq!(offset % BLOCK, 0);
        debug_assert!(offset + REACH + BLOCK <= self.bytes.len());
        // SAFETY: `offset < bytes.len() - (REACH + BLOCK - 1)` (tested
        // above; `offsets_below` is 0 where the subtraction would not be),
        // so the `REACH + BLOCK` bytes from `offset` lie inside `bytes`,
        // borrowed from it for as long as it is.
        unsafe {
            &*self
                .bytes
                .as_ptr()
                .add(offset)
                .cast::<[u8; REACH + BLOCK]>()
        }
    }
}

/// The panic of [`Preceded::window`] for a block outside its windows.
#[cold]
#[inline(never)]
#[track_caller]
fn window_outside(offset: usize, below: usize) -> ! {
    panic!("window at {offset} outside 0..{below}")
}

/// Which end of a framed block the piece goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    /// The piece ends the block: the head, after "boundary" bytes that stand
    /// for the start of the input.
    End,
    /// The piece starts the block: the tail, before "boundary" bytes that
    /// stand for the end of the input.
    Start,
}

/// A block of `fill` bytes with `piece` (shorter than a block) copied to one end.
#[inline(always)]
pub(crate) fn framed(piece: &[u8], align: Align, fill: u8) -> [u8; BLOCK] {
    debug_assert!(piece.len() <= BLOCK);
    let mut block = [fill; BLOCK];
    let at = match align {
        Align::End => BLOCK - piece.len(),
        Align::Start => 0,
    };
    block[at..at + piece.len()].copy_from_slice(piece);
    block
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_parts_cover_the_input_in_order_and_long_bodies_are_aligned_at_every_alignment() {
        let storage = [[0u8; BLOCK]; 5];
        let all = storage.as_flattened();
        for start in 0..BLOCK {
            for len in 0..=all.len() - start {
                let bytes = &all[start..start + len];
                let blocks = Blocks::new(bytes);
                assert!(blocks.head.len() < BLOCK && blocks.tail.len() < BLOCK);
                assert_eq!(blocks.head.as_ptr(), bytes.as_ptr());
                let body_start = bytes.as_ptr().wrapping_add(blocks.head.len());
                if len < ALIGNED_FROM {
                    assert!(blocks.head.is_empty(), "{len} bytes at {start}");
                }
                if !blocks.body.is_empty() {
                    assert_eq!(blocks.body.as_ptr().cast::<u8>(), body_start);
                    if len >= ALIGNED_FROM {
                        assert_eq!(body_start.addr() % BLOCK, 0);
                    }
                }
                assert_eq!(
                    blocks.body_offset(blocks.body.len()),
                    len - blocks.tail.len()
                );
                assert_eq!(
                    blocks.tail.as_ptr(),
                    bytes.as_ptr().wrapping_add(len - blocks.tail.len())
                );
            }
        }
    }

    #[test]
    fn a_preceded_block_is_the_body_block_after_the_reach_of_bytes_before_it() {
        let storage: [[u8; BLOCK]; 5] =
            core::array::from_fn(|b| core::array::from_fn(|i| (b * BLOCK + i) as u8));
        let all = storage.as_flattened();
        for start in 0..BLOCK {
            for len in [0, BLOCK, ALIGNED_FROM - 1, ALIGNED_FROM, all.len() - start] {
                let bytes = &all[start..start + len];
                let blocks = Blocks::new(bytes);
                for index in 0..blocks.body.len() {
                    assert_eq!(blocks.has_reach(index), blocks.body_offset(index) >= REACH);
                    if blocks.has_reach(index) {
                        let preceded = blocks.preceded_from(index);
                        let windows = blocks.body.len() - index;
                        assert_eq!(preceded.offsets_below(), (windows - 1) * BLOCK + 1);
                        let window = preceded.window(0);
                        if windows > 1 {
                            assert_eq!(&preceded.window(BLOCK)[REACH..], &blocks.body[index + 1]);
                        }
                        assert_eq!(&window[REACH..], &blocks.body[index]);
                        let at = blocks.body_offset(index);
                        assert_eq!(&window[..REACH], &bytes[at - REACH..at]);
                    }
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "outside")]
    fn a_window_past_the_body_is_refused() {
        let storage = [[0u8; BLOCK]; 3];
        let blocks = Blocks::new(&storage.as_flattened()[1..]);
        let preceded = blocks.preceded_from(1);
        let _ = preceded.window(preceded.offsets_below() - 1 + BLOCK);
    }

    #[test]
    #[should_panic(expected = "no reach")]
    fn the_first_block_of_an_input_has_no_reach() {
        let storage = [[0u8; BLOCK]; 3];
        // Shorter than `ALIGNED_FROM`: cut from its first byte, no head.
        let _ = Blocks::new(&storage.as_flattened()[..BLOCK]).preceded_from(0);
    }

    #[test]
    #[should_panic(expected = "outside")]
    fn windows_from_past_the_body_are_none_even_without_reach() {
        let storage = [[0u8; BLOCK]; 3];
        // No head, so no reach for block 0; from past the body's end the
        // windows are made all the same, and none is handed out.
        let blocks = Blocks::new(&storage.as_flattened()[..BLOCK - 1]);
        let preceded = blocks.preceded_from(blocks.body.len());
        assert_eq!(preceded.offsets_below(), 0);
        let _ = preceded.window(0);
    }

    #[test]
    fn a_framed_piece_sits_at_the_chosen_end() {
        let head = framed(b"abc", Align::End, 0xFF);
        assert_eq!(&head[BLOCK - 3..], b"abc");
        assert!(head[..BLOCK - 3].iter().all(|&b| b == 0xFF));
        let tail = framed(b"abc", Align::Start, 0);
        assert_eq!(&tail[..3], b"abc");
        assert!(tail[3..].iter().all(|&b| b == 0));
    }
}
