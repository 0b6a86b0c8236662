//! A panic in the parquet crate on a malformed file, contained at the
//! file's boundary: the file is reported as unreadable in one line, with
//! the panic's message and place, and the next input is checked.
//!
//! The checks before the reader (the footer's and the pages' walks) refuse
//! the malformed files known to make it panic; this is for the ones not
//! yet known. The panic hook stays silent for a contained panic, so that
//! its message is said once, in the report's one line.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Whether a panic on this thread is contained by [`contained`].
    static CONTAINING: Cell<bool> = const { Cell::new(false) };
    /// The last contained panic's message and place.
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `read`, a read of a Parquet file; a panic in it becomes an error.
pub fn contained<T>(read: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if CONTAINING.with(Cell::get) {
                let place = info
                    .location()
                    .map(|at| format!(" ({}:{})", crate_relative(at.file()), at.line()))
                    .unwrap_or_default();
                let message = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic without a message".to_owned());
                CAUGHT.with(|caught| *caught.borrow_mut() = Some(format!("{message}{place}")));
            } else {
                previous(info);
            }
        }));
    });
    let was = CONTAINING.with(|containing| containing.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(read));
    CONTAINING.with(|containing| containing.set(was));
    result.unwrap_or_else(|_| {
        let caught = CAUGHT.with(|caught| caught.borrow_mut().take());
        Err(format!(
            "the Parquet reader failed on it: {}",
            one_line(&caught.unwrap_or_else(|| "a panic".to_owned()))
        ))
    })
}

/// A source file's path from its crate's folder on (`parquet-60.1.0/src/…`),
/// not from the registry's, which says nothing to the reader.
fn crate_relative(path: &str) -> &str {
    path.rsplit_once("/registry/src/")
        .and_then(|(_, rest)| rest.split_once('/'))
        .map_or(path, |(_, in_crate)| in_crate)
}

/// `text` on one line: a message with line breaks would break the report's
/// one line per unreadable input.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_with_its_message_on_one_line() {
        let error = contained::<()>(|| panic!("offsets\nnegative")).unwrap_err();
        assert!(
            error.starts_with("the Parquet reader failed on it: offsets negative ("),
            "{error}"
        );
        assert!(error.contains("contain.rs:"), "{error}");
    }

    #[test]
    fn an_answer_passes_through() {
        assert_eq!(contained(|| Ok::<_, String>(7)), Ok(7));
        assert_eq!(
            contained::<()>(|| Err("no".to_owned())),
            Err("no".to_owned())
        );
    }
}
