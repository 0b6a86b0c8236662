utf8_macros::dfa_tables!(abnf = "s = *%x41\n");

fn main() {}
