//! A one-line progress report on standard error, for runs long enough to
//! want one, and only when standard error is a terminal.

use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

/// A run that ends sooner than this never shows the line, so quick checks
/// leave the terminal as they found it.
const SHOW_AFTER: Duration = Duration::from_millis(300);
/// How often the line is redrawn at most.
const REDRAW_EVERY: Duration = Duration::from_millis(100);

pub struct Progress {
    enabled: bool,
    started: Instant,
    last_drawn: Option<Instant>,
    file_count: usize,
    files_done: usize,
    /// The sizes of the regular files among the inputs, known before reading.
    total_bytes: u64,
    bytes_before_this_file: u64,
}

impl Progress {
    pub fn new(file_count: usize, total_bytes: u64) -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            started: Instant::now(),
            last_drawn: None,
            file_count,
            files_done: 0,
            total_bytes,
            bytes_before_this_file: 0,
        }
    }

    /// `done` bytes of the current file are checked.
    pub fn at(&mut self, done: u64) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let due = match self.last_drawn {
            None => now.duration_since(self.started) >= SHOW_AFTER,
            Some(drawn) => now.duration_since(drawn) >= REDRAW_EVERY,
        };
        if due {
            self.draw(self.bytes_before_this_file + done);
            self.last_drawn = Some(now);
        }
    }

    /// The current file, `len` bytes long, is done.
    pub fn file_done(&mut self, len: u64) {
        self.files_done += 1;
        self.bytes_before_this_file += len;
        self.at(0);
    }

    /// Clears the line, if one is shown, so that other output starts on a clean line.
    pub fn clear(&mut self) {
        if self.last_drawn.take().is_some() {
            eprint!("\r\x1b[2K");
        }
    }

    fn draw(&self, done: u64) {
        // The report lines on standard output must be on screen before the
        // progress line is drawn below them.
        let _ = std::io::stdout().flush();
        let mut line = format!(
            "checked {}/{} files, {}",
            self.files_done,
            self.file_count,
            human_bytes(done)
        );
        if let Some(percent) = (done.min(self.total_bytes) * 100).checked_div(self.total_bytes) {
            line.push_str(&format!(
                " of {} ({percent}%)",
                human_bytes(self.total_bytes)
            ));
        }
        eprint!("\r\x1b[2K{line}");
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
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
mod tests {
    use super::human_bytes;

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
    }
}
