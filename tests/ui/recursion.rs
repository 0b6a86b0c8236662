utf8_macros::dfa_tables!(
    abnf = "
nested = %x28 [ inner ] %x29
inner  = nested / %x41
",
    start = "nested"
);

fn main() {}
