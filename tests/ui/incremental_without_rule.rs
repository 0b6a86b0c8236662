utf8_macros::dfa_tables!(
    abnf = "
text  = *glyph
glyph =/ %x00-7F
",
    start = "text"
);

fn main() {}
