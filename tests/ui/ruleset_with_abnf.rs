utf8_macros::dfa_tables!(ruleset = "rfc3629", abnf = "s = %x41\n");

fn main() {}
