utf8_macros::dfa_tables!(
    abnf = "
tail = %xBF-80
",
    start = "tail"
);

fn main() {}
