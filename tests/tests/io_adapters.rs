//! `ValidatingReader` and `ValidatingBufReader` over readers that return
//! short reads of random sizes, against one-shot validation of the stream.
//!
//! What `utf8_core::io` promises: every byte handed out is part of the valid
//! prefix or of a sequence still open at the end of a read (so at most the
//! failing sequence's valid prefix past `valid_up_to`), every byte before the
//! first invalid one is handed out, the error comes once as `InvalidData`
//! carrying the one-shot `Utf8Error`, and reads after it return 0.

use std::io::{self, BufRead, BufReader, Read};

use proptest::prelude::*;
use utf8_core::{
    Rfc3629, Ruleset, Utf8Error, ValidatingBufReader, ValidatingReader, cesu8, mutf8, wtf8,
};
use utf8_tests::dialect_text::{cesu8_from_str, mutf8_from_utf16, wtf8_from_utf16};
use utf8_tests::{Hex, mutate};

/// A reader that hands out its bytes in reads of the given sizes, in turn.
struct ShortReads<'a> {
    bytes: &'a [u8],
    sizes: Vec<usize>,
    next: usize,
}

impl<'a> ShortReads<'a> {
    fn new(bytes: &'a [u8], sizes: &[usize]) -> ShortReads<'a> {
        assert!(
            sizes.iter().all(|&size| size > 0),
            "a 0-byte read is the end"
        );
        ShortReads {
            bytes,
            sizes: sizes.to_vec(),
            next: 0,
        }
    }
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

/// Checks what a reader handed out (`out`) and the errors it returned
/// against one-shot validation of `bytes`.
fn assert_outcome<R: Ruleset>(bytes: &[u8], out: &[u8], errors: &[Utf8Error], what: &str) {
    let context = format!("{what} {} {}", R::NAME, Hex(bytes));
    assert!(bytes.starts_with(out), "{context}: handed out {}", Hex(out));
    match R::validate(bytes) {
        Ok(()) => {
            assert_eq!(out.len(), bytes.len(), "{context}");
            assert_eq!(errors, [], "{context}");
        }
        Err(expected) => {
            assert_eq!(errors, [expected], "{context}");
            let valid = expected.valid_up_to();
            let open = expected.error_len().unwrap_or(bytes.len() - valid);
            assert!(
                (valid..=valid + open).contains(&out.len()),
                "{context}: handed out {} bytes, valid prefix {valid}, failing sequence {open}",
                out.len()
            );
        }
    }
}

/// Reads into buffers of `buffer_sizes` (in turn) until the end, then
/// checks that the end stays the end.
fn read_all(reader: &mut impl Read, buffer_sizes: &[usize]) -> (Vec<u8>, Vec<Utf8Error>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut buffer = vec![0u8; buffer_sizes.iter().copied().max().unwrap_or(1)];
    for turn in 0.. {
        let size = buffer_sizes[turn % buffer_sizes.len()];
        match reader.read(&mut buffer[..size]) {
            Ok(0) if size > 0 => break,
            Ok(n) => out.extend_from_slice(&buffer[..n]),
            Err(error) => errors.push(utf8_error(&error)),
        }
    }
    for _ in 0..3 {
        assert_eq!(
            reader.read(&mut buffer).ok(),
            Some(0),
            "a read after the end"
        );
    }
    (out, errors)
}

fn assert_reader<R: Ruleset>(bytes: &[u8], read_sizes: &[usize], buffer_sizes: &[usize]) {
    let mut reader = ValidatingReader::<_, R>::for_ruleset(ShortReads::new(bytes, read_sizes));
    let (out, errors) = read_all(&mut reader, buffer_sizes);
    assert_outcome::<R>(bytes, &out, &errors, "ValidatingReader");
}

/// Through `fill_buf` and `consume`, consuming `consume_sizes` (in turn,
/// capped at what is available) of what each `fill_buf` offers.
fn assert_buf_reader<R: Ruleset>(
    bytes: &[u8],
    read_sizes: &[usize],
    capacity: usize,
    consume_sizes: &[usize],
) {
    let inner = BufReader::with_capacity(capacity, ShortReads::new(bytes, read_sizes));
    let mut reader = ValidatingBufReader::<_, R>::for_ruleset(inner);
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for turn in 0.. {
        match reader.fill_buf() {
            Ok([]) => break,
            Ok(available) => {
                let n = consume_sizes[turn % consume_sizes.len()].clamp(1, available.len());
                out.extend_from_slice(&available[..n]);
                reader.consume(n);
            }
            Err(error) => errors.push(utf8_error(&error)),
        }
    }
    for _ in 0..3 {
        assert_eq!(
            reader.fill_buf().ok(),
            Some(&[][..]),
            "fill_buf after the end"
        );
    }
    assert_outcome::<R>(bytes, &out, &errors, "ValidatingBufReader");
}

fn assert_every_adapter<R: Ruleset>(bytes: &[u8], sizes: &[usize]) {
    assert_reader::<R>(bytes, sizes, &[7, 1, 64, 300]);
    assert_reader::<R>(bytes, &[1], &[300]);
    for capacity in [1, 3, 16] {
        assert_buf_reader::<R>(bytes, sizes, capacity, &[2, 100, 1]);
    }
    // One read of everything: the bytes handed out are exactly the valid
    // prefix, plus the open sequence when the stream ends in it.
    let mut reader = ValidatingReader::<_, R>::for_ruleset(bytes);
    let mut buffer = vec![0; bytes.len() + 1];
    let (out, errors) = read_all(&mut reader, &[buffer.len()]);
    let expected = match R::validate(bytes) {
        Err(e) if e.error_len().is_some() => e.valid_up_to(),
        _ => bytes.len(),
    };
    assert_eq!(out.len(), expected, "one read {} {}", R::NAME, Hex(bytes));
    assert_outcome::<R>(bytes, &out, &errors, "one read");
    // read_to_end reports the error and keeps what came before it.
    let mut reader = ValidatingReader::<_, R>::for_ruleset(bytes);
    buffer.clear();
    let result = reader.read_to_end(&mut buffer).map_err(|e| utf8_error(&e));
    assert_eq!(
        result.map(|_| ()),
        R::validate(bytes),
        "read_to_end {}",
        Hex(bytes)
    );
    assert_outcome::<R>(
        bytes,
        &buffer,
        &result.err().into_iter().collect::<Vec<_>>(),
        "read_to_end",
    );
}

fn assert_every_ruleset(bytes: &[u8], sizes: &[usize]) {
    assert_every_adapter::<Rfc3629>(bytes, sizes);
    assert_every_adapter::<cesu8::Cesu8>(bytes, sizes);
    assert_every_adapter::<mutf8::Mutf8>(bytes, sizes);
    assert_every_adapter::<wtf8::Wtf8>(bytes, sizes);
}

#[test]
fn examples_with_one_byte_and_uneven_reads() {
    let examples: &[&[u8]] = &[
        b"",
        b"caf\xC3\xA9",
        b"ok\xFF",
        b"\xFF",
        b"ab\xE2\x82",
        b"ab\xE2\x82A",
        b"one\ntw\xC3\xB6\nthr\xC3",
        b"\xED\xA0\x80\xED\xB0\x80",
        b"\xED\xA0\x80\xED",
        b"\xED\xA0\x80\xED\x41",
        b"a\xC0\x80b\x00",
        b"\xF0\x9F\x92\x96!",
    ];
    for &bytes in examples {
        for sizes in [&[1][..], &[2], &[3, 1], &[5, 2, 1]] {
            assert_every_ruleset(bytes, sizes);
        }
    }
}

#[test]
fn lines_stop_at_the_error() {
    let input = &b"one\ntw\xC3\xB6\nthr\xFFee\nfour\n"[..];
    let reader =
        ValidatingBufReader::new(BufReader::with_capacity(4, ShortReads::new(input, &[3])));
    let lines: Vec<_> = reader.lines().collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0].as_ref().unwrap(), "one");
    assert_eq!(lines[1].as_ref().unwrap(), "twö");
    let error = utf8_error(lines[2].as_ref().unwrap_err());
    assert_eq!((error.valid_up_to(), error.error_len()), (12, Some(1)));
}

#[test]
fn read_to_string_of_valid_text() {
    let text = "Grüße, 世界! 💖\n".repeat(50);
    let mut reader = ValidatingReader::new(ShortReads::new(text.as_bytes(), &[1, 2, 3, 5, 8, 13]));
    let mut out = String::new();
    reader.read_to_string(&mut out).unwrap();
    assert_eq!(out, text);
}

fn any_stream() -> impl Strategy<Value = Vec<u8>> {
    let character = prop_oneof![
        3 => prop::char::range('\0', '\x7F'),
        1 => prop::char::range('\u{80}', '\u{FFFF}'),
        1 => prop::char::range('\u{10000}', '\u{10FFFF}'),
    ];
    let unit = prop_oneof![3 => 0u16..0x80, 1 => 0x80u16..=0xFFFF, 1 => 0xD800u16..=0xDFFF];
    prop_oneof![
        prop::collection::vec(character.clone(), 0..250)
            .prop_map(|c| String::from_iter(c).into_bytes()),
        prop::collection::vec(character, 0..250)
            .prop_map(|c| cesu8_from_str(&String::from_iter(c))),
        prop::collection::vec(unit.clone(), 0..250).prop_map(|u| mutf8_from_utf16(&u)),
        prop::collection::vec(unit, 0..250).prop_map(|u| wtf8_from_utf16(&u).0),
    ]
}

const SPLICES: &[&[u8]] = &[
    b"\xED\xA0\x80",
    b"\xED\xB0\x80",
    b"\xF0\x9F\x92\x96",
    b"\x00",
    b"\xC0\x80",
    b"\xE2\x82",
    b"\xFF",
    b"\x80",
];

proptest! {
    #![proptest_config(utf8_tests::proptest_config(2_000))]

    #[test]
    fn mutated_streams_in_random_reads(
        stream in any_stream(),
        mutations in prop::collection::vec(utf8_tests::mutation(SPLICES), 0..=3),
        sizes in prop::collection::vec(1usize..40, 1..8),
    ) {
        let mut bytes = stream;
        for mutation in &mutations {
            mutate(&mut bytes, mutation);
        }
        assert_every_ruleset(&bytes, &sizes);
    }
}
