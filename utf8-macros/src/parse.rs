//! The macro input: `ruleset = "name"` or `abnf = "...", start = "rule"`.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};
use utf8_spec::{Derivation, ErrorKind, rulesets};

/// Where the spec comes from.
pub(crate) enum Input {
    Builtin(LitStr),
    Abnf { text: LitStr, start: LitStr },
}

impl Parse for Input {
    fn parse(stream: ParseStream<'_>) -> syn::Result<Input> {
        let mut ruleset: Option<LitStr> = None;
        let mut abnf: Option<LitStr> = None;
        let mut start: Option<LitStr> = None;
        while !stream.is_empty() {
            let key: Ident = stream.parse()?;
            stream.parse::<Token![=]>()?;
            let value: LitStr = stream.parse()?;
            let slot = match key.to_string().as_str() {
                "ruleset" => &mut ruleset,
                "abnf" => &mut abnf,
                "start" => &mut start,
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("unknown key `{other}`; expected `ruleset`, or `abnf` and `start`"),
                    ));
                }
            };
            if slot.replace(value).is_some() {
                return Err(syn::Error::new(
                    key.span(),
                    format!("`{key}` is given twice"),
                ));
            }
            if !stream.is_empty() {
                stream.parse::<Token![,]>()?;
            }
        }
        match (ruleset, abnf, start) {
            (Some(name), None, None) => Ok(Input::Builtin(name)),
            (Some(name), _, _) => Err(syn::Error::new(
                name.span(),
                "`ruleset` names a built-in spec and cannot be combined with `abnf` or `start`",
            )),
            (None, Some(text), Some(start)) => Ok(Input::Abnf { text, start }),
            (None, Some(text), None) => Err(syn::Error::new(
                text.span(),
                "`abnf` needs `start = \"rule\"`: the rule that a whole valid input matches",
            )),
            (None, None, Some(start)) => Err(syn::Error::new(
                start.span(),
                "`start` needs `abnf = \"...\"`",
            )),
            (None, None, None) => Err(syn::Error::new(
                Span::call_site(),
                "expected `ruleset = \"name\"`, or `abnf = \"...\", start = \"rule\"`",
            )),
        }
    }
}

impl Input {
    /// Runs the derivation; returns it with a label for the docs of the emitted items.
    pub(crate) fn derive(&self) -> syn::Result<(Derivation, String)> {
        match self {
            Input::Builtin(name) => {
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
                Ok((
                    derivation,
                    format!(
                        "the built-in ruleset `{}` ({})",
                        ruleset.name, ruleset.source
                    ),
                ))
            }
            Input::Abnf { text, start } => {
                let derivation = Derivation::new(&text.value(), &start.value()).map_err(|e| {
                    // A start rule that does not exist is about the `start` argument, not the text.
                    let span = match e.kind() {
                        ErrorKind::UnknownStartRule { .. } => start.span(),
                        _ => text.span(),
                    };
                    // Positions count lines of the ABNF string, not of the Rust file: say so.
                    let message = match e.snippet() {
                        Some(snippet) => format!("ABNF {e}\n{snippet}"),
                        None => e.to_string(),
                    };
                    syn::Error::new(span, message)
                })?;
                Ok((
                    derivation,
                    format!("inline ABNF, start rule `{}`", start.value()),
                ))
            }
        }
    }
}
