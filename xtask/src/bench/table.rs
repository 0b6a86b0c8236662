//! The table `cargo xtask bench` prints: one row per input, one GB/s column
//! per contender and vector level, then the ratios that answer the speed
//! targets, each taken within the run; under the inputs, the geometric mean
//! and the lowest ratio over the valid corpus files.
//!
//! Contenders are looked up by the names `bench/benches/validate.rs` gives
//! them (criterion's function ids); a test checks that each name is there.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Measurement;

/// The GB/s columns: header, and the benchmark's name for the contender.
pub const CONTENDERS: [(&str, &str); 13] = [
    ("utf8-core", "utf8-core"),
    ("AVX-512", "utf8-core AVX-512"),
    ("AVX2", "utf8-core AVX2"),
    ("SSE4.1", "utf8-core SSE4.1"),
    ("stream 4K", STREAMING),
    ("legacy31", "utf8-core legacy31"),
    ("core::str", "core::str"),
    ("s8 basic", "simdutf8::basic"),
    ("s8 compat", "simdutf8::compat"),
    ("s8 AVX2", "simdutf8 AVX2"),
    ("s8 SSE4.2", "simdutf8 SSE4.2"),
    ("C++ simdutf", "C++ simdutf"),
    ("read-only", "read-only pass"),
];

/// The streaming contender of the benchmark.
pub const STREAMING: &str = "utf8-core streaming 4K";

/// A ratio column: `over` GB/s ÷ `under` GB/s on the same input.
#[derive(Clone, Copy)]
pub struct Ratio {
    pub(crate) header: &'static str,
    pub(crate) over: &'static str,
    pub(crate) under: &'static str,
    /// Shown only when some input has `over`: a level most CPUs lack.
    pub(crate) only_where_measured: bool,
}

const RATIOS: [Ratio; 6] = [
    Ratio {
        header: "AVX-512 ÷ s8 AVX2",
        over: "utf8-core AVX-512",
        under: "simdutf8 AVX2",
        only_where_measured: true,
    },
    Ratio {
        header: "AVX2 ÷ s8 AVX2",
        over: "utf8-core AVX2",
        under: "simdutf8 AVX2",
        only_where_measured: false,
    },
    Ratio {
        header: "SSE4.1 ÷ s8 SSE4.2",
        over: "utf8-core SSE4.1",
        under: "simdutf8 SSE4.2",
        only_where_measured: false,
    },
    Ratio {
        header: "÷ C++",
        over: "utf8-core",
        under: "C++ simdutf",
        only_where_measured: false,
    },
    Ratio {
        header: "÷ core::str",
        over: "utf8-core",
        under: "core::str",
        only_where_measured: false,
    },
    Ratio {
        header: "÷ read-only",
        over: "utf8-core",
        under: "read-only pass",
        only_where_measured: false,
    },
];

/// A table's columns: GB/s per contender, then ratios; and whether a note
/// under it compares the streaming contender with the one-shot one.
pub struct Spec {
    /// Header and the benchmark's name for each GB/s column.
    pub contenders: &'static [(&'static str, &'static str)],
    /// The ratio columns.
    pub ratios: &'static [Ratio],
    /// The streaming contender to compare with the first column in a note.
    pub streaming: Option<&'static str>,
}

/// The validate benchmark's table.
pub const VALIDATE: Spec = Spec {
    contenders: &CONTENDERS,
    ratios: &RATIOS,
    streaming: Some(STREAMING),
};

/// What a cell not measured shows: a level the CPU lacks, a contender not built.
pub const MISSING: &str = "–";

/// Whether `input` is a valid file of the corpus: the benchmark names those
/// by their stem alone (`lipsum/Arabic-Lipsum` for `Arabic-Lipsum.utf8.txt`)
/// and keeps the encoding of the others (`wikipedia_mars/french.latin1`).
pub fn is_valid_corpus(input: &str) -> bool {
    match input.split_once('/') {
        Some(("lipsum" | "wikipedia_mars", file)) => !file.contains('.'),
        _ => false,
    }
}

/// A table of cells, and the lines that go under it.
#[derive(Debug)]
pub struct Table {
    /// The column headers.
    pub header: Vec<String>,
    /// The rows, as many cells as headers each.
    pub rows: Vec<Vec<String>>,
    /// Sentences for under the table.
    pub notes: Vec<String>,
}

/// One input's numbers: every GB/s column, then every ratio column shown.
struct Line<'a> {
    input: &'a str,
    bytes: u64,
    values: Vec<Option<f64>>,
}

/// Builds the validate benchmark's table from one run's measurements.
pub fn build(measurements: &[Measurement]) -> Table {
    build_with(&VALIDATE, measurements)
}

/// Builds a table of `spec`'s columns from one run's measurements.
pub fn build_with(spec: &Spec, measurements: &[Measurement]) -> Table {
    let ratios: Vec<&Ratio> = spec
        .ratios
        .iter()
        .filter(|r| !r.only_where_measured || measurements.iter().any(|m| m.contender == r.over))
        .collect();
    let mut by_input: BTreeMap<&str, Vec<&Measurement>> = BTreeMap::new();
    for m in measurements {
        by_input.entry(&m.input).or_default().push(m);
    }
    let lines: Vec<Line> = by_input
        .iter()
        .map(|(input, row)| line(spec, input, row, &ratios))
        .collect();
    let mut header = vec!["input".to_owned(), "bytes".to_owned()];
    header.extend(spec.contenders.iter().map(|(h, _)| (*h).to_owned()));
    header.extend(ratios.iter().map(|r| r.header.to_owned()));
    let mut rows: Vec<Vec<String>> = lines.iter().map(|l| cells(spec, l)).collect();
    let corpus: Vec<&Line> = lines.iter().filter(|l| is_valid_corpus(l.input)).collect();
    let mut notes = Vec::new();
    if !corpus.is_empty() {
        rows.extend(summary_rows(spec, &corpus));
        notes.extend(lowest_notes(spec, &corpus, &ratios));
    }
    notes.extend(spec.streaming.and_then(|s| streaming_note(spec, s, &lines)));
    Table {
        header,
        rows,
        notes,
    }
}

fn line<'a>(spec: &Spec, input: &'a str, row: &[&Measurement], ratios: &[&Ratio]) -> Line<'a> {
    let gb = |contender: &str| {
        row.iter()
            .find(|m| m.contender == contender)
            .map(|m| m.gb_per_s())
    };
    let mut values: Vec<Option<f64>> = spec.contenders.iter().map(|(_, c)| gb(c)).collect();
    values.extend(ratios.iter().map(|r| Some(gb(r.over)? / gb(r.under)?)));
    Line {
        input,
        bytes: row.first().map_or(0, |m| m.bytes),
        values,
    }
}

/// A GB/s column's cell, or a ratio column's.
fn cell(spec: &Spec, column: usize, value: Option<f64>) -> String {
    match value {
        None => MISSING.to_owned(),
        Some(v) if column < spec.contenders.len() => format!("{v:.2}"),
        Some(v) => format!("{v:.2}×"),
    }
}

fn cells(spec: &Spec, line: &Line) -> Vec<String> {
    let mut row = vec![line.input.to_owned(), line.bytes.to_string()];
    row.extend(
        line.values
            .iter()
            .enumerate()
            .map(|(i, v)| cell(spec, i, *v)),
    );
    row
}

/// The geometric mean of `values` (not empty, all positive).
pub(crate) fn geomean(values: &[f64]) -> f64 {
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

/// Column `i` on every line, or `None` when some line lacks it: a mean over
/// fewer files would not compare with the others.
fn column(corpus: &[&Line], i: usize) -> Option<Vec<f64>> {
    corpus.iter().map(|l| l.values[i]).collect()
}

/// The geometric-mean row (every column) and the lowest-ratio row (ratio
/// columns only) over the valid corpus files.
fn summary_rows(spec: &Spec, corpus: &[&Line]) -> [Vec<String>; 2] {
    let count = corpus[0].values.len();
    let mut mean = vec![
        format!("geometric mean, {} valid corpus files", corpus.len()),
        String::new(),
    ];
    let mut lowest = vec![
        format!("lowest, {} valid corpus files", corpus.len()),
        String::new(),
    ];
    for i in 0..count {
        let values = column(corpus, i);
        mean.push(cell(spec, i, values.as_deref().map(geomean)));
        lowest.push(if i < spec.contenders.len() {
            String::new()
        } else {
            cell(
                spec,
                i,
                values.map(|v| v.into_iter().fold(f64::INFINITY, f64::min)),
            )
        });
    }
    [mean, lowest]
}

/// Which file each ratio is lowest on.
fn lowest_notes(spec: &Spec, corpus: &[&Line], ratios: &[&Ratio]) -> Vec<String> {
    let mut notes = Vec::new();
    for (k, ratio) in ratios.iter().enumerate() {
        let i = spec.contenders.len() + k;
        let Some(values) = column(corpus, i) else {
            continue;
        };
        let (worst, value) = corpus
            .iter()
            .zip(values)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("a non-empty corpus");
        notes.push(format!(
            "Lowest {}: {} on {}.",
            ratio.header,
            cell(spec, i, Some(value)),
            worst.input
        ));
    }
    notes
}

/// Streaming ÷ one-shot `utf8-core` (the first column) over the valid corpus files.
fn streaming_note(spec: &Spec, streaming: &str, lines: &[Line]) -> Option<String> {
    let one_shot = 0;
    let streaming = spec
        .contenders
        .iter()
        .position(|(_, c)| *c == streaming)
        .expect("a streaming column");
    let ratios: Vec<(&str, f64)> = lines
        .iter()
        .filter(|l| is_valid_corpus(l.input))
        .filter_map(|l| Some((l.input, l.values[streaming]? / l.values[one_shot]?)))
        .collect();
    let (slowest_input, slowest) = ratios.iter().min_by(|a, b| a.1.total_cmp(&b.1))?;
    let mean = geomean(&ratios.iter().map(|r| r.1).collect::<Vec<_>>());
    Some(format!(
        "Streaming in 4 KiB pieces: geometric mean {mean:.2}× one-shot utf8-core; lowest {slowest:.2}× ({slowest_input})."
    ))
}

impl Table {
    /// The table as Markdown, its columns padded to line up in a terminal;
    /// the notes under it.
    pub fn to_markdown(&self) -> String {
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count());
            }
        }
        let mut out = String::new();
        let line = |out: &mut String, cells: &[String]| {
            for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
                // The input column reads left to right; numbers line up on the right.
                let _ = if i == 0 {
                    write!(out, "| {c:<w$} ")
                } else {
                    write!(out, "| {c:>w$} ")
                };
            }
            out.push_str("|\n");
        };
        line(&mut out, &self.header);
        for (i, w) in widths.iter().enumerate() {
            let dashes = "-".repeat(*w + 1);
            let _ = if i == 0 {
                write!(out, "|{dashes}-")
            } else {
                write!(out, "|{dashes}:")
            };
        }
        out.push_str("|\n");
        for row in &self.rows {
            line(&mut out, row);
        }
        if !self.notes.is_empty() {
            out.push('\n');
        }
        for note in &self.notes {
            out.push_str(note);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1000 bytes per iteration at `gb` GB/s.
    fn m(input: &str, contender: &str, gb: f64) -> Measurement {
        Measurement::at(input, contender, 1000, gb)
    }

    /// An AVX2 machine without C++ simdutf on one file: every contender but
    /// AVX-512, each at a round speed.
    fn avx2_run(input: &str, scale: f64) -> Vec<Measurement> {
        [
            ("utf8-core", 8.0),
            ("utf8-core AVX2", 8.0),
            ("utf8-core SSE4.1", 4.0),
            (STREAMING, 6.0),
            ("utf8-core legacy31", 7.0),
            ("core::str", 1.0),
            ("simdutf8::basic", 5.0),
            ("simdutf8::compat", 4.5),
            ("simdutf8 AVX2", 5.0),
            ("simdutf8 SSE4.2", 2.0),
            ("C++ simdutf", 10.0),
            ("read-only pass", 32.0),
        ]
        .into_iter()
        .map(|(c, gb)| m(input, c, gb * scale))
        .collect()
    }

    fn row<'a>(table: &'a Table, input: &str) -> Vec<&'a str> {
        let row = table.rows.iter().find(|r| r[0] == input).expect(input);
        row.iter().map(String::as_str).collect()
    }

    #[test]
    fn every_contender_is_a_column_and_a_level_not_measured_shows_a_dash() {
        let mut run = avx2_run("lipsum/Arabic-Lipsum", 1.0);
        run.retain(|m| m.contender != "C++ simdutf");
        let table = build(&run);
        assert_eq!(
            table.header,
            [
                "input",
                "bytes",
                "utf8-core",
                "AVX-512",
                "AVX2",
                "SSE4.1",
                "stream 4K",
                "legacy31",
                "core::str",
                "s8 basic",
                "s8 compat",
                "s8 AVX2",
                "s8 SSE4.2",
                "C++ simdutf",
                "read-only",
                "AVX2 ÷ s8 AVX2",
                "SSE4.1 ÷ s8 SSE4.2",
                "÷ C++",
                "÷ core::str",
                "÷ read-only"
            ]
        );
        assert_eq!(
            row(&table, "lipsum/Arabic-Lipsum"),
            [
                "lipsum/Arabic-Lipsum",
                "1000",
                "8.00",
                "–",
                "8.00",
                "4.00",
                "6.00",
                "7.00",
                "1.00",
                "5.00",
                "4.50",
                "5.00",
                "2.00",
                "–",
                "32.00",
                "1.60×",
                "2.00×",
                "–",
                "8.00×",
                "0.25×"
            ]
        );
    }

    #[test]
    fn the_avx512_ratio_appears_only_where_avx512_was_measured() {
        let mut run = avx2_run("lipsum/Arabic-Lipsum", 1.0);
        run.push(m("lipsum/Arabic-Lipsum", "utf8-core AVX-512", 10.0));
        let table = build(&run);
        let at = table.header.iter().position(|h| h == "AVX-512 ÷ s8 AVX2");
        let at = at.expect("an AVX-512 ratio column");
        assert_eq!(row(&table, "lipsum/Arabic-Lipsum")[at], "2.00×");
        assert_eq!(row(&table, "lipsum/Arabic-Lipsum")[3], "10.00");
    }

    #[test]
    fn the_summary_rows_cover_the_valid_corpus_files_only() {
        let mut run = avx2_run("lipsum/Arabic-Lipsum", 1.0);
        // Half as fast on every contender but core::str: ratios to it halve.
        let mut thai = avx2_run("wikipedia_mars/thai", 0.5);
        for m in thai.iter_mut().filter(|m| m.contender == "core::str") {
            m.median_ns = 1000.0;
        }
        run.extend(thai);
        // Inputs the means must leave out: invalid text, generated text.
        run.extend(avx2_run("wikipedia_mars/french.latin1", 100.0));
        run.extend(avx2_run("generated/ascii-1MiB", 100.0));
        let table = build(&run);
        let mean = row(&table, "geometric mean, 2 valid corpus files");
        let lowest = row(&table, "lowest, 2 valid corpus files");
        // GB/s: geometric means of 8 and 4, of 1 and 1; ratios: of 8× and 4×.
        assert_eq!(&mean[1..3], ["", "5.66"]);
        assert_eq!(mean[3], "–", "no file has AVX-512");
        assert_eq!(mean[8], "1.00");
        assert_eq!(&mean[15..], ["1.60×", "2.00×", "0.80×", "5.66×", "0.25×"]);
        assert_eq!(&lowest[2..15], [""; 13]);
        assert_eq!(&lowest[15..], ["1.60×", "2.00×", "0.80×", "4.00×", "0.25×"]);
        assert_eq!(table.rows.last().map(|r| r[0].as_str()), Some(lowest[0]));
        assert!(
            table
                .notes
                .contains(&"Lowest ÷ core::str: 4.00× on wikipedia_mars/thai.".to_owned()),
            "{:?}",
            table.notes
        );
        assert!(
            table.notes.contains(
                &"Streaming in 4 KiB pieces: geometric mean 0.75× one-shot utf8-core; lowest 0.75× (lipsum/Arabic-Lipsum).".to_owned()
            ),
            "{:?}",
            table.notes
        );
    }

    #[test]
    fn only_corpus_files_named_by_their_stem_are_the_valid_corpus() {
        assert!(is_valid_corpus("lipsum/Arabic-Lipsum"));
        assert!(is_valid_corpus("wikipedia_mars/thai"));
        assert!(!is_valid_corpus("wikipedia_mars/french.latin1"));
        assert!(!is_valid_corpus("generated/ascii-1MiB"));
        assert!(!is_valid_corpus("generated/lines-up-to-64-bytes"));
    }

    #[test]
    fn the_markdown_lines_up_its_columns() {
        let mut run = avx2_run("lipsum/Arabic-Lipsum", 1.0);
        run.extend(avx2_run("generated/error-at-700-of-1MiB", 1000.0));
        let markdown = build(&run).to_markdown();
        let table: Vec<&str> = markdown
            .lines()
            .take_while(|l| l.starts_with('|'))
            .collect();
        assert_eq!(table.len(), 2 + 2 + 2, "{markdown}");
        let width = table[0].chars().count();
        assert!(
            table.iter().all(|l| l.chars().count() == width),
            "{markdown}"
        );
        assert!(
            table[1].starts_with("|---") && table[1].ends_with(":|"),
            "{markdown}"
        );
        assert!(
            table[2].starts_with("| generated/error-at-700-of-1MiB       |  1000 |   8000.00 |"),
            "{markdown}"
        );
    }

    #[test]
    fn every_contender_the_table_names_is_one_the_benchmark_runs() {
        let bench = crate::workspace_root().join("bench/benches/validate.rs");
        let source = std::fs::read_to_string(&bench).unwrap();
        for name in CONTENDERS.iter().map(|(_, name)| name) {
            assert!(
                source.contains(&format!("\"{name}\"")),
                "{name} is not in {}",
                bench.display()
            );
        }
        for ratio in &RATIOS {
            assert!(CONTENDERS.iter().any(|(_, c)| *c == ratio.over));
            assert!(CONTENDERS.iter().any(|(_, c)| *c == ratio.under));
        }
    }
}
