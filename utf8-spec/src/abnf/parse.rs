//! Tokenizer and recursive-descent parser for one rule chunk at a time.

use super::lines::{self, Segment};
use super::{Element, Rule};
use crate::ByteRange;
use crate::error::{Error, ErrorKind, Position};
use crate::grammar::MAX_DEPTH;

/// Reads ABNF text into its rules, in the order written.
///
/// This is the syntax step only: whether referenced rules exist, whether a
/// rule is defined twice or is recursive is checked by
/// [`Grammar::new`](crate::Grammar::new).
pub fn parse(source: &str) -> Result<Vec<Rule>, Error> {
    lines::chunks(source)
        .iter()
        .map(|chunk| {
            let tokens = tokenize(chunk)?;
            Parser::new(tokens, chunk).rule()
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.with_source(source))
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum TokenKind {
    Name(String),
    Number(u32),
    Star,
    DefinedAs,
    Incremental,
    Slash,
    OpenParen,
    CloseParen,
    OpenBracket,
    CloseBracket,
    Range(u8, u8),
    Sequence(Vec<u8>),
    Literal { text: String, case_sensitive: bool },
}

#[derive(Clone, Debug)]
struct Token {
    kind: TokenKind,
    position: Position,
    /// Whitespace (or a line break) separates this token from the previous one.
    spaced: bool,
}

fn syntax(message: impl Into<String>, position: Position) -> Error {
    Error::at(ErrorKind::Syntax(message.into()), position)
}

fn tokenize(chunk: &[Segment<'_>]) -> Result<Vec<Token>, Error> {
    let mut tokens = Vec::new();
    for segment in chunk {
        let mut spaced = true;
        let chars: Vec<char> = segment.text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let position = Position {
                line: segment.line,
                column: segment.column + i,
            };
            let c = chars[i];
            let start = i;
            let kind = match c {
                ' ' | '\t' | '\r' => {
                    spaced = true;
                    i += 1;
                    continue;
                }
                ';' => break,
                '=' if chars.get(i + 1) == Some(&'/') => {
                    i += 2;
                    TokenKind::Incremental
                }
                '=' => {
                    i += 1;
                    TokenKind::DefinedAs
                }
                '/' => {
                    i += 1;
                    TokenKind::Slash
                }
                '*' => {
                    i += 1;
                    TokenKind::Star
                }
                '(' => {
                    i += 1;
                    TokenKind::OpenParen
                }
                ')' => {
                    i += 1;
                    TokenKind::CloseParen
                }
                '[' => {
                    i += 1;
                    TokenKind::OpenBracket
                }
                ']' => {
                    i += 1;
                    TokenKind::CloseBracket
                }
                '<' => return Err(Error::at(ErrorKind::ProseValue, position)),
                '"' => {
                    let (text, next) = quoted(&chars, i, position)?;
                    i = next;
                    TokenKind::Literal {
                        text,
                        case_sensitive: false,
                    }
                }
                '%' => {
                    let (kind, next) = numeric_or_literal(&chars, i, position)?;
                    i = next;
                    kind
                }
                c if c.is_ascii_digit() => {
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                    let digits: String = chars[start..i].iter().collect();
                    let value = digits.parse::<u32>().map_err(|_| {
                        syntax(format!("repeat count {digits} is too large"), position)
                    })?;
                    TokenKind::Number(value)
                }
                c if c.is_ascii_alphabetic() => {
                    while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '-') {
                        i += 1;
                    }
                    TokenKind::Name(chars[start..i].iter().collect())
                }
                other => {
                    return Err(syntax(format!("unexpected character {other:?}"), position));
                }
            };
            tokens.push(Token {
                kind,
                position,
                spaced,
            });
            spaced = false;
        }
    }
    Ok(tokens)
}

/// Reads `"..."` starting at the opening quote; returns the text and the index after the closing quote.
fn quoted(chars: &[char], open: usize, position: Position) -> Result<(String, usize), Error> {
    let mut i = open + 1;
    let mut text = String::new();
    loop {
        match chars.get(i) {
            Some('"') => return Ok((text, i + 1)),
            Some(&c) if (' '..='~').contains(&c) => text.push(c),
            Some(&c) => {
                return Err(syntax(
                    format!(
                        "character {c:?} cannot appear in a quoted string; write it as a %x value"
                    ),
                    Position {
                        line: position.line,
                        column: position.column + (i - open),
                    },
                ));
            }
            None => return Err(syntax("quoted string is not closed on its line", position)),
        }
        i += 1;
    }
}

/// Reads `%x..`, `%d..`, `%b..` (with `-` ranges or `.` concatenations), or `%s"..."` / `%i"..."`.
fn numeric_or_literal(
    chars: &[char],
    percent: usize,
    position: Position,
) -> Result<(TokenKind, usize), Error> {
    let base_char = chars.get(percent + 1).copied().unwrap_or(' ');
    let radix = match base_char.to_ascii_lowercase() {
        'x' => 16,
        'd' => 10,
        'b' => 2,
        's' | 'i' if chars.get(percent + 2) == Some(&'"') => {
            let (text, next) = quoted(chars, percent + 2, position)?;
            let case_sensitive = base_char.eq_ignore_ascii_case(&'s');
            return Ok((
                TokenKind::Literal {
                    text,
                    case_sensitive,
                },
                next,
            ));
        }
        _ => {
            return Err(syntax(
                "expected `x`, `d` or `b` after `%` (or `s\"` / `i\"` for a quoted string)",
                position,
            ));
        }
    };
    let what = match radix {
        16 => "hexadecimal",
        10 => "decimal",
        _ => "binary",
    };
    let mut i = percent + 2;
    let number = |i: &mut usize| -> Result<u8, Error> {
        let start = *i;
        while *i < chars.len() && chars[*i].is_digit(radix) {
            *i += 1;
        }
        let at = |index: usize| Position {
            line: position.line,
            column: position.column + (index - percent),
        };
        // A letter or digit right after the number is a mistyped digit
        // (`%x4G`), not the start of another element.
        if let Some(&c) = chars.get(*i).filter(|c| c.is_ascii_alphanumeric()) {
            return Err(syntax(format!("`{c}` is not a {what} digit"), at(*i)));
        }
        let digits: String = chars[start..*i].iter().collect();
        if digits.is_empty() {
            return Err(syntax(format!("expected {what} digits"), at(start)));
        }
        let value = u32::from_str_radix(&digits, radix).unwrap_or(u32::MAX);
        u8::try_from(value).map_err(|_| {
            let written = format!("%{base_char}{digits}");
            Error::at(ErrorKind::ValueTooLarge { value, written }, at(start))
        })
    };
    let first = number(&mut i)?;
    match chars.get(i) {
        Some('-') => {
            i += 1;
            let last = number(&mut i)?;
            Ok((TokenKind::Range(first, last), i))
        }
        Some('.') => {
            let mut values = vec![first];
            while chars.get(i) == Some(&'.') {
                i += 1;
                values.push(number(&mut i)?);
            }
            Ok((TokenKind::Sequence(values), i))
        }
        _ => Ok((TokenKind::Range(first, first), i)),
    }
}

struct Parser<'a> {
    tokens: Vec<Token>,
    next: usize,
    /// The brackets open around the next token: each is a level of this
    /// parser's recursion, so their number is bounded.
    depth: usize,
    chunk: &'a [Segment<'a>],
}

impl<'a> Parser<'a> {
    fn new(tokens: Vec<Token>, chunk: &'a [Segment<'a>]) -> Parser<'a> {
        Parser {
            tokens,
            next: 0,
            depth: 0,
            chunk,
        }
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.next)
    }

    /// Where the rule's text ends: errors about a missing token point just past it.
    fn end_position(&self) -> Position {
        let last = self.chunk.last().expect("a chunk holds at least one line");
        Position {
            line: last.line,
            column: last.column + last.text.trim_end().chars().count(),
        }
    }

    fn here(&self) -> Position {
        self.peek()
            .map_or_else(|| self.end_position(), |t| t.position)
    }

    fn rule(mut self) -> Result<Rule, Error> {
        let (name, position) = match self.peek() {
            Some(Token {
                kind: TokenKind::Name(name),
                position,
                ..
            }) => (name.clone(), *position),
            _ => {
                return Err(syntax(
                    "expected a rule name at the start of a rule",
                    self.here(),
                ));
            }
        };
        self.next += 1;
        let incremental = match self.peek().map(|t| &t.kind) {
            Some(TokenKind::DefinedAs) => false,
            Some(TokenKind::Incremental) => true,
            _ => {
                return Err(syntax(
                    format!("expected `=` or `=/` after rule name `{name}`"),
                    self.here(),
                ));
            }
        };
        self.next += 1;
        if self.peek().is_none() {
            return Err(syntax(
                format!("rule `{name}` has nothing after `=`"),
                self.end_position(),
            ));
        }
        let elements = self.alternation()?;
        if let Some(token) = self.peek() {
            let message = match token.kind {
                TokenKind::CloseParen => "`)` without a matching `(`".to_owned(),
                TokenKind::CloseBracket => "`]` without a matching `[`".to_owned(),
                TokenKind::DefinedAs | TokenKind::Incremental => {
                    "unexpected `=`: a new rule must start on its own line, no deeper indented than the first rule".to_owned()
                }
                _ => "expected `/` or the end of the rule".to_owned(),
            };
            return Err(syntax(message, token.position));
        }
        Ok(Rule {
            name,
            position,
            incremental,
            elements,
        })
    }

    fn alternation(&mut self) -> Result<Element, Error> {
        let mut items = vec![self.concatenation()?];
        while matches!(self.peek().map(|t| &t.kind), Some(TokenKind::Slash)) {
            self.next += 1;
            items.push(self.concatenation()?);
        }
        Ok(if items.len() == 1 {
            items.pop().expect("one item")
        } else {
            Element::Alternation(items)
        })
    }

    fn concatenation(&mut self) -> Result<Element, Error> {
        let mut items = vec![self.repetition()?];
        while let Some(token) = self.peek() {
            if !starts_element(&token.kind) {
                break;
            }
            if !token.spaced {
                return Err(syntax(
                    "elements of a concatenation must be separated by whitespace",
                    token.position,
                ));
            }
            items.push(self.repetition()?);
        }
        Ok(if items.len() == 1 {
            items.pop().expect("one item")
        } else {
            Element::Concatenation(items)
        })
    }

    fn repetition(&mut self) -> Result<Element, Error> {
        let start = self.here();
        let mut min = None;
        let mut max = None;
        let mut repeated = false;
        if let Some(TokenKind::Number(n)) = self.peek().map(|t| &t.kind) {
            min = Some(*n);
            repeated = true;
            self.next += 1;
            if matches!(
                self.peek(),
                Some(Token {
                    kind: TokenKind::Star,
                    spaced: false,
                    ..
                })
            ) {
                self.next += 1;
                max = self.adjacent_number();
            } else {
                // `n element` means exactly n.
                max = min;
            }
        } else if let Some(TokenKind::Star) = self.peek().map(|t| &t.kind) {
            repeated = true;
            self.next += 1;
            max = self.adjacent_number();
        }
        if repeated
            && let Some(token) = self.peek()
            && token.spaced
            && starts_element(&token.kind)
        {
            return Err(syntax(
                "a repeat count must be written right before the element it repeats, without whitespace",
                token.position,
            ));
        }
        let element = self.element()?;
        if !repeated {
            return Ok(element);
        }
        let min = min.unwrap_or(0);
        if let Some(max) = max
            && max < min
        {
            return Err(Error::at(ErrorKind::ReversedRepetition { min, max }, start));
        }
        Ok(Element::Repetition {
            min,
            max,
            element: Box::new(element),
        })
    }

    fn adjacent_number(&mut self) -> Option<u32> {
        match self.peek() {
            Some(Token {
                kind: TokenKind::Number(n),
                spaced: false,
                ..
            }) => {
                let n = *n;
                self.next += 1;
                Some(n)
            }
            _ => None,
        }
    }

    fn element(&mut self) -> Result<Element, Error> {
        let Some(token) = self.peek().cloned() else {
            return Err(syntax(
                "expected an element at the end of the rule",
                self.end_position(),
            ));
        };
        self.next += 1;
        match token.kind {
            TokenKind::Name(name) => Ok(Element::RuleRef {
                name,
                position: token.position,
            }),
            TokenKind::OpenParen => {
                let inner = self.bracketed(TokenKind::CloseParen, "`)`", token.position)?;
                Ok(Element::Group(Box::new(inner)))
            }
            TokenKind::OpenBracket => {
                let inner = self.bracketed(TokenKind::CloseBracket, "`]`", token.position)?;
                Ok(Element::Optional(Box::new(inner)))
            }
            TokenKind::Range(start, end) => {
                if end < start {
                    return Err(Error::at(
                        ErrorKind::ReversedRange { start, end },
                        token.position,
                    ));
                }
                Ok(Element::Range(ByteRange::new(start, end)))
            }
            TokenKind::Sequence(values) => Ok(Element::Sequence(values)),
            TokenKind::Literal {
                text,
                case_sensitive,
            } => Ok(Element::Literal {
                text,
                case_sensitive,
            }),
            TokenKind::Slash => Err(syntax("expected an element before `/`", token.position)),
            TokenKind::CloseParen | TokenKind::CloseBracket => Err(syntax(
                "expected an element, found a closing bracket",
                token.position,
            )),
            TokenKind::DefinedAs | TokenKind::Incremental => Err(syntax(
                "unexpected `=`: a new rule must start on its own line, no deeper indented than the first rule",
                token.position,
            )),
            TokenKind::Number(_) | TokenKind::Star => Err(syntax(
                "a repeat count must be followed by the element it repeats",
                token.position,
            )),
        }
    }

    /// What a bracket opened at `open` holds, up to its `close`.
    fn bracketed(
        &mut self,
        close: TokenKind,
        shown: &str,
        open: Position,
    ) -> Result<Element, Error> {
        if self.depth >= MAX_DEPTH {
            return Err(syntax(
                format!("brackets nest deeper than {MAX_DEPTH} levels"),
                open,
            ));
        }
        self.depth += 1;
        let inner = self.alternation()?;
        self.depth -= 1;
        self.close(close, shown, open)?;
        Ok(inner)
    }

    fn close(&mut self, expected: TokenKind, shown: &str, open: Position) -> Result<(), Error> {
        match self.peek() {
            Some(token) if token.kind == expected => {
                self.next += 1;
                Ok(())
            }
            _ => Err(syntax(
                format!(
                    "expected {shown} to close the bracket opened at line {}, column {}",
                    open.line, open.column
                ),
                self.here(),
            )),
        }
    }
}

fn starts_element(kind: &TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Name(_)
            | TokenKind::Number(_)
            | TokenKind::Star
            | TokenKind::OpenParen
            | TokenKind::OpenBracket
            | TokenKind::Range(..)
            | TokenKind::Sequence(_)
            | TokenKind::Literal { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(source: &str) -> Rule {
        let mut rules = parse(source).unwrap();
        assert_eq!(rules.len(), 1);
        rules.pop().unwrap()
    }

    fn err(source: &str) -> Error {
        parse(source).unwrap_err()
    }

    #[test]
    fn reads_every_numeric_form() {
        assert_eq!(
            one("a = %x41").elements,
            Element::Range(ByteRange::single(0x41))
        );
        assert_eq!(
            one("a = %d65-90").elements,
            Element::Range(ByteRange::new(65, 90))
        );
        assert_eq!(
            one("a = %b1000001").elements,
            Element::Range(ByteRange::single(65))
        );
        assert_eq!(one("a = %x0D.0A").elements, Element::Sequence(vec![13, 10]));
        assert_eq!(
            one("a = %Xc2-Df").elements,
            Element::Range(ByteRange::new(0xC2, 0xDF))
        );
    }

    #[test]
    fn reads_repetitions() {
        let rep = |min, max| Element::Repetition {
            min,
            max,
            element: Box::new(Element::RuleRef {
                name: "b".into(),
                position: Position { line: 1, column: 0 },
            }),
        };
        let strip = |e: Element| match e {
            Element::Repetition { min, max, .. } => (min, max),
            other => panic!("not a repetition: {other:?}"),
        };
        assert_eq!(strip(one("a = *b").elements), (0, None));
        assert_eq!(strip(one("a = 2*b").elements), (2, None));
        assert_eq!(strip(one("a = *3b").elements), (0, Some(3)));
        assert_eq!(strip(one("a = 2*3b").elements), (2, Some(3)));
        assert_eq!(strip(one("a = 2b").elements), (2, Some(2)));
        assert_eq!(strip(one("a = 2( b )").elements), (2, Some(2)));
        let _ = rep(0, None);
    }

    #[test]
    fn prints_back_as_written() {
        let source = "UTF8-3 = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) / [ \"ab\" ] / %s\"Q\" / %x0D.0A / *3( a / b )";
        assert_eq!(one(source).to_string(), source);
    }

    #[test]
    fn continuation_lines_and_comments() {
        let rule = one("a = %x00 / ; first\n    %x01 ; second\n");
        assert_eq!(rule.to_string(), "a = %x00 / %x01");
    }

    #[test]
    fn syntax_errors_say_where_and_what() {
        let e = err("a = %x41%x42");
        assert_eq!(
            e.to_string(),
            "line 1, column 9: elements of a concatenation must be separated by whitespace"
        );
        let e = err("a = ( %x41");
        assert_eq!(
            e.to_string(),
            "line 1, column 11: expected `)` to close the bracket opened at line 1, column 5"
        );
        let e = err("a %x41");
        assert_eq!(
            e.to_string(),
            "line 1, column 3: expected `=` or `=/` after rule name `a`"
        );
        let e = err("a = %x100");
        assert_eq!(
            e.to_string(),
            "line 1, column 7: value %x100 does not fit in an octet; this reader's terminals are bytes 0-255"
        );
        let e = err("a = %x80-7F");
        assert_eq!(
            e.to_string(),
            "line 1, column 5: range %x80-7F ends below its start"
        );
        let e = err("a = 3*2b");
        assert_eq!(
            e.to_string(),
            "line 1, column 5: repetition 3*2 has a maximum below its minimum"
        );
        let e = err("a = <prose>");
        assert!(e.to_string().starts_with("line 1, column 5: a prose value"));
        let e = err("a = 2 b");
        assert!(
            e.to_string()
                .starts_with("line 1, column 7: a repeat count must be written right before")
        );
        let e = err("a =");
        assert_eq!(
            e.to_string(),
            "line 1, column 4: rule `a` has nothing after `=`"
        );
        let e = err("a = b )");
        assert_eq!(
            e.to_string(),
            "line 1, column 7: `)` without a matching `(`"
        );
        let e = err("a = %q1");
        assert!(
            e.to_string()
                .starts_with("line 1, column 5: expected `x`, `d` or `b`")
        );
    }

    #[test]
    fn a_letter_in_a_number_is_a_digit_of_the_wrong_base() {
        let e = err("a = %x4G");
        assert_eq!(
            e.to_string(),
            "line 1, column 8: `G` is not a hexadecimal digit"
        );
        let e = err("a = %d1A-20");
        assert_eq!(
            e.to_string(),
            "line 1, column 8: `A` is not a decimal digit"
        );
        let e = err("a = %x41.0z");
        assert_eq!(
            e.to_string(),
            "line 1, column 11: `z` is not a hexadecimal digit"
        );
        let e = err("a = %b2");
        assert_eq!(e.to_string(), "line 1, column 7: `2` is not a binary digit");
        let e = err("a = %x-41");
        assert_eq!(
            e.to_string(),
            "line 1, column 7: expected hexadecimal digits"
        );
    }

    #[test]
    fn snippet_points_at_the_column() {
        let e = err("a = %x00\nb = %x41%x42\n");
        assert_eq!(e.snippet().unwrap(), "2 | b = %x41%x42\n  |         ^");
    }

    #[test]
    fn snippets_show_control_characters_escaped() {
        let e = err("a = %x41 \u{7f}");
        assert_eq!(e.snippet().unwrap(), "1 | a = %x41 \\u{7f}\n  |          ^");
        let e = err("a = %x41 \u{1} ; \u{1b}[2J");
        assert_eq!(
            e.snippet().unwrap(),
            "1 | a = %x41 \\u{1} ; \\u{1b}[2J\n  |          ^"
        );
    }

    #[test]
    fn a_byte_order_mark_and_lines_ended_by_cr_read_like_any_text() {
        assert_eq!(parse("\u{feff}a = %x41\rb = %x42\r").unwrap().len(), 2);
        let e = err("\u{feff}a = %x41\rb = %x4G\r");
        assert_eq!(
            e.to_string(),
            "line 2, column 8: `G` is not a hexadecimal digit"
        );
        assert_eq!(e.snippet().unwrap(), "2 | b = %x4G\n  |        ^");
        let e = err("\u{feff}a = %x4G\r\n");
        assert_eq!(e.snippet().unwrap(), "1 | a = %x4G\n  |        ^");
    }

    #[test]
    fn incremental_alternatives_are_marked() {
        let rules = parse("a = %x00\na =/ %x01\n").unwrap();
        assert!(!rules[0].incremental);
        assert!(rules[1].incremental);
    }
}
