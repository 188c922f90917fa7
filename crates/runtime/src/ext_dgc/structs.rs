//! The structs of `VK_EXT_device_generated_commands`, field for field as in `vk.xml`.
//!
//! Why hand-written in ash's shape: see the parent module. Each struct with `s_type` gets a
//! `Default` that fills it in (the execution-set writes and the generated-commands pipeline and
//! shader infos, which have fields without a sensible default, a `new` instead), `vk::TaggedStructure`, and the builder setters that the runtime
//! and the generated code use (array setters set the count and the pointer together, as ash's
//! do, so the two cannot disagree).

use super::{
    structure_type as st, IndirectCommandsInputModeFlagsEXT, IndirectCommandsLayoutEXT,
    IndirectCommandsLayoutUsageFlagsEXT, IndirectCommandsTokenDataEXT, IndirectCommandsTokenTypeEXT,
    IndirectExecutionSetEXT, IndirectExecutionSetInfoEXT, IndirectExecutionSetInfoTypeEXT,
};
use ash::vk;
use std::ffi::c_void;
use std::marker::PhantomData;
use std::ptr;

macro_rules! tagged {
    ($name:ident, $stype:expr) => {
        unsafe impl Send for $name<'_> {}
        unsafe impl Sync for $name<'_> {}
        unsafe impl vk::TaggedStructure for $name<'_> {
            const STRUCTURE_TYPE: vk::StructureType = $stype;
        }
    };
}

/// `VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct PhysicalDeviceDeviceGeneratedCommandsFeaturesEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *mut c_void,
    pub device_generated_commands: vk::Bool32,
    pub dynamic_generated_pipeline_layout: vk::Bool32,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(PhysicalDeviceDeviceGeneratedCommandsFeaturesEXT, st::PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT);
unsafe impl vk::ExtendsPhysicalDeviceFeatures2 for PhysicalDeviceDeviceGeneratedCommandsFeaturesEXT<'_> {}
unsafe impl vk::ExtendsDeviceCreateInfo for PhysicalDeviceDeviceGeneratedCommandsFeaturesEXT<'_> {}
impl Default for PhysicalDeviceDeviceGeneratedCommandsFeaturesEXT<'_> {
    fn default() -> Self {
        Self {
            s_type: st::PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT,
            p_next: ptr::null_mut(),
            device_generated_commands: vk::FALSE,
            dynamic_generated_pipeline_layout: vk::FALSE,
            _marker: PhantomData,
        }
    }
}
impl PhysicalDeviceDeviceGeneratedCommandsFeaturesEXT<'_> {
    pub fn device_generated_commands(mut self, enable: bool) -> Self {
        self.device_generated_commands = enable.into();
        self
    }
    pub fn dynamic_generated_pipeline_layout(mut self, enable: bool) -> Self {
        self.dynamic_generated_pipeline_layout = enable.into();
        self
    }
}

/// `VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct PhysicalDeviceDeviceGeneratedCommandsPropertiesEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *mut c_void,
    pub max_indirect_pipeline_count: u32,
    pub max_indirect_shader_object_count: u32,
    pub max_indirect_sequence_count: u32,
    pub max_indirect_commands_token_count: u32,
    pub max_indirect_commands_token_offset: u32,
    pub max_indirect_commands_indirect_stride: u32,
    pub supported_indirect_commands_input_modes: IndirectCommandsInputModeFlagsEXT,
    pub supported_indirect_commands_shader_stages: vk::ShaderStageFlags,
    pub supported_indirect_commands_shader_stages_pipeline_binding: vk::ShaderStageFlags,
    pub supported_indirect_commands_shader_stages_shader_binding: vk::ShaderStageFlags,
    pub device_generated_commands_transform_feedback: vk::Bool32,
    pub device_generated_commands_multi_draw_indirect_count: vk::Bool32,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(
    PhysicalDeviceDeviceGeneratedCommandsPropertiesEXT,
    st::PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_PROPERTIES_EXT
);
unsafe impl vk::ExtendsPhysicalDeviceProperties2 for PhysicalDeviceDeviceGeneratedCommandsPropertiesEXT<'_> {}
impl Default for PhysicalDeviceDeviceGeneratedCommandsPropertiesEXT<'_> {
    fn default() -> Self {
        Self {
            s_type: st::PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_PROPERTIES_EXT,
            p_next: ptr::null_mut(),
            max_indirect_pipeline_count: 0,
            max_indirect_shader_object_count: 0,
            max_indirect_sequence_count: 0,
            max_indirect_commands_token_count: 0,
            max_indirect_commands_token_offset: 0,
            max_indirect_commands_indirect_stride: 0,
            supported_indirect_commands_input_modes: IndirectCommandsInputModeFlagsEXT::empty(),
            supported_indirect_commands_shader_stages: vk::ShaderStageFlags::empty(),
            supported_indirect_commands_shader_stages_pipeline_binding: vk::ShaderStageFlags::empty(),
            supported_indirect_commands_shader_stages_shader_binding: vk::ShaderStageFlags::empty(),
            device_generated_commands_transform_feedback: vk::FALSE,
            device_generated_commands_multi_draw_indirect_count: vk::FALSE,
            _marker: PhantomData,
        }
    }
}

/// `VkIndirectCommandsPushConstantTokenEXT` (also used by SEQUENCE_INDEX and PUSH_DATA tokens).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct IndirectCommandsPushConstantTokenEXT {
    pub update_range: vk::PushConstantRange,
}

/// `VkIndirectCommandsVertexBufferTokenEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct IndirectCommandsVertexBufferTokenEXT {
    pub vertex_binding_unit: u32,
}

/// `VkIndirectCommandsIndexBufferTokenEXT`; `mode` is a single bit.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct IndirectCommandsIndexBufferTokenEXT {
    pub mode: IndirectCommandsInputModeFlagsEXT,
}
impl Default for IndirectCommandsIndexBufferTokenEXT {
    fn default() -> Self {
        Self { mode: IndirectCommandsInputModeFlagsEXT::VULKAN_INDEX_BUFFER }
    }
}

/// `VkIndirectCommandsExecutionSetTokenEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct IndirectCommandsExecutionSetTokenEXT {
    pub ty: IndirectExecutionSetInfoTypeEXT,
    pub shader_stages: vk::ShaderStageFlags,
}

/// `VkIndirectCommandsLayoutTokenEXT`. The constructors set `ty` and the matching union member
/// together; the token data must outlive the create call (`'a`).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct IndirectCommandsLayoutTokenEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub ty: IndirectCommandsTokenTypeEXT,
    pub data: IndirectCommandsTokenDataEXT,
    pub offset: u32,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(IndirectCommandsLayoutTokenEXT, st::INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT);
impl Default for IndirectCommandsLayoutTokenEXT<'_> {
    fn default() -> Self {
        Self {
            s_type: st::INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT,
            p_next: ptr::null(),
            ty: IndirectCommandsTokenTypeEXT::default(),
            data: IndirectCommandsTokenDataEXT::default(),
            offset: 0,
            _marker: PhantomData,
        }
    }
}
impl<'a> IndirectCommandsLayoutTokenEXT<'a> {
    /// A token without parameters (draws, dispatches, mesh tasks, trace rays).
    pub fn action(ty: IndirectCommandsTokenTypeEXT, offset: u32) -> Self {
        Self { ty, offset, ..Default::default() }
    }
    /// PUSH_CONSTANT or SEQUENCE_INDEX (or PUSH_DATA*): `ty` selects which.
    pub fn push_constant(
        ty: IndirectCommandsTokenTypeEXT,
        offset: u32,
        data: &'a IndirectCommandsPushConstantTokenEXT,
    ) -> Self {
        let data = IndirectCommandsTokenDataEXT { p_push_constant: data };
        Self { ty, offset, data, ..Default::default() }
    }
    pub fn vertex_buffer(offset: u32, data: &'a IndirectCommandsVertexBufferTokenEXT) -> Self {
        let data = IndirectCommandsTokenDataEXT { p_vertex_buffer: data };
        Self { ty: IndirectCommandsTokenTypeEXT::VERTEX_BUFFER, offset, data, ..Default::default() }
    }
    pub fn index_buffer(offset: u32, data: &'a IndirectCommandsIndexBufferTokenEXT) -> Self {
        let data = IndirectCommandsTokenDataEXT { p_index_buffer: data };
        Self { ty: IndirectCommandsTokenTypeEXT::INDEX_BUFFER, offset, data, ..Default::default() }
    }
    pub fn execution_set(offset: u32, data: &'a IndirectCommandsExecutionSetTokenEXT) -> Self {
        let data = IndirectCommandsTokenDataEXT { p_execution_set: data };
        Self { ty: IndirectCommandsTokenTypeEXT::EXECUTION_SET, offset, data, ..Default::default() }
    }
}

/// `VkIndirectCommandsLayoutCreateInfoEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct IndirectCommandsLayoutCreateInfoEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub flags: IndirectCommandsLayoutUsageFlagsEXT,
    pub shader_stages: vk::ShaderStageFlags,
    pub indirect_stride: u32,
    pub pipeline_layout: vk::PipelineLayout,
    pub token_count: u32,
    pub p_tokens: *const IndirectCommandsLayoutTokenEXT<'a>,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(IndirectCommandsLayoutCreateInfoEXT, st::INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT);
impl Default for IndirectCommandsLayoutCreateInfoEXT<'_> {
    fn default() -> Self {
        Self {
            s_type: st::INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT,
            p_next: ptr::null(),
            flags: IndirectCommandsLayoutUsageFlagsEXT::empty(),
            shader_stages: vk::ShaderStageFlags::empty(),
            indirect_stride: 0,
            pipeline_layout: vk::PipelineLayout::null(),
            token_count: 0,
            p_tokens: ptr::null(),
            _marker: PhantomData,
        }
    }
}
impl<'a> IndirectCommandsLayoutCreateInfoEXT<'a> {
    pub fn flags(mut self, flags: IndirectCommandsLayoutUsageFlagsEXT) -> Self {
        self.flags = flags;
        self
    }
    pub fn shader_stages(mut self, shader_stages: vk::ShaderStageFlags) -> Self {
        self.shader_stages = shader_stages;
        self
    }
    pub fn indirect_stride(mut self, indirect_stride: u32) -> Self {
        self.indirect_stride = indirect_stride;
        self
    }
    pub fn pipeline_layout(mut self, pipeline_layout: vk::PipelineLayout) -> Self {
        self.pipeline_layout = pipeline_layout;
        self
    }
    pub fn tokens(mut self, tokens: &'a [IndirectCommandsLayoutTokenEXT<'a>]) -> Self {
        self.token_count = tokens.len() as u32;
        self.p_tokens = tokens.as_ptr();
        self
    }
}

/// `VkIndirectExecutionSetPipelineInfoEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct IndirectExecutionSetPipelineInfoEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub initial_pipeline: vk::Pipeline,
    pub max_pipeline_count: u32,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(IndirectExecutionSetPipelineInfoEXT, st::INDIRECT_EXECUTION_SET_PIPELINE_INFO_EXT);
impl Default for IndirectExecutionSetPipelineInfoEXT<'_> {
    fn default() -> Self {
        Self {
            s_type: st::INDIRECT_EXECUTION_SET_PIPELINE_INFO_EXT,
            p_next: ptr::null(),
            initial_pipeline: vk::Pipeline::null(),
            max_pipeline_count: 0,
            _marker: PhantomData,
        }
    }
}

/// `VkIndirectExecutionSetShaderLayoutInfoEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct IndirectExecutionSetShaderLayoutInfoEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub set_layout_count: u32,
    pub p_set_layouts: *const vk::DescriptorSetLayout,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(IndirectExecutionSetShaderLayoutInfoEXT, st::INDIRECT_EXECUTION_SET_SHADER_LAYOUT_INFO_EXT);
impl Default for IndirectExecutionSetShaderLayoutInfoEXT<'_> {
    fn default() -> Self {
        Self {
            s_type: st::INDIRECT_EXECUTION_SET_SHADER_LAYOUT_INFO_EXT,
            p_next: ptr::null(),
            set_layout_count: 0,
            p_set_layouts: ptr::null(),
            _marker: PhantomData,
        }
    }
}

/// `VkIndirectExecutionSetShaderInfoEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct IndirectExecutionSetShaderInfoEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub shader_count: u32,
    pub p_initial_shaders: *const vk::ShaderEXT,
    pub p_set_layout_infos: *const IndirectExecutionSetShaderLayoutInfoEXT<'a>,
    pub max_shader_count: u32,
    pub push_constant_range_count: u32,
    pub p_push_constant_ranges: *const vk::PushConstantRange,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(IndirectExecutionSetShaderInfoEXT, st::INDIRECT_EXECUTION_SET_SHADER_INFO_EXT);
impl Default for IndirectExecutionSetShaderInfoEXT<'_> {
    fn default() -> Self {
        Self {
            s_type: st::INDIRECT_EXECUTION_SET_SHADER_INFO_EXT,
            p_next: ptr::null(),
            shader_count: 0,
            p_initial_shaders: ptr::null(),
            p_set_layout_infos: ptr::null(),
            max_shader_count: 0,
            push_constant_range_count: 0,
            p_push_constant_ranges: ptr::null(),
            _marker: PhantomData,
        }
    }
}

/// `VkIndirectExecutionSetCreateInfoEXT`.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct IndirectExecutionSetCreateInfoEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub ty: IndirectExecutionSetInfoTypeEXT,
    pub info: IndirectExecutionSetInfoEXT<'a>,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(IndirectExecutionSetCreateInfoEXT, st::INDIRECT_EXECUTION_SET_CREATE_INFO_EXT);
impl Default for IndirectExecutionSetCreateInfoEXT<'_> {
    fn default() -> Self {
        Self {
            s_type: st::INDIRECT_EXECUTION_SET_CREATE_INFO_EXT,
            p_next: ptr::null(),
            ty: IndirectExecutionSetInfoTypeEXT::PIPELINES,
            info: IndirectExecutionSetInfoEXT::default(),
            _marker: PhantomData,
        }
    }
}
impl<'a> IndirectExecutionSetCreateInfoEXT<'a> {
    pub fn pipelines(info: &'a IndirectExecutionSetPipelineInfoEXT<'a>) -> Self {
        let info = IndirectExecutionSetInfoEXT { p_pipeline_info: info };
        Self { ty: IndirectExecutionSetInfoTypeEXT::PIPELINES, info, ..Default::default() }
    }
    pub fn shader_objects(info: &'a IndirectExecutionSetShaderInfoEXT<'a>) -> Self {
        let info = IndirectExecutionSetInfoEXT { p_shader_info: info };
        Self { ty: IndirectExecutionSetInfoTypeEXT::SHADER_OBJECTS, info, ..Default::default() }
    }
}

/// `VkWriteIndirectExecutionSetPipelineEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct WriteIndirectExecutionSetPipelineEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub index: u32,
    pub pipeline: vk::Pipeline,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(WriteIndirectExecutionSetPipelineEXT, st::WRITE_INDIRECT_EXECUTION_SET_PIPELINE_EXT);
impl WriteIndirectExecutionSetPipelineEXT<'_> {
    pub fn new(index: u32, pipeline: vk::Pipeline) -> Self {
        let s_type = st::WRITE_INDIRECT_EXECUTION_SET_PIPELINE_EXT;
        Self { s_type, p_next: ptr::null(), index, pipeline, _marker: PhantomData }
    }
}

/// `VkWriteIndirectExecutionSetShaderEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct WriteIndirectExecutionSetShaderEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub index: u32,
    pub shader: vk::ShaderEXT,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(WriteIndirectExecutionSetShaderEXT, st::WRITE_INDIRECT_EXECUTION_SET_SHADER_EXT);
impl WriteIndirectExecutionSetShaderEXT<'_> {
    pub fn new(index: u32, shader: vk::ShaderEXT) -> Self {
        let s_type = st::WRITE_INDIRECT_EXECUTION_SET_SHADER_EXT;
        Self { s_type, p_next: ptr::null(), index, shader, _marker: PhantomData }
    }
}

/// `VkGeneratedCommandsMemoryRequirementsInfoEXT`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct GeneratedCommandsMemoryRequirementsInfoEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub indirect_execution_set: IndirectExecutionSetEXT,
    pub indirect_commands_layout: IndirectCommandsLayoutEXT,
    pub max_sequence_count: u32,
    pub max_draw_count: u32,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(GeneratedCommandsMemoryRequirementsInfoEXT, st::GENERATED_COMMANDS_MEMORY_REQUIREMENTS_INFO_EXT);
impl Default for GeneratedCommandsMemoryRequirementsInfoEXT<'_> {
    fn default() -> Self {
        Self {
            s_type: st::GENERATED_COMMANDS_MEMORY_REQUIREMENTS_INFO_EXT,
            p_next: ptr::null(),
            indirect_execution_set: IndirectExecutionSetEXT::null(),
            indirect_commands_layout: IndirectCommandsLayoutEXT::null(),
            max_sequence_count: 0,
            max_draw_count: 0,
            _marker: PhantomData,
        }
    }
}

/// `VkGeneratedCommandsInfoEXT`: what Preprocess and Execute read.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct GeneratedCommandsInfoEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub shader_stages: vk::ShaderStageFlags,
    pub indirect_execution_set: IndirectExecutionSetEXT,
    pub indirect_commands_layout: IndirectCommandsLayoutEXT,
    pub indirect_address: vk::DeviceAddress,
    pub indirect_address_size: vk::DeviceSize,
    pub preprocess_address: vk::DeviceAddress,
    pub preprocess_size: vk::DeviceSize,
    pub max_sequence_count: u32,
    pub sequence_count_address: vk::DeviceAddress,
    pub max_draw_count: u32,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(GeneratedCommandsInfoEXT, st::GENERATED_COMMANDS_INFO_EXT);
impl Default for GeneratedCommandsInfoEXT<'_> {
    fn default() -> Self {
        Self {
            s_type: st::GENERATED_COMMANDS_INFO_EXT,
            p_next: ptr::null(),
            shader_stages: vk::ShaderStageFlags::empty(),
            indirect_execution_set: IndirectExecutionSetEXT::null(),
            indirect_commands_layout: IndirectCommandsLayoutEXT::null(),
            indirect_address: 0,
            indirect_address_size: 0,
            preprocess_address: 0,
            preprocess_size: 0,
            max_sequence_count: 0,
            sequence_count_address: 0,
            max_draw_count: 0,
            _marker: PhantomData,
        }
    }
}

/// `VkGeneratedCommandsPipelineInfoEXT`: chained into the info structs when the layout has no
/// execution set, naming the bound pipeline.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct GeneratedCommandsPipelineInfoEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *mut c_void,
    pub pipeline: vk::Pipeline,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(GeneratedCommandsPipelineInfoEXT, st::GENERATED_COMMANDS_PIPELINE_INFO_EXT);
impl GeneratedCommandsPipelineInfoEXT<'_> {
    pub fn new(pipeline: vk::Pipeline) -> Self {
        let s_type = st::GENERATED_COMMANDS_PIPELINE_INFO_EXT;
        Self { s_type, p_next: ptr::null_mut(), pipeline, _marker: PhantomData }
    }
}

/// `VkGeneratedCommandsShaderInfoEXT`: as above, for shader objects.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct GeneratedCommandsShaderInfoEXT<'a> {
    pub s_type: vk::StructureType,
    pub p_next: *mut c_void,
    pub shader_count: u32,
    pub p_shaders: *const vk::ShaderEXT,
    pub _marker: PhantomData<&'a ()>,
}
tagged!(GeneratedCommandsShaderInfoEXT, st::GENERATED_COMMANDS_SHADER_INFO_EXT);
impl<'a> GeneratedCommandsShaderInfoEXT<'a> {
    pub fn new(shaders: &'a [vk::ShaderEXT]) -> Self {
        let s_type = st::GENERATED_COMMANDS_SHADER_INFO_EXT;
        let (shader_count, p_shaders) = (shaders.len() as u32, shaders.as_ptr());
        Self { s_type, p_next: ptr::null_mut(), shader_count, p_shaders, _marker: PhantomData }
    }
}

/// `VkBindIndexBufferIndirectCommandEXT`: the INDEX_BUFFER token's 16 stream bytes.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BindIndexBufferIndirectCommandEXT {
    pub buffer_address: vk::DeviceAddress,
    pub size: u32,
    pub index_type: vk::IndexType,
}

/// `VkBindVertexBufferIndirectCommandEXT`: the VERTEX_BUFFER token's 16 stream bytes.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BindVertexBufferIndirectCommandEXT {
    pub buffer_address: vk::DeviceAddress,
    pub size: u32,
    pub stride: u32,
}

/// `VkDrawIndirectCountIndirectCommandEXT`: the stream bytes of the `*_COUNT` tokens.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawIndirectCountIndirectCommandEXT {
    pub buffer_address: vk::DeviceAddress,
    pub stride: u32,
    pub command_count: u32,
}
