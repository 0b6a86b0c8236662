//! The derived tables as `const` items.

use proc_macro2::TokenStream;
use quote::quote;
use utf8_spec::Derivation;

pub(crate) fn tables(derivation: &Derivation, label: &str) -> TokenStream {
    let tables = derivation.tables();
    let state_count = tables.state_count();
    let class_count = tables.class_count();
    let start = tables.start();
    let dead = tables.dead();
    let accepting = tables.accepting();
    let byte_classes = tables.byte_classes().iter();
    let transitions = tables.transitions().iter();
    let start_rule = derivation.start_rule();

    let class_docs: Vec<String> = (0..class_count as u8)
        .map(|class| {
            let ranges: Vec<String> = tables
                .classes()
                .ranges(class)
                .iter()
                .map(ToString::to_string)
                .collect();
            format!("- class {class}: `{}`", ranges.join(" / "))
        })
        .collect();
    let class_doc = format!(
        "Byte → class, derived from {label}: the coarsest partition under which every state treats the bytes of a class alike.\n\n{}",
        class_docs.join("\n")
    );
    let transitions_doc = format!(
        "State × class → state, derived from {label}: the state after reading a byte of class `c` in state `s` is `TRANSITIONS[s * CLASS_COUNT + c]`.\n\n```text\n{}```",
        grid(derivation)
    );
    let accepting_doc = format!(
        "Whether each state accepts (the input read so far is in the language); accepting states: {:?}.",
        tables.accepting_states()
    );

    quote! {
        #[doc = "Number of states of the minimal automaton, the dead state included."]
        pub const STATE_COUNT: usize = #state_count;
        #[doc = "Number of byte classes."]
        pub const CLASS_COUNT: usize = #class_count;
        #[doc = "The start state."]
        pub const START_STATE: u8 = #start;
        #[doc = "The dead state: every byte leads back to it and it does not accept."]
        pub const DEAD_STATE: u8 = #dead;
        #[doc = #accepting_doc]
        pub const ACCEPTING: [bool; #state_count] = [#(#accepting),*];
        #[doc = #class_doc]
        pub const BYTE_CLASSES: [u8; 256] = [#(#byte_classes),*];
        #[doc = #transitions_doc]
        pub const TRANSITIONS: [u8; #state_count * #class_count] = [#(#transitions),*];
        #[doc = "The ABNF rule the tables were derived from."]
        pub const START_RULE: &str = #start_rule;
    }
}

/// The transition grid as text, for the docs of `TRANSITIONS`.
fn grid(derivation: &Derivation) -> String {
    let tables = derivation.tables();
    let mut out = String::from("state |");
    for class in 0..tables.class_count() {
        out.push_str(&format!(" {class:>3}"));
    }
    out.push('\n');
    for state in 0..tables.state_count() {
        let mark = if tables.accepting()[state] { '*' } else { ' ' };
        out.push_str(&format!("{state:>4}{mark} |"));
        for class in 0..tables.class_count() {
            out.push_str(&format!(
                " {:>3}",
                tables.transitions()[state * tables.class_count() + class]
            ));
        }
        out.push('\n');
    }
    out
}
