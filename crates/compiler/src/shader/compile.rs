//! GLSL → SPIR-V with shaderc, for the checks that need the compiled kernel or shader.
//!
//! Why these settings: Vulkan 1.2 and SPIR-V 1.3 (1.4 for mesh, task and ray-tracing shaders,
//! whose extensions need it), because naga's SPIR-V reader stops at 1.6
//! (`LocalSizeId`, `ExecutionModeId`) and rejects `OpCopyLogical`, which glslang emits from 1.4 on
//! for a plain `Object o = objects[i];`; 1.3 already has every subgroup operation. The
//! include of `<pipeline>.glsl` is answered with the include the emitter produces from the
//! manifest being checked, so a kernel is checked against the description as it is now, not
//! against a stale generated file on disk; every other include is read relative to the file
//! that includes it.

use std::path::{Path, PathBuf};

/// Compile a kernel (`Compute`) or a shader of another stage. `Err` holds the compiler's
/// messages, one per line, `file:line: error: …`.
pub(crate) fn compile(
    path: &Path,
    source: &str,
    kind: shaderc::ShaderKind,
    generated_name: &str,
    generated: Option<&str>,
) -> Result<Vec<u32>, Vec<String>> {
    let fail = |e: String| vec![e];
    let compiler = shaderc::Compiler::new().map_err(|e| fail(format!("shaderc is not usable: {e}")))?;
    let mut options = shaderc::CompileOptions::new().map_err(|e| fail(format!("shaderc is not usable: {e}")))?;
    options.set_target_env(shaderc::TargetEnv::Vulkan, shaderc::EnvVersion::Vulkan1_2 as u32);
    // Mesh, task and ray-tracing shaders need SPIR-V 1.4 (their extensions require it).
    let needs_1_4 = matches!(
        kind,
        shaderc::ShaderKind::Task
            | shaderc::ShaderKind::Mesh
            | shaderc::ShaderKind::RayGeneration
            | shaderc::ShaderKind::AnyHit
            | shaderc::ShaderKind::ClosestHit
            | shaderc::ShaderKind::Miss
            | shaderc::ShaderKind::Intersection
            | shaderc::ShaderKind::Callable
    );
    options.set_target_spirv(if needs_1_4 { shaderc::SpirvVersion::V1_4 } else { shaderc::SpirvVersion::V1_3 });
    let kernel_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let generated_name = generated_name.to_string();
    let generated = generated.map(str::to_string);
    options.set_include_callback(move |requested, _kind, requesting, _depth| {
        let file_name = Path::new(requested).file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let (true, Some(text)) = (file_name == generated_name, &generated) {
            return Ok(shaderc::ResolvedInclude { resolved_name: requested.to_string(), content: text.clone() });
        }
        let base = Path::new(requesting)
            .parent()
            .filter(|p| p.is_absolute())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| kernel_dir.clone());
        let candidate: PathBuf = base.join(requested);
        match super::read_source(&candidate) {
            Ok(content) if !content.contains('\0') => {
                Ok(shaderc::ResolvedInclude { resolved_name: candidate.display().to_string(), content })
            }
            Ok(_) => Err(format!("{} contains a NUL byte", candidate.display())),
            Err(e) => Err(format!("cannot read {}: {e}", candidate.display())),
        }
    });
    let name = path.display().to_string();
    if source.contains('\0') {
        return Err(fail(format!("{name} contains a NUL byte")));
    }
    match compiler.compile_into_spirv(source, kind, &name, "main", Some(&options)) {
        Ok(artifact) => Ok(artifact.as_binary().to_vec()),
        Err(shaderc::Error::CompilationError(_, text)) => {
            Err(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect())
        }
        Err(e) => Err(fail(e.to_string())),
    }
}
