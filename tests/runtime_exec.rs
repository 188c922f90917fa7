//! The executor on a live device: layouts created and executed, chunked under a budget, run by
//! the fallback, and refused before any Vulkan call when the device cannot run them or the
//! manifest breaks a layout invariant (an edited one whose draw runs past the stride).

#[path = "runtime/common.rs"]
mod common;
#[path = "runtime/layouts.rs"]
mod layouts;

use ash::vk;
use dgcc::ir::CompiledLayout;
use dgcc::runtime::descriptors::StorageSet;
use dgcc::runtime::memory::{as_bytes, Buffer, Location};
use dgcc::runtime::shaders::compute_pipeline;
use dgcc::runtime::{
    Bound, Count, DgcDevice, DgcLayout, Execution, Fallback, FallbackCaps, GpuContext, NoPass, RuntimeError, Stream,
};

const ACCUMULATE_SPV: &[u8] = include_bytes!("../shaders/runtime/spv/test_accumulate.comp.spv");

/// The accumulate kernel, its buffers and the records to run.
struct Rig {
    totals: Buffer,
    stream: Buffer,
    count: Buffer,
    set: StorageSet,
    pipeline_layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
}

/// Sequences as (value, x, y, z); the sequence-index slot is left 0.
const SEQUENCES: [(u32, u32, u32, u32); 3] = [(1, 1, 1, 1), (10, 2, 1, 1), (100, 1, 1, 1)];

impl Rig {
    fn new(ctx: &GpuContext, layout: &CompiledLayout, fallback: bool) -> Rig {
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::INDIRECT_BUFFER;
        let mut totals = Buffer::new(ctx, 12, vk::BufferUsageFlags::STORAGE_BUFFER, Location::Host).unwrap();
        totals.write(0, &[0; 12]).unwrap();
        let mut stream = Buffer::new(ctx, layout.stride as u64 * 64, usage, Location::Host).unwrap();
        let count = Buffer::new(ctx, 4, usage, Location::Host).unwrap();
        let words = layout.stride as usize / 4;
        let action = layout.action().unwrap().offset as usize / 4;
        let mut data = vec![0u32; words * 64];
        for (i, &(v, x, y, z)) in SEQUENCES.iter().enumerate() {
            data[i * words] = v;
            data[i * words + action..i * words + action + 3].copy_from_slice(&[x, y, z]);
        }
        stream.write(0, as_bytes(&data)).unwrap();
        // SAFETY: live storage buffers, destroyed after the set (`Rig::destroy`).
        let set = unsafe {
            StorageSet::new(ctx.device(), vk::ShaderStageFlags::COMPUTE, &[totals.buffer(), stream.buffer()])
        }
        .unwrap();
        let ranges = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: 8 }];
        let set_layouts = [set.layout()];
        let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts).push_constant_ranges(&ranges);
        let pipeline_layout = unsafe { ctx.device().create_pipeline_layout(&info, None) }.unwrap();
        let spec = [(0, fallback as u32), (1, words as u32)];
        // SAFETY: the committed kernel, written for this layout (one set, 8 compute push bytes).
        let pipeline = unsafe { compute_pipeline(ctx.device(), pipeline_layout, ACCUMULATE_SPV, &spec, None) }.unwrap();
        Rig { totals, stream, count, set, pipeline_layout, pipeline }
    }

    fn stream(&mut self, records: u32, count: Option<u32>) -> Stream {
        let c = count.map(|n| {
            self.count.write(0, &n.to_le_bytes()).unwrap();
            Count { buffer: self.count.buffer(), offset: 0, address: self.count.address() }
        });
        Stream {
            buffer: self.stream.buffer(),
            offset: 0,
            address: self.stream.address(),
            max_sequences: records,
            count: c,
        }
    }

    fn bind(&self, ctx: &GpuContext, cmd: vk::CommandBuffer) {
        unsafe {
            ctx.device().cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            ctx.device().cmd_bind_descriptor_sets(
                cmd,
                vk::PipelineBindPoint::COMPUTE,
                self.pipeline_layout,
                0,
                &[self.set.set()],
                &[],
            );
        }
    }

    /// An indirect-bindable accumulate pipeline of the rig's layout for records of `words`
    /// words, adding each value `scale` times (an entry of an execution set).
    fn bindable(&self, ctx: &GpuContext, words: u32, scale: u32) -> vk::Pipeline {
        // SAFETY: the committed kernel for the rig's pipeline layout.
        unsafe {
            dgcc::runtime::shaders::compute_pipeline_with(
                ctx.device(),
                self.pipeline_layout,
                ACCUMULATE_SPV,
                &[(0, 0), (1, words), (2, scale)],
                None,
                dgcc::runtime::shaders::PipelineFlags { indirect_bindable: true, ..Default::default() },
            )
        }
        .unwrap()
    }

    /// An accumulate compute shader object of the rig's set layout and push range for records
    /// of `words` words, adding each value `scale` times; `indirect_bindable` for an execution
    /// set.
    fn shader(
        &self,
        so: &ash::ext::shader_object::Device,
        words: u32,
        scale: u32,
        indirect_bindable: bool,
    ) -> vk::ShaderEXT {
        let ranges = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: 8 }];
        // SAFETY: the committed kernel; the rig's set layout and push range are what it declares.
        unsafe {
            dgcc::runtime::shaders::shader_object(
                so,
                vk::ShaderStageFlags::COMPUTE,
                vk::ShaderStageFlags::empty(),
                ACCUMULATE_SPV,
                &[(0, 0), (1, words), (2, scale)],
                &[self.set.layout()],
                &ranges,
                None,
                indirect_bindable,
            )
        }
        .unwrap()
    }

    /// The stream of an execution-set layout: records of (entry, value, x, y, z).
    fn set_records(&mut self, records: &[[u32; 5]]) -> Stream {
        let data: Vec<u32> = records.iter().flatten().copied().collect();
        self.stream.write(0, as_bytes(&data)).unwrap();
        self.stream(records.len() as u32, None)
    }

    /// Execute `stream` through `exec` from zeroed totals, and read them back.
    fn run(
        &mut self,
        ctx: &GpuContext,
        dev: &DgcDevice,
        l: &DgcLayout,
        exec: &mut Execution,
        stream: &Stream,
    ) -> [u32; 3] {
        self.totals.write(0, &[0; 12]).unwrap();
        ctx.one_shot(|cmd| {
            self.bind(ctx, cmd);
            // SAFETY: recording outside a render pass; everything lives until after the wait.
            unsafe { exec.record(dev, l, cmd, stream, &mut NoPass(|_, _| {})) }
        })
        .unwrap();
        self.totals()
    }

    fn totals(&self) -> [u32; 3] {
        let b = self.totals.bytes().unwrap();
        [0, 1, 2].map(|i| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap()))
    }

    fn destroy(mut self, ctx: &GpuContext) {
        unsafe {
            ctx.device().device_wait_idle().unwrap();
            ctx.device().destroy_pipeline(self.pipeline, None);
            ctx.device().destroy_pipeline_layout(self.pipeline_layout, None);
            self.set.destroy(ctx.device());
            for b in [&mut self.totals, &mut self.stream, &mut self.count] {
                b.destroy(ctx.device());
            }
        }
    }
}

/// Run `layout` over `records` records (GPU count `count`) by DGC under `budget`.
fn run_dgc(
    ctx: &GpuContext,
    layout: &CompiledLayout,
    records: u32,
    count: Option<u32>,
    budget: u64,
) -> ([u32; 3], u32) {
    let dev = DgcDevice::from_context(ctx).unwrap();
    let mut rig = Rig::new(ctx, layout, false);
    // SAFETY: the rig's pipeline layout holds the accumulate ranges; its pipeline was made with it.
    let mut dgc_layout =
        unsafe { dev.create_layout(layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    // SAFETY: as above.
    let mut exec =
        unsafe { Execution::new(&dev, &dgc_layout, Bound::Pipeline(rig.pipeline), records, 0, budget) }.unwrap();
    let stream = rig.stream(records, count);
    ctx.one_shot(|cmd| {
        rig.bind(ctx, cmd);
        unsafe { exec.record(&dev, &dgc_layout, cmd, &stream, &mut NoPass(|_, _| {})) }
    })
    .unwrap();
    let (totals, chunks) = (rig.totals(), exec.plan().chunks);
    unsafe {
        exec.destroy(&dev);
        dgc_layout.destroy(&dev);
    }
    rig.destroy(ctx);
    (totals, chunks)
}

#[test]
fn a_dispatch_layout_with_push_constant_and_sequence_index_executes() {
    let Some(ctx) = common::gpu("a_dispatch_layout_with_push_constant_and_sequence_index_executes") else { return };
    let (totals, chunks) = run_dgc(&ctx, &layouts::accumulate(true, 20), 3, None, 64 << 20);
    assert_eq!(chunks, 1);
    // 1·1 + 10·2 + 100·1; 4 invocations; sequence indices 0 + 1 + 1 + 2.
    assert_eq!(totals, [121, 4, 4]);
}

#[test]
fn the_executor_binds_the_pipeline_it_was_prepared_for() {
    // The driver generates commands for the pipeline named at execute time; whatever the caller
    // left bound must not decide what runs (lavapipe runs the bound one, NVIDIA the named one).
    let Some(ctx) = common::gpu("the_executor_binds_the_pipeline_it_was_prepared_for") else { return };
    let layout = layouts::accumulate(true, 20);
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let mut rig = Rig::new(&ctx, &layout, false);
    // A decoy that reads values from the stream at the wrong stride: if it ran, the totals differ.
    let words = layout.stride / 4;
    // SAFETY: the committed kernel for the rig's layout.
    let decoy =
        unsafe { compute_pipeline(ctx.device(), rig.pipeline_layout, ACCUMULATE_SPV, &[(0, 1), (1, words + 1)], None) }
            .unwrap();
    // SAFETY: the rig's pipeline layout holds the accumulate ranges; its pipeline was made with it.
    let mut dgc_layout =
        unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    // SAFETY: as above.
    let mut exec = unsafe { Execution::new(&dev, &dgc_layout, Bound::Pipeline(rig.pipeline), 3, 0, 64 << 20) }.unwrap();
    let stream = rig.stream(3, None);
    ctx.one_shot(|cmd| {
        rig.bind(&ctx, cmd);
        unsafe { ctx.device().cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, decoy) };
        unsafe { exec.record(&dev, &dgc_layout, cmd, &stream, &mut NoPass(|_, _| {})) }
    })
    .unwrap();
    assert_eq!(rig.totals(), [121, 4, 4], "the decoy pipeline ran instead of the prepared one");
    unsafe {
        exec.destroy(&dev);
        dgc_layout.destroy(&dev);
        ctx.device().device_wait_idle().unwrap();
        ctx.device().destroy_pipeline(decoy, None);
    }
    rig.destroy(&ctx);
}

#[test]
fn the_executor_refuses_a_recording_that_breaks_a_requirement() {
    // The layout's record-time requirements, on a live device: what the engine states with
    // `set_record_state` is checked before anything is recorded (transform feedback active on
    // a device whose DGC cannot run with it: E0903); a state that breaks none records.
    let Some(ctx) = common::gpu("the_executor_refuses_a_recording_that_breaks_a_requirement") else { return };
    let layout = layouts::accumulate(true, 20);
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let mut rig = Rig::new(&ctx, &layout, false);
    // SAFETY: the rig's pipeline layout holds the accumulate ranges; its pipeline was made with it.
    let mut dgc_layout =
        unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    // SAFETY: as above.
    let mut exec = unsafe { Execution::new(&dev, &dgc_layout, Bound::Pipeline(rig.pipeline), 3, 0, 64 << 20) }.unwrap();
    exec.set_record_state(dgcc::requirements::RecordState {
        transform_feedback_active: Some(true),
        dgc_transform_feedback: Some(false),
        ..Default::default()
    });
    let stream = rig.stream(3, None);
    // A stream address that is not a multiple of 4 (VUID-VkGeneratedCommandsInfoEXT-
    // indirectAddress-11074) is refused before anything is recorded.
    let misaligned = Stream { address: stream.address + 2, offset: stream.offset + 2, ..stream };
    let err = ctx
        .one_shot(|cmd| unsafe { exec.record(&dev, &dgc_layout, cmd, &misaligned, &mut NoPass(|_, _| {})) })
        .expect_err("a misaligned stream is refused");
    assert!(err.to_string().contains("must be multiples of 4"), "{err}");
    let err = ctx
        .one_shot(|cmd| {
            rig.bind(&ctx, cmd);
            unsafe { exec.record(&dev, &dgc_layout, cmd, &stream, &mut NoPass(|_, _| {})) }
        })
        .expect_err("a broken requirement is refused");
    let dgcc::runtime::RuntimeError::Refused { diagnostics, .. } = &err else { panic!("{err}") };
    assert_eq!(diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0903"]);
    assert_eq!(rig.totals(), [0, 0, 0], "nothing ran");
    exec.set_record_state(dgcc::requirements::RecordState {
        transform_feedback_active: Some(false),
        ..Default::default()
    });
    ctx.one_shot(|cmd| {
        rig.bind(&ctx, cmd);
        unsafe { exec.record(&dev, &dgc_layout, cmd, &stream, &mut NoPass(|_, _| {})) }
    })
    .unwrap();
    assert_eq!(rig.totals(), [121, 4, 4]);
    unsafe {
        exec.destroy(&dev);
        dgc_layout.destroy(&dev);
    }
    rig.destroy(&ctx);
}

#[test]
fn a_small_budget_runs_the_stream_in_chunks_with_a_split_gpu_count() {
    let Some(ctx) = common::gpu("a_small_budget_runs_the_stream_in_chunks_with_a_split_gpu_count") else { return };
    let layout = layouts::accumulate(false, 16);
    let dev = DgcDevice::from_context(&ctx).unwrap();
    // A budget that fits one sequence but not two.
    let rig = Rig::new(&ctx, &layout, false);
    // SAFETY: the rig's pipeline layout holds the accumulate ranges; its pipeline was made with it.
    let mut l = unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    // SAFETY: as above.
    let (one, two) = unsafe {
        (
            dgcc::runtime::execute::requirements(&dev, &l, Bound::Pipeline(rig.pipeline), 1, 0).0,
            dgcc::runtime::execute::requirements(&dev, &l, Bound::Pipeline(rig.pipeline), 2, 0).0,
        )
    };
    // SAFETY: no work used the layout.
    unsafe { l.destroy(&dev) };
    rig.destroy(&ctx);
    assert!(two > one, "the driver's size must grow with the count for this test ({one} vs {two})");
    let (all, chunks) = run_dgc(&ctx, &layout, 3, None, one);
    assert_eq!((all[0], all[1], chunks), (121, 4, 3));
    // The GPU count says 2: chunk 2 must run nothing.
    let (counted, chunks) = run_dgc(&ctx, &layout, 3, Some(2), one);
    assert_eq!((counted[0], counted[1], chunks), (21, 3, 3));
    // Count 0 runs nothing at all.
    let (none, _) = run_dgc(&ctx, &layout, 3, Some(0), one);
    assert_eq!((none[0], none[1]), (0, 0));
}

#[test]
fn a_sequence_index_layout_is_never_split_silently() {
    let Some(ctx) = common::gpu("a_sequence_index_layout_is_never_split_silently") else { return };
    let layout = layouts::accumulate(true, 20);
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let rig = Rig::new(&ctx, &layout, false);
    // SAFETY: the rig's pipeline layout holds the accumulate ranges; its pipeline was made with it.
    let mut l = unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    // SAFETY: as above.
    let one = unsafe { dgcc::runtime::execute::requirements(&dev, &l, Bound::Pipeline(rig.pipeline), 1, 0) }.0;
    // SAFETY: as above.
    let err = unsafe { Execution::new(&dev, &l, Bound::Pipeline(rig.pipeline), 3, 0, one) }.err().expect("must refuse");
    assert!(err.to_string().contains("SEQUENCE_INDEX"), "{err}");
    unsafe { l.destroy(&dev) };
    rig.destroy(&ctx);
}

#[test]
fn the_dispatch_loop_fallback_gives_the_same_totals() {
    let Some(ctx) = common::gpu("the_dispatch_loop_fallback_gives_the_same_totals") else { return };
    let layout = layouts::accumulate(true, 20);
    let fallback = Fallback::new(&layout, FallbackCaps::from(&*ctx)).unwrap();
    let mut rig = Rig::new(&ctx, &layout, true);
    let stream = rig.stream(3, None);
    ctx.one_shot(|cmd| {
        rig.bind(&ctx, cmd);
        unsafe { fallback.record(ctx.device(), cmd, &stream, rig.pipeline_layout, None) }
    })
    .unwrap();
    assert_eq!(rig.totals(), [121, 4, 4]);
    // A GPU count without a host count cannot drive a host-recorded loop: refused, not skipped.
    let counted = rig.stream(3, Some(2));
    let err = ctx
        .one_shot(|cmd| unsafe { fallback.record(ctx.device(), cmd, &counted, rig.pipeline_layout, None) })
        .err()
        .unwrap();
    assert!(err.to_string().contains("host"), "{err}");
    rig.destroy(&ctx);
}

#[test]
fn the_fallback_refuses_what_it_cannot_express() {
    let caps = FallbackCaps { multi_draw_indirect: true, draw_indirect_count: true, max_draw_indirect_count: u32::MAX };
    // Push data without a sequence index: a dispatch loop cannot tell the shader its record.
    let e = Fallback::new(&layouts::accumulate(false, 16), caps).err().unwrap();
    assert!(e.to_string().contains("SEQUENCE_INDEX"), "{e}");
    let mut with_set = layouts::accumulate(true, 20);
    with_set.tokens[0].token_type = dgcc::ir::TokenType::ExecutionSet;
    let e = Fallback::new(&with_set, caps).err().unwrap();
    assert!(e.to_string().contains("EXECUTION_SET"), "{e}");
}

#[test]
fn a_layout_over_a_device_limit_is_refused_before_any_vulkan_call() {
    let Some(ctx) = common::gpu("a_layout_over_a_device_limit_is_refused_before_any_vulkan_call") else { return };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let profile = dev.profile();
    let max_stride = profile.value(dgcc::device::Limit::MaxIndirectCommandsIndirectStride).unwrap();
    let max_sequences = profile.value(dgcc::device::Limit::MaxIndirectSequenceCount).unwrap();
    // Over the stride limit where the device has one (lavapipe: 2048); a device whose stride is
    // unbounded (the H200: 0xFFFFFFFF) is pushed over its sequence-count limit instead.
    let (layout, code, limit) = if max_stride < u32::MAX as u64 {
        (layouts::accumulate(true, max_stride as u32 + 16), "E0201", max_stride)
    } else {
        let mut l = layouts::accumulate(true, 16);
        l.max_sequences = (max_sequences + 1).min(u32::MAX as u64) as u32;
        (l, "E0204", max_sequences)
    };
    // A null pipeline layout: reaching vkCreateIndirectCommandsLayoutEXT would be invalid usage.
    // SAFETY: the contract on the pipeline layout holds only for a layout `check_layout`
    // accepts; this one is refused before any Vulkan call.
    match unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), vk::PipelineLayout::null()) } {
        Err(RuntimeError::Refused { layout: name, diagnostics }) => {
            assert_eq!(name, "Accumulate");
            assert!(
                diagnostics.iter().any(|d| d.code == code && d.message.contains(&limit.to_string())),
                "{diagnostics:?}"
            );
            assert!(diagnostics.iter().all(|d| !d.notes.is_empty()), "each diagnostic says where: {diagnostics:?}");
        }
        Err(e) => panic!("expected a refusal, got {e}"),
        Ok(_) => panic!("a stride over the device limit was accepted"),
    }
}

/// Push data (VK_EXT_descriptor_heap) runs where the device has descriptor heaps; lavapipe
/// (Mesa 25.0) and the H200's 580 driver do not, and the runtime refuses such a layout before
/// any Vulkan call, naming the feature, with the code `dgcc check` gives (E0216).
#[test]
fn a_push_data_layout_is_refused_where_the_device_has_no_descriptor_heaps() {
    let path = std::path::Path::new(env!("DGCC_CHECKOUT")).join("tests/check/ok/push_data.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let c = dgcc::driver::compile_source(&path, &text, &Default::default());
    let layout = c.laid.iter().map(|l| l.layout.clone()).find(|l| l.name == "Work").expect("layout Work");
    assert!(layout.tokens.iter().any(|t| t.token_type == dgcc::ir::TokenType::PushData), "{layout:?}");
    let Some(ctx) = common::gpu("a_push_data_layout_is_refused_where_the_device_has_no_descriptor_heaps") else {
        return;
    };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    if dev.profile().value(dgcc::device::Limit::DescriptorHeap) != Some(0) {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"SKIP: this device may have descriptor heaps (lavapipe has none)\n",
        );
        return;
    }
    // SAFETY: refused before any Vulkan call (which is what the test checks).
    match unsafe { dev.create_layout(&layout, &[], vk::PipelineLayout::null()) } {
        Err(RuntimeError::Refused { diagnostics, .. }) => {
            let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
            assert_eq!(codes, ["E0216", "E0216"], "one per push-data token: {diagnostics:?}");
            assert!(diagnostics[0].message.contains("descriptorHeap"), "names the feature: {diagnostics:?}");
        }
        Err(e) => panic!("expected a refusal, got {e}"),
        Ok(_) => panic!("a push-data layout was accepted on a device without descriptor heaps"),
    }
}

/// The runtime's fixture manifest: push constant 0..8, index buffer 8..24, indexed draw 24..44,
/// stride 48.
const PUSH_INDEX_DRAW: &str = include_str!("../crates/runtime/fixtures/push_index_draw.dgc.json");

#[test]
fn an_edited_manifest_whose_draw_runs_past_the_stride_is_refused_with_check_s_code() {
    // What `dgcc check` says about a description with the same mistake.
    let path = std::path::Path::new(env!("DGCC_CHECKOUT")).join("tests/check/err/E0404.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let checked = dgcc::driver::compile_source(&path, &text, &Default::default()).diagnostics;
    assert_eq!(checked.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0404"], "{checked:?}");

    let Some(ctx) = common::gpu("an_edited_manifest_whose_draw_runs_past_the_stride_is_refused_with_check_s_code")
    else {
        return;
    };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let mut m = dgcc::ir::Manifest::from_json(PUSH_INDEX_DRAW).unwrap();
    let mut layout = m.layouts.remove(0);
    // Hand-edited: the draw moved from 24 to 40, so its 20 bytes end at 60, past the stride 48.
    layout.tokens[2].offset = 40;
    // A null pipeline layout: reaching vkCreateIndirectCommandsLayoutEXT would be invalid usage.
    // SAFETY: `create_layout`'s contract binds only a layout `check_layout` accepts, and this
    // one must be refused before any Vulkan call (which is what the test checks).
    match unsafe { dev.create_layout(&layout, &m.push_constants, vk::PipelineLayout::null()) } {
        Err(RuntimeError::Refused { layout: name, diagnostics }) => {
            assert_eq!(name, layout.name);
            let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
            assert_eq!(codes, ["E0404"], "{diagnostics:?}");
            assert_eq!(diagnostics[0].message, "`draw` reads bytes 40..60 of each record, past the stride of 48");
            assert!(diagnostics[0].notes[0].contains("token 2 `draw`"), "says where: {diagnostics:?}");
        }
        Err(e) => panic!("expected a refusal, got {e}"),
        Ok(_) => panic!("a draw past the stride was accepted"),
    }
}

#[test]
fn the_live_probe_states_every_value_and_writes_profiles_json() {
    if common::gpu("the_live_probe_states_every_value_and_writes_profiles_json").is_none() {
        return;
    }
    let probe = dgcc::runtime::probe().unwrap();
    // ash 0.38 cannot query VK_EXT_descriptor_heap's structs: a device with the extension
    // leaves those two values unstated (one without it states false and 0).
    let heap = probe.json["capabilities"]["device"]["extensions"]["VK_EXT_descriptor_heap"].is_u64();
    let unqueried = [dgcc::device::Limit::DescriptorHeap, dgcc::device::Limit::MaxPushDataSize];
    for l in dgcc::device::Limit::ALL {
        if heap && unqueried.contains(&l) {
            continue;
        }
        assert!(probe.profile.value(l).is_some(), "live profile lacks {l}");
    }
    let device = &probe.json["capabilities"]["device"];
    assert_eq!(
        device["features"]["VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT"]["deviceGeneratedCommands"],
        true
    );
    let stride = &device["properties"]["VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT"]
        ["maxIndirectCommandsIndirectStride"];
    assert_eq!(stride.as_u64(), probe.profile.value(dgcc::device::Limit::MaxIndirectCommandsIndirectStride));
    assert!(device["extensions"]["VK_EXT_device_generated_commands"].is_u64());
    assert!(probe.json_text().ends_with("}\n"));
    // The vendor is the device's (lavapipe: VK_VENDOR_ID_MESA), in the document where the
    // device's own properties name it, and it is what N0002 and the runtime read.
    let vendor = probe.profile.value(dgcc::device::Limit::VendorId);
    assert_eq!(device["properties"]["VkPhysicalDeviceProperties"]["vendorID"].as_u64(), vendor);
    if probe.device_name.starts_with("llvmpipe") {
        assert_eq!(vendor, Some(u64::from(dgcc::device::vendor::MESA)));
    }
    // The cooperative-matrix shapes (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR; an
    // empty list without the extension, as on lavapipe), written and read back.
    let shapes = probe.profile.cooperative_matrix.as_ref().expect("the probe states the cooperative-matrix list");
    let has = device["extensions"]["VK_KHR_cooperative_matrix"].is_u64();
    if !has {
        assert!(shapes.shapes.is_empty(), "no shapes without the extension");
    }
    let back = dgcc::device::json::parse(&probe.json_text(), std::path::Path::new("live.json")).unwrap();
    assert_eq!(back.cooperative_matrix.map(|m| m.shapes), Some(shapes.shapes.clone()));
}

/// `accumulate(false, 20)` after an EXECUTION_SET token (entries of compute pipelines) at byte
/// 0 of the record: `[pipeline u32][value u32][dispatch x, y, z]`, 20 bytes.
fn accumulate_with_execution_set() -> CompiledLayout {
    let mut layout = layouts::accumulate(false, 20);
    layout.record.retain(|m| m.token.is_some());
    for t in &mut layout.tokens {
        t.offset += 4;
    }
    for m in &mut layout.record {
        m.offset += 4;
        m.token = m.token.map(|t| t + 1);
    }
    let mut set = layout.tokens[0].clone();
    set.name = "pipeline".into();
    set.token_type = dgcc::ir::TokenType::ExecutionSet;
    set.type_value = dgcc::ir::TokenType::ExecutionSet.value();
    set.offset = 0;
    set.size = 4;
    set.push_constant = None;
    set.execution_set = Some(dgcc::ir::ExecutionSet {
        kind: 0,
        stages: layouts::COMPUTE,
        max_entries: 2,
        fallback: Default::default(),
    });
    layout.tokens.insert(0, set);
    let mut member = layout.record[0].clone();
    member.name = "pipeline".into();
    member.offset = 0;
    member.token = Some(0);
    layout.record.insert(0, member);
    layout.name = "AccumulateFromSet".into();
    layout
}

/// `accumulate_with_execution_set` whose set holds compute shader objects: the token data is
/// one shader index (one stage), the record shape is the same.
fn accumulate_with_shader_set() -> CompiledLayout {
    let mut layout = accumulate_with_execution_set();
    if let Some(set) = &mut layout.tokens[0].execution_set {
        set.kind = 1; // VK_INDIRECT_EXECUTION_SET_INFO_TYPE_SHADER_OBJECTS_EXT
    }
    layout.name = "AccumulateFromShaders".into();
    layout
}

#[test]
fn a_shader_object_execution_set_runs_each_sequences_shader_and_takes_updates() {
    use dgcc::runtime::{SetEntries, StageShader};
    let test = "a_shader_object_execution_set_runs_each_sequences_shader_and_takes_updates";
    let Some(ctx) = common::gpu(test) else { return };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    if !common::has_shader_objects(test, &ctx) {
        return;
    }
    let so = dev.shader_object().expect("a context with shader objects gives its DgcDevice their entry points");
    let layout = accumulate_with_shader_set();
    let mut rig = Rig::new(&ctx, &layout, false);
    let ranges = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: 8 }];
    let set_layouts = [rig.set.layout()];
    let words = layout.stride / 4;
    // Entry 0 adds each value once, entry 1 a thousand times.
    let make = |scale: u32| rig.shader(so, words, scale, true);
    let (once, ten, thousand) = (make(1), make(10), make(1000));
    // SAFETY: the rig's pipeline layout holds the accumulate ranges.
    let mut l = unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    let initial = [StageShader { stage: vk::ShaderStageFlags::COMPUTE, shader: once }];
    // SAFETY: indirect-bindable compute shaders made with the layouts given here.
    let mut set = unsafe { dev.create_shader_execution_set(&l, &initial, &set_layouts, &ranges) }.unwrap();
    assert_eq!(set.initial(), &SetEntries::ShaderObjects(initial.to_vec()));
    // SAFETY: as above; nothing uses the set yet.
    unsafe { dev.write_execution_set_shader(&set, 1, thousand) }.unwrap();
    // The wrong kind of entry, an index past the end and the wrong `Bound` are refused before
    // any Vulkan call.
    let pipeline_write = unsafe { dev.write_execution_set(&set, 1, rig.pipeline) };
    assert!(pipeline_write.is_err_and(|e| e.to_string().contains("takes shaders")));
    let past = unsafe { dev.write_execution_set_shader(&set, 2, thousand) };
    assert!(past.is_err_and(|e| e.to_string().contains("past its 2 entries")));
    let as_pipelines = unsafe { dev.create_execution_set(&l, rig.pipeline) };
    assert!(as_pipelines.is_err_and(|e| e.to_string().contains("create_shader_execution_set")));
    let wrong = unsafe { Execution::new(&dev, &l, Bound::ExecutionSet(set.handle(), rig.pipeline), 3, 0, 64 << 20) };
    assert!(wrong.err().is_some_and(|e| e.to_string().contains("execution set of shader objects")));

    // Records: (entry, value, x, y, z).
    let stream = rig.set_records(&[[0, 1, 1, 1, 1], [1, 10, 2, 1, 1], [0, 100, 1, 1, 1]]);
    let bound = Bound::for_set(&set).unwrap();
    // SAFETY: the set was made for `l` with these shaders.
    let mut exec = unsafe { Execution::new(&dev, &l, bound, 3, 0, 64 << 20) }.unwrap();
    // 1 + 2 invocations × 10 × 1000 + 100.
    assert_eq!(
        rig.run(&ctx, &dev, &l, &mut exec, &stream)[..2],
        [20_101, 4],
        "each sequence ran the shader its record names"
    );
    // Entry 1 now holds a shader that adds each value ten times (another shader than entry 0's:
    // NVIDIA's driver runs a compute shader held by two entries from only one of them, and the
    // runtime refuses that there).
    // SAFETY: the submission finished (`one_shot` waits).
    unsafe { dev.write_execution_set_shader(&set, 1, ten) }.unwrap();
    assert_eq!(rig.run(&ctx, &dev, &l, &mut exec, &stream)[..2], [301, 4], "the updated entry is what runs");

    // SAFETY: every submission finished; all made on this device.
    unsafe {
        exec.destroy(&dev);
        set.destroy(&dev);
        l.destroy(&dev);
        for shader in [once, ten, thousand] {
            so.destroy_shader(shader, None);
        }
    }
    rig.destroy(&ctx);
    if common::validation_required() {
        let log = ctx.layer_log().expect("DGCC_VALIDATION=1 installs the runtime's messenger");
        common::assert_no_layer_errors(test, log);
    }
}

#[test]
fn a_layout_without_a_set_executes_with_the_shader_objects_it_names() {
    // An engine that draws and dispatches through VK_EXT_shader_object instead of pipelines:
    // the executor binds the shader objects it was prepared for (`Bound::Shaders`) and names
    // them in VkGeneratedCommandsShaderInfoEXT, so the pipeline left bound (the rig's, adding
    // each value once) does not run; shaders that miss the layout's stage are refused before
    // any Vulkan call.
    use dgcc::runtime::{BoundShaders, StageShader};
    let test = "a_layout_without_a_set_executes_with_the_shader_objects_it_names";
    let Some(ctx) = common::gpu(test) else { return };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    if !common::has_shader_objects(test, &ctx) {
        return;
    }
    let so = dev.shader_object().expect("a context with shader objects gives its DgcDevice their entry points");
    let layout = layouts::accumulate(true, 20);
    let mut rig = Rig::new(&ctx, &layout, false);
    // Adds each value ten times: a total no pipeline of the rig gives. Not indirect-bindable:
    // no execution set holds it.
    let ten = rig.shader(so, layout.stride / 4, 10, false);
    // SAFETY: the rig's pipeline layout holds the accumulate ranges.
    let mut l = unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    let compute = BoundShaders::new(&[StageShader { stage: vk::ShaderStageFlags::COMPUTE, shader: ten }]).unwrap();
    // Refused before any Vulkan call: shaders for another stage than the layout's.
    let vertex = BoundShaders::new(&[StageShader { stage: vk::ShaderStageFlags::VERTEX, shader: ten }]).unwrap();
    let wrong = unsafe { Execution::new(&dev, &l, Bound::Shaders(vertex), 3, 0, 64 << 20) };
    assert!(wrong.err().is_some_and(|e| e.to_string().contains("cover only")));
    // SAFETY: `ten` was made with the layouts `l`'s pipeline layout holds, for its stage.
    let mut exec = unsafe { Execution::new(&dev, &l, Bound::Shaders(compute), 3, 0, 64 << 20) }.unwrap();
    let stream = rig.stream(3, None);
    // (1·1 + 10·2 + 100·1) × 10; 4 invocations; sequence indices 0 + 1 + 1 + 2.
    assert_eq!(rig.run(&ctx, &dev, &l, &mut exec, &stream), [1210, 4, 4], "the pipeline left bound ran instead");
    // The same layout with the rig's pipeline, as before.
    // SAFETY: the rig's pipeline was made with `l`'s pipeline layout.
    let mut piped = unsafe { Execution::new(&dev, &l, Bound::Pipeline(rig.pipeline), 3, 0, 64 << 20) }.unwrap();
    assert_eq!(rig.run(&ctx, &dev, &l, &mut piped, &stream), [121, 4, 4]);
    // SAFETY: every submission finished (`one_shot` waits); all made on this device.
    unsafe {
        exec.destroy(&dev);
        piped.destroy(&dev);
        l.destroy(&dev);
        so.destroy_shader(ten, None);
    }
    rig.destroy(&ctx);
    if common::validation_required() {
        let log = ctx.layer_log().expect("DGCC_VALIDATION=1 installs the runtime's messenger");
        common::assert_no_layer_errors(test, log);
    }
}

#[test]
fn bound_shader_objects_are_refused_on_a_device_without_the_extension() {
    // A context told not to enable VK_EXT_shader_object is what a device without it gives: an
    // execution on shader objects is refused there before any Vulkan call, naming the extension.
    use dgcc::runtime::{BoundShaders, StageShader};
    let test = "bound_shader_objects_are_refused_on_a_device_without_the_extension";
    let options = dgcc::runtime::ContextOptions { shader_object: false, require_dgc: true, ..Default::default() };
    let Some(ctx) = common::gpu_with(test, &options) else { return };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    assert!(dev.shader_object().is_none(), "the context was asked not to enable shader objects");
    let layout = layouts::accumulate(true, 20);
    let rig = Rig::new(&ctx, &layout, false);
    // SAFETY: the rig's pipeline layout holds the accumulate ranges.
    let mut l = unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    // No shader object exists here; the refusal comes before anything would use the handle.
    let shaders =
        BoundShaders::new(&[StageShader { stage: vk::ShaderStageFlags::COMPUTE, shader: vk::ShaderEXT::null() }])
            .unwrap();
    // SAFETY: refused before any Vulkan call (the assertion below).
    let e = unsafe { Execution::new(&dev, &l, Bound::Shaders(shaders), 3, 0, 64 << 20) };
    let e = e.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("VK_EXT_shader_object"), "{e}");
    // SAFETY: nothing used the layout.
    unsafe { l.destroy(&dev) };
    rig.destroy(&ctx);
}

#[test]
fn a_pipeline_execution_set_with_entries_never_written_runs_each_sequences_pipeline() {
    // NVIDIA's driver 580.159.04 segfaulted recording the execute of a compute layout whose
    // set had an entry never written, and ran a pipeline held by two entries only from the one
    // written last (examples/ies_probe): `create_execution_set` fills the other entries with the
    // initial pipeline and writes entry 0 last. On that driver this test crashes without the
    // fill and hangs (its fence never signals) with entry 0 written first; lavapipe runs it
    // either way.
    let test = "a_pipeline_execution_set_with_entries_never_written_runs_each_sequences_pipeline";
    let Some(ctx) = common::gpu(test) else { return };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let mut layout = accumulate_with_execution_set();
    if let Some(set) = &mut layout.tokens[0].execution_set {
        set.max_entries = 16;
    }
    let mut rig = Rig::new(&ctx, &layout, false);
    let words = layout.stride / 4;
    // Entry 0 adds each value once, entry 1 a thousand times.
    let (once, thousand) = (rig.bindable(&ctx, words, 1), rig.bindable(&ctx, words, 1000));
    // SAFETY: the rig's pipeline layout holds the accumulate ranges.
    let mut l = unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    // SAFETY: indirect-bindable compute pipelines of one layout; nothing uses the set yet.
    let mut set = unsafe { dev.create_execution_set(&l, once) }.unwrap();
    assert_eq!(set.max_entries(), 16);
    unsafe { dev.write_execution_set(&set, 1, thousand) }.unwrap();
    // Records: (entry, value, x, y, z); entries 2 to 15 were never written, and no sequence
    // may select them (the spec leaves them undefined).
    let stream = rig.set_records(&[[0, 1, 1, 1, 1], [1, 10, 2, 1, 1], [0, 100, 1, 1, 1], [1, 5, 1, 2, 1]]);
    // SAFETY: the set was made for `l` with `once` as its initial pipeline.
    let mut exec = unsafe { Execution::new(&dev, &l, Bound::for_set(&set).unwrap(), 4, 0, 64 << 20) }.unwrap();
    // 1 + 2 invocations × 10 × 1000 + 100 + 2 invocations × 5 × 1000, and 1 + 2 + 1 + 2 invocations.
    let totals = rig.run(&ctx, &dev, &l, &mut exec, &stream);
    assert_eq!(totals[..2], [30_101, 6], "each sequence ran the pipeline of the entry it selects");

    // SAFETY: the submission finished (`one_shot` waits); all made on this device.
    unsafe {
        exec.destroy(&dev);
        set.destroy(&dev);
        l.destroy(&dev);
        ctx.device().destroy_pipeline(once, None);
        ctx.device().destroy_pipeline(thousand, None);
    }
    rig.destroy(&ctx);
    if common::validation_required() {
        let log = ctx.layer_log().expect("DGCC_VALIDATION=1 installs the runtime's messenger");
        common::assert_no_layer_errors(test, log);
    }
}

#[test]
fn every_gpu_object_is_destroyed_explicitly_and_once() {
    // The lifetime rule: layouts, execution sets, executions and validators are destroyed by
    // their unsafe `destroy` (none has a destroying `Drop`), a second `destroy` is a no-op, and
    // under the layer (DGCC_VALIDATION=1) the `Gpu` guard fails the test on a leak
    // (VUID-vkDestroyDevice-device-05137) or a handle destroyed twice.
    use dgcc::runtime::ext_dgc::{IndirectCommandsLayoutEXT, IndirectExecutionSetEXT};
    use dgcc::runtime::validate::{StreamLimits, StreamValidator};
    let test = "every_gpu_object_is_destroyed_explicitly_and_once";
    let Some(ctx) = common::gpu(test) else { return };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let layout = layouts::accumulate(true, 20);
    let mut rig = Rig::new(&ctx, &layout, false);
    // SAFETY: the rig's pipeline layout holds the accumulate ranges; its pipeline was made with it.
    let mut l = unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    // SAFETY: as above.
    let mut exec = unsafe { Execution::new(&dev, &l, Bound::Pipeline(rig.pipeline), 3, 0, 64 << 20) }.unwrap();
    let attached = StreamValidator::new(&dev, &layout, StreamLimits::default(), &[]).unwrap();
    assert!(matches!(exec.set_validator(Some(attached)), Ok(None)));
    let mut alone = StreamValidator::new(&*ctx, &layout, StreamLimits::default(), &[]).unwrap();
    // Use them once, so that destroying follows real work that finished.
    let stream = rig.stream(3, None);
    ctx.one_shot(|cmd| {
        rig.bind(&ctx, cmd);
        // SAFETY: recording outside a render pass; everything lives until after the wait.
        unsafe {
            alone.record(ctx.device(), cmd, &stream)?;
            rig.bind(&ctx, cmd);
            exec.record(&dev, &l, cmd, &stream, &mut NoPass(|_, _| {}))
        }
    })
    .unwrap();
    assert_eq!(rig.totals(), [121, 4, 4]);
    assert!(alone.read_report().is_clean(), "{}", alone.read_report());
    assert!(exec.validator().is_some_and(|v| v.read_report().is_clean()));

    // An execution set, where the device has them for compute pipelines.
    let set_layout = accumulate_with_execution_set();
    let bindable = rig.bindable(&ctx, set_layout.stride / 4, 1);
    // SAFETY: as for `l`.
    let set_dgc = unsafe { dev.create_layout(&set_layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) };
    let mut set_parts = match set_dgc {
        Ok(sl) => {
            // SAFETY: `bindable` is an indirect-bindable compute pipeline of the layout's stages.
            let set = unsafe { dev.create_execution_set(&sl, bindable) }.unwrap();
            assert_eq!(set.max_entries(), 2);
            // SAFETY: the same pipeline again; nothing uses the set yet. NVIDIA's driver runs a
            // compute pipeline from only one of two entries, so there the runtime refuses it.
            let again = unsafe { dev.write_execution_set(&set, 1, bindable) };
            if dev.profile().is_vendor(dgcc::device::vendor::NVIDIA) {
                assert!(again.is_err_and(|e| e.to_string().contains("would hold the pipeline entry 0 holds")));
            } else {
                again.unwrap();
            }
            // SAFETY: as above; index 2 is refused before any Vulkan call.
            let past = unsafe { dev.write_execution_set(&set, 2, bindable) };
            assert!(past.is_err_and(|e| e.to_string().contains("past its 2 entries")));
            // Executes through a set are never chunked: a budget that fits only part of the
            // stream is refused, naming what the whole stream needs.
            let bound = Bound::ExecutionSet(set.handle(), bindable);
            // SAFETY: the set was made for `sl`, with `bindable` as its initial pipeline.
            let (one, _) = unsafe { dgcc::runtime::execute::requirements(&dev, &sl, bound, 1, 0) };
            let (many, _) = unsafe { dgcc::runtime::execute::requirements(&dev, &sl, bound, 4096, 0) };
            if many > 2 * one.max(1) {
                // SAFETY: as above; refused before anything is allocated.
                let chunked = unsafe { Execution::new(&dev, &sl, bound, 4096, 0, 2 * one.max(1)) };
                let e = chunked.err().map(|e| e.to_string()).unwrap_or_default();
                assert!(e.contains("are not chunked") && e.contains(&format!("needs {many} bytes")), "{e}");
            }
            Some((sl, set))
        }
        Err(e) => {
            common::loud(&format!("{test}: no execution set on this device: {e:?}"));
            None
        }
    };

    // SAFETY: the one submission finished (`one_shot` waits); each object was made by `dev` or
    // on the context's device.
    unsafe {
        exec.destroy(&dev);
        exec.destroy(&dev); // a second time: nothing left
        assert!(exec.validator().is_none(), "the execution destroyed the validator it held");
        alone.destroy(ctx.device());
        alone.destroy(ctx.device());
        l.destroy(&dev);
        assert_eq!(l.handle(), IndirectCommandsLayoutEXT::null());
        l.destroy(&dev);
        if let Some((sl, set)) = &mut set_parts {
            set.destroy(&dev);
            assert_eq!(set.handle(), IndirectExecutionSetEXT::null());
            set.destroy(&dev);
            sl.destroy(&dev);
        }
        ctx.device().destroy_pipeline(bindable, None);
    }
    rig.destroy(&ctx);
    if common::validation_required() {
        let log = ctx.layer_log().expect("DGCC_VALIDATION=1 installs the runtime's messenger");
        common::assert_no_layer_errors(test, log);
    }
}

#[test]
fn an_execution_refuses_a_validator_made_on_another_device() {
    // `record` binds the validator's pipeline into the execution's command buffer and
    // `destroy` frees its objects on the execution's device: one from another device would be
    // undefined behaviour through a safe call, so `set_validator` hands it back instead.
    use dgcc::runtime::validate::{StreamLimits, StreamValidator};
    let test = "an_execution_refuses_a_validator_made_on_another_device";
    let Some(ctx) = common::gpu(test) else { return };
    let Some(other) = common::gpu(test) else { return };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let layout = layouts::accumulate(true, 20);
    let rig = Rig::new(&ctx, &layout, false);
    // SAFETY: the rig's pipeline layout holds the accumulate ranges; its pipeline was made with it.
    let mut l = unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    // SAFETY: as above.
    let mut exec = unsafe { Execution::new(&dev, &l, Bound::Pipeline(rig.pipeline), 3, 0, 64 << 20) }.unwrap();
    let foreign = StreamValidator::new(&*other, &layout, StreamLimits::default(), &[]).unwrap();
    let mut foreign = match exec.set_validator(Some(foreign)) {
        Err(v) => *v,
        Ok(_) => panic!("a validator of another device was taken"),
    };
    assert!(exec.validator().is_none(), "the refused validator is not attached");
    let own = StreamValidator::new(&dev, &layout, StreamLimits::default(), &[]).unwrap();
    assert!(matches!(exec.set_validator(Some(own)), Ok(None)), "one of the same device is taken");
    let mut own = match exec.set_validator(None) {
        Ok(Some(v)) => v,
        _ => panic!("`None` hands back the attached validator"),
    };
    // SAFETY: nothing was submitted; each object goes on the device it was made on.
    unsafe {
        foreign.destroy(other.device());
        own.destroy(ctx.device());
        exec.destroy(&dev);
        l.destroy(&dev);
    }
    rig.destroy(&ctx);
}

#[test]
fn buffers_and_a_dgc_device_kept_past_their_context_keep_its_device_alive() {
    // Safe code may keep a buffer after the context that made it dropped. Its mapping must still
    // be mapped memory then: the buffer (and a `DgcDevice` made from the context) holds a share
    // in the device's life, and the device, its messenger and its instance go with the last
    // holder. Before, the context destroyed the device under the buffer, and `bytes()` read
    // memory that was no longer mapped.
    let test = "buffers_and_a_dgc_device_kept_past_their_context_keep_its_device_alive";
    let Some(gpu) = common::gpu(test) else { return };
    let log = gpu.layer_log().cloned();
    let device = gpu.device().clone();
    let dev = DgcDevice::from_context(&gpu).unwrap();
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    // Through the context itself (not the test's guard).
    let mut kept = Buffer::new(&*gpu as &GpuContext, 64, usage, Location::Host).unwrap();
    drop(gpu); // the context: its pool, after waiting for idle; the guard checks the layer's log

    // The device is still alive: the DgcDevice still makes buffers on it.
    let mut through_dev = Buffer::new(&dev, 64, usage, Location::Host).unwrap();
    kept.write(0, &[1, 2, 3, 4]).unwrap();
    through_dev.write(60, &[5, 6, 7, 8]).unwrap();
    assert_eq!(&kept.bytes().unwrap()[..4], &[1, 2, 3, 4]);
    assert_eq!(&through_dev.bytes().unwrap()[60..], &[5, 6, 7, 8]);

    // SAFETY: both were made on `device`, which their shares keep alive; no work uses them.
    unsafe {
        kept.destroy(&device);
        through_dev.destroy(&device);
    }
    assert!(kept.bytes().is_none(), "a destroyed buffer maps nothing");
    drop(dev); // the last holder: the device and instance are destroyed here, under the layer
    if let Some(log) = log {
        common::assert_no_layer_errors(test, &log);
    }
}

#[test]
fn images_and_buffers_the_device_cannot_make_are_refused_before_any_vulkan_call() {
    // `Image::new` and `Buffer::new` are safe, so what `vkCreateImage`, `vkCreateImageView` and
    // `vkCreateBuffer` require of their parameters is checked first, on the device itself.
    use dgcc::runtime::memory::Image;
    let test = "images_and_buffers_the_device_cannot_make_are_refused_before_any_vulkan_call";
    let Some(ctx) = common::gpu(test) else { return };
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let color = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
    let rgba = vk::Format::R8G8B8A8_UNORM;
    let refused = |allocator: &dyn dgcc::runtime::memory::Allocator,
                   format: vk::Format,
                   size: (u32, u32),
                   usage: vk::ImageUsageFlags,
                   aspect: vk::ImageAspectFlags,
                   why: &str| {
        match Image::new(allocator, format, size, usage, aspect) {
            Err(RuntimeError::Invalid(e)) => assert!(e.contains(why), "{format:?} {size:?}: {e}"),
            Err(e) => panic!("{format:?} {size:?}: refused by Vulkan, not before it: {e}"),
            Ok(mut image) => {
                // SAFETY: made on this device, never used.
                unsafe { image.destroy(ctx.device()) };
                panic!("{format:?} {size:?} {usage:?} {aspect:?} was made");
            }
        }
    };
    let max = ctx.properties().limits.max_image_dimension2_d;
    for allocator in [&*ctx as &dyn dgcc::runtime::memory::Allocator, &dev] {
        refused(allocator, rgba, (0, 16), color, vk::ImageAspectFlags::COLOR, "has no pixels");
        refused(allocator, rgba, (16, 16), vk::ImageUsageFlags::empty(), vk::ImageAspectFlags::COLOR, "no usage");
        refused(
            allocator,
            vk::Format::UNDEFINED,
            (16, 16),
            color,
            vk::ImageAspectFlags::COLOR,
            "not one a plain image",
        );
        refused(allocator, rgba, (16, 16), color, vk::ImageAspectFlags::DEPTH, "does not fit the format");
        let depth = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
        let both = vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL;
        refused(allocator, vk::Format::D32_SFLOAT_S8_UINT, (16, 16), depth, both, "does not fit the format");
        // No device renders into a block-compressed format.
        let bc1 = vk::Format::BC1_RGBA_UNORM_BLOCK;
        refused(allocator, bc1, (16, 16), color, vk::ImageAspectFlags::COLOR, "does not support it");
        refused(allocator, rgba, (max + 1, 16), color, vk::ImageAspectFlags::COLOR, "exceeds the device's");
        let mut made = Image::new(allocator, rgba, (16, 16), color, vk::ImageAspectFlags::COLOR).unwrap();
        // SAFETY: made on this device, never used.
        unsafe { made.destroy(ctx.device()) };
        let e = Buffer::new(allocator, 64, vk::BufferUsageFlags::ACCELERATION_STRUCTURE_STORAGE_KHR, Location::Host)
            .err()
            .expect("an extension's buffer usage is refused");
        assert!(e.to_string().contains("Vulkan 1.0's usages"), "{e}");
        // Past maxBufferSize: refused by that limit, or by the largest heap where it is smaller.
        let max = allocator.max_buffer_size().expect("the runtime's allocators know maxBufferSize");
        let e = Buffer::new(allocator, max + 4, vk::BufferUsageFlags::TRANSFER_DST, Location::Device)
            .err()
            .expect("a buffer past maxBufferSize is refused");
        let heap = allocator.memory_properties().memory_heaps.iter().map(|h| h.size).max().unwrap();
        let limit = if max + 4 > heap { "largest memory heap" } else { "maxBufferSize" };
        assert!(e.to_string().contains(limit), "{e}");
    }
}

/// Run in a child process whose output the parent captures, so its deliberate error stays out
/// of `.ci/with-validation.sh`'s stdout check.
#[test]
#[ignore = "run by the_runtimes_messenger_counts_what_the_layer_reports in a child process"]
fn child_push_with_too_few_stages() {
    let log = dgcc::runtime::LayerLog::new();
    let options = dgcc::runtime::ContextOptions { validation: Some(log.clone()), ..Default::default() };
    let ctx = GpuContext::new(&options).expect("a context under the layer");
    let ranges = [vk::PushConstantRange {
        stage_flags: vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
        offset: 0,
        size: 8,
    }];
    let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges);
    let pl = unsafe { ctx.device().create_pipeline_layout(&info, None) }.unwrap();
    // The scene's old mistake: VERTEX only, while the range is VERTEX | FRAGMENT.
    ctx.one_shot(|cmd| {
        unsafe { ctx.device().cmd_push_constants(cmd, pl, vk::ShaderStageFlags::VERTEX, 0, &[0; 8]) };
        Ok(())
    })
    .unwrap();
    unsafe { ctx.device().destroy_pipeline_layout(pl, None) };
    let ids: Vec<String> = log.errors().into_iter().map(|m| m.id).collect();
    assert!(ids.iter().any(|id| id == "VUID-vkCmdPushConstants-offset-01796"), "{ids:?}");
    // And the same push through the runtime's helper is clean.
    log.take();
    let pl = unsafe { ctx.device().create_pipeline_layout(&info, None) }.unwrap();
    let ranges = [dgcc::ir::PushConstantRange { stages: 0x11, offset: 0, size: 8 }];
    let pieces = dgcc::runtime::push::push_pieces(&ranges, 0, 8).unwrap();
    ctx.one_shot(|cmd| {
        unsafe { dgcc::runtime::push::push(ctx.device(), cmd, pl, &pieces, 0, &[0; 8]) };
        Ok(())
    })
    .unwrap();
    unsafe { ctx.device().destroy_pipeline_layout(pl, None) };
    drop(ctx);
    assert_eq!(log.error_count(), 0, "{}", log.describe_errors());
    println!("the runtime's messenger saw {}", ids.join(", "));
}

#[test]
fn the_runtimes_messenger_counts_what_the_layer_reports() {
    if !common::validation_required() {
        common::loud("SKIP the_runtimes_messenger_counts_what_the_layer_reports: needs the layer (run through .ci/with-validation.sh)");
        return;
    }
    let (status, text) = common::run_child("child_push_with_too_few_stages", &[]);
    assert!(status.success(), "{text}");
    assert!(
        text.contains("the runtime's messenger saw VUID-vkCmdPushConstants-offset-01796"),
        "the child did not run:\n{text}"
    );
}

/// The push-constant warm-up (`warm_up.rs`, issue 14) is a valid pipeline and a valid bind:
/// every context submitted it at creation (under the layer here when `DGCC_VALIDATION=1`, and
/// the guard fails on any error it reported), and an engine records it itself in a command
/// buffer of its own.
#[test]
fn the_warm_up_is_clean_where_the_context_submits_it_and_where_an_engine_records_it() {
    let test = "the_warm_up_is_clean_where_the_context_submits_it_and_where_an_engine_records_it";
    let options = dgcc::runtime::ContextOptions { enable_dgc: false, ..Default::default() };
    assert!(options.warm_up, "contexts warm up unless told not to");
    let Some(gpu) = common::gpu_with(test, &options) else { return };
    // SAFETY: the context's live device has dynamic rendering (the runtime requires it).
    let mut warm = unsafe { dgcc::runtime::WarmUp::new(gpu.device()) }.expect("the warm-up pipeline");
    gpu.one_shot(|cmd| {
        // SAFETY: recording on the context's device; `one_shot` waits before the destroy.
        unsafe { warm.record(gpu.device(), cmd) };
        Ok(())
    })
    .expect("the warm-up submission");
    // SAFETY: the submission finished; a second destroy does nothing.
    unsafe {
        warm.destroy(gpu.device());
        warm.destroy(gpu.device());
    }
    assert_eq!(warm.pipeline(), vk::Pipeline::null());
}

#[test]
fn a_buffer_set_binds_uniform_and_storage_buffers_and_refuses_other_types() {
    // The scene reads its frame through a uniform buffer beside its storage buffers; under the
    // layer (DGCC_VALIDATION=1) the `Gpu` guard fails the test on any message about the set.
    let test = "a_buffer_set_binds_uniform_and_storage_buffers_and_refuses_other_types";
    let Some(ctx) = common::gpu(test) else { return };
    let mut uniform = Buffer::new(&ctx, 64, vk::BufferUsageFlags::UNIFORM_BUFFER, Location::Host).unwrap();
    let mut storage = Buffer::new(&ctx, 64, vk::BufferUsageFlags::STORAGE_BUFFER, Location::Host).unwrap();
    let stages = vk::ShaderStageFlags::COMPUTE;
    let bindings = [
        (vk::DescriptorType::STORAGE_BUFFER, storage.buffer()),
        (vk::DescriptorType::UNIFORM_BUFFER, uniform.buffer()),
        (vk::DescriptorType::STORAGE_BUFFER, storage.buffer()),
    ];
    // SAFETY: live buffers of this device with the usage of their binding's type, destroyed after
    // the set.
    let mut set = unsafe { StorageSet::with_types(ctx.device(), stages, &bindings) }.unwrap();
    assert_ne!(set.set(), vk::DescriptorSet::null());
    // SAFETY: the set was made above on this device; nothing used it.
    unsafe { set.destroy(ctx.device()) };
    let image =
        [(vk::DescriptorType::STORAGE_BUFFER, storage.buffer()), (vk::DescriptorType::STORAGE_IMAGE, storage.buffer())];
    // SAFETY: refused before any Vulkan call.
    let e = unsafe { StorageSet::with_types(ctx.device(), stages, &image) }.err().expect("refused").to_string();
    assert!(e.contains("binding 1") && e.contains("STORAGE_IMAGE"), "{e}");
    // SAFETY: no work was submitted.
    unsafe {
        uniform.destroy(ctx.device());
        storage.destroy(ctx.device());
    }
}

#[test]
fn a_validator_made_for_another_layout_is_refused_before_recording() {
    // The validation kernel reads `max_sequences` records at its own layout's stride: one made
    // for a 32-byte layout, handed to an execution of a 16-byte one, would read past the stream.
    let test = "a_validator_made_for_another_layout_is_refused_before_recording";
    let Some(ctx) = common::gpu(test) else { return };
    let layout = layouts::accumulate(false, 16);
    let mut wider = layouts::accumulate(false, 32);
    wider.name = "Wider".into();
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let mut rig = Rig::new(&ctx, &layout, false);
    // SAFETY: the rig's pipeline layout holds the accumulate ranges; its pipeline was made with it.
    let mut l = unsafe { dev.create_layout(&layout, &layouts::accumulate_push_ranges(), rig.pipeline_layout) }.unwrap();
    // SAFETY: as above.
    let mut exec = unsafe { Execution::new(&dev, &l, Bound::Pipeline(rig.pipeline), 3, 0, 1 << 30) }.unwrap();
    let limits = dgcc::runtime::validate::StreamLimits::default();
    let validator = dgcc::runtime::validate::StreamValidator::new(&ctx, &wider, limits, &[]).unwrap();
    assert!(matches!(exec.set_validator(Some(validator)), Ok(None)));
    let stream = rig.stream(3, None);
    let mut recorded = None;
    ctx.one_shot(|cmd| {
        // SAFETY: as above; refused before any command is recorded.
        recorded = Some(unsafe { exec.record(&dev, &l, cmd, &stream, &mut NoPass(|_, _| {})) });
        Ok(())
    })
    .unwrap();
    let e = recorded.unwrap().expect_err("a validator of another layout must be refused").to_string();
    assert!(e.contains("validator") && e.contains(&wider.name), "{e}");
    assert_eq!(rig.totals(), [0, 0, 0], "nothing ran");
    // A write whose end overflows is refused, not a panic.
    let e = rig.totals.write(usize::MAX, &[1]).expect_err("past the end").to_string();
    assert!(e.contains("past the end"), "{e}");
    // SAFETY: the submission finished; the execution destroys the validator it holds.
    unsafe {
        exec.destroy(&dev);
        l.destroy(&dev);
    }
    rig.destroy(&ctx);
}

#[test]
fn a_layout_that_is_never_chunked_is_refused_where_the_draw_bound_would_split_it() {
    // maxDrawCount × maxSequenceCount < 2^24 (VUID-VkGeneratedCommandsInfoEXT-maxDrawCount-11078):
    // with maxDrawCount 300,000 one execute holds 55 sequences, so 64 would be chunked, and a
    // SEQUENCE_INDEX layout never is. Refused before any query, naming the maxDrawCount that
    // fits; a maxDrawCount of 2^24 fits no sequence at all.
    let test = "a_layout_that_is_never_chunked_is_refused_where_the_draw_bound_would_split_it";
    let Some(ctx) = common::gpu(test) else { return };
    let text = r#"Pipeline(name: "bound", targets: ["lavapipe"], push_constants: [(stages: [Vertex], offset: 0, size: 4)],
        layouts: [(name: "Counted", stages: [Vertex, Fragment], max_sequences: 64, align: Some(4), tokens: [
            SequenceIndex(name: "index", stages: [Vertex], offset: 0),
            DrawIndexedCount(name: "draws"),
        ])])"#;
    let c = dgcc::driver::compile_source(std::path::Path::new("bound.ron"), text, &Default::default());
    let m = c.manifest.unwrap_or_else(|| panic!("{:?}", c.diagnostics));
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let ranges = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::VERTEX, offset: 0, size: 4 }];
    let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges);
    // SAFETY: valid create info; destroyed below.
    let pl = unsafe { ctx.device().create_pipeline_layout(&info, None) }.unwrap();
    // SAFETY: `pl` holds the range the sequence index updates and outlives the layout.
    let mut l = unsafe { dev.create_layout(&m.layouts[0], &m.push_constants, pl) }.unwrap();
    // A live graphics pipeline to name; both refusals come before anything uses it.
    // SAFETY: the context's device, with dynamic rendering.
    let mut warm = unsafe { dgcc::runtime::WarmUp::new(ctx.device()) }.unwrap();
    for (draws, want) in [(300_000, "at most 55 of its 64 sequences"), (1 << 24, "leaves no sequence")] {
        // SAFETY: refused before any Vulkan call that would use the pipeline.
        let e = unsafe { Execution::new(&dev, &l, Bound::Pipeline(warm.pipeline()), 64, draws, 1 << 30) }
            .err()
            .unwrap_or_else(|| panic!("maxDrawCount {draws} must be refused"))
            .to_string();
        assert!(e.contains(want) && e.contains("11078"), "{draws}: {e}");
        assert!(draws != 300_000 || e.contains("a maxDrawCount of at most 262143"), "{e}");
    }
    // SAFETY: nothing was recorded with any of them.
    unsafe {
        warm.destroy(ctx.device());
        l.destroy(&dev);
        ctx.device().destroy_pipeline_layout(pl, None);
    }
}

/// Contexts made and dropped on four threads at once, each with a probe beside it and each on a
/// thread of its own that ends with it, as the runtime test binaries do when `cargo test` runs
/// their tests in parallel. Under that the binaries crashed at thread exit or deadlocked on
/// NVIDIA's driver 580.159.04 (book: robustness.md), so the runtime keeps the loader and one
/// bare instance for the life of the process and makes and destroys instances and devices under
/// one lock (`crates/runtime/src/loader.rs`); here every thread must finish and see its device.
#[test]
fn contexts_made_and_dropped_on_four_threads_at_once_each_see_their_device() {
    let test = "contexts_made_and_dropped_on_four_threads_at_once_each_see_their_device";
    let Some(first) = common::gpu_with(test, &dgcc::runtime::ContextOptions::default()) else { return };
    let name = first.device_name().to_string();
    drop(first);
    let start = std::sync::Barrier::new(4);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                start.wait();
                for _ in 0..5 {
                    std::thread::scope(|round| {
                        round.spawn(|| {
                            let options = dgcc::runtime::ContextOptions::default();
                            let ctx = common::gpu_with(test, &options).expect("a device");
                            let probe = dgcc::runtime::probe().expect("the device probes");
                            assert_eq!(ctx.device_name(), name);
                            assert_eq!(probe.device_name, name);
                        });
                    });
                }
            });
        }
    });
}

/// The shared objects mapped into this process (`/proc/self/maps`).
fn mapped_libraries() -> std::collections::BTreeSet<String> {
    let maps = std::fs::read_to_string("/proc/self/maps").expect("/proc/self/maps");
    maps.lines().filter_map(|l| l.split_whitespace().nth(5)).filter(|p| p.contains(".so")).map(String::from).collect()
}

/// Once the last context is gone, the driver (and what the loader loaded with it: implicit
/// layers, their libraries) is still loaded: NVIDIA's driver frees a thread's state at thread
/// exit through code in those libraries, and crashed when they were unloaded first (book:
/// robustness.md). In a child process, so that no other test's context holds them.
#[test]
fn what_the_first_context_loads_stays_loaded_after_the_last_is_dropped() {
    let test = "what_the_first_context_loads_stays_loaded_after_the_last_is_dropped";
    if common::gpu_with(test, &dgcc::runtime::ContextOptions::default()).is_none() {
        return;
    }
    let (status, text) = common::run_child("child_drop_every_context_and_list_what_was_unloaded", &[]);
    assert!(status.success(), "{text}");
    assert!(text.contains("unloaded none of the"), "the child did not run:\n{text}");
}

#[test]
#[ignore = "run by what_the_first_context_loads_stays_loaded_after_the_last_is_dropped in a child process"]
fn child_drop_every_context_and_list_what_was_unloaded() {
    let test = "child_drop_every_context_and_list_what_was_unloaded";
    let before = mapped_libraries();
    let ctx = common::gpu_with(test, &dgcc::runtime::ContextOptions::default()).expect("a device");
    dgcc::runtime::probe().expect("the device probes");
    let live = mapped_libraries();
    drop(ctx);
    let after = mapped_libraries();
    let loaded: Vec<_> = live.difference(&before).collect();
    let unloaded: Vec<_> = live.difference(&after).collect();
    assert!(!loaded.is_empty(), "a context loaded no library: {live:?}");
    assert!(unloaded.is_empty(), "unloaded when the last context dropped: {unloaded:?}");
    common::loud(&format!("unloaded none of the {} libraries the first context loaded", loaded.len()));
}
