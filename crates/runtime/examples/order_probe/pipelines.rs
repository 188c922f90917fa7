//! The probe's graphics pipelines: the drawing ones (one per id source, with or without the
//! buffer read) and the warm-up shapes tried on the H200, built by one function.

use super::probe::SIZE;
use super::steps::Source;
use ash::vk;
use dgcc_runtime::error::{Result, RuntimeError};
use dgcc_runtime::shaders::{module, Spec};

pub const COLOR: vk::Format = vk::Format::R8G8B8A8_UNORM;
pub const DEPTH: vk::Format = vk::Format::D32_SFLOAT;
const VERT_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/order_probe.vert.spv");
const FRAG_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/order_probe.frag.spv");
const CONST_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/order_probe_const.vert.spv");
const WARM_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/warm_up.vert.spv");

/// What a pipeline has besides its vertex shader.
#[derive(Clone, Copy)]
struct Shape {
    /// `order_probe.frag`, a colour and a depth attachment (the drawing pipelines).
    draws: bool,
    /// Rasterizer discard (no viewport, multisample or blend state then).
    discard: bool,
}

/// A graphics pipeline from vertex SPIR-V `vert` with `order_probe.vert`'s two constants.
///
/// # Safety
/// `layout` is a live layout of `d` that covers what the shaders declare.
unsafe fn build(
    d: &ash::Device,
    layout: vk::PipelineLayout,
    vert: &[u8],
    spec: &Spec,
    shape: Shape,
) -> Result<vk::Pipeline> {
    // SAFETY: the embedded SPIR-V is valid (shaders/runtime/build.sh).
    let vert = unsafe { module(d, vert)? };
    let frag = if shape.draws {
        // SAFETY: as above; the vertex module is destroyed if this one fails.
        Some(unsafe { module(d, FRAG_SPV) }.inspect_err(|_| unsafe { d.destroy_shader_module(vert, None) })?)
    } else {
        None
    };
    let spec_info = spec.info();
    let mut stages = vec![vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::VERTEX)
        .module(vert)
        .name(c"main")
        .specialization_info(&spec_info)];
    if let Some(frag) = frag {
        stages.push(
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(frag)
                .name(c"main"),
        );
    }
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewports =
        [vk::Viewport { x: 0.0, y: 0.0, width: SIZE as f32, height: SIZE as f32, min_depth: 0.0, max_depth: 1.0 }];
    let scissors = [vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: SIZE, height: SIZE } }];
    let viewport = vk::PipelineViewportStateCreateInfo::default().viewports(&viewports).scissors(&scissors);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .rasterizer_discard_enable(shape.discard)
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .line_width(1.0);
    let multisample =
        vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let depth = vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(true)
        .depth_write_enable(true)
        .depth_compare_op(vk::CompareOp::LESS);
    let attachments =
        [vk::PipelineColorBlendAttachmentState::default().color_write_mask(vk::ColorComponentFlags::RGBA)];
    let blend =
        vk::PipelineColorBlendStateCreateInfo::default().attachments(if shape.draws { &attachments } else { &[] });
    let formats = [COLOR];
    let mut rendering = if shape.draws {
        vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats).depth_attachment_format(DEPTH)
    } else {
        vk::PipelineRenderingCreateInfo::default()
    };
    let mut info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .rasterization_state(&raster)
        .layout(layout)
        .push_next(&mut rendering);
    if !shape.discard {
        info = info.viewport_state(&viewport).multisample_state(&multisample).color_blend_state(&blend);
    }
    if shape.draws {
        info = info.depth_stencil_state(&depth);
    }
    // SAFETY: valid create info; the modules are destroyed after creation either way.
    let result = unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) };
    unsafe {
        d.destroy_shader_module(vert, None);
        if let Some(frag) = frag {
            d.destroy_shader_module(frag, None);
        }
    }
    result.map(|p| p[0]).map_err(|(_, r)| RuntimeError::Vulkan { call: "vkCreateGraphicsPipelines", result: r })
}

/// The probe's drawing pipeline for one id source.
///
/// # Safety
/// `layout` holds one storage-buffer set and a 4-byte vertex push constant.
pub unsafe fn graphics_pipeline(
    d: &ash::Device,
    layout: vk::PipelineLayout,
    source: Source,
    buffer: bool,
) -> Result<vk::Pipeline> {
    let spec = Spec::new(&[(0, source as u32), (1, buffer as u32)]);
    // SAFETY: the caller's contract.
    unsafe { build(d, layout, VERT_SPV, &spec, Shape { draws: true, discard: false }) }
}

/// A pipeline layout for a warm-up shape.
#[derive(Clone, Copy)]
enum ShapeLayout {
    Empty,
    /// One 4-byte vertex push-constant range, as the push pipeline's.
    Push4,
    /// One 128-byte push-constant range for every graphics stage.
    Push128,
    /// The probe's own layout (its storage buffer set and its push range).
    Probe,
}

/// A vertex shader for a warm-up shape.
#[derive(Clone, Copy)]
enum ShapeShader {
    /// Writes a constant, reads nothing (`order_probe_const.vert`).
    Constant,
    /// Reads gl_InstanceIndex into a flat output (`warm_up.vert`, the runtime's).
    Instance,
    /// `order_probe.vert` with the id from gl_InstanceIndex, with or without its buffer read.
    Probe { buffer: bool },
}

/// The shapes tried on the H200 (book: performance chapter), by number: vertex-only pipelines
/// without attachments, rasterizer discard on unless said. Flipped the push path: 5, 8, 9,
/// 10, 11 (every one whose shader reads gl_InstanceIndex); did not: 1-4, 6, 7.
const SHAPES: [(ShapeLayout, ShapeShader, bool); 11] = [
    (ShapeLayout::Empty, ShapeShader::Constant, true),
    (ShapeLayout::Push4, ShapeShader::Constant, true),
    (ShapeLayout::Push128, ShapeShader::Constant, true),
    (ShapeLayout::Empty, ShapeShader::Constant, false),
    (ShapeLayout::Probe, ShapeShader::Probe { buffer: false }, true),
    (ShapeLayout::Push4, ShapeShader::Constant, false),
    (ShapeLayout::Probe, ShapeShader::Constant, true),
    (ShapeLayout::Push4, ShapeShader::Instance, true),
    (ShapeLayout::Empty, ShapeShader::Instance, true),
    (ShapeLayout::Probe, ShapeShader::Instance, true),
    (ShapeLayout::Probe, ShapeShader::Probe { buffer: true }, true),
];

/// A pipeline of warm-up shape `n` (1-based, `SHAPES`) and its layout (the probe's, or one
/// made for it that the caller destroys).
///
/// # Safety
/// `probe_layout` is the probe's pipeline layout on `d`.
pub unsafe fn warm_shape(
    d: &ash::Device,
    probe_layout: vk::PipelineLayout,
    n: u32,
) -> Result<(vk::Pipeline, vk::PipelineLayout)> {
    let &(layout_kind, shader, discard) = SHAPES
        .get((n as usize).wrapping_sub(1))
        .ok_or_else(|| RuntimeError::Invalid(format!("no warm-up shape {n} (1 to {})", SHAPES.len())))?;
    let range = match layout_kind {
        ShapeLayout::Push4 => {
            Some(vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::VERTEX, offset: 0, size: 4 })
        }
        ShapeLayout::Push128 => {
            Some(vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::ALL_GRAPHICS, offset: 0, size: 128 })
        }
        ShapeLayout::Empty | ShapeLayout::Probe => None,
    };
    let ranges: Vec<_> = range.into_iter().collect();
    let layout = match layout_kind {
        ShapeLayout::Probe => probe_layout,
        // SAFETY: valid create info on a live device.
        _ => unsafe {
            d.create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges), None)
        }
        .map_err(RuntimeError::vk("vkCreatePipelineLayout"))?,
    };
    let (spv, buffer) = match shader {
        ShapeShader::Constant => (CONST_SPV, false),
        ShapeShader::Instance => (WARM_SPV, false),
        ShapeShader::Probe { buffer } => (VERT_SPV, buffer),
    };
    let spec = Spec::new(&[(0, Source::Instance as u32), (1, buffer as u32)]);
    // SAFETY: the layout covers what each shape's shader declares.
    match unsafe { build(d, layout, spv, &spec, Shape { draws: false, discard }) } {
        Ok(p) => Ok((p, layout)),
        Err(e) => {
            if layout != probe_layout {
                // SAFETY: made above, used by nothing.
                unsafe { d.destroy_pipeline_layout(layout, None) };
            }
            Err(e)
        }
    }
}
