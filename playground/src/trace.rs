//! An input stepped through the minimal DFA byte by byte: the state before
//! and after each byte and the byte's class, up to the byte that rejects.

use utf8_spec::Derivation;

use crate::json::{Object, string};

/// One byte's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Where the byte is in the input.
    pub offset: usize,
    /// The byte.
    pub byte: u8,
    /// Its byte class.
    pub class: u8,
    /// The state before it.
    pub from: u8,
    /// The state after it: the dead state when the byte rejects.
    pub to: u8,
}

/// How an input ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The whole input matches the start rule.
    Accepted,
    /// The input stops in the middle of something (in a non-accepting state
    /// other than the dead one): a longer input could still match.
    Incomplete,
    /// The byte at `offset` has no move: nothing that starts this way matches.
    Rejected {
        /// The rejecting byte's offset.
        offset: usize,
    },
}

/// The steps of an input and how it ends; the steps stop at the rejecting byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// One per byte read, the rejecting one included.
    pub steps: Vec<Step>,
    /// How the input ends.
    pub verdict: Verdict,
}

/// Steps `input` through `derivation`'s minimal DFA, numbered as
/// `utf8 derive --stage minimal` numbers its states.
pub fn trace(derivation: &Derivation, input: &[u8]) -> Trace {
    let tables = derivation.tables();
    let mut state = tables.start();
    let mut steps = Vec::new();
    for (offset, &byte) in input.iter().enumerate() {
        let to = tables.next(state, byte);
        steps.push(Step {
            offset,
            byte,
            class: tables.classes().class(byte),
            from: state,
            to,
        });
        if to == tables.dead() {
            return Trace {
                steps,
                verdict: Verdict::Rejected { offset },
            };
        }
        state = to;
    }
    let verdict = if tables.accepting()[usize::from(state)] {
        Verdict::Accepted
    } else {
        Verdict::Incomplete
    };
    Trace { steps, verdict }
}

impl Trace {
    /// `{"steps": [{"offset", "byte", "class", "from", "to"}…], "verdict":
    /// "accepted" | "incomplete" | "rejected", "offset": the rejecting
    /// byte's or null}`.
    pub fn to_json(&self) -> String {
        let steps: Vec<String> = self
            .steps
            .iter()
            .map(|step| {
                Object::new()
                    .field("offset", &step.offset.to_string())
                    .field("byte", &step.byte.to_string())
                    .field("class", &step.class.to_string())
                    .field("from", &step.from.to_string())
                    .field("to", &step.to.to_string())
                    .finish()
            })
            .collect();
        let (verdict, offset) = match self.verdict {
            Verdict::Accepted => ("accepted", None),
            Verdict::Incomplete => ("incomplete", None),
            Verdict::Rejected { offset } => ("rejected", Some(offset)),
        };
        Object::new()
            .field("steps", &format!("[{}]", steps.join(",")))
            .field("verdict", &string(verdict))
            .field(
                "offset",
                &offset.map_or_else(|| "null".to_owned(), |o| o.to_string()),
            )
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use utf8_spec::rulesets::RFC3629;

    #[test]
    fn e0_80_is_rejected_at_its_second_byte() {
        let derivation = RFC3629.derive().unwrap();
        let trace = trace(&derivation, &[0xE0, 0x80]);
        assert_eq!(trace.verdict, Verdict::Rejected { offset: 1 });
        assert_eq!(trace.steps.len(), 2);
        let tables = derivation.tables();
        assert_eq!(trace.steps[0].from, tables.start());
        assert_eq!(trace.steps[1].to, tables.dead());
        assert_ne!(trace.steps[0].to, tables.dead());
    }

    /// Whether some valid UTF-8 starts with `prefix`, by std's reading.
    fn could_continue(prefix: &[u8]) -> bool {
        match std::str::from_utf8(prefix) {
            Ok(_) => true,
            Err(error) => error.error_len().is_none(),
        }
    }

    #[test]
    fn the_verdict_agrees_with_the_tables_and_std_on_every_short_input() {
        let derivation = RFC3629.derive().unwrap();
        let inputs = (0u32..1 << 16).map(|n| n.to_be_bytes()[2..].to_vec());
        for input in inputs.chain([vec![], vec![0xE2, 0x82], vec![0xF0, 0x9F, 0x98, 0x80]]) {
            let trace = trace(&derivation, &input);
            let expected = match std::str::from_utf8(&input) {
                Ok(_) => Verdict::Accepted,
                Err(error) if error.error_len().is_none() => Verdict::Incomplete,
                // The first byte that no valid text continues with.
                Err(_) => Verdict::Rejected {
                    offset: (0..input.len())
                        .find(|&end| !could_continue(&input[..=end]))
                        .unwrap(),
                },
            };
            assert_eq!(trace.verdict, expected, "{input:02X?}");
            // Every step starts where the previous one ended.
            for pair in trace.steps.windows(2) {
                assert_eq!(pair[0].to, pair[1].from);
            }
        }
    }

    #[test]
    fn json_names_the_verdict_and_the_rejecting_offset() {
        let derivation = RFC3629.derive().unwrap();
        let read = |input: &[u8]| -> serde_json::Value {
            serde_json::from_str(&trace(&derivation, input).to_json()).unwrap()
        };
        let rejected = read(&[0xE0, 0x80]);
        assert_eq!(rejected["verdict"], "rejected");
        assert_eq!(rejected["offset"], 1);
        assert_eq!(rejected["steps"][0]["byte"], 0xE0);
        assert_eq!(read(b"ok")["verdict"], "accepted");
        assert_eq!(read(&[0xE2, 0x82])["verdict"], "incomplete");
        assert!(read(&[0xE2])["offset"].is_null());
    }
}
