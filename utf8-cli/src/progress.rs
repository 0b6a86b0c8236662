//! A one-line progress report on standard error, for runs long enough to
//! want one, and only when standard error is a terminal.

use std::io::{IsTerminal as _, Write};
use std::time::{Duration, Instant};

/// A run that ends sooner than this never shows the line, so quick checks
/// leave the terminal as they found it.
const SHOW_AFTER: Duration = Duration::from_millis(300);
/// How often the line is redrawn at most.
const REDRAW_EVERY: Duration = Duration::from_millis(100);

pub struct Progress {
    /// Where the line is drawn: standard error when it is a terminal.
    terminal: Option<Box<dyn Write>>,
    /// The terminal's width in columns, asked at each redraw: the user may
    /// resize the window meanwhile.
    width: fn() -> Option<usize>,
    show_after: Duration,
    redraw_every: Duration,
    started: Instant,
    last_drawn: Option<Instant>,
    file_count: usize,
    files_done: usize,
    /// The inputs' total size, when every input's size is known before
    /// reading (none is for standard input, a pipe or a FIFO).
    total_bytes: Option<u64>,
    bytes_before_this_file: u64,
}

impl Progress {
    pub fn new(file_count: usize, total_bytes: Option<u64>) -> Progress {
        let terminal = std::io::stderr()
            .is_terminal()
            .then(|| Box::new(std::io::stderr()) as Box<dyn Write>);
        Progress::on(
            terminal,
            terminal_width,
            [SHOW_AFTER, REDRAW_EVERY],
            file_count,
            total_bytes,
        )
    }

    /// A line drawn on `terminal`, if any, `width` columns wide, from
    /// `show_after` on, at most once every `redraw_every`.
    fn on(
        terminal: Option<Box<dyn Write>>,
        width: fn() -> Option<usize>,
        [show_after, redraw_every]: [Duration; 2],
        file_count: usize,
        total_bytes: Option<u64>,
    ) -> Progress {
        Progress {
            terminal,
            width,
            show_after,
            redraw_every,
            started: Instant::now(),
            last_drawn: None,
            file_count,
            files_done: 0,
            total_bytes,
            bytes_before_this_file: 0,
        }
    }

    /// Whether [`at`](Progress::at) would draw the line now: the caller
    /// first puts out what it holds for the same terminal (standard output
    /// may be it), so that nothing is written after the line, on it.
    pub fn due(&self) -> bool {
        if self.terminal.is_none() {
            return false;
        }
        let now = Instant::now();
        match self.last_drawn {
            None => now.duration_since(self.started) >= self.show_after,
            Some(drawn) => now.duration_since(drawn) >= self.redraw_every,
        }
    }

    /// `done` bytes of the current file are checked: the line is drawn if
    /// it is [`due`](Progress::due).
    pub fn at(&mut self, done: u64) {
        if !self.due() {
            return;
        }
        let line = line(
            self.files_done,
            self.file_count,
            self.bytes_before_this_file + done,
            self.total_bytes,
        );
        let line = match (self.width)() {
            Some(width) => cut_to(&line, width),
            None => &line,
        };
        if let Some(terminal) = &mut self.terminal {
            let _ = write!(terminal, "\r\x1b[2K{line}").and_then(|()| terminal.flush());
        }
        self.last_drawn = Some(Instant::now());
    }

    /// The current file, `len` bytes long, is done; the line shows it when
    /// next drawn.
    pub fn file_done(&mut self, len: u64) {
        self.files_done += 1;
        self.bytes_before_this_file += len;
    }

    /// Clears the line, if one is shown, so that other output starts on a clean line.
    pub fn clear(&mut self) {
        if self.last_drawn.take().is_some()
            && let Some(terminal) = &mut self.terminal
        {
            let _ = terminal
                .write_all(b"\r\x1b[2K")
                .and_then(|()| terminal.flush());
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The progress line's text: `done` bytes checked, and of how many where
/// the total is known and not yet passed (a file that grows, or one in /proc
/// that says 0 bytes, can pass it).
fn line(files_done: usize, file_count: usize, done: u64, total: Option<u64>) -> String {
    let mut line = format!(
        "checked {files_done}/{file_count} files, {}",
        human_bytes(done)
    );
    if let Some(total) = total.filter(|&total| done <= total)
        && let Some(percent) = (done * 100).checked_div(total)
    {
        line.push_str(&format!(" of {} ({percent}%)", human_bytes(total)));
    }
    line
}

/// `line` cut to leave the last of `width` columns free: a line that wraps
/// onto a second row, or fills the row to its end (where some terminals
/// wrap at the next character), is not taken back by the `\r` of the next
/// redraw, and each redraw would leave a stale row above it. The line's
/// characters each take one column (digits, letters, units).
fn cut_to(line: &str, width: usize) -> &str {
    match line.char_indices().nth(width.saturating_sub(1)) {
        Some((end, _)) => &line[..end],
        None => line,
    }
}

/// The width of the terminal standard error is on: as the terminal says it
/// (`TIOCGWINSZ`), else as `COLUMNS` says, else unknown and the line is
/// not cut.
fn terminal_width() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: `winsize` is plain integers, for which zero is a value.
        let mut size: libc::winsize = unsafe { std::mem::zeroed() };
        // SAFETY: TIOCGWINSZ writes one `winsize` through the pointer,
        // which points at one that outlives the call.
        let asked = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) };
        if asked == 0 && size.ws_col > 0 {
            return Some(usize::from(size.ws_col));
        }
    }
    std::env::var("COLUMNS")
        .ok()?
        .trim()
        .parse()
        .ok()
        .filter(|&width| width > 0)
}

fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// What was written to it, shared by its clones: one terminal that
    /// standard output and the progress line both write to.
    #[derive(Clone, Default)]
    pub struct Screen(pub Rc<RefCell<Vec<u8>>>);

    impl Write for Screen {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Progress {
        /// A line drawn on `screen` at every chance.
        pub fn on_screen(screen: &Screen, file_count: usize, total: Option<u64>) -> Progress {
            let terminal = Box::new(screen.clone());
            Progress::on(
                Some(terminal),
                || None,
                [Duration::ZERO; 2],
                file_count,
                total,
            )
        }
    }

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
    }

    #[test]
    fn the_line_is_cut_to_leave_the_last_column_free() {
        let line = "checked 1/2 files, 61.0 KiB of 9.0 MiB (0%)";
        assert_eq!(cut_to(line, 30), "checked 1/2 files, 61.0 KiB o");
        assert_eq!(cut_to(line, 30).chars().count(), 29);
        assert_eq!(cut_to(line, line.len() + 1), line);
        assert_eq!(cut_to(line, line.len()), &line[..line.len() - 1]);
        assert_eq!(cut_to(line, 1), "");
        assert_eq!(cut_to(line, 0), "");
    }

    #[test]
    fn the_line_is_cut_by_characters_not_bytes() {
        // Two-byte characters: a cut by bytes would land inside one, or
        // keep half as many characters as there are columns.
        assert_eq!(cut_to("éééééé", 4), "ééé");
    }

    #[test]
    fn a_line_drawn_on_a_narrow_terminal_fits_on_one_row() {
        let screen = Screen::default();
        let mut progress = Progress::on(
            Some(Box::new(screen.clone())),
            || Some(20),
            [Duration::ZERO; 2],
            2,
            Some(10 << 20),
        );
        progress.at(5 << 20);
        let drawn = String::from_utf8(screen.0.borrow().clone()).unwrap();
        assert_eq!(drawn, "\r\x1b[2Kchecked 0/2 files, ");
    }

    #[test]
    fn the_line_never_says_more_bytes_than_the_total() {
        assert_eq!(
            line(0, 2, 6, Some(53)),
            "checked 0/2 files, 6 B of 53 B (11%)"
        );
        assert_eq!(
            line(1, 2, 53, Some(53)),
            "checked 1/2 files, 53 B of 53 B (100%)"
        );
        // Standard input's bytes among them, or a file that grew.
        assert_eq!(line(1, 2, 61, Some(53)), "checked 1/2 files, 61 B");
        assert_eq!(line(0, 2, 61, None), "checked 0/2 files, 61 B");
        assert_eq!(line(0, 1, 0, Some(0)), "checked 0/1 files, 0 B");
    }
}
