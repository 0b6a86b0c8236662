utf8_macros::dfa_tables!(
    abnf = "
UTF8-octets = *( UTF8-char )
UTF8-char   = %x00-7F
",
    start = "UTF8-string"
);

fn main() {}
