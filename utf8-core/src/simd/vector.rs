//! The operations the check is written in (`algorithm!` and its stages),
//! written once as a trait that each level's vector type implements with
//! its own instructions: `x86/avx512.rs`, `x86/avx2.rs`, `x86/sse41.rs` and
//! `neon.rs`, each a `V` of its width.
//!
//! A `V` is made only by the `unsafe` constructors ([`Vector::load`],
//! [`Vector::splat`], [`Vector::table`] and a level's own), which need the
//! CPU to have the level's target feature; every operation on a `V` is
//! therefore safe to call, and each `unsafe` block in an implementation
//! names that reason. Every method is `#[inline(always)]` in every
//! implementation, so that it is compiled into its caller, which runs with
//! the target feature enabled: the trait adds no call and no dispatch
//! (each level's `algorithm!` names its own `V`).

/// A vector of [`LANES`](Vector::LANES) bytes and what the check does with
/// it: lane-wise logic and arithmetic on bytes, nibble lookups in 16-entry
/// tables, the bytes before it, and the tests that end a step.
pub(crate) trait Vector: Copy {
    /// The bytes a vector holds.
    const LANES: usize;
    /// The array [`load`](Vector::load) reads: `[u8; LANES]`.
    type Bytes;
    /// Whether the check loads the bytes before each vector where they lie
    /// (fewer shuffles; each level's constant says what it measured)
    /// rather than shifting them out of the vector before with
    /// [`prev`](Vector::prev), carried in a register.
    const PRIOR_BY_LOADS: bool;
    /// Whether the loop over a run of ASCII takes two blocks a turn, each
    /// tested on its own.
    const RUN_TWO_BLOCKS_A_TURN: bool;

    /// The vector of `bytes`.
    ///
    /// # Safety
    /// The CPU must support the level's target feature.
    unsafe fn load(bytes: &Self::Bytes) -> Self;
    /// `byte` in every lane.
    ///
    /// # Safety
    /// The CPU must support the level's target feature.
    unsafe fn splat(byte: u8) -> Self;
    /// A 16-entry table in every 128-bit lane, as
    /// [`lookup`](Vector::lookup) indexes it within each.
    ///
    /// # Safety
    /// The CPU must support the level's target feature.
    unsafe fn table(entries: &[u8; 16]) -> Self;

    /// The bytes `n` (1..=5) positions back: `before`'s last `n` then
    /// `self`'s first `LANES - n`.
    fn prev(self, before: Self, n: usize) -> Self;
    fn or(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    /// Each lane's high four bits, as a number 0..=15.
    fn high_nibbles(self) -> Self;
    /// Each lane's low four bits, as a number 0..=15.
    fn low_nibbles(self) -> Self;
    /// `self[index[i]]` for each lane, `self` a [`table`](Vector::table);
    /// indices are nibbles.
    fn lookup(self, index: Self) -> Self;
    /// Lane-wise `self - other` on unsigned bytes, 0 where it would go
    /// below.
    fn saturating_sub(self, other: Self) -> Self;
    /// Lane-wise wrapping addition: `x.add(x)` doubles each lane, moving
    /// every bit one place up without crossing lanes.
    fn add(self, other: Self) -> Self;
    /// Whether every lane is below `80`.
    fn is_ascii(self) -> bool;
    /// The smaller of each pair of lanes, read as signed bytes.
    fn min_signed(self, other: Self) -> Self;
    /// Whether every lane, read as a signed byte, is at least `floor`
    /// (0..=127): every byte lies in `floor..=0x7F`.
    fn all_in_ascii_from(self, floor: u8) -> bool;
    /// Whether any lane is not zero.
    fn any(self) -> bool;
    /// The index of the first lane that is not zero; `LANES` if none.
    fn first_nonzero(self) -> usize;
}
