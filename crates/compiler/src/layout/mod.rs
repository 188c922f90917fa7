//! The layout engine: where each token's data sits in the stream record, and the stride.
//!
//! # Invariants (checked again on every result by `dgcc_core::check::invariants`)
//!
//! 1. Tokens are placed in description order; each token's offset is ≥ the previous token's
//!    offset. Token data may overlap (the spec allows it): a warning (W0011) says what each
//!    token reads there, and the record declares those bytes once, as the earlier token's.
//! 2. Every offset is a multiple of 4 (the spec's alignment for every token) and a multiple of
//!    the token data's GLSL alignment under the layout's `glsl_layout`, so that the flattened
//!    GLSL record struct places each member at exactly the stream offset.
//! 3. Every token's data lies inside the record: `offset + size ≤ stride`.
//! 4. The stride is a multiple of 4, of the record's GLSL alignment (the array stride of
//!    `Record records[]`), and of `align` when given.
//! 5. The record members (data and padding) tile `[0, stride)` exactly, in increasing offset;
//!    a sequence index's placeholder word is a member only where no other token reads it.
//!
//! The check lives in `dgcc-core` because a manifest needs it too: the emitters refuse one that
//! breaks an invariant, and the runtime one whose tokens do not fit the stride. A broken result
//! here is an engine bug (E0499), not a user error.
//!
//! A pinned offset (`at`) or stride that breaks an invariant is reported (E04xx) and the
//! layout is still produced, marked `valid = false`, so that later checks can run and every
//! problem in the file is reported in one run.
//!
//! Placement: a token without `at` goes at the first offset ≥ the previous end that its
//! alignment allows; the gap becomes `uint _padN` members. The stride, unless pinned, is the
//! end of the last token rounded up to the record alignment and then to `align`.

pub mod types;

use crate::ast::{self, ExecutionSetKind, GlslLayout, PushData, TokenKind};
use dgcc_core::diag::Diagnostic;
use dgcc_core::ir::{CompiledLayout, CompiledToken, ExecutionSet, FieldLayout, PushConstantRange, RecordMember};
use dgcc_core::span::Span;
use dgcc_core::spell;
use dgcc_core::types::MemberType;
use types::{align_up64, field_shape, ShapeError};

const UINT: MemberType = MemberType::Uint;
const INT: MemberType = MemberType::Int;
/// How dgcc declares 64-bit device addresses.
const U2: MemberType = MemberType::UVec2;

/// The result of laying out one layout.
#[derive(Clone, Debug)]
pub struct LaidOut {
    pub layout: CompiledLayout,
    /// Per token, the end of its data (`offset + size`), in 64-bit.
    pub ends: Vec<u64>,
    /// False when a diagnostic from this stage made the layout unusable for emitting.
    pub valid: bool,
}

/// A member relative to the start of its token.
struct Part {
    name: String,
    ty: MemberType,
    array: u32,
    array_stride: u32,
    offset: u32,
    size: u32,
}

fn part(name: String, ty: MemberType, offset: u32) -> Part {
    Part { name, ty, array: 0, array_stride: 0, offset, size: ty.size() }
}

/// Members of a fixed command struct: consecutive, each aligned.
fn command(prefix: &str, gl: GlslLayout, members: &[(&str, MemberType)]) -> (Vec<Part>, u32) {
    let mut off = 0u32;
    let mut parts = vec![];
    for (n, ty) in members {
        off = types::align_up(off, ty.align(gl));
        parts.push(part(format!("{prefix}_{n}"), *ty, off));
        off += ty.size();
    }
    (parts, off)
}

/// The members, data size and alignment of one token. Diagnostics for bad field types.
fn token_parts(tok: &ast::Token, gl: GlslLayout, diags: &mut Vec<Diagnostic>) -> (Vec<Part>, u32, u32) {
    let name = tok.field_name();
    let command = |prefix: &str, members: &[(&str, MemberType)]| command(prefix, gl, members);
    let (parts, size) = match &tok.kind {
        TokenKind::ExecutionSet { kind, stages, .. } => match kind.node {
            ExecutionSetKind::Pipelines => (vec![part(name, UINT, 0)], 4),
            ExecutionSetKind::ShaderObjects => {
                let n = stages.mask().0.count_ones().max(1);
                let mut p = part(name, UINT, 0);
                p.array = n;
                p.array_stride = 4;
                p.size = 4 * n;
                (vec![p], 4 * n)
            }
        },
        TokenKind::PushConstant { data: PushData::Size(size), .. } => {
            let words = size.node / 4;
            if words == 0 {
                (vec![], 0)
            } else {
                let mut p = part(name, UINT, 0);
                p.array = words;
                p.array_stride = 4;
                p.size = 4 * words;
                (vec![p], 4 * words)
            }
        }
        TokenKind::PushConstant { data: PushData::Fields(fields), .. } => {
            let mut off = 0u64;
            let mut parts = vec![];
            for f in fields {
                match field_shape(&f.ty.node, gl) {
                    Ok(shape) => {
                        off = align_up64(off, shape.align as u64);
                        if off + shape.size as u64 > u32::MAX as u64 / 2 {
                            diags.push(
                                Diagnostic::new("E0303", "push-constant fields are larger than any device allows")
                                    .primary(f.ty.span, "this field passes 2 GiB"),
                            );
                            break;
                        }
                        parts.push(Part {
                            name: f.name.node.clone(),
                            ty: shape.elem,
                            array: shape.array,
                            array_stride: shape.array_stride,
                            offset: off as u32,
                            size: shape.size,
                        });
                        off += shape.size as u64;
                    }
                    Err(e) => {
                        let msg = match e {
                            ShapeError::NestedArray => "arrays of arrays cannot be push-constant fields",
                            ShapeError::EmptyArray => "an array field must have at least one element",
                            ShapeError::TooLarge => "push-constant fields are larger than any device allows",
                        };
                        diags.push(Diagnostic::new("E0303", msg).primary(f.ty.span, "this field type"));
                    }
                }
            }
            (parts, off as u32)
        }
        TokenKind::SequenceIndex { .. } => (vec![part(name, UINT, 0)], 4),
        TokenKind::IndexBuffer { .. } => command(&name, &[("address", U2), ("size", UINT), ("index_type", UINT)]),
        TokenKind::VertexBuffer { .. } => command(&name, &[("address", U2), ("size", UINT), ("stride", UINT)]),
        TokenKind::Draw => command(
            &name,
            &[("vertex_count", UINT), ("instance_count", UINT), ("first_vertex", UINT), ("first_instance", UINT)],
        ),
        TokenKind::DrawIndexed => command(
            &name,
            &[
                ("index_count", UINT),
                ("instance_count", UINT),
                ("first_index", UINT),
                ("vertex_offset", INT),
                ("first_instance", UINT),
            ],
        ),
        TokenKind::DrawCount
        | TokenKind::DrawIndexedCount
        | TokenKind::DrawMeshTasksCount
        | TokenKind::DrawMeshTasksCountNv => {
            command(&name, &[("address", U2), ("stride", UINT), ("command_count", UINT)])
        }
        TokenKind::Dispatch => command(&name, &[("x", UINT), ("y", UINT), ("z", UINT)]),
        TokenKind::DrawMeshTasks => {
            command(&name, &[("group_count_x", UINT), ("group_count_y", UINT), ("group_count_z", UINT)])
        }
        TokenKind::DrawMeshTasksNv => command(&name, &[("task_count", UINT), ("first_task", UINT)]),
        TokenKind::TraceRays2 => {
            let (mut parts, end) = command(
                &name,
                &[
                    ("raygen_shader_record_address", U2),
                    ("raygen_shader_record_size", U2),
                    ("miss_shader_binding_table_address", U2),
                    ("miss_shader_binding_table_size", U2),
                    ("miss_shader_binding_table_stride", U2),
                    ("hit_shader_binding_table_address", U2),
                    ("hit_shader_binding_table_size", U2),
                    ("hit_shader_binding_table_stride", U2),
                    ("callable_shader_binding_table_address", U2),
                    ("callable_shader_binding_table_size", U2),
                    ("callable_shader_binding_table_stride", U2),
                    ("width", UINT),
                    ("height", UINT),
                    ("depth", UINT),
                ],
            );
            // VkTraceRaysIndirectCommand2KHR is 100 bytes of members and sizeof 104.
            parts.push(part(format!("{name}_pad"), UINT, end));
            (parts, end + 4)
        }
    };
    let align = parts.iter().map(|p| p.ty.align(gl)).max().unwrap_or(4).max(4);
    (parts, size, align)
}

fn is_pow2(v: u32) -> bool {
    v != 0 && v & (v - 1) == 0
}

/// A token as placed: where its data sits, whether it is a sequence index (whose data no one
/// reads), and its record parts (relative to `offset`).
struct Placed {
    span: Span,
    name: String,
    offset: u64,
    end: u64,
    is_seq: bool,
    parts: Vec<Part>,
}

/// `uint _padN` members for the bytes `from..to`, when both are 4-byte aligned.
fn push_pad(members: &mut Vec<RecordMember>, from: u64, to: u64, pad: &mut usize) {
    if to > from && (to - from).is_multiple_of(4) && from.is_multiple_of(4) {
        let words = ((to - from) / 4) as u32;
        members.push(RecordMember {
            name: format!("_pad{pad}"),
            glsl_type: MemberType::Uint,
            array: if words > 1 { words } else { 0 },
            array_stride: if words > 1 { 4 } else { 0 },
            offset: from as u32,
            size: 4 * words,
            token: None,
        });
        *pad += 1;
    }
}

/// The names of a token's parts that read bytes `from..to` (absolute), an array as the
/// elements it has there: `object[2..4]`.
fn parts_reading(p: &Placed, parts: &[Part], from: u64, to: u64) -> String {
    let mut names = vec![];
    for part in parts {
        let (a, b) = (p.offset + part.offset as u64, p.offset + part.offset as u64 + part.size as u64);
        if a >= to || b <= from {
            continue;
        }
        if part.array > 0 && part.array_stride > 0 {
            let s = part.array_stride as u64;
            let first = from.saturating_sub(a) / s;
            let last = (to.min(b) - a).div_ceil(s);
            if first == 0 && last == part.array as u64 {
                names.push(format!("`{}`", part.name));
            } else {
                names.push(format!("`{}[{first}..{last}]`", part.name));
            }
        } else {
            names.push(format!("`{}`", part.name));
        }
    }
    if names.is_empty() {
        "padding".into()
    } else {
        names.join(", ")
    }
}

/// W0011 for a token `me` (not a sequence index) whose bytes earlier tokens also read: every
/// earlier token it shares bytes with (sequence indices left out), and what each reads there.
fn overlap_warning(me: &Placed, my_parts: &[Part], placed: &[Placed]) -> Option<Diagnostic> {
    let shared: Vec<&Placed> =
        placed.iter().filter(|p| !p.is_seq && p.offset < me.end && p.end > me.offset && p.end > p.offset).collect();
    // Named in the message: the one whose data reaches furthest (after E0130, not always the
    // previous token).
    let far = shared.iter().max_by_key(|p| p.end)?;
    let mut d = Diagnostic::new(
        "W0011",
        format!(
            "`{}` at offset {} shares bytes {}..{} with `{}`, which reads bytes {}..{}",
            me.name,
            me.offset,
            me.offset.max(far.offset),
            me.end.min(far.end),
            far.name,
            far.offset,
            far.end
        ),
    )
    .primary(me.span, format!("`{}` reads bytes {}..{}", me.name, me.offset, me.end));
    for p in &shared {
        d = d.secondary(p.span, format!("`{}` reads bytes {}..{}", p.name, p.offset, p.end));
    }
    for p in &shared {
        let (from, to) = (me.offset.max(p.offset), me.end.min(p.end));
        d = d.note(format!(
            "bytes {from}..{to} are {} of `{}` and {} of `{}`",
            parts_reading(p, &p.parts, from, to),
            p.name,
            parts_reading(me, my_parts, from, to),
            me.name
        ));
    }
    let hi = shared.iter().map(|p| p.end).max().unwrap_or(me.end);
    Some(d.note(
        "the record struct declares those bytes once, as the earlier token's members: a culling shader writes one value both tokens read",
    ).note_spelled(
        format!("help: if each token should read its own data, pin `{}` at {hi} or later, or leave `at` out", me.name),
        format!("help: if each token should read its own data, pin `{}` at `@ {hi}` or later, or leave the `@` out", me.name),
    ))
}

/// The record members: the parts of every token in offset order, padding between them and
/// past the last. Bytes that two tokens read belong to the earlier token (a later token's
/// parts that start inside them are left out, and the rest of such a part becomes padding),
/// and a sequence index's placeholder word is a member only where no other token reads it.
fn record_members(placed: &[Placed], pad: &mut usize) -> Vec<RecordMember> {
    let mut chosen: Vec<RecordMember> = vec![];
    let mut hi = 0u64;
    for (i, p) in placed.iter().enumerate() {
        if p.is_seq {
            continue;
        }
        for part in &p.parts {
            let at = p.offset + part.offset as u64;
            if at >= hi {
                chosen.push(member(i, p, part));
            }
        }
        hi = hi.max(p.end);
    }
    for (i, p) in placed.iter().enumerate().filter(|(_, p)| p.is_seq) {
        let read_by_another = placed.iter().any(|q| !q.is_seq && q.offset < p.end && q.end > p.offset);
        if !read_by_another {
            chosen.extend(p.parts.iter().map(|part| member(i, p, part)));
        }
    }
    chosen.sort_by_key(|m| m.offset);
    let mut out = vec![];
    let mut at = 0u64;
    for m in chosen {
        if (m.offset as u64) > at {
            push_pad(&mut out, at, m.offset as u64, pad);
        }
        at = at.max(m.offset as u64 + m.size as u64);
        out.push(m);
    }
    let end = placed.iter().map(|p| p.end).max().unwrap_or(0);
    if end > at {
        push_pad(&mut out, at, end, pad);
    }
    out
}

fn member(token: usize, p: &Placed, part: &Part) -> RecordMember {
    RecordMember {
        name: part.name.clone(),
        glsl_type: part.ty,
        array: part.array,
        array_stride: part.array_stride,
        offset: (p.offset.min(u32::MAX as u64) as u32).saturating_add(part.offset),
        size: part.size,
        token: Some(token),
    }
}

/// Lay out one layout. Never panics, whatever the numbers.
pub fn lay_out(layout: &ast::Layout) -> (LaidOut, Vec<Diagnostic>) {
    let gl = layout.glsl_layout.node;
    let mut diags = vec![];
    let mut valid = true;
    let mut cursor: u64 = 0;
    let mut record_align: u32 = 4;
    let mut tokens: Vec<CompiledToken> = vec![];
    let mut ends: Vec<u64> = vec![];
    let mut pad = 0usize;
    // Every token placed so far, with its bytes and record parts: what an overlapping token
    // is measured against (every earlier token it shares bytes with, not only the previous
    // one, after E0130) and what the record is built from.
    let mut placed: Vec<Placed> = vec![];

    for tok in &layout.tokens {
        let (parts, size, align) = token_parts(&tok.node, gl, &mut diags);
        let is_seq = tok.node.kind.token_type().is_sequence_index();
        record_align = record_align.max(align);
        let natural = align_up64(cursor, align as u64);
        let span = tok.node.at.as_ref().map(|a| a.span).unwrap_or(tok.span);
        let offset: u64 = match &tok.node.at {
            Some(at) => {
                let n = at.node as u64;
                if !n.is_multiple_of(4) {
                    // Reported by the validator as VUID 11125; the record cannot be built.
                    valid = false;
                } else if !n.is_multiple_of(align as u64) {
                    valid = false;
                    diags.push(
                        Diagnostic::new_by("E0403", |dgc| {
                            format!(
                                "`{}` is pinned at offset {n}, but its data needs {align}-byte alignment under {}",
                                tok.node.field_name(),
                                spell::word(gl.name(), dgc)
                            )
                        })
                        .primary(at.span, format!("not a multiple of {align}"))
                        .note(format!(
                            "a GLSL struct declared with {} would place this data at offset {}, so the shader and the stream would disagree",
                            gl.name().to_lowercase(),
                            align_up64(n, align as u64)
                        ))
                        .note_spelled(
                            format!(
                                "help: pin it at {} or leave `at` out{}",
                                align_up64(n, align as u64),
                                if gl == GlslLayout::Std430 { ", or use `glsl_layout: Scalar`" } else { "" }
                            ),
                            format!(
                                "help: pin it at `@ {}` or leave the `@` out{}",
                                align_up64(n, align as u64),
                                if gl == GlslLayout::Std430 { ", or use `glsl_layout scalar;`" } else { "" }
                            ),
                        ),
                    );
                }
                let prev_offset = placed.last().map(|p| p.offset).unwrap_or(0);
                if n < prev_offset {
                    // Out of order: the validator reports VUID 11103, and no record can be built.
                    valid = false;
                } else if n < cursor && !is_seq {
                    // In order but sharing bytes with earlier tokens: legal (the spec does not
                    // forbid it, the layers' own tests do it), so a warning that says what each
                    // token reads there. A sequence index's data is a placeholder no one reads,
                    // so it is never measured, on either side.
                    let me = Placed {
                        span,
                        name: tok.node.field_name(),
                        offset: n,
                        end: n + size as u64,
                        is_seq,
                        parts: vec![],
                    };
                    if let Some(d) = overlap_warning(&me, &parts, &placed) {
                        diags.push(d);
                    }
                }
                n
            }
            None => natural,
        };
        let end = offset + size as u64;
        let off32 = offset.min(u32::MAX as u64) as u32;
        let mut t = compiled_token(&tok.node, off32, size);
        if !t.fields.is_empty() && t.fields.len() == parts.len() {
            for (f, p) in t.fields.iter_mut().zip(&parts) {
                f.offset = p.offset;
                f.size = p.size;
            }
        }
        tokens.push(t);
        ends.push(end);
        placed.push(Placed { span, name: tok.node.field_name(), offset, end, is_seq, parts });
        cursor = cursor.max(end);
    }
    let members_end = cursor;
    let mut members = record_members(&placed, &mut pad);

    // The stride.
    let end = cursor;
    let mut stride_align = record_align as u64;
    if let Some(a) = &layout.align {
        if !is_pow2(a.node) || a.node < 4 {
            valid = false;
            diags.push(
                Diagnostic::new_by("E0408", |dgc| {
                    format!("`{}` is not a power of two of at least 4", spell::setting("align", a.node, dgc))
                })
                .primary(a.span, "stride alignment")
                .note("help: use 4, 8, 16, 32, …"),
            );
        } else {
            stride_align = stride_align.max(a.node as u64);
        }
    }
    let natural_stride = align_up64(end, stride_align).max(4);
    let stride: u64 = match &layout.stride {
        None => natural_stride,
        Some(s) => {
            let v = s.node as u64;
            if v < end {
                valid = false;
                // Every token whose data crosses the stride.
                for (i, tok) in layout.tokens.iter().enumerate() {
                    if ends[i] > v {
                        let t = &tokens[i];
                        diags.push(
                            Diagnostic::new(
                                "E0404",
                                format!(
                                    "`{}` reads bytes {}..{} of each record, past the stride of {v}",
                                    t.name, t.offset, ends[i]
                                ),
                            )
                            .primary(tok.span, format!("data ends at byte {}", ends[i]))
                            .secondary(s.span, format!("stride {v}"))
                            .note(format!(
                                "the last {} bytes of this token are the first bytes of the next sequence's record, and the last sequence reads past the end of the stream",
                                ends[i] - v
                            ))
                            .note(format!("help: use a stride of at least {natural_stride}, or leave `stride` out"))
                            .suggest(s.span, natural_stride.to_string(), true),
                        );
                    }
                }
            }
            if !v.is_multiple_of(4) {
                valid = false;
                diags.push(
                    Diagnostic::new("E0405", format!("stride {v} is not a multiple of 4"))
                        .primary(s.span, "indirectStride")
                        .note(format!(
                            "every record after the first would start misaligned; help: use {}",
                            align_up64(v, 4)
                        )),
                );
            } else if !v.is_multiple_of(record_align as u64) {
                valid = false;
                diags.push(
                    Diagnostic::new_by("E0406", |dgc| {
                        format!(
                            "stride {v} is not a multiple of the record's {} alignment ({record_align} bytes)",
                            spell::word(gl.name(), dgc)
                        )
                    })
                    .primary(s.span, "indirectStride")
                    .note(format!(
                        "an array of the GLSL record struct would have stride {}, so records after the first would not line up with the stream",
                        align_up64(v, record_align as u64)
                    ))
                    .note(format!("help: use {}", align_up64(v.max(end), record_align as u64))),
                );
            }
            if let Some(a) = &layout.align {
                if is_pow2(a.node) && !v.is_multiple_of(a.node as u64) {
                    valid = false;
                    diags.push(
                        Diagnostic::new_by("E0407", |dgc| {
                            format!("stride {v} is not a multiple of `{}`", spell::setting("align", a.node, dgc))
                        })
                        .primary(s.span, "pinned stride")
                        .secondary(a.span, "required alignment"),
                    );
                }
            }
            v
        }
    };
    if stride > u32::MAX as u64 {
        valid = false;
        diags.push(
            Diagnostic::new("E0409", format!("the record is {stride} bytes, larger than a 32-bit stride can express"))
                .primary(layout.name.span, "this layout"),
        );
    }
    if valid && stride > members_end {
        push_pad(&mut members, members_end, stride, &mut pad);
    }

    // Member names: a push-constant field keeps its own unless another member has it too
    // (then it is qualified with its token's name); see `names::unique_members`.
    let qualifier: Vec<Option<String>> = members
        .iter()
        .map(|m| match m.token.and_then(|t| layout.tokens.get(t)) {
            Some(t) if matches!(t.node.kind, TokenKind::PushConstant { data: PushData::Fields(_), .. }) => {
                Some(t.node.field_name())
            }
            _ => None,
        })
        .collect();
    let wanted: Vec<String> = members.iter().map(|m| m.name.clone()).collect();
    for (m, name) in members.iter_mut().zip(crate::names::unique_members(&wanted, &qualifier)) {
        m.name = name;
    }

    let compiled = CompiledLayout {
        name: layout.name.node.clone(),
        doc: layout.doc.clone(),
        stride: stride.min(u32::MAX as u64) as u32,
        shader_stages: layout.stages.mask().0,
        flags: layout.flags.iter().fold(0, |m, f| m | f.node.bit()),
        max_sequences: layout.max_sequences.node,
        glsl_layout: gl,
        record_align,
        tokens,
        record: members,
        requirements: vec![],
    };
    let mut compiled = compiled;
    compiled.requirements = dgcc_core::requirements::requirements_of(&compiled);
    let out = LaidOut { layout: compiled, ends, valid };
    if out.valid {
        if let Some(f) = dgcc_core::check::invariants::first_broken(&out.layout) {
            // An engine bug, not a user error: say so loudly but do not panic.
            diags.push(
                Diagnostic::new("E0499", format!("internal error: layout invariant broken: {}", f.message))
                    .primary(layout.name.span, "while laying out this layout")
                    .note(format!("the result breaks the invariant a manifest would get {} for", f.code))
                    .note("please report this description to the dgcc developers"),
            );
        }
    }
    (out, diags)
}

/// A push token's `updateRange.stageFlags`: as written for push constants, and
/// `VK_SHADER_STAGE_ALL` for push data (VUID-VkIndirectCommandsLayoutTokenEXT-type-11333).
fn push_stages(stages: &ast::StageList, space: ast::PushSpace) -> u32 {
    match space {
        ast::PushSpace::Constants => stages.mask().0,
        ast::PushSpace::Data => 0x7FFF_FFFF,
    }
}

fn compiled_token(tok: &ast::Token, offset: u32, size: u32) -> CompiledToken {
    let tt = tok.kind.token_type();
    let mut t = CompiledToken {
        name: tok.field_name(),
        doc: tok.doc.clone(),
        token_type: tt,
        type_value: tt.value(),
        offset,
        size,
        push_constant: None,
        index_mode: None,
        vertex_binding: None,
        execution_set: None,
        fields: vec![],
    };
    match &tok.kind {
        TokenKind::PushConstant { stages, offset: pc, data, space } => {
            let size = match data {
                PushData::Size(s) => s.node,
                PushData::Fields(_) => size,
            };
            t.push_constant = Some(PushConstantRange { stages: push_stages(stages, *space), offset: pc.node, size });
        }
        TokenKind::SequenceIndex { stages, offset: pc, space } => {
            t.push_constant = Some(PushConstantRange { stages: push_stages(stages, *space), offset: pc.node, size: 4 });
        }
        TokenKind::IndexBuffer { mode } => t.index_mode = Some(mode.node.bit()),
        TokenKind::VertexBuffer { binding } => t.vertex_binding = Some(binding.node),
        TokenKind::ExecutionSet { kind, stages, max_entries, fallback } => {
            t.execution_set = Some(ExecutionSet {
                kind: match kind.node {
                    ExecutionSetKind::Pipelines => 0,
                    ExecutionSetKind::ShaderObjects => 1,
                },
                stages: stages.mask().0,
                max_entries: max_entries.node,
                fallback: match fallback.as_ref().map(|f| f.node) {
                    Some(crate::ast::SetFallback::Binned) => dgcc_core::ir::SetFallback::Binned,
                    None => dgcc_core::ir::SetFallback::None,
                },
            })
        }
        _ => {}
    }
    if let TokenKind::PushConstant { data: PushData::Fields(fields), .. } = &tok.kind {
        // Offsets and sizes are filled by `lay_out`, from the token's own parts.
        t.fields = fields
            .iter()
            .map(|f| FieldLayout {
                name: f.name.node.clone(),
                doc: f.node.doc.clone(),
                ty: f.ty.node.clone(),
                offset: 0,
                size: 0,
            })
            .collect();
    }
    t
}

/// Check the invariants of the module doc on a finished layout: the first one broken, in
/// words. The invariants themselves, with their codes, are `dgcc_core::check::invariants`;
/// this is kept for callers that want a yes or no.
pub fn verify(l: &CompiledLayout) -> Result<(), String> {
    match dgcc_core::check::invariants::first_broken(l) {
        Some(f) => Err(f.message),
        None => Ok(()),
    }
}

/// Fill in the field offsets of push-constant tokens from the record (offsets relative to the
/// token's start).
pub fn fill_field_offsets(l: &mut CompiledLayout) {
    let record = l.record.clone();
    for (i, t) in l.tokens.iter_mut().enumerate() {
        // `lay_out` fills them from the token's own parts (a token whose bytes an earlier
        // token also reads has no record members there); this is for a layout built elsewhere.
        if t.fields.is_empty() || t.fields.iter().any(|f| f.size != 0) {
            continue;
        }
        let mine: Vec<&RecordMember> = record.iter().filter(|m| m.token == Some(i)).collect();
        for (f, m) in t.fields.iter_mut().zip(mine) {
            f.offset = m.offset - t.offset;
            f.size = m.size;
        }
    }
}

/// Lay out a layout: what `lay_out` returns, with every push-constant field's offset and size
/// filled in (`fill_field_offsets`), and its diagnostics.
pub fn compile_layout(layout: &ast::Layout) -> (LaidOut, Vec<Diagnostic>) {
    let (mut out, diags) = lay_out(layout);
    fill_field_offsets(&mut out.layout);
    (out, diags)
}
