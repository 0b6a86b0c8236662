utf8_macros::dfa_tables!(ruleset = "rfc9999");

fn main() {}
