//! One block: a block's vectors checked in a row, and whether a sequence is left open
//! after it.

/// One block: `Checked`, `open_after`, `check_block` and `check_preceded_block`.
macro_rules! one_block {
    () => {
        /// What checking a block leaves: its error bits, and what the next
        /// block follows (whether that leaves a sequence open is
        /// [`open_after`] of it).
        #[derive(Clone, Copy)]
        struct Checked {
            error: V,
            last: Before,
        }

        /// Nonzero where `last`, the last vector checked, leaves a sequence
        /// (or a lead marker's pairing) open at its end. A function of
        /// `last` alone, worked out only where a run of skippable bytes or
        /// the input's end needs it, not after every block (one vector
        /// operation of about 35 in the main loop's block). After skippable
        /// bytes or the boundary bytes it is zero: no lead of a sequence is
        /// skippable or the boundary byte (asserted in [`registers`]).
        #[inline(always)]
        fn open_after<R: VectorLanguage>(r: &Registers, last: Before) -> V {
            let open = last.bytes.saturating_sub(r.incomplete);
            if matches!(R::VECTOR.pairing.rule, PairRule::Required) {
                open.or(last.marker_bits.and(r.pending))
            } else {
                open
            }
        }

        /// [`open_after`] the bytes before the block of `window`, a block
        /// of skippable bytes, read from the window's first vector: its
        /// first [`REACH`] lanes are the bytes before the block, and the
        /// rest, the block's, open nothing (the const assertions of
        /// `incomplete_thresholds`). Only without a pairing term, whose
        /// markers are not in memory.
        #[inline(always)]
        fn open_before_window<R: VectorLanguage>(r: &Registers, window: &[u8; REACH + BLOCK]) -> V {
            debug_assert!(matches!(R::VECTOR.pairing.rule, PairRule::None));
            r.load(vector_at(window, 0))
                .saturating_sub(r.incomplete_before_block)
        }

        /// Checks `block`, which follows `before`.
        #[inline(always)]
        fn check_block<R: VectorLanguage>(
            r: &Registers,
            block: &[u8; BLOCK],
            before: Before,
        ) -> Checked {
            let mut error = r.zero;
            let mut before = before;
            // Plain loops, no closures: a closure passed to a generic iterator
            // adaptor is compiled without this module's target feature, and
            // its intrinsics stop being inlined.
            for vector in block.as_chunks::<{ V::LANES }>().0 {
                let input = r.load(vector);
                let (vector_error, next) = check::<R>(r, input, before);
                error = error.or(vector_error);
                before = next;
            }
            Checked {
                error,
                last: before,
            }
        }

        /// Checks the block that ends `window`, after the [`REACH`] bytes
        /// before it there; the lead markers before it are `before`'s.
        /// Equal to [`check_block`] on the block after the input's vector
        /// before it.
        #[inline(always)]
        fn check_preceded_block<R: VectorLanguage>(
            r: &Registers,
            window: &[u8; REACH + BLOCK],
            before: Before,
        ) -> Checked {
            let mut error = r.zero;
            let mut before = before;
            let mut at = REACH;
            while at < REACH + BLOCK {
                let input = r.load(vector_at(window, at));
                let prior = loaded_prior::<R>(r, window, at);
                let (vector_error, next) = check_after::<R>(r, input, prior, before.marker_bits);
                error = error.or(vector_error);
                before = next;
                at += V::LANES;
            }
            Checked {
                error,
                last: before,
            }
        }

        /// The block of a [`Preceded::window`].
        #[inline(always)]
        fn block_of(window: &[u8; REACH + BLOCK]) -> &[u8; BLOCK] {
            let Some(block) = window.last_chunk() else {
                unreachable!("a window ends with its block")
            };
            block
        }
    };
}
pub(crate) use one_block;
