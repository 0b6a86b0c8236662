//! The main loop: the blocks walked in groups, between the head and the tail
//! (`validate_blocks`).

/// The main loop: `walk_blocks` and `validate_blocks`.
macro_rules! main_loop {
    ($feature:literal) => {
        /// The main loop over `blocks`, the first of which follows
        /// `before`: what the end of the input follows, or where the check
        /// first errs.
        ///
        /// The blocks are checked in groups: up to GROUP blocks in a row
        /// that are not skipped, after which the error register is tested,
        /// as it is at the start of a run of skippable blocks; a failing
        /// group is narrowed to a block, checked again from what it followed
        /// (kept only where the lead markers before it cannot be read again
        /// from memory). Each block is tested for the skip once: by the step
        /// before it within a group, at the loop's start otherwise. A
        /// group's blocks are counted by the code's shape (the steps
        /// unrolled), not by a counter or a test of the offset (AVX2: those
        /// cost a test and branch a block, and LLVM kept them beside
        /// register copies), and every way out of a group goes back to the
        /// loop's start, so that the steps of a group follow each other with
        /// no other path in between: LLVM then drops the windows' bounds
        /// tests and the copies of the offset between registers. (AVX2, AMD
        /// EPYC Zen 4 (family 25, model 17): the corpus 1.16 -> 1.22x
        /// simdutf8's AVX2 code with the rest of this loop's changes.)
        #[inline(always)]
        fn walk_blocks<R: VectorLanguage>(
            r: &Registers,
            input: &Blocks<'_>,
            blocks: &Walked<'_>,
            before: Before,
        ) -> Result<Before, usize> {
            let mut walk = Walk {
                at: 0,
                error: r.zero,
                before,
                group_start: 0,
                group_before: before,
            };
            'groups: while walk.at < blocks.offsets_below {
                if R::VECTOR.ascii_skip && is_skippable::<R>(r, blocks.block(walk.at)) {
                    walk.run::<R>(r, input, blocks)?;
                    continue;
                }
                walk.group_start = walk.at;
                if !matches!(R::VECTOR.pairing.rule, PairRule::None) {
                    walk.group_before = walk.before;
                }
                for _ in 0..GROUP - 1 {
                    match walk.group_step::<R>(r, input, blocks)? {
                        Flow::Next => {}
                        Flow::Restart => continue 'groups,
                        Flow::End => break 'groups,
                    }
                }
                walk.check::<R>(r, blocks);
                walk.test_group::<R>(r, input, blocks)?;
            }
            walk.test_group::<R>(r, input, blocks)?;
            Ok(if Walk::reads_before_again::<R>() {
                after_skipped(r, last_vector(r, blocks.block(walk.at - BLOCK)))
            } else {
                walk.before
            })
        }

        /// [`validate`] by blocks: the main loop, out of line so that a
        /// string checked in place does not pay for its stack frame.
        #[inline(never)]
        #[target_feature(enable = $feature)]
        fn validate_blocks<R: VectorLanguage>(bytes: &[u8]) -> Result<(), usize> {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it.
            let r = unsafe { registers::<R>() };
            let input = Blocks::new(bytes);
            // Without a pairing term (whose markers a vector read again
            // from memory would not carry) the head and tail of an input of
            // two blocks or more are checked where they lie, instead of in
            // framed copies. Shorter inputs come here only with a pairing
            // term (`validate` checks the others itself), so that `in_place`
            // is known when this is compiled: the framed end, which takes
            // `before` by reference, is then not compiled in, and a main
            // loop that carries `before` keeps it in registers (AVX-512, AMD
            // EPYC Zen 4 (family 25, model 17): a store and a reload a block
            // otherwise, the corpus 5% slower).
            let in_place = matches!(R::VECTOR.pairing.rule, PairRule::None);
            debug_assert!(!in_place || bytes.len() >= ALIGNED_FROM);

            let (mut before, mut first_block) = start_of_body::<R>(&r, bytes, &input, in_place)?;
            if V::PRIOR_BY_LOADS && first_block < input.body.len() && !input.has_reach(first_block)
            {
                before = block_without_reach::<R>(&r, &input, before)?;
                first_block += 1;
            }
            // The loop counts the bytes of the blocks from `first_block`, so
            // that its own condition is the bounds test of the blocks it
            // reads and of their windows (the compiler drops those), and its
            // counter is their addresses' offset.
            let rest = &input.body[first_block..];
            // Unused without `V::PRIOR_BY_LOADS`, where it is never made.
            let preceded = if V::PRIOR_BY_LOADS {
                input.preceded_from(first_block)
            } else {
                Preceded::EMPTY
            };
            let offsets_below = if V::PRIOR_BY_LOADS {
                preceded.offsets_below()
            } else {
                (rest.len() * BLOCK).saturating_sub(BLOCK - 1)
            };
            debug_assert_eq!(
                offsets_below,
                (rest.len() * BLOCK).saturating_sub(BLOCK - 1)
            );
            // Where the check loads the bytes before each vector and there is
            // no pairing term, all a block carries to the next is its last
            // vector: that is read again from memory where it is asked for
            // (the start of a run of ASCII, and the end), instead of being
            // carried from block to block, which cost a register copy a block
            // (AVX2): `before` then stays what the first block follows.
            let reads_before_again = Walk::reads_before_again::<R>();
            let blocks = Walked {
                rest,
                preceded,
                offsets_below,
                first_block,
            };
            // One call of the end, so that it is inlined; where nothing
            // reaches the loop the end follows what the first block would
            // have, and the loop, where it reads that again from memory,
            // does not keep it in its registers.
            let before = if reads_before_again && rest.is_empty() {
                before
            } else {
                walk_blocks::<R>(&r, &input, &blocks, before)?
            };
            end_of_input::<R>(&r, bytes, &input, in_place, before)
        }
    };
}
pub(crate) use main_loop;
