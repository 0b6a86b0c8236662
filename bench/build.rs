//! With the `emitted-c` feature: the C validators `utf8 tables --emit c`
//! writes for RFC 3629, CESU-8 and WTF-8, compiled by the system's C
//! compiler into this crate, so that `benches/emitted_c.rs` races them
//! against utf8-core in the same run. Each ruleset's emitted header is
//! included by a file of its own that exports its validators under the
//! ruleset's name: `utf8_validate_simd` (AVX2 on x86-64, NEON on AArch64),
//! `utf8_validate` (the shift DFA) and `utf8_accepts` (a byte at a time).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "emitted-c")]
    emitted::build();
}

#[cfg(feature = "emitted-c")]
mod emitted {
    use std::path::PathBuf;

    use utf8_spec::explain::{Emit, emit};
    use utf8_spec::rulesets::BUILTIN;

    const RULESETS: [&str; 3] = ["rfc3629", "cesu8", "wtf8"];

    pub fn build() {
        let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
        let x86_64 = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "x86_64");
        let mut vector = cc::Build::new();
        let mut scalar = cc::Build::new();
        for name in RULESETS {
            let ruleset = BUILTIN
                .iter()
                .find(|ruleset| ruleset.name == name)
                .expect("a built-in ruleset");
            let derivation = ruleset.derive().expect("a built-in derives");
            let header = out.join(format!("{name}.h"));
            std::fs::write(&header, emit(derivation.tables(), Emit::C)).expect("the header");
            for (vectorised, suffix, body) in [
                (
                    true,
                    "simd",
                    "struct utf8_result r; return utf8_validate_simd(p, n, &r);",
                ),
                (
                    false,
                    "shift",
                    "struct utf8_result r; return utf8_validate(p, n, &r);",
                ),
                (false, "accepts", "return utf8_accepts(p, n);"),
            ] {
                let source = out.join(format!("{name}_{suffix}.c"));
                std::fs::write(
                    &source,
                    format!(
                        "#include \"{name}.h\"\n\
                         bool emitted_{name}_{suffix}(const uint8_t *p, size_t n);\n\
                         bool emitted_{name}_{suffix}(const uint8_t *p, size_t n) {{ {body} }}\n"
                    ),
                )
                .expect("the source");
                if vectorised {
                    vector.file(source);
                } else {
                    scalar.file(source);
                }
            }
        }
        for build in [&mut vector, &mut scalar] {
            build
                .include(&out)
                .flag_if_supported("-std=c99")
                .opt_level(3);
        }
        if x86_64 {
            vector.flag("-mavx2");
        }
        scalar.define("UTF8_NO_VECTOR", None);
        vector.compile("emitted_vector");
        scalar.compile("emitted_scalar");
    }
}
