//! `--emit json`: the manifest (the book's Embedding, "The manifest"), the one thing the runtime
//! and outside tools read.
//!
//! Why a printer of its own when `ir::Manifest::to_json` exists: this is the single entry point
//! that `dgcc compile`, `dgcc::build` and the tests call, so the manifest is checked like every
//! other output before it is written (a manifest that breaks a layout invariant is refused here
//! rather than loaded by a runtime). Key order is the declaration order of the `ir` types, which
//! is stable; `schema_version` says when a key changes meaning.

use super::{model, EmitError};
use dgcc_core::ir::{Manifest, SCHEMA_VERSION};

/// The manifest as pretty JSON with a trailing newline.
pub fn emit(m: &Manifest) -> Result<String, EmitError> {
    this_schema(m)?;
    Ok(print(&model::model(m)?))
}

/// The modelled manifest as pretty JSON with a trailing newline (of this schema version:
/// `emit::Printer::print` asks [`this_schema`] first).
pub(crate) fn print(p: &model::Pipeline) -> String {
    p.raw.to_json()
}

/// A manifest of another schema version is refused: its keys may mean something else.
pub(crate) fn this_schema(m: &Manifest) -> Result<(), EmitError> {
    if m.schema_version == SCHEMA_VERSION {
        return Ok(());
    }
    Err(EmitError::new(
        None,
        format!("manifest schema version {} is not {SCHEMA_VERSION}, the version this dgcc writes", m.schema_version),
    ))
}
