//! The ABNF reader: the part of RFC 5234 (and RFC 7405's `%s` / `%i`) that
//! byte-level grammars such as RFC 3629 §4 use.
//!
//! Reading happens in two steps:
//!
//! 1. `lines` turns the text into one chunk per rule. It accepts ABNF as it
//!    sits in an RFC's plain text: indented as a block, with the page footers,
//!    form feeds and running headers of a page break in the middle of it. A
//!    line indented no deeper than the first rule starts a rule; a deeper one
//!    continues the previous rule.
//! 2. [`parse`] tokenizes each chunk and reads it by recursive descent into a
//!    [`Rule`], keeping the position of every rule name and terminal so that
//!    later stages can point at them.
//!
//! ```
//! let rules = utf8_spec::abnf::parse("UTF8-2 = %xC2-DF UTF8-tail\nUTF8-tail = %x80-BF\n")?;
//! assert_eq!(rules[0].to_string(), "UTF8-2 = %xC2-DF UTF8-tail");
//! # Ok::<(), utf8_spec::Error>(())
//! ```

pub(crate) mod lines;
mod parse;

use core::fmt;

use crate::{ByteRange, Error, ErrorKind, Position};

pub use parse::parse;

/// ABNF text from the bytes of a file, or an error at the first byte that
/// is not UTF-8, with its line and column as every other error of the text
/// has them.
///
/// ```
/// let error = utf8_spec::abnf::text(b"a = %x41\nb = \"\xFF\"\n").unwrap_err();
/// assert_eq!(error.to_string(), "line 2, column 6: byte FF is not UTF-8; ABNF is text, and names a byte as %xFF");
/// ```
pub fn text(bytes: &[u8]) -> Result<&str, Error> {
    core::str::from_utf8(bytes).map_err(|e| {
        let before = core::str::from_utf8(&bytes[..e.valid_up_to()])
            .expect("the bytes up to valid_up_to are UTF-8");
        let lines: Vec<&str> = lines::split(lines::without_bom(before)).collect();
        let last = lines.last().expect("splitting gives at least one line");
        let position = Position {
            line: lines.len(),
            column: last.chars().count() + 1,
        };
        let byte = bytes[e.valid_up_to()];
        Error::at(ErrorKind::NotUtf8 { byte }, position)
            .with_source(&String::from_utf8_lossy(bytes))
    })
}

/// One rule definition as written: `name = elements` or `name =/ elements`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The rule name as written (ABNF rule names are case-insensitive; the
    /// grammar compares them in ASCII lowercase).
    pub name: String,
    /// Where the rule name stands.
    pub position: Position,
    /// True for `=/`, which adds alternatives to a rule defined above.
    pub incremental: bool,
    /// The right-hand side.
    pub elements: Element,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let defined_as = if self.incremental { "=/" } else { "=" };
        write!(f, "{} {defined_as} {}", self.name, self.elements)
    }
}

/// The right-hand side of a rule, as a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// `a / b / c`
    Alternation(Vec<Element>),
    /// `a b c`
    Concatenation(Vec<Element>),
    /// `n*m element`; `max` is `None` for an unbounded repetition.
    Repetition {
        /// Minimum count.
        min: u32,
        /// Maximum count, or `None` for no limit.
        max: Option<u32>,
        /// What is repeated.
        element: Box<Element>,
    },
    /// `[ a ]`
    Optional(Box<Element>),
    /// `( a )`
    Group(Box<Element>),
    /// A reference to another rule.
    RuleRef {
        /// The name as written.
        name: String,
        /// Where it stands.
        position: Position,
    },
    /// A numeric range or single value: `%xC2-DF`, `%d65`.
    Range(ByteRange),
    /// A concatenation of numeric values: `%x0D.0A`.
    Sequence(Vec<u8>),
    /// A quoted string. `"abc"` is case-insensitive (RFC 5234); `%s"abc"` is
    /// case-sensitive (RFC 7405).
    Literal {
        /// The characters between the quotes (printable ASCII).
        text: String,
        /// Whether letters must match in the written case.
        case_sensitive: bool,
    },
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Element::Alternation(items) => write_joined(f, items, " / "),
            Element::Concatenation(items) => write_joined(f, items, " "),
            Element::Repetition { min, max, element } => {
                match (min, max) {
                    (0, None) => f.write_str("*")?,
                    (n, None) => write!(f, "{n}*")?,
                    (n, Some(m)) if n == m => write!(f, "{n}")?,
                    (0, Some(m)) => write!(f, "*{m}")?,
                    (n, Some(m)) => write!(f, "{n}*{m}")?,
                }
                match **element {
                    Element::Alternation(_) | Element::Concatenation(_) => {
                        write!(f, "( {element} )")
                    }
                    _ => write!(f, "{element}"),
                }
            }
            Element::Optional(inner) => write!(f, "[ {inner} ]"),
            Element::Group(inner) => write!(f, "( {inner} )"),
            Element::RuleRef { name, .. } => f.write_str(name),
            Element::Range(range) => write!(f, "{range}"),
            Element::Sequence(bytes) => {
                f.write_str("%x")?;
                for (i, byte) in bytes.iter().enumerate() {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    write!(f, "{byte:02X}")?;
                }
                Ok(())
            }
            Element::Literal {
                text,
                case_sensitive,
            } => {
                if *case_sensitive {
                    f.write_str("%s")?;
                }
                write!(f, "\"{text}\"")
            }
        }
    }
}

fn write_joined(f: &mut fmt::Formatter<'_>, items: &[Element], separator: &str) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(separator)?;
        }
        match (item, separator) {
            // An alternation inside a concatenation needs its group back to mean the same.
            (Element::Alternation(_), " ") => write!(f, "( {item} )")?,
            _ => write!(f, "{item}")?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_byte_that_is_not_utf8_is_placed_after_a_byte_order_mark_and_lines_ended_by_cr() {
        let error = super::text(b"\xEF\xBB\xBFa = %x41\rb = \"\xFF\"\n").unwrap_err();
        assert!(
            error.to_string().starts_with("line 2, column 6: byte FF"),
            "{error}"
        );
        let error = super::text(b"\xEF\xBB\xBFa = \"\xFF\"\n").unwrap_err();
        assert!(
            error.to_string().starts_with("line 1, column 6: byte FF"),
            "{error}"
        );
    }
}
