//! The `utf8` binary: the command of the `utf8_cli` library.

fn main() -> std::process::ExitCode {
    utf8_cli::main()
}
