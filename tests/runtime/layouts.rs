//! Hand-written compiled layouts (what `dgcc compile --emit json` produces) for the tests.

#![allow(dead_code)]

use dgcc::ir::{CompiledLayout, CompiledToken, PushConstantRange, RecordMember, TokenType};

pub const COMPUTE: u32 = 0x20;

fn token(name: &str, tt: TokenType, offset: u32, size: u32) -> CompiledToken {
    CompiledToken {
        name: name.into(),
        doc: vec![],
        token_type: tt,
        type_value: tt.value(),
        offset,
        size,
        push_constant: None,
        index_mode: None,
        vertex_binding: None,
        execution_set: None,
        fields: vec![],
    }
}

fn member(name: &str, offset: u32, token: usize) -> RecordMember {
    RecordMember {
        name: name.into(),
        glsl_type: dgcc::ir::MemberType::Uint,
        array: 0,
        array_stride: 0,
        offset,
        size: 4,
        token: Some(token),
    }
}

/// `value` (push constant 0..4) [+ sequence index (push 4..8)] + DISPATCH.
pub fn accumulate(with_sequence_index: bool, stride: u32) -> CompiledLayout {
    let mut tokens = vec![];
    let mut record = vec![];
    let mut pc = token("value", TokenType::PushConstant, 0, 4);
    pc.push_constant = Some(PushConstantRange { stages: COMPUTE, offset: 0, size: 4 });
    tokens.push(pc);
    record.push(member("value_value", 0, 0));
    let mut at = 4;
    if with_sequence_index {
        let mut si = token("sequence", TokenType::SequenceIndex, 4, 4);
        si.push_constant = Some(PushConstantRange { stages: COMPUTE, offset: 4, size: 4 });
        tokens.push(si);
        record.push(member("sequence", 4, 1));
        at = 8;
    }
    let di = tokens.len();
    tokens.push(token("dispatch", TokenType::Dispatch, at, 12));
    for (i, n) in ["dispatch_x", "dispatch_y", "dispatch_z"].iter().enumerate() {
        record.push(member(n, at + 4 * i as u32, di));
    }
    let mut end = at + 12;
    let mut pad = 0;
    while end < stride {
        record.push(RecordMember {
            name: format!("_pad{pad}"),
            glsl_type: dgcc::ir::MemberType::Uint,
            array: 0,
            array_stride: 0,
            offset: end,
            size: 4,
            token: None,
        });
        end += 4;
        pad += 1;
    }
    CompiledLayout {
        name: if with_sequence_index { "Accumulate".into() } else { "AccumulateNoIndex".into() },
        doc: vec![],
        stride,
        shader_stages: COMPUTE,
        flags: 0,
        max_sequences: 1024,
        glsl_layout: dgcc::ir::GlslLayout::Std430,
        record_align: 4,
        tokens,
        record,
        requirements: vec![],
    }
}

pub fn accumulate_push_ranges() -> Vec<PushConstantRange> {
    vec![PushConstantRange { stages: COMPUTE, offset: 0, size: 8 }]
}
