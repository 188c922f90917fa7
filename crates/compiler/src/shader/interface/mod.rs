//! What the shaders declare: the draw and dispatch shaders a description names (`shaders:`),
//! held against the layouts that feed them.
//!
//! Why: the kernels write a stream, but the shaders the generated commands run are what read
//! it, through push constants and vertex buffers. A block member at other bytes than the token
//! writes, a block the pipeline layout's ranges do not hold, a vertex buffer bound where no
//! input reads: each compiles, creates and runs, and draws wrong. [`check_shaders`] reads each
//! shader through the guarded reader (`dgcc_core::files`) — E0587 when it cannot — and, with
//! the `shaderc` feature, compiles GLSL for its stage (E0588) or takes a `.spv` file as it is,
//! reflects the module with naga, its specialization constants frozen to their defaults first
//! (W0511 when that or naga fails; `reflect`, `super::freeze`), and compares its
//! push-constant block and vertex inputs with every layout of its stage (`compare`): E0585,
//! E0586, W0508, W0509, N0501; and a vertex shader's reads of `gl_InstanceIndex` with the
//! layouts of one draw per sequence on NVIDIA targets, whose driver makes them slow (W0512), and
//! of `gl_DrawID` or `gl_InstanceIndex` with the layouts of a count token there (N0502).
//! The stages the tokens name are checked without the files (W0510, `crate::check`).
//!
//! Diagnostics point into the shader file: a GLSL shader's declarations are found in its text
//! (`locate`), and the label carries the file (`diag::SourceText`), so both renderers give the
//! shader's path, line and column, with the token or range of the description as a second
//! label. A SPIR-V file has no text to point into; its diagnostics point at its `source`.

#[cfg(feature = "shaderc")]
mod compare;
#[cfg(feature = "shaderc")]
mod compiled;
#[cfg(feature = "shaderc")]
mod locate;
#[cfg(feature = "shaderc")]
mod reflect;

use crate::ast;
use dgcc_core::device::Profile;
use dgcc_core::diag::{Diagnostic, SourceText};
use dgcc_core::ir::Manifest;
use std::path::Path;
use std::sync::Arc;

/// A shader as read: GLSL text (which labels can point into) or SPIR-V words. Without the
/// `shaderc` feature only its being readable is checked.
#[cfg_attr(not(feature = "shaderc"), allow(dead_code))]
enum Source {
    Glsl(Arc<SourceText>),
    Spirv(Vec<u32>),
}

/// The SPIR-V magic number, as the first little-endian word of a module.
const SPIRV_MAGIC: u32 = 0x0723_0203;

/// Check every shader of a pipeline against the layouts of its stage, on the target devices
/// `profiles` (W0512 and N0502 are said for NVIDIA targets only). `base_dir` is the description's folder,
/// which `source` paths are relative to.
pub fn check_shaders(
    base_dir: &Path,
    pipeline: &ast::Pipeline,
    manifest: &Manifest,
    profiles: &[Profile],
) -> Vec<Diagnostic> {
    let mut out = vec![];
    if pipeline.shaders.is_empty() {
        return out;
    }
    #[cfg(feature = "shaderc")]
    let against = compiled::Against { pipeline, manifest, profiles, generated: compiled::Generated::of(manifest) };
    #[cfg(not(feature = "shaderc"))]
    let _ = (manifest, profiles);
    for shader in &pipeline.shaders {
        let path = base_dir.join(&shader.source.node);
        let Some(source) = read(&path, &shader.node, &mut out) else { continue };
        #[cfg(feature = "shaderc")]
        compiled::check(&path, &source, shader, &against, &mut out);
        #[cfg(not(feature = "shaderc"))]
        let _ = source;
    }
    out
}

fn read(path: &Path, shader: &ast::Shader, out: &mut Vec<Diagnostic>) -> Option<Source> {
    let unreadable = |why: String| {
        Diagnostic::new_by("E0587", |dgc| {
            format!(
                "cannot read the {} shader at {}: {why}",
                dgcc_core::spell::stage(shader.stage.node, dgc),
                path.display()
            )
        })
        .primary(shader.source.span, "relative to the description's directory")
    };
    if !shader.is_spirv() {
        return match super::read_source(path) {
            Ok(text) => Some(Source::Glsl(Arc::new(SourceText { name: path.display().to_string(), text }))),
            Err(e) => {
                out.push(unreadable(e));
                None
            }
        };
    }
    let bytes = match dgcc_core::files::read_regular(path, super::MAX_KERNEL_SOURCE_BYTES) {
        Ok(b) => b,
        Err(e) => {
            out.push(unreadable(e.to_string()));
            return None;
        }
    };
    let words: Vec<u32> = bytes.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
    if bytes.len() % 4 != 0 || words.len() < 5 || words[0] != SPIRV_MAGIC {
        out.push(
            unreadable("it is not a SPIR-V module (no magic number 0x07230203, or not whole 32-bit words)".into())
                .note("a file whose name ends in `.spv` is read as SPIR-V; any other as GLSL"),
        );
        return None;
    }
    Some(Source::Spirv(words))
}
