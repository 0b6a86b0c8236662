//! Reading an input named on the command line: a file, or standard input for
//! `-`, a buffer at a time, or for `utf8 check` a large regular file through
//! a memory map ([`crate::mapped`]).
//!
//! A file that changes while it is read is reported as such: a size or
//! modification time at the end of the read that differs from the one at its
//! start, or (mapped) a page that a truncation took away. A file that shrinks
//! just ends early when it is read; under a map, the pages it lost read as
//! zeros (see [`crate::mapped`] for how a SIGBUS is kept from ending the
//! command). Fewer bytes than the size it had when it was opened are no
//! change by themselves: a file of the kernel's in /sys says 4096 bytes and
//! holds a few, and is read as `cat` reads it. Such files, with no blocks
//! of their own, are never mapped.
//!
//! A regular file is read at positions (on Unix): each core reads a chunk
//! of the buffer and summarizes it while the bytes are in its cache, so
//! that the command's speed grows with the cores, where one thread reading
//! the whole buffer before the others check it would bound it by one core's
//! copy.

use std::fs::{File, Metadata};
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use utf8_core::Ruleset;
#[cfg(unix)]
use utf8_core::parallel::Summary;

use crate::mapped::Mapping;
#[cfg(unix)]
use crate::stream::FILL_CHUNK;
use crate::stream::{Fill, Summarized, Whole};

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
                source: self.clone(),
                reader: Reader::Stdin(std::io::stdin()),
                at_open: None,
                has_blocks: false,
                read: 0,
                map_at_least: None,
            }),
            Source::File(path) => {
                let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
                let file = File::open(path).map_err(cannot)?;
                let metadata = file.metadata().map_err(cannot)?;
                if metadata.is_dir() {
                    return Err(format!("cannot read {}: it is a directory", path.display()));
                }
                Ok(Input {
                    source: self.clone(),
                    at_open: metadata.is_file().then(|| Snapshot::of(&metadata)),
                    has_blocks: has_blocks(&metadata),
                    reader: Reader::File(file),
                    read: 0,
                    map_at_least: None,
                })
            }
        }
    }
}

impl Input {
    /// A regular file read whole, in one read, ahead of its turn: its
    /// bytes are the file as it was at that read, and no longer change.
    pub fn read_ahead(path: &Path, bytes: Vec<u8>) -> Input {
        Input {
            source: Source::File(path.to_owned()),
            reader: Reader::Read(std::io::Cursor::new(bytes)),
            at_open: None,
            has_blocks: false,
            read: 0,
            map_at_least: None,
        }
    }
}

/// Parquet's magic bytes, at a file's start and at its end.
const MAGIC: &[u8; 4] = b"PAR1";

/// Whether a whole file's `bytes` start and end with Parquet's magic bytes
/// (both, so that a text file that happens to begin with them is text).
pub fn is_parquet_magic(bytes: &[u8]) -> bool {
    bytes.len() >= 12 && bytes.starts_with(MAGIC) && bytes.ends_with(MAGIC)
}

/// An open input.
pub struct Input {
    /// What the input is, to name it in a message.
    source: Source,
    reader: Reader,
    /// A regular file's size and modification time when it was opened.
    at_open: Option<Snapshot>,
    /// Whether the file has blocks of its own (see [`has_blocks`]).
    has_blocks: bool,
    /// The bytes read so far.
    read: u64,
    /// The size from which a regular file is mapped rather than read, if
    /// it may be.
    map_at_least: Option<u64>,
}

enum Reader {
    Stdin(std::io::Stdin),
    File(File),
    /// A file read whole ahead of its turn ([`crate::read_ahead`]).
    Read(std::io::Cursor<Vec<u8>>),
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

    /// Whether a regular file that was `self` when it was opened, read to
    /// its end in `read` bytes, and `at_end` then, changed meanwhile: the
    /// error says how.
    ///
    /// A file in /proc or /sys may say 0 bytes and hold more, or (sysfs)
    /// 4096 and hold fewer: the bytes read tell a change only where the size
    /// or modification time changed too. A truncation changes both.
    fn unchanged(self, read: u64, at_end: Snapshot) -> Result<(), String> {
        if at_end == self {
            Ok(())
        } else if read < self.len {
            Err(format!("{} bytes expected, {read} read", self.len))
        } else if at_end.len != self.len {
            Err(format!(
                "{} bytes at the start, {} at the end",
                self.len, at_end.len
            ))
        } else {
            Err("modified during the read".to_owned())
        }
    }
}

/// Whether a file has blocks of its own on its file system. A file of the
/// kernel's (in /proc or /sys) has none; it may hold fewer bytes than its
/// size says, which a map would read as zeros after a SIGBUS and report as
/// a truncation, and may be a device's memory (a PCI BAR's `resource`
/// file), which a map would read from the device itself. A sparse file of
/// holes alone has none either, and is read rather than mapped: that costs
/// it speed, not its answer.
fn has_blocks(metadata: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        metadata.blocks() > 0
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        true
    }
}

/// The size from which `utf8 check` maps a file ([`Input::mapped_from`]):
/// 1 MiB. Mapping a file and unmapping it costs a few system calls and a
/// flush of the mapped pages' translations, which a small file's copy
/// costs less than; a file of a megabyte or more is checked on several
/// cores, where the copy would be the bound.
pub const MAP_AT_LEAST: u64 = 1 << 20;

impl Input {
    /// Has a regular file of at least `at_least` bytes mapped instead of
    /// read ([`Fill::map_whole`]), where the platform can.
    pub fn mapped_from(mut self, at_least: u64) -> Input {
        #[cfg(debug_assertions)]
        let at_least = crate::hooks::map_at_least().unwrap_or(at_least);
        self.map_at_least = Some(at_least);
        self
    }

    /// Whether the input is a regular file that starts and ends with
    /// Parquet's magic bytes `PAR1`. Both, so that a text file that happens
    /// to begin with them is text. Only a regular file is looked at, at
    /// positions: a FIFO's bytes read to look would be lost to the check.
    #[cfg(unix)]
    pub fn has_parquet_magic(&self) -> bool {
        use std::os::unix::fs::FileExt;
        if let Reader::Read(read) = &self.reader {
            return is_parquet_magic(read.get_ref());
        }
        let (Reader::File(file), Some(at_open)) = (&self.reader, self.at_open) else {
            return false;
        };
        let (mut head, mut tail) = ([0; 4], [0; 4]);
        at_open.len >= 12
            && file.read_at(&mut head, 0).ok() == Some(4)
            && &head == MAGIC
            && file.read_at(&mut tail, at_open.len - 4).ok() == Some(4)
            && &tail == MAGIC
    }

    #[cfg(not(unix))]
    pub fn has_parquet_magic(&self) -> bool {
        matches!(&self.reader, Reader::Read(read) if is_parquet_magic(read.get_ref()))
    }

    fn read_some(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        match &mut self.reader {
            Reader::Stdin(stdin) => stdin.read(buffer),
            Reader::File(file) => file.read(buffer),
            Reader::Read(read) => read.read(buffer),
        }
    }

    /// At the end of a regular file: an error if it changed while it was read.
    fn check_unchanged(&self) -> Result<(), String> {
        let (Some(at_open), Reader::File(file)) = (self.at_open, &self.reader) else {
            return Ok(());
        };
        let now = file
            .metadata()
            .map_err(|e| format!("cannot read {}: {e}", self.source.name()))?;
        at_open
            .unchanged(self.read, Snapshot::of(&now))
            .map_err(|detail| {
                format!(
                    "{} changed while it was read ({detail})",
                    self.source.name()
                )
            })
    }
}

/// How much of a buffer of `buffer_len` bytes a fill asks for when `left`
/// bytes are left by the file's size: whole chunks, one more than `left`
/// fills, so that the fill finds the end (or that the file grew).
fn bytes_to_ask_for(left: u64, buffer_len: usize) -> usize {
    let left = usize::try_from(left).unwrap_or(usize::MAX);
    (left / FILL_CHUNK)
        .saturating_add(1)
        .saturating_mul(FILL_CHUNK)
        .min(buffer_len)
}

/// Reads `chunk` from `at` in `file` until it is full or the file ends
/// there; how many bytes it holds.
#[cfg(unix)]
fn read_chunk_at(file: &File, chunk: &mut [u8], at: u64) -> std::io::Result<usize> {
    use std::os::unix::fs::FileExt;
    let mut filled = 0;
    while filled < chunk.len() {
        match file.read_at(&mut chunk[filled..], at + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// The chunks of `buffer`, read from `base` in `file` at their positions on
/// all cores, each with whether it came back full and its summary, made by
/// the thread that read it.
#[cfg(unix)]
fn read_and_summarize<R: Ruleset>(
    file: &File,
    buffer: &mut [u8],
    base: u64,
) -> Vec<std::io::Result<(usize, bool, Summary<R>)>> {
    use rayon::prelude::*;
    let read = |(index, chunk): (usize, &mut [u8])| {
        let filled = read_chunk_at(file, chunk, base + (index * FILL_CHUNK) as u64)?;
        Ok((filled, filled == chunk.len(), Summary::of(&chunk[..filled])))
    };
    // A pool of one thread, or one chunk, is read on the calling thread:
    // handing each buffer to the pool's one worker and waiting for it cost
    // one thread about a tenth of its speed.
    if rayon::current_num_threads() < 2 || buffer.len() <= FILL_CHUNK {
        buffer
            .chunks_mut(FILL_CHUNK)
            .enumerate()
            .map(read)
            .collect()
    } else {
        buffer
            .par_chunks_mut(FILL_CHUNK)
            .enumerate()
            .map(read)
            .collect()
    }
}

impl Input {
    /// [`Fill::fill_summarized`] from `chunks`, the result of
    /// [`read_and_summarize`]: the bytes up to the first chunk that came
    /// back short, where the file ended (or shrank: `check_unchanged` says
    /// so).
    #[cfg(unix)]
    fn filled_from<R: Ruleset>(
        &mut self,
        chunks: Vec<std::io::Result<(usize, bool, Summary<R>)>>,
    ) -> Result<Summarized<R>, String> {
        let mut filled = 0;
        let mut summary = Summary::identity();
        for chunk in chunks {
            let (chunk_filled, full, chunk_summary) =
                chunk.map_err(|e| format!("cannot read {}: {e}", self.source.name()))?;
            filled += chunk_filled;
            summary = summary.then(&chunk_summary);
            if !full {
                self.read += filled as u64;
                self.check_unchanged()?;
                return Ok(Summarized {
                    filled,
                    at_end: true,
                    summary,
                });
            }
        }
        self.read += filled as u64;
        #[cfg(debug_assertions)]
        crate::hooks::pause_after_first_fill();
        Ok(Summarized {
            filled,
            at_end: false,
            summary,
        })
    }
}

impl Fill for Input {
    fn fill_summarized<R: Ruleset>(
        &mut self,
        buffer: &mut [u8],
    ) -> Option<Result<Summarized<R>, String>> {
        #[cfg(unix)]
        if let (Reader::File(file), Some(at_open)) = (&self.reader, self.at_open) {
            // The chunks the file holds by its size when opened, and one
            // more to find its end (or that it grew): a small file's is
            // one chunk, read on the calling thread, where handing empty
            // chunks to the pool cost a tree of small files more than
            // their check.
            let wanted = bytes_to_ask_for(at_open.len.saturating_sub(self.read), buffer.len());
            let chunks = read_and_summarize::<R>(file, &mut buffer[..wanted], self.read);
            return Some(self.filled_from(chunks));
        }
        let _ = buffer;
        None
    }

    fn map_whole(&mut self) -> Option<Whole> {
        let (Reader::File(file), Some(at_open), Some(at_least)) =
            (&self.reader, self.at_open, self.map_at_least)
        else {
            return None;
        };
        if self.read > 0 || at_open.len < at_least || !self.has_blocks {
            return None;
        }
        let len = usize::try_from(at_open.len).ok()?;
        // A file that cannot be mapped (a file system without maps, no
        // address space left) is read as any other.
        let mapping = Mapping::of(file, len).ok()??;
        Some(Whole { mapping, len })
    }

    fn whole_done(&mut self, whole: Whole) -> Result<(), String> {
        self.read += whole.len as u64;
        self.check_unchanged()?;
        if whole.mapping.lost_pages() {
            // Truncated and grown back to its size: the modification time
            // would most often tell, a lost page always does.
            return Err(format!(
                "{} changed while it was read (pages of its map were truncated away)",
                self.source.name()
            ));
        }
        Ok(())
    }

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
                        Reader::File(_) | Reader::Read(_) => {
                            format!("cannot read {}: {e}", self.source.name())
                        }
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

#[cfg(all(test, unix))]
mod tests {
    #[test]
    fn a_fill_asks_for_the_chunks_the_file_holds_and_one_more_not_the_whole_buffer() {
        let buffer = 8 * FILL_CHUNK;
        // A small file's fill is one chunk, read on the calling thread.
        assert_eq!(bytes_to_ask_for(0, buffer), FILL_CHUNK);
        assert_eq!(bytes_to_ask_for(1, buffer), FILL_CHUNK);
        assert_eq!(bytes_to_ask_for(FILL_CHUNK as u64 - 1, buffer), FILL_CHUNK);
        // A chunk exactly: one more to find the end.
        assert_eq!(bytes_to_ask_for(FILL_CHUNK as u64, buffer), 2 * FILL_CHUNK);
        assert_eq!(
            bytes_to_ask_for(FILL_CHUNK as u64 + 1, buffer),
            2 * FILL_CHUNK
        );
        assert_eq!(bytes_to_ask_for(u64::MAX, buffer), buffer);
    }

    use super::*;
    use std::io::Write;
    use utf8_core::Rfc3629;

    /// A file of `bytes`, opened as the command opens its inputs.
    fn opened(bytes: &[u8]) -> (tempfile::NamedTempFile, Input) {
        let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
        file.write_all(bytes).expect("written");
        let input = Source::File(file.path().to_owned()).open().expect("opened");
        (file, input)
    }

    /// Text with a sequence cut by every chunk boundary of a fill, and
    /// invalid bytes where `invalid_at` says.
    fn text_across_chunks(len: usize, invalid_at: &[usize]) -> Vec<u8> {
        let mut bytes: Vec<u8> = "aé€😀".bytes().cycle().take(len).collect();
        for &at in invalid_at {
            bytes[at] = 0xFF;
        }
        bytes
    }

    #[test]
    fn a_fill_at_positions_reads_the_bytes_in_order_and_summarizes_them_whole() {
        let chunks = 4;
        for invalid_at in [
            vec![],
            vec![FILL_CHUNK - 1],
            vec![FILL_CHUNK + 2, 3 * FILL_CHUNK],
        ] {
            // Two fills: the second ends inside a chunk, at the file's end.
            let len = chunks * FILL_CHUNK + FILL_CHUNK / 2 + 1;
            let bytes = text_across_chunks(len, &invalid_at);
            let (_file, mut input) = opened(&bytes);
            let mut buffer = vec![0u8; chunks * FILL_CHUNK];
            let mut read = Vec::new();
            let mut summaries = Vec::new();
            loop {
                let summarized = input
                    .fill_summarized::<Rfc3629>(&mut buffer)
                    .expect("a file is read at positions")
                    .expect("read");
                let fresh = &buffer[..summarized.filled];
                assert_eq!(
                    summarized.summary,
                    utf8_core::parallel::Summary::<Rfc3629>::of(fresh),
                    "a fill's summary is that of its bytes, {invalid_at:?}"
                );
                read.extend_from_slice(fresh);
                summaries.push(summarized.summary);
                if summarized.at_end {
                    break;
                }
            }
            assert_eq!(read, bytes);
            assert_eq!(summaries.len(), 2);
            let whole = summaries[0].then(&summaries[1]);
            assert_eq!(whole.result(), Rfc3629::validate(&bytes).map(|_| ()));
        }
    }

    #[test]
    fn a_file_that_shrinks_during_a_fill_at_positions_is_reported_changed() {
        let bytes = text_across_chunks(3 * FILL_CHUNK, &[]);
        let (file, mut input) = opened(&bytes);
        file.as_file()
            .set_len(FILL_CHUNK as u64 + 7)
            .expect("truncated");
        let mut buffer = vec![0u8; 4 * FILL_CHUNK];
        let error = input
            .fill_summarized::<Rfc3629>(&mut buffer)
            .expect("a file is read at positions")
            .expect_err("the file changed");
        assert!(error.contains("changed while it was read"), "{error}");
    }

    #[test]
    fn a_file_read_short_of_its_size_changed_only_if_its_size_or_time_did() {
        let at_open = Snapshot {
            len: 4096,
            modified: Some(SystemTime::UNIX_EPOCH),
        };
        // A sysfs file: 4096 bytes said, 4 held, before and after.
        assert_eq!(at_open.unchanged(4, at_open), Ok(()));
        let truncated = Snapshot {
            len: 1000,
            ..at_open
        };
        assert_eq!(
            at_open.unchanged(1000, truncated),
            Err("4096 bytes expected, 1000 read".to_owned())
        );
        let rewritten = Snapshot {
            modified: Some(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1)),
            ..at_open
        };
        assert_eq!(
            at_open.unchanged(4, rewritten),
            Err("4096 bytes expected, 4 read".to_owned())
        );
        assert_eq!(
            at_open.unchanged(4096, rewritten),
            Err("modified during the read".to_owned())
        );
        let grown = Snapshot {
            len: 8192,
            ..at_open
        };
        assert_eq!(
            at_open.unchanged(4096, grown),
            Err("4096 bytes at the start, 8192 at the end".to_owned())
        );
    }

    #[test]
    fn a_file_without_blocks_of_its_own_is_read_not_mapped() {
        let (holes, _) = opened(b"");
        holes.as_file().set_len(2 << 20).expect("a sparse file");
        let mut input = Source::File(holes.path().to_owned())
            .open()
            .expect("opened")
            .mapped_from(0);
        assert!(input.map_whole().is_none(), "a file of holes alone");
        if cfg!(target_os = "linux") {
            let (_file, input) = opened(&[b'a'; 8192]);
            assert!(
                input.mapped_from(0).map_whole().is_some(),
                "a file with blocks is mapped where maps are"
            );
        }
    }

    #[test]
    fn standard_input_is_not_read_at_positions() {
        let mut input = Source::Stdin.open().expect("standard input");
        assert!(input.fill_summarized::<Rfc3629>(&mut [0; 8]).is_none());
    }
}
