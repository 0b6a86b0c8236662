//! From the written `key = value` pairs to one spec: which keys exist, which
//! combine, what each value must be, and whether scalar items are scalars.

use proc_macro2::Span;
use quote::ToTokens;
use utf8_spec::ErrorKind;
use utf8_spec::scalars::MAX_SCALAR;

use crate::parse::{Arg, Args, Item, ItemSyntax, List, Value};
use syn::{Ident, Lit, LitStr};

/// Where the spec comes from, every value checked for what it must be.
pub(crate) enum Spec {
    Builtin(LitStr),
    Abnf { text: LitStr, start: LitStr },
    AbnfFile { path: LitStr, start: LitStr },
    Scalars { list: List, ranges: Vec<(u32, u32)> },
}

/// The keys that each give a whole spec, with what giving it means.
const SOURCES: [(&str, &str); 4] = [
    ("ruleset", "names a built-in spec"),
    ("abnf", "gives the spec as ABNF text"),
    ("abnf_file", "reads the spec from an ABNF file"),
    ("scalars", "gives the spec as Unicode scalar values"),
];

const EXPECTED: &str = "expected `ruleset = \"name\"`, `abnf = \"...\", start = \"rule\"`, `abnf_file = \"path\", start = \"rule\"` or `scalars = [...]`";

impl Spec {
    pub(crate) fn new(args: Args) -> syn::Result<Spec> {
        let mut source: Option<Arg> = None;
        let mut start: Option<Arg> = None;
        let mut seen: Vec<Ident> = Vec::new();
        for arg in args.args {
            let key = arg.key.to_string();
            if seen.iter().any(|k| *k == key) {
                return Err(syn::Error::new(
                    arg.key.span(),
                    format!("`{key}` is given twice"),
                ));
            }
            seen.push(arg.key.clone());
            if key == "start" {
                start = Some(arg);
                continue;
            }
            if !SOURCES.iter().any(|&(name, _)| name == key) {
                return Err(syn::Error::new(
                    arg.key.span(),
                    format!(
                        "unknown key `{key}`; expected `ruleset`, `abnf` or `abnf_file` with `start`, or `scalars`"
                    ),
                ));
            }
            if let Some(first) = &source {
                return Err(cannot_combine(&first.key, &arg.key));
            }
            source = Some(arg);
        }
        let Some(source) = source else {
            return Err(match start {
                Some(start) => syn::Error::new_spanned(
                    start.value.tokens(),
                    "`start` needs `abnf = \"...\"` or `abnf_file = \"path\"`",
                ),
                None => syn::Error::new(Span::call_site(), EXPECTED),
            });
        };
        let key = source.key.to_string();
        let start_text = start.as_ref().map(string).transpose()?;
        Ok(match (key.as_str(), start_text) {
            ("ruleset", None) => Spec::Builtin(string(&source)?),
            ("scalars", None) => {
                let Value::List(list) = source.value else {
                    return Err(syn::Error::new_spanned(
                        source.value.tokens(),
                        "`scalars` takes a bracketed list of scalar values, such as `[0x9, 0x20..=0xD7FF]`",
                    ));
                };
                let ranges = scalar_ranges(&list)?;
                Spec::Scalars { list, ranges }
            }
            ("abnf", Some(start)) => Spec::Abnf {
                text: string(&source)?,
                start,
            },
            ("abnf_file", Some(start)) => Spec::AbnfFile {
                path: string(&source)?,
                start,
            },
            (_, Some(_)) => {
                let start = start.expect("a start text comes from a start key");
                return Err(cannot_combine(&source.key, &start.key));
            }
            (_, None) => {
                return Err(syn::Error::new_spanned(
                    source.value.tokens(),
                    format!(
                        "`{key}` needs `start = \"rule\"`: the rule that a whole valid input matches"
                    ),
                ));
            }
        })
    }
}

fn cannot_combine(first: &Ident, second: &Ident) -> syn::Error {
    let what = SOURCES
        .iter()
        .find(|&&(name, _)| *first == name)
        .map_or("gives the spec", |&(_, what)| what);
    syn::Error::new(
        second.span(),
        format!("`{first}` {what} and cannot be combined with `{second}`"),
    )
}

fn string(arg: &Arg) -> syn::Result<LitStr> {
    match &arg.value {
        // Rebuilt rather than cloned: syn is built without its `clone-impls`.
        Value::Str(text) => Ok(LitStr::new(&text.value(), text.span())),
        Value::List(list) => Err(syn::Error::new(
            list.group.span(),
            format!("`{}` takes a string literal", arg.key),
        )),
    }
}

/// The inclusive ranges of the list's items, each checked where it stands.
fn scalar_ranges(list: &List) -> syn::Result<Vec<(u32, u32)>> {
    if list.items.is_empty() {
        return Err(syn::Error::new(
            list.group.span(),
            "`scalars` lists no scalar values; give at least one, such as `[0x20..=0x7E]`",
        ));
    }
    list.items.iter().map(scalar_range).collect()
}

fn scalar_range(item: &Item) -> syn::Result<(u32, u32)> {
    let at_item = |message: String| syn::Error::new_spanned(&item.tokens, message);
    match &item.syntax {
        ItemSyntax::Single(value) => {
            let value = scalar(value)?;
            Ok((value, value))
        }
        ItemSyntax::Inclusive(start_lit, end_lit) => {
            let (start, end) = (scalar(start_lit)?, scalar(end_lit)?);
            if end < start {
                return Err(at_item(format!(
                    "`{}..={}`: {}",
                    start_lit.to_token_stream(),
                    end_lit.to_token_stream(),
                    ErrorKind::ReversedScalarRange { start, end }
                )));
            }
            Ok((start, end))
        }
        ItemSyntax::HalfOpen(start, end) => Err(at_item(format!(
            "write ranges of scalars with `..=`: `{}..{}` is half-open and leaves out its end",
            start.to_token_stream(),
            end.to_token_stream(),
        ))),
        ItemSyntax::Other => Err(at_item(
            "expected an integer or char literal (`0x20`, `'a'`), or an inclusive range of them (`0x20..=0x7E`)"
                .to_owned(),
        )),
    }
}

fn scalar(literal: &Lit) -> syn::Result<u32> {
    let value = match literal {
        Lit::Char(c) => u32::from(c.value()),
        Lit::Int(int) => int.base10_parse::<u32>().map_err(|_| {
            syn::Error::new(
                int.span(),
                format!("`{int}` is not a scalar value: scalars run from 0 to 0x10FFFF"),
            )
        })?,
        _ => {
            return Err(syn::Error::new_spanned(
                literal,
                "expected an integer or char literal, such as `0x20` or `'a'`",
            ));
        }
    };
    if value > MAX_SCALAR {
        return Err(syn::Error::new_spanned(
            literal,
            ErrorKind::ScalarTooLarge { value }.to_string(),
        ));
    }
    Ok(value)
}
