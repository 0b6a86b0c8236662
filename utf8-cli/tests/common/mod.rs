//! Scratch files for the command's end-to-end tests.

// Each test crate compiles its own copy and uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// Writes `contents` at `name` under `directory`, making the directories
/// `name` names.
pub fn write(directory: &Path, name: &str, contents: &[u8]) -> PathBuf {
    let path = directory.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("make the scratch directories");
    }
    std::fs::write(&path, contents).expect("write a scratch file");
    path
}

pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}
