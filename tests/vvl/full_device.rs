//! A device with every optional feature an indirect-commands layout can depend on, as far as the
//! hardware has it: mesh and task shaders (EXT, and NV where present), shader objects, and
//! ray-tracing maintenance 1 with the extensions it needs.
//!
//! Why: the validation layer judges a layout by what was *enabled* (a DRAW_MESH_TASKS token on a
//! device without `meshShader` enabled is an error however capable the GPU), while `dgcc check`
//! judges it by the device's profile. To compare the two, the device must enable what the
//! profile says the hardware has; `Enabled` records what actually was, so the profile given to
//! dgcc can be narrowed to the same thing.
//!
//! `dynamicGeneratedPipelineLayout` is deliberately left off: the differential test relies on
//! `VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11101` (a push token with a NULL pipeline
//! layout and that feature off) as a sentinel error that stops a dry-run call in the layer.

use super::ext_dgc;
use ash::vk;
use std::ffi::{c_void, CStr};

/// Which optional features the device was created with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Enabled {
    pub mesh_shader: bool,
    pub task_shader: bool,
    /// `VK_NV_mesh_shader` (the `*_NV_EXT` mesh tokens' enum values need it).
    pub nv_mesh_shader: bool,
    pub shader_object: bool,
    pub ray_tracing_maintenance1: bool,
}

fn has(exts: &[vk::ExtensionProperties], name: &CStr) -> bool {
    exts.iter().any(|e| e.extension_name_as_c_str() == Ok(name))
}

/// Pick the device (`DGCC_DEVICE` narrows by name, as the runtime does) and create it.
pub fn create(instance: &ash::Instance) -> Result<(ash::Device, String, vk::PhysicalDevice, Enabled), String> {
    // SAFETY: valid instance.
    let physicals = unsafe { instance.enumerate_physical_devices() }
        .map_err(|e| format!("vkEnumeratePhysicalDevices failed: {e}"))?;
    let wanted_name = std::env::var("DGCC_DEVICE").ok();
    let required = [ext_dgc::EXTENSION_NAME, ash::khr::maintenance5::NAME];
    let (physical, name, exts) = physicals
        .into_iter()
        .find_map(|pd| {
            // SAFETY: `pd` came from this instance.
            let props = unsafe { instance.get_physical_device_properties(pd) };
            let exts = unsafe { instance.enumerate_device_extension_properties(pd) }.unwrap_or_default();
            let name = props.device_name_as_c_str().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let named = wanted_name.as_ref().is_none_or(|w| name.contains(w.as_str()));
            (named && props.api_version >= vk::API_VERSION_1_3 && required.iter().all(|r| has(&exts, r))).then_some((pd, name, exts))
        })
        .ok_or("no Vulkan 1.3 device (matching DGCC_DEVICE) exposes VK_EXT_device_generated_commands and VK_KHR_maintenance5")?;

    // What the hardware has.
    let ext_mesh = has(&exts, ash::ext::mesh_shader::NAME);
    let ext_nv_mesh = has(&exts, ash::nv::mesh_shader::NAME);
    let ext_object = has(&exts, ash::ext::shader_object::NAME);
    let ext_rt = [
        ash::khr::ray_tracing_maintenance1::NAME,
        ash::khr::ray_tracing_pipeline::NAME,
        ash::khr::acceleration_structure::NAME,
        ash::khr::deferred_host_operations::NAME,
    ]
    .iter()
    .all(|n| has(&exts, n));
    let mut q_dgc = ext_dgc::FeaturesExt::default();
    let mut q_m5 = vk::PhysicalDeviceMaintenance5FeaturesKHR::default();
    let mut q12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut q13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut q_mesh = vk::PhysicalDeviceMeshShaderFeaturesEXT::default();
    let mut q_nv = vk::PhysicalDeviceMeshShaderFeaturesNV::default();
    let mut q_obj = vk::PhysicalDeviceShaderObjectFeaturesEXT::default();
    let mut q_rtm = vk::PhysicalDeviceRayTracingMaintenance1FeaturesKHR::default();
    let mut q_rtp = vk::PhysicalDeviceRayTracingPipelineFeaturesKHR::default();
    let mut q_as = vk::PhysicalDeviceAccelerationStructureFeaturesKHR::default();
    q_m5.p_next = (&mut q_dgc as *mut ext_dgc::FeaturesExt).cast();
    let mut query = vk::PhysicalDeviceFeatures2::default().push_next(&mut q12).push_next(&mut q13).push_next(&mut q_m5);
    if ext_mesh {
        query = query.push_next(&mut q_mesh);
    }
    if ext_nv_mesh {
        query = query.push_next(&mut q_nv);
    }
    if ext_object {
        query = query.push_next(&mut q_obj);
    }
    if ext_rt {
        query = query.push_next(&mut q_rtm).push_next(&mut q_rtp).push_next(&mut q_as);
    }
    // SAFETY: every structure in the chain belongs to an extension the device has.
    unsafe { instance.get_physical_device_features2(physical, &mut query) };
    let on = |b: vk::Bool32| b == vk::TRUE;
    if !on(q_dgc.device_generated_commands) || !on(q_m5.maintenance5) || !on(q12.buffer_device_address) {
        return Err(format!("{name} lacks deviceGeneratedCommands, maintenance5 or bufferDeviceAddress"));
    }
    let enabled = Enabled {
        mesh_shader: ext_mesh && on(q_mesh.mesh_shader),
        task_shader: ext_mesh && on(q_mesh.task_shader),
        nv_mesh_shader: ext_nv_mesh && on(q_nv.mesh_shader) && on(q_nv.task_shader),
        shader_object: ext_object && on(q_obj.shader_object),
        ray_tracing_maintenance1: ext_rt
            && on(q_rtm.ray_tracing_maintenance1)
            && on(q_rtp.ray_tracing_pipeline)
            && on(q_as.acceleration_structure),
    };

    // Enable exactly that.
    let mut e_dgc = ext_dgc::FeaturesExt { device_generated_commands: vk::TRUE, ..Default::default() };
    let mut e_m5 = vk::PhysicalDeviceMaintenance5FeaturesKHR::default().maintenance5(true);
    e_m5.p_next = (&mut e_dgc as *mut ext_dgc::FeaturesExt).cast::<c_void>();
    let mut e12 = vk::PhysicalDeviceVulkan12Features::default().buffer_device_address(true);
    let mut e13 = vk::PhysicalDeviceVulkan13Features::default().dynamic_rendering(on(q13.dynamic_rendering));
    let mut e_mesh = vk::PhysicalDeviceMeshShaderFeaturesEXT::default()
        .mesh_shader(enabled.mesh_shader)
        .task_shader(enabled.task_shader);
    let mut e_nv = vk::PhysicalDeviceMeshShaderFeaturesNV::default().mesh_shader(true).task_shader(true);
    let mut e_obj = vk::PhysicalDeviceShaderObjectFeaturesEXT::default().shader_object(true);
    let mut e_rtm = vk::PhysicalDeviceRayTracingMaintenance1FeaturesKHR::default().ray_tracing_maintenance1(true);
    let mut e_rtp = vk::PhysicalDeviceRayTracingPipelineFeaturesKHR::default().ray_tracing_pipeline(true);
    let mut e_as = vk::PhysicalDeviceAccelerationStructureFeaturesKHR::default().acceleration_structure(true);
    let mut names: Vec<*const std::ffi::c_char> = required.iter().map(|n| n.as_ptr()).collect();
    // SAFETY: `physical` came from this instance.
    let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
    let family = families
        .iter()
        .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
        .ok_or_else(|| format!("{name} has no compute queue"))?;
    let priorities = [1.0];
    let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family as u32).queue_priorities(&priorities)];
    let mut info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .push_next(&mut e12)
        .push_next(&mut e13)
        .push_next(&mut e_m5);
    if enabled.mesh_shader || enabled.task_shader {
        names.push(ash::ext::mesh_shader::NAME.as_ptr());
        info = info.push_next(&mut e_mesh);
    }
    if enabled.nv_mesh_shader {
        names.push(ash::nv::mesh_shader::NAME.as_ptr());
        info = info.push_next(&mut e_nv);
    }
    if enabled.shader_object {
        names.push(ash::ext::shader_object::NAME.as_ptr());
        info = info.push_next(&mut e_obj);
    }
    if enabled.ray_tracing_maintenance1 {
        for n in [
            ash::khr::ray_tracing_maintenance1::NAME,
            ash::khr::ray_tracing_pipeline::NAME,
            ash::khr::acceleration_structure::NAME,
            ash::khr::deferred_host_operations::NAME,
        ] {
            names.push(n.as_ptr());
        }
        info = info.push_next(&mut e_rtm).push_next(&mut e_rtp).push_next(&mut e_as);
    }
    info = info.enabled_extension_names(&names);
    // SAFETY: the chain holds only features the device reported, of extensions enabled here; it
    // lives until the call returns.
    let device = unsafe { instance.create_device(physical, &info, None) }
        .map_err(|e| format!("vkCreateDevice on {name} failed: {e}"))?;
    Ok((device, name, physical, enabled))
}
