//! Inputs for the unit tests of reading in pieces: every kind of error, in
//! every ruleset, and Markus Kuhn's UTF-8 decoder stress test.

use utf8_tests::rng::Rng;

use crate::stream::Fill;

/// Markus Kuhn's stress test, the copy in `data/` that the end-to-end tests read.
const STRESS_TEST: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../data/reference/UTF-8-test.txt"
);

/// The samples, each with a name for failure messages.
pub fn all() -> Vec<(String, Vec<u8>)> {
    let mut samples: Vec<(String, Vec<u8>)> = [
        // The end-to-end tests' crafted file.
        &b"caf\xC3\xA9 ok\n\
           overlong \xC0\xAF slash\n\
           surrogate \xED\xA0\x80 half\n\
           too big \xF4\x90\x80\x80!\n\
           stray \x80\x80 tails, then \xE2\x82\xACuro\n\
           cut \xF0\x9F\x92"[..],
        b"",
        "Grüße, 世界 💖\n".as_bytes(),
        b"one\r\ntwo \xE0\x80 three \xC0\r\n\xFF",
        b"price: 5 \xE2\x82",
        // CESU-8: a pair is one column; a lead half without its trail.
        b"\xED\xA0\xBD\xED\xB2\x96\xFF\n\xED\xA0\xBD\xED\xB2\x96x\xED\xA0\xBD!",
        // WTF-8: a trail half right after a lead half, after many lead
        // halves in a row (no byte among them tells the state on its own).
        &b"x\xED\xA0\x80\xED\xB0\x80"[..],
        // Modified UTF-8: zero as C0 80, a raw zero invalid.
        b"a\x00b\xC0\x80c\n\x00",
        // Six-byte sequences, whole and cut off.
        b"\xFD\xBF\xBF\xBF\xBF\xBF\xF8\x88\x80\x80\x80\xFD\xBF\xBF",
    ]
    .iter()
    .enumerate()
    .map(|(index, bytes)| (format!("sample {index}"), bytes.to_vec()))
    .collect();
    let halves = b"\xED\xA0\x80".repeat(40);
    samples.push((
        "lead halves".to_owned(),
        [&halves[..], b"\xED\xB0\x80\xFF"].concat(),
    ));
    for seed in 1..=4 {
        samples.push((
            format!("random {seed}"),
            Rng::new(seed).error_prone_bytes(300),
        ));
    }
    let stress = std::fs::read(STRESS_TEST).expect("the stress test is in data/reference");
    samples.push(("the stress test".to_owned(), stress));
    samples
}

/// An input in memory, read as a file is: buffers filled whole until the
/// end, which shows only as a short fill (or, when `early_end`, with the
/// fill that reaches it).
pub struct Memory<'a> {
    pub rest: &'a [u8],
    pub early_end: bool,
}

impl Fill for Memory<'_> {
    fn fill(&mut self, buffer: &mut [u8]) -> Result<(usize, bool), String> {
        let len = buffer.len().min(self.rest.len());
        buffer[..len].copy_from_slice(&self.rest[..len]);
        self.rest = &self.rest[len..];
        let at_end = len < buffer.len() || (self.early_end && self.rest.is_empty());
        Ok((len, at_end))
    }
}
