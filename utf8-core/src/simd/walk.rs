//! The main loop's steps: the blocks it walks, where it is, a step, a group's test, and
//! the pass over a run of skippable blocks.

/// The main loop's steps: `Walked`, `Walk` and its steps, `open_before`, `after_run`.
macro_rules! walk_steps {
    () => {
        /// The blocks the main loop walks: the body's from `first_block`
        /// (`rest`), their windows where the check loads from them, and the
        /// bound of the offsets of both.
        struct Walked<'a> {
            rest: &'a [[u8; BLOCK]],
            preceded: Preceded<'a>,
            offsets_below: usize,
            first_block: usize,
        }

        impl<'a> Walked<'a> {
            /// The block `at` bytes in.
            #[inline(always)]
            fn block(&self, at: usize) -> &'a [u8; BLOCK] {
                body_block(self.rest, &self.preceded, at)
            }

            /// The body's block number of the block `at` bytes in.
            #[inline(always)]
            fn number(&self, at: usize) -> usize {
                self.first_block + at / BLOCK
            }
        }

        /// Where the main loop is: the offset of its next block, the error
        /// bits of the blocks checked since the last test, what the next
        /// block follows (carried only where it is not read again from
        /// memory), and where the blocks since the last test start.
        #[derive(Clone, Copy)]
        struct Walk {
            at: usize,
            error: V,
            before: Before,
            group_start: usize,
            group_before: Before,
        }

        impl Walk {
            /// Whether the block before the next one, and so what that one
            /// follows, is read again from memory instead of carried.
            const fn reads_before_again<R: VectorLanguage>() -> bool {
                V::PRIOR_BY_LOADS && matches!(R::VECTOR.pairing.rule, PairRule::None)
            }

            /// What follows at `at`: the end of the blocks, a skippable block
            /// (a run), or one to check.
            #[inline(always)]
            fn next<R: VectorLanguage>(&self, r: &Registers, blocks: &Walked<'_>) -> After {
                if self.at >= blocks.offsets_below {
                    After::End
                } else if R::VECTOR.ascii_skip && is_skippable::<R>(r, blocks.block(self.at)) {
                    After::Run
                } else {
                    After::Check
                }
            }

            /// Checks the block at `at` (known not to be skippable) and moves
            /// past it.
            #[inline(always)]
            fn check<R: VectorLanguage>(&mut self, r: &Registers, blocks: &Walked<'_>) {
                let checked =
                    check_body_block::<R>(r, blocks.rest, &blocks.preceded, self.at, self.before);
                self.error = self.error.or(checked.error);
                if !Self::reads_before_again::<R>() {
                    self.before = checked.last;
                }
                self.at += BLOCK;
            }

            /// [`check`](Self::check), and what follows.
            #[inline(always)]
            fn step<R: VectorLanguage>(&mut self, r: &Registers, blocks: &Walked<'_>) -> After {
                self.check::<R>(r, blocks);
                self.next::<R>(r, blocks)
            }

            /// A step within a group of blocks: whether the group goes on,
            /// or ends (at a run, which is then passed, or at the end).
            #[inline(always)]
            fn group_step<R: VectorLanguage>(
                &mut self,
                r: &Registers,
                input: &Blocks<'_>,
                blocks: &Walked<'_>,
            ) -> Result<Flow, usize> {
                Ok(match self.step::<R>(r, blocks) {
                    After::Check => Flow::Next,
                    After::Run => {
                        self.run::<R>(r, input, blocks)?;
                        Flow::Restart
                    }
                    After::End => Flow::End,
                })
            }

            /// Passes the run of skippable blocks at `at`, after testing
            /// what has been checked since the last test: ASCII reads to the
            /// check like boundary bytes, so all that can fail in a run of
            /// it is a sequence left open before the run.
            #[inline(always)]
            fn run<R: VectorLanguage>(
                &mut self,
                r: &Registers,
                input: &Blocks<'_>,
                blocks: &Walked<'_>,
            ) -> Result<(), usize> {
                let open = open_before::<R>(r, &blocks.preceded, self.at, self.before);
                if self.error.or(open).any() {
                    return Err(self.first_error::<R>(r, input, blocks));
                }
                self.error = r.zero;
                self.at = after_run::<R>(r, blocks.rest, self.at);
                if !Self::reads_before_again::<R>() {
                    self.before = after_skipped(r, last_vector(r, blocks.block(self.at - BLOCK)));
                }
                Ok(())
            }

            /// Tests the error bits of the blocks checked since the last
            /// test.
            #[inline(always)]
            fn test_group<R: VectorLanguage>(
                &mut self,
                r: &Registers,
                input: &Blocks<'_>,
                blocks: &Walked<'_>,
            ) -> Result<(), usize> {
                if self.error.any() {
                    return Err(self.first_error::<R>(r, input, blocks));
                }
                self.error = r.zero;
                Ok(())
            }

            /// Where the check first errs in the blocks since the last test.
            #[inline(always)]
            fn first_error<R: VectorLanguage>(
                &self,
                r: &Registers,
                input: &Blocks<'_>,
                blocks: &Walked<'_>,
            ) -> usize {
                let (from, to) = (blocks.number(self.group_start), blocks.number(self.at));
                // Without a pairing term `first_error` reads what the group
                // follows again from memory; not passing `group_before` then
                // keeps it out of the loop's registers.
                let before = if matches!(R::VECTOR.pairing.rule, PairRule::None) {
                    after_skipped(r, r.zero)
                } else {
                    self.group_before
                };
                // SAFETY: a `Registers` exists only where the CPU has the
                // module's target feature (see `registers`).
                unsafe { first_error::<R>(input, from, to, before) }
            }
        }

        /// Whether a sequence is left open before the skippable block `at`
        /// bytes into the main loop's blocks, which follows `before` (kept
        /// only where it is not read again from memory: see
        /// [`open_before_window`]).
        #[inline(always)]
        fn open_before<R: VectorLanguage>(
            r: &Registers,
            preceded: &Preceded<'_>,
            at: usize,
            before: Before,
        ) -> V {
            if Walk::reads_before_again::<R>() {
                open_before_window::<R>(r, preceded.window(at))
            } else {
                open_after::<R>(r, before)
            }
        }

        /// Where the run of skippable blocks from `at` bytes into the main
        /// loop's blocks (`rest`) ends: at the first block after it that is
        /// not skippable (tested), or at the end of `rest`.
        ///
        /// The run's blocks are read as `rest`'s, by number, not through
        /// their windows: LLVM then does not keep the loads for the check
        /// of the block that ends the run, which cost register copies
        /// (SSE4.1) or an unfolded load (AVX-512) at every block of the run
        /// (AMD EPYC Zen 4 (family 25, model 17): 1 MiB of ASCII 10% slower).
        #[inline(always)]
        fn after_run<R: VectorLanguage>(r: &Registers, rest: &[[u8; BLOCK]], at: usize) -> usize {
            let mut next = at / BLOCK + 1;
            // Two blocks a turn where the level measured faster for it (see
            // `V::RUN_TWO_BLOCKS_A_TURN`), then the rest one a turn.
            if V::RUN_TWO_BLOCKS_A_TURN {
                while let Some(pair) = rest.get(next..next + 2) {
                    if !is_skippable::<R>(r, &pair[0]) {
                        return next * BLOCK;
                    }
                    if !is_skippable::<R>(r, &pair[1]) {
                        return (next + 1) * BLOCK;
                    }
                    next += 2;
                }
            }
            // One block a test: a test of two blocks at a time (one per 128
            // bytes) was measured and not kept: on the corpus (AVX2, same
            // CPU and binary) it ran `english` and `Latin-Lipsum` 3-8% faster
            // but the Latin-script texts with a few letters beyond ASCII to a
            // line, whose runs end within a block or two, 3-12% slower (and
            // again: the corpus 1.21x -> 1.15x simdutf8's AVX2 code with a
            // first block tested alone, then pairs).
            while next < rest.len() {
                let block = &rest[next];
                if !is_skippable::<R>(r, block) {
                    break;
                }
                // Inside a run of ASCII, a block further on is asked for,
                // where the level measured faster for it (see
                // `V::PREFETCH_BLOCKS_AHEAD`).
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                if V::PREFETCH_BLOCKS_AHEAD > 0 {
                    r.prefetch(
                        block
                            .as_ptr()
                            .wrapping_add(V::PREFETCH_BLOCKS_AHEAD * BLOCK),
                    );
                }
                next += 1;
            }
            next * BLOCK
        }

        /// The block `at` bytes into `rest` (the body's blocks from the main
        /// loop's first, whose windows `preceded` holds), checked after
        /// `before`: its bytes before each vector loaded where they lie, or
        /// shifted out of the vector before, whichever costs less on this
        /// instruction set.
        #[inline(always)]
        fn check_body_block<R: VectorLanguage>(
            r: &Registers,
            rest: &[[u8; BLOCK]],
            preceded: &Preceded<'_>,
            at: usize,
            before: Before,
        ) -> Checked {
            if V::PRIOR_BY_LOADS {
                check_preceded_block::<R>(r, preceded.window(at), before)
            } else {
                check_block::<R>(r, &rest[at / BLOCK], before)
            }
        }

        /// The block `at` bytes into `rest`, as the main loop reads it: from
        /// its [`Preceded::window`] where the check loads from it, so that
        /// the skip test's loads are the check's.
        #[inline(always)]
        fn body_block<'a>(
            rest: &'a [[u8; BLOCK]],
            preceded: &Preceded<'a>,
            at: usize,
        ) -> &'a [u8; BLOCK] {
            if V::PRIOR_BY_LOADS {
                block_of(preceded.window(at))
            } else {
                &rest[at / BLOCK]
            }
        }
    };
}
pub(crate) use walk_steps;
