//! Inputs for the benchmarks; see `benches/validate.rs`.
