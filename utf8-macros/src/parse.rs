//! The syntax of the macro input: `key = value` pairs separated by commas,
//! where a value is a string literal or a bracketed list of scalar items.
//!
//! Nothing here knows which keys exist or how they combine; `validate.rs`
//! does. Keeping the syntax loose lets the checks that follow point at the
//! exact item that is wrong with a message about what it means.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream, Parser};
use syn::{Ident, Lit, LitStr, Token};

/// The whole input, in the order written.
pub(crate) struct Args {
    pub(crate) args: Vec<Arg>,
}

/// One `key = value`.
pub(crate) struct Arg {
    pub(crate) key: Ident,
    pub(crate) value: Value,
}

pub(crate) enum Value {
    Str(LitStr),
    List(List),
}

impl Value {
    /// The value's tokens, for errors about the value as a whole.
    pub(crate) fn tokens(&self) -> TokenStream {
        match self {
            Value::Str(text) => text.to_token_stream(),
            Value::List(list) => TokenTree::Group(list.group.clone()).into(),
        }
    }
}

/// `[item, item, ...]`.
pub(crate) struct List {
    pub(crate) group: Group,
    pub(crate) items: Vec<Item>,
}

/// One comma-separated entry of a list.
pub(crate) struct Item {
    /// The entry as written, so that errors can cover all of it.
    pub(crate) tokens: TokenStream,
    pub(crate) syntax: ItemSyntax,
}

pub(crate) enum ItemSyntax {
    /// `0x41` or `'A'`.
    Single(Lit),
    /// `start..=end`.
    Inclusive(Lit, Lit),
    /// `start..end`, which a set of scalars has no use for.
    HalfOpen(Lit, Lit),
    /// Anything else: a path, a call, arithmetic, a range without an end.
    Other,
}

impl Parse for Args {
    fn parse(stream: ParseStream<'_>) -> syn::Result<Args> {
        let mut args = Vec::new();
        while !stream.is_empty() {
            let key: Ident = stream.parse()?;
            stream.parse::<Token![=]>()?;
            let value = if stream.peek(syn::token::Bracket) {
                let group: Group = stream.parse()?;
                Value::List(list(group))
            } else if stream.peek(LitStr) {
                Value::Str(stream.parse()?)
            } else {
                return Err(
                    stream.error("expected a string literal, or a bracketed list for `scalars`")
                );
            };
            args.push(Arg { key, value });
            if !stream.is_empty() {
                stream.parse::<Token![,]>()?;
            }
        }
        Ok(Args { args })
    }
}

fn list(group: Group) -> List {
    debug_assert_eq!(group.delimiter(), Delimiter::Bracket);
    let mut items = Vec::new();
    let mut current = TokenStream::new();
    // Groups arrive as one token each, so only a top-level comma ends an item.
    for token in group.stream() {
        match &token {
            // A stray comma stands for the item missing before it, so that
            // the error has somewhere to point.
            TokenTree::Punct(p) if p.as_char() == ',' && current.is_empty() => {
                items.push(Item {
                    tokens: token.into(),
                    syntax: ItemSyntax::Other,
                });
            }
            TokenTree::Punct(p) if p.as_char() == ',' => {
                items.push(item(std::mem::take(&mut current)));
            }
            _ => current.extend([token]),
        }
    }
    if !current.is_empty() {
        items.push(item(current));
    }
    List { group, items }
}

fn item(tokens: TokenStream) -> Item {
    let syntax = (|input: ParseStream<'_>| {
        let start: Lit = input.parse()?;
        let syntax = if input.peek(Token![..=]) {
            input.parse::<Token![..=]>()?;
            ItemSyntax::Inclusive(start, input.parse()?)
        } else if input.peek(Token![..]) {
            input.parse::<Token![..]>()?;
            ItemSyntax::HalfOpen(start, input.parse()?)
        } else {
            ItemSyntax::Single(start)
        };
        Ok(syntax)
    })
    .parse2(tokens.clone())
    .unwrap_or(ItemSyntax::Other);
    Item { tokens, syntax }
}
