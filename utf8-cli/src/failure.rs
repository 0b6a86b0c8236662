//! Why a subcommand could not do its work, and the exit status that says so.

use std::fmt;
use std::process::ExitCode;

/// A failure that ends the command.
#[derive(Debug)]
pub enum Failure {
    /// The arguments name something that does not exist, or a file cannot be
    /// read or written (exit status 2, as for clap's own usage errors).
    Usage(String),
    /// The spec was read but does not derive (exit status 3).
    Spec(String),
}

impl Failure {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Usage(_) => ExitCode::from(2),
            Failure::Spec(_) => ExitCode::from(3),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(message) | Failure::Spec(message) => f.write_str(message),
        }
    }
}

/// Writes `text` to standard output; a full disk is an I/O failure, but a
/// reader that stopped reading (`| head`) has what it wanted, and the
/// command ends quietly, as ripgrep does.
pub fn print(text: &str) -> Result<(), Failure> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::Usage(format!("cannot write the output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Writes `utf8: MESSAGE` on standard error. A message that cannot be
/// written there (a full disk, a reader that is gone) is lost, and the
/// command goes on to end with the status its failure has, as grep does:
/// `eprintln!` would panic instead, and a panic's status, 101, is none of
/// the documented ones.
pub fn tell(message: &dyn fmt::Display) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "utf8: {message}");
}
