utf8_macros::dfa_tables!(
    abnf = "
text  = *char
char =/ %x00-7F
",
    start = "text"
);

fn main() {}
