//! The push-constant warm-up: one bind of a graphics pipeline whose vertex shader reads
//! `gl_InstanceIndex`, submitted once per device before the first frame.
//!
//! Why: on NVIDIA's driver (H200, 580.159.04, measured 2026-12-01) a push constant updated per
//! draw and read by the vertex shader costs about 280 ns per draw (1M draws: 280 ms) until a
//! graphics pipeline whose vertex shader reads `gl_InstanceIndex` or `gl_DrawID` has been
//! bound in a submitted command buffer on the device, and 12.9 ns from then on. That holds for
//! `vkCmdPushConstants` between direct draws and for a DGC layout's PUSH_CONSTANT token alike,
//! and it is the "order effect" of issue 14: a multi-draw row (whose vertex shader reads
//! `gl_DrawID`) made every later push-constant row fast. A bind suffices, inside or outside a
//! render pass, without a draw. What does not flip it: creating the pipeline, recording the
//! bind without submitting it, binding another pipeline that reads the push constant, or one
//! whose vertex shader reads neither built-in (whatever its layout, attachments or rasterizer
//! discard), and the compute pipelines that cull. `crates/runtime/examples/order_probe/` is
//! the reproducer (plain Vulkan, no DGC), and the book's performance chapter has the numbers.
//!
//! The pipeline is as small as one that works: `warm_up.vert` (reads `gl_InstanceIndex` into
//! a flat output), rasterizer discard on, no attachments, an empty layout (shape 9 of the
//! probe). The headless `GpuContext` submits it at creation (`ContextOptions::warm_up`); an
//! engine that brings its own device records [`WarmUp::record`] once, in its first command
//! buffer, before it binds its own state. It costs one small pipeline and a bind; on other
//! drivers it does nothing measurable.

use super::error::{Result, RuntimeError};
use super::shaders::module;
use ash::vk;

const VERT_SPV: &[u8] = include_bytes!("../../../shaders/runtime/spv/warm_up.vert.spv");

/// The warm-up pipeline and its (empty) layout; destroyed explicitly with `destroy`.
pub struct WarmUp {
    // Private, read through accessors: `destroy` frees exactly these handles.
    pipeline: vk::Pipeline,
    layout: vk::PipelineLayout,
}

impl WarmUp {
    /// The warm-up pipeline.
    pub fn pipeline(&self) -> vk::Pipeline {
        self.pipeline
    }

    /// Its (empty) pipeline layout.
    pub fn layout(&self) -> vk::PipelineLayout {
        self.layout
    }

    /// Create the pipeline (Vulkan 1.3 dynamic rendering with no attachments).
    ///
    /// # Safety
    /// `device` is a live device with `dynamicRendering` enabled.
    pub unsafe fn new(device: &ash::Device) -> Result<WarmUp> {
        // SAFETY: valid create info on a live device (the caller's contract).
        let layout = unsafe { device.create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None) }
            .map_err(RuntimeError::vk("vkCreatePipelineLayout"))?;
        // SAFETY: the embedded SPIR-V is valid (shaders/runtime/build.sh, tests/runtime_shaders.rs).
        let vert = match unsafe { module(device, VERT_SPV) } {
            Ok(m) => m,
            Err(e) => {
                // SAFETY: made above, used by nothing.
                unsafe { device.destroy_pipeline_layout(layout, None) };
                return Err(e);
            }
        };
        let stages = [vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vert)
            .name(c"main")];
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
        let assembly =
            vk::PipelineInputAssemblyStateCreateInfo::default().topology(vk::PrimitiveTopology::TRIANGLE_LIST);
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .rasterizer_discard_enable(true)
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .line_width(1.0);
        let mut rendering = vk::PipelineRenderingCreateInfo::default();
        let info = [vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(&vertex_input)
            .input_assembly_state(&assembly)
            .rasterization_state(&raster)
            .layout(layout)
            .push_next(&mut rendering)];
        // SAFETY: valid create info (rasterizer discard: no viewport, multisample, depth or
        // blend state needed); the module is destroyed after creation either way.
        let result = unsafe { device.create_graphics_pipelines(vk::PipelineCache::null(), &info, None) };
        unsafe { device.destroy_shader_module(vert, None) };
        match result {
            Ok(p) => Ok(WarmUp { pipeline: p[0], layout }),
            Err((_, r)) => {
                // SAFETY: made above, used by nothing.
                unsafe { device.destroy_pipeline_layout(layout, None) };
                Err(RuntimeError::Vulkan { call: "vkCreateGraphicsPipelines", result: r })
            }
        }
    }

    /// Record the bind. The command buffer's graphics pipeline is then the warm-up's (bind
    /// your own after it) and its static state is applied: record it before the state you
    /// set for your own draws, not between.
    ///
    /// # Safety
    /// `cmd` is recording on the device this was made on; the warm-up outlives the submission.
    pub unsafe fn record(&self, device: &ash::Device, cmd: vk::CommandBuffer) {
        // SAFETY: the caller's contract.
        unsafe { device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, self.pipeline) };
    }

    /// Destroy the pipeline and its layout. A second call does nothing.
    ///
    /// # Safety
    /// Made on `device`; no pending submission uses it.
    pub unsafe fn destroy(&mut self, device: &ash::Device) {
        // SAFETY: the caller's contract; null handles are ignored by Vulkan.
        unsafe {
            device.destroy_pipeline(std::mem::take(&mut self.pipeline), None);
            device.destroy_pipeline_layout(std::mem::take(&mut self.layout), None);
        }
    }
}
