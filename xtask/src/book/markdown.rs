//! The Markdown that `utf8_spec::explain` writes, as HTML: headings,
//! paragraphs, `-` lists, pipe tables, fenced code and inline code, which is
//! all it uses. Mermaid blocks are dropped: the book draws its own SVG, and
//! a page that works from `file://` cannot load Mermaid's script.

/// One converted block, sorted by what a page does with it: prose is read
/// in place, data (tables and code) may be folded away beside a picture.
pub(crate) enum Block {
    Heading(String),
    Prose(String),
    Data(String),
}

/// Text made safe for HTML's character data and attribute values.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Escaped text with `` `code` `` spans made `<code>`.
pub(crate) fn inline(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", escape(part))
            } else {
                escape(part)
            }
        })
        .collect()
}

/// The blocks of `markdown`, headings shifted down by `shift` levels.
pub(crate) fn blocks(markdown: &str, shift: usize) -> Vec<Block> {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim().is_empty() {
            i += 1;
        } else if let Some(language) = line.strip_prefix("```") {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].starts_with("```"))
                .unwrap_or(lines.len());
            if language != "mermaid" {
                let body = escape(&lines[i + 1..end].join("\n"));
                out.push(Block::Data(format!("<pre><code>{body}</code></pre>")));
            }
            i = end + 1;
        } else if line.starts_with('#') {
            let level = line.chars().take_while(|&c| c == '#').count();
            let level = (level + shift).min(6);
            let text = inline(line.trim_start_matches('#').trim());
            out.push(Block::Heading(format!("<h{level}>{text}</h{level}>")));
            i += 1;
        } else {
            let special = |l: &str| l.starts_with('|') || l.starts_with("- ");
            let end = (i + 1..lines.len())
                .find(|&j| {
                    let l = lines[j];
                    l.trim().is_empty()
                        || l.starts_with("```")
                        || l.starts_with('#')
                        || special(l) != special(line)
                })
                .unwrap_or(lines.len());
            out.push(run(&lines[i..end]));
            i = end;
        }
    }
    out
}

/// A run of lines of one kind: a table, a list or a paragraph.
fn run(lines: &[&str]) -> Block {
    if lines[0].starts_with('|') {
        Block::Data(table(lines))
    } else if lines[0].starts_with("- ") {
        let items: String = lines
            .iter()
            .map(|l| format!("<li>{}</li>\n", inline(l.trim_start_matches("- "))))
            .collect();
        Block::Prose(format!("<ul>\n{items}</ul>"))
    } else {
        Block::Prose(format!("<p>{}</p>", inline(&lines.join(" "))))
    }
}

/// A pipe table: the header row, the `|---|` rule (skipped), the rows;
/// `\|` inside a cell is a literal bar.
fn table(lines: &[&str]) -> String {
    let cells = |line: &str| -> Vec<String> {
        let line = line.replace("\\|", "\u{0}");
        let line = line.trim().trim_start_matches('|').trim_end_matches('|');
        line.split('|')
            .map(|c| inline(c.trim()).replace('\u{0}', "|"))
            .collect()
    };
    let row = |line: &str, tag: &str| -> String {
        let inner: String = cells(line)
            .iter()
            .map(|c| format!("<{tag}>{c}</{tag}>"))
            .collect();
        format!("<tr>{inner}</tr>\n")
    };
    let mut out = format!("<table>\n<thead>{}</thead>\n<tbody>\n", row(lines[0], "th"));
    for line in lines.iter().skip(2) {
        out.push_str(&row(line, "td"));
    }
    out.push_str("</tbody>\n</table>");
    out
}

/// The blocks as one piece of HTML.
pub(crate) fn html(blocks: &[Block]) -> String {
    blocks
        .iter()
        .map(|b| match b {
            Block::Heading(h) | Block::Prose(h) | Block::Data(h) => format!("{h}\n"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subset_the_reports_use_becomes_html() {
        let markdown = "# A `b` & c\n\nOne\nline.\n\n- x < y\n- z\n\n| a | b |\n|---|---|\n| 1 \\| 2 | `3` |\n\n```abnf\nr = <x>\n```\n\n```mermaid\ngraph\n```\n";
        assert_eq!(
            html(&blocks(markdown, 1)),
            "<h2>A <code>b</code> &amp; c</h2>\n<p>One line.</p>\n<ul>\n<li>x &lt; y</li>\n<li>z</li>\n</ul>\n\
             <table>\n<thead><tr><th>a</th><th>b</th></tr>\n</thead>\n<tbody>\n<tr><td>1 | 2</td><td><code>3</code></td></tr>\n</tbody>\n</table>\n\
             <pre><code>r = &lt;x&gt;</code></pre>\n"
        );
    }
}
