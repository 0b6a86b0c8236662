//! `cargo xtask bench`: run the criterion benchmarks and summarise them as
//! GB/s per input and contender, with ratios from the same run.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One measurement read back from criterion's output.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The input (criterion's group).
    pub input: String,
    /// The contender (criterion's function).
    pub contender: String,
    /// Bytes per iteration.
    pub bytes: u64,
    /// Median time per iteration, in nanoseconds.
    pub median_ns: f64,
}

impl Measurement {
    /// Throughput in GB/s (10^9 bytes per second).
    pub fn gb_per_s(&self) -> f64 {
        self.bytes as f64 / self.median_ns
    }
}

/// `cargo metadata` for the workspace at `root`: it knows where the build
/// goes, whether `CARGO_TARGET_DIR`, a `.cargo/config.toml` or the default
/// `target/` decides.
pub fn metadata_command(root: &Path) -> Command {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(root)
        .args(["metadata", "--format-version", "1", "--no-deps"]);
    command
}

/// The `target_directory` that `metadata` (a [`metadata_command`]) reports:
/// where `cargo bench` leaves `criterion/`.
pub fn target_dir(mut metadata: Command) -> Result<PathBuf, String> {
    let output = metadata
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let json: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("cargo metadata printed no JSON: {e}"))?;
    json["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "cargo metadata names no target_directory".to_owned())
}

/// Reads every `new/benchmark.json` + `new/estimates.json` pair under `dir`.
pub fn read_criterion(dir: &Path) -> Vec<Measurement> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "new") {
                    if let Some(m) = read_one(&path) {
                        out.push(m);
                    }
                } else {
                    stack.push(path);
                }
            }
        }
    }
    out
}

fn read_one(new: &Path) -> Option<Measurement> {
    let benchmark = std::fs::read_to_string(new.join("benchmark.json")).ok()?;
    let estimates = std::fs::read_to_string(new.join("estimates.json")).ok()?;
    let median = &estimates[estimates.find("\"median\"")?..];
    Some(Measurement {
        input: json_string(&benchmark, "group_id")?,
        contender: json_string(&benchmark, "function_id")?,
        bytes: json_number(&benchmark[benchmark.find("\"Bytes\"")?..], "Bytes")? as u64,
        median_ns: json_number(median, "point_estimate")?,
    })
}

/// The string value of the first `"key":"..."` (criterion's ids need no escapes beyond `\"`).
fn json_string(text: &str, key: &str) -> Option<String> {
    let start = text.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let end = text[start..].find('"')? + start;
    Some(text[start..end].to_owned())
}

fn json_number(text: &str, key: &str) -> Option<f64> {
    let start = text.find(&format!("\"{key}\":"))? + key.len() + 3;
    let end = text[start..].find([',', '}'])? + start;
    text[start..end].trim().parse().ok()
}

/// The GB/s table and the summary lines, as Markdown.
pub fn report(measurements: &[Measurement]) -> String {
    const ORDER: [&str; 7] = [
        "utf8-core",
        "core::str",
        "simdutf8::basic",
        "simdutf8::compat",
        "utf8-core legacy31",
        "utf8-core avx2",
        "read-only pass",
    ];
    let mut by_input: BTreeMap<&str, BTreeMap<&str, &Measurement>> = BTreeMap::new();
    for m in measurements {
        by_input
            .entry(&m.input)
            .or_default()
            .insert(&m.contender, m);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| input | bytes | utf8-core | core::str | simdutf8 basic | simdutf8 compat | legacy31 | utf8-core AVX2 only | read-only pass | ÷ basic | AVX2 ÷ basic | ÷ core::str | ÷ read-only |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
    );
    let mut corpus_ratios = Vec::new();
    let mut streaming_ratios = Vec::new();
    for (input, row) in &by_input {
        let gb = |c: &str| row.get(c).map(|m| m.gb_per_s());
        let bytes = row.values().next().map_or(0, |m| m.bytes);
        let cell = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |g| format!("{g:.2}"));
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.2}×", a / b),
            _ => "–".to_owned(),
        };
        let ours = gb(ORDER[0]);
        let _ = writeln!(
            out,
            "| {input} | {bytes} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(ours),
            cell(gb(ORDER[1])),
            cell(gb(ORDER[2])),
            cell(gb(ORDER[3])),
            cell(gb(ORDER[4])),
            cell(gb(ORDER[5])),
            cell(gb(ORDER[6])),
            ratio(ours, gb(ORDER[2])),
            ratio(gb(ORDER[5]), gb(ORDER[2])),
            ratio(ours, gb(ORDER[1])),
            ratio(ours, gb(ORDER[6]))
        );
        let in_corpus = input.starts_with("lipsum/") || input.starts_with("wikipedia_mars/");
        let valid = row.contains_key(ORDER[4]);
        if let (true, true, Some(a), Some(b)) = (in_corpus, valid, ours, gb(ORDER[2])) {
            corpus_ratios.push((input.to_string(), a / b, gb(ORDER[5]).map(|c| c / b)));
        }
        if let (true, true, Some(one_shot), Some(streaming)) =
            (in_corpus, valid, ours, gb(STREAMING))
        {
            streaming_ratios.push((input.to_string(), streaming / one_shot));
        }
    }
    if !corpus_ratios.is_empty() {
        let geomean = |ratios: &[f64]| {
            (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp()
        };
        let ours: Vec<f64> = corpus_ratios.iter().map(|r| r.1).collect();
        let (worst_input, worst, _) = corpus_ratios
            .iter()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("non-empty");
        let _ = writeln!(
            out,
            "\nValid corpus ({} files): geometric mean {:.2}× simdutf8::basic; lowest {worst:.2}× ({worst_input}).",
            corpus_ratios.len(),
            geomean(&ours)
        );
        let avx2: Vec<f64> = corpus_ratios.iter().filter_map(|r| r.2).collect();
        if avx2.len() == corpus_ratios.len() {
            let lowest = avx2.iter().copied().fold(f64::INFINITY, f64::min);
            let _ = writeln!(
                out,
                "AVX2 path alone: geometric mean {:.2}× simdutf8::basic; lowest {lowest:.2}×.",
                geomean(&avx2)
            );
        }
    }
    if let Some((slowest_input, slowest)) =
        streaming_ratios.iter().min_by(|a, b| a.1.total_cmp(&b.1))
    {
        let ratios: Vec<f64> = streaming_ratios.iter().map(|r| r.1).collect();
        let geomean = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
        let _ = writeln!(
            out,
            "Streaming in 4 KiB pieces: geometric mean {geomean:.2}× one-shot utf8-core; lowest {slowest:.2}× ({slowest_input})."
        );
    }
    out
}

/// The streaming contender of the benchmark.
const STREAMING: &str = "utf8-core streaming 4K";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_dir_is_where_cargo_target_dir_points() {
        let elsewhere = std::env::temp_dir().join(format!("xtask-target-{}", std::process::id()));
        let mut metadata = metadata_command(&crate::workspace_root());
        metadata.env("CARGO_TARGET_DIR", &elsewhere);
        assert_eq!(target_dir(metadata), Ok(elsewhere));
    }

    #[test]
    fn reads_criterion_json_and_reports_ratios() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-test-{}", std::process::id()));
        for (contender, ns) in [
            ("utf8-core", 1000.0),
            ("simdutf8::basic", 2000.0),
            ("utf8-core legacy31", 1500.0),
            ("utf8-core avx2", 1600.0),
            ("utf8-core streaming 4K", 1100.0),
        ] {
            let new = dir
                .join("lipsum_Arabic")
                .join(contender.replace(':', "_"))
                .join("new");
            std::fs::create_dir_all(&new).unwrap();
            std::fs::write(
                new.join("benchmark.json"),
                format!(r#"{{"group_id":"lipsum/Arabic","function_id":"{contender}","value_str":null,"throughput":{{"Bytes":8000}},"full_id":"x"}}"#),
            )
            .unwrap();
            std::fs::write(
                new.join("estimates.json"),
                format!(r#"{{"mean":{{"confidence_interval":{{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0}},"point_estimate":9.0,"standard_error":0.1}},"median":{{"confidence_interval":{{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0}},"point_estimate":{ns},"standard_error":0.1}}}}"#),
            )
            .unwrap();
        }
        let measurements = read_criterion(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(measurements.len(), 5);
        let ours = measurements
            .iter()
            .find(|m| m.contender == "utf8-core")
            .unwrap();
        assert_eq!((ours.bytes, ours.median_ns), (8000, 1000.0));
        assert_eq!(ours.gb_per_s(), 8.0);
        let table = report(&measurements);
        assert!(
            table.contains(
                "| lipsum/Arabic | 8000 | 8.00 | – | 4.00 | – | 5.33 | 5.00 | – | 2.00× | 1.25× | – | – |"
            ),
            "{table}"
        );
        assert!(
            table.contains("geometric mean 2.00× simdutf8::basic")
                && table.contains("AVX2 path alone: geometric mean 1.25× simdutf8::basic")
                && table.contains(
                    "Streaming in 4 KiB pieces: geometric mean 0.91× one-shot utf8-core; lowest 0.91× (lipsum/Arabic)."
                ),
            "{table}"
        );
    }
}
