//! What each crate that goes to crates.io carries with it: the package holds
//! only the crate's own directory, so the licences and a README must sit in
//! it, the licences the root's word for word.

use std::fs;
use std::path::Path;

use xtask::workspace_root;

/// The workspace members whose manifests do not say `publish = false`.
fn published_crates(root: &Path) -> Vec<String> {
    let manifest = fs::read_to_string(root.join("Cargo.toml")).expect("the root manifest");
    let members = manifest
        .lines()
        .find_map(|line| line.trim().strip_prefix("members = ["))
        .expect("the root manifest lists its members on one line");
    members
        .trim_end_matches(']')
        .split(',')
        .map(|member| member.trim().trim_matches('"').to_string())
        .filter(|member| !member.is_empty())
        .filter(|member| {
            let manifest = fs::read_to_string(root.join(member).join("Cargo.toml"))
                .unwrap_or_else(|e| panic!("{member}/Cargo.toml: {e}"));
            !manifest
                .lines()
                .any(|line| line.trim() == "publish = false")
        })
        .collect()
}

#[test]
fn the_library_command_and_integration_crates_are_the_published_ones() {
    assert_eq!(
        published_crates(&workspace_root()),
        [
            "utf8-spec",
            "utf8-macros",
            "utf8-core",
            "utf8-cli",
            "utf8-arrow",
            "utf8-parquet",
            "utf8-datafusion"
        ]
    );
}

#[test]
fn every_published_crate_carries_the_root_licences_unchanged() {
    let root = workspace_root();
    for license in ["LICENSE-MIT", "LICENSE-APACHE"] {
        let original = fs::read(root.join(license)).expect("the root licence");
        for krate in published_crates(&root) {
            let copy = fs::read(root.join(&krate).join(license))
                .unwrap_or_else(|e| panic!("{krate}/{license}: {e}"));
            assert!(
                copy == original,
                "{krate}/{license} differs from the root's; copy it again: cp {license} {krate}/"
            );
        }
    }
}

#[test]
fn every_published_crate_has_a_readme_that_its_manifest_names() {
    let root = workspace_root();
    for krate in published_crates(&root) {
        let dir = root.join(&krate);
        assert!(
            dir.join("README.md").is_file(),
            "{krate}/README.md is missing"
        );
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).expect("the crate's manifest");
        assert!(
            manifest
                .lines()
                .any(|line| line.trim() == r#"readme = "README.md""#),
            "{krate}/Cargo.toml does not name its README"
        );
    }
}

/// The crates `.ci/run` checks with the declared MSRV: the `-p` arguments
/// of its first `cargo "+$msrv" check` command.
fn msrv_checked_crates(root: &Path) -> Vec<String> {
    let ci = fs::read_to_string(root.join(".ci/run")).expect(".ci/run");
    let start = ci
        .find(r#"cargo "+$msrv" check --locked"#)
        .expect(".ci/run checks the MSRV");
    let command = &ci[start..ci[start..].find("--all-features").expect("one command") + start];
    command
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|pair| pair[0] == "-p")
        .map(|pair| pair[1].to_string())
        .collect()
}

#[test]
fn ci_checks_every_published_crate_that_keeps_the_workspace_msrv_with_it() {
    let root = workspace_root();
    let keeps_msrv = |krate: &String| {
        let manifest = fs::read_to_string(root.join(krate).join("Cargo.toml")).expect("manifest");
        let own = manifest
            .lines()
            .find(|l| l.trim().starts_with("rust-version"));
        match own.map(str::trim) {
            Some("rust-version.workspace = true") => true,
            Some(_) => false,
            None => panic!("{krate}/Cargo.toml declares no rust-version"),
        }
    };
    let (workspace_msrv, own_msrv): (Vec<String>, Vec<String>) =
        published_crates(&root).into_iter().partition(keeps_msrv);
    assert_eq!(msrv_checked_crates(&root), workspace_msrv);
    // DataFusion needs a newer Rust than the workspace's MSRV.
    assert_eq!(own_msrv, ["utf8-datafusion"]);
}
