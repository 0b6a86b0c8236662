//! An input shorter than a vector (two at a level with masked loads): the three ways a level
//! checks one, picked by how `algorithm!` is invoked.

/// The short-input arm: `NARROWER_BELOW` and `narrower`.
macro_rules! short_input {
    // A level with vectors wider than the shortest input it is given hands
    // an input shorter than its vector to the `$narrower` level, whose
    // feature its own implies.
    (narrower: $narrower:path) => {
        /// Inputs shorter than this go to [`narrower`].
        const NARROWER_BELOW: usize = V::LANES;

        /// An input shorter than a vector, checked in place by the
        /// narrower level's vectors instead of in a framed block.
        #[inline(always)]
        fn narrower<R: VectorLanguage>(bytes: &[u8]) -> Option<Result<(), usize>> {
            use $narrower as narrower;
            // SAFETY: only called from this module's functions, built with
            // its target feature, which implies the narrower level's.
            Some(unsafe { narrower::validate::<R>(bytes) })
        }
    };
    // The narrowest level (16-byte vectors) checks an input shorter than
    // its vector as one vector built in registers.
    () => {
        /// Inputs shorter than this go to [`narrower`].
        const NARROWER_BELOW: usize = V::LANES;

        /// An input shorter than a vector: its bytes and boundary bytes
        /// after them in one vector, gathered by loads inside the input
        /// ([`tiny_lanes`](crate::simd::tiny_lanes)) and put together in
        /// registers, checked after boundary bytes. No branch on the bytes
        /// and no framed copy, whose reload would wait on its stores:
        /// strings this short come one call each, ASCII or not at random,
        /// and a mispredicted branch costs more than the check.
        #[inline(always)]
        fn narrower<R: VectorLanguage>(bytes: &[u8]) -> Option<Result<(), usize>> {
            const { assert!(V::LANES == 16) };
            // SAFETY: only called from this module's functions, built with
            // its target feature.
            let r = unsafe { registers::<R>() };
            let (low, high) = $crate::simd::tiny_lanes(bytes, R::VECTOR.boundary);
            // SAFETY: `r` exists only where the CPU has the target feature.
            let input = unsafe { V::from_halves(low, high) };
            Some(check_one_vector::<R>(&r, input, bytes.len()))
        }
    };
    // A level with masked loads (AVX-512) checks an input shorter than its
    // vector as one vector, loaded with the lanes past its end masked off.
    (masked) => {
        /// Inputs shorter than this (two vectors) go to [`narrower`].
        const NARROWER_BELOW: usize = 2 * V::LANES;

        /// An input shorter than two vectors: its bytes in one vector, or
        /// its first vector and a second of the rest, the lanes past its
        /// end masked off the load and boundary bytes, checked in order
        /// after boundary bytes. No branch on the bytes, and no byte read
        /// outside the input. (Two vectors for every input, with no branch
        /// on the length either, ran the corpus's lines 5% slower on an
        /// AMD EPYC Zen 4 (family 25, model 17): the second check cost more
        /// than the mispredictions it saved.)
        #[inline(always)]
        fn narrower<R: VectorLanguage>(bytes: &[u8]) -> Option<Result<(), usize>> {
            debug_assert!(bytes.len() < NARROWER_BELOW);
            // SAFETY: only called from this module's functions, built with
            // its target feature.
            let r = unsafe { registers::<R>() };
            let Some((first, rest)) = bytes.split_first_chunk::<{ V::LANES }>() else {
                return Some(check_one_vector::<R>(
                    &r,
                    r.load_partial(bytes, r.boundary),
                    bytes.len(),
                ));
            };
            let (first_error, after) = check::<R>(&r, r.load(first), framing(&r));
            let (rest_error, _) = check::<R>(&r, r.load_partial(rest, r.boundary), after);
            if !first_error.or(rest_error).any() {
                return Some(Ok(()));
            }
            // A lane past the input's end errs for the sequence left open
            // there: its position is the end.
            let erred_at = if first_error.any() {
                first_error.first_nonzero()
            } else {
                V::LANES + rest_error.first_nonzero()
            };
            Some(Err(erred_at.min(bytes.len())))
        }

        impl Registers {
            /// The vector of `bytes`, at most a vector, with the lanes past
            /// its end `fill`'s: a masked load of `bytes`' lanes only.
            #[inline(always)]
            fn load_partial(&self, bytes: &[u8], fill: V) -> V {
                // SAFETY: `self` exists only where the CPU has the target
                // feature (see `registers`); the load reads inside `bytes`
                // (`V::load_partial` refuses more than a vector).
                unsafe { V::load_partial(bytes, fill) }
            }
        }
    };
}
pub(crate) use short_input;
