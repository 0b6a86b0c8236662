//! Which columns hold strings, and the type each is read as: its byte
//! twin, so that the Parquet reader hands over bytes it has not judged.

use std::sync::Arc;

use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};

/// Whether a column of this type holds strings anywhere inside it.
pub(crate) fn holds_strings(data_type: &DataType) -> bool {
    match data_type {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => true,
        DataType::List(child) | DataType::LargeList(child) | DataType::Map(child, _) => {
            holds_strings(child.data_type())
        }
        DataType::Struct(fields) => fields.iter().any(|f| holds_strings(f.data_type())),
        DataType::Dictionary(_, values) => holds_strings(values),
        _ => false,
    }
}

/// The type with each string type replaced by the binary type of the same
/// layout (`Utf8` by `Binary`, `LargeUtf8` by `LargeBinary`, `Utf8View` by
/// `BinaryView`), through lists, structs, maps and dictionaries.
pub(crate) fn as_bytes(data_type: &DataType) -> DataType {
    match data_type {
        DataType::Utf8 => DataType::Binary,
        DataType::LargeUtf8 => DataType::LargeBinary,
        DataType::Utf8View => DataType::BinaryView,
        DataType::List(child) => DataType::List(field_as_bytes(child)),
        DataType::LargeList(child) => DataType::LargeList(field_as_bytes(child)),
        DataType::Map(entries, sorted) => DataType::Map(field_as_bytes(entries), *sorted),
        DataType::Struct(fields) => DataType::Struct(fields_as_bytes(fields)),
        DataType::Dictionary(keys, values) => {
            DataType::Dictionary(keys.clone(), Box::new(as_bytes(values)))
        }
        other => other.clone(),
    }
}

/// The field, named and annotated as before, with its type [`as_bytes`].
pub(crate) fn field_as_bytes(field: &FieldRef) -> FieldRef {
    if !holds_strings(field.data_type()) {
        return Arc::clone(field);
    }
    Arc::new(Field::clone(field).with_data_type(as_bytes(field.data_type())))
}

/// Every field [`field_as_bytes`].
pub(crate) fn fields_as_bytes(fields: &Fields) -> Fields {
    fields.iter().map(field_as_bytes).collect()
}
