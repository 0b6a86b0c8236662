const TAB: u32 = 0x9;

utf8_macros::dfa_tables!(scalars = [TAB, 0x20..=0x7E]);

fn main() {}
