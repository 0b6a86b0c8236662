//! Sets `cfg(fuzzing_asan)` when the targets are built with
//! AddressSanitizer (`cargo fuzz run`'s default sanitizer), so that they
//! poison memory through its interface, which only a sanitized build links.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(fuzzing_asan)");
    // cargo-fuzz passes the sanitizer in RUSTFLAGS; Cargo hands the build
    // script the flags for the targets, whichever way they were given.
    println!("cargo::rerun-if-env-changed=RUSTFLAGS");
    println!("cargo::rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    // -Csanitizer is the spelling cargo-fuzz switches to once rustc
    // stabilizes sanitizers.
    let asan = flags
        .split('\x1f')
        .any(|flag| matches!(flag, "-Zsanitizer=address" | "-Csanitizer=address"));
    if asan {
        println!("cargo::rustc-cfg=fuzzing_asan");
    }
}
