utf8_macros::dfa_tables!(scalars = [0x20..=0x7E], start = "scalars");

fn main() {}
