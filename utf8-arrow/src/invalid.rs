//! What the checks of nested arrays report and take, the same for every
//! arrow-rs major: a bad value found anywhere inside an array, and what a
//! conversion does with one.

use core::fmt;

use utf8_core::Utf8Error;

/// What a conversion to strings does with a value that is not UTF-8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OnInvalid {
    /// The conversion fails, naming the first bad value.
    #[default]
    Fail,
    /// Each bad value becomes a null.
    Null,
    /// Each invalid part of a bad value becomes U+FFFD, as
    /// `String::from_utf8_lossy` does.
    Replace,
}

/// Bytes kept either side of the invalid ones, for a reader to find them.
const CONTEXT: usize = 16;

/// A value that is not valid, found inside an array of any nesting: which
/// row holds it, the path to it below the array, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidValue {
    path: String,
    row: usize,
    error: Utf8Error,
    context: Vec<u8>,
    /// Where the invalid bytes start in `context`, and how many there are.
    at: usize,
    len: usize,
}

impl InvalidValue {
    /// The bad value `value` at `row`, `error` being its error.
    pub(crate) fn new(row: usize, error: Utf8Error, value: &[u8]) -> InvalidValue {
        let start = error.valid_up_to().min(value.len());
        let end = error
            .error_len()
            .map_or(value.len(), |len| start + len)
            .min(value.len());
        let from = start.saturating_sub(CONTEXT);
        let to = (end + CONTEXT).min(value.len());
        InvalidValue {
            path: String::new(),
            row,
            error,
            context: value[from..to].to_vec(),
            at: start - from,
            len: (end - start).min(4),
        }
    }

    /// The same value seen from the array that holds this one: at `row`
    /// of it, below the field `name` (none for a dictionary's values).
    pub(crate) fn inside(mut self, name: Option<&str>, row: usize) -> InvalidValue {
        if let Some(name) = name {
            self.path = match self.path.is_empty() {
                true => name.to_owned(),
                false => format!("{name}.{}", self.path),
            };
        }
        self.row = row;
        self
    }

    /// The path from the array to the value: the names of the fields on
    /// the way (`tags.element`, `address.city`), empty for a value of the
    /// array itself.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The array's row that holds the value, counted from its first.
    pub fn row(&self) -> usize {
        self.row
    }

    /// The error, relative to the value's start.
    pub fn utf8_error(&self) -> Utf8Error {
        self.error
    }

    /// How many bytes of the value are valid before the error.
    pub fn valid_up_to(&self) -> usize {
        self.error.valid_up_to()
    }

    /// The invalid sequence's length: `None` where the value ends inside a
    /// character.
    pub fn error_len(&self) -> Option<usize> {
        self.error.error_len()
    }

    /// The invalid bytes (at most 4), or the cut character's.
    pub fn bytes(&self) -> &[u8] {
        &self.context[self.at..self.at + self.len]
    }

    /// The invalid bytes with up to 16 bytes of the value either side.
    pub fn context(&self) -> &[u8] {
        &self.context
    }
}

impl fmt::Display for InvalidValue {
    /// `column tags.element: row 4: invalid UTF-8 at byte 3 of the value (C3, the value ends inside a character)`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "column {}: ", self.path)?;
        }
        let language = match self.error.ruleset() {
            "rfc3629" => "UTF-8",
            name => name,
        };
        write!(
            f,
            "row {}: invalid {language} at byte {} of the value (",
            self.row,
            self.valid_up_to()
        )?;
        for (i, byte) in self.bytes().iter().enumerate() {
            let space = if i == 0 { "" } else { " " };
            write!(f, "{space}{byte:02X}")?;
        }
        match self.error_len() {
            Some(_) => f.write_str(")"),
            None => f.write_str(", the value ends inside a character)"),
        }
    }
}

impl std::error::Error for InvalidValue {}
