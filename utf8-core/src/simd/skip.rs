//! The skip test: whether a block holds only bytes that the ASCII skip may pass over,
//! and what a block follows, read again from memory.

/// The skip test: `is_skippable` and its folds, `last_vector`, `before_block`.
macro_rules! skip_test {
    () => {
        /// Folds one more vector into a skip test's accumulator: an OR
        /// where the skippable bytes are `%x00-7F` (a high bit anywhere
        /// shows), a signed minimum where they start higher (modified
        /// UTF-8's `%x01-7F`: the smallest byte shows).
        #[inline(always)]
        fn fold_skippable<R: VectorLanguage>(acc: V, vector: V) -> V {
            if R::VECTOR.boundary == 0 {
                acc.or(vector)
            } else {
                acc.min_signed(vector)
            }
        }

        /// Whether an accumulator of [`fold_skippable`] holds only
        /// skippable bytes.
        #[inline(always)]
        fn all_skippable<R: VectorLanguage>(acc: V) -> bool {
            if R::VECTOR.boundary == 0 {
                acc.is_ascii()
            } else {
                acc.all_in_ascii_from(R::VECTOR.boundary)
            }
        }

        /// Whether the block is all skippable: bytes of
        /// `%x(boundary)-7F`, which the generator proved read to the check
        /// like the boundary byte.
        #[inline(always)]
        fn is_skippable<R: VectorLanguage>(r: &Registers, block: &[u8; BLOCK]) -> bool {
            let vectors = block.as_chunks::<{ V::LANES }>().0;
            let mut acc = r.load(&vectors[0]);
            for vector in &vectors[1..] {
                acc = fold_skippable::<R>(acc, r.load(vector));
            }
            all_skippable::<R>(acc)
        }

        /// The last vector of `block`.
        #[inline(always)]
        fn last_vector(r: &Registers, block: &[u8; BLOCK]) -> V {
            let vectors = block.as_chunks::<{ V::LANES }>().0;
            r.load(&vectors[vectors.len() - 1])
        }

        /// What block `index` of the body follows, read again from memory:
        /// the last vector of the block before it, of the framed head, or
        /// boundary bytes. Without a pairing term that is all a check
        /// carries, and reading it again costs less than keeping a copy at
        /// each group's start in registers.
        #[inline(always)]
        fn before_block<R: VectorLanguage>(
            r: &Registers,
            input: &Blocks<'_>,
            index: usize,
        ) -> Before {
            let bytes = if index > 0 {
                last_vector(r, &input.body[index - 1])
            } else if !input.head.is_empty() {
                last_vector(r, &framed(input.head, Align::End, R::VECTOR.boundary))
            } else {
                r.boundary
            };
            Before {
                bytes,
                marker_bits: r.zero,
            }
        }
    };
}
pub(crate) use skip_test;
