// 255 `A`s need 256 live states and a dead one: one more than a table holds.
utf8_macros::dfa_tables!(abnf = "a = 255%x41\n", start = "a");

fn main() {}
