//! What a column check reports: the row, and what is wrong with it.

use core::fmt;

use crate::error::Utf8Error;

/// The first problem a column check found: the row it is in, and whether
/// the row's bytes are not in the ruleset's language or the column's layout
/// (offsets, views, a page's length prefixes, the null bitmap) is malformed
/// at that row.
///
/// Rows are counted from the start of the column as it was given (a sliced
/// Arrow array's row 0 is the slice's first row). An invalid row's
/// [`Utf8Error`] has `core::str::Utf8Error`'s meaning relative to the start
/// of that row.
///
/// ```
/// use utf8_core::column::{Column, Offsets};
/// let values = b"caf\xC3\xA9lait";
/// let column = Offsets::new(&[0u32, 4, 9], values)?; // "caf\xC3", "\xA9lait"
/// let e = column.validate::<utf8_core::Rfc3629>().unwrap_err();
/// assert_eq!(e.row(), 0);
/// assert_eq!(e.utf8_error().map(|e| (e.valid_up_to(), e.error_len())), Some((3, None)));
/// assert_eq!(e.to_string(), "row 0: incomplete utf-8 byte sequence from index 3");
/// # Ok::<(), utf8_core::column::ColumnError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnError {
    row: usize,
    kind: ColumnErrorKind,
}

/// Why a row failed: [`ColumnError::kind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ColumnErrorKind {
    /// The row's bytes are not in the ruleset's language.
    Invalid(Utf8Error),
    /// The column's layout is malformed at this row: nothing was read
    /// through it.
    Layout(Layout),
}

/// The ways a column's layout can be malformed. Each is found before any
/// byte is read through it, so a malformed column is an error, never a
/// panic or a read outside the slices given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Layout {
    /// An offsets column needs one offset more than it has rows, so at
    /// least one; this one had none.
    NoOffsets,
    /// The row's start offset is negative or does not fit in `usize`.
    OffsetOutOfRange,
    /// The row ends before it starts (its offsets go backwards).
    OffsetsDecrease,
    /// The row ends past the end of the values.
    OffsetPastValues,
    /// The null bitmap has no bit for this row.
    NullsTooShort,
    /// The view (of at most 12 bytes, held inline) has bytes other than
    /// zero after its string.
    ViewPadding,
    /// The view names a data buffer the column does not have.
    ViewBufferIndex,
    /// The view's offset and length reach past the end of its data buffer.
    ViewRange,
    /// The view's 4-byte prefix is not the first 4 bytes of its string.
    ViewPrefix,
    /// The page ends inside this value's 4-byte length or its bytes.
    PageTruncated,
}

impl ColumnError {
    pub(crate) const fn invalid(row: usize, error: Utf8Error) -> ColumnError {
        ColumnError {
            row,
            kind: ColumnErrorKind::Invalid(error),
        }
    }

    pub(crate) const fn layout(row: usize, layout: Layout) -> ColumnError {
        ColumnError {
            row,
            kind: ColumnErrorKind::Layout(layout),
        }
    }

    /// The row, counted from the column's first.
    pub const fn row(&self) -> usize {
        self.row
    }

    /// What is wrong with the row.
    pub const fn kind(&self) -> ColumnErrorKind {
        self.kind
    }

    /// The validation error inside the row, relative to its start; `None`
    /// for a malformed layout.
    pub const fn utf8_error(&self) -> Option<Utf8Error> {
        match self.kind {
            ColumnErrorKind::Invalid(error) => Some(error),
            ColumnErrorKind::Layout(_) => None,
        }
    }

    /// The malformation, when the layout is what failed.
    pub const fn layout_error(&self) -> Option<Layout> {
        match self.kind {
            ColumnErrorKind::Layout(layout) => Some(layout),
            ColumnErrorKind::Invalid(_) => None,
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layout::NoOffsets => "an offsets column has no offsets",
            Layout::OffsetOutOfRange => "offset out of range",
            Layout::OffsetsDecrease => "offsets decrease",
            Layout::OffsetPastValues => "offset past the end of the values",
            Layout::NullsTooShort => "the null bitmap is too short",
            Layout::ViewPadding => "inline view has non-zero padding",
            Layout::ViewBufferIndex => "view names a data buffer that does not exist",
            Layout::ViewRange => "view reaches past the end of its data buffer",
            Layout::ViewPrefix => "view's prefix differs from its string's first bytes",
            Layout::PageTruncated => "page ends inside the value",
        })
    }
}

impl fmt::Display for ColumnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ColumnErrorKind::Invalid(error) => write!(f, "row {}: {error}", self.row),
            ColumnErrorKind::Layout(layout) => {
                write!(f, "row {}: malformed column: {layout}", self.row)
            }
        }
    }
}

impl core::error::Error for ColumnError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.kind {
            ColumnErrorKind::Invalid(error) => Some(error),
            ColumnErrorKind::Layout(_) => None,
        }
    }
}
