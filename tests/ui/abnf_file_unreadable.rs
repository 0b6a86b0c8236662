// An absolute path, so that the message names the same file wherever the
// test crate is built.
utf8_macros::dfa_tables!(abnf_file = "/nonexistent/grammar.abnf", start = "text");

fn main() {}
