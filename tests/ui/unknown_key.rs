utf8_macros::dfa_tables!(grammar = "s = %x41\n", start = "s");

fn main() {}
