//! `check -r` over a tree of many small files. There each file's system
//! calls (open, size, read, close) cost more than its check, and one thread
//! making them in turn leaves the other cores idle. So the files a walk
//! found are opened, read and checked on all cores, a window of them at a
//! time, ahead of their turn. A valid file leaves only its size behind;
//! an invalid one keeps its bytes, and is reported at its turn, in order,
//! from memory, by the same pass that reports any input.
//!
//! Only files found under a directory are read ahead. The walk saw them as
//! regular files, and they are opened without waiting (`O_NONBLOCK`), so
//! one replaced by a FIFO meanwhile does not hold the window up waiting for
//! a writer. A FIFO named on the command line is opened at its turn, after
//! the inputs before it were read, as its writer may expect. A file that is
//! not regular when it is opened, or is larger than [`READ_AHEAD_AT_MOST`],
//! is opened again at its turn and read as any other input is (a large one
//! on all cores).
//!
//! A file read ahead is read in one call that asks for one byte more than
//! its size: a read that returns exactly its size found the end there. One
//! read has no "meanwhile" for the file to change in, so the file needs no
//! second look at its size and time. Any other count (it grew or shrank
//! since it was opened, or it is a kernel file whose size is not its
//! length) sends it back to be read at its turn, which reports the change.

use std::cell::RefCell;
use std::fs::File;
use std::ops::ControlFlow;
use std::path::Path;

use rayon::prelude::*;
#[cfg(unix)]
use rustix::fs::{Mode, OFlags};
#[cfg(unix)]
use std::{ffi::OsStr, os::fd::OwnedFd};

use crate::input::{Input, is_parquet_magic};
use crate::walk::BINARY_PROBE;

/// The largest file read ahead: 64 KiB. Its system calls then cost about as
/// much as its check; larger files gain little from being read ahead and
/// would hold more memory.
pub const READ_AHEAD_AT_MOST: u64 = 64 << 10;

/// How many inputs are read ahead at a time: enough to keep every core
/// busy between two waits, few enough that the bytes held stay bounded
/// (at most 16 MiB, invalid files of [`READ_AHEAD_AT_MOST`]) and so do the
/// files open at once (one per thread).
pub const WINDOW: usize = 256;

/// An input to read ahead, and what to look for in it.
pub struct ToRead<'a> {
    pub path: &'a Path,
    /// Whether a binary file (a NUL byte among its first bytes) is skipped.
    pub skip_binary: bool,
    /// Whether a file that starts and ends with `PAR1` is a Parquet file,
    /// to be read by the Parquet reader.
    pub sniff_parquet: bool,
}

/// What reading an input ahead gave.
pub enum Ahead {
    /// Nothing to report: the file is valid, or binary and skipped.
    Passed {
        /// The bytes read, as its check counts them (none, if skipped).
        len: u64,
        binary: bool,
    },
    /// The whole file, in memory, to be checked at its turn: it is invalid,
    /// or a Parquet file.
    Read(Input),
    /// A one-line message: the file cannot be opened or read.
    Failed(String),
    /// Nothing: the input is opened and read at its turn.
    AtItsTurn,
}

/// Calls `check` on each of `items` in order, with what reading it ahead
/// gave, up to the first `Break`. Those for which `wanted` says so are read
/// ahead and checked by `is_valid`: the next window's on the pool's threads
/// while this thread reports on the current one and takes the window after
/// from `items` (a walk, which so goes on beside the reads).
pub fn in_windows<T: Sync + Send, B>(
    mut items: impl Iterator<Item = T>,
    wanted: impl Fn(&T) -> Option<ToRead<'_>> + Sync,
    is_valid: impl Fn(&[u8]) -> bool + Sync,
    mut check: impl FnMut(&T, Ahead) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let read = |item: &T| wanted(item).map_or(Ahead::AtItsTurn, |w| read_ahead(&w, &is_valid));
    // With one thread there is no one to read ahead: each file is read at
    // its turn, in the same one read, on this thread.
    if rayon::current_num_threads() < 2 {
        return items.try_for_each(|item| {
            let ahead = read(&item);
            check(&item, ahead)
        });
    }
    let read_window = |window: &[T]| -> Vec<Ahead> { window.par_iter().map(&read).collect() };
    let mut take_window = || -> Vec<T> { items.by_ref().take(WINDOW).collect() };
    let mut window = take_window();
    let mut ahead = read_window(&window);
    let mut next = take_window();
    while !window.is_empty() {
        let mut next_ahead = Vec::new();
        let mut after_next = Vec::new();
        rayon::in_place_scope(|scope| {
            let (next, next_ahead, read_window) = (&next, &mut next_ahead, &read_window);
            scope.spawn(move |_| *next_ahead = read_window(next));
            window
                .iter()
                .zip(ahead)
                .try_for_each(|(item, ahead)| check(item, ahead))?;
            after_next = take_window();
            ControlFlow::Continue(())
        })?;
        (window, ahead, next) = (next, next_ahead, after_next);
    }
    ControlFlow::Continue(())
}

thread_local! {
    /// Each thread's buffer for the files it reads ahead: a valid file is
    /// checked where it was read, and costs no allocation.
    static BUFFER: RefCell<Vec<u8>> = RefCell::new(vec![0; READ_AHEAD_AT_MOST as usize + 1]);
}

/// Reads and checks the file `wanted` names, if it is a regular file of at
/// most [`READ_AHEAD_AT_MOST`] bytes that keeps its size while it is read.
fn read_ahead(wanted: &ToRead<'_>, is_valid: &impl Fn(&[u8]) -> bool) -> Ahead {
    let path = wanted.path;
    let cannot = |e: std::io::Error| Ahead::Failed(format!("cannot read {}: {e}", path.display()));
    let file = match open_without_waiting(path) {
        Ok(file) => file,
        Err(e) => return cannot(e),
    };
    let len = match file.metadata() {
        Ok(metadata) if metadata.is_file() && metadata.len() <= READ_AHEAD_AT_MOST => {
            metadata.len() as usize
        }
        Ok(_) => return Ahead::AtItsTurn,
        Err(e) => return cannot(e),
    };
    BUFFER.with_borrow_mut(|buffer| match read_once(&file, &mut buffer[..=len]) {
        Ok(read) if read == len => judge(wanted, &buffer[..len], is_valid),
        Ok(_) => Ahead::AtItsTurn,
        Err(e) => cannot(e),
    })
}

/// What the whole file `bytes` needs at its turn.
fn judge(wanted: &ToRead<'_>, bytes: &[u8], is_valid: &impl Fn(&[u8]) -> bool) -> Ahead {
    if wanted.sniff_parquet && is_parquet_magic(bytes) {
        return Ahead::Read(Input::read_ahead(wanted.path, bytes.to_vec()));
    }
    let probe = &bytes[..bytes.len().min(BINARY_PROBE)];
    if wanted.skip_binary && memchr::memchr(0, probe).is_some() {
        return Ahead::Passed {
            len: 0,
            binary: true,
        };
    }
    if is_valid(bytes) {
        Ahead::Passed {
            len: bytes.len() as u64,
            binary: false,
        }
    } else {
        Ahead::Read(Input::read_ahead(wanted.path, bytes.to_vec()))
    }
}

/// Opens a file the walk found, without waiting on a FIFO that replaced it.
///
/// On Unix the name is opened in its directory (`openat`), kept open by
/// each thread for the next file: a walk's files come a directory at a
/// time, and a path opened whole is looked up again from the working
/// directory, a component at a time (a sixteenth of the kernel's time over
/// 50,000 small files in 500 folders, on one thread of an AMD EPYC Zen 3).
/// As with grep's walk, a directory replaced while its files are read is
/// read as it was when the first was opened; a directory that cannot be
/// opened, and a name that fails in it (it may be one the replacement
/// added), are opened by path, whose answer is the one reported.
#[cfg(unix)]
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    use std::os::unix::ffi::OsStrExt as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let by_path = || {
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
    };
    let bytes = path.as_os_str().as_bytes();
    let Some(slash) = memchr::memrchr(b'/', bytes) else {
        return by_path();
    };
    let (directory, name) = (&bytes[..slash.max(1)], &bytes[slash + 1..]);
    if matches!(name, b"" | b"." | b"..") {
        return by_path();
    }
    OPEN_DIRECTORY
        .with_borrow_mut(|open| {
            let fd = match open {
                Some((at, fd)) if at.as_slice() == directory => fd,
                _ => {
                    let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
                    let fd = rustix::fs::open(OsStr::from_bytes(directory), flags, Mode::empty())
                        .ok()?;
                    &open.insert((directory.to_vec(), fd)).1
                }
            };
            let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
            let file = rustix::fs::openat(fd, OsStr::from_bytes(name), flags, Mode::empty());
            file.ok().map(File::from)
        })
        .map_or_else(by_path, Ok)
}

#[cfg(unix)]
thread_local! {
    /// The directory of the last file this thread opened, by its path's
    /// bytes, and open: one descriptor a thread.
    static OPEN_DIRECTORY: RefCell<Option<(Vec<u8>, OwnedFd)>> = const { RefCell::new(None) };
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

/// One read from the file's start, retried only if a signal interrupted it.
fn read_once(file: &File, bytes: &mut [u8]) -> std::io::Result<usize> {
    loop {
        #[cfg(unix)]
        let read = std::os::unix::fs::FileExt::read_at(file, bytes, 0);
        #[cfg(not(unix))]
        let read = std::io::Read::read(&mut &*file, bytes);
        match read {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            read => return read,
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::open_without_waiting;
    use std::io::Read as _;
    use std::path::Path;

    fn read(path: &Path) -> std::io::Result<String> {
        let mut text = String::new();
        open_without_waiting(path)?.read_to_string(&mut text)?;
        Ok(text)
    }

    #[test]
    fn files_opened_in_their_directory_are_the_files_their_paths_name() {
        let tree = tempfile::tempdir().unwrap();
        for directory in ["a", "b", "a/b"] {
            std::fs::create_dir(tree.path().join(directory)).unwrap();
        }
        for file in ["a/x", "a/y", "b/x", "a/b/x"] {
            std::fs::write(tree.path().join(file), file).unwrap();
        }
        // In turns between directories, and back to one opened before.
        for file in ["a/x", "b/x", "a/y", "a/b/x", "a/x", "a/x"] {
            assert_eq!(read(&tree.path().join(file)).unwrap(), file);
        }
        // A name relative to the working directory, and one under `/`.
        assert!(read(Path::new("Cargo.toml")).unwrap().contains("utf8-cli"));
        assert!(read(Path::new("/dev/null")).unwrap().is_empty());
    }

    #[test]
    fn a_directory_replaced_while_its_files_are_read_is_read_as_it_was() {
        let tree = tempfile::tempdir().unwrap();
        let directory = tree.path().join("d");
        std::fs::create_dir(&directory).unwrap();
        std::fs::write(directory.join("old"), "old").unwrap();
        assert_eq!(read(&directory.join("old")).unwrap(), "old");
        std::fs::rename(&directory, tree.path().join("gone")).unwrap();
        std::fs::create_dir(&directory).unwrap();
        std::fs::write(directory.join("new"), "new").unwrap();
        std::fs::write(directory.join("old"), "replaced").unwrap();
        // A name the directory opened first still holds is read there, as
        // the walk found it; one it lacks is opened by path.
        assert_eq!(read(&directory.join("old")).unwrap(), "old");
        assert_eq!(read(&directory.join("new")).unwrap(), "new");
    }

    #[test]
    fn a_missing_file_is_the_error_of_its_path() {
        let tree = tempfile::tempdir().unwrap();
        let missing = tree.path().join("nothing-here");
        let e = read(&missing).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
        std::fs::create_dir(&missing).unwrap();
        assert!(read(&missing.join("x")).is_err());
    }
}
