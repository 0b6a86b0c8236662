utf8_macros::dfa_tables!();

fn main() {}
