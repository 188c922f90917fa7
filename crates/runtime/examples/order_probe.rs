//! The order effect of issue 14, reduced to plain Vulkan: no device-generated commands, no
//! dgcc layout, one vertex shader (`shaders/runtime/order_probe.vert`) and N one-cube draws.
//!
//! Why it exists: on the H200 (driver 580.159.04) a per-draw push constant read by the vertex
//! shader cost 280 ns per draw when the draws were the device's first work and 12.9 ns after
//! a multi-draw pass had run, for DGC's PUSH_CONSTANT token and for the CPU loop's
//! `vkCmdPushConstants` alike. The CPU loop shows it without the extension, so this is the
//! smallest program we know that does. It runs the steps one asks for, in order, on one
//! device, so that what flips the state is found by trying one step before another. What it
//! found (book, performance chapter): binding, in a submitted command buffer, any graphics
//! pipeline whose vertex shader reads `gl_InstanceIndex` (or `gl_DrawID`) flips it for good;
//! nothing else tried does. The runtime's answer is `dgcc_runtime::WarmUp`.
//!
//! ```text
//! cargo run --release -p dgcc-runtime --features headless --example order_probe -- \
//!     --draws 1000000 --frames 5 push bind push
//! ```
//!
//! Each step is `MODE[:FRAMES[:DRAWS]]` (defaults `--frames`, `--draws`); every frame is its
//! own submission, timed from the first draw to the last with timestamps. Modes:
//! - `push`: the CPU loop, `vkCmdPushConstants` + `vkCmdDrawIndexed` per draw, id from the push constant;
//! - `instance`: the CPU loop, one `vkCmdDrawIndexed` per draw with the id in `firstInstance`;
//! - `mdi`: one `vkCmdDrawIndexedIndirect` of DRAWS draws, the id in `firstInstance`;
//! - `mdi-drawid`: the same, the id read as `gl_DrawID`;
//! - `mdi-push`: one multi-draw with the push-constant pipeline (one push before it);
//! - `bind`, `bind-push`, `bind-drawid`: a frame that binds the instance, push-constant or
//!   draw-id pipeline inside its rendering and draws nothing;
//! - `bind-outside`: the instance pipeline bound before the rendering begins;
//! - `bind-unsubmitted`: a bind of the instance pipeline recorded and never submitted;
//! - `bind-copy`: a second pipeline object made like the push-constant one, bound;
//! - `push-primed`: the push loop with the instance pipeline bound first in the same frame;
//! - `bind-warm-up`: the runtime's `WarmUp`, in a submission of its own;
//! - `bind-wN`: warm-up shape N of `SHAPES` (layouts, shaders, rasterizer discard), likewise;
//! - a `-nobuf` suffix (`push-nobuf`, ...): the cube's place computed from the id instead of
//!   read from the storage buffer.
//!
//! `--create-all` makes every pipeline before the first step (by default each is made at its
//! first use, so a step runs on a device that has never seen the others). `--warm-up` lets the
//! context submit the runtime's warm-up at creation, as every other `GpuContext` does; without
//! it the probe's context skips it, so that the effect shows.

use ash::vk;
use dgcc_runtime::error::{Result, RuntimeError};
use dgcc_runtime::memory::{Buffer, Location};
use dgcc_runtime::shaders::{module, Spec};
use dgcc_runtime::{ContextOptions, GpuContext, WarmUp};
use std::collections::BTreeMap;

const VERT_SPV: &[u8] = include_bytes!("../../../shaders/runtime/spv/order_probe.vert.spv");
const FRAG_SPV: &[u8] = include_bytes!("../../../shaders/runtime/spv/order_probe.frag.spv");
const COLOR: vk::Format = vk::Format::R8G8B8A8_UNORM;
const DEPTH: vk::Format = vk::Format::D32_SFLOAT;
const SIZE: u32 = 256;
/// A cube's 12 triangles over corners numbered by bits (x, y, z).
const CUBE: [u32; 36] =
    [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3];

/// Where the vertex shader reads its object id (`order_probe.vert`'s constant 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    Push = 0,
    Instance = 1,
    DrawId = 2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Push,
    Instance,
    Mdi,
    MdiDrawId,
    MdiPush,
    /// Bind a pipeline in a frame of its own and draw nothing.
    Bind(Source),
    /// Bind the instance pipeline before the rendering begins, draw nothing.
    BindOutside,
    /// Record a bind of the instance pipeline into a command buffer that is never submitted.
    BindUnsubmitted,
    /// Bind a second pipeline object made from the push-constant pipeline's create info.
    BindCopy,
    /// The push loop, with the instance pipeline bound first in the same command buffer.
    PushPrimed,
    /// Submit the runtime's warm-up (`dgcc_runtime::WarmUp`) in a command buffer of its own.
    BindWarmUp,
    /// Submit a bind of warm-up shape N (`warm_shape`) in a command buffer of its own.
    BindShape(u32),
}

#[derive(Clone, Debug)]
struct Step {
    label: String,
    mode: Mode,
    buffer: bool,
    frames: u32,
    draws: u32,
}

impl Mode {
    fn source(self) -> Source {
        match self {
            Mode::Push | Mode::MdiPush | Mode::BindCopy | Mode::PushPrimed | Mode::BindWarmUp | Mode::BindShape(_) => {
                Source::Push
            }
            Mode::Instance | Mode::Mdi | Mode::BindOutside | Mode::BindUnsubmitted => Source::Instance,
            Mode::MdiDrawId => Source::DrawId,
            Mode::Bind(source) => source,
        }
    }
}

fn parse_step(text: &str, frames: u32, draws: u32) -> std::result::Result<Step, String> {
    let mut parts = text.split(':');
    let name = parts.next().unwrap_or_default();
    let (name, buffer) = match name.strip_suffix("-nobuf") {
        Some(n) => (n, false),
        None => (name, true),
    };
    let mode = match name {
        "push" => Mode::Push,
        "instance" => Mode::Instance,
        "mdi" => Mode::Mdi,
        "mdi-drawid" => Mode::MdiDrawId,
        "mdi-push" => Mode::MdiPush,
        "bind" => Mode::Bind(Source::Instance),
        "bind-push" => Mode::Bind(Source::Push),
        "bind-drawid" => Mode::Bind(Source::DrawId),
        "bind-outside" => Mode::BindOutside,
        "bind-unsubmitted" => Mode::BindUnsubmitted,
        "bind-copy" => Mode::BindCopy,
        "push-primed" => Mode::PushPrimed,
        "bind-warm-up" => Mode::BindWarmUp,
        n if n.starts_with("bind-w") => {
            Mode::BindShape(n[6..].parse().map_err(|_| format!("step `{text}`: no shape"))?)
        }
        _ => return Err(format!("unknown step `{text}` (see the file's header; -nobuf)")),
    };
    let mut number = |default: u32| -> std::result::Result<u32, String> {
        match parts.next() {
            None | Some("") => Ok(default),
            Some(n) => n.parse().map_err(|_| format!("step `{text}`: `{n}` is not a count")),
        }
    };
    let frames = number(frames)?;
    let binds_only = matches!(
        mode,
        Mode::Bind(_)
            | Mode::BindOutside
            | Mode::BindUnsubmitted
            | Mode::BindCopy
            | Mode::BindWarmUp
            | Mode::BindShape(_)
    );
    let step_draws = if binds_only { 0 } else { number(draws)? };
    if step_draws > draws {
        return Err(format!("step `{text}` draws more than --draws {draws}"));
    }
    Ok(Step { label: text.to_string(), mode, buffer, frames, draws: step_draws })
}

struct Args {
    draws: u32,
    create_all: bool,
    warm_up: bool,
    steps: Vec<Step>,
}

fn parse_args() -> std::result::Result<Args, String> {
    let mut draws = 1_000_000u32;
    let mut frames = 5u32;
    let mut create_all = false;
    let mut warm_up = false;
    let mut texts = vec![];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--draws" | "--frames" => {
                let v = args.next().ok_or(format!("{a} needs a number"))?;
                let n: u32 = v.parse().map_err(|_| format!("{a}: `{v}` is not a number"))?;
                if a == "--draws" {
                    draws = n.max(1);
                } else {
                    frames = n;
                }
            }
            "--create-all" => create_all = true,
            "--warm-up" => warm_up = true,
            _ => texts.push(a),
        }
    }
    if texts.is_empty() {
        return Err("name at least one step, e.g. `push instance:1:1 push`".into());
    }
    let steps = texts.iter().map(|t| parse_step(t, frames, draws)).collect::<std::result::Result<_, _>>()?;
    Ok(Args { draws, create_all, warm_up, steps })
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("order_probe: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(&args) {
        eprintln!("order_probe: {e}");
        std::process::exit(1);
    }
}

/// The device objects of the probe; destroyed in `destroy`.
struct Probe {
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
    images: Vec<(vk::Image, vk::DeviceMemory, vk::ImageView)>,
    queries: vk::QueryPool,
}

fn run(args: &Args) -> Result<()> {
    let options = ContextOptions { enable_dgc: false, warm_up: args.warm_up, ..ContextOptions::default() };
    let ctx = GpuContext::new(&options)?;
    if !(ctx.caps.multi_draw_indirect && ctx.caps.draw_indirect_first_instance && ctx.caps.timestamps) {
        return Err(RuntimeError::Invalid(format!(
            "`{}` lacks multiDrawIndirect, drawIndirectFirstInstance or timestamps",
            ctx.device_name
        )));
    }
    let mut probe = Probe::new(&ctx, args.draws)?;
    let result = (|| {
        if args.create_all {
            for source in [Source::Push, Source::Instance, Source::DrawId] {
                for buffer in [true, false] {
                    probe.pipeline(&ctx, source, buffer)?;
                }
            }
        }
        println!("device: {}; {} draws of 36 indices into {SIZE}x{SIZE}", ctx.device_name, args.draws);
        println!(
            "{:<16} {:>7} {:>9} {:>10} {:>10} {:>10} {:>9}",
            "step", "frames", "draws", "median ms", "min ms", "max ms", "ns/draw"
        );
        for step in &args.steps {
            let times = probe.step(&ctx, step)?;
            let mut sorted = times.clone();
            sorted.sort_by(f64::total_cmp);
            let median = sorted.get(sorted.len() / 2).copied().unwrap_or(f64::NAN);
            println!(
                "{:<16} {:>7} {:>9} {:>10.3} {:>10.3} {:>10.3} {:>9.1}",
                step.label,
                step.frames,
                step.draws,
                median,
                sorted.first().copied().unwrap_or(f64::NAN),
                sorted.last().copied().unwrap_or(f64::NAN),
                if step.draws == 0 { f64::NAN } else { median * 1e6 / step.draws as f64 }
            );
            println!("  frames: {}", times.iter().map(|t| format!("{t:.3}")).collect::<Vec<_>>().join(" "));
        }
        Ok(())
    })();
    // SAFETY: every submission was waited for; the objects belong to this device.
    unsafe { probe.destroy(&ctx) };
    result
}

impl Probe {
    fn new(ctx: &GpuContext, draws: u32) -> Result<Probe> {
        let d = &ctx.device;
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
            let info = [vk::DescriptorBufferInfo { buffer: places.buffer, offset: 0, range: vk::WHOLE_SIZE }];
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
                match image(ctx, format, usage, aspect) {
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
    fn pipeline(&mut self, ctx: &GpuContext, source: Source, buffer: bool) -> Result<vk::Pipeline> {
        if let Some(&p) = self.pipelines.get(&(source, buffer)) {
            return Ok(p);
        }
        // SAFETY: the embedded SPIR-V is valid; the layout covers its set and push constant.
        let p = unsafe { graphics_pipeline(&ctx.device, self.layout, source, buffer)? };
        self.pipelines.insert((source, buffer), p);
        Ok(p)
    }

    /// Run one step's frames; GPU milliseconds per frame.
    fn step(&mut self, ctx: &GpuContext, step: &Step) -> Result<Vec<f64>> {
        if step.mode == Mode::PushPrimed {
            self.pipeline(ctx, Source::Instance, step.buffer)?;
        }
        let mut pipeline = self.pipeline(ctx, step.mode.source(), step.buffer)?;
        let d = &ctx.device;
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
            let alloc = vk::CommandBufferAllocateInfo::default().command_pool(ctx.pool).command_buffer_count(1);
            // SAFETY: a fresh command buffer of the context's pool, recorded, ended and freed unsubmitted.
            unsafe {
                let cmd = d.allocate_command_buffers(&alloc).map_err(RuntimeError::vk("vkAllocateCommandBuffers"))?[0];
                d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
                    .map_err(RuntimeError::vk("vkBeginCommandBuffer"))?;
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
                d.end_command_buffer(cmd).map_err(RuntimeError::vk("vkEndCommandBuffer"))?;
                d.free_command_buffers(ctx.pool, &[cmd]);
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
        let (color, depth) = (self.images[0], self.images[1]);
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
                    .image(color.0)
                    .subresource_range(range(vk::ImageAspectFlags::COLOR)),
                vk::ImageMemoryBarrier2::default()
                    .src_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
                    .dst_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
                    .dst_access_mask(vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE)
                    .old_layout(vk::ImageLayout::UNDEFINED)
                    .new_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
                    .image(depth.0)
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
                .image_view(color.2)
                .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)];
            let depth_attachment = vk::RenderingAttachmentInfo::default()
                .image_view(depth.2)
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
            d.cmd_bind_index_buffer(cmd, self.indices.buffer, 0, vk::IndexType::UINT32);
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
                        d.cmd_draw_indexed_indirect(cmd, self.indirect.buffer, 0, step.draws, stride);
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
    unsafe fn destroy(&mut self, ctx: &GpuContext) {
        let d = &ctx.device;
        // SAFETY: the caller's contract.
        unsafe {
            for p in std::mem::take(&mut self.pipelines).into_values().chain(self.copies.drain(..)) {
                d.destroy_pipeline(p, None);
            }
            for (image, memory, view) in self.images.drain(..) {
                d.destroy_image_view(view, None);
                d.destroy_image(image, None);
                d.free_memory(memory, None);
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
            unsafe { ctx.device.cmd_copy_buffer(cmd, staging.buffer, buffer.buffer, &region) };
            Ok(())
        })?;
        Ok(buffer)
    })();
    // SAFETY: the copy finished (or never ran).
    unsafe { staging.destroy(&ctx.device) };
    result
}

/// A 256×256 attachment with its memory and view.
fn image(
    ctx: &GpuContext,
    format: vk::Format,
    usage: vk::ImageUsageFlags,
    aspect: vk::ImageAspectFlags,
) -> Result<(vk::Image, vk::DeviceMemory, vk::ImageView)> {
    let d = &ctx.device;
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: SIZE, height: SIZE, depth: 1 })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
        .initial_layout(vk::ImageLayout::UNDEFINED);
    // SAFETY: valid create infos; what was made is destroyed on each error path.
    unsafe {
        let image = d.create_image(&info, None).map_err(RuntimeError::vk("vkCreateImage"))?;
        let req = d.get_image_memory_requirements(image);
        let ty = dgcc_runtime::memory::memory_type(
            &ctx.memory,
            req.memory_type_bits,
            vk::MemoryPropertyFlags::empty(),
            vk::MemoryPropertyFlags::DEVICE_LOCAL,
        );
        let Some(ty) = ty else {
            d.destroy_image(image, None);
            return Err(RuntimeError::Invalid("no memory type for an attachment".into()));
        };
        let alloc = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty);
        let memory = match d.allocate_memory(&alloc, None) {
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
        let view = d.bind_image_memory(image, memory, 0).and_then(|_| d.create_image_view(&view_info, None));
        match view {
            Ok(view) => Ok((image, memory, view)),
            Err(r) => {
                d.destroy_image(image, None);
                d.free_memory(memory, None);
                Err(RuntimeError::Vulkan { call: "vkCreateImageView", result: r })
            }
        }
    }
}

/// The probe's graphics pipeline for one id source.
///
/// # Safety
/// `layout` holds one storage-buffer set and a 4-byte vertex push constant.
unsafe fn graphics_pipeline(
    d: &ash::Device,
    layout: vk::PipelineLayout,
    source: Source,
    buffer: bool,
) -> Result<vk::Pipeline> {
    // SAFETY: the embedded SPIR-V is valid (shaders/runtime/build.sh).
    let vert = unsafe { module(d, VERT_SPV)? };
    // SAFETY: as above; the vertex module is destroyed if this one fails.
    let frag = unsafe { module(d, FRAG_SPV) }.inspect_err(|_| unsafe { d.destroy_shader_module(vert, None) })?;
    let spec = Spec::new(&[(0, source as u32), (1, buffer as u32)]);
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
        [vk::Viewport { x: 0.0, y: 0.0, width: SIZE as f32, height: SIZE as f32, min_depth: 0.0, max_depth: 1.0 }];
    let scissors = [vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: SIZE, height: SIZE } }];
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
    let formats = [COLOR];
    let mut rendering =
        vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats).depth_attachment_format(DEPTH);
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
    // SAFETY: valid create info; the modules are destroyed after creation either way.
    let result = unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &info, None) };
    unsafe {
        d.destroy_shader_module(vert, None);
        d.destroy_shader_module(frag, None);
    }
    result.map(|p| p[0]).map_err(|(_, r)| RuntimeError::Vulkan { call: "vkCreateGraphicsPipelines", result: r })
}

const CONST_SPV: &[u8] = include_bytes!("../../../shaders/runtime/spv/order_probe_const.vert.spv");
const WARM_SPV: &[u8] = include_bytes!("../../../shaders/runtime/spv/warm_up.vert.spv");

/// A pipeline layout for a warm-up shape.
#[derive(Clone, Copy)]
enum ShapeLayout {
    Empty,
    /// One 4-byte vertex push-constant range, as the push pipeline's.
    Push4,
    /// One 128-byte push-constant range for every graphics stage.
    Push128,
    /// The probe's own layout (its storage buffer set and its push range).
    Probe,
}

/// A vertex shader for a warm-up shape.
#[derive(Clone, Copy)]
enum ShapeShader {
    /// Writes a constant, reads nothing (`order_probe_const.vert`).
    Constant,
    /// Reads gl_InstanceIndex into a flat output (`warm_up.vert`, the runtime's).
    Instance,
    /// `order_probe.vert` with the id from gl_InstanceIndex, with or without its buffer read.
    Probe { buffer: bool },
}

/// The shapes tried on the H200 (book: performance chapter), by number: vertex-only pipelines
/// without attachments, rasterizer discard on unless said. Flipped the push path: 5, 8, 9,
/// 10, 11 (every one whose shader reads gl_InstanceIndex); did not: 1-4, 6, 7.
const SHAPES: [(ShapeLayout, ShapeShader, bool); 11] = [
    (ShapeLayout::Empty, ShapeShader::Constant, true),
    (ShapeLayout::Push4, ShapeShader::Constant, true),
    (ShapeLayout::Push128, ShapeShader::Constant, true),
    (ShapeLayout::Empty, ShapeShader::Constant, false),
    (ShapeLayout::Probe, ShapeShader::Probe { buffer: false }, true),
    (ShapeLayout::Push4, ShapeShader::Constant, false),
    (ShapeLayout::Probe, ShapeShader::Constant, true),
    (ShapeLayout::Push4, ShapeShader::Instance, true),
    (ShapeLayout::Empty, ShapeShader::Instance, true),
    (ShapeLayout::Probe, ShapeShader::Instance, true),
    (ShapeLayout::Probe, ShapeShader::Probe { buffer: true }, true),
];

/// A pipeline of warm-up shape `n` (1-based, `SHAPES`) and its layout (the probe's, or one
/// made for it that the caller destroys).
///
/// # Safety
/// `probe_layout` is the probe's pipeline layout on `d`.
unsafe fn warm_shape(
    d: &ash::Device,
    probe_layout: vk::PipelineLayout,
    n: u32,
) -> Result<(vk::Pipeline, vk::PipelineLayout)> {
    let &(layout_kind, shader, discard) = SHAPES
        .get((n as usize).wrapping_sub(1))
        .ok_or_else(|| RuntimeError::Invalid(format!("no warm-up shape {n} (1 to {})", SHAPES.len())))?;
    let range = match layout_kind {
        ShapeLayout::Push4 => {
            Some(vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::VERTEX, offset: 0, size: 4 })
        }
        ShapeLayout::Push128 => {
            Some(vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::ALL_GRAPHICS, offset: 0, size: 128 })
        }
        ShapeLayout::Empty | ShapeLayout::Probe => None,
    };
    let ranges: Vec<_> = range.into_iter().collect();
    let layout = match layout_kind {
        ShapeLayout::Probe => probe_layout,
        // SAFETY: valid create info on a live device.
        _ => unsafe {
            d.create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges), None)
        }
        .map_err(RuntimeError::vk("vkCreatePipelineLayout"))?,
    };
    let (spv, buffer) = match shader {
        ShapeShader::Constant => (CONST_SPV, false),
        ShapeShader::Instance => (WARM_SPV, false),
        ShapeShader::Probe { buffer } => (VERT_SPV, buffer),
    };
    // SAFETY: embedded, valid SPIR-V.
    let vert = unsafe { module(d, spv)? };
    let spec = Spec::new(&[(0, Source::Instance as u32), (1, buffer as u32)]);
    let spec_info = spec.info();
    let stages = [vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::VERTEX)
        .module(vert)
        .name(c"main")
        .specialization_info(&spec_info)];
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .rasterizer_discard_enable(discard)
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .line_width(1.0);
    let viewports =
        [vk::Viewport { x: 0.0, y: 0.0, width: SIZE as f32, height: SIZE as f32, min_depth: 0.0, max_depth: 1.0 }];
    let scissors = [vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: SIZE, height: SIZE } }];
    let viewport = vk::PipelineViewportStateCreateInfo::default().viewports(&viewports).scissors(&scissors);
    let multisample =
        vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let blend = vk::PipelineColorBlendStateCreateInfo::default();
    let mut rendering = vk::PipelineRenderingCreateInfo::default();
    let mut info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .rasterization_state(&raster)
        .layout(layout)
        .push_next(&mut rendering);
    if !discard {
        info = info.viewport_state(&viewport).multisample_state(&multisample).color_blend_state(&blend);
    }
    // SAFETY: valid create info; the module is destroyed after creation either way.
    let result = unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) };
    unsafe { d.destroy_shader_module(vert, None) };
    match result {
        Ok(p) => Ok((p[0], layout)),
        Err((_, r)) => {
            if layout != probe_layout {
                // SAFETY: made above, used by nothing.
                unsafe { d.destroy_pipeline_layout(layout, None) };
            }
            Err(RuntimeError::Vulkan { call: "vkCreateGraphicsPipelines", result: r })
        }
    }
}
