//! Validating while reading: adapters for `std::io::Read` and `BufRead`.

use std::io::{self, BufRead, Read};

use crate::dispatch::Rfc3629;
use crate::error::Utf8Error;
use crate::ruleset::Ruleset;
use crate::stream::Validator;

/// The error the first time it is asked for, then the end of the stream.
fn report(error: Utf8Error, reported: &mut bool) -> io::Result<()> {
    if std::mem::replace(reported, true) {
        Ok(())
    } else {
        Err(io::Error::new(io::ErrorKind::InvalidData, error))
    }
}

/// A reader that validates the bytes it passes on.
///
/// Every byte returned is part of the stream's valid prefix or of a sequence
/// still open at the end of a read. The first read that would pass on an
/// invalid byte returns the bytes before it instead, and the next read fails
/// with [`io::ErrorKind::InvalidData`] carrying the [`Utf8Error`] (positions
/// from the start of the stream); so does the end of a stream that stops
/// inside a sequence. After that error the reader is at its end (reads
/// return 0), so that loops over reads and lines stop.
///
/// ```
/// use std::io::Read;
/// let mut text = String::new();
/// utf8_core::ValidatingReader::new(&b"caf\xC3\xA9"[..]).read_to_string(&mut text)?;
/// assert_eq!(text, "café");
///
/// let mut bytes = Vec::new();
/// let e = utf8_core::ValidatingReader::new(&b"ok\xFF"[..]).read_to_end(&mut bytes).unwrap_err();
/// assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
/// let e = e.into_inner().unwrap().downcast::<utf8_core::Utf8Error>().unwrap();
/// assert_eq!((bytes.as_slice(), e.valid_up_to()), (&b"ok"[..], 2));
/// # Ok::<(), std::io::Error>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
#[derive(Debug)]
pub struct ValidatingReader<T, R: Ruleset = Rfc3629> {
    inner: T,
    validator: Validator<R>,
    error: Option<Utf8Error>,
    /// Whether the error has been returned once.
    reported: bool,
}

impl<T> ValidatingReader<T> {
    /// Wraps `inner`, validating RFC 3629 UTF-8.
    pub fn new(inner: T) -> Self {
        ValidatingReader::for_ruleset(inner)
    }
}

impl<T, R: Ruleset> ValidatingReader<T, R> {
    /// Wraps `inner`, validating ruleset `R`.
    pub fn for_ruleset(inner: T) -> Self {
        ValidatingReader {
            inner,
            validator: Validator::for_ruleset(),
            error: None,
            reported: false,
        }
    }

    /// The validator's view of the stream so far.
    pub fn validator(&self) -> &Validator<R> {
        &self.validator
    }

    /// The wrapped reader.
    pub fn into_inner(self) -> T {
        self.inner
    }
}

impl<T: Read, R: Ruleset> Read for ValidatingReader<T, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(error) = self.error {
            return report(error, &mut self.reported).map(|_| 0);
        }
        if buf.is_empty() {
            return Ok(0);
        }
        let n = self.inner.read(buf)?;
        if n == 0 {
            return match self.validator.finish() {
                Ok(()) => Ok(0),
                Err(error) => {
                    self.error = Some(error);
                    report(error, &mut self.reported).map(|_| 0)
                }
            };
        }
        let start = self.validator.bytes_read();
        match self.validator.update(&buf[..n]) {
            Ok(()) => Ok(n),
            Err(error) => {
                self.error = Some(error);
                match error.valid_up_to().saturating_sub(start) {
                    0 => report(error, &mut self.reported).map(|_| 0),
                    valid => Ok(valid),
                }
            }
        }
    }
}

/// A buffered reader that validates the bytes it hands out, for reading
/// lines or records: [`fill_buf`](BufRead::fill_buf) validates what the inner
/// reader buffered, hands out bytes up to the first invalid one, and then
/// fails once with [`io::ErrorKind::InvalidData`] and is at its end, as
/// [`ValidatingReader`] does.
///
/// ```
/// use std::io::BufRead;
/// let input = &b"one\ntw\xC3\xB6\nthr\xC3"[..];
/// let lines: Vec<_> = utf8_core::ValidatingBufReader::new(input).lines().collect();
/// assert_eq!(lines[0].as_ref().unwrap(), "one");
/// assert_eq!(lines[1].as_ref().unwrap(), "twö");
/// // The stream ends inside a sequence.
/// assert_eq!(lines[2].as_ref().unwrap_err().kind(), std::io::ErrorKind::InvalidData);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
#[derive(Debug)]
pub struct ValidatingBufReader<B, R: Ruleset = Rfc3629> {
    inner: B,
    validator: Validator<R>,
    /// Bytes handed out and consumed so far: the stream position of the
    /// front of the inner buffer.
    consumed: usize,
    error: Option<Utf8Error>,
    /// Whether the error has been returned once.
    reported: bool,
}

impl<B> ValidatingBufReader<B> {
    /// Wraps `inner`, validating RFC 3629 UTF-8.
    pub fn new(inner: B) -> Self {
        ValidatingBufReader::for_ruleset(inner)
    }
}

impl<B, R: Ruleset> ValidatingBufReader<B, R> {
    /// Wraps `inner`, validating ruleset `R`.
    pub fn for_ruleset(inner: B) -> Self {
        ValidatingBufReader {
            inner,
            validator: Validator::for_ruleset(),
            consumed: 0,
            error: None,
            reported: false,
        }
    }

    /// The validator's view of the stream so far.
    pub fn validator(&self) -> &Validator<R> {
        &self.validator
    }

    /// The wrapped reader.
    pub fn into_inner(self) -> B {
        self.inner
    }
}

impl<B: BufRead, R: Ruleset> BufRead for ValidatingBufReader<B, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let ValidatingBufReader {
            inner,
            validator,
            consumed,
            error,
            reported,
        } = self;
        if let Some(e) = *error
            && e.valid_up_to() <= *consumed
        {
            return report(e, reported).map(|()| &[][..]);
        }
        let buf = inner.fill_buf()?;
        if let Some(e) = *error {
            return Ok(&buf[..(e.valid_up_to() - *consumed).min(buf.len())]);
        }
        if buf.is_empty() {
            return match validator.finish() {
                Ok(()) => Ok(buf),
                Err(e) => {
                    *error = Some(e);
                    report(e, reported).map(|()| buf)
                }
            };
        }
        // The inner reader hands out the bytes it has not had consumed, so
        // the ones already validated are a prefix of `buf`.
        let checked = validator.bytes_read() - *consumed;
        if checked < buf.len()
            && let Err(e) = validator.update(&buf[checked..])
        {
            *error = Some(e);
            let valid = e.valid_up_to().saturating_sub(*consumed);
            if valid == 0 {
                return report(e, reported).map(|()| &[][..]);
            }
            return Ok(&buf[..valid.min(buf.len())]);
        }
        Ok(buf)
    }

    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
        self.consumed += amount;
    }
}

impl<B: BufRead, R: Ruleset> Read for ValidatingBufReader<B, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}
