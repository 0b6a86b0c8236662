utf8_macros::dfa_tables!(
    abnf = "
UTF8-octets = *( UTF8-char )
UTF8-char   = %x00-7F / %xC2-DF%x80-BF
",
    start = "UTF8-octets"
);

fn main() {}
