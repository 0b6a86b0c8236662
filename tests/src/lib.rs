//! Shared helpers of the test suites: input generators, reference loaders,
//! seeded random numbers ([`rng`]) and random column rows
//! ([`random_rows`]) for the suites of every crate, the verdict every
//! suite compares and its references ([`oracles`]), what
//! the column API should answer ([`columns`]), a test binary run again at
//! each vector level ([`levels`]), the cases of the bounds suites ([`catalogue`]), and the proptest strategy of
//! [`mutation`]s that turn valid input into nearly valid input (applied by
//! [`mutate`]).

pub mod catalogue;
pub mod columns;
pub mod dialect_text;
pub mod levels;
pub mod oracles;
pub mod random_rows;
pub mod rng;

pub use catalogue::Hex;
pub use oracles::Verdict;

use core::fmt::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Markus Kuhn's "UTF-8 decoder capability and stress test".
pub const KUHN_STRESS_TEST: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../data/reference/UTF-8-test.txt"
);

/// The text corpus of `data/corpus`: `*.utf8.txt` files are valid UTF-8,
/// `*.latin1.txt` files the same texts in ISO 8859-1.
pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/corpus");

/// The bytes of Markus Kuhn's stress test.
pub fn kuhn_stress_test() -> Vec<u8> {
    std::fs::read(KUHN_STRESS_TEST).unwrap_or_else(|e| panic!("{KUHN_STRESS_TEST}: {e}"))
}

/// Real text, valid and not: every corpus file (UTF-8 and Latin-1), Kuhn's
/// stress test whole and each of its lines.
pub fn real_text_inputs() -> Vec<Vec<u8>> {
    let mut inputs: Vec<Vec<u8>> = corpus_files(".utf8.txt")
        .into_iter()
        .chain(corpus_files(".latin1.txt"))
        .map(|(_, bytes)| bytes)
        .collect();
    let kuhn = kuhn_stress_test();
    inputs.extend(kuhn.split(|&b| b == b'\n').map(<[u8]>::to_vec));
    inputs.push(kuhn);
    inputs
}

/// Every file of the corpus whose name ends with `suffix`, with its bytes,
/// in path order. Panics when there is none, so that a moved corpus cannot
/// pass as "every file agrees".
pub fn corpus_files(suffix: &str) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(directory: &Path, found: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(directory)
            .unwrap_or_else(|e| panic!("reading {}: {e}", directory.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, found);
            } else {
                found.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(Path::new(CORPUS), &mut paths);
    paths.retain(|path| path.to_string_lossy().ends_with(suffix));
    paths.sort();
    assert!(!paths.is_empty(), "no *{suffix} file under {CORPUS}");
    paths
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, bytes)
        })
        .collect()
}

/// `(valid_up_to, error_len)` of this crate's error, the shape every test
/// compares so that a mismatch prints both numbers.
pub fn error_parts(error: &utf8_core::Utf8Error) -> (usize, Option<usize>) {
    (error.valid_up_to(), error.error_len())
}

/// `(valid_up_to, error_len)` of std's error.
pub fn std_error_parts(error: &core::str::Utf8Error) -> (usize, Option<usize>) {
    (error.valid_up_to(), error.error_len())
}

/// A fixed-size text buffer, so that the exhaustive loops can render
/// `Display` output millions of times without touching the allocator.
struct StackText {
    bytes: [u8; 128],
    len: usize,
}

impl StackText {
    fn render(value: &dyn fmt::Display) -> StackText {
        let mut text = StackText {
            bytes: [0; 128],
            len: 0,
        };
        write!(text, "{value}").expect("a Display text longer than 128 bytes");
        text
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.bytes
            .get_mut(self.len..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Whether two values print the same text, without allocating.
pub fn same_display(left: &dyn fmt::Display, right: &dyn fmt::Display) -> bool {
    StackText::render(left).as_bytes() == StackText::render(right).as_bytes()
}

/// The members of each byte class of a `BYTE_CLASSES` table, in byte order,
/// indexed by class.
pub fn class_members(byte_classes: &[u8; 256]) -> Vec<Vec<u8>> {
    let class_count = usize::from(*byte_classes.iter().max().expect("256 entries")) + 1;
    let mut members = vec![Vec::new(); class_count];
    for byte in 0..=u8::MAX {
        members[usize::from(byte_classes[usize::from(byte)])].push(byte);
    }
    assert!(
        members.iter().all(|class| !class.is_empty()),
        "class numbers of a BYTE_CLASSES table should be dense"
    );
    members
}

/// Which members of each class stand in for the class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Representatives {
    /// Smallest and largest member: the two edges a range check can get wrong.
    Edges,
    /// Smallest, largest and the median member, which for a class made of two
    /// ranges (such as C0-C1 / F5-FF) lands in the second one.
    EdgesAndMiddle,
}

/// Representative bytes of every class of `byte_classes`, sorted and
/// deduplicated (a one-byte class contributes one byte).
pub fn class_representatives(byte_classes: &[u8; 256], which: Representatives) -> Vec<u8> {
    let mut bytes = Vec::new();
    for members in class_members(byte_classes) {
        bytes.push(members[0]);
        bytes.push(members[members.len() - 1]);
        if which == Representatives::EdgesAndMiddle {
            bytes.push(members[members.len() / 2]);
        }
    }
    bytes.sort_unstable();
    bytes.dedup();
    bytes
}

/// Every byte value, the alphabet of the fully exhaustive tests.
pub fn all_bytes() -> Vec<u8> {
    (0..=u8::MAX).collect()
}

/// Calls `check` on every string of `len` bytes over `alphabet` whose first
/// byte is `first`, reusing one stack buffer.
fn for_each_string_starting_with(alphabet: &[u8], len: usize, first: u8, check: &impl Fn(&[u8])) {
    const LONGEST: usize = 8;
    assert!(
        (1..=LONGEST).contains(&len),
        "strings of 1 to {LONGEST} bytes"
    );
    let mut buffer = [0u8; LONGEST];
    // Odometer over the alphabet positions of bytes 1..len.
    let mut digits = [0usize; LONGEST];
    buffer[0] = first;
    buffer[1..len].fill(alphabet[0]);
    loop {
        check(&buffer[..len]);
        let mut position = len - 1;
        loop {
            if position == 0 {
                return;
            }
            digits[position] += 1;
            if digits[position] < alphabet.len() {
                buffer[position] = alphabet[digits[position]];
                break;
            }
            digits[position] = 0;
            buffer[position] = alphabet[0];
            position -= 1;
        }
    }
}

/// Calls `check` on every string of `len` bytes over `alphabet`, spread over
/// the available cores by first byte; returns how many strings were checked.
/// A panic in `check` fails the calling test.
pub fn for_each_string(alphabet: &[u8], len: usize, check: impl Fn(&[u8]) + Sync) -> u64 {
    let next_first = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next_first.fetch_add(1, Ordering::Relaxed);
                    let Some(&first) = alphabet.get(index) else {
                        return;
                    };
                    for_each_string_starting_with(alphabet, len, first, &check);
                }
            });
        }
    });
    (alphabet.len() as u64).pow(len as u32)
}

/// The suites' proptest settings: `cases` cases, and failures reported in the
/// test output rather than written into the source tree as regression files.
#[cfg(feature = "proptest")]
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// Random edits that turn valid input into nearly valid input: flips,
/// inserts (of any byte, and of bytes that are never valid UTF-8),
/// deletions, truncations, and splices of one of `splices`.
#[cfg(feature = "proptest")]
pub fn mutation(
    splices: &'static [&'static [u8]],
) -> impl proptest::strategy::Strategy<Value = Mutation> {
    use proptest::prelude::*;
    let position = any::<usize>();
    prop_oneof![
        (position, any::<u8>()).prop_map(|(position, mask)| Mutation::Flip { position, mask }),
        (position, any::<u8>()).prop_map(|(position, byte)| Mutation::Insert { position, byte }),
        (position, 0xF5u8..=0xFF).prop_map(|(position, byte)| Mutation::Insert { position, byte }),
        position.prop_map(|position| Mutation::Delete { position }),
        position.prop_map(|position| Mutation::Truncate { position }),
        (position, prop::sample::select(splices))
            .prop_map(|(position, bytes)| Mutation::Splice { position, bytes }),
    ]
}

/// One edit of a byte string, for turning valid input into nearly valid
/// input. Positions are taken modulo the length, so any random number works.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// XOR the byte at the position with a mask (0 counts as FF so the byte
    /// always changes).
    Flip { position: usize, mask: u8 },
    /// Insert a byte before the position.
    Insert { position: usize, byte: u8 },
    /// Remove the byte at the position.
    Delete { position: usize },
    /// Keep only the bytes before the position.
    Truncate { position: usize },
    /// Insert a whole byte sequence before the position.
    Splice {
        position: usize,
        bytes: &'static [u8],
    },
}

/// Applies `mutation` to `bytes`.
pub fn mutate(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let len = bytes.len();
    match *mutation {
        Mutation::Flip { position, mask } => {
            if len > 0 {
                bytes[position % len] ^= if mask == 0 { 0xFF } else { mask };
            }
        }
        Mutation::Insert { position, byte } => bytes.insert(position % (len + 1), byte),
        Mutation::Delete { position } => {
            if len > 0 {
                bytes.remove(position % len);
            }
        }
        Mutation::Truncate { position } => bytes.truncate(position % (len + 1)),
        Mutation::Splice {
            position,
            bytes: inserted,
        } => {
            let at = position % (len + 1);
            bytes.splice(at..at, inserted.iter().copied());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumerates_every_string_once() {
        let seen = std::sync::Mutex::new(Vec::new());
        let count = for_each_string(&[1, 2, 3], 3, |bytes| {
            seen.lock().unwrap().push(bytes.to_vec());
        });
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        let before = seen.len();
        seen.dedup();
        assert_eq!((count, before, seen.len()), (27, 27, 27));
        assert_eq!(seen[0], [1, 1, 1]);
        assert_eq!(seen[26], [3, 3, 3]);
    }

    #[test]
    fn representatives_of_a_two_range_class() {
        let mut table = [0u8; 256];
        for byte in [0xC0, 0xC1, 0xF5, 0xF6, 0xFF] {
            table[byte] = 1;
        }
        assert_eq!(
            class_representatives(&table, Representatives::EdgesAndMiddle),
            [0x00, 0x7D, 0xC0, 0xF5, 0xFE, 0xFF]
        );
        assert_eq!(
            class_representatives(&table, Representatives::Edges),
            [0x00, 0xC0, 0xFE, 0xFF]
        );
    }
}
