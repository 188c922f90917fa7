//! Shader checks: the kernels that write an indirect stream, held against the description.
//!
//! Why here and why these: the description promises that the host layout, the tokens and the
//! struct a compute shader writes agree; the kernel is the one artifact dgcc does not generate,
//! so it is where they can still disagree. [`check_kernels`] reads each kernel and
//! - lints its source for subgroup misuse (W0501–W0504, W0507, always: they need only the
//!   text), and compares the cooperative matrices it declares with each target's shapes (E0584);
//! - with the `shaderc` feature, compiles it (GLSL → SPIR-V 1.3, which naga can read), and
//!   checks with naga that the workgroup size is the description's `local_size` (E0582) and that
//!   the `<Layout>Record` struct it writes has the manifest's offsets and stride (E0583).
//!   Before naga reads a module its specialization constants are frozen to their defaults
//!   (`freeze`), since naga reads no `OpSpecConstantOp`.
//!
//! Without `shaderc` those compiled checks are skipped, and [`SKIPPED_CHECKS`] names them so
//! that `dgcc check` can say so once instead of passing silently.
//!
//! The lint findings point into the kernel's source (its file, line and column, with the
//! kernel's `source` in the description as a secondary label); the compiled checks point into
//! the description, at what to change: a kernel that does not compile (E0581, the compiler's
//! messages as notes) or cannot be reflected (W0506) at its `source`, a workgroup size that
//! differs (E0582) at its `local_size`, a record struct that is missing (W0505) or differs
//! (E0583) at its `writes`.
//!
//! The draw and dispatch shaders that *read* the layouts (`shaders:`) are checked by
//! [`interface`], whose diagnostics point into the shader files.

pub mod interface;
pub mod lint;
pub mod words;

#[cfg(feature = "shaderc")]
mod compile;
#[cfg(feature = "shaderc")]
mod freeze;
#[cfg(feature = "shaderc")]
mod reflect;

use crate::ast;
use dgcc_core::diag::{Diagnostic, SourceText};
use dgcc_core::ir::{CompiledKernel, Manifest};
use std::path::Path;
use std::sync::Arc;

/// The checks that need the `shaderc` feature and did not run without it.
#[cfg(not(feature = "shaderc"))]
pub const SKIPPED_CHECKS: &[&str] = &[
    "kernels compile (E0581)",
    "workgroup size equals local_size (E0582)",
    "the record struct a kernel writes has the layout's offsets (E0583)",
    "shaders compile (E0588) and what they declare matches the layouts (E0585, E0586, W0508, W0509, W0512, N0501, N0502)",
];

/// The checks that need the `shaderc` feature and did not run without it: none, it is on.
#[cfg(feature = "shaderc")]
pub const SKIPPED_CHECKS: &[&str] = &[];

/// Check every kernel of a pipeline against the `profiles` it was compiled for (the targets the
/// driver resolved: the description's, or those given with `--target`; the kernels' decisions
/// are keyed by their names). `base_dir` is the directory of the description file, which kernel
/// `source` paths are relative to.
pub fn check_kernels(
    base_dir: &Path,
    pipeline: &ast::Pipeline,
    manifest: &Manifest,
    profiles: &[dgcc_core::device::Profile],
) -> Vec<Diagnostic> {
    let mut out = vec![];
    for kernel in &pipeline.kernels {
        let compiled = manifest.kernels.iter().find(|k| k.name == kernel.name.node);
        check_kernel(base_dir, &kernel.node, compiled, manifest, profiles, &mut out);
    }
    out
}

/// The largest kernel source (or included file) read, in bytes: 4 MiB, like a description.
pub const MAX_KERNEL_SOURCE_BYTES: u64 = 4 << 20;

/// The files a kernel or shader source `#include`s, transitively, where the checks look for
/// them (relative to the including file), that exist: a build script names them to Cargo with
/// the source, so that editing one checks the kernels again. The pipeline's generated include
/// (`generated_name`) is answered from the description, not read, and is left out. Read as
/// text, every `#include "…"` line counts, whichever preprocessor branch it is in: a superset,
/// which is what a list of files to watch may be.
pub fn included_files(source: &Path, generated_name: &str) -> Vec<std::path::PathBuf> {
    let mut found = vec![];
    let mut pending = vec![source.to_path_buf()];
    let mut seen = std::collections::HashSet::new();
    while let Some(file) = pending.pop() {
        let Ok(text) = read_source(&file) else { continue };
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix('#') else { continue };
            let Some(rest) = rest.trim_start().strip_prefix("include") else { continue };
            let Some((name, _)) = rest.trim_start().strip_prefix('"').and_then(|r| r.split_once('"')) else {
                continue;
            };
            if Path::new(name).file_name().is_some_and(|n| n == generated_name) {
                continue;
            }
            let path = dir.join(name);
            if path.is_file() && seen.insert(path.clone()) {
                found.push(path.clone());
                pending.push(path);
            }
        }
    }
    found
}

/// A kernel source or an included file: a regular file of at most [`MAX_KERNEL_SOURCE_BYTES`].
pub(crate) fn read_source(path: &Path) -> Result<String, String> {
    dgcc_core::files::read_regular_text(path, MAX_KERNEL_SOURCE_BYTES)
}

fn check_kernel(
    base_dir: &Path,
    kernel: &ast::Kernel,
    compiled: Option<&CompiledKernel>,
    manifest: &Manifest,
    profiles: &[dgcc_core::device::Profile],
    out: &mut Vec<Diagnostic>,
) {
    let path = base_dir.join(&kernel.source.node);
    let source = match read_source(&path) {
        Ok(s) => s,
        Err(e) => {
            out.push(
                Diagnostic::new(
                    "E0580",
                    format!("cannot read kernel `{}` at {}: {e}", kernel.name.node, path.display()),
                )
                .primary(kernel.source.span, "relative to the description's directory"),
            );
            return;
        }
    };
    let ctx = lint::KernelContext {
        local_size: kernel.local_size.node,
        smallest_subgroup: compiled.and_then(|k| smallest_subgroup(k, profiles)),
        required_subgroup_size: matches!(kernel.subgroup.node, ast::SubgroupReq::Required { .. }),
    };
    let findings = lint::lint(&source, &ctx);
    // Lint findings point into the kernel's source, where the fix is; the description's
    // `source` is a secondary label, so the report says which kernel the file is.
    let file = Arc::new(SourceText {
        name: path.display().to_string(),
        text: if findings.is_empty() { String::new() } else { source.clone() },
    });
    for f in findings {
        let mut d = Diagnostic::new(f.code, f.message)
            .primary_in(&file, f.span, "here")
            .secondary(kernel.source.span, format!("in kernel `{}`", kernel.name.node))
            .note_spelled(help(f.code), help(f.code).replace(REQUIRED_RON, REQUIRED_DGC));
        if let Some(t) = f.target {
            d = d.target(t);
        }
        out.push(d);
    }
    if let Some(k) = compiled {
        coopmat_checks(base_dir, &source, kernel, k, profiles, out);
    }
    #[cfg(feature = "shaderc")]
    compiled_checks(&path, &source, kernel, manifest, out);
    #[cfg(not(feature = "shaderc"))]
    let _ = manifest;
}

/// The smallest subgroup size the kernel can run with on any of its targets, and that target.
fn smallest_subgroup(k: &CompiledKernel, profiles: &[dgcc_core::device::Profile]) -> Option<(u32, String)> {
    k.targets
        .iter()
        .filter_map(|(name, t)| {
            let size = match t.required_subgroup_size {
                Some(n) => n,
                None => {
                    let p = profiles.iter().find(|p| &p.name == name)?;
                    p.value(dgcc_core::device::Limit::MinSubgroupSize)? as u32
                }
            };
            Some((size, name.clone()))
        })
        .min()
}

/// E0584: every cooperative matrix the kernel declares against each target's
/// cooperative-matrix properties; W0012 for a target that does not state them.
fn coopmat_checks(
    base_dir: &Path,
    source: &str,
    kernel: &ast::Kernel,
    k: &CompiledKernel,
    profiles: &[dgcc_core::device::Profile],
    out: &mut Vec<Diagnostic>,
) {
    let decls = lint::coopmat_decls(source);
    if decls.is_empty() {
        return;
    }
    for target in k.targets.keys() {
        // Every target a kernel was compiled for is one of the profiles.
        let Some(profile) = profiles.iter().find(|p| &p.name == target) else { continue };
        let target = &profile.name;
        let Some(props) = &profile.cooperative_matrix else {
            out.push(
                Diagnostic::new("W0012", format!("target `{target}` does not state its cooperative-matrix properties"))
                    .primary(kernel.source.span, format!("kernel `{}` declares cooperative matrices", kernel.name.node))
                    .note("dgcc needs VkCooperativeMatrixPropertiesKHR to check the kernel's tile shapes; that check was skipped for this target (`--strict` makes this an error)")
                    .note("help: write the profile on the device with `dgcc probe`, which reads them with vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR")
                    .target(target.clone()),
            );
            continue;
        };
        let mut seen = vec![];
        let file = Arc::new(SourceText {
            name: base_dir.join(&kernel.source.node).display().to_string(),
            text: source.to_string(),
        });
        for (_, span, d) in &decls {
            if seen.contains(d) || props.shapes.iter().any(|s| d.runs_on(s)) {
                continue;
            }
            seen.push(*d);
            let listed = props.describe(d.scope);
            out.push(
                Diagnostic::new(
                    "E0584",
                    format!(
                        "a {}×{} {} {} matrix at {} scope is no cooperative-matrix shape of {target}",
                        d.rows,
                        d.cols,
                        dgcc_core::device::coopmat::component_name(d.component),
                        d.usage.glsl(),
                        dgcc_core::device::coopmat::scope_name(d.scope)
                    ),
                )
                .primary_in(&file, *span, "this tile shape")
                .secondary(kernel.source.span, format!("in kernel `{}`", kernel.name.node))
                .note(if listed.is_empty() {
                    format!("{target} states no cooperative-matrix shape at that scope")
                } else {
                    format!("{target} runs (M×N×K A×B+C=result): {}", listed.join(", "))
                })
                .note("help: use a tile of a listed shape (A is M×K, B is K×N, the accumulator M×N), or leave the target out")
                .target(target.clone()),
            );
        }
    }
}

/// How the helps below pin a subgroup size, in each syntax.
const REQUIRED_RON: &str = "`subgroup: Required(size: Fixed(N), full: true)`";
const REQUIRED_DGC: &str = "`subgroup required N full;`";

fn help(code: &str) -> &'static str {
    match code {
        "W0501" => "help: use gl_SubgroupSize, gl_SubgroupInvocationID and gl_SubgroupID, or pin the size with `subgroup: Required(size: Fixed(N), full: true)`; widths range from 4 (lavapipe) to 128 (Adreno)",
        "W0502" => "help: size it by the local size divided by the smallest subgroup size of the targets, or pin the subgroup size",
        "W0503" => "help: a ballot is a uvec4 (lanes 32-63 in .y, 64-127 in .z and .w); use subgroupBallotBitCount, subgroupBallotExclusiveBitCount or subgroupBallotFindLSB",
        "W0504" => "help: count active lanes with subgroupBallotBitCount(subgroupBallot(true)), or require full subgroups",
        "W0507" => "help: pin the size the tile shape is written for with `subgroup: Required(size: Fixed(N), full: true)`; a subgroup-scope matrix is spread over one subgroup's lanes",
        _ => "",
    }
}

#[cfg(feature = "shaderc")]
fn compiled_checks(path: &Path, source: &str, kernel: &ast::Kernel, manifest: &Manifest, out: &mut Vec<Diagnostic>) {
    let generated_name = crate::emit::Output::Glsl.file_name(&manifest.pipeline);
    let generated = crate::emit::glsl::emit(manifest).ok();
    let spirv =
        match compile::compile(path, source, shaderc::ShaderKind::Compute, &generated_name, generated.as_deref()) {
            Ok(words) => words,
            Err(messages) => {
                let mut d = Diagnostic::new("E0581", format!("kernel `{}` does not compile", kernel.name.node))
                    .primary(kernel.source.span, "compiled with shaderc for Vulkan 1.2, SPIR-V 1.3");
                for m in messages {
                    d = d.note(m);
                }
                out.push(d);
                return;
            }
        };
    let module = match reflect::parse(&spirv) {
        Ok(m) => m,
        Err(e) => {
            out.push(
                Diagnostic::new("W0506", format!("cannot reflect the SPIR-V of kernel `{}`", kernel.name.node))
                    .primary(kernel.source.span, "compiled, but not checked further")
                    .note(e),
            );
            return;
        }
    };
    if let Some(actual) = reflect::workgroup_size(&module) {
        if actual != kernel.local_size.node {
            let [x, y, z] = actual;
            let [dx, dy, dz] = kernel.local_size.node;
            out.push(
                Diagnostic::new(
                    "E0582",
                    format!("kernel `{}` runs workgroups of {x} × {y} × {z}, the description says {dx} × {dy} × {dz}", kernel.name.node),
                )
                .primary(kernel.local_size.span, "local_size")
                .secondary(kernel.source.span, format!("layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in this kernel"))
                .note(format!(
                    "help: write `layout(local_size_x = {k}_LOCAL_SIZE_X, local_size_y = {k}_LOCAL_SIZE_Y, local_size_z = {k}_LOCAL_SIZE_Z) in;` with the generated include",
                    k = crate::emit::names::screaming(&kernel.name.node)
                )),
            );
        }
    }
    let Some(writes) = &kernel.writes else { return };
    let Some(layout) = manifest.layout(&writes.node) else { return };
    let record = format!("{}Record", crate::emit::names::camel(&layout.name));
    match reflect::record_mismatches(&module, &record, layout) {
        None => out.push(
            Diagnostic::new(
                "W0505",
                format!("kernel `{}` writes `{}`, but has no struct `{record}`", kernel.name.node, layout.name),
            )
            .primary(writes.span, "the layout it writes")
            .note(format!("help: #include \"{generated_name}\" and write the stream through `{record}`")),
        ),
        Some(problems) if !problems.is_empty() => {
            let mut d = Diagnostic::new(
                "E0583",
                format!(
                    "the `{record}` kernel `{}` writes is not the record of layout `{}`",
                    kernel.name.node, layout.name
                ),
            )
            .primary(writes.span, "the layout it writes")
            .secondary(kernel.source.span, "declared in this kernel");
            for p in problems {
                d = d.note(p);
            }
            out.push(d.note(format!(
                "help: include \"{generated_name}\" and declare blocks that hold `{record}` with layout({}_LAYOUT, …)",
                crate::emit::names::screaming(&layout.name)
            )));
        }
        Some(_) => {}
    }
}
