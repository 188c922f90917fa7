//! Dispatch layouts executed for real, through DGC and through the runtime's [`Fallback`].
//!
//! Why a counting kernel and these group counts: `shaders/runtime/test_count.comp` adds its
//! specialization constant once per invocation, whatever the record pushed, so the count says
//! how much ran and which pipeline of an execution set ran it (entry 0 adds 1, entry 1 adds
//! [`SECOND_ENTRY`]). Sequence `k` dispatches `2^k` groups of one invocation, one wide in x
//! and split over y and z, so each sequence's share of the count is a distinct power of two
//! (times the entry's weight), and so is what one group more in x or a lost sequence changes:
//! a count that differs by one sequence's share names it. What it cannot see: pushed data (the
//! kernel reads none) and which of x, y and z held which count (only their product counts);
//! the report says so.

use super::rig::Records;
use ash::vk;
use dgcc::ir::{CompiledLayout, Manifest, TokenType};
use dgcc::runtime::descriptors::StorageSet;
use dgcc::runtime::error::Result;
use dgcc::runtime::memory::{Buffer, Location};
use dgcc::runtime::push::vk_ranges;
use dgcc::runtime::shaders::{compute_pipeline_with, PipelineFlags};
use dgcc::runtime::{Bound, DgcDevice, Execution, Fallback, FallbackCaps, GpuContext, NoPass, RuntimeError, Stream};

const COUNT_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/test_count.comp.spv");
/// Sequences written.
pub const SEQUENCES: u32 = 4;
/// What entry 1 of an execution set adds per invocation (entry 0 adds 1).
pub const SECOND_ENTRY: u32 = 1000;

/// Sequence `k`'s group counts: `2^k` groups in all, one in x, so that a group more in x adds
/// exactly the sequence's share.
fn groups(k: u32) -> [u32; 3] {
    match k {
        0 => [1, 1, 1],
        1 => [1, 2, 1],
        2 => [1, 2, 2],
        _ => [1, 4, 2],
    }
}

/// What sequence `k` adds to the counter.
pub fn share(k: u32, with_set: bool) -> u32 {
    let [x, y, z] = groups(k);
    let weight = if with_set && k % 2 == 1 { SECOND_ENTRY } else { 1 };
    x * y * z * weight
}

/// Whether DGC runs the layout's execution set for real, as a set of the two counting
/// pipelines: a set of pipelines with room for two that the device can bind. Otherwise (a set
/// of shader objects, of one entry, or one the device cannot bind) the layout runs binned,
/// without its EXECUTION_SET token and one counting pipeline bound, as an engine would.
pub fn through_set(dev: Option<&DgcDevice>, m: &Manifest, layout: &CompiledLayout) -> bool {
    dev.is_some_and(|dev| super::set_of_two_binds(dev, m, layout))
}

/// How to execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    Dgc,
    Fallback,
}

/// The records: execution-set index `k % 2`, the sequence's group counts, other data zero (the
/// counting kernel reads no pushed data). `corrupt`: one group too many in x for that sequence.
fn records(layout: &CompiledLayout, corrupt: Option<u32>) -> Result<Vec<u8>> {
    let mut r = Records::new(layout, SEQUENCES);
    let set = layout.tokens.iter().position(|t| t.token_type == TokenType::ExecutionSet);
    let dispatch = r.token(TokenType::Dispatch)?;
    for k in 0..SEQUENCES {
        if let Some(set) = set {
            r.put_u32(k, set, "", k % 2)?;
        }
        let [x, y, z] = groups(k);
        r.put_u32(k, dispatch, "x", x + u32::from(corrupt == Some(k)))?;
        r.put_u32(k, dispatch, "y", y)?;
        r.put_u32(k, dispatch, "z", z)?;
    }
    Ok(r.bytes)
}

/// Execute a dispatch layout along `path` (`dev` is needed for DGC only); returns the counter.
pub fn run(
    ctx: &GpuContext,
    dev: Option<&DgcDevice>,
    m: &Manifest,
    layout: &CompiledLayout,
    path: Path,
    corrupt: Option<u32>,
) -> Result<u32> {
    let fallback = match path {
        Path::Fallback => Some(Fallback::new(layout, FallbackCaps::from(ctx))?.with_push_constants(&m.push_constants)?),
        Path::Dgc => None,
    };
    let binned;
    let layout = if path == Path::Dgc && layout.execution_set().is_some() && !through_set(dev, m, layout) {
        binned = layout.without_execution_set();
        &binned
    } else {
        layout
    };
    let bytes = records(layout, corrupt)?;
    let d = &ctx.device;
    let mut counter = Buffer::new(ctx, 4, vk::BufferUsageFlags::STORAGE_BUFFER, Location::Host)?;
    counter.write(0, &[0; 4])?;
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::INDIRECT_BUFFER;
    let mut stream = Buffer::new(ctx, bytes.len() as u64, usage, Location::Host)?;
    stream.write(0, &bytes)?;
    // SAFETY: a live storage buffer, destroyed after the set.
    let mut set = unsafe { StorageSet::new(d, vk::ShaderStageFlags::COMPUTE, &[counter.buffer]) }?;
    let ranges = vk_ranges(&m.push_constants);
    let set_layouts = [set.layout];
    let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts).push_constant_ranges(&ranges);
    // SAFETY: valid create info.
    let pl = unsafe { d.create_pipeline_layout(&info, None) }.map_err(RuntimeError::vk("vkCreatePipelineLayout"))?;
    let s = Stream { buffer: stream.buffer, offset: 0, address: stream.address, max_sequences: SEQUENCES, count: None };
    let result = match &fallback {
        Some(f) => (|| {
            // SAFETY: the committed kernel for `pl` (one set, the manifest's push ranges).
            let first = unsafe { compute_pipeline_with(d, pl, COUNT_SPV, &[(0, 1)], None, PipelineFlags::default()) }?;
            let r = ctx.one_shot(|cmd| unsafe {
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, first);
                d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, pl, 0, &[set.set], &[]);
                f.record(d, cmd, &s, pl, Some(SEQUENCES))?;
                super::rig::writes_to_host(d, cmd, vk::PipelineStageFlags2::COMPUTE_SHADER);
                Ok(())
            });
            // SAFETY: the submission finished.
            unsafe {
                let _ = d.device_wait_idle();
                d.destroy_pipeline(first, None);
            }
            r
        })(),
        None => match dev {
            Some(dev) => dgc(ctx, dev, m, layout, pl, set.set, &s),
            None => Err(RuntimeError::Invalid("DGC needs a device with VK_EXT_device_generated_commands".into())),
        },
    };
    let count = counter.bytes().map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).unwrap_or(0);
    // SAFETY: the submission finished.
    unsafe {
        d.destroy_pipeline_layout(pl, None);
        set.destroy(d);
        counter.destroy(d);
        stream.destroy(d);
    }
    result.map(|()| count)
}

/// The DGC execution: the layout, its execution set of two counting pipelines if it has one.
fn dgc(
    ctx: &GpuContext,
    dev: &DgcDevice,
    m: &Manifest,
    layout: &CompiledLayout,
    pl: vk::PipelineLayout,
    descriptors: vk::DescriptorSet,
    s: &Stream,
) -> Result<()> {
    let d = &ctx.device;
    // SAFETY: `pl` is live and holds the manifest's ranges.
    let mut l = unsafe { dev.create_layout(layout, &m.push_constants, pl) }?;
    let with_set = l.has_execution_set();
    let bindable = PipelineFlags { indirect_bindable: with_set, ..PipelineFlags::default() };
    let mut pipelines = vec![];
    let mut ies = None;
    let mut exec = None;
    let result = (|| {
        for weight in [1, SECOND_ENTRY] {
            // SAFETY: the committed kernel for `pl` (one set, the manifest's push ranges).
            pipelines.push(unsafe { compute_pipeline_with(d, pl, COUNT_SPV, &[(0, weight)], None, bindable) }?);
        }
        let first = pipelines[0];
        if with_set {
            // SAFETY: indirect-bindable compute pipelines of one layout, alive until after the
            // set; nothing has used the set yet.
            let s = unsafe { dev.create_execution_set(&l, first) }?;
            let second = unsafe { dev.write_execution_set(&s, 1, pipelines[1]) };
            ies = Some(s);
            second?;
        }
        let bound = match &ies {
            Some(s) => Bound::ExecutionSet(s.handle, first),
            None => Bound::Pipeline(first),
        };
        // SAFETY: `l` is `dev`'s; the pipeline (or the set) was made for it.
        let e = exec.insert(unsafe { Execution::new(dev, &l, bound, SEQUENCES, 0, 64 << 20) }?);
        ctx.one_shot(|cmd| unsafe {
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, first);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, pl, 0, &[descriptors], &[]);
            e.record(dev, &l, cmd, s, &mut NoPass(|_, _| {}))?;
            super::rig::writes_to_host(d, cmd, vk::PipelineStageFlags2::COMPUTE_SHADER);
            Ok(())
        })
    })();
    // SAFETY: the submission finished.
    unsafe {
        let _ = d.device_wait_idle();
        if let Some(e) = &mut exec {
            e.destroy(dev);
        }
        if let Some(s) = &mut ies {
            s.destroy(dev);
        }
        l.destroy(dev);
        for p in pipelines {
            d.destroy_pipeline(p, None);
        }
    }
    result
}
