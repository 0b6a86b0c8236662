utf8_macros::dfa_tables!(abnf_file = "data/words.abnf");

fn main() {}
