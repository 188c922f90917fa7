//! The slice of VK_EXT_device_generated_commands these tests need, declared locally.
//!
//! Why local: ash 0.38 (Vulkan headers 1.3.281) predates the extension (headers 1.3.296), and
//! these tests must not depend on the project's own runtime bindings — they are the independent
//! check that a real validation layer accepts what a hand-written, spec-shaped call does. So the
//! structs are `#[repr(C)]` mirrors of `vulkan_core.h` in field order, their sizes are pinned
//! with compile-time asserts against the C `sizeof`, and the two entry points are resolved
//! through `vkGetDeviceProcAddr` the way ash's own generated loaders do it.

use ash::vk;
use std::ffi::c_void;

/// `VK_STRUCTURE_TYPE_*` values of the extension (base 1000572000).
pub const STYPE_FEATURES: vk::StructureType = vk::StructureType::from_raw(1_000_572_000);
pub const STYPE_LAYOUT_CREATE_INFO: vk::StructureType = vk::StructureType::from_raw(1_000_572_006);
pub const STYPE_LAYOUT_TOKEN: vk::StructureType = vk::StructureType::from_raw(1_000_572_007);

/// `VkIndirectCommandsTokenTypeEXT` values used here.
pub const TOKEN_EXECUTION_SET: i32 = 0;
pub const TOKEN_PUSH_CONSTANT: i32 = 1;
pub const TOKEN_SEQUENCE_INDEX: i32 = 2;
pub const TOKEN_INDEX_BUFFER: i32 = 3;
pub const TOKEN_VERTEX_BUFFER: i32 = 4;
pub const TOKEN_DISPATCH: i32 = 9;

/// `VkIndirectCommandsVertexBufferTokenEXT`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VertexBufferToken {
    pub vertex_binding_unit: u32,
}

/// `VkIndirectCommandsIndexBufferTokenEXT` (`mode` is a `VkIndirectCommandsInputModeFlagBitsEXT`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct IndexBufferToken {
    pub mode: u32,
}

/// `VkIndirectCommandsExecutionSetTokenEXT` (`ty` is a `VkIndirectExecutionSetInfoTypeEXT`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ExecutionSetToken {
    pub ty: i32,
    pub shader_stages: vk::ShaderStageFlags,
}

pub const EXTENSION_NAME: &std::ffi::CStr = c"VK_EXT_device_generated_commands";

/// `VkIndirectCommandsLayoutEXT`: a non-dispatchable handle.
pub type IndirectCommandsLayout = u64;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct FeaturesExt {
    pub s_type: vk::StructureType,
    pub p_next: *mut c_void,
    pub device_generated_commands: vk::Bool32,
    pub dynamic_generated_pipeline_layout: vk::Bool32,
}

impl Default for FeaturesExt {
    fn default() -> Self {
        Self {
            s_type: STYPE_FEATURES,
            p_next: std::ptr::null_mut(),
            device_generated_commands: vk::FALSE,
            dynamic_generated_pipeline_layout: vk::FALSE,
        }
    }
}

/// `VkIndirectCommandsLayoutTokenEXT`. The `data` union holds one pointer whichever member is
/// selected by `token_type`, so a single pointer field has the union's size and alignment.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct LayoutToken {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub token_type: i32,
    pub data: *const c_void,
    pub offset: u32,
}

impl LayoutToken {
    /// A PUSH_CONSTANT token; `range` is `VkIndirectCommandsPushConstantTokenEXT::updateRange`
    /// (the struct has that one member, so a pointer to the range is a pointer to the struct).
    pub fn push_constant(range: &vk::PushConstantRange, offset: u32) -> Self {
        Self::new(TOKEN_PUSH_CONSTANT, (range as *const vk::PushConstantRange).cast(), offset)
    }

    /// An action token without union data (DISPATCH, DRAW, …).
    pub fn action(token_type: i32, offset: u32) -> Self {
        Self::new(token_type, std::ptr::null(), offset)
    }

    /// Any token; `data` points to the union member its type selects (or is null).
    pub fn new(token_type: i32, data: *const c_void, offset: u32) -> Self {
        Self { s_type: STYPE_LAYOUT_TOKEN, p_next: std::ptr::null(), token_type, data, offset }
    }
}

/// `VkIndirectCommandsLayoutCreateInfoEXT`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct LayoutCreateInfo {
    pub s_type: vk::StructureType,
    pub p_next: *const c_void,
    pub flags: u32,
    pub shader_stages: vk::ShaderStageFlags,
    pub indirect_stride: u32,
    pub pipeline_layout: vk::PipelineLayout,
    pub token_count: u32,
    pub p_tokens: *const LayoutToken,
}

impl LayoutCreateInfo {
    /// Borrows `tokens`: the caller keeps them (and what their `data` points to) alive.
    pub fn new(stages: vk::ShaderStageFlags, stride: u32, layout: vk::PipelineLayout, tokens: &[LayoutToken]) -> Self {
        Self {
            s_type: STYPE_LAYOUT_CREATE_INFO,
            p_next: std::ptr::null(),
            flags: 0,
            shader_stages: stages,
            indirect_stride: stride,
            pipeline_layout: layout,
            token_count: u32::try_from(tokens.len()).expect("token count fits u32"),
            p_tokens: tokens.as_ptr(),
        }
    }
}

// The C sizes on x86-64 (gcc sizeof against vulkan_core.h 1.4.x).
const _: () = assert!(std::mem::size_of::<FeaturesExt>() == 24);
const _: () = assert!(std::mem::size_of::<LayoutToken>() == 40);
const _: () = assert!(std::mem::size_of::<LayoutCreateInfo>() == 56);
const _: () = assert!(std::mem::size_of::<VertexBufferToken>() == 4);
const _: () = assert!(std::mem::size_of::<IndexBufferToken>() == 4);
const _: () = assert!(std::mem::size_of::<ExecutionSetToken>() == 8);

type CreateFn = unsafe extern "system" fn(
    vk::Device,
    *const LayoutCreateInfo,
    *const vk::AllocationCallbacks<'static>,
    *mut IndirectCommandsLayout,
) -> vk::Result;
type DestroyFn = unsafe extern "system" fn(vk::Device, IndirectCommandsLayout, *const vk::AllocationCallbacks<'static>);

/// The layout entry points of one device, resolved through `vkGetDeviceProcAddr` (so a layer
/// in the chain sees every call).
pub struct LayoutFns {
    device: vk::Device,
    create: CreateFn,
    destroy: DestroyFn,
}

impl LayoutFns {
    /// `None` when the device does not expose the commands (extension not enabled).
    pub fn load(instance: &ash::Instance, device: &ash::Device) -> Option<Self> {
        // SAFETY: the names are the extension's commands and the transmutes give each pointer
        // the prototype vulkan_core.h declares for that name.
        unsafe {
            let proc_addr = |name: &std::ffi::CStr| instance.get_device_proc_addr(device.handle(), name.as_ptr());
            let create = proc_addr(c"vkCreateIndirectCommandsLayoutEXT")?;
            let destroy = proc_addr(c"vkDestroyIndirectCommandsLayoutEXT")?;
            Some(Self {
                device: device.handle(),
                create: std::mem::transmute::<unsafe extern "system" fn(), CreateFn>(create),
                destroy: std::mem::transmute::<unsafe extern "system" fn(), DestroyFn>(destroy),
            })
        }
    }

    /// Calls `vkCreateIndirectCommandsLayoutEXT`; on success the layout is destroyed again at
    /// once (these tests only care about what the layer says about the create call).
    pub fn create_and_destroy(&self, info: &LayoutCreateInfo) -> vk::Result {
        let mut layout: IndirectCommandsLayout = 0;
        // SAFETY: `info` and everything it points to outlive the call (caller's contract on
        // `LayoutCreateInfo::new` and on the token data); `layout` is a valid out-pointer.
        let result = unsafe { (self.create)(self.device, info, std::ptr::null(), &mut layout) };
        if result == vk::Result::SUCCESS && layout != 0 {
            // SAFETY: `layout` was just created on this device and is not in use.
            unsafe { (self.destroy)(self.device, layout, std::ptr::null()) };
        }
        result
    }
}
