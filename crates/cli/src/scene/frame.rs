//! Recording one frame in each mode, with timestamps around every pass.
//!
//! Order: the frame's uniforms (`vkCmdUpdateBuffer`) → the attachments into their layouts →
//! pass 0: [cull → compact, or the fused kernel → stream validation when asked] (dgc, mdi) →
//! draw (dgc: the executor, chunk by chunk; mdi: one `vkCmdDrawIndexedIndirectCount`; cpu:
//! push constants + draw per object the host's culling keeps) → under occlusion culling, the
//! depth pyramid from pass 0's depth, then pass 1 (the late pass: cull against the pyramid →
//! compact → draw, loading what pass 0 drew) → copy the colour (and object-id) target when
//! asked → copy both passes' counts to the host buffer.
//!
//! Query slots (`pass_slots` and the `SLOT_*` constants): 0 frame start; per pass p, from
//! 1 + 6p: cull begin, after cull, after compact, draw begin, draw end (pass 0 in 1..=5, pass 1
//! in 7..=11); 6 after the pyramid; 12 frame end; from 13 four per chunk and pass (preprocess
//! begin, end, execute begin, end) for dgc, pass 1's after pass 0's (mdi and the CPU loop write
//! chunk 0's execute begin and end; binned dgc writes none). With one kernel
//! (`SceneGpu::one_pass`) the after-cull and after-compact slots are written on either side of
//! the barrier after it (the report gives the kernel's time as culling, the barrier's in no
//! column).

use super::gpu::{CullPass, SceneGpu, BIN_BATCH_OFFSET, BIN_RECORDS_PER_WORKGROUP, COUNT_BYTES, COUNT_OFFSET};
use super::world::{self, Frame, Lod, Object, MESH_KINDS};
use super::Culling;
use ash::vk;
use dgcc::runtime::dgc::{DgcDevice, DgcLayout};
use dgcc::runtime::error::Result;
use dgcc::runtime::execute::{Count, Execution, Pass, Phase, Stream};
use dgcc::runtime::fallback::Fallback;
use dgcc::runtime::memory::as_bytes;
use dgcc::runtime::validate::StreamValidator;
use dgcc::runtime::GpuContext;

pub const SLOT_START: u32 = 0;
pub const SLOT_PYRAMID: u32 = 6;
pub const SLOT_END: u32 = 12;
pub const SLOT_CHUNKS: u32 = 13;

/// The slots of pass `p`: cull begin, after cull, after compact, draw begin, draw end. A culling
/// pass is timed from right before its first dispatch, as the copy probe times its copies: the
/// frame's uniform upload and the attachments' transitions ahead of it are not the kernel's.
pub fn pass_slots(p: u32) -> [u32; 5] {
    let base = 1 + 6 * p;
    [base, base + 1, base + 2, base + 3, base + 4]
}

/// What drives the draw passes.
pub enum Driver<'a> {
    /// One execution per pass (each with its own preprocess memory), with one pipeline bound
    /// or an execution set of the materials' pipelines.
    /// With `batch`, each execute is one sequence of the batch layout that multi-draws the
    /// pass's records (`batch_stream`).
    Dgc { dev: &'a DgcDevice, layout: &'a DgcLayout, execs: [&'a Execution; 2], batch: bool },
    /// One execution per pass and material, over the material's region of the binned stream,
    /// with the material's pipeline bound (`layout` has no EXECUTION_SET token); `batch`: of the
    /// batch layout, one sequence that multi-draws the region (`batch_region_stream`).
    DgcBinned { dev: &'a DgcDevice, layout: &'a DgcLayout, execs: [&'a [Execution]; 2], batch: bool },
    /// One multi-draw per pass, or per pass and material over the binned stream.
    Mdi(&'a Fallback),
    Cpu {
        objects: &'a [Object],
        lods: &'a [Lod; 3 * MESH_KINDS],
        /// Draw the visible objects in material order instead of object order.
        sort: bool,
    },
}

/// How a pass's stream is sorted by material before it is drawn (`bin_materials.comp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sorting {
    /// Drawn as compacted, in object order (one material, or an execution set unsorted).
    None,
    /// Each material in its own region: one multi-draw or execute per material.
    Regions,
    /// Packed in material order: one execute with an execution set.
    Packed,
}

/// Host-side results of recording (cpu mode knows its draws before the GPU runs).
pub struct Recorded {
    pub host_draws: Option<u32>,
}

/// What one frame records besides the scene's objects.
pub struct FrameInput<'a> {
    pub driver: Driver<'a>,
    /// The frame's uniforms, as uploaded at its start.
    pub frame: &'a Frame,
    pub culling: Culling,
    pub size: (u32, u32),
    /// Copy the colour (and object-id) target for the host.
    pub readback: bool,
    /// One per pass the frame runs, to check its stream right after compaction.
    pub validators: &'a [StreamValidator],
    /// Chunks per pass the query pool has slots for.
    pub chunk_slots: u32,
    pub sorting: Sorting,
}

fn ts(d: &ash::Device, cmd: vk::CommandBuffer, g: &SceneGpu, slot: u32) {
    if slot < g.query_count {
        // SAFETY: the pool has `query_count` slots, reset at the start of the frame.
        unsafe { d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::ALL_COMMANDS, g.queries, slot) };
    }
}

/// The preprocess stage and access a barrier behind compaction or binning adds when DGC reads
/// the stream, so that the executor can leave its own barrier out
/// (`Execution::assume_inputs_visible`, set in `scene::run`).
#[derive(Clone, Copy)]
struct DgcReads {
    stage: vk::PipelineStageFlags2,
    access: vk::AccessFlags2,
}

fn reads_by_dgc(input: &FrameInput<'_>) -> Option<DgcReads> {
    matches!(input.driver, Driver::Dgc { .. } | Driver::DgcBinned { .. }).then_some(DgcReads {
        stage: dgcc::runtime::ext_dgc::bits::PIPELINE_STAGE_2_COMMAND_PREPROCESS_EXT,
        access: dgcc::runtime::ext_dgc::bits::ACCESS_2_COMMAND_PREPROCESS_READ_EXT,
    })
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

/// The attachment writes of one render pass instance before the next one loads them.
fn attachments_to_next_pass(d: &ash::Device, cmd: vk::CommandBuffer) {
    let b = [vk::MemoryBarrier2::default()
        .src_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT | vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS)
        .src_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE)
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
    unsafe { d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&b)) };
}

/// Opens and closes rendering; after the first chunk it loads what the previous one drew.
struct Render<'a> {
    d: &'a ash::Device,
    g: &'a SceneGpu,
    width: u32,
    height: u32,
    /// Whether the first chunk clears the targets (pass 0) or loads them (the late pass).
    clear: bool,
    /// Whether this pass has rendered already (a chunk, or an earlier material's execute):
    /// the next begin loads what it drew, after a barrier.
    started: bool,
    /// The first timestamp slot of this pass's chunks.
    chunk_base: u32,
    /// Chunks this pass has slots for.
    chunk_slots: u32,
}

impl Render<'_> {
    fn begin_rendering(&self, cmd: vk::CommandBuffer, clear: bool) {
        let load = if clear { vk::AttachmentLoadOp::CLEAR } else { vk::AttachmentLoadOp::LOAD };
        let mut color = vec![vk::RenderingAttachmentInfo::default()
            .image_view(self.g.color.view())
            .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .load_op(load)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(vk::ClearValue { color: vk::ClearColorValue { float32: [0.05, 0.06, 0.08, 1.0] } })];
        if let Some(ids) = &self.g.ids {
            color.push(
                vk::RenderingAttachmentInfo::default()
                    .image_view(ids.view())
                    .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                    .load_op(load)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .clear_value(vk::ClearValue { color: vk::ClearColorValue { uint32: [0; 4] } }),
            );
        }
        let depth = vk::RenderingAttachmentInfo::default()
            .image_view(self.g.depth.view())
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
    fn begin(&mut self, cmd: vk::CommandBuffer, _chunk: u32) {
        if self.started {
            // The previous chunk's (or material's) attachment writes before this one loads them.
            attachments_to_next_pass(self.d, cmd);
        }
        self.begin_rendering(cmd, self.clear && !self.started);
        self.started = true;
    }
    fn end(&mut self, cmd: vk::CommandBuffer, _chunk: u32) {
        // SAFETY: rendering was begun by `begin`.
        unsafe { self.d.cmd_end_rendering(cmd) };
    }
    fn phase(&mut self, cmd: vk::CommandBuffer, phase: Phase) {
        let (k, offset) = match phase {
            Phase::PreprocessBegin(k) => (k, 0),
            Phase::PreprocessEnd(k) => (k, 1),
            Phase::ExecuteBegin(k) => (k, 2),
            Phase::ExecuteEnd(k) => (k, 3),
        };
        if k < self.chunk_slots {
            ts(self.d, cmd, self.g, self.chunk_base + 4 * k + offset);
        }
    }
}

/// Pass `p`'s compacted stream: one record per object at most, the count written by compaction.
pub fn stream(g: &SceneGpu, p: usize) -> Stream {
    let pass = &g.passes[p];
    Stream {
        buffer: pass.stream.buffer(),
        offset: 0,
        address: pass.stream.address(),
        max_sequences: g.max_draws,
        count: Some(Count {
            buffer: pass.counts.buffer(),
            offset: COUNT_OFFSET,
            address: pass.counts.address() + COUNT_OFFSET,
        }),
    }
}

/// Pass `p`'s stream as one sequence of a batch layout (`SceneBatch`): the pass's counts
/// buffer starts with a DRAW_INDEXED_COUNT token's arguments, which multi-draw the compacted
/// records, their count the one compaction writes (`scene_counts.glsl`).
pub fn batch_stream(g: &SceneGpu, p: usize) -> Stream {
    let pass = &g.passes[p];
    Stream { buffer: pass.counts.buffer(), offset: 0, address: pass.counts.address(), max_sequences: 1, count: None }
}

/// Pass `p`'s stream packed in material order (`Sorting::Packed`): the compacted stream's
/// records and count.
pub fn packed_stream(g: &SceneGpu, p: usize) -> Stream {
    let pass = &g.passes[p];
    Stream { buffer: pass.binned.buffer(), address: pass.binned.address(), ..stream(g, p) }
}

/// Material `m`'s region of pass `p`'s binned stream (`Sorting::Regions`), its count in the
/// bins; `None` when no object has the material.
pub fn region_stream(g: &SceneGpu, p: usize, m: usize, stride: u64) -> Option<Stream> {
    let pass = &g.passes[p];
    let capacity = *g.material_counts.get(m)?;
    let start = *g.material_starts.get(m)? as u64 * stride;
    let count = 4 * m as u64;
    (capacity > 0).then(|| Stream {
        buffer: pass.binned.buffer(),
        offset: start,
        address: pass.binned.address() + start,
        max_sequences: capacity,
        count: Some(Count { buffer: pass.bins.buffer(), offset: count, address: pass.bins.address() + count }),
    })
}

/// Material `m`'s region of pass `p`'s binned stream as one sequence of a batch layout: the
/// bins hold a DRAW_INDEXED_COUNT token's arguments per material, which multi-draw the region's
/// records, their count the binning writes (`bin_materials.comp`); `None` when no object has
/// the material.
pub fn batch_region_stream(g: &SceneGpu, p: usize, m: usize) -> Option<Stream> {
    let pass = &g.passes[p];
    let offset = BIN_BATCH_OFFSET + 16 * m as u64;
    (*g.material_counts.get(m)? > 0).then(|| Stream {
        buffer: pass.bins.buffer(),
        offset,
        address: pass.bins.address() + offset,
        max_sequences: 1,
        count: None,
    })
}

/// Record one frame into `cmd` (begun by the caller).
///
/// # Safety
/// `cmd` is a command buffer of `ctx`'s device in the recording state, outside a render pass;
/// `g` was created on `ctx`; `g`, the input's driver objects and validators stay alive (not
/// destroyed) until the submission finished.
pub unsafe fn record(
    ctx: &GpuContext,
    g: &SceneGpu,
    cmd: vk::CommandBuffer,
    input: &FrameInput<'_>,
) -> Result<Recorded> {
    // SAFETY: every command below records into `cmd`, which is recording on `ctx`'s device, and names
    // objects of `g` (of `ctx`) and the input's, which outlive the submission (this function's contract).
    unsafe {
        let d = ctx.device();
        let (width, height) = input.size;
        d.cmd_reset_query_pool(cmd, g.queries, 0, g.query_count);
        ts(d, cmd, g, SLOT_START);
        // The frame's uniforms, for every stage after this.
        d.cmd_update_buffer(
            cmd,
            g.frame.buffer(),
            0,
            dgcc::runtime::memory::as_bytes(std::slice::from_ref(input.frame)),
        );
        let uniforms = [vk::MemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
            .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER | vk::PipelineStageFlags2::VERTEX_SHADER)
            .dst_access_mask(vk::AccessFlags2::SHADER_READ)];
        d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&uniforms));
        let gpu_culls = !matches!(input.driver, Driver::Cpu { .. });
        let mut to_attachment = vec![
            vk::ImageMemoryBarrier2::default()
                .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
                .src_access_mask(vk::AccessFlags2::TRANSFER_READ)
                .dst_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
                .dst_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .image(g.color.image())
                .subresource_range(range(vk::ImageAspectFlags::COLOR)),
            vk::ImageMemoryBarrier2::default()
                // The last frame's late draws and its pyramid's reads of this depth.
                .src_stage_mask(vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS | vk::PipelineStageFlags2::COMPUTE_SHADER)
                .src_access_mask(vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE)
                .dst_stage_mask(
                    vk::PipelineStageFlags2::EARLY_FRAGMENT_TESTS | vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS,
                )
                .dst_access_mask(
                    vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE,
                )
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
                .image(g.depth.image())
                .subresource_range(range(vk::ImageAspectFlags::DEPTH)),
        ];
        if let Some(ids) = &g.ids {
            to_attachment.push(
                vk::ImageMemoryBarrier2::default()
                    .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
                    .src_access_mask(vk::AccessFlags2::TRANSFER_READ)
                    .dst_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
                    .dst_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
                    .old_layout(vk::ImageLayout::UNDEFINED)
                    .new_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                    .image(ids.image())
                    .subresource_range(range(vk::ImageAspectFlags::COLOR)),
            );
        }
        image_barrier(d, cmd, &to_attachment);
        let mut host_draws = None;
        for (p, &pass) in CullPass::of(input.culling).iter().enumerate() {
            if p == 1 {
                // The pyramid's time runs from pass 0's draw-end timestamp.
                g.pyramid.record(d, cmd, g.build_pyramid, g.compute_layout, g.depth.image(), input.size);
                ts(d, cmd, g, SLOT_PYRAMID);
                attachments_to_next_pass(d, cmd);
            }
            if gpu_culls {
                cull_pass(d, cmd, g, p, pass, reads_by_dgc(input))?;
                if let Some(v) = input.validators.get(p) {
                    v.record(d, cmd, &stream(g, p))?;
                }
                if input.sorting != Sorting::None {
                    bin_pass(d, cmd, g, p, input.sorting == Sorting::Packed, reads_by_dgc(input));
                }
            }
            let n = draw_pass(d, cmd, g, input, p)?;
            host_draws = host_draws.or(n);
        }
        let mut readbacks = vec![];
        if input.readback {
            readbacks.push((g.color.image(), g.readback.buffer()));
            if let (Some(ids), Some(buffer)) = (&g.ids, &g.id_readback) {
                readbacks.push((ids.image(), buffer.buffer()));
            }
        }
        for (image, buffer) in readbacks {
            let to_transfer = [vk::ImageMemoryBarrier2::default()
                .src_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
                .src_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
                .dst_stage_mask(vk::PipelineStageFlags2::TRANSFER)
                .dst_access_mask(vk::AccessFlags2::TRANSFER_READ)
                .old_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
                .image(image)
                .subresource_range(range(vk::ImageAspectFlags::COLOR))];
            image_barrier(d, cmd, &to_transfer);
            let region = [vk::BufferImageCopy::default()
                .image_subresource(vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                })
                .image_extent(vk::Extent3D { width, height, depth: 1 })];
            d.cmd_copy_image_to_buffer(cmd, image, vk::ImageLayout::TRANSFER_SRC_OPTIMAL, buffer, &region);
        }
        if let (true, Some(host)) = (input.readback, &g.stream_readback) {
            for (pass, buffer) in g.passes.iter().zip(host) {
                let region =
                    [vk::BufferCopy { src_offset: 0, dst_offset: 0, size: buffer.size().min(pass.stream.size()) }];
                d.cmd_copy_buffer(cmd, pass.stream.buffer(), buffer.buffer(), &region);
            }
        }
        // The counts (and the subgroup size the kernel saw) for the host, read after the fence; the
        // barrier below makes the copies (images and counts) visible to the host.
        for (p, pass) in g.passes.iter().enumerate() {
            let region = [vk::BufferCopy { src_offset: COUNT_OFFSET, dst_offset: COUNT_BYTES * p as u64, size: 8 }];
            d.cmd_copy_buffer(cmd, pass.counts.buffer(), g.count_readback.buffer(), &region);
        }
        let host = [vk::MemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
            .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::HOST)
            .dst_access_mask(vk::AccessFlags2::HOST_READ)];
        d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&host));
        if gpu_culls && g.one_pass {
            // Clear the counts for the next frame's fused kernels once everything that reads them —
            // the draws (and DGC preprocessing) and the copies above — is done. Barriers order
            // later submissions on the queue too, so the next frame starts from zero without a
            // clear (and its barrier) in front of its culling.
            let mut readers = vk::PipelineStageFlags2::DRAW_INDIRECT
                | vk::PipelineStageFlags2::TRANSFER
                | vk::PipelineStageFlags2::VERTEX_SHADER;
            if matches!(input.driver, Driver::Dgc { .. }) {
                readers |= dgcc::runtime::ext_dgc::bits::PIPELINE_STAGE_2_COMMAND_PREPROCESS_EXT;
            }
            if !input.validators.is_empty() {
                // The stream validator reads the count in a compute shader, and nothing after
                // it waits for that read (its own last barrier is towards the host).
                readers |= vk::PipelineStageFlags2::COMPUTE_SHADER;
            }
            let done = [vk::MemoryBarrier2::default()
                .src_stage_mask(readers)
                .dst_stage_mask(vk::PipelineStageFlags2::TRANSFER)];
            d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&done));
            for pass in &g.passes {
                // The total and the subgroup size (in order also the tiles'); the batch
                // sequence ahead of them stays.
                d.cmd_fill_buffer(cmd, pass.counts.buffer(), COUNT_OFFSET, g.one_pass_cleared_bytes(), 0);
            }
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

/// Cull (and compact) pass `p` on the GPU.
///
/// # Safety
/// As `record`.
unsafe fn cull_pass(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    g: &SceneGpu,
    p: usize,
    pass: CullPass,
    dgc: Option<DgcReads>,
) -> Result<()> {
    let compute = vk::PipelineBindPoint::COMPUTE;
    let [cull_begin, after_cull, after_compact, ..] = pass_slots(p as u32);
    // What reads the stream and the count after the culling passes.
    let consumers = (
        vk::PipelineStageFlags2::COMPUTE_SHADER
            | vk::PipelineStageFlags2::DRAW_INDIRECT
            | vk::PipelineStageFlags2::VERTEX_SHADER
            | vk::PipelineStageFlags2::TRANSFER
            | dgc.map_or(vk::PipelineStageFlags2::empty(), |r| r.stage),
        vk::AccessFlags2::SHADER_READ
            | vk::AccessFlags2::SHADER_WRITE
            | vk::AccessFlags2::INDIRECT_COMMAND_READ
            | vk::AccessFlags2::TRANSFER_READ
            | dgc.map_or(vk::AccessFlags2::empty(), |r| r.access),
    );
    // SAFETY: the caller's contract.
    unsafe {
        d.cmd_bind_descriptor_sets(cmd, compute, g.compute_layout, 0, &[g.passes[p].set.set(), g.pyramid.set], &[]);
        if g.one_pass {
            d.cmd_bind_pipeline(cmd, compute, g.cull_compact[pass as usize]);
            ts(d, cmd, g, cull_begin);
            d.cmd_dispatch(cmd, g.fused_groups, 1, 1);
            // A pass ends when its kernel has finished (an ALL_COMMANDS timestamp waits for it); the
            // barrier that makes its writes visible to the draws is timed apart (cull → compact is
            // not reported for the fused kernel), as the bandwidth probe times its copies.
            ts(d, cmd, g, after_cull);
            memory_barrier(d, cmd, consumers.0, consumers.1);
            ts(d, cmd, g, after_compact);
        } else {
            d.cmd_bind_pipeline(cmd, compute, g.cull[pass as usize]);
            ts(d, cmd, g, cull_begin);
            d.cmd_dispatch(cmd, g.groups, 1, 1);
            ts(d, cmd, g, after_cull);
            memory_barrier(d, cmd, vk::PipelineStageFlags2::COMPUTE_SHADER, vk::AccessFlags2::SHADER_READ);
            d.cmd_bind_pipeline(cmd, compute, g.compact);
            for phase in [0u32, 1] {
                d.cmd_push_constants(cmd, g.compute_layout, vk::ShaderStageFlags::COMPUTE, 0, &phase.to_le_bytes());
                d.cmd_dispatch(cmd, g.groups, 1, 1);
                if phase == 1 {
                    ts(d, cmd, g, after_compact);
                }
                memory_barrier(d, cmd, consumers.0, consumers.1);
            }
        }
    }
    Ok(())
}

/// Sort pass `p`'s compacted stream by material into its binned stream (`bin_materials.comp`).
///
/// # Safety
/// As `record`.
unsafe fn bin_pass(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    g: &SceneGpu,
    p: usize,
    packed: bool,
    dgc: Option<DgcReads>,
) {
    let compute = vk::PipelineBindPoint::COMPUTE;
    let pass = &g.passes[p];
    // Every object slot, since only the GPU knows the count (workgroups past it return).
    let groups = (g.objects.size() / 32).div_ceil(BIN_RECORDS_PER_WORKGROUP) as u32;
    // SAFETY: the caller's contract.
    unsafe {
        // Each pass has its own bins and binned stream, and the last frame that read them was
        // waited for: only the kernel waits, for the clear.
        d.cmd_fill_buffer(cmd, pass.bins.buffer(), 0, 4 * 32, 0);
        let cleared = [vk::MemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
            .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
            .dst_access_mask(vk::AccessFlags2::SHADER_READ | vk::AccessFlags2::SHADER_WRITE)];
        d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&cleared));
        d.cmd_bind_pipeline(cmd, compute, g.bin);
        d.cmd_bind_descriptor_sets(cmd, compute, g.compute_layout, 0, &[pass.binned_set.set(), g.pyramid.set], &[]);
        for phase in [0u32, 1] {
            let push = [phase, packed as u32];
            d.cmd_push_constants(cmd, g.compute_layout, vk::ShaderStageFlags::COMPUTE, 0, as_bytes(&push));
            d.cmd_dispatch(cmd, groups, 1, 1);
            // Phase 1 reads the counts; the draws read the binned stream and the counts (DGC
            // preprocessing too, so the executor needs no barrier of its own).
            let (dst, access) = if phase == 0 {
                (
                    vk::PipelineStageFlags2::COMPUTE_SHADER,
                    vk::AccessFlags2::SHADER_READ | vk::AccessFlags2::SHADER_WRITE,
                )
            } else {
                (
                    vk::PipelineStageFlags2::DRAW_INDIRECT
                        | vk::PipelineStageFlags2::VERTEX_SHADER
                        | vk::PipelineStageFlags2::COMPUTE_SHADER
                        | vk::PipelineStageFlags2::TRANSFER
                        | dgc.map_or(vk::PipelineStageFlags2::empty(), |r| r.stage),
                    vk::AccessFlags2::SHADER_READ
                        | vk::AccessFlags2::INDIRECT_COMMAND_READ
                        | vk::AccessFlags2::TRANSFER_READ
                        | dgc.map_or(vk::AccessFlags2::empty(), |r| r.access),
                )
            };
            memory_barrier(d, cmd, dst, access);
        }
    }
}

/// Draw pass `p`'s stream (cpu mode: the host's culling, pass 0 only); `Some(draws)` in cpu mode.
///
/// # Safety
/// As `record`.
unsafe fn draw_pass(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    g: &SceneGpu,
    input: &FrameInput<'_>,
    p: usize,
) -> Result<Option<u32>> {
    let graphics = vk::PipelineBindPoint::GRAPHICS;
    let [_, _, _, draw_begin, draw_end] = pass_slots(p as u32);
    let (width, height) = input.size;
    let binned_draws = matches!(input.driver, Driver::DgcBinned { .. });
    let mut render = Render {
        d,
        g,
        width,
        height,
        clear: p == 0,
        started: false,
        chunk_base: SLOT_CHUNKS + 4 * input.chunk_slots * p as u32,
        // Several executes per pass would write the same chunk slots: only the pass is timed.
        chunk_slots: if binned_draws { 0 } else { input.chunk_slots },
    };
    let stride = g.stride;
    let set = if input.sorting == Sorting::None { g.passes[p].set.set() } else { g.passes[p].binned_set.set() };
    // SAFETY: the caller's contract.
    unsafe {
        match &g.shaders {
            // What a pipeline would bake in is set here. An execute binds its shaders itself
            // (the set's initial ones, or those it names); the other modes draw one material
            // (`check_options`) and bind its pair.
            Some(shaders) => {
                shaders.set_state(d, cmd, width, height, 1 + g.ids.is_some() as u32);
                if !matches!(input.driver, Driver::Dgc { .. }) {
                    shaders.bind(cmd, 0);
                }
            }
            None => d.cmd_bind_pipeline(cmd, graphics, g.draws[0]),
        }
        d.cmd_bind_descriptor_sets(cmd, graphics, g.graphics_layout, 0, &[set], &[]);
        // Used when the layout has no INDEX_BUFFER token (`RunOptions::bind_index_buffer`), and
        // by the multi-draw and CPU paths; a token overrides it per sequence.
        d.cmd_bind_index_buffer(cmd, g.indices.buffer(), 0, vk::IndexType::UINT32);
        match &input.driver {
            Driver::Dgc { dev, layout, execs, batch } => {
                ts(d, cmd, g, draw_begin);
                let stream = match (batch, input.sorting) {
                    (true, _) => batch_stream(g, p),
                    (false, Sorting::Packed) => packed_stream(g, p),
                    (false, _) => stream(g, p),
                };
                execs[p].record(dev, layout, cmd, &stream, &mut render)?;
                ts(d, cmd, g, draw_end);
                Ok(None)
            }
            Driver::DgcBinned { dev, layout, execs, batch } => {
                ts(d, cmd, g, draw_begin);
                for (m, exec) in execs[p].iter().enumerate() {
                    let region = match batch {
                        true => batch_region_stream(g, p, m),
                        false => region_stream(g, p, m, stride),
                    };
                    if let Some(region) = region {
                        exec.record(dev, layout, cmd, &region, &mut render)?;
                    }
                }
                ts(d, cmd, g, draw_end);
                Ok(None)
            }
            Driver::Mdi(fallback) => {
                ts(d, cmd, g, draw_begin);
                render.begin_rendering(cmd, p == 0);
                render.phase(cmd, Phase::ExecuteBegin(0));
                if input.sorting == Sorting::Regions {
                    for (m, &pipeline) in g.draws.iter().enumerate() {
                        if let Some(region) = region_stream(g, p, m, stride) {
                            d.cmd_bind_pipeline(cmd, graphics, pipeline);
                            fallback.record(d, cmd, &region, g.graphics_layout, None)?;
                        }
                    }
                } else {
                    fallback.record(d, cmd, &stream(g, p), g.graphics_layout, None)?;
                }
                render.phase(cmd, Phase::ExecuteEnd(0));
                d.cmd_end_rendering(cmd);
                ts(d, cmd, g, draw_end);
                Ok(None)
            }
            Driver::Cpu { objects, lods, sort } => {
                ts(d, cmd, g, draw_begin);
                render.begin_rendering(cmd, true);
                render.phase(cmd, Phase::ExecuteBegin(0));
                let frustum = input.culling != Culling::None;
                let mut visible: Vec<(u32, u32)> = objects
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| !frustum || world::in_frustum(input.frame, o))
                    .map(|(i, o)| (world::material_of(o), i as u32))
                    .collect();
                if *sort {
                    visible.sort_unstable();
                }
                let mut bound = 0;
                for &(material, i) in &visible {
                    if material != bound {
                        let pipeline = g.draws.get(material as usize).copied().unwrap_or(g.draws[0]);
                        d.cmd_bind_pipeline(cmd, graphics, pipeline);
                        bound = material;
                    }
                    let o = &objects[i as usize];
                    let lod = world::lod_index(input.frame, o);
                    dgcc::runtime::push::push(
                        d,
                        cmd,
                        g.graphics_layout,
                        &g.object_push,
                        0,
                        dgcc::runtime::memory::as_bytes(&[i]),
                    );
                    let l = lods[lod];
                    d.cmd_draw_indexed(cmd, l.index_count, 1, l.first_index, l.vertex_offset, 0);
                }
                render.phase(cmd, Phase::ExecuteEnd(0));
                d.cmd_end_rendering(cmd);
                ts(d, cmd, g, draw_end);
                Ok(Some(visible.len() as u32))
            }
        }
    }
}

/// Read the timestamps of one finished frame: `Some(ticks)` per slot that was written.
pub fn timestamps(ctx: &GpuContext, g: &SceneGpu) -> Vec<Option<u64>> {
    let mut data = vec![[0u64; 2]; g.query_count as usize];
    // SAFETY: the frame's submission finished; 64-bit results with availability.
    let r = unsafe {
        ctx.device().get_query_pool_results(
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
