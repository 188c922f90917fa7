//! A shader's interface held against one layout and the pipeline's push-constant ranges: the
//! problems as data, with indices into the interface and the layout's tokens (the caller gives
//! them spans and words).
//!
//! What is compared, and why bytes rather than names:
//! - (E0585) every push-constant member against every field a PUSH_CONSTANT token writes (its
//!   `updateRange.offset` plus the field's offset) and every SEQUENCE_INDEX's 4 bytes: a member
//!   that overlaps one must start and end with it, and read floats where it writes floats. The
//!   bytes are what the device shares; the names are each side's own.
//! - (E0586, once per shader) the block, from its first member's offset to its last member's
//!   end, against the one pipeline range that includes the shader's stage.
//! - (W0508) each member the shader uses against the bytes the layout's push tokens write
//!   (any stage's: the spec ignores a token's stages), unless E0585 already names it.
//! - (W0509, N0501) a vertex shader's input locations, mapped to bindings by the description's
//!   attributes, against the VERTEX_BUFFER tokens; without attributes only a shader with no
//!   inputs at all is compared (its inputs' bindings are unknown).

use super::reflect::{Interface, Member};
use dgcc_core::ir::{CompiledLayout, PushConstantRange};
use dgcc_core::stages::{Stage, StageMask};
use dgcc_core::tokens::TokenType;
use dgcc_core::types::{Component, FieldType};

/// Bytes a token writes into push-constant space, as one named value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Written {
    pub token: usize,
    /// The index of the field in the token's fields; `None` for a sequence index or raw bytes.
    pub field: Option<usize>,
    /// `object.object_id`, or the token's name for a sequence index or raw bytes.
    pub name: String,
    pub start: u32,
    pub end: u32,
    /// Whether it is floating point; `None` where either is fine (an address, raw bytes).
    pub float: Option<bool>,
    /// The GLSL type that reads it (`uint`, `vec4[2]`); empty for raw bytes, which have no
    /// fields to line members up with.
    pub glsl: String,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Problem {
    /// E0585: member `member` overlaps `written` without matching it.
    Misplaced { member: usize, written: Written },
    /// E0586: the block's bytes `start..end` lie in no range of the stage (`range` is the
    /// stage's range, if it has one).
    OutsideRange { start: u32, end: u32, range: Option<PushConstantRange> },
    /// W0508: member `member` is used and its bytes `start..end` (the first stretch) are written
    /// by no token.
    Unwritten { member: usize, start: u32, end: u32 },
    /// W0509: token `token` binds `binding`, which no input reads.
    UnreadBinding { token: usize, binding: u32 },
    /// N0501: input `input` (an index into the interface's inputs) reads `binding`, which no
    /// token binds.
    UnboundBinding { input: usize, binding: u32 },
}

/// Every value the layout's push tokens write, in token order.
pub(crate) fn written(layout: &CompiledLayout) -> Vec<Written> {
    let mut out = vec![];
    for (i, t) in layout.tokens.iter().enumerate() {
        let Some(range) = t.push_constant else { continue };
        match t.token_type {
            TokenType::PushConstant if !t.fields.is_empty() => {
                for (k, f) in t.fields.iter().enumerate() {
                    let start = range.offset + f.offset;
                    out.push(Written {
                        token: i,
                        field: Some(k),
                        name: format!("{}.{}", t.name, f.name),
                        start,
                        end: start + f.size,
                        float: field_float(&f.ty),
                        glsl: field_glsl(&f.ty),
                    });
                }
            }
            TokenType::PushConstant => out.push(Written {
                token: i,
                field: None,
                name: t.name.clone(),
                start: range.offset,
                end: range.offset + range.size,
                float: None,
                glsl: String::new(),
            }),
            TokenType::SequenceIndex => out.push(Written {
                token: i,
                field: None,
                name: t.name.clone(),
                start: range.offset,
                end: range.offset + 4,
                float: Some(false),
                glsl: "uint".into(),
            }),
            // Push data (VK_EXT_descriptor_heap) is not push-constant space.
            _ => {}
        }
    }
    out
}

fn field_float(ty: &FieldType) -> Option<bool> {
    match ty {
        FieldType::Array(inner, _) => field_float(inner),
        // An address is two words or one 64-bit integer, as the shader likes.
        FieldType::Address => None,
        other => other.member_type().map(|m| m.component() == Component::F32),
    }
}

/// `uint`, `vec4[2]`: how the generated GLSL declares a field.
fn field_glsl(ty: &FieldType) -> String {
    match ty {
        FieldType::Array(inner, n) => format!("{}[{n}]", field_glsl(inner)),
        other => other.member_type().map_or("?", |m| m.as_str()).to_string(),
    }
}

fn overlaps(m: &Member, w: &Written) -> bool {
    m.offset < w.end && w.start < m.offset + m.size
}

/// E0586 for a shader of `stage`, whatever the layouts: its block against the pipeline range
/// that includes the stage.
pub(crate) fn range_problem(interface: &Interface, stage: Stage, ranges: &[PushConstantRange]) -> Option<Problem> {
    let start = interface.push.iter().map(|m| m.offset).min()?;
    let end = interface.push.iter().map(|m| m.offset + m.size).max().unwrap_or(start);
    let range = ranges.iter().find(|r| StageMask(r.stages).has(stage)).copied();
    let inside = range.is_some_and(|r| r.offset <= start && end <= r.offset + r.size);
    (!inside).then_some(Problem::OutsideRange { start, end, range })
}

/// The push-constant problems of a shader in a layout: members against the tokens' values.
pub(crate) fn push_problems(interface: &Interface, layout: &CompiledLayout) -> Vec<Problem> {
    let mut out = vec![];
    let written = written(layout);
    for (i, m) in interface.push.iter().enumerate() {
        let mut misplaced = false;
        for w in written.iter().filter(|w| overlaps(m, w)) {
            // Raw bytes have no fields to line up with: only typed values are compared.
            let typed = !w.glsl.is_empty();
            let same_bytes = w.start == m.offset && w.end == m.offset + m.size;
            let same_kind = match (w.float, m.float) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            };
            if typed && !(same_bytes && same_kind) {
                misplaced = true;
                out.push(Problem::Misplaced { member: i, written: w.clone() });
            }
        }
        if m.used && !misplaced {
            if let Some((s, e)) = first_unwritten(m.offset, m.offset + m.size, &written) {
                out.push(Problem::Unwritten { member: i, start: s, end: e });
            }
        }
    }
    out
}

/// The first stretch of `start..end` that no written value covers.
fn first_unwritten(start: u32, end: u32, written: &[Written]) -> Option<(u32, u32)> {
    let mut at = start;
    while at < end {
        match written.iter().filter(|w| w.start <= at && at < w.end).map(|w| w.end).max() {
            Some(next) => at = next,
            None => {
                let stop = written.iter().filter(|w| w.start > at).map(|w| w.start).min().unwrap_or(end).min(end);
                return Some((at, stop));
            }
        }
    }
    None
}

/// The vertex-binding problems of a vertex shader in a layout. `attributes` are the
/// description's `(location, binding)` pairs; empty when it states none.
pub(crate) fn binding_problems(
    interface: &Interface,
    layout: &CompiledLayout,
    attributes: &[(u32, u32)],
) -> Vec<Problem> {
    let mut out = vec![];
    let tokens: Vec<(usize, u32)> = layout
        .tokens
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.vertex_binding.filter(|_| t.token_type == TokenType::VertexBuffer).map(|b| (i, b)))
        .collect();
    if tokens.is_empty() {
        return out;
    }
    let binding_of = |location: u32| attributes.iter().find(|(l, _)| *l == location).map(|(_, b)| *b);
    let read: Vec<u32> = interface.inputs.iter().filter_map(|i| binding_of(i.location)).collect();
    if attributes.is_empty() && !interface.inputs.is_empty() {
        return out;
    }
    for &(token, binding) in &tokens {
        if !read.contains(&binding) {
            out.push(Problem::UnreadBinding { token, binding });
        }
    }
    let mut noted = vec![];
    for (input, i) in interface.inputs.iter().enumerate() {
        let Some(binding) = binding_of(i.location) else { continue };
        if !tokens.iter().any(|&(_, b)| b == binding) && !noted.contains(&binding) {
            noted.push(binding);
            out.push(Problem::UnboundBinding { input, binding });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::reflect::Input;
    use super::*;
    use dgcc_core::ir::{CompiledToken, FieldLayout};

    fn token(
        name: &str,
        tt: TokenType,
        push: Option<(u32, u32)>,
        fields: &[(&str, FieldType, u32, u32)],
    ) -> CompiledToken {
        CompiledToken {
            name: name.into(),
            doc: vec![],
            token_type: tt,
            type_value: tt.value(),
            offset: 0,
            size: 0,
            push_constant: push.map(|(offset, size)| PushConstantRange { stages: 1, offset, size }),
            index_mode: None,
            vertex_binding: None,
            execution_set: None,
            fields: fields
                .iter()
                .map(|(n, ty, offset, size)| FieldLayout {
                    name: n.to_string(),
                    doc: vec![],
                    ty: ty.clone(),
                    offset: *offset,
                    size: *size,
                })
                .collect(),
        }
    }

    fn layout(tokens: Vec<CompiledToken>) -> CompiledLayout {
        let mut l: CompiledLayout = serde_json::from_str(
            r#"{"name":"L","stride":32,"shader_stages":17,"flags":0,"max_sequences":1,"glsl_layout":"std430","record_align":4,"tokens":[],"record":[]}"#,
        )
        .unwrap();
        l.tokens = tokens;
        l
    }

    fn member(name: &str, offset: u32, size: u32, float: bool, used: bool) -> Member {
        Member { name: name.into(), offset, size, glsl: String::new(), float: Some(float), used }
    }

    const VERTEX_0_16: PushConstantRange = PushConstantRange { stages: 1, offset: 0, size: 16 };

    #[test]
    fn members_are_compared_with_fields_by_bytes_and_kind() {
        // The token writes object_id at 4..8 and scale (f32) at 8..12.
        let l = layout(vec![token(
            "object",
            TokenType::PushConstant,
            Some((4, 8)),
            &[("object_id", FieldType::U32, 0, 4), ("scale", FieldType::F32, 4, 4)],
        )]);
        let ok =
            Interface { push: vec![member("id", 4, 4, false, true), member("s", 8, 4, true, true)], inputs: vec![] };
        assert_eq!(push_problems(&ok, &l), []);
        let shifted = Interface { push: vec![member("id", 0, 8, false, true)], inputs: vec![] };
        let p = push_problems(&shifted, &l);
        assert!(
            matches!(&p[..], [Problem::Misplaced { member: 0, written }] if written.name == "object.object_id"),
            "{p:?}"
        );
        let as_int = Interface { push: vec![member("s", 8, 4, false, true)], inputs: vec![] };
        assert!(matches!(&push_problems(&as_int, &l)[..], [Problem::Misplaced { .. }]));
    }

    #[test]
    fn the_block_must_lie_in_its_stages_range_and_used_bytes_be_written() {
        let l = layout(vec![token("index", TokenType::SequenceIndex, Some((0, 4)), &[])]);
        let i = Interface {
            push: vec![member("index", 0, 4, false, true), member("tint", 16, 16, true, true)],
            inputs: vec![],
        };
        assert_eq!(
            range_problem(&i, Stage::Vertex, &[VERTEX_0_16]),
            Some(Problem::OutsideRange { start: 0, end: 32, range: Some(VERTEX_0_16) })
        );
        assert_eq!(push_problems(&i, &l), [Problem::Unwritten { member: 1, start: 16, end: 32 }]);
        // A fragment shader: no range includes its stage. An unused member is nobody's concern.
        let i = Interface { push: vec![member("index", 0, 4, false, false)], inputs: vec![] };
        assert_eq!(
            range_problem(&i, Stage::Fragment, &[VERTEX_0_16]),
            Some(Problem::OutsideRange { start: 0, end: 4, range: None })
        );
        assert_eq!(push_problems(&i, &l), []);
        assert_eq!(range_problem(&Interface::default(), Stage::Fragment, &[]), None, "no block, nothing to hold");
    }

    #[test]
    fn vertex_buffer_tokens_are_compared_with_the_bindings_the_inputs_read() {
        let mut vb = token("positions", TokenType::VertexBuffer, None, &[]);
        vb.vertex_binding = Some(1);
        let l = layout(vec![vb]);
        let inputs = vec![Input { location: 0, name: "pos".into() }, Input { location: 1, name: "uv".into() }];
        let i = Interface { push: vec![], inputs };
        // Both inputs read binding 0: the token's binding 1 is read by none, binding 0 by no token.
        assert_eq!(
            binding_problems(&i, &l, &[(0, 0), (1, 0)]),
            [Problem::UnreadBinding { token: 0, binding: 1 }, Problem::UnboundBinding { input: 0, binding: 0 }]
        );
        assert_eq!(binding_problems(&i, &l, &[(0, 1), (1, 1)]), []);
        // Without attributes the bindings are unknown; a shader without inputs reads none.
        assert_eq!(binding_problems(&i, &l, &[]), []);
        let none = Interface::default();
        assert_eq!(binding_problems(&none, &l, &[]), [Problem::UnreadBinding { token: 0, binding: 1 }]);
    }
}
