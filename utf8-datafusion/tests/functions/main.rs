//! The SQL functions' tests, one binary: each links DataFusion, which is
//! most of a test binary's build.

mod checked_read;
mod common;
mod differential;
mod sql;
