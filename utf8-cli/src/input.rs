//! Reading an input named on the command line: a file, mapped into memory
//! when it is large, or standard input for `-`.

use std::fs::File;
use std::io::Read as _;
use std::ops::Deref;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

/// Files at least this large are mapped rather than read: below it a read
/// costs less than setting up a mapping and faulting its pages in.
const MAP_FROM: u64 = 1 << 20;

/// Where an input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    /// `-` is standard input, anything else a path.
    pub fn from_arg(arg: &Path) -> Source {
        if arg.as_os_str() == "-" {
            Source::Stdin
        } else {
            Source::File(arg.to_owned())
        }
    }

    /// How messages and reports name the input.
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(path) => path.display().to_string(),
        }
    }

    /// The input's size if it is known before reading: that of a regular file.
    pub fn size_hint(&self) -> Option<u64> {
        match self {
            Source::Stdin => None,
            Source::File(path) => std::fs::metadata(path)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len()),
        }
    }

    /// Reads or maps the whole input. The error is a one-line message.
    pub fn load(&self) -> Result<Contents, String> {
        match self {
            Source::Stdin => {
                let mut bytes = Vec::new();
                std::io::stdin()
                    .lock()
                    .read_to_end(&mut bytes)
                    .map_err(|e| format!("cannot read standard input: {e}"))?;
                Ok(Contents::Read(bytes))
            }
            Source::File(path) => {
                let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
                let mut file = File::open(path).map_err(cannot)?;
                let metadata = file.metadata().map_err(cannot)?;
                if metadata.is_dir() {
                    return Err(format!("cannot read {}: it is a directory", path.display()));
                }
                if metadata.is_file() && metadata.len() >= MAP_FROM {
                    // SAFETY: the mapping is read-only and private to this
                    // process, and nothing here writes to the file. What no
                    // flag can prevent is another process changing the file
                    // while it is mapped: the bytes we see may then change
                    // under us (the result describes some mix of old and new
                    // contents), and if the file is truncated, touching a page
                    // past its new end kills the process with SIGBUS. Checking
                    // a file that someone is rewriting at the same moment has
                    // no meaningful answer anyway; that race is the caller's.
                    let map = unsafe { Mmap::map(&file) }.map_err(cannot)?;
                    return Ok(Contents::Mapped(map));
                }
                let mut bytes = Vec::with_capacity(metadata.len() as usize);
                file.read_to_end(&mut bytes).map_err(cannot)?;
                Ok(Contents::Read(bytes))
            }
        }
    }
}

/// An input's bytes, read into memory or mapped.
pub enum Contents {
    Read(Vec<u8>),
    Mapped(Mmap),
}

impl Deref for Contents {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Contents::Read(bytes) => bytes,
            Contents::Mapped(map) => map,
        }
    }
}
