//! Shader stages and the Vulkan bit values they stand for.
//!
//! Why here: the AST, the device profiles, the manifest and the runtime all speak of stage
//! masks; one table keeps the names (as written in descriptions) and the bits in agreement.

use serde::{Deserialize, Serialize};

/// One shader stage, named as in a description (`Vertex`, `Compute`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Stage {
    Vertex,
    TessControl,
    TessEval,
    Geometry,
    Fragment,
    Compute,
    Task,
    Mesh,
    RayGen,
    AnyHit,
    ClosestHit,
    Miss,
    Intersection,
    Callable,
}

impl Stage {
    pub const ALL: [Stage; 14] = [
        Stage::Vertex,
        Stage::TessControl,
        Stage::TessEval,
        Stage::Geometry,
        Stage::Fragment,
        Stage::Compute,
        Stage::Task,
        Stage::Mesh,
        Stage::RayGen,
        Stage::AnyHit,
        Stage::ClosestHit,
        Stage::Miss,
        Stage::Intersection,
        Stage::Callable,
    ];

    /// The `VkShaderStageFlagBits` value.
    pub const fn bit(self) -> u32 {
        match self {
            Stage::Vertex => 0x1,
            Stage::TessControl => 0x2,
            Stage::TessEval => 0x4,
            Stage::Geometry => 0x8,
            Stage::Fragment => 0x10,
            Stage::Compute => 0x20,
            Stage::Task => 0x40,
            Stage::Mesh => 0x80,
            Stage::RayGen => 0x100,
            Stage::AnyHit => 0x200,
            Stage::ClosestHit => 0x400,
            Stage::Miss => 0x800,
            Stage::Intersection => 0x1000,
            Stage::Callable => 0x2000,
        }
    }

    /// The name as written in a description.
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "Vertex",
            Stage::TessControl => "TessControl",
            Stage::TessEval => "TessEval",
            Stage::Geometry => "Geometry",
            Stage::Fragment => "Fragment",
            Stage::Compute => "Compute",
            Stage::Task => "Task",
            Stage::Mesh => "Mesh",
            Stage::RayGen => "RayGen",
            Stage::AnyHit => "AnyHit",
            Stage::ClosestHit => "ClosestHit",
            Stage::Miss => "Miss",
            Stage::Intersection => "Intersection",
            Stage::Callable => "Callable",
        }
    }

    /// The Vulkan enumerant name (`VK_SHADER_STAGE_VERTEX_BIT`), as Vulkan Profiles JSON writes it.
    pub const fn vk_name(self) -> &'static str {
        match self {
            Stage::Vertex => "VK_SHADER_STAGE_VERTEX_BIT",
            Stage::TessControl => "VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT",
            Stage::TessEval => "VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT",
            Stage::Geometry => "VK_SHADER_STAGE_GEOMETRY_BIT",
            Stage::Fragment => "VK_SHADER_STAGE_FRAGMENT_BIT",
            Stage::Compute => "VK_SHADER_STAGE_COMPUTE_BIT",
            Stage::Task => "VK_SHADER_STAGE_TASK_BIT_EXT",
            Stage::Mesh => "VK_SHADER_STAGE_MESH_BIT_EXT",
            Stage::RayGen => "VK_SHADER_STAGE_RAYGEN_BIT_KHR",
            Stage::AnyHit => "VK_SHADER_STAGE_ANY_HIT_BIT_KHR",
            Stage::ClosestHit => "VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR",
            Stage::Miss => "VK_SHADER_STAGE_MISS_BIT_KHR",
            Stage::Intersection => "VK_SHADER_STAGE_INTERSECTION_BIT_KHR",
            Stage::Callable => "VK_SHADER_STAGE_CALLABLE_BIT_KHR",
        }
    }

    pub fn from_name(s: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|st| st.name() == s)
    }
}

/// A set of stages as a `VkShaderStageFlags` mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StageMask(pub u32);

impl StageMask {
    pub const GRAPHICS: StageMask = StageMask(0x1F);
    pub const COMPUTE: StageMask = StageMask(0x20);
    pub const TASK_MESH: StageMask = StageMask(0xC0);
    pub const RAY_TRACING: StageMask = StageMask(0x3F00);
    /// `VK_SHADER_STAGE_ALL`.
    pub const ALL: StageMask = StageMask(0x7FFF_FFFF);

    pub fn of(stages: impl IntoIterator<Item = Stage>) -> StageMask {
        StageMask(stages.into_iter().fold(0, |m, s| m | s.bit()))
    }
    pub fn contains(self, other: StageMask) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn has(self, stage: Stage) -> bool {
        self.0 & stage.bit() != 0
    }
    pub fn intersects(self, other: StageMask) -> bool {
        self.0 & other.0 != 0
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn stages(self) -> impl Iterator<Item = Stage> {
        Stage::ALL.into_iter().filter(move |s| self.has(*s))
    }
    /// `Vertex | Fragment`, or `none`.
    pub fn describe(self) -> String {
        let names: Vec<&str> = self.stages().map(Stage::name).collect();
        if names.is_empty() {
            if self.0 == 0 {
                "none".into()
            } else {
                format!("{:#x}", self.0)
            }
        } else {
            names.join(" | ")
        }
    }
}

impl std::ops::BitOr for StageMask {
    type Output = StageMask;
    fn bitor(self, rhs: StageMask) -> StageMask {
        StageMask(self.0 | rhs.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn names_round_trip_and_bits_are_distinct() {
        let mut seen = 0u32;
        for s in Stage::ALL {
            assert_eq!(Stage::from_name(s.name()), Some(s));
            assert_eq!(seen & s.bit(), 0);
            seen |= s.bit();
        }
        assert_eq!(seen, 0x3FFF);
    }
}
