utf8_macros::dfa_tables!(abnf = "s = %x41\n", abnf = "t = %x42\n", start = "s");

fn main() {}
