//! What both targets share: the input at a chosen address modulo 64, and
//! errors as plain numbers.

/// `(valid_up_to, error_len)`, or `Ok`: what every path must agree on.
pub type Verdict = Result<(), (usize, Option<usize>)>;

pub fn verdict(result: Result<(), utf8_core::Utf8Error>) -> Verdict {
    result.map_err(|e| (e.valid_up_to(), e.error_len()))
}

/// The vector check works on 64-byte blocks and aligns its main loop to
/// 64-byte addresses, so where the input starts within a block matters.
pub const BLOCK: usize = 64;

/// Splits the fuzzer's bytes into an alignment (the first byte, modulo 64)
/// and the input (the rest), and copies the input to an address that is that
/// alignment past a multiple of 64. libFuzzer's own buffer is a fresh heap
/// allocation, aligned the same way every time; this lets the fuzzer choose.
pub fn with_alignment(data: &[u8], check: impl FnOnce(&[u8], usize)) {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let alignment = usize::from(first) % BLOCK;
    let mut storage = vec![0x80u8; input.len() + 2 * BLOCK];
    let base = (BLOCK - storage.as_ptr() as usize % BLOCK) % BLOCK;
    let start = base + alignment;
    storage[start..start + input.len()].copy_from_slice(input);
    let placed = &storage[start..start + input.len()];
    assert_eq!(placed.as_ptr() as usize % BLOCK, alignment);
    check(placed, alignment);
}
