//! Why a ruleset gets no vectorised check, as values a program can match
//! and sentences a person can read.

use std::fmt;

/// Why a ruleset gets no vectorised check.
///
/// Each reason names the property of the minimal DFA (or of the derived
/// tables) that the check's shape needs and this ruleset lacks; `Display`
/// says it in words, as `utf8 derive` and `docs/tables/` print it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Declined {
    /// An accepting state other than the start: the check only knows "back
    /// at the start" as the end of a sequence.
    AcceptingOutsideStart,
    /// No byte keeps the start state where it is, so there is nothing to
    /// frame the input with.
    NoBoundaryByte,
    /// A state whose successors lie at different distances from the end of
    /// their sequence.
    MixedDistancesToEnd {
        /// The DFA state.
        state: u8,
    },
    /// Some live state is not a fixed number of bytes from the end of its
    /// sequence (a loop inside a sequence, for example).
    NoFixedDistanceToEnd,
    /// A byte that both starts sequences and continues them.
    LeadIsAlsoContinuation {
        /// The byte.
        byte: u8,
    },
    /// Every sequence is one byte long.
    OnlySingleBytes,
    /// The lead bytes of sequences longer than `longer_than` bytes are not
    /// all the valid lead bytes from one value (at least `%x80`) up, so one
    /// unsigned comparison cannot find them.
    LeadsNotFromOneValueUp {
        /// The sequence length the leads were compared against.
        longer_than: usize,
    },
    /// The continuation bytes are not a product of high and low nibble sets.
    ContinuationNotNibbleProduct,
    /// The forbidden byte pairs need more boxes than the tables have bits.
    TooManyBoxes {
        /// The most boxes the tables can hold.
        limit: usize,
    },
    /// The bytes that leave a sequence open `before_end` bytes before the
    /// end are not all the bytes from one value up.
    OpenEndNotFromOneValueUp {
        /// The distance from the end of the input.
        before_end: usize,
    },
    /// The tables were built but the product-automaton proof found an input
    /// on which the check and the DFA disagree.
    ProofFailed(ProofFailure),
    /// After the DFA has died the check can read on forever without erring.
    UnboundedLag,
    /// A pairing term's lead marker can end on the boundary byte, which
    /// vector code reads (before the input and in skipped blocks) as no
    /// marker.
    LeadMarkerOnBoundary,
}

/// Where the proof found the check and the DFA disagreeing. `after` is a
/// representative of the last byte read and `window` the check's whole
/// window packed as the proof packs it, so that the state can be rebuilt.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProofFailure {
    /// The one-comparison test of the end and the closing check disagree.
    EndTestDisagrees {
        /// A byte like the last one read.
        after: u8,
        /// The packed window.
        window: u64,
    },
    /// The closing check's verdict is not the DFA's.
    ClosingCheckWrong {
        /// A byte like the last one read.
        after: u8,
        /// The packed window.
        window: u64,
        /// The DFA state.
        state: u8,
        /// What the DFA says of the input so far.
        input: Ending,
    },
    /// A sequence ends with no lead marker pending, yet the DFA is not in
    /// its start state there: an exact error could not restart at such a
    /// point.
    RestartNotAtStart {
        /// A byte like the last one read.
        after: u8,
        /// The packed window.
        window: u64,
        /// The DFA state.
        state: u8,
    },
    /// The check errs on a byte the DFA allows.
    ErrsOnAllowedByte {
        /// A byte like the last one read.
        after: u8,
        /// The packed window.
        window: u64,
        /// The DFA state.
        state: u8,
        /// The byte the check rejects.
        byte: u8,
    },
}

/// The DFA's verdict on an input where it stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// In an accepting state.
    Complete,
    /// Dead.
    Invalid,
    /// Alive but not accepting.
    Incomplete,
}

impl fmt::Display for Declined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Declined::AcceptingOutsideStart => {
                f.write_str("the start state must be the only accepting state")
            }
            Declined::NoBoundaryByte => f.write_str("no byte leaves the start state where it is"),
            Declined::MixedDistancesToEnd { state } => write!(
                f,
                "state {state} has successors at different distances from the end of a sequence"
            ),
            Declined::NoFixedDistanceToEnd => f.write_str(
                "some state is not a fixed number of bytes from the end of its sequence",
            ),
            Declined::LeadIsAlsoContinuation { byte } => {
                write!(f, "byte %x{byte:02X} both starts and continues sequences")
            }
            Declined::OnlySingleBytes => {
                f.write_str("every sequence is one byte long; there is nothing for the check to do")
            }
            Declined::LeadsNotFromOneValueUp { longer_than } => write!(
                f,
                "the lead bytes of sequences longer than {longer_than} bytes are not all the valid lead bytes from one value up (at least %x80)"
            ),
            Declined::ContinuationNotNibbleProduct => {
                f.write_str("the continuation bytes are not a set of high nibbles × low nibbles")
            }
            Declined::TooManyBoxes { limit } => write!(
                f,
                "the forbidden byte pairs need more than {limit} boxes of nibble sets"
            ),
            Declined::OpenEndNotFromOneValueUp { before_end } => write!(
                f,
                "the bytes that leave a sequence open {before_end} bytes before the end are not all bytes from one value up"
            ),
            Declined::ProofFailed(failure) => write!(f, "proof failed: {failure}"),
            Declined::UnboundedLag => {
                f.write_str("the check can read on forever after the DFA has died")
            }
            Declined::LeadMarkerOnBoundary => f.write_str(
                "the pairing term's lead marker can end on the boundary byte, which the check reads as no marker",
            ),
        }
    }
}

impl fmt::Display for ProofFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ProofFailure::EndTestDisagrees { after, window } => write!(
                f,
                "after a byte like %x{after:02X} (window {window:#X}) the one-comparison end test and the closing check disagree"
            ),
            ProofFailure::ClosingCheckWrong {
                after,
                window,
                state,
                input,
            } => {
                let (verdict, input) = match input {
                    Ending::Complete => ("errs", "is complete"),
                    Ending::Invalid => ("passes", "is invalid"),
                    Ending::Incomplete => ("passes", "is incomplete"),
                };
                write!(
                    f,
                    "after a byte like %x{after:02X} (window {window:#X}, DFA state {state}) the closing check {verdict} though the input {input}"
                )
            }
            ProofFailure::RestartNotAtStart {
                after,
                window,
                state,
            } => write!(
                f,
                "after a byte like %x{after:02X} (window {window:#X}) a sequence ends with no lead marker pending, but the DFA is in state {state}, not its start"
            ),
            ProofFailure::ErrsOnAllowedByte {
                after,
                window,
                state,
                byte,
            } => write!(
                f,
                "after a byte like %x{after:02X} (window {window:#X}, DFA state {state}) the check errs on %x{byte:02X}, which the DFA allows"
            ),
        }
    }
}

impl std::error::Error for Declined {}
