//! `cargo xtask inlining`: the code shapes that `utf8-core`'s speed depends
//! on, read from the machine code of a release build, against the
//! expectations below.
//!
//! The probe (`utf8-core/examples/inlining_probe.rs`) links the entry
//! points as a user's release build does; `objdump` reads its functions,
//! their calls and the symbol table, in which a function that LLVM merged
//! with an identical one keeps its own name as an alias. Each expectation
//! names a function by the last segments of its path and, where given, its
//! generic arguments without their module paths
//! (`shift::exact::<Rfc3629>`), so that moving a function to another
//! module leaves the expectation true.
//!
//! A function expected to be inlined is expected by its absence, which
//! proves nothing of a name that names nothing: each such name must also
//! be a function defined in `utf8-core/src`, and the kernels the views'
//! helpers are inlined into must be in the probe ([`LINKED`]).
//!
//! When a change of shape is meant, update the expectation here in the
//! same commit, and say why in `docs/performance.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, ExitCode};

/// Functions that must stay functions of their own, and why.
pub const OUT_OF_LINE: &[(&str, &str)] = &[
    (
        "validate_after_lead::<Rfc3629>",
        "the vector check after the scalar lead: its register saves stay off the path of an error the lead finds",
    ),
    (
        "validate_without_vectors::<Rfc3629>",
        "the shift DFA where the CPU has no vector level, kept out of `validate_short`",
    ),
    (
        "shift::validate_packed::<Rfc3629>",
        "the shift DFA's loops, kept out of the entry point that short strings run through",
    ),
    (
        "shift::exact::<Rfc3629>",
        "the shift DFA's cold exact-error builder",
    ),
    (
        "simd::exact::<Rfc3629>",
        "the vector check's cold exact-error builder",
    ),
    (
        "sse41::validate_blocks::<ShortcutLanguage<Rfc3629>>",
        "SSE4.1's main loop, whose stack frame a string checked in place does not pay for",
    ),
    (
        "avx2::validate_blocks::<ShortcutLanguage<Rfc3629>>",
        "AVX2's main loop, whose stack frame a string checked in place does not pay for",
    ),
    (
        "avx512::validate_blocks::<ShortcutLanguage<Rfc3629>>",
        "AVX-512's main loop, whose stack frame a string checked in place does not pay for",
    ),
    (
        "first_error::<ShortcutLanguage<Rfc3629>>",
        "the cold search for a failing group's first error",
    ),
    (
        "first_error_at_end::<Cesu8>",
        "the cold search for the framed end's first error",
    ),
    (
        "first_error_in_place::<ShortcutLanguage<Rfc3629>>",
        "the cold search for a short string's first error",
    ),
    (
        "first_error_in_tail::<ShortcutLanguage<Rfc3629>>",
        "the cold search for the tail's first error",
    ),
    (
        "blocks::window_outside",
        "the cold panic of a window's bounds test",
    ),
    (
        "skippable_prefix::<Rfc3629>",
        "a stream piece's ASCII skip, without the main loop's set-up",
    ),
    (
        "to_str_error::<Cesu8>",
        "the cold error of a dialect's conversion to `str`",
    ),
];

/// Functions that must be inlined into their callers (no function of that
/// name at all), and why.
pub const INLINED: &[(&str, &str)] = &[
    (
        "lead",
        "the scalar lead, inlined into the entry point so that an error it finds returns without a call",
    ),
    (
        "walk_blocks",
        "the main loop's walk, inlined into each level's `validate_blocks`",
    ),
    (
        "validate_detected",
        "the vector level's dispatch, inlined into its callers",
    ),
    (
        "validate_tiny_detected",
        "a string under 16 bytes in one vector, inlined into the entry point",
    ),
    (
        "check_detected",
        "the vector level's dispatch for a short string, inlined into its callers",
    ),
    (
        "view_scan::x86::inline_lanes",
        "AVX2's test of which views are inline, inlined into the views' loops (docs/performance.md says what a call a step cost)",
    ),
    (
        "view_scan::x86::dirty_padding",
        "AVX2's padding test, inlined into the views' loops",
    ),
    (
        "view_scan::x86::kept_lanes",
        "AVX2's spread of a pair's null bits, inlined into the views' loops",
    ),
    (
        "view_scan::x86::inline_lanes512",
        "AVX-512's test of which views are inline, inlined into the views' loops",
    ),
    (
        "view_scan::x86::dirty_padding512",
        "AVX-512's padding test, inlined into the views' loops",
    ),
    (
        "span_scan::x86::split",
        "AVX2's split of eight views into their fields, inlined into the walk of strings in data buffers",
    ),
    (
        "span_scan::x86::running_total",
        "AVX2's running total of eight lengths, inlined into the walk of strings in data buffers",
    ),
    (
        "span_scan::x86::dirty_padding",
        "AVX2's padding test of eight split views, inlined into the one pass over a chunk",
    ),
];

/// Functions the probe must link, and why: the views' kernels, into which
/// the `view_scan::x86` helpers of [`INLINED`] are inlined, so that those
/// helpers' absence says that they were inlined, not that nothing calls
/// them.
pub const LINKED: &[(&str, &str)] = &[
    (
        "view_scan::x86::layout_avx2",
        "AVX2's layout scan of a views column (`Views::validated`'s slow path)",
    ),
    (
        "view_scan::x86::copy_avx2",
        "AVX2's copy of a batch's inline views",
    ),
    (
        "view_scan::x86::pack_avx2::<true, true>",
        "AVX2's packing of a batch's inline strings, padding tested",
    ),
    (
        "view_scan::x86::layout_avx512",
        "AVX-512's layout scan of a views column",
    ),
    (
        "view_scan::x86::copy_avx512",
        "AVX-512's copy of a batch's inline views",
    ),
    (
        "view_scan::x86::pack_vbmi2::<true>",
        "AVX-512 VBMI2's packing of a batch's inline strings, padding tested",
    ),
    (
        "view_scan::x86::pack_avx2::<true, false>",
        "AVX2's packing of a chunk with few inline strings, padding tested",
    ),
    (
        "span_scan::x86::walk_avx2::<false, false>",
        "AVX2's walk of a chunk's strings in data buffers, eight views a step",
    ),
    (
        "span_scan::x86::walk_avx2::<true, true>",
        "AVX2's one pass over a chunk of mostly strings in data buffers, padding tested",
    ),
];

/// `(caller, callee, why)`: calls that the caller must make itself, which
/// shows what was inlined into it.
pub const CALLS: &[(&str, &str, &str)] = &[
    (
        "from_utf8",
        "validate_after_lead::<Rfc3629>",
        "the dispatch and the scalar lead inlined into `from_utf8`, the rest a call of its own",
    ),
    (
        "from_utf8_mut",
        "validate_after_lead::<Rfc3629>",
        "the dispatch and the scalar lead inlined into `from_utf8_mut`, the rest a call of its own",
    ),
];

/// Each x86 level's main loop (the RFC 3629 check's `validate_blocks`) and
/// its instructions a 64-byte block: the instructions of the function's
/// largest innermost loop (the group of blocks, its steps written out),
/// over the blocks of a group (`GROUP` in `utf8-core/src/simd/mod.rs`).
/// Recorded with rustc 1.95.0.
pub const MAIN_LOOPS: &[(&str, f64)] = &[("sse41", 109.0), ("avx2", 48.25), ("avx512", 24.75)];

/// How far a main loop's count may move from its expectation, as a
/// fraction: a toolchain update moves it by a few instructions; the rework
/// of AVX2's loop took it from 55 to 47.
pub const LOOP_TOLERANCE: f64 = 0.10;

/// The probe program's example name in `utf8-core`.
const PROBE: &str = "inlining_probe";

/// Runs the check, printing what it found; exit status 0 when every
/// expectation holds, 1 when one does not or the probe cannot be built or
/// read.
pub fn run(root: &Path) -> ExitCode {
    match check(root) {
        Ok(report) => {
            print!("{}", report.text);
            if report.failures == 0 {
                println!("inlining: every expectation holds");
                ExitCode::SUCCESS
            } else {
                eprintln!(
                    "inlining: {} expectation(s) not met. If the change is meant, update \
                     the expectation in xtask/src/inlining.rs and say why in \
                     docs/performance.md (section \"The code shape, checked\").",
                    report.failures
                );
                ExitCode::from(1)
            }
        }
        Err(message) => {
            eprintln!("inlining: {message}");
            ExitCode::from(1)
        }
    }
}

/// What `check` found: the lines to print, and how many failed.
pub struct Report {
    pub text: String,
    pub failures: usize,
}

fn check(root: &Path) -> Result<Report, String> {
    if !cfg!(target_arch = "x86_64") {
        return Err("the expectations are of x86-64 code; run this on an x86-64 machine".into());
    }
    let group = group_size(root)?;
    let binary = build_probe(root)?;
    let symbols = objdump(&binary, &["-t", "-C"])?;
    let code = objdump(&binary, &["-d", "--no-show-raw-insn", "-C"])?;
    let relocations = objdump(&binary, &["-R"])?;
    let program = Program::parse(&symbols, &code, &relocations);
    let mut report = program.report(group);
    report
        .heading("inlined functions defined in utf8-core/src (a name that matches none is stale):");
    let sources = rust_sources(&root.join("utf8-core/src"))?;
    for (pattern, _) in INLINED {
        let defined = defined_in(&sources, pattern);
        let message = if defined {
            format!("{pattern}: defined")
        } else {
            format!(
                "{pattern}: no function of that name in utf8-core/src: renamed or moved? \
                 An expectation that names nothing always holds; name the function as it is now"
            )
        };
        report.line(defined, message);
    }
    Ok(report)
}

/// Every `.rs` file under `directory`, with its module path (the file's
/// path without `.rs`, `mod.rs` and `lib.rs`) and its text.
fn rust_sources(directory: &Path) -> Result<Vec<(Vec<String>, String)>, String> {
    fn walk(
        directory: &Path,
        modules: &[String],
        found: &mut Vec<(Vec<String>, String)>,
    ) -> Result<(), String> {
        let entries =
            std::fs::read_dir(directory).map_err(|e| format!("{}: {e}", directory.display()))?;
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = path
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into());
            if path.is_dir() {
                let inner = [modules, &[name]].concat();
                walk(&path, &inner, found)?;
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let module = match stem {
                    "mod" | "lib" => modules.to_vec(),
                    stem => [modules, &[stem.to_string()]].concat(),
                };
                found.push((module, text));
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    walk(directory, &[], &mut found)?;
    Ok(found)
}

/// Whether `pattern` (last path segments, generic arguments left out)
/// names a function defined in `sources`: a `fn NAME(` or `fn NAME<` in a
/// file whose module path ends with the pattern's modules.
fn defined_in(sources: &[(Vec<String>, String)], pattern: &str) -> bool {
    let path = pattern.split("::<").next().unwrap_or(pattern);
    let mut segments: Vec<&str> = path.split("::").collect();
    let Some(name) = segments.pop() else {
        return false;
    };
    sources.iter().any(|(module, text)| {
        module.len() >= segments.len()
            && module[module.len() - segments.len()..]
                .iter()
                .zip(&segments)
                .all(|(a, b)| a == b)
            && (text.contains(&format!("fn {name}(")) || text.contains(&format!("fn {name}<")))
    })
}

/// `GROUP`, the blocks of a group in the main loop, read from the source.
fn group_size(root: &Path) -> Result<usize, String> {
    let path = root.join("utf8-core/src/simd/mod.rs");
    let source = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    source
        .lines()
        .find_map(|line| {
            line.trim()
                .strip_prefix("pub(crate) const GROUP: usize = ")?
                .strip_suffix(';')?
                .parse()
                .ok()
        })
        .ok_or_else(|| {
            format!(
                "{}: no `pub(crate) const GROUP: usize = N;`",
                path.display()
            )
        })
}

/// Builds the probe in release, in a target directory of its own so that
/// its symbol mangling (v0, which names generic arguments) rebuilds nothing
/// elsewhere; returns the binary's path.
fn build_probe(root: &Path) -> Result<std::path::PathBuf, String> {
    let target = root.join("target/inlining");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(root)
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "utf8-core",
            "--example",
            PROBE,
        ])
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_ENCODED_RUSTFLAGS", "-Csymbol-mangling-version=v0")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("the probe did not build ({status})"));
    }
    Ok(target.join("release/examples").join(PROBE))
}

fn objdump(binary: &Path, args: &[&str]) -> Result<String, String> {
    let output = Command::new("objdump")
        .args(args)
        .arg(binary)
        .output()
        .map_err(|e| format!("cannot run objdump (GNU binutils; install it): {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "objdump {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// One instruction: its address, mnemonic and operands as objdump wrote them.
#[derive(Debug, Clone)]
pub struct Instruction {
    pub address: u64,
    pub mnemonic: String,
    pub operands: String,
}

/// The functions of the probe: every name of each (aliases included), and
/// the code of each, by address.
#[derive(Default)]
pub struct Program {
    names: BTreeMap<u64, BTreeSet<String>>,
    code: BTreeMap<u64, Vec<Instruction>>,
    /// A GOT slot's address and the function address it holds.
    got: BTreeMap<u64, u64>,
}

impl Program {
    /// From `objdump -t -C`, `objdump -d --no-show-raw-insn -C` and
    /// `objdump -R` of the same binary.
    pub fn parse(symbols: &str, code: &str, relocations: &str) -> Program {
        let mut program = Program::default();
        for line in symbols.lines() {
            // `ADDRESS FLAGS SECTION SIZE [.hidden] NAME`, where FLAGS holds `F`.
            let Some((address, rest)) = line.split_once(' ') else {
                continue;
            };
            let Ok(address) = u64::from_str_radix(address, 16) else {
                continue;
            };
            let Some((flags, rest)) = rest.split_once('\t') else {
                continue;
            };
            if !flags.contains(" F ") {
                continue;
            }
            // After the section: the size, then (with `.hidden`) the name.
            let Some((_size, name)) = rest.trim_start().split_once(char::is_whitespace) else {
                continue;
            };
            let name = name.trim();
            let name = name.strip_prefix(".hidden").unwrap_or(name).trim();
            program
                .names
                .entry(address)
                .or_default()
                .insert(strip_disambiguators(name));
        }
        let mut current: Option<u64> = None;
        for line in code.lines() {
            if let Some((address, _)) = line.split_once(" <")
                && line.ends_with(">:")
                && let Ok(address) = u64::from_str_radix(address, 16)
            {
                current = Some(address);
                program.code.entry(address).or_default();
                continue;
            }
            let Some(function) = current else { continue };
            let Some((address, text)) = line.trim_start().split_once(":\t") else {
                continue;
            };
            let Ok(address) = u64::from_str_radix(address, 16) else {
                continue;
            };
            let text = text.trim();
            let (mnemonic, operands) = text
                .split_once(char::is_whitespace)
                .map_or((text, ""), |(m, o)| (m, o.trim()));
            program.code.entry(function).or_default().push(Instruction {
                address,
                mnemonic: mnemonic.to_string(),
                operands: operands.to_string(),
            });
        }
        for line in relocations.lines() {
            let mut fields = line.split_whitespace();
            let (Some(slot), Some("R_X86_64_RELATIVE"), Some(value)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let (Ok(slot), Some(Ok(target))) = (
                u64::from_str_radix(slot, 16),
                value
                    .strip_prefix("*ABS*+0x")
                    .map(|hex| u64::from_str_radix(hex, 16)),
            ) else {
                continue;
            };
            program.got.insert(slot, target);
        }
        program
    }

    /// The addresses of `utf8-core`'s functions that `pattern` names.
    fn find(&self, pattern: &str) -> Vec<u64> {
        self.names
            .iter()
            .filter(|(_, names)| names.iter().any(|name| matches(pattern, name)))
            .map(|(&address, _)| address)
            .collect()
    }

    /// The function at `address` by the name that `pattern` matched (its
    /// first name where none does), and how many other names it has.
    fn describe(&self, address: u64, pattern: &str) -> String {
        let names = &self.names[&address];
        let name = names
            .iter()
            .find(|name| matches(pattern, name))
            .or_else(|| names.iter().next())
            .map_or("?", String::as_str);
        match names.len() {
            1 => name.to_string(),
            n => format!("{name} (and {} alias(es))", n - 1),
        }
    }

    /// The functions that the function at `address` calls or jumps to.
    fn callees(&self, address: u64) -> BTreeSet<u64> {
        let Some(code) = self.code.get(&address) else {
            return BTreeSet::new();
        };
        code.iter()
            .filter(|i| i.mnemonic.starts_with("call") || i.mnemonic.starts_with('j'))
            .filter_map(|i| match direct_target(&i.operands) {
                Some(target) => Some(target),
                // `call *0x..(%rip)  # SLOT <..>`: through the GOT.
                None => {
                    let slot = i.operands.split_once("# ")?.1.split_whitespace().next()?;
                    self.got.get(&u64::from_str_radix(slot, 16).ok()?).copied()
                }
            })
            .filter(|target| *target != address && self.names.contains_key(target))
            .collect()
    }

    /// Every expectation checked, one line each.
    pub fn report(&self, group: usize) -> Report {
        let mut out = Report {
            text: String::new(),
            failures: 0,
        };
        out.heading("out of line (functions of their own):");
        for (pattern, why) in OUT_OF_LINE {
            match self.find(pattern).first() {
                Some(&address) => out.line(
                    true,
                    format!("{pattern}: {}", self.describe(address, pattern)),
                ),
                None => out.line(
                    false,
                    format!(
                        "{pattern}: no such function; it was inlined (an `#[inline(never)]` \
                         or `#[cold]` undone?). It must stay out of line: {why}"
                    ),
                ),
            }
        }
        out.heading("inlined (no function of that name):");
        for (pattern, why) in INLINED {
            let found = self.find(pattern);
            if found.is_empty() {
                out.line(true, pattern.to_string());
            } else {
                let names: Vec<String> = found.iter().map(|&a| self.describe(a, pattern)).collect();
                out.line(
                    false,
                    format!(
                        "{pattern}: out of line as {} (an `#[inline(always)]` undone?). It must \
                         be inlined: {why}",
                        names.join(", ")
                    ),
                );
            }
        }
        out.heading("linked (the probe has them):");
        for (pattern, why) in LINKED {
            match self.find(pattern).first() {
                Some(&address) => out.line(
                    true,
                    format!("{pattern}: {}", self.describe(address, pattern)),
                ),
                None => out.line(
                    false,
                    format!(
                        "{pattern}: not in the probe (renamed, no longer linked by \
                         utf8-core/examples/inlining_probe.rs, or inlined?). It must be linked: {why}"
                    ),
                ),
            }
        }
        out.heading("calls made by the caller itself:");
        for (caller, callee, why) in CALLS {
            let callers = self.find(caller);
            let wanted: BTreeSet<u64> = self.find(callee).into_iter().collect();
            if callers.is_empty() {
                out.line(false, format!("{caller}: no such function"));
            } else if callers
                .iter()
                .any(|&c| !self.callees(c).is_disjoint(&wanted))
            {
                out.line(true, format!("{caller} calls {callee}"));
            } else {
                let names: BTreeSet<String> = callers
                    .iter()
                    .flat_map(|&c| self.callees(c))
                    .map(|a| self.describe(a, ""))
                    .collect();
                out.line(
                    false,
                    format!(
                        "{caller} does not call {callee} (it calls: {}). Expected: {why}",
                        names.into_iter().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
        }
        out.heading(&format!(
            "main loops, instructions a 64-byte block (largest innermost loop / {group} blocks), \
             within {:.0}%:",
            LOOP_TOLERANCE * 100.0
        ));
        for &(level, expected) in MAIN_LOOPS {
            let pattern = format!("{level}::validate_blocks::<ShortcutLanguage<Rfc3629>>");
            let Some(&address) = self.find(&pattern).first() else {
                out.line(false, format!("{level}: no function {pattern}"));
                continue;
            };
            let Some(found) = main_loop(&self.code[&address]) else {
                out.line(false, format!("{level}: {pattern} has no loop"));
                continue;
            };
            let per_block = found.instructions as f64 / group as f64;
            let ok = (per_block - expected).abs() <= expected * LOOP_TOLERANCE;
            let mut message = format!(
                "{level}: {} instructions ({:#x}..={:#x}) / {group} = {per_block:.2} a block, \
                 expected {expected:.2}",
                found.instructions, found.head, found.back_edge
            );
            if !ok {
                message.push_str(
                    ": the main loop's code changed (a step out of line, a bounds test or \
                     register copy back in the loop?)",
                );
            }
            out.line(ok, message);
        }
        out
    }
}

impl Report {
    fn heading(&mut self, heading: &str) {
        let _ = writeln!(self.text, "{heading}");
    }

    fn line(&mut self, ok: bool, message: String) {
        self.failures += usize::from(!ok);
        let _ = writeln!(
            self.text,
            "  {} {message}",
            if ok { "ok  " } else { "FAIL" }
        );
    }
}

/// A loop: the address of its head, of the jump back to it, and the
/// instructions from one to the other (alignment padding left out).
#[derive(Debug, PartialEq, Eq)]
pub struct Loop {
    pub head: u64,
    pub back_edge: u64,
    pub instructions: usize,
}

/// The largest innermost loop of a function's code: of the spans from a
/// jump back to its target, those that hold no other such span, the one
/// with the most instructions. In a main loop that is the group of blocks,
/// its steps written out one after the other; the loops of a run of ASCII
/// are a handful of instructions.
pub fn main_loop(code: &[Instruction]) -> Option<Loop> {
    let start = code.first()?.address;
    let loops: Vec<(u64, u64)> = code
        .iter()
        .filter(|i| i.mnemonic.starts_with('j'))
        .filter_map(|i| {
            let target = direct_target(&i.operands)?;
            (start <= target && target <= i.address).then_some((target, i.address))
        })
        .collect();
    loops
        .iter()
        .filter(|&&(head, back)| {
            !loops
                .iter()
                .any(|&(h, b)| (h, b) != (head, back) && head <= h && b <= back)
        })
        .map(|&(head, back_edge)| Loop {
            head,
            back_edge,
            instructions: code
                .iter()
                .filter(|i| head <= i.address && i.address <= back_edge && !is_padding(i))
                .count(),
        })
        .max_by_key(|l| l.instructions)
}

/// The alignment padding between blocks of code, never run.
fn is_padding(instruction: &Instruction) -> bool {
    instruction.mnemonic.starts_with("nop")
        || instruction.operands.contains("nop")
        || instruction.mnemonic == "int3"
        || (instruction.mnemonic == "xchg" && instruction.operands == "%ax,%ax")
}

/// A jump's or call's target where it is written as an address.
fn direct_target(operands: &str) -> Option<u64> {
    let address = operands.split_whitespace().next()?;
    u64::from_str_radix(address, 16).ok()
}

/// `name` without the crate disambiguators (`[5718f200ca242b2a]`) that some
/// demanglers print.
fn strip_disambiguators(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(open) = rest.find('[') {
        let close = rest[open..].find(']').map(|c| open + c);
        match close {
            Some(close) if rest[open + 1..close].chars().all(|c| c.is_ascii_hexdigit()) => {
                out.push_str(&rest[..open]);
                rest = &rest[close + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The path and the generic arguments of a demangled function name:
/// `a::b::f::<T>` is (`a::b::f`, `<T>`).
fn split_generics(name: &str) -> (&str, &str) {
    match name.find("::<") {
        Some(at) => (&name[..at], &name[at + 2..]),
        None => (name, ""),
    }
}

/// Generic arguments without their module paths:
/// `<utf8_core::simd::ShortcutLanguage<utf8_core::Rfc3629>>` is
/// `<ShortcutLanguage<Rfc3629>>`.
fn without_modules(arguments: &str) -> String {
    let mut out = String::new();
    let mut rest = arguments;
    while !rest.is_empty() {
        let word_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if word_len == 0 {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let (word, after) = rest.split_at(word_len);
        if word.starts_with(|c: char| c.is_lowercase()) && after.starts_with("::") {
            rest = &after[2..];
        } else {
            out.push_str(word);
            rest = after;
        }
    }
    out
}

/// Whether `pattern` (`module::function::<Arguments>`, the arguments
/// optional) names `name`, a function of `utf8-core`: its path ends with
/// the pattern's path, segment by segment, and where the pattern gives
/// arguments, they are the function's, module paths left out.
pub fn matches(pattern: &str, name: &str) -> bool {
    if !(name.starts_with("utf8_core::") || name.starts_with("<utf8_core::")) {
        return false;
    }
    let (pattern_path, pattern_arguments) = split_generics(pattern);
    let (path, arguments) = split_generics(name);
    let path_ok = path == pattern_path
        || path
            .strip_suffix(pattern_path)
            .is_some_and(|before| before.ends_with("::"));
    path_ok && (pattern_arguments.is_empty() || without_modules(arguments) == pattern_arguments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_names_a_function_by_its_last_segments_and_arguments() {
        let name = "utf8_core::simd::x86::avx2::validate_blocks::<utf8_core::simd::ShortcutLanguage<utf8_core::Rfc3629>>";
        assert!(matches(
            "avx2::validate_blocks::<ShortcutLanguage<Rfc3629>>",
            name
        ));
        assert!(matches("validate_blocks", name));
        assert!(!matches("sse41::validate_blocks", name));
        assert!(!matches("blocks", name));
        assert!(!matches("validate_blocks::<Rfc3629>", name));
        // Moved to another module, still named.
        assert!(matches(
            "validate_after_lead::<Rfc3629>",
            "utf8_core::dispatch::validate_after_lead::<utf8_core::Rfc3629>"
        ));
        assert!(!matches("lead", "std::lead"));
    }

    #[test]
    fn an_inlined_name_must_name_a_function_of_that_module() {
        let sources = vec![
            (
                vec!["column".to_string(), "view_scan".into(), "x86".into()],
                "#[inline]\nfn inline_lanes(pair: __m256i) {}\n".to_string(),
            ),
            (
                vec!["shift".to_string()],
                "fn lead<R: Ruleset>() {}".to_string(),
            ),
        ];
        assert!(defined_in(&sources, "view_scan::x86::inline_lanes"));
        assert!(defined_in(&sources, "x86::inline_lanes"));
        assert!(defined_in(&sources, "lead"));
        assert!(defined_in(&sources, "shift::lead::<Rfc3629>"));
        // Renamed, or in another module: names nothing.
        assert!(!defined_in(&sources, "view_scan::x86::inline_lane"));
        assert!(!defined_in(&sources, "view_scan::x86::lead"));
        assert!(!defined_in(&sources, "avx2::inline_lanes"));
    }

    #[test]
    fn crate_disambiguators_are_left_out() {
        assert_eq!(
            strip_disambiguators("utf8_core[5718f200ca242b2a]::from_utf8"),
            "utf8_core::from_utf8"
        );
        assert_eq!(strip_disambiguators("a[x]::b"), "a[x]::b");
    }

    fn instruction(address: u64, text: &str) -> Instruction {
        let (mnemonic, operands) = text.split_once(' ').unwrap_or((text, ""));
        Instruction {
            address,
            mnemonic: mnemonic.into(),
            operands: operands.trim().into(),
        }
    }

    #[test]
    fn the_main_loop_is_the_largest_innermost_loop() {
        let code = [
            instruction(0x10, "mov %rdi,%rax"),
            instruction(0x14, "add $0x40,%rax"),
            instruction(0x18, "vpor %ymm1,%ymm2,%ymm3"),
            instruction(0x1c, "vptest %ymm3,%ymm3"),
            instruction(0x20, "je 14 <f+0x4>"),
            instruction(0x22, "xchg %ax,%ax"),
            instruction(0x24, "inc %rcx"),
            instruction(0x28, "jb 24 <f+0x14>"),
            instruction(0x2a, "jmp 10 <f>"),
        ];
        assert_eq!(
            main_loop(&code),
            Some(Loop {
                head: 0x14,
                back_edge: 0x20,
                instructions: 4
            })
        );
    }
}
