//! Locating an error: a failing group or end checked again one block, one vector at a
//! time, down to the first lane with an error bit.

/// Locating an error in the blocks: `first_error_in`, `first_error`, `first_error_at_end`.
macro_rules! locate_error {
    ($feature:literal) => {
        /// Where the check of `block`, which follows `before`, first errs:
        /// the index of its first lane with an error bit, or `BLOCK` if it
        /// does not err.
        #[inline(always)]
        fn first_error_in<R: VectorLanguage>(
            r: &Registers,
            block: &[u8; BLOCK],
            before: Before,
        ) -> usize {
            let mut before = before;
            for (i, vector) in block.as_chunks::<{ V::LANES }>().0.iter().enumerate() {
                let input = r.load(vector);
                let (error, next) = check::<R>(r, input, before);
                if error.any() {
                    return i * V::LANES + error.first_nonzero();
                }
                before = next;
            }
            BLOCK
        }

        /// Where the check first errs in the body's blocks `from..to`, which
        /// follow `before` (read again from memory without a pairing term),
        /// checked again one by one; the start of block `to` if none errs
        /// alone (the error is then a sequence left open before a run of
        /// ASCII, on whose first byte the automaton dies). Only blocks the
        /// main loop checked are checked again.
        #[cold]
        #[inline(never)]
        #[target_feature(enable = $feature)]
        fn first_error<R: VectorLanguage>(
            input: &Blocks<'_>,
            from: usize,
            to: usize,
            before: Before,
        ) -> usize {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it.
            let r = &unsafe { registers::<R>() };
            let mut before = if matches!(R::VECTOR.pairing.rule, PairRule::None) {
                before_block::<R>(r, input, from)
            } else {
                before
            };
            for index in from..to {
                let checked = check_block::<R>(r, &input.body[index], before);
                if checked.error.any() {
                    return input.body_offset(index)
                        + first_error_in::<R>(r, &input.body[index], before);
                }
                before = checked.last;
            }
            input.body_offset(to)
        }

        /// Where the check of the framed end of the input first errs, as a
        /// position in the input: a lane in the closing boundary bytes
        /// stands for the end.
        #[cold]
        #[inline(never)]
        #[target_feature(enable = $feature)]
        fn first_error_at_end<R: VectorLanguage>(
            input: &Blocks<'_>,
            tail: &[u8; BLOCK],
            before: Before,
        ) -> usize {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it.
            let r = &unsafe { registers::<R>() };
            let at = first_error_in::<R>(r, tail, before).min(input.tail.len());
            input.body_offset(input.body.len()) + at
        }
    };
}
pub(crate) use locate_error;
