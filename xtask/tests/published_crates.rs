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
            "utf8-arrow"
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
