//! SVG drawn here, with no layout engine, so that it runs wherever the
//! crate does (a browser included).
//!
//! The graphs are small and layered: a state's column is the longest path
//! to it from the start once cycles are broken, or its breadth-first depth
//! where that makes shorter edges, and three barycenter sweeps
//! order each column by where its neighbours sit, which undoes most crossings. An edge to the next
//! column is straight; any other bows to its left, so that the two
//! directions between a pair of states part; a self-loop sits on top.

use std::fmt::Write as _;

use super::graph::{Graph, block_colour};
use crate::ByteClasses;

const RADIUS: f64 = 18.0;
const COLUMN: f64 = 170.0;
const ROW: f64 = 80.0;
const MARGIN: f64 = 50.0;
/// The height of a panel's title, and of a legend line.
const TITLE: f64 = 30.0;
const LINE: f64 = 17.0;
/// How far the longest edges bow out: enough to clear a state in their
/// way, and the room kept above and below each panel for them.
const BEND: f64 = 60.0;
/// The width of a character of the 12px monospace legend, for sizing.
const CHAR: f64 = 7.3;

const STYLE: &str = "<style>\
text{font-family:sans-serif;font-size:13px;fill:#222}\
.title{font-size:15px;font-weight:bold}\
.legend,.label,.mono{font-family:monospace;font-size:12px}\
.label{font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px}\
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

/// The edges of a depth-first walk from the start that do not close a
/// cycle (self-loops and edges back to a state on the walk's stack are
/// left out), and the states in topological order of what remains.
fn acyclic(graph: &Graph) -> (Vec<(usize, usize)>, Vec<usize>) {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    let mut mark = vec![Mark::New; graph.nodes.len()];
    let mut forward = Vec::new();
    let mut finished = Vec::new();
    // (state, index of its next edge to look at)
    let mut stack = vec![(graph.start, 0)];
    mark[graph.start] = Mark::OnStack;
    while let Some(&mut (node, ref mut next)) = stack.last_mut() {
        let out: Vec<usize> = graph
            .edges
            .iter()
            .filter(|e| e.from == node)
            .map(|e| e.to)
            .collect();
        if let Some(&to) = out.get(*next) {
            *next += 1;
            match mark[to] {
                Mark::New => {
                    forward.push((node, to));
                    mark[to] = Mark::OnStack;
                    stack.push((to, 0));
                }
                Mark::Done => forward.push((node, to)),
                Mark::OnStack => {}
            }
        } else {
            mark[node] = Mark::Done;
            finished.push(node);
            stack.pop();
        }
    }
    finished.reverse();
    (forward, finished)
}

/// Each state's column: the layering of the two below whose edges cross
/// fewer columns in all. Chains (a minimal DFA counting down its tails) read
/// best by longest path; automata that return to the start from many states
/// read best by breadth-first depth.
fn columns(graph: &Graph) -> Vec<Vec<usize>> {
    let spanned = |columns: &[Vec<usize>]| -> usize {
        let mut column_of = vec![0; graph.nodes.len()];
        for (c, nodes) in columns.iter().enumerate() {
            for &n in nodes {
                column_of[n] = c;
            }
        }
        graph
            .edges
            .iter()
            .map(|e| column_of[e.from].abs_diff(column_of[e.to]))
            .sum()
    };
    let (longest, shallow) = (longest_path_columns(graph), breadth_first_columns(graph));
    if spanned(&shallow) < spanned(&longest) {
        shallow
    } else {
        longest
    }
}

/// Each state's column: its breadth-first depth from the start; states not
/// reached go in a column after the last.
fn breadth_first_columns(graph: &Graph) -> Vec<Vec<usize>> {
    let mut depth: Vec<Option<usize>> = vec![None; graph.nodes.len()];
    depth[graph.start] = Some(0);
    let mut order = vec![graph.start];
    let mut i = 0;
    while let Some(&from) = order.get(i) {
        for edge in graph.edges.iter().filter(|e| e.from == from) {
            if depth[edge.to].is_none() {
                depth[edge.to] = depth[from].map(|d| d + 1);
                order.push(edge.to);
            }
        }
        i += 1;
    }
    group(graph, &order, &depth)
}

/// `order`'s states grouped by `column`, the unplaced ones after the last.
fn group(graph: &Graph, order: &[usize], column: &[Option<usize>]) -> Vec<Vec<usize>> {
    let last = column.iter().flatten().max().copied().unwrap_or(0);
    let mut columns: Vec<Vec<usize>> = Vec::new();
    let unreached = (0..graph.nodes.len()).filter(|&n| column[n].is_none());
    for node in order.iter().copied().chain(unreached) {
        let c = column[node].unwrap_or(last + 1);
        if columns.len() <= c {
            columns.resize(c + 1, Vec::new());
        }
        columns[c].push(node);
    }
    columns
}

/// Each state's column: the longest path to it from the start, cycles
/// broken, then moved right to just before its nearest successor, so that
/// chains read left to right. States the start does not reach go in a column
/// after the last.
fn longest_path_columns(graph: &Graph) -> Vec<Vec<usize>> {
    let (forward, order) = acyclic(graph);
    let mut column: Vec<Option<usize>> = vec![None; graph.nodes.len()];
    for &node in &order {
        let from_predecessors = forward
            .iter()
            .filter(|&&(_, to)| to == node)
            .filter_map(|&(from, _)| column[from])
            .map(|c| c + 1)
            .max();
        column[node] = Some(from_predecessors.unwrap_or(0));
    }
    for &node in order.iter().rev().filter(|&&n| n != graph.start) {
        let nearest = forward
            .iter()
            .filter(|&&(from, _)| from == node)
            .filter_map(|&(_, to)| column[to])
            .min();
        if let (Some(nearest), Some(here)) = (nearest, column[node]) {
            column[node] = Some(here.max(nearest - 1));
        }
    }
    group(graph, &order, &column)
}

/// Reorders each column by the mean height of its neighbours in the columns
/// already ordered: left to right, right to left, and left to right again.
fn order_by_barycenter(graph: &Graph, columns: &mut [Vec<usize>]) {
    let mut column_of = vec![0; graph.nodes.len()];
    for (c, nodes) in columns.iter().enumerate() {
        for &n in nodes {
            column_of[n] = c;
        }
    }
    let height = |columns: &[Vec<usize>], node: usize| -> f64 {
        let nodes = &columns[column_of[node]];
        let index = nodes.iter().position(|&n| n == node).unwrap_or(0);
        index as f64 - (nodes.len() as f64 - 1.0) / 2.0
    };
    for sweep in 0..3 {
        let forward = sweep % 2 == 0;
        let sequence: Vec<usize> = if forward {
            (1..columns.len()).collect()
        } else {
            (0..columns.len().saturating_sub(1)).rev().collect()
        };
        for c in sequence {
            let mut keyed: Vec<(f64, usize)> = columns[c]
                .iter()
                .map(|&node| {
                    let neighbours: Vec<f64> = graph
                        .edges
                        .iter()
                        .filter_map(|e| match forward {
                            true if e.to == node && column_of[e.from] < c => Some(e.from),
                            false if e.from == node && column_of[e.to] > c => Some(e.to),
                            _ => None,
                        })
                        .map(|n| height(columns, n))
                        .collect();
                    let key = if neighbours.is_empty() {
                        height(columns, node)
                    } else {
                        neighbours.iter().sum::<f64>() / neighbours.len() as f64
                    };
                    (key, node)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            columns[c] = keyed.into_iter().map(|(_, n)| n).collect();
        }
    }
}

/// Where every state of a panel sits, and the panel's size.
struct Placement {
    at: Vec<(f64, f64)>,
    width: f64,
    height: f64,
}

fn place(graph: &Graph, top: f64) -> Placement {
    let mut columns = columns(graph);
    order_by_barycenter(graph, &mut columns);
    let rows = columns.iter().map(Vec::len).max().unwrap_or(1);
    let middle = top + TITLE + 2.0 * RADIUS + BEND + (rows as f64 - 1.0) * ROW / 2.0;
    let mut at = vec![(0.0, 0.0); graph.nodes.len()];
    for (c, nodes) in columns.iter().enumerate() {
        for (i, &node) in nodes.iter().enumerate() {
            let offset = i as f64 - (nodes.len() as f64 - 1.0) / 2.0;
            at[node] = (MARGIN + RADIUS + c as f64 * COLUMN, middle + offset * ROW);
        }
    }
    Placement {
        at,
        width: 2.0 * MARGIN + 2.0 * RADIUS + (columns.len() as f64 - 1.0) * COLUMN,
        height: TITLE + 4.0 * RADIUS + 2.0 * BEND + (rows as f64 - 1.0) * ROW,
    }
}

/// `graphs` as one SVG: one panel each, stacked, then a legend of what the
/// marks mean and what each state stands for.
pub(crate) fn svg(graphs: &[Graph]) -> String {
    let mut body = String::new();
    let mut top = 0.0;
    let mut width: f64 = 0.0;
    for (panel, graph) in graphs.iter().enumerate() {
        let placement = place(graph, top);
        let prefix = if graphs.len() == 1 {
            String::new()
        } else {
            format!("r{panel}_")
        };
        draw_panel(&mut body, graph, &placement, top, &prefix);
        top += placement.height;
        width = width.max(placement.width);
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
    lines.extend(first.notes.iter().cloned());
    if graphs.len() > 1 {
        lines.push("A state's fill is its block after that round.".to_owned());
    }
    let width = (first.nodes.len().max(1) - 1).to_string().len();
    lines.extend(
        first
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.caption.is_empty())
            .map(|(id, n)| format!("{id:>width$}  {}", n.caption)),
    );
    lines
}

fn draw_panel(out: &mut String, graph: &Graph, placement: &Placement, top: f64, prefix: &str) {
    let _ = writeln!(
        out,
        "<text class=\"title\" x=\"{MARGIN}\" y=\"{:.1}\">{}</text>",
        top + TITLE - 8.0,
        escape(&graph.title)
    );
    let (sx, sy) = placement.at[graph.start];
    let _ = writeln!(
        out,
        "<path class=\"edge\" d=\"M{:.1},{sy:.1} L{:.1},{sy:.1}\" marker-end=\"url(#arrow)\"/>",
        sx - RADIUS - 30.0,
        sx - RADIUS - 1.0
    );
    let mut labels = Labels::default();
    for edge in &graph.edges {
        let (from, to) = (placement.at[edge.from], placement.at[edge.to]);
        let reverse = graph
            .edges
            .iter()
            .any(|e| e.from == edge.to && e.to == edge.from);
        let next_column = (to.0 - from.0 - COLUMN).abs() < 1.0;
        draw_edge(
            out,
            &mut labels,
            (from, to),
            next_column && !reverse,
            edge.epsilon,
            &edge.label,
        );
    }
    for (id, node) in graph.nodes.iter().enumerate() {
        let (x, y) = placement.at[id];
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
        let _ = writeln!(
            out,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{id}</text></g>",
            y + 4.5
        );
    }
}

/// The boxes of the labels placed so far in a panel, so that the next one
/// can move along its edge to where it overlaps none.
#[derive(Default)]
struct Labels(Vec<(f64, f64, f64, f64)>);

impl Labels {
    /// The first of `candidates` (label centres on the baseline) where a
    /// label of `chars` characters overlaps no other, or else the first.
    fn place(&mut self, candidates: &[(f64, f64)], chars: usize) -> (f64, f64) {
        let half = chars as f64 * 3.4;
        let rect = |(x, y): (f64, f64)| (x - half, y - 11.0, x + half, y + 3.0);
        let free = |r: (f64, f64, f64, f64)| {
            self.0
                .iter()
                .all(|o| r.2 <= o.0 || o.2 <= r.0 || r.3 <= o.1 || o.3 <= r.1)
        };
        let chosen = candidates
            .iter()
            .copied()
            .find(|&c| free(rect(c)))
            .unwrap_or(candidates[0]);
        self.0.push(rect(chosen));
        chosen
    }
}

/// One edge: a loop on top of its state, a straight line, or a quadratic
/// curve bowed to the left of its direction; the label on it where it
/// overlaps no other, near the gap next to its start.
fn draw_edge(
    out: &mut String,
    labels: &mut Labels,
    (from, to): ((f64, f64), (f64, f64)),
    straight: bool,
    epsilon: bool,
    label: &str,
) {
    let class = if epsilon { "edge epsilon" } else { "edge" };
    let (path, candidates) = if from == to {
        let (x, y) = from;
        let foot = (RADIUS * 0.5, RADIUS * 0.87);
        let path = format!(
            "M{:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
            x - foot.0,
            y - foot.1,
            x - 30.0,
            y - 62.0,
            x + 30.0,
            y - 62.0,
            x + foot.0,
            y - foot.1
        );
        (path, vec![(x, y - 54.0)])
    } else {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let length = dx.hypot(dy);
        let bend = if straight {
            0.0
        } else {
            (22.0 + 0.12 * length).min(BEND)
        };
        let control = (
            (from.0 + to.0) / 2.0 + dy / length * bend,
            (from.1 + to.1) / 2.0 - dx / length * bend,
        );
        let toward = |p: (f64, f64), q: (f64, f64), by: f64| {
            let d = (q.0 - p.0).hypot(q.1 - p.1);
            (p.0 + (q.0 - p.0) / d * by, p.1 + (q.1 - p.1) / d * by)
        };
        let start = toward(from, control, RADIUS);
        let end = toward(to, control, RADIUS + 1.0);
        let path = format!(
            "M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}",
            start.0, start.1, control.0, control.1, end.0, end.1
        );
        (path, label_points(start, control, end, dx.abs() / COLUMN))
    };
    let (x, y) = labels.place(&candidates, label.chars().count());
    let _ = writeln!(
        out,
        "<path class=\"{class}\" d=\"{path}\" marker-end=\"url(#arrow)\"/>\
         <text class=\"label\" x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"middle\">{}</text>",
        escape(label)
    );
}

/// Where a curve's label may go, best first: the middle of the gap next to
/// its start (`spans` columns being crossed, so that the labels of long edges
/// do not pile up in the middle with those of short ones), then further
/// along the curve either way.
fn label_points(
    start: (f64, f64),
    control: (f64, f64),
    end: (f64, f64),
    spans: f64,
) -> Vec<(f64, f64)> {
    let first = if spans > 1.5 { 0.5 / spans } else { 0.5 };
    let at = |t: f64| {
        let along = |a: f64, b: f64, c: f64| {
            (1.0 - t) * (1.0 - t) * a + 2.0 * t * (1.0 - t) * b + t * t * c
        };
        (
            along(start.0, control.0, end.0),
            along(start.1, control.1, end.1) - 4.0,
        )
    };
    (0..12)
        .map(|i| {
            let step = f64::from((i + 1) / 2) * 0.07;
            first + if i % 2 == 1 { step } else { -step }
        })
        .filter(|t| (0.08..=0.92).contains(t))
        .map(at)
        .collect()
}

/// The byte → class map as a 16 × 16 grid of cells filled by class, rows by
/// high nibble and columns by low nibble, and a legend of each class's bytes.
pub(crate) fn class_grid(classes: &ByteClasses) -> String {
    const CELL: f64 = 34.0;
    let mut body = format!(
        "<text class=\"title\" x=\"{MARGIN}\" y=\"{:.1}\">{} byte classes</text>\n",
        TITLE - 8.0,
        classes.count()
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
            super::graph::abnf_ranges(&classes.ranges(class))
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
