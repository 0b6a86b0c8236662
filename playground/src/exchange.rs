//! The functions the page calls, exported from the WebAssembly module.
//!
//! They pass bytes, not pointers: the page asks for an inbox of `n` bytes
//! ([`playground_inbox`]), writes its request into the module's memory
//! there, calls one of the verbs, and reads the answer of the returned length
//! from [`playground_outbox`]. Rust code never dereferences a pointer the page
//! gives it, so this layer needs no `unsafe` block; the inbox and the outbox
//! are owned `Vec`/`String` values in one static, and the page is
//! single-threaded. Natively the same functions serve the tests, which call
//! them through [`request`] and [`answer`].

use std::sync::{Mutex, MutexGuard};

use utf8_spec::Derivation;

struct Exchange {
    inbox: Vec<u8>,
    outbox: String,
    /// The last derivation that succeeded, which `playground_step` walks.
    derivation: Option<Derivation>,
}

static EXCHANGE: Mutex<Exchange> = Mutex::new(Exchange {
    inbox: Vec::new(),
    outbox: String::new(),
    derivation: None,
});

fn exchange() -> MutexGuard<'static, Exchange> {
    // A panic while the lock was held leaves nothing half-written that
    // matters: every verb replaces the outbox whole.
    EXCHANGE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn reply(exchange: &mut Exchange, answer: String) -> usize {
    exchange.outbox = answer;
    exchange.outbox.len()
}

/// Makes the inbox `len` bytes long (zeroed) and returns where it starts in
/// the module's memory, for the page to write its request into.
// SAFETY (of the unmangled name): the `playground_` prefix keeps the exported
// symbol from clashing with any other in the module.
#[unsafe(no_mangle)]
pub extern "C" fn playground_inbox(len: usize) -> *mut u8 {
    let mut exchange = exchange();
    exchange.inbox.clear();
    exchange.inbox.resize(len, 0);
    exchange.inbox.as_mut_ptr()
}

/// Where the last answer starts in the module's memory; it stays there until
/// the next verb.
// SAFETY (of the unmangled name): as for `playground_inbox`.
#[unsafe(no_mangle)]
pub extern "C" fn playground_outbox() -> *const u8 {
    exchange().outbox.as_ptr()
}

/// Answers [`crate::rulesets()`]; returns the answer's length.
// SAFETY (of the unmangled name): as for `playground_inbox`.
#[unsafe(no_mangle)]
pub extern "C" fn playground_rulesets() -> usize {
    let mut exchange = exchange();
    reply(&mut exchange, crate::rulesets())
}

/// Derives: the inbox holds the start rule's name in its first
/// `start_len` bytes and the ABNF after it, both UTF-8. Answers
/// [`crate::derive()`]'s JSON and keeps the derivation for
/// [`playground_step`]; returns the answer's length.
// SAFETY (of the unmangled name): as for `playground_inbox`.
#[unsafe(no_mangle)]
pub extern "C" fn playground_derive(start_len: usize) -> usize {
    let mut exchange = exchange();
    let inbox = std::mem::take(&mut exchange.inbox);
    let (start, abnf) = inbox.split_at(start_len.min(inbox.len()));
    let (answer, derivation) = crate::derive(
        &String::from_utf8_lossy(abnf),
        &String::from_utf8_lossy(start),
    );
    exchange.derivation = derivation;
    reply(&mut exchange, answer)
}

/// Steps the inbox's bytes through the last successful derivation's minimal
/// DFA: [`crate::Trace::to_json`], or `null` when nothing has been derived.
/// Returns the answer's length.
// SAFETY (of the unmangled name): as for `playground_inbox`.
#[unsafe(no_mangle)]
pub extern "C" fn playground_step() -> usize {
    let mut exchange = exchange();
    let answer = match &exchange.derivation {
        Some(derivation) => crate::trace(derivation, &exchange.inbox).to_json(),
        None => "null".to_owned(),
    };
    reply(&mut exchange, answer)
}

/// Puts `bytes` in the inbox as the page does, natively.
pub fn request(bytes: &[u8]) {
    playground_inbox(bytes.len());
    exchange().inbox.copy_from_slice(bytes);
}

/// The last answer, natively.
pub fn answer() -> String {
    exchange().outbox.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exchange is one static, as in the page: the verbs run in one test,
    /// in the order a page calls them.
    #[test]
    fn a_page_session_derives_steps_and_survives_a_mistake() {
        let len = playground_rulesets();
        assert_eq!(answer().len(), len);
        let rulesets: serde_json::Value = serde_json::from_str(&answer()).unwrap();
        let rfc3629 = &rulesets[0];

        // Nothing derived yet: stepping has nothing to walk.
        request(b"\xE0\x80");
        playground_step();
        assert_eq!(answer(), "null");

        let start = rfc3629["start"].as_str().unwrap();
        let abnf = rfc3629["abnf"].as_str().unwrap();
        request(format!("{start}{abnf}").as_bytes());
        playground_derive(start.len());
        let derived: serde_json::Value = serde_json::from_str(&answer()).unwrap();
        assert_eq!(derived["counts"]["minimal"], 9);

        request(b"\xE0\x80");
        playground_step();
        let stepped: serde_json::Value = serde_json::from_str(&answer()).unwrap();
        assert_eq!(stepped["offset"], 1);

        // A bad spec answers its error and forgets the last automaton.
        request(b"textbad = %x61\n");
        playground_derive(4);
        let error: serde_json::Value = serde_json::from_str(&answer()).unwrap();
        assert_eq!(error["ok"], false);
        request(b"a");
        playground_step();
        assert_eq!(answer(), "null");

        // A start length past the inbox reads as the whole inbox being the name.
        request(b"x");
        playground_derive(99);
        let error: serde_json::Value = serde_json::from_str(&answer()).unwrap();
        assert_eq!(error["ok"], false);
    }
}
