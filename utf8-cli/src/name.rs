//! How reports name an input: as text for a person, and for a program in a
//! form that finds the file again whatever bytes its name holds.
//!
//! On Unix a file name is bytes, not text: `display()` shows a name that is
//! not UTF-8 with U+FFFD in place of the bytes that are not, and a script
//! cannot open a file by that. So JSON names such a file as ripgrep does,
//! `{"bytes": BASE64}`, the name's raw bytes; and `-l` writes the raw bytes,
//! as `grep -l` does, for `xargs` and the shell to use as they are.

use serde_json::Value;

use crate::input::Source;

/// The names of one input, made once for all its reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// For people: the path as `display()` shows it, or `<stdin>`.
    pub text: String,
    /// For JSON: the path as a string if it is UTF-8, else `{"bytes": …}`.
    pub json: Value,
    /// For `-l`: the path's bytes as the file system has them.
    pub raw: Vec<u8>,
}

impl Name {
    pub fn of(source: &Source) -> Name {
        let text = source.name();
        let Source::File(path) = source else {
            return Name {
                json: Value::String(text.clone()),
                raw: text.clone().into_bytes(),
                text,
            };
        };
        let raw = raw_bytes(path.as_os_str());
        let json = match path.to_str() {
            Some(utf8) => Value::String(utf8.to_owned()),
            None => serde_json::json!({ "bytes": base64(&raw) }),
        };
        Name { text, json, raw }
    }
}

#[cfg(unix)]
fn raw_bytes(name: &std::ffi::OsStr) -> Vec<u8> {
    std::os::unix::ffi::OsStrExt::as_bytes(name).to_vec()
}

/// Elsewhere a name that is not Unicode (unpaired UTF-16 surrogates on
/// Windows) has no bytes of its own to give; WTF-8 is the lossless form Rust
/// keeps it in.
#[cfg(not(unix))]
fn raw_bytes(name: &std::ffi::OsStr) -> Vec<u8> {
    name.as_encoded_bytes().to_vec()
}

/// Standard base64 (RFC 4648 §4), padded, as ripgrep's JSON uses.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let bits = group.iter().enumerate().fold(0u32, |bits, (i, &byte)| {
            bits | u32::from(byte) << (16 - 8 * i)
        });
        // A group of n bytes gives n + 1 sextets, padded to four with `=`.
        for sextet in 0..4 {
            out.push(if sextet <= group.len() {
                char::from(ALPHABET[(bits >> (18 - 6 * sextet) & 0x3F) as usize])
            } else {
                '='
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_gives_the_rfc_4648_test_vectors() {
        for (bytes, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(bytes.as_bytes()), encoded, "{bytes:?}");
        }
        assert_eq!(base64(b"\xFF\xFE\xFD"), "//79");
        assert_eq!(base64(b"\xFBx"), "+3g=");
    }

    #[test]
    fn a_utf8_path_is_a_json_string_and_standard_input_is_named_so() {
        let name = Name::of(&Source::File("dir/caf\u{E9}.txt".into()));
        assert_eq!(name.json, Value::String("dir/caf\u{E9}.txt".to_owned()));
        assert_eq!(name.raw, "dir/caf\u{E9}.txt".as_bytes());
        let stdin = Name::of(&Source::Stdin);
        assert_eq!(
            (stdin.text.as_str(), &stdin.json),
            ("<stdin>", &Value::String("<stdin>".to_owned()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_path_that_is_not_utf8_is_its_bytes_in_base64() {
        use std::os::unix::ffi::OsStrExt as _;
        let path = std::ffi::OsStr::from_bytes(b"bad\xFF.txt");
        let name = Name::of(&Source::File(path.into()));
        assert_eq!(name.json, serde_json::json!({ "bytes": "YmFk/y50eHQ=" }));
        assert_eq!(name.raw, b"bad\xFF.txt");
        assert_eq!(name.text, "bad\u{FFFD}.txt");
    }
}
