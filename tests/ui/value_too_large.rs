utf8_macros::dfa_tables!(
    abnf = "
char = %x00-7F / %x80-7FF
",
    start = "char"
);

fn main() {}
