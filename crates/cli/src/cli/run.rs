//! `dgcc run FILE`: compile the description, then run its GPU-driven scene headless on the live
//! device and print what each frame did.

use super::{FAILED, OK, USAGE};
use dgcc_cli::scene::{self, Culling, Mode, ObjectId, RunOptions, SceneKind};
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
}

impl SceneArg {
    pub fn scene(self) -> SceneKind {
        match self {
            SceneArg::City => SceneKind::City,
            SceneArg::Field => SceneKind::Field,
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
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The description file (`.ron` or `.dgc`).
    pub file: PathBuf,
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
    /// city: buildings, trees, rocks and barrels, the camera walking the streets (occlusion
    /// matters); field: spheres on a plane under a fixed camera (dgcc 0.1's scene).
    #[arg(long, value_enum, default_value_t = SceneArg::City)]
    pub scene: SceneArg,
    /// The city's camera cuts to another street every N frames (0: never).
    #[arg(long, default_value_t = 50)]
    pub cut_every: u32,
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
    /// Seed of the procedural scene.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Image width and height in pixels.
    #[arg(long, default_value_t = 256)]
    pub size: u32,
    /// Image width, instead of --size.
    #[arg(long)]
    pub width: Option<u32>,
    /// Image height, instead of --size.
    #[arg(long)]
    pub height: Option<u32>,
    /// Preprocess memory the executor may use, in MiB (longer streams run in chunks).
    #[arg(long, default_value_t = 64)]
    pub preprocess_budget_mib: u64,
    /// Check every frame's stream on the GPU before drawing it (index and vertex buffer ranges,
    /// index ranges, instance counts, the stored count); exits 1 when a record is wrong.
    #[arg(long)]
    pub validate_stream: bool,
    /// Override the layout's UnorderedSequences flag in dgc mode: `ordered` executes sequences
    /// in stream order (pixel-identical to the other modes on any device), `unordered` lets the
    /// driver reorder them (faster; where objects overlap at exactly equal depth the picture may
    /// differ from the ordered modes). Default: as the description says.
    #[arg(long, value_enum)]
    pub sequences: Option<SequencesArg>,
    /// Where the vertex shader finds a draw's object (dgc, mdi): `record` reads the stream
    /// record (the PUSH_CONSTANT token under dgc, `gl_DrawID` under mdi); `instance` reads the
    /// draw's firstInstance, which the culling kernel sets to the object id, and runs the dgc
    /// layout without its PUSH_CONSTANT token. Needs drawIndirectFirstInstance.
    #[arg(long, value_enum, default_value_t = ObjectIdArg::Record)]
    pub object_id: ObjectIdArg,
    /// Check against this target instead of the file's `targets`.
    #[arg(long = "target", value_name = "T")]
    pub targets: Vec<String>,
}

pub fn run(args: &RunArgs) -> i32 {
    let manifest = match super::check::manifest_for_run(&args.file, &args.targets) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let options = RunOptions {
        objects: args.objects,
        frames: args.frames,
        mode: match args.mode {
            ModeArg::Dgc => Mode::Dgc,
            ModeArg::Mdi => Mode::Mdi,
            ModeArg::Cpu => Mode::Cpu,
        },
        seed: args.seed,
        scene: args.scene.scene(),
        culling: args.culling.culling(),
        cut_every: args.cut_every,
        object_ids: args.object_ids,
        width: args.width.unwrap_or(args.size),
        height: args.height.unwrap_or(args.size),
        preprocess_budget: args.preprocess_budget_mib.saturating_mul(1 << 20),
        unordered_sequences: args.sequences.map(|s| s == SequencesArg::Unordered),
        validate_stream: args.validate_stream,
        object_id: match args.object_id {
            ObjectIdArg::Record => ObjectId::Record,
            ObjectIdArg::Instance => ObjectId::Instance,
        },
        ..RunOptions::default()
    };
    let report = match scene::run(&manifest, &options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return FAILED;
        }
    };
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: cannot serialize the report: {e}");
                return FAILED;
            }
        }
    } else {
        print!("{report}");
    }
    if let Some(path) = &args.png {
        let (rgba, w, h) = report.last_frame_rgba();
        if let Err(e) = write_png(path, rgba, w, h) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return USAGE;
        }
        eprintln!("wrote {}", path.display());
    }
    if report.stream_is_clean() {
        OK
    } else {
        FAILED
    }
}

/// Encode RGBA8 pixels as a PNG file.
pub fn write_png(path: &Path, rgba: &[u8], width: u32, height: u32) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| e.to_string())?;
    w.write_image_data(rgba).map_err(|e| e.to_string())
}
