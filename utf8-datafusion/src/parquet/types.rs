//! Which columns hold strings, and the type each is read as: its byte
//! twin, so that the Parquet reader hands over bytes it has not judged.

use std::sync::Arc;

use datafusion::arrow::datatypes::{Field, FieldRef, Fields};

pub(crate) use utf8_arrow::arrow59::{as_bytes, holds_strings};

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
