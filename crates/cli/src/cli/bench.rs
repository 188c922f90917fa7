//! `dgcc bench FILE`: compile the description, run the benchmark with a progress bar on
//! stderr, write `bench.json`, `bench.md`, `bench.svg` and `bench.png` into `--out`, and print
//! the table.
//!
//! Exit codes: 0 when every row ran, 1 when the description has errors, no device can run it,
//! or some row failed (the files are still written, the failures are in them), 2 for bad usage
//! or I/O.

use super::stdio::{errln, out};
use super::{CompileOptions, FAILED, OK, USAGE};
use dgcc_cli::bench::{self, BenchOptions, Step, Variant};
use dgcc_cli::scene::{Compaction, Culling, Mode, RunOptions, SceneKind};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub device: super::DeviceArg,
    /// The description (`.ron` or `.dgc`) with the scene's draw layout.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Object counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "10000")]
    pub objects: Vec<u32>,
    /// Modes, comma-separated: cpu, mdi, dgc; dgc may add -explicit/-implicit (preprocess),
    /// -ordered/-unordered (the UnorderedSequences flag), -boundindex, -barrier (the executor
    /// keeps its own barrier in front of the stream), -batch (one sequence that multi-draws
    /// the pass, layout SceneBatch), -firstinstance or -vertexoffset (where the draws read
    /// their object: `dgcc run --object-id instance` or `vertex`), and with several materials
    /// -set/-binned/-sorted and -objects (the set holds shader objects), e.g.
    /// dgc-explicit-ordered, dgc-sorted-objects; mdi -firstinstance or -vertexoffset; cpu -sorted.
    #[arg(long, value_delimiter = ',', default_value = "cpu,mdi,dgc")]
    pub modes: Vec<String>,
    /// Culling choices, comma-separated: none, frustum, occlusion (cpu rows skip occlusion).
    #[arg(long, value_delimiter = ',', default_value = "none,frustum,occlusion")]
    pub culling: Vec<String>,
    /// Material counts, comma-separated (1 to 16): each its own pipeline. With more than one,
    /// the modes take -set/-binned/-sorted/-objects (dgc) and -sorted (cpu): e.g. --materials
    /// 1,4,16 --modes cpu,cpu-sorted,mdi,dgc,dgc-sorted,dgc-binned,dgc-objects.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub materials: Vec<u32>,
    /// The scene: city (occlusion matters, the camera walks the streets), field (spheres on a
    /// plane under a fixed camera, the throughput scene) or cubes (plain 12-triangle cubes on a
    /// grid, all in view: the per-draw cost of the front end; use --culling none).
    #[arg(long, default_value = "city", value_parser = ["city", "field", "cubes"])]
    pub scene: String,
    /// The city's camera cuts to another street every N frames (0: never) [default: 50].
    #[arg(long, value_name = "N")]
    pub cut_every: Option<u32>,
    /// Skip the checking run that counts the objects owning a pixel.
    #[arg(long)]
    pub no_owners: bool,
    /// Measured frames per row.
    #[arg(long, default_value_t = 100)]
    pub frames: u32,
    /// Frames run and discarded before measuring.
    #[arg(long, default_value_t = 3)]
    pub warmup: u32,
    /// Run every row this many times, going round the rows of each object count and culling
    /// choice, and pool their frames; the DGC-against-multi-draw table then also gives the
    /// range of the ratio over the repeats, which says how far one row's figure can be trusted.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// dgc and mdi rows: size each pass's execute or multi-draw for at most N draws instead of
    /// one per object (cpu rows ignore it; a row whose culling keeps more draws only N).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_draws: Option<u32>,
    /// Output folder.
    #[arg(long, default_value = "bench-out")]
    pub out: PathBuf,
    /// How the culled objects become the stream, both in one pass: fused (in any order, one
    /// atomic per workgroup) or ordered (in object order, each workgroup's first slot from the
    /// workgroups before it) [default: fused]. The CPU loop compacts nothing.
    #[arg(long, value_parser = ["fused", "ordered"])]
    pub compaction: Option<String>,
    /// Preprocess memory the DGC executor may use, in MiB (more than that runs in chunks)
    /// [default: 512].
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub preprocess_budget_mib: Option<u64>,
    /// Size of each copy of the bandwidth probe, in MiB; 0 skips the probe.
    #[arg(long, default_value_t = 256)]
    pub copy_mib: u64,
    /// Render target width and height.
    #[arg(long, default_value_t = 2560)]
    pub width: u32,
    #[arg(long, default_value_t = 1440)]
    pub height: u32,
    /// The draw layout to run (default: the one a kernel writes).
    #[arg(long)]
    pub layout: Option<String>,
    /// Check against this target instead of the file's `targets`; repeat for several.
    #[arg(long = "target", value_name = "T")]
    pub targets: Vec<String>,
}

pub fn run(args: &BenchArgs) -> i32 {
    let variants: Result<Vec<Variant>, String> = args.modes.iter().map(|m| Variant::parse(m)).collect();
    let variants = match variants {
        Ok(v) => v,
        Err(e) => {
            errln!("error: --modes: {e}");
            return USAGE;
        }
    };
    let cullings: Result<Vec<Culling>, String> = args
        .culling
        .iter()
        .map(|c| {
            Culling::from_name(c.trim())
                .ok_or_else(|| format!("unknown culling `{c}`: expected none, frustum or occlusion"))
        })
        .collect();
    let cullings = match cullings {
        Ok(c) => c,
        Err(e) => {
            errln!("error: --culling: {e}");
            return USAGE;
        }
    };
    if let Some(e) = args.objects.iter().find_map(|&n| super::run::check_objects(n).err()) {
        errln!("error: {e}");
        return USAGE;
    }
    for (flag, v) in [("--width", args.width), ("--height", args.height)] {
        if let Err(e) = super::run::check_image_side(flag, v) {
            errln!("error: {e}");
            return USAGE;
        }
    }
    // Options that would change no row are refused, not silently ignored.
    let scene = SceneKind::from_name(&args.scene).unwrap_or_default();
    let ignored = if args.cut_every.is_some() && scene != SceneKind::City {
        Some(format!("--cut-every moves the city's camera; --scene {} has a fixed camera", scene.name()))
    } else if args.preprocess_budget_mib.is_some() && !variants.iter().any(|v| v.mode == Mode::Dgc) {
        Some("--preprocess-budget-mib sizes the DGC executor's preprocess memory; no dgc row is asked for".into())
    } else if args.compaction.is_some() && variants.iter().all(|v| v.mode == Mode::Cpu) {
        Some("--compaction chooses how a GPU pass compacts its stream; the cpu rows compact nothing".into())
    } else {
        None
    };
    if let Some(e) = ignored {
        errln!("error: {e}");
        return USAGE;
    }
    if args.warmup.checked_add(args.frames).is_none() {
        errln!("error: --warmup {} and --frames {} come to more than {} frames", args.warmup, args.frames, u32::MAX);
        return USAGE;
    }
    if let Err(e) = bench::output::check_folder(&args.out) {
        errln!("error: --out: {e}");
        return USAGE;
    }
    let compile = CompileOptions { targets: args.targets.clone(), ..CompileOptions::default() };
    let Some((ok, compilation)) = super::check::compile_and_report(dgcc::driver::Source::File(&args.file), &compile)
    else {
        return USAGE;
    };
    let Some(manifest) = compilation.manifest.filter(|_| ok) else {
        return FAILED;
    };
    let defaults = BenchOptions::default();
    let options = BenchOptions {
        objects: args.objects.clone(),
        variants,
        cullings,
        materials: args.materials.clone(),
        count_owners: !args.no_owners,
        frames: args.frames,
        warmup: args.warmup,
        scene: RunOptions {
            compaction: args.compaction.as_deref().and_then(Compaction::from_name).unwrap_or(Compaction::Fused),
            preprocess_budget: args.preprocess_budget_mib.unwrap_or(512).saturating_mul(1 << 20),
            width: args.width,
            height: args.height,
            scene,
            cut_every: args.cut_every.unwrap_or(50),
            layout: args.layout.clone(),
            max_draws: args.max_draws,
            ..defaults.scene
        },
        copy_bytes: args.copy_mib.saturating_mul(1 << 20),
        copy_repeats: defaults.copy_repeats,
        repeat: args.repeat,
    };
    if let Err(e) = bench::preflight(&manifest, &options) {
        errln!("error: {e}");
        return USAGE;
    }
    let bar = ProgressBar::new(bench::steps(&options));
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let mut first = true;
    let result = bench::run(&manifest, &args.file.display().to_string(), &options, &mut |step: &Step| {
        if !std::mem::take(&mut first) {
            bar.inc(1);
        }
        bar.set_message(step.to_string());
    });
    bar.finish_and_clear();
    let mut report = match result {
        Ok(r) => r,
        Err(e) => {
            // The device could not run it (a missing driver included): exit 1, as `dgcc run`.
            super::run::report_validation_errors();
            errln!("error: {e}");
            return FAILED;
        }
    };
    if super::run::report_validation_errors() {
        return FAILED;
    }
    report.command_line = std::env::args().collect();
    match bench::output::write(&report, &args.out) {
        Ok(paths) => {
            out!("{}", bench::table::markdown(&report));
            for p in paths {
                errln!("wrote {}", p.display());
            }
        }
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    }
    if let Some(e) = &report.bandwidth_error {
        errln!("warning: copy bandwidth not measured: {e}");
    }
    let failed: Vec<_> = report.rows.iter().filter(|r| r.error.is_some()).collect();
    for r in &failed {
        errln!("error: {} × {} objects: {}", r.variant, r.objects, r.error.as_deref().unwrap_or_default());
    }
    if failed.is_empty() {
        OK
    } else {
        FAILED
    }
}
