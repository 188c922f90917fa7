//! Rules that need the description itself, not just the compiled numbers: how typed
//! push-constant fields meet the shader's `push_constant` block, portability beyond the chosen
//! targets, and what the kernels that write a stream imply for its layout.
//!
//! Why these are not in the runtime's rule set: they are about the *source* a shader and a
//! description share (field types, `glsl_layout`, the kernels and the target list), which a
//! manifest no longer carries in full.

use super::finding::{Finding, Location, TokenPart};
use super::spans::Resolver;
use crate::ast::{GlslLayout, Layout, LayoutFlag, Pipeline, PushData, Spanned, TokenKind};
use crate::layout::types::{align_up64, field_shape};
use dgcc_core::device::Profile;
use dgcc_core::diag::Diagnostic;
use dgcc_core::ir::CompiledLayout;

/// The spec's guaranteed minima that a portable layout stays within.
const MIN_TOKENS: usize = 16;
const MIN_TOKEN_OFFSET: u32 = 2047;
const MIN_STRIDE: u32 = 2048;

/// Drop E0304 ("the range is empty") for a token whose `fields` list is not empty: its size is 0
/// only because the layout engine rejected every field (E0303 says which), and a second error
/// about the same token would send the reader after an empty list that is not there.
pub(crate) fn drop_empty_ranges_of_rejected_fields(layout: &Layout, findings: &mut Vec<Finding>) {
    findings.retain(|f| {
        let Location::Token { index, part: TokenPart::PushSize } = f.location else { return true };
        let declared_fields = layout.tokens.get(index).is_some_and(|t| {
            matches!(&t.node.kind, TokenKind::PushConstant { data: PushData::Fields(fields), .. } if !fields.is_empty())
        });
        !(f.code == "E0304" && declared_fields)
    });
}

/// Per token with typed fields: E0311 (offset not aligned for a std430 push_constant block)
/// and W0007 (scalar-packed fields that a std430 block would place elsewhere, or, under a
/// scalar layout, an offset only a scalar block can declare them at).
pub(crate) fn push_field_findings(layout: &Layout) -> Vec<Finding> {
    let mut out = vec![];
    'tokens: for (i, t) in layout.tokens.iter().enumerate() {
        let TokenKind::PushConstant { offset, data: PushData::Fields(fields), .. } = &t.node.kind else { continue };
        if fields.is_empty() {
            // E0304 reports a token without fields; there is no field whose alignment to check.
            continue;
        }
        let mut align = 4;
        let mut scalar_align = 4;
        let mut widest = None;
        let (mut std_off, mut packed_off) = (0u64, 0u64);
        let mut differs = None;
        for (k, f) in fields.iter().enumerate() {
            let (Ok(std), Ok(packed)) =
                (field_shape(&f.node.ty.node, GlslLayout::Std430), field_shape(&f.node.ty.node, GlslLayout::Scalar))
            else {
                // The layout engine reports unusable field types (E0303).
                continue 'tokens;
            };
            if std.align > align {
                align = std.align;
                widest = Some(k);
            }
            scalar_align = scalar_align.max(packed.align);
            std_off = align_up64(std_off, std.align as u64);
            packed_off = align_up64(packed_off, packed.align as u64);
            if differs.is_none() && std_off != packed_off {
                differs = Some((k, packed_off, std_off));
            }
            std_off += std.size as u64;
            packed_off += packed.size as u64;
        }
        let scalar = layout.glsl_layout.node == GlslLayout::Scalar;
        if offset.node % align != 0 {
            let k = widest.unwrap_or(0);
            let f = &fields[k].node;
            let name = &f.name.node;
            let ty = |dgc: bool| dgcc_core::spell::field_type(&f.ty.node, dgc);
            let at = Location::token(i, TokenPart::PushOffset);
            // A scalar block can declare the fields at this byte: what W0007 asks for. E0311's
            // "no declaration can" is std430's (and a scalar block's where even its alignment,
            // 8 for a `U64`, does not hold).
            let scalar_block_can = scalar && offset.node % scalar_align == 0;
            let finding = if scalar_block_can {
                Finding::new_by("W0007", at, |dgc| {
                    format!(
                        "`{}` starts at push-constant byte {}, where a std430 push_constant block cannot declare its field `{name}` ({}, {align}-byte aligned)",
                        t.node.field_name(),
                        offset.node,
                        ty(dgc),
                    )
                })
                .related_by(Location::Layout, |dgc| if dgc { "glsl_layout scalar" } else { "glsl_layout: Scalar" }.to_string())
                .note("the token copies its stream bytes into push-constant space as they are, so the shader sees the scalar packing")
                .help("declare the shader's block `layout(push_constant, scalar)` (GL_EXT_scalar_block_layout), as the generated readers do")
            } else {
                let fixed = align_up64(offset.node as u64, align as u64);
                Finding::new_by("E0311", at, |dgc| {
                    format!(
                        "`{}` starts at push-constant byte {}, but its field `{name}` ({}) needs {align}-byte alignment in a push_constant block",
                        t.node.field_name(),
                        offset.node,
                        ty(dgc),
                    )
                })
                .related(Location::token(i, TokenPart::Field(k)), format!("aligned to {align}"))
                .note("GLSL lays out push_constant blocks with std430 rules, so the shader cannot declare this field at the byte the token writes")
                .help_spelled(format!("use `offset: {fixed}`"), format!("use `offset {fixed}`"))
            };
            out.push(finding.label(format!("not a multiple of {align}")));
            if scalar_block_can {
                // W0007 said it once for this token.
                continue;
            }
        }
        if scalar {
            if let Some((k, packed, std)) = differs {
                let f = &fields[k].node;
                out.push(
                    Finding::new(
                        "W0007",
                        Location::token(i, TokenPart::Field(k)),
                        format!("`{}` is packed at byte {packed} of `{}`, where a std430 push_constant block puts it at {std}", f.name.node, t.node.field_name()),
                    )
                    .label_by(|dgc| format!("{} at +{packed}", dgcc_core::spell::field_type(&f.ty.node, dgc)))
                    .related_by(Location::Layout, |dgc| if dgc { "glsl_layout scalar" } else { "glsl_layout: Scalar" }.to_string())
                    .note("the token copies its stream bytes into push-constant space as they are, so the shader sees the scalar packing")
                    .help("declare the shader's block `layout(push_constant, scalar)` (GL_EXT_scalar_block_layout), or order fields from widest to narrowest"),
                );
            }
        }
    }
    out
}

/// W0003: a stride that is not a multiple of 16, unless the description chose an `align`.
pub(crate) fn stride_findings(layout: &Layout, compiled: &CompiledLayout) -> Vec<Finding> {
    if layout.align.is_some() || compiled.stride.is_multiple_of(16) {
        return vec![];
    }
    let stride = compiled.stride;
    vec![Finding::new(
        "W0003",
        Location::Stride,
        format!("stride {stride} of layout `{}` is not a multiple of 16", compiled.name),
    )
    .label(format!("stride {stride}"))
    .note("records that straddle 16-byte boundaries make the driver's stream reads slower on some hardware")
    .help_spelled(
        format!(
            "add `align: Some(16)` to round the stride up to {}, or `align: Some(4)` to keep it tight and silence this",
            (stride as u64).div_ceil(16) * 16
        ),
        format!(
            "add `align 16;` to round the stride up to {}, or `align 4;` to keep it tight and silence this",
            (stride as u64).div_ceil(16) * 16
        ),
    )]
}

/// W0008: values past the spec's guaranteed minima, when `minimum` is not among the targets
/// checked (the description's, or `--target`'s in their place; if it is, the limit rules
/// already report them as errors there).
pub(crate) fn portability_findings(profiles: &[Profile], layout: &CompiledLayout) -> Vec<Finding> {
    if profiles.iter().any(|p| p.name == "minimum") {
        return vec![];
    }
    let mut out = vec![];
    let why = "your targets allow it, but a device that offers only the spec's minimum refuses it";
    let help = |dgc: bool| {
        let minimum = if dgc { "`minimum`" } else { "`\"minimum\"`" };
        format!("add {minimum} to `targets` to make this an error, or stay within the minimum")
    };
    if layout.tokens.len() > MIN_TOKENS {
        out.push(
            Finding::new(
                "W0008",
                Location::token(MIN_TOKENS, TokenPart::Kind),
                format!(
                    "layout `{}` has {} tokens; the spec guarantees maxIndirectCommandsTokenCount ≥ {MIN_TOKENS} only",
                    layout.name,
                    layout.tokens.len()
                ),
            )
            .label(format!("token {} of {}", MIN_TOKENS + 1, layout.tokens.len()))
            .note(why)
            .help_by(help),
        );
    }
    if let Some((i, t)) = layout.tokens.iter().enumerate().find(|(_, t)| t.offset > MIN_TOKEN_OFFSET) {
        out.push(
            Finding::new("W0008", Location::token(i, TokenPart::Offset), format!("`{}` is at offset {}; the spec guarantees maxIndirectCommandsTokenOffset ≥ {MIN_TOKEN_OFFSET} only", t.name, t.offset))
                .label(format!("{} > {MIN_TOKEN_OFFSET}", t.offset))
                .note(why)
                .help_by(help),
        );
    }
    if layout.stride > MIN_STRIDE {
        out.push(
            Finding::new("W0008", Location::Stride, format!("layout `{}` has stride {}; the spec guarantees maxIndirectCommandsIndirectStride ≥ {MIN_STRIDE} only", layout.name, layout.stride))
                .label(format!("{} > {MIN_STRIDE}", layout.stride))
                .note(why)
                .help_by(help),
        );
    }
    out
}

/// W0006: a draw layout filled by a many-invocation kernel, without `UnorderedSequences`.
pub(crate) fn unordered_diagnostics(
    pipeline: &Pipeline,
    layout: &Spanned<Layout>,
    compiled: &CompiledLayout,
) -> Vec<Diagnostic> {
    let l = &layout.node;
    let draws = compiled.action().is_some_and(|a| a.token_type.is_vertex_draw() || a.token_type.is_mesh());
    if !draws || l.flags.iter().any(|f| f.node == LayoutFlag::UnorderedSequences) {
        return vec![];
    }
    let writers: Vec<_> = pipeline
        .kernels
        .iter()
        .filter(|k| k.node.writes.as_ref().is_some_and(|w| w.node == l.name.node))
        .filter(|k| super::kernel_rules::invocations(k.node.local_size.node) > 1)
        .collect();
    let Some(k) = writers.first() else { return vec![] };
    let r = Resolver::for_layout(pipeline, layout);
    let writes = k.node.writes.as_ref().map(|w| w.span).unwrap_or(k.node.name.span);
    vec![Diagnostic::new(
        "W0006",
        format!("layout `{}` is written by kernel `{}` from many invocations but keeps sequences in order", l.name.node, k.node.name.node),
    )
    .primary_by(r.span(Location::Layout), |dgc| {
        if dgc { "no `unordered_sequences` flag" } else { "no `UnorderedSequences` flag" }.to_string()
    })
    .secondary(writes, "written in parallel here")
    .note("invocations append their sequences in whatever order they run, so the stream has no meaningful order to keep; ordered execution only costs the driver its freedom to reorder draws")
    .help_spelled(
        "add `flags: [UnorderedSequences]` (keep the order only if the kernel writes sequences at fixed, sorted positions)",
        "add `flags unordered_sequences;` (keep the order only if the kernel writes sequences at fixed, sorted positions)",
    )]
}
