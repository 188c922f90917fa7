//! The materials as shader objects (`VK_EXT_shader_object`, `dgcc run --bind shader-objects`):
//! one vertex and one fragment shader per material, specialized from the scene's SPIR-V as
//! its pipelines are, each created `INDIRECT_BINDABLE` for a shader-object execution set
//! (`SceneDrawShaders` in examples/scene.ron: material m's pair at entries 2m and 2m + 1). With
//! one material there is no set (and no `INDIRECT_BINDABLE`): every mode binds the pair for its
//! draws (`bind`), and a DGC execute names it in `VkGeneratedCommandsShaderInfoEXT`
//! (`runtime::execute::Bound::Shaders`).
//!
//! Why a state block of its own: a pipeline carries its rasterization, depth, blend and vertex
//! input state; shader objects carry none, so everything a draw reads is set dynamically
//! (`set_state`), the same values `gpu::graphics_pipeline` bakes in, so both ways draw the same
//! pixels. The stages the device has but the scene does not use (tessellation, geometry, task
//! and mesh, where enabled) are bound to null, as the draw rules ask.

use super::gpu::{draw_constants, DrawSource};
use ash::vk;
use dgcc::runtime::error::Result;
use dgcc::runtime::shaders::shader_object;
use dgcc::runtime::{GpuContext, StageShader};

const VERT_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/scene.vert.spv");
const FRAG_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/scene.frag.spv");

/// Each material's vertex and fragment shader, and what is needed to bind and destroy them.
pub struct MaterialShaders {
    fns: ash::ext::shader_object::Device,
    /// `[vertex, fragment]` per material.
    pub pairs: Vec<[vk::ShaderEXT; 2]>,
    /// Stages the device enabled that no scene shader fills (bound to null before drawing).
    unused_stages: Vec<vk::ShaderStageFlags>,
}

impl MaterialShaders {
    /// Create the pairs of `materials` materials, `indirect_bindable` for an execution set.
    /// `set_layouts` and `push_constants` are the scene's graphics pipeline layout's.
    pub fn new(
        ctx: &GpuContext,
        materials: u32,
        source: DrawSource,
        object_ids: bool,
        set_layouts: &[vk::DescriptorSetLayout],
        push_constants: &[vk::PushConstantRange],
        indirect_bindable: bool,
    ) -> Result<MaterialShaders> {
        let Some(fns) = ctx.shader_object().cloned() else {
            return Err(dgcc::runtime::RuntimeError::MissingFeature {
                device: ctx.device_name().to_owned(),
                feature: "VK_EXT_shader_object (shaderObject)".into(),
                needed_for: "--bind shader-objects".into(),
            });
        };
        // Every stage whose feature is enabled must have a shader or null bound before a draw
        // without a pipeline (VUID-vkCmdDraw-None-08684 to -08688 and their siblings).
        let mut unused_stages = vec![];
        if ctx.caps().tessellation_shader {
            unused_stages.push(vk::ShaderStageFlags::TESSELLATION_CONTROL);
            unused_stages.push(vk::ShaderStageFlags::TESSELLATION_EVALUATION);
        }
        if ctx.caps().geometry_shader {
            unused_stages.push(vk::ShaderStageFlags::GEOMETRY);
        }
        if ctx.caps().task_shader {
            unused_stages.push(vk::ShaderStageFlags::TASK_EXT);
        }
        if ctx.caps().mesh_shader {
            unused_stages.push(vk::ShaderStageFlags::MESH_EXT);
        }
        let mut made = MaterialShaders { fns, pairs: vec![], unused_stages };
        for material in 0..materials.max(1) {
            // The constants of `gpu::graphics_pipeline`.
            let spec = draw_constants(source, object_ids, material);
            let stage = |stage, next, spv| {
                // SAFETY: the scene's embedded SPIR-V for that stage; the layouts and ranges are
                // the graphics pipeline layout's, which cover what the shaders declare; the
                // context has shader objects enabled (`fns` came from it), and DGC where they are
                // `indirect_bindable` (a set, which only dgc mode's DGC context makes).
                unsafe {
                    shader_object(
                        &made.fns,
                        stage,
                        next,
                        spv,
                        &spec,
                        set_layouts,
                        push_constants,
                        None,
                        indirect_bindable,
                    )
                }
            };
            // SAFETY (the clean-ups): the shaders made so far are unused.
            let vertex = match stage(vk::ShaderStageFlags::VERTEX, vk::ShaderStageFlags::FRAGMENT, VERT_SPV) {
                Ok(v) => v,
                Err(e) => {
                    unsafe { made.destroy() };
                    return Err(e);
                }
            };
            let fragment = match stage(vk::ShaderStageFlags::FRAGMENT, vk::ShaderStageFlags::empty(), FRAG_SPV) {
                Ok(f) => f,
                Err(e) => {
                    unsafe {
                        made.fns.destroy_shader(vertex, None);
                        made.destroy();
                    }
                    return Err(e);
                }
            };
            made.pairs.push([vertex, fragment]);
        }
        Ok(made)
    }

    /// Material `m`'s pair as the execution set's initial shaders.
    pub fn initial(&self, m: usize) -> [StageShader; 2] {
        let [vertex, fragment] = self.pairs[m];
        [
            StageShader { stage: vk::ShaderStageFlags::VERTEX, shader: vertex },
            StageShader { stage: vk::ShaderStageFlags::FRAGMENT, shader: fragment },
        ]
    }

    /// Bind material `m`'s pair for the draws that follow (a DGC execute binds its own).
    ///
    /// # Safety
    /// `cmd` is recording on the device the shaders were made on.
    pub unsafe fn bind(&self, cmd: vk::CommandBuffer, m: usize) {
        let [vertex, fragment] = self.pairs[m];
        // SAFETY: the caller's contract; the shaders are alive until `destroy`.
        unsafe {
            self.fns.cmd_bind_shaders(
                cmd,
                &[vk::ShaderStageFlags::VERTEX, vk::ShaderStageFlags::FRAGMENT],
                &[vertex, fragment],
            )
        };
    }

    /// Everything a draw with shader objects reads that a pipeline would have baked in, as
    /// `gpu::graphics_pipeline` bakes it: the viewport and scissor of the target, triangle
    /// lists, no culling, depth test and write with LESS, one sample, no blending, every colour
    /// component written to each of `attachments`, no vertex input. And null for the stages
    /// the scene leaves empty.
    ///
    /// # Safety
    /// `cmd` is recording on the device the shaders were made on.
    pub unsafe fn set_state(&self, d: &ash::Device, cmd: vk::CommandBuffer, width: u32, height: u32, attachments: u32) {
        let so = &self.fns;
        let viewport = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: width as f32,
            height: height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissor = [vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width, height } }];
        let n = attachments as usize;
        // SAFETY: `cmd` is recording on the shaders' device (the caller's contract); every value
        // is valid for the command it is given to.
        unsafe {
            d.cmd_set_viewport_with_count(cmd, &viewport);
            d.cmd_set_scissor_with_count(cmd, &scissor);
            d.cmd_set_rasterizer_discard_enable(cmd, false);
            d.cmd_set_primitive_topology(cmd, vk::PrimitiveTopology::TRIANGLE_LIST);
            d.cmd_set_primitive_restart_enable(cmd, false);
            d.cmd_set_cull_mode(cmd, vk::CullModeFlags::NONE);
            d.cmd_set_front_face(cmd, vk::FrontFace::COUNTER_CLOCKWISE);
            d.cmd_set_depth_test_enable(cmd, true);
            d.cmd_set_depth_write_enable(cmd, true);
            d.cmd_set_depth_compare_op(cmd, vk::CompareOp::LESS);
            d.cmd_set_depth_bounds_test_enable(cmd, false);
            d.cmd_set_depth_bias_enable(cmd, false);
            d.cmd_set_stencil_test_enable(cmd, false);
            so.cmd_set_vertex_input(cmd, &[], &[]);
            so.cmd_set_polygon_mode(cmd, vk::PolygonMode::FILL);
            so.cmd_set_rasterization_samples(cmd, vk::SampleCountFlags::TYPE_1);
            so.cmd_set_sample_mask(cmd, vk::SampleCountFlags::TYPE_1, &[u32::MAX]);
            so.cmd_set_alpha_to_coverage_enable(cmd, false);
            so.cmd_set_color_blend_enable(cmd, 0, &vec![vk::FALSE; n]);
            so.cmd_set_color_write_mask(cmd, 0, &vec![vk::ColorComponentFlags::RGBA; n]);
            let nulls = vec![vk::ShaderEXT::null(); self.unused_stages.len()];
            if !nulls.is_empty() {
                so.cmd_bind_shaders(cmd, &self.unused_stages, &nulls);
            }
        }
    }

    /// Destroy every shader. A second call does nothing.
    ///
    /// # Safety
    /// No pending work uses the shaders, and no execution set that holds them is used again.
    pub unsafe fn destroy(&mut self) {
        for [v, f] in self.pairs.drain(..) {
            // SAFETY: the caller's contract.
            unsafe {
                self.fns.destroy_shader(v, None);
                self.fns.destroy_shader(f, None);
            }
        }
    }
}
