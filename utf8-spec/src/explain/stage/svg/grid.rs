//! The pictures that are no graph: the grid of byte classes, and the table
//! given in place of an automaton too large to draw.

use std::fmt::Write as _;

use super::super::graph::block_colour;
use super::{CHAR, LINE, MARGIN, TITLE, document, escape};
use crate::ByteClasses;
use crate::explain::writer::count;

/// The byte → class map as a 16 × 16 grid of cells filled by class, rows by
/// high nibble and columns by low nibble, and a legend of each class's bytes.
pub(crate) fn class_grid(classes: &ByteClasses) -> String {
    const CELL: f64 = 34.0;
    let mut body = format!(
        "<text class=\"title\" x=\"{MARGIN}\" y=\"{:.1}\">{}</text>\n",
        TITLE - 8.0,
        count(classes.count(), "byte class", "byte classes")
    );
    let left = MARGIN + CELL;
    let top = TITLE + CELL;
    for nibble in 0..16u8 {
        let _ = writeln!(
            body,
            "<text class=\"mono\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">-{nibble:X}</text>\
             <text class=\"mono\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{nibble:X}-</text>",
            left + (f64::from(nibble) + 0.5) * CELL,
            top - 10.0,
            MARGIN + CELL / 2.0,
            top + (f64::from(nibble) + 0.5) * CELL + 4.0
        );
    }
    for byte in 0..=255u8 {
        let class = classes.class(byte);
        let (x, y) = (
            left + f64::from(byte % 16) * CELL,
            top + f64::from(byte / 16) * CELL,
        );
        let _ = writeln!(
            body,
            "<g class=\"byte\"><title>%x{byte:02X}: class {class}</title>\
             <rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{CELL}\" height=\"{CELL}\" \
             style=\"fill:{}\" stroke=\"#fff\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{class}</text></g>",
            block_colour(u32::from(class)),
            x + CELL / 2.0,
            y + CELL / 2.0 + 4.5
        );
    }
    let mut y = top + 16.0 * CELL + LINE;
    let mut longest = 0;
    for class in classes.ids() {
        let line = format!(
            "class {class}: {}",
            super::super::graph::abnf_ranges(&classes.ranges(class))
        );
        longest = longest.max(line.chars().count());
        let _ = writeln!(
            body,
            "<rect class=\"swatch\" x=\"{MARGIN}\" y=\"{:.1}\" width=\"12\" height=\"12\" \
             style=\"fill:{}\"/><text class=\"legend\" x=\"{:.1}\" y=\"{y:.1}\">{}</text>",
            y - 10.0,
            block_colour(u32::from(class)),
            MARGIN + 18.0,
            escape(&line)
        );
        y += LINE;
    }
    let width = (left + 16.0 * CELL + MARGIN).max(2.0 * MARGIN + 18.0 + longest as f64 * CHAR);
    document(width, y + LINE, "The byte classes", &body)
}

/// A table of text as an SVG, for an automaton too large to draw: the note
/// that says why on top, then the lines in monospace.
pub(crate) fn table(note: &str, text: &str) -> String {
    let mut body = format!(
        "<text class=\"title\" x=\"{MARGIN}\" y=\"{:.1}\">{}</text>\n",
        TITLE - 8.0,
        escape(note)
    );
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let _ = writeln!(
            body,
            "<text class=\"mono\" x=\"{MARGIN}\" y=\"{:.1}\" xml:space=\"preserve\">{}</text>",
            TITLE + (i as f64 + 1.0) * LINE,
            escape(line)
        );
    }
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let width = (2.0 * MARGIN + longest as f64 * CHAR).max(2.0 * MARGIN + note.len() as f64 * 8.0);
    let height = TITLE + (lines.len() as f64 + 2.0) * LINE;
    document(width, height, note, &body)
}
