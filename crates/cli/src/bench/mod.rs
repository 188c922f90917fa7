//! `dgcc bench`: the scene of `dgcc run` at several object counts in several modes and culling
//! choices, side by side in one run, with the device's copy bandwidth measured alongside.
//!
//! The default is the design's four-row comparison on its own terms — 10,000 objects of the
//! city at 2560×1440, 100 frames along the camera path: the CPU-driven loop, GPU-driven without
//! culling, with frustum culling, and with frustum + occlusion culling, for dgc and mdi. A
//! checking run per object count (mdi, occlusion, with an object-id target) counts the objects
//! that own a pixel of each frame, so every row's draws can be set against them.
//!
//! Why this shape: the claim device-generated commands make — the CPU stops paying per object,
//! the GPU does no useless work — is a comparison, so every number is taken in the same
//! process on the same device with the same scene: CPU time to record and submit a frame, GPU
//! time of the frame and of each pass (timestamps), visible objects and draws, the preprocess
//! buffer, and the culling passes' effective bandwidth next to the best copy the device
//! managed (`bandwidth`). Each (count, mode) pair runs `warmup` frames that are thrown away,
//! then `frames` that are summarised as median and spread (`stats`). A pair that fails (a
//! device without DGC, memory) becomes a row with its error, not the end of the run.
//!
//! Map: `variant` (mode names and DGC flag overrides), `stats`, `traffic` (bytes per pass),
//! `bandwidth` (the copy probe), `system` (device, driver, date), `table` (bench.md), `plot`
//! (bench.svg, bench.png), `output` (writing the folder).

pub mod bandwidth;
pub mod output;
pub mod plot;
pub mod stats;
pub mod system;
pub mod table;
pub mod traffic;
pub mod variant;

pub use bandwidth::CopyBandwidth;
pub use stats::Stats;
pub use system::DeviceInfo;
pub use traffic::Traffic;
pub use variant::Variant;

use crate::scene::{
    self, Bind, Compaction, Culling, FrameReport, KernelStatistics, Mode, ObjectId, RunOptions, RunReport, SceneKind,
};
use dgcc::ir::Manifest;
use dgcc::runtime::error::{Result, RuntimeError};
use dgcc::runtime::preprocess::ChunkPlan;
use dgcc::runtime::{ContextOptions, GpuContext};
use serde::Serialize;

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub objects: Vec<u32>,
    pub variants: Vec<Variant>,
    /// Every variant runs with each of these (cpu skips `occlusion`, which it cannot do).
    pub cullings: Vec<Culling>,
    /// And with each of these material counts (variants that sort or bin skip 1).
    pub materials: Vec<u32>,
    /// Count the objects owning pixels in a checking run per object count.
    pub count_owners: bool,
    pub frames: u32,
    pub warmup: u32,
    /// Everything else about the scene (camera, image size, preprocess budget, compaction, seed).
    pub scene: RunOptions,
    /// Bytes per copy of the bandwidth probe; 0 skips it.
    pub copy_bytes: u64,
    pub copy_repeats: u32,
    /// Run every row this many times (at least 1), going round the rows of each object count,
    /// material count and culling choice, and pool their frames (`--repeat`).
    pub repeat: u32,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            objects: vec![10_000],
            variants: ["cpu", "mdi", "dgc"].iter().filter_map(|v| Variant::parse(v).ok()).collect(),
            cullings: vec![Culling::None, Culling::Frustum, Culling::Occlusion],
            materials: vec![1],
            count_owners: true,
            frames: 100,
            warmup: 3,
            scene: RunOptions {
                compaction: Compaction::Fused,
                preprocess_budget: 512 << 20,
                width: 2560,
                height: 1440,
                ..RunOptions::default()
            },
            copy_bytes: 256 << 20,
            copy_repeats: 10,
            repeat: 1,
        }
    }
}

/// One step of the run, for a progress display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Bandwidth,
    Scene { objects: u32, variant: String },
    Owners { objects: u32 },
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Bandwidth => f.write_str("copy bandwidth"),
            Step::Scene { objects, variant } => write!(f, "{variant} × {objects} objects"),
            Step::Owners { objects } => write!(f, "pixel owners × {objects} objects"),
        }
    }
}

/// The settings a report was produced with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    pub objects: Vec<u32>,
    pub variants: Vec<String>,
    pub cullings: Vec<Culling>,
    pub materials: Vec<u32>,
    pub scene: SceneKind,
    pub cut_every: u32,
    pub frames: u32,
    pub warmup: u32,
    pub compaction: Compaction,
    pub width: u32,
    pub height: u32,
    pub seed: u64,
    pub preprocess_budget: u64,
    pub copy_bytes_requested: u64,
    /// Times each row ran (`--repeat`).
    pub repeat: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchReport {
    pub tool: String,
    pub version: String,
    /// Filled in by the caller (the CLI knows its arguments).
    pub command_line: Vec<String>,
    pub date: String,
    /// The description the scene's layout came from.
    pub file: String,
    pub device: DeviceInfo,
    pub settings: Settings,
    /// `None` when skipped; the error text when it failed.
    pub bandwidth: Option<CopyBandwidth>,
    pub bandwidth_error: Option<String>,
    pub rows: Vec<Row>,
    /// Per object count, the checking run's objects owning a pixel, frame by frame.
    pub owners: Vec<Owners>,
    /// Every distinct compute kernel the rows ran, as the driver compiled it (empty where the
    /// device has no `VK_KHR_pipeline_executable_properties`).
    pub kernels: Vec<KernelStatistics>,
}

/// What the checking run (mdi, occlusion culling, object ids) counted at one object count, with
/// the fewest materials of the run (those of the four-row table it is set against; cut-out and
/// wind materials change which objects own pixels), every draw kept (no `--max-draws`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Owners {
    pub objects: u32,
    pub materials: u32,
    /// Objects owning at least one pixel, per measured frame (the same frames as every row's:
    /// the camera path is deterministic and culling never changes the picture).
    pub per_frame: Vec<u32>,
    pub error: Option<String>,
}

/// One pass's traffic for one row: the culling passes, the depth pyramid's build, the binning.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CullBandwidth {
    /// Bytes per frame (of the last frame, where the count of kept records varies).
    pub bytes: Traffic,
    /// Read+write GB/s per frame: bytes ÷ the pass's time (cull + compact for culling).
    pub gbps: Stats,
    /// Median GB/s ÷ the best copy's median.
    pub fraction_of_best_copy: Option<f64>,
    /// The same run's best copy moving as many bytes as this pass (half read, half written),
    /// and the pass's median against it: what the memory system gives a pass this small,
    /// whose time the launch and the first and last bytes' latency weigh on more than a large
    /// copy's (`None` where the bench measured no copy).
    pub same_size_copy: Option<SameSizeCopy>,
}

/// A copy of one pass's size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SameSizeCopy {
    /// Bytes the copy read (and wrote).
    pub bytes: u64,
    /// Its best median read+write GB/s (compute shader or `vkCmdCopyBuffer`).
    pub gbps: f64,
    /// The pass's median GB/s ÷ that.
    pub fraction: f64,
}

/// One (object count, variant) pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub objects: u32,
    pub variant: String,
    pub mode: Mode,
    pub culling: Culling,
    /// Materials (pipelines) in the scene, and how the row drew them (`None`: it did not run).
    pub materials: u32,
    pub material_draw: Option<crate::scene::MaterialDraw>,
    /// What a row's execution set held (`None`: it did not run).
    pub bind: Option<crate::scene::Bind>,
    pub error: Option<String>,
    /// Why the row did not run when it could not (cpu cannot cull occlusion).
    pub skipped: Option<String>,
    /// Drawn objects and draws of the last measured frame.
    pub visible: Option<u32>,
    pub draws: Option<u32>,
    /// Mean over the measured frames: objects in the frustum, draws, and draws per pass.
    pub in_view_mean: Option<f64>,
    pub draws_mean: Option<f64>,
    pub early_draws_mean: Option<f64>,
    pub late_draws_mean: Option<f64>,
    /// Whether every measured frame saw the same count (a fixed camera: it must).
    pub visible_stable: bool,
    /// Record + submit, per frame.
    pub cpu_ms: Option<Stats>,
    pub cpu_record_ms: Option<Stats>,
    pub cpu_submit_ms: Option<Stats>,
    pub gpu_ms: Option<Stats>,
    pub cull_ms: Option<Stats>,
    pub compact_ms: Option<Stats>,
    pub preprocess_ms: Option<Stats>,
    pub execute_ms: Option<Stats>,
    /// Pass 0's draws, the pyramid, the late cull and the late draws (occlusion: the early
    /// draws are pass 0's).
    pub draw_ms: Option<Stats>,
    pub pyramid_ms: Option<Stats>,
    pub late_cull_ms: Option<Stats>,
    pub late_draw_ms: Option<Stats>,
    /// Each frame's draw passes summed, early and late ([`whole_draw_ms`]): what
    /// [`Row::total_draw_ms`] and the ratios between rows read.
    pub whole_draw_ms: Option<Stats>,
    /// With `--repeat N` (N > 1): each run's whole-draw median ([`Row::total_draw_ms`] of that
    /// run alone), in the order they ran, `None` (JSON null) for a run that timed no draw, so
    /// that the k-th entry is the k-th repeat in every row; empty otherwise.
    pub repeat_draw_ms: Vec<Option<f64>>,
    /// Sorting or binning pass 0's stream by material.
    pub bin_ms: Option<Stats>,
    pub preprocess: Option<ChunkPlan>,
    pub explicit_preprocess: Option<bool>,
    pub unordered_sequences: Option<bool>,
    pub index_buffer_token: Option<bool>,
    /// Where the draws read the object id (`None` for a failed row).
    pub object_id: Option<ObjectId>,
    pub subgroup_size: Option<u32>,
    pub cull_bandwidth: Option<CullBandwidth>,
    /// The depth pyramid's build (occlusion culling), counted as `traffic::pyramid`.
    pub pyramid_bandwidth: Option<CullBandwidth>,
    /// The binning pass (sorted or binned materials), counted as `traffic::binning` over the
    /// early pass's records.
    pub bin_bandwidth: Option<CullBandwidth>,
    pub frames: Vec<FrameReport>,
}

impl Row {
    fn failed(objects: u32, variant: &Variant, culling: Culling, materials: u32, error: String) -> Row {
        Row {
            objects,
            variant: variant.to_string(),
            mode: variant.mode,
            culling,
            materials,
            material_draw: None,
            bind: None,
            error: Some(error),
            skipped: None,
            visible: None,
            draws: None,
            in_view_mean: None,
            draws_mean: None,
            early_draws_mean: None,
            late_draws_mean: None,
            visible_stable: false,
            cpu_ms: None,
            cpu_record_ms: None,
            cpu_submit_ms: None,
            gpu_ms: None,
            cull_ms: None,
            compact_ms: None,
            preprocess_ms: None,
            execute_ms: None,
            draw_ms: None,
            pyramid_ms: None,
            late_cull_ms: None,
            late_draw_ms: None,
            whole_draw_ms: None,
            repeat_draw_ms: vec![],
            bin_ms: None,
            preprocess: None,
            explicit_preprocess: None,
            unordered_sequences: None,
            index_buffer_token: None,
            object_id: None,
            subgroup_size: None,
            cull_bandwidth: None,
            pyramid_bandwidth: None,
            bin_bandwidth: None,
            frames: vec![],
        }
    }

    fn skipped(objects: u32, variant: &Variant, culling: Culling, materials: u32, why: String) -> Row {
        Row { error: None, skipped: Some(why), ..Row::failed(objects, variant, culling, materials, String::new()) }
    }

    /// Whether the row ran and has numbers.
    pub fn ran(&self) -> bool {
        self.error.is_none() && self.skipped.is_none()
    }

    /// The row's label: the variant, with the culling choice when the bench ran several (and
    /// the material count where the row has several materials).
    pub fn label(&self, several_cullings: bool) -> String {
        let mut label = match several_cullings {
            true => format!("{} · {}", self.variant, self.culling.name()),
            false => self.variant.clone(),
        };
        if self.materials > 1 {
            label.push_str(&format!(" · {} materials", self.materials));
        }
        label
    }

    /// GPU time of drawing, the same span in every mode: each draw pass from a timestamp
    /// before it to one after it (the executor's input barrier, explicit preprocessing, the
    /// attachments' clear and store included), early and late pass summed frame by frame,
    /// median over the frames. Why not the execute alone: every mode's execute timestamps sit
    /// inside the render pass, so they leave out what DGC costs around its draws (the
    /// executor's barrier, explicit preprocessing), which an engine pays all the same.
    pub fn total_draw_ms(&self) -> Option<f64> {
        self.whole_draw_ms.map(|s| s.median)
    }
}

/// The draw passes of each frame summed (early and late), over the frames that timed their
/// first: the median of the sums, not the sum of the medians, which pairs one frame's early
/// pass with another's late pass.
pub fn whole_draw_ms<'a>(passes: impl IntoIterator<Item = &'a scene::PassTimes>) -> Option<Stats> {
    Stats::of_some(passes.into_iter().map(|p| Some(p.draw_ms? + p.late_draw_ms.unwrap_or(0.0))))
}

/// How many `Step`s `run` reports for these options.
pub fn steps(options: &BenchOptions) -> u64 {
    // The copy bandwidth first, and the copies of each pass's size at the end.
    2 * (options.copy_bytes > 0) as u64
        + (options.objects.len()
            * options.repeat.max(1) as usize
            * options.variants.len()
            * options.cullings.len().max(1)
            * options.materials.len().max(1)) as u64
        + if options.count_owners { options.objects.len() as u64 } else { 0 }
}

/// Run the benchmark for `manifest` (the compiled description) and call `progress` before each
/// step. Fails only when no device can be opened or the options are unusable; a failing step
/// is recorded in its row.
/// Why a row is not run, or `None`.
fn skip_reason(variant: &Variant, culling: Culling, materials: u32) -> Option<&'static str> {
    if variant.mode == Mode::Cpu && culling == Culling::Occlusion {
        Some("the CPU loop culls on the host, which has no depth buffer to test against")
    } else if materials == 1 && variant.needs_materials() {
        Some("one material: nothing to sort or bin")
    } else if materials > 1 && variant.bind == Bind::ShaderObjects && (variant.mode != Mode::Dgc || variant.batch) {
        Some("several materials: only dgc's execution set (without --batch) draws them through shader objects")
    } else {
        None
    }
}

/// The scene options of one row.
fn row_options(
    options: &BenchOptions,
    objects: u32,
    materials: u32,
    culling: Culling,
    variant: &Variant,
) -> RunOptions {
    let mut o = RunOptions {
        objects,
        frames: options.frames,
        warmup: options.warmup,
        culling,
        materials,
        ..options.scene.clone()
    };
    variant.apply(&mut o);
    if o.mode == Mode::Cpu {
        // The CPU loop reads no stream to cap.
        o.max_draws = None;
    }
    o
}

/// Every row that will run, refused (with the row named) before a device opens if it cannot:
/// `dgcc bench` calls this first, so that a row that cannot run is a usage error, not a failed
/// row found minutes into a run.
pub fn preflight(manifest: &Manifest, options: &BenchOptions) -> Result<()> {
    // What fails every row alike (the layout) is said once, without a row's name.
    scene::preflight_layout(manifest, &options.scene)?;
    for &objects in &options.objects {
        for &materials in &options.materials {
            for &culling in &options.cullings {
                for variant in &options.variants {
                    if skip_reason(variant, culling, materials).is_none() {
                        let o = row_options(options, objects, materials, culling, variant);
                        scene::preflight(manifest, &o).map_err(|e| {
                            RuntimeError::Invalid(format!("{variant} × {objects} objects ({}): {e}", culling.name()))
                        })?;
                    }
                }
            }
        }
    }
    Ok(())
}

pub fn run(
    manifest: &Manifest,
    file: &str,
    options: &BenchOptions,
    progress: &mut dyn FnMut(&Step),
) -> Result<BenchReport> {
    if options.objects.is_empty()
        || options.variants.is_empty()
        || options.cullings.is_empty()
        || options.materials.is_empty()
    {
        return Err(RuntimeError::Invalid(
            "the benchmark needs at least one object count, one mode, one culling choice and one material count".into(),
        ));
    }
    if let Some(&m) = options.materials.iter().find(|&&m| !(1..=scene::world::MAX_MATERIALS).contains(&m)) {
        return Err(RuntimeError::Invalid(format!(
            "material counts must be within 1..={} (got {m})",
            scene::world::MAX_MATERIALS
        )));
    }
    if options.frames == 0 {
        return Err(RuntimeError::Invalid("--frames must be at least 1".into()));
    }
    if let Some(&zero) = options.objects.iter().find(|&&n| n == 0) {
        return Err(RuntimeError::Invalid(format!("object counts must be at least 1 (got {zero})")));
    }
    preflight(manifest, options)?;
    // One device for the whole run (every row, and the copy probe): DGC enabled when a row
    // needs it; a dgc row on a device without it fails in its own row.
    let ctx = GpuContext::new(&ContextOptions {
        enable_dgc: options.variants.iter().any(|v| v.mode == Mode::Dgc),
        require_dgc: false,
        validation: options.scene.layer_log.clone(),
        // What bounds a pass on the memory system is often its occupancy: report registers.
        kernel_statistics: true,
        ..ContextOptions::default()
    })?;
    crate::scene::inject_validation_error_if_asked(&ctx);
    let device = DeviceInfo::of(&ctx);
    let bandwidth = (options.copy_bytes > 0).then(|| {
        progress(&Step::Bandwidth);
        bandwidth::measure(&ctx, options.copy_bytes, options.copy_repeats.max(1))
    });
    let (bandwidth, bandwidth_error) = match bandwidth {
        Some(Ok(b)) => (Some(b), None),
        Some(Err(e)) => (None, Some(e.to_string())),
        None => (None, None),
    };
    let best_copy = bandwidth.as_ref().map(|b| b.best_gbps);
    let mut rows = vec![];
    let mut owners = vec![];
    let mut kernels: Vec<KernelStatistics> = vec![];
    for &objects in &options.objects {
        for &materials in &options.materials {
            for &culling in &options.cullings {
                // Each variant's scene reports, one per repeat: the repeats go round the
                // variants, so that whatever drifts over a run reaches every variant alike.
                let repeat = options.repeat.max(1);
                let mut runs: Vec<std::result::Result<Vec<RunReport>, String>> =
                    options.variants.iter().map(|_| Ok(vec![])).collect();
                let skip = |variant: &Variant| skip_reason(variant, culling, materials);
                for r in 0..repeat {
                    for (variant, run) in options.variants.iter().zip(runs.iter_mut()) {
                        let mut label = match materials {
                            1 => format!("{variant} · {}", culling.name()),
                            m => format!("{variant} · {} · {m} materials", culling.name()),
                        };
                        if repeat > 1 {
                            label = format!("{label} · repeat {} of {repeat}", r + 1);
                        }
                        // Every step `steps` counted is reported, the ones that do not run too,
                        // so that a progress display reaches its end.
                        let Ok(reports) = run else {
                            progress(&Step::Scene { objects, variant: format!("{label} (failed before)") });
                            continue;
                        };
                        if skip(variant).is_some() {
                            progress(&Step::Scene { objects, variant: format!("{label} (skipped)") });
                            continue;
                        }
                        progress(&Step::Scene { objects, variant: label });
                        let o = row_options(options, objects, materials, culling, variant);
                        match scene::run_on(&ctx, manifest, &o) {
                            Ok(report) => {
                                for k in &report.kernels {
                                    if !kernels.contains(k) {
                                        kernels.push(k.clone());
                                    }
                                }
                                reports.push(report)
                            }
                            Err(e) => *run = Err(e.to_string()),
                        }
                    }
                }
                for (variant, run) in options.variants.iter().zip(runs) {
                    if let Some(why) = skip(variant) {
                        rows.push(Row::skipped(objects, variant, culling, materials, why.into()));
                        continue;
                    }
                    rows.push(match run.as_deref().map(<[RunReport]>::split_first) {
                        Ok(Some((first, rest))) => pooled_row(first, rest, variant, manifest, best_copy),
                        Ok(None) => Row::failed(objects, variant, culling, materials, "the row never ran".into()),
                        Err(e) => Row::failed(objects, variant, culling, materials, e.clone()),
                    });
                }
            }
        }
        if options.count_owners {
            progress(&Step::Owners { objects });
            let materials = options.materials.iter().copied().min().unwrap_or(options.scene.materials);
            let o = RunOptions {
                objects,
                materials,
                frames: options.frames,
                warmup: options.warmup,
                mode: Mode::Mdi,
                culling: Culling::Occlusion,
                object_ids: true,
                max_draws: None,
                ..options.scene.clone()
            };
            let per_frame =
                scene::run_on(&ctx, manifest, &o).map(|r| r.frames.iter().filter_map(|f| f.owners).collect());
            owners.push(match per_frame {
                Ok(per_frame) => Owners { objects, materials, per_frame, error: None },
                Err(e) => Owners { objects, materials, per_frame: vec![], error: Some(e.to_string()) },
            });
        }
    }
    if options.copy_bytes > 0 {
        // A step `steps` counted, reported even where the probe failed and there is no copy
        // to measure against.
        progress(&Step::Bandwidth);
        if bandwidth.is_some() {
            same_size_copies(&ctx, &mut rows, options.copy_repeats.max(1));
        }
    }
    Ok(BenchReport {
        tool: "dgcc bench".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        command_line: vec![],
        date: system::utc_now(),
        file: file.into(),
        device,
        settings: Settings {
            objects: options.objects.clone(),
            variants: options.variants.iter().map(Variant::to_string).collect(),
            cullings: options.cullings.clone(),
            materials: options.materials.clone(),
            scene: options.scene.scene,
            cut_every: options.scene.cut_every,
            frames: options.frames,
            warmup: options.warmup,
            compaction: options.scene.compaction,
            width: options.scene.width,
            height: options.scene.height,
            seed: options.scene.seed,
            preprocess_budget: options.scene.preprocess_budget,
            copy_bytes_requested: options.copy_bytes,
            repeat: options.repeat.max(1),
        },
        bandwidth,
        bandwidth_error,
        rows,
        owners,
        kernels,
    })
}

/// Set every pass's `same_size_copy`: one copy measurement per distinct size (rounded up to a
/// whole MiB), shared by the passes of that size. A size whose copy fails is left unset.
fn same_size_copies(ctx: &GpuContext, rows: &mut [Row], repeats: u32) {
    const MIB: u64 = 1 << 20;
    // Per requested size, what was measured: the bytes actually copied (`clamp_bytes`) and GB/s.
    let mut measured: Vec<(u64, Option<(u64, f64)>)> = vec![];
    for row in rows.iter_mut() {
        for pass in [&mut row.cull_bandwidth, &mut row.pyramid_bandwidth, &mut row.bin_bandwidth].into_iter().flatten()
        {
            let requested = (pass.bytes.total() / 2).div_ceil(MIB).max(1) * MIB;
            let copy = match measured.iter().find(|(r, _)| *r == requested) {
                Some(&(_, copy)) => copy,
                None => {
                    let copy = bandwidth::measure(ctx, requested, repeats).ok().map(|c| (c.bytes, c.best_gbps));
                    measured.push((requested, copy));
                    copy
                }
            };
            pass.same_size_copy = copy.filter(|(_, g)| *g > 0.0).map(|(bytes, g)| SameSizeCopy {
                bytes,
                gbps: g,
                fraction: pass.gbps.median / g,
            });
        }
    }
}

/// One row from a variant's runs (one per repeat): statistics over the frames of all of them,
/// and each run's own whole-draw median in `repeat_draw_ms` when there are several.
fn pooled_row(
    first: &RunReport,
    rest: &[RunReport],
    variant: &Variant,
    manifest: &Manifest,
    best_copy_gbps: Option<f64>,
) -> Row {
    if rest.is_empty() {
        return summarise(first, variant, manifest, best_copy_gbps);
    }
    let mut pooled = first.clone();
    pooled.frames.extend(rest.iter().flat_map(|r| r.frames.iter().cloned()));
    let mut row = summarise(&pooled, variant, manifest, best_copy_gbps);
    row.repeat_draw_ms = std::iter::once(first)
        .chain(rest)
        .map(|r| summarise(r, variant, manifest, best_copy_gbps).total_draw_ms())
        .collect();
    row
}

/// Turn one scene run into a row: statistics over its frames and the culling bandwidth.
pub fn summarise(report: &RunReport, variant: &Variant, manifest: &Manifest, best_copy_gbps: Option<f64>) -> Row {
    let frames = &report.frames;
    let stat = |f: &dyn Fn(&FrameReport) -> Option<f64>| Stats::of_some(frames.iter().map(f));
    let last = frames.last();
    let visible = last.map(|f| f.visible);
    let culled_on_gpu = report.mode != Mode::Cpu;
    let layout = manifest.layouts.iter().find(|l| l.name == report.layout);
    // The traffic model covers the one-pass culling (the occlusion passes read what they read).
    let one_pass = report.culling != Culling::Occlusion;
    // A pass's bytes over its time, frame by frame; its bytes as the last frame moved them.
    let fraction = |gbps: &Stats| best_copy_gbps.filter(|b| *b > 0.0).map(|b| gbps.median / b);
    let per_frame = |traffic: &dyn Fn(&FrameReport) -> Traffic, time: &dyn Fn(&FrameReport) -> Option<f64>| {
        let bytes = traffic(last?);
        let gbps = Stats::of_some(frames.iter().map(|f| traffic(f).gbps(time(f)?)))?;
        Some(CullBandwidth { bytes, fraction_of_best_copy: fraction(&gbps), gbps, same_size_copy: None })
    };
    let cull_bandwidth = match (culled_on_gpu && one_pass, layout) {
        (true, Some(layout)) => {
            let record_bytes: u64 = layout.tokens.iter().map(|t| t.size as u64).sum();
            let shape = traffic::Shape {
                local_size: report.local_size as u64,
                objects_per_invocation: scene::objects_per_invocation(report.compaction) as u64,
                record_bytes,
                stride: layout.stride as u64,
            };
            let objects = report.objects as u64;
            per_frame(
                &|f| traffic::cull_and_compact(report.compaction, report.one_pass, objects, f.visible as u64, &shape),
                &|f| Some(f.passes.cull_ms? + f.passes.compact_ms.unwrap_or(0.0)),
            )
        }
        _ => None,
    };
    let levels = scene::pyramid::level_sizes(report.width, report.height);
    let (w, h) = (report.width as u64, report.height as u64);
    let read = report.pyramid_depth_read.unwrap_or(scene::DepthRead::Sampled);
    let pyramid_bandwidth = per_frame(&|_| traffic::pyramid(w, h, &levels, read), &|f| f.passes.pyramid_ms);
    let stride = layout.map_or(0, |l| l.stride as u64);
    let bin_bandwidth = per_frame(&|f| traffic::binning(f.early_draws as u64, stride), &|f| f.passes.bin_ms);
    let mean = |f: &dyn Fn(&FrameReport) -> u32| {
        (!frames.is_empty()).then(|| frames.iter().map(|x| f(x) as f64).sum::<f64>() / frames.len() as f64)
    };
    Row {
        objects: report.objects,
        variant: variant.to_string(),
        mode: report.mode,
        culling: report.culling,
        materials: report.materials,
        material_draw: Some(report.material_draw),
        bind: Some(report.bind),
        error: None,
        skipped: None,
        visible,
        draws: last.map(|f| f.draws),
        in_view_mean: mean(&|f| f.in_view),
        draws_mean: mean(&|f| f.draws),
        early_draws_mean: mean(&|f| f.early_draws),
        late_draws_mean: mean(&|f| f.late_draws),
        visible_stable: frames.windows(2).all(|w| w[0].visible == w[1].visible),
        cpu_ms: stat(&|f| Some(f.cpu_record_ms + f.cpu_submit_ms)),
        cpu_record_ms: stat(&|f| Some(f.cpu_record_ms)),
        cpu_submit_ms: stat(&|f| Some(f.cpu_submit_ms)),
        gpu_ms: stat(&|f| f.gpu_ms),
        cull_ms: stat(&|f| f.passes.cull_ms),
        compact_ms: stat(&|f| f.passes.compact_ms),
        preprocess_ms: stat(&|f| f.passes.preprocess_ms),
        execute_ms: stat(&|f| f.passes.execute_ms),
        draw_ms: stat(&|f| f.passes.draw_ms),
        pyramid_ms: stat(&|f| f.passes.pyramid_ms),
        late_cull_ms: stat(&|f| f.passes.late_cull_ms),
        late_draw_ms: stat(&|f| f.passes.late_draw_ms),
        whole_draw_ms: whole_draw_ms(frames.iter().map(|f| &f.passes)),
        repeat_draw_ms: vec![],
        bin_ms: stat(&|f| f.passes.bin_ms),
        preprocess: report.preprocess.clone(),
        explicit_preprocess: report.explicit_preprocess,
        unordered_sequences: report.unordered_sequences,
        index_buffer_token: report.index_buffer_token,
        object_id: Some(report.object_id),
        subgroup_size: report.subgroup.observed_size,
        cull_bandwidth,
        pyramid_bandwidth,
        bin_bandwidth,
        frames: frames.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shader_objects_run_with_one_material_everywhere_and_with_several_only_through_the_set() {
        let skip = |name: &str, materials| skip_reason(&Variant::parse(name).unwrap(), Culling::Frustum, materials);
        for name in ["mdi-objects", "cpu-objects", "dgc-objects", "dgc-explicit-batch-objects"] {
            assert_eq!(skip(name, 1), None, "{name}");
        }
        for name in ["mdi-objects", "cpu-objects", "dgc-batch-objects"] {
            assert!(skip(name, 4).is_some_and(|why| why.contains("execution set")), "{name}");
        }
        assert_eq!(skip("dgc-objects", 4), None);
        assert_eq!(skip("dgc-sorted-objects", 1), Some("one material: nothing to sort or bin"));
    }

    /// The 2560 × 1440 rows of the H200 run of 2026-12-01 20:09 UTC (`h200-warm-up.md`): the
    /// DGC execute alone looked 7 % faster than the multi-draw pass, the whole passes are 5 %
    /// slower; the ratio must come from the whole passes, early and late.
    #[test]
    fn draw_time_is_the_whole_draw_passes_in_every_mode() {
        let passes = |execute: f64, draw: f64, late: f64| scene::PassTimes {
            execute_ms: Some(execute),
            draw_ms: Some(draw),
            late_draw_ms: Some(late),
            ..Default::default()
        };
        let mut dgc = Row::failed(10_000, &Variant::plain(Mode::Dgc), Culling::Occlusion, 1, String::new());
        dgc.whole_draw_ms = whole_draw_ms(&[passes(1.358, 1.864, 0.033)]);
        let mut mdi = Row::failed(10_000, &Variant::plain(Mode::Mdi), Culling::Occlusion, 1, String::new());
        mdi.whole_draw_ms = whole_draw_ms(&[passes(1.793, 1.793, 0.010)]);
        let (d, m) = (dgc.total_draw_ms().unwrap(), mdi.total_draw_ms().unwrap());
        assert!((d - 1.897).abs() < 1e-9 && (m - 1.803).abs() < 1e-9, "{d} {m}");
        assert!(d / m > 1.05, "the execute alone would have said {:.2}×", 1.358 / 1.793);
        // A frame without its draw pass timed has no draw time, whatever its execute says.
        let untimed = scene::PassTimes { draw_ms: None, ..passes(1.793, 0.0, 0.010) };
        assert_eq!(whole_draw_ms(&[untimed]), None);
    }

    #[test]
    fn the_whole_draw_is_the_median_of_each_frames_sum() {
        // Early and late passes of (1, 10), (1, 1) and (10, 1) ms: the frames' sums are 11, 2
        // and 11, median 11; the medians' sum would say 2.
        let frames: Vec<scene::PassTimes> = [(1.0, 10.0), (1.0, 1.0), (10.0, 1.0)]
            .map(|(early, late)| scene::PassTimes {
                draw_ms: Some(early),
                late_draw_ms: Some(late),
                ..Default::default()
            })
            .to_vec();
        assert_eq!(whole_draw_ms(&frames).map(|s| s.median), Some(11.0));
    }
}
