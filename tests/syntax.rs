//! Tests of the front ends and printers: `dgcc::syntax`.

use dgcc::syntax::{self, SyntaxKind};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/syntax/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn contract_example_parses_in_both_syntaxes() {
    let ron = syntax::parse(&fixture("scene.ron"), SyntaxKind::Ron).unwrap_or_else(|e| panic!("{e:#?}"));
    let dsl = syntax::parse(&fixture("scene.dgc"), SyntaxKind::Dsl).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(ron, dsl);
    println!("{}", syntax::print_ron(&ron));
    println!("{}", syntax::print_dsl(&ron));
}
