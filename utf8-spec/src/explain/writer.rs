//! Text and Markdown written alike: headings, paragraphs, code blocks and
//! tables, for the report and for each stage alone.

use std::fmt::Write as _;

/// `n` and the noun, singular for one: `1 class`, `12 classes`.
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Plain text (underlined headings, indented code) or Markdown.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    Text,
    Markdown,
}

/// Collects the text of a report in one [`Style`].
pub(crate) struct Writer {
    pub(crate) style: Style,
    pub(crate) out: String,
}

impl Writer {
    pub(crate) fn new(style: Style) -> Writer {
        Writer {
            style,
            out: String::new(),
        }
    }

    pub(crate) fn heading(&mut self, level: usize, title: &str) {
        match self.style {
            Style::Markdown => {
                let _ = writeln!(self.out, "{} {title}\n", "#".repeat(level));
            }
            Style::Text => {
                let underline = if level == 1 { '=' } else { '-' };
                let rule: String = std::iter::repeat_n(underline, title.chars().count()).collect();
                let _ = writeln!(self.out, "{title}\n{rule}\n");
            }
        }
    }

    pub(crate) fn paragraph(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}\n");
    }

    pub(crate) fn code(&mut self, language: &str, body: &str) {
        match self.style {
            Style::Markdown => {
                let _ = writeln!(self.out, "```{language}\n{}\n```\n", body.trim_end());
            }
            Style::Text => {
                for line in body.trim_end().lines() {
                    let _ = writeln!(self.out, "    {line}");
                }
                self.out.push('\n');
            }
        }
    }

    pub(crate) fn table(&mut self, header: &[&str], rows: &[Vec<String>]) {
        match self.style {
            Style::Markdown => {
                let _ = writeln!(self.out, "| {} |", header.join(" | "));
                let _ = writeln!(self.out, "|{}", "---|".repeat(header.len()));
                for row in rows {
                    let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
                    let _ = writeln!(self.out, "| {} |", cells.join(" | "));
                }
                self.out.push('\n');
            }
            Style::Text => {
                let widths: Vec<usize> = (0..header.len())
                    .map(|column| {
                        rows.iter()
                            .map(|row| row[column].chars().count())
                            .chain([header[column].chars().count()])
                            .max()
                            .unwrap_or(0)
                    })
                    .collect();
                let line = |cells: Vec<&str>| -> String {
                    let padded: Vec<String> = cells
                        .iter()
                        .zip(&widths)
                        .map(|(cell, &width)| {
                            let pad = width - cell.chars().count();
                            format!("{cell}{}", " ".repeat(pad))
                        })
                        .collect();
                    format!("    {}", padded.join("  ").trim_end())
                };
                let _ = writeln!(self.out, "{}", line(header.to_vec()));
                let rules: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
                let _ = writeln!(
                    self.out,
                    "{}",
                    line(rules.iter().map(String::as_str).collect())
                );
                for row in rows {
                    let _ = writeln!(
                        self.out,
                        "{}",
                        line(row.iter().map(String::as_str).collect())
                    );
                }
                self.out.push('\n');
            }
        }
    }

    /// The text written, without trailing blank lines.
    pub(crate) fn finish(mut self) -> String {
        while self.out.ends_with("\n\n") {
            self.out.pop();
        }
        self.out
    }
}
