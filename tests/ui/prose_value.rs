utf8_macros::dfa_tables!(
    abnf = "
char = %x00-7F / <any Unicode scalar value>
",
    start = "char"
);

fn main() {}
