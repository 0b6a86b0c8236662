//! A panic in the `parquet` crate on a malformed file, contained at the
//! file's boundary: the query fails with an error naming the file instead
//! of the panic unwinding through DataFusion's tasks (which resume it in
//! the caller's thread, taking the program down with it).
//!
//! Every call into the file's planners and morsels, and every poll of
//! their futures and streams, runs under `catch_unwind`: that is where the
//! reader parses the footer, plans its reads and decodes pages. The panic
//! hook is left as the program set it (a library does not own it), so the
//! hook still prints its message; the error carries the message too.

use std::any::Any;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};

use datafusion::common::{DataFusionError, Result};
use futures::future::BoxFuture;
use futures::stream::BoxStream;
use futures::{FutureExt, StreamExt};

/// The error a query fails with when the Parquet reader panicked on a
/// file: the file, and the panic's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReaderPanic {
    file: String,
    message: String,
}

impl ReaderPanic {
    /// The file, as its object store names it.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// What the panic said, on one line.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ReaderPanic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: the Parquet reader failed on the file: {}",
            self.file, self.message
        )
    }
}

impl std::error::Error for ReaderPanic {}

fn panicked(file: &str, payload: Box<dyn Any + Send>) -> DataFusionError {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned());
    DataFusionError::External(Box::new(ReaderPanic {
        file: file.to_owned(),
        message: message.split_whitespace().collect::<Vec<_>>().join(" "),
    }))
}

/// Runs `call`, a call into the reader for `file`; a panic becomes an error.
pub(crate) fn call<T>(file: &str, call: impl FnOnce() -> Result<T>) -> Result<T> {
    // The reader's state is dropped with the error: nothing that saw the
    // panic is used again.
    panic::catch_unwind(AssertUnwindSafe(call))
        .unwrap_or_else(|payload| Err(panicked(file, payload)))
}

/// `future`, polled so that a panic in it becomes its error.
pub(crate) fn future<T: Send + 'static>(
    file: &str,
    future: BoxFuture<'static, Result<T>>,
) -> BoxFuture<'static, Result<T>> {
    let file = file.to_owned();
    AssertUnwindSafe(future)
        .catch_unwind()
        .map(move |outcome| outcome.unwrap_or_else(|payload| Err(panicked(&file, payload))))
        .boxed()
}

/// `stream`, polled so that a panic in it becomes its last item, an error.
pub(crate) fn stream<T: Send + 'static>(
    file: &str,
    stream: BoxStream<'static, Result<T>>,
) -> BoxStream<'static, Result<T>> {
    let file = file.to_owned();
    // `catch_unwind` ends the stream after the panic's item.
    AssertUnwindSafe(stream)
        .catch_unwind()
        .map(move |item| item.unwrap_or_else(|payload| Err(panicked(&file, payload))))
        .boxed()
}
