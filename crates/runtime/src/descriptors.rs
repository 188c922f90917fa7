//! One descriptor set of storage buffers, bindings 0..n: all the runtime's shaders need.
//!
//! Why so narrow: the scene and the tests bind a few whole storage buffers per pipeline; a
//! general descriptor abstraction would be more code than every use of it together.

use super::error::{Result, RuntimeError};
use ash::vk;

/// A descriptor set with its layout and pool. Destroyed explicitly with `destroy`; dropping it
/// leaks them.
pub struct StorageSet {
    pub layout: vk::DescriptorSetLayout,
    pub pool: vk::DescriptorPool,
    pub set: vk::DescriptorSet,
}

impl StorageSet {
    /// A set whose binding `i` is the whole of `buffers[i]`, visible to `stages`.
    ///
    /// # Safety
    /// Every buffer is a live buffer of `d` created with `STORAGE_BUFFER` usage and bound to
    /// memory, and stays alive as long as work using the set may run.
    pub unsafe fn new(d: &ash::Device, stages: vk::ShaderStageFlags, buffers: &[vk::Buffer]) -> Result<StorageSet> {
        let bindings: Vec<_> = (0..buffers.len() as u32)
            .map(|i| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(i)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(stages)
            })
            .collect();
        let sizes = [vk::DescriptorPoolSize {
            ty: vk::DescriptorType::STORAGE_BUFFER,
            descriptor_count: buffers.len().max(1) as u32,
        }];
        // SAFETY: valid create infos; the buffers are the caller's contract; partial objects are
        // destroyed on failure.
        unsafe {
            let layout = d
                .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings), None)
                .map_err(RuntimeError::vk("vkCreateDescriptorSetLayout"))?;
            let pool = match d
                .create_descriptor_pool(&vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes), None)
            {
                Ok(p) => p,
                Err(r) => {
                    d.destroy_descriptor_set_layout(layout, None);
                    return Err(RuntimeError::Vulkan { call: "vkCreateDescriptorPool", result: r });
                }
            };
            let layouts = [layout];
            let set = match d.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&layouts),
            ) {
                Ok(s) => s[0],
                Err(r) => {
                    d.destroy_descriptor_pool(pool, None);
                    d.destroy_descriptor_set_layout(layout, None);
                    return Err(RuntimeError::Vulkan { call: "vkAllocateDescriptorSets", result: r });
                }
            };
            let infos: Vec<[vk::DescriptorBufferInfo; 1]> = buffers
                .iter()
                .map(|&b| [vk::DescriptorBufferInfo { buffer: b, offset: 0, range: vk::WHOLE_SIZE }])
                .collect();
            let writes: Vec<_> = infos
                .iter()
                .enumerate()
                .map(|(i, info)| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(i as u32)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(info)
                })
                .collect();
            d.update_descriptor_sets(&writes, &[]);
            Ok(StorageSet { layout, pool, set })
        }
    }

    /// Destroy the pool (and with it the set) and the layout. A second call does nothing.
    ///
    /// # Safety
    /// The set was created on `d`, and no pending GPU work uses it.
    pub unsafe fn destroy(&mut self, d: &ash::Device) {
        if self.pool != vk::DescriptorPool::null() {
            // SAFETY: created on `d`, unused by pending work (the caller's contract).
            unsafe {
                d.destroy_descriptor_pool(self.pool, None);
                d.destroy_descriptor_set_layout(self.layout, None);
            }
            self.pool = vk::DescriptorPool::null();
        }
    }
}
