//! `.pre-commit-hooks.yaml`: the hook runs a subcommand and flags the command
//! has, the way pre-commit runs it (the entry, then the staged files).

mod common;

use std::process::Command;

use common::{arg, scratch, write};

const HOOKS: &str = include_str!("../../.pre-commit-hooks.yaml");

/// The value of `key` in the hook's entry, read as the one-level YAML it is.
fn field(key: &str) -> &'static str {
    HOOKS
        .lines()
        .find_map(|line| {
            line.trim_start_matches("- ")
                .trim()
                .strip_prefix(key)?
                .strip_prefix(':')
        })
        .unwrap_or_else(|| panic!("the hook has `{key}`"))
        .trim()
}

#[test]
fn the_hook_entry_names_the_utf8_command_a_subcommand_and_flags_it_has() {
    assert_eq!(field("id"), "utf8-check");
    assert_eq!(field("types"), "[text]");
    // pre-commit cannot build from a virtual workspace: the `utf8` on PATH runs.
    assert_eq!(field("language"), "system");
    let entry: Vec<&str> = field("entry").split_whitespace().collect();
    let (program, rest) = entry.split_first().expect("an entry");
    assert_eq!(*program, "utf8");
    let (subcommand, flags) = rest.split_first().expect("a subcommand");
    let command = utf8_cli::command();
    let subcommand = command
        .find_subcommand(subcommand)
        .unwrap_or_else(|| panic!("no subcommand {subcommand}"));
    for flag in flags {
        let known = subcommand.get_arguments().any(|argument| {
            argument
                .get_long()
                .map(|long| format!("--{long}"))
                .as_deref()
                == Some(*flag)
                || argument
                    .get_short()
                    .map(|short| format!("-{short}"))
                    .as_deref()
                    == Some(*flag)
        });
        assert!(
            known,
            "{flag} is not a flag of utf8 {}",
            subcommand.get_name()
        );
    }
}

#[test]
fn the_hook_entry_passes_valid_files_and_fails_on_an_invalid_one() {
    let dir = scratch();
    let valid = write(dir.path(), "valid.txt", "Grüße\n".as_bytes());
    let invalid = write(dir.path(), "invalid.txt", b"caf\xE9\n");
    let entry: Vec<&str> = field("entry").split_whitespace().collect();
    let run = |files: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_utf8"))
            .args(&entry[1..])
            .args(files)
            .output()
            .expect("the utf8 binary runs")
    };
    assert_eq!(run(&[arg(&valid)]).status.code(), Some(0));
    let output = run(&[arg(&valid), arg(&invalid)]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stdout).starts_with(&format!("{}:1:4: ", arg(&invalid))),
        "{output:?}"
    );
}
