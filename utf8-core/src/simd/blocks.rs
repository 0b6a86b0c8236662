//! The input as the vector check reads it: every byte it loads comes from a
//! whole block handed out here, and a block is either a `&[u8; BLOCK]` inside
//! the caller's slice or a local array. No pointer arithmetic happens in the
//! vector code, so no load can reach outside the input, whatever its length
//! or address.

use super::BLOCK;

/// The shortest input whose body is aligned: below it, the input is cut from
/// its first byte.
pub(crate) const ALIGNED_FROM: usize = 2 * BLOCK;

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
        Blocks { head, body, tail }
    }

    /// Where block `index` of the body starts in the input.
    #[inline(always)]
    pub(crate) fn body_offset(&self, index: usize) -> usize {
        debug_assert!(index <= self.body.len());
        self.head.len() + index * BLOCK
    }
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
    fn a_framed_piece_sits_at_the_chosen_end() {
        let head = framed(b"abc", Align::End, 0xFF);
        assert_eq!(&head[BLOCK - 3..], b"abc");
        assert!(head[..BLOCK - 3].iter().all(|&b| b == 0xFF));
        let tail = framed(b"abc", Align::Start, 0);
        assert_eq!(&tail[..3], b"abc");
        assert!(tail[3..].iter().all(|&b| b == 0));
    }
}
