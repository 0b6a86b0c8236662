utf8_macros::dfa_tables!(scalars = [0xD800..=0xDBFF, 0xDC00..=0xDFFF]);

fn main() {}
