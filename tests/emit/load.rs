//! Loads a fixture description (`tests/emit/fixtures/*.ron`) through the driver, exactly as
//! `dgcc compile` does, and insists that it compiles without errors.

use dgcc::ast;
use dgcc::ir::Manifest;
use std::path::Path;

/// The description (AST) and manifest of a fixture file.
pub fn load(path: &Path) -> (ast::Pipeline, Manifest) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let c = dgcc::driver::compile_source(path, &text, &Default::default());
    let errors: Vec<String> =
        c.diagnostics.iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.code, d.message)).collect();
    assert!(errors.is_empty(), "{} does not compile:\n{}", path.display(), errors.join("\n"));
    (c.pipeline.expect("a pipeline"), c.manifest.expect("a manifest without errors"))
}
