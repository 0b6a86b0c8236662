utf8_macros::dfa_tables!(
    abnf = "
nothing = 0( %x41 )
",
    start = "nothing"
);

fn main() {}
