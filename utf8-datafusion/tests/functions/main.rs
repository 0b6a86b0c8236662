//! The SQL functions' tests, one binary: each links DataFusion, which is
//! most of a test binary's build.

mod common;
mod differential;
mod sql;
