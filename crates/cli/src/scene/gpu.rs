//! The scene's GPU objects: buffers, the descriptor sets, the pipelines, the offscreen colour,
//! depth and object-id targets, the depth pyramid, the timestamp pool.
//!
//! Why one descriptor set layout for everything: every shader of the scene reads the same
//! handful of buffers (objects, frame, flags, stream, candidates, counts, vertices, last
//! visibility — bindings 0..7 as in `scene_data.glsl`, `cull_common.glsl` and the `#define`s
//! before each `#include "generated/scene.glsl"`; 8, the compacted stream again, and 9, the
//! material bins, for `bin_materials.comp`), so one set bound at both bind points keeps the
//! recording short. Binding 1, the frame, is a uniform buffer and the rest are storage buffers
//! (`scene_data.glsl` says why). Each culling pass has two sets of that layout (`set`, and
//! `binned_set` with binding 3 the stream sorted by material): each pass has its own flags,
//! stream and count, so the late pass never writes what the early pass's draws still read.
//! Set 1 is the depth pyramid's (`pyramid`).
//!
//! Why everything the GPU reads per frame is device-local (uploaded once through a staging
//! buffer) and the count is copied out to a small host buffer at the end of the frame: on a
//! discrete GPU host-visible memory sits across PCIe, so shaders reading objects, vertices or
//! indices from it, or the compaction writing its sums there, would measure the bus, not the
//! technique (`dgcc bench` compares the passes against the memory's copy bandwidth).

use super::pyramid::{DepthRead, Pyramid};
use super::shader_objects::MaterialShaders;
use super::teardown::Teardown;
use super::world::{Frame, Meshes, Object};
use super::{Bind, Compaction, Culling, ObjectId};
use ash::vk;
use dgcc::ir::{CompiledLayout, PushConstantRange};
use dgcc::runtime::descriptors::StorageSet;
use dgcc::runtime::error::{Result, RuntimeError};
use dgcc::runtime::kernel_statistics::{pipeline_statistics, ExecutableStatistics};
use dgcc::runtime::memory::{as_bytes, Buffer, Image, Location};
use dgcc::runtime::push::{push_pieces, vk_ranges, PushPiece};
use dgcc::runtime::shaders::{compute_pipeline_with, module, PipelineFlags, Spec, SubgroupPin};
use dgcc::runtime::GpuContext;

const CULL_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/cull.comp.spv");
const COMPACT_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/compact.comp.spv");
const CULL_COMPACT_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/cull_compact.comp.spv");
const VERT_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/scene.vert.spv");
const FRAG_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/scene.frag.spv");
const PYRAMID_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/depth_pyramid.comp.spv");
const PYRAMID_COPY_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/depth_pyramid.copy.comp.spv");
const BIN_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/bin_materials.comp.spv");
// The same stream writers for the shader-object record (`scene_record.glsl`, `--bind shader-objects`).
const CULL_SHADERS_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/cull.shaders.comp.spv");
const COMPACT_SHADERS_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/compact.shaders.comp.spv");
const CULL_COMPACT_SHADERS_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/cull_compact.shaders.comp.spv");
const BIN_SHADERS_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/bin_materials.shaders.comp.spv");

/// Words of a pass's `bins` buffer: per material its count, its scatter cursor and its
/// region's start in the binned stream, then per material a DRAW_INDEXED_COUNT token's
/// arguments over its region (`bin_materials.comp`).
pub const BIN_WORDS: u64 = 48 + 4 * 16;
/// Where material m's batch sequence starts in the bins: `BIN_BATCH_OFFSET + 16 m`.
pub const BIN_BATCH_OFFSET: u64 = 4 * 48;
/// `bin_materials.comp`'s workgroup size (its `local_size_x`).
const BIN_WORKGROUP: u32 = 256;
/// The records one workgroup of `bin_materials.comp` sorts (its `ROUNDS` rounds of
/// `BIN_WORKGROUP`).
pub const BIN_RECORDS_PER_WORKGROUP: u64 = 4 * BIN_WORKGROUP as u64;

/// Objects each invocation of the one-pass kernel culls (its specialization constant 1): a
/// workgroup covers `local size × this` objects (a tile) with one atomic (`Fused`) or one tile
/// of the look-back (`Ordered`). Measured on an H200 at 1M and 4M objects of the field
/// (`book/src/measured/h200-frustum-test.md` and `h200-frame-uniforms.md`; earlier kernels in
/// `h200-kernel-registers.md` and `h200-look-back.md`): unordered, with the frame in a uniform
/// buffer, 128 invocations (the scene's `local_size`) and the branch-free frustum test, 2 runs
/// at 64 % and 85 % of the best copy (30 registers), 3 at 63 % and 89 % (37), 4 at 61–62 % and
/// 90 % (41), and 1 (before the branch-free test) at 57 % and 70 %; in order, where fewer objects
/// per tile make more tiles to look back over, 4 (40 % and 54 % at 64 invocations) beats 3
/// (39 % and 50 %) and 2 (33–34 % and 40 %).
pub fn objects_per_invocation(compaction: Compaction) -> u32 {
    match compaction {
        Compaction::Fused => 3,
        Compaction::Ordered => 4,
    }
}

pub const COLOR_FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
pub const DEPTH_FORMAT: vk::Format = vk::Format::D32_SFLOAT;
pub const ID_FORMAT: vk::Format = vk::Format::R32_UINT;
/// Bytes of one pass's slot in `count_readback`: its total and the subgroup size its kernel saw.
pub const COUNT_BYTES: u64 = 16;
/// Where a pass's count (`total`) sits in its counts buffer: after the batch sequence's
/// address and stride (`shaders/runtime/scene_counts.glsl` says why).
pub const COUNT_OFFSET: u64 = 12;
/// Bytes of a counts buffer before the ordered compaction's group sums.
const COUNTS_HEADER: u64 = 32;

/// What belongs to one culling pass (the single pass of `none` and `frustum`, or the early and
/// the late pass of `occlusion`).
pub struct PassGpu {
    /// One word per object: drawn in this pass (the ordered compaction's input).
    pub flags: Buffer,
    pub stream: Buffer,
    /// The batch sequence's address and stride, the total (its commandCount), the subgroup
    /// size, the ordered one-pass kernel's tile counter, two pad words, then the ordered
    /// compaction's group sums or tile states (`scene_counts.glsl`).
    pub counts: Buffer,
    /// Bindings 0..9 with this pass's flags, stream and counts (binding 8: the stream again,
    /// 9: the bins).
    pub set: StorageSet,
    /// The stream sorted by material (`bin_materials.comp`): in one run, either each
    /// material's records in its own region (binned draws) or all of them packed (sorted).
    pub binned: Buffer,
    /// Per material: count, cursor, region start (`BIN_WORDS`).
    pub bins: Buffer,
    /// `set` with binding 3 the binned stream (what the binning kernel writes and the binned
    /// draws read) and binding 8 the compacted stream (what it reads).
    pub binned_set: StorageSet,
}

pub struct SceneGpu {
    pub objects: Buffer,
    /// The most records a pass's execute or multi-draw reads (`RunOptions::max_draws`; the
    /// object count when not capped).
    pub max_draws: u32,
    pub frame: Buffer,
    pub candidates: Buffer,
    /// One word per object: visible at the end of the last frame's late pass (occlusion).
    pub last_visible: Buffer,
    pub passes: [PassGpu; 2],
    /// Each pass's total and subgroup size (8 bytes of `counts` from `COUNT_OFFSET`), copied at the end of each frame.
    pub count_readback: Buffer,
    pub vertices: Buffer,
    pub indices: Buffer,
    pub readback: Buffer,
    /// The object-id target's pixels (runs that count pixel owners).
    pub id_readback: Option<Buffer>,
    /// Both passes' streams for the host (runs that keep every frame's object ids), to list
    /// what was drawn.
    pub stream_readback: Option<[Buffer; 2]>,
    pub compute_layout: vk::PipelineLayout,
    pub graphics_layout: vk::PipelineLayout,
    /// The culling kernel per pass (`CullPass`), specialized for it; null for the passes this
    /// run's culling choice does not run, and unless the ordered compaction runs in two kernels
    /// (`one_pass` false; `compact` too).
    pub cull: [vk::Pipeline; 3],
    pub compact: vk::Pipeline,
    /// Culling and compaction in one kernel, in object order or not as `compaction` says, per
    /// pass as `cull`; null unless `one_pass`.
    pub cull_compact: [vk::Pipeline; 3],
    /// One graphics pipeline per material, reading per-draw data as the run's mode does
    /// (`DrawSource`).
    pub draws: Vec<vk::Pipeline>,
    /// The materials as shader objects (`Bind::ShaderObjects`): for a shader-object execution
    /// set with several materials, bound for the draws instead of `draws[0]` with one.
    pub shaders: Option<MaterialShaders>,
    /// Sorts a pass's stream by material (`bin_materials.comp`).
    pub bin: vk::Pipeline,
    /// Objects per material (the most records each material's region of a binned stream can
    /// hold) and where each region starts.
    pub material_counts: Vec<u32>,
    pub material_starts: Vec<u32>,
    /// Builds the depth pyramid (`depth_pyramid.comp`).
    pub build_pyramid: vk::Pipeline,
    pub pyramid: Pyramid,
    /// Where the draws of this scene read the object id.
    pub object_id: ObjectId,
    pub color: Image,
    pub depth: Image,
    /// Object id + 1 per pixel (0: background), when the run counts pixel owners.
    pub ids: Option<Image>,
    pub queries: vk::QueryPool,
    pub query_count: u32,
    pub groups: u32,
    /// Workgroups of the fused kernel.
    pub fused_groups: u32,
    /// Which culling path the frames record.
    pub compaction: Compaction,
    /// Whether culling and compaction run as one kernel (`cull_compact`): always for `Fused`,
    /// and for `Ordered` wherever the kernel's shared memory fits the device (else `cull` then
    /// `compact`).
    pub one_pass: bool,
    /// Bytes of a stream record.
    pub stride: u64,
    /// How the CPU loop pushes its 4 bytes (the object id) under the pipeline layout's
    /// ranges, which may name more stages than the vertex shader that reads them.
    pub object_push: Vec<PushPiece>,
    /// What the driver compiled each compute kernel into, when the context can say
    /// (`Capabilities::kernel_statistics`).
    pub kernels: Vec<KernelStatistics>,
}

/// The culling kernels' specialization constant that fixes their pass (`PASS` in
/// cull_common.glsl).
const CULL_PASS_CONSTANT: u32 = 2;
/// `cull_compact.comp`'s specialization constant for object order (`IN_ORDER`): 1 under
/// `Compaction::Ordered`.
const FUSED_IN_ORDER_CONSTANT: u32 = 3;

/// A culling pass, as the kernels number them (`PASS_*` in scene_data.glsl).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CullPass {
    /// `none` and `frustum`: the one pass.
    Single = 0,
    /// Occlusion culling: what was visible last frame.
    Early = 1,
    /// Occlusion culling: everything else, against the depth pyramid.
    Late = 2,
}

impl CullPass {
    /// The passes a frame runs under `culling`, in order.
    pub fn of(culling: Culling) -> &'static [CullPass] {
        match culling {
            Culling::Occlusion => &[CullPass::Early, CullPass::Late],
            Culling::None | Culling::Frustum => &[CullPass::Single],
        }
    }

    /// The names of this pass's culling kernels in reports: `cull`'s and `cull_compact`'s.
    fn kernel_names(self) -> [&'static str; 2] {
        match self {
            CullPass::Single => ["cull", "cull_compact"],
            CullPass::Early => ["cull (early)", "cull_compact (early)"],
            CullPass::Late => ["cull (late)", "cull_compact (late)"],
        }
    }
}

/// One of the scene's compute kernels as the driver compiled it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct KernelStatistics {
    /// The kernel's source file without `.comp`, and its pass under occlusion culling
    /// (`cull (early)`).
    pub kernel: &'static str,
    /// Its workgroup size.
    pub local_size: u32,
    pub executables: Vec<ExecutableStatistics>,
}

/// Where the draw pipelines read per-draw data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawSource {
    /// Push constants (DGC, the CPU loop).
    Push,
    /// The stream record of `gl_DrawID` (the multi-draw fallback, and dgc with `--batch`);
    /// `binned`: of the material's region start + `gl_DrawID`.
    DrawId { binned: bool },
    /// The object id from `gl_InstanceIndex` (`ObjectId::Instance`, dgc and mdi).
    Instance,
    /// The object id from `gl_VertexIndex` (`ObjectId::Vertex`, dgc and mdi).
    Vertex,
}

/// The specialization constants of scene.vert and scene.frag for a draw of `material` reading
/// its object as `source` says, writing object ids when `object_ids`: one table for the
/// pipelines and the shader objects, so that both draw the same pixels. Constant 0 is
/// SCENE_DRAW_MDI_CONSTANT_ID's default (the generated reader's multi-draw switch); 1 is
/// scene.vert's OBJECT_FROM_INSTANCE, 2 its OBJECT_IDS, 3 the material (both stages), 4
/// scene.vert's BINNED, 5 its OBJECT_FROM_VERTEX.
pub(super) fn draw_constants(source: DrawSource, object_ids: bool, material: u32) -> [(u32, u32); 6] {
    [
        (0, matches!(source, DrawSource::DrawId { .. }) as u32),
        (1, (source == DrawSource::Instance) as u32),
        (2, object_ids as u32),
        (3, material),
        (4, matches!(source, DrawSource::DrawId { binned: true }) as u32),
        (5, (source == DrawSource::Vertex) as u32),
    ]
}

pub struct SceneSetup<'a> {
    pub objects: &'a [Object],
    /// How many materials (pipelines) the objects use.
    pub materials: u32,
    pub source: DrawSource,
    /// Create the draw pipelines with `VK_PIPELINE_CREATE_2_INDIRECT_BINDABLE_BIT_EXT`, for an
    /// execution set.
    pub indirect_bindable: bool,
    /// What the draws bind: with shader objects the materials are made as shader objects too,
    /// and with several materials the kernels write `layout` as the shader-object set's record.
    pub bind: Bind,
    pub meshes: &'a Meshes,
    pub layout: &'a CompiledLayout,
    pub push_constants: &'a [PushConstantRange],
    pub local_size: u32,
    pub pin: Option<SubgroupPin>,
    pub width: u32,
    pub height: u32,
    pub query_count: u32,
    pub compaction: Compaction,
    pub object_id: ObjectId,
    /// How the depth pyramid's kernel is pinned (its kernel in the description).
    pub pyramid_pin: Option<SubgroupPin>,
    /// Render object ids into an R32_UINT target and read them back every frame.
    pub object_ids: bool,
    /// Read both passes' streams back every frame too.
    pub streams_for_host: bool,
    /// `RunOptions::max_draws`, at most the object count.
    pub max_draws: u32,
    /// Which culling passes the frames run (one pipeline of each culling kernel per pass).
    pub culling: Culling,
    /// Whether the frames cull on the GPU (every mode but cpu): the culling dispatches must fit
    /// the device's workgroup count.
    pub culls_on_gpu: bool,
}

impl SceneGpu {
    /// Create everything. An error part-way destroys what was made before it (`Teardown`), so
    /// that a failed row of `dgcc bench` leaves nothing on the context the next rows share.
    pub fn new(ctx: &GpuContext, s: &SceneSetup<'_>) -> Result<SceneGpu> {
        // SAFETY: everything recorded is made on this device below; each step that submits work
        // (`upload`, `one_shot`) waits for it, so nothing recorded is in use at any `?`.
        let mut t = unsafe { Teardown::new(ctx.device()) };
        let n = s.objects.len() as u64;
        let object_push = push_pieces(s.push_constants, 0, 4).map_err(|why| {
            RuntimeError::Invalid(format!("the scene pushes 4 bytes at offset 0 per draw, but {why}"))
        })?;
        let stride = s.layout.stride as u64;
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
        let indirect = storage | vk::BufferUsageFlags::INDIRECT_BUFFER | vk::BufferUsageFlags::TRANSFER_SRC;
        let groups = (n as u32).div_ceil(s.local_size);
        let fused_groups = (n as u32).div_ceil(s.local_size * objects_per_invocation(s.compaction));
        let upload_dst = storage | vk::BufferUsageFlags::TRANSFER_DST;
        let objects = t.made(Buffer::new(ctx, 32 * n, upload_dst, Location::Device))?;
        upload(ctx, &objects, as_bytes(s.objects))?;
        // The frame uniforms are rewritten at the start of every frame (`vkCmdUpdateBuffer`), and
        // read as a uniform buffer (`scene_data.glsl` says why).
        let frame_usage = vk::BufferUsageFlags::UNIFORM_BUFFER | vk::BufferUsageFlags::TRANSFER_DST;
        let frame = t.made(Buffer::new(ctx, std::mem::size_of::<Frame>() as u64, frame_usage, Location::Device))?;
        let candidates = t.made(Buffer::new(ctx, stride * n, storage, Location::Device))?;
        let transfer = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
        let last_visible = t.made(Buffer::new(ctx, 4 * n, storage | transfer, Location::Device))?;
        let (material_counts, material_starts) = super::world::material_regions(s.objects, s.materials);
        let draw_offset = s
            .layout
            .action()
            .filter(|t| t.token_type == dgcc::ir::TokenType::DrawIndexed)
            .map(|t| t.offset as u64)
            .ok_or_else(|| RuntimeError::Invalid(format!("layout `{}` has no DrawIndexed token", s.layout.name)))?;
        let mut pass_buffers = vec![];
        for _ in 0..2 {
            let flags = t.made(Buffer::new(ctx, 4 * n, storage, Location::Device))?;
            let stream = t.made(Buffer::new(ctx, stride * n, indirect, Location::Device))?;
            let counts =
                t.made(Buffer::new(ctx, COUNTS_HEADER + 4 * groups as u64, indirect | transfer, Location::Device))?;
            // Only runs with materials draw from it (binned or sorted).
            let binned_records = if s.materials > 1 { n } else { 1 };
            let binned = t.made(Buffer::new(ctx, stride * binned_records, indirect, Location::Device))?;
            let bins = t.made(Buffer::new(ctx, 4 * BIN_WORDS, indirect | transfer, Location::Device))?;
            // Each material's region start, and the address and stride of its batch sequence
            // (its count is the binning's to write).
            let mut words = [0u32; BIN_WORDS as usize];
            for (m, &start) in material_starts.iter().enumerate() {
                words[32 + m] = start;
                let draws = binned.address() + start as u64 * stride + draw_offset;
                let batch = (BIN_BATCH_OFFSET / 4) as usize + 4 * m;
                words[batch..batch + 3].copy_from_slice(&[draws as u32, (draws >> 32) as u32, stride as u32]);
            }
            upload(ctx, &bins, as_bytes(&words))?;
            pass_buffers.push((flags, stream, counts, binned, bins));
        }
        let count_readback =
            t.made(Buffer::new(ctx, 2 * COUNT_BYTES, vk::BufferUsageFlags::TRANSFER_DST, Location::Host))?;
        // The fused kernel adds to the counts; every frame leaves them at zero for the next. No
        // object was visible before the first frame. Ahead of each count, the batch sequence
        // that multi-draws the pass's records: their draw arguments' address and the stride.
        ctx.one_shot(|cmd| {
            // SAFETY: fresh buffers with TRANSFER_DST; the fill and the update write disjoint bytes.
            unsafe {
                for (_, stream, counts, _, _) in &pass_buffers {
                    ctx.device().cmd_fill_buffer(cmd, counts.buffer(), COUNT_OFFSET, vk::WHOLE_SIZE, 0);
                    let draws = stream.address() + draw_offset;
                    let batch = [draws as u32, (draws >> 32) as u32, stride as u32];
                    ctx.device().cmd_update_buffer(cmd, counts.buffer(), 0, as_bytes(&batch));
                }
                ctx.device().cmd_fill_buffer(cmd, last_visible.buffer(), 0, vk::WHOLE_SIZE, 0);
            }
            Ok(())
        })?;
        let vertices = t.made(Buffer::new(ctx, 16 * s.meshes.vertices.len() as u64, upload_dst, Location::Device))?;
        upload(ctx, &vertices, as_bytes(&s.meshes.vertices))?;
        let indices = t.made(Buffer::new(
            ctx,
            4 * s.meshes.indices.len() as u64,
            vk::BufferUsageFlags::INDEX_BUFFER | upload_dst,
            Location::Device,
        ))?;
        upload(ctx, &indices, as_bytes(&s.meshes.indices))?;
        let pixels = s.width as u64 * s.height as u64;
        let host_buffer =
            |t: &mut Teardown, size| t.made(Buffer::new(ctx, size, vk::BufferUsageFlags::TRANSFER_DST, Location::Host));
        let readback = host_buffer(&mut t, 4 * pixels)?;
        let id_readback = match s.object_ids {
            true => Some(host_buffer(&mut t, 4 * pixels)?),
            false => None,
        };
        let stream_readback = match s.streams_for_host {
            true => Some([host_buffer(&mut t, stride * n)?, host_buffer(&mut t, stride * n)?]),
            false => None,
        };
        let d = ctx.device();
        let stages = vk::ShaderStageFlags::COMPUTE | vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
        let mut passes = vec![];
        for (flags, stream, counts, binned, bins) in pass_buffers {
            let storage_buffer = vk::DescriptorType::STORAGE_BUFFER;
            let mut bound = [
                (storage_buffer, objects.buffer()),
                (vk::DescriptorType::UNIFORM_BUFFER, frame.buffer()),
                (storage_buffer, flags.buffer()),
                (storage_buffer, stream.buffer()),
                (storage_buffer, candidates.buffer()),
                (storage_buffer, counts.buffer()),
                (storage_buffer, vertices.buffer()),
                (storage_buffer, last_visible.buffer()),
                (storage_buffer, stream.buffer()),
                (storage_buffer, bins.buffer()),
            ];
            // SAFETY: live buffers of this device with the usage of their binding's type (the
            // frame, 560 bytes, a uniform buffer; the rest storage), destroyed after the set
            // (`destroy`).
            let set = t.made(unsafe { StorageSet::with_types(d, stages, &bound) })?;
            bound[3].1 = binned.buffer();
            // SAFETY: as above.
            let binned_set = t.made(unsafe { StorageSet::with_types(d, stages, &bound) })?;
            passes.push(PassGpu { flags, stream, counts, set, binned, bins, binned_set });
        }
        let passes: [PassGpu; 2] = passes.try_into().map_err(|_| RuntimeError::Invalid("two passes".into()))?;
        let color = t.made(Image::new(
            ctx,
            COLOR_FORMAT,
            (s.width, s.height),
            vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
            vk::ImageAspectFlags::COLOR,
        ))?;
        let depth_read = DepthRead::for_run(ctx, s.culling);
        let depth_usage = match depth_read {
            DepthRead::Sampled => vk::ImageUsageFlags::SAMPLED,
            DepthRead::Copied => vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_SRC,
        };
        let depth = t.made(Image::new(
            ctx,
            DEPTH_FORMAT,
            (s.width, s.height),
            vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT | depth_usage,
            vk::ImageAspectFlags::DEPTH,
        ))?;
        let ids = match s.object_ids {
            true => Some(t.made(Image::new(
                ctx,
                ID_FORMAT,
                (s.width, s.height),
                vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
                vk::ImageAspectFlags::COLOR,
            ))?),
            false => None,
        };
        let pyramid = t.made(Pyramid::new(ctx, depth.view(), depth_read, s.width, s.height))?;
        let set_layout = passes[0].set.layout();
        // Offset 0: the compaction phase; 4..16: the pyramid's size.
        let compute_layout = t.made(pipeline_layout(
            d,
            &[set_layout, pyramid.set_layout],
            &[vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: 16 }],
        ))?;
        let ranges = vk_ranges(s.push_constants);
        let graphics_layout = t.made(pipeline_layout(d, &[set_layout], &ranges))?;
        // SAFETY (the three kernels): embedded SPIR-V compiled for `compute_layout` (the set and a
        // 16-byte compute push range); `s.pin` was checked against the device by the caller.
        // The shader-object set's record (`SceneDrawShaders`), whose kernels write a shader index
        // per stage; one material's shader objects draw the scene's own records.
        let objects_record = s.bind == Bind::ShaderObjects && s.materials > 1;
        let pick = |pipelines: &'static [u8], shaders: &'static [u8]| if objects_record { shaders } else { pipelines };
        let cull_spv = pick(CULL_SPV, CULL_SHADERS_SPV);
        let flags = PipelineFlags { capture_statistics: ctx.caps().kernel_statistics, ..PipelineFlags::default() };
        // One pipeline per pass the run culls in, each with its pass as a specialization
        // constant (cull_common.glsl says why).
        let cull_passes = CullPass::of(s.culling);
        // One kernel wherever its staging fits in shared memory (the caller refused `Fused`
        // where it does not); the ordered compaction falls back to cull.comp + compact.comp.
        let in_order = s.compaction == Compaction::Ordered;
        let one_pass = fused_shared_bytes(s.local_size, stride as u32, in_order)
            <= ctx.properties().limits.max_compute_shared_memory_size;
        if s.culls_on_gpu {
            // Every pass over the objects is one row of workgroups (frame.rs's dispatches): the
            // one-pass kernel's, or cull.comp's and compact.comp's, and the binning's.
            let bin_groups = n.div_ceil(BIN_RECORDS_PER_WORKGROUP) as u32;
            let most = if one_pass { fused_groups } else { groups }.max(bin_groups);
            let limit = ctx.properties().limits.max_compute_work_group_count[0];
            if most > limit {
                return Err(RuntimeError::Invalid(format!(
                    "{n} objects take {most} workgroups in one dispatch of the culling kernel (local_size {}), past {}'s maxComputeWorkGroupCount[0] = {limit} (VUID-vkCmdDispatch-groupCountX-00386); give fewer --objects, or a larger local_size in the description",
                    s.local_size, ctx.device_name()
                )));
            }
        }
        let mut cull = [vk::Pipeline::null(); 3];
        let mut compact = vk::Pipeline::null();
        let mut cull_compact = [vk::Pipeline::null(); 3];
        if one_pass {
            let spv = pick(CULL_COMPACT_SPV, CULL_COMPACT_SHADERS_SPV);
            for &pass in cull_passes {
                let spec = [
                    (0, s.local_size),
                    (1, objects_per_invocation(s.compaction)),
                    (CULL_PASS_CONSTANT, pass as u32),
                    (FUSED_IN_ORDER_CONSTANT, in_order as u32),
                ];
                cull_compact[pass as usize] =
                    t.made(unsafe { compute_pipeline_with(d, compute_layout, spv, &spec, s.pin, flags) })?;
            }
        } else {
            for &pass in cull_passes {
                let spec = [(0, s.local_size), (CULL_PASS_CONSTANT, pass as u32)];
                cull[pass as usize] =
                    t.made(unsafe { compute_pipeline_with(d, compute_layout, cull_spv, &spec, None, flags) })?;
            }
            let compact_spv = pick(COMPACT_SPV, COMPACT_SHADERS_SPV);
            let spec = [(0, s.local_size)];
            compact = t.made(unsafe { compute_pipeline_with(d, compute_layout, compact_spv, &spec, s.pin, flags) })?;
        }
        // SAFETY: as above; the kernel declares its own 256-wide workgroup, and its pin was
        // checked against the device by the caller.
        let pyramid_spv = match depth_read {
            DepthRead::Sampled => PYRAMID_SPV,
            DepthRead::Copied => PYRAMID_COPY_SPV,
        };
        let build_pyramid =
            t.made(unsafe { compute_pipeline_with(d, compute_layout, pyramid_spv, &[], s.pyramid_pin, flags) })?;
        // SAFETY: as above; the kernel declares its own 256-wide workgroup.
        let bin_spv = pick(BIN_SPV, BIN_SHADERS_SPV);
        let bin = t.made(unsafe { compute_pipeline_with(d, compute_layout, bin_spv, &[], None, flags) })?;
        let mut kernels = vec![];
        if let Some(ext) = ctx.executable_properties() {
            let mut made = vec![];
            for &pass in cull_passes {
                let [cull_name, fused_name] = pass.kernel_names();
                made.push((cull_name, cull[pass as usize], s.local_size));
                made.push((fused_name, cull_compact[pass as usize], s.local_size));
            }
            made.push(("compact", compact, s.local_size));
            made.push(("depth_pyramid", build_pyramid, super::pyramid::WORKGROUP));
            made.push(("bin_materials", bin, BIN_WORKGROUP));
            for (kernel, pipeline, local_size) in made.into_iter().filter(|(_, p, _)| *p != vk::Pipeline::null()) {
                // SAFETY: `ext` is the context's (pipelineExecutableInfo enabled); every kernel
                // above was made on its device with the statistics flag.
                let executables = unsafe { pipeline_statistics(ext, pipeline)? };
                kernels.push(KernelStatistics { kernel, local_size, executables });
            }
        }
        let targets = Targets { width: s.width, height: s.height, ids: s.object_ids };
        let mut draws = vec![];
        for material in 0..s.materials.max(1) {
            let variant = Variant { source: s.source, material, indirect_bindable: s.indirect_bindable };
            draws.push(t.made(graphics_pipeline(d, graphics_layout, variant, targets))?);
        }
        let pool_info =
            vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(s.query_count);
        // SAFETY: valid create info.
        let queries =
            t.made(unsafe { d.create_query_pool(&pool_info, None) }.map_err(RuntimeError::vk("vkCreateQueryPool")))?;
        // Last, so that nothing after it can fail: `MaterialShaders::new` destroys its own
        // shaders when one fails, and the teardown does not know them.
        let shaders = match s.bind {
            Bind::ShaderObjects => {
                let (materials, source, ids) = (s.materials, s.source, s.object_ids);
                Some(MaterialShaders::new(ctx, materials, source, ids, &[set_layout], &ranges, objects_record)?)
            }
            Bind::Pipelines => None,
        };
        t.keep();
        Ok(SceneGpu {
            max_draws: s.max_draws,
            objects,
            frame,
            candidates,
            last_visible,
            passes,
            count_readback,
            vertices,
            indices,
            readback,
            id_readback,
            stream_readback,
            compute_layout,
            graphics_layout,
            cull,
            compact,
            cull_compact,
            draws,
            shaders,
            bin,
            material_counts,
            material_starts,
            build_pyramid,
            pyramid,
            object_id: s.object_id,
            color,
            depth,
            ids,
            queries,
            query_count: s.query_count,
            groups,
            fused_groups,
            compaction: s.compaction,
            one_pass,
            object_push,
            kernels,
            stride,
        })
    }

    /// # Safety
    /// Everything was created on `d` (by `new`), and the device is idle.
    pub unsafe fn destroy(&mut self, d: &ash::Device) {
        // SAFETY: every object was created on `d`, and the device is idle (this function's contract).
        unsafe {
            for b in [
                &mut self.objects,
                &mut self.frame,
                &mut self.candidates,
                &mut self.last_visible,
                &mut self.count_readback,
                &mut self.vertices,
                &mut self.indices,
                &mut self.readback,
            ] {
                b.destroy(d);
            }
            if let Some(b) = &mut self.id_readback {
                b.destroy(d);
            }
            for b in self.stream_readback.iter_mut().flatten() {
                b.destroy(d);
            }
            for p in &mut self.passes {
                p.set.destroy(d);
                p.binned_set.destroy(d);
                p.flags.destroy(d);
                p.stream.destroy(d);
                p.counts.destroy(d);
                p.binned.destroy(d);
                p.bins.destroy(d);
            }
            for p in self
                .cull
                .into_iter()
                .chain(self.cull_compact)
                .chain([self.compact, self.bin, self.build_pyramid])
                .chain(self.draws.drain(..))
            {
                d.destroy_pipeline(p, None);
            }
            if let Some(shaders) = &mut self.shaders {
                shaders.destroy();
            }
            d.destroy_pipeline_layout(self.compute_layout, None);
            d.destroy_pipeline_layout(self.graphics_layout, None);
            self.pyramid.destroy(d);
            for t in [Some(&mut self.color), Some(&mut self.depth), self.ids.as_mut()].into_iter().flatten() {
                t.destroy(d);
            }
            d.destroy_query_pool(self.queries, None);
        }
    }
}

impl SceneGpu {
    /// Bytes of a pass's counts from `COUNT_OFFSET` that the one kernel needs zero before it
    /// runs: the total and the subgroup size, and in order also the tile counter and every
    /// tile's state (`cull_compact.comp`, `scene_counts.glsl`).
    pub fn one_pass_cleared_bytes(&self) -> u64 {
        match self.compaction {
            Compaction::Fused => 8,
            Compaction::Ordered => COUNTS_HEADER - COUNT_OFFSET + 4 * self.fused_groups as u64,
        }
    }
}

/// Shared memory the fused kernel declares: one round of staged records, one per invocation,
/// a word per possible subgroup (in order: per round and subgroup), and the workgroup's first
/// slot and tile.
pub fn fused_shared_bytes(local_size: u32, stride: u32, in_order: bool) -> u32 {
    let slots = if in_order { objects_per_invocation(Compaction::Ordered) } else { 1 };
    local_size * stride + 4 * local_size * slots + 8
}

/// Copy `data` to the start of a device-local buffer (made with `TRANSFER_DST`) through a
/// host-visible staging buffer, and wait.
pub fn upload(ctx: &GpuContext, dst: &Buffer, data: &[u8]) -> Result<()> {
    if data.len() as u64 > dst.size() {
        return Err(RuntimeError::Invalid("upload past the end of a buffer".into()));
    }
    if data.is_empty() {
        return Ok(());
    }
    let mut staging = Buffer::new(ctx, data.len() as u64, vk::BufferUsageFlags::TRANSFER_SRC, Location::Host)?;
    let result = staging.write(0, data).and_then(|_| {
        ctx.one_shot(|cmd| {
            let region = [vk::BufferCopy { src_offset: 0, dst_offset: 0, size: data.len() as u64 }];
            // SAFETY: both buffers are large enough and idle.
            unsafe { ctx.device().cmd_copy_buffer(cmd, staging.buffer(), dst.buffer(), &region) };
            Ok(())
        })
    });
    // SAFETY: `one_shot` waited for the copy (or never submitted it).
    unsafe { staging.destroy(ctx.device()) };
    result
}

fn pipeline_layout(
    d: &ash::Device,
    sets: &[vk::DescriptorSetLayout],
    ranges: &[vk::PushConstantRange],
) -> Result<vk::PipelineLayout> {
    let info = vk::PipelineLayoutCreateInfo::default().set_layouts(sets).push_constant_ranges(ranges);
    // SAFETY: valid create info.
    unsafe { d.create_pipeline_layout(&info, None) }.map_err(RuntimeError::vk("vkCreatePipelineLayout"))
}

/// One draw pipeline: where it reads per-draw data, which material it shades.
#[derive(Clone, Copy)]
struct Variant {
    source: DrawSource,
    material: u32,
    indirect_bindable: bool,
}

/// What the draws render into.
#[derive(Clone, Copy)]
struct Targets {
    width: u32,
    height: u32,
    /// A second colour attachment for object ids.
    ids: bool,
}

fn graphics_pipeline(
    d: &ash::Device,
    layout: vk::PipelineLayout,
    variant: Variant,
    targets: Targets,
) -> Result<vk::Pipeline> {
    let Targets { width, height, ids } = targets;
    // SAFETY: the scene's embedded, valid SPIR-V.
    let vert = unsafe { module(d, VERT_SPV)? };
    // SAFETY: as above.
    let frag = match unsafe { module(d, FRAG_SPV) } {
        Ok(m) => m,
        Err(e) => {
            unsafe { d.destroy_shader_module(vert, None) };
            return Err(e);
        }
    };
    let spec = Spec::new(&draw_constants(variant.source, ids, variant.material));
    let spec_info = spec.info();
    let stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vert)
            .name(c"main")
            .specialization_info(&spec_info),
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::FRAGMENT)
            .module(frag)
            .name(c"main")
            .specialization_info(&spec_info),
    ];
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewports =
        [vk::Viewport { x: 0.0, y: 0.0, width: width as f32, height: height as f32, min_depth: 0.0, max_depth: 1.0 }];
    let scissors = [vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width, height } }];
    let viewport = vk::PipelineViewportStateCreateInfo::default().viewports(&viewports).scissors(&scissors);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .line_width(1.0);
    let multisample =
        vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let depth = vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(true)
        .depth_write_enable(true)
        .depth_compare_op(vk::CompareOp::LESS);
    let attachments =
        [vk::PipelineColorBlendAttachmentState::default().color_write_mask(vk::ColorComponentFlags::RGBA); 2];
    let count = if ids { 2 } else { 1 };
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&attachments[..count]);
    let formats = [COLOR_FORMAT, ID_FORMAT];
    let formats = &formats[..count];
    let mut rendering = vk::PipelineRenderingCreateInfo::default()
        .color_attachment_formats(formats)
        .depth_attachment_format(DEPTH_FORMAT);
    let mut flags2 = vk::PipelineCreateFlags2CreateInfoKHR::default()
        .flags(dgcc::runtime::ext_dgc::bits::PIPELINE_CREATE_2_INDIRECT_BINDABLE_EXT);
    let info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .depth_stencil_state(&depth)
        .color_blend_state(&blend)
        .layout(layout)
        .push_next(&mut rendering);
    let info = [if variant.indirect_bindable { info.push_next(&mut flags2) } else { info }];
    // SAFETY: valid create info; modules are destroyed after creation either way.
    let result = unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &info, None) };
    unsafe {
        d.destroy_shader_module(vert, None);
        d.destroy_shader_module(frag, None);
    }
    result.map(|p| p[0]).map_err(|(_, r)| RuntimeError::Vulkan { call: "vkCreateGraphicsPipelines", result: r })
}
