//! Running the derivation of a spec, with its failures as spanned errors.

use std::path::PathBuf;

use syn::LitStr;
use utf8_spec::{Derivation, Error, ErrorKind, ScalarSet, rulesets};

use crate::validate::Spec;

/// A derivation and what the emitted items need to say about it.
pub(crate) struct Derived {
    pub(crate) derivation: Derivation,
    /// Where the tables come from, in words, for the docs of the items.
    pub(crate) label: String,
    /// A file the tables depend on, which the compiler must watch.
    pub(crate) file: Option<PathBuf>,
}

impl Spec {
    pub(crate) fn derive(&self) -> syn::Result<Derived> {
        match self {
            Spec::Builtin(name) => builtin(name),
            Spec::Abnf { text, start } => {
                let derivation = Derivation::new(&text.value(), &start.value())
                    .map_err(|e| abnf_error(&e, None, text, start))?;
                Ok(Derived {
                    derivation,
                    label: format!("inline ABNF, start rule `{}`", start.value()),
                    file: None,
                })
            }
            Spec::AbnfFile { path, start } => abnf_file(path, start),
            Spec::Scalars { list, ranges } => {
                // Every item was checked where it stands; what is left is the set as a whole.
                let set = ScalarSet::new(ranges)
                    .map_err(|e| syn::Error::new(list.group.span(), e.to_string()))?;
                let derivation = set
                    .derive()
                    .map_err(|e| syn::Error::new(list.group.span(), e.to_string()))?;
                Ok(Derived {
                    derivation,
                    label: format!("the scalar ranges {set}"),
                    file: None,
                })
            }
        }
    }
}

fn builtin(name: &LitStr) -> syn::Result<Derived> {
    let Some(ruleset) = rulesets::builtin(&name.value()) else {
        let known: Vec<&str> = rulesets::BUILTIN.iter().map(|r| r.name).collect();
        return Err(syn::Error::new(
            name.span(),
            format!(
                "unknown ruleset `{}`; the built-in rulesets are {}",
                name.value(),
                known.join(", ")
            ),
        ));
    };
    let derivation = ruleset.derive().map_err(|e| {
        syn::Error::new(
            name.span(),
            format!("built-in ruleset `{}` failed to derive: {e}", ruleset.name),
        )
    })?;
    Ok(Derived {
        derivation,
        label: format!(
            "the built-in ruleset `{}` ({})",
            ruleset.name, ruleset.source
        ),
        file: None,
    })
}

fn abnf_file(path: &LitStr, start: &LitStr) -> syn::Result<Derived> {
    let written = path.value();
    // Relative to the crate being compiled, like `include_str!` from its root:
    // the macro runs with the compiler's working directory, which varies.
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").ok_or_else(|| {
        syn::Error::new(
            path.span(),
            format!("cannot find ABNF file `{written}`: CARGO_MANIFEST_DIR is not set (build with cargo)"),
        )
    })?;
    let resolved = PathBuf::from(manifest_dir).join(&written);
    let bytes = std::fs::read(&resolved).map_err(|e| {
        syn::Error::new(
            path.span(),
            format!("cannot read ABNF file {}: {e}", resolved.display()),
        )
    })?;
    let derivation = utf8_spec::abnf::text(&bytes)
        .and_then(|text| Derivation::new(text, &start.value()))
        .map_err(|e| abnf_error(&e, Some(&written), path, start))?;
    Ok(Derived {
        derivation,
        label: format!("the ABNF file `{written}`, start rule `{}`", start.value()),
        file: Some(resolved),
    })
}

/// An error of ABNF text (inline, or read from `file`), spanned at the text
/// or path (at `start` when the start rule is what is wrong), with the line
/// quoted. The positions count lines of the ABNF, not of the Rust file, which
/// the message says by naming the ABNF.
fn abnf_error(e: &Error, file: Option<&str>, text: &LitStr, start: &LitStr) -> syn::Error {
    let span = match e.kind() {
        ErrorKind::UnknownStartRule { .. } => start.span(),
        _ => text.span(),
    };
    let message = match (file, e.snippet()) {
        (None, Some(snippet)) => format!("ABNF {e}\n{snippet}"),
        (None, None) => e.to_string(),
        (Some(file), Some(snippet)) => format!("ABNF file {file}, {e}\n{snippet}"),
        (Some(file), None) => format!("ABNF file {file}: {e}"),
    };
    syn::Error::new(span, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Span;

    fn lit(text: &str) -> LitStr {
        LitStr::new(text, Span::call_site())
    }

    #[test]
    fn a_file_resolves_against_the_manifest_dir() {
        let derived = abnf_file(&lit("../tests/data/words.abnf"), &lit("text")).unwrap();
        assert!(derived.file.as_ref().is_some_and(|f| f.is_file()));
        assert_eq!(
            derived.label,
            "the ABNF file `../tests/data/words.abnf`, start rule `text`"
        );
    }

    #[test]
    fn an_error_in_a_file_names_the_file_and_quotes_the_line() {
        let path = std::env::temp_dir().join(format!("utf8-macros-{}.abnf", std::process::id()));
        std::fs::write(&path, "; a comment\ns = %x41 b\n").unwrap();
        let written = path.to_string_lossy().into_owned();
        let error = abnf_file(&lit(&written), &lit("s")).err().unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            error.to_string(),
            format!(
                "ABNF file {written}, line 2, column 10: undefined rule `b`\n2 | s = %x41 b\n  |          ^"
            )
        );
    }

    #[test]
    fn a_file_with_a_byte_that_is_not_utf8_is_an_error_at_its_line_and_column() {
        let path =
            std::env::temp_dir().join(format!("utf8-macros-{}-latin1.abnf", std::process::id()));
        std::fs::write(&path, b"; caf\xE9 in Latin-1\ns = \"caf\xE9\"\n").unwrap();
        let written = path.to_string_lossy().into_owned();
        let error = abnf_file(&lit(&written), &lit("s")).err().unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            error.to_string().lines().next(),
            Some(format!("ABNF file {written}, line 1, column 6: byte E9 is not UTF-8; ABNF is text, and names a byte as %xE9").as_str())
        );
    }
}
