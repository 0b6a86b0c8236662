//! A stream in pieces that the fuzzer cuts (inside sequences, and empty
//! pieces too), for every ruleset, against one-shot `validate` of the whole:
//!
//! - `Validator`, fed the pieces: no `update` error before the byte that
//!   makes the one-shot error certain, the first error equal to the one-shot
//!   error, a sequence cut off by the end reported by `finish` alone, the
//!   state after each piece what one-shot validation of the prefix says, and
//!   the error repeated ever after;
//! - `ValidatingReader` over a reader whose short reads are the pieces, and
//!   `ValidatingBufReader` over a `BufReader` of the capacity the fuzzer
//!   chooses: every byte handed out is part of the valid prefix or of the
//!   failing sequence's, every valid byte is handed out, the error comes
//!   once, and reads after the end return nothing;
//! - `parallel::Summary`: the summaries of the pieces, merged from the left
//!   and from the right, are equal (merging is associative), and read from
//!   the start they give the one-shot result — what `parallel::validate`
//!   does with the chunks it cuts a large input into.

#![no_main]

mod common;

use std::io::{self, BufRead, BufReader, Read};

use common::{BLOCK, Placed};
use libfuzzer_sys::fuzz_target;
use utf8_core::parallel::Summary;
use utf8_core::{
    Rfc3629, Ruleset, Utf8Error, ValidatingBufReader, ValidatingReader, Validator, cesu8, legacy31,
    mutf8, rfc2279, wtf8,
};

/// The most pieces the fuzzer gives lengths for (the rest of the stream is
/// one more).
const MAX_PIECES: usize = 16;

/// A case read from the fuzzer's bytes: the stream's alignment (one byte,
/// modulo 64), the number of pieces given (one byte, modulo 16), the
/// `BufReader`'s capacity less one (one byte), each piece's length (two
/// bytes, little-endian, modulo one more than what is left of the stream, so
/// that every cut is possible and 0 makes an empty piece), then the stream.
struct Case<'a> {
    alignment: usize,
    capacity: usize,
    /// The pieces' lengths, the last one what the given ones leave.
    pieces: Vec<usize>,
    stream: &'a [u8],
}

fn read_case(data: &[u8]) -> Option<Case<'_>> {
    let (&[alignment, count, capacity], rest) = data.split_first_chunk::<3>()?;
    let count = usize::from(count) % MAX_PIECES;
    let (lengths, stream) = rest.split_at_checked(2 * count)?;
    let mut left = stream.len();
    let mut pieces: Vec<usize> = lengths
        .chunks_exact(2)
        .map(|length| {
            let piece = usize::from(u16::from_le_bytes([length[0], length[1]])) % (left + 1);
            left -= piece;
            piece
        })
        .collect();
    pieces.push(left);
    Some(Case {
        alignment: usize::from(alignment) % BLOCK,
        capacity: 1 + usize::from(capacity),
        pieces,
        stream,
    })
}

fn check_validator<R: Ruleset>(bytes: &[u8], pieces: &[usize]) {
    let whole = R::validate(bytes);
    // How many bytes must have arrived for the error to be certain: up to
    // the first byte that cannot continue the failing sequence's valid
    // prefix. `None` for valid input and for input cut short, where only
    // `finish` may fail.
    let certain_at = whole.err().and_then(|e| {
        let (valid, len) = (e.valid_up_to(), e.error_len()?);
        // `Some(1)` is either a lead byte that starts nothing (certain at
        // once) or a one-byte prefix that the next byte cannot continue.
        let lead_alone = R::validate(&bytes[..=valid]);
        Some(if lead_alone.is_err_and(|e| e.error_len().is_some()) {
            valid + 1
        } else {
            valid + len + 1
        })
    });
    let name = R::NAME;
    let mut validator = Validator::<R>::for_ruleset();
    let mut first_error: Option<Utf8Error> = None;
    let mut start = 0;
    for &piece in pieces {
        let end = start + piece;
        let result = validator.update(&bytes[start..end]);
        match (result, first_error) {
            (Ok(()), None) => {
                assert!(
                    certain_at.is_none_or(|at| end < at),
                    "{name}: no error after {end} bytes"
                );
                let prefix = R::validate(&bytes[..end]);
                assert_eq!(validator.bytes_read(), end, "{name}");
                assert_eq!(
                    validator.valid_up_to(),
                    prefix.map_or_else(|e| e.valid_up_to(), |()| end),
                    "{name}: valid_up_to after {end} bytes"
                );
                assert_eq!(
                    validator.is_incomplete(),
                    prefix.is_err_and(|e| e.error_len().is_none()),
                    "{name}: is_incomplete after {end} bytes"
                );
            }
            (Err(error), None) => {
                assert_eq!(Err(error), whole, "{name}: the first error");
                assert!(
                    certain_at.is_some_and(|at| end >= at),
                    "{name}: an error after {end} bytes, before it was certain"
                );
                assert!(!validator.is_incomplete(), "{name}");
                assert_eq!(validator.valid_up_to(), error.valid_up_to(), "{name}");
                first_error = Some(error);
            }
            (later, Some(error)) => assert_eq!(later, Err(error), "{name}: errors stay"),
        }
        start = end;
    }
    assert_eq!(validator.finish(), whole, "{name}: finish");
    assert_eq!(
        first_error.is_some(),
        whole.is_err_and(|e| e.error_len().is_some()),
        "{name}: only an invalid sequence fails update"
    );
    if let Some(error) = first_error {
        assert_eq!(validator.update(b"a"), Err(error), "{name}: errors stay");
        assert_eq!(validator.finish(), Err(error), "{name}: errors stay");
    }
}

/// A reader that hands out its bytes in reads of the given sizes, in turn.
struct ShortReads<'a> {
    bytes: &'a [u8],
    sizes: &'a [usize],
    next: usize,
}

impl Read for ShortReads<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.next % self.sizes.len()];
        self.next += 1;
        let n = size.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// The `Utf8Error` inside an `InvalidData` error.
fn utf8_error(error: &io::Error) -> Utf8Error {
    assert_eq!(error.kind(), io::ErrorKind::InvalidData, "{error}");
    *error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<Utf8Error>())
        .unwrap_or_else(|| panic!("no Utf8Error in {error:?}"))
}

/// What a reader handed out (`out`) and the errors it returned, against
/// one-shot validation of `bytes`.
fn check_outcome<R: Ruleset>(bytes: &[u8], out: &[u8], errors: &[Utf8Error], reader: &str) {
    let name = R::NAME;
    assert!(bytes.starts_with(out), "{reader} {name}: not the stream");
    match R::validate(bytes) {
        Ok(()) => {
            assert_eq!(out.len(), bytes.len(), "{reader} {name}");
            assert_eq!(errors, [], "{reader} {name}");
        }
        Err(expected) => {
            assert_eq!(errors, [expected], "{reader} {name}");
            let valid = expected.valid_up_to();
            let open = expected.error_len().unwrap_or(bytes.len() - valid);
            assert!(
                (valid..=valid + open).contains(&out.len()),
                "{reader} {name}: {} bytes handed out, valid prefix {valid}, failing sequence {open}",
                out.len()
            );
        }
    }
}

fn check_readers<R: Ruleset>(bytes: &[u8], pieces: &[usize], capacity: usize) {
    // A read of 0 bytes is the end of a stream, so the short reads and the
    // caller's buffers (the piece lengths backwards) skip the empty pieces.
    let mut sizes: Vec<usize> = pieces.iter().copied().filter(|&n| n > 0).collect();
    if sizes.is_empty() {
        sizes.push(1);
    }
    let backwards: Vec<usize> = sizes.iter().rev().copied().collect();

    let inner = ShortReads {
        bytes,
        sizes: &sizes,
        next: 0,
    };
    let mut reader = ValidatingReader::<_, R>::for_ruleset(inner);
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    let mut buffer = vec![0u8; bytes.len().max(1)];
    for turn in 0.. {
        let size = backwards[turn % backwards.len()].min(buffer.len());
        match reader.read(&mut buffer[..size]) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buffer[..n]),
            Err(error) => errors.push(utf8_error(&error)),
        }
    }
    for _ in 0..2 {
        let after = reader.read(&mut buffer).ok();
        assert_eq!(after, Some(0), "ValidatingReader: a read after the end");
    }
    check_outcome::<R>(bytes, &out, &errors, "ValidatingReader");

    let inner = ShortReads {
        bytes,
        sizes: &sizes,
        next: 0,
    };
    let mut reader =
        ValidatingBufReader::<_, R>::for_ruleset(BufReader::with_capacity(capacity, inner));
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    for turn in 0.. {
        match reader.fill_buf() {
            Ok([]) => break,
            Ok(available) => {
                let n = backwards[turn % backwards.len()].min(available.len());
                out.extend_from_slice(&available[..n]);
                reader.consume(n);
            }
            Err(error) => errors.push(utf8_error(&error)),
        }
    }
    for _ in 0..2 {
        let after = reader.fill_buf().ok().map(<[u8]>::len);
        assert_eq!(
            after,
            Some(0),
            "ValidatingBufReader: fill_buf after the end"
        );
    }
    check_outcome::<R>(bytes, &out, &errors, "ValidatingBufReader");
}

fn check_summaries<R: Ruleset>(bytes: &[u8], pieces: &[usize]) {
    let mut start = 0;
    let summaries: Vec<Summary<R>> = pieces
        .iter()
        .map(|&piece| {
            start += piece;
            Summary::of(&bytes[start - piece..start])
        })
        .collect();
    let from_the_left = summaries
        .iter()
        .fold(Summary::identity(), |merged, next| merged.then(next));
    let from_the_right = summaries
        .iter()
        .rev()
        .fold(Summary::identity(), |merged, previous| {
            previous.then(&merged)
        });
    let name = R::NAME;
    assert_eq!(
        from_the_left, from_the_right,
        "{name}: merging is associative"
    );
    assert_eq!(from_the_left.len(), bytes.len(), "{name}");
    assert_eq!(
        from_the_left.result(),
        R::validate(bytes),
        "{name}: summaries"
    );
}

fn check<R: Ruleset>(case: &Case, stream: &[u8]) {
    check_validator::<R>(stream, &case.pieces);
    check_readers::<R>(stream, &case.pieces, case.capacity);
    check_summaries::<R>(stream, &case.pieces);
}

fuzz_target!(|data: &[u8]| {
    let Some(case) = read_case(data) else {
        return;
    };
    let placed = Placed::new(case.stream, case.alignment);
    let stream = placed.bytes();
    check::<Rfc3629>(&case, stream);
    check::<cesu8::Cesu8>(&case, stream);
    check::<mutf8::Mutf8>(&case, stream);
    check::<wtf8::Wtf8>(&case, stream);
    check::<rfc2279::Rfc2279>(&case, stream);
    check::<legacy31::Legacy31>(&case, stream);
});
