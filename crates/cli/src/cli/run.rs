//! `dgcc run FILE`: compile the description, then run its GPU-driven scene headless on the live
//! device and print what each frame did; `dgcc run FILE --layout NAME`: run any layout of it
//! with synthetic records and check each sequence's effect on the device
//! (`dgcc_cli::layout_check`).
//!
//! The rule between the two: `--layout` always selects the checked run of the named layouts
//! (the scene's options do not apply there); without it, `run` draws the demo scene, which
//! needs a layout shaped as `SceneDraw` in examples/scene.ron, and a description that has none
//! is told to use `--layout` with the names of its layouts.

use super::stdio::{errln, out, outln};
use super::{FAILED, OK, USAGE};
use dgcc_cli::layout_check::{self, CheckOptions, LayoutReport};
use dgcc_cli::scene::{self, Bind, Culling, DgcMaterials, Mode, ObjectId, RunOptions, SceneKind};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ModeArg {
    Dgc,
    Mdi,
    Cpu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CullingArg {
    None,
    Frustum,
    Occlusion,
}

impl CullingArg {
    pub fn culling(self) -> Culling {
        match self {
            CullingArg::None => Culling::None,
            CullingArg::Frustum => Culling::Frustum,
            CullingArg::Occlusion => Culling::Occlusion,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SceneArg {
    City,
    Field,
    Cubes,
}

impl SceneArg {
    pub fn scene(self) -> SceneKind {
        match self {
            SceneArg::City => SceneKind::City,
            SceneArg::Field => SceneKind::Field,
            SceneArg::Cubes => SceneKind::Cubes,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SequencesArg {
    Ordered,
    Unordered,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ObjectIdArg {
    Record,
    Instance,
    Vertex,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MaterialDrawArg {
    Auto,
    Set,
    Binned,
}

/// The options of the demo scene, which a `--layout` run does not read (`--png` is refused
/// with its own message).
const SCENE_OPTIONS: [&str; 21] = [
    "objects",
    "frames",
    "mode",
    "culling",
    "scene",
    "cut_every",
    "object_ids",
    "seed",
    "size",
    "width",
    "height",
    "preprocess_budget_mib",
    "validate_stream",
    "max_draws",
    "batch",
    "sequences",
    "object_id",
    "materials",
    "material_draw",
    "sort_materials",
    "bind",
];

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The description file (`.ron` or `.dgc`).
    pub file: PathBuf,
    /// Run this layout of the description instead of the demo scene (repeatable): synthetic
    /// records written through the manifest's offsets (push data, index and vertex buffers at
    /// real addresses, draw, count and dispatch arguments, execution-set indices), executed through
    /// DGC and through the runtime's fallback where each can run it, and each sequence's effect
    /// checked on the device; exit 1 when one differs, when the device refuses the layout (with
    /// `dgcc check`'s codes), or when neither path could check it (no tally shader reads its
    /// shape). The scene's options do not apply, and giving one is an error.
    #[arg(long = "layout", value_name = "NAME", conflicts_with_all = SCENE_OPTIONS)]
    pub layouts: Vec<String>,
    /// Test only: write this sequence's record wrong (with --layout), to see the check fail.
    #[arg(long, value_name = "K", hide = true)]
    pub corrupt_sequence: Option<u32>,
    #[command(flatten)]
    pub device: super::DeviceArg,
    /// Number of objects in the scene.
    #[arg(long, default_value_t = 10_000)]
    pub objects: u32,
    /// Number of frames to run.
    #[arg(long, default_value_t = 3)]
    pub frames: u32,
    /// dgc: device-generated commands; mdi: the multi-draw-indirect fallback; cpu: one
    /// vkCmdPushConstants + vkCmdDrawIndexed per visible object, recorded every frame.
    #[arg(long, value_enum, default_value_t = ModeArg::Dgc)]
    pub mode: ModeArg,
    /// none: draw every object; frustum: skip what is outside the view; occlusion: frustum and
    /// two-pass occlusion culling against a depth pyramid (dgc and mdi; the host culls in cpu
    /// mode and has no depth buffer).
    #[arg(long, value_enum, default_value_t = CullingArg::Frustum)]
    pub culling: CullingArg,
    /// city: buildings, trees, rocks and balls, the camera walking the streets (occlusion
    /// matters); field: spheres on a plane under a fixed camera (dgcc 0.1's scene); cubes:
    /// plain 12-triangle cubes on a grid, every one in view (the per-draw cost of the front end).
    #[arg(long, value_enum, default_value_t = SceneArg::City)]
    pub scene: SceneArg,
    /// The city's camera cuts to another street every N frames (0: never) [default: 50].
    #[arg(long, value_name = "N")]
    pub cut_every: Option<u32>,
    /// Render object ids too and report, per frame, how many objects own a pixel and the
    /// culling efficiency (draws per such object).
    #[arg(long)]
    pub object_ids: bool,
    /// Write the last frame as a PNG image.
    #[arg(long)]
    pub png: Option<PathBuf>,
    /// Print the report as JSON on standard output.
    #[arg(long)]
    pub json: bool,
    /// Seed of the procedural city or field (the cubes are a fixed grid) [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Image width and height in pixels.
    #[arg(long, default_value_t = 256)]
    pub size: u32,
    /// Image width, instead of --size.
    #[arg(long)]
    pub width: Option<u32>,
    /// Image height, instead of --size.
    #[arg(long)]
    pub height: Option<u32>,
    /// Preprocess memory the DGC executor may use, in MiB (longer streams run in chunks)
    /// [default: 64].
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub preprocess_budget_mib: Option<u64>,
    /// Check every frame's stream on the GPU before drawing it (index and vertex buffer ranges,
    /// index ranges, instance counts, the stored count); exits 1 when a record is wrong.
    #[arg(long)]
    pub validate_stream: bool,
    /// dgc and mdi: size each pass's execute or multi-draw for at most N draws (its
    /// maxSequenceCount / maxDrawCount) instead of one per object; culling that keeps more draws
    /// only the first N, and the report warns about each frame that did.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_draws: Option<u32>,
    /// dgc: draw each pass's records through one sequence of layout `SceneBatch` (a
    /// DrawIndexedCount token that multi-draws them, with the count culling wrote) instead of
    /// a sequence per draw; the draws read their record through gl_DrawID, as under mdi. With
    /// --materials, the stream is binned and each material's region is one sequence, executed
    /// with its pipeline bound.
    #[arg(long)]
    pub batch: bool,
    /// Override the layout's UnorderedSequences flag in dgc mode: `ordered` executes sequences
    /// in stream order (pixel-identical to the other modes on any device), `unordered` lets the
    /// driver reorder them (faster; where objects overlap at exactly equal depth the picture may
    /// differ from the ordered modes). Default: as the description says.
    #[arg(long, value_enum)]
    pub sequences: Option<SequencesArg>,
    /// Where the vertex shader finds a draw's object (dgc, mdi): `record` reads the stream
    /// record (the PUSH_CONSTANT token under dgc, `gl_DrawID` under mdi); `instance` reads the
    /// draw's firstInstance, which the culling kernel sets to the object id, and runs the dgc
    /// layout without its PUSH_CONSTANT token. Needs drawIndirectFirstInstance; `vertex` reads
    /// gl_VertexIndex, whose vertexOffset the culling kernel raises by the object id shifted past
    /// the scene's meshes, also without the PUSH_CONSTANT token: no per-draw built-in read, for as
    /// many objects as fit a 32-bit vertex index (every cubes scene, the field up to 2,097,152
    /// objects, the city up to 131,072).
    #[arg(long, value_enum, default_value_t = ObjectIdArg::Record)]
    pub object_id: ObjectIdArg,
    /// Materials in the scene (1 to 16), each its own graphics pipeline: opaque, alpha-tested,
    /// wind-animated and emissive, with more work at higher indices; each object has one,
    /// spread over the stream. dgc draws them through an execution set, mdi binned by material
    /// (one multi-draw per material), cpu binding a pipeline when the material changes.
    #[arg(long, default_value_t = 1)]
    pub materials: u32,
    /// dgc with several materials: `set` executes once per pass through an execution set of
    /// the materials' pipelines (refused where the device cannot bind graphics pipelines that
    /// way), `binned` sorts the stream into one region per material and executes once per
    /// material, `auto` takes the set where the device binds it and says so where not.
    #[arg(long, value_enum, default_value_t = MaterialDrawArg::Auto)]
    pub material_draw: MaterialDrawArg,
    /// Sort the stream by material before drawing it: on the GPU ahead of the execution set
    /// (dgc), on the host in the CPU loop (cpu).
    #[arg(long)]
    pub sort_materials: bool,
    /// What the draws bind: graphics pipelines, or `shader-objects`: a vertex and a fragment
    /// shader per material as VK_EXT_shader_object shaders. With one material every mode binds
    /// them (a DGC execute names them in VkGeneratedCommandsShaderInfoEXT); with 2 or more, dgc
    /// selects them through the execution set of layout `SceneDrawShaders` (refused where the
    /// device lacks the extension or cannot bind graphics shaders through a set).
    #[arg(long, value_enum, default_value_t = BindArg::Pipelines)]
    pub bind: BindArg,
    /// Check against this target instead of the file's `targets`.
    #[arg(long = "target", value_name = "T")]
    pub targets: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BindArg {
    Pipelines,
    ShaderObjects,
}

/// The most objects the demo scene is run with: its host-side world takes 32 bytes per object
/// and its GPU buffers up to the stream's stride per object, so 2^31 objects asked for 64 GiB
/// at once and aborted (exit 134). Devices limit it further (each storage buffer within
/// `maxStorageBufferRange`, which `dgcc_runtime::memory::check_buffer` checks before creating
/// it, naming the limit).
pub const MAX_OBJECTS: u32 = 1 << 24;
/// `flag`'s image side, refused outside 1..=`scene::MAX_IMAGE_SIDE` before anything is
/// allocated (`dgcc run` and `dgcc bench`).
pub fn check_image_side(flag: &str, v: u32) -> Result<(), String> {
    let max = scene::MAX_IMAGE_SIDE;
    if v == 0 || v > max {
        return Err(format!("{flag} {v} is outside 1..={max}, the image sides the scene renders"));
    }
    Ok(())
}

/// `--objects` (and `dgcc bench`'s) within [`MAX_OBJECTS`]; `Err` is the message.
pub fn check_objects(objects: u32) -> Result<(), String> {
    if objects == 0 {
        return Err("--objects must be at least 1".into());
    }
    if objects > MAX_OBJECTS {
        return Err(format!(
            "--objects {objects} is more than the {MAX_OBJECTS} objects the demo scene runs (2^24: its buffers hold up to 48 bytes per object, and a device's maxStorageBufferRange bounds each)"
        ));
    }
    Ok(())
}

/// Whether `path` can be written, before a run that ends by writing it.
pub fn check_writable(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("{} is a folder", path.display()));
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(format!("the folder {} does not exist", dir.display()));
    }
    let existed = path.exists();
    std::fs::OpenOptions::new().append(true).create(true).open(path).map_err(|e| e.to_string())?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Print the validation errors this process's runs received, if any; `true` when there were.
/// (Under `DGCC_VALIDATION=1` the runtime's messenger counts them and the layer no longer
/// prints them itself.)
pub fn report_validation_errors() -> bool {
    let (count, first) = dgcc::runtime::layer_log::process_errors();
    if count == 0 {
        return false;
    }
    for m in &first {
        errln!("{m}");
    }
    if count > first.len() {
        errln!("... and {} more", count - first.len());
    }
    // A layer that cannot be loaded is the loader's to report, not a validation result.
    let from = if count == first.len() && first.iter().all(|m| m.is_from_loader()) {
        "the Vulkan loader"
    } else {
        "the validation layer"
    };
    errln!("error: {from} reported {count} error(s) during the run");
    true
}

/// A scene option given where it changes nothing: refused rather than silently ignored.
fn ignored_scene_option(args: &RunArgs) -> Option<String> {
    let mode = match args.mode {
        ModeArg::Dgc => None,
        ModeArg::Mdi => Some("mdi"),
        ModeArg::Cpu => Some("cpu"),
    };
    let scene = args.scene.scene();
    if let (Some(mode), true) = (mode, args.preprocess_budget_mib.is_some()) {
        return Some(format!(
            "--preprocess-budget-mib sizes the DGC executor's preprocess memory; --mode {mode} has none"
        ));
    }
    if let (Some(mode), true) = (mode, args.sequences.is_some()) {
        return Some(format!("--sequences orders DGC sequences; --mode {mode} executes none"));
    }
    if args.cut_every.is_some() && scene != SceneKind::City {
        return Some(format!("--cut-every moves the city's camera; --scene {} has a fixed camera", scene.name()));
    }
    if args.seed.is_some() && scene == SceneKind::Cubes {
        return Some("--seed places the city or the field; --scene cubes is a fixed grid".into());
    }
    None
}

pub fn run(args: &RunArgs) -> i32 {
    if let Err(e) = check_objects(args.objects) {
        errln!("error: {e}");
        return USAGE;
    }
    for (flag, value) in [("--size", Some(args.size)), ("--width", args.width), ("--height", args.height)] {
        if let Some(e) = value.and_then(|v| check_image_side(flag, v).err()) {
            errln!("error: {e}");
            return USAGE;
        }
    }
    if !args.layouts.is_empty() && args.png.is_some() {
        errln!("error: --png writes the demo scene's last frame; a --layout run draws on a 1×1 tally target");
        return USAGE;
    }
    if let Some(p) = &args.png {
        if p.as_os_str() == "-" {
            errln!("error: --png writes a file; `-` (standard output) carries the run's report");
            return USAGE;
        }
        if let Err(e) = check_writable(p) {
            errln!("error: cannot write --png {}: {e}", p.display());
            return USAGE;
        }
        // The picture must not replace the description (through a link, or its own name).
        let real = |f: &Path| std::fs::canonicalize(f).ok();
        if real(p).is_some_and(|png| Some(png) == real(&args.file)) {
            errln!("error: --png {} is the description being run; nothing written", p.display());
            return USAGE;
        }
    }
    let manifest = match super::check::manifest_for_run(&args.file, &args.targets) {
        Ok(m) => m,
        Err(code) => return code,
    };
    if !args.layouts.is_empty() {
        return run_layouts(args, &manifest);
    }
    if args.corrupt_sequence.is_some() {
        errln!("error: --corrupt-sequence applies to --layout runs");
        return USAGE;
    }
    if let Some(e) = ignored_scene_option(args) {
        errln!("error: {e}");
        return USAGE;
    }
    let scene_shaped = manifest.layouts.iter().any(|l| {
        scene::scene_difference(l, &scene::scene_layout()).is_none()
            || scene::scene_difference(l, &scene::scene_shader_layout()).is_none()
    });
    if !scene_shaped {
        let names: Vec<&str> = manifest.layouts.iter().map(|l| l.name.as_str()).collect();
        errln!(
            "error: {} has no layout shaped as the demo scene's `SceneDraw` (examples/scene.ron), so `dgcc run` cannot draw the scene with it; run its layouts with checked synthetic records instead: dgcc run {} --layout NAME (its layouts: {})",
            args.file.display(),
            args.file.display(),
            if names.is_empty() { "none".to_string() } else { names.join(", ") }
        );
        return FAILED;
    }
    let options = RunOptions {
        objects: args.objects,
        frames: args.frames,
        mode: match args.mode {
            ModeArg::Dgc => Mode::Dgc,
            ModeArg::Mdi => Mode::Mdi,
            ModeArg::Cpu => Mode::Cpu,
        },
        seed: args.seed.unwrap_or(1),
        scene: args.scene.scene(),
        culling: args.culling.culling(),
        cut_every: args.cut_every.unwrap_or(50),
        object_ids: args.object_ids,
        width: args.width.unwrap_or(args.size),
        height: args.height.unwrap_or(args.size),
        preprocess_budget: args.preprocess_budget_mib.unwrap_or(64).saturating_mul(1 << 20),
        unordered_sequences: args.sequences.map(|s| s == SequencesArg::Unordered),
        validate_stream: args.validate_stream,
        max_draws: args.max_draws,
        batch: args.batch,
        object_id: match args.object_id {
            ObjectIdArg::Record => ObjectId::Record,
            ObjectIdArg::Instance => ObjectId::Instance,
            ObjectIdArg::Vertex => ObjectId::Vertex,
        },
        materials: args.materials,
        dgc_materials: match args.material_draw {
            MaterialDrawArg::Auto => DgcMaterials::Auto,
            MaterialDrawArg::Set => DgcMaterials::Set,
            MaterialDrawArg::Binned => DgcMaterials::Binned,
        },
        sort_materials: args.sort_materials,
        bind: match args.bind {
            BindArg::Pipelines => Bind::Pipelines,
            BindArg::ShaderObjects => Bind::ShaderObjects,
        },
        ..RunOptions::default()
    };
    if let Err(e) = scene::preflight(&manifest, &options) {
        errln!("error: {e}");
        return USAGE;
    }
    let report = match scene::run(&manifest, &options) {
        Ok(r) => r,
        Err(e) => {
            report_validation_errors();
            errln!("error: {e}");
            return FAILED;
        }
    };
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(s) => outln!("{s}"),
            Err(e) => {
                errln!("error: cannot serialize the report: {e}");
                return FAILED;
            }
        }
    } else {
        out!("{report}");
    }
    if let Some(path) = &args.png {
        let (rgba, w, h) = report.last_frame_rgba();
        if let Err(e) = write_png(path, rgba, w, h) {
            errln!("error: --png: {e}");
            return USAGE;
        }
        errln!("wrote {}", path.display());
    }
    let layer_complained = report_validation_errors();
    if report.stream_is_clean() && !layer_complained {
        OK
    } else {
        FAILED
    }
}

/// `--layout`: each named layout checked on the live device.
fn run_layouts(args: &RunArgs, manifest: &dgcc::ir::Manifest) -> i32 {
    let mut layouts = vec![];
    for name in &args.layouts {
        match manifest.layout(name) {
            Some(l) => layouts.push(l),
            None => {
                let names: Vec<&str> = manifest.layouts.iter().map(|l| l.name.as_str()).collect();
                errln!("error: {} has no layout `{name}` (its layouts: {})", args.file.display(), names.join(", "));
                return USAGE;
            }
        }
    }
    let options = dgcc::runtime::ContextOptions { enable_dgc: true, require_dgc: false, ..Default::default() };
    let ctx = match dgcc::runtime::GpuContext::new(&options) {
        Ok(c) => c,
        Err(e) => {
            report_validation_errors();
            errln!("error: {e}");
            return FAILED;
        }
    };
    let dev = if ctx.caps().dgc {
        match dgcc::runtime::DgcDevice::from_context(&ctx) {
            Ok(d) => Some(d),
            Err(e) => {
                errln!("error: {e}");
                return FAILED;
            }
        }
    } else {
        None
    };
    let dgc = dgcc::syntax::SyntaxKind::from_path(&args.file) == Some(dgcc::syntax::SyntaxKind::Dsl);
    let check = CheckOptions { corrupt: args.corrupt_sequence, dgc };
    let reports: Vec<LayoutReport> =
        layouts.iter().map(|l| layout_check::check(&ctx, dev.as_ref(), manifest, l, check)).collect();
    drop(dev);
    drop(ctx);
    let all_ok = reports.iter().all(LayoutReport::ok);
    if args.json {
        let value = serde_json::json!({
            "file": args.file.display().to_string(),
            "ok": all_ok,
            "layouts": reports,
        });
        match serde_json::to_string_pretty(&value) {
            Ok(s) => outln!("{s}"),
            Err(e) => {
                errln!("error: cannot serialize the report: {e}");
                return FAILED;
            }
        }
    } else {
        for r in &reports {
            out!("{r}");
        }
    }
    for r in &reports {
        let codes = r.refusal_codes();
        if !codes.is_empty() && r.ok() {
            errln!(
                "note: the device refuses layout `{}` under DGC ({}); the fallback ran it",
                r.layout,
                codes.join(", ")
            );
        } else if !codes.is_empty() {
            errln!("error: the device refuses layout `{}` ({})", r.layout, codes.join(", "));
        }
    }
    let layer_complained = report_validation_errors();
    if all_ok && !layer_complained {
        OK
    } else {
        FAILED
    }
}

/// Encode RGBA8 pixels as a PNG file: the whole file, or (a full disk, say) the old one as it
/// was.
fn write_png(path: &Path, rgba: &[u8], width: u32, height: u32) -> Result<(), String> {
    let mut bytes = vec![];
    let mut enc = png::Encoder::new(&mut bytes, width, height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| e.to_string())?;
    w.write_image_data(rgba).map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())?;
    dgcc::output::write_file(path, &bytes).map(drop).map_err(|e| e.to_string())
}
