//! Which optional device features a layout may need, as the device's creator enabled them.
//!
//! Why the runtime must be told: Vulkan has no query for the features a device was created
//! with, and the validation layer holds a layout to those, not to what the hardware could do — a
//! DRAW_MESH_TASKS token on a device created without `meshShader` is invalid on any GPU. So
//! `DgcDevice` checks layouts against the hardware's profile with every feature that was not
//! enabled turned off (`restrict`), and the refusal carries `dgcc check`'s code (E0211, E0212,
//! E0215, E0604) instead of the call reaching the driver.

use dgcc_core::device::{Limit, Profile};

/// Optional device features a layout may need, as the device's creator enabled them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnabledFeatures {
    /// `VK_EXT_mesh_shader`'s `meshShader` and `taskShader` (mesh tokens need both).
    pub mesh_shader: bool,
    pub task_shader: bool,
    /// The `VK_NV_mesh_shader` extension (the `*_NV_EXT` mesh token values exist only with it).
    pub nv_mesh_shader: bool,
    /// `VK_KHR_ray_tracing_maintenance1` (TRACE_RAYS2 tokens).
    pub ray_tracing_maintenance1: bool,
    /// `VK_EXT_shader_object` (shader-object execution sets).
    pub shader_object: bool,
    /// `dynamicGeneratedPipelineLayout` of the extension.
    pub dynamic_generated_pipeline_layout: bool,
    /// `VK_EXT_descriptor_heap`'s `descriptorHeap` (PUSH_DATA tokens). The runtime's own
    /// contexts never enable it.
    pub descriptor_heap: bool,
}

impl EnabledFeatures {
    /// `profile` (what the hardware supports) with every feature that was not enabled turned
    /// off, whether the hardware has it or the profile does not say (a feature not enabled is
    /// off on this device either way, and an unstated one would only be a warning, W0012, that
    /// lets the call reach the driver); returns the features turned off.
    pub fn restrict(&self, profile: &mut Profile) -> Vec<Limit> {
        use dgcc_core::device::Limit::*;
        let mut off = vec![];
        for (limit, enabled) in [
            (MeshShader, self.mesh_shader),
            (TaskShader, self.task_shader),
            (NvMeshShader, self.nv_mesh_shader),
            (RayTracingMaintenance1, self.ray_tracing_maintenance1),
            (ShaderObject, self.shader_object),
            (DynamicGeneratedPipelineLayout, self.dynamic_generated_pipeline_layout),
            (DescriptorHeap, self.descriptor_heap),
        ] {
            let why = match profile.value(limit) {
                _ if enabled => continue,
                Some(0) => continue,
                Some(_) => "[live] supported, but not enabled on this device",
                None => "[live] not enabled on this device (whether the hardware has it is not known)",
            };
            profile.set_cited(limit, 0, why);
            off.push(limit);
        }
        off
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgcc_core::ir::{PushConstantRange, TokenType};

    #[test]
    fn features_that_were_not_enabled_are_off_in_the_profile() {
        let mut p = dgcc_core::device::builtin("lavapipe").expect("built in");
        use dgcc_core::device::Limit::*;
        for l in [MeshShader, TaskShader, RayTracingMaintenance1, ShaderObject, DynamicGeneratedPipelineLayout] {
            p.set(l, 1);
        }
        p.set(ShaderObject, 0);
        let off = EnabledFeatures {
            mesh_shader: true,
            dynamic_generated_pipeline_layout: true,
            shader_object: true,
            ..Default::default()
        }
        .restrict(&mut p);
        assert_eq!(off, [TaskShader, RayTracingMaintenance1]);
        let values = [MeshShader, TaskShader, RayTracingMaintenance1, ShaderObject, DynamicGeneratedPipelineLayout]
            .map(|l| p.value(l));
        // Enabling a feature the hardware lacks does not switch it on.
        assert_eq!(values, [Some(1), Some(0), Some(0), Some(0), Some(1)]);
        // A mesh layout is then refused with the mesh-feature code.
        let mut mesh = crate::fixtures::push_index_draw();
        mesh.shader_stages = 0x40 | 0x80 | 0x10;
        mesh.tokens.retain(|t| t.token_type == TokenType::PushConstant);
        let mut action = crate::fixtures::push_index_draw().tokens.pop().unwrap();
        action.token_type = TokenType::DrawMeshTasks;
        action.type_value = TokenType::DrawMeshTasks.value();
        action.size = 12;
        mesh.tokens.push(action);
        mesh.tokens[0].push_constant.as_mut().unwrap().stages = 0x80;
        let ranges = [PushConstantRange { stages: 0x80, offset: 0, size: 8 }];
        let refused = crate::refuse::refusal(&mesh, &ranges, &p).expect("refused");
        assert!(refused.iter().any(|d| d.code == "E0211" && d.message.contains("taskShader")), "{refused:?}");
    }

    #[test]
    fn a_feature_the_profile_does_not_state_is_off_when_not_enabled() {
        // The live probe leaves descriptorHeap unstated where it cannot read it; not enabled,
        // a PUSH_DATA layout must be refused with its feature code, not pass with W0012.
        let mut p = dgcc_core::device::builtin("nvidia").expect("built in");
        p.clear(Limit::DescriptorHeap);
        let off = EnabledFeatures::default().restrict(&mut p);
        assert!(off.contains(&Limit::DescriptorHeap), "{off:?}");
        assert_eq!(p.value(Limit::DescriptorHeap), Some(0));
        let mut enabled = dgcc_core::device::builtin("nvidia").expect("built in");
        enabled.clear(Limit::DescriptorHeap);
        EnabledFeatures { descriptor_heap: true, ..Default::default() }.restrict(&mut enabled);
        assert_eq!(enabled.value(Limit::DescriptorHeap), None, "enabled: left as the profile says");
    }

    #[test]
    fn the_nv_mesh_extension_counts_only_when_enabled() {
        let mut p = dgcc_core::device::builtin("nvidia").expect("built in");
        assert_eq!(p.value(Limit::NvMeshShader), Some(1));
        let mut on = p.clone();
        let off = EnabledFeatures { nv_mesh_shader: true, ..Default::default() }.restrict(&mut on);
        assert!(!off.contains(&Limit::NvMeshShader), "{off:?}");
        assert_eq!(on.value(Limit::NvMeshShader), Some(1));
        let off = EnabledFeatures::default().restrict(&mut p);
        assert!(off.contains(&Limit::NvMeshShader), "{off:?}");
        assert_eq!(p.value(Limit::NvMeshShader), Some(0));
    }
}
