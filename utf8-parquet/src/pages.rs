//! A column chunk's pages walked before the parquet crate reads them: each
//! page header read by the bounded Thrift reader, each size it declares
//! checked against the chunk's bytes and against what its codec's own
//! framing says the page decompresses to, and the values the pages hold
//! counted against the footer's.
//!
//! The crate allocates a page's declared uncompressed size before it
//! decompresses it, and pads a Snappy page that decompresses short with
//! zeros; an unchecked header is a way to make it allocate gigabytes from
//! a file of a kilobyte, or to accept a page that is not what it says.

use std::io::Read;

use super::thrift::{Kind, Thrift};

/// A column chunk's compression codec, as Parquet's Thrift
/// `CompressionCodec` numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Codec {
    /// 0: stored as is.
    Uncompressed,
    /// 1: raw Snappy, its length first.
    Snappy,
    /// 2: gzip members.
    Gzip,
    /// 3: LZO, which no Parquet reader of Rust reads.
    Lzo,
    /// 4: a Brotli stream.
    Brotli,
    /// 5: Hadoop's framing of LZ4 blocks (or a bare block).
    Lz4,
    /// 6: Zstandard frames.
    Zstd,
    /// 7: a bare LZ4 block.
    Lz4Raw,
}

impl Codec {
    /// The codec Parquet's Thrift number `number` names, if any.
    pub fn from_thrift(number: i32) -> Option<Codec> {
        Some(match number {
            0 => Codec::Uncompressed,
            1 => Codec::Snappy,
            2 => Codec::Gzip,
            3 => Codec::Lzo,
            4 => Codec::Brotli,
            5 => Codec::Lz4,
            6 => Codec::Zstd,
            7 => Codec::Lz4Raw,
            _ => return None,
        })
    }
}

/// Page types, as Parquet's Thrift numbers them.
const DATA_PAGE: i32 = 0;
const INDEX_PAGE: i32 = 1;
const DICTIONARY_PAGE: i32 = 2;
const DATA_PAGE_V2: i32 = 3;

/// The most a deflate stream decompresses to per byte (RFC 1951's longest
/// match, 258 bytes, in under two bits, amortised).
const DEFLATE_MAX_RATIO: usize = 1032;
/// The most an LZ4 block or frame decompresses to per byte: a match
/// length's extension bytes add 255 each.
const LZ4_MAX_RATIO: usize = 255;
/// Zstandard's largest block, which a 3-byte block header and one byte
/// (an RLE block) can describe.
const ZSTD_MAX_BLOCK: usize = 128 << 10;

/// What a page header says that the walk checks.
#[derive(Debug, Default)]
struct PageHeader {
    kind: i32,
    uncompressed: i32,
    compressed: i32,
    values: i32,
    /// A v2 data page's level bytes, stored uncompressed before its values.
    level_bytes: i64,
    /// A v2 data page's values may be stored uncompressed.
    values_compressed: bool,
    /// A data page's values' encoding, as Parquet's Thrift numbers it.
    encoding: i32,
}

/// `DELTA_LENGTH_BYTE_ARRAY` and `DELTA_BYTE_ARRAY`, as Parquet's Thrift
/// numbers them: their pages' runs of lengths are checked by `delta`.
const DELTA_BYTE_ARRAY_ENCODINGS: [i32; 2] = [6, 7];

impl PageHeader {
    fn read(thrift: &mut Thrift<'_>) -> Result<PageHeader, String> {
        let mut header = PageHeader {
            kind: -1,
            values_compressed: true,
            ..PageHeader::default()
        };
        let mut last = 0;
        while let Some((id, kind)) = thrift.field(last)? {
            match (id, kind) {
                (1, Kind::I32) => header.kind = thrift.i32()?,
                (2, Kind::I32) => header.uncompressed = thrift.i32()?,
                (3, Kind::I32) => header.compressed = thrift.i32()?,
                (5 | 7 | 8, Kind::Struct) => header.read_kind_header(thrift, id)?,
                _ => thrift.skip(kind)?,
            }
            last = id;
        }
        Ok(header)
    }

    /// The data page's (5), dictionary page's (7) or v2 data page's (8)
    /// own header.
    fn read_kind_header(&mut self, thrift: &mut Thrift<'_>, which: i16) -> Result<(), String> {
        let mut last = 0;
        while let Some((id, kind)) = thrift.field(last)? {
            match (which, id, kind) {
                (_, 1, Kind::I32) => self.values = thrift.i32()?,
                (5, 2, Kind::I32) | (8, 4, Kind::I32) => self.encoding = thrift.i32()?,
                (8, 5 | 6, Kind::I32) => self.level_bytes += i64::from(thrift.i32()?.max(-1)),
                (8, 7, Kind::True) => self.values_compressed = true,
                (8, 7, Kind::False) => self.values_compressed = false,
                _ => thrift.skip(kind)?,
            }
            last = id;
        }
        Ok(())
    }
}

/// What the walk of a chunk's pages found that a later check needs.
pub struct Walked {
    /// Whether a data page is `DELTA_LENGTH_BYTE_ARRAY` or
    /// `DELTA_BYTE_ARRAY`, whose runs of lengths `delta` checks.
    pub delta_byte_arrays: bool,
    /// Whether the chunk's dictionary page holds no values: every value of
    /// the chunk is then null, and the reader, never handed a dictionary,
    /// would hash each null into a dictionary of each batch.
    pub empty_dictionary: bool,
}

/// Walks the pages of a column chunk, `bytes` from its first page to its
/// end (or a run of its pages), compressed with `codec`; `values`, where
/// the bytes are the whole chunk, is how many values the footer says it
/// holds.
pub fn check_pages(bytes: &[u8], codec: Codec, values: Option<i64>) -> Result<Walked, String> {
    let mut walked = Walked {
        delta_byte_arrays: false,
        empty_dictionary: false,
    };
    let mut at = 0;
    let mut counted = 0i64;
    let mut page = 0usize;
    while at < bytes.len() {
        let mut thrift = Thrift::new(&bytes[at..]);
        let header =
            PageHeader::read(&mut thrift).map_err(|e| format!("page {page}'s header: {e}"))?;
        at += thrift.position();
        let body = usize::try_from(header.compressed)
            .ok()
            .and_then(|len| bytes.get(at..at.checked_add(len)?))
            .ok_or_else(|| {
                format!(
                    "page {page} declares {} bytes where its column chunk has {} left",
                    header.compressed,
                    bytes.len() - at
                )
            })?;
        at += body.len();
        match header.kind {
            DICTIONARY_PAGE if page > 0 => {
                return Err(format!("page {page} is a dictionary page after data pages"));
            }
            DATA_PAGE | DATA_PAGE_V2 | DICTIONARY_PAGE => {}
            INDEX_PAGE => {
                page += 1;
                continue;
            }
            other => return Err(format!("page {page} is of unknown type {other}")),
        }
        if header.values < 0 {
            return Err(format!("page {page} declares {} values", header.values));
        }
        if header.kind == DICTIONARY_PAGE {
            walked.empty_dictionary = header.values == 0;
        } else {
            counted += i64::from(header.values);
            walked.delta_byte_arrays |= DELTA_BYTE_ARRAY_ENCODINGS.contains(&header.encoding);
        }
        check_page_size(&header, body, codec).map_err(|e| format!("page {page}: {e}"))?;
        page += 1;
    }
    match values {
        Some(values) if values != counted => Err(format!(
            "its pages hold {counted} values where the footer says {values}"
        )),
        _ => Ok(walked),
    }
}

/// Whether a page's body decompresses to the size its header declares, as
/// far as the codec's framing tells without decompressing (Snappy's,
/// Zstandard's and gzip's say the size; LZ4's bound it), or by
/// decompressing it where nothing else bounds it (Brotli).
fn check_page_size(header: &PageHeader, body: &[u8], codec: Codec) -> Result<(), String> {
    let uncompressed = usize::try_from(header.uncompressed)
        .map_err(|_| format!("an uncompressed size of {}", header.uncompressed))?;
    let levels = if header.kind == DATA_PAGE_V2 {
        usize::try_from(header.level_bytes)
            .ok()
            .filter(|&levels| levels <= body.len() && levels <= uncompressed)
            .ok_or_else(|| {
                format!(
                    "{} bytes of levels in a page of {} bytes",
                    header.level_bytes,
                    body.len()
                )
            })?
    } else {
        0
    };
    let (values, expected) = (&body[levels..], uncompressed - levels);
    if codec == Codec::Uncompressed || !header.values_compressed {
        return same(values.len(), expected);
    }
    // The parquet crate reads an empty compressed section as no values.
    if expected == 0 {
        return Ok(());
    }
    match codec {
        Codec::Snappy => same(snappy_length(values)?, expected),
        Codec::Gzip => gzip_size(values, expected),
        Codec::Zstd => match zstd_content_size(values)? {
            Some(size) => same(size, expected),
            None => at_most(expected, zstd_bound(values)),
        },
        Codec::Lz4 | Codec::Lz4Raw => {
            at_most(expected, values.len().saturating_mul(LZ4_MAX_RATIO) + 64)
        }
        Codec::Brotli => {
            let mut decoder = brotli_decompressor::Decompressor::new(values, 4096);
            same(decompressed_len(&mut decoder, expected)?, expected)
        }
        // The parquet crate refuses LZO with a message of its own.
        Codec::Lzo | Codec::Uncompressed => Ok(()),
    }
}

fn same(found: usize, declared: usize) -> Result<(), String> {
    if found == declared {
        Ok(())
    } else {
        Err(format!(
            "it declares {declared} bytes uncompressed, and its data holds {found}"
        ))
    }
}

fn at_most(declared: usize, bound: usize) -> Result<(), String> {
    if declared <= bound {
        Ok(())
    } else {
        Err(format!(
            "it declares {declared} bytes uncompressed, more than its data can hold ({bound})"
        ))
    }
}

/// How many bytes `decoder` gives, up to one past `expected`: the stream
/// is read, not kept.
fn decompressed_len(decoder: &mut impl Read, expected: usize) -> Result<usize, String> {
    let limit = u64::try_from(expected)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    let len = std::io::copy(&mut decoder.take(limit), &mut std::io::sink())
        .map_err(|e| format!("its data does not decompress: {e}"))?;
    Ok(usize::try_from(len).unwrap_or(usize::MAX))
}

/// The uncompressed length a raw Snappy stream begins with.
fn snappy_length(data: &[u8]) -> Result<usize, String> {
    let mut len = 0usize;
    for (index, &byte) in data.iter().take(5).enumerate() {
        len |= usize::from(byte & 0x7F) << (7 * index);
        if byte & 0x80 == 0 {
            return Ok(len);
        }
    }
    Err("its Snappy data has no length".to_owned())
}

/// A gzip page: decompressed as the parquet crate will, so that its
/// checksum and length are both tested (the trailer's length alone is
/// modulo 2³², and is not the checksum).
fn gzip_size(data: &[u8], expected: usize) -> Result<(), String> {
    at_most(
        expected,
        data.len()
            .saturating_mul(DEFLATE_MAX_RATIO)
            .saturating_add(64),
    )?;
    let mut decoder = flate2::read::MultiGzDecoder::new(data);
    same(decompressed_len(&mut decoder, expected)?, expected)
}

/// The content size a Zstandard frame header states, if it states one.
fn zstd_content_size(data: &[u8]) -> Result<Option<usize>, String> {
    const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];
    let (Some(magic), Some(&descriptor)) = (data.get(..4), data.get(4)) else {
        return Err("its Zstandard data is cut short".to_owned());
    };
    if magic != MAGIC {
        return Err("its data is not a Zstandard frame".to_owned());
    }
    let single_segment = descriptor & 0x20 != 0;
    let size_bytes = match (descriptor >> 6, single_segment) {
        (0, false) => return Ok(None),
        (0, true) => 1,
        (1, _) => 2,
        (2, _) => 4,
        _ => 8,
    };
    let dictionary_bytes = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let start = 5 + usize::from(!single_segment) + dictionary_bytes;
    let field = data
        .get(start..start + size_bytes)
        .ok_or("its Zstandard frame header is cut short")?;
    let mut size = field
        .iter()
        .rev()
        .fold(0u64, |size, &byte| size << 8 | u64::from(byte));
    if size_bytes == 2 {
        size += 256;
    }
    Ok(Some(usize::try_from(size).unwrap_or(usize::MAX)))
}

/// The most a Zstandard frame of these bytes can decompress to: every
/// four bytes an RLE block of the largest size.
fn zstd_bound(data: &[u8]) -> usize {
    (data.len() / 4 + 1).saturating_mul(ZSTD_MAX_BLOCK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snappy_length_is_read_from_its_varint() {
        assert_eq!(snappy_length(&[0x80, 0x01, 0xFF]), Ok(128));
        assert!(snappy_length(&[0x80; 6]).is_err());
    }

    #[test]
    fn a_zstandard_frame_states_its_size_in_every_field_width() {
        let frame = |descriptor: u8, rest: &[u8]| {
            let mut data = vec![0x28, 0xB5, 0x2F, 0xFD, descriptor];
            data.extend_from_slice(rest);
            data
        };
        assert_eq!(zstd_content_size(&frame(0x20, &[7])), Ok(Some(7)));
        assert_eq!(zstd_content_size(&frame(0x60, &[1, 0])), Ok(Some(257)));
        assert_eq!(
            zstd_content_size(&frame(0x80, &[0, 1, 0, 0, 0])),
            Ok(Some(1))
        );
        assert_eq!(zstd_content_size(&frame(0x00, &[0])), Ok(None));
        assert!(zstd_content_size(&frame(0x80, &[0, 1])).is_err());
        assert!(zstd_content_size(&[1, 2, 3, 4, 5]).is_err());
    }
}
