//! `utf8 fix`: an input made valid, each maximal invalid subpart replaced by
//! U+FFFD or dropped, as lossy decoding does.

use std::fs::File;
use std::io::{BufWriter, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use utf8_core::Ruleset;

use crate::failure::Failure;
use crate::input::Source;
use crate::rulesets::{RulesetArg, WithRuleset, with_ruleset};
use crate::stream::{Buffer, Fill, Flow, Found, Halt, Sink, stream};

pub const EXIT_CODES: &str = "\
Exit status:
  0  the output was written (whether or not anything needed replacing), or its
     reader stopped reading early (`| head`), which ends the command quietly
  2  usage error, unknown ruleset, an input that cannot be read, an output that
     cannot be written, or a request that would lose the input: -o naming it,
     by its path or as the file standard input reads (creating the output
     would empty it before it is read), or --in-place on standard input or on
     what is not a regular file (a FIFO, a device: `sed -i` refuses them too)";

/// U+FFFD REPLACEMENT CHARACTER, which every built-in ruleset accepts.
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    ruleset: RulesetArg,
    /// Write here instead of standard output (- writes to standard output,
    /// as the PATH - reads standard input): never the input itself, named
    /// by its path or redirected to standard input (see --in-place)
    #[arg(short, long, value_name = "OUT", conflicts_with = "in_place")]
    output: Option<PathBuf>,
    /// Delete each invalid part instead of replacing it with U+FFFD. Under
    /// wtf8 and cesu8 this can bring two surrogate halves together (a pair
    /// that WTF-8 forbids, or a CESU-8 pair out of two halves); the
    /// replacement never does, so prefer it there
    #[arg(long)]
    drop: bool,
    /// Replace the input file: write a temporary file beside it, then rename
    /// it over the input (a valid input is left untouched). Only a regular
    /// file is replaced. It keeps its permissions, and its owner and group
    /// where the user may give them (root may), else its group where the user
    /// is in it, else it becomes the user's, as with `sed -i`; on Linux it
    /// keeps its extended attributes (its ACL, its SELinux label) where the
    /// file system holds them. A symbolic link stays a link: the file it
    /// points to is replaced
    #[arg(long)]
    in_place: bool,
    /// The file to fix; `-` reads standard input
    #[arg(value_name = "PATH")]
    path: PathBuf,
}

pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    with_ruleset(&args.ruleset.ruleset, FixInput { args })?
}

struct FixInput<'a> {
    args: &'a Args,
}

impl WithRuleset for FixInput<'_> {
    type Output = Result<ExitCode, Failure>;

    fn call<R: Ruleset>(self) -> Self::Output {
        fix::<R>(self.args)
    }
}

fn fix<R: Ruleset>(args: &Args) -> Result<ExitCode, Failure> {
    let source = Source::from_arg(&args.path);
    // `-o -` is standard output, as `iconv -o -` has it, not a file named `-`.
    let output = args
        .output
        .as_deref()
        .filter(|&output| output != Path::new("-"));
    if let Some(output) = output {
        refuse_writing_over_the_input(&source, output)?;
    }
    let in_place = match (&source, args.in_place) {
        (Source::Stdin, true) => {
            return Err(Failure::Usage(
                "--in-place needs a file, not standard input".to_owned(),
            ));
        }
        (Source::File(path), true) => {
            refuse_what_is_not_a_regular_file(path)?;
            Some(path)
        }
        (_, false) => None,
    };
    let mut buffer = Buffer::for_inputs();
    let mut input = source.open().map_err(Failure::Usage)?;
    let cannot_write =
        |to: &str, e: std::io::Error| Failure::Usage(format!("cannot write {to}: {e}"));
    match (in_place, output) {
        (Some(path), _) => {
            // A valid input is left untouched: find out before writing anything.
            if stream::<R, _>(&mut input, &mut buffer, &mut FirstError)
                .map_err(halted)?
                .valid
            {
                return Ok(ExitCode::SUCCESS);
            }
            let mut input = source.open().map_err(Failure::Usage)?;
            replace_file(path, |out| {
                repair::<R>(&mut input, &mut buffer, args.drop, out)
            })?;
        }
        (None, Some(output)) => {
            let name = output.display().to_string();
            let file = File::create(output).map_err(|e| cannot_write(&name, e))?;
            let mut out = BufWriter::new(file);
            repair::<R>(&mut input, &mut buffer, args.drop, &mut out)
                .and_then(|()| out.flush().map_err(Halt::Sink))
                .map_err(|halt| write_failure(halt, &name))?;
        }
        (None, None) => {
            let mut out = BufWriter::new(std::io::stdout().lock());
            match repair::<R>(&mut input, &mut buffer, args.drop, &mut out)
                .and_then(|()| out.flush().map_err(Halt::Sink))
            {
                // The reader has all it wants (`| head`): stop quietly, as
                // `cat` and ripgrep do; no one is left to read a message.
                Err(Halt::Sink(e)) if e.kind() == ErrorKind::BrokenPipe => {}
                written => written.map_err(|halt| write_failure(halt, "the output"))?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the input with each maximal invalid subpart, and an incomplete
/// sequence at the end, replaced by U+FFFD (or left out when `drop`), as it
/// reads it.
fn repair<R: Ruleset>(
    input: &mut impl Fill,
    buffer: &mut Buffer,
    drop: bool,
    out: &mut impl Write,
) -> Result<(), Halt<std::io::Error>> {
    stream::<R, _>(input, buffer, &mut Repair { out, drop }).map(|_| ())
}

struct Repair<'w, W> {
    out: &'w mut W,
    drop: bool,
}

impl<W: Write> Sink for Repair<'_, W> {
    type Error = std::io::Error;

    fn valid(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.out.write_all(bytes)
    }

    fn invalid(&mut self, _: &Found<'_>) -> std::io::Result<Flow> {
        if !self.drop {
            self.out.write_all(REPLACEMENT)?;
        }
        Ok(Flow::Continue)
    }
}

/// Stops at the first error: whether there is one.
struct FirstError;

impl Sink for FirstError {
    type Error = std::convert::Infallible;

    fn valid(&mut self, _: &[u8]) -> Result<(), Self::Error> {
        Ok(())
    }

    fn invalid(&mut self, _: &Found<'_>) -> Result<Flow, Self::Error> {
        Ok(Flow::Stop)
    }
}

fn halted(halt: Halt<std::convert::Infallible>) -> Failure {
    match halt {
        Halt::Read(message) => Failure::Usage(message),
        Halt::Sink(never) => match never {},
    }
}

fn write_failure(halt: Halt<std::io::Error>, to: &str) -> Failure {
    match halt {
        Halt::Read(message) => Failure::Usage(message),
        Halt::Sink(e) => Failure::Usage(format!("cannot write {to}: {e}")),
    }
}

/// Replaces the file at `path` with what `write` writes, never leaving it
/// half-written: the new contents go to a temporary file in the same
/// directory (so that the rename stays on one file system), which then takes
/// the input's owner, group, extended attributes (its ACL among them) and
/// permissions and is renamed over it.
///
/// A symbolic link is followed to the file it names: renamed over the link
/// itself, the temporary file would turn the link into a regular file and
/// leave its target, the file the user meant, unfixed.
///
/// Each message names the file the user asked to replace and the step that
/// failed, never the temporary file, whose name the user never gave.
fn replace_file(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<&File>) -> Result<(), Halt<std::io::Error>>,
) -> Result<(), Failure> {
    let cannot = |step: &str, e: std::io::Error| {
        Failure::Usage(format!("cannot replace {}: {step}{e}", path.display()))
    };
    let target = std::fs::canonicalize(path).map_err(|e| cannot("", e))?;
    let directory = target.parent().unwrap_or(Path::new("/"));
    let in_directory = |what: &str| {
        format!(
            "cannot {what} a temporary file in {}: ",
            directory.display()
        )
    };
    // Dropped on any error below, the temporary file is deleted.
    let temporary = temporary_file_in(directory).map_err(|e| cannot(&in_directory("create"), e))?;
    {
        let mut out = BufWriter::new(temporary.as_file());
        write(&mut out)
            .and_then(|()| out.flush().map_err(Halt::Sink))
            .map_err(|halt| match halt {
                Halt::Read(message) => Failure::Usage(message),
                Halt::Sink(e) => cannot(&in_directory("write"), e),
            })?;
    }
    let metadata = std::fs::metadata(&target).map_err(|e| cannot("", e))?;
    // Owner and group first: a change of owner clears the set-user-ID and
    // set-group-ID bits, which the permissions then set again.
    #[cfg(unix)]
    keep_owner(temporary.as_file(), &metadata);
    // After the owner, whose change takes a `security.capability` attribute
    // away; before the permissions, which set the ACL's mask to the group
    // bits the file had, as the old file's ACL has it.
    #[cfg(target_os = "linux")]
    crate::xattrs::copy(&target, temporary.as_file()).map_err(|(step, e)| cannot(&step, e))?;
    temporary
        .as_file()
        .set_permissions(metadata.permissions())
        .map_err(|e| cannot("cannot give the new contents the file's permissions: ", e))?;
    temporary
        .persist(&target)
        .map_err(|e| cannot("cannot rename the new contents over it: ", e.error))?;
    Ok(())
}

/// A new file in `directory`, deleted when dropped. Its error is the
/// system's alone: `tempfile`'s own constructors add the temporary file's
/// name, which means nothing to the user.
fn temporary_file_in(directory: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new().make_in(directory, |path| {
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options.open(path)
    })
}

/// Gives `file` the owner and group of the file it replaces, as GNU `sed -i`
/// does: both where the user may (root may), else the group alone (the
/// user's own file, of a group the user is in), else neither, and the
/// replacement is then the user's, as any file the user writes. Refusing
/// instead would leave a user unable to fix a file they may rewrite.
#[cfg(unix)]
fn keep_owner(file: &File, of: &std::fs::Metadata) {
    use std::os::unix::fs::{MetadataExt as _, fchown};
    if fchown(file, Some(of.uid()), Some(of.gid())).is_err() {
        let _ = fchown(file, None, Some(of.gid()));
    }
}

/// Refuses an output that is the input (by any path or link, or as the file
/// standard input was redirected from): the output is emptied when it is
/// created, before the input is read. Only a regular file is emptied so:
/// reading a terminal and writing to it is no harm.
fn refuse_writing_over_the_input(source: &Source, output: &Path) -> Result<(), Failure> {
    let refusal = match source {
        Source::File(input) if same_file(input, output) => format!(
            "refusing to write over the input {}; use --in-place to replace it",
            input.display()
        ),
        Source::Stdin if is_standard_input(output) => format!(
            "refusing to write over {0}, which is also standard input; use --in-place {0} to replace it",
            output.display()
        ),
        _ => return Ok(()),
    };
    Err(Failure::Usage(refusal))
}

/// Refuses to replace anything but a regular file, as `sed -i` does: a FIFO
/// or a device would be read once to look for errors and then again,
/// waiting for a writer or taking other bytes, and renaming a file over it
/// would replace the device or FIFO itself rather than what it holds.
fn refuse_what_is_not_a_regular_file(path: &Path) -> Result<(), Failure> {
    match std::fs::metadata(path) {
        Ok(metadata) if !metadata.is_file() => Err(Failure::Usage(format!(
            "cannot edit {}: not a regular file",
            path.display()
        ))),
        // A file that cannot be looked at is reported when it is opened.
        _ => Ok(()),
    }
}

/// Whether `output` names the file `input` names, through any path or link.
#[cfg(unix)]
fn same_file(input: &Path, output: &Path) -> bool {
    std::fs::metadata(input).is_ok_and(|input| is_same_regular_file(&input, output))
}

/// Whether `output` names the regular file that standard input reads.
#[cfg(unix)]
fn is_standard_input(output: &Path) -> bool {
    use std::os::fd::AsFd as _;
    // A duplicate of the descriptor, to ask for its metadata through a
    // `File` without taking standard input's own descriptor away.
    let Ok(stdin) = std::io::stdin().as_fd().try_clone_to_owned() else {
        return false;
    };
    File::from(stdin)
        .metadata()
        .is_ok_and(|input| is_same_regular_file(&input, output))
}

/// Whether `output` names the regular file whose metadata is `input`.
#[cfg(unix)]
fn is_same_regular_file(input: &std::fs::Metadata, output: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata(output).is_ok_and(|output| {
        input.is_file() && (input.dev(), input.ino()) == (output.dev(), output.ino())
    })
}

/// Whether `output` names the file `input` names, through any path.
#[cfg(not(unix))]
fn same_file(input: &Path, output: &Path) -> bool {
    match (std::fs::canonicalize(input), std::fs::canonicalize(output)) {
        (Ok(input), Ok(output)) => input == output,
        _ => false,
    }
}

/// Standard input is not compared with the output off Unix.
#[cfg(not(unix))]
fn is_standard_input(_: &Path) -> bool {
    false
}
