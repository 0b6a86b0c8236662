//! The pictures read back as geometry: every built-in ruleset's minimal DFA,
//! DFA and rounds of Moore's refinement, parsed from the SVG itself, with no
//! label over another or over a state, no edge through a state it does not
//! join, every state's name drawn, and RFC 3629's minimal DFA with no more
//! edge crossings than Graphviz's `dot` gives the same graph.
//!
//! Text boxes are estimated from the font: labels and names are 11px
//! monospace, whose advance is 0.6 em; ascent and descent are 0.8 and 0.25 em.

use std::process::Command;

use utf8_spec::explain::{Stage, StageFormat, render_stage, state_names};
use utf8_spec::rulesets::{BUILTIN, RFC3629};

type Point = (f64, f64);

#[derive(Debug)]
struct Circle {
    at: Point,
    r: f64,
}

#[derive(Debug)]
struct Text {
    class: String,
    content: String,
    /// left, top, right, bottom
    bounds: (f64, f64, f64, f64),
}

/// What a picture is made of: each state's outer circle, the label and
/// name texts, and each edge as points along its path.
#[derive(Default)]
struct Picture {
    states: Vec<Circle>,
    texts: Vec<Text>,
    edges: Vec<Vec<Point>>,
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = start + tag[start..].find('"')?;
    Some(tag[start..end].to_owned())
}

fn number(tag: &str, name: &str) -> f64 {
    attribute(tag, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name} in {tag}"))
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// A cubic Bézier's point at `t`.
fn cubic(p: [Point; 4], t: f64) -> Point {
    let u = 1.0 - t;
    let mix = |a: f64, b: f64, c: f64, d: f64| {
        u * u * u * a + 3.0 * u * u * t * b + 3.0 * u * t * t * c + t * t * t * d
    };
    (
        mix(p[0].0, p[1].0, p[2].0, p[3].0),
        mix(p[0].1, p[1].1, p[2].1, p[3].1),
    )
}

/// The points along an SVG path of `M`, `L`, `Q` and `C` commands with
/// absolute coordinates, each curve sampled at 24 steps.
fn sample_path(d: &str) -> Vec<Point> {
    let mut points: Vec<Point> = Vec::new();
    let mut command = ' ';
    let mut numbers: Vec<f64> = Vec::new();
    let flush = |command: char, numbers: &mut Vec<f64>, points: &mut Vec<Point>| {
        let pairs: Vec<Point> = numbers.chunks(2).map(|c| (c[0], c[1])).collect();
        numbers.clear();
        let last = points.last().copied();
        match (command, last) {
            ('M' | 'L', _) => points.extend(pairs),
            ('C', Some(from)) => {
                for c in pairs.chunks(3) {
                    let from = points.last().copied().unwrap_or(from);
                    let p = [from, c[0], c[1], c[2]];
                    points.extend((1..=24).map(|i| cubic(p, f64::from(i) / 24.0)));
                }
            }
            ('Q', Some(from)) => {
                for c in pairs.chunks(2) {
                    let from = points.last().copied().unwrap_or(from);
                    let two = |a: f64, b: f64| a + 2.0 / 3.0 * (b - a);
                    let p = [
                        from,
                        (two(from.0, c[0].0), two(from.1, c[0].1)),
                        (two(c[1].0, c[0].0), two(c[1].1, c[0].1)),
                        c[1],
                    ];
                    points.extend((1..=24).map(|i| cubic(p, f64::from(i) / 24.0)));
                }
            }
            _ => {}
        }
    };
    let mut token = String::new();
    for ch in d.chars().chain(std::iter::once(' ')) {
        if ch.is_ascii_digit() || ch == '.' || ch == '-' {
            token.push(ch);
            continue;
        }
        if !token.is_empty() {
            numbers.push(token.parse().expect("a number in the path"));
            token.clear();
        }
        if ch.is_ascii_alphabetic() {
            flush(command, &mut numbers, &mut points);
            command = ch;
        }
    }
    flush(command, &mut numbers, &mut points);
    points
}

fn text_bounds(tag: &str, content: &str) -> (f64, f64, f64, f64) {
    const FONT: f64 = 11.0;
    let (x, y) = (number(tag, "x"), number(tag, "y"));
    let width = content.chars().count() as f64 * 0.6 * FONT;
    let left = match attribute(tag, "text-anchor").as_deref() {
        Some("middle") => x - width / 2.0,
        Some("end") => x - width,
        _ => x,
    };
    (left, y - 0.8 * FONT, left + width, y + 0.25 * FONT)
}

fn parse(svg: &str) -> Picture {
    let mut picture = Picture::default();
    let mut in_state = false;
    let mut rest = svg;
    while let Some(open) = rest.find('<') {
        let close = open + rest[open..].find('>').expect("a closed tag");
        let tag = &rest[open..=close];
        rest = &rest[close + 1..];
        if tag.starts_with("<g class=\"state\"") {
            in_state = true;
        } else if tag.starts_with("</g") {
            in_state = false;
        } else if tag.starts_with("<circle") && in_state {
            let circle = Circle {
                at: (number(tag, "cx"), number(tag, "cy")),
                r: number(tag, "r"),
            };
            match picture.states.iter_mut().find(|c| c.at == circle.at) {
                Some(outer) => outer.r = outer.r.max(circle.r),
                None => picture.states.push(circle),
            }
        } else if tag.starts_with("<path class=\"edge") {
            picture
                .edges
                .push(sample_path(&attribute(tag, "d").expect("a path")));
        } else if tag.starts_with("<text") {
            let class = attribute(tag, "class").unwrap_or_default();
            if class == "label" || class == "name" {
                let end = rest.find("</text>").expect("a closed text");
                let content = unescape(&rest[..end]);
                let bounds = text_bounds(tag, &content);
                picture.texts.push(Text {
                    class,
                    content,
                    bounds,
                });
            }
        }
    }
    picture
}

fn boxes_meet(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

fn box_meets_circle(b: (f64, f64, f64, f64), c: &Circle) -> bool {
    let nearest = (c.at.0.clamp(b.0, b.2), c.at.1.clamp(b.1, b.3));
    distance(nearest, c.at) < c.r
}

fn distance(a: Point, b: Point) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// What is wrong with a picture's geometry, one line a fault.
fn faults(picture: &Picture) -> Vec<String> {
    let mut faults = Vec::new();
    for (i, a) in picture.texts.iter().enumerate() {
        for b in &picture.texts[i + 1..] {
            if boxes_meet(a.bounds, b.bounds) {
                faults.push(format!("{:?} over {:?}", a.content, b.content));
            }
        }
        for (s, state) in picture.states.iter().enumerate() {
            if box_meets_circle(a.bounds, state) {
                faults.push(format!("{} {:?} over state {s}", a.class, a.content));
            }
        }
    }
    for (e, edge) in picture.edges.iter().enumerate() {
        let (Some(&first), Some(&last)) = (edge.first(), edge.last()) else {
            continue;
        };
        // An edge touches the states its ends lie on (the arrowhead's tip
        // stops short of the circle).
        let touches =
            |c: &Circle| distance(first, c.at) < c.r + 4.0 || distance(last, c.at) < c.r + 4.0;
        for (s, state) in picture.states.iter().enumerate() {
            if !touches(state) && edge.iter().any(|&p| distance(p, state.at) < state.r - 0.5) {
                faults.push(format!("edge {e} through state {s}"));
            }
        }
    }
    faults
}

fn segments_cross(a: (Point, Point), b: (Point, Point)) -> Option<Point> {
    let d = |p: Point, q: Point| (q.0 - p.0, q.1 - p.1);
    let (r, s) = (d(a.0, a.1), d(b.0, b.1));
    let denominator = r.0 * s.1 - r.1 * s.0;
    if denominator.abs() < 1e-9 {
        return None;
    }
    let w = d(a.0, b.0);
    let t = (w.0 * s.1 - w.1 * s.0) / denominator;
    let u = (w.0 * r.1 - w.1 * r.0) / denominator;
    ((0.0..1.0).contains(&t) && (0.0..1.0).contains(&u))
        .then_some((a.0.0 + t * r.0, a.0.1 + t * r.1))
}

/// How many times edges cross one another, away from the states (where
/// edges that share a state meet).
fn crossings(edges: &[Vec<Point>], states: &[Circle]) -> usize {
    let mut count = 0;
    for (i, a) in edges.iter().enumerate() {
        for b in &edges[i + 1..] {
            let mut points: Vec<Point> = Vec::new();
            for sa in a.windows(2) {
                for sb in b.windows(2) {
                    if let Some(p) = segments_cross((sa[0], sa[1]), (sb[0], sb[1])) {
                        let near_state = states.iter().any(|c| distance(p, c.at) < c.r + 6.0);
                        let seen = points.iter().any(|&q| distance(p, q) < 4.0);
                        if !near_state && !seen {
                            points.push(p);
                        }
                    }
                }
            }
            count += points.len();
        }
    }
    count
}

/// The crossings of Graphviz's own layout of `dot_source`, read from
/// `dot -Tplain` (inches, B-spline control points); `None` without Graphviz.
fn dot_crossings(dot_source: &str) -> Option<usize> {
    use std::io::Write as _;
    let mut child = Command::new("dot")
        .arg("-Tplain")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(dot_source.as_bytes()).ok()?;
    let output = child.wait_with_output().ok()?;
    let plain = String::from_utf8(output.stdout).ok()?;
    let (mut states, mut edges) = (Vec::new(), Vec::new());
    for line in plain.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let inches = |i: usize| words[i].parse::<f64>().expect("a number") * 72.0;
        match words.first() {
            Some(&"node") if words[1] != "entry" => states.push(Circle {
                at: (inches(2), inches(3)),
                r: inches(4) / 2.0,
            }),
            Some(&"edge") if words[1] != "entry" => {
                let n: usize = words[3].parse().expect("a point count");
                let points: Vec<Point> = (0..n)
                    .map(|i| (inches(4 + 2 * i), inches(5 + 2 * i)))
                    .collect();
                let mut sampled = vec![points[0]];
                for c in points[1..].chunks(3).filter(|c| c.len() == 3) {
                    let from = *sampled.last().expect("a start");
                    let p = [from, c[0], c[1], c[2]];
                    sampled.extend((1..=24).map(|i| cubic(p, f64::from(i) / 24.0)));
                }
                edges.push(sampled);
            }
            _ => {}
        }
    }
    Some(crossings(&edges, &states))
}

fn svg(ruleset: &utf8_spec::rulesets::Ruleset, stage: Stage) -> String {
    let derivation = ruleset.derive().expect("built-in rulesets derive");
    render_stage(&derivation, stage, StageFormat::Svg).expect("drawn stages have SVG")
}

fn names_drawn(picture: &Picture) -> Vec<&str> {
    picture
        .texts
        .iter()
        .filter(|t| t.class == "name")
        .map(|t| t.content.as_str())
        .collect()
}

#[test]
fn every_minimal_dfa_is_drawn_with_its_labels_clear_and_its_states_named() {
    for ruleset in BUILTIN {
        let picture = parse(&svg(ruleset, Stage::Minimal));
        let derivation = ruleset.derive().expect("built-in rulesets derive");
        assert_eq!(
            picture.states.len(),
            derivation.tables().states().count(),
            "{}",
            ruleset.name
        );
        assert_eq!(faults(&picture), Vec::<String>::new(), "{}", ruleset.name);
        let drawn = names_drawn(&picture);
        for name in state_names(derivation.tables()) {
            assert!(
                drawn.contains(&name.as_str()),
                "{}: {name:?} in {drawn:?}",
                ruleset.name
            );
        }
    }
}

/// The name the DFA's pictures give a state: the shortest input to it.
fn dfa_names(ruleset: &utf8_spec::rulesets::Ruleset) -> Vec<String> {
    let derivation = ruleset.derive().expect("built-in rulesets derive");
    let json = render_stage(&derivation, Stage::Dfa, StageFormat::Json).expect("JSON");
    let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    value["shortest_inputs"]
        .as_array()
        .expect("the shortest inputs")
        .iter()
        .map(|input| {
            let bytes: Vec<String> = input
                .as_array()
                .expect("bytes")
                .iter()
                .map(|b| format!("{:02X}", b.as_u64().expect("a byte")))
                .collect();
            if bytes.is_empty() {
                "start".to_owned()
            } else {
                format!("after {}", bytes.join(" "))
            }
        })
        .collect()
}

#[test]
fn every_dfa_and_each_round_of_moore_is_drawn_with_its_labels_clear_and_its_states_named() {
    for ruleset in BUILTIN {
        let derivation = ruleset.derive().expect("built-in rulesets derive");
        let names = dfa_names(ruleset);
        for stage in [Stage::Dfa, Stage::Rounds] {
            if !utf8_spec::explain::is_drawn(&derivation, stage) {
                continue;
            }
            let picture = parse(&svg(ruleset, stage));
            let panels = picture.states.len() / names.len();
            assert_eq!(
                picture.states.len(),
                panels * names.len(),
                "{}",
                ruleset.name
            );
            assert_eq!(
                faults(&picture),
                Vec::<String>::new(),
                "{} {stage:?}",
                ruleset.name
            );
            let drawn = names_drawn(&picture);
            for name in &names {
                let times = drawn.iter().filter(|&&d| d == name).count();
                assert_eq!(
                    times, panels,
                    "{} {stage:?}: {name:?} in {drawn:?}",
                    ruleset.name
                );
            }
        }
    }
}

/// Graphviz 2.42's `dot -Tplain` layout of RFC 3629's minimal DFA (the
/// `--format dot` graph), counted by [`crossings`]: the bound when Graphviz
/// is not installed.
const DOT_CROSSINGS: usize = 1;

#[test]
fn rfc3629s_minimal_dfa_crosses_no_more_edges_than_graphvizs_dot_layout() {
    let derivation = RFC3629.derive().expect("RFC 3629 derives");
    let picture = parse(&svg(&RFC3629, Stage::Minimal));
    let ours = crossings(&picture.edges, &picture.states);
    let dot = render_stage(&derivation, Stage::Minimal, StageFormat::Dot).expect("DOT");
    let theirs = dot_crossings(&dot).unwrap_or(DOT_CROSSINGS);
    eprintln!("crossings: ours {ours}, dot's {theirs}");
    assert!(ours <= theirs, "ours {ours}, dot's {theirs}");
}

#[test]
fn the_geometry_check_finds_labels_over_one_another() {
    let svg = "<svg><g class=\"state\"><circle cx=\"10\" cy=\"10\" r=\"5\"/></g>\
               <text class=\"label\" x=\"40\" y=\"40\" text-anchor=\"middle\">%x80-BF</text>\
               <text class=\"name\" x=\"45\" y=\"42\">error</text>\
               <text class=\"label\" x=\"10\" y=\"14\">%x00</text>\
               <path class=\"edge\" d=\"M0,0 C5,5 15,15 30,30\"/></svg>";
    let faults = faults(&parse(svg));
    assert_eq!(faults.len(), 3, "{faults:?}");
}

#[test]
fn an_automaton_of_one_looping_state_and_the_dead_one_is_drawn_clear() {
    let derivation = utf8_spec::Derivation::new("text = *char\nchar = %x00-7F\n", "text")
        .expect("ASCII derives");
    for stage in [Stage::Nfa, Stage::Dfa, Stage::Rounds, Stage::Minimal] {
        let svg = render_stage(&derivation, stage, StageFormat::Svg).expect("drawn");
        let picture = parse(&svg);
        assert!(!picture.states.is_empty(), "{stage:?}");
        assert_eq!(faults(&picture), Vec::<String>::new(), "{stage:?}");
    }
}

#[test]
fn every_nfa_small_enough_to_draw_is_drawn_clear() {
    for ruleset in BUILTIN {
        let derivation = ruleset.derive().expect("built-in rulesets derive");
        if utf8_spec::explain::is_drawn(&derivation, Stage::Nfa) {
            let picture = parse(&svg(ruleset, Stage::Nfa));
            assert_eq!(picture.states.len(), derivation.nfa().states().len());
            assert_eq!(faults(&picture), Vec::<String>::new(), "{}", ruleset.name);
        }
    }
}
