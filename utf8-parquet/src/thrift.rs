//! A reader of Thrift's compact protocol that trusts nothing: every length
//! is checked against the bytes left before anything is skipped or kept,
//! and nesting is bounded, so that walking a hostile footer or page header
//! costs at most its own length in time and nothing in memory.
//!
//! The parquet crate parses the same bytes afterwards; this walk comes first
//! so that what it would allocate or loop over on a declared size is known
//! to fit in the file.

/// Deeper nesting than any Parquet structure has (a footer's deepest is
/// six); past it a footer is refused rather than walked.
const MAX_NESTING: usize = 32;

/// A field or element type of the compact protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    True,
    False,
    Byte,
    I16,
    I32,
    I64,
    Double,
    Binary,
    List,
    Set,
    Map,
    Struct,
}

impl Kind {
    fn of(nibble: u8) -> Result<Kind, String> {
        Ok(match nibble {
            1 => Kind::True,
            2 => Kind::False,
            3 => Kind::Byte,
            4 => Kind::I16,
            5 => Kind::I32,
            6 => Kind::I64,
            7 => Kind::Double,
            8 => Kind::Binary,
            9 => Kind::List,
            10 => Kind::Set,
            11 => Kind::Map,
            12 => Kind::Struct,
            other => return Err(format!("a Thrift field of unknown type {other}")),
        })
    }

    /// The fewest bytes an element of this kind takes in a list, so that a
    /// declared count is checked against the bytes left.
    fn least_bytes(self) -> usize {
        match self {
            Kind::Double => 8,
            _ => 1,
        }
    }
}

/// Compact-protocol bytes being read, from `at` on.
pub struct Thrift<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Thrift<'a> {
    pub fn new(bytes: &'a [u8]) -> Thrift<'a> {
        Thrift { bytes, at: 0 }
    }

    /// How many bytes have been read.
    pub fn position(&self) -> usize {
        self.at
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn byte(&mut self) -> Result<u8, String> {
        let byte = *self
            .bytes
            .get(self.at)
            .ok_or("a Thrift structure cut short")?;
        self.at += 1;
        Ok(byte)
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], String> {
        if len > self.left() {
            return Err(format!(
                "a Thrift length of {len} bytes where {} are left",
                self.left()
            ));
        }
        let taken = &self.bytes[self.at..self.at + len];
        self.at += len;
        Ok(taken)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..70).step_by(7) {
            let byte = self.byte()?;
            if shift == 63 && byte > 1 {
                return Err("a Thrift integer past 64 bits".to_owned());
            }
            value |= u64::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("a Thrift integer past 64 bits".to_owned())
    }

    fn zigzag(&mut self) -> Result<i64, String> {
        let raw = self.varint()?;
        Ok((raw >> 1) as i64 ^ -((raw & 1) as i64))
    }

    /// An `i32` field's value.
    pub fn i32(&mut self) -> Result<i32, String> {
        i32::try_from(self.zigzag()?).map_err(|_| "a Thrift i32 out of range".to_owned())
    }

    /// A length or count, checked against the bytes left when each element
    /// takes at least `least` of them.
    fn count(&mut self, raw: u64, least: usize) -> Result<usize, String> {
        match usize::try_from(raw) {
            Ok(count) if count.saturating_mul(least) <= self.left() => Ok(count),
            _ => Err(format!(
                "a Thrift collection of {raw} elements where {} bytes are left",
                self.left()
            )),
        }
    }

    /// The next field of a struct, as its id and kind, after the field
    /// `last`; `None` at the struct's end.
    pub fn field(&mut self, last: i16) -> Result<Option<(i16, Kind)>, String> {
        let header = self.byte()?;
        if header == 0 {
            return Ok(None);
        }
        let kind = Kind::of(header & 0x0F)?;
        let delta = header >> 4;
        let id = if delta == 0 {
            i16::try_from(self.zigzag()?).map_err(|_| "a Thrift field id out of range")?
        } else {
            last.saturating_add(i16::from(delta))
        };
        Ok(Some((id, kind)))
    }

    /// A list's (or set's) element kind and length, the length checked.
    pub fn list(&mut self) -> Result<(Kind, usize), String> {
        let header = self.byte()?;
        let kind = Kind::of(header & 0x0F)?;
        let raw = match header >> 4 {
            15 => self.varint()?,
            short => u64::from(short),
        };
        Ok((kind, self.count(raw, kind.least_bytes())?))
    }

    /// Skips a value of `kind`, nested at most `MAX_NESTING` deep.
    pub fn skip(&mut self, kind: Kind) -> Result<(), String> {
        self.skip_nested(kind, 0)
    }

    fn skip_nested(&mut self, kind: Kind, depth: usize) -> Result<(), String> {
        if depth > MAX_NESTING {
            return Err(format!("Thrift structures nested over {MAX_NESTING} deep"));
        }
        match kind {
            Kind::True | Kind::False => {}
            Kind::Byte => {
                self.byte()?;
            }
            Kind::I16 | Kind::I32 | Kind::I64 => {
                self.varint()?;
            }
            Kind::Double => {
                self.take(8)?;
            }
            Kind::Binary => {
                let raw = self.varint()?;
                let len = self.count(raw, 1)?;
                self.take(len)?;
            }
            Kind::List | Kind::Set => {
                let (element, len) = self.list()?;
                refuse_booleans_in_collection(len, &[element])?;
                for _ in 0..len {
                    self.skip_nested(element, depth + 1)?;
                }
            }
            Kind::Map => {
                let raw = self.varint()?;
                let len = self.count(raw, 2)?;
                if len > 0 {
                    let kinds = self.byte()?;
                    let (key, value) = (Kind::of(kinds >> 4)?, Kind::of(kinds & 0x0F)?);
                    refuse_booleans_in_collection(len, &[key, value])?;
                    for _ in 0..len {
                        self.skip_nested(key, depth + 1)?;
                        self.skip_nested(value, depth + 1)?;
                    }
                }
            }
            Kind::Struct => {
                let mut last = 0;
                while let Some((id, field)) = self.field(last)? {
                    self.skip_nested(field, depth + 1)?;
                    last = id;
                }
            }
        }
        Ok(())
    }
}

/// The compact protocol gives a boolean in a collection a byte of its own,
/// but the parquet crate skips one without reading a byte (parquet 60.1's
/// `skip_till_depth`): past such a collection the two readers part ways, and
/// the crate, no longer walking what was checked, can loop on a count of 2³¹
/// booleans that take no bytes. No field of a footer or a page header holds
/// a collection of booleans (only the column index does, which is not read),
/// so a non-empty one is refused.
fn refuse_booleans_in_collection(len: usize, elements: &[Kind]) -> Result<(), String> {
    if len > 0
        && elements
            .iter()
            .any(|kind| matches!(kind, Kind::True | Kind::False))
    {
        return Err(format!(
            "a Thrift collection of {len} booleans, which no Parquet footer or page header holds"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_struct_of_every_kind_is_skipped_to_its_end() {
        // i32 1 = -1, binary 2 = "ab", list 3 of two i32, bool 4 true,
        // struct 5 { i64 1 = 300 }, double 6, map 7 {} then stop.
        let bytes = [
            0x15, 0x01, 0x18, 0x02, b'a', b'b', 0x19, 0x25, 0x02, 0x04, 0x11, 0x1C, 0x16, 0xD8,
            0x04, 0x00, 0x17, 0, 0, 0, 0, 0, 0, 0, 0, 0x1B, 0x00, 0x00, 0xFF,
        ];
        let mut thrift = Thrift::new(&bytes);
        thrift.skip(Kind::Struct).unwrap();
        assert_eq!(thrift.position(), bytes.len() - 1);
    }

    #[test]
    fn a_binary_longer_than_the_bytes_left_is_refused_before_it_is_read() {
        // The page header length that made the parquet crate skip 2³¹ bytes.
        let bytes = [0x18, 0xF9, 0xF7, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00];
        let error = Thrift::new(&bytes).skip(Kind::Struct).unwrap_err();
        assert!(error.contains("where 1 bytes are left"), "{error}");
    }

    #[test]
    fn a_list_longer_than_the_bytes_left_is_refused() {
        let bytes = [0x19, 0xF5, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00];
        assert!(Thrift::new(&bytes).skip(Kind::Struct).is_err());
    }

    #[test]
    fn a_collection_of_booleans_is_refused_where_the_parquet_crate_would_read_it_otherwise() {
        // Found by the fuzzer: list 1 of five booleans, which the crate
        // skipped as no bytes, and so read the five as a list of 2³⁰
        // booleans to skip one at a time.
        let list = [0x19, 0x52, 0x54, 0x00, 0x19, 0xF1, 0xF1, 0x00];
        let error = Thrift::new(&list).skip(Kind::Struct).unwrap_err();
        assert!(error.contains("5 booleans"), "{error}");
        // map 1 of one i32 to a boolean.
        let map = [0x1B, 0x01, 0x51, 0x02, 0x01, 0x00];
        assert!(Thrift::new(&map).skip(Kind::Struct).is_err());
        // Empty collections of booleans hold no bytes to disagree on.
        let empty = [0x19, 0x01, 0x1B, 0x00, 0x00];
        let mut thrift = Thrift::new(&empty);
        thrift.skip(Kind::Struct).unwrap();
        assert_eq!(thrift.position(), empty.len());
    }

    #[test]
    fn nesting_is_bounded_at_its_limit() {
        let nested = |depth: usize| {
            let mut bytes = vec![0x1C; depth];
            bytes.extend(std::iter::repeat_n(0, depth + 1));
            bytes
        };
        assert!(Thrift::new(&nested(MAX_NESTING)).skip(Kind::Struct).is_ok());
        assert!(
            Thrift::new(&nested(MAX_NESTING + 1))
                .skip(Kind::Struct)
                .is_err()
        );
    }

    #[test]
    fn an_integer_of_more_than_ten_bytes_is_refused() {
        let bytes = [
            0x15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
        ];
        assert!(Thrift::new(&bytes).skip(Kind::Struct).is_err());
    }
}
