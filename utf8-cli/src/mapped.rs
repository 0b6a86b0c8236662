//! A regular file's bytes seen through a read-only memory map, for `utf8
//! check` (Linux).
//!
//! Reading a file copies it out of the page cache: on one core that copy
//! takes as long as validating the bytes, so a command that reads checks at
//! about half the kernel's speed. A map hands the validator the page
//! cache's own pages.
//!
//! A map has two hazards, and both are answered here:
//!
//! - **Truncation.** A page past a file's new end, once another process
//!   truncates it, raises SIGBUS when touched, which kills a process that
//!   does not handle it. [`Mapping`] registers its range with a SIGBUS
//!   handler that, for an address inside a registered map, maps a page of
//!   zeros over the lost page and lets the load run again: the pass goes on
//!   to the end, and [`Mapping::lost_pages`] tells the command that the file
//!   changed, which it reports as it reports a file that changed while it
//!   was read. A fault anywhere else goes to the handler that was there
//!   before.
//! - **Bytes that change while they are read.** Another process writing the
//!   file changes the mapped bytes under the validator. No bound in the
//!   validators depends on the bytes (every load is within the slice, at an
//!   offset from the slice's length and the loop's index), so the
//!   consequence is an answer about a mix of old and new bytes, and the
//!   modification time, compared at the end as for a read, reports the
//!   change. This is the contract every tool that maps files works under
//!   (ripgrep's, for one); `utf8 check --no-mmap` reads instead.
//!
//! `fix` reads: it writes the bytes it took in, and a write from a page
//! that a truncation removed fails in the kernel (EFAULT), where no signal
//! handler can stand in.

#[cfg(target_os = "linux")]
pub use linux::Mapping;

/// No maps but on Linux: there is nothing of this type.
#[cfg(not(target_os = "linux"))]
pub enum Mapping {}

#[cfg(not(target_os = "linux"))]
impl Mapping {
    pub fn of(_: &std::fs::File, _: usize) -> std::io::Result<Option<Mapping>> {
        Ok(None)
    }

    pub fn bytes(&self) -> &[u8] {
        match *self {}
    }

    pub fn populate(&self, _: std::ops::Range<usize>) {
        match *self {}
    }

    pub fn lost_pages(&self) -> bool {
        match *self {}
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::c_void;
    use std::fs::File;
    use std::os::fd::AsRawFd;
    use std::ptr::NonNull;
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// How many maps may be registered with the handler at once: the
    /// command maps one input at a time; the tests map a few side by side.
    /// A map asked for beyond them is refused and the file is read.
    const SLOTS: usize = 16;

    /// A registered map: its address range, and whether a page of it was
    /// replaced. `start` is zero for a free slot.
    struct Slot {
        start: AtomicUsize,
        len: AtomicUsize,
        lost: AtomicBool,
    }

    #[allow(clippy::declare_interior_mutable_const)]
    const FREE: Slot = Slot {
        start: AtomicUsize::new(0),
        len: AtomicUsize::new(0),
        lost: AtomicBool::new(false),
    };

    static REGISTERED: [Slot; SLOTS] = [FREE; SLOTS];

    /// The SIGBUS disposition before ours, and the page size, set once
    /// before the handler is installed.
    struct Installed {
        previous: libc::sigaction,
        page: usize,
    }

    static INSTALLED: OnceLock<Option<Installed>> = OnceLock::new();

    /// A file mapped read-only, registered with the SIGBUS handler until it
    /// is dropped.
    pub struct Mapping {
        start: NonNull<u8>,
        len: usize,
        slot: usize,
    }

    // SAFETY: a `Mapping` is a read-only range of memory that lives until
    // its owner drops it: threads may read it side by side (`bytes`) and
    // ask for its pages (`populate`), and its registry slot is atomics.
    unsafe impl Send for Mapping {}
    // SAFETY: as for `Send`.
    unsafe impl Sync for Mapping {}

    impl Mapping {
        /// Maps the first `len` bytes of `file`. `None` if `len` is zero,
        /// if the handler could not be installed or if every slot is taken:
        /// then the file is to be read.
        pub fn of(file: &File, len: usize) -> std::io::Result<Option<Mapping>> {
            if len == 0 || install().is_none() {
                return Ok(None);
            }
            // SAFETY: a fresh shared read-only mapping at an address the
            // kernel chooses aliases no Rust object; the descriptor is open
            // for the call. `len` is not zero (above).
            let start = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ,
                    libc::MAP_SHARED,
                    file.as_raw_fd(),
                    0,
                )
            };
            if start == libc::MAP_FAILED {
                return Err(std::io::Error::last_os_error());
            }
            let start = NonNull::new(start.cast::<u8>()).expect("mmap never maps address zero");
            let Some(slot) = register(start.as_ptr() as usize, len) else {
                // SAFETY: the range was mapped just above and nothing refers
                // to it.
                unsafe { libc::munmap(start.as_ptr().cast(), len) };
                return Ok(None);
            };
            Ok(Some(Mapping { start, len, slot }))
        }

        /// The mapped bytes.
        pub fn bytes(&self) -> &[u8] {
            // SAFETY: `start..start + len` is mapped readable for as long
            // as `self` lives (it is unmapped only in `drop`), and every
            // page of it stays readable: a page the file loses to a
            // truncation is replaced by zeros in the SIGBUS handler. Bytes
            // that another process writes meanwhile change under the
            // slice; see the module's documentation for why no read leaves
            // the slice then and how the change is reported.
            unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
        }

        /// Asks the kernel to map the pages of `range` now, in one call,
        /// instead of one fault at a time as they are touched. Failures are
        /// ignored: a kernel before 5.14 has no `MADV_POPULATE_READ`, and
        /// a page past a truncation fails here and is handled when touched.
        pub fn populate(&self, range: std::ops::Range<usize>) {
            let page = installed().page;
            let first = range.start / page * page;
            let end = range.end.min(self.len);
            if first >= end {
                return;
            }
            // SAFETY: `first..end` lies inside the mapping (`end` is at most
            // its length) and starts on a page boundary, as madvise needs;
            // populating changes no byte of it.
            unsafe {
                libc::madvise(
                    self.start.as_ptr().add(first).cast(),
                    end - first,
                    libc::MADV_POPULATE_READ,
                );
            }
        }

        /// Whether a page of the map was lost to a truncation and read as
        /// zeros.
        pub fn lost_pages(&self) -> bool {
            REGISTERED[self.slot].lost.load(Ordering::SeqCst)
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            let slot = &REGISTERED[self.slot];
            slot.len.store(0, Ordering::SeqCst);
            slot.lost.store(false, Ordering::SeqCst);
            slot.start.store(0, Ordering::SeqCst);
            // SAFETY: the range was mapped by `Mapping::of` (pages the
            // handler replaced are part of it) and no slice of it outlives
            // `self`; it is no longer registered, so no fault is taken for
            // it.
            unsafe { libc::munmap(self.start.as_ptr().cast(), self.len) };
        }
    }

    /// Claims a free slot for `start..start + len`.
    fn register(start: usize, len: usize) -> Option<usize> {
        REGISTERED.iter().position(|slot| {
            let claimed = slot
                .start
                .compare_exchange(0, start, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok();
            if claimed {
                slot.lost.store(false, Ordering::SeqCst);
                slot.len.store(len, Ordering::SeqCst);
            }
            claimed
        })
    }

    fn installed() -> &'static Installed {
        INSTALLED
            .get()
            .and_then(Option::as_ref)
            .expect("a mapping exists only once the handler is installed")
    }

    /// Installs the SIGBUS handler once; `None` if it could not be.
    fn install() -> Option<&'static Installed> {
        INSTALLED
            .get_or_init(|| {
                // SAFETY: sysconf has no preconditions.
                let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
                let page = usize::try_from(page).ok().filter(|p| p.is_power_of_two())?;
                // SAFETY: an all-zero sigaction is a valid value of the C
                // struct (no handler, no flags, an empty mask); it is only
                // written by the query below.
                let mut previous: libc::sigaction = unsafe { std::mem::zeroed() };
                // SAFETY: a query (no new action) of SIGBUS's disposition
                // into a sigaction we own.
                if unsafe { libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut previous) } != 0 {
                    return None;
                }
                Some(Installed { previous, page })
            })
            .as_ref()
            .inspect(|_| set_handler())
    }

    /// Makes `on_sigbus` SIGBUS's handler, once `INSTALLED` holds what it
    /// needs.
    fn set_handler() {
        static SET: std::sync::Once = std::sync::Once::new();
        SET.call_once(|| {
            // SAFETY: as in `install`: all-zero is a valid sigaction.
            let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
            let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut c_void) = on_sigbus;
            action.sa_sigaction = handler as libc::sighandler_t;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            // SAFETY: `on_sigbus` has the three-argument signature that
            // SA_SIGINFO calls, and touches only atomics, the immutable
            // `Installed` and async-signal-safe system calls.
            unsafe {
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
            }
        });
    }

    /// SIGBUS: a page of a registered map is replaced by a page of zeros
    /// and the faulting load runs again; any other fault is handed back to
    /// the disposition there was before, by restoring it and returning, so
    /// that the fault happens again under it.
    extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut c_void) {
        // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO
        // handler, and SIGBUS carries the faulting address.
        let address = unsafe { (*info).si_addr() } as usize;
        let Some(installed) = INSTALLED.get().and_then(Option::as_ref) else {
            return;
        };
        for slot in &REGISTERED {
            let start = slot.start.load(Ordering::SeqCst);
            let len = slot.len.load(Ordering::SeqCst);
            if start == 0 || address.wrapping_sub(start) >= len {
                continue;
            }
            let page = address / installed.page * installed.page;
            // SAFETY: `page` is the page-aligned start of a page inside a
            // registered map, which its owner has not unmapped (it leaves
            // the registry first); MAP_FIXED replaces that page only, with
            // anonymous zeros, read-only as the map was. mmap is a system
            // call with no user-space state.
            let replaced = unsafe {
                libc::mmap(
                    page as *mut c_void,
                    installed.page,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if replaced != libc::MAP_FAILED {
                slot.lost.store(true, Ordering::SeqCst);
                return;
            }
        }
        // SAFETY: restores the disposition read by `install`, a valid
        // sigaction.
        unsafe { libc::sigaction(libc::SIGBUS, &installed.previous, std::ptr::null_mut()) };
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use std::io::Write;

        fn file_of(bytes: &[u8]) -> tempfile::NamedTempFile {
            let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
            file.write_all(bytes).expect("written");
            file
        }

        #[test]
        fn a_mapping_holds_the_files_bytes() {
            let bytes: Vec<u8> = (0..=255).cycle().take(3 * 4096 + 17).collect();
            let file = file_of(&bytes);
            let mapping = Mapping::of(file.as_file(), bytes.len())
                .expect("mapped")
                .expect("a slot");
            mapping.populate(5..bytes.len() + 4096);
            assert_eq!(mapping.bytes(), bytes);
            assert!(!mapping.lost_pages());
        }

        #[test]
        fn pages_lost_to_a_truncation_read_as_zeros_and_are_reported() {
            let page = 4096;
            let bytes = vec![b'a'; 5 * page];
            let file = file_of(&bytes);
            let mapping = Mapping::of(file.as_file(), bytes.len())
                .expect("mapped")
                .expect("a slot");
            file.as_file().set_len(page as u64 + 10).expect("truncated");
            // The pages past the new end, touched once more: each one would
            // raise SIGBUS, whose handler replaces it.
            let seen = mapping.bytes();
            assert!(seen[..page + 10].iter().all(|&b| b == b'a'));
            assert!(seen[2 * page..].iter().all(|&b| b == 0));
            assert!(mapping.lost_pages());
            // Another mapping of the same slot starts afresh.
            drop(mapping);
            let again = Mapping::of(file.as_file(), page)
                .expect("mapped")
                .expect("a slot");
            assert!(!again.lost_pages());
        }

        #[test]
        fn an_empty_file_is_not_mapped() {
            let file = file_of(b"");
            assert!(Mapping::of(file.as_file(), 0).expect("no error").is_none());
        }
    }
}
