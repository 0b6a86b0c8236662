//! One compile-fail test per way a spec given to `dfa_tables!` can be wrong;
//! each `.stderr` shows the message a user sees.

#[test]
fn macro_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
