//! The probe's graphics shapes: a draw layout of `draws.ron` executed through an execution set
//! of graphics pipelines, one Vulkan call at a time, with the compute shapes' entry options
//! (`--entries`, `--fill`, `--select`, `--rewrite-zero`, `--bind`, `--sequences`).
//!
//! Why: on an H100 (NVIDIA 580.159.04, 2026-12-05) a compute pipeline written into two entries
//! ran only from the entry written last, and a pipeline set with an entry never written crashed
//! the driver; graphics sets were not measured then, so the runtime's refusal was kept to
//! compute. These shapes measure the same two cases with draws. On the same driver (H100,
//! 2026-12-05 22:40 UTC) every one of them drew each sequence with the pipeline it selected
//! (book/src/measured/h100-execution-sets.md), so the refusal stays with compute.
//!
//! The tally is `dgcc run --layout`'s: `draw_object.vert` and `draw_tally.frag` into a 1×1
//! target. Each sequence draws one triangle covering the pixel; its push constant gives the
//! tally slot (its index) and a value (index + 1) summed in w, and the pipeline in entry `i`'s
//! own place adds its `ENTRY_WEIGHT` of 100·i. So the counters read back say, per sequence,
//! whether it drew once and with which pipeline.

use super::{step, Args, EntryPlan};
use ash::vk;
use dgcc_core::ir::{CompiledLayout, Manifest, TokenType};
use dgcc_runtime::descriptors::StorageSet;
use dgcc_runtime::error::{Result, RuntimeError};
use dgcc_runtime::ext_dgc as x;
use dgcc_runtime::memory::{as_bytes, Buffer, Image, Location};
use dgcc_runtime::shaders::{module, Spec};
use dgcc_runtime::{DgcDevice, GpuContext};

const VERT_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_object.vert.spv");
const FRAG_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_tally.frag.spv");
const COLOR: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// Tally slots (`TALLY_SLOTS` of draw_tally.glsl): one sequence each.
const SLOTS: u32 = 16;
/// The tally buffer: out-of-range fragments, then fragments, y, z and w sums per slot.
const TALLY_WORDS: usize = 1 + 4 * SLOTS as usize;

/// The weight the pipeline made for entry `i` adds per fragment.
fn weight(i: u32) -> u32 {
    100 * i
}

pub fn run(
    args: &Args,
    ctx: &GpuContext,
    dev: &DgcDevice,
    manifest: &Manifest,
    layout: &CompiledLayout,
) -> Result<bool> {
    let ext = ctx.dgc().ok_or_else(|| RuntimeError::Invalid("no VK_EXT_device_generated_commands".into()))?;
    let d = ctx.device();
    if args.sequences == 0 || args.sequences > SLOTS {
        return Err(RuntimeError::Invalid(format!("draw shapes take 1 to {SLOTS} sequences, one tally slot each")));
    }
    let compute_only = [
        (args.count, "--count"),
        (args.chain_pipeline, "--chain-pipeline"),
        (args.separate_preprocess, "--separate-preprocess"),
        (args.empty_dispatch, "--empty-dispatch"),
    ];
    if let Some((_, flag)) = compute_only.iter().find(|(given, _)| *given) {
        return Err(RuntimeError::Invalid(format!("{flag} is for the compute shapes; `{}` draws", layout.name)));
    }
    let n = args.sequences;
    let set_token = layout.execution_set().copied();
    let entries = set_token.map_or(1, |s| args.entries.clamp(1, s.max_entries));
    let max_entries = set_token.map_or(1, |s| s.max_entries);
    let EntryPlan { holds, select, order } = EntryPlan::new(args, max_entries, entries)?;
    let (records, expected) = records(layout, n, &select, &holds)?;

    let usage = vk::BufferUsageFlags::STORAGE_BUFFER
        | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS
        | vk::BufferUsageFlags::INDIRECT_BUFFER;
    let mut tally = Buffer::new(ctx, 4 * TALLY_WORDS as u64, usage, Location::Host)?;
    tally.write(0, &[0; 4 * TALLY_WORDS])?;
    let mut stream = Buffer::new(ctx, records.len() as u64, usage, Location::Host)?;
    stream.write(0, &records)?;
    // SAFETY: a live storage buffer, bound whole.
    let mut set = unsafe { StorageSet::new(d, vk::ShaderStageFlags::FRAGMENT, &[tally.buffer()]) }?;
    let (pl, _) = super::pipeline_layout(d, set.layout(), vk::ShaderStageFlags::VERTEX)?;

    step("vkCreateIndirectCommandsLayoutEXT");
    // SAFETY: `pl` holds the layout's push range.
    let mut l = unsafe { dev.create_layout(layout, &manifest.push_constants, pl) }?;
    let mut pipelines = vec![];
    for i in 0..entries {
        step(&format!("create entry {i}"));
        // SAFETY: `pl` covers the shaders' set and push block.
        pipelines.push(unsafe { graphics_pipeline(d, pl, weight(i), set_token.is_some()) }?);
    }
    // The set, made and written with the extension's own calls (see main.rs).
    let mut ies = x::IndirectExecutionSetEXT::null();
    if let Some(token) = set_token {
        step("vkCreateIndirectExecutionSetEXT");
        let info = x::IndirectExecutionSetPipelineInfoEXT {
            initial_pipeline: pipelines[0],
            max_pipeline_count: token.max_entries,
            ..Default::default()
        };
        // SAFETY: an indirect-bindable graphics pipeline of `pl`, alive until the set is gone.
        ies =
            unsafe { ext.create_indirect_execution_set(&x::IndirectExecutionSetCreateInfoEXT::pipelines(&info), None) }
                .map_err(RuntimeError::vk("vkCreateIndirectExecutionSetEXT"))?;
        for &slot in &order {
            step(&format!("vkUpdateIndirectExecutionSetPipelineEXT entry {slot}"));
            let i = holds[slot as usize].unwrap_or(0) as usize;
            let write = [x::WriteIndirectExecutionSetPipelineEXT::new(slot, pipelines[i])];
            // SAFETY: as above; nothing uses the set yet; `slot` is below its entries.
            unsafe { ext.update_indirect_execution_set_pipeline(ies, &write) };
        }
    }
    let has_set = set_token.is_some();
    let initial = pipelines[0];
    let pipeline_info = x::GeneratedCommandsPipelineInfoEXT::new(initial);
    // Without a set the execute names its pipeline; with one the set does.
    let next = if has_set { std::ptr::null() } else { &pipeline_info as *const _ as *const std::ffi::c_void };
    let (mut preprocess, info) = super::generated_commands(dev, ext, layout, &l, ies, stream.address(), n, 0, next)?;

    let mut target =
        Image::new(ctx, COLOR, (1, 1), vk::ImageUsageFlags::COLOR_ATTACHMENT, vk::ImageAspectFlags::COLOR)?;
    let graphics = vk::PipelineBindPoint::GRAPHICS;
    let bind = |cmd: vk::CommandBuffer| {
        // SAFETY: recording; everything named is alive until the wait.
        unsafe {
            match args.bind.as_str() {
                "initial" => d.cmd_bind_pipeline(cmd, graphics, initial),
                "other" => d.cmd_bind_pipeline(cmd, graphics, pipelines[1 % pipelines.len()]),
                _ => {}
            }
            d.cmd_bind_descriptor_sets(cmd, graphics, pl, 0, &[set.set()], &[]);
            d.cmd_push_constants(cmd, pl, vk::ShaderStageFlags::VERTEX, 0, &[0; 8]);
        }
    };
    let explicit = l.explicit_preprocess();
    ctx.one_shot(|cmd| {
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: 1,
        };
        let to_attachment = [vk::ImageMemoryBarrier2::default()
            .dst_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
            .dst_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .image(target.image())
            .subresource_range(range)];
        let preprocessed = [vk::MemoryBarrier2::default()
            .src_stage_mask(x::bits::PIPELINE_STAGE_2_COMMAND_PREPROCESS_EXT)
            .src_access_mask(x::bits::ACCESS_2_COMMAND_PREPROCESS_WRITE_EXT)
            .dst_stage_mask(vk::PipelineStageFlags2::DRAW_INDIRECT)
            .dst_access_mask(vk::AccessFlags2::INDIRECT_COMMAND_READ)];
        let to_host = [vk::MemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
            .src_access_mask(vk::AccessFlags2::MEMORY_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::HOST)
            .dst_access_mask(vk::AccessFlags2::HOST_READ)];
        let colors = [vk::RenderingAttachmentInfo::default()
            .image_view(target.view())
            .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)];
        let area = vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: 1, height: 1 } };
        let rendering = vk::RenderingInfo::default().render_area(area).layer_count(1).color_attachments(&colors);
        // SAFETY: recording on `d`; every handle is alive until the wait; the preprocess is
        // recorded outside the rendering, the execute inside it.
        unsafe {
            d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&to_attachment));
            bind(cmd);
            if explicit {
                step("vkCmdPreprocessGeneratedCommandsEXT");
                ext.cmd_preprocess_generated_commands(cmd, &info, cmd);
                d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&preprocessed));
            }
            d.cmd_begin_rendering(cmd, &rendering);
            step("vkCmdExecuteGeneratedCommandsEXT");
            ext.cmd_execute_generated_commands(cmd, explicit, &info);
            d.cmd_end_rendering(cmd);
            d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&to_host));
        }
        step("vkEndCommandBuffer + vkQueueSubmit + wait");
        Ok(())
    })?;
    step("finished");
    let got: Vec<u32> = tally
        .bytes()
        .map(|b| b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
        .unwrap_or_default();
    let right = got == expected;
    if !right {
        for (k, &entry) in (0..n).zip(select.iter().cycle()) {
            let at = |array: usize| got.get(1 + array * SLOTS as usize + k as usize).copied().unwrap_or(0);
            println!(
                "sequence {k} (entry {entry}): {} fragment(s), w {} (expected 1 and {})",
                at(0),
                at(3),
                expected[1 + 3 * SLOTS as usize + k as usize]
            );
        }
    }
    println!("tally {}", if right { "as expected" } else { "differs" });

    // SAFETY: every submission finished; all made on this device.
    unsafe {
        let _ = d.device_wait_idle();
        if let Some(b) = &mut preprocess {
            b.destroy(d);
        }
        if has_set {
            ext.destroy_indirect_execution_set(ies, None);
        }
        l.destroy(dev);
        for p in pipelines {
            d.destroy_pipeline(p, None);
        }
        target.destroy(d);
        d.destroy_pipeline_layout(pl, None);
        set.destroy(d);
        tally.destroy(d);
        stream.destroy(d);
    }
    Ok(right)
}

/// The stream (sequence `k` selects entry `select[k % len]`, pushes slot `k` and value `k + 1`
/// and draws one covering triangle) and the tally it should leave, with `holds[e]` the
/// pipeline in entry `e` (an unwritten entry counts as the initial pipeline's).
fn records(layout: &CompiledLayout, n: u32, select: &[u32], holds: &[Option<u32>]) -> Result<(Vec<u8>, Vec<u32>)> {
    let stride = layout.stride as usize;
    let mut bytes = vec![0u8; stride * n as usize];
    let mut expected = vec![0u32; TALLY_WORDS];
    for k in 0..n {
        let record = &mut bytes[k as usize * stride..][..stride];
        let entry = select[k as usize % select.len()];
        let mut put = |offset: u32, words: &[u32]| {
            record[offset as usize..][..4 * words.len()].copy_from_slice(as_bytes(words));
        };
        for t in &layout.tokens {
            match t.token_type {
                TokenType::ExecutionSet => put(t.offset, &[entry]),
                TokenType::PushConstant if t.size == 8 => put(t.offset, &[k, k + 1]),
                TokenType::Draw => put(t.offset, &[3, 1, 0, 0]),
                other => {
                    return Err(RuntimeError::Invalid(format!(
                        "the draw shapes write an execution set, an 8-byte push constant and a draw, not {other:?} of {} bytes",
                        t.size
                    )))
                }
            }
        }
        let pipeline = if layout.execution_set().is_some() { holds[entry as usize].unwrap_or(0) } else { 0 };
        let slot = k as usize;
        expected[1 + slot] = 1;
        expected[1 + 3 * SLOTS as usize + slot] = k + 1 + weight(pipeline);
    }
    Ok((bytes, expected))
}

/// A graphics pipeline for the 1×1 target: `draw_object.vert`, and `draw_tally.frag` adding
/// `weight` per fragment; `indirect_bindable` for an execution set.
///
/// # Safety
/// `layout` is a live layout of `d` with the tally's storage-buffer set (fragment stage) and an
/// 8-byte vertex push-constant range; with `indirect_bindable`, `d` has
/// `VK_EXT_device_generated_commands` and `VK_KHR_maintenance5` enabled.
unsafe fn graphics_pipeline(
    d: &ash::Device,
    layout: vk::PipelineLayout,
    weight: u32,
    indirect_bindable: bool,
) -> Result<vk::Pipeline> {
    // SAFETY: the embedded SPIR-V is valid (shaders/runtime/build.sh).
    let vert = unsafe { module(d, VERT_SPV)? };
    // SAFETY: as above; the vertex module is destroyed if this one fails.
    let frag = unsafe { module(d, FRAG_SPV) }.inspect_err(|_| unsafe { d.destroy_shader_module(vert, None) })?;
    let spec = Spec::new(&[(0, weight)]);
    let spec_info = spec.info();
    let stages = [
        vk::PipelineShaderStageCreateInfo::default().stage(vk::ShaderStageFlags::VERTEX).module(vert).name(c"main"),
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::FRAGMENT)
            .module(frag)
            .name(c"main")
            .specialization_info(&spec_info),
    ];
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewports = [vk::Viewport { x: 0.0, y: 0.0, width: 1.0, height: 1.0, min_depth: 0.0, max_depth: 1.0 }];
    let scissors = [vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: 1, height: 1 } }];
    let viewport = vk::PipelineViewportStateCreateInfo::default().viewports(&viewports).scissors(&scissors);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .line_width(1.0);
    let multisample =
        vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let attachments =
        [vk::PipelineColorBlendAttachmentState::default().color_write_mask(vk::ColorComponentFlags::RGBA)];
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&attachments);
    let formats = [COLOR];
    let mut rendering = vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats);
    let mut flags2 =
        vk::PipelineCreateFlags2CreateInfoKHR::default().flags(x::bits::PIPELINE_CREATE_2_INDIRECT_BINDABLE_EXT);
    let mut info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .color_blend_state(&blend)
        .layout(layout)
        .push_next(&mut rendering);
    if indirect_bindable {
        info = info.push_next(&mut flags2);
    }
    // SAFETY: a valid create info whose chain lives until the call returns; the modules are
    // destroyed after creation either way.
    let result = unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) };
    unsafe {
        d.destroy_shader_module(vert, None);
        d.destroy_shader_module(frag, None);
    }
    result.map(|p| p[0]).map_err(|(_, r)| RuntimeError::Vulkan { call: "vkCreateGraphicsPipelines", result: r })
}
