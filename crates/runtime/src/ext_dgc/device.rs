//! The extension's device-level entry points, loaded with `vkGetDeviceProcAddr`.
//!
//! Why loading returns an error instead of installing panicking stubs (as ash's generated
//! loaders do): a driver that advertises the extension but lacks an entry point is a user's
//! environment problem, and the library never panics on the environment. `Device::new` names
//! the first missing function.

use super::*;
use ash::prelude::VkResult;
use std::ffi::CStr;
use std::fmt;
use std::mem::MaybeUninit;

#[allow(non_camel_case_types)]
pub type PFN_vkCreateIndirectCommandsLayoutEXT = unsafe extern "system" fn(
    device: vk::Device,
    p_create_info: *const IndirectCommandsLayoutCreateInfoEXT<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_indirect_commands_layout: *mut IndirectCommandsLayoutEXT,
) -> vk::Result;
#[allow(non_camel_case_types)]
pub type PFN_vkDestroyIndirectCommandsLayoutEXT = unsafe extern "system" fn(
    device: vk::Device,
    indirect_commands_layout: IndirectCommandsLayoutEXT,
    p_allocator: *const vk::AllocationCallbacks<'_>,
);
#[allow(non_camel_case_types)]
pub type PFN_vkGetGeneratedCommandsMemoryRequirementsEXT = unsafe extern "system" fn(
    device: vk::Device,
    p_info: *const GeneratedCommandsMemoryRequirementsInfoEXT<'_>,
    p_memory_requirements: *mut vk::MemoryRequirements2<'_>,
);
#[allow(non_camel_case_types)]
pub type PFN_vkCmdPreprocessGeneratedCommandsEXT = unsafe extern "system" fn(
    command_buffer: vk::CommandBuffer,
    p_generated_commands_info: *const GeneratedCommandsInfoEXT<'_>,
    state_command_buffer: vk::CommandBuffer,
);
#[allow(non_camel_case_types)]
pub type PFN_vkCmdExecuteGeneratedCommandsEXT = unsafe extern "system" fn(
    command_buffer: vk::CommandBuffer,
    is_preprocessed: vk::Bool32,
    p_generated_commands_info: *const GeneratedCommandsInfoEXT<'_>,
);
#[allow(non_camel_case_types)]
pub type PFN_vkCreateIndirectExecutionSetEXT = unsafe extern "system" fn(
    device: vk::Device,
    p_create_info: *const IndirectExecutionSetCreateInfoEXT<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_indirect_execution_set: *mut IndirectExecutionSetEXT,
) -> vk::Result;
#[allow(non_camel_case_types)]
pub type PFN_vkDestroyIndirectExecutionSetEXT = unsafe extern "system" fn(
    device: vk::Device,
    indirect_execution_set: IndirectExecutionSetEXT,
    p_allocator: *const vk::AllocationCallbacks<'_>,
);
#[allow(non_camel_case_types)]
pub type PFN_vkUpdateIndirectExecutionSetPipelineEXT = unsafe extern "system" fn(
    device: vk::Device,
    indirect_execution_set: IndirectExecutionSetEXT,
    execution_set_write_count: u32,
    p_execution_set_writes: *const WriteIndirectExecutionSetPipelineEXT<'_>,
);
#[allow(non_camel_case_types)]
pub type PFN_vkUpdateIndirectExecutionSetShaderEXT = unsafe extern "system" fn(
    device: vk::Device,
    indirect_execution_set: IndirectExecutionSetEXT,
    execution_set_write_count: u32,
    p_execution_set_writes: *const WriteIndirectExecutionSetShaderEXT<'_>,
);

/// The raw function pointers, as ash's `DeviceFn` of an extension.
#[derive(Clone, Copy)]
pub struct DeviceFn {
    pub create_indirect_commands_layout_ext: PFN_vkCreateIndirectCommandsLayoutEXT,
    pub destroy_indirect_commands_layout_ext: PFN_vkDestroyIndirectCommandsLayoutEXT,
    pub get_generated_commands_memory_requirements_ext: PFN_vkGetGeneratedCommandsMemoryRequirementsEXT,
    pub cmd_preprocess_generated_commands_ext: PFN_vkCmdPreprocessGeneratedCommandsEXT,
    pub cmd_execute_generated_commands_ext: PFN_vkCmdExecuteGeneratedCommandsEXT,
    pub create_indirect_execution_set_ext: PFN_vkCreateIndirectExecutionSetEXT,
    pub destroy_indirect_execution_set_ext: PFN_vkDestroyIndirectExecutionSetEXT,
    pub update_indirect_execution_set_pipeline_ext: PFN_vkUpdateIndirectExecutionSetPipelineEXT,
    pub update_indirect_execution_set_shader_ext: PFN_vkUpdateIndirectExecutionSetShaderEXT,
}

/// An entry point the driver did not return.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub function: &'static str,
}
impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the Vulkan driver returned no `{}`: is VK_EXT_device_generated_commands enabled on this device?",
            self.function
        )
    }
}
impl std::error::Error for LoadError {}

impl DeviceFn {
    /// Load every entry point through `load`, failing on the first one that is missing.
    ///
    /// # Safety
    /// `load` must return either null or a pointer to the Vulkan function of that name.
    pub unsafe fn load_with(mut load: impl FnMut(&CStr) -> *const std::ffi::c_void) -> Result<Self, LoadError> {
        macro_rules! get {
            ($name:literal, $pfn:ty) => {{
                let ptr = load($name);
                if ptr.is_null() {
                    return Err(LoadError {
                        function: match $name.to_str() {
                            Ok(s) => s,
                            Err(_) => "?",
                        },
                    });
                }
                // SAFETY: the loader returned the function of this name, whose C prototype
                // the PFN type mirrors.
                unsafe { std::mem::transmute::<*const std::ffi::c_void, $pfn>(ptr) }
            }};
        }
        Ok(Self {
            create_indirect_commands_layout_ext: get!(
                c"vkCreateIndirectCommandsLayoutEXT",
                PFN_vkCreateIndirectCommandsLayoutEXT
            ),
            destroy_indirect_commands_layout_ext: get!(
                c"vkDestroyIndirectCommandsLayoutEXT",
                PFN_vkDestroyIndirectCommandsLayoutEXT
            ),
            get_generated_commands_memory_requirements_ext: get!(
                c"vkGetGeneratedCommandsMemoryRequirementsEXT",
                PFN_vkGetGeneratedCommandsMemoryRequirementsEXT
            ),
            cmd_preprocess_generated_commands_ext: get!(
                c"vkCmdPreprocessGeneratedCommandsEXT",
                PFN_vkCmdPreprocessGeneratedCommandsEXT
            ),
            cmd_execute_generated_commands_ext: get!(
                c"vkCmdExecuteGeneratedCommandsEXT",
                PFN_vkCmdExecuteGeneratedCommandsEXT
            ),
            create_indirect_execution_set_ext: get!(
                c"vkCreateIndirectExecutionSetEXT",
                PFN_vkCreateIndirectExecutionSetEXT
            ),
            destroy_indirect_execution_set_ext: get!(
                c"vkDestroyIndirectExecutionSetEXT",
                PFN_vkDestroyIndirectExecutionSetEXT
            ),
            update_indirect_execution_set_pipeline_ext: get!(
                c"vkUpdateIndirectExecutionSetPipelineEXT",
                PFN_vkUpdateIndirectExecutionSetPipelineEXT
            ),
            update_indirect_execution_set_shader_ext: get!(
                c"vkUpdateIndirectExecutionSetShaderEXT",
                PFN_vkUpdateIndirectExecutionSetShaderEXT
            ),
        })
    }
}

/// The extension's device functions bound to one `VkDevice`, in the shape of ash 0.38's
/// `ash::nv::device_generated_commands::Device`.
#[derive(Clone)]
pub struct Device {
    handle: vk::Device,
    fp: DeviceFn,
}

impl Device {
    /// Load the entry points for `device` (created with the extension enabled).
    pub fn new(instance: &ash::Instance, device: &ash::Device) -> Result<Self, LoadError> {
        let handle = device.handle();
        // SAFETY: vkGetDeviceProcAddr returns null or the named function for this device.
        let fp = unsafe {
            DeviceFn::load_with(|name| match instance.get_device_proc_addr(handle, name.as_ptr()) {
                Some(f) => f as *const std::ffi::c_void,
                None => std::ptr::null(),
            })
        }?;
        Ok(Self { handle, fp })
    }

    /// Bind entry points loaded elsewhere (`DeviceFn::load_with`) to `handle`.
    pub fn from_parts(handle: vk::Device, fp: DeviceFn) -> Self {
        Self { handle, fp }
    }

    pub fn fp(&self) -> &DeviceFn {
        &self.fp
    }
    pub fn device(&self) -> vk::Device {
        self.handle
    }

    /// `vkCreateIndirectCommandsLayoutEXT`.
    ///
    /// # Safety
    /// Valid usage of the Vulkan command applies.
    pub unsafe fn create_indirect_commands_layout(
        &self,
        create_info: &IndirectCommandsLayoutCreateInfoEXT<'_>,
        allocation_callbacks: Option<&vk::AllocationCallbacks<'_>>,
    ) -> VkResult<IndirectCommandsLayoutEXT> {
        // SAFETY: the caller upholds the command's valid usage (this function's contract).
        unsafe {
            let mut layout = MaybeUninit::uninit();
            (self.fp.create_indirect_commands_layout_ext)(
                self.handle,
                create_info,
                allocation_callbacks.map_or(std::ptr::null(), |a| a),
                layout.as_mut_ptr(),
            )
            .assume_init_on_success(layout)
        }
    }

    /// `vkDestroyIndirectCommandsLayoutEXT`.
    ///
    /// # Safety
    /// Valid usage of the Vulkan command applies (not in use by pending work).
    pub unsafe fn destroy_indirect_commands_layout(
        &self,
        layout: IndirectCommandsLayoutEXT,
        allocation_callbacks: Option<&vk::AllocationCallbacks<'_>>,
    ) {
        // SAFETY: the caller upholds the command's valid usage (this function's contract).
        unsafe {
            (self.fp.destroy_indirect_commands_layout_ext)(
                self.handle,
                layout,
                allocation_callbacks.map_or(std::ptr::null(), |a| a),
            )
        }
    }

    /// `vkGetGeneratedCommandsMemoryRequirementsEXT`.
    ///
    /// # Safety
    /// Valid usage of the Vulkan command applies.
    pub unsafe fn get_generated_commands_memory_requirements(
        &self,
        info: &GeneratedCommandsMemoryRequirementsInfoEXT<'_>,
        memory_requirements: &mut vk::MemoryRequirements2<'_>,
    ) {
        // SAFETY: the caller upholds the command's valid usage (this function's contract).
        unsafe { (self.fp.get_generated_commands_memory_requirements_ext)(self.handle, info, memory_requirements) }
    }

    /// `vkCmdPreprocessGeneratedCommandsEXT`.
    ///
    /// # Safety
    /// Valid usage of the Vulkan command applies.
    pub unsafe fn cmd_preprocess_generated_commands(
        &self,
        command_buffer: vk::CommandBuffer,
        info: &GeneratedCommandsInfoEXT<'_>,
        state_command_buffer: vk::CommandBuffer,
    ) {
        // SAFETY: the caller upholds the command's valid usage (this function's contract).
        unsafe { (self.fp.cmd_preprocess_generated_commands_ext)(command_buffer, info, state_command_buffer) }
    }

    /// `vkCmdExecuteGeneratedCommandsEXT`.
    ///
    /// # Safety
    /// Valid usage of the Vulkan command applies.
    pub unsafe fn cmd_execute_generated_commands(
        &self,
        command_buffer: vk::CommandBuffer,
        is_preprocessed: bool,
        info: &GeneratedCommandsInfoEXT<'_>,
    ) {
        // SAFETY: the caller upholds the command's valid usage (this function's contract).
        unsafe { (self.fp.cmd_execute_generated_commands_ext)(command_buffer, is_preprocessed.into(), info) }
    }

    /// `vkCreateIndirectExecutionSetEXT`.
    ///
    /// # Safety
    /// Valid usage of the Vulkan command applies.
    pub unsafe fn create_indirect_execution_set(
        &self,
        create_info: &IndirectExecutionSetCreateInfoEXT<'_>,
        allocation_callbacks: Option<&vk::AllocationCallbacks<'_>>,
    ) -> VkResult<IndirectExecutionSetEXT> {
        // SAFETY: the caller upholds the command's valid usage (this function's contract).
        unsafe {
            let mut set = MaybeUninit::uninit();
            (self.fp.create_indirect_execution_set_ext)(
                self.handle,
                create_info,
                allocation_callbacks.map_or(std::ptr::null(), |a| a),
                set.as_mut_ptr(),
            )
            .assume_init_on_success(set)
        }
    }

    /// `vkDestroyIndirectExecutionSetEXT`.
    ///
    /// # Safety
    /// Valid usage of the Vulkan command applies (not in use by pending work).
    pub unsafe fn destroy_indirect_execution_set(
        &self,
        set: IndirectExecutionSetEXT,
        allocation_callbacks: Option<&vk::AllocationCallbacks<'_>>,
    ) {
        // SAFETY: the caller upholds the command's valid usage (this function's contract).
        unsafe {
            (self.fp.destroy_indirect_execution_set_ext)(
                self.handle,
                set,
                allocation_callbacks.map_or(std::ptr::null(), |a| a),
            )
        }
    }

    /// `vkUpdateIndirectExecutionSetPipelineEXT`.
    ///
    /// # Safety
    /// Valid usage of the Vulkan command applies.
    pub unsafe fn update_indirect_execution_set_pipeline(
        &self,
        set: IndirectExecutionSetEXT,
        writes: &[WriteIndirectExecutionSetPipelineEXT<'_>],
    ) {
        // SAFETY: the caller upholds the command's valid usage (this function's contract).
        unsafe {
            (self.fp.update_indirect_execution_set_pipeline_ext)(self.handle, set, writes.len() as u32, writes.as_ptr())
        }
    }

    /// `vkUpdateIndirectExecutionSetShaderEXT`.
    ///
    /// # Safety
    /// Valid usage of the Vulkan command applies.
    pub unsafe fn update_indirect_execution_set_shader(
        &self,
        set: IndirectExecutionSetEXT,
        writes: &[WriteIndirectExecutionSetShaderEXT<'_>],
    ) {
        // SAFETY: the caller upholds the command's valid usage (this function's contract).
        unsafe {
            (self.fp.update_indirect_execution_set_shader_ext)(self.handle, set, writes.len() as u32, writes.as_ptr())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loading_names_the_first_missing_entry_point() {
        let err = unsafe { DeviceFn::load_with(|_| std::ptr::null()) }.err();
        assert_eq!(err, Some(LoadError { function: "vkCreateIndirectCommandsLayoutEXT" }));
        // Present for the first three names only.
        let mut seen = 0;
        let err = unsafe {
            DeviceFn::load_with(|_| {
                seen += 1;
                if seen <= 3 {
                    std::ptr::NonNull::<std::ffi::c_void>::dangling().as_ptr() as *const _
                } else {
                    std::ptr::null()
                }
            })
        }
        .err();
        assert_eq!(err, Some(LoadError { function: "vkCmdPreprocessGeneratedCommandsEXT" }));
        assert!(err.unwrap().to_string().contains("VK_EXT_device_generated_commands"));
    }
}
