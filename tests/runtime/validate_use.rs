//! Stream validation where it is used: the executor's option and `dgcc run --validate-stream`.

use super::{common, device, found, rig};
use dgcc::runtime::validate::{Check, StreamLimits};
use rig::Rig;

#[test]
fn the_executor_validates_before_executing_and_still_runs_the_stream() {
    use ash::vk;
    use dgcc::runtime::descriptors::StorageSet;
    use dgcc::runtime::memory::{Buffer, Location};
    use dgcc::runtime::shaders::compute_pipeline;
    use dgcc::runtime::validate::StreamValidator;
    use dgcc::runtime::{Bound, DgcDevice, Execution, NoPass};
    let Some(ctx) = common::gpu("the_executor_validates_before_executing_and_still_runs_the_stream") else {
        return;
    };
    let layout = rig::dispatch();
    let mut rig = Rig::new(&ctx, layout.stride);
    let mut totals = Buffer::new(&ctx, 12, vk::BufferUsageFlags::STORAGE_BUFFER, Location::Host).unwrap();
    totals.write(0, &[0; 12]).unwrap();
    let d = ctx.device();
    // SAFETY: live storage buffers, destroyed after the set.
    let mut set =
        unsafe { StorageSet::new(d, vk::ShaderStageFlags::COMPUTE, &[totals.buffer(), rig.stream.buffer()]) }.unwrap();
    let ranges = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: 8 }];
    let set_layouts = [set.layout()];
    let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts).push_constant_ranges(&ranges);
    let pipeline_layout = unsafe { d.create_pipeline_layout(&info, None) }.unwrap();
    let spv = include_bytes!("../../shaders/runtime/spv/test_accumulate.comp.spv");
    // SAFETY: the committed kernel for this layout.
    let pipeline =
        unsafe { compute_pipeline(d, pipeline_layout, spv, &[(0, 0), (1, layout.stride / 4)], None) }.unwrap();
    let dev = DgcDevice::from_context(&ctx).unwrap();
    let push = [dgcc::ir::PushConstantRange { stages: rig::COMPUTE, offset: 0, size: 8 }];
    // SAFETY: `pipeline_layout` holds `push`; `pipeline` was made with it.
    let mut l = unsafe { dev.create_layout(&layout, &push, pipeline_layout) }.unwrap();
    // SAFETY: as above.
    let mut exec = unsafe { Execution::new(&dev, &l, Bound::Pipeline(pipeline), 3, 0, 64 << 20) }.unwrap();
    // The engine states one workgroup per dimension; sequence 1 asks for two.
    let limits = StreamLimits { max_workgroup_count: Some([1, 1, 1]), ..Default::default() };
    let validator = StreamValidator::new(&dev, &layout, limits, &[]).unwrap();
    assert!(matches!(exec.set_validator(Some(validator)), Ok(None)));
    let stream = rig.stream(&[vec![1, 1, 1, 1], vec![10, 2, 1, 1], vec![100, 1, 1, 1]], layout.stride, Some(3));
    ctx.one_shot(|cmd| unsafe {
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
        d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, pipeline_layout, 0, &[set.set()], &[]);
        exec.record(&dev, &l, cmd, &stream, &mut NoPass(|_, _| {}))
    })
    .unwrap();
    let report = exec.validator().unwrap().read_report();
    assert_eq!(found(&report), vec![(Some(1), Some("groups"), Check::GroupsX)], "{report}");
    let t = totals.bytes().unwrap();
    let word = |i: usize| u32::from_le_bytes(t[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!((word(0), word(1)), (121, 4), "the stream ran with the engine's pipeline after validation");
    unsafe {
        d.device_wait_idle().unwrap();
        exec.destroy(&dev);
        l.destroy(&dev);
        d.destroy_pipeline(pipeline, None);
        d.destroy_pipeline_layout(pipeline_layout, None);
        set.destroy(d);
        totals.destroy(d);
    }
    rig.destroy(&ctx);
}

#[test]
fn the_scene_validates_a_clean_stream_every_frame_in_both_gpu_modes() {
    use dgcc_cli::scene::{builtin_manifest, run, Mode, RunOptions};
    if device("the_scene_validates_a_clean_stream_every_frame_in_both_gpu_modes").is_none() {
        return;
    }
    for mode in [Mode::Dgc, Mode::Mdi] {
        let options = RunOptions { mode, objects: 1500, frames: 2, validate_stream: true, ..RunOptions::default() };
        let report = match run(&builtin_manifest(), &options) {
            Ok(r) => r,
            Err(e @ dgcc::runtime::RuntimeError::MissingFeature { .. }) if !common::require_vulkan() => {
                common::loud(&format!("SKIP the scene in {} mode: {e}", mode.name()));
                continue;
            }
            Err(e) => panic!("{} run failed: {e}", mode.name()),
        };
        assert_eq!(report.stream_validation.len(), 2, "one report per frame");
        for (frame, v) in report.frames.iter().zip(&report.stream_validation) {
            assert!(v.is_clean(), "{v}");
            assert_eq!((v.sequences_checked, v.stored_count), (frame.visible, Some(frame.visible)));
            assert!(frame.visible > 100);
        }
        assert!(report.stream_is_clean());
        assert!(report.to_string().contains("stream validation: clean, 2 frame(s)"), "{report}");
        assert!(serde_json::to_value(&report).unwrap()["stream_validation"][1]["total"] == 0);
    }
    // The validator is not run unless asked, and is refused where there is no GPU stream.
    let plain = run(&builtin_manifest(), &RunOptions { objects: 100, frames: 1, ..RunOptions::default() }).unwrap();
    assert!(plain.stream_validation.is_empty() && !plain.to_string().contains("stream validation"));
    assert!(serde_json::to_value(&plain).unwrap().get("stream_validation").is_none());
    let cpu = RunOptions { mode: Mode::Cpu, validate_stream: true, ..RunOptions::default() };
    assert!(run(&builtin_manifest(), &cpu).unwrap_err().to_string().contains("--mode cpu"));
}

#[test]
fn dgcc_run_validate_stream_prints_a_clean_line() {
    if device("dgcc_run_validate_stream_prints_a_clean_line").is_none() {
        return;
    }
    // DGCC_BIN / DGCC_REPO: the binary and the checkout, when this test runs away from its
    // build tree (another machine).
    let bin = std::env::var("DGCC_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_dgcc").to_owned());
    let repo = std::env::var("DGCC_REPO").unwrap_or_else(|_| env!("DGCC_CHECKOUT").to_owned());
    let out = std::process::Command::new(bin)
        .current_dir(repo)
        .args(["run", "examples/scene.ron", "--objects", "500", "--validate-stream"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let line = stdout
        .lines()
        .find(|l| l.starts_with("stream validation:"))
        .unwrap_or_else(|| panic!("no validation line in\n{stdout}"));
    assert!(line.starts_with("stream validation: clean, 3 frame(s), "), "{line}");
}

#[test]
fn a_stream_longer_than_one_dispatch_is_checked_to_its_last_record() {
    use dgcc::runtime::execute::Stream;
    use dgcc::runtime::memory::{Buffer, Location};
    use dgcc::runtime::validate::StreamValidator;
    let Some(ctx) = device("a_stream_longer_than_one_dispatch_is_checked_to_its_last_record") else { return };
    let layout = rig::dispatch();
    // 65535 workgroups of 64 invocations cover 4194240 sequences; the kernel loops past that.
    let n: u32 = 65_535 * 64 + 1000;
    let usage = ash::vk::BufferUsageFlags::STORAGE_BUFFER;
    let mut stream = Buffer::new(&ctx, n as u64 * layout.stride as u64, usage, Location::Host).unwrap();
    let bytes = stream.bytes_mut().unwrap();
    bytes.fill(0);
    for s in [7u64, 65_535 * 64 + 3, n as u64 - 1] {
        let at = (s * layout.stride as u64 + 4) as usize;
        bytes[at..at + 4].copy_from_slice(&9u32.to_le_bytes());
    }
    let limits = StreamLimits { max_workgroup_count: Some([8, 8, 8]), ..Default::default() };
    let mut v = StreamValidator::new(&ctx, &layout, limits, &[]).unwrap();
    let s = Stream { buffer: stream.buffer(), offset: 0, address: stream.address(), max_sequences: n, count: None };
    ctx.one_shot(|cmd| unsafe { v.record(ctx.device(), cmd, &s) }).unwrap();
    let report = v.read_report();
    let sequences: Vec<Option<u32>> = report.violations.iter().map(|v| v.sequence).collect();
    assert_eq!(sequences, vec![Some(7), Some(65_535 * 64 + 3), Some(n - 1)], "{report}");
    assert_eq!(report.sequences_checked, n);
    unsafe {
        v.destroy(ctx.device());
        stream.destroy(ctx.device());
    }
}
