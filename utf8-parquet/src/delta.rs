//! The value counts of `DELTA_LENGTH_BYTE_ARRAY` and `DELTA_BYTE_ARRAY`
//! pages, checked before the parquet crate reads them: each begins with a
//! `DELTA_BINARY_PACKED` run of lengths (two, prefixes then suffixes, in
//! `DELTA_BYTE_ARRAY`) whose header states how many values it holds, and
//! parquet 60.1's decoders allocate a vector of that many lengths before
//! reading one (`DeltaByteArrayDecoder::new`): a count of 2⁵⁶ in a 2 KB
//! file asked for 2⁵⁸ bytes, and a failed allocation aborts the process,
//! which no panic hook contains. A run may not hold more values than its
//! page, whose count the page header states and the walk of the pages has
//! summed against the footer's.
//!
//! The pages come from the parquet crate's own page reader, decompressed
//! as the Arrow reader will see them; this module reads what follows their
//! levels the way the crate's decoders do, as far as the second header.

use std::sync::Arc;

use parquet::basic::Encoding;
use parquet::column::page::{Page, PageReader};
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::serialized_reader::SerializedPageReader;

use super::reader::RowGroupBytes;

/// Checks each `DELTA_LENGTH_BYTE_ARRAY` or `DELTA_BYTE_ARRAY` data page
/// of the chunk that `held` holds.
pub fn check_delta_pages(
    held: RowGroupBytes,
    chunk: &ColumnChunkMetaData,
    rows: usize,
) -> Result<(), String> {
    let (max_rep, max_def) = (
        chunk.column_descr().max_rep_level(),
        chunk.column_descr().max_def_level(),
    );
    let mut pages =
        SerializedPageReader::new(Arc::new(held), chunk, rows, None).map_err(|e| e.to_string())?;
    let mut index = 0usize;
    while let Some(page) = pages.get_next_page().map_err(|e| e.to_string())? {
        let (values, num_values, encoding) = match &page {
            Page::DataPage {
                buf,
                num_values,
                encoding,
                def_level_encoding,
                rep_level_encoding,
                ..
            } => {
                let mut at = 0;
                at = skip_v1_levels(buf, at, max_rep, *rep_level_encoding, *num_values);
                at = skip_v1_levels(buf, at, max_def, *def_level_encoding, *num_values);
                (buf.get(at..), *num_values, *encoding)
            }
            Page::DataPageV2 {
                buf,
                num_values,
                encoding,
                def_levels_byte_len,
                rep_levels_byte_len,
                ..
            } => {
                let at = *def_levels_byte_len as usize + *rep_levels_byte_len as usize;
                (buf.get(at..), *num_values, *encoding)
            }
            Page::DictionaryPage { .. } => (None, 0, Encoding::PLAIN),
        };
        if let Some(values) = values {
            check_runs(values, encoding, num_values).map_err(|e| format!("page {index}: {e}"))?;
        }
        index += 1;
    }
    Ok(())
}

/// Where a v1 data page's levels of `max_level` end, from `at`, as the
/// parquet crate reads them: none for a level of 0, an `i32` length then
/// that many bytes in RLE, a bit per level per bit of width in the old
/// bit-packed form. Past the buffer where they run past it (the crate then
/// fails on them).
fn skip_v1_levels(buf: &[u8], at: usize, max_level: i16, encoding: Encoding, values: u32) -> usize {
    if max_level <= 0 {
        return at;
    }
    match encoding {
        Encoding::RLE => buf
            .get(at..at.saturating_add(4))
            .map(|len| u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize)
            .map_or(usize::MAX, |len| at.saturating_add(4).saturating_add(len)),
        #[allow(deprecated)]
        Encoding::BIT_PACKED => {
            let width = 16 - (max_level as u16).leading_zeros() as usize;
            at.saturating_add((values as usize * width).div_ceil(8))
        }
        _ => usize::MAX,
    }
}

/// The runs of lengths at the start of a page's values.
fn check_runs(values: &[u8], encoding: Encoding, page_values: u32) -> Result<(), String> {
    match encoding {
        Encoding::DELTA_LENGTH_BYTE_ARRAY => {
            if let Some(run) = Run::read(values) {
                run.fits(page_values, "its lengths")?;
            }
        }
        Encoding::DELTA_BYTE_ARRAY => {
            if let Some(prefixes) = Run::read(values) {
                prefixes.fits(page_values, "its prefix lengths")?;
                let suffixes = prefixes
                    .end(values)
                    .and_then(|end| Run::read(values.get(end..)?));
                if let Some(suffixes) = suffixes {
                    suffixes.fits(page_values, "its suffix lengths")?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// A `DELTA_BINARY_PACKED` run's header, as the parquet crate's decoder
/// accepts it (`DeltaBitPackDecoder::set_data`).
struct Run {
    block_size: usize,
    mini_blocks: usize,
    values: u64,
    /// Where the first block begins.
    header_len: usize,
}

impl Run {
    /// The header at the start of `data`; `None` where the crate's decoder
    /// would refuse it before counting a value.
    fn read(data: &[u8]) -> Option<Run> {
        let mut at = 0;
        let block_size = usize::try_from(uleb(data, &mut at)?).ok()?;
        let mini_blocks = usize::try_from(uleb(data, &mut at)?).ok()?;
        let values = uleb(data, &mut at)?;
        uleb(data, &mut at)?; // the first value, zigzag-encoded
        let well_formed = mini_blocks > 0
            && block_size.is_multiple_of(128)
            && block_size.is_multiple_of(mini_blocks)
            && (block_size / mini_blocks).is_multiple_of(32);
        well_formed.then_some(Run {
            block_size,
            mini_blocks,
            values,
            header_len: at,
        })
    }

    fn fits(&self, page_values: u32, what: &str) -> Result<(), String> {
        if self.values <= u64::from(page_values) {
            Ok(())
        } else {
            Err(format!(
                "{what} declare {} values in a page of {page_values}",
                self.values
            ))
        }
    }

    /// Where the run ends once all its values are read, as the crate's
    /// decoder tells it (`get_offset`): past the header, each block's
    /// smallest delta, its mini-blocks' bit widths, and each mini-block
    /// that holds a value, at its bit width. `None` where the data ends
    /// first (the crate's decoder then fails before the next run).
    fn end(&self, data: &[u8]) -> Option<usize> {
        let per_mini_block = self.block_size / self.mini_blocks;
        let mut at = self.header_len;
        // The first value is in the header.
        let mut left = usize::try_from(self.values.saturating_sub(1)).ok()?;
        while left > 0 {
            uleb(data, &mut at)?; // the block's smallest delta
            let widths = data.get(at..at.checked_add(self.mini_blocks)?)?;
            at += self.mini_blocks;
            let mut remaining = left;
            for &width in widths {
                if remaining == 0 {
                    break;
                }
                if width > 32 {
                    return None;
                }
                remaining = remaining.saturating_sub(per_mini_block);
                at = at.checked_add(usize::from(width) * per_mini_block / 8)?;
            }
            left = left.saturating_sub(self.block_size);
        }
        (at <= data.len()).then_some(at)
    }
}

/// An unsigned LEB128 integer of at most ten bytes, as the crate's
/// `get_vlq_int` reads one; `None` past the data or where it is negative
/// as an `i64`.
fn uleb(data: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..70).step_by(7) {
        let byte = *data.get(*at)?;
        *at += 1;
        value |= u64::from(byte & 0x7F).checked_shl(shift)?;
        if byte & 0x80 == 0 {
            return i64::try_from(value).is_ok().then_some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uleb_bytes(mut value: u64) -> Vec<u8> {
        let mut out = Vec::new();
        loop {
            let byte = (value & 0x7F) as u8;
            value >>= 7;
            if value == 0 {
                out.push(byte);
                return out;
            }
            out.push(byte | 0x80);
        }
    }

    fn header(values: u64) -> Vec<u8> {
        let mut bytes = uleb_bytes(128);
        bytes.extend(uleb_bytes(4));
        bytes.extend(uleb_bytes(values));
        bytes.push(0); // first value 0
        bytes
    }

    #[test]
    fn a_run_holding_more_values_than_its_page_is_refused() {
        let run = header(1 << 56);
        let error = check_runs(&run, Encoding::DELTA_LENGTH_BYTE_ARRAY, 10).unwrap_err();
        assert!(
            error.contains("72057594037927936 values in a page of 10"),
            "{error}"
        );
        assert!(check_runs(&header(10), Encoding::DELTA_LENGTH_BYTE_ARRAY, 10).is_ok());
    }

    #[test]
    fn the_suffix_run_is_found_past_the_prefix_blocks_and_checked() {
        // Prefixes: 40 values, the first in the header, then one block of
        // 39 deltas: smallest delta 0, four widths (2, 1, 0, 0), the first
        // mini-block (32 values) at 2 bits, the second (7 values) at 1 bit.
        let mut page = header(40);
        page.push(0);
        page.extend([2, 1, 0, 0]);
        page.extend([0u8; 32 * 2 / 8]);
        page.extend([0u8; 32 / 8]);
        let prefixes = Run::read(&page).unwrap();
        assert_eq!(prefixes.end(&page), Some(page.len()));
        let mut bad = page.clone();
        bad.extend(header(1 << 40));
        let error = check_runs(&bad, Encoding::DELTA_BYTE_ARRAY, 40).unwrap_err();
        assert!(error.contains("its suffix lengths"), "{error}");
        page.extend(header(40));
        assert!(check_runs(&page, Encoding::DELTA_BYTE_ARRAY, 40).is_ok());
    }

    #[test]
    fn a_header_the_crate_refuses_is_left_to_it() {
        // A block size that is not a multiple of 128.
        let mut run = uleb_bytes(100);
        run.extend(uleb_bytes(4));
        run.extend(uleb_bytes(1 << 50));
        run.push(0);
        assert!(check_runs(&run, Encoding::DELTA_LENGTH_BYTE_ARRAY, 1).is_ok());
    }
}
