//! The scene's GPU objects: buffers, the descriptor set, the four pipelines, the offscreen
//! colour and depth targets, the timestamp pool.
//!
//! Why one descriptor set for everything: every shader of the scene reads the same handful of
//! buffers (objects, frame, visibility, stream, candidates, counts, vertices — bindings 0..6 as
//! in `scene_data.glsl` and the `#define`s before each `#include "generated/scene.glsl"`), so
//! one set bound at both bind points keeps the recording short.
//!
//! Why everything the GPU reads per frame is device-local (uploaded once through a staging
//! buffer) and the count is copied out to a small host buffer at the end of the frame: on a
//! discrete GPU host-visible memory sits across PCIe, so shaders reading objects, vertices or
//! indices from it, or the compaction writing its sums there, would measure the bus, not the
//! technique (`dgcc bench` compares the passes against the memory's copy bandwidth).

use super::world::{Frame, Meshes, Object};
use super::{Compaction, ObjectId};
use ash::vk;
use dgcc::ir::{CompiledLayout, PushConstantRange};
use dgcc::runtime::descriptors::StorageSet;
use dgcc::runtime::error::{Result, RuntimeError};
use dgcc::runtime::memory::{as_bytes, memory_type, Buffer, Location};
use dgcc::runtime::push::{push_pieces, vk_ranges, PushPiece};
use dgcc::runtime::shaders::{compute_pipeline, module, Spec, SubgroupPin};
use dgcc::runtime::GpuContext;

const CULL_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/cull.comp.spv");
const COMPACT_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/compact.comp.spv");
const CULL_COMPACT_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/cull_compact.comp.spv");
const VERT_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/scene.vert.spv");
const FRAG_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/scene.frag.spv");

/// Objects each invocation of the fused kernel culls (its specialization constant 1): a
/// subgroup claims its slots with one atomic per `subgroup size × this` objects. Measured on an
/// H200 with 1 M and 4 M objects at local sizes 64, 128 and 256
/// (`book/src/measured/h200-fused-sweep.md` has the table): 1 and 2 are held back by the atomics on the one count (33 % and 46 %
/// of the copy bandwidth at 1 M), 4 is the best at 1 M (51 %), 5–8 trade a little at 1 M for a
/// little at 4 M.
pub const FUSED_OBJECTS_PER_INVOCATION: u32 = 4;

pub const COLOR_FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
pub const DEPTH_FORMAT: vk::Format = vk::Format::D32_SFLOAT;

pub struct Target {
    pub image: vk::Image,
    pub memory: vk::DeviceMemory,
    pub view: vk::ImageView,
}

pub struct SceneGpu {
    pub objects: Buffer,
    pub frame: Buffer,
    pub visibility: Buffer,
    pub stream: Buffer,
    pub candidates: Buffer,
    pub counts: Buffer,
    /// The first 16 bytes of `counts` (total, subgroup size), copied at the end of each frame.
    pub count_readback: Buffer,
    pub vertices: Buffer,
    pub indices: Buffer,
    pub readback: Buffer,
    pub set: StorageSet,
    pub compute_layout: vk::PipelineLayout,
    pub graphics_layout: vk::PipelineLayout,
    pub cull: vk::Pipeline,
    pub compact: vk::Pipeline,
    /// Culling and compaction in one kernel (unordered output; `Compaction::Fused`); null when
    /// its shared memory does not fit the device at this workgroup size.
    pub cull_compact: vk::Pipeline,
    /// Per-draw data from push constants (DGC, CPU loop).
    pub draw_push: vk::Pipeline,
    /// Per-draw data from the stream record of `gl_DrawID` (multi-draw fallback).
    pub draw_mdi: vk::Pipeline,
    /// The object id from `gl_InstanceIndex` (`ObjectId::Instance`, dgc and mdi).
    pub draw_instance: vk::Pipeline,
    /// Where the draws of this scene read the object id.
    pub object_id: ObjectId,
    pub color: Target,
    pub depth: Target,
    pub queries: vk::QueryPool,
    pub query_count: u32,
    pub groups: u32,
    /// Workgroups of the fused kernel.
    pub fused_groups: u32,
    /// Which culling path the frames record.
    pub compaction: Compaction,
    /// How the CPU loop pushes its 8 bytes (object id, material id) under the pipeline layout's
    /// ranges, which may name more stages than the vertex shader that reads them.
    pub object_push: Vec<PushPiece>,
}

pub struct SceneSetup<'a> {
    pub objects: &'a [Object],
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
}

impl SceneGpu {
    /// Create everything. An error part-way leaves the objects created so far to the device's
    /// destruction (the scene's context is dropped right after a failed setup).
    pub fn new(ctx: &GpuContext, s: &SceneSetup<'_>) -> Result<SceneGpu> {
        let n = s.objects.len() as u64;
        let object_push = push_pieces(s.push_constants, 0, 8).map_err(|why| {
            RuntimeError::Invalid(format!("the scene pushes 8 bytes at offset 0 per draw, but {why}"))
        })?;
        let stride = s.layout.stride as u64;
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
        let indirect = storage | vk::BufferUsageFlags::INDIRECT_BUFFER;
        let groups = (n as u32).div_ceil(s.local_size);
        let upload_dst = storage | vk::BufferUsageFlags::TRANSFER_DST;
        let objects = Buffer::new(ctx, 32 * n, upload_dst, Location::Device)?;
        upload(ctx, &objects, as_bytes(s.objects))?;
        let frame = Buffer::new(ctx, std::mem::size_of::<Frame>() as u64, upload_dst, Location::Device)?;
        let visibility = Buffer::new(ctx, 4 * n, storage, Location::Device)?;
        let stream = Buffer::new(ctx, stride * n, indirect, Location::Device)?;
        let candidates = Buffer::new(ctx, stride * n, storage, Location::Device)?;
        let transfer = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
        let counts = Buffer::new(ctx, 16 + 4 * groups as u64, indirect | transfer, Location::Device)?;
        let count_readback = Buffer::new(ctx, 16, vk::BufferUsageFlags::TRANSFER_DST, Location::Host)?;
        // The fused kernel adds to the count; every frame leaves it at zero for the next.
        ctx.one_shot(|cmd| {
            // SAFETY: a fresh buffer with TRANSFER_DST.
            unsafe { ctx.device.cmd_fill_buffer(cmd, counts.buffer, 0, vk::WHOLE_SIZE, 0) };
            Ok(())
        })?;
        let vertices = Buffer::new(ctx, 16 * s.meshes.vertices.len() as u64, upload_dst, Location::Device)?;
        upload(ctx, &vertices, as_bytes(&s.meshes.vertices))?;
        let indices = Buffer::new(
            ctx,
            4 * s.meshes.indices.len() as u64,
            vk::BufferUsageFlags::INDEX_BUFFER | upload_dst,
            Location::Device,
        )?;
        upload(ctx, &indices, as_bytes(&s.meshes.indices))?;
        let readback =
            Buffer::new(ctx, 4 * s.width as u64 * s.height as u64, vk::BufferUsageFlags::TRANSFER_DST, Location::Host)?;
        let d = &ctx.device;
        let stages = vk::ShaderStageFlags::COMPUTE | vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
        let bound = [
            objects.buffer,
            frame.buffer,
            visibility.buffer,
            stream.buffer,
            candidates.buffer,
            counts.buffer,
            vertices.buffer,
        ];
        // SAFETY: live storage buffers of this device, destroyed after the set (`destroy`).
        let set = unsafe { StorageSet::new(d, stages, &bound)? };
        let compute_layout = pipeline_layout(
            d,
            set.layout,
            &[vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: 4 }],
        )?;
        let ranges = vk_ranges(s.push_constants);
        let graphics_layout = pipeline_layout(d, set.layout, &ranges)?;
        // SAFETY (the three kernels): embedded SPIR-V compiled for `compute_layout` (the set and a
        // 4-byte compute push range); `s.pin` was checked against the device by the caller.
        let cull = unsafe { compute_pipeline(d, compute_layout, CULL_SPV, &[(0, s.local_size)], None)? };
        let compact = unsafe { compute_pipeline(d, compute_layout, COMPACT_SPV, &[(0, s.local_size)], s.pin)? };
        let fused_spec = [(0, s.local_size), (1, FUSED_OBJECTS_PER_INVOCATION)];
        let cull_compact = if fused_shared_bytes(s.local_size, stride as u32)
            <= ctx.properties.limits.max_compute_shared_memory_size
        {
            unsafe { compute_pipeline(d, compute_layout, CULL_COMPACT_SPV, &fused_spec, s.pin)? }
        } else {
            vk::Pipeline::null()
        };
        let draw_push = graphics_pipeline(d, graphics_layout, ObjectSource::Push, s.width, s.height)?;
        let draw_mdi = graphics_pipeline(d, graphics_layout, ObjectSource::DrawId, s.width, s.height)?;
        let draw_instance = graphics_pipeline(d, graphics_layout, ObjectSource::Instance, s.width, s.height)?;
        let color = target(
            ctx,
            COLOR_FORMAT,
            vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
            vk::ImageAspectFlags::COLOR,
            s,
        )?;
        let depth =
            target(ctx, DEPTH_FORMAT, vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT, vk::ImageAspectFlags::DEPTH, s)?;
        let pool_info =
            vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(s.query_count);
        // SAFETY: valid create info.
        let queries =
            unsafe { d.create_query_pool(&pool_info, None) }.map_err(RuntimeError::vk("vkCreateQueryPool"))?;
        Ok(SceneGpu {
            objects,
            frame,
            visibility,
            stream,
            candidates,
            counts,
            count_readback,
            vertices,
            indices,
            readback,
            set,
            compute_layout,
            graphics_layout,
            cull,
            compact,
            cull_compact,
            draw_push,
            draw_mdi,
            draw_instance,
            object_id: s.object_id,
            color,
            depth,
            queries,
            query_count: s.query_count,
            groups,
            fused_groups: (n as u32).div_ceil(s.local_size * FUSED_OBJECTS_PER_INVOCATION),
            compaction: s.compaction,
            object_push,
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
                &mut self.visibility,
                &mut self.stream,
                &mut self.candidates,
                &mut self.counts,
                &mut self.count_readback,
                &mut self.vertices,
                &mut self.indices,
                &mut self.readback,
            ] {
                b.destroy(d);
            }
            self.set.destroy(d);
            for p in [self.cull, self.compact, self.cull_compact, self.draw_push, self.draw_mdi, self.draw_instance] {
                d.destroy_pipeline(p, None);
            }
            d.destroy_pipeline_layout(self.compute_layout, None);
            d.destroy_pipeline_layout(self.graphics_layout, None);
            for t in [&self.color, &self.depth] {
                d.destroy_image_view(t.view, None);
                d.destroy_image(t.image, None);
                d.free_memory(t.memory, None);
            }
            d.destroy_query_pool(self.queries, None);
        }
    }
}

/// Shared memory the fused kernel declares: one round of staged records, one per invocation.
pub fn fused_shared_bytes(local_size: u32, stride: u32) -> u32 {
    local_size * stride
}

/// Copy `data` to the start of a device-local buffer (made with `TRANSFER_DST`) through a
/// host-visible staging buffer, and wait.
pub fn upload(ctx: &GpuContext, dst: &Buffer, data: &[u8]) -> Result<()> {
    if data.len() as u64 > dst.size {
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
            unsafe { ctx.device.cmd_copy_buffer(cmd, staging.buffer, dst.buffer, &region) };
            Ok(())
        })
    });
    // SAFETY: `one_shot` waited for the copy (or never submitted it).
    unsafe { staging.destroy(&ctx.device) };
    result
}

fn pipeline_layout(
    d: &ash::Device,
    set: vk::DescriptorSetLayout,
    ranges: &[vk::PushConstantRange],
) -> Result<vk::PipelineLayout> {
    let sets = [set];
    let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets).push_constant_ranges(ranges);
    // SAFETY: valid create info.
    unsafe { d.create_pipeline_layout(&info, None) }.map_err(RuntimeError::vk("vkCreatePipelineLayout"))
}

/// Which of `scene.vert`'s readers a pipeline specializes.
#[derive(Clone, Copy)]
enum ObjectSource {
    Push,
    DrawId,
    Instance,
}

fn graphics_pipeline(
    d: &ash::Device,
    layout: vk::PipelineLayout,
    source: ObjectSource,
    width: u32,
    height: u32,
) -> Result<vk::Pipeline> {
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
    // Constant 0 is SCENE_DRAW_MDI_CONSTANT_ID's default: the generated reader's switch;
    // constant 1 is scene.vert's OBJECT_FROM_INSTANCE.
    let multi_draw = matches!(source, ObjectSource::DrawId);
    let from_instance = matches!(source, ObjectSource::Instance);
    let spec = Spec::new(&[(0, multi_draw as u32), (1, from_instance as u32)]);
    let spec_info = spec.info();
    let stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vert)
            .name(c"main")
            .specialization_info(&spec_info),
        vk::PipelineShaderStageCreateInfo::default().stage(vk::ShaderStageFlags::FRAGMENT).module(frag).name(c"main"),
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
        [vk::PipelineColorBlendAttachmentState::default().color_write_mask(vk::ColorComponentFlags::RGBA)];
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&attachments);
    let formats = [COLOR_FORMAT];
    let mut rendering = vk::PipelineRenderingCreateInfo::default()
        .color_attachment_formats(&formats)
        .depth_attachment_format(DEPTH_FORMAT);
    let info = [vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .depth_stencil_state(&depth)
        .color_blend_state(&blend)
        .layout(layout)
        .push_next(&mut rendering)];
    // SAFETY: valid create info; modules are destroyed after creation either way.
    let result = unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &info, None) };
    unsafe {
        d.destroy_shader_module(vert, None);
        d.destroy_shader_module(frag, None);
    }
    result.map(|p| p[0]).map_err(|(_, r)| RuntimeError::Vulkan { call: "vkCreateGraphicsPipelines", result: r })
}

fn target(
    ctx: &GpuContext,
    format: vk::Format,
    usage: vk::ImageUsageFlags,
    aspect: vk::ImageAspectFlags,
    s: &SceneSetup<'_>,
) -> Result<Target> {
    let d = &ctx.device;
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: s.width, height: s.height, depth: 1 })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
        .initial_layout(vk::ImageLayout::UNDEFINED);
    // SAFETY: valid create infos; objects are destroyed on the error paths.
    unsafe {
        let image = d.create_image(&info, None).map_err(RuntimeError::vk("vkCreateImage"))?;
        let req = d.get_image_memory_requirements(image);
        let Some(ty) = memory_type(
            &ctx.memory,
            req.memory_type_bits,
            vk::MemoryPropertyFlags::empty(),
            vk::MemoryPropertyFlags::DEVICE_LOCAL,
        ) else {
            d.destroy_image(image, None);
            return Err(RuntimeError::Invalid("no memory type for the render target".into()));
        };
        let memory = match d
            .allocate_memory(&vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty), None)
        {
            Ok(m) => m,
            Err(r) => {
                d.destroy_image(image, None);
                return Err(RuntimeError::Vulkan { call: "vkAllocateMemory", result: r });
            }
        };
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(format)
            .subresource_range(vk::ImageSubresourceRange {
                aspect_mask: aspect,
                base_mip_level: 0,
                level_count: 1,
                base_array_layer: 0,
                layer_count: 1,
            });
        let view =
            d.bind_image_memory(image, memory, 0).and_then(|_| d.create_image_view(&view_info, None)).map_err(|r| {
                d.destroy_image(image, None);
                d.free_memory(memory, None);
                RuntimeError::Vulkan { call: "vkCreateImageView", result: r }
            })?;
        Ok(Target { image, memory, view })
    }
}
