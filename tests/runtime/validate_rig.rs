//! The stream validator's test rig: hand-made layouts, registered buffers, a host-visible
//! stream written word by word, and one validation pass on the live device.

#![allow(dead_code)]

use ash::vk;
use dgcc::ir::{CompiledLayout, CompiledToken, ExecutionSet, PushConstantRange, TokenType};
use dgcc::runtime::execute::{Count, Stream};
use dgcc::runtime::memory::{as_bytes, Buffer, Location};
use dgcc::runtime::validate::host::{validate_on_host, HostStream};
use dgcc::runtime::validate::{RegisteredBuffer, StreamLimits, StreamReport, StreamValidator};
use dgcc::runtime::GpuContext;

pub const VERTEX: u32 = 0x1;
pub const COMPUTE: u32 = 0x20;

/// A token at `offset` (the validator needs types, offsets and parameters only).
pub fn token(name: &str, tt: TokenType, offset: u32) -> CompiledToken {
    CompiledToken {
        name: name.into(),
        doc: vec![],
        token_type: tt,
        type_value: tt.value(),
        offset,
        size: tt.fixed_size().unwrap_or(4),
        push_constant: None,
        index_mode: None,
        vertex_binding: None,
        execution_set: None,
        fields: vec![],
    }
}

pub fn layout(name: &str, stride: u32, stages: u32, tokens: Vec<CompiledToken>) -> CompiledLayout {
    CompiledLayout {
        name: name.into(),
        doc: vec![],
        stride,
        shader_stages: stages,
        flags: 0,
        max_sequences: 1024,
        glsl_layout: dgcc::ir::GlslLayout::Std430,
        record_align: 4,
        tokens,
        record: vec![],
        requirements: vec![],
    }
}

/// push(0..8) · INDEX_BUFFER @8 · VERTEX_BUFFER @24 · DRAW_INDEXED @40; stride 64.
pub fn draws() -> CompiledLayout {
    let mut object = token("object", TokenType::PushConstant, 0);
    object.size = 8;
    object.push_constant = Some(PushConstantRange { stages: VERTEX, offset: 0, size: 8 });
    let mut indices = token("indices", TokenType::IndexBuffer, 8);
    indices.index_mode = Some(1);
    let mut vertices = token("vertices", TokenType::VertexBuffer, 24);
    vertices.vertex_binding = Some(0);
    layout("Draws", 64, VERTEX | 0x10, vec![object, indices, vertices, token("draw", TokenType::DrawIndexed, 40)])
}

/// EXECUTION_SET (4 pipelines) @0 · INDEX_BUFFER @4 · DRAW_INDEXED_COUNT @20; stride 48.
pub fn count_draws() -> CompiledLayout {
    let mut set = token("material", TokenType::ExecutionSet, 0);
    set.execution_set =
        Some(ExecutionSet { kind: 0, stages: VERTEX | 0x10, max_entries: 4, fallback: Default::default() });
    let mut indices = token("indices", TokenType::IndexBuffer, 4);
    indices.index_mode = Some(1);
    layout("CountDraws", 48, VERTEX | 0x10, vec![set, indices, token("draws", TokenType::DrawIndexedCount, 20)])
}

/// push(0..4) · DISPATCH @4; stride 16.
pub fn dispatch() -> CompiledLayout {
    let mut job = token("job", TokenType::PushConstant, 0);
    job.push_constant = Some(PushConstantRange { stages: COMPUTE, offset: 0, size: 4 });
    layout("Jobs", 16, COMPUTE, vec![job, token("groups", TokenType::Dispatch, 4)])
}

/// Buffers the stream points into, plus the stream and its count.
pub struct Rig {
    pub index: Buffer,
    pub vertex: Buffer,
    /// An array of inner draws for count tokens.
    pub indirect: Buffer,
    pub stream: Buffer,
    pub count: Buffer,
}

pub const INDEX_BYTES: u64 = 4096;
pub const VERTEX_BYTES: u64 = 4096;
/// 16 `VkDrawIndexedIndirectCommand`s of 20 bytes.
pub const INDIRECT_BYTES: u64 = 320;
pub const MAX_RECORDS: u64 = 512;

impl Rig {
    pub fn new(ctx: &GpuContext, stride: u32) -> Rig {
        let host = |size: u64, usage: vk::BufferUsageFlags| Buffer::new(ctx, size, usage, Location::Host).unwrap();
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
        Rig {
            index: host(INDEX_BYTES, vk::BufferUsageFlags::INDEX_BUFFER),
            vertex: host(VERTEX_BYTES, vk::BufferUsageFlags::VERTEX_BUFFER),
            indirect: host(INDIRECT_BYTES, vk::BufferUsageFlags::INDIRECT_BUFFER),
            stream: host(stride as u64 * MAX_RECORDS, storage | vk::BufferUsageFlags::INDIRECT_BUFFER),
            count: host(4, storage | vk::BufferUsageFlags::INDIRECT_BUFFER),
        }
    }

    /// The three buffers with the usage each was created with.
    pub fn registered(&self) -> Vec<RegisteredBuffer> {
        vec![
            RegisteredBuffer {
                address: self.index.address(),
                size: INDEX_BYTES,
                usage: vk::BufferUsageFlags::INDEX_BUFFER,
            },
            RegisteredBuffer {
                address: self.vertex.address(),
                size: VERTEX_BYTES,
                usage: vk::BufferUsageFlags::VERTEX_BUFFER,
            },
            RegisteredBuffer {
                address: self.indirect.address(),
                size: INDIRECT_BYTES,
                usage: vk::BufferUsageFlags::INDIRECT_BUFFER,
            },
        ]
    }

    /// Write `records` (words each) to the stream and the count (if any); the `Stream` to check.
    pub fn stream(&mut self, records: &[Vec<u32>], stride: u32, count: Option<u32>) -> Stream {
        let words = stride as usize / 4;
        let mut data = vec![0u32; words * records.len()];
        for (i, r) in records.iter().enumerate() {
            assert!(r.len() <= words);
            data[i * words..i * words + r.len()].copy_from_slice(r);
        }
        self.stream.write(0, as_bytes(&data)).unwrap();
        let count = count.map(|n| {
            self.count.write(0, &n.to_le_bytes()).unwrap();
            Count { buffer: self.count.buffer(), offset: 0, address: self.count.address() }
        });
        Stream {
            buffer: self.stream.buffer(),
            offset: 0,
            address: self.stream.address(),
            max_sequences: records.len() as u32,
            count,
        }
    }

    /// The inner draws of count tokens.
    pub fn write_inner_draws(&mut self, draws: &[[u32; 5]]) {
        let flat: Vec<u32> = draws.iter().flatten().copied().collect();
        self.indirect.write(0, as_bytes(&flat)).unwrap();
    }

    /// Validate on the device.
    pub fn validate(
        &self,
        ctx: &GpuContext,
        layout: &CompiledLayout,
        limits: StreamLimits,
        stream: &Stream,
    ) -> StreamReport {
        let mut v = StreamValidator::new(ctx, layout, limits, &self.registered()).unwrap();
        ctx.one_shot(|cmd| unsafe { v.record(ctx.device(), cmd, stream) }).unwrap();
        let report = v.read_report();
        unsafe { v.destroy(ctx.device()) };
        report
    }

    /// Validate the same stream on the host.
    pub fn validate_on_host(&self, layout: &CompiledLayout, limits: StreamLimits, stream: &Stream) -> StreamReport {
        let bytes = self.stream.bytes().unwrap();
        let stored_count =
            stream.count.map(|_| u32::from_le_bytes(self.count.bytes().unwrap()[..4].try_into().unwrap()));
        let host = HostStream { records: bytes, max_sequences: stream.max_sequences, stored_count };
        let memory = [(self.indirect.address(), self.indirect.bytes().unwrap())];
        validate_on_host(layout, &limits, &self.registered(), &host, &memory).unwrap()
    }

    pub fn destroy(mut self, ctx: &GpuContext) {
        unsafe {
            ctx.device().device_wait_idle().unwrap();
            for b in [&mut self.index, &mut self.vertex, &mut self.indirect, &mut self.stream, &mut self.count] {
                b.destroy(ctx.device());
            }
        }
    }
}

/// The low and high words of an address.
pub fn lo_hi(address: u64) -> [u32; 2] {
    [address as u32, (address >> 32) as u32]
}
