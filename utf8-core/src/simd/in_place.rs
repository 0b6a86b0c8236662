//! Short inputs in place: an input of a vector or more and under two blocks, checked
//! where it lies by overlapping vectors, and the first error in it.

/// Short inputs in place: `passes_in_place`, `later_vectors`, `first_error_in_place`.
macro_rules! in_place_check {
    ($feature:literal) => {
        /// Whether `bytes`, at least a vector and less than [`ALIGNED_FROM`]
        /// long, passes the check where it lies: no framed copy of its end,
        /// whose bytes a vector load could only take from the stores of the
        /// copy (a store-forwarding stall per load, on strings where the
        /// check itself is a handful of instructions). The first vector
        /// follows the boundary bytes; see [`later_vectors`] for the rest.
        /// Without a pairing term, whose markers reach further back than
        /// [`look_back`] counts.
        #[inline(always)]
        fn passes_in_place<R: VectorLanguage>(r: &Registers, bytes: &[u8]) -> bool {
            let (first_error, _) = check::<R>(r, r.load(vector_at(bytes, 0)), framing(r));
            let (later_error, last) = later_vectors::<R>(r, bytes);
            let open = last.bytes.saturating_sub(r.incomplete);
            !first_error.or(later_error).or(open).any()
        }

        /// The check of `bytes` after its first vector (for
        /// [`passes_in_place`]), with as few branches on the length as the
        /// bytes allow, since short strings come in every length:
        ///
        /// - Two vectors or more: vectors a vector apart from the first,
        ///   the last moved back to end with the input, each following the
        ///   vector before it read again from memory, so exact wherever it
        ///   starts.
        /// - Less: the vector that ends the input and one more, each
        ///   following boundary bytes, so that only their
        ///   [`Registers::fresh`] lanes count: one starting [`look_back`]
        ///   lanes before the first vector's end, covering what the last
        ///   one's fresh lanes do not where the two overlap by less than
        ///   that (elsewhere it is the last one again).
        ///
        /// Returns the error bits, each lane checked exactly in some
        /// vector, and what follows the input.
        #[inline(always)]
        fn later_vectors<R: VectorLanguage>(r: &Registers, bytes: &[u8]) -> (V, Before) {
            let last_at = bytes.len() - V::LANES;
            if bytes.len() >= 2 * V::LANES {
                let mut error = r.zero;
                let mut at = V::LANES;
                loop {
                    let at_or_last = at.min(last_at);
                    let (vector_error, after) = check_after_prior::<R>(r, bytes, at_or_last);
                    error = error.or(vector_error);
                    if at_or_last == last_at {
                        return (error, after);
                    }
                    at += V::LANES;
                }
            }
            let middle_at = (V::LANES - look_back::<R>()).min(last_at);
            let (middle_error, _) = check::<R>(r, r.load(vector_at(bytes, middle_at)), framing(r));
            let (last_error, after) = check::<R>(r, r.load(vector_at(bytes, last_at)), framing(r));
            (middle_error.or(last_error).and(r.fresh), after)
        }

        /// The check of the vector of `bytes` at `at` (a vector or more into
        /// it), following the vector before it read again from memory.
        #[inline(always)]
        fn check_after_prior<R: VectorLanguage>(
            r: &Registers,
            bytes: &[u8],
            at: usize,
        ) -> (V, Before) {
            let prior = Before {
                bytes: r.load(vector_at(bytes, at - V::LANES)),
                marker_bits: r.zero,
            };
            check::<R>(r, r.load(vector_at(bytes, at)), prior)
        }

        /// Where the check of [`passes_in_place`] first errs: its vectors
        /// checked again one by one in order of position, each lane exactly
        /// in the first that counts it; the end of the input for a sequence
        /// left open there.
        #[cold]
        #[inline(never)]
        #[target_feature(enable = $feature)]
        fn first_error_in_place<R: VectorLanguage>(bytes: &[u8]) -> usize {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it.
            let r = &unsafe { registers::<R>() };
            let (error, _) = check::<R>(r, r.load(vector_at(bytes, 0)), framing(r));
            if error.any() {
                return error.first_nonzero();
            }
            let last_at = bytes.len() - V::LANES;
            if bytes.len() >= 2 * V::LANES {
                let mut at = V::LANES;
                loop {
                    let at_or_last = at.min(last_at);
                    let (error, _) = check_after_prior::<R>(r, bytes, at_or_last);
                    if error.any() {
                        return at_or_last + error.first_nonzero();
                    }
                    if at_or_last == last_at {
                        break;
                    }
                    at += V::LANES;
                }
            } else {
                let middle_at = (V::LANES - look_back::<R>()).min(last_at);
                for at in [middle_at, last_at] {
                    let (error, _) = check::<R>(r, r.load(vector_at(bytes, at)), framing(r));
                    let error = error.and(r.fresh);
                    if error.any() {
                        return at + error.first_nonzero();
                    }
                }
            }
            bytes.len()
        }
    };
}
pub(crate) use in_place_check;
