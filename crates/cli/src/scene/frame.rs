//! Recording one frame in each mode, with timestamps around every pass.
//!
//! Order: [cull → compact, or the fused kernel → stream validation when asked] (dgc, mdi) → render (dgc: the executor, chunk by chunk; mdi: one
//! `vkCmdDrawIndexedIndirectCount` over the same stream; cpu: push constants + draw per
//! visible object, visibility computed on the host by the reference culling) → copy the colour
//! target on the last frame → copy the count to the host buffer. Query slots: 0 frame start, 1 after cull, 2 after compact,
//! 3/4 around the draw (mdi, cpu), 5 frame end, and from 6 four per chunk (preprocess begin,
//! end, execute begin, end) for dgc. With `Compaction::Fused` slots 1 and 2 are written back
//! to back after the one kernel (the report gives its time as culling).

use super::gpu::SceneGpu;
use super::world::{self, Frame, Lod, Object};
use super::{Compaction, ObjectId};
use ash::vk;
use dgcc::runtime::dgc::{DgcDevice, DgcLayout};
use dgcc::runtime::error::Result;
use dgcc::runtime::execute::{Count, Execution, Pass, Phase, Stream};
use dgcc::runtime::fallback::Fallback;
use dgcc::runtime::validate::StreamValidator;
use dgcc::runtime::GpuContext;

pub const SLOT_START: u32 = 0;
pub const SLOT_CULL: u32 = 1;
pub const SLOT_COMPACT: u32 = 2;
pub const SLOT_DRAW_BEGIN: u32 = 3;
pub const SLOT_DRAW_END: u32 = 4;
pub const SLOT_END: u32 = 5;
pub const SLOT_CHUNKS: u32 = 6;

/// What drives the draw pass.
pub enum Driver<'a> {
    Dgc { dev: &'a DgcDevice, layout: &'a DgcLayout, exec: &'a Execution },
    Mdi(&'a Fallback),
    Cpu { objects: &'a [Object], frame: &'a Frame, lods: [Lod; 3] },
}

/// Host-side results of recording (cpu mode knows its draws before the GPU runs).
pub struct Recorded {
    pub host_draws: Option<u32>,
}

fn ts(d: &ash::Device, cmd: vk::CommandBuffer, g: &SceneGpu, slot: u32) {
    // SAFETY: the pool has `query_count` slots, reset at the start of the frame.
    unsafe { d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::ALL_COMMANDS, g.queries, slot) };
}

fn memory_barrier(d: &ash::Device, cmd: vk::CommandBuffer, dst: vk::PipelineStageFlags2, dst_access: vk::AccessFlags2) {
    let b = [vk::MemoryBarrier2::default()
        .src_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
        .src_access_mask(vk::AccessFlags2::SHADER_WRITE)
        .dst_stage_mask(dst)
        .dst_access_mask(dst_access)];
    // SAFETY: outside a render pass.
    unsafe { d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&b)) };
}

fn image_barrier(d: &ash::Device, cmd: vk::CommandBuffer, barriers: &[vk::ImageMemoryBarrier2<'_>]) {
    // SAFETY: outside a render pass.
    unsafe { d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(barriers)) };
}

fn range(aspect: vk::ImageAspectFlags) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: aspect,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    }
}

/// Opens and closes rendering; after the first chunk it loads what the previous one drew.
struct Render<'a> {
    d: &'a ash::Device,
    g: &'a SceneGpu,
    width: u32,
    height: u32,
}

impl Render<'_> {
    fn begin_rendering(&self, cmd: vk::CommandBuffer, clear: bool) {
        let load = if clear { vk::AttachmentLoadOp::CLEAR } else { vk::AttachmentLoadOp::LOAD };
        let color = [vk::RenderingAttachmentInfo::default()
            .image_view(self.g.color.view)
            .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .load_op(load)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(vk::ClearValue { color: vk::ClearColorValue { float32: [0.05, 0.06, 0.08, 1.0] } })];
        let depth = vk::RenderingAttachmentInfo::default()
            .image_view(self.g.depth.view)
            .image_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
            .load_op(load)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(vk::ClearValue { depth_stencil: vk::ClearDepthStencilValue { depth: 1.0, stencil: 0 } });
        let area = vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent: vk::Extent2D { width: self.width, height: self.height },
        };
        let info = vk::RenderingInfo::default()
            .render_area(area)
            .layer_count(1)
            .color_attachments(&color)
            .depth_attachment(&depth);
        // SAFETY: the targets are in attachment layouts (see `record`).
        unsafe { self.d.cmd_begin_rendering(cmd, &info) };
    }
}

impl Pass for Render<'_> {
    fn begin(&mut self, cmd: vk::CommandBuffer, chunk: u32) {
        if chunk > 0 {
            // The previous chunk's attachment writes before this chunk loads them.
            let b = [vk::MemoryBarrier2::default()
                .src_stage_mask(
                    vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT | vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS,
                )
                .src_access_mask(
                    vk::AccessFlags2::COLOR_ATTACHMENT_WRITE | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE,
                )
                .dst_stage_mask(
                    vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT
                        | vk::PipelineStageFlags2::EARLY_FRAGMENT_TESTS
                        | vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS,
                )
                .dst_access_mask(
                    vk::AccessFlags2::COLOR_ATTACHMENT_READ
                        | vk::AccessFlags2::COLOR_ATTACHMENT_WRITE
                        | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ
                        | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE,
                )];
            // SAFETY: between render pass instances.
            unsafe { self.d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&b)) };
        }
        self.begin_rendering(cmd, chunk == 0);
    }
    fn end(&mut self, cmd: vk::CommandBuffer, _chunk: u32) {
        // SAFETY: rendering was begun by `begin`.
        unsafe { self.d.cmd_end_rendering(cmd) };
    }
    fn phase(&mut self, cmd: vk::CommandBuffer, phase: Phase) {
        let slot = match phase {
            Phase::PreprocessBegin(k) => SLOT_CHUNKS + 4 * k,
            Phase::PreprocessEnd(k) => SLOT_CHUNKS + 4 * k + 1,
            Phase::ExecuteBegin(k) => SLOT_CHUNKS + 4 * k + 2,
            Phase::ExecuteEnd(k) => SLOT_CHUNKS + 4 * k + 3,
        };
        if slot < self.g.query_count {
            ts(self.d, cmd, self.g, slot);
        }
    }
}

/// The compacted stream: one record per object at most, the count written by compaction.
pub fn stream(g: &SceneGpu) -> Stream {
    Stream {
        buffer: g.stream.buffer,
        offset: 0,
        address: g.stream.address,
        max_sequences: (g.objects.size / 32) as u32,
        count: Some(Count { buffer: g.counts.buffer, offset: 0, address: g.counts.address }),
    }
}

/// Record one frame into `cmd` (begun by the caller).
///
/// `validator`, when given, checks the stream on the GPU right after compaction.
///
/// # Safety
/// `cmd` is a command buffer of `ctx`'s device in the recording state, outside a render pass;
/// `g` was created on `ctx`; `g`, `driver`'s objects and `validator` stay alive (not destroyed)
/// until the submission finished.
pub unsafe fn record(
    ctx: &GpuContext,
    g: &SceneGpu,
    cmd: vk::CommandBuffer,
    driver: &Driver<'_>,
    size: (u32, u32),
    readback: bool,
    validator: Option<&StreamValidator>,
) -> Result<Recorded> {
    // SAFETY: every command below records into `cmd`, which is recording on `ctx`'s device, and names
    // objects of `g` (of `ctx`) and `validator`, which outlive the submission (this function's contract).
    unsafe {
        let d = &ctx.device;
        d.cmd_reset_query_pool(cmd, g.queries, 0, g.query_count);
        ts(d, cmd, g, SLOT_START);
        let compute = vk::PipelineBindPoint::COMPUTE;
        let graphics = vk::PipelineBindPoint::GRAPHICS;
        // What reads the stream and the count after the culling passes.
        let consumers = (
            vk::PipelineStageFlags2::COMPUTE_SHADER
                | vk::PipelineStageFlags2::DRAW_INDIRECT
                | vk::PipelineStageFlags2::VERTEX_SHADER
                | vk::PipelineStageFlags2::TRANSFER,
            vk::AccessFlags2::SHADER_READ
                | vk::AccessFlags2::SHADER_WRITE
                | vk::AccessFlags2::INDIRECT_COMMAND_READ
                | vk::AccessFlags2::TRANSFER_READ,
        );
        let fused = !matches!(driver, Driver::Cpu { .. }) && g.compaction == Compaction::Fused;
        if fused {
            // The count was cleared at the end of the previous frame (or at setup).
            d.cmd_bind_descriptor_sets(cmd, compute, g.compute_layout, 0, &[g.set.set], &[]);
            d.cmd_bind_pipeline(cmd, compute, g.cull_compact);
            d.cmd_dispatch(cmd, g.fused_groups, 1, 1);
            // A pass ends when its kernel has finished (an ALL_COMMANDS timestamp waits for it); the
            // barrier that makes its writes visible to the draws is timed apart (CULL → COMPACT is
            // not reported for the fused kernel), as the bandwidth probe times its copies.
            ts(d, cmd, g, SLOT_CULL);
            memory_barrier(d, cmd, consumers.0, consumers.1);
            ts(d, cmd, g, SLOT_COMPACT);
            if let Some(v) = validator {
                v.record(d, cmd, &stream(g))?;
            }
        } else if !matches!(driver, Driver::Cpu { .. }) {
            d.cmd_bind_descriptor_sets(cmd, compute, g.compute_layout, 0, &[g.set.set], &[]);
            d.cmd_bind_pipeline(cmd, compute, g.cull);
            d.cmd_dispatch(cmd, g.groups, 1, 1);
            ts(d, cmd, g, SLOT_CULL);
            memory_barrier(d, cmd, vk::PipelineStageFlags2::COMPUTE_SHADER, vk::AccessFlags2::SHADER_READ);
            d.cmd_bind_pipeline(cmd, compute, g.compact);
            for phase in [0u32, 1] {
                d.cmd_push_constants(cmd, g.compute_layout, vk::ShaderStageFlags::COMPUTE, 0, &phase.to_le_bytes());
                d.cmd_dispatch(cmd, g.groups, 1, 1);
                if phase == 1 {
                    ts(d, cmd, g, SLOT_COMPACT);
                }
                memory_barrier(d, cmd, consumers.0, consumers.1);
            }
            if let Some(v) = validator {
                v.record(d, cmd, &stream(g))?;
            }
        }
        let to_attachment = [
            vk::ImageMemoryBarrier2::default()
                .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
                .src_access_mask(vk::AccessFlags2::TRANSFER_READ)
                .dst_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
                .dst_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .image(g.color.image)
                .subresource_range(range(vk::ImageAspectFlags::COLOR)),
            vk::ImageMemoryBarrier2::default()
                .src_stage_mask(vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS)
                .src_access_mask(vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE)
                .dst_stage_mask(
                    vk::PipelineStageFlags2::EARLY_FRAGMENT_TESTS | vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS,
                )
                .dst_access_mask(
                    vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE,
                )
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
                .image(g.depth.image)
                .subresource_range(range(vk::ImageAspectFlags::DEPTH)),
        ];
        image_barrier(d, cmd, &to_attachment);
        let pipeline = match driver {
            Driver::Cpu { .. } => g.draw_push,
            _ if g.object_id == ObjectId::Instance => g.draw_instance,
            Driver::Mdi(_) => g.draw_mdi,
            Driver::Dgc { .. } => g.draw_push,
        };
        d.cmd_bind_pipeline(cmd, graphics, pipeline);
        d.cmd_bind_descriptor_sets(cmd, graphics, g.graphics_layout, 0, &[g.set.set], &[]);
        let mut render = Render { d, g, width: size.0, height: size.1 };
        let stream = stream(g);
        let mut host_draws = None;
        match driver {
            Driver::Dgc { dev, layout, exec } => {
                // Used when the layout has no INDEX_BUFFER token (`RunOptions::bind_index_buffer`);
                // a token overrides it per sequence.
                d.cmd_bind_index_buffer(cmd, g.indices.buffer, 0, vk::IndexType::UINT32);
                exec.record(dev, layout, cmd, &stream, &mut render)?
            }
            Driver::Mdi(fallback) => {
                render.begin_rendering(cmd, true);
                ts(d, cmd, g, SLOT_DRAW_BEGIN);
                d.cmd_bind_index_buffer(cmd, g.indices.buffer, 0, vk::IndexType::UINT32);
                fallback.record(d, cmd, &stream, g.graphics_layout, None)?;
                ts(d, cmd, g, SLOT_DRAW_END);
                d.cmd_end_rendering(cmd);
            }
            Driver::Cpu { objects, frame, lods } => {
                render.begin_rendering(cmd, true);
                ts(d, cmd, g, SLOT_DRAW_BEGIN);
                d.cmd_bind_index_buffer(cmd, g.indices.buffer, 0, vk::IndexType::UINT32);
                let mut draws = 0;
                for (i, o) in objects.iter().enumerate() {
                    let Some(lod) = world::cull(frame, o) else { continue };
                    let push = [i as u32, o.info[0]];
                    dgcc::runtime::push::push(
                        d,
                        cmd,
                        g.graphics_layout,
                        &g.object_push,
                        0,
                        dgcc::runtime::memory::as_bytes(&push),
                    );
                    let l = lods[lod];
                    d.cmd_draw_indexed(cmd, l.index_count, 1, l.first_index, l.vertex_offset, 0);
                    draws += 1;
                }
                host_draws = Some(draws);
                ts(d, cmd, g, SLOT_DRAW_END);
                d.cmd_end_rendering(cmd);
            }
        }
        if readback {
            let to_transfer = [vk::ImageMemoryBarrier2::default()
                .src_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
                .src_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
                .dst_stage_mask(vk::PipelineStageFlags2::TRANSFER)
                .dst_access_mask(vk::AccessFlags2::TRANSFER_READ)
                .old_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
                .image(g.color.image)
                .subresource_range(range(vk::ImageAspectFlags::COLOR))];
            image_barrier(d, cmd, &to_transfer);
            let region = [vk::BufferImageCopy::default()
                .image_subresource(vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                })
                .image_extent(vk::Extent3D { width: size.0, height: size.1, depth: 1 })];
            d.cmd_copy_image_to_buffer(
                cmd,
                g.color.image,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                g.readback.buffer,
                &region,
            );
        }
        // The count (and the subgroup size the kernel saw) for the host, read after the fence; the
        // barrier below makes both copies (image and count) visible to the host.
        let region = [vk::BufferCopy { src_offset: 0, dst_offset: 0, size: 16 }];
        d.cmd_copy_buffer(cmd, g.counts.buffer, g.count_readback.buffer, &region);
        let host = [vk::MemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
            .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::HOST)
            .dst_access_mask(vk::AccessFlags2::HOST_READ)];
        d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&host));
        if fused {
            // Clear the count for the next frame's fused kernel once everything that reads it —
            // the draws (and DGC preprocessing) and the copy above — is done. Barriers order
            // later submissions on the queue too, so the next frame starts from zero without a
            // clear (and its barrier) in front of its culling.
            let mut readers = vk::PipelineStageFlags2::DRAW_INDIRECT
                | vk::PipelineStageFlags2::TRANSFER
                | vk::PipelineStageFlags2::VERTEX_SHADER;
            if matches!(driver, Driver::Dgc { .. }) {
                readers |= dgcc::runtime::ext_dgc::bits::PIPELINE_STAGE_2_COMMAND_PREPROCESS_EXT;
            }
            let done = [vk::MemoryBarrier2::default()
                .src_stage_mask(readers)
                .dst_stage_mask(vk::PipelineStageFlags2::TRANSFER)];
            d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&done));
            d.cmd_fill_buffer(cmd, g.counts.buffer, 0, 16, 0);
            let cleared = [vk::MemoryBarrier2::default()
                .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
                .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
                .dst_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
                .dst_access_mask(vk::AccessFlags2::SHADER_READ | vk::AccessFlags2::SHADER_WRITE)];
            d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&cleared));
        }
        ts(d, cmd, g, SLOT_END);
        Ok(Recorded { host_draws })
    }
}

/// Read the timestamps of one finished frame: `Some(ticks)` per slot that was written.
pub fn timestamps(ctx: &GpuContext, g: &SceneGpu) -> Vec<Option<u64>> {
    let mut data = vec![[0u64; 2]; g.query_count as usize];
    // SAFETY: the frame's submission finished; 64-bit results with availability.
    let r = unsafe {
        ctx.device.get_query_pool_results(
            g.queries,
            0,
            &mut data,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WITH_AVAILABILITY,
        )
    };
    match r {
        Ok(()) | Err(vk::Result::NOT_READY) => data.iter().map(|[v, avail]| (*avail != 0).then_some(*v)).collect(),
        Err(_) => vec![None; g.query_count as usize],
    }
}
