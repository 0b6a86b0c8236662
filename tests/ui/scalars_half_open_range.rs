utf8_macros::dfa_tables!(scalars = [0x9, 0x20..0x7F]);

fn main() {}
