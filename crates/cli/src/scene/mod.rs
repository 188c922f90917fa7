//! `dgcc run`: a headless GPU-driven scene executed three ways, culled three ways.
//!
//! N objects of a procedural world (`world`: a city of buildings, trees, rocks and balls by
//! default, four meshes with three levels of detail each) are culled as `Culling` says — not at
//! all, against the frustum, or against the frustum and two-pass occlusion — with distance LOD
//! in every case, by one compute kernel that writes each drawn object's record at the generated
//! token offsets straight into its slot of the stream, in object order, and the count
//! (`cull_compact.comp`; where its shared memory does not fit the device, `cull.comp` writes
//! the records with the generated GLSL writers and `compact.comp` packs them); then the stream
//! is drawn into an offscreen colour + depth target by
//! - `dgc`: `vkCmdExecuteGeneratedCommandsEXT` through the executor (chunked under the
//!   preprocess budget),
//! - `mdi`: the fallback, one `vkCmdDrawIndexedIndirectCount` over the same stream, the vertex
//!   shader reading per-draw data through the generated reader and `gl_DrawID`,
//! - `cpu`: the classic loop, re-recorded every frame: `vkCmdPushConstants` +
//!   `vkCmdDrawIndexed` per visible object, with visibility **computed on the host** by the
//!   reference culling (`world::cull`); the cull and compact kernels do not run. The host has
//!   no depth pyramid, so `cpu` culls `none` or `frustum` and refuses `occlusion`.
//!
//! Occlusion culling is two passes per frame (`cull_common.glsl` says how): the objects visible
//! last frame are drawn, a depth pyramid is built from that depth (`pyramid`), everything else
//! is tested against it and the newly visible ones drawn by a second execute (or multi-draw).
//! The camera moves along a path (`world::CameraPath`), cutting to another street now and then.
//!
//! Every mode and culling choice must give the same pixels; the tests hold them to it, frame by
//! frame along the path, and count with an object-id target which objects own pixels.
//!
//! For `dgcc bench` the scene also offers: warm-up frames that are run but not reported, the
//! same kernel without the order (`Compaction::Fused`: each workgroup claims its slots with one
//! atomic, so the records come in any order; the same visible set), and overrides of the
//! layout's `ExplicitPreprocess` and `UnorderedSequences` flags, so the cost of DGC
//! preprocessing can be taken apart. CPU time is split into recording and `vkQueueSubmit`.
//!
//! Why the scene's layout is fixed: its shaders are compiled ahead of time (the runtime has no
//! shader compiler) against `shaders/runtime/generated/scene.glsl`, emitted from
//! `examples/scene.ron`. A description given to `dgcc run` must therefore contain a
//! draw layout with byte-identical records (`compat`); its kernel's `local_size` and subgroup
//! decision are honoured, since both are set when the pipelines are created.

mod compat;
mod fault;
mod frame;
mod gpu;
mod options;
pub(crate) mod pyramid;
mod report;
mod shader_objects;
mod teardown;
pub mod world;

pub use compat::{builtin_manifest, difference as scene_difference, scene_layout, scene_shader_layout};
pub use fault::inject_validation_error_if_asked;
pub use gpu::{objects_per_invocation, upload, KernelStatistics};
pub use options::{
    Bind, Compaction, Culling, DgcMaterials, MaterialDraw, Mode, ObjectId, PyramidFault, RunOptions, MAX_IMAGE_SIDE,
};
pub use pyramid::{level_sizes, DepthRead};
pub use report::{owners, FrameImage, FrameReport, PassTimes, RunReport, SubgroupReport};
pub use world::{Camera, CameraPath, SceneKind};

use ash::vk;
use dgcc::ir::Manifest;
use dgcc::runtime::dgc::DgcDevice;
use dgcc::runtime::error::{Result, RuntimeError};
use dgcc::runtime::execute::{Bound, BoundShaders, Execution};
use dgcc::runtime::ext_dgc::IndirectCommandsLayoutUsageFlagsEXT as UsageFlags;
use dgcc::runtime::fallback::{Fallback, FallbackCaps};
use dgcc::runtime::probe::probe_physical;
use dgcc::runtime::validate::{RegisteredBuffer, StreamLimits, StreamReport, StreamValidator};
use dgcc::runtime::{ContextOptions, GpuContext};
use frame::{pass_slots, Driver, FrameInput, Sorting, SLOT_CHUNKS, SLOT_END, SLOT_PYRAMID, SLOT_START};
use options::check_options;
use std::time::Instant;

/// Run the scene for `manifest` (what `dgcc compile` produced for the file given to `dgcc run`)
/// on a device opened for this run.
pub fn run(manifest: &Manifest, options: &RunOptions) -> Result<RunReport> {
    check_options(options)?;
    let (layout, kernel) = compat::pick(manifest, options.layout.as_deref(), options.shader_object_set())?;
    let dgc = options.mode == Mode::Dgc;
    // `require_dgc`: the context has the extension whenever dgc mode runs on it.
    let ctx = GpuContext::new(&ContextOptions {
        enable_dgc: dgc,
        require_dgc: dgc,
        validation: options.layer_log.clone(),
        ..ContextOptions::default()
    })?;
    fault::inject_validation_error_if_asked(&ctx);
    run_checked(&ctx, manifest, options, layout, kernel)
}

/// What [`run`] and [`run_on`] refuse before they touch a device: the options, and the layout
/// they would draw with. `dgcc bench` asks this of every row before its first, so that a row
/// that cannot run is a usage error, not a failure found minutes in.
pub fn preflight(manifest: &Manifest, options: &RunOptions) -> Result<()> {
    check_options(options)?;
    preflight_layout(manifest, options)
}

/// The part of [`preflight`] about the layout alone: the description has the layout the
/// options name, shaped as the scene's records.
pub fn preflight_layout(manifest: &Manifest, options: &RunOptions) -> Result<()> {
    compat::pick(manifest, options.layout.as_deref(), options.shader_object_set()).map(drop)
}

/// Run the scene on `ctx`, which must have been opened with DGC enabled for `Mode::Dgc`
/// (`options.layer_log` is then the context's business). `dgcc bench` runs every row on one
/// context: opening a device per row costs seconds on some drivers, and NVIDIA's stopped
/// opening new instances after about 30 in one process.
pub fn run_on(ctx: &GpuContext, manifest: &Manifest, options: &RunOptions) -> Result<RunReport> {
    check_options(options)?;
    let (layout, kernel) = compat::pick(manifest, options.layout.as_deref(), options.shader_object_set())?;
    if options.mode == Mode::Dgc && ctx.dgc().is_none() {
        return Err(RuntimeError::MissingFeature {
            device: ctx.device_name().to_owned(),
            feature: "VK_EXT_device_generated_commands (enabled on the context)".into(),
            needed_for: "--mode dgc".into(),
        });
    }
    run_checked(ctx, manifest, options, layout, kernel)
}

fn run_checked(
    ctx: &GpuContext,
    manifest: &Manifest,
    options: &RunOptions,
    layout: &dgcc::ir::CompiledLayout,
    kernel: Option<&dgcc::ir::CompiledKernel>,
) -> Result<RunReport> {
    if options.mode == Mode::Mdi
        && !(ctx.caps().multi_draw_indirect && ctx.caps().draw_indirect_count && ctx.caps().shader_draw_parameters)
    {
        return Err(RuntimeError::MissingFeature {
            device: ctx.device_name().to_owned(),
            feature: "multiDrawIndirect, drawIndirectCount and shaderDrawParameters".into(),
            needed_for: "the multi-draw fallback (--mode mdi)".into(),
        });
    }
    // Before any GPU work: a refusal that needs no device object costs none.
    if options.bind == Bind::ShaderObjects && !ctx.caps().shader_object {
        return Err(RuntimeError::MissingFeature {
            device: ctx.device_name().to_owned(),
            feature: "VK_EXT_shader_object (shaderObject)".into(),
            needed_for: "--bind shader-objects".into(),
        });
    }
    if options.object_id == ObjectId::Instance && !ctx.caps().draw_indirect_first_instance {
        return Err(RuntimeError::MissingFeature {
            device: ctx.device_name().to_owned(),
            feature: "drawIndirectFirstInstance".into(),
            needed_for: "object ids in firstInstance (--object-id instance)".into(),
        });
    }
    // The extension on this context, made once for the run (it reads the live device's profile).
    let dgc = match options.mode {
        Mode::Dgc => Some(DgcDevice::from_context(ctx)?),
        _ => None,
    };
    let live = match &dgc {
        Some(dev) => dev.profile().clone(),
        // SAFETY: the context's physical device, of its live instance.
        None => unsafe { probe_physical(ctx.instance(), ctx.physical()) }.profile,
    };
    let local_size = kernel.map_or(64, |k| k.local_size[0]);
    let max_local = ctx.properties().limits.max_compute_work_group_size[0]
        .min(ctx.properties().limits.max_compute_work_group_invocations);
    if local_size == 0 || local_size > max_local {
        return Err(RuntimeError::Invalid(format!(
            "kernel local_size.x = {local_size} is outside 1..={max_local} on {}",
            ctx.device_name()
        )));
    }
    let fused_shared = gpu::fused_shared_bytes(local_size, layout.stride, false);
    let shared_max = ctx.properties().limits.max_compute_shared_memory_size;
    if options.compaction == Compaction::Fused && options.mode != Mode::Cpu && fused_shared > shared_max {
        return Err(RuntimeError::Invalid(format!(
            "the fused culling kernel needs {fused_shared} bytes of shared memory at local_size.x = {local_size}; {} allows {shared_max} (use the ordered compaction)",
            ctx.device_name()
        )));
    }
    let (pin, note) = compat::subgroup_pin(kernel, &live, local_size, ctx.caps());
    let pyramid_kernel = manifest.kernels.iter().find(|k| k.name == PYRAMID_KERNEL);
    let (pyramid_pin, pyramid_note) = match pyramid_kernel {
        Some(k) => compat::subgroup_pin(Some(k), &live, pyramid::WORKGROUP, ctx.caps()),
        None => (None, Some(format!("the description declares no kernel `{PYRAMID_KERNEL}`"))),
    };
    let (material_draw, material_note) = material_plan(dgc.as_ref(), manifest, layout, options)?;
    let meshes = world::meshes_for(options.scene);
    let mut objects = world::objects(options.scene, options.objects, options.seed);
    world::assign_materials(&mut objects, options.materials);
    let sorting = material_draw.sorting();
    let source = match (options.mode, options.object_id) {
        (Mode::Cpu, _) => gpu::DrawSource::Push,
        (_, ObjectId::Instance) => gpu::DrawSource::Instance,
        (_, ObjectId::Vertex) => gpu::DrawSource::Vertex,
        (Mode::Mdi, _) => gpu::DrawSource::DrawId { binned: sorting == Sorting::Regions },
        (Mode::Dgc, _) if options.batch => gpu::DrawSource::DrawId { binned: sorting == Sorting::Regions },
        (Mode::Dgc, _) => gpu::DrawSource::Push,
    };
    // Timestamp slots per pass for the draw commands inside the render pass: one per chunk
    // under dgc, one for the multi-draw and CPU passes.
    let chunk_slots = if options.mode == Mode::Dgc && !options.batch { options.objects.min(512) } else { 1 };
    // The layout the executes run when it is not the stream's (`--batch`).
    let batch_layout = if options.batch { Some(compat::pick_batch(manifest)?) } else { None };
    let query_count = SLOT_CHUNKS + 2 * 4 * chunk_slots;
    let setup = gpu::SceneSetup {
        objects: &objects,
        materials: options.materials,
        source,
        indirect_bindable: options.bind == Bind::Pipelines
            && matches!(material_draw, MaterialDraw::Set | MaterialDraw::SortedSet),
        bind: options.bind,
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
        pyramid_pin,
        object_ids: options.object_ids,
        streams_for_host: options.object_ids && options.capture_frames && options.mode != Mode::Cpu,
        max_draws: options.max_draws.map_or(options.objects, |n| n.min(options.objects)),
        culling: options.culling,
        culls_on_gpu: options.mode != Mode::Cpu,
    };
    let mut g = gpu::SceneGpu::new(ctx, &setup)?;
    let g_object_id = g.object_id;
    let depth_read = g.pyramid.depth_read;
    let kernels = std::mem::take(&mut g.kernels);
    let mut stream_validation = vec![];
    let run = FrameRun {
        manifest,
        layout,
        options,
        objects: &objects,
        meshes: &meshes,
        chunk_slots,
        material_draw,
        dgc: dgc.as_ref(),
        batch_layout,
    };
    let result = run_frames(ctx, &mut g, &run, &mut stream_validation);
    let one_pass = g.one_pass;
    // SAFETY: run_frames waits for every submission; nothing is pending.
    unsafe {
        let _ = ctx.device().device_wait_idle();
        g.destroy(ctx.device());
    }
    let (frames, plan, image, observed, flags) = result?;
    Ok(RunReport {
        device: ctx.device_name().to_owned(),
        mode: options.mode,
        scene: options.scene,
        culling: options.culling,
        layout: layout.name.clone(),
        batch_layout: batch_layout.map(|l| l.name.clone()),
        objects: options.objects,
        width: options.width,
        height: options.height,
        frames,
        preprocess: plan,
        compaction: options.compaction,
        one_pass,
        local_size,
        explicit_preprocess: flags.map(|f| f & UsageFlags::EXPLICIT_PREPROCESS.as_raw() != 0),
        unordered_sequences: flags.map(|f| f & UsageFlags::UNORDERED_SEQUENCES.as_raw() != 0),
        index_buffer_token: flags.map(|_| {
            !options.bind_index_buffer
                && batch_layout
                    .unwrap_or(layout)
                    .tokens
                    .iter()
                    .any(|t| t.token_type == dgcc::ir::TokenType::IndexBuffer)
        }),
        object_id: g_object_id,
        materials: options.materials,
        material_draw,
        material_note,
        bind: options.bind,
        subgroup: SubgroupReport {
            required_size: pin.and_then(|p| p.required_size),
            require_full: pin.is_some_and(|p| p.flags & 0x2 != 0),
            observed_size: observed,
            note,
        },
        pyramid_subgroup: options.two_pass().then(|| SubgroupReport {
            required_size: pyramid_pin.and_then(|p| p.required_size),
            require_full: pyramid_pin.is_some_and(|p| p.flags & 0x2 != 0),
            observed_size: None,
            note: pyramid_note,
        }),
        pyramid_depth_read: options.two_pass().then_some(depth_read),
        image,
        stream_validation,
        kernels,
    })
}

/// The kernel of the description that builds the depth pyramid (its subgroup decision pins
/// `depth_pyramid.comp`).
pub const PYRAMID_KERNEL: &str = "depth_pyramid";

type FramesOut = (Vec<FrameReport>, Option<dgcc::runtime::preprocess::ChunkPlan>, FrameImage, Option<u32>, Option<u32>);

/// What `run_frames` works from.
struct FrameRun<'a> {
    manifest: &'a Manifest,
    layout: &'a dgcc::ir::CompiledLayout,
    options: &'a RunOptions,
    objects: &'a [world::Object],
    meshes: &'a world::Meshes,
    /// Chunks per pass the query pool has timestamp slots for.
    chunk_slots: u32,
    material_draw: MaterialDraw,
    /// The extension on the run's context (dgc mode).
    dgc: Option<&'a DgcDevice>,
    /// The layout the executes run when it is not the stream's (`--batch`).
    batch_layout: Option<&'a dgcc::ir::CompiledLayout>,
}

/// How this run draws its materials, and a note where the device decided it.
fn material_plan(
    dgc: Option<&DgcDevice>,
    manifest: &Manifest,
    layout: &dgcc::ir::CompiledLayout,
    options: &RunOptions,
) -> Result<(MaterialDraw, Option<String>)> {
    if options.materials == 1 {
        return Ok((MaterialDraw::OnePipeline, None));
    }
    match options.mode {
        Mode::Cpu => return Ok((MaterialDraw::BindOnChange, None)),
        Mode::Mdi => return Ok((MaterialDraw::Binned, None)),
        // The batch layout has no execution set and draws a region's records with one
        // pipeline: one region per material (`check_options` refused the set's options).
        Mode::Dgc if options.batch => {
            return Ok((
                MaterialDraw::Binned,
                Some("binned: --batch draws each material's region as one sequence".into()),
            ))
        }
        Mode::Dgc => {}
    }
    let entries = layout.execution_set().map_or(0, |s| s.max_entries);
    // A shader-object set holds a vertex and a fragment shader per material.
    let per_material = if options.bind == Bind::ShaderObjects { 2 } else { 1 };
    if options.materials * per_material > entries {
        return Err(RuntimeError::Invalid(format!(
            "--materials {} needs an execution set of at least {} entries; layout `{}` has {entries}",
            options.materials,
            options.materials * per_material,
            layout.name
        )));
    }
    let dev = dgc.ok_or_else(|| RuntimeError::Invalid("dgc mode without the extension on its context".into()))?;
    let unbindable = dev.execution_set_unbindable(layout, &manifest.push_constants);
    let set = if options.sort_materials { MaterialDraw::SortedSet } else { MaterialDraw::Set };
    match (options.dgc_materials, unbindable) {
        (DgcMaterials::Binned, _) => Ok((MaterialDraw::Binned, Some("binned, as --material-draw binned asks".into()))),
        (_, Some(why)) if options.bind == Bind::ShaderObjects => {
            Err(RuntimeError::Invalid(format!("--bind shader-objects: {why}; use --bind pipelines")))
        }
        (DgcMaterials::Set, Some(why)) => {
            Err(RuntimeError::Invalid(format!("--material-draw set: {why}; use --material-draw binned (or auto)")))
        }
        (DgcMaterials::Auto, Some(why)) => Ok((MaterialDraw::Binned, Some(why))),
        (_, None) => Ok((set, None)),
    }
}

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
    unsafe { ctx.device().queue_submit(ctx.queue(), &submit, fence) }.map_err(RuntimeError::vk("vkQueueSubmit"))?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    // SAFETY: the fence belongs to this device.
    unsafe {
        ctx.device().wait_for_fences(&[fence], true, u64::MAX).map_err(RuntimeError::vk("vkWaitForFences"))?;
        ctx.device().reset_fences(&[fence]).map_err(RuntimeError::vk("vkResetFences"))?;
    }
    Ok(ms)
}

/// The frame uniforms of frame `f` (warm-up frames count) for this run, drawing `meshes`.
pub fn frame_uniforms(options: &RunOptions, meshes: &world::Meshes, f: u32) -> world::Frame {
    let mut frame = view_uniforms(options, f).with_meshes(meshes);
    if options.object_id == ObjectId::Vertex {
        frame.mesh[2] = meshes.vertex_ids.shift;
        frame.mesh[3] = meshes.vertex_ids.base;
    }
    frame
}

/// The frame uniforms of frame `f` without the meshes' part: all the host's culling reads.
fn view_uniforms(options: &RunOptions, f: u32) -> world::Frame {
    let path = camera_path(options);
    let mut frame = world::frame(&path.camera(f), options.width, options.height);
    let levels = level_sizes(options.width, options.height);
    frame.counts = [options.objects, options.object_id.code(), options.culling.code(), (!path.is_cut(f)) as u32];
    frame.pyramid = [levels.len() as u32, levels[0].0, levels[0].1, options.pyramid_fault.is_some() as u32];
    frame.materials = [options.materials, f, 0, 0];
    frame
}

/// The camera path of a run.
pub fn camera_path(options: &RunOptions) -> CameraPath {
    CameraPath {
        scene: options.scene,
        objects: options.objects,
        cut_every: options.cut_every,
        fixed: options.camera,
        aspect: options.width as f32 / options.height.max(1) as f32,
    }
}

/// Objects in the view frustum at frame `f`, by the host's reference culling.
pub fn reference_in_view(options: &RunOptions, objects: &[world::Object], f: u32) -> u32 {
    // The frustum test reads the planes only: no meshes needed.
    let frame = view_uniforms(options, f);
    objects.iter().filter(|o| world::in_frustum(&frame, o)).count() as u32
}

fn run_frames(
    ctx: &GpuContext,
    g: &mut gpu::SceneGpu,
    run: &FrameRun<'_>,
    stream_validation: &mut Vec<StreamReport>,
) -> Result<FramesOut> {
    let FrameRun { manifest, layout, options, objects, meshes, chunk_slots, material_draw, dgc, batch_layout } = *run;
    let use_set = matches!(material_draw, MaterialDraw::Set | MaterialDraw::SortedSet);
    let binned_dgc = options.mode == Mode::Dgc && material_draw == MaterialDraw::Binned;
    let sorts = matches!(material_draw, MaterialDraw::SortedSet | MaterialDraw::Binned);
    let two_pass = options.two_pass();
    let mut flags = None;
    let mut dgc_parts = None;
    let mut fallback = None;
    match options.mode {
        Mode::Dgc => {
            let dev =
                dgc.ok_or_else(|| RuntimeError::Invalid("dgc mode without the extension on its context".into()))?;
            let mut layout = batch_layout.unwrap_or(layout).clone();
            layout.flags = layout_flags(layout.flags, options);
            if options.bind_index_buffer {
                layout.tokens.retain(|t| t.token_type != dgcc::ir::TokenType::IndexBuffer);
            }
            if g.object_id.outside_the_record() {
                layout.tokens.retain(|t| t.token_type != dgcc::ir::TokenType::PushConstant);
            }
            if !use_set {
                // One pipeline, or one per binned execute: no sequence changes it.
                layout = layout.without_execution_set();
            }
            flags = Some(layout.flags);
            // SAFETY: the scene's graphics layout, live until `g.destroy`, holds the manifest's
            // push-constant ranges.
            let l = unsafe { dev.create_layout(&layout, &manifest.push_constants, g.graphics_layout)? };
            let mut set = None;
            if use_set {
                // SAFETY (both kinds of set): the materials' pipelines or shaders were made
                // INDIRECT_BINDABLE with the graphics layout (its set layout and ranges) for the
                // layout's vertex and fragment stages, and live until `g.destroy`, after the set;
                // nothing has used the set yet.
                let entry = |m: u32| match options.swap_set_entries {
                    Some((a, b)) if m == a => b,
                    Some((a, b)) if m == b => a,
                    _ => m,
                };
                let made = match &g.shaders {
                    // Material m's vertex and fragment shaders at entries 2m and 2m + 1 (what
                    // the shader-object record's kernels write).
                    Some(shaders) => {
                        let pair = |m: u32| shaders.pairs.get(entry(m) as usize).copied().unwrap_or(shaders.pairs[0]);
                        let ranges = dgcc::runtime::push::vk_ranges(&manifest.push_constants);
                        let set_layouts = [g.passes[0].set.layout()];
                        let initial = shaders.initial(entry(0) as usize);
                        unsafe { dev.create_shader_execution_set(&l, &initial, &set_layouts, &ranges) }.and_then(|s| {
                            for m in 0..shaders.pairs.len() as u32 {
                                for (k, shader) in pair(m).into_iter().enumerate() {
                                    unsafe { dev.write_execution_set_shader(&s, 2 * m + k as u32, shader)? };
                                }
                            }
                            Ok(s)
                        })
                    }
                    None => {
                        let initial = g.draws[entry(0) as usize];
                        unsafe { dev.create_execution_set(&l, initial) }.and_then(|s| {
                            for m in 1..g.draws.len() as u32 {
                                let pipeline = *g.draws.get(entry(m) as usize).unwrap_or(&g.draws[0]);
                                unsafe { dev.write_execution_set(&s, m, pipeline)? };
                            }
                            Ok(s)
                        })
                    }
                };
                match made {
                    Ok(s) => set = Some(s),
                    Err(e) => {
                        let mut l = l;
                        // SAFETY: no work has used the layout.
                        unsafe { l.destroy(dev) };
                        return Err(e);
                    }
                }
            }
            // What each execution of a pass is bound to, and how many records it reads: the set,
            // or one pipeline per material region (binned), or the one pipeline or pair of
            // shader objects (one material).
            let one = match &g.shaders {
                Some(shaders) => Bound::Shaders(BoundShaders::new(&shaders.initial(0))?),
                None => Bound::Pipeline(g.draws[0]),
            };
            let bounds: Vec<(Bound, u32)> = match &set {
                Some(s) => vec![(Bound::for_set(s)?, g.max_draws)],
                // One sequence that multi-draws up to `max_draws` records, or one per material
                // region (binned), each up to `max_draws` too.
                None if batch_layout.is_some() && binned_dgc => {
                    g.draws.iter().map(|&p| (Bound::Pipeline(p), 1)).collect()
                }
                None if batch_layout.is_some() => vec![(one, 1)],
                None if binned_dgc => {
                    g.draws.iter().zip(&g.material_counts).map(|(&p, &n)| (Bound::Pipeline(p), n.max(1))).collect()
                }
                None => vec![(one, g.max_draws)],
            };
            // One execution per pass (and material, binned): each has its own preprocess memory,
            // so a later execute never overwrites what an earlier one still reads.
            let mut execs: Vec<Vec<Execution>> = vec![];
            let mut failed = None;
            'passes: for _ in 0..if two_pass { 2 } else { 1 } {
                let mut pass = vec![];
                for &(bound, n) in &bounds {
                    // SAFETY: `l` is `dev`'s; what `bound` names was made for its stages with the
                    // graphics layout and outlives the execution.
                    // An execution set's executes are never chunked (`Execution::new` says why): the
                    // whole stream's preprocess memory, whatever the budget.
                    let budget = if set.is_some() { u64::MAX } else { options.preprocess_budget };
                    let max_draw_count = if batch_layout.is_some() { g.max_draws } else { 0 };
                    match unsafe { Execution::new(dev, &l, bound, n, max_draw_count, budget) } {
                        Ok(mut e) => {
                            // SAFETY: `frame::record` puts the preprocess stage into its
                            // barriers behind compaction and binning for DGC drivers, and
                            // nothing writes a stream between them and the executes.
                            unsafe { e.assume_inputs_visible(!options.executor_barrier) };
                            pass.push(e)
                        }
                        Err(e) => {
                            failed = Some(e);
                            execs.push(pass);
                            break 'passes;
                        }
                    }
                }
                execs.push(pass);
            }
            if let Some(e) = failed {
                let mut l = l;
                // SAFETY: no work has used the layout, the set or the executions yet.
                unsafe {
                    for mut x in execs.into_iter().flatten() {
                        x.destroy(dev);
                    }
                    if let Some(mut s) = set {
                        s.destroy(dev);
                    }
                    l.destroy(dev);
                }
                return Err(e);
            }
            dgc_parts = Some((dev, l, execs, set));
        }
        Mode::Mdi => {
            fallback = Some(
                Fallback::new(&layout.without_execution_set(), FallbackCaps::from(ctx))?
                    .with_push_constants(&manifest.push_constants)?,
            )
        }
        Mode::Cpu => {}
    }
    let mut validators = vec![];
    let result = (|| {
        if options.validate_stream {
            for _ in 0..if two_pass { 2 } else { 1 } {
                validators.push(scene_validator(ctx, g, layout, options.objects)?);
            }
        }
        let alloc = vk::CommandBufferAllocateInfo::default().command_pool(ctx.pool()).command_buffer_count(1);
        // SAFETY: freed below after the last wait.
        let cmd = unsafe { ctx.device().allocate_command_buffers(&alloc) }
            .map_err(RuntimeError::vk("vkAllocateCommandBuffers"))?[0];
        // SAFETY: destroyed with `cmd` after the last wait.
        let fence = match unsafe { ctx.device().create_fence(&vk::FenceCreateInfo::default(), None) } {
            Ok(f) => f,
            Err(r) => {
                unsafe { ctx.device().free_command_buffers(ctx.pool(), &[cmd]) };
                return Err(RuntimeError::Vulkan { call: "vkCreateFence", result: r });
            }
        };
        let mut frames = vec![];
        let mut observed = None;
        let mut last_image = FrameImage::default();
        let period_ms = ctx.timestamp_period() / 1e6;
        let path = camera_path(options);
        // Where a record holds its object id (the drawn set is read from the streams).
        let object_offset = layout
            .tokens
            .iter()
            .find(|t| t.token_type == dgcc::ir::TokenType::PushConstant)
            .map_or(0, |t| t.offset as usize);
        let out = (|| {
            for f in 0..options.warmup + options.frames {
                let mut frame_data = frame_uniforms(options, meshes, f);
                frame_data.index_buffer =
                    [g.indices.address() as u32, (g.indices.address() >> 32) as u32, g.indices.size() as u32, 0];
                let driver = match (&dgc_parts, &fallback) {
                    (Some((dev, l, execs, _)), _) => {
                        let last = execs.last().unwrap_or(&execs[0]);
                        let batch = batch_layout.is_some();
                        if binned_dgc {
                            Driver::DgcBinned { dev, layout: l, execs: [&execs[0][..], &last[..]], batch }
                        } else {
                            Driver::Dgc { dev, layout: l, execs: [&execs[0][0], &last[0]], batch }
                        }
                    }
                    (_, Some(fb)) => Driver::Mdi(fb),
                    _ => Driver::Cpu { objects, lods: &meshes.lods, sort: options.sort_materials },
                };
                let reported = f >= options.warmup;
                let last = f + 1 == options.warmup + options.frames;
                let readback = last || (reported && (options.capture_frames || options.object_ids));
                let input = FrameInput {
                    driver,
                    frame: &frame_data,
                    culling: options.culling,
                    size: (options.width, options.height),
                    readback,
                    validators: &validators,
                    chunk_slots,
                    sorting: material_draw.sorting(),
                };
                let t0 = Instant::now();
                // SAFETY: `cmd` is not in use (we waited for the previous frame).
                let recorded = unsafe {
                    ctx.device()
                        .begin_command_buffer(
                            cmd,
                            &vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
                        )
                        .map_err(RuntimeError::vk("vkBeginCommandBuffer"))?;
                    let r = frame::record(ctx, g, cmd, &input)?;
                    ctx.device().end_command_buffer(cmd).map_err(RuntimeError::vk("vkEndCommandBuffer"))?;
                    r
                };
                let cpu_record_ms = t0.elapsed().as_secs_f64() * 1e3;
                let cpu_submit_ms = submit_timed(ctx, cmd, fence)?;
                stream_validation.extend(validators.iter().map(StreamValidator::read_report));
                if !reported {
                    continue;
                }
                let word = |b: &[u8], i: usize| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap_or_default());
                // Per pass: total, subgroup size.
                let counts = g.count_readback.bytes().map(|b| [0, 1].map(|p| [word(b, 4 * p), word(b, 4 * p + 1)]));
                let (early, late) = match (recorded.host_draws, counts) {
                    (Some(n), _) => (n, 0),
                    (None, Some(c)) => (c[0][0], if two_pass { c[1][0] } else { 0 }),
                    (None, None) => (0, 0),
                };
                // What a capped pass drew: the first `max_draws` records of what culling kept.
                let (drawn_early, drawn_late) = if recorded.host_draws.is_none() {
                    (early.min(g.max_draws), late.min(g.max_draws))
                } else {
                    (early, late)
                };
                if recorded.host_draws.is_none() {
                    observed = counts.map(|c| c[0][1]);
                }
                let t = frame::timestamps(ctx, g);
                let span =
                    |a: u32, b: u32| match (t.get(a as usize).copied().flatten(), t.get(b as usize).copied().flatten())
                    {
                        (Some(x), Some(y)) if ctx.caps().timestamps => Some(y.wrapping_sub(x) as f64 * period_ms),
                        _ => None,
                    };
                let chunk_sum = |first: u32| {
                    let spans: Vec<f64> = (0..2 * chunk_slots)
                        .filter_map(|k| span(SLOT_CHUNKS + 4 * k + first, SLOT_CHUNKS + 4 * k + first + 1))
                        .collect();
                    (!spans.is_empty()).then(|| spans.iter().sum())
                };
                let [begin0, cull0, compact0, draw0, draw0_end] = pass_slots(0);
                let [begin1, cull1, compact1, draw1, draw1_end] = pass_slots(1);
                let gpu_culls = options.mode != Mode::Cpu;
                let fused = g.one_pass;
                let passes = PassTimes {
                    cull_ms: if gpu_culls { span(begin0, cull0) } else { None },
                    compact_ms: if gpu_culls && !fused { span(cull0, compact0) } else { None },
                    // Binned dgc executes once per material: only its passes are timed.
                    preprocess_ms: if options.mode == Mode::Dgc { chunk_sum(0) } else { None },
                    // Inside the render pass in every mode (a binned dgc pass executes once per
                    // material, into the same slots: only its passes are timed).
                    execute_ms: if binned_dgc { span(draw0, draw0_end) } else { chunk_sum(2) },
                    draw_ms: span(draw0, draw0_end),
                    pyramid_ms: if two_pass { span(draw0_end, SLOT_PYRAMID) } else { None },
                    late_cull_ms: if two_pass { span(begin1, if fused { cull1 } else { compact1 }) } else { None },
                    late_draw_ms: if two_pass { span(draw1, draw1_end) } else { None },
                    bin_ms: if gpu_culls && sorts { span(compact0, draw0) } else { None },
                };
                let image = if readback {
                    FrameImage {
                        width: options.width,
                        height: options.height,
                        rgba: g.readback.bytes().map(<[u8]>::to_vec).unwrap_or_default(),
                    }
                } else {
                    FrameImage::default()
                };
                let ids: Option<Vec<u32>> = g
                    .id_readback
                    .as_ref()
                    .filter(|_| readback)
                    .and_then(|b| b.bytes())
                    .map(|b| b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect());
                if last {
                    last_image = image.clone();
                }
                // The objects each pass drew, from the record's object id (GPU-driven modes), and
                // whether each pass's stream held them in object order.
                let mut in_object_order = None;
                let drawn: Option<Vec<u32>> = g.stream_readback.as_ref().filter(|_| readback).map(|host| {
                    let mut ids = vec![];
                    let mut ordered = true;
                    for (buffer, count) in host.iter().zip([early, late]) {
                        if let Some(bytes) = buffer.bytes() {
                            let first = ids.len();
                            for r in 0..count as usize {
                                let at = r * layout.stride as usize + object_offset;
                                if let Some(w) = bytes.get(at..at + 4) {
                                    ids.push(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
                                }
                            }
                            ordered &= ids[first..].windows(2).all(|w| w[0] < w[1]);
                        }
                    }
                    in_object_order = Some(ordered);
                    ids.sort_unstable();
                    ids
                });
                frames.push(FrameReport {
                    in_view: objects.iter().filter(|o| world::in_frustum(&frame_data, o)).count() as u32,
                    visible: early + late,
                    draws: drawn_early + drawn_late,
                    early_draws: drawn_early,
                    late_draws: drawn_late,
                    dropped_draws: early + late - drawn_early - drawn_late,
                    owners: ids.as_deref().map(owners),
                    cut: path.is_cut(f),
                    cpu_record_ms,
                    cpu_submit_ms,
                    gpu_ms: span(SLOT_START, SLOT_END),
                    passes,
                    image: if options.capture_frames { Some(image) } else { None },
                    ids: ids.filter(|_| options.capture_frames),
                    drawn,
                    in_object_order,
                });
            }
            Ok::<_, RuntimeError>(())
        })();
        // SAFETY: every submission was waited for.
        unsafe {
            ctx.device().free_command_buffers(ctx.pool(), &[cmd]);
            ctx.device().destroy_fence(fence, None);
        }
        out?;
        Ok((frames, dgc_parts.as_ref().map(|(_, _, e, _)| e[0][0].plan().clone()), last_image, observed, flags))
    })();
    for mut v in validators {
        // SAFETY: every submission was waited for.
        unsafe {
            let _ = ctx.device().device_wait_idle();
            v.destroy(ctx.device());
        }
    }
    if let Some((dev, mut l, execs, set)) = dgc_parts {
        // SAFETY: the device is idle after the last wait.
        unsafe {
            let _ = ctx.device().device_wait_idle();
            for mut e in execs.into_iter().flatten() {
                e.destroy(dev);
            }
            if let Some(mut s) = set {
                s.destroy(dev);
            }
            l.destroy(dev);
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
            .with_device_limits(&ctx.properties().limits);
    let indices = RegisteredBuffer {
        address: g.indices.address(),
        size: g.indices.size(),
        usage: vk::BufferUsageFlags::INDEX_BUFFER | vk::BufferUsageFlags::STORAGE_BUFFER,
    };
    StreamValidator::new(ctx, layout, limits, &[indices])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_up_and_frames_that_overflow_a_frame_counter_are_refused() {
        let options = RunOptions { frames: u32::MAX, warmup: 1, layer_log: None, ..RunOptions::default() };
        let e = check_options(&options).expect_err("the frame loop would run 0 frames").to_string();
        assert!(e.contains("--warmup 1 and --frames 4294967295"), "{e}");
        let fits = RunOptions { frames: u32::MAX - 1, warmup: 1, layer_log: None, ..RunOptions::default() };
        assert!(check_options(&fits).is_ok());
    }

    /// What `scene.vert` relies on: vertices below `mesh.x` are positions (w = 1) and the
    /// normals follow (w = 0), one per position; every sphere LOD's vertices lie below `mesh.y`
    /// and every other kind's at or above it (the sphere path scales by the bounding radius, the
    /// others by the half extents); the LOD table is the meshes'; `materials.y` counts frames.
    #[test]
    fn the_frame_uniforms_say_where_the_meshes_keep_normals_and_spheres() {
        for scene in [SceneKind::City, SceneKind::Field, SceneKind::Cubes] {
            let meshes = world::meshes_for(scene);
            let options = RunOptions { scene, materials: 4, layer_log: None, ..RunOptions::default() };
            for f in [0, 7] {
                let frame = frame_uniforms(&options, &meshes, f);
                let [normals, spheres, ..] = frame.mesh;
                assert_eq!(2 * normals as usize, meshes.vertices.len(), "{scene:?}: a normal per position");
                let (positions, rest) = meshes.vertices.split_at(normals as usize);
                assert!(positions.iter().all(|v| v[3] == 1.0) && rest.iter().all(|v| v[3] == 0.0), "{scene:?}");
                assert!(0 < spheres && spheres < normals, "{scene:?}: the spheres come first");
                for (slot, lod) in meshes.lods.iter().enumerate() {
                    let end = (lod.first_index + lod.index_count) as usize;
                    for &i in &meshes.indices[lod.first_index as usize..end] {
                        let v = (i as i32 + lod.vertex_offset) as u32;
                        let sphere = slot / 3 == world::KIND_SPHERE as usize;
                        assert_eq!(v < spheres, sphere, "{scene:?}: LOD slot {slot}, vertex {v}");
                    }
                }
                assert_eq!(frame.lods, meshes.lods, "{scene:?}");
                assert_eq!(frame.materials[..2], [4, f], "{scene:?}: materials and the frame clock");
            }
        }
    }
}
