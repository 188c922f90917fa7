//! Executing a layout through an execution set, one Vulkan call at a time, so that a
//! driver crash or hang can be placed and the shape that causes it found.
//!
//! Why it exists: on NVIDIA's driver 580.159.04 executing `Kernels` of
//! `examples/execution_set.ron` (an EXECUTION_SET token of compute pipelines, then a dispatch)
//! killed the process with a segfault inside the driver, with no validation-layer message
//! first, so dgcc used to skip that execute on NVIDIA. This program does what the runtime does,
//! with the extension's own calls and a line on standard error before each, so that a crash
//! leaves the call it happened in as the last line and a hang (cut by `timeout`) the wait; its
//! options change one thing at a time (see `Args`). Each run is one process: run it once per
//! shape and read the exit codes (`.ci/device/ies.sh` runs the matrix).
//!
//! What it found on an H100 (2026-12-05; book: measured/h100-execution-sets.md), the two rules
//! the runtime now keeps (`create_execution_set`, `set_table.rs`):
//! - a pipeline set with an entry never written, selected or not, segfaults recording
//!   `vkCmdExecuteGeneratedCommandsEXT` (`--entries 1` of `Two`, `Kernels` as it is);
//! - a compute pipeline or shader object written into two entries runs only from the one
//!   written last: a sequence selecting the other never finishes (`--fill initial`, `--fill
//!   cycle`; `--select` the last entry, or `--rewrite-zero`, and it runs).
//!
//! ```text
//! dgcc compile crates/runtime/examples/ies_probe/layouts.ron --emit json --out-dir /tmp/ies
//! cargo run --release -p dgcc-runtime --features headless --example ies_probe -- \
//!     --manifest /tmp/ies/ies_probe.dgc.json --layout Kernels --sequences 3
//! ```
//!
//! A draw layout (`draws.ron`: an execution set of graphics pipelines) runs the same entry
//! options with draws instead (draws.rs):
//!
//! ```text
//! dgcc compile crates/runtime/examples/ies_probe/draws.ron --emit json --out-dir /tmp/ies
//! cargo run --release -p dgcc-runtime --features headless --example ies_probe -- \
//!     --manifest /tmp/ies/ies_draws.dgc.json --layout Draws --fill initial
//! ```
//!
//! The kernel is the runtime tests' `test_accumulate.comp`: each invocation adds its pushed
//! value times its pipeline's scale (pipeline `i`: `1 + 100 i`) to a total and counts itself.
//! The totals read back must be what the records ask for, so a run that finishes is also
//! checked.

use ash::vk;
use dgcc_core::ir::{CompiledLayout, Manifest, TokenType};
use dgcc_runtime::descriptors::StorageSet;
use dgcc_runtime::error::{Result, RuntimeError};
use dgcc_runtime::ext_dgc as x;
use dgcc_runtime::memory::{as_bytes, Buffer, Location};
use dgcc_runtime::shaders::{compute_pipeline_with, shader_object, PipelineFlags};
use dgcc_runtime::{ContextOptions, DgcDevice, DgcLayout, GpuContext, StageShader};

mod draws;

const ACCUMULATE_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/test_accumulate.comp.spv");

/// What one run does differently from the runtime's execute.
#[derive(Debug)]
struct Args {
    manifest: String,
    layout: String,
    /// Sequences in the stream (and `maxSequenceCount`).
    sequences: u32,
    /// Entries the records select from, round robin (entry 0 is the initial pipeline).
    entries: u32,
    /// What goes into the entries past `entries`: nothing (`none`), the pipelines again in
    /// turn (`cycle`), or the initial pipeline (`initial`, written after the others).
    fill: String,
    /// Write entry 0 again, with the initial pipeline, after every other write.
    rewrite_zero: bool,
    /// The entries the sequences select, in turn (default: 0 to `entries` - 1).
    select: Vec<u32>,
    /// Give the execute a sequence-count address (holding `sequences`).
    count: bool,
    /// Chain `VkGeneratedCommandsPipelineInfoEXT` (the initial pipeline) to the execute and the
    /// memory query as well as naming the set.
    chain_pipeline: bool,
    /// What is bound before the execute: the initial pipeline (`initial`, the runtime's
    /// choice), entry 1's (`other`), or nothing (`none`).
    bind: String,
    /// Record the preprocess (explicit layouts only) into this command buffer's own earlier
    /// submission instead of ahead of the execute in the same one.
    separate_preprocess: bool,
    /// Records of zero dispatch size (no invocation runs).
    empty_dispatch: bool,
}

fn parse_args() -> std::result::Result<Args, String> {
    let mut a = Args {
        manifest: String::new(),
        layout: String::new(),
        sequences: 3,
        entries: 2,
        fill: "none".into(),
        rewrite_zero: false,
        select: vec![],
        count: false,
        chain_pipeline: false,
        bind: "initial".into(),
        separate_preprocess: false,
        empty_dispatch: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--manifest" => a.manifest = value()?,
            "--layout" => a.layout = value()?,
            "--sequences" => a.sequences = value()?.parse().map_err(|e| format!("--sequences: {e}"))?,
            "--entries" => a.entries = value()?.parse().map_err(|e| format!("--entries: {e}"))?,
            "--bind" => a.bind = value()?,
            "--fill" => a.fill = value()?,
            "--rewrite-zero" => a.rewrite_zero = true,
            "--select" => {
                a.select = value()?
                    .split(',')
                    .map(|v| v.parse().map_err(|e| format!("--select: {e}")))
                    .collect::<std::result::Result<_, _>>()?
            }
            "--count" => a.count = true,
            "--chain-pipeline" => a.chain_pipeline = true,
            "--separate-preprocess" => a.separate_preprocess = true,
            "--empty-dispatch" => a.empty_dispatch = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if a.manifest.is_empty() || a.layout.is_empty() {
        return Err("usage: ies_probe --manifest FILE --layout NAME [options]".into());
    }
    if !["none", "cycle", "initial"].contains(&a.fill.as_str()) {
        return Err(format!("--fill takes none, cycle or initial, not `{}`", a.fill));
    }
    if !["initial", "other", "none"].contains(&a.bind.as_str()) {
        return Err(format!("--bind takes initial, other or none, not `{}`", a.bind));
    }
    Ok(a)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ies_probe: {e}");
            std::process::exit(2);
        }
    };
    match run(&args) {
        Ok(true) => println!("ok"),
        Ok(false) => {
            println!("WRONG totals");
            std::process::exit(1)
        }
        Err(e) => {
            eprintln!("ies_probe: {e}");
            std::process::exit(1);
        }
    }
}

/// The line a crash leaves last.
fn step(what: &str) {
    eprintln!("step: {what}");
}

/// The probe's pipeline layout: `set_layout` and 8 bytes of push constants for `stage`, and
/// that range.
fn pipeline_layout(
    d: &ash::Device,
    set_layout: vk::DescriptorSetLayout,
    stage: vk::ShaderStageFlags,
) -> Result<(vk::PipelineLayout, [vk::PushConstantRange; 1])> {
    let ranges = [vk::PushConstantRange { stage_flags: stage, offset: 0, size: 8 }];
    let set_layouts = [set_layout];
    let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts).push_constant_ranges(&ranges);
    // SAFETY: a valid create info on a live device; `set_layout` is the caller's, alive.
    let pl = unsafe { d.create_pipeline_layout(&info, None) }.map_err(RuntimeError::vk("vkCreatePipelineLayout"))?;
    Ok((pl, ranges))
}

/// What executing `n` sequences of `layout` (created as `l`) from `stream` through `ies` (or
/// none) takes: the preprocess buffer the driver asks for (none where it asks for 0 bytes) and
/// the execute's info, `next` chained to the requirements query and to the info (a
/// `VkGeneratedCommandsPipelineInfoEXT` the caller keeps alive while the info is used, or
/// null). `count`: the address of the sequence count, or 0.
#[allow(clippy::too_many_arguments)]
fn generated_commands(
    dev: &DgcDevice,
    ext: &x::Device,
    layout: &CompiledLayout,
    l: &DgcLayout,
    ies: x::IndirectExecutionSetEXT,
    stream: u64,
    n: u32,
    count: u64,
    next: *const std::ffi::c_void,
) -> Result<(Option<Buffer>, x::GeneratedCommandsInfoEXT<'static>)> {
    step("vkGetGeneratedCommandsMemoryRequirementsEXT");
    let req_info = x::GeneratedCommandsMemoryRequirementsInfoEXT {
        p_next: next,
        indirect_execution_set: ies,
        indirect_commands_layout: l.handle(),
        max_sequence_count: n,
        ..Default::default()
    };
    let mut req = vk::MemoryRequirements2::default();
    // SAFETY: the info names a live layout and set or pipeline of `dev`.
    unsafe { ext.get_generated_commands_memory_requirements(&req_info, &mut req) };
    let (bytes, type_bits) = (req.memory_requirements.size, req.memory_requirements.memory_type_bits);
    println!("preprocess: {bytes} bytes, memory types {type_bits:#x}");
    let preprocess = if bytes > 0 { Some(Buffer::preprocess(dev, bytes, type_bits)?) } else { None };
    let info = x::GeneratedCommandsInfoEXT {
        p_next: next,
        shader_stages: vk::ShaderStageFlags::from_raw(layout.shader_stages),
        indirect_execution_set: ies,
        indirect_commands_layout: l.handle(),
        indirect_address: stream,
        indirect_address_size: n as u64 * layout.stride as u64,
        preprocess_address: preprocess.as_ref().map_or(0, |b| b.address()),
        preprocess_size: preprocess.as_ref().map_or(0, |_| bytes),
        max_sequence_count: n,
        sequence_count_address: count,
        ..Default::default()
    };
    Ok((preprocess, info))
}

/// Which entries hold what, which the sequences select, and the order they are written in.
struct EntryPlan {
    /// The pipeline (by its index among those made, entry `i`'s own being `i`) each entry
    /// holds once written, or None for an entry nobody writes.
    holds: Vec<Option<u32>>,
    /// The entries the sequences select, in turn.
    select: Vec<u32>,
    /// The entries written after the set's creation (which writes entry 0): entries 1.. in
    /// order, those holding other pipelines first, then any filled with the initial one, then
    /// entry 0 again if asked.
    order: Vec<u32>,
}

impl EntryPlan {
    /// `entries` of the set's `max_entries` get a pipeline of their own; `--fill`, `--select`
    /// and `--rewrite-zero` say the rest.
    fn new(args: &Args, max_entries: u32, entries: u32) -> Result<EntryPlan> {
        let holds: Vec<Option<u32>> = (0..max_entries)
            .map(|slot| match args.fill.as_str() {
                _ if slot < entries => Some(slot),
                "cycle" => Some(slot % entries),
                "initial" => Some(0),
                _ => None,
            })
            .collect();
        let select = if args.select.is_empty() { (0..entries).collect() } else { args.select.clone() };
        if let Some(bad) = select.iter().find(|&&e| e >= max_entries) {
            return Err(RuntimeError::Invalid(format!("--select {bad}: the set has {max_entries} entries")));
        }
        let mut order: Vec<u32> = (1..max_entries).filter(|&e| holds[e as usize].is_some()).collect();
        order.sort_by_key(|&e| holds[e as usize] == Some(0));
        if args.rewrite_zero {
            order.push(0);
        }
        Ok(EntryPlan { holds, select, order })
    }
}

fn run(args: &Args) -> Result<bool> {
    let text = std::fs::read_to_string(&args.manifest)
        .map_err(|e| RuntimeError::Invalid(format!("{}: {e}", args.manifest)))?;
    let manifest = Manifest::from_json(&text).map_err(RuntimeError::Invalid)?;
    let layout = manifest
        .layout(&args.layout)
        .cloned()
        .ok_or_else(|| RuntimeError::Invalid(format!("no layout `{}` in the manifest", args.layout)))?;
    step("context");
    let ctx = GpuContext::new(&ContextOptions { require_dgc: true, ..Default::default() })?;
    println!("device: {} (driver {:#x})", ctx.device_name(), ctx.properties().driver_version);
    println!("{args:?}");
    let dev = DgcDevice::from_context(&ctx)?;
    let ext = ctx.dgc().ok_or_else(|| RuntimeError::Invalid("no VK_EXT_device_generated_commands".into()))?;
    if layout.shader_stages & vk::ShaderStageFlags::COMPUTE.as_raw() == 0 {
        return draws::run(args, &ctx, &dev, &manifest, &layout);
    }
    let d = ctx.device();
    let n = args.sequences.max(1);
    let set_token = layout.execution_set().copied();
    let entries = set_token.map_or(1, |s| args.entries.clamp(1, s.max_entries));

    // The buffers: totals (total, invocations, index sum), the stream, the count.
    let storage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
    let mut totals = Buffer::new(&ctx, 16, storage, Location::Host)?;
    totals.write(0, &[0; 16])?;
    let max_entries = set_token.map_or(1, |s| s.max_entries);
    let EntryPlan { holds, select, order } = EntryPlan::new(args, max_entries, entries)?;
    let (records, expected) = records(&layout, n, &select, &holds, args.empty_dispatch)?;
    let mut stream = Buffer::new(&ctx, records.len() as u64, storage, Location::Host)?;
    stream.write(0, &records)?;
    let mut count = Buffer::new(&ctx, 4, storage, Location::Host)?;
    count.write(0, &n.to_le_bytes())?;
    // SAFETY: live storage buffers, bound whole.
    let mut set = unsafe { StorageSet::new(d, vk::ShaderStageFlags::COMPUTE, &[totals.buffer(), stream.buffer()]) }?;
    let (pl, ranges) = pipeline_layout(d, set.layout(), vk::ShaderStageFlags::COMPUTE)?;
    let set_layouts = [set.layout()];
    let words = layout.stride / 4;
    let shader_set =
        set_token.is_some_and(|s| s.kind == x::IndirectExecutionSetInfoTypeEXT::SHADER_OBJECTS.as_raw() as u32);

    step("vkCreateIndirectCommandsLayoutEXT");
    // SAFETY: `pl` holds the layout's push range.
    let mut l = unsafe { dev.create_layout(&layout, &manifest.push_constants, pl) }?;
    let scale = |i: u32| 1 + 100 * i;
    let mut pipelines = vec![];
    let mut shaders = vec![];
    for i in 0..entries {
        step(&format!("create entry {i}"));
        if shader_set {
            let so = ctx.shader_object().ok_or_else(|| RuntimeError::Invalid("no VK_EXT_shader_object".into()))?;
            // SAFETY: the committed kernel with the layouts it declares.
            shaders.push(unsafe {
                shader_object(
                    so,
                    vk::ShaderStageFlags::COMPUTE,
                    vk::ShaderStageFlags::empty(),
                    ACCUMULATE_SPV,
                    &[(0, 0), (1, words), (2, scale(i))],
                    &set_layouts,
                    &ranges,
                    None,
                    true,
                )
            }?);
        } else {
            let flags = PipelineFlags { indirect_bindable: set_token.is_some(), ..Default::default() };
            // SAFETY: the committed kernel for `pl`.
            pipelines.push(unsafe {
                compute_pipeline_with(d, pl, ACCUMULATE_SPV, &[(0, 0), (1, words), (2, scale(i))], None, flags)
            }?);
        }
    }
    // The set: pipeline sets made here with the extension's own calls, so that entries stay
    // unwritten unless `--fill` writes them (the runtime's `create_execution_set` writes every
    // entry, which is how dgcc avoids the crash); shader-object sets through the runtime. Every
    // entry is written with the extension's own calls, which, unlike the runtime's, let one
    // pipeline or shader into two entries.
    let mut shader_ies = None;
    let mut ies = x::IndirectExecutionSetEXT::null();
    if let Some(token) = set_token {
        step("vkCreateIndirectExecutionSetEXT");
        if shader_set {
            let initial = [StageShader { stage: vk::ShaderStageFlags::COMPUTE, shader: shaders[0] }];
            // SAFETY: indirect-bindable compute shaders made with these layouts.
            let s = unsafe { dev.create_shader_execution_set(&l, &initial, &set_layouts, &ranges) }?;
            ies = s.handle();
            shader_ies = Some(s);
        } else {
            let info = x::IndirectExecutionSetPipelineInfoEXT {
                initial_pipeline: pipelines[0],
                max_pipeline_count: token.max_entries,
                ..Default::default()
            };
            // SAFETY: an indirect-bindable compute pipeline of `pl`, alive until the set is gone.
            ies = unsafe {
                ext.create_indirect_execution_set(&x::IndirectExecutionSetCreateInfoEXT::pipelines(&info), None)
            }
            .map_err(RuntimeError::vk("vkCreateIndirectExecutionSetEXT"))?;
        }
        for &slot in &order {
            step(&format!("vkUpdateIndirectExecutionSet… entry {slot}"));
            let i = holds[slot as usize].unwrap_or(0) as usize;
            // SAFETY: as above; nothing uses the set yet; `slot` is below its entries.
            unsafe {
                if shader_set {
                    ext.update_indirect_execution_set_shader(
                        ies,
                        &[x::WriteIndirectExecutionSetShaderEXT::new(slot, shaders[i])],
                    )
                } else {
                    ext.update_indirect_execution_set_pipeline(
                        ies,
                        &[x::WriteIndirectExecutionSetPipelineEXT::new(slot, pipelines[i])],
                    )
                }
            };
        }
    }
    let has_set = ies != x::IndirectExecutionSetEXT::null();
    let initial = pipelines.first().copied().unwrap_or_default();
    let pipeline_info = x::GeneratedCommandsPipelineInfoEXT::new(initial);
    // Without a set the execute names its pipeline; `--chain-pipeline` names it beside a pipeline set too.
    let next = if !has_set || (args.chain_pipeline && !shader_set) {
        &pipeline_info as *const _ as *const std::ffi::c_void
    } else {
        std::ptr::null()
    };
    let count_address = if args.count { count.address() } else { 0 };
    let (mut preprocess, info) =
        generated_commands(&dev, ext, &layout, &l, ies, stream.address(), n, count_address, next)?;
    let bind = |cmd: vk::CommandBuffer| {
        let compute = vk::PipelineBindPoint::COMPUTE;
        // SAFETY: recording; everything named is alive until the wait.
        unsafe {
            match args.bind.as_str() {
                "initial" if shader_set => {
                    if let Some(so) = ctx.shader_object() {
                        so.cmd_bind_shaders(cmd, &[vk::ShaderStageFlags::COMPUTE], &[shaders[0]]);
                    }
                }
                "initial" => d.cmd_bind_pipeline(cmd, compute, initial),
                "other" if !shader_set => d.cmd_bind_pipeline(cmd, compute, pipelines[1 % pipelines.len()]),
                "other" => {
                    if let Some(so) = ctx.shader_object() {
                        so.cmd_bind_shaders(cmd, &[vk::ShaderStageFlags::COMPUTE], &[shaders[1 % shaders.len()]]);
                    }
                }
                _ => {}
            }
            d.cmd_bind_descriptor_sets(cmd, compute, pl, 0, &[set.set()], &[]);
            d.cmd_push_constants(cmd, pl, vk::ShaderStageFlags::COMPUTE, 0, &[0; 8]);
        }
    };
    let explicit = l.explicit_preprocess();
    let barrier = |cmd: vk::CommandBuffer, src: vk::PipelineStageFlags2, dst: vk::PipelineStageFlags2| {
        let b = [vk::MemoryBarrier2::default()
            .src_stage_mask(src)
            .src_access_mask(vk::AccessFlags2::MEMORY_WRITE)
            .dst_stage_mask(dst)
            .dst_access_mask(vk::AccessFlags2::MEMORY_READ | vk::AccessFlags2::MEMORY_WRITE)];
        // SAFETY: recording outside a render pass.
        unsafe { d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&b)) };
    };
    let preprocess_stage = x::bits::PIPELINE_STAGE_2_COMMAND_PREPROCESS_EXT;
    let all = vk::PipelineStageFlags2::ALL_COMMANDS;
    if explicit && args.separate_preprocess {
        ctx.one_shot(|cmd| {
            bind(cmd);
            step("vkCmdPreprocessGeneratedCommandsEXT (its own submission)");
            // SAFETY: the stream, set and preprocess buffer above, alive until the wait.
            unsafe { ext.cmd_preprocess_generated_commands(cmd, &info, cmd) };
            barrier(cmd, preprocess_stage, all);
            step("vkEndCommandBuffer + submit (preprocess)");
            Ok(())
        })?;
        step("preprocess finished");
    }
    ctx.one_shot(|cmd| {
        bind(cmd);
        if explicit && !args.separate_preprocess {
            step("vkCmdPreprocessGeneratedCommandsEXT");
            // SAFETY: as above.
            unsafe { ext.cmd_preprocess_generated_commands(cmd, &info, cmd) };
            barrier(cmd, preprocess_stage, all);
            bind(cmd);
        }
        step("vkCmdExecuteGeneratedCommandsEXT");
        // SAFETY: as above.
        unsafe { ext.cmd_execute_generated_commands(cmd, explicit, &info) };
        barrier(cmd, all, vk::PipelineStageFlags2::HOST);
        step("vkEndCommandBuffer + vkQueueSubmit + wait");
        Ok(())
    })?;
    step("finished");
    let got: Vec<u32> = totals
        .bytes()
        .map(|b| b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
        .unwrap_or_default();
    println!("totals: {:?}, expected {:?}", &got[..3.min(got.len())], expected);
    let right = got.len() >= 3 && got[..3] == expected;

    // SAFETY: every submission finished; all made on this device.
    unsafe {
        let _ = d.device_wait_idle();
        if let Some(b) = &mut preprocess {
            b.destroy(d);
        }
        match &mut shader_ies {
            Some(s) => s.destroy(&dev),
            None if has_set => ext.destroy_indirect_execution_set(ies, None),
            None => {}
        }
        l.destroy(&dev);
        for p in pipelines {
            d.destroy_pipeline(p, None);
        }
        if let Some(so) = ctx.shader_object() {
            for s in shaders {
                so.destroy_shader(s, None);
            }
        }
        d.destroy_pipeline_layout(pl, None);
        set.destroy(d);
        for b in [&mut totals, &mut stream, &mut count] {
            b.destroy(d);
        }
    }
    Ok(right)
}

/// The stream (sequence `k` selects entry `select[k % len]`, pushes `k + 1` and dispatches
/// one group, or none) and the totals it should leave: (total, invocations, index sum), with
/// `holds[e]` the pipeline in entry `e` (an unwritten entry counts as the initial pipeline's).
fn records(
    layout: &CompiledLayout,
    n: u32,
    select: &[u32],
    holds: &[Option<u32>],
    empty: bool,
) -> Result<(Vec<u8>, [u32; 3])> {
    let stride = layout.stride as usize;
    let mut bytes = vec![0u8; stride * n as usize];
    let mut expected = [0u32; 3];
    for k in 0..n {
        let record = &mut bytes[k as usize * stride..][..stride];
        let entry = select[k as usize % select.len()];
        let groups = u32::from(!empty);
        let mut put = |offset: u32, words: &[u32]| {
            record[offset as usize..][..4 * words.len()].copy_from_slice(as_bytes(words));
        };
        let mut value = 0;
        let mut index = 0;
        for t in &layout.tokens {
            match t.token_type {
                TokenType::ExecutionSet => put(t.offset, &[entry]),
                TokenType::PushConstant => {
                    value = k + 1;
                    put(t.offset, &[value]);
                }
                TokenType::SequenceIndex => index = k,
                TokenType::Dispatch => put(t.offset, &[groups, 1, 1]),
                other => return Err(RuntimeError::Invalid(format!("the probe writes no {other:?} token"))),
            }
        }
        let pipeline = if layout.execution_set().is_some() { holds[entry as usize].unwrap_or(0) } else { 0 };
        expected[0] += groups * value * (1 + 100 * pipeline);
        expected[1] += groups;
        expected[2] += groups * index;
    }
    Ok((bytes, expected))
}
