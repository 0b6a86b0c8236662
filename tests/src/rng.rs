//! The suites' random numbers: SplitMix64 (Steele, Lea and Flood), seeded,
//! so that a failure names the seed that reproduces it; and the bytes made
//! from them that the suites of several crates feed their checks.
//!
//! Uses nothing but std, so that utf8-spec's suites, which are built
//! without the macro that this crate's other modules need, include it by
//! path.

/// A SplitMix64 generator: every seed, 0 included, starts a sequence of
/// the full period.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The generator whose sequence `seed` names.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`; `n` is not 0.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True once in `one_in` calls, on average.
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    /// `len` bytes that hit every kind of error often: half of them
    /// continuation bytes (`80`–`BF`), so that sequences of every length
    /// complete often enough to be valid now and then, and the other half
    /// any byte.
    pub fn error_prone_bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| {
                let bits = self.next_u64();
                let byte = (bits >> 24) as u8;
                if bits & 1 == 0 {
                    0x80 | (byte & 0x3F)
                } else {
                    byte
                }
            })
            .collect()
    }
}
