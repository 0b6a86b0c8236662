//! The valid corpus files the benchmarks read (`data/corpus/**/*.utf8.txt`).

use std::path::{Path, PathBuf};

/// Every valid corpus file, in a fixed order.
pub fn valid_files() -> Vec<PathBuf> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/corpus");
    let mut files = vec![];
    for dir in std::fs::read_dir(corpus).expect("data/corpus") {
        for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.to_string_lossy().ends_with(".utf8.txt") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
