//! The columns table: Arrow offsets and views columns built from the corpus
//! (`bench/benches/columns.rs`), checked by `utf8_core::column`, by
//! arrow-rs's own checks and by a call per row of `simdutf8::basic` and of
//! `core::str`; beside this project's speed on the same values as one
//! buffer, its lossy repair of a column with one invalid row in 1,000, and
//! utf8-arrow's wrapper of the same check.
//! Every figure is GB/s of values bytes (the sum of the rows' lengths).

use super::Measurement;
use super::table::{Ratio, Spec, Table, build_with};

/// The benchmark's group prefix: `columns/NAME/LAYOUT`.
const PREFIX: &str = "columns/";

const CONTENDERS: [(&str, &str); 8] = [
    ("utf8-core", "utf8-core"),
    ("utf8-arrow", "utf8-arrow"),
    ("AVX2", "utf8-core AVX2"),
    ("arrow-rs", "arrow-rs"),
    ("s8 per row", "simdutf8::basic per row"),
    ("core::str per row", "core::str per row"),
    ("one buffer", "one buffer"),
    ("lossy", "utf8-core lossy"),
];

const RATIOS: [Ratio; 7] = [
    Ratio {
        header: "÷ one buffer",
        over: "utf8-core",
        under: "one buffer",
        only_where_measured: false,
    },
    Ratio {
        header: "lossy ÷ utf8-core",
        over: "utf8-core lossy",
        under: "utf8-core",
        only_where_measured: false,
    },
    Ratio {
        header: "÷ arrow-rs",
        over: "utf8-core",
        under: "arrow-rs",
        only_where_measured: false,
    },
    Ratio {
        header: "÷ s8 per row",
        over: "utf8-core",
        under: "simdutf8::basic per row",
        only_where_measured: false,
    },
    Ratio {
        header: "AVX2 ÷ s8 per row",
        over: "utf8-core AVX2",
        under: "simdutf8::basic per row",
        only_where_measured: false,
    },
    Ratio {
        header: "÷ core::str per row",
        over: "utf8-core",
        under: "core::str per row",
        only_where_measured: false,
    },
    Ratio {
        header: "utf8-arrow ÷ utf8-core",
        over: "utf8-arrow",
        under: "utf8-core",
        only_where_measured: false,
    },
];

/// The columns table's columns.
pub const COLUMNS: Spec = Spec {
    contenders: &CONTENDERS,
    ratios: &RATIOS,
    streaming: None,
};

/// Whether `input` is one of the columns benchmark's groups, which the
/// validate table leaves out.
pub fn is_column_input(input: &str) -> bool {
    input.starts_with(PREFIX)
}

/// The table of the columns the run measured, one row per column and
/// layout (`lines/offsets`, ...); `None` when it measured none.
pub fn table(measurements: &[Measurement]) -> Option<Table> {
    let columns: Vec<Measurement> = measurements
        .iter()
        .filter_map(|m| {
            let input = m.input.strip_prefix(PREFIX)?;
            Some(Measurement {
                input: input.to_owned(),
                ..m.clone()
            })
        })
        .collect();
    (!columns.is_empty()).then(|| build_with(&COLUMNS, &columns))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1000 bytes per iteration at `gb` GB/s.
    fn m(input: &str, contender: &str, gb: f64) -> Measurement {
        Measurement::at(input, contender, 1000, gb)
    }

    #[test]
    fn a_column_row_holds_its_speeds_and_the_ratios_the_targets_need() {
        let run = [
            m("columns/words/offsets", "utf8-core", 8.0),
            m("columns/words/offsets", "utf8-arrow", 7.6),
            m("columns/words/offsets", "utf8-core AVX2", 6.0),
            m("columns/words/offsets", "arrow-rs", 2.0),
            m("columns/words/offsets", "simdutf8::basic per row", 1.0),
            m("columns/words/offsets", "core::str per row", 0.5),
            m("columns/words/offsets", "one buffer", 10.0),
            m("columns/words/offsets", "utf8-core lossy", 4.0),
            m("lipsum/Arabic-Lipsum", "utf8-core", 30.0),
        ];
        let table = table(&run).expect("a columns table");
        assert_eq!(
            table.header,
            [
                "input",
                "bytes",
                "utf8-core",
                "utf8-arrow",
                "AVX2",
                "arrow-rs",
                "s8 per row",
                "core::str per row",
                "one buffer",
                "lossy",
                "÷ one buffer",
                "lossy ÷ utf8-core",
                "÷ arrow-rs",
                "÷ s8 per row",
                "AVX2 ÷ s8 per row",
                "÷ core::str per row",
                "utf8-arrow ÷ utf8-core"
            ]
        );
        assert_eq!(
            table.rows,
            [[
                "words/offsets",
                "1000",
                "8.00",
                "7.60",
                "6.00",
                "2.00",
                "1.00",
                "0.50",
                "10.00",
                "4.00",
                "0.80×",
                "0.50×",
                "4.00×",
                "8.00×",
                "6.00×",
                "16.00×",
                "0.95×"
            ]]
        );
        assert!(table.notes.is_empty());
    }

    #[test]
    fn a_run_without_the_columns_benchmark_has_no_columns_table() {
        assert!(table(&[m("lipsum/Arabic-Lipsum", "utf8-core", 30.0)]).is_none());
        assert!(is_column_input("columns/lines/views"));
        assert!(!is_column_input("lipsum/Arabic-Lipsum"));
        assert!(!is_column_input("generated/lines-up-to-64-bytes"));
    }

    #[test]
    fn every_contender_the_table_names_is_one_the_benchmark_runs() {
        let bench = crate::workspace_root().join("bench/benches/columns.rs");
        let source = std::fs::read_to_string(&bench).unwrap();
        for (_, name) in CONTENDERS {
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
