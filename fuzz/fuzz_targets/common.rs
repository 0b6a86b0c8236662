//! What the targets share: the input at an address the fuzzer chooses, in
//! memory that ends where the input ends, and errors as plain numbers.

// Each target includes this module and uses only part of it.
#![allow(dead_code, unused_imports)]

use std::alloc::{self, Layout};
use std::ptr::NonNull;

pub use utf8_tests::oracles::{Verdict, verdict};

/// The vector check works on 64-byte blocks and aligns its main loop to
/// 64-byte addresses, so where the input starts within a block matters.
pub const BLOCK: usize = 64;

/// A copy of an input in a heap allocation of its own that starts on a
/// 64-byte boundary, with the input `alignment` bytes in and reaching to the
/// allocation's last byte: AddressSanitizer reports a read even one byte
/// past the end. Under AddressSanitizer the bytes before the input are
/// poisoned too, as far as its 8-byte granules allow: before an input at an
/// address that is not a multiple of 8, the bytes of its first granule that
/// precede it stay readable (and read as 0x80, a stray continuation byte).
pub struct Placed {
    /// `None` for an empty input at alignment 0, which needs no memory.
    allocation: Option<(NonNull<u8>, Layout)>,
    alignment: usize,
    len: usize,
}

impl Placed {
    pub fn new(input: &[u8], alignment: usize) -> Placed {
        assert!(alignment < BLOCK);
        let size = alignment + input.len();
        if size == 0 {
            return Placed {
                allocation: None,
                alignment,
                len: 0,
            };
        }
        let layout = Layout::from_size_align(size, BLOCK).expect("a small layout");
        // SAFETY: `layout` has a nonzero size.
        let raw = unsafe { alloc::alloc(layout) };
        let Some(ptr) = NonNull::new(raw) else {
            alloc::handle_alloc_error(layout);
        };
        // SAFETY: the allocation is `alignment + input.len()` bytes long and
        // fresh, so it does not overlap `input`.
        unsafe {
            ptr.as_ptr().write_bytes(0x80, alignment);
            ptr.as_ptr()
                .add(alignment)
                .copy_from_nonoverlapping(input.as_ptr(), input.len());
        }
        asan::poison(ptr.as_ptr(), alignment);
        let placed = Placed {
            allocation: Some((ptr, layout)),
            alignment,
            len: input.len(),
        };
        assert_eq!(placed.bytes().as_ptr() as usize % BLOCK, alignment);
        placed
    }

    pub fn bytes(&self) -> &[u8] {
        match self.allocation {
            // SAFETY: the allocation holds the input from `alignment` on, and
            // `&self` keeps it alive and unchanged.
            Some((ptr, _)) => unsafe {
                std::slice::from_raw_parts(ptr.as_ptr().add(self.alignment), self.len)
            },
            None => &[],
        }
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        match self.allocation {
            // SAFETY: as in `bytes`, and `&mut self` makes the borrow unique.
            Some((ptr, _)) => unsafe {
                std::slice::from_raw_parts_mut(ptr.as_ptr().add(self.alignment), self.len)
            },
            None => &mut [],
        }
    }
}

impl Drop for Placed {
    fn drop(&mut self) {
        if let Some((ptr, layout)) = self.allocation {
            asan::unpoison(ptr.as_ptr(), self.alignment);
            // SAFETY: allocated in `new` with this layout, freed only here.
            unsafe { alloc::dealloc(ptr.as_ptr(), layout) };
        }
    }
}

/// Splits the fuzzer's bytes into an alignment (the first byte, modulo 64)
/// and the input (the rest), and runs `check` on the input placed at that
/// alignment. libFuzzer's own buffer is a fresh heap allocation, aligned the
/// same way every time; this lets the fuzzer choose.
pub fn with_alignment(data: &[u8], check: impl FnOnce(&[u8], usize)) {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let alignment = usize::from(first) % BLOCK;
    let placed = Placed::new(input, alignment);
    check(placed.bytes(), alignment);
}

/// AddressSanitizer's interface for marking memory unreadable, where the
/// target is built with it (`build.rs` sets `fuzzing_asan`); nothing without.
#[cfg(fuzzing_asan)]
mod asan {
    unsafe extern "C" {
        fn __asan_poison_memory_region(addr: *const u8, size: usize);
        fn __asan_unpoison_memory_region(addr: *const u8, size: usize);
    }

    pub fn poison(addr: *const u8, size: usize) {
        // SAFETY: only marks memory of an allocation the caller owns.
        unsafe { __asan_poison_memory_region(addr, size) }
    }

    pub fn unpoison(addr: *const u8, size: usize) {
        // SAFETY: as in `poison`.
        unsafe { __asan_unpoison_memory_region(addr, size) }
    }
}

#[cfg(not(fuzzing_asan))]
mod asan {
    pub fn poison(_: *const u8, _: usize) {}
    pub fn unpoison(_: *const u8, _: usize) {}
}
