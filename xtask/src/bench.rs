//! `cargo xtask bench`: run the criterion benchmarks and summarise them as
//! GB/s per input and contender, with ratios from the same run, in one table
//! (`table`) headed by the CPU it ran on, then the dialects' tables
//! (`dialects`) and the columns' (`columns`); and draw the main contenders
//! on a few groups of inputs as `bench/chart.svg` (`chart`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod chart;
mod columns;
mod dialects;
mod table;

pub use table::{Table, build};
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
    /// A measurement of `bytes` per iteration at `gb` GB/s: for the tests
    /// of the tables and the chart.
    #[cfg(test)]
    pub(crate) fn at(input: &str, contender: &str, bytes: u64, gb: f64) -> Measurement {
        Measurement {
            input: input.to_owned(),
            contender: contender.to_owned(),
            bytes,
            median_ns: bytes as f64 / gb,
        }
    }

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
                    out.extend(read_one(&path));
                } else {
                    stack.push(path);
                }
            }
        }
    }
    out
}

fn read_one(new: &Path) -> Option<Measurement> {
    let json = |name: &str| -> Option<serde_json::Value> {
        serde_json::from_slice(&std::fs::read(new.join(name)).ok()?).ok()
    };
    let benchmark = json("benchmark.json")?;
    let estimates = json("estimates.json")?;
    Some(Measurement {
        input: benchmark["group_id"].as_str()?.to_owned(),
        contender: benchmark["function_id"].as_str()?.to_owned(),
        bytes: benchmark["throughput"]["Bytes"].as_u64()?,
        median_ns: estimates["median"]["point_estimate"].as_f64()?,
    })
}

/// The CPU as `/proc/cpuinfo` names it, and which of the vector levels that
/// the benchmark forces it has.
pub fn describe_cpu(cpuinfo: &str) -> String {
    let field = |name: &str| {
        cpuinfo.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim())
        })
    };
    let model = field("model name").unwrap_or("an unnamed CPU");
    let cpus = cpuinfo
        .lines()
        .filter(|l| l.split(':').next().is_some_and(|k| k.trim() == "processor"))
        .count();
    let flags: Vec<&str> = field("flags").unwrap_or("").split_whitespace().collect();
    let (has, lacks): (Vec<_>, Vec<_>) = [
        ("AVX-512", "avx512bw"),
        ("AVX2", "avx2"),
        ("SSE4.1", "sse4_1"),
    ]
    .into_iter()
    .partition(|(_, flag)| flags.contains(flag));
    let names = |levels: Vec<(&str, &str)>| {
        levels
            .into_iter()
            .map(|(name, _)| name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let plural = if cpus == 1 { "" } else { "s" };
    // A virtual machine's model name may say no more than "Intel(R) Xeon(R)
    // Processor": the family and model number name the generation.
    let generation = match (field("cpu family"), field("model")) {
        (Some(family), Some(number)) => format!(", family {family} model {number}"),
        _ => String::new(),
    };
    let mut out = format!("{model} ({cpus} logical CPU{plural}{generation})");
    if !has.is_empty() {
        out += &format!(", with {}", names(has));
    }
    if !lacks.is_empty() {
        out += &format!(", without {}", names(lacks));
    }
    out
}

/// This machine's CPU, from `/proc/cpuinfo` where there is one (Linux).
pub fn this_cpu() -> String {
    match std::fs::read_to_string("/proc/cpuinfo") {
        Ok(cpuinfo) => describe_cpu(&cpuinfo),
        Err(_) => "a CPU this command cannot name (no /proc/cpuinfo)".to_owned(),
    }
}

/// Whether a C++ compiler is at hand for the `simdutf` crate's build: the
/// one `CXX` names, or `c++`, which is what its build script (the `cc`
/// crate) falls back to.
pub fn cxx_found() -> bool {
    if std::env::var_os("CXX").is_some_and(|cxx| !cxx.is_empty()) {
        return true;
    }
    Command::new("c++")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The validate benchmark's measurements, without the dialects' and the
/// columns'.
fn validate_only(measurements: &[Measurement]) -> Vec<Measurement> {
    measurements
        .iter()
        .filter(|m| !dialects::is_dialect_input(&m.input) && !columns::is_column_input(&m.input))
        .cloned()
        .collect()
}

/// The report: the machine, what the abbreviations mean, the tables of the
/// benchmarks the run measured.
pub fn report(measurements: &[Measurement], cpu: &str) -> String {
    let validate = validate_only(measurements);
    let validate_table = if validate.is_empty() {
        String::new()
    } else {
        build(&validate).to_markdown()
    };
    let mut dialect_tables = String::new();
    for (title, table) in dialects::tables(measurements) {
        let _ = write!(
            dialect_tables,
            "\n{title}; UTF-8: utf8-core on the same text (the table above):\n\n{}",
            table.to_markdown()
        );
    }
    let columns_table = columns::table(measurements).map_or_else(String::new, |table| {
        format!(
            "\nColumns built from the corpus (rows: column/layout), GB/s of values bytes \
             (the sum of the rows' lengths): utf8-core: `Offsets::validated::<Rfc3629>` \
             or `Views::validated::<Rfc3629>`; AVX2: the same, the vector check forced to AVX2; \
             arrow-rs: `StringArray::try_new` or `BinaryViewArray::to_string_view`; \
             per row: a call per row; one buffer: `utf8_core::from_utf8` over the values; \
             lossy: `Offsets::lossy` or `Views::lossy` with one invalid row in 1,000:\n\n{}",
            table.to_markdown()
        )
    });
    format!(
        "Measured on {cpu}.\n\
         GB/s (10^9 bytes per second, criterion's median). AVX-512, AVX2, SSE4.1: \
         utf8-core's vector check forced to that level; s8: simdutf8 (basic and compat \
         pick their level, AVX2 and SSE4.2 forced); C++: C++ simdutf through the simdutf \
         crate; read-only: an AVX2 pass that only reads every byte; \
         {}: not measured (a level this CPU lacks, or C++ simdutf not built).\n\n\
         {validate_table}{dialect_tables}{columns_table}",
        table::MISSING,
    )
}

/// How `cargo xtask bench` was asked to run.
#[derive(Debug, PartialEq, Eq)]
pub enum Mode<'a> {
    /// Run the benchmarks (briefly with `quick`), those matching `filter` only if given.
    Run {
        /// Shorter warm-up and measurement: a few minutes in all, noisier.
        quick: bool,
        /// Criterion's filter, a regular expression over benchmark ids.
        filter: Option<&'a str>,
    },
    /// Print the table of the last run.
    Report,
}

impl<'a> Mode<'a> {
    /// `[--quick] [FILTER]` or `--report`; `None` for anything else.
    pub fn parse(args: &[&'a str]) -> Option<Mode<'a>> {
        match args {
            ["--report"] => Some(Mode::Report),
            ["--quick", rest @ ..] => match Mode::parse(rest)? {
                Mode::Run {
                    quick: false,
                    filter,
                } => Some(Mode::Run {
                    quick: true,
                    filter,
                }),
                _ => None,
            },
            [] => Some(Mode::Run {
                quick: false,
                filter: None,
            }),
            [filter] if !filter.starts_with('-') => Some(Mode::Run {
                quick: false,
                filter: Some(filter),
            }),
            _ => None,
        }
    }
}

/// The file beside `bench.log` that keeps the command of the last run, for
/// the chart that `--report` draws from it.
const COMMAND_FILE: &str = "bench-command.txt";

/// What the chart says measured it when no run recorded its command.
const UNRECORDED: &str = "an earlier run, its command not recorded";

/// Criterion's times for `--quick`, in seconds: warm-up, measurement.
const QUICK: [&str; 4] = ["--warm-up-time", "0.1", "--measurement-time", "0.3"];

/// The dialects benchmark's validation groups, which the dialect tables
/// show (its conversion groups are left to `cargo bench` itself).
const DIALECT_VALIDATION: &str = "^(cesu8|mutf8|wtf8)/";

/// `cargo bench` on `bench` (the validate, dialects or columns benchmark),
/// its output and criterion's into `log`; with C++ simdutf when `cpp` is
/// set. Without a filter of the caller's, `default_filter` picks the groups.
fn run_criterion(
    root: &Path,
    bench: &str,
    default_filter: Option<&str>,
    mode: &Mode,
    cpp: bool,
    log: std::fs::File,
) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(root)
        .args(["bench", "-p", "utf8-bench", "--bench", bench]);
    if cpp {
        command.args(["--features", "cpp-simdutf"]);
    }
    command.arg("--");
    if let Mode::Run { quick, filter } = mode {
        if *quick {
            command.args(QUICK);
        }
        command.args(filter.or(default_filter));
    }
    // Criterion reports its progress on stderr: the log takes both.
    let log_err = log
        .try_clone()
        .map_err(|e| format!("cannot share the log with stderr: {e}"))?;
    match command.stdout(log).stderr(log_err).status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("cargo bench failed ({status})")),
        Err(e) => Err(format!("cannot run cargo bench: {e}")),
    }
}

/// Runs the benchmarks into `target`'s `criterion/`, which is cleared first:
/// ratios are only meaningful within one run. `command` (how this run was
/// asked for) goes beside the log.
fn run_benchmarks(
    root: &Path,
    target: &Path,
    mode: &Mode,
    command: &str,
) -> Result<(), (u8, String)> {
    let criterion_dir = target.join("criterion");
    if let Err(e) = std::fs::remove_dir_all(&criterion_dir)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        return Err((3, format!("cannot clear {}: {e}", criterion_dir.display())));
    }
    let log_path = target.join("bench.log");
    let log = std::fs::create_dir_all(target)
        .and_then(|()| std::fs::File::create(&log_path))
        .map_err(|e| (3, format!("cannot create {}: {e}", log_path.display())))?;
    let command_path = target.join(COMMAND_FILE);
    std::fs::write(&command_path, format!("{command}\n"))
        .map_err(|e| (3, format!("cannot write {}: {e}", command_path.display())))?;
    let cpp = cxx_found();
    if !cpp {
        eprintln!(
            "no C++ compiler found (`c++ --version` failed and CXX is unset): \
             C++ simdutf is not built, and its column stays empty"
        );
    }
    eprintln!(
        "running the benchmarks; criterion's output goes to {}",
        log_path.display()
    );
    let failed = |e: String| (1, format!("{e}; see {}", log_path.display()));
    let reopen = || {
        log.try_clone()
            .map_err(|e| (3, format!("cannot reopen {}: {e}", log_path.display())))
    };
    run_criterion(root, "validate", None, mode, cpp, reopen()?).map_err(failed)?;
    run_criterion(
        root,
        "dialects",
        Some(DIALECT_VALIDATION),
        mode,
        cpp,
        reopen()?,
    )
    .map_err(failed)?;
    run_criterion(root, "columns", None, mode, cpp, reopen()?).map_err(failed)
}

/// Draws the chart of `measurements` (the validate benchmark's) into
/// `bench/chart.svg` under `root`; leaves it as it was when the run measured
/// none of its inputs.
fn write_chart(
    root: &Path,
    measurements: &[Measurement],
    cpu: &str,
    command: &str,
) -> Result<(), String> {
    let groups = chart::groups(measurements);
    if groups.is_empty() {
        eprintln!(
            "no chart: this run measured none of its inputs; {} is left as it was",
            chart::PATH
        );
        return Ok(());
    }
    let path = root.join(chart::PATH);
    std::fs::write(&path, chart::svg(&groups, cpu, command))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!("wrote {}", chart::PATH);
    Ok(())
}

/// The command that measured the results under `target`: `args`' when this
/// call runs them, else the one the last run recorded.
fn measured_by(target: &Path, mode: &Mode, args: &[&str]) -> String {
    match mode {
        Mode::Run { .. } => chart::command_line(args),
        Mode::Report => std::fs::read_to_string(target.join(COMMAND_FILE))
            .map(|c| c.trim().to_owned())
            .unwrap_or_else(|_| UNRECORDED.to_owned()),
    }
}

/// `cargo xtask bench ARGS`: run (unless `--report`), then print the table
/// and draw the chart.
pub fn run(root: &Path, args: &[&str]) -> ExitCode {
    let Some(mode) = Mode::parse(args) else {
        eprintln!(
            "xtask: unknown arguments {args:?}; cargo xtask bench [--quick] [FILTER] | --report"
        );
        return ExitCode::from(2);
    };
    // `cargo bench` writes under the target directory, which
    // CARGO_TARGET_DIR or a config file may put outside the checkout.
    let target = match target_dir(metadata_command(root)) {
        Ok(target) => target,
        Err(e) => {
            eprintln!("xtask: cannot find the target directory: {e}");
            return ExitCode::from(1);
        }
    };
    let command = measured_by(&target, &mode, args);
    if mode != Mode::Report
        && let Err((status, e)) = run_benchmarks(root, &target, &mode, &command)
    {
        eprintln!("xtask: {e}");
        return ExitCode::from(status);
    }
    let criterion_dir = target.join("criterion");
    let measurements = read_criterion(&criterion_dir);
    if measurements.is_empty() {
        eprintln!(
            "xtask: no benchmark results under {}",
            criterion_dir.display()
        );
        return ExitCode::from(1);
    }
    let cpu = this_cpu();
    print!("{}", report(&measurements, &cpu));
    let validate = validate_only(&measurements);
    match write_chart(root, &validate, &cpu, &command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::from(3)
        }
    }
}

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
    fn reads_criterion_json_back_as_measurements() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-test-{}", std::process::id()));
        for (contender, ns) in [("utf8-core", 1000.0), ("C++ simdutf", 2000.0)] {
            let new = dir
                .join("lipsum_Arabic")
                .join(contender.replace([':', ' ', '+'], "_"))
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
        let mut measurements = read_criterion(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        measurements.sort_by(|a, b| a.contender.cmp(&b.contender));
        let read: Vec<_> = measurements
            .iter()
            .map(|m| {
                (
                    m.input.as_str(),
                    m.contender.as_str(),
                    m.bytes,
                    m.gb_per_s(),
                )
            })
            .collect();
        assert_eq!(
            read,
            [
                ("lipsum/Arabic", "C++ simdutf", 8000, 4.0),
                ("lipsum/Arabic", "utf8-core", 8000, 8.0)
            ]
        );
    }

    #[test]
    fn the_chart_names_this_runs_command_or_the_one_the_last_run_recorded() {
        let target = std::env::temp_dir().join(format!("xtask-command-{}", std::process::id()));
        let args = ["--quick", "^lipsum/"];
        let this_run = Mode::parse(&args).unwrap();
        let command = "cargo xtask bench --quick '^lipsum/'";
        assert_eq!(measured_by(&target, &this_run, &args), command);
        assert_eq!(
            measured_by(&target, &Mode::Report, &["--report"]),
            UNRECORDED
        );
        std::fs::create_dir_all(&target).unwrap();
        std::fs::write(target.join(COMMAND_FILE), format!("{command}\n")).unwrap();
        let recorded = measured_by(&target, &Mode::Report, &["--report"]);
        std::fs::remove_dir_all(&target).unwrap();
        assert_eq!(recorded, command);
    }

    #[test]
    fn the_cpu_is_named_with_the_levels_it_has_and_lacks() {
        let cpuinfo = "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse4_1 sse4_2 avx2 bmi2\n\n\
                       processor\t: 1\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse4_1 sse4_2 avx2 bmi2\n";
        assert_eq!(
            describe_cpu(cpuinfo),
            "AMD EPYC (2 logical CPUs), with AVX2, SSE4.1, without AVX-512"
        );
        let avx512 = "processor : 0\ncpu family : 6\nmodel : 207\nmodel name : Intel Xeon\n\
                      flags : avx512f avx512bw avx2 sse4_1\n";
        assert_eq!(
            describe_cpu(avx512),
            "Intel Xeon (1 logical CPU, family 6 model 207), with AVX-512, AVX2, SSE4.1"
        );
    }

    #[test]
    fn arguments_choose_a_full_run_a_quick_one_or_the_last_report() {
        let run = |quick, filter| Some(Mode::Run { quick, filter });
        assert_eq!(Mode::parse(&[]), run(false, None));
        assert_eq!(Mode::parse(&["lipsum"]), run(false, Some("lipsum")));
        assert_eq!(Mode::parse(&["--quick"]), run(true, None));
        assert_eq!(
            Mode::parse(&["--quick", "lipsum"]),
            run(true, Some("lipsum"))
        );
        assert_eq!(Mode::parse(&["--report"]), Some(Mode::Report));
        assert_eq!(Mode::parse(&["--quick", "--report"]), None);
        assert_eq!(Mode::parse(&["--quick", "--quick"]), None);
        assert_eq!(Mode::parse(&["a", "b"]), None);
    }
}
