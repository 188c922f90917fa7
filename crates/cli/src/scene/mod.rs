//! `dgcc run`: a headless GPU-driven scene executed three ways.
//!
//! N spheres (three levels of detail) are culled against the camera (frustum + distance LOD)
//! by a compute kernel that writes each visible object's draw record with the generated GLSL
//! writers; a compaction kernel packs the records in object order with subgroup operations and
//! writes the count; then the stream is drawn into an offscreen colour + depth target by
//! - `dgc`: `vkCmdExecuteGeneratedCommandsEXT` through the executor (chunked under the
//!   preprocess budget),
//! - `mdi`: the fallback, one `vkCmdDrawIndexedIndirectCount` over the same stream, the vertex
//!   shader reading per-draw data through the generated reader and `gl_DrawID`,
//! - `cpu`: the classic loop, re-recorded every frame: `vkCmdPushConstants` +
//!   `vkCmdDrawIndexed` per visible object, with visibility **computed on the host** by the
//!   reference culling (`world::cull`); the cull and compact kernels do not run.
//!
//! The three must give the same visible count and the same pixels; the tests hold them to it.
//!
//! For `dgcc bench` the scene also offers: warm-up frames that are run but not reported, the
//! fused culling kernel (`Compaction::Fused`: one pass, unordered output, same visible set),
//! and overrides of the layout's `ExplicitPreprocess` and `UnorderedSequences` flags, so the
//! cost of DGC preprocessing can be taken apart. CPU time is split into recording and
//! `vkQueueSubmit`.
//!
//! Why the scene's layout is fixed: its shaders are compiled ahead of time (the runtime has no
//! shader compiler) against `shaders/runtime/generated/scene.glsl`, emitted from
//! `examples/scene.ron`. A description given to `dgcc run` must therefore contain a
//! draw layout with byte-identical records (`compat`); its kernel's `local_size` and subgroup
//! decision are honoured, since both are set when the pipelines are created.

mod compat;
mod frame;
mod gpu;
mod report;
pub mod world;

pub use compat::{builtin_manifest, scene_layout};
pub use gpu::{upload, FUSED_OBJECTS_PER_INVOCATION};
pub use report::{FrameImage, FrameReport, PassTimes, RunReport, SubgroupReport};
pub use world::Camera;

use ash::vk;
use dgcc::ir::Manifest;
use dgcc::runtime::dgc::DgcDevice;
use dgcc::runtime::error::{Result, RuntimeError};
use dgcc::runtime::execute::{Bound, Execution};
use dgcc::runtime::ext_dgc::IndirectCommandsLayoutUsageFlagsEXT as UsageFlags;
use dgcc::runtime::fallback::{Fallback, FallbackCaps};
use dgcc::runtime::probe::probe_physical;
use dgcc::runtime::validate::{RegisteredBuffer, StreamLimits, StreamReport, StreamValidator};
use dgcc::runtime::{ContextOptions, GpuContext};
use frame::{Driver, SLOT_CHUNKS, SLOT_COMPACT, SLOT_CULL, SLOT_DRAW_BEGIN, SLOT_DRAW_END, SLOT_END, SLOT_START};
use serde::Serialize;
use std::time::Instant;

/// How the stream is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Dgc,
    Mdi,
    Cpu,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Dgc => "dgc",
            Mode::Mdi => "mdi",
            Mode::Cpu => "cpu",
        }
    }
    pub fn from_name(s: &str) -> Option<Mode> {
        [Mode::Dgc, Mode::Mdi, Mode::Cpu].into_iter().find(|m| m.name() == s)
    }
}

/// How culled objects become the stream (dgc and mdi modes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Compaction {
    /// `cull.comp` then `compact.comp` (two dispatches): records in object order.
    #[default]
    Ordered,
    /// `cull_compact.comp`: one pass, slots claimed per subgroup with one atomic; any order.
    Fused,
}

impl Compaction {
    pub fn name(self) -> &'static str {
        match self {
            Compaction::Ordered => "ordered",
            Compaction::Fused => "fused",
        }
    }
    pub fn from_name(s: &str) -> Option<Compaction> {
        [Compaction::Ordered, Compaction::Fused].into_iter().find(|c| c.name() == s)
    }
}

/// Where the vertex shader finds the object a draw is for (dgc and mdi modes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectId {
    /// From the stream record: pushed by the PUSH_CONSTANT token under dgc, read through
    /// `gl_DrawID` under mdi.
    #[default]
    Record,
    /// From the draw's `firstInstance` (`gl_InstanceIndex`), which the culling kernels set to
    /// the object id; dgc leaves the layout's PUSH_CONSTANT token out, so no sequence changes
    /// any state but its draw. Needs `drawIndirectFirstInstance`.
    Instance,
}

#[derive(Clone, Debug)]
pub struct RunOptions {
    pub objects: u32,
    pub frames: u32,
    pub mode: Mode,
    pub seed: u64,
    pub camera: Camera,
    pub width: u32,
    pub height: u32,
    /// Bytes of preprocess memory the executor may use (dgc mode).
    pub preprocess_budget: u64,
    /// The draw layout to run; `None` picks the layout a kernel `writes`, else the first.
    pub layout: Option<String>,
    /// Frames run before the `frames` that are reported.
    pub warmup: u32,
    pub compaction: Compaction,
    /// Replace the layout's `ExplicitPreprocess` flag (dgc mode); `None` keeps it.
    pub explicit_preprocess: Option<bool>,
    /// Replace the layout's `UnorderedSequences` flag (dgc mode); `None` keeps it.
    pub unordered_sequences: Option<bool>,
    /// dgc mode: leave the layout's INDEX_BUFFER token out and bind the scene's one index
    /// buffer before executing instead (every record's index address points at it anyway), to
    /// see what binding an index buffer per sequence costs.
    pub bind_index_buffer: bool,
    /// Where the vertex shader reads the object id (dgc, mdi).
    pub object_id: ObjectId,
    /// Check the compacted stream on the GPU before drawing it, every frame (dgc, mdi).
    pub validate_stream: bool,
    /// Run under `VK_LAYER_KHRONOS_validation`, its messages recorded here (teardown included).
    /// The default is a fresh log when `DGCC_VALIDATION=1`.
    pub layer_log: Option<std::sync::Arc<dgcc::runtime::LayerLog>>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            objects: 10_000,
            frames: 3,
            mode: Mode::Dgc,
            seed: 1,
            camera: Camera::default(),
            width: 256,
            height: 256,
            preprocess_budget: 64 << 20,
            layout: None,
            warmup: 0,
            compaction: Compaction::Ordered,
            explicit_preprocess: None,
            unordered_sequences: None,
            bind_index_buffer: false,
            object_id: ObjectId::Record,
            validate_stream: false,
            layer_log: dgcc::runtime::LayerLog::from_env(),
        }
    }
}

/// Run the scene for `manifest` (what `dgcc compile` produced for the file given to `dgcc run`)
/// on a device opened for this run.
pub fn run(manifest: &Manifest, options: &RunOptions) -> Result<RunReport> {
    check_options(options)?;
    let (layout, kernel) = compat::pick(manifest, options.layout.as_deref())?;
    let dgc = options.mode == Mode::Dgc;
    // `require_dgc`: the context has the extension whenever dgc mode runs on it.
    let ctx =
        GpuContext::new(&ContextOptions { enable_dgc: dgc, require_dgc: dgc, validation: options.layer_log.clone() })?;
    run_checked(&ctx, manifest, options, layout, kernel)
}

/// Run the scene on `ctx`, which must have been opened with DGC enabled for `Mode::Dgc`
/// (`options.layer_log` is then the context's business). `dgcc bench` runs every row on one
/// context: opening a device per row costs seconds on some drivers, and NVIDIA's stopped
/// opening new instances after about 30 in one process.
pub fn run_on(ctx: &GpuContext, manifest: &Manifest, options: &RunOptions) -> Result<RunReport> {
    check_options(options)?;
    let (layout, kernel) = compat::pick(manifest, options.layout.as_deref())?;
    if options.mode == Mode::Dgc && ctx.dgc.is_none() {
        return Err(RuntimeError::MissingFeature {
            device: ctx.device_name.clone(),
            feature: "VK_EXT_device_generated_commands (enabled on the context)".into(),
            needed_for: "--mode dgc".into(),
        });
    }
    run_checked(ctx, manifest, options, layout, kernel)
}

/// What every run refuses before touching a device.
fn check_options(options: &RunOptions) -> Result<()> {
    if options.objects == 0 || options.frames == 0 {
        return Err(RuntimeError::Invalid("--objects and --frames must be at least 1".into()));
    }
    if !(1..=8192).contains(&options.width) || !(1..=8192).contains(&options.height) {
        return Err(RuntimeError::Invalid(format!(
            "image size {}x{} is outside 1..8192",
            options.width, options.height
        )));
    }
    if options.validate_stream && options.mode == Mode::Cpu {
        return Err(RuntimeError::Invalid(
            "--validate-stream checks the stream the GPU writes; --mode cpu writes none".into(),
        ));
    }
    if options.object_id == ObjectId::Instance && options.mode == Mode::Cpu {
        return Err(RuntimeError::Invalid(
            "--object-id instance reads the object id from an indirect draw's firstInstance; --mode cpu draws directly"
                .into(),
        ));
    }
    Ok(())
}

fn run_checked(
    ctx: &GpuContext,
    manifest: &Manifest,
    options: &RunOptions,
    layout: &dgcc::ir::CompiledLayout,
    kernel: Option<&dgcc::ir::CompiledKernel>,
) -> Result<RunReport> {
    if options.mode == Mode::Mdi
        && !(ctx.caps.multi_draw_indirect && ctx.caps.draw_indirect_count && ctx.caps.shader_draw_parameters)
    {
        return Err(RuntimeError::MissingFeature {
            device: ctx.device_name.clone(),
            feature: "multiDrawIndirect, drawIndirectCount and shaderDrawParameters".into(),
            needed_for: "the multi-draw fallback (--mode mdi)".into(),
        });
    }
    if options.object_id == ObjectId::Instance && !ctx.caps.draw_indirect_first_instance {
        return Err(RuntimeError::MissingFeature {
            device: ctx.device_name.clone(),
            feature: "drawIndirectFirstInstance".into(),
            needed_for: "object ids in firstInstance (--object-id instance)".into(),
        });
    }
    // SAFETY: the context's physical device, of its live instance.
    let live = unsafe { probe_physical(&ctx.instance, ctx.physical) }.profile;
    let local_size = kernel.map_or(64, |k| k.local_size[0]);
    let max_local = ctx.properties.limits.max_compute_work_group_size[0]
        .min(ctx.properties.limits.max_compute_work_group_invocations);
    if local_size == 0 || local_size > max_local {
        return Err(RuntimeError::Invalid(format!(
            "kernel local_size.x = {local_size} is outside 1..={max_local} on {}",
            ctx.device_name
        )));
    }
    let fused_shared = gpu::fused_shared_bytes(local_size, layout.stride);
    let shared_max = ctx.properties.limits.max_compute_shared_memory_size;
    if options.compaction == Compaction::Fused && options.mode != Mode::Cpu && fused_shared > shared_max {
        return Err(RuntimeError::Invalid(format!(
            "the fused culling kernel needs {fused_shared} bytes of shared memory at local_size.x = {local_size}; {} allows {shared_max} (use the ordered compaction)",
            ctx.device_name
        )));
    }
    let (pin, note) = compat::subgroup_pin(kernel, &live, local_size, &ctx.caps);
    let meshes = world::meshes();
    let objects = world::objects(options.objects, options.seed);
    let max_chunks = if options.mode == Mode::Dgc { options.objects } else { 0 };
    let query_count = SLOT_CHUNKS + 4 * max_chunks.min(1024);
    let setup = gpu::SceneSetup {
        objects: &objects,
        meshes: &meshes,
        layout,
        push_constants: &manifest.push_constants,
        local_size,
        pin,
        width: options.width,
        height: options.height,
        query_count,
        compaction: options.compaction,
        // `check_options` refused instance ids in cpu mode.
        object_id: options.object_id,
    };
    let mut g = gpu::SceneGpu::new(ctx, &setup)?;
    let g_object_id = g.object_id;
    let mut stream_validation = vec![];
    let result = run_frames(ctx, &mut g, manifest, layout, options, &objects, &meshes, &mut stream_validation);
    // SAFETY: run_frames waits for every submission; nothing is pending.
    unsafe {
        let _ = ctx.device.device_wait_idle();
        g.destroy(&ctx.device);
    }
    let (frames, plan, image, observed, flags) = result?;
    Ok(RunReport {
        device: ctx.device_name.clone(),
        mode: options.mode,
        layout: layout.name.clone(),
        objects: options.objects,
        width: options.width,
        height: options.height,
        frames,
        preprocess: plan,
        compaction: options.compaction,
        local_size,
        explicit_preprocess: flags.map(|f| f & UsageFlags::EXPLICIT_PREPROCESS.as_raw() != 0),
        unordered_sequences: flags.map(|f| f & UsageFlags::UNORDERED_SEQUENCES.as_raw() != 0),
        index_buffer_token: flags.map(|_| {
            !options.bind_index_buffer && layout.tokens.iter().any(|t| t.token_type == dgcc::ir::TokenType::IndexBuffer)
        }),
        object_id: g_object_id,
        subgroup: SubgroupReport {
            required_size: pin.and_then(|p| p.required_size),
            require_full: pin.is_some_and(|p| p.flags & 0x2 != 0),
            observed_size: observed,
            note,
        },
        image,
        stream_validation,
    })
}

type FramesOut = (Vec<FrameReport>, Option<dgcc::runtime::preprocess::ChunkPlan>, FrameImage, Option<u32>, Option<u32>);

/// The layout's usage flags with the run's overrides applied.
fn layout_flags(flags: u32, options: &RunOptions) -> u32 {
    let set = |flags: u32, bit: UsageFlags, on: Option<bool>| match on {
        Some(true) => flags | bit.as_raw(),
        Some(false) => flags & !bit.as_raw(),
        None => flags,
    };
    let flags = set(flags, UsageFlags::EXPLICIT_PREPROCESS, options.explicit_preprocess);
    set(flags, UsageFlags::UNORDERED_SEQUENCES, options.unordered_sequences)
}

/// Submit `cmd` with `fence` (unsignalled), wait, reset the fence; returns how long
/// `vkQueueSubmit` itself took, in ms.
fn submit_timed(ctx: &GpuContext, cmd: vk::CommandBuffer, fence: vk::Fence) -> Result<f64> {
    let cmds = [cmd];
    let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
    let t0 = Instant::now();
    // SAFETY: `cmd` is recorded and not pending; the fence is unsignalled.
    unsafe { ctx.device.queue_submit(ctx.queue, &submit, fence) }.map_err(RuntimeError::vk("vkQueueSubmit"))?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    // SAFETY: the fence belongs to this device.
    unsafe {
        ctx.device.wait_for_fences(&[fence], true, u64::MAX).map_err(RuntimeError::vk("vkWaitForFences"))?;
        ctx.device.reset_fences(&[fence]).map_err(RuntimeError::vk("vkResetFences"))?;
    }
    Ok(ms)
}

#[allow(clippy::too_many_arguments)]
fn run_frames(
    ctx: &GpuContext,
    g: &mut gpu::SceneGpu,
    manifest: &Manifest,
    layout: &dgcc::ir::CompiledLayout,
    options: &RunOptions,
    objects: &[world::Object],
    meshes: &world::Meshes,
    stream_validation: &mut Vec<StreamReport>,
) -> Result<FramesOut> {
    let mut frame_data = world::frame(
        &options.camera,
        options.width,
        options.height,
        options.objects,
        meshes.lods,
        g.indices.address,
        g.indices.size as u32,
    );
    frame_data.counts[1] = (g.object_id == ObjectId::Instance) as u32;
    gpu::upload(ctx, &g.frame, dgcc::runtime::memory::as_bytes(&[frame_data]))?;
    let mut flags = None;
    let mut dgc_parts = None;
    let mut fallback = None;
    match options.mode {
        Mode::Dgc => {
            let dev = DgcDevice::from_context(ctx)?;
            let mut layout = layout.clone();
            layout.flags = layout_flags(layout.flags, options);
            if options.bind_index_buffer {
                layout.tokens.retain(|t| t.token_type != dgcc::ir::TokenType::IndexBuffer);
            }
            if g.object_id == ObjectId::Instance {
                layout.tokens.retain(|t| t.token_type != dgcc::ir::TokenType::PushConstant);
            }
            flags = Some(layout.flags);
            // SAFETY: the scene's graphics layout, live until `g.destroy`, holds the manifest's
            // push-constant ranges.
            let l = unsafe { dev.create_layout(&layout, &manifest.push_constants, g.graphics_layout)? };
            // The pipeline the frames bind: the executor names it to the driver at execute time.
            let pipeline = if g.object_id == ObjectId::Instance { g.draw_instance } else { g.draw_push };
            // SAFETY: `l` is `dev`'s; the pipeline was made with the graphics layout for the
            // layout's vertex and fragment stages and outlives the execution.
            let exec = unsafe {
                Execution::new(&dev, &l, Bound::Pipeline(pipeline), options.objects, 0, options.preprocess_budget)
            };
            match exec {
                Ok(e) => dgc_parts = Some((dev, l, e)),
                Err(e) => {
                    let mut l = l;
                    // SAFETY: no work has used the layout yet.
                    unsafe { l.destroy(&dev) };
                    return Err(e);
                }
            }
        }
        Mode::Mdi => {
            fallback =
                Some(Fallback::new(layout, FallbackCaps::from(ctx))?.with_push_constants(&manifest.push_constants)?)
        }
        Mode::Cpu => {}
    }
    let mut validator = None;
    let result = (|| {
        if options.validate_stream {
            validator = Some(scene_validator(ctx, g, layout, options.objects)?);
        }
        let alloc = vk::CommandBufferAllocateInfo::default().command_pool(ctx.pool).command_buffer_count(1);
        // SAFETY: freed below after the last wait.
        let cmd = unsafe { ctx.device.allocate_command_buffers(&alloc) }
            .map_err(RuntimeError::vk("vkAllocateCommandBuffers"))?[0];
        // SAFETY: destroyed with `cmd` after the last wait.
        let fence = match unsafe { ctx.device.create_fence(&vk::FenceCreateInfo::default(), None) } {
            Ok(f) => f,
            Err(r) => {
                unsafe { ctx.device.free_command_buffers(ctx.pool, &[cmd]) };
                return Err(RuntimeError::Vulkan { call: "vkCreateFence", result: r });
            }
        };
        let mut frames = vec![];
        let mut observed = None;
        let period_ms = ctx.timestamp_period() / 1e6;
        let out = (|| {
            for f in 0..options.warmup + options.frames {
                let driver = match (&dgc_parts, &fallback) {
                    (Some((dev, l, exec)), _) => Driver::Dgc { dev, layout: l, exec },
                    (_, Some(fb)) => Driver::Mdi(fb),
                    _ => Driver::Cpu { objects, frame: &frame_data, lods: meshes.lods },
                };
                let last = f + 1 == options.warmup + options.frames;
                let t0 = Instant::now();
                // SAFETY: `cmd` is not in use (we waited for the previous frame).
                let recorded = unsafe {
                    ctx.device
                        .begin_command_buffer(
                            cmd,
                            &vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
                        )
                        .map_err(RuntimeError::vk("vkBeginCommandBuffer"))?;
                    let r =
                        frame::record(ctx, g, cmd, &driver, (options.width, options.height), last, validator.as_ref())?;
                    ctx.device.end_command_buffer(cmd).map_err(RuntimeError::vk("vkEndCommandBuffer"))?;
                    r
                };
                let cpu_record_ms = t0.elapsed().as_secs_f64() * 1e3;
                let cpu_submit_ms = submit_timed(ctx, cmd, fence)?;
                stream_validation.extend(validator.as_ref().map(StreamValidator::read_report));
                if f < options.warmup {
                    continue;
                }
                let counts = g
                    .count_readback
                    .bytes()
                    .map(|b| [0, 1].map(|i| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap_or_default())));
                let visible = match recorded.host_draws {
                    Some(n) => n,
                    None => counts.map_or(0, |c| c[0]),
                };
                if recorded.host_draws.is_none() {
                    observed = counts.map(|c| c[1]);
                }
                let t = frame::timestamps(ctx, g);
                let span =
                    |a: u32, b: u32| match (t.get(a as usize).copied().flatten(), t.get(b as usize).copied().flatten())
                    {
                        (Some(x), Some(y)) if ctx.caps.timestamps => Some(y.wrapping_sub(x) as f64 * period_ms),
                        _ => None,
                    };
                let chunk_sum = |first: u32| {
                    let spans: Vec<f64> = (0..((g.query_count - SLOT_CHUNKS) / 4))
                        .filter_map(|k| span(SLOT_CHUNKS + 4 * k + first, SLOT_CHUNKS + 4 * k + first + 1))
                        .collect();
                    (!spans.is_empty()).then(|| spans.iter().sum())
                };
                let passes = PassTimes {
                    cull_ms: span(SLOT_START, SLOT_CULL),
                    compact_ms: if options.compaction == Compaction::Fused {
                        None
                    } else {
                        span(SLOT_CULL, SLOT_COMPACT)
                    },
                    preprocess_ms: if options.mode == Mode::Dgc { chunk_sum(0) } else { None },
                    execute_ms: if options.mode == Mode::Dgc {
                        chunk_sum(2)
                    } else {
                        span(SLOT_DRAW_BEGIN, SLOT_DRAW_END)
                    },
                };
                frames.push(FrameReport {
                    visible,
                    draws: visible,
                    cpu_record_ms,
                    cpu_submit_ms,
                    gpu_ms: span(SLOT_START, SLOT_END),
                    passes,
                });
            }
            Ok::<_, RuntimeError>(())
        })();
        // SAFETY: every submission was waited for.
        unsafe {
            ctx.device.free_command_buffers(ctx.pool, &[cmd]);
            ctx.device.destroy_fence(fence, None);
        }
        out?;
        let rgba = g.readback.bytes().map(<[u8]>::to_vec).unwrap_or_default();
        let image = FrameImage { width: options.width, height: options.height, rgba };
        Ok((frames, dgc_parts.as_ref().map(|(_, _, e)| e.plan().clone()), image, observed, flags))
    })();
    if let Some(mut v) = validator {
        // SAFETY: every submission was waited for.
        unsafe {
            let _ = ctx.device.device_wait_idle();
            v.destroy(&ctx.device);
        }
    }
    if let Some((dev, mut l, mut e)) = dgc_parts {
        // SAFETY: the device is idle after the last wait.
        unsafe {
            let _ = ctx.device.device_wait_idle();
            e.destroy(&dev);
            l.destroy(&dev);
        }
    }
    result
}

/// The scene's validator: one instance per draw, at most one sequence per object, indices only
/// from the scene's index buffer.
fn scene_validator(
    ctx: &GpuContext,
    g: &gpu::SceneGpu,
    layout: &dgcc::ir::CompiledLayout,
    objects: u32,
) -> Result<StreamValidator> {
    let limits =
        StreamLimits { max_instance_count: Some(1), max_sequence_count: Some(objects), ..StreamLimits::default() }
            .with_device_limits(&ctx.properties.limits);
    let indices = RegisteredBuffer {
        address: g.indices.address,
        size: g.indices.size,
        usage: vk::BufferUsageFlags::INDEX_BUFFER | vk::BufferUsageFlags::STORAGE_BUFFER,
    };
    StreamValidator::new(ctx, layout, limits, &[indices])
}
