//! `dgcc bench`: the scene of `dgcc run` at several object counts in several modes, side by
//! side in one run, with the device's copy bandwidth measured alongside.
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

use crate::scene::{self, Compaction, FrameReport, Mode, ObjectId, RunOptions, RunReport};
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
    pub frames: u32,
    pub warmup: u32,
    /// Everything else about the scene (camera, image size, preprocess budget, compaction, seed).
    pub scene: RunOptions,
    /// Bytes per copy of the bandwidth probe; 0 skips it.
    pub copy_bytes: u64,
    pub copy_repeats: u32,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            objects: vec![1_000, 10_000, 100_000, 1_000_000],
            variants: ["cpu", "mdi", "dgc", "dgc-explicit"].iter().filter_map(|v| Variant::parse(v).ok()).collect(),
            frames: 20,
            warmup: 3,
            scene: RunOptions { compaction: Compaction::Fused, preprocess_budget: 512 << 20, ..RunOptions::default() },
            copy_bytes: 256 << 20,
            copy_repeats: 10,
        }
    }
}

/// One step of the run, for a progress display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Bandwidth,
    Scene { objects: u32, variant: String },
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Bandwidth => f.write_str("copy bandwidth"),
            Step::Scene { objects, variant } => write!(f, "{variant} × {objects} objects"),
        }
    }
}

/// The settings a report was produced with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    pub objects: Vec<u32>,
    pub variants: Vec<String>,
    pub frames: u32,
    pub warmup: u32,
    pub compaction: Compaction,
    pub width: u32,
    pub height: u32,
    pub seed: u64,
    pub preprocess_budget: u64,
    pub copy_bytes_requested: u64,
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
}

/// The culling passes' traffic for one row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CullBandwidth {
    /// Bytes per frame (the visible count is the same every frame).
    pub bytes: Traffic,
    /// Read+write GB/s per frame: bytes ÷ (cull + compact time).
    pub gbps: Stats,
    /// Median GB/s ÷ the best copy's median.
    pub fraction_of_best_copy: Option<f64>,
}

/// One (object count, variant) pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub objects: u32,
    pub variant: String,
    pub mode: Mode,
    pub error: Option<String>,
    /// Visible objects and draws of the last measured frame.
    pub visible: Option<u32>,
    pub draws: Option<u32>,
    /// Whether every measured frame saw the same count (the scene is static: it must).
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
    pub preprocess: Option<ChunkPlan>,
    pub explicit_preprocess: Option<bool>,
    pub unordered_sequences: Option<bool>,
    pub index_buffer_token: Option<bool>,
    /// Where the draws read the object id (`None` for a failed row).
    pub object_id: Option<ObjectId>,
    pub subgroup_size: Option<u32>,
    pub cull_bandwidth: Option<CullBandwidth>,
    pub frames: Vec<FrameReport>,
}

impl Row {
    fn failed(objects: u32, variant: &Variant, error: String) -> Row {
        Row {
            objects,
            variant: variant.to_string(),
            mode: variant.mode,
            error: Some(error),
            visible: None,
            draws: None,
            visible_stable: false,
            cpu_ms: None,
            cpu_record_ms: None,
            cpu_submit_ms: None,
            gpu_ms: None,
            cull_ms: None,
            compact_ms: None,
            preprocess_ms: None,
            execute_ms: None,
            preprocess: None,
            explicit_preprocess: None,
            unordered_sequences: None,
            index_buffer_token: None,
            object_id: None,
            subgroup_size: None,
            cull_bandwidth: None,
            frames: vec![],
        }
    }

    /// GPU time of drawing: explicit preprocessing plus the executes (or the one MDI / CPU
    /// draw pass), median.
    pub fn draw_ms(&self) -> Option<f64> {
        let execute = self.execute_ms?.median;
        Some(execute + self.preprocess_ms.map_or(0.0, |p| p.median))
    }
}

/// How many `Step`s `run` reports for these options.
pub fn steps(options: &BenchOptions) -> u64 {
    (options.copy_bytes > 0) as u64 + (options.objects.len() * options.variants.len()) as u64
}

/// Run the benchmark for `manifest` (the compiled description) and call `progress` before each
/// step. Fails only when no device can be opened or the options are unusable; a failing step
/// is recorded in its row.
pub fn run(
    manifest: &Manifest,
    file: &str,
    options: &BenchOptions,
    progress: &mut dyn FnMut(&Step),
) -> Result<BenchReport> {
    if options.objects.is_empty() || options.variants.is_empty() {
        return Err(RuntimeError::Invalid("the benchmark needs at least one object count and one mode".into()));
    }
    if options.frames == 0 {
        return Err(RuntimeError::Invalid("--frames must be at least 1".into()));
    }
    if let Some(&zero) = options.objects.iter().find(|&&n| n == 0) {
        return Err(RuntimeError::Invalid(format!("object counts must be at least 1 (got {zero})")));
    }
    // One device for the whole run (every row, and the copy probe): DGC enabled when a row
    // needs it; a dgc row on a device without it fails in its own row.
    let ctx = GpuContext::new(&ContextOptions {
        enable_dgc: options.variants.iter().any(|v| v.mode == Mode::Dgc),
        require_dgc: false,
        validation: options.scene.layer_log.clone(),
    })?;
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
    for &objects in &options.objects {
        for variant in &options.variants {
            progress(&Step::Scene { objects, variant: variant.to_string() });
            let mut o = RunOptions { objects, frames: options.frames, warmup: options.warmup, ..options.scene.clone() };
            variant.apply(&mut o);
            rows.push(match scene::run_on(&ctx, manifest, &o) {
                Ok(report) => summarise(&report, variant, manifest, best_copy),
                Err(e) => Row::failed(objects, variant, e.to_string()),
            });
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
            frames: options.frames,
            warmup: options.warmup,
            compaction: options.scene.compaction,
            width: options.scene.width,
            height: options.scene.height,
            seed: options.scene.seed,
            preprocess_budget: options.scene.preprocess_budget,
            copy_bytes_requested: options.copy_bytes,
        },
        bandwidth,
        bandwidth_error,
        rows,
    })
}

/// Turn one scene run into a row: statistics over its frames and the culling bandwidth.
pub fn summarise(report: &RunReport, variant: &Variant, manifest: &Manifest, best_copy_gbps: Option<f64>) -> Row {
    let frames = &report.frames;
    let stat = |f: &dyn Fn(&FrameReport) -> Option<f64>| Stats::of_some(frames.iter().map(f));
    let last = frames.last();
    let visible = last.map(|f| f.visible);
    let culled_on_gpu = report.mode != Mode::Cpu;
    let layout = manifest.layouts.iter().find(|l| l.name == report.layout);
    let cull_bandwidth = match (culled_on_gpu, layout, visible) {
        (true, Some(layout), Some(visible)) => {
            let record_bytes: u64 = layout.tokens.iter().map(|t| t.size as u64).sum();
            let shape = traffic::Shape {
                local_size: report.local_size as u64,
                // Known whenever the kernel ran; otherwise count one subgroup per workgroup.
                subgroup_size: report.subgroup.observed_size.unwrap_or(report.local_size).max(1) as u64,
                fused_objects_per_invocation: scene::FUSED_OBJECTS_PER_INVOCATION as u64,
                record_bytes,
                stride: layout.stride as u64,
            };
            let bytes = traffic::cull_and_compact(report.compaction, report.objects as u64, visible as u64, &shape);
            let per_frame = frames.iter().map(|f| {
                let ms = f.passes.cull_ms? + f.passes.compact_ms.unwrap_or(0.0);
                bytes.gbps(ms)
            });
            Stats::of_some(per_frame).map(|gbps| CullBandwidth {
                bytes,
                gbps,
                fraction_of_best_copy: best_copy_gbps.filter(|b| *b > 0.0).map(|b| gbps.median / b),
            })
        }
        _ => None,
    };
    Row {
        objects: report.objects,
        variant: variant.to_string(),
        mode: report.mode,
        error: None,
        visible,
        draws: last.map(|f| f.draws),
        visible_stable: frames.windows(2).all(|w| w[0].visible == w[1].visible),
        cpu_ms: stat(&|f| Some(f.cpu_record_ms + f.cpu_submit_ms)),
        cpu_record_ms: stat(&|f| Some(f.cpu_record_ms)),
        cpu_submit_ms: stat(&|f| Some(f.cpu_submit_ms)),
        gpu_ms: stat(&|f| f.gpu_ms),
        cull_ms: stat(&|f| f.passes.cull_ms),
        compact_ms: stat(&|f| f.passes.compact_ms),
        preprocess_ms: stat(&|f| f.passes.preprocess_ms),
        execute_ms: stat(&|f| f.passes.execute_ms),
        preprocess: report.preprocess.clone(),
        explicit_preprocess: report.explicit_preprocess,
        unordered_sequences: report.unordered_sequences,
        index_buffer_token: report.index_buffer_token,
        object_id: Some(report.object_id),
        subgroup_size: report.subgroup.observed_size,
        cull_bandwidth,
        frames: frames.clone(),
    }
}
