//! `VK_EXT_device_generated_commands` for ash 0.38, which predates the extension.
//!
//! Why this module exists and is shaped like ash: the newest ash release (0.38, headers 281)
//! only knows the NV extension, and the project can only use released crates. So the EXT types
//! are written here once, in ash's own style — `#[repr(C)]` structs with `s_type`/`p_next` and a
//! `PhantomData` lifetime, newtype enums with associated constants, `vk_bitflags_wrapped!`
//! flags, a `Device` loader of function pointers — so that the generated Rust code of
//! `dgcc compile --emit rust` and the runtime executor read as if ash had them, and swapping to
//! a future `ash::ext::device_generated_commands` is a rename.
//!
//! Every struct carries a compile-time size (and, where padding makes it easy to get wrong,
//! offset) assertion against the C header's `sizeof` on 64-bit targets, so a field in the wrong
//! order fails the build instead of corrupting a driver call.
//!
//! Values for existing ash types (structure types, buffer usage, pipeline stage and access
//! bits) are in [`structure_type`] and [`bits`], because Rust cannot add associated constants
//! to ash's types from outside.

use ash::vk;
use std::ffi::CStr;
#[cfg(target_pointer_width = "64")]
use std::mem::{offset_of, size_of};

mod device;
mod structs;

pub use device::{Device, DeviceFn, LoadError};
pub use structs::*;

/// `VK_EXT_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME`.
pub const NAME: &CStr = c"VK_EXT_device_generated_commands";
/// `VK_EXT_DEVICE_GENERATED_COMMANDS_SPEC_VERSION`.
pub const SPEC_VERSION: u32 = 1;

/// `VkStructureType` values of the extension (base 1000572000; offset 5 is unused).
pub mod structure_type {
    use ash::vk::StructureType;
    const fn st(offset: i32) -> StructureType {
        StructureType::from_raw(1_000_572_000 + offset)
    }
    pub const PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT: StructureType = st(0);
    pub const PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_PROPERTIES_EXT: StructureType = st(1);
    pub const GENERATED_COMMANDS_MEMORY_REQUIREMENTS_INFO_EXT: StructureType = st(2);
    pub const INDIRECT_EXECUTION_SET_CREATE_INFO_EXT: StructureType = st(3);
    pub const GENERATED_COMMANDS_INFO_EXT: StructureType = st(4);
    pub const INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT: StructureType = st(6);
    pub const INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT: StructureType = st(7);
    pub const WRITE_INDIRECT_EXECUTION_SET_PIPELINE_EXT: StructureType = st(8);
    pub const WRITE_INDIRECT_EXECUTION_SET_SHADER_EXT: StructureType = st(9);
    pub const INDIRECT_EXECUTION_SET_PIPELINE_INFO_EXT: StructureType = st(10);
    pub const INDIRECT_EXECUTION_SET_SHADER_INFO_EXT: StructureType = st(11);
    pub const INDIRECT_EXECUTION_SET_SHADER_LAYOUT_INFO_EXT: StructureType = st(12);
    pub const GENERATED_COMMANDS_PIPELINE_INFO_EXT: StructureType = st(13);
    pub const GENERATED_COMMANDS_SHADER_INFO_EXT: StructureType = st(14);
}

/// Bits the extension adds to enums and flags that ash 0.38 already has.
pub mod bits {
    use ash::vk;
    /// `VK_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT` (chain a `BufferUsageFlags2CreateInfoKHR`).
    pub const BUFFER_USAGE_2_PREPROCESS_BUFFER_EXT: vk::BufferUsageFlags2KHR =
        vk::BufferUsageFlags2KHR::from_raw(0x8000_0000);
    /// `VK_PIPELINE_CREATE_2_INDIRECT_BINDABLE_BIT_EXT` (bit 38).
    pub const PIPELINE_CREATE_2_INDIRECT_BINDABLE_EXT: vk::PipelineCreateFlags2KHR =
        vk::PipelineCreateFlags2KHR::from_raw(0x40_0000_0000);
    /// `VK_SHADER_CREATE_INDIRECT_BINDABLE_BIT_EXT`.
    pub const SHADER_CREATE_INDIRECT_BINDABLE_EXT: vk::ShaderCreateFlagsEXT = vk::ShaderCreateFlagsEXT::from_raw(0x80);
    /// `VK_PIPELINE_STAGE_COMMAND_PREPROCESS_BIT_EXT`.
    pub const PIPELINE_STAGE_COMMAND_PREPROCESS_EXT: vk::PipelineStageFlags =
        vk::PipelineStageFlags::from_raw(0x2_0000);
    /// `VK_PIPELINE_STAGE_2_COMMAND_PREPROCESS_BIT_EXT`.
    pub const PIPELINE_STAGE_2_COMMAND_PREPROCESS_EXT: vk::PipelineStageFlags2 =
        vk::PipelineStageFlags2::from_raw(0x2_0000);
    /// `VK_ACCESS_COMMAND_PREPROCESS_READ_BIT_EXT`.
    pub const ACCESS_COMMAND_PREPROCESS_READ_EXT: vk::AccessFlags = vk::AccessFlags::from_raw(0x2_0000);
    /// `VK_ACCESS_COMMAND_PREPROCESS_WRITE_BIT_EXT`.
    pub const ACCESS_COMMAND_PREPROCESS_WRITE_EXT: vk::AccessFlags = vk::AccessFlags::from_raw(0x4_0000);
    /// `VK_ACCESS_2_COMMAND_PREPROCESS_READ_BIT_EXT`.
    pub const ACCESS_2_COMMAND_PREPROCESS_READ_EXT: vk::AccessFlags2 = vk::AccessFlags2::from_raw(0x2_0000);
    /// `VK_ACCESS_2_COMMAND_PREPROCESS_WRITE_BIT_EXT`.
    pub const ACCESS_2_COMMAND_PREPROCESS_WRITE_EXT: vk::AccessFlags2 = vk::AccessFlags2::from_raw(0x4_0000);
    /// `VK_OBJECT_TYPE_INDIRECT_COMMANDS_LAYOUT_EXT`.
    pub const OBJECT_TYPE_INDIRECT_COMMANDS_LAYOUT_EXT: vk::ObjectType = vk::ObjectType::from_raw(1_000_572_000);
    /// `VK_OBJECT_TYPE_INDIRECT_EXECUTION_SET_EXT`.
    pub const OBJECT_TYPE_INDIRECT_EXECUTION_SET_EXT: vk::ObjectType = vk::ObjectType::from_raw(1_000_572_001);
}

macro_rules! handle_ext {
    ($name:ident, $object_type:expr, $doc:literal) => {
        #[doc = $doc]
        #[repr(transparent)]
        #[derive(Eq, PartialEq, Ord, PartialOrd, Clone, Copy, Hash, Default, Debug)]
        pub struct $name(u64);
        impl vk::Handle for $name {
            const TYPE: vk::ObjectType = $object_type;
            fn as_raw(self) -> u64 {
                self.0
            }
            fn from_raw(x: u64) -> Self {
                Self(x)
            }
        }
        impl $name {
            pub const fn null() -> Self {
                Self(0)
            }
        }
    };
}

handle_ext!(
    IndirectCommandsLayoutEXT,
    bits::OBJECT_TYPE_INDIRECT_COMMANDS_LAYOUT_EXT,
    "`VkIndirectCommandsLayoutEXT`, a non-dispatchable handle."
);
handle_ext!(
    IndirectExecutionSetEXT,
    bits::OBJECT_TYPE_INDIRECT_EXECUTION_SET_EXT,
    "`VkIndirectExecutionSetEXT`, a non-dispatchable handle."
);

/// `VkIndirectCommandsTokenTypeEXT`.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct IndirectCommandsTokenTypeEXT(pub(crate) i32);
impl IndirectCommandsTokenTypeEXT {
    pub const fn from_raw(x: i32) -> Self {
        Self(x)
    }
    pub const fn as_raw(self) -> i32 {
        self.0
    }
    pub const EXECUTION_SET: Self = Self(0);
    pub const PUSH_CONSTANT: Self = Self(1);
    pub const SEQUENCE_INDEX: Self = Self(2);
    pub const INDEX_BUFFER: Self = Self(3);
    pub const VERTEX_BUFFER: Self = Self(4);
    pub const DRAW_INDEXED: Self = Self(5);
    pub const DRAW: Self = Self(6);
    pub const DRAW_INDEXED_COUNT: Self = Self(7);
    pub const DRAW_COUNT: Self = Self(8);
    pub const DISPATCH: Self = Self(9);
    pub const PUSH_DATA: Self = Self(1_000_135_000);
    pub const PUSH_DATA_SEQUENCE_INDEX: Self = Self(1_000_135_001);
    pub const DRAW_MESH_TASKS_NV: Self = Self(1_000_202_002);
    pub const DRAW_MESH_TASKS_COUNT_NV: Self = Self(1_000_202_003);
    pub const DRAW_MESH_TASKS: Self = Self(1_000_328_000);
    pub const DRAW_MESH_TASKS_COUNT: Self = Self(1_000_328_001);
    pub const TRACE_RAYS2: Self = Self(1_000_386_004);
}

/// `VkIndirectExecutionSetInfoTypeEXT`.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct IndirectExecutionSetInfoTypeEXT(pub(crate) i32);
impl IndirectExecutionSetInfoTypeEXT {
    pub const fn from_raw(x: i32) -> Self {
        Self(x)
    }
    pub const fn as_raw(self) -> i32 {
        self.0
    }
    pub const PIPELINES: Self = Self(0);
    pub const SHADER_OBJECTS: Self = Self(1);
}

/// `VkIndirectCommandsLayoutUsageFlagsEXT`.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct IndirectCommandsLayoutUsageFlagsEXT(pub(crate) vk::Flags);
ash::vk_bitflags_wrapped!(IndirectCommandsLayoutUsageFlagsEXT, vk::Flags);
impl IndirectCommandsLayoutUsageFlagsEXT {
    pub const EXPLICIT_PREPROCESS: Self = Self(0x1);
    pub const UNORDERED_SEQUENCES: Self = Self(0x2);
}

/// `VkIndirectCommandsInputModeFlagsEXT` (the bits of `VkIndirectCommandsInputModeFlagBitsEXT`).
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct IndirectCommandsInputModeFlagsEXT(pub(crate) vk::Flags);
ash::vk_bitflags_wrapped!(IndirectCommandsInputModeFlagsEXT, vk::Flags);
impl IndirectCommandsInputModeFlagsEXT {
    pub const VULKAN_INDEX_BUFFER: Self = Self(0x1);
    pub const DXGI_INDEX_BUFFER: Self = Self(0x2);
}

/// `VkIndirectCommandsTokenDataEXT`: which member is read depends on the token type.
#[repr(C)]
#[derive(Clone, Copy)]
pub union IndirectCommandsTokenDataEXT {
    /// PUSH_CONSTANT, SEQUENCE_INDEX, PUSH_DATA, PUSH_DATA_SEQUENCE_INDEX.
    pub p_push_constant: *const IndirectCommandsPushConstantTokenEXT,
    pub p_vertex_buffer: *const IndirectCommandsVertexBufferTokenEXT,
    pub p_index_buffer: *const IndirectCommandsIndexBufferTokenEXT,
    pub p_execution_set: *const IndirectCommandsExecutionSetTokenEXT,
}
impl Default for IndirectCommandsTokenDataEXT {
    fn default() -> Self {
        Self { p_push_constant: std::ptr::null() }
    }
}
impl std::fmt::Debug for IndirectCommandsTokenDataEXT {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: every member is a pointer of the same size; printing the address is sound.
        write!(f, "IndirectCommandsTokenDataEXT({:p})", unsafe { self.p_push_constant })
    }
}

/// `VkIndirectExecutionSetInfoEXT`: which member is read depends on the set's type.
#[repr(C)]
#[derive(Clone, Copy)]
pub union IndirectExecutionSetInfoEXT<'a> {
    pub p_pipeline_info: *const IndirectExecutionSetPipelineInfoEXT<'a>,
    pub p_shader_info: *const IndirectExecutionSetShaderInfoEXT<'a>,
}
impl Default for IndirectExecutionSetInfoEXT<'_> {
    fn default() -> Self {
        Self { p_pipeline_info: std::ptr::null() }
    }
}

// Sizes and offsets from gcc `sizeof`/`offsetof` on x86-64 against the 1.4 headers.
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(size_of::<IndirectCommandsLayoutEXT>() == 8);
    assert!(size_of::<IndirectExecutionSetEXT>() == 8);
    assert!(size_of::<IndirectCommandsTokenDataEXT>() == 8);
    assert!(size_of::<IndirectExecutionSetInfoEXT>() == 8);
    assert!(size_of::<IndirectCommandsLayoutCreateInfoEXT>() == 56);
    assert!(offset_of!(IndirectCommandsLayoutCreateInfoEXT, pipeline_layout) == 32);
    assert!(offset_of!(IndirectCommandsLayoutCreateInfoEXT, token_count) == 40);
    assert!(offset_of!(IndirectCommandsLayoutCreateInfoEXT, p_tokens) == 48);
    assert!(size_of::<IndirectCommandsLayoutTokenEXT>() == 40);
    assert!(offset_of!(IndirectCommandsLayoutTokenEXT, data) == 24);
    assert!(offset_of!(IndirectCommandsLayoutTokenEXT, offset) == 32);
    assert!(size_of::<IndirectCommandsPushConstantTokenEXT>() == 12);
    assert!(size_of::<IndirectCommandsVertexBufferTokenEXT>() == 4);
    assert!(size_of::<IndirectCommandsIndexBufferTokenEXT>() == 4);
    assert!(size_of::<IndirectCommandsExecutionSetTokenEXT>() == 8);
    assert!(size_of::<GeneratedCommandsInfoEXT>() == 96);
    assert!(offset_of!(GeneratedCommandsInfoEXT, indirect_execution_set) == 24);
    assert!(offset_of!(GeneratedCommandsInfoEXT, indirect_address) == 40);
    assert!(offset_of!(GeneratedCommandsInfoEXT, max_sequence_count) == 72);
    assert!(offset_of!(GeneratedCommandsInfoEXT, sequence_count_address) == 80);
    assert!(offset_of!(GeneratedCommandsInfoEXT, max_draw_count) == 88);
    assert!(size_of::<GeneratedCommandsMemoryRequirementsInfoEXT>() == 40);
    assert!(size_of::<GeneratedCommandsPipelineInfoEXT>() == 24);
    assert!(size_of::<GeneratedCommandsShaderInfoEXT>() == 32);
    assert!(size_of::<IndirectExecutionSetCreateInfoEXT>() == 32);
    assert!(size_of::<IndirectExecutionSetPipelineInfoEXT>() == 32);
    assert!(size_of::<IndirectExecutionSetShaderInfoEXT>() == 56);
    assert!(offset_of!(IndirectExecutionSetShaderInfoEXT, max_shader_count) == 40);
    assert!(size_of::<IndirectExecutionSetShaderLayoutInfoEXT>() == 32);
    assert!(size_of::<WriteIndirectExecutionSetPipelineEXT>() == 32);
    assert!(size_of::<WriteIndirectExecutionSetShaderEXT>() == 32);
    assert!(size_of::<PhysicalDeviceDeviceGeneratedCommandsFeaturesEXT>() == 24);
    assert!(size_of::<PhysicalDeviceDeviceGeneratedCommandsPropertiesEXT>() == 64);
    assert!(
        offset_of!(PhysicalDeviceDeviceGeneratedCommandsPropertiesEXT, supported_indirect_commands_input_modes) == 40
    );
    assert!(size_of::<BindIndexBufferIndirectCommandEXT>() == 16);
    assert!(size_of::<BindVertexBufferIndirectCommandEXT>() == 16);
    assert!(size_of::<DrawIndirectCountIndirectCommandEXT>() == 16);
    assert!(offset_of!(DrawIndirectCountIndirectCommandEXT, stride) == 8);
    assert!(offset_of!(DrawIndirectCountIndirectCommandEXT, command_count) == 12);
};
