//! Head and tail: the bytes before the first aligned block and after the last, checked
//! in place or in framed copies, and the block before the main loop's first.

/// Head and tail: `check_head`, `check_tail`, `start_of_body`, `block_without_reach`,
/// `end_of_input`.
macro_rules! head_and_tail {
    ($feature:literal) => {
        /// The vector of `bytes` at `at`, which the caller knows to lie
        /// inside it.
        #[inline(always)]
        fn vector_at(bytes: &[u8], at: usize) -> &[u8; V::LANES] {
            let Some(vector) = bytes[at..].first_chunk::<{ V::LANES }>() else {
                unreachable!("a vector read in place lies inside the input")
            };
            vector
        }

        /// Checks the first `head_end` bytes of `bytes` (at least a vector,
        /// less than two blocks, and less than the input) in place: by
        /// vectors from the boundary bytes, the last of which may run past
        /// `head_end` into bytes the main loop checks again. Returns the
        /// error bits and, as for a block, what the bytes from `head_end`
        /// follow, read again from memory.
        #[inline(always)]
        fn check_head<R: VectorLanguage>(r: &Registers, bytes: &[u8], head_end: usize) -> Checked {
            debug_assert!((V::LANES..ALIGNED_FROM).contains(&head_end) && head_end < bytes.len());
            let last = Before {
                bytes: r.load(vector_at(bytes, head_end - V::LANES)),
                marker_bits: r.zero,
            };
            if R::VECTOR.ascii_skip && vectors_skippable::<R>(r, bytes, 0, head_end) {
                // As after a skipped block: nothing can be open.
                return Checked {
                    error: r.zero,
                    last,
                };
            }
            let mut before = framing(r);
            let mut error = r.zero;
            let mut at = 0;
            while at < head_end {
                let (vector_error, next) = check::<R>(r, r.load(vector_at(bytes, at)), before);
                error = error.or(vector_error);
                before = next;
                at += V::LANES;
            }
            Checked { error, last }
        }

        /// Whether the vectors of `bytes` from `from`, a vector apart and
        /// starting before `to`, are all skippable (the last may run past
        /// `to`; it lies inside `bytes`).
        #[inline(always)]
        fn vectors_skippable<R: VectorLanguage>(
            r: &Registers,
            bytes: &[u8],
            from: usize,
            to: usize,
        ) -> bool {
            let mut acc = r.load(vector_at(bytes, from));
            let mut at = from + V::LANES;
            while at < to {
                acc = fold_skippable::<R>(acc, r.load(vector_at(bytes, at)));
                at += V::LANES;
            }
            all_skippable::<R>(acc)
        }

        /// Checks the bytes of `bytes` from `tail_at` (fewer than a block,
        /// following `before`) in place: whole vectors, then the vector that
        /// ends with the input, which follows the vector before it read
        /// again from memory (the input holds two blocks). Returns the error
        /// bits and whether a sequence is left open at the end.
        #[inline(always)]
        fn check_tail<R: VectorLanguage>(
            r: &Registers,
            bytes: &[u8],
            tail_at: usize,
            before: Before,
        ) -> Checked {
            debug_assert!(bytes.len() >= ALIGNED_FROM && bytes.len() - tail_at < BLOCK);
            let mut before = before;
            let mut error = r.zero;
            let mut at = tail_at;
            while bytes.len() - at >= V::LANES {
                let (vector_error, next) = check::<R>(r, r.load(vector_at(bytes, at)), before);
                error = error.or(vector_error);
                before = next;
                at += V::LANES;
            }
            if at < bytes.len() {
                let (last_error, last) = check_after_prior::<R>(r, bytes, bytes.len() - V::LANES);
                error = error.or(last_error);
                before = last;
            }
            Checked {
                error,
                last: before,
            }
        }

        /// Where [`check_tail`] first errs: its vectors checked again one
        /// by one; the end of the input for a sequence left open there.
        /// What the tail follows is read again from memory, as
        /// [`before_block`] does: passed in, it would be passed by
        /// reference, and the main loop would keep its `before` in memory
        /// (see `in_place` in [`validate_blocks`]).
        #[cold]
        #[inline(never)]
        #[target_feature(enable = $feature)]
        fn first_error_in_tail<R: VectorLanguage>(bytes: &[u8], tail_at: usize) -> usize {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it.
            let r = &unsafe { registers::<R>() };
            debug_assert!(tail_at >= V::LANES && matches!(R::VECTOR.pairing.rule, PairRule::None));
            let mut before = Before {
                bytes: r.load(vector_at(bytes, tail_at - V::LANES)),
                marker_bits: r.zero,
            };
            let mut at = tail_at;
            while bytes.len() - at >= V::LANES {
                let (error, next) = check::<R>(r, r.load(vector_at(bytes, at)), before);
                if error.any() {
                    return at + error.first_nonzero();
                }
                before = next;
                at += V::LANES;
            }
            if at < bytes.len() {
                let last_at = bytes.len() - V::LANES;
                let (error, _) = check_after_prior::<R>(r, bytes, last_at);
                if error.any() {
                    return last_at + error.first_nonzero();
                }
            }
            bytes.len()
        }

        /// The head of `input` (the bytes before its first aligned block),
        /// checked in place or framed: what the body's block `first_block`
        /// follows and `first_block` (1 where the head ran through block 0),
        /// or where the check erred.
        #[inline]
        #[target_feature(enable = $feature)]
        fn start_of_body<R: VectorLanguage>(
            r: &Registers,
            bytes: &[u8],
            input: &Blocks<'_>,
            in_place: bool,
        ) -> Result<(Before, usize), usize> {
            // The check was proved with boundary bytes before the input.
            let before = framing(r);
            if input.head.is_empty() {
                return Ok((before, 0));
            }
            if in_place {
                // A head shorter than a vector leaves no vector before the
                // first block to read again: the head then runs through it.
                let (head_end, after_head) = if input.head.len() >= V::LANES {
                    (input.head.len(), 0)
                } else {
                    (input.head.len() + BLOCK, 1)
                };
                let head = check_head::<R>(r, bytes, head_end);
                if head.error.any() {
                    return Err(first_error_in_place::<R>(&bytes[..head_end]));
                }
                return Ok((head.last, after_head));
            }
            // A head of ASCII reads to the check like the boundary bytes
            // before the input (the generator proved that before allowing
            // the ASCII skip), so only a head with other bytes is framed and
            // checked.
            if R::VECTOR.ascii_skip && $crate::simd::skippable::<R>(input.head) {
                return Ok((before, 0));
            }
            let head = framed(input.head, Align::End, R::VECTOR.boundary);
            let checked = check_block::<R>(r, &head, before);
            if checked.error.any() {
                // The boundary bytes before the head cannot err.
                let lane = first_error_in::<R>(r, &head, before);
                return Err(lane.saturating_sub(BLOCK - input.head.len()));
            }
            Ok((checked.last, 0))
        }

        /// Body block 0, which follows `before`, where fewer than [`REACH`]
        /// bytes of the input lie before it for [`check_preceded_block`] to
        /// load: checked with the bytes before each vector shifted out of
        /// the vector before. What the next block follows, or where the
        /// check erred.
        #[inline]
        #[target_feature(enable = $feature)]
        fn block_without_reach<R: VectorLanguage>(
            r: &Registers,
            input: &Blocks<'_>,
            before: Before,
        ) -> Result<Before, usize> {
            let block = &input.body[0];
            if R::VECTOR.ascii_skip && is_skippable::<R>(r, block) {
                return if open_after::<R>(r, before).any() {
                    Err(input.body_offset(0))
                } else {
                    Ok(after_skipped(r, last_vector(r, block)))
                };
            }
            let checked = check_block::<R>(r, block, before);
            if checked.error.any() {
                return Err(first_error::<R>(input, 0, 1, before));
            }
            Ok(checked.last)
        }

        /// The tail of `input` (the bytes after its last aligned block,
        /// which follow `before`), checked in place or framed, and the end
        /// of the input.
        #[inline]
        #[target_feature(enable = $feature)]
        fn end_of_input<R: VectorLanguage>(
            r: &Registers,
            bytes: &[u8],
            input: &Blocks<'_>,
            in_place: bool,
            before: Before,
        ) -> Result<(), usize> {
            // A tail of ASCII reads like the boundary bytes after the input:
            // what can fail is only a sequence left open before it, which the
            // end test (proved equal to the closing check) finds.
            let tail_at = input.body_offset(input.body.len());
            let tail_skippable = if in_place && !input.tail.is_empty() {
                // The vectors that end with the input and cover the tail.
                let from = bytes.len() - input.tail.len().div_ceil(V::LANES) * V::LANES;
                vectors_skippable::<R>(r, bytes, from, bytes.len())
            } else {
                $crate::simd::skippable::<R>(input.tail)
            };
            if R::VECTOR.ascii_skip && tail_skippable {
                return if open_after::<R>(r, before).any() {
                    Err(tail_at)
                } else {
                    Ok(())
                };
            }
            if in_place {
                let tail = check_tail::<R>(r, bytes, tail_at, before);
                return if tail.error.or(open_after::<R>(r, tail.last)).any() {
                    Err(first_error_in_tail::<R>(bytes, tail_at))
                } else {
                    Ok(())
                };
            }
            // The tail, then boundary bytes: the check of those (proved equal
            // to the input's end) and the end test catch a sequence left open.
            let tail = framed(input.tail, Align::Start, R::VECTOR.boundary);
            let checked = check_block::<R>(r, &tail, before);
            if checked.error.or(open_after::<R>(r, checked.last)).any() {
                Err(first_error_at_end::<R>(input, &tail, before))
            } else {
                Ok(())
            }
        }
    };
}
pub(crate) use head_and_tail;
