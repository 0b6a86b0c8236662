//! The dialects' tables: CESU-8, modified UTF-8 and WTF-8 validated on the
//! corpus converted to each (`bench/benches/dialects.rs`), dispatching, at
//! each vector level and streamed in 4 KiB pieces, beside the `cesu8`
//! crate and beside `utf8-core`'s RFC 3629 speed on the same text (the
//! validate benchmark's, from the same run): the ratios issue #11 set
//! targets for.

use super::Measurement;
use super::table::{Ratio, Spec, Table, build_with};

/// The first words of the names under which `UTF-8` columns carry the
/// validate benchmark's measurements of the same file.
const UTF8: &str = "UTF-8 ";

const LEVEL_RATIOS: [Ratio; 5] = [
    Ratio {
        header: "÷ UTF-8",
        over: "utf8-core",
        under: "UTF-8 utf8-core",
        only_where_measured: false,
    },
    Ratio {
        header: "AVX-512 ÷ UTF-8 AVX-512",
        over: "utf8-core AVX-512",
        under: "UTF-8 utf8-core AVX-512",
        only_where_measured: true,
    },
    Ratio {
        header: "AVX2 ÷ UTF-8 AVX2",
        over: "utf8-core AVX2",
        under: "UTF-8 utf8-core AVX2",
        only_where_measured: false,
    },
    Ratio {
        header: "SSE4.1 ÷ UTF-8 SSE4.1",
        over: "utf8-core SSE4.1",
        under: "UTF-8 utf8-core SSE4.1",
        only_where_measured: false,
    },
    Ratio {
        header: "stream ÷ one-shot",
        over: "utf8-core streaming 4K",
        under: "utf8-core",
        only_where_measured: false,
    },
];

const WITH_CRATE: [(&str, &str); 7] = [
    ("utf8-core", "utf8-core"),
    ("AVX-512", "utf8-core AVX-512"),
    ("AVX2", "utf8-core AVX2"),
    ("SSE4.1", "utf8-core SSE4.1"),
    ("stream 4K", "utf8-core streaming 4K"),
    ("cesu8 crate", "cesu8 crate"),
    ("UTF-8", "UTF-8 utf8-core"),
];

const WITH_CRATE_RATIOS: [Ratio; 6] = [
    LEVEL_RATIOS[0],
    LEVEL_RATIOS[1],
    LEVEL_RATIOS[2],
    LEVEL_RATIOS[3],
    LEVEL_RATIOS[4],
    Ratio {
        header: "÷ crate",
        over: "utf8-core",
        under: "cesu8 crate",
        only_where_measured: false,
    },
];

const WITHOUT_CRATE: [(&str, &str); 6] = [
    WITH_CRATE[0],
    WITH_CRATE[1],
    WITH_CRATE[2],
    WITH_CRATE[3],
    WITH_CRATE[4],
    WITH_CRATE[6],
];

/// Each dialect: the benchmark's group prefix, a title, the columns.
pub const DIALECTS: [(&str, &str, Spec); 3] = [
    (
        "cesu8",
        "CESU-8: `cesu8::validate` on the corpus converted to CESU-8, beside the `cesu8` crate's `from_cesu8`",
        Spec {
            contenders: &WITH_CRATE,
            ratios: &WITH_CRATE_RATIOS,
            streaming: None,
        },
    ),
    (
        "mutf8",
        "Modified UTF-8: `mutf8::validate` on the corpus converted to modified UTF-8, beside the crate's `from_java_cesu8`",
        Spec {
            contenders: &WITH_CRATE,
            ratios: &WITH_CRATE_RATIOS,
            streaming: None,
        },
    ),
    (
        "wtf8",
        "WTF-8: `wtf8::validate` on the corpus as it is",
        Spec {
            contenders: &WITHOUT_CRATE,
            ratios: &LEVEL_RATIOS,
            streaming: None,
        },
    ),
];

/// Whether `input` is one of the dialects benchmark's groups (validation
/// or conversion), which the validate table leaves out.
pub fn is_dialect_input(input: &str) -> bool {
    let first = input.split('/').next().unwrap_or_default();
    let dialect = first
        .strip_suffix("_to_str")
        .or_else(|| first.strip_suffix("_from_str"))
        .unwrap_or(first);
    DIALECTS.iter().any(|(name, _, _)| *name == dialect)
}

/// One table per dialect the run measured, with its title.
pub fn tables(measurements: &[Measurement]) -> Vec<(&'static str, Table)> {
    DIALECTS
        .iter()
        .filter_map(|(dialect, title, spec)| {
            let prefix = format!("{dialect}/");
            let mut merged: Vec<Measurement> = measurements
                .iter()
                .filter_map(|m| {
                    let file = m.input.strip_prefix(&prefix)?;
                    Some(Measurement {
                        input: file.to_owned(),
                        ..m.clone()
                    })
                })
                .collect();
            if merged.is_empty() {
                return None;
            }
            let utf8: Vec<Measurement> = measurements
                .iter()
                .filter(|m| merged.iter().any(|d| d.input == m.input))
                .map(|m| Measurement {
                    contender: format!("{UTF8}{}", m.contender),
                    ..m.clone()
                })
                .collect();
            // The dialect's own measurements first: a row's byte count is its first's.
            merged.extend(utf8);
            Some((*title, build_with(spec, &merged)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(input: &str, contender: &str, bytes: u64, gb: f64) -> Measurement {
        Measurement::at(input, contender, bytes, gb)
    }

    #[test]
    fn a_dialect_row_holds_its_own_speeds_and_ratios_to_utf8_on_the_same_file() {
        let run = [
            m("lipsum/Arabic-Lipsum", "utf8-core", 1000, 10.0),
            m("lipsum/Arabic-Lipsum", "utf8-core AVX2", 1000, 10.0),
            m("lipsum/Arabic-Lipsum", "utf8-core SSE4.1", 1000, 5.0),
            m("cesu8/lipsum/Arabic-Lipsum", "utf8-core", 1200, 8.0),
            m("cesu8/lipsum/Arabic-Lipsum", "utf8-core AVX2", 1200, 8.0),
            m("cesu8/lipsum/Arabic-Lipsum", "utf8-core SSE4.1", 1200, 3.0),
            m(
                "cesu8/lipsum/Arabic-Lipsum",
                "utf8-core streaming 4K",
                1200,
                6.0,
            ),
            m("cesu8/lipsum/Arabic-Lipsum", "cesu8 crate", 1200, 2.0),
            m("cesu8_to_str/lipsum/Arabic-Lipsum", "utf8-core", 1200, 2.0),
        ];
        let tables = tables(&run);
        assert_eq!(tables.len(), 1, "only CESU-8 was measured");
        let table = &tables[0].1;
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
                "cesu8 crate",
                "UTF-8",
                "÷ UTF-8",
                "AVX2 ÷ UTF-8 AVX2",
                "SSE4.1 ÷ UTF-8 SSE4.1",
                "stream ÷ one-shot",
                "÷ crate"
            ]
        );
        assert_eq!(
            table.rows[0],
            [
                "lipsum/Arabic-Lipsum",
                "1200",
                "8.00",
                "–",
                "8.00",
                "3.00",
                "6.00",
                "2.00",
                "10.00",
                "0.80×",
                "0.80×",
                "0.60×",
                "0.75×",
                "4.00×"
            ]
        );
        assert_eq!(table.rows[1][0], "geometric mean, 1 valid corpus files");
    }

    #[test]
    fn dialect_groups_and_conversions_are_told_from_the_validate_inputs() {
        assert!(is_dialect_input("cesu8/lipsum/Arabic-Lipsum"));
        assert!(is_dialect_input("mutf8_to_str/wikipedia_mars/thai"));
        assert!(is_dialect_input("cesu8_from_str/lipsum/Latin-Lipsum"));
        assert!(is_dialect_input("wtf8/lipsum/Latin-Lipsum"));
        assert!(!is_dialect_input("lipsum/Latin-Lipsum"));
        assert!(!is_dialect_input("generated/ascii-1MiB"));
    }

    #[test]
    fn every_contender_the_tables_name_is_one_the_benchmarks_run() {
        let root = crate::workspace_root();
        let dialects = std::fs::read_to_string(root.join("bench/benches/dialects.rs")).unwrap();
        for (_, _, spec) in &DIALECTS {
            for (_, name) in spec.contenders {
                if let Some(utf8) = name.strip_prefix(UTF8) {
                    let validate =
                        std::fs::read_to_string(root.join("bench/benches/validate.rs")).unwrap();
                    assert!(validate.contains(&format!("\"{utf8}\"")), "{utf8}");
                } else {
                    assert!(dialects.contains(&format!("\"{name}\"")), "{name}");
                }
            }
        }
    }
}
