//! What a check reports: the row, and what is wrong with it; and the same
//! as Arrow's own [`ArrowError`].

use core::fmt;

use super::arrow_schema;
use arrow_schema::{ArrowError, DataType};
use utf8_core::Utf8Error;
use utf8_core::column::{ColumnError, Layout};

/// Why an array failed a check or a conversion.
///
/// Rows are counted from the array's first, as the array was given: a
/// sliced array's row 0 is the slice's first row. The row is the
/// [`ColumnError`]'s ([`column_error`](Self::column_error)), as in
/// utf8-core: an unsupported type has none.
///
/// ```
/// use utf8_arrow::arrow_array::BinaryArray;
/// let array = BinaryArray::from_iter_values([&b"ok"[..], b"caf\xC3", b"\xA9lait"]);
/// let e = utf8_arrow::validate(&array).unwrap_err();
/// assert_eq!(e.column_error().map(|e| e.row()), Some(1));
/// assert_eq!(e.to_string(), "Encountered non-UTF-8 data at index 1: incomplete utf-8 byte sequence from index 3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Utf8ArrowError {
    /// A row that is not null holds bytes outside the ruleset, or the
    /// array's layout (offsets, views, null bitmap) is malformed at a row.
    Column(ColumnError),
    /// A null row holds bytes that are not UTF-8. Arrow allows any bytes
    /// under a null in a `Binary` array, but not in a `Utf8` one (its
    /// `try_new` and `validate_full` check every row), so the conversion
    /// to a string array refuses them; the lossy conversion repairs them.
    InvalidUnderNull(ColumnError),
    /// The array's type holds no strings: only `Binary`, `LargeBinary`,
    /// `BinaryView`, `Utf8`, `LargeUtf8` and `Utf8View` are checked.
    UnsupportedType(DataType),
}

impl Utf8ArrowError {
    /// The validation error inside the row, relative to the row's start;
    /// `None` for a malformed layout or an unsupported type.
    pub fn utf8_error(&self) -> Option<Utf8Error> {
        self.column_error().and_then(ColumnError::utf8_error)
    }

    /// The malformation, when the array's layout is what failed.
    pub fn layout_error(&self) -> Option<Layout> {
        self.column_error().and_then(ColumnError::layout_error)
    }

    /// utf8-core's error, which names the row.
    pub fn column_error(&self) -> Option<&ColumnError> {
        match self {
            Utf8ArrowError::Column(e) | Utf8ArrowError::InvalidUnderNull(e) => Some(e),
            Utf8ArrowError::UnsupportedType(_) => None,
        }
    }
}

impl From<ColumnError> for Utf8ArrowError {
    fn from(e: ColumnError) -> Utf8ArrowError {
        Utf8ArrowError::Column(e)
    }
}

/// `non-UTF-8`, or the name of another ruleset's language.
struct Language(Utf8Error);

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.ruleset() {
            "rfc3629" => f.write_str("non-UTF-8"),
            name => write!(f, "non-{name}"),
        }
    }
}

impl fmt::Display for Utf8ArrowError {
    /// Arrow's own wording where it has one (`Encountered non-UTF-8 data
    /// at index {row}: {error}`, as `StringViewArray::try_new` says).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Utf8ArrowError::Column(e) => match (e.utf8_error(), e.layout_error()) {
                (Some(u), _) => write!(
                    f,
                    "Encountered {} data at index {}: {u}",
                    Language(u),
                    e.row()
                ),
                (None, Some(layout)) => {
                    write!(f, "Malformed array at index {}: {layout}", e.row())
                }
                (None, None) => write!(f, "{e}"),
            },
            Utf8ArrowError::InvalidUnderNull(e) => match e.utf8_error() {
                Some(u) => write!(
                    f,
                    "Encountered {} data at index {}, a null slot, which a string array may not hold: {u}",
                    Language(u),
                    e.row()
                ),
                None => write!(f, "{e}"),
            },
            Utf8ArrowError::UnsupportedType(t) => write!(
                f,
                "utf8-arrow checks Binary, LargeBinary, BinaryView, Utf8, LargeUtf8 and Utf8View arrays, not {t}"
            ),
        }
    }
}

impl std::error::Error for Utf8ArrowError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Utf8ArrowError::Column(e) | Utf8ArrowError::InvalidUnderNull(e) => Some(e),
            Utf8ArrowError::UnsupportedType(_) => None,
        }
    }
}

/// [`ArrowError::InvalidArgumentError`], with the message above: what
/// arrow-rs itself returns for non-UTF-8 data.
impl From<Utf8ArrowError> for ArrowError {
    fn from(e: Utf8ArrowError) -> ArrowError {
        ArrowError::InvalidArgumentError(e.to_string())
    }
}
