//! The built-in profiles, every value with its source.
//!
//! Tags: `[spec]` the Required Limits table of the Vulkan spec (1.4.360) or a Vulkan 1.3
//! feature requirement; `[measured]` read from the driver on 2026-11-30 (lavapipe: Mesa 25.0.7,
//! LLVM 15.0.6, 256-bit; nvidia: H200, driver 580.159.04, Vulkan 1.4.312); `[src]` read in the
//! Mesa source of the named driver (`radv_physical_device.c`, `nvk_physical_device.c`).
//! A value no source confirms is left out, so a rule that needs it reports it as missing
//! rather than trusting a guess: `radv` and `nvk` do not state `VK_NV_mesh_shader`, because
//! the Mesa files cited here were not read for their extension tables; `nvidia` states the
//! H200's eleven cooperative-matrix shapes as `dgcc probe` read them on the device on
//! 2026-12-01 (`tests/profiles/nvidia-h200-probe.json`, which a test holds them to); `radv` does
//! not state mesh shading, which depends on the GPU generation: `radv-mesh` is RADV on the GPUs
//! that have it. `anv` is a device without VK_EXT_device_generated_commands: on it, `dgcc
//! check` proves that the runtime's multi-draw-indirect fallback runs each layout (E0214
//! names the token that stops it), and the DGC limits do not apply. Every driver but `minimum`
//! states its `vendorID` (`vendor.rs`), which the spec leaves to the device.

use super::coopmat::CoopMatrices;
use super::{vendor, Limit, Profile, ProfileSource};
use Limit::*;

pub const BUILTIN_NAMES: [&str; 7] = ["minimum", "lavapipe", "nvidia", "radv", "radv-mesh", "nvk", "anv"];

pub fn builtin_names() -> &'static [&'static str] {
    &BUILTIN_NAMES
}

pub fn builtin(name: &str) -> Option<Profile> {
    Some(match name {
        "minimum" => minimum(),
        "lavapipe" => lavapipe(),
        "nvidia" => nvidia(),
        "radv" => radv(),
        "radv-mesh" => radv_mesh(),
        "nvk" => nvk(),
        "anv" => anv(),
        _ => return None,
    })
}

const SPEC: &str = "[spec] Required Limits, Vulkan 1.4.360";
const SPEC13: &str = "[spec] required by Vulkan 1.3";
const LVP: &str = "[measured] lavapipe, Mesa 25.0.7 (LLVM 15.0.6, 256 bits)";
const NV: &str = "[measured] NVIDIA H200, driver 580.159.04";
const RADV: &str = "[src] Mesa radv_physical_device.c";
const NVK: &str = "[src] Mesa nvk_physical_device.c";

fn minimum() -> Profile {
    let mut p = Profile::new(
        "minimum",
        "the least the spec guarantees: a Vulkan 1.3 device exposing VK_EXT_device_generated_commands and nothing more",
        ProfileSource::Builtin,
    );
    for (l, v) in [
        (MaxIndirectPipelineCount, 1 << 12),
        (MaxIndirectShaderObjectCount, 0),
        (MaxIndirectSequenceCount, 1 << 20),
        (MaxIndirectCommandsTokenCount, 16),
        (MaxIndirectCommandsTokenOffset, 2047),
        (MaxIndirectCommandsIndirectStride, 2048),
        (SupportedIndirectCommandsInputModes, 0x1),
        (SupportedIndirectCommandsShaderStages, 0x31),
        (SupportedIndirectCommandsShaderStagesPipelineBinding, 0),
        (SupportedIndirectCommandsShaderStagesShaderBinding, 0),
        (DeviceGeneratedCommandsTransformFeedback, 0),
        (DeviceGeneratedCommandsMultiDrawIndirectCount, 0),
        (DeviceGeneratedCommands, 1),
        (DynamicGeneratedPipelineLayout, 0),
        (MeshShader, 0),
        (TaskShader, 0),
        (RayTracingMaintenance1, 0),
        (ShaderObject, 0),
        (SubgroupSize, 1),
        (MinSubgroupSize, 1),
        (MaxSubgroupSize, 1),
        (MaxComputeWorkgroupSubgroups, 1),
        (RequiredSubgroupSizeStages, 0),
        (SubgroupSupportedStages, 0x20),
        (MaxComputeWorkGroupSizeX, 128),
        (MaxComputeWorkGroupSizeY, 128),
        (MaxComputeWorkGroupSizeZ, 64),
        (MaxComputeWorkGroupInvocations, 128),
        (MaxPushConstantsSize, 128),
        (MaxVertexInputBindings, 16),
    ] {
        p.set_cited(l, v, SPEC);
    }
    p.set_cited(SubgroupSizeControl, 1, SPEC13);
    p.set_cited(ComputeFullSubgroups, 1, SPEC13);
    p.set_cited(NvMeshShader, 0, "[spec] VK_NV_mesh_shader is an optional extension");
    p.set_cited(DescriptorHeap, 0, "[spec] VK_EXT_descriptor_heap is an optional extension");
    p.set_cited(MaxPushDataSize, 0, "[spec] no push data without VK_EXT_descriptor_heap");
    p.cooperative_matrix = Some(CoopMatrices {
        shapes: vec![],
        citation: "[spec] VK_KHR_cooperative_matrix is an optional extension".into(),
    });
    p
}

fn lavapipe() -> Profile {
    let mut p = Profile::new(
        "lavapipe",
        "Mesa lavapipe 25.0.7 on a 256-bit (AVX2) host: subgroup size 8 (4 with LP_NATIVE_VECTOR_WIDTH=128)",
        ProfileSource::Builtin,
    );
    for (l, v) in [
        (MaxIndirectPipelineCount, 4096),
        (MaxIndirectShaderObjectCount, 4096),
        (MaxIndirectSequenceCount, 1 << 20),
        (MaxIndirectCommandsTokenCount, 16),
        (MaxIndirectCommandsTokenOffset, 2047),
        (MaxIndirectCommandsIndirectStride, 2048),
        (SupportedIndirectCommandsInputModes, 0x3),
        (SupportedIndirectCommandsShaderStages, 0x7FFF_FFFF),
        (SupportedIndirectCommandsShaderStagesPipelineBinding, 0x7FFF_FFFF),
        (SupportedIndirectCommandsShaderStagesShaderBinding, 0x7FFF_FFFF),
        (DeviceGeneratedCommandsTransformFeedback, 1),
        (DeviceGeneratedCommandsMultiDrawIndirectCount, 1),
        (DeviceGeneratedCommands, 1),
        (DynamicGeneratedPipelineLayout, 1),
        (MeshShader, 1),
        (TaskShader, 1),
        (RayTracingMaintenance1, 1),
        (ShaderObject, 1),
        (SubgroupSizeControl, 1),
        (ComputeFullSubgroups, 1),
        (SubgroupSize, 8),
        (MinSubgroupSize, 8),
        (MaxSubgroupSize, 8),
        (MaxComputeWorkgroupSubgroups, 32),
        (RequiredSubgroupSizeStages, 0x30),
        (SubgroupSupportedStages, 0xF0),
        (MaxComputeWorkGroupSizeX, 1024),
        (MaxComputeWorkGroupSizeY, 1024),
        (MaxComputeWorkGroupSizeZ, 1024),
        (MaxComputeWorkGroupInvocations, 1024),
        (MaxPushConstantsSize, 256),
        (MaxVertexInputBindings, 32),
        (MaxDrawIndirectCount, 0xFFFF_FFFF),
    ] {
        p.set_cited(l, v, LVP);
    }
    p.set_cited(
        NvMeshShader,
        0,
        "[measured] lavapipe, Mesa 25.0.7: its vulkaninfo extension list (tests/profiles/lavapipe-vulkaninfo-1.3.239.json) has no VK_NV_mesh_shader",
    );
    p.set_cited(
        DescriptorHeap,
        0,
        "[measured] lavapipe, Mesa 25.0.7: its vulkaninfo extension list (tests/profiles/lavapipe-vulkaninfo-1.3.239.json) has no VK_EXT_descriptor_heap",
    );
    p.set_cited(MaxPushDataSize, 0, "[measured] lavapipe, Mesa 25.0.7: no VK_EXT_descriptor_heap, so no push data");
    p.set_cited(
        VendorId,
        vendor::MESA.into(),
        "[measured] lavapipe, Mesa 25.0.7: VK_VENDOR_ID_MESA (tests/profiles/lavapipe-vulkaninfo-1.3.239.json)",
    );
    p.cooperative_matrix = Some(CoopMatrices {
        shapes: vec![],
        citation: "[measured] lavapipe, Mesa 25.0.7: `dgcc probe` finds no VK_KHR_cooperative_matrix".into(),
    });
    p
}

fn nvidia() -> Profile {
    let mut p =
        Profile::new("nvidia", "NVIDIA H200, proprietary driver 580.159.04, Vulkan 1.4.312", ProfileSource::Builtin);
    for (l, v) in [
        (MaxIndirectPipelineCount, 16384),
        (MaxIndirectShaderObjectCount, 16384),
        (MaxIndirectSequenceCount, 4_194_303),
        (MaxIndirectCommandsTokenCount, 32),
        (MaxIndirectCommandsTokenOffset, 0xFFFF_FFFF),
        (MaxIndirectCommandsIndirectStride, 0xFFFF_FFFF),
        (SupportedIndirectCommandsInputModes, 0x3),
        (SupportedIndirectCommandsShaderStages, 0xFF),
        (SupportedIndirectCommandsShaderStagesPipelineBinding, 0xFF),
        (SupportedIndirectCommandsShaderStagesShaderBinding, 0xFF),
        (DeviceGeneratedCommandsTransformFeedback, 1),
        (DeviceGeneratedCommandsMultiDrawIndirectCount, 1),
        (DeviceGeneratedCommands, 1),
        (DynamicGeneratedPipelineLayout, 1),
        (MeshShader, 1),
        (TaskShader, 1),
        (RayTracingMaintenance1, 1),
        (SubgroupSizeControl, 1),
        (ComputeFullSubgroups, 1),
        (SubgroupSize, 32),
        (MinSubgroupSize, 32),
        (MaxSubgroupSize, 32),
        (MaxComputeWorkgroupSubgroups, 32),
        (RequiredSubgroupSizeStages, 0x3FFF),
        (SubgroupSupportedStages, 0x3FFF),
        (MaxComputeWorkGroupSizeX, 1024),
        (MaxComputeWorkGroupSizeY, 1024),
        (MaxComputeWorkGroupSizeZ, 64),
        (MaxComputeWorkGroupInvocations, 1024),
        (MaxPushConstantsSize, 256),
        (MaxVertexInputBindings, 32),
        (MaxDrawIndirectCount, 0xFFFF_FFFF),
    ] {
        p.set_cited(l, v, NV);
    }
    p.set_cited(
        ShaderObject,
        1,
        "[measured] NVIDIA H200 580.159.04 exposes VK_EXT_shader_object and maxIndirectShaderObjectCount 16384 (non-zero only with shaderObject)",
    );
    p.set_cited(
        NvMeshShader,
        1,
        "[measured] NVIDIA H200 580.159.04: vulkaninfo and `dgcc probe` (tests/profiles/nvidia-h200-probe.json) list VK_NV_mesh_shader",
    );
    p.set_cited(
        DescriptorHeap,
        0,
        "[measured] NVIDIA H200 580.159.04: neither vulkaninfo nor `dgcc probe` (tests/profiles/nvidia-h200-probe.json) lists VK_EXT_descriptor_heap",
    );
    p.set_cited(MaxPushDataSize, 0, "[measured] NVIDIA H200 580.159.04: no VK_EXT_descriptor_heap, so no push data");
    p.set_cited(
        VendorId,
        vendor::NVIDIA.into(),
        "[measured] NVIDIA H200 580.159.04: vulkaninfo and `dgcc probe` (tests/profiles/nvidia-h200-probe.json)",
    );
    p.cooperative_matrix = Some(CoopMatrices { shapes: h200_cooperative_matrices(), citation: H200_COOPMAT.into() });
    p
}

const H200_COOPMAT: &str = "[measured] NVIDIA H200 580.159.04: `dgcc probe` on the device, 2026-12-01 (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR; tests/profiles/nvidia-h200-probe.json)";

/// The H200's `VkCooperativeMatrixPropertiesKHR` list, in the driver's order: M, N, K, the A/B
/// and C/result component types, all at subgroup scope, none saturating.
fn h200_cooperative_matrices() -> Vec<super::coopmat::CoopMatShape> {
    use super::coopmat::{component_from_name as ty, CoopMatShape, SCOPE_SUBGROUP};
    let rows: [(u32, u32, u32, &str, &str); 11] = [
        (16, 16, 16, "FLOAT16", "FLOAT16"),
        (16, 8, 16, "FLOAT16", "FLOAT16"),
        (16, 8, 8, "FLOAT16", "FLOAT16"),
        (16, 16, 16, "FLOAT16", "FLOAT32"),
        (16, 8, 16, "FLOAT16", "FLOAT32"),
        (16, 8, 8, "FLOAT16", "FLOAT32"),
        (16, 16, 32, "UINT8", "UINT32"),
        (16, 16, 32, "SINT8", "SINT32"),
        (16, 8, 32, "UINT8", "UINT32"),
        (16, 8, 32, "SINT8", "SINT32"),
        (16, 16, 16, "BFLOAT16", "FLOAT32"),
    ];
    rows.iter()
        .map(|&(m, n, k, ab, c)| {
            let (ab, c) = (ty(ab).expect("a known component type"), ty(c).expect("a known component type"));
            CoopMatShape { m, n, k, a: ab, b: ab, c, result: c, saturating: false, scope: SCOPE_SUBGROUP }
        })
        .collect()
}

fn radv() -> Profile {
    let mut p = Profile::new(
        "radv",
        "Mesa RADV on RDNA (GFX10+): wave64 by default, wave32 selectable; execution sets bind compute only",
        ProfileSource::Builtin,
    );
    for (l, v) in [
        (MaxIndirectPipelineCount, 4096),
        (MaxIndirectShaderObjectCount, 4096),
        (MaxIndirectSequenceCount, 1 << 20),
        (MaxIndirectCommandsTokenCount, 128),
        (MaxIndirectCommandsTokenOffset, 2047),
        (MaxIndirectCommandsIndirectStride, 2048),
        (SupportedIndirectCommandsInputModes, 0x3),
        (SupportedIndirectCommandsShaderStages, 0x3FFF),
        (SupportedIndirectCommandsShaderStagesPipelineBinding, 0x20),
        (SupportedIndirectCommandsShaderStagesShaderBinding, 0x20),
        (DeviceGeneratedCommandsTransformFeedback, 1),
        (DeviceGeneratedCommandsMultiDrawIndirectCount, 1),
        (DeviceGeneratedCommands, 1),
        (SubgroupSize, 64),
        (MinSubgroupSize, 32),
        (MaxSubgroupSize, 64),
        (MaxComputeWorkgroupSubgroups, 0xFFFF_FFFF),
        (RequiredSubgroupSizeStages, 0xF0),
    ] {
        p.set_cited(l, v, RADV);
    }
    p.set_cited(SubgroupSizeControl, 1, SPEC13);
    p.set_cited(ComputeFullSubgroups, 1, SPEC13);
    for (l, v) in [
        (MaxComputeWorkGroupSizeX, 1024),
        (MaxComputeWorkGroupSizeY, 1024),
        (MaxComputeWorkGroupSizeZ, 1024),
        (MaxComputeWorkGroupInvocations, 1024),
        (MaxPushConstantsSize, 256),
        (MaxVertexInputBindings, 32),
    ] {
        p.set_cited(l, v, "[src] Mesa radv_physical_device.c (compute rows not verified on hardware)");
    }
    p.set_cited(VendorId, vendor::AMD.into(), "[src] Mesa radv_physical_device.c: vendorID = ATI_VENDOR_ID");
    p
}

/// `radv` on RDNA2 and newer, where RADV enables mesh and task shading.
fn radv_mesh() -> Profile {
    let mut p = radv();
    p.name = "radv-mesh".into();
    p.description =
        "Mesa RADV on RDNA2 or newer (GFX10.3+): `radv` with VK_EXT_mesh_shader's meshShader and taskShader".into();
    for l in [MeshShader, TaskShader] {
        p.set_cited(
            l,
            1,
            "[src] Mesa radv_physical_device.c: meshShader = taskShader = radv_taskmesh_enabled(), true on GFX10.3+ (RDNA2 and newer) with NGG, ACO and a compute queue",
        );
    }
    p
}

/// Intel's Mesa driver, which does not expose VK_EXT_device_generated_commands.
fn anv() -> Profile {
    let mut p = Profile::new(
        "anv",
        "Mesa ANV (Intel Gen12/Xe-HPG): no VK_EXT_device_generated_commands, so layouts run through the runtime's multi-draw-indirect fallback",
        ProfileSource::Builtin,
    );
    p.set_cited(
        DeviceGeneratedCommands,
        0,
        "[src] Mesa src/intel/vulkan has no VK_EXT_device_generated_commands implementation, and no 2026 ANV gpuinfo.org export lists the extension (absence not confirmed on hardware)",
    );
    const ANV: &str =
        "[src] Mesa anv_physical_device.c get_properties_1_3 (Gen12/Xe-HPG; TGL maxComputeWorkgroupSubgroups)";
    for (l, v) in [
        (SubgroupSize, 32),
        (MinSubgroupSize, 8),
        (MaxSubgroupSize, 32),
        (MaxComputeWorkgroupSubgroups, 64),
        (RequiredSubgroupSizeStages, 0xE0),
    ] {
        p.set_cited(l, v, ANV);
    }
    p.set_cited(SubgroupSizeControl, 1, SPEC13);
    p.set_cited(ComputeFullSubgroups, 1, SPEC13);
    p.set_cited(
        MaxComputeWorkGroupInvocations,
        1024,
        "[report] gpuinfo.org: 1024 on the ANV Gen12 devices listed (1792 on old Gen9)",
    );
    p.set_cited(
        MaxPushConstantsSize,
        128,
        "[spec] Required Limits minimum (the ANV value was not read, so the least any device has)",
    );
    p.set_cited(DescriptorHeap, 0, "[spec] no device-generated commands, so no push-data tokens to run");
    p.set_cited(
        VendorId,
        vendor::INTEL.into(),
        "[src] Mesa anv_physical_device.c: vendorID = 0x8086 (unless the driconf option force_vk_vendor says otherwise)",
    );
    p
}

fn nvk() -> Profile {
    let mut p = Profile::new(
        "nvk",
        "Mesa NVK (NVIDIA, Turing or newer): no required subgroup sizes, no task/mesh execution",
        ProfileSource::Builtin,
    );
    for (l, v) in [
        (MaxIndirectPipelineCount, 0xFFFF_FFFF),
        (MaxIndirectShaderObjectCount, 0xFFFF_FFFF),
        (MaxIndirectSequenceCount, 1 << 20),
        (MaxIndirectCommandsTokenCount, 16),
        (MaxIndirectCommandsTokenOffset, 2047),
        (MaxIndirectCommandsIndirectStride, 4096),
        (SupportedIndirectCommandsInputModes, 0x3),
        (SupportedIndirectCommandsShaderStages, 0x3F),
        (SupportedIndirectCommandsShaderStagesPipelineBinding, 0x3F),
        (SupportedIndirectCommandsShaderStagesShaderBinding, 0x3F),
        (DeviceGeneratedCommandsTransformFeedback, 1),
        (DeviceGeneratedCommandsMultiDrawIndirectCount, 1),
        (DeviceGeneratedCommands, 1),
        (SubgroupSize, 32),
        (MinSubgroupSize, 32),
        (MaxSubgroupSize, 32),
        (MaxComputeWorkgroupSubgroups, 32),
        (RequiredSubgroupSizeStages, 0),
    ] {
        p.set_cited(l, v, NVK);
    }
    p.set_cited(SubgroupSizeControl, 1, SPEC13);
    p.set_cited(ComputeFullSubgroups, 1, SPEC13);
    for (l, v) in [
        (MaxComputeWorkGroupSizeX, 1024),
        (MaxComputeWorkGroupSizeY, 1024),
        (MaxComputeWorkGroupSizeZ, 64),
        (MaxComputeWorkGroupInvocations, 1024),
        (MaxPushConstantsSize, 256),
        (MaxVertexInputBindings, 32),
    ] {
        p.set_cited(l, v, "[src] Mesa nvk_physical_device.c (compute rows not verified on hardware)");
    }
    p.set_cited(
        VendorId,
        vendor::NVIDIA.into(),
        "[src] Mesa nvk_physical_device.c: vendorID = NVIDIA_VENDOR_ID (0x10de, nv_device_info.h)",
    );
    p
}
