//! Shader modules, compute pipelines and shader objects from embedded SPIR-V.
//!
//! Why the SPIR-V is committed and embedded (`include_bytes!`) rather than compiled at run
//! time: the runtime feature must not pull in a shader compiler. `shaders/runtime/build.sh`
//! regenerates the `.spv` files and a test fails when one is stale.

use super::error::{Result, RuntimeError};
use ash::vk;

/// A shader module from SPIR-V bytes (checked for whole words, a 5-word header and the magic
/// number only).
///
/// # Safety
/// `spv` is valid SPIR-V for `d` (the driver is not required to survive anything else); the
/// runtime's embedded kernels are.
pub unsafe fn module(d: &ash::Device, spv: &[u8]) -> Result<vk::ShaderModule> {
    if !spv.len().is_multiple_of(4) || spv.len() < 20 || spv[..4] != [0x03, 0x02, 0x23, 0x07] {
        return Err(RuntimeError::Invalid("embedded SPIR-V is malformed".into()));
    }
    let words: Vec<u32> = spv.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    // SAFETY: valid SPIR-V words (the caller's contract), aligned as `u32`s.
    unsafe { d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None) }
        .map_err(RuntimeError::vk("vkCreateShaderModule"))
}

/// Specialization constants `(constant_id, u32 value)`.
pub struct Spec {
    entries: Vec<vk::SpecializationMapEntry>,
    data: Vec<u8>,
}

impl Spec {
    pub fn new(values: &[(u32, u32)]) -> Spec {
        let entries = values
            .iter()
            .enumerate()
            .map(|(i, &(id, _))| vk::SpecializationMapEntry { constant_id: id, offset: 4 * i as u32, size: 4 })
            .collect();
        let data = values.iter().flat_map(|&(_, v)| v.to_le_bytes()).collect();
        Spec { entries, data }
    }
    pub fn info(&self) -> vk::SpecializationInfo<'_> {
        vk::SpecializationInfo::default().map_entries(&self.entries).data(&self.data)
    }
}

/// How a compute kernel's subgroups are pinned (`VkPipelineShaderStageRequiredSubgroupSizeCreateInfo`
/// and the stage flags), when the device allows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubgroupPin {
    pub required_size: Option<u32>,
    /// `VkPipelineShaderStageCreateFlags`: 0x1 allow varying, 0x2 require full.
    pub flags: u32,
}

/// Creation flags of a compute pipeline beyond its shader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PipelineFlags {
    /// `VK_PIPELINE_CREATE_2_INDIRECT_BINDABLE_BIT_EXT`, which a pipeline of an indirect
    /// execution set needs.
    pub indirect_bindable: bool,
    /// `VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR`: the driver keeps what it compiled for
    /// `kernel_statistics::pipeline_statistics`.
    pub capture_statistics: bool,
}

/// A compute pipeline from SPIR-V with specialization constants and an optional subgroup pin.
///
/// # Safety
/// `spv` is valid SPIR-V for `d` with a `main` compute entry point; `layout` is a live pipeline
/// layout of `d` whose sets and push-constant ranges cover what the shader declares; `spec`
/// names 32-bit specialization constants; `pin`, when given, is one the device supports
/// (`subgroupSizeControl`, a size inside its range, `computeFullSubgroups` for flag 0x2).
pub unsafe fn compute_pipeline(
    d: &ash::Device,
    layout: vk::PipelineLayout,
    spv: &[u8],
    spec: &[(u32, u32)],
    pin: Option<SubgroupPin>,
) -> Result<vk::Pipeline> {
    // SAFETY: the caller's contract, which is `compute_pipeline_with`'s.
    unsafe { compute_pipeline_with(d, layout, spv, spec, pin, PipelineFlags::default()) }
}

/// As `compute_pipeline`, with creation `flags` (the indirect-bindable bit goes through
/// `VkPipelineCreateFlags2CreateInfoKHR`, and the statistics bit with it there).
///
/// # Safety
/// As `compute_pipeline`; with `flags.indirect_bindable`, `d` has
/// `VK_EXT_device_generated_commands` and `VK_KHR_maintenance5` enabled; with
/// `flags.capture_statistics`, `VK_KHR_pipeline_executable_properties` with
/// `pipelineExecutableInfo`.
pub unsafe fn compute_pipeline_with(
    d: &ash::Device,
    layout: vk::PipelineLayout,
    spv: &[u8],
    spec: &[(u32, u32)],
    pin: Option<SubgroupPin>,
    flags: PipelineFlags,
) -> Result<vk::Pipeline> {
    // SAFETY: `spv` is valid SPIR-V (the caller's contract).
    let module = unsafe { module(d, spv) }?;
    let spec = Spec::new(spec);
    let spec_info = spec.info();
    let pin = pin.unwrap_or_default();
    let mut required = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default()
        .required_subgroup_size(pin.required_size.unwrap_or(0));
    let mut stage = vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::COMPUTE)
        .module(module)
        .name(c"main")
        .flags(vk::PipelineShaderStageCreateFlags::from_raw(pin.flags))
        .specialization_info(&spec_info);
    if pin.required_size.is_some() {
        stage = stage.push_next(&mut required);
    }
    let mut info = vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout);
    if flags.capture_statistics {
        info = info.flags(vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR);
    }
    // With the flags2 structure in the chain its flags replace `info.flags` (maintenance5).
    let mut bits2 = super::ext_dgc::bits::PIPELINE_CREATE_2_INDIRECT_BINDABLE_EXT;
    if flags.capture_statistics {
        bits2 |= vk::PipelineCreateFlags2KHR::CAPTURE_STATISTICS;
    }
    let mut flags2 = vk::PipelineCreateFlags2CreateInfoKHR::default().flags(bits2);
    if flags.indirect_bindable {
        info = info.push_next(&mut flags2);
    }
    let info = [info];
    // SAFETY: the create info and its chain live until the call returns; layout, pin and flags
    // are the caller's contract.
    let result = unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &info, None) };
    // SAFETY: the module was only needed for the creation above.
    unsafe { d.destroy_shader_module(module, None) };
    result.map(|p| p[0]).map_err(|(_, r)| RuntimeError::Vulkan { call: "vkCreateComputePipelines", result: r })
}

/// A shader object (`VK_EXT_shader_object`) of `stage` from SPIR-V, unlinked, with
/// specialization constants, the descriptor-set layouts and push-constant ranges it uses, and an
/// optional subgroup pin (compute). `indirect_bindable` adds
/// `VK_SHADER_CREATE_INDIRECT_BINDABLE_BIT_EXT`, which a shader of an indirect execution set
/// needs. `next_stage` is the stages that may follow it (`VkShaderCreateInfoEXT::nextStage`).
///
/// # Safety
/// `so` was loaded for a live device with `shaderObject` enabled; `spv` is valid SPIR-V with a
/// `main` entry point of `stage`; `set_layouts` are live layouts of the device and with
/// `push_constants` cover what the shader declares; `spec` names 32-bit specialization
/// constants; `pin` as for `compute_pipeline`; with `indirect_bindable`, the device has
/// `VK_EXT_device_generated_commands` enabled.
#[allow(clippy::too_many_arguments)]
pub unsafe fn shader_object(
    so: &ash::ext::shader_object::Device,
    stage: vk::ShaderStageFlags,
    next_stage: vk::ShaderStageFlags,
    spv: &[u8],
    spec: &[(u32, u32)],
    set_layouts: &[vk::DescriptorSetLayout],
    push_constants: &[vk::PushConstantRange],
    pin: Option<SubgroupPin>,
    indirect_bindable: bool,
) -> Result<vk::ShaderEXT> {
    if !spv.len().is_multiple_of(4) || spv.len() < 20 || spv[..4] != [0x03, 0x02, 0x23, 0x07] {
        return Err(RuntimeError::Invalid("embedded SPIR-V is malformed".into()));
    }
    // `pCode` must be 4-byte aligned, which embedded bytes need not be.
    let words: Vec<u32> = spv.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let spec = Spec::new(spec);
    let spec_info = spec.info();
    let pin = pin.unwrap_or_default();
    // The pipeline stage flags' bits (0x1 allow varying, 0x2 require full) are the shader
    // flags' 0x2 and 0x4.
    let mut flags = vk::ShaderCreateFlagsEXT::from_raw((pin.flags & 0x3) << 1);
    if indirect_bindable {
        flags |= super::ext_dgc::bits::SHADER_CREATE_INDIRECT_BINDABLE_EXT;
    }
    let mut required = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default()
        .required_subgroup_size(pin.required_size.unwrap_or(0));
    let mut info = vk::ShaderCreateInfoEXT::default()
        .flags(flags)
        .stage(stage)
        .next_stage(next_stage)
        .code_type(vk::ShaderCodeTypeEXT::SPIRV)
        .code(super::memory::as_bytes(&words))
        .name(c"main")
        .set_layouts(set_layouts)
        .push_constant_ranges(push_constants)
        .specialization_info(&spec_info);
    if pin.required_size.is_some() {
        info = info.push_next(&mut required);
    }
    // SAFETY: the create info and its chain live until the call returns; the rest is the
    // caller's contract.
    unsafe { so.create_shaders(&[info], None) }
        .map(|s| s[0])
        .map_err(|(_, r)| RuntimeError::Vulkan { call: "vkCreateShadersEXT", result: r })
}
