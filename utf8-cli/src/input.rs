//! Reading an input named on the command line: a file, or standard input for
//! `-`, a buffer at a time.
//!
//! Files are read, never memory-mapped: a mapped file that another process
//! truncates (log rotation, `truncate`, an editor saving) kills the reader
//! with SIGBUS as soon as it touches a page past the new end, and no flag
//! prevents it. Read instead, a file that shrinks just ends early, and a
//! file that changes at all while it is read is reported as such: fewer
//! bytes than its size when it was opened, or a size or modification time
//! at the end of the read that differs from the one at its start.

use std::fs::{File, Metadata};
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::stream::Fill;

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

    /// Opens the input for reading. The error is a one-line message.
    pub fn open(&self) -> Result<Input, String> {
        match self {
            Source::Stdin => Ok(Input {
                name: self.name(),
                reader: Reader::Stdin(std::io::stdin()),
                at_open: None,
                read: 0,
            }),
            Source::File(path) => {
                let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
                let file = File::open(path).map_err(cannot)?;
                let metadata = file.metadata().map_err(cannot)?;
                if metadata.is_dir() {
                    return Err(format!("cannot read {}: it is a directory", path.display()));
                }
                Ok(Input {
                    name: self.name(),
                    at_open: metadata.is_file().then(|| Snapshot::of(&metadata)),
                    reader: Reader::File(file),
                    read: 0,
                })
            }
        }
    }
}

/// An open input.
pub struct Input {
    name: String,
    reader: Reader,
    /// A regular file's size and modification time when it was opened.
    at_open: Option<Snapshot>,
    /// The bytes read so far.
    read: u64,
}

enum Reader {
    Stdin(std::io::Stdin),
    File(File),
}

/// What tells that a regular file changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Snapshot {
    len: u64,
    modified: Option<SystemTime>,
}

impl Snapshot {
    fn of(metadata: &Metadata) -> Snapshot {
        Snapshot {
            len: metadata.len(),
            modified: metadata.modified().ok(),
        }
    }
}

impl Input {
    fn read_some(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        match &mut self.reader {
            Reader::Stdin(stdin) => stdin.read(buffer),
            Reader::File(file) => file.read(buffer),
        }
    }

    /// At the end of a regular file: an error if it changed while it was read.
    fn check_unchanged(&self) -> Result<(), String> {
        let (Some(at_open), Reader::File(file)) = (self.at_open, &self.reader) else {
            return Ok(());
        };
        let changed =
            |detail: String| format!("{} changed while it was read ({detail})", self.name);
        // A file in /proc or /sys may say 0 bytes and hold more: only
        // fewer bytes than the size at the start mean a change by themselves.
        if self.read < at_open.len {
            return Err(changed(format!(
                "{} bytes expected, {} read",
                at_open.len, self.read
            )));
        }
        let now = file
            .metadata()
            .map_err(|e| format!("cannot read {}: {e}", self.name))?;
        let at_end = Snapshot::of(&now);
        if at_end.len != at_open.len {
            Err(changed(format!(
                "{} bytes at the start, {} at the end",
                at_open.len, at_end.len
            )))
        } else if at_end != at_open {
            Err(changed("modified during the read".to_owned()))
        } else {
            Ok(())
        }
    }
}

impl Fill for Input {
    fn fill(&mut self, buffer: &mut [u8]) -> Result<(usize, bool), String> {
        let mut filled = 0;
        while filled < buffer.len() {
            match self.read_some(&mut buffer[filled..]) {
                Ok(0) => {
                    self.read += filled as u64;
                    self.check_unchanged()?;
                    return Ok((filled, true));
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(match self.reader {
                        Reader::Stdin(_) => format!("cannot read standard input: {e}"),
                        Reader::File(_) => format!("cannot read {}: {e}", self.name),
                    });
                }
            }
            if matches!(self.reader, Reader::Stdin(_)) {
                break;
            }
        }
        self.read += filled as u64;
        #[cfg(debug_assertions)]
        if matches!(self.reader, Reader::File(_)) {
            crate::hooks::pause_after_first_fill();
        }
        Ok((filled, false))
    }
}
