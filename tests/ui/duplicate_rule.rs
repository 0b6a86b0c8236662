utf8_macros::dfa_tables!(
    abnf = "
text = *char
char = %x00-7F
CHAR = %xC2-DF %x80-BF
",
    start = "text"
);

fn main() {}
