//! From text to one chunk of lines per rule, the way ABNF sits in an RFC.

/// A piece of one line of the text that belongs to a rule.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment<'a> {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column of the first character of `text`.
    pub column: usize,
    pub text: &'a str,
}

/// The lines of one rule: the line that starts it and its continuation lines.
pub(crate) type Chunk<'a> = Vec<Segment<'a>>;

/// The lines of `source`, each without its end: CRLF, LF, or a CR alone
/// (as classic Mac OS wrote text) ends a line.
pub(crate) fn split(source: &str) -> impl Iterator<Item = &str> {
    source
        .split('\n')
        .flat_map(|line| line.strip_suffix('\r').unwrap_or(line).split('\r'))
}

/// `source` without the byte order mark that some editors write at the
/// start of a UTF-8 file: it is not text, and columns count from after it.
pub(crate) fn without_bom(source: &str) -> &str {
    source.strip_prefix('\u{feff}').unwrap_or(source)
}

/// Splits `source` into rule chunks.
///
/// Blank lines, comment-only lines and the lines of an RFC page break are
/// dropped. The first remaining line fixes the block's indentation: a line
/// indented no deeper than that starts a new rule, a deeper one continues the
/// rule above it. (RFC 5234 writes rules from column 1 with continuation lines
/// indented; RFCs indent the whole block by three spaces. Both read the same.)
pub(crate) fn chunks(source: &str) -> Vec<Chunk<'_>> {
    let source = without_bom(source);
    let page_break = page_break_lines(source);
    let mut base_indent: Option<usize> = None;
    let mut out: Vec<Chunk<'_>> = Vec::new();
    for (index, line) in split(source).enumerate() {
        if page_break[index] {
            continue;
        }
        let body = line.trim_start_matches([' ', '\t']);
        if body.is_empty() || body.starts_with(';') {
            continue;
        }
        let indent = line.len() - body.len();
        let segment = Segment {
            line: index + 1,
            column: line[..indent].chars().count() + 1,
            text: body,
        };
        let base = *base_indent.get_or_insert(indent);
        match out.last_mut() {
            Some(chunk) if indent > base => chunk.push(segment),
            _ => out.push(vec![segment]),
        }
    }
    out
}

/// Marks the lines that an RFC's plain text inserts at a page break: the
/// footer (`Yergeau   Standards Track   [Page 5]`), the form feed, and the
/// running header after it (`RFC 3629   UTF-8   November 2003`).
fn page_break_lines(source: &str) -> Vec<bool> {
    let lines: Vec<&str> = split(source).collect();
    let mut marks = vec![false; lines.len()];
    let mut after_form_feed = false;
    for (index, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if line.contains('\u{c}') {
            marks[index] = true;
            after_form_feed = true;
            // A form feed may share its line with the running header.
            let rest = line.trim_matches(|c: char| c == '\u{c}' || c.is_whitespace());
            if is_running_header(rest) {
                after_form_feed = false;
            }
        } else if is_page_footer(trimmed) {
            marks[index] = true;
        } else if after_form_feed && !trimmed.is_empty() {
            marks[index] = is_running_header(trimmed);
            after_form_feed = false;
        }
    }
    marks
}

/// `Yergeau                     Standards Track                     [Page 5]`
fn is_page_footer(line: &str) -> bool {
    line.strip_suffix(']')
        .and_then(|l| l.rsplit_once("[Page "))
        .is_some_and(|(_, number)| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
}

/// `RFC 3629                         UTF-8                     November 2003`
fn is_running_header(line: &str) -> bool {
    line.strip_prefix("RFC ")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str) -> Vec<Vec<(usize, usize, &str)>> {
        chunks(source)
            .into_iter()
            .map(|c| c.into_iter().map(|s| (s.line, s.column, s.text)).collect())
            .collect()
    }

    #[test]
    fn continuation_lines_join_the_rule_above() {
        let got = texts("a = b /\n    c\nb = %x00\n");
        assert_eq!(
            got,
            vec![
                vec![(1, 1, "a = b /"), (2, 5, "c")],
                vec![(3, 1, "b = %x00")]
            ]
        );
    }

    #[test]
    fn an_indented_block_reads_like_one_at_column_one() {
        let got = texts("   a = b /\n       c\n   b = %x00\n");
        assert_eq!(
            got,
            vec![
                vec![(1, 4, "a = b /"), (2, 8, "c")],
                vec![(3, 4, "b = %x00")]
            ]
        );
    }

    #[test]
    fn rfc_page_breaks_vanish() {
        let source = "   a = %x00\n\n\n\nYergeau                     Standards Track                     [Page 5]\n\u{c}\nRFC 3629                         UTF-8                     November 2003\n\n\n   b = %x01\n";
        let got = texts(source);
        assert_eq!(
            got,
            vec![vec![(1, 4, "a = %x00")], vec![(10, 4, "b = %x01")]]
        );
    }

    #[test]
    fn a_line_ends_at_crlf_lf_or_a_cr_alone() {
        let expected = vec![
            vec![(1, 1, "a = b /"), (2, 5, "c")],
            vec![(4, 1, "b = %x00")],
        ];
        for source in [
            "a = b /\r\n    c\r\n\r\nb = %x00\r\n",
            "a = b /\n    c\n\nb = %x00\n",
            "a = b /\r    c\r\rb = %x00\r",
        ] {
            assert_eq!(texts(source), expected, "{source:?}");
        }
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        assert_eq!(texts("\u{feff}a = %x00\n"), vec![vec![(1, 1, "a = %x00")]]);
    }

    #[test]
    fn comment_and_blank_lines_are_skipped() {
        let got = texts("; about a\n\na = %x00 ; trailing comment stays for the tokenizer\n");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0][0].0, 3);
    }
}
