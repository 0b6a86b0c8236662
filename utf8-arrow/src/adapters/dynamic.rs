//! The conversions for an array whose type is known at run time, as
//! arrow's `cast` takes it: `&dyn Array` in, `ArrayRef` out.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, LargeBinaryArray, StringViewArray,
};
use arrow_schema::DataType;

use super::{
    Utf8ArrowError, arrow_array, arrow_schema, to_string_array, to_string_array_lossy,
    to_string_view_array, to_string_view_array_lossy,
};

/// `array` as the string type of its layout, sharing its buffers, once
/// every row is UTF-8 (RFC 3629), null rows too: `Binary` → `Utf8`,
/// `LargeBinary` → `LargeUtf8`, `BinaryView` → `Utf8View`; a string array
/// comes back checked, its type unchanged. [`to_string_array`] and
/// [`to_string_view_array`] for each type; any other type is
/// [`Utf8ArrowError::UnsupportedType`].
///
/// ```
/// use std::sync::Arc;
/// use utf8_arrow::arrow_array::{Array, ArrayRef, BinaryArray};
/// use utf8_arrow::arrow_schema::DataType;
/// let array: ArrayRef = Arc::new(BinaryArray::from_iter_values([&b"caf\xC3\xA9"[..]]));
/// assert_eq!(utf8_arrow::to_string(&array)?.data_type(), &DataType::Utf8);
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn to_string(array: &dyn Array) -> Result<ArrayRef, Utf8ArrowError> {
    Ok(match array.data_type() {
        DataType::Binary => Arc::new(to_string_array(array.as_binary::<i32>())?),
        DataType::LargeBinary => Arc::new(to_string_array(array.as_binary::<i64>())?),
        DataType::BinaryView => Arc::new(to_string_view_array(array.as_binary_view())?),
        DataType::Utf8 => Arc::new(to_string_array(array.as_string::<i32>())?),
        DataType::LargeUtf8 => Arc::new(to_string_array(array.as_string::<i64>())?),
        DataType::Utf8View => Arc::new(to_string_view_array(array.as_string_view())?),
        other => return Err(Utf8ArrowError::UnsupportedType(other.clone())),
    })
}

/// [`to_string`] with each invalid row's invalid parts replaced by
/// U+FFFD ([`to_string_array_lossy`], [`to_string_view_array_lossy`]).
pub fn to_string_lossy(array: &dyn Array) -> Result<ArrayRef, Utf8ArrowError> {
    Ok(match array.data_type() {
        DataType::Binary => Arc::new(to_string_array_lossy(array.as_binary::<i32>())?),
        DataType::LargeBinary => Arc::new(to_string_array_lossy(array.as_binary::<i64>())?),
        DataType::BinaryView => Arc::new(to_string_view_array_lossy(array.as_binary_view())?),
        DataType::Utf8 => Arc::new(to_string_array_lossy(array.as_string::<i32>())?),
        DataType::LargeUtf8 => Arc::new(to_string_array_lossy(array.as_string::<i64>())?),
        DataType::Utf8View => Arc::new(to_string_view_array_lossy(array.as_string_view())?),
        other => return Err(Utf8ArrowError::UnsupportedType(other.clone())),
    })
}

/// `array`, of any of the six types, as a `Utf8View` array, once every row
/// is UTF-8 (RFC 3629), null rows too. A views array's views and buffers
/// are shared; an offsets array's values are shared as the views' one data
/// buffer (up to 4 GiB of them, past which arrow-rs copies them), with a
/// view made for each row.
///
/// ```
/// use utf8_arrow::arrow_array::{Array, BinaryArray};
/// let array = BinaryArray::from_iter_values([&b"a long enough caf\xC3\xA9"[..], b"lait"]);
/// assert_eq!(utf8_arrow::to_string_view(&array)?.value(0), "a long enough café");
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn to_string_view(array: &dyn Array) -> Result<StringViewArray, Utf8ArrowError> {
    let views = match array.data_type() {
        DataType::BinaryView => return to_string_view_array(array.as_binary_view()),
        DataType::Utf8View => return to_string_view_array(array.as_string_view()),
        DataType::Binary => BinaryViewArray::from(array.as_binary::<i32>()),
        DataType::LargeBinary => BinaryViewArray::from(array.as_binary::<i64>()),
        DataType::Utf8 => {
            BinaryViewArray::from(&BinaryArray::from(array.as_string::<i32>().clone()))
        }
        DataType::LargeUtf8 => {
            BinaryViewArray::from(&LargeBinaryArray::from(array.as_string::<i64>().clone()))
        }
        other => return Err(Utf8ArrowError::UnsupportedType(other.clone())),
    };
    to_string_view_array(&views)
}
