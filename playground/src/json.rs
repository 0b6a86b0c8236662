//! The little JSON the engine writes, by hand: the crate stays free of
//! dependencies so that its WebAssembly stays small.

use std::fmt::Write as _;

/// `text` as a JSON string: quotes, backslashes and control characters escaped.
pub(crate) fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON object written field by field; each value is JSON already.
pub(crate) struct Object {
    text: String,
}

impl Object {
    pub(crate) fn new() -> Object {
        Object {
            text: String::from("{"),
        }
    }

    pub(crate) fn field(mut self, name: &str, value: &str) -> Object {
        if self.text.len() > 1 {
            self.text.push(',');
        }
        self.text.push_str(&string(name));
        self.text.push(':');
        self.text.push_str(value);
        self
    }

    pub(crate) fn finish(mut self) -> String {
        self.text.push('}');
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_through_a_json_reader() {
        for text in [
            "plain",
            "quote \" and \\ back",
            "tab\tnew\nline\u{1}",
            "é ✓ 😀",
        ] {
            let read: String = serde_json::from_str(&string(text)).unwrap();
            assert_eq!(read, text);
        }
    }

    #[test]
    fn objects_are_json() {
        let object = Object::new()
            .field("a", "1")
            .field("b", &string("x"))
            .finish();
        let read: serde_json::Value = serde_json::from_str(&object).unwrap();
        assert_eq!(read, serde_json::json!({"a": 1, "b": "x"}));
    }
}
