// An empty file that every Unix system has; the ABNF error is about the file.
utf8_macros::dfa_tables!(abnf_file = "/dev/null", start = "text");

fn main() {}
