utf8_macros::dfa_tables!(scalars = []);

fn main() {}
