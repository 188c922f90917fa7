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

mod pipelines;
mod probe;
mod steps;

use dgcc_runtime::error::{Result, RuntimeError};
use dgcc_runtime::{ContextOptions, GpuContext};
use probe::{Probe, SIZE};
use steps::{parse_step, Source, Step};

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

fn run(args: &Args) -> Result<()> {
    let options = ContextOptions { enable_dgc: false, warm_up: args.warm_up, ..ContextOptions::default() };
    let ctx = GpuContext::new(&options)?;
    if !(ctx.caps().multi_draw_indirect && ctx.caps().draw_indirect_first_instance && ctx.caps().timestamps) {
        return Err(RuntimeError::Invalid(format!(
            "`{}` lacks multiDrawIndirect, drawIndirectFirstInstance or timestamps",
            ctx.device_name()
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
        println!("device: {}; {} draws of 36 indices into {SIZE}x{SIZE}", ctx.device_name(), args.draws);
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
