//! Registers and tables: the ruleset's tables and thresholds as vectors, made once per call,
//! and the proof that the CPU has the level's target feature.

/// The tables in registers: `Registers`, `Before`, the end thresholds, `registers`, and
/// the one place where input bytes become vectors (`Registers::load`).
macro_rules! registers_and_tables {
    () => {
        /// The ruleset's tables in registers, and the proof that this CPU has
        /// the module's target feature.
        struct Registers {
            sets: [[V; 4]; 2],
            must_continue: [V; 4],
            incomplete: V,
            /// `incomplete`'s thresholds for the vector that starts
            /// [`REACH`] bytes before a block: see [`open_before_window`].
            incomplete_before_block: V,
            high_bit: V,
            zero: V,
            boundary: V,
            /// The pairing term's lead bit in every lane.
            lead: V,
            /// Every bit but the lead marker's.
            not_lead: V,
            /// Every bit but the two markers'.
            not_markers: V,
            /// The lead bit in a vector's last `distance` lanes, where a
            /// lead marker still waits for its trail at the vector's end.
            pending: V,
            /// All ones but in a vector's first [`look_back`] lanes: the
            /// lanes whose check does not depend on what the vector follows.
            fresh: V,
        }

        /// The vector before the one being checked, and its pair bits in
        /// the table set of the pairing term's markers (zero without one):
        /// what a check carries from one vector to the next.
        #[derive(Clone, Copy)]
        struct Before {
            bytes: V,
            marker_bits: V,
        }

        /// The thresholds of `open_after` for a vector whose lane `end - k`
        /// is the byte `k` bytes before the end of what it tests (`end` is
        /// `LANES` for a vector's own end, `REACH` for a block read from its
        /// window): `byte - threshold` is nonzero exactly where that byte
        /// leaves a sequence open; 0xFF, which nothing exceeds, elsewhere.
        const fn incomplete_thresholds<R: VectorLanguage>(end: usize) -> [u8; V::LANES] {
            let mut max = [0xFFu8; V::LANES];
            let frame = if R::VECTOR.max_sequence_len > 0 {
                R::VECTOR.max_sequence_len - 1
            } else {
                0
            };
            assert!(frame <= end && end <= V::LANES);
            let mut k = 1;
            while k <= frame {
                // What `open_after` relies on: the boundary byte, and the
                // skippable bytes (`%x00-7F` at most), open nothing.
                assert!(R::VECTOR.incomplete[k - 1] > R::VECTOR.boundary);
                assert!(!R::VECTOR.ascii_skip || R::VECTOR.incomplete[k - 1] > 0x7F);
                // `byte > threshold - 1` is `byte >= threshold`.
                max[end - k] = R::VECTOR.incomplete[k - 1] - 1;
                k += 1;
            }
            max
        }

        /// # Safety
        /// The CPU must support this module's target feature.
        #[inline(always)]
        unsafe fn registers<R: VectorLanguage>() -> Registers {
            let incomplete = const { incomplete_thresholds::<R>(V::LANES) };
            let incomplete_before_block = const { incomplete_thresholds::<R>(REACH) };
            let pending = const {
                let mut lanes = [0u8; V::LANES];
                let mut k = 1;
                while k <= R::VECTOR.pairing.distance
                    && matches!(R::VECTOR.pairing.rule, PairRule::Required)
                {
                    lanes[V::LANES - k] = R::VECTOR.pairing.lead_bit;
                    k += 1;
                }
                lanes
            };
            let fresh = const {
                let mut lanes = [0xFFu8; V::LANES];
                let mut k = 0;
                while k < look_back::<R>() {
                    lanes[k] = 0;
                    k += 1;
                }
                lanes
            };
            let lead = R::VECTOR.pairing.lead_bit;
            let t = &R::VECTOR.tables;
            // `byte - (threshold - 0x80)`, saturating, has its high bit set
            // exactly when byte >= threshold.
            let must_continue = |k: usize| R::VECTOR.must_continue[k].wrapping_sub(0x80);
            // SAFETY: the caller promises the target feature, which is all the
            // constructors need; every reference they read is a whole array.
            unsafe {
                Registers {
                    sets: [
                        [
                            V::table(&t[0][0]),
                            V::table(&t[0][1]),
                            V::table(&t[0][2]),
                            V::table(&t[0][3]),
                        ],
                        [
                            V::table(&t[1][0]),
                            V::table(&t[1][1]),
                            V::table(&t[1][2]),
                            V::table(&t[1][3]),
                        ],
                    ],
                    must_continue: [
                        V::splat(must_continue(0)),
                        V::splat(must_continue(1)),
                        V::splat(must_continue(2)),
                        V::splat(must_continue(3)),
                    ],
                    incomplete: V::load(&incomplete),
                    incomplete_before_block: V::load(&incomplete_before_block),
                    high_bit: V::splat(0x80),
                    zero: V::splat(0),
                    boundary: V::splat(R::VECTOR.boundary),
                    lead: V::splat(lead),
                    not_lead: V::splat(!lead),
                    not_markers: V::splat(!(lead | lead << 1)),
                    pending: V::load(&pending),
                    fresh: V::load(&fresh),
                }
            }
        }

        impl Registers {
            /// The vector of `bytes`: a reference to exactly one vector's width.
            #[inline(always)]
            fn load(&self, bytes: &[u8; V::LANES]) -> V {
                // SAFETY: `self` exists only where the CPU has the target
                // feature (see `registers`), and `bytes` is valid for the
                // `LANES` bytes the load reads.
                unsafe { V::load(bytes) }
            }

            /// Asks the cache for the line at `address`, which need not lie
            /// inside the input or any allocation (`PREFETCHT0`: a hint,
            /// which makes no byte visible to the program and cannot fault).
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            #[inline(always)]
            fn prefetch(&self, address: *const u8) {
                #[cfg(target_arch = "x86")]
                use core::arch::x86::{_MM_HINT_T0, _mm_prefetch};
                #[cfg(target_arch = "x86_64")]
                use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                // SAFETY: `self` exists only where the CPU has the target
                // feature (see `registers`), SSE4.1 or more, which implies
                // the SSE that the instruction needs; it is a hint that
                // reads nothing into the program and never faults, whatever
                // the address.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast()) }
            }
        }
    };
}
pub(crate) use registers_and_tables;
