//! The check step: the error bits of one vector, from the nibble tables, the
//! must-continue thresholds and the pairing term, and what the next vector follows.

/// The check of one vector: `pair_bits`, `with_pairing`, the bytes before a vector
/// (`shifted_prior`, `loaded_prior`), `check` and `check_after`.
macro_rules! check_step {
    () => {
        /// One table set's bits for each (previous byte, byte) pair.
        #[inline(always)]
        fn pair_bits<R: VectorLanguage>(
            set: &[V; 4],
            prev_high: V,
            prev_low: V,
            cur_high: V,
            cur_low: V,
        ) -> V {
            let bits = set[0]
                .lookup(prev_high)
                .and(set[1].lookup(prev_low))
                .and(set[2].lookup(cur_high));
            if R::VECTOR.needs_cur_low {
                bits.and(set[3].lookup(cur_low))
            } else {
                bits
            }
        }

        /// The check before any input: boundary bytes, and no marker (the
        /// generator declines a pairing term whose lead marker can end on
        /// the boundary byte).
        #[inline(always)]
        fn framing(r: &Registers) -> Before {
            Before {
                bytes: r.boundary,
                marker_bits: r.zero,
            }
        }

        /// What follows `bytes`, the last vector of a run of skippable bytes:
        /// no lead marker ends on one, since each reads like the boundary
        /// byte.
        #[inline(always)]
        fn after_skipped(r: &Registers, bytes: V) -> Before {
            Before {
                bytes,
                marker_bits: r.zero,
            }
        }

        /// The pairing term folded into the bits of the markers' table set:
        /// the lead bit `distance` lanes back, doubled, lands on the trail
        /// bit, which then errs where the rule is broken, and the marker
        /// bits that are not errors are cleared.
        #[inline(always)]
        fn with_pairing<R: VectorLanguage>(r: &Registers, bits: V, before_bits: V) -> V {
            let lead_then = bits
                .prev(before_bits, R::VECTOR.pairing.distance)
                .and(r.lead);
            let on_trail = lead_then.add(lead_then);
            match R::VECTOR.pairing.rule {
                PairRule::None => bits,
                PairRule::Required => bits.and(r.not_lead).xor(on_trail),
                PairRule::Forbidden => bits.and(r.not_markers).or(bits.and(on_trail)),
            }
        }

        /// The vectors of the bytes 1 to [`look_back`] lanes before a
        /// vector, `n` lanes back at index `n - 1` (the rest unused).
        type Prior = [V; REACH];

        /// The [`Prior`] of `input`, shifted out of it and the vector before.
        #[inline(always)]
        fn shifted_prior<R: VectorLanguage>(r: &Registers, input: V, before: V) -> Prior {
            const { assert!(look_back::<R>() <= REACH) };
            let mut prior = [r.zero; REACH];
            prior[0] = input.prev(before, 1);
            if look_back::<R>() > 1 {
                prior[1] = input.prev(before, 2);
            }
            if look_back::<R>() > 2 {
                prior[2] = input.prev(before, 3);
            }
            if look_back::<R>() > 3 {
                prior[3] = input.prev(before, 4);
            }
            if look_back::<R>() > 4 {
                prior[4] = input.prev(before, 5);
            }
            prior
        }

        /// The [`Prior`] of the vector at `at` in `window` (at least
        /// [`REACH`] bytes in), loaded where its bytes lie: one load each
        /// instead of two shuffles' worth of work for the first and one for
        /// each further (see `V::PRIOR_BY_LOADS`).
        #[inline(always)]
        fn loaded_prior<R: VectorLanguage>(r: &Registers, window: &[u8], at: usize) -> Prior {
            const { assert!(look_back::<R>() <= REACH) };
            debug_assert!(at >= REACH);
            let mut prior = [r.zero; REACH];
            let mut n = 1;
            while n <= look_back::<R>() {
                prior[n - 1] = r.load(vector_at(window, at - n));
                n += 1;
            }
            prior
        }

        /// The check of `input`, a whole input of `len` bytes (shorter than
        /// a vector) with boundary bytes after them, following boundary
        /// bytes; on failure, where it first erred.
        #[inline(always)]
        #[allow(
            dead_code,
            reason = "only the narrowest and masked levels check an input in one vector"
        )]
        fn check_one_vector<R: VectorLanguage>(
            r: &Registers,
            input: V,
            len: usize,
        ) -> Result<(), usize> {
            let (error, _) = check::<R>(r, input, framing(r));
            if error.any() {
                // A lane past the input's end errs for the sequence left
                // open there: its position is the end.
                Err(error.first_nonzero().min(len))
            } else {
                Ok(())
            }
        }

        /// The error bits of `input`, which follows `before` (boundary bytes
        /// at the start of the input), and what the next vector follows.
        #[inline(always)]
        fn check<R: VectorLanguage>(r: &Registers, input: V, before: Before) -> (V, Before) {
            check_after::<R>(
                r,
                input,
                shifted_prior::<R>(r, input, before.bytes),
                before.marker_bits,
            )
        }

        /// The error bits of `input`, whose bytes before it are `prior` and
        /// whose vector before had `before_marker_bits`, and what the next
        /// vector follows.
        #[inline(always)]
        fn check_after<R: VectorLanguage>(
            r: &Registers,
            input: V,
            prior: Prior,
            before_marker_bits: V,
        ) -> (V, Before) {
            let prev1 = prior[0];
            let (prev_high, prev_low) = (prev1.high_nibbles(), prev1.low_nibbles());
            let cur_high = input.high_nibbles();
            let cur_low = if R::VECTOR.needs_cur_low {
                input.low_nibbles()
            } else {
                cur_high
            };
            let pairing = !matches!(R::VECTOR.pairing.rule, PairRule::None);
            let mut first = pair_bits::<R>(&r.sets[0], prev_high, prev_low, cur_high, cur_low);
            let mut second = if R::VECTOR.sets > 1 {
                pair_bits::<R>(&r.sets[1], prev_high, prev_low, cur_high, cur_low)
            } else {
                r.zero
            };
            let marker_bits = if R::VECTOR.pairing.set == 0 {
                first
            } else {
                second
            };
            if pairing && R::VECTOR.pairing.set == 0 {
                first = with_pairing::<R>(r, first, before_marker_bits);
            } else if pairing {
                second = with_pairing::<R>(r, second, before_marker_bits);
            }
            let mut error = first;
            if R::VECTOR.max_sequence_len > 2 {
                let mut must = prior[1].saturating_sub(r.must_continue[0]);
                if R::VECTOR.max_sequence_len > 3 {
                    must = must.or(prior[2].saturating_sub(r.must_continue[1]));
                }
                if R::VECTOR.max_sequence_len > 4 {
                    must = must.or(prior[3].saturating_sub(r.must_continue[2]));
                }
                if R::VECTOR.max_sequence_len > 5 {
                    must = must.or(prior[4].saturating_sub(r.must_continue[3]));
                }
                error = error.xor(must.and(r.high_bit));
            }
            if R::VECTOR.sets > 1 {
                error = error.or(second);
            }
            let next = Before {
                bytes: input,
                marker_bits: if pairing { marker_bits } else { r.zero },
            };
            (error, next)
        }
    };
}
pub(crate) use check_step;
