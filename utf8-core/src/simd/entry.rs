//! The entry points: `validate`, which picks the path for the input's length, and
//! `skippable_prefix`, for the pieces of a stream.

/// The level's entry points: `validate` and `skippable_prefix`.
macro_rules! entry_points {
    ($feature:literal) => {
        /// Checks `bytes`; on failure returns the position where the check
        /// first erred (the end of the input for a sequence left open there).
        ///
        /// # Safety
        /// The CPU must support this module's target feature.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn validate<R: VectorLanguage>(bytes: &[u8]) -> Result<(), usize> {
            if bytes.len() < NARROWER_BELOW
                && matches!(R::VECTOR.pairing.rule, PairRule::None)
                && let Some(result) = narrower::<R>(bytes)
            {
                return result;
            }
            if bytes.len() >= V::LANES
                && bytes.len() < ALIGNED_FROM
                && matches!(R::VECTOR.pairing.rule, PairRule::None)
            {
                // SAFETY: the caller promises the target feature.
                let r = unsafe { registers::<R>() };
                return if passes_in_place::<R>(&r, bytes) {
                    Ok(())
                } else {
                    Err(first_error_in_place::<R>(bytes))
                };
            }
            validate_blocks::<R>(bytes)
        }

        /// How many bytes at the start of `bytes` are skippable, in whole
        /// blocks read where they lie: all of them (the bytes after the last
        /// whole block too) where every one is, else the start of the first
        /// block that is not. None of [`validate_blocks`]'s set-up, for a
        /// piece of a stream, whose cost a call is paid at every piece: a
        /// piece of ASCII then costs this loop and little else.
        ///
        /// # Safety
        /// The CPU must support this module's target feature.
        #[inline(never)]
        #[target_feature(enable = $feature)]
        #[allow(
            dead_code,
            reason = "the AVX-512 level runs AVX2's (see `skippable_prefix_detected`)"
        )]
        pub(crate) unsafe fn skippable_prefix<R: VectorLanguage>(bytes: &[u8]) -> usize {
            // SAFETY: this function is built with the module's target
            // feature, so it runs only where the CPU has it. (The tables'
            // loads, unused here, are left out by the compiler.)
            let r = unsafe { registers::<R>() };
            let (blocks, rest) = bytes.as_chunks::<BLOCK>();
            let mut index = 0;
            while index < blocks.len() {
                if !is_skippable::<R>(&r, &blocks[index]) {
                    return index * BLOCK;
                }
                index += 1;
            }
            if $crate::simd::skippable::<R>(rest) {
                bytes.len()
            } else {
                blocks.len() * BLOCK
            }
        }
    };
}
pub(crate) use entry_points;
