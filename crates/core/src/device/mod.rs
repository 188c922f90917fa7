//! Device profiles: the limits and features a description is checked against.
//!
//! Why a flat struct of `Option`s: every rule that needs a device value asks for it by name
//! (`Limit`), and a profile that does not state it answers with an error that names the value
//! (a Vulkan Profiles file written by an old `vulkaninfo` often lacks the DGC properties). One
//! table (`Limit::ALL`) gives every value its Vulkan name, so messages, the `dgcc profiles`
//! listing, the JSON loader and the live probe all agree on spelling. A device extension whose
//! presence alone decides what is valid (`VK_NV_mesh_shader`: the `*_NV` mesh token values
//! exist only with it) is a boolean value like a feature, named by the extension
//! (`Limit::is_extension`), so rules, messages and W0012 treat it like any other value.
//!
//! One value names the device rather than bounding it: `vendorID` (`Limit::VendorId`,
//! `LimitKind::Id`), which no rule compares against a layout. It is there because a driver's
//! problems belong to its vendor (`vendor.rs`): N0002 reads it, and so does the runtime.
//!
//! Sources: `builtin.rs` cites where each built-in value comes from; `json.rs` reads Vulkan
//! Profiles JSON (what `vulkaninfo --json` and `dgcc probe` write) and VulkanCapsViewer
//! reports; `show.rs` renders profiles for `dgcc profiles`.

mod builtin;
pub mod coopmat;
pub mod json;
pub mod show;
pub mod vendor;

pub use builtin::{builtin, builtin_names, BUILTIN_NAMES};

use std::fmt;

/// A device value that rules can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Limit {
    // VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT
    MaxIndirectPipelineCount,
    MaxIndirectShaderObjectCount,
    MaxIndirectSequenceCount,
    MaxIndirectCommandsTokenCount,
    MaxIndirectCommandsTokenOffset,
    MaxIndirectCommandsIndirectStride,
    SupportedIndirectCommandsInputModes,
    SupportedIndirectCommandsShaderStages,
    SupportedIndirectCommandsShaderStagesPipelineBinding,
    SupportedIndirectCommandsShaderStagesShaderBinding,
    DeviceGeneratedCommandsTransformFeedback,
    DeviceGeneratedCommandsMultiDrawIndirectCount,
    // Features
    DeviceGeneratedCommands,
    DynamicGeneratedPipelineLayout,
    MeshShader,
    TaskShader,
    RayTracingMaintenance1,
    ShaderObject,
    SubgroupSizeControl,
    ComputeFullSubgroups,
    /// `VkPhysicalDeviceDescriptorHeapFeaturesEXT::descriptorHeap` (VK_EXT_descriptor_heap).
    DescriptorHeap,
    // Device extensions (present or absent, no struct of their own that dgcc reads)
    NvMeshShader,
    // Subgroups (Vulkan 1.1 / 1.3 properties)
    SubgroupSize,
    MinSubgroupSize,
    MaxSubgroupSize,
    MaxComputeWorkgroupSubgroups,
    RequiredSubgroupSizeStages,
    SubgroupSupportedStages,
    // VkPhysicalDeviceLimits
    MaxComputeWorkGroupSizeX,
    MaxComputeWorkGroupSizeY,
    MaxComputeWorkGroupSizeZ,
    MaxComputeWorkGroupInvocations,
    MaxPushConstantsSize,
    MaxVertexInputBindings,
    MaxDrawIndirectCount,
    /// `VkPhysicalDeviceDescriptorHeapPropertiesEXT::maxPushDataSize`.
    MaxPushDataSize,
    // VkPhysicalDeviceProperties: who made the device (an identity, not a limit)
    /// `VkPhysicalDeviceProperties::vendorID`: a PCI vendor id, or a Khronos `VkVendorId`.
    VendorId,
}

/// How a value is printed and compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    /// An unsigned number.
    Count,
    /// A `VkShaderStageFlags` mask.
    Stages,
    /// A `VkIndirectCommandsInputModeFlagsEXT` mask.
    InputModes,
    /// A `VkBool32` property or feature.
    Bool,
    /// An identifier (`vendorID`): equal or not, never more or less; printed in hex.
    Id,
}

impl Limit {
    pub const ALL: [Limit; 37] = [
        Limit::MaxIndirectPipelineCount,
        Limit::MaxIndirectShaderObjectCount,
        Limit::MaxIndirectSequenceCount,
        Limit::MaxIndirectCommandsTokenCount,
        Limit::MaxIndirectCommandsTokenOffset,
        Limit::MaxIndirectCommandsIndirectStride,
        Limit::SupportedIndirectCommandsInputModes,
        Limit::SupportedIndirectCommandsShaderStages,
        Limit::SupportedIndirectCommandsShaderStagesPipelineBinding,
        Limit::SupportedIndirectCommandsShaderStagesShaderBinding,
        Limit::DeviceGeneratedCommandsTransformFeedback,
        Limit::DeviceGeneratedCommandsMultiDrawIndirectCount,
        Limit::DeviceGeneratedCommands,
        Limit::DynamicGeneratedPipelineLayout,
        Limit::MeshShader,
        Limit::TaskShader,
        Limit::RayTracingMaintenance1,
        Limit::ShaderObject,
        Limit::SubgroupSizeControl,
        Limit::ComputeFullSubgroups,
        Limit::DescriptorHeap,
        Limit::NvMeshShader,
        Limit::SubgroupSize,
        Limit::MinSubgroupSize,
        Limit::MaxSubgroupSize,
        Limit::MaxComputeWorkgroupSubgroups,
        Limit::RequiredSubgroupSizeStages,
        Limit::SubgroupSupportedStages,
        Limit::MaxComputeWorkGroupSizeX,
        Limit::MaxComputeWorkGroupSizeY,
        Limit::MaxComputeWorkGroupSizeZ,
        Limit::MaxComputeWorkGroupInvocations,
        Limit::MaxPushConstantsSize,
        Limit::MaxVertexInputBindings,
        Limit::MaxDrawIndirectCount,
        Limit::MaxPushDataSize,
        Limit::VendorId,
    ];

    /// The Vulkan member name, as in the spec and in profile JSON.
    pub const fn vk_name(self) -> &'static str {
        match self {
            Limit::MaxIndirectPipelineCount => "maxIndirectPipelineCount",
            Limit::MaxIndirectShaderObjectCount => "maxIndirectShaderObjectCount",
            Limit::MaxIndirectSequenceCount => "maxIndirectSequenceCount",
            Limit::MaxIndirectCommandsTokenCount => "maxIndirectCommandsTokenCount",
            Limit::MaxIndirectCommandsTokenOffset => "maxIndirectCommandsTokenOffset",
            Limit::MaxIndirectCommandsIndirectStride => "maxIndirectCommandsIndirectStride",
            Limit::SupportedIndirectCommandsInputModes => "supportedIndirectCommandsInputModes",
            Limit::SupportedIndirectCommandsShaderStages => "supportedIndirectCommandsShaderStages",
            Limit::SupportedIndirectCommandsShaderStagesPipelineBinding => {
                "supportedIndirectCommandsShaderStagesPipelineBinding"
            }
            Limit::SupportedIndirectCommandsShaderStagesShaderBinding => {
                "supportedIndirectCommandsShaderStagesShaderBinding"
            }
            Limit::DeviceGeneratedCommandsTransformFeedback => "deviceGeneratedCommandsTransformFeedback",
            Limit::DeviceGeneratedCommandsMultiDrawIndirectCount => "deviceGeneratedCommandsMultiDrawIndirectCount",
            Limit::DeviceGeneratedCommands => "deviceGeneratedCommands",
            Limit::DynamicGeneratedPipelineLayout => "dynamicGeneratedPipelineLayout",
            Limit::MeshShader => "meshShader",
            Limit::TaskShader => "taskShader",
            Limit::RayTracingMaintenance1 => "rayTracingMaintenance1",
            Limit::ShaderObject => "shaderObject",
            Limit::SubgroupSizeControl => "subgroupSizeControl",
            Limit::ComputeFullSubgroups => "computeFullSubgroups",
            Limit::DescriptorHeap => "descriptorHeap",
            Limit::NvMeshShader => "VK_NV_mesh_shader",
            Limit::SubgroupSize => "subgroupSize",
            Limit::MinSubgroupSize => "minSubgroupSize",
            Limit::MaxSubgroupSize => "maxSubgroupSize",
            Limit::MaxComputeWorkgroupSubgroups => "maxComputeWorkgroupSubgroups",
            Limit::RequiredSubgroupSizeStages => "requiredSubgroupSizeStages",
            Limit::SubgroupSupportedStages => "subgroupSupportedStages",
            Limit::MaxComputeWorkGroupSizeX => "maxComputeWorkGroupSize[0]",
            Limit::MaxComputeWorkGroupSizeY => "maxComputeWorkGroupSize[1]",
            Limit::MaxComputeWorkGroupSizeZ => "maxComputeWorkGroupSize[2]",
            Limit::MaxComputeWorkGroupInvocations => "maxComputeWorkGroupInvocations",
            Limit::MaxPushConstantsSize => "maxPushConstantsSize",
            Limit::MaxVertexInputBindings => "maxVertexInputBindings",
            Limit::MaxDrawIndirectCount => "maxDrawIndirectCount",
            Limit::MaxPushDataSize => "maxPushDataSize",
            Limit::VendorId => "vendorID",
        }
    }

    pub const fn kind(self) -> LimitKind {
        match self {
            Limit::SupportedIndirectCommandsInputModes => LimitKind::InputModes,
            Limit::SupportedIndirectCommandsShaderStages
            | Limit::SupportedIndirectCommandsShaderStagesPipelineBinding
            | Limit::SupportedIndirectCommandsShaderStagesShaderBinding
            | Limit::RequiredSubgroupSizeStages
            | Limit::SubgroupSupportedStages => LimitKind::Stages,
            Limit::DeviceGeneratedCommandsTransformFeedback
            | Limit::DeviceGeneratedCommandsMultiDrawIndirectCount
            | Limit::DeviceGeneratedCommands
            | Limit::DynamicGeneratedPipelineLayout
            | Limit::MeshShader
            | Limit::TaskShader
            | Limit::RayTracingMaintenance1
            | Limit::ShaderObject
            | Limit::SubgroupSizeControl
            | Limit::ComputeFullSubgroups
            | Limit::DescriptorHeap
            | Limit::NvMeshShader => LimitKind::Bool,
            Limit::VendorId => LimitKind::Id,
            _ => LimitKind::Count,
        }
    }

    /// Whether the value is a feature (as opposed to a property or limit).
    pub const fn is_feature(self) -> bool {
        matches!(
            self,
            Limit::DeviceGeneratedCommands
                | Limit::DynamicGeneratedPipelineLayout
                | Limit::MeshShader
                | Limit::TaskShader
                | Limit::RayTracingMaintenance1
                | Limit::ShaderObject
                | Limit::SubgroupSizeControl
                | Limit::ComputeFullSubgroups
                | Limit::DescriptorHeap
        )
    }

    /// Whether the value belongs to VK_EXT_device_generated_commands itself (its feature and
    /// properties structs): a device file that states none of them was written by a tool older
    /// than the extension (`vulkaninfo` before 1.3.296), or one that drops it (W0013).
    pub const fn is_dgc_value(self) -> bool {
        matches!(
            self,
            Limit::MaxIndirectPipelineCount
                | Limit::MaxIndirectShaderObjectCount
                | Limit::MaxIndirectSequenceCount
                | Limit::MaxIndirectCommandsTokenCount
                | Limit::MaxIndirectCommandsTokenOffset
                | Limit::MaxIndirectCommandsIndirectStride
                | Limit::SupportedIndirectCommandsInputModes
                | Limit::SupportedIndirectCommandsShaderStages
                | Limit::SupportedIndirectCommandsShaderStagesPipelineBinding
                | Limit::SupportedIndirectCommandsShaderStagesShaderBinding
                | Limit::DeviceGeneratedCommandsTransformFeedback
                | Limit::DeviceGeneratedCommandsMultiDrawIndirectCount
                | Limit::DeviceGeneratedCommands
                | Limit::DynamicGeneratedPipelineLayout
        )
    }

    /// Whether the value is a device extension being present: its Vulkan name is the
    /// extension's name, and profile files state it by listing (or not listing) the extension
    /// rather than in a struct. `VK_NV_mesh_shader` is one because the `*_NV` mesh token values
    /// are valid only on a device that has it, whatever its mesh-shading features.
    pub const fn is_extension(self) -> bool {
        matches!(self, Limit::NvMeshShader)
    }

    /// Format a value of this limit for a message: `2047`, `0xFFFFFFFF`, `Vertex | Fragment`,
    /// `true`, `0x10DE (NVIDIA)`.
    pub fn format(self, v: u64) -> String {
        match self.kind() {
            LimitKind::Id => match vendor::name(v) {
                Some(name) => format!("0x{v:04X} ({name})"),
                None => format!("0x{v:04X}"),
            },
            LimitKind::Bool => (v != 0).to_string(),
            LimitKind::Stages => crate::stages::StageMask(v as u32).describe(),
            LimitKind::InputModes => {
                let mut parts = vec![];
                if v & 1 != 0 {
                    parts.push("Vulkan");
                }
                if v & 2 != 0 {
                    parts.push("Dxgi");
                }
                if parts.is_empty() {
                    "none".into()
                } else {
                    parts.join(" | ")
                }
            }
            LimitKind::Count => {
                if v == u32::MAX as u64 {
                    "0xFFFFFFFF".into()
                } else {
                    v.to_string()
                }
            }
        }
    }

    pub fn from_vk_name(name: &str) -> Option<Limit> {
        Limit::ALL.into_iter().find(|l| l.vk_name() == name)
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.vk_name())
    }
}

/// Where a profile came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileSource {
    Builtin,
    /// A Vulkan Profiles JSON file.
    File(std::path::PathBuf),
    /// Read from a live device.
    Live,
}

/// The values of one device (or of a minimum requirement such as `minimum`).
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// The name diagnostics use: `radv`, or the file stem of a JSON profile.
    pub name: String,
    pub description: String,
    pub source: ProfileSource,
    values: [Option<u64>; Limit::ALL.len()],
    /// Per value, where it comes from (`[spec]`, `[measured] …`, `[src] …`).
    citations: [Option<&'static str>; Limit::ALL.len()],
    /// `VkCooperativeMatrixPropertiesKHR` entries, when the profile states them.
    pub cooperative_matrix: Option<coopmat::CoopMatrices>,
}

/// A rule asked for a value the profile does not state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingValue {
    pub profile: String,
    pub limit: Limit,
}

impl fmt::Display for MissingValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "profile `{}` does not state {}", self.profile, self.limit)
    }
}

impl Profile {
    pub fn new(name: impl Into<String>, description: impl Into<String>, source: ProfileSource) -> Profile {
        Profile {
            name: name.into(),
            description: description.into(),
            source,
            values: [None; Limit::ALL.len()],
            citations: [None; Limit::ALL.len()],
            cooperative_matrix: None,
        }
    }

    fn index(limit: Limit) -> usize {
        Limit::ALL.iter().position(|l| *l == limit).expect("every limit is in Limit::ALL")
    }

    pub fn set(&mut self, limit: Limit, value: u64) -> &mut Self {
        self.values[Self::index(limit)] = Some(value);
        self
    }

    pub fn set_cited(&mut self, limit: Limit, value: u64, citation: &'static str) -> &mut Self {
        let i = Self::index(limit);
        self.values[i] = Some(value);
        self.citations[i] = Some(citation);
        self
    }

    pub fn clear(&mut self, limit: Limit) {
        self.values[Self::index(limit)] = None;
    }

    /// Whether `other` states exactly this profile's values (cooperative-matrix shapes
    /// included), whatever their names, descriptions and citations.
    pub fn same_values(&self, other: &Profile) -> bool {
        self.values == other.values && self.cooperative_matrix == other.cooperative_matrix
    }

    /// The value, if the profile states it.
    pub fn value(&self, limit: Limit) -> Option<u64> {
        self.values[Self::index(limit)]
    }

    /// The value, or an error naming it.
    pub fn get(&self, limit: Limit) -> Result<u64, MissingValue> {
        self.value(limit).ok_or_else(|| MissingValue { profile: self.name.clone(), limit })
    }

    pub fn flag(&self, limit: Limit) -> Result<bool, MissingValue> {
        self.get(limit).map(|v| v != 0)
    }

    /// Whether the profile states `vendorID` = `vendor` (a `vendor::` id). A profile that does
    /// not state its vendor is no vendor's.
    pub fn is_vendor(&self, vendor: u32) -> bool {
        self.value(Limit::VendorId) == Some(u64::from(vendor))
    }

    pub fn citation(&self, limit: Limit) -> Option<&'static str> {
        self.citations[Self::index(limit)]
    }

    /// Every stated value with its citation, in table order.
    pub fn entries(&self) -> impl Iterator<Item = (Limit, Option<u64>, Option<&'static str>)> + '_ {
        Limit::ALL.into_iter().map(|l| (l, self.value(l), self.citation(l)))
    }
}

/// Resolve a `targets` entry: a built-in name, or a path to a JSON profile (relative paths are
/// taken relative to `base_dir`, the description's folder).
pub fn resolve(target: &str, base_dir: &std::path::Path) -> Result<Profile, String> {
    if let Some(p) = builtin(target) {
        return Ok(p);
    }
    let looks_like_path = target.ends_with(".json") || target.contains('/') || target.contains('\\');
    if !looks_like_path {
        return Err(format!(
            "unknown target `{target}`: not a built-in profile ({}) and not a path to a .json profile",
            BUILTIN_NAMES.join(", ")
        ));
    }
    let path = if std::path::Path::new(target).is_absolute() {
        std::path::PathBuf::from(target)
    } else {
        base_dir.join(target)
    };
    json::load_file(&path)
}
