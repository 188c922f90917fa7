//! `dgcc probe`: read the live device into a `Profile` and a Vulkan Profiles JSON document.
//!
//! Why one function serves both `dgcc probe` and the executor: the executor refuses a layout
//! the device cannot run by running `dgcc check`'s device rules against the profile read here,
//! so "what the live device says" has exactly one reading. The JSON is the format
//! `vulkaninfo --json` writes (one capability block `device`, Vulkan struct names, flags as
//! arrays of `VK_…_BIT` names), so it loads back as a `--target` profile and other Khronos tools
//! read it too. Every `dgcc_core::device::Limit` has a home in it (`LIMIT_HOMES`, tested).
//!
//! Structures of extensions the device lacks are never chained into the query; their features
//! are stated as false (the device certainly lacks them) and their properties left unstated,
//! but for `maxPushDataSize`, 0 without `VK_EXT_descriptor_heap` (no push data at all).
//! Extension values (`VK_NV_mesh_shader`) are read from the device's extension list, which the
//! document carries whole, so the loader reads an unlisted one back as false.
//!
//! `probe_physical` reads an engine's instance and device and is always available; `probe()`,
//! which makes an instance of its own and picks a device as the headless context would, lives
//! with that context (`context::probe`, feature `headless`), so this module needs no context.

use super::ext_dgc;
use ash::vk;
use dgcc_core::device::coopmat::{CoopMatShape, CoopMatrices};
use dgcc_core::device::{Limit, LimitKind, Profile, ProfileSource};
use serde_json::{json, Map, Value};
use std::ffi::{CStr, CString};

/// What `dgcc probe` reads.
#[derive(Clone, Debug)]
pub struct Probe {
    pub profile: Profile,
    /// The Vulkan Profiles document.
    pub json: Value,
    pub device_name: String,
    /// `"1.4.305"`.
    pub api_version: String,
}

impl Probe {
    /// The JSON text as `dgcc probe --out` writes it (pretty, trailing newline).
    pub fn json_text(&self) -> String {
        serde_json::to_string_pretty(&self.json).unwrap_or_default() + "\n"
    }
}

/// The device's name as a string (`"?"` when it is not UTF-8-terminated).
pub(crate) fn device_name(props: &vk::PhysicalDeviceProperties) -> String {
    props.device_name_as_c_str().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|_| "?".into())
}

/// The device's extension names.
///
/// # Safety
/// `pd` was enumerated from `instance`.
pub(crate) unsafe fn device_extensions(instance: &ash::Instance, pd: vk::PhysicalDevice) -> Vec<CString> {
    // SAFETY: a physical device of this instance (the caller's contract).
    let props = unsafe { instance.enumerate_device_extension_properties(pd) }.unwrap_or_default();
    props.iter().filter_map(|p| p.extension_name_as_c_str().ok().map(CStr::to_owned)).collect()
}

/// Read one physical device (also used for an engine's device by `DgcDevice`).
///
/// # Safety
/// `pd` was enumerated from `instance`, which is alive; `pd` supports Vulkan 1.3 and `instance`
/// was created with an API version of 1.3 or newer (the 1.1–1.3 property and feature
/// structures are queried); `instance` came from the system's Vulkan loader (the
/// cooperative-matrix query loads it again to reach one of `instance`'s entry points).
pub unsafe fn probe_physical(instance: &ash::Instance, pd: vk::PhysicalDevice) -> Probe {
    // SAFETY: the caller's contract.
    let extensions = unsafe { device_extensions(instance, pd) };
    let has = |n: &CStr| extensions.iter().any(|e| e.as_c_str() == n);
    let (has_dgc, has_mesh) = (has(ext_dgc::NAME), has(ash::ext::mesh_shader::NAME));
    let (has_object, has_rtm1) = (has(ash::ext::shader_object::NAME), has(ash::khr::ray_tracing_maintenance1::NAME));
    let has_nv_mesh = has(ash::nv::mesh_shader::NAME);

    let mut p11 = vk::PhysicalDeviceVulkan11Properties::default();
    let mut p12 = vk::PhysicalDeviceVulkan12Properties::default();
    let mut p13 = vk::PhysicalDeviceVulkan13Properties::default();
    let mut pdgc = ext_dgc::PhysicalDeviceDeviceGeneratedCommandsPropertiesEXT::default();
    let mut props2 =
        vk::PhysicalDeviceProperties2::default().push_next(&mut p11).push_next(&mut p12).push_next(&mut p13);
    if has_dgc {
        props2 = props2.push_next(&mut pdgc);
    }
    // SAFETY: the chain holds only structures of extensions the device has.
    unsafe { instance.get_physical_device_properties2(pd, &mut props2) };
    let props = props2.properties;

    let mut f13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut fdgc = ext_dgc::PhysicalDeviceDeviceGeneratedCommandsFeaturesEXT::default();
    let mut fmesh = vk::PhysicalDeviceMeshShaderFeaturesEXT::default();
    let mut fobj = vk::PhysicalDeviceShaderObjectFeaturesEXT::default();
    let mut frtm = vk::PhysicalDeviceRayTracingMaintenance1FeaturesKHR::default();
    let mut feats2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut f13);
    if has_dgc {
        feats2 = feats2.push_next(&mut fdgc);
    }
    if has_mesh {
        feats2 = feats2.push_next(&mut fmesh);
    }
    if has_object {
        feats2 = feats2.push_next(&mut fobj);
    }
    if has_rtm1 {
        feats2 = feats2.push_next(&mut frtm);
    }
    // SAFETY: as above.
    unsafe { instance.get_physical_device_features2(pd, &mut feats2) };

    let name = device_name(&props);
    let api = props.api_version;
    let api_version =
        format!("{}.{}.{}", vk::api_version_major(api), vk::api_version_minor(api), vk::api_version_patch(api));
    let short = profile_name(p12.driver_id, &name);
    let mut profile =
        Profile::new(short, format!("{name} (Vulkan {api_version}), read from the live device"), ProfileSource::Live);
    let b = |v: vk::Bool32| (v == vk::TRUE) as u64;
    let lim = &props.limits;
    let mut set = |l: Limit, v: u64| {
        profile.set_cited(l, v, "[live] read from the device");
    };
    if has_dgc {
        set(Limit::MaxIndirectPipelineCount, pdgc.max_indirect_pipeline_count as u64);
        set(Limit::MaxIndirectShaderObjectCount, pdgc.max_indirect_shader_object_count as u64);
        set(Limit::MaxIndirectSequenceCount, pdgc.max_indirect_sequence_count as u64);
        set(Limit::MaxIndirectCommandsTokenCount, pdgc.max_indirect_commands_token_count as u64);
        set(Limit::MaxIndirectCommandsTokenOffset, pdgc.max_indirect_commands_token_offset as u64);
        set(Limit::MaxIndirectCommandsIndirectStride, pdgc.max_indirect_commands_indirect_stride as u64);
        set(
            Limit::SupportedIndirectCommandsInputModes,
            (pdgc.supported_indirect_commands_input_modes.as_raw() & 0x3) as u64,
        );
        let stages = |s: vk::ShaderStageFlags| (s.as_raw() & KNOWN_STAGE_BITS) as u64;
        set(Limit::SupportedIndirectCommandsShaderStages, stages(pdgc.supported_indirect_commands_shader_stages));
        set(
            Limit::SupportedIndirectCommandsShaderStagesPipelineBinding,
            stages(pdgc.supported_indirect_commands_shader_stages_pipeline_binding),
        );
        set(
            Limit::SupportedIndirectCommandsShaderStagesShaderBinding,
            stages(pdgc.supported_indirect_commands_shader_stages_shader_binding),
        );
        set(Limit::DeviceGeneratedCommandsTransformFeedback, b(pdgc.device_generated_commands_transform_feedback));
        set(
            Limit::DeviceGeneratedCommandsMultiDrawIndirectCount,
            b(pdgc.device_generated_commands_multi_draw_indirect_count),
        );
    }
    set(Limit::DeviceGeneratedCommands, if has_dgc { b(fdgc.device_generated_commands) } else { 0 });
    set(Limit::DynamicGeneratedPipelineLayout, if has_dgc { b(fdgc.dynamic_generated_pipeline_layout) } else { 0 });
    set(Limit::MeshShader, if has_mesh { b(fmesh.mesh_shader) } else { 0 });
    set(Limit::TaskShader, if has_mesh { b(fmesh.task_shader) } else { 0 });
    set(Limit::RayTracingMaintenance1, if has_rtm1 { b(frtm.ray_tracing_maintenance1) } else { 0 });
    set(Limit::ShaderObject, if has_object { b(fobj.shader_object) } else { 0 });
    set(Limit::SubgroupSizeControl, b(f13.subgroup_size_control));
    set(Limit::ComputeFullSubgroups, b(f13.compute_full_subgroups));
    set(Limit::NvMeshShader, has_nv_mesh as u64);
    // ash 0.38 predates VK_EXT_descriptor_heap (Vulkan 1.4.340), so its feature and
    // maxPushDataSize cannot be queried here: a device without the extension has no
    // descriptorHeap and no push data, and one with it leaves both unstated (a rule that needs
    // them says so).
    if !has(c"VK_EXT_descriptor_heap") {
        set(Limit::DescriptorHeap, 0);
        set(Limit::MaxPushDataSize, 0);
    }
    set(Limit::SubgroupSize, p11.subgroup_size as u64);
    set(Limit::MinSubgroupSize, p13.min_subgroup_size as u64);
    set(Limit::MaxSubgroupSize, p13.max_subgroup_size as u64);
    set(Limit::MaxComputeWorkgroupSubgroups, p13.max_compute_workgroup_subgroups as u64);
    set(Limit::RequiredSubgroupSizeStages, (p13.required_subgroup_size_stages.as_raw() & KNOWN_STAGE_BITS) as u64);
    set(Limit::SubgroupSupportedStages, (p11.subgroup_supported_stages.as_raw() & KNOWN_STAGE_BITS) as u64);
    set(Limit::MaxComputeWorkGroupSizeX, lim.max_compute_work_group_size[0] as u64);
    set(Limit::MaxComputeWorkGroupSizeY, lim.max_compute_work_group_size[1] as u64);
    set(Limit::MaxComputeWorkGroupSizeZ, lim.max_compute_work_group_size[2] as u64);
    set(Limit::MaxComputeWorkGroupInvocations, lim.max_compute_work_group_invocations as u64);
    set(Limit::MaxPushConstantsSize, lim.max_push_constants_size as u64);
    set(Limit::MaxVertexInputBindings, lim.max_vertex_input_bindings as u64);
    set(Limit::MaxDrawIndirectCount, lim.max_draw_indirect_count as u64);
    set(Limit::VendorId, props.vendor_id as u64);
    // SAFETY: the caller's contract (a physical device of this live instance).
    profile.cooperative_matrix = unsafe { cooperative_matrices(instance, pd, has(ash::khr::cooperative_matrix::NAME)) };

    // SAFETY: a valid physical device.
    let ext_props = unsafe { instance.enumerate_device_extension_properties(pd) }.unwrap_or_default();
    let mut ext_map = Map::new();
    for e in &ext_props {
        if let Ok(n) = e.extension_name_as_c_str() {
            ext_map.insert(n.to_string_lossy().into_owned(), json!(e.spec_version));
        }
    }
    let device_props = json!({
        "deviceName": name,
        "apiVersion": api,
        "driverVersion": props.driver_version,
        "vendorID": props.vendor_id,
        "deviceID": props.device_id,
        "deviceType": device_type_name(props.device_type),
    });
    let extra =
        Extra { device_properties: device_props, subgroup_operations: p11.subgroup_supported_operations.as_raw() };
    let json = profiles_document(&profile, &api_version, ext_map, extra);
    Probe { profile, json, device_name: name, api_version }
}

/// The device's `VkCooperativeMatrixPropertiesKHR` list: empty without the extension, `None`
/// when it cannot be read (the loader does not load, or the query fails).
///
/// Why a second `Entry`: the instance-level query needs `vkGetInstanceProcAddr`, which an
/// `ash::Instance` does not keep; loading the Vulkan loader again yields the same loader the
/// instance was created with.
///
/// # Safety
/// `pd` was enumerated from `instance`, which is alive.
unsafe fn cooperative_matrices(
    instance: &ash::Instance,
    pd: vk::PhysicalDevice,
    has_ext: bool,
) -> Option<CoopMatrices> {
    if !has_ext {
        return Some(CoopMatrices {
            shapes: vec![],
            citation: "[live] the device does not expose VK_KHR_cooperative_matrix".into(),
        });
    }
    // The process's loader (the instance came from some loader; the entry points are looked up
    // through the instance).
    let entry = crate::loader::entry().ok()?;
    let ext = ash::khr::cooperative_matrix::Instance::new(&entry, instance);
    // SAFETY: the caller's contract; the device has the extension.
    let props = unsafe { ext.get_physical_device_cooperative_matrix_properties(pd) }.ok()?;
    let shapes = props
        .iter()
        .map(|p| CoopMatShape {
            m: p.m_size,
            n: p.n_size,
            k: p.k_size,
            a: p.a_type.as_raw() as u32,
            b: p.b_type.as_raw() as u32,
            c: p.c_type.as_raw() as u32,
            result: p.result_type.as_raw() as u32,
            saturating: p.saturating_accumulation == vk::TRUE,
            scope: p.scope.as_raw() as u32,
        })
        .collect();
    Some(CoopMatrices { shapes, citation: "[live] vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR".into() })
}

/// The stage bits the Profiles format can name (`VkShaderStageFlagBits` of core, mesh and ray tracing).
const KNOWN_STAGE_BITS: u32 = 0x3FFF;

fn profile_name(driver: vk::DriverId, device_name: &str) -> String {
    match driver {
        vk::DriverId::MESA_LLVMPIPE => "lavapipe".into(),
        vk::DriverId::NVIDIA_PROPRIETARY => "nvidia".into(),
        vk::DriverId::MESA_RADV => "radv".into(),
        vk::DriverId::MESA_NVK => "nvk".into(),
        _ => {
            let s: String = device_name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
                .collect();
            s.trim_matches('-').to_string()
        }
    }
}

fn device_type_name(t: vk::PhysicalDeviceType) -> &'static str {
    match t {
        vk::PhysicalDeviceType::INTEGRATED_GPU => "VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU",
        vk::PhysicalDeviceType::DISCRETE_GPU => "VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU",
        vk::PhysicalDeviceType::VIRTUAL_GPU => "VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU",
        vk::PhysicalDeviceType::CPU => "VK_PHYSICAL_DEVICE_TYPE_CPU",
        _ => "VK_PHYSICAL_DEVICE_TYPE_OTHER",
    }
}

/// The `structure` of an extension value's home: the member is the extension's name in the
/// block's `extensions` object (present = true).
pub const EXTENSIONS: &str = "extensions";

/// The `structure` of a value that is a member of `VkPhysicalDeviceProperties` itself, beside
/// its `limits` (`vendorID`).
pub const DEVICE: &str = "VkPhysicalDeviceProperties";

/// Where each limit lives in the Profiles document: (limit, structure, member). The
/// three `maxComputeWorkGroupSize` entries share one array member; extension values live in
/// `EXTENSIONS`; `vendorID` is a member of `VkPhysicalDeviceProperties` itself (`DEVICE`).
pub const LIMIT_HOMES: [(Limit, &str, &str); 37] = {
    use Limit::*;
    const DGC_P: &str = "VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT";
    const DGC_F: &str = "VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT";
    const LIMITS: &str = "VkPhysicalDeviceProperties.limits";
    [
        (MaxIndirectPipelineCount, DGC_P, "maxIndirectPipelineCount"),
        (MaxIndirectShaderObjectCount, DGC_P, "maxIndirectShaderObjectCount"),
        (MaxIndirectSequenceCount, DGC_P, "maxIndirectSequenceCount"),
        (MaxIndirectCommandsTokenCount, DGC_P, "maxIndirectCommandsTokenCount"),
        (MaxIndirectCommandsTokenOffset, DGC_P, "maxIndirectCommandsTokenOffset"),
        (MaxIndirectCommandsIndirectStride, DGC_P, "maxIndirectCommandsIndirectStride"),
        (SupportedIndirectCommandsInputModes, DGC_P, "supportedIndirectCommandsInputModes"),
        (SupportedIndirectCommandsShaderStages, DGC_P, "supportedIndirectCommandsShaderStages"),
        (
            SupportedIndirectCommandsShaderStagesPipelineBinding,
            DGC_P,
            "supportedIndirectCommandsShaderStagesPipelineBinding",
        ),
        (
            SupportedIndirectCommandsShaderStagesShaderBinding,
            DGC_P,
            "supportedIndirectCommandsShaderStagesShaderBinding",
        ),
        (DeviceGeneratedCommandsTransformFeedback, DGC_P, "deviceGeneratedCommandsTransformFeedback"),
        (DeviceGeneratedCommandsMultiDrawIndirectCount, DGC_P, "deviceGeneratedCommandsMultiDrawIndirectCount"),
        (DeviceGeneratedCommands, DGC_F, "deviceGeneratedCommands"),
        (DynamicGeneratedPipelineLayout, DGC_F, "dynamicGeneratedPipelineLayout"),
        (MeshShader, "VkPhysicalDeviceMeshShaderFeaturesEXT", "meshShader"),
        (TaskShader, "VkPhysicalDeviceMeshShaderFeaturesEXT", "taskShader"),
        (RayTracingMaintenance1, "VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR", "rayTracingMaintenance1"),
        (ShaderObject, "VkPhysicalDeviceShaderObjectFeaturesEXT", "shaderObject"),
        (SubgroupSizeControl, "VkPhysicalDeviceVulkan13Features", "subgroupSizeControl"),
        (ComputeFullSubgroups, "VkPhysicalDeviceVulkan13Features", "computeFullSubgroups"),
        (DescriptorHeap, "VkPhysicalDeviceDescriptorHeapFeaturesEXT", "descriptorHeap"),
        (NvMeshShader, EXTENSIONS, "VK_NV_mesh_shader"),
        (SubgroupSize, "VkPhysicalDeviceVulkan11Properties", "subgroupSize"),
        (MinSubgroupSize, "VkPhysicalDeviceVulkan13Properties", "minSubgroupSize"),
        (MaxSubgroupSize, "VkPhysicalDeviceVulkan13Properties", "maxSubgroupSize"),
        (MaxComputeWorkgroupSubgroups, "VkPhysicalDeviceVulkan13Properties", "maxComputeWorkgroupSubgroups"),
        (RequiredSubgroupSizeStages, "VkPhysicalDeviceVulkan13Properties", "requiredSubgroupSizeStages"),
        (SubgroupSupportedStages, "VkPhysicalDeviceVulkan11Properties", "subgroupSupportedStages"),
        (MaxComputeWorkGroupSizeX, LIMITS, "maxComputeWorkGroupSize"),
        (MaxComputeWorkGroupSizeY, LIMITS, "maxComputeWorkGroupSize"),
        (MaxComputeWorkGroupSizeZ, LIMITS, "maxComputeWorkGroupSize"),
        (MaxComputeWorkGroupInvocations, LIMITS, "maxComputeWorkGroupInvocations"),
        (MaxPushConstantsSize, LIMITS, "maxPushConstantsSize"),
        (MaxVertexInputBindings, LIMITS, "maxVertexInputBindings"),
        (MaxDrawIndirectCount, LIMITS, "maxDrawIndirectCount"),
        (MaxPushDataSize, "VkPhysicalDeviceDescriptorHeapPropertiesEXT", "maxPushDataSize"),
        (VendorId, DEVICE, "vendorID"),
    ]
};

const STAGE_NAMES: [(u32, &str); 14] = [
    (0x1, "VK_SHADER_STAGE_VERTEX_BIT"),
    (0x2, "VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT"),
    (0x4, "VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT"),
    (0x8, "VK_SHADER_STAGE_GEOMETRY_BIT"),
    (0x10, "VK_SHADER_STAGE_FRAGMENT_BIT"),
    (0x20, "VK_SHADER_STAGE_COMPUTE_BIT"),
    (0x40, "VK_SHADER_STAGE_TASK_BIT_EXT"),
    (0x80, "VK_SHADER_STAGE_MESH_BIT_EXT"),
    (0x100, "VK_SHADER_STAGE_RAYGEN_BIT_KHR"),
    (0x200, "VK_SHADER_STAGE_ANY_HIT_BIT_KHR"),
    (0x400, "VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR"),
    (0x800, "VK_SHADER_STAGE_MISS_BIT_KHR"),
    (0x1000, "VK_SHADER_STAGE_INTERSECTION_BIT_KHR"),
    (0x2000, "VK_SHADER_STAGE_CALLABLE_BIT_KHR"),
];
const INPUT_MODE_NAMES: [(u32, &str); 2] = [
    (0x1, "VK_INDIRECT_COMMANDS_INPUT_MODE_VULKAN_INDEX_BUFFER_EXT"),
    (0x2, "VK_INDIRECT_COMMANDS_INPUT_MODE_DXGI_INDEX_BUFFER_EXT"),
];
const SUBGROUP_OP_NAMES: [(u32, &str); 11] = [
    (0x1, "VK_SUBGROUP_FEATURE_BASIC_BIT"),
    (0x2, "VK_SUBGROUP_FEATURE_VOTE_BIT"),
    (0x4, "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT"),
    (0x8, "VK_SUBGROUP_FEATURE_BALLOT_BIT"),
    (0x10, "VK_SUBGROUP_FEATURE_SHUFFLE_BIT"),
    (0x20, "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT"),
    (0x40, "VK_SUBGROUP_FEATURE_CLUSTERED_BIT"),
    (0x80, "VK_SUBGROUP_FEATURE_QUAD_BIT"),
    (0x100, "VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV"),
    (0x200, "VK_SUBGROUP_FEATURE_ROTATE_BIT_KHR"),
    (0x400, "VK_SUBGROUP_FEATURE_ROTATE_CLUSTERED_BIT_KHR"),
];

fn flag_names(mask: u32, table: &[(u32, &str)]) -> Value {
    Value::Array(table.iter().filter(|(bit, _)| mask & bit != 0).map(|(_, n)| Value::from(*n)).collect())
}

fn written(limit: Limit, v: u64) -> Value {
    match limit.kind() {
        LimitKind::Bool => Value::Bool(v != 0),
        LimitKind::Stages => flag_names(v as u32, &STAGE_NAMES),
        LimitKind::InputModes => flag_names(v as u32, &INPUT_MODE_NAMES),
        LimitKind::Count | LimitKind::Id => json!(v),
    }
}

struct Extra {
    device_properties: Value,
    subgroup_operations: u32,
}

fn profiles_document(profile: &Profile, api_version: &str, mut extensions: Map<String, Value>, extra: Extra) -> Value {
    let mut features = Map::new();
    let mut properties = Map::new();
    let mut device_props = match extra.device_properties {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    let mut limits = Map::new();
    let mut work_group = [0u64; 3];
    for (limit, structure, member) in LIMIT_HOMES {
        let Some(v) = profile.value(limit) else { continue };
        match limit {
            Limit::MaxComputeWorkGroupSizeX => work_group[0] = v,
            Limit::MaxComputeWorkGroupSizeY => work_group[1] = v,
            Limit::MaxComputeWorkGroupSizeZ => work_group[2] = v,
            // The list is the device's; the profile's value was read from it, and wins if not.
            _ if structure == EXTENSIONS && v == 0 => {
                extensions.remove(member);
            }
            _ if structure == EXTENSIONS => {
                extensions.entry(member).or_insert(json!(1));
            }
            _ if structure == "VkPhysicalDeviceProperties.limits" => {
                limits.insert(member.into(), written(limit, v));
            }
            // Where the device's own properties already name it, the profile's value takes its place.
            _ if structure == DEVICE => {
                device_props.insert(member.into(), written(limit, v));
            }
            _ => {
                let section = if limit.is_feature() { &mut features } else { &mut properties };
                let entry = section.entry(structure.to_string()).or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(m) = entry {
                    m.insert(member.into(), written(limit, v));
                }
            }
        }
    }
    limits.insert("maxComputeWorkGroupSize".into(), json!(work_group));
    device_props.insert("limits".into(), Value::Object(limits));
    properties.insert("VkPhysicalDeviceProperties".into(), Value::Object(device_props));
    if let Some(m) = &profile.cooperative_matrix {
        properties.insert(dgcc_core::device::json::coopmat::KEY.into(), dgcc_core::device::json::coopmat::write(m));
    }
    if let Some(Value::Object(m)) = properties.get_mut("VkPhysicalDeviceVulkan11Properties") {
        m.insert("subgroupSupportedOperations".into(), flag_names(extra.subgroup_operations, &SUBGROUP_OP_NAMES));
    }
    let profile_key = format!(
        "VP_DGCC_{}",
        profile.name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect::<String>()
    );
    json!({
        "$schema": "https://schema.khronos.org/vulkan/profiles-0.8-latest.json#",
        "capabilities": { "device": {
            "extensions": extensions,
            "features": features,
            "properties": properties,
        } },
        "profiles": { profile_key: {
            "version": 1,
            "api-version": api_version,
            "label": profile.description,
            "description": "Exported from dgcc probe",
            "capabilities": ["device"],
        } },
    })
}

/// The physical device's `maxBufferSize` (`VkPhysicalDeviceVulkan13Properties`).
///
/// # Safety
/// `physical` was enumerated from `instance`, which is alive, and supports Vulkan 1.3.
pub(crate) unsafe fn max_buffer_size(instance: &ash::Instance, physical: vk::PhysicalDevice) -> u64 {
    let mut v13 = vk::PhysicalDeviceVulkan13Properties::default();
    let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut v13);
    // SAFETY: the caller's contract; the chain holds a 1.3 struct, which a 1.3 device fills.
    unsafe { instance.get_physical_device_properties2(physical, &mut properties) };
    v13.max_buffer_size
}

/// `vkGetPhysicalDeviceImageFormatProperties` for an optimally tiled 2D image without flags,
/// what `Image::new` makes.
///
/// # Safety
/// `physical` was enumerated from `instance`, which is alive.
pub(crate) unsafe fn image_format_properties(
    instance: &ash::Instance,
    physical: vk::PhysicalDevice,
    format: vk::Format,
    usage: vk::ImageUsageFlags,
) -> std::result::Result<vk::ImageFormatProperties, vk::Result> {
    // SAFETY: the caller's contract; the other arguments are plain values.
    unsafe {
        instance.get_physical_device_image_format_properties(
            physical,
            format,
            vk::ImageType::TYPE_2D,
            vk::ImageTiling::OPTIMAL,
            usage,
            vk::ImageCreateFlags::empty(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_has_exactly_one_home() {
        for l in Limit::ALL {
            assert_eq!(LIMIT_HOMES.iter().filter(|h| h.0 == l).count(), 1, "{l}");
        }
    }

    #[test]
    fn a_document_states_every_value_of_a_full_profile() {
        let mut p = dgcc_core::device::builtin("lavapipe").expect("built in");
        for l in Limit::ALL {
            // An extension is stated by being listed, so a full document has them true.
            if p.value(l).is_none() || l.is_extension() {
                p.set(l, 1);
            }
        }
        let doc = profiles_document(
            &p,
            "1.4.305",
            Map::new(),
            Extra { device_properties: json!({"deviceName": "x"}), subgroup_operations: 0x7 },
        );
        let device = &doc["capabilities"]["device"];
        for (l, structure, member) in LIMIT_HOMES {
            let v = match structure.split_once('.') {
                _ if structure == EXTENSIONS => &device[EXTENSIONS][member],
                Some((s, "limits")) => &device["properties"][s]["limits"][member],
                _ if l.is_feature() => &device["features"][structure][member],
                _ => &device["properties"][structure][member],
            };
            assert!(!v.is_null(), "{l} missing at {structure}.{member}");
        }
        let stages = &device["properties"]["VkPhysicalDeviceVulkan11Properties"]["subgroupSupportedStages"];
        assert!(stages.as_array().is_some_and(|a| a
            .iter()
            .all(|s| s.as_str().is_some_and(|s| s.starts_with("VK_SHADER_STAGE_") && s.contains("_BIT")))));
        assert_eq!(
            device["properties"]["VkPhysicalDeviceVulkan11Properties"]["subgroupSupportedOperations"],
            json!([
                "VK_SUBGROUP_FEATURE_BASIC_BIT",
                "VK_SUBGROUP_FEATURE_VOTE_BIT",
                "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT"
            ])
        );
        assert!(doc["profiles"]["VP_DGCC_lavapipe"]["api-version"] == "1.4.305");
    }

    #[test]
    fn the_extension_list_agrees_with_the_extension_values() {
        let document = |nv_mesh: Option<u64>| {
            let mut p = Profile::new("x", "x", ProfileSource::Live);
            if let Some(v) = nv_mesh {
                p.set(Limit::NvMeshShader, v);
            }
            let mut listed = Map::new();
            listed.insert("VK_NV_mesh_shader".into(), json!(1));
            listed.insert("VK_KHR_maintenance5".into(), json!(1));
            let extra = Extra { device_properties: json!({}), subgroup_operations: 0 };
            let doc = profiles_document(&p, "1.4.305", listed, extra);
            let list = doc["capabilities"]["device"][EXTENSIONS].as_object().cloned().unwrap_or_default();
            (list.contains_key("VK_NV_mesh_shader"), list.contains_key("VK_KHR_maintenance5"))
        };
        // The device's list is written whole; the profile's value decides the one it states.
        assert_eq!(document(Some(0)), (false, true));
        assert_eq!(document(Some(1)), (true, true));
        assert_eq!(document(None), (true, true));
    }

    #[test]
    fn flags_are_written_as_bit_names() {
        assert_eq!(
            written(Limit::SupportedIndirectCommandsInputModes, 3),
            json!([INPUT_MODE_NAMES[0].1, INPUT_MODE_NAMES[1].1])
        );
        assert_eq!(
            written(Limit::SupportedIndirectCommandsShaderStages, 0x31),
            json!(["VK_SHADER_STAGE_VERTEX_BIT", "VK_SHADER_STAGE_FRAGMENT_BIT", "VK_SHADER_STAGE_COMPUTE_BIT"])
        );
        assert_eq!(written(Limit::DeviceGeneratedCommands, 1), json!(true));
        assert_eq!(profile_name(vk::DriverId::MESA_LLVMPIPE, "llvmpipe"), "lavapipe");
        assert_eq!(profile_name(vk::DriverId::default(), "Some GPU (x)"), "some-gpu--x");
    }
}
