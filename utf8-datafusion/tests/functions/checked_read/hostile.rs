//! The corrupt Parquet files of the command's tests
//! (`utf8-cli/tests/data/hostile/`), each made by hand to break one of the
//! `parquet` crate's assumptions, read through the checked read: an error
//! naming the file, never a panic, and never a read that does not end.

use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::Duration;

use datafusion::common::DataFusionError;
use datafusion::prelude::ParquetReadOptions;
use utf8_datafusion::parquet::{CheckedParquetOptions, ReaderPanic, register_checked_parquet};

use super::{TempDir, query, session};

const HOSTILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../utf8-cli/tests/data/hostile"
);

/// Longer than any of these files takes (a few milliseconds each), short
/// enough that a read looping on one fails the test rather than CI.
const PATIENCE: Duration = Duration::from_secs(10);

/// Files on which DataFusion's own read (the `parquet` crate's reader)
/// loops past `PATIENCE`: a page header whose Thrift binary length runs
/// 2 GiB past the file (skipped a failed read at a time, about an hour),
/// and a footer field that is a list of 2^31 - 1 booleans (skipped one at
/// a time). Only the checked read, which walks footers and pages before the
/// reader sees them, is run on them: DataFusion's would go on spinning on
/// a core after the test gives up on it.
const OWN_READ_LOOPS: &[&str] = &[
    "page-header-binary-past-the-file.parquet",
    "footer-list-of-booleans.parquet",
];

fn hostile_files() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(HOSTILE)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "parquet"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "the hostile files are missing: {files:?}"
    );
    files
}

/// The `ReaderPanic` a query failed with, wherever DataFusion wrapped it.
fn reader_panic(error: &DataFusionError) -> Option<ReaderPanic> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if let Some(found) = e.downcast_ref::<ReaderPanic>() {
            return Some(found.clone());
        }
        source = match e.downcast_ref::<DataFusionError>() {
            Some(DataFusionError::External(inner)) => Some(inner.as_ref()),
            Some(DataFusionError::Context(_, inner)) => Some(inner.as_ref()),
            _ => e.source(),
        };
    }
    None
}

/// `read` run to its end on a thread of its own: `None` if it does not
/// end in time (the thread is left behind), else whether it panicked.
fn within_patience<T: Send + 'static>(
    read: impl Future<Output = T> + Send + 'static,
) -> Option<std::thread::Result<T>> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| runtime.block_on(read)));
        let _ = sender.send(outcome);
    });
    receiver.recv_timeout(PATIENCE).ok()
}

/// Every hostile file fails the checked read with an error (or, where the
/// defect is one the reader does not see, is read); none panics or hangs.
/// Where DataFusion's own read of the file panics or loops, the checked
/// read fails naming the file: refused by the walks before the reader sees
/// the file, or the reader's panic, contained.
#[test]
fn no_corrupt_file_makes_the_checked_read_panic_or_hang() {
    let (mut refused, mut contained) = (Vec::new(), Vec::new());
    for (name, bytes) in hostile_files() {
        let dir = TempDir::new();
        std::fs::write(dir.path().join(&name), &bytes).unwrap();
        let own_loops = OWN_READ_LOOPS.contains(&name.as_str());
        let own_panics = !own_loops && {
            let url = dir.url();
            let own = within_patience(async move {
                let ctx = session(true);
                ctx.register_parquet("t", &url, ParquetReadOptions::default())
                    .await?;
                query(&ctx, "SELECT * FROM t").await.map(drop)
            });
            matches!(own, Some(Err(_)))
        };
        let url = dir.url();
        let outcome = within_patience(async move {
            let ctx = session(true);
            register_checked_parquet(&ctx, "t", &url, CheckedParquetOptions::new()).await?;
            query(&ctx, "SELECT * FROM t").await.map(drop)
        })
        .unwrap_or_else(|| panic!("{name}: the checked read did not end"))
        .unwrap_or_else(|_| panic!("{name}: the checked read panicked"));
        if let Err(error) = &outcome {
            let message = error.to_string();
            let named = message.contains(&name) || message.contains(&dir.url());
            assert!(named, "{name}: {error}");
        }
        if own_panics || own_loops {
            let error = outcome.expect_err(&name);
            match reader_panic(&error) {
                Some(panic) => {
                    assert!(!own_loops, "{name}: the walks let it through: {panic}");
                    assert!(panic.file().ends_with(&name), "{name}: {panic}");
                    assert!(!panic.message().contains('\n'), "{name}: {panic}");
                    contained.push(name);
                }
                None => {
                    assert!(
                        error.to_string().contains("a malformed Parquet file"),
                        "{name}: neither the walks' error nor the reader's panic: {error}"
                    );
                    refused.push(name);
                }
            }
        }
    }
    for name in OWN_READ_LOOPS {
        assert!(refused.iter().any(|refused| refused == name), "{name}");
    }
    // The one file whose pages are as they declare but whose values make
    // the reader panic: what holds the containment to its word.
    let contained_panic = "delta-lengths-varint-too-long.parquet";
    assert!(
        contained.iter().any(|name| name == contained_panic),
        "{contained:?}"
    );
    eprintln!("refused by the walks: {refused:?}; contained: {contained:?}");
}
