utf8_macros::dfa_tables!(
    abnf = "
UTF8-octets = *( UTF8-char )
UTF8-char   = UTF8-1 / UTF8-2
UTF8-1      = %x00-7F
UTF8-2      = %xC2-DF UTF8-tial
UTF8-tail   = %x80-BF
",
    start = "UTF8-octets"
);

fn main() {}
