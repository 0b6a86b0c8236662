//! Strings at any depth: the byte strings inside lists, large lists,
//! structs, maps and dictionaries found, checked by the column check, and
//! converted to strings over the same buffers; each bad value named by the
//! row of the outer array that holds it and the path to it.
//!
//! What is a string is said by a target type, the array's own with its
//! string leaves as strings (`Utf8`, `LargeUtf8`, `Utf8View` where the
//! array has `Binary`, `LargeBinary`, `BinaryView` or a string type): a
//! reader that read strings as bytes says which were strings
//! ([`as_bytes`] is the way there, the target the way back), and
//! [`as_strings`] makes every byte string one.
//!
//! Only values count: a null row, a row whose struct or list is null, a
//! list's elements outside its rows (a slice's), and a dictionary's values
//! that no row uses hold no value, whatever their bytes. A conversion
//! repairs the bad bytes there with U+FFFD, since a string array promises
//! UTF-8 in every slot.

use std::sync::Arc;

use super::{
    InvalidValue, OnInvalid, Utf8ArrowError, arrow_array, arrow_buffer, arrow_schema,
    invalid_rows_as, to_string, to_string_lossy,
};

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BinaryArray, GenericListArray, LargeBinaryArray, MapArray, OffsetSizeTrait,
    StructArray, make_array,
};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use arrow_schema::{ArrowError, DataType, Field, FieldRef, Fields};
use utf8_core::{Rfc3629, Ruleset};

/// Why a conversion of a nested array failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum NestedError {
    /// A bad value, under [`OnInvalid::Fail`]: the first, by row.
    Invalid(InvalidValue),
    /// A malformed layout, or a type this module does not read.
    Utf8Arrow(Utf8ArrowError),
    /// arrow-rs refused an array put back together (a target type that
    /// does not fit the array).
    Arrow(ArrowError),
}

impl std::fmt::Display for NestedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NestedError::Invalid(e) => e.fmt(f),
            NestedError::Utf8Arrow(e) => e.fmt(f),
            NestedError::Arrow(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for NestedError {}

impl From<Utf8ArrowError> for NestedError {
    fn from(e: Utf8ArrowError) -> Self {
        NestedError::Utf8Arrow(e)
    }
}

impl From<ArrowError> for NestedError {
    fn from(e: ArrowError) -> Self {
        NestedError::Arrow(e)
    }
}

/// Whether arrays of this type promise UTF-8 in every slot.
pub(super) fn is_string(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    )
}

fn is_binary(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView
    )
}

/// Whether a type holds strings anywhere inside it, through lists, large
/// lists, structs, maps and dictionaries.
pub fn holds_strings(data_type: &DataType) -> bool {
    match data_type {
        t if is_string(t) => true,
        DataType::List(child) | DataType::LargeList(child) | DataType::Map(child, _) => {
            holds_strings(child.data_type())
        }
        DataType::Struct(fields) => fields.iter().any(|f| holds_strings(f.data_type())),
        DataType::Dictionary(_, values) => holds_strings(values),
        _ => false,
    }
}

/// Whether a type holds byte strings (binary or string) anywhere inside it.
pub fn holds_byte_strings(data_type: &DataType) -> bool {
    is_binary(data_type) || holds_strings(&as_strings(data_type))
}

/// The type with each leaf mapped, through lists, large lists, structs,
/// maps and dictionaries; fields keep their names, nullability and
/// metadata.
fn mapped(data_type: &DataType, leaf: &impl Fn(&DataType) -> Option<DataType>) -> DataType {
    let field = |f: &FieldRef| -> FieldRef {
        Arc::new(Field::clone(f).with_data_type(mapped(f.data_type(), leaf)))
    };
    match data_type {
        DataType::List(child) => DataType::List(field(child)),
        DataType::LargeList(child) => DataType::LargeList(field(child)),
        DataType::Map(entries, sorted) => DataType::Map(field(entries), *sorted),
        DataType::Struct(fields) => DataType::Struct(fields.iter().map(field).collect()),
        DataType::Dictionary(keys, values) => {
            DataType::Dictionary(keys.clone(), Box::new(mapped(values, leaf)))
        }
        other => leaf(other).unwrap_or_else(|| other.clone()),
    }
}

/// The type with each string type replaced by the binary type of its
/// layout (`Utf8` by `Binary`, `LargeUtf8` by `LargeBinary`, `Utf8View` by
/// `BinaryView`): what to read a column as so that the reader does not
/// judge its strings.
pub fn as_bytes(data_type: &DataType) -> DataType {
    mapped(data_type, &|leaf| match leaf {
        DataType::Utf8 => Some(DataType::Binary),
        DataType::LargeUtf8 => Some(DataType::LargeBinary),
        DataType::Utf8View => Some(DataType::BinaryView),
        _ => None,
    })
}

/// The type with each binary type replaced by the string type of its
/// layout: every byte string a string.
pub fn as_strings(data_type: &DataType) -> DataType {
    mapped(data_type, &|leaf| match leaf {
        DataType::Binary => Some(DataType::Utf8),
        DataType::LargeBinary => Some(DataType::LargeUtf8),
        DataType::BinaryView => Some(DataType::Utf8View),
        _ => None,
    })
}

/// Every bad value of the string leaves of `array` that `target` types as
/// strings (RFC 3629), by row, then by path within a row.
///
/// ```
/// use std::sync::Arc;
/// use utf8_arrow::arrow_array::{Array, ListArray, BinaryArray};
/// use utf8_arrow::arrow_buffer::OffsetBuffer;
/// use utf8_arrow::arrow_schema::{DataType, Field};
/// let values = BinaryArray::from_iter_values([&b"ok"[..], b"caf\xC3", b"\xA9lait"]);
/// let field = Arc::new(Field::new("element", DataType::Binary, true));
/// let lists = ListArray::new(field, OffsetBuffer::from_lengths([1, 2]), Arc::new(values), None);
/// let target = utf8_arrow::as_strings(lists.data_type());
/// let bad = utf8_arrow::invalid_values(&lists, &target)?;
/// let found: Vec<_> = bad.iter().map(|v| (v.path(), v.row(), v.valid_up_to())).collect();
/// assert_eq!(found, [("element", 1, 3), ("element", 1, 0)]);
/// # Ok::<(), utf8_arrow::Utf8ArrowError>(())
/// ```
pub fn invalid_values(
    array: &dyn Array,
    target: &DataType,
) -> Result<Vec<InvalidValue>, Utf8ArrowError> {
    invalid_values_as::<Rfc3629>(array, target)
}

/// [`invalid_values`] under any ruleset of utf8-core.
pub fn invalid_values_as<R: Ruleset>(
    array: &dyn Array,
    target: &DataType,
) -> Result<Vec<InvalidValue>, Utf8ArrowError> {
    let mut found = match target {
        t if is_string(t) => leaf_invalid::<R>(array)?,
        DataType::Struct(fields) => struct_invalid::<R>(array, fields)?,
        DataType::List(field) => match array.data_type() {
            DataType::List(_) => list_invalid::<R, i32>(array.as_list::<i32>(), field)?,
            other => return Err(Utf8ArrowError::UnsupportedType(other.clone())),
        },
        DataType::LargeList(field) => match array.data_type() {
            DataType::LargeList(_) => list_invalid::<R, i64>(array.as_list::<i64>(), field)?,
            other => return Err(Utf8ArrowError::UnsupportedType(other.clone())),
        },
        DataType::Map(field, _) => map_invalid::<R>(array, field)?,
        DataType::Dictionary(_, values) => dictionary_invalid::<R>(array, values)?,
        _ => Vec::new(),
    };
    // Stable: a row's values stay in the order of the paths.
    found.sort_by_key(InvalidValue::row);
    Ok(found)
}

/// A byte string's bytes; `row` in bounds, the layout checked.
fn value_bytes(array: &dyn Array, row: usize) -> Vec<u8> {
    match array.data_type() {
        DataType::Binary => array.as_binary::<i32>().value(row).to_vec(),
        DataType::LargeBinary => array.as_binary::<i64>().value(row).to_vec(),
        DataType::BinaryView => array.as_binary_view().value(row).to_vec(),
        // A bad value of a string array is read through the binary array
        // over the same buffers, never as `&str`.
        DataType::Utf8 => BinaryArray::from(array.as_string::<i32>().clone())
            .value(row)
            .to_vec(),
        DataType::LargeUtf8 => LargeBinaryArray::from(array.as_string::<i64>().clone())
            .value(row)
            .to_vec(),
        DataType::Utf8View => array
            .as_string_view()
            .clone()
            .to_binary_view()
            .value(row)
            .to_vec(),
        _ => Vec::new(),
    }
}

fn leaf_invalid<R: Ruleset>(array: &dyn Array) -> Result<Vec<InvalidValue>, Utf8ArrowError> {
    Ok(invalid_rows_as::<R>(array)?
        .map(|(row, error)| InvalidValue::new(row, error, &value_bytes(array, row)))
        .collect())
}

fn struct_invalid<R: Ruleset>(
    array: &dyn Array,
    fields: &Fields,
) -> Result<Vec<InvalidValue>, Utf8ArrowError> {
    let DataType::Struct(own) = array.data_type() else {
        return Err(Utf8ArrowError::UnsupportedType(array.data_type().clone()));
    };
    if own.len() != fields.len() {
        return Err(Utf8ArrowError::UnsupportedType(array.data_type().clone()));
    }
    let array = array.as_struct();
    let mut found = Vec::new();
    for (field, column) in fields.iter().zip(array.columns()) {
        if !holds_strings(field.data_type()) {
            continue;
        }
        for bad in invalid_values_as::<R>(column.as_ref(), field.data_type())? {
            if array.is_valid(bad.row()) {
                let row = bad.row();
                found.push(bad.inside(Some(field.name()), row));
            }
        }
    }
    Ok(found)
}

/// The row of a list whose elements include `element`, if one does: the
/// elements outside the rows' span (a slice's), and those of a null row,
/// are no values.
fn row_of<O: OffsetSizeTrait>(
    offsets: &[O],
    nulls: Option<&NullBuffer>,
    element: usize,
) -> Option<usize> {
    let row = offsets
        .partition_point(|offset| offset.as_usize() <= element)
        .checked_sub(1)?;
    let inside = row + 1 < offsets.len() && element < offsets[row + 1].as_usize();
    (inside && nulls.is_none_or(|nulls| nulls.is_valid(row))).then_some(row)
}

/// The bad values of a list's (or map's) elements, each moved to the row
/// whose elements hold it.
fn elements_invalid<O: OffsetSizeTrait>(
    bad: Vec<InvalidValue>,
    offsets: &[O],
    nulls: Option<&NullBuffer>,
    field: &FieldRef,
) -> Vec<InvalidValue> {
    bad.into_iter()
        .filter_map(|bad| {
            let row = row_of(offsets, nulls, bad.row())?;
            Some(bad.inside(Some(field.name()), row))
        })
        .collect()
}

fn list_invalid<R: Ruleset, O: OffsetSizeTrait>(
    array: &GenericListArray<O>,
    field: &FieldRef,
) -> Result<Vec<InvalidValue>, Utf8ArrowError> {
    let bad = invalid_values_as::<R>(array.values().as_ref(), field.data_type())?;
    Ok(elements_invalid(
        bad,
        array.value_offsets(),
        array.nulls(),
        field,
    ))
}

fn map_invalid<R: Ruleset>(
    array: &dyn Array,
    field: &FieldRef,
) -> Result<Vec<InvalidValue>, Utf8ArrowError> {
    let DataType::Map(..) = array.data_type() else {
        return Err(Utf8ArrowError::UnsupportedType(array.data_type().clone()));
    };
    let array = array.as_map();
    let bad = invalid_values_as::<R>(array.entries(), field.data_type())?;
    Ok(elements_invalid(
        bad,
        array.value_offsets(),
        array.nulls(),
        field,
    ))
}

/// A dictionary's values are checked once; each bad value is reported at
/// every row that uses it.
fn dictionary_invalid<R: Ruleset>(
    array: &dyn Array,
    values_target: &DataType,
) -> Result<Vec<InvalidValue>, Utf8ArrowError> {
    let DataType::Dictionary(..) = array.data_type() else {
        return Err(Utf8ArrowError::UnsupportedType(array.data_type().clone()));
    };
    let dictionary = array.as_any_dictionary();
    let values = dictionary.values();
    let bad_values = invalid_values_as::<R>(values.as_ref(), values_target)?;
    if bad_values.is_empty() {
        return Ok(Vec::new());
    }
    let mut first_bad: Vec<Option<usize>> = vec![None; values.len()];
    for (i, bad) in bad_values.iter().enumerate().rev() {
        first_bad[bad.row()] = Some(i);
    }
    let keys = dictionary.normalized_keys();
    let mut found = Vec::new();
    for (row, &key) in keys.iter().enumerate() {
        if array.is_null(row) {
            continue;
        }
        let Some(&Some(first)) = first_bad.get(key) else {
            continue;
        };
        // Every bad value of the dictionary's entry `key` (one, but for a
        // nested entry with several).
        for bad in bad_values[first..]
            .iter()
            .take_while(|bad| bad.row() == key)
        {
            found.push(bad.clone().inside(None, row));
        }
    }
    Ok(found)
}

/// `array` with the string leaves `target` says as strings, over the same
/// buffers where they are UTF-8; a bad value fails the conversion, becomes
/// a null or is repaired, as `on_invalid` asks (a value whose field may
/// not be null, such as a map's key, is repaired under
/// [`OnInvalid::Null`]). Bytes that are no value
/// (under a null, outside a list's rows, a dictionary value no row uses)
/// are repaired where they are not UTF-8.
///
/// ```
/// use std::sync::Arc;
/// use utf8_arrow::OnInvalid;
/// use utf8_arrow::arrow_array::{Array, ArrayRef, BinaryArray, StructArray};
/// use utf8_arrow::arrow_array::cast::AsArray;
/// use utf8_arrow::arrow_schema::{DataType, Field};
/// let city: ArrayRef = Arc::new(BinaryArray::from_iter_values([&b"Z\xC3\xBCrich"[..], b"caf\xC3"]));
/// let array: ArrayRef = Arc::new(StructArray::from(vec![(
///     Arc::new(Field::new("city", DataType::Binary, true)),
///     city,
/// )]));
/// let target = utf8_arrow::as_strings(array.data_type());
/// let e = utf8_arrow::to_strings(&array, &target, OnInvalid::Fail).unwrap_err();
/// assert_eq!(e.to_string(), "column city: row 1: invalid UTF-8 at byte 3 of the value (C3, the value ends inside a character)");
/// let nulled = utf8_arrow::to_strings(&array, &target, OnInvalid::Null)?;
/// assert_eq!(nulled.data_type(), &target);
/// assert_eq!(nulled.as_struct().column(0).null_count(), 1);
/// # Ok::<(), utf8_arrow::NestedError>(())
/// ```
pub fn to_strings(
    array: &ArrayRef,
    target: &DataType,
    on_invalid: OnInvalid,
) -> Result<ArrayRef, NestedError> {
    // Valid data is checked once: a bad byte anywhere stops this first
    // conversion, and only then are the values looked at one by one.
    if let Some(strings) = converted(array, target, Mode::Strict)? {
        return Ok(strings);
    }
    if on_invalid == OnInvalid::Fail
        && let Some(first) = invalid_values(array.as_ref(), target)?.into_iter().next()
    {
        return Err(NestedError::Invalid(first));
    }
    converted(array, target, Mode::Repair(on_invalid))?
        .ok_or_else(|| ArrowError::ComputeError("a repair left a bad value".into()).into())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Any bad byte: `None`.
    Strict,
    /// Bad bytes repaired; the bad values (none, for `Fail`) as asked.
    Repair(OnInvalid),
}

impl Mode {
    /// The mode for the values of `field`: a field that may not be null
    /// (a map's key) has its bad values repaired instead of nulled.
    fn inside(self, field: &Field) -> Mode {
        match self {
            Mode::Repair(OnInvalid::Null) if !field.is_nullable() => {
                Mode::Repair(OnInvalid::Replace)
            }
            other => other,
        }
    }
}

fn converted(
    array: &ArrayRef,
    target: &DataType,
    mode: Mode,
) -> Result<Option<ArrayRef>, NestedError> {
    if !holds_strings(target) {
        return Ok(Some(Arc::clone(array)));
    }
    match target {
        t if is_string(t) => leaf_converted(array, t, mode),
        DataType::Struct(fields) => struct_converted(array, fields, mode),
        DataType::List(field) => match array.data_type() {
            DataType::List(_) => list_converted(array.as_list::<i32>(), field, mode),
            other => Err(Utf8ArrowError::UnsupportedType(other.clone()).into()),
        },
        DataType::LargeList(field) => match array.data_type() {
            DataType::LargeList(_) => list_converted(array.as_list::<i64>(), field, mode),
            other => Err(Utf8ArrowError::UnsupportedType(other.clone()).into()),
        },
        DataType::Map(field, sorted) => map_converted(array, field, *sorted, mode),
        DataType::Dictionary(_, values) => dictionary_converted(array, values, mode),
        _ => Ok(Some(Arc::clone(array))),
    }
}

/// `array` with the rows where `bad` is set made null.
fn with_nulls(array: ArrayRef, bad: BooleanBuffer) -> Result<ArrayRef, NestedError> {
    let kept = NullBuffer::new(!&bad);
    let nulls = NullBuffer::union(Some(&kept), array.nulls());
    let data = array.to_data().into_builder().nulls(nulls).build()?;
    Ok(make_array(data))
}

fn leaf_converted(
    array: &ArrayRef,
    target: &DataType,
    mode: Mode,
) -> Result<Option<ArrayRef>, NestedError> {
    let strings = match to_string(array.as_ref()) {
        Ok(strings) => Ok(strings),
        Err(e) if e.layout_error().is_some() || e.utf8_error().is_none() => return Err(e.into()),
        Err(_) if mode == Mode::Strict => return Ok(None),
        Err(_) => Err(to_string_lossy(array.as_ref())?),
    };
    let converted = match strings {
        Ok(strings) => strings,
        Err(repaired) if mode == Mode::Repair(OnInvalid::Null) => {
            let mut bad = vec![false; array.len()];
            for (row, _) in invalid_rows_as::<Rfc3629>(array.as_ref())? {
                bad[row] = true;
            }
            with_nulls(repaired, BooleanBuffer::from(bad))?
        }
        Err(repaired) => repaired,
    };
    if converted.data_type() != target {
        return Err(ArrowError::InvalidArgumentError(format!(
            "a {} array read as {target}: strings take the layout of their bytes",
            array.data_type()
        ))
        .into());
    }
    Ok(Some(converted))
}

fn struct_converted(
    array: &ArrayRef,
    fields: &Fields,
    mode: Mode,
) -> Result<Option<ArrayRef>, NestedError> {
    let DataType::Struct(own) = array.data_type() else {
        return Err(Utf8ArrowError::UnsupportedType(array.data_type().clone()).into());
    };
    if own.len() != fields.len() {
        return Err(Utf8ArrowError::UnsupportedType(array.data_type().clone()).into());
    }
    let array = array.as_struct();
    let mut columns = Vec::with_capacity(fields.len());
    for (field, column) in fields.iter().zip(array.columns()) {
        match converted(column, field.data_type(), mode.inside(field))? {
            Some(column) => columns.push(column),
            None => return Ok(None),
        }
    }
    let rebuilt = StructArray::try_new(fields.clone(), columns, array.nulls().cloned())?;
    Ok(Some(Arc::new(rebuilt)))
}

fn list_converted<O: OffsetSizeTrait>(
    array: &GenericListArray<O>,
    field: &FieldRef,
    mode: Mode,
) -> Result<Option<ArrayRef>, NestedError> {
    let Some(values) = converted(array.values(), field.data_type(), mode.inside(field))? else {
        return Ok(None);
    };
    let rebuilt = GenericListArray::<O>::try_new(
        Arc::clone(field),
        array.offsets().clone(),
        values,
        array.nulls().cloned(),
    )?;
    Ok(Some(Arc::new(rebuilt)))
}

fn map_converted(
    array: &ArrayRef,
    field: &FieldRef,
    sorted: bool,
    mode: Mode,
) -> Result<Option<ArrayRef>, NestedError> {
    let DataType::Map(..) = array.data_type() else {
        return Err(Utf8ArrowError::UnsupportedType(array.data_type().clone()).into());
    };
    let array = array.as_map();
    let entries: ArrayRef = Arc::new(array.entries().clone());
    let Some(entries) = converted(&entries, field.data_type(), mode.inside(field))? else {
        return Ok(None);
    };
    let rebuilt = MapArray::try_new(
        Arc::clone(field),
        array.offsets().clone(),
        entries.as_struct().clone(),
        array.nulls().cloned(),
        sorted,
    )?;
    Ok(Some(Arc::new(rebuilt)))
}

/// A dictionary's values are converted once; under `Null`, the rows that
/// use a bad value become null.
fn dictionary_converted(
    array: &ArrayRef,
    values_target: &DataType,
    mode: Mode,
) -> Result<Option<ArrayRef>, NestedError> {
    let DataType::Dictionary(..) = array.data_type() else {
        return Err(Utf8ArrowError::UnsupportedType(array.data_type().clone()).into());
    };
    let dictionary = array.as_any_dictionary();
    let values = dictionary.values();
    // A bad value is repaired in the dictionary; its rows are nulled here.
    let values_mode = match mode {
        Mode::Repair(OnInvalid::Null) => Mode::Repair(OnInvalid::Replace),
        other => other,
    };
    let Some(repaired) = converted(values, values_target, values_mode)? else {
        return Ok(None);
    };
    let converted = dictionary.with_values(repaired);
    if mode != Mode::Repair(OnInvalid::Null) {
        return Ok(Some(converted));
    }
    let mut bad_value = vec![false; values.len()];
    for bad in invalid_values(values.as_ref(), values_target)? {
        bad_value[bad.row()] = true;
    }
    let keys = dictionary.normalized_keys();
    let bad: BooleanBuffer = keys
        .iter()
        .map(|&key| bad_value.get(key).copied().unwrap_or(false))
        .collect();
    Ok(Some(with_nulls(converted, bad)?))
}
