//! A panel's shapes in its own coordinates: each edge as cubic curves
//! through its bends, and every text (the states' names, then the edges'
//! labels) at the first of its candidate places where its box meets no
//! state, no other text and no edge's end, and if it can, no other edge.

use super::layers::{Layers, layers};
use super::place::{Point, positions};
use super::{LABEL_CHAR, LOOP, RADIUS, TEXT_HEIGHT};
use crate::explain::stage::graph::Graph;

/// One edge: cubic pieces, each `[start, control, control, end]`.
pub(super) struct Curve {
    pub pieces: Vec<[Point; 4]>,
    pub epsilon: bool,
}

/// A text and where it sits: `at` is its anchor on the baseline.
pub(super) struct Placed {
    pub class: &'static str,
    pub text: String,
    pub at: Point,
    pub anchor: &'static str,
    /// The state it names, drawn in that state's group.
    pub state: Option<usize>,
}

/// A panel laid out: where each state sits, the edges (the start's arrow
/// last), the texts, and whether every text found a free place.
pub(super) struct Drawing {
    pub states: Vec<Point>,
    pub edges: Vec<Curve>,
    pub texts: Vec<Placed>,
    pub clear: bool,
}

/// left, top, right, bottom
pub(super) type Rect = (f64, f64, f64, f64);

/// The box of a text of `chars` characters anchored at `at`, a little
/// larger than the glyphs so that neighbours keep a gap.
pub(super) fn text_box(at: Point, anchor: &str, chars: usize) -> Rect {
    let width = chars as f64 * LABEL_CHAR;
    let left = match anchor {
        "middle" => at.0 - width / 2.0,
        "end" => at.0 - width,
        _ => at.0,
    };
    (left - 2.0, at.1 - 10.0, left + width + 2.0, at.1 + 4.0)
}

/// `graph` laid out; the gaps between layers and items widen until every
/// text finds a free place (or the tries run out).
pub(super) fn drawing(graph: &Graph) -> Drawing {
    let layers = layers(graph);
    let mut last = None;
    for attempt in 0..6 {
        let drawing = attempt_at(graph, &layers, 1.0 + 0.3 * f64::from(attempt));
        if drawing.clear {
            return drawing;
        }
        last = Some(drawing);
    }
    last.expect("six tries")
}

/// Each edge's curve, through its bends; the start's arrow last.
fn curves(graph: &Graph, layers: &Layers, at: &[Point]) -> Vec<Curve> {
    let mut edges: Vec<Curve> = graph
        .edges
        .iter()
        .zip(&layers.chains)
        .map(|(edge, chain)| {
            let pieces = if chain.is_empty() {
                vec![self_loop(at[edge.from])]
            } else {
                let points: Vec<Point> = chain.iter().map(|&item| at[item]).collect();
                route(&points, bow(graph, edge.from, edge.to))
            };
            Curve {
                pieces,
                epsilon: edge.epsilon,
            }
        })
        .collect();
    let start = at[graph.start];
    let entry = (start.0 - RADIUS - 28.0, start.1);
    let tip = (start.0 - RADIUS - 1.0, start.1);
    edges.push(Curve {
        pieces: vec![[entry, entry, tip, tip]],
        epsilon: false,
    });
    edges
}

fn attempt_at(graph: &Graph, layers: &Layers, scale: f64) -> Drawing {
    let at = positions(graph, layers, scale);
    let edges = curves(graph, layers, &at);
    let states = at[..graph.nodes.len()].to_vec();
    let mut free = Free::new(&states, &edges);
    let mut texts = Vec::new();
    let mut clear = true;
    for (id, node) in graph.nodes.iter().enumerate() {
        if node.name.is_empty() {
            continue;
        }
        let candidates = if layers.apart.contains(&id) {
            vec![((states[id].0 + RADIUS + 6.0, states[id].1 + 4.0), "start")]
        } else {
            name_places(states[id])
        };
        let (placed, found) = free.place(&candidates, &node.name, None);
        clear &= found;
        texts.push(Placed {
            class: "name",
            text: node.name.clone(),
            at: placed.0,
            anchor: placed.1,
            state: Some(id),
        });
    }
    if let Some((dead, note)) = &graph.dead {
        let (x, y) = states[*dead];
        let at = (x + RADIUS + 6.0, y + 4.0 + TEXT_HEIGHT + 2.0);
        free.taken.push(text_box(at, "start", note.chars().count()));
        texts.push(Placed {
            class: "note",
            text: note.clone(),
            at,
            anchor: "start",
            state: None,
        });
    }
    for (e, edge) in graph.edges.iter().enumerate() {
        let candidates = label_places(&edges[e]);
        let (placed, found) = free.place(&candidates, &edge.label, Some(e));
        clear &= found;
        texts.push(Placed {
            class: "label",
            text: edge.label.clone(),
            at: placed.0,
            anchor: placed.1,
            state: None,
        });
    }
    Drawing {
        states,
        edges,
        texts,
        clear,
    }
}

/// How far an edge bows to its left: where two edges join the same pair of
/// states (one each way, or an ε-move beside a byte), so that they part.
fn bow(graph: &Graph, from: usize, to: usize) -> f64 {
    let pair = |e: &&crate::explain::stage::graph::Edge| {
        (e.from == from && e.to == to) || (e.from == to && e.to == from)
    };
    if graph.edges.iter().filter(pair).count() > 1 {
        let same_way = graph
            .edges
            .iter()
            .filter(|e| e.from == from && e.to == to)
            .count();
        14.0 * same_way as f64
    } else {
        0.0
    }
}

fn unit(from: Point, to: Point) -> Point {
    let length = (to.0 - from.0).hypot(to.1 - from.1).max(1e-9);
    ((to.0 - from.0) / length, (to.1 - from.1) / length)
}

/// Cubic pieces through `points` (state, bends, state): level through each
/// bend, so that the curve is smooth there, each end on its state's circle
/// pointing at the next control point; bowed by `bow` to the left.
fn route(points: &[Point], bow: f64) -> Vec<[Point; 4]> {
    let last = points.len() - 1;
    let mut pieces: Vec<[Point; 4]> = points
        .windows(2)
        .map(|pair| {
            let (a, b) = (pair[0], pair[1]);
            let dx = (b.0 - a.0) / 2.0;
            [a, (a.0 + dx, a.1), (b.0 - dx, b.1), b]
        })
        .collect();
    let (first, end) = (points[0], points[last]);
    let normal = {
        let u = unit(first, points[1]);
        (u.1, -u.0)
    };
    // A state's end of a piece aims along the piece, at most 45° off level
    // so that it leaves its layer before it can meet a neighbour there.
    let third = |p: &[Point; 4], t: f64| {
        let dx = p[3].0 - p[0].0;
        let dy = (p[3].1 - p[0].1).clamp(-dx.abs(), dx.abs());
        let near = if t < 0.5 { p[0] } else { p[3] };
        let sign = if t < 0.5 { 1.0 } else { -1.0 };
        (near.0 + sign * dx / 3.0, near.1 + sign * dy / 3.0)
    };
    pieces[0][1] = third(&pieces[0], 1.0 / 3.0);
    pieces[last - 1][2] = third(&pieces[last - 1], 2.0 / 3.0);
    if last == 1 {
        for c in [1, 2] {
            pieces[0][c] = (
                pieces[0][c].0 + normal.0 * bow,
                pieces[0][c].1 + normal.1 * bow,
            );
        }
    }
    let u = unit(first, pieces[0][1]);
    pieces[0][0] = (first.0 + u.0 * RADIUS, first.1 + u.1 * RADIUS);
    let u = unit(end, pieces[last - 1][2]);
    pieces[last - 1][3] = (end.0 + u.0 * (RADIUS + 1.0), end.1 + u.1 * (RADIUS + 1.0));
    pieces
}

/// A loop on top of its state.
fn self_loop((x, y): Point) -> [Point; 4] {
    let foot = (RADIUS * 0.5, RADIUS * 0.87);
    let top = y - RADIUS - LOOP * 1.5;
    [
        (x - foot.0, y - foot.1),
        (x - 34.0, top),
        (x + 34.0, top),
        (x + foot.0, y - foot.1 - 1.0),
    ]
}

fn at_t(p: &[Point; 4], t: f64) -> Point {
    let u = 1.0 - t;
    let mix = |a: f64, b: f64, c: f64, d: f64| {
        u * u * u * a + 3.0 * u * u * t * b + 3.0 * u * t * t * c + t * t * t * d
    };
    (
        mix(p[0].0, p[1].0, p[2].0, p[3].0),
        mix(p[0].1, p[1].1, p[2].1, p[3].1),
    )
}

/// Where a state's name may go, best first: under it, over it, then to
/// either side of those.
fn name_places((x, y): Point) -> Vec<(Point, &'static str)> {
    let mut places = Vec::new();
    for drop in [0.0, 8.0, 16.0] {
        let under = y + RADIUS + TEXT_HEIGHT + drop;
        let over = y - RADIUS - 5.0 - drop;
        places.extend([
            ((x, under), "middle"),
            ((x, over), "middle"),
            ((x - RADIUS, under), "end"),
            ((x + RADIUS, under), "start"),
            ((x - RADIUS, over), "end"),
            ((x + RADIUS, over), "start"),
        ]);
    }
    places.extend([
        ((x - RADIUS - 4.0, y + 4.0), "end"),
        ((x + RADIUS + 4.0, y + 4.0), "start"),
    ]);
    places
}

/// Where an edge's label may go, best first: on the curve, over it or under
/// it, at the middle of its first piece, then further along each piece.
fn label_places(curve: &Curve) -> Vec<(Point, &'static str)> {
    let mut places = Vec::new();
    for piece in &curve.pieces {
        for t in [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.15, 0.85] {
            let (x, y) = at_t(piece, t);
            places.extend([y + 4.0, y - 5.0, y + 14.0].map(|y| ((x, y), "middle")));
        }
    }
    places
}

/// What a text must not cover: the states, the texts placed so far, the
/// ends of edges; and, where it can, the edges themselves.
struct Free {
    states: Vec<Point>,
    taken: Vec<Rect>,
    /// Points along each piece of each edge, every few pixels, with the
    /// box around them to skip the pieces far from a text.
    lines: Vec<Vec<(Rect, Vec<Point>)>>,
}

impl Free {
    fn new(states: &[Point], edges: &[Curve]) -> Free {
        let mut taken = Vec::new();
        for curve in edges {
            for p in [curve.pieces[0][0], curve.pieces[curve.pieces.len() - 1][3]] {
                taken.push((p.0 - 5.0, p.1 - 5.0, p.0 + 5.0, p.1 + 5.0));
            }
        }
        let piece = |p: &[Point; 4]| {
            let points: Vec<Point> = (0..=32).map(|i| at_t(p, f64::from(i) / 32.0)).collect();
            let mut r = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
            for &(x, y) in &points {
                r = (r.0.min(x), r.1.min(y), r.2.max(x), r.3.max(y));
            }
            (r, points)
        };
        let lines = edges
            .iter()
            .map(|c| c.pieces.iter().map(piece).collect())
            .collect();
        Free {
            states: states.to_vec(),
            taken,
            lines,
        }
    }

    fn clear_of_shapes(&self, r: Rect) -> bool {
        let meets = |o: &Rect| r.0 < o.2 && o.0 < r.2 && r.1 < o.3 && o.1 < r.3;
        let near =
            |&(x, y): &Point| (x.clamp(r.0, r.2) - x).hypot(y.clamp(r.1, r.3) - y) < RADIUS + 2.0;
        !self.taken.iter().any(meets) && !self.states.iter().any(near)
    }

    fn clear_of_lines(&self, r: Rect, own: Option<usize>) -> bool {
        let inside = |&(x, y): &Point| r.0 < x && x < r.2 && r.1 < y && y < r.3;
        let meets = |o: &Rect| r.0 <= o.2 && o.0 <= r.2 && r.1 <= o.3 && o.1 <= r.3;
        let crosses =
            |(bounds, points): &(Rect, Vec<Point>)| meets(bounds) && points.iter().any(inside);
        self.lines
            .iter()
            .enumerate()
            .all(|(e, line)| Some(e) == own || !line.iter().any(crosses))
    }

    /// The first candidate clear of everything, or else of all but the
    /// edges; the first of all if none is, with `false`.
    fn place(
        &mut self,
        candidates: &[(Point, &'static str)],
        text: &str,
        own: Option<usize>,
    ) -> ((Point, &'static str), bool) {
        let chars = text.chars().count();
        let rect = |&(at, anchor): &(Point, &str)| text_box(at, anchor, chars);
        let found = candidates
            .iter()
            .find(|c| self.clear_of_shapes(rect(c)) && self.clear_of_lines(rect(c), own))
            .or_else(|| candidates.iter().find(|c| self.clear_of_shapes(rect(c))));
        let chosen = found.copied().unwrap_or(candidates[0]);
        self.taken.push(rect(&chosen));
        (chosen, found.is_some())
    }
}
