//! A file's footer walked before a Parquet reader parses it: its length
//! checked against the file, every Thrift length in it against the footer,
//! and its schema's tree against its own element count, so that no count
//! the footer declares is allocated or recursed on before it is known to
//! fit; then, once parsed, each column chunk's place against the bytes
//! before the footer.

use super::thrift::{Kind, Thrift};

/// Deeper than any schema a writer makes; the parquet crate and Arrow's
/// schema conversion recurse once a level, so a deeper one is refused
/// before either sees it.
pub const MAX_SCHEMA_DEPTH: usize = 256;

/// The length of the footer of a file of `file_len` bytes that ends with
/// `tail`: its last 8 bytes, the footer's length and Parquet's magic.
pub fn footer_length(file_len: u64, tail: &[u8; 8]) -> Result<u64, String> {
    if file_len < 12 {
        return Err(format!(
            "a file of {file_len} bytes is too small for Parquet"
        ));
    }
    if &tail[4..] != b"PAR1" {
        return Err("the file does not end with Parquet's magic bytes".to_owned());
    }
    let footer_len = u64::from(u32::from_le_bytes(tail[..4].try_into().expect("4 bytes")));
    if footer_len > file_len - 12 {
        return Err(format!(
            "a footer of {footer_len} bytes in a file of {file_len} bytes"
        ));
    }
    Ok(footer_len)
}

/// Walks the footer's `FileMetaData` to its end, reading its schema's
/// children counts on the way.
pub fn check_file_metadata(footer: &[u8]) -> Result<(), String> {
    let mut thrift = Thrift::new(footer);
    let mut last = 0;
    while let Some((id, kind)) = thrift.field(last)? {
        if (id, kind) == (2, Kind::List) {
            check_schema(&mut thrift)?;
        } else {
            thrift.skip(kind)?;
        }
        last = id;
    }
    Ok(())
}

/// The schema is a list of elements in depth-first order, each group
/// saying how many children follow it: each count must fit in the
/// elements left, and the tree must end where the list does.
fn check_schema(thrift: &mut Thrift<'_>) -> Result<(), String> {
    let (kind, len) = thrift.list()?;
    if kind != Kind::Struct {
        return Err("a schema that is not a list of elements".to_owned());
    }
    // The children each open group still expects, innermost last.
    let mut open: Vec<usize> = Vec::new();
    for index in 0..len {
        let children = schema_element_children(thrift)?;
        if index > 0 {
            match open.last_mut() {
                Some(expected) => *expected -= 1,
                None => {
                    return Err(format!(
                        "schema element {index} lies past its root's children"
                    ));
                }
            }
        }
        let left = len - index - 1;
        match usize::try_from(children) {
            Ok(0) => {}
            Ok(children) if children <= left => {
                open.push(children);
                if open.len() > MAX_SCHEMA_DEPTH {
                    return Err(format!(
                        "a schema nested over {MAX_SCHEMA_DEPTH} levels deep"
                    ));
                }
            }
            _ => {
                return Err(format!(
                    "schema element {index} declares {children} children where {left} elements follow"
                ));
            }
        }
        while open.last() == Some(&0) {
            open.pop();
        }
    }
    if !open.is_empty() {
        return Err("the schema ends before its groups' children".to_owned());
    }
    Ok(())
}

/// A schema element's `num_children` (field 5), 0 where it has none.
fn schema_element_children(thrift: &mut Thrift<'_>) -> Result<i64, String> {
    let mut children = 0;
    let mut last = 0;
    while let Some((id, kind)) = thrift.field(last)? {
        if (id, kind) == (5, Kind::I32) {
            children = i64::from(thrift.i32()?);
        } else {
            thrift.skip(kind)?;
        }
        last = id;
    }
    Ok(children)
}

/// Where the footer places a column chunk: what a reader's metadata says
/// of it, as the footer's Thrift numbers give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkPlace {
    /// The offset of its dictionary page, where it has one.
    pub dictionary_page_offset: Option<i64>,
    /// The offset of its first data page.
    pub data_page_offset: i64,
    /// Its length in the file, page headers included.
    pub compressed_size: i64,
    /// How many values (levels included) its pages hold.
    pub num_values: i64,
}

/// A column chunk's bytes, where the footer places them: between the
/// leading magic bytes and the footer, its values' count not negative. A
/// chunk without values or bytes may be placed anywhere: pyarrow writes an
/// empty table's at offset 0.
pub fn chunk_range(chunk: &ChunkPlace, footer_start: u64) -> Result<(u64, u64), String> {
    if chunk.compressed_size == 0 && chunk.num_values == 0 {
        return Ok((0, 0));
    }
    let start = chunk
        .dictionary_page_offset
        .unwrap_or(chunk.data_page_offset);
    let len = chunk.compressed_size;
    let placed = u64::try_from(start)
        .ok()
        .zip(u64::try_from(len).ok())
        .filter(|&(start, len)| start >= 4 && start.checked_add(len) <= Some(footer_start));
    match placed {
        Some(_) if chunk.num_values < 0 => {
            Err(format!("{} values in a column chunk", chunk.num_values))
        }
        Some(range) => Ok(range),
        None => Err(format!(
            "a column chunk of {len} bytes at {start}, where the row groups lie in 4..{footer_start}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A footer holding only a schema whose elements have these children.
    fn footer(children: &[i32]) -> Vec<u8> {
        let mut bytes = vec![0x29];
        assert!(children.len() < 15);
        bytes.push((children.len() as u8) << 4 | 12);
        for &count in children {
            if count != 0 {
                let zigzag = ((count << 1) ^ (count >> 31)) as u32;
                bytes.push(0x55);
                let mut rest = zigzag;
                loop {
                    let byte = (rest & 0x7F) as u8;
                    rest >>= 7;
                    if rest == 0 {
                        bytes.push(byte);
                        break;
                    }
                    bytes.push(byte | 0x80);
                }
            }
            bytes.push(0);
        }
        bytes.push(0);
        bytes
    }

    #[test]
    fn a_schema_tree_that_fits_its_elements_passes() {
        assert_eq!(check_file_metadata(&footer(&[2, 0, 1, 0])), Ok(()));
        assert_eq!(
            check_file_metadata(&footer(&[2, 1, 0])),
            Err("the schema ends before its groups' children".to_owned())
        );
    }

    #[test]
    fn a_group_declaring_more_children_than_follow_is_refused() {
        let error = check_file_metadata(&footer(&[i32::MAX, 0])).unwrap_err();
        assert!(
            error.contains("declares 2147483647 children where 1 elements follow"),
            "{error}"
        );
        assert!(check_file_metadata(&footer(&[-1, 0])).is_err());
        assert!(check_file_metadata(&footer(&[1, 0, 0])).is_err());
    }

    fn chunk(offset: i64, size: i64, values: i64) -> ChunkPlace {
        ChunkPlace {
            dictionary_page_offset: None,
            data_page_offset: offset,
            compressed_size: size,
            num_values: values,
        }
    }

    #[test]
    fn an_empty_chunk_may_be_anywhere_and_one_with_bytes_or_values_must_be_placed() {
        // pyarrow writes an empty table's chunks at offset 0.
        assert_eq!(chunk_range(&chunk(0, 0, 0), 4), Ok((0, 0)));
        assert!(chunk_range(&chunk(0, 0, 1), 4).is_err());
        assert!(chunk_range(&chunk(0, 1, 0), 100).is_err());
        assert!(chunk_range(&chunk(-1, 10, 1), 100).is_err());
        assert_eq!(chunk_range(&chunk(4, 96, 1), 100), Ok((4, 96)));
        assert!(chunk_range(&chunk(4, 97, 1), 100).is_err());
        assert!(chunk_range(&chunk(4, 1, -1), 100).is_err());
    }
}
