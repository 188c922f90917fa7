//! The checks that need a shader compiled and reflected (feature `shaderc`), and the words and
//! places of their diagnostics: in the shader file where its text says where, in the
//! description for the tokens and ranges they disagree with.

use super::compare::{self, Problem};
use super::locate::{self, Places};
use super::reflect::{self, Interface};
use super::Source;
use crate::ast::{self, Spanned, TokenKind};
use dgcc_core::device::{vendor, Profile};
use dgcc_core::diag::{Diagnostic, SourceText};
use dgcc_core::ir::{CompiledLayout, Manifest, TokenType};
use dgcc_core::span::Span;
use dgcc_core::spell;
use dgcc_core::stages::{Stage, StageMask};
use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

/// The generated include a shader may `#include`, answered from the manifest being checked (as
/// for the kernels).
pub(super) struct Generated {
    name: String,
    text: Option<String>,
}

impl Generated {
    pub(super) fn of(m: &Manifest) -> Generated {
        Generated { name: crate::emit::Output::Glsl.file_name(&m.pipeline), text: crate::emit::glsl::emit(m).ok() }
    }
}

fn kind(stage: Stage) -> shaderc::ShaderKind {
    use shaderc::ShaderKind as K;
    match stage {
        Stage::Vertex => K::Vertex,
        Stage::TessControl => K::TessControl,
        Stage::TessEval => K::TessEvaluation,
        Stage::Geometry => K::Geometry,
        Stage::Fragment => K::Fragment,
        Stage::Compute => K::Compute,
        Stage::Task => K::Task,
        Stage::Mesh => K::Mesh,
        Stage::RayGen => K::RayGeneration,
        Stage::AnyHit => K::AnyHit,
        Stage::ClosestHit => K::ClosestHit,
        Stage::Miss => K::Miss,
        Stage::Intersection => K::Intersection,
        Stage::Callable => K::Callable,
    }
}

/// What every shader of a pipeline is held against: the description, its manifest, the target
/// devices and the generated include.
pub(super) struct Against<'a> {
    pub pipeline: &'a ast::Pipeline,
    pub manifest: &'a Manifest,
    pub profiles: &'a [Profile],
    pub generated: Generated,
}

/// One shader, read: compile it (GLSL), reflect it, and compare it with every layout of its
/// stage.
pub(super) fn check(
    path: &Path,
    source: &Source,
    shader: &Spanned<ast::Shader>,
    against: &Against,
    out: &mut Vec<Diagnostic>,
) {
    let Against { pipeline, manifest, profiles, ref generated } = *against;
    let stage = shader.stage.node;
    let (words, file): (Cow<[u32]>, _) = match source {
        Source::Spirv(words) => (Cow::Borrowed(words), None),
        Source::Glsl(file) => {
            match crate::shader::compile::compile(
                path,
                &file.text,
                kind(stage),
                &generated.name,
                generated.text.as_deref(),
            ) {
                Ok(words) => (Cow::Owned(words), Some(file.clone())),
                Err(messages) => {
                    out.push(compile_error(shader, file, messages));
                    return;
                }
            }
        }
    };
    let cannot_reflect = |why: String| {
        Diagnostic::new_by("W0511", |dgc| {
            format!("cannot reflect the SPIR-V of the {} shader", spell::stage(stage, dgc))
        })
        .primary(shader.source.span, "not compared with the layouts")
        .note(why)
    };
    let Some(naga_stage) = reflect::naga_stage(stage) else {
        out.push(cannot_reflect(format!("naga reads no {} entry points", stage.name())));
        return;
    };
    let module = match reflect::parse(&words) {
        Ok(m) => m,
        Err(e) => {
            out.push(cannot_reflect(e));
            return;
        }
    };
    let Some(interface) = reflect::interface(&module, naga_stage) else {
        out.push(
            Diagnostic::new_by("E0588", |dgc| {
                format!("the module has no entry point `main` of the {} stage", spell::stage(stage, dgc))
            })
            .primary_by(shader.source.span, |dgc| format!("named as the {} shader", spell::stage(stage, dgc)))
            .help_spelled(
                "correct the entry's `stage`, or build the module for that stage",
                "correct the `shader`'s stage, or build the module for that stage",
            ),
        );
        return;
    };
    let places = file.map(|f| {
        let p = locate::places(&f.text);
        (f, p)
    });
    let ctx = Ctx { shader, stage, places, interface: &interface, pipeline, manifest };
    if let Some(p) = compare::range_problem(&interface, stage, &manifest.push_constants) {
        out.push(ctx.diagnostic(&p, None));
    }
    let attributes: Vec<(u32, u32)> = shader.attributes.iter().map(|a| (a.location.node, a.binding.node)).collect();
    for (i, layout) in manifest.layouts.iter().enumerate() {
        if !StageMask(layout.shader_stages).has(stage) {
            continue;
        }
        let mut problems = compare::push_problems(&interface, layout);
        if stage == Stage::Vertex {
            problems.extend(compare::binding_problems(&interface, layout, &attributes));
        }
        out.extend(problems.iter().map(|p| ctx.diagnostic(p, Some(i))));
    }
    if stage == Stage::Vertex {
        let reads_instance_index = reflect::reads_built_in(&words, spirv::BuiltIn::InstanceIndex);
        if reads_instance_index {
            out.extend(ctx.instance_index_reads(profiles));
        }
        let reads_draw_id = reflect::reads_built_in(&words, spirv::BuiltIn::DrawIndex);
        out.extend(ctx.count_token_reads(profiles, reads_draw_id, reads_instance_index));
    }
}

/// NVIDIA's driver 580.159.04 on an H100, one million cubes drawn one per sequence
/// (book/src/measured/h100-instance-index.md): the execute's extra time per draw where the
/// vertex shader reads `gl_InstanceIndex` instead of a push constant, in a layout without a
/// PUSH_CONSTANT token and in one with it.
const INSTANCE_INDEX_NS: [&str; 2] = ["2.2", "5.2"];

/// The same driver and GPU, one million cubes under one DRAW_INDEXED_COUNT sequence
/// (book/src/measured/h100-vertex-offset.md): the execute's extra time per draw where the vertex
/// shader reads the draw's value through `gl_DrawID` and through `gl_InstanceIndex`, against
/// the same draws carrying it in `vertexOffset` (read back from `gl_VertexIndex`).
const COUNT_TOKEN_NS: [&str; 2] = ["3.0", "2.2"];

/// E0588 from shaderc's messages, at the first error's line when it is in the shader itself.
fn compile_error(shader: &Spanned<ast::Shader>, file: &Arc<SourceText>, messages: Vec<String>) -> Diagnostic {
    let line = messages.iter().find_map(|m| {
        let rest = m.strip_prefix(file.name.as_str())?.strip_prefix(':')?;
        rest.split(':').next()?.parse::<usize>().ok()
    });
    let mut d = Diagnostic::new_by("E0588", |dgc| {
        format!("the {} shader does not compile", spell::stage(shader.stage.node, dgc))
    });
    let compiled_as =
        |dgc: bool| format!("compiled with shaderc as the {} stage", spell::stage(shader.stage.node, dgc));
    d = match line.and_then(|l| line_span(&file.text, l)) {
        Some(span) => d.primary_in(file, span, "the first error").secondary_by(shader.source.span, compiled_as),
        None => d.primary_by(shader.source.span, compiled_as),
    };
    messages.into_iter().fold(d, Diagnostic::note)
}

/// The text of 1-based line `line`, without its indentation.
fn line_span(text: &str, line: usize) -> Option<Span> {
    let start: usize = text.split_inclusive('\n').take(line.checked_sub(1)?).map(str::len).sum();
    let rest = text.get(start..)?;
    let body = rest.split('\n').next()?.trim_end();
    let indent = body.len() - body.trim_start().len();
    (start < text.len()).then(|| Span::new(start + indent, start + body.len()))
}

/// The names of the NVIDIA targets among `profiles`, joined; `None` when there is none.
fn nvidia_targets(profiles: &[Profile]) -> Option<String> {
    let nvidia: Vec<&str> = profiles.iter().filter(|p| p.is_vendor(vendor::NVIDIA)).map(|p| p.name.as_str()).collect();
    (!nvidia.is_empty()).then(|| nvidia.join(", "))
}

/// What the diagnostics of one shader need to say where things are.
struct Ctx<'a> {
    shader: &'a Spanned<ast::Shader>,
    stage: Stage,
    places: Option<(Arc<SourceText>, Places)>,
    interface: &'a Interface,
    pipeline: &'a ast::Pipeline,
    manifest: &'a Manifest,
}

impl Ctx<'_> {
    /// `d` with its primary label in the shader file at `place`, or at the description's
    /// `source` when the shader's text has no such place (SPIR-V, a macro, an include).
    fn in_shader(&self, d: Diagnostic, place: impl FnOnce(&Places) -> Option<Span>, message: String) -> Diagnostic {
        match &self.places {
            Some((file, places)) => match place(places) {
                Some(span) => d.primary_in(file, span, message),
                None => d.primary(self.shader.source.span, format!("{message}, in this shader")),
            },
            None => d.primary(self.shader.source.span, format!("{message}, in this shader")),
        }
    }

    /// W0512 for each layout of one draw per sequence that this vertex shader (which reads
    /// `gl_InstanceIndex`) runs under, where a target is an NVIDIA device.
    fn instance_index_reads(&self, profiles: &[Profile]) -> Vec<Diagnostic> {
        let Some(targets) = nvidia_targets(profiles) else { return vec![] };
        self.vertex_layouts(&[TokenType::Draw, TokenType::DrawIndexed])
            .map(|(i, layout)| {
                let name = &layout.name;
                let d = self.built_in_read(
                    Diagnostic::new(
                        "W0512",
                        format!(
                            "the vertex shader reads `gl_InstanceIndex`, which costs every draw of `{name}`'s executes more on {targets}"
                        ),
                    ),
                    |p| p.instance_index,
                    i,
                    format!("one draw per sequence, executed on {targets}"),
                );
                let pushes = layout.tokens.iter().any(|t| t.token_type == TokenType::PushConstant);
                let ns = INSTANCE_INDEX_NS[usize::from(pushes)];
                d.note(format!(
                    "measured with NVIDIA's driver 580.159.04 on an H100 at one million draws: {ns} ns more per draw than the same draws reading the value from a push constant{}; multi-draw pays nothing for it",
                    if pushes { ", in a layout that pushes one" } else { "" }
                ))
                .help_spelled(
                    format!("give `{name}` a push-constant token with the value and read that; where the read is for instancing, or under a specialization `{name}` never runs with, add Allow(\"W0512\") to the layout's `lints`"),
                    format!("give `{name}` a push-constant token with the value and read that; where the read is for instancing, or under a specialization `{name}` never runs with, add `allow W0512` to the layout's `lints`"),
                )
            })
            .collect()
    }

    /// N0502 for each layout of a count token that this vertex shader runs under, where it
    /// reads `gl_DrawID` or `gl_InstanceIndex` and a target is an NVIDIA device.
    fn count_token_reads(&self, profiles: &[Profile], draw_id: bool, instance_index: bool) -> Vec<Diagnostic> {
        let Some(targets) = nvidia_targets(profiles).filter(|_| draw_id || instance_index) else { return vec![] };
        let (read, ns) = match (draw_id, instance_index) {
            (true, true) => (
                "`gl_DrawID` and `gl_InstanceIndex`, which cost",
                format!("{} ns (`gl_DrawID`) and {} ns (`gl_InstanceIndex`)", COUNT_TOKEN_NS[0], COUNT_TOKEN_NS[1]),
            ),
            (true, false) => ("`gl_DrawID`, which costs", format!("{} ns", COUNT_TOKEN_NS[0])),
            _ => ("`gl_InstanceIndex`, which costs", format!("{} ns", COUNT_TOKEN_NS[1])),
        };
        self.vertex_layouts(&[TokenType::DrawCount, TokenType::DrawIndexedCount])
            .map(|(i, layout)| {
                let name = &layout.name;
                let d = self.built_in_read(
                    Diagnostic::new(
                        "N0502",
                        format!("the vertex shader reads {read} every draw of `{name}`'s count token more on {targets}"),
                    ),
                    |p| if draw_id { p.draw_id.or(p.instance_index) } else { p.instance_index },
                    i,
                    format!("a count token's draws, executed on {targets}"),
                );
                d.note(format!(
                    "measured with NVIDIA's driver 580.159.04 on an H100 at one million draws under one DRAW_INDEXED_COUNT sequence: {ns} more per draw than the same draws carrying the value in `vertexOffset`, read back from `gl_VertexIndex`, which executes in multi-draw's time"
                ))
                .help_spelled(
                    format!("where the shader fetches its vertices by `gl_VertexIndex` and the values fit a 32-bit vertex index, carry each draw's value in its `vertexOffset` (`dgcc explain N0502` says how); where they do not, or the read is for instancing, add Allow(\"N0502\") to `{name}`'s `lints` (of the two built-ins `gl_InstanceIndex` is the cheaper)"),
                    format!("where the shader fetches its vertices by `gl_VertexIndex` and the values fit a 32-bit vertex index, carry each draw's value in its `vertexOffset` (`dgcc explain N0502` says how); where they do not, or the read is for instancing, add `allow N0502` to `{name}`'s `lints` (of the two built-ins `gl_InstanceIndex` is the cheaper)"),
                )
            })
            .collect()
    }

    /// The manifest's layouts, with their indices, whose action is one of `actions` and whose
    /// stages include the vertex stage.
    fn vertex_layouts<'m>(
        &'m self,
        actions: &'static [TokenType],
    ) -> impl Iterator<Item = (usize, &'m CompiledLayout)> + 'm {
        self.manifest.layouts.iter().enumerate().filter(move |(_, layout)| {
            layout.action().is_some_and(|a| actions.contains(&a.token_type))
                && StageMask(layout.shader_stages).has(Stage::Vertex)
        })
    }

    /// `d` read here in the shader (`place`), executed by layout `layout` (`label` at its name).
    fn built_in_read(
        &self,
        d: Diagnostic,
        place: impl FnOnce(&Places) -> Option<Span>,
        layout: usize,
        label: String,
    ) -> Diagnostic {
        let d = self.in_shader(d, place, "read here".to_string());
        match self.pipeline.layouts.get(layout) {
            Some(l) => d.secondary(l.name.span, label),
            None => d,
        }
    }

    /// The manifest's name of token `token` of layout `layout`.
    fn token_name(&self, layout: usize, token: usize) -> &str {
        self.manifest.layouts.get(layout).and_then(|l| l.tokens.get(token)).map_or("", |t| t.name.as_str())
    }

    /// The description's span of token `token` of layout `layout` (its field `field`, its
    /// binding for a vertex buffer), or of the layout when the AST and the manifest disagree.
    fn token_span(&self, layout: usize, token: usize, field: Option<usize>) -> Span {
        let Some(l) = self.pipeline.layouts.get(layout) else { return self.shader.source.span };
        match l.tokens.get(token).filter(|t| t.field_name() == self.token_name(layout, token)) {
            Some(t) => match (&t.kind, field) {
                (TokenKind::VertexBuffer { binding }, _) => binding.span,
                (TokenKind::PushConstant { data: ast::PushData::Fields(fields), .. }, Some(k)) => {
                    fields.get(k).map_or(t.span, |f| f.span)
                }
                _ => t.span,
            },
            None => l.name.span,
        }
    }

    /// The diagnostic of problem `p`, found in layout `layout_index` (`None` for the
    /// problems of the shader alone).
    fn diagnostic(&self, p: &Problem, layout_index: Option<usize>) -> Diagnostic {
        let stage_in = |dgc: bool| spell::stage(self.stage, dgc);
        let layout = layout_index.and_then(|i| self.pipeline.layouts.get(i));
        let layout_index = layout_index.unwrap_or(usize::MAX);
        let layout_name = layout.map_or("", |l| l.name.node.as_str());
        match p {
            Problem::Misplaced { member, written } => {
                let m = &self.interface.push[*member];
                let (me, we) = (m.offset + m.size, written.end);
                let same_bytes = m.offset == written.start && me == we;
                let message = |dgc: bool| {
                    let stage = stage_in(dgc);
                    if same_bytes {
                        format!(
                            "the {stage} shader reads `{}` as `{}`, where `{layout_name}` writes `{}` as `{}`",
                            m.name, m.glsl, written.name, written.glsl
                        )
                    } else {
                        format!(
                            "the {stage} shader reads `{}` at push-constant bytes {}..{me}, where `{layout_name}` writes `{}` at bytes {}..{we}",
                            m.name, m.offset, written.name, written.start
                        )
                    }
                };
                let help = if same_bytes {
                    format!("help: declare `{}` as `{}`, as the token writes it", m.name, written.glsl)
                } else {
                    format!(
                        "help: declare `{}` at `layout(offset = {})` with a {}-byte type, as the token writes it",
                        m.name,
                        written.start,
                        we - written.start
                    )
                };
                let d = self.in_shader(
                    Diagnostic::new_by("E0585", message),
                    |p| p.member(&m.name),
                    format!("`{} {}` at bytes {}..{me}", m.glsl, m.name, m.offset),
                );
                d.secondary(
                    self.token_span(layout_index, written.token, written.field),
                    format!("`{} {}` at bytes {}..{we}", written.glsl, written.name, written.start),
                )
                .note(help)
            }
            Problem::OutsideRange { start, end, range } => {
                // The message and the help, as RON (`dgc: false`) or the `.dgc` language writes them.
                let help_for = |dgc: bool| {
                    let stage = stage_in(dgc);
                    match range {
                    Some(r) => (
                        format!(
                            "the {stage} shader's push_constant block (bytes {start}..{end}) is not inside the pipeline's push-constant range for {stage} (bytes {}..{})",
                            r.offset,
                            r.offset + r.size
                        ),
                        format!(
                            "help: make the range cover bytes {}..{}, or shrink the block",
                            r.offset.min(*start),
                            (r.offset + r.size).max(*end)
                        ),
                    ),
                    None if dgc => (
                        format!("the {stage} shader declares a push_constant block, but no push-constant range of the pipeline includes {stage}"),
                        format!(
                            "help: add {stage} to the stage list of the range that holds bytes {start}..{end}, or add a range"
                        ),
                    ),
                    None => (
                        format!("the {stage} shader declares a push_constant block, but no push-constant range of the pipeline includes {stage}"),
                        format!("help: add {stage} to the `stages` of the range that holds bytes {start}..{end}, or add a range"),
                    ),
                }
                };
                let d = self.in_shader(
                    Diagnostic::new_by("E0586", |dgc| help_for(dgc).0),
                    |p| p.block,
                    format!("bytes {start}..{end}"),
                );
                let range_span = self.pipeline.push_constants.iter().find(|r| r.node.stages.mask().has(self.stage));
                match range_span {
                    Some(r) => d.secondary_by(r.span, |dgc| format!("the range for {}", spell::stage(self.stage, dgc))),
                    None => d,
                }
                .note_by(|dgc| help_for(dgc).1)
            }
            Problem::Unwritten { member, start, end } => {
                let m = &self.interface.push[*member];
                let d = self.in_shader(
                    Diagnostic::new_by("W0508", |dgc| {
                        format!(
                            "the {} shader reads `{}` (push-constant bytes {start}..{end}), which no token of `{layout_name}` writes",
                            stage_in(dgc),
                            m.name
                        )
                    }),
                    |p| p.member(&m.name),
                    format!("read here, bytes {start}..{end}"),
                );
                let d = match layout {
                    Some(l) => d.secondary(l.name.span, "no token of this layout writes those bytes"),
                    None => d,
                };
                d.note(format!(
                    "the application must push them with vkCmdPushConstants before executing `{layout_name}`; every sequence then reads the same value"
                ))
                .note(format!("help: add a field for `{}` to a push-constant token of `{layout_name}` if it changes per sequence", m.name))
            }
            Problem::UnreadBinding { token, binding } => {
                let name = self.token_name(layout_index, *token);
                let d = Diagnostic::new(
                    "W0509",
                    format!(
                        "`{name}` binds vertex buffer binding {binding}, which the vertex shader reads nothing from"
                    ),
                )
                .primary(self.token_span(layout_index, *token, None), format!("binding {binding}"));
                let read: Vec<String> = self
                    .interface
                    .inputs
                    .iter()
                    .filter_map(|i| {
                        let a = self.shader.attributes.iter().find(|a| a.location.node == i.location)?;
                        Some(format!("location {} reads binding {}", i.location, a.binding.node))
                    })
                    .collect();
                let first_input = self.interface.inputs.first().map(|i| i.location);
                let input_place = self
                    .places
                    .as_ref()
                    .zip(first_input)
                    .and_then(|((file, places), l)| places.input(l).map(|span| (file, span)));
                let d = match (input_place, first_input) {
                    (Some((file, span)), _) => d.secondary_in(file, span, "the shader's vertex inputs"),
                    (None, None) => d.secondary(self.shader.source.span, "this vertex shader has no vertex inputs"),
                    (None, Some(_)) => d.secondary(self.shader.source.span, "this vertex shader's inputs"),
                };
                let d = if read.is_empty() { d } else { d.note(format!("the attributes say: {}", read.join(", "))) };
                d.note("help: bind a binding the shader reads, or drop the token")
            }
            Problem::UnboundBinding { input, binding } => {
                let i = &self.interface.inputs[*input];
                let d = self.in_shader(
                    Diagnostic::new(
                        "N0501",
                        format!(
                            "the vertex shader reads binding {binding} through `{}` (location {}), which no token of `{layout_name}` binds",
                            i.name, i.location
                        ),
                    ),
                    |p| p.input(i.location),
                    format!("location {}, binding {binding}", i.location),
                );
                let d = match self.shader.attributes.iter().find(|a| a.location.node == i.location) {
                    Some(a) => d.secondary(a.span, format!("location {} reads binding {binding}", i.location)),
                    None => d,
                };
                d.note("the application binds it before executing (vkCmdBindVertexBuffers2): every sequence reads the same buffer there")
            }
        }
    }
}
