//! Errors of the ABNF reader and of the derivation, each with the place it is about.

use core::fmt;

/// A place in the ABNF text: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// What went wrong. Every variant is one failure mode of a spec, with the
/// names and places a reader needs to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text is not ABNF; the message says what was expected.
    Syntax(String),
    /// A rule refers to a rule that nothing defines.
    UndefinedRule {
        /// The name as written at the reference.
        name: String,
    },
    /// A rule is defined twice with `=`.
    DuplicateRule {
        /// The rule's name as written.
        name: String,
        /// Where the first definition is.
        first: Position,
    },
    /// `=/` adds to a rule that has not been defined above it.
    IncrementalWithoutRule {
        /// The rule's name as written.
        name: String,
    },
    /// A rule refers back to itself, directly or through others, where more
    /// may follow the reference: only recursion in tail position, as the last
    /// thing a rule matches, becomes a loop of a finite automaton.
    Recursion {
        /// The rules of the cycle, starting and ending with the same rule.
        cycle: Vec<String>,
    },
    /// The requested start rule is not defined.
    UnknownStartRule {
        /// The requested name.
        name: String,
        /// The rules the grammar does define, in order of definition.
        defined: Vec<String>,
    },
    /// The start rule matches no byte string other than the empty one, so there is nothing to validate.
    EmptyLanguage {
        /// The start rule's name.
        start: String,
    },
    /// A prose value (`<...>`) describes its language in words, which no automaton can follow.
    ProseValue,
    /// A numeric value above 255: this reader's terminals are octets.
    ValueTooLarge {
        /// The value as read (`u32::MAX` for one past it).
        value: u32,
        /// The value as written, its base included: `%d256`.
        written: String,
    },
    /// A range whose end is below its start, such as `%x80-7F`.
    ReversedRange {
        /// First value of the range.
        start: u8,
        /// Last value of the range.
        end: u8,
    },
    /// A repetition `n*m` with `n > m`.
    ReversedRepetition {
        /// Minimum count.
        min: u32,
        /// Maximum count.
        max: u32,
    },
    /// A scalar value above U+10FFFF, the last one Unicode has.
    ScalarTooLarge {
        /// The value as given.
        value: u32,
    },
    /// A range of scalar values whose end is below its start.
    ReversedScalarRange {
        /// First value of the range.
        start: u32,
        /// Last value of the range.
        end: u32,
    },
    /// A set of scalar values with nothing in it, so there is nothing to validate.
    EmptyScalarSet {
        /// Whether ranges were given but held only surrogates (U+D800-DFFF),
        /// which are not scalar values.
        only_surrogates: bool,
    },
    /// ABNF read from bytes holds one that is not UTF-8: ABNF is text, and
    /// its terminals name bytes with `%x` rather than hold them.
    NotUtf8 {
        /// The first byte that is not part of a UTF-8 character.
        byte: u8,
    },
    /// Brackets nest, or rules refer to rules, deeper than the reader
    /// follows: each level is a step of recursion in the parser and in the
    /// NFA's construction, and the limit keeps those within a thread's stack.
    TooDeep {
        /// The rule that goes too deep, as written.
        rule: String,
        /// The most levels allowed.
        limit: usize,
    },
    /// The derivation would exceed a size limit: automaton states, NFA size
    /// from large repetition counts, or the subset construction's work (see
    /// [`Limits`](crate::Limits)).
    TooLarge {
        /// What grew too large, in words.
        what: String,
        /// The limit that was exceeded.
        limit: usize,
    },
}

/// An error from reading a spec or deriving its automaton.
///
/// `Display` gives one line: the place (when there is one) and what is wrong.
/// [`Error::snippet`] quotes the offending line with a caret under the column,
/// for messages that can afford several lines (the proc macro uses both).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    position: Option<Position>,
    line_text: Option<String>,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind) -> Error {
        Error {
            kind,
            position: None,
            line_text: None,
        }
    }

    pub(crate) fn at(kind: ErrorKind, position: Position) -> Error {
        Error {
            kind,
            position: Some(position),
            line_text: None,
        }
    }

    /// Attaches the text of the line that `position` points into.
    pub(crate) fn with_source(mut self, source: &str) -> Error {
        if let Some(position) = self.position {
            self.line_text = crate::abnf::lines::split(crate::abnf::lines::without_bom(source))
                .nth(position.line - 1)
                .map(str::to_owned);
        }
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Where in the ABNF text, when the error is about a place in it.
    pub fn position(&self) -> Option<Position> {
        self.position
    }

    /// The offending line and a caret under the column, or `None` when the
    /// error is not about a place in the text.
    ///
    /// ```text
    ///   3 | UTF8-2      = %xC2-DF UTF8-tial
    ///     |                       ^
    /// ```
    pub fn snippet(&self) -> Option<String> {
        let position = self.position?;
        let line = self.line_text.as_deref()?;
        let number = position.line.to_string();
        let gutter = " ".repeat(number.len());
        let line_shown: String = line.chars().map(shown).collect();
        // Tabs keep their width in the caret line, and an escaped character
        // the width of its escape, so that the caret stays under the column.
        let pad: String = line
            .chars()
            .take(position.column.saturating_sub(1))
            .map(|c| match c {
                '\t' => "\t".to_owned(),
                c => " ".repeat(shown(c).chars().count()),
            })
            .collect();
        Some(format!("{number} | {line_shown}\n{gutter} | {pad}^"))
    }
}

/// A character of a quoted line as a terminal should show it: a control
/// character other than a tab escaped (`\u{1}`, `\u{7f}`), so that it
/// neither acts on the terminal nor hides.
fn shown(c: char) -> String {
    if c.is_control() && c != '\t' {
        c.escape_default().collect()
    } else {
        c.to_string()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(position) = self.position {
            write!(f, "{position}: ")?;
        }
        fmt::Display::fmt(&self.kind, f)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Syntax(message) => f.write_str(message),
            ErrorKind::UndefinedRule { name } => write!(f, "undefined rule `{name}`"),
            ErrorKind::DuplicateRule { name, first } => write!(
                f,
                "rule `{name}` is defined twice (first at {first}); use `=/` to add alternatives"
            ),
            ErrorKind::IncrementalWithoutRule { name } => write!(
                f,
                "`=/` adds alternatives to rule `{name}`, which is not defined above it"
            ),
            ErrorKind::Recursion { cycle } => write!(
                f,
                "rule `{}` refers back to itself ({}) where more may follow the reference; \
                 a finite automaton follows recursion only in tail position, as the last thing a rule matches",
                cycle[0],
                cycle.join(" -> ")
            ),
            ErrorKind::UnknownStartRule { name, defined } => {
                write!(f, "no rule named `{name}` to start from")?;
                if defined.is_empty() {
                    f.write_str("; the grammar defines no rules")
                } else {
                    write!(f, "; the grammar defines {}", defined.join(", "))
                }
            }
            ErrorKind::EmptyLanguage { start } => write!(
                f,
                "start rule `{start}` matches no non-empty byte string, so there is nothing to validate"
            ),
            ErrorKind::ProseValue => f.write_str(
                "a prose value `<...>` describes its language in words, which cannot become an automaton",
            ),
            ErrorKind::ValueTooLarge { written, .. } => write!(
                f,
                "value {written} does not fit in an octet; this reader's terminals are bytes 0-255"
            ),
            ErrorKind::ReversedRange { start, end } => {
                write!(f, "range %x{start:02X}-{end:02X} ends below its start")
            }
            ErrorKind::ReversedRepetition { min, max } => {
                write!(f, "repetition {min}*{max} has a maximum below its minimum")
            }
            ErrorKind::ScalarTooLarge { value } => write!(
                f,
                "{} is above U+10FFFF, the last Unicode scalar value",
                U(*value)
            ),
            ErrorKind::ReversedScalarRange { start, end } => write!(
                f,
                "scalar range {}..{} ends below its start",
                U(*start),
                U(*end)
            ),
            ErrorKind::EmptyScalarSet {
                only_surrogates: false,
            } => f.write_str("the set of scalar values is empty, so there is nothing to validate"),
            ErrorKind::EmptyScalarSet {
                only_surrogates: true,
            } => f.write_str(
                "the ranges hold only surrogates (U+D800-DFFF), which are not scalar values, so there is nothing to validate",
            ),
            ErrorKind::NotUtf8 { byte } => write!(
                f,
                "byte {byte:02X} is not UTF-8; ABNF is text, and names a byte as %x{byte:02X}"
            ),
            ErrorKind::TooDeep { rule, limit } => write!(
                f,
                "rule `{rule}` nests deeper than {limit} levels, counting its brackets and the rules it refers to"
            ),
            ErrorKind::TooLarge { what, limit } => {
                write!(f, "{what} exceeds the limit of {limit}")
            }
        }
    }
}

/// A value in the `U+XXXX` notation of the Unicode standard: at least four hex digits.
pub(crate) struct U(pub(crate) u32);

impl fmt::Display for U {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "U+{:04X}", self.0)
    }
}

impl std_error::Error for Error {}

// `utf8-spec` is a std library (it allocates freely at derivation time); the alias
// keeps the one place that names the trait readable.
use std::error as std_error;
