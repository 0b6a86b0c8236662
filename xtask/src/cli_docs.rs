//! `utf8-cli/completions/` and `utf8-cli/man/`: the `utf8` command's shell
//! completions and man pages, generated from its clap definition, so that
//! they name every subcommand and flag the command has and no other.

use std::path::PathBuf;

use clap_complete::{Generator as _, Shell};

/// The shells completions are written for, each under the file name it
/// looks for (`_utf8` on zsh's `fpath`, `utf8.bash` for bash-completion).
const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::Elvish,
    Shell::PowerShell,
];

/// Every completion script and man page: its path relative to the workspace
/// root, and its contents.
pub fn files() -> Vec<(PathBuf, String)> {
    let mut files: Vec<(PathBuf, String)> = SHELLS
        .iter()
        .map(|&shell| {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut utf8_cli::command(), "utf8", &mut script);
            (
                PathBuf::from("utf8-cli/completions").join(shell.file_name("utf8")),
                String::from_utf8(script).expect("completion scripts are UTF-8"),
            )
        })
        .collect();
    // As `clap_mangen::generate_to` does, in memory: `utf8.1`, then one page
    // per subcommand (`utf8-check.1`, …), each named for its display name.
    let mut command = utf8_cli::command().disable_help_subcommand(true);
    command.build();
    // Every page's footer names the command and its version; a subcommand
    // has no version of its own to name.
    let source = format!(
        "utf8 {}",
        command.get_version().expect("the command has a version")
    );
    man_pages(command, &source, &mut files);
    files
}

fn man_pages(command: clap::Command, source: &str, files: &mut Vec<(PathBuf, String)>) {
    let man = clap_mangen::Man::new(command.clone()).source(source);
    let mut page = Vec::new();
    man.render(&mut page).expect("rendering into memory");
    files.push((
        PathBuf::from("utf8-cli/man").join(man.get_filename()),
        String::from_utf8(page).expect("man pages are UTF-8"),
    ));
    for subcommand in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        man_pages(subcommand.clone(), source, files);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shell_has_its_completions_and_every_subcommand_its_man_page() {
        let paths: Vec<String> = files()
            .into_iter()
            .map(|(path, _)| path.display().to_string())
            .collect();
        assert_eq!(
            paths,
            [
                "utf8-cli/completions/utf8.bash",
                "utf8-cli/completions/_utf8",
                "utf8-cli/completions/utf8.fish",
                "utf8-cli/completions/utf8.elv",
                "utf8-cli/completions/_utf8.ps1",
                "utf8-cli/man/utf8.1",
                "utf8-cli/man/utf8-derive.1",
                "utf8-cli/man/utf8-tables.1",
                "utf8-cli/man/utf8-check.1",
                "utf8-cli/man/utf8-fix.1",
            ]
        );
    }

    #[test]
    fn the_completions_offer_the_flags_the_command_has() {
        let (_, bash) = &files()[0];
        for flag in ["--recursive", "--files-with-errors", "--in-place", "--emit"] {
            assert!(bash.contains(flag), "{flag}");
        }
    }
}
