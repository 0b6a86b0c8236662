//! The chart `cargo xtask bench` writes to `bench/chart.svg`: GB/s of the
//! main contenders on a few groups of inputs, each bar the geometric mean over
//! its group's inputs in one run, as plain SVG headed by the CPU and the
//! command that measured it. Groups and contenders a run lacks are left out.

use std::fmt::Write as _;

use super::Measurement;
use super::table::{geomean, is_valid_corpus};

/// Where the chart goes, from the workspace root.
pub const PATH: &str = "bench/chart.svg";

/// A contender the chart draws.
#[derive(Debug, PartialEq)]
pub struct Contender {
    /// What the legend calls it.
    pub label: &'static str,
    /// The benchmark's name for it (criterion's function id).
    pub name: &'static str,
    /// Its bars' colour (Okabe–Ito, told apart with colour blindness).
    colour: &'static str,
}

/// The main contenders, in the order of the bars.
pub const CONTENDERS: [Contender; 4] = [
    Contender {
        label: "utf8-core (dispatched)",
        name: "utf8-core",
        colour: "#0072B2",
    },
    Contender {
        label: "simdutf8::basic",
        name: "simdutf8::basic",
        colour: "#E69F00",
    },
    Contender {
        label: "C++ simdutf",
        name: "C++ simdutf",
        colour: "#009E73",
    },
    Contender {
        label: "core::str",
        name: "core::str",
        colour: "#999999",
    },
];

/// Whether an input (criterion's group id) belongs to a group.
type Belongs = fn(&str) -> bool;

/// The groups of inputs, in the order drawn: a title, and which inputs
/// belong to it.
const GROUPS: [(&str, Belongs); 5] = [
    ("Lipsum, non-ASCII scripts", |input| {
        input.starts_with("lipsum/") && is_valid_corpus(input) && input != LATIN
    }),
    ("Lipsum, Latin (ASCII)", |input| input == LATIN),
    ("Wikipedia pages", |input| {
        input.starts_with("wikipedia_mars/") && is_valid_corpus(input)
    }),
    ("Random 1–4-byte characters, 1 MiB", |input| {
        input == "generated/random-1-4-byte-1MiB"
    }),
    ("Short lines (≤ 64 B, one call each)", |input| {
        input == "generated/lines-up-to-64-bytes"
    }),
];

const LATIN: &str = "lipsum/Latin-Lipsum";

/// One bar: a contender's geometric mean GB/s over a group's inputs.
#[derive(Debug, PartialEq)]
pub struct Bar {
    /// Whose bar.
    pub contender: &'static Contender,
    /// GB/s, the geometric mean over the group's inputs.
    pub gb_per_s: f64,
}

/// One group of bars.
#[derive(Debug, PartialEq)]
pub struct Group {
    /// Its title, with the number of inputs where there are several.
    pub title: String,
    /// A bar per contender measured on every input of the group.
    pub bars: Vec<Bar>,
}

/// The groups this run measured, each with a bar per contender that it
/// measured on all of the group's inputs (a mean over fewer would not
/// compare).
pub fn groups(measurements: &[Measurement]) -> Vec<Group> {
    let mut out = Vec::new();
    for (title, belongs) in GROUPS {
        let mut inputs: Vec<&str> = measurements
            .iter()
            .map(|m| m.input.as_str())
            .filter(|input| belongs(input))
            .collect();
        inputs.sort_unstable();
        inputs.dedup();
        if inputs.is_empty() {
            continue;
        }
        let gb = |input: &str, name: &str| {
            let found = measurements
                .iter()
                .find(|m| m.input == input && m.contender == name);
            found.map(Measurement::gb_per_s)
        };
        let bars: Vec<Bar> = CONTENDERS
            .iter()
            .filter_map(|contender| {
                let values: Vec<f64> = inputs
                    .iter()
                    .map(|input| gb(input, contender.name))
                    .collect::<Option<_>>()?;
                let gb_per_s = geomean(&values);
                Some(Bar {
                    contender,
                    gb_per_s,
                })
            })
            .collect();
        if !bars.is_empty() {
            let title = match inputs.len() {
                1 => title.to_owned(),
                n => format!("{title} ({n} files)"),
            };
            out.push(Group { title, bars });
        }
    }
    out
}

/// `cargo xtask bench` with `args`, quoted for a POSIX shell where they
/// need it.
pub fn command_line(args: &[&str]) -> String {
    let mut line = "cargo xtask bench".to_owned();
    for arg in args {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
        if plain {
            let _ = write!(line, " {arg}");
        } else {
            let _ = write!(line, " '{}'", arg.replace('\'', r"'\''"));
        }
    }
    line
}

const WIDTH: f64 = 800.0;
const LEFT: f64 = 20.0;
/// The bars' full scale: room is left on the right for a value label.
const PLOT: f64 = 710.0;
const BAR: f64 = 16.0;
const BAR_STEP: f64 = 20.0;
/// Where the first group's heading starts.
const GROUPS_TOP: f64 = 116.0;
const FONT: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const MONO: &str = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";

/// Text made safe for XML content and double-quoted attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart as an SVG document: `groups` measured on `cpu` by `command`.
pub fn svg(groups: &[Group], cpu: &str, command: &str) -> String {
    let (step, top) = scale(groups);
    let heights = groups.iter().map(|g| 30.0 + BAR_STEP * g.bars.len() as f64);
    let bottom = GROUPS_TOP + heights.sum::<f64>();
    let height = bottom + 50.0;
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"{FONT}\" font-size=\"12\" fill=\"#24292f\">\n\
         <title>UTF-8 validation speed, GB/s, on {}</title>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
        escape(cpu)
    );
    header(&mut out, cpu, command);
    legend(&mut out, groups);
    axis(&mut out, step, top, bottom);
    let mut y = GROUPS_TOP;
    for group in groups {
        y = bars(&mut out, group, top, y);
    }
    out.push_str("</svg>\n");
    out
}

/// The grid's step and its full scale: a round step, about six of them.
fn scale(groups: &[Group]) -> (f64, f64) {
    let max = groups
        .iter()
        .flat_map(|g| &g.bars)
        .map(|b| b.gb_per_s)
        .fold(0.0, f64::max);
    if max <= 0.0 || !max.is_finite() {
        return (1.0, 1.0);
    }
    let rough = max / 6.0;
    let magnitude = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * magnitude);
    (step, (max / step).ceil() * step)
}

fn header(out: &mut String, cpu: &str, command: &str) {
    let _ = write!(
        out,
        "<text x=\"{LEFT}\" y=\"30\" font-size=\"17\" font-weight=\"bold\">\
         UTF-8 validation speed, GB/s (higher is better)</text>\n\
         <text x=\"{LEFT}\" y=\"50\">Measured on {}</text>\n\
         <text x=\"{LEFT}\" y=\"68\">by <tspan font-family=\"{MONO}\">{}</tspan></text>\n",
        escape(cpu),
        escape(command)
    );
}

/// A swatch and a label for each contender that has a bar somewhere.
fn legend(out: &mut String, groups: &[Group]) {
    let mut x = LEFT;
    for contender in &CONTENDERS {
        let drawn = groups
            .iter()
            .any(|g| g.bars.iter().any(|b| b.contender == contender));
        if !drawn {
            continue;
        }
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"86\" width=\"12\" height=\"12\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"96.5\">{}</text>",
            contender.colour,
            x + 17.0,
            escape(contender.label)
        );
        // About 6.5 px a character at 12 px, then a gap.
        x += 17.0 + 6.5 * contender.label.chars().count() as f64 + 22.0;
    }
}

/// Vertical grid lines a `step` apart up to `top` GB/s, their values under
/// the plot, and what the bars are.
fn axis(out: &mut String, step: f64, top: f64, bottom: f64) {
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let plot_top = GROUPS_TOP - 6.0;
    let ticks = (top / step).round() as usize;
    for k in 0..=ticks {
        let value = k as f64 * step;
        let x = LEFT + PLOT * value / top;
        let stroke = if k == 0 { "#8c959f" } else { "#e1e4e8" };
        let _ = writeln!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{plot_top}\" x2=\"{x:.1}\" y2=\"{bottom}\" stroke=\"{stroke}\"/>\
             <text x=\"{x:.1}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#57606a\">{value:.decimals$}</text>",
            bottom + 14.0
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"11\" fill=\"#57606a\">GB/s (10⁹ bytes per second), \
         criterion's median; each bar the geometric mean over its group's inputs.</text>",
        bottom + 36.0
    );
}

/// A group's heading and bars from `y` down; where the next group starts.
fn bars(out: &mut String, group: &Group, top: f64, y: f64) -> f64 {
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">{}</text>",
        y + 13.0,
        escape(&group.title)
    );
    let mut bar_y = y + 20.0;
    for bar in &group.bars {
        let width = PLOT * bar.gb_per_s / top;
        let value = format!("{:.2}", bar.gb_per_s);
        let _ = writeln!(
            out,
            "<rect x=\"{LEFT}\" y=\"{bar_y}\" width=\"{width:.1}\" height=\"{BAR}\" fill=\"{}\">\
             <title>{} on {}: {value} GB/s</title></rect>\
             <text x=\"{:.1}\" y=\"{}\" font-size=\"11\">{value}</text>",
            bar.contender.colour,
            escape(bar.contender.label),
            escape(&group.title),
            LEFT + width + 4.0,
            bar_y + 12.0
        );
        bar_y += BAR_STEP;
    }
    bar_y + 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1000 bytes per iteration at `gb` GB/s.
    fn m(input: &str, contender: &str, gb: f64) -> Measurement {
        Measurement::at(input, contender, 1000, gb)
    }

    /// Every main contender (and one the chart leaves out) on `input`, at
    /// `scale` times a round speed each.
    fn run(input: &str, scale: f64) -> Vec<Measurement> {
        [
            ("utf8-core", 8.0),
            ("utf8-core AVX2", 7.0),
            ("simdutf8::basic", 4.0),
            ("C++ simdutf", 5.0),
            ("core::str", 1.0),
        ]
        .into_iter()
        .map(|(c, gb)| m(input, c, gb * scale))
        .collect()
    }

    fn bars(group: &Group) -> Vec<(&'static str, f64)> {
        let bar = |b: &Bar| (b.contender.name, (b.gb_per_s * 1e9).round() / 1e9);
        group.bars.iter().map(bar).collect()
    }

    #[test]
    fn each_bar_is_the_geometric_mean_over_its_groups_inputs() {
        let mut measurements = run("lipsum/Arabic-Lipsum", 1.0);
        measurements.extend(run("lipsum/Hindi-Lipsum", 4.0));
        measurements.extend(run("lipsum/Latin-Lipsum", 10.0));
        // Neither a Latin-1 file nor an early error belongs to any group.
        measurements.extend(run("wikipedia_mars/french.latin1", 1000.0));
        measurements.extend(run("generated/error-at-700-of-1MiB", 1000.0));
        measurements.extend(run("generated/lines-up-to-64-bytes", 0.5));
        let groups = groups(&measurements);
        let titles: Vec<&str> = groups.iter().map(|g| g.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Lipsum, non-ASCII scripts (2 files)",
                "Lipsum, Latin (ASCII)",
                "Short lines (≤ 64 B, one call each)"
            ]
        );
        // The geometric mean of 1× and 4× is 2×.
        let doubled = [
            ("utf8-core", 16.0),
            ("simdutf8::basic", 8.0),
            ("C++ simdutf", 10.0),
            ("core::str", 2.0),
        ];
        assert_eq!(bars(&groups[0]), doubled);
        assert_eq!(bars(&groups[1])[0], ("utf8-core", 80.0));
        assert_eq!(bars(&groups[2])[3], ("core::str", 0.5));
    }

    #[test]
    fn a_contender_missing_from_a_group_or_the_run_is_left_out() {
        let mut measurements = run("wikipedia_mars/thai", 1.0);
        measurements.extend(run("wikipedia_mars/greek", 1.0));
        measurements.extend(run("generated/random-1-4-byte-1MiB", 1.0));
        // No C++ simdutf anywhere; simdutf8 on one of the two pages only.
        measurements.retain(|m| m.contender != "C++ simdutf");
        measurements.retain(|m| !(m.input.ends_with("greek") && m.contender.starts_with("simd")));
        let groups = groups(&measurements);
        let names = |g: &Group| -> Vec<&'static str> { bars(g).into_iter().map(|b| b.0).collect() };
        assert_eq!(groups[0].title, "Wikipedia pages (2 files)");
        assert_eq!(names(&groups[0]), ["utf8-core", "core::str"]);
        assert_eq!(groups[1].title, "Random 1–4-byte characters, 1 MiB");
        assert_eq!(
            names(&groups[1]),
            ["utf8-core", "simdutf8::basic", "core::str"]
        );
        let svg = svg(&groups, "AMD EPYC", "cargo xtask bench");
        assert!(!svg.contains("C++ simdutf"), "{svg}");
        assert!(svg.contains(">simdutf8::basic</text>"), "{svg}");
        // A bar for each one measured, nothing drawn as zero.
        assert_eq!(svg.matches("<title>").count(), 1 + 2 + 3, "{svg}");
        assert!(!svg.contains(">0.00</text>"), "{svg}");
    }

    #[test]
    fn the_chart_names_the_cpu_and_the_command_and_is_well_formed_xml() {
        let measurements = run("lipsum/Emoji-Lipsum", 3.3);
        let cpu = "AMD EPYC 9R14 <96-Core> (2 logical CPUs), with AVX-512, AVX2, SSE4.1";
        let command = command_line(&["--quick", "^(generated|lipsum|wikipedia_mars)/"]);
        assert_eq!(
            command,
            "cargo xtask bench --quick '^(generated|lipsum|wikipedia_mars)/'"
        );
        let svg = svg(&groups(&measurements), cpu, &command);
        assert!(svg.contains("AMD EPYC 9R14 &lt;96-Core&gt; (2 logical CPUs), with AVX-512"));
        assert!(svg.contains("cargo xtask bench --quick '^(generated|lipsum|wikipedia_mars)/'"));
        assert!(svg.contains(">26.40</text>"), "utf8-core's 8 × 3.3: {svg}");
        assert_well_formed(&svg);
        assert_well_formed(&super::svg(&[], cpu, &command));
    }

    #[test]
    fn arguments_that_a_shell_would_split_are_quoted() {
        assert_eq!(command_line(&[]), "cargo xtask bench");
        assert_eq!(command_line(&["--report"]), "cargo xtask bench --report");
        assert_eq!(
            command_line(&["lipsum/Arabic"]),
            "cargo xtask bench lipsum/Arabic"
        );
        assert_eq!(command_line(&["it's"]), r"cargo xtask bench 'it'\''s'");
        assert_eq!(command_line(&[""]), "cargo xtask bench ''");
    }

    #[test]
    fn the_grid_steps_are_round() {
        let group = |gb_per_s| Group {
            title: String::new(),
            bars: vec![Bar {
                contender: &CONTENDERS[0],
                gb_per_s,
            }],
        };
        assert_eq!(scale(&[group(111.38)]), (20.0, 120.0));
        assert_eq!(scale(&[group(33.79)]), (10.0, 40.0));
        assert_eq!(scale(&[group(4.47)]), (1.0, 5.0));
        assert_eq!(scale(&[]), (1.0, 1.0));
    }

    #[test]
    fn every_contender_the_chart_names_is_one_the_benchmark_runs() {
        let bench = crate::workspace_root().join("bench/benches/validate.rs");
        let source = std::fs::read_to_string(&bench).unwrap();
        for contender in &CONTENDERS {
            let name = format!("\"{}\"", contender.name);
            assert!(
                source.contains(&name),
                "{name} is not in {}",
                bench.display()
            );
        }
    }

    /// A light check that `xml` is well formed: one root element, every
    /// tag closed in order, attribute quotes paired, `&` only in entities.
    fn assert_well_formed(xml: &str) {
        let mut open: Vec<&str> = Vec::new();
        let mut roots = 0;
        let mut rest = xml;
        while let Some(start) = rest.find('<') {
            check_text(&rest[..start]);
            let end = start + rest[start..].find('>').expect("a tag that ends");
            let tag = &rest[start + 1..end];
            assert!(!tag.contains('<'), "{tag}");
            assert_eq!(tag.matches('"').count() % 2, 0, "{tag}");
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(open.pop(), Some(name), "closing {name}");
            } else if !tag.starts_with('?') {
                roots += usize::from(open.is_empty());
                let name = tag.split([' ', '/', '\n']).next().unwrap_or("");
                assert!(!name.is_empty(), "{tag}");
                if !tag.ends_with('/') {
                    open.push(name);
                }
            }
            rest = &rest[end + 1..];
        }
        check_text(rest);
        assert!(open.is_empty(), "left open: {open:?}");
        assert_eq!(roots, 1, "one root element");
    }

    fn check_text(text: &str) {
        assert!(!text.contains('>'), "{text}");
        for (at, _) in text.match_indices('&') {
            let entity = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"];
            assert!(entity.iter().any(|e| text[at..].starts_with(e)), "{text}");
        }
    }
}
