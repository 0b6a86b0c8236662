utf8_macros::dfa_tables!(scalars = [0x20..=0x7E, 0x10000..=0x110000]);

fn main() {}
