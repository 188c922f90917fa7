//! `--emit slang`: the HLSL include's decisions in Slang's spelling (`[vk::binding]`,
//! `ConstantBuffer<T>` for the push constants). Why a file of its own for one call: `emit::Output`
//! names one module per output, and the spelling differences live in `hlsl::Dialect`, next to
//! everything they depend on.

use super::hlsl::{print, Dialect};
use super::{model, EmitError};
use dgcc_core::ir::Manifest;

/// The Slang include for a manifest.
pub fn emit(m: &Manifest) -> Result<String, EmitError> {
    Ok(print(&model::model(m)?, Dialect::Slang))
}
