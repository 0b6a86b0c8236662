//! SVG drawn here, with no layout engine to depend on, so that it runs
//! wherever the crate does (a browser included). The layout is the layered
//! one Graphviz's `dot` uses, in the stages below; each returns what the next
//! needs.
//!
//! | stage | module | gives |
//! |---|---|---|
//! | layers, bends of long edges, order in each layer | [`layers`] | `Layers` |
//! | where each layer and each item sits | [`place`] | a point an item |
//! | edges as curves, texts at free places | [`draw`] | `Drawing` |
//! | SVG text, panels stacked, the legend | this module | the picture |
//! | the byte classes' grid, the table of an automaton too large | [`grid`] | the picture |

mod draw;
mod grid;
mod layers;
mod place;

use std::fmt::Write as _;

use super::graph::{Graph, block_colour};
use draw::{Drawing, Rect, text_box};
pub(crate) use grid::{class_grid, table};

const RADIUS: f64 = 18.0;
const MARGIN: f64 = 50.0;
/// The height of a panel's title, and of a legend line.
const TITLE: f64 = 30.0;
const LINE: f64 = 17.0;
/// The width of a character of the 12px monospace legend, for sizing.
const CHAR: f64 = 7.3;
/// The advance of a character of the 11px monospace labels and names
/// (0.6 em), and the height a line of them takes.
const LABEL_CHAR: f64 = 6.6;
const TEXT_HEIGHT: f64 = 14.0;
/// How far a self-loop rises over its state.
const LOOP: f64 = 26.0;

const STYLE: &str = "<style>\
text{font-family:sans-serif;font-size:13px;fill:#222}\
.title{font-size:15px;font-weight:bold}\
.legend,.label,.name,.note,.mono{font-family:monospace;font-size:12px}\
.label,.name{font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px}\
.name{fill:#1a4d80}.note{font-size:11px;fill:#555}\
.state circle{fill:#fff;stroke:#333;stroke-width:1.5}\
.edge{fill:none;stroke:#555;stroke-width:1.2}\
.epsilon{stroke-dasharray:5 4}\
</style>";

const ARROW: &str = "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" \
markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" \
fill=\"#555\"/></marker></defs>";

/// Text made safe for SVG's character data and attribute values.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn document(width: f64, height: f64, title: &str, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\">\n<title>{}</title>\n{STYLE}\n{ARROW}\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n{body}</svg>\n",
        escape(title)
    )
}

/// `graphs` as one SVG: one panel each, stacked, then a legend of what the
/// marks mean and what each state stands for where its name beside it does
/// not say it all.
pub(crate) fn svg(graphs: &[Graph]) -> String {
    let mut body = String::new();
    let mut top = 0.0;
    let mut width: f64 = 0.0;
    for (panel, graph) in graphs.iter().enumerate() {
        let drawing = draw::drawing(graph);
        let prefix = if graphs.len() == 1 {
            String::new()
        } else {
            format!("r{panel}_")
        };
        let _ = writeln!(
            body,
            "<text class=\"title\" x=\"{MARGIN}\" y=\"{:.1}\">{}</text>",
            top + TITLE - 8.0,
            escape(&graph.title)
        );
        let (left, upper, right, lower) = bounds(&drawing);
        let shift = (MARGIN - left, top + TITLE + 12.0 - upper);
        draw_panel(&mut body, graph, &drawing, shift, &prefix);
        top += TITLE + 12.0 + (lower - upper) + 24.0;
        width = width.max(2.0 * MARGIN + right - left);
    }
    let lines = legend(graphs);
    for (i, line) in lines.iter().enumerate() {
        let _ = writeln!(
            body,
            "<text class=\"legend\" x=\"{MARGIN}\" y=\"{:.1}\" xml:space=\"preserve\">{}</text>",
            top + (i as f64 + 1.0) * LINE,
            escape(line)
        );
    }
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    width = width.max(2.0 * MARGIN + longest as f64 * CHAR);
    let height = top + (lines.len() as f64 + 1.0) * LINE;
    let title = graphs.first().map_or("", |g| g.title.as_str());
    document(width, height, title, &body)
}

fn legend(graphs: &[Graph]) -> Vec<String> {
    let Some(first) = graphs.first() else {
        return Vec::new();
    };
    let mut lines =
        vec!["A double circle accepts; the arrow from the left marks the start.".to_owned()];
    // The dead state's note is drawn beside it.
    let dead = first.dead.as_ref().map(|d| &d.1);
    lines.extend(first.notes.iter().filter(|&n| Some(n) != dead).cloned());
    if graphs.len() > 1 {
        lines.push("A state's fill is its block after that round.".to_owned());
    }
    let width = (first.nodes.len().max(1) - 1).to_string().len();
    lines.extend(
        first
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.caption.is_empty() && n.caption != n.name)
            .map(|(id, n)| format!("{id:>width$}  {}", n.caption)),
    );
    lines
}

/// The box around everything drawn in a panel.
fn bounds(drawing: &Drawing) -> Rect {
    let mut r = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    let mut add = |b: Rect| r = (r.0.min(b.0), r.1.min(b.1), r.2.max(b.2), r.3.max(b.3));
    for &(x, y) in &drawing.states {
        add((x - RADIUS, y - RADIUS, x + RADIUS, y + RADIUS));
    }
    for p in drawing.edges.iter().flat_map(|c| &c.pieces).flatten() {
        add((p.0, p.1, p.0, p.1));
    }
    for t in &drawing.texts {
        add(text_box(t.at, t.anchor, t.text.chars().count()));
    }
    r
}

fn draw_panel(out: &mut String, graph: &Graph, drawing: &Drawing, shift: (f64, f64), prefix: &str) {
    let p = |(x, y): (f64, f64)| format!("{:.1},{:.1}", x + shift.0, y + shift.1);
    for (e, curve) in drawing.edges.iter().enumerate() {
        let class = if curve.epsilon {
            "edge epsilon"
        } else {
            "edge"
        };
        let mut d = format!("M{}", p(curve.pieces[0][0]));
        for piece in &curve.pieces {
            let _ = write!(d, " C{} {} {}", p(piece[1]), p(piece[2]), p(piece[3]));
        }
        let from = graph.edges.get(e).map_or(String::new(), |edge| {
            format!(" data-from=\"{}\" data-to=\"{}\"", edge.from, edge.to)
        });
        let _ = writeln!(
            out,
            "<path class=\"{class}\"{from} d=\"{d}\" marker-end=\"url(#arrow)\"/>"
        );
    }
    let text = |t: &draw::Placed| {
        format!(
            "<text class=\"{}\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"{}\">{}</text>",
            t.class,
            t.at.0 + shift.0,
            t.at.1 + shift.1,
            t.anchor,
            escape(&t.text)
        )
    };
    for t in drawing.texts.iter().filter(|t| t.state.is_none()) {
        let _ = writeln!(out, "{}", text(t));
    }
    for (id, node) in graph.nodes.iter().enumerate() {
        let (x, y) = drawing.states[id];
        let (x, y) = (x + shift.0, y + shift.1);
        let fill = node
            .block
            .map(|b| format!(" style=\"fill:{}\"", block_colour(b)))
            .unwrap_or_default();
        let tooltip = if node.caption.is_empty() {
            id.to_string()
        } else {
            format!("{id}: {}", node.caption)
        };
        let _ = write!(
            out,
            "<g class=\"state\" id=\"{prefix}s{id}\"><title>{}</title>\
             <circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{RADIUS}\"{fill}/>",
            escape(&tooltip)
        );
        if node.accepting {
            let _ = write!(
                out,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{}\"{fill}/>",
                RADIUS - 4.0
            );
        }
        let _ = write!(
            out,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{id}</text>",
            y + 4.5
        );
        for t in drawing.texts.iter().filter(|t| t.state == Some(id)) {
            out.push_str(&text(t));
        }
        out.push_str("</g>\n");
    }
}
