//! Where the parquet crate's reader takes a file's bytes from: the file
//! read at positions, and a row group's checked column chunks read whole
//! once, walked, and handed to the reader from memory.

use std::fs::File;
use std::io::Read;
use std::sync::Arc;

use bytes::Bytes;
use parquet::errors::ParquetError;
use parquet::file::reader::{ChunkReader, Length};

/// A file read at positions (`pread`), so that the readers of several row
/// groups share it without sharing a file offset, as clones of a `File` do.
#[derive(Clone)]
pub struct Positional {
    file: Arc<File>,
    len: u64,
}

impl Positional {
    pub fn new(file: File) -> std::io::Result<Positional> {
        let len = file.metadata()?.len();
        Ok(Positional {
            file: Arc::new(file),
            len,
        })
    }

    /// `len` bytes from `start`, which the caller has placed inside the
    /// file; a file that ends before them has changed since it was opened.
    pub fn read_exact_at(&self, start: u64, len: usize) -> Result<Vec<u8>, String> {
        let mut bytes = vec![0; len];
        let mut filled = 0;
        while filled < len {
            match read_at(&self.file, &mut bytes[filled..], start + filled as u64) {
                Ok(0) => {
                    return Err(format!(
                        "the file ends at {} bytes, inside {start}..{}: did it change while it was read?",
                        start + filled as u64,
                        start + len as u64
                    ));
                }
                Ok(read) => filled += read,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.to_string()),
            }
        }
        Ok(bytes)
    }
}

impl Length for Positional {
    fn len(&self) -> u64 {
        self.len
    }
}

/// A [`Read`] from a position of a [`Positional`] file on. Reading past the
/// file's end is an error, not an end: the parquet crate asks only for
/// bytes the footer places inside the file, and a caller that took an
/// empty read for progress would loop.
pub struct ReadAt {
    file: Arc<File>,
    at: u64,
    len: u64,
}

impl Read for ReadAt {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        if !buffer.is_empty() && self.at >= self.len {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("a read at {} past the file's end", self.at),
            ));
        }
        let read = read_at(&self.file, buffer, self.at)?;
        self.at += read as u64;
        Ok(read)
    }
}

#[cfg(unix)]
pub fn read_at(file: &File, buffer: &mut [u8], at: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buffer, at)
}

#[cfg(windows)]
pub fn read_at(file: &File, buffer: &mut [u8], at: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buffer, at)
}

impl ChunkReader for Positional {
    type T = ReadAt;

    fn get_read(&self, start: u64) -> parquet::errors::Result<ReadAt> {
        Ok(ReadAt {
            file: Arc::clone(&self.file),
            at: start,
            len: self.len,
        })
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        self.read_exact_at(start, length)
            .map(Bytes::from)
            .map_err(ParquetError::EOF)
    }
}

/// A row group's checked column chunks, each read once and walked before
/// the reader is given them; any other range is read from the file.
#[derive(Clone)]
pub struct RowGroupBytes {
    pub file: Positional,
    /// Each chunk's first byte in the file, and its bytes.
    pub chunks: Vec<(u64, Bytes)>,
}

impl RowGroupBytes {
    /// The bytes of `start..start + len` if a chunk holds them.
    fn held(&self, start: u64, len: u64) -> Option<Bytes> {
        self.chunks.iter().find_map(|(first, bytes)| {
            let from = usize::try_from(start.checked_sub(*first)?).ok()?;
            let to = from.checked_add(usize::try_from(len).ok()?)?;
            (to <= bytes.len()).then(|| bytes.slice(from..to))
        })
    }
}

impl Length for RowGroupBytes {
    fn len(&self) -> u64 {
        self.file.len
    }
}

/// A reader of a chunk held in memory, or of the file.
pub enum ChunkRead {
    Held(bytes::buf::Reader<Bytes>),
    File(ReadAt),
}

impl Read for ChunkRead {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        match self {
            ChunkRead::Held(held) => held.read(buffer),
            ChunkRead::File(file) => file.read(buffer),
        }
    }
}

impl ChunkReader for RowGroupBytes {
    type T = ChunkRead;

    fn get_read(&self, start: u64) -> parquet::errors::Result<ChunkRead> {
        let rest = self.chunks.iter().find_map(|(first, bytes)| {
            let from = usize::try_from(start.checked_sub(*first)?).ok()?;
            (from < bytes.len()).then(|| bytes.slice(from..))
        });
        Ok(match rest {
            Some(rest) => ChunkRead::Held(bytes::Buf::reader(rest)),
            None => ChunkRead::File(self.file.get_read(start)?),
        })
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        match self.held(start, length as u64) {
            Some(bytes) => Ok(bytes),
            None => self.file.get_bytes(start, length),
        }
    }
}
