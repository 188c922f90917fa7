//! One descriptor set of whole buffers, bindings 0..n: storage buffers, and uniform buffers where
//! a binding asks for one. All the runtime's shaders need.
//!
//! Why so narrow: the scene and the tests bind a few whole buffers per pipeline; a general
//! descriptor abstraction would be more code than every use of it together. Why uniform buffers
//! at all: data every invocation reads alike (the scene's frame) is served from the constant
//! cache when it is a uniform buffer, where a storage buffer costs a load instruction and its
//! latency for every use (book/src/measured/h200-frame-uniforms.md).

use super::error::{Result, RuntimeError};
use ash::vk;

/// A descriptor set with its layout and pool. Destroyed explicitly with `destroy`; dropping it
/// leaks them.
pub struct StorageSet {
    // Private, read through accessors: `destroy` frees exactly these handles.
    layout: vk::DescriptorSetLayout,
    pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
}

impl StorageSet {
    /// The set's layout, for the pipeline layouts that bind the set.
    pub fn layout(&self) -> vk::DescriptorSetLayout {
        self.layout
    }

    /// The set to bind.
    pub fn set(&self) -> vk::DescriptorSet {
        self.set
    }

    /// The pool the set was allocated from (destroying it frees the set).
    pub fn pool(&self) -> vk::DescriptorPool {
        self.pool
    }

    /// [`StorageSet::new`] for runtime buffers, after checking the set against the device's
    /// limits: each buffer (bound whole) within `maxStorageBufferRange`, and the number of
    /// bindings within `maxPerStageDescriptorStorageBuffers` and
    /// `maxDescriptorSetStorageBuffers`. `Err` names the limit.
    ///
    /// # Safety
    /// As for [`StorageSet::new`].
    pub unsafe fn for_buffers(
        d: &ash::Device,
        limits: &vk::PhysicalDeviceLimits,
        stages: vk::ShaderStageFlags,
        buffers: &[&super::memory::Buffer],
    ) -> Result<StorageSet> {
        check_bindings(limits, buffers.iter().map(|b| b.size()))?;
        let handles: Vec<vk::Buffer> = buffers.iter().map(|b| b.buffer()).collect();
        // SAFETY: the caller's contract.
        unsafe { Self::new(d, stages, &handles) }
    }

    /// A set whose binding `i` is the whole of `buffers[i]` as a storage buffer, visible to
    /// `stages`.
    ///
    /// # Safety
    /// Every buffer is a live buffer of `d` created with `STORAGE_BUFFER` usage and bound to
    /// memory, no larger than the device's `maxStorageBufferRange` (each is bound whole;
    /// [`StorageSet::for_buffers`] checks it), and stays alive as long as work using the set may
    /// run.
    pub unsafe fn new(d: &ash::Device, stages: vk::ShaderStageFlags, buffers: &[vk::Buffer]) -> Result<StorageSet> {
        let bindings: Vec<_> = buffers.iter().map(|&b| (vk::DescriptorType::STORAGE_BUFFER, b)).collect();
        // SAFETY: the caller's contract, with every binding a storage buffer.
        unsafe { Self::with_types(d, stages, &bindings) }
    }

    /// A set whose binding `i` is the whole of `bindings[i].1`, as a descriptor of type
    /// `bindings[i].0` (`STORAGE_BUFFER` or `UNIFORM_BUFFER`), visible to `stages`.
    ///
    /// # Safety
    /// Every buffer is a live buffer of `d` created with the usage its descriptor type needs
    /// (`STORAGE_BUFFER` or `UNIFORM_BUFFER`), bound to memory, no larger than the device's range
    /// for that type (`maxStorageBufferRange`, `maxUniformBufferRange`), and stays alive as long
    /// as work using the set may run.
    pub unsafe fn with_types(
        d: &ash::Device,
        stages: vk::ShaderStageFlags,
        bindings: &[(vk::DescriptorType, vk::Buffer)],
    ) -> Result<StorageSet> {
        if let Some((i, (ty, _))) = bindings
            .iter()
            .enumerate()
            .find(|(_, (ty, _))| ![vk::DescriptorType::STORAGE_BUFFER, vk::DescriptorType::UNIFORM_BUFFER].contains(ty))
        {
            return Err(RuntimeError::Invalid(format!(
                "binding {i}: a whole-buffer set holds storage or uniform buffers, not {ty:?}"
            )));
        }
        let buffers: Vec<vk::Buffer> = bindings.iter().map(|&(_, b)| b).collect();
        let layout_bindings: Vec<_> = bindings
            .iter()
            .enumerate()
            .map(|(i, &(ty, _))| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(i as u32)
                    .descriptor_type(ty)
                    .descriptor_count(1)
                    .stage_flags(stages)
            })
            .collect();
        let count = |ty: vk::DescriptorType| bindings.iter().filter(|&&(t, _)| t == ty).count() as u32;
        // A pool size may not be zero (VUID-VkDescriptorPoolSize-descriptorCount-00302).
        let sizes: Vec<vk::DescriptorPoolSize> =
            [vk::DescriptorType::STORAGE_BUFFER, vk::DescriptorType::UNIFORM_BUFFER]
                .into_iter()
                .map(|ty| vk::DescriptorPoolSize { ty, descriptor_count: count(ty) })
                .filter(|s| s.descriptor_count > 0)
                .collect();
        let sizes = match sizes.is_empty() {
            true => vec![vk::DescriptorPoolSize { ty: vk::DescriptorType::STORAGE_BUFFER, descriptor_count: 1 }],
            false => sizes,
        };
        // SAFETY: valid create infos; the buffers are the caller's contract; partial objects are
        // destroyed on failure.
        unsafe {
            let layout = d
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&layout_bindings),
                    None,
                )
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
                        .descriptor_type(bindings[i].0)
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

/// Whether storage buffers of `sizes`, each bound whole at bindings 0..n of one set, fit the
/// device's limits (`VUID-VkWriteDescriptorSet-descriptorType-00333` and the set layout's
/// descriptor counts). `Err` names the limit and the binding.
pub fn check_bindings(limits: &vk::PhysicalDeviceLimits, sizes: impl Iterator<Item = u64>) -> Result<()> {
    let mut n = 0u64;
    for (i, size) in sizes.enumerate() {
        if size > limits.max_storage_buffer_range as u64 {
            return Err(RuntimeError::Invalid(format!(
                "binding {i}: a {size}-byte storage buffer is larger than the device's maxStorageBufferRange ({} bytes)",
                limits.max_storage_buffer_range
            )));
        }
        n += 1;
    }
    let most = limits.max_per_stage_descriptor_storage_buffers.min(limits.max_descriptor_set_storage_buffers) as u64;
    if n > most {
        return Err(RuntimeError::Invalid(format!(
            "{n} storage buffers in one set are more than the device allows (maxPerStageDescriptorStorageBuffers {}, maxDescriptorSetStorageBuffers {})",
            limits.max_per_stage_descriptor_storage_buffers, limits.max_descriptor_set_storage_buffers
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_past_max_storage_buffer_range_are_refused_naming_it() {
        let limits = vk::PhysicalDeviceLimits {
            max_storage_buffer_range: 1 << 27,
            max_per_stage_descriptor_storage_buffers: 8,
            max_descriptor_set_storage_buffers: 8,
            ..Default::default()
        };
        assert!(check_bindings(&limits, [16u64, 1 << 27].into_iter()).is_ok());
        let e = check_bindings(&limits, [16u64, (1 << 27) + 4].into_iter()).unwrap_err().to_string();
        assert!(e.contains("maxStorageBufferRange") && e.contains("binding 1"), "{e}");
        let e = check_bindings(&limits, std::iter::repeat_n(4u64, 9)).unwrap_err().to_string();
        assert!(e.contains("maxPerStageDescriptorStorageBuffers"), "{e}");
    }
}
