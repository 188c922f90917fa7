//! The probe's device objects (buffers, attachments, pipelines, queries) and the recording of
//! one step's frames.

use super::pipelines::{graphics_pipeline, warm_shape, COLOR, DEPTH};
use super::steps::{Mode, Source, Step};
use ash::vk;
use dgcc_runtime::error::{Result, RuntimeError};
use dgcc_runtime::memory::{Buffer, Image, Location};
use dgcc_runtime::{GpuContext, WarmUp};
use std::collections::BTreeMap;

/// The attachments' width and height.
pub const SIZE: u32 = 256;
/// A cube's 12 triangles over corners numbered by bits (x, y, z).
const CUBE: [u32; 36] =
    [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3];

/// The device objects of the probe; destroyed in `destroy`.
pub struct Probe {
    places: Buffer,
    indices: Buffer,
    indirect: Buffer,
    set_layout: vk::DescriptorSetLayout,
    pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
    layout: vk::PipelineLayout,
    pipelines: BTreeMap<(Source, bool), vk::Pipeline>,
    /// Pipelines made by `bind-copy` steps.
    copies: Vec<vk::Pipeline>,
    images: Vec<Image>,
    queries: vk::QueryPool,
}

impl Probe {
    pub fn new(ctx: &GpuContext, draws: u32) -> Result<Probe> {
        let d = ctx.device();
        let n = draws as usize;
        // Cubes on a 1024-column grid, a thousandth of the target wide (as order_probe.vert's -nobuf).
        let places: Vec<f32> = (0..n)
            .flat_map(|i| {
                let (x, y) = ((i % 1024) as f32, ((i / 1024) % 1024) as f32);
                [-1.0 + 2.0 * x / 1024.0, -1.0 + 2.0 * y / 1024.0, 0.5, 1.0 / 1024.0]
            })
            .collect();
        let indirect: Vec<u32> = (0..draws).flat_map(|i| [36, 1, 0, 0, i]).collect();
        let places = device_buffer(ctx, bytemuck::cast_slice(&places), vk::BufferUsageFlags::STORAGE_BUFFER)?;
        let indices = device_buffer(ctx, bytemuck::cast_slice(&CUBE), vk::BufferUsageFlags::INDEX_BUFFER)?;
        let indirect = device_buffer(ctx, bytemuck::cast_slice(&indirect), vk::BufferUsageFlags::INDIRECT_BUFFER)?;
        // SAFETY: valid create infos on a live device; destroyed in `destroy`.
        unsafe {
            let binding = [vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::VERTEX)];
            let set_layout = d
                .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&binding), None)
                .map_err(RuntimeError::vk("vkCreateDescriptorSetLayout"))?;
            let sizes = [vk::DescriptorPoolSize { ty: vk::DescriptorType::STORAGE_BUFFER, descriptor_count: 1 }];
            let pool = d
                .create_descriptor_pool(&vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes), None)
                .map_err(RuntimeError::vk("vkCreateDescriptorPool"))?;
            let layouts = [set_layout];
            let set = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&layouts),
                )
                .map_err(RuntimeError::vk("vkAllocateDescriptorSets"))?[0];
            let info = [vk::DescriptorBufferInfo { buffer: places.buffer(), offset: 0, range: vk::WHOLE_SIZE }];
            let write = vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&info);
            d.update_descriptor_sets(&[write], &[]);
            let ranges = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::VERTEX, offset: 0, size: 4 }];
            let layout = d
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts).push_constant_ranges(&ranges),
                    None,
                )
                .map_err(RuntimeError::vk("vkCreatePipelineLayout"))?;
            let queries = d
                .create_query_pool(
                    &vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(2),
                    None,
                )
                .map_err(RuntimeError::vk("vkCreateQueryPool"))?;
            let mut probe = Probe {
                places,
                indices,
                indirect,
                set_layout,
                pool,
                set,
                layout,
                pipelines: BTreeMap::new(),
                copies: vec![],
                images: vec![],
                queries,
            };
            for (format, usage, aspect) in [
                (COLOR, vk::ImageUsageFlags::COLOR_ATTACHMENT, vk::ImageAspectFlags::COLOR),
                (DEPTH, vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT, vk::ImageAspectFlags::DEPTH),
            ] {
                match Image::new(ctx, format, (SIZE, SIZE), usage, aspect) {
                    Ok(i) => probe.images.push(i),
                    Err(e) => {
                        probe.destroy(ctx);
                        return Err(e);
                    }
                }
            }
            Ok(probe)
        }
    }

    /// The pipeline for `source`, made at its first use.
    pub fn pipeline(&mut self, ctx: &GpuContext, source: Source, buffer: bool) -> Result<vk::Pipeline> {
        if let Some(&p) = self.pipelines.get(&(source, buffer)) {
            return Ok(p);
        }
        // SAFETY: the embedded SPIR-V is valid; the layout covers its set and push constant.
        let p = unsafe { graphics_pipeline(ctx.device(), self.layout, source, buffer)? };
        self.pipelines.insert((source, buffer), p);
        Ok(p)
    }

    /// Run one step's frames; GPU milliseconds per frame.
    pub fn step(&mut self, ctx: &GpuContext, step: &Step) -> Result<Vec<f64>> {
        if step.mode == Mode::PushPrimed {
            self.pipeline(ctx, Source::Instance, step.buffer)?;
        }
        let mut pipeline = self.pipeline(ctx, step.mode.source(), step.buffer)?;
        let d = ctx.device();
        let mut times = vec![];
        if step.mode == Mode::BindCopy {
            // SAFETY: as in `pipeline`.
            pipeline = unsafe { graphics_pipeline(d, self.layout, Source::Push, step.buffer)? };
            self.copies.push(pipeline);
        }
        if step.mode == Mode::BindWarmUp {
            // SAFETY: a live device with dynamic rendering; `one_shot` waits before the destroy.
            let mut warm = unsafe { WarmUp::new(d)? };
            let result = ctx.one_shot(|cmd| {
                unsafe { warm.record(d, cmd) };
                Ok(())
            });
            unsafe { warm.destroy(d) };
            return result.map(|_| vec![]);
        }
        if let Mode::BindShape(n) = step.mode {
            // SAFETY: as for the warm-up.
            let (p, l) = unsafe { warm_shape(d, self.layout, n)? };
            let result = ctx.one_shot(|cmd| {
                unsafe { d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, p) };
                Ok(())
            });
            unsafe {
                d.destroy_pipeline(p, None);
                if l != self.layout {
                    d.destroy_pipeline_layout(l, None);
                }
            }
            return result.map(|_| vec![]);
        }
        if step.mode == Mode::BindUnsubmitted {
            let alloc = vk::CommandBufferAllocateInfo::default().command_pool(ctx.pool()).command_buffer_count(1);
            // SAFETY: a fresh command buffer of the context's pool, recorded, ended and freed unsubmitted.
            unsafe {
                let cmd = d.allocate_command_buffers(&alloc).map_err(RuntimeError::vk("vkAllocateCommandBuffers"))?[0];
                d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
                    .map_err(RuntimeError::vk("vkBeginCommandBuffer"))?;
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
                d.end_command_buffer(cmd).map_err(RuntimeError::vk("vkEndCommandBuffer"))?;
                d.free_command_buffers(ctx.pool(), &[cmd]);
            }
            return Ok(vec![]);
        }
        for _ in 0..step.frames {
            ctx.one_shot(|cmd| {
                // SAFETY: recording into the context's fresh command buffer; every object is live.
                unsafe { self.record(d, cmd, pipeline, step) };
                Ok(())
            })?;
            let mut ticks = [0u64; 2];
            // SAFETY: both queries were written by the submission `one_shot` waited for.
            unsafe {
                d.get_query_pool_results(self.queries, 0, &mut ticks, vk::QueryResultFlags::TYPE_64)
                    .map_err(RuntimeError::vk("vkGetQueryPoolResults"))?
            };
            times.push(ticks[1].wrapping_sub(ticks[0]) as f64 * ctx.timestamp_period() / 1e6);
        }
        Ok(times)
    }

    /// # Safety
    /// `cmd` is recording on `d`, which owns every object here.
    unsafe fn record(&self, d: &ash::Device, cmd: vk::CommandBuffer, pipeline: vk::Pipeline, step: &Step) {
        let (color, depth) = (&self.images[0], &self.images[1]);
        // SAFETY: the caller's contract; the barriers move both targets to attachment layouts.
        unsafe {
            d.cmd_reset_query_pool(cmd, self.queries, 0, 2);
            let range = |aspect| vk::ImageSubresourceRange {
                aspect_mask: aspect,
                base_mip_level: 0,
                level_count: 1,
                base_array_layer: 0,
                layer_count: 1,
            };
            let barriers = [
                vk::ImageMemoryBarrier2::default()
                    .src_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
                    .dst_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
                    .dst_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
                    .old_layout(vk::ImageLayout::UNDEFINED)
                    .new_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                    .image(color.image())
                    .subresource_range(range(vk::ImageAspectFlags::COLOR)),
                vk::ImageMemoryBarrier2::default()
                    .src_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
                    .dst_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
                    .dst_access_mask(vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE)
                    .old_layout(vk::ImageLayout::UNDEFINED)
                    .new_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
                    .image(depth.image())
                    .subresource_range(range(vk::ImageAspectFlags::DEPTH)),
            ];
            d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&barriers));
            if step.mode == Mode::BindOutside {
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
                d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::TOP_OF_PIPE, self.queries, 0);
                d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::ALL_COMMANDS, self.queries, 1);
                return;
            }
            let colors = [vk::RenderingAttachmentInfo::default()
                .image_view(color.view())
                .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)];
            let depth_attachment = vk::RenderingAttachmentInfo::default()
                .image_view(depth.view())
                .image_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)
                .clear_value(vk::ClearValue { depth_stencil: vk::ClearDepthStencilValue { depth: 1.0, stencil: 0 } });
            let area =
                vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: SIZE, height: SIZE } };
            let rendering = vk::RenderingInfo::default()
                .render_area(area)
                .layer_count(1)
                .color_attachments(&colors)
                .depth_attachment(&depth_attachment);
            d.cmd_begin_rendering(cmd, &rendering);
            if let Some(&first) =
                self.pipelines.get(&(Source::Instance, step.buffer)).filter(|_| step.mode == Mode::PushPrimed)
            {
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, first);
            }
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::GRAPHICS, self.layout, 0, &[self.set], &[]);
            d.cmd_bind_index_buffer(cmd, self.indices.buffer(), 0, vk::IndexType::UINT32);
            d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::TOP_OF_PIPE, self.queries, 0);
            let push =
                |id: u32| d.cmd_push_constants(cmd, self.layout, vk::ShaderStageFlags::VERTEX, 0, &id.to_le_bytes());
            let stride = 20;
            match step.mode {
                Mode::Push | Mode::PushPrimed => {
                    for i in 0..step.draws {
                        push(i);
                        d.cmd_draw_indexed(cmd, 36, 1, 0, 0, 0);
                    }
                }
                Mode::Instance => {
                    push(0);
                    for i in 0..step.draws {
                        d.cmd_draw_indexed(cmd, 36, 1, 0, 0, i);
                    }
                }
                Mode::Mdi | Mode::MdiDrawId | Mode::MdiPush => {
                    push(0);
                    if step.draws > 0 {
                        d.cmd_draw_indexed_indirect(cmd, self.indirect.buffer(), 0, step.draws, stride);
                    }
                }
                Mode::Bind(_) | Mode::BindCopy => push(0),
                Mode::BindOutside | Mode::BindUnsubmitted | Mode::BindWarmUp | Mode::BindShape(_) => {}
            }
            d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::ALL_COMMANDS, self.queries, 1);
            d.cmd_end_rendering(cmd);
        }
    }

    /// # Safety
    /// No submission using these objects is pending.
    pub unsafe fn destroy(&mut self, ctx: &GpuContext) {
        let d = ctx.device();
        // SAFETY: the caller's contract.
        unsafe {
            for p in std::mem::take(&mut self.pipelines).into_values().chain(self.copies.drain(..)) {
                d.destroy_pipeline(p, None);
            }
            for mut image in self.images.drain(..) {
                image.destroy(d);
            }
            d.destroy_query_pool(self.queries, None);
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_pool(self.pool, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
            self.places.destroy(d);
            self.indices.destroy(d);
            self.indirect.destroy(d);
        }
    }
}

/// A device-local buffer holding `data`, filled through a host staging buffer.
fn device_buffer(ctx: &GpuContext, data: &[u8], usage: vk::BufferUsageFlags) -> Result<Buffer> {
    let mut staging = Buffer::new(ctx, data.len() as u64, vk::BufferUsageFlags::TRANSFER_SRC, Location::Host)?;
    let result = (|| {
        staging.write(0, data)?;
        let buffer = Buffer::new(ctx, data.len() as u64, usage | vk::BufferUsageFlags::TRANSFER_DST, Location::Device)?;
        let region = [vk::BufferCopy { src_offset: 0, dst_offset: 0, size: data.len() as u64 }];
        // SAFETY: both buffers are live and large enough; `one_shot` waits for the copy.
        ctx.one_shot(|cmd| {
            unsafe { ctx.device().cmd_copy_buffer(cmd, staging.buffer(), buffer.buffer(), &region) };
            Ok(())
        })?;
        Ok(buffer)
    })();
    // SAFETY: the copy finished (or never ran).
    unsafe { staging.destroy(ctx.device()) };
    result
}
