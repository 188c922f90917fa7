//! Buffers with their own memory, a device address and (when host-visible) a mapping.
//!
//! Why one allocation per buffer and no allocator crate: the runtime creates a handful of
//! long-lived buffers per scene (stream, count, preprocess, meshes), so a sub-allocator would
//! add a dependency for nothing. Every buffer gets `SHADER_DEVICE_ADDRESS` because DGC speaks
//! addresses, and usage flags are given as `BufferUsageFlags2KHR` when the preprocess bit
//! (which only exists there) is needed.

use super::error::{Result, RuntimeError};
use super::ext_dgc;
use ash::vk;

/// A share in a device's life: while one is held, the device it came from is not destroyed.
/// A [`Buffer`] holds its allocator's until it is destroyed or dropped, so that its mapping never
/// outlives the memory it maps.
pub type DeviceLifetime = std::sync::Arc<dyn std::any::Any + Send + Sync>;

/// What allocating needs: the device and its memory types. `GpuContext` and `DgcDevice` are both.
///
/// # Safety
/// `memory_properties` must be those of the physical device `device` was created from (the
/// buffers pick a memory type index from them and allocate it), and `limits`, when `Some`, that
/// device's limits; `device` must have been created with the `bufferDeviceAddress` feature
/// enabled (every buffer gets a device address) and must stay alive as long as any object
/// created through this allocator — which [`lifetime`](Allocator::lifetime) guarantees for the
/// buffers where it returns `Some`: the device then lives until the share is let go.
pub unsafe trait Allocator {
    fn device(&self) -> &ash::Device;
    fn memory_properties(&self) -> &vk::PhysicalDeviceMemoryProperties;
    /// The device's limits, when the allocator knows them: every buffer is then checked
    /// against them (see [`check_buffer`]) before it is created.
    fn limits(&self) -> Option<&vk::PhysicalDeviceLimits> {
        None
    }
    /// A share in the device's life, where the allocator owns the device (a `GpuContext`, or a
    /// `DgcDevice` made from one): each buffer holds it, so the device outlives the buffer's
    /// mapping even when the allocator is dropped first. `None` where the device's life is the
    /// caller's to guarantee (an engine's device behind `DgcDevice::new`).
    fn lifetime(&self) -> Option<DeviceLifetime> {
        None
    }
}

/// Whether a buffer of `size` bytes with `usage` may be created and bound whole on a device
/// with `limits` and `memory`: `Err` names the limit. The runtime binds storage and uniform
/// buffers whole (`StorageSet` writes `VK_WHOLE_SIZE`), so a larger one would break
/// `VUID-VkWriteDescriptorSet-descriptorType-00333` (or `-00332`): undefined behaviour on a
/// real driver, which the validation layer only reports after the fact. A buffer larger than
/// every heap it could live in would fail to allocate at best.
pub fn check_buffer(
    size: u64,
    usage: vk::BufferUsageFlags,
    limits: Option<&vk::PhysicalDeviceLimits>,
    memory: &vk::PhysicalDeviceMemoryProperties,
) -> Result<()> {
    if let Some(l) = limits {
        if usage.contains(vk::BufferUsageFlags::STORAGE_BUFFER) && size > l.max_storage_buffer_range as u64 {
            return Err(RuntimeError::Invalid(format!(
                "a {size}-byte storage buffer is larger than the device's maxStorageBufferRange ({} bytes), and the runtime binds storage buffers whole",
                l.max_storage_buffer_range
            )));
        }
        if usage.contains(vk::BufferUsageFlags::UNIFORM_BUFFER) && size > l.max_uniform_buffer_range as u64 {
            return Err(RuntimeError::Invalid(format!(
                "a {size}-byte uniform buffer is larger than the device's maxUniformBufferRange ({} bytes)",
                l.max_uniform_buffer_range
            )));
        }
    }
    let heaps = &memory.memory_heaps[..(memory.memory_heap_count as usize).min(memory.memory_heaps.len())];
    if let Some(largest) = heaps.iter().map(|h| h.size).max() {
        if size > largest {
            return Err(RuntimeError::Invalid(format!(
                "a {size}-byte buffer is larger than the device's largest memory heap ({largest} bytes)"
            )));
        }
    }
    Ok(())
}

/// A memory type index among `type_bits` with the `required` flags, preferring `preferred` too.
pub fn memory_type(
    memory: &vk::PhysicalDeviceMemoryProperties,
    type_bits: u32,
    required: vk::MemoryPropertyFlags,
    preferred: vk::MemoryPropertyFlags,
) -> Option<u32> {
    let types = &memory.memory_types[..memory.memory_type_count as usize];
    let find = |flags: vk::MemoryPropertyFlags| {
        types.iter().enumerate().position(|(i, t)| type_bits & (1 << i) != 0 && t.property_flags.contains(flags))
    };
    find(required | preferred).or_else(|| find(required)).map(|i| i as u32)
}

/// A buffer with its own memory.
///
/// Lifetime: like every GPU object of the runtime, it is destroyed explicitly with the unsafe
/// `destroy` once no pending GPU work uses it; dropping it without `destroy` leaks the buffer
/// and its memory (until the device is destroyed), it never frees them behind your back.
pub struct Buffer {
    pub buffer: vk::Buffer,
    pub memory: vk::DeviceMemory,
    pub size: u64,
    pub address: vk::DeviceAddress,
    mapped: *mut u8,
    /// Bytes the mapping covers: private, so that the public `size` cannot widen `bytes()`.
    mapped_len: usize,
    /// The allocator's share in the device's life ([`Allocator::lifetime`]), held until
    /// `destroy`: `bytes` is sound after the allocator dropped.
    device_lifetime: Option<DeviceLifetime>,
}

/// Where the memory should live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// Device-local; host-visible only if the device happens to share it.
    Device,
    /// Host-visible and coherent, mapped for the buffer's lifetime.
    Host,
}

impl Buffer {
    pub fn new(ctx: &dyn Allocator, size: u64, usage: vk::BufferUsageFlags, location: Location) -> Result<Buffer> {
        Self::create(ctx, size, usage, false, location, u32::MAX)
    }

    // `Buffer::preprocess`, the constructor of preprocess buffers, is in `dgc.rs`: it takes a
    // `DgcDevice`, and this module does not depend on that one.

    /// With `preprocess`, the buffer gets `PREPROCESS_BUFFER_BIT_EXT` through
    /// `BufferUsageFlags2`, which is valid only on a device with
    /// `VK_EXT_device_generated_commands` and `VK_KHR_maintenance5` enabled: `preprocess` is
    /// true only from `Buffer::preprocess`, whose `DgcDevice` guarantees both.
    pub(crate) fn create(
        ctx: &dyn Allocator,
        size: u64,
        usage: vk::BufferUsageFlags,
        preprocess: bool,
        location: Location,
        type_bits: u32,
    ) -> Result<Buffer> {
        let size = size.max(4);
        check_buffer(size, usage, ctx.limits(), ctx.memory_properties())?;
        let usage = usage | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        let mut usage2 = vk::BufferUsageFlags2CreateInfoKHR::default().usage(
            vk::BufferUsageFlags2KHR::from_raw(usage.as_raw() as u64)
                | ext_dgc::bits::BUFFER_USAGE_2_PREPROCESS_BUFFER_EXT,
        );
        let mut info = vk::BufferCreateInfo::default().size(size).usage(usage);
        if preprocess {
            info = info.push_next(&mut usage2);
        }
        let d = ctx.device();
        let memory_props = ctx.memory_properties();
        // SAFETY: valid create info on a live device (the `Allocator` contract), whose memory
        // types are `memory_props`; every object is destroyed on the error paths below.
        unsafe {
            let buffer = d.create_buffer(&info, None).map_err(RuntimeError::vk("vkCreateBuffer"))?;
            let req = d.get_buffer_memory_requirements(buffer);
            let (required, preferred) = match location {
                Location::Device => (vk::MemoryPropertyFlags::empty(), vk::MemoryPropertyFlags::DEVICE_LOCAL),
                Location::Host => (
                    vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
                    vk::MemoryPropertyFlags::empty(),
                ),
            };
            let Some(type_index) = memory_type(memory_props, req.memory_type_bits & type_bits, required, preferred)
            else {
                d.destroy_buffer(buffer, None);
                return Err(RuntimeError::Invalid(format!(
                    "no memory type fits a {size}-byte buffer (type bits {:#x})",
                    req.memory_type_bits & type_bits
                )));
            };
            let mut flags = vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
            let alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(type_index)
                .push_next(&mut flags);
            let memory = match d.allocate_memory(&alloc, None) {
                Ok(m) => m,
                Err(r) => {
                    d.destroy_buffer(buffer, None);
                    return Err(RuntimeError::Vulkan { call: "vkAllocateMemory", result: r });
                }
            };
            if let Err(r) = d.bind_buffer_memory(buffer, memory, 0) {
                d.destroy_buffer(buffer, None);
                d.free_memory(memory, None);
                return Err(RuntimeError::Vulkan { call: "vkBindBufferMemory", result: r });
            }
            let host_visible = memory_props.memory_types[type_index as usize]
                .property_flags
                .contains(vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT);
            let mapped = if host_visible {
                match d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()) {
                    Ok(p) => p as *mut u8,
                    Err(_) => std::ptr::null_mut(),
                }
            } else {
                std::ptr::null_mut()
            };
            // The whole allocation (`req.size >= size`) is mapped; the slices cover `size` bytes.
            let mapped_len = if mapped.is_null() { 0 } else { size as usize };
            let address = d.get_buffer_device_address(&vk::BufferDeviceAddressInfo::default().buffer(buffer));
            Ok(Buffer { buffer, memory, size, address, mapped, mapped_len, device_lifetime: ctx.lifetime() })
        }
    }

    /// The mapped bytes, for host-visible buffers (`None` otherwise, and after `destroy`).
    ///
    /// As with any persistently mapped allocation (gpu-allocator's `mapped_slice` is the same),
    /// the slice is shared with the GPU: whoever submitted work that uses the buffer without
    /// waiting for it (an unsafe call) promised to leave these bytes alone until its fence
    /// signalled (the crate docs, "The unsafe boundary"). The mapping
    /// itself stays valid until `destroy`: a buffer made through a `GpuContext` keeps the
    /// context's device alive ([`Allocator::lifetime`]); one made through an engine's
    /// `DgcDevice::new` relies on that call's promise that the device outlives it.
    pub fn bytes_mut(&mut self) -> Option<&mut [u8]> {
        if self.mapped.is_null() {
            None
        } else {
            // SAFETY: the mapping covers `mapped_len` bytes (set at creation, private) and stays
            // mapped until `destroy`, which nulls the pointer; `&mut self` makes it exclusive.
            Some(unsafe { std::slice::from_raw_parts_mut(self.mapped, self.mapped_len) })
        }
    }

    /// The mapped bytes, for host-visible buffers; see `bytes_mut`.
    pub fn bytes(&self) -> Option<&[u8]> {
        if self.mapped.is_null() {
            None
        } else {
            // SAFETY: as in `bytes_mut`; `u8` has no invalid values.
            Some(unsafe { std::slice::from_raw_parts(self.mapped, self.mapped_len) })
        }
    }

    /// Copy `data` to byte `offset` of a host-visible buffer; `Err` when the buffer is not
    /// host-visible or the bytes would run past its end.
    pub fn write(&mut self, offset: usize, data: &[u8]) -> Result<()> {
        let dst = self.bytes_mut().ok_or_else(|| RuntimeError::Invalid("buffer is not host-visible".into()))?;
        offset
            .checked_add(data.len())
            .and_then(|end| dst.get_mut(offset..end))
            .ok_or_else(|| RuntimeError::Invalid("write past the end of a buffer".into()))?
            .copy_from_slice(data);
        Ok(())
    }

    /// Destroy the buffer and free its memory. A second call does nothing.
    ///
    /// # Safety
    /// The buffer was created on `device`, and no pending GPU work uses it (every submission
    /// that references it has finished).
    pub unsafe fn destroy(&mut self, device: &ash::Device) {
        if self.buffer != vk::Buffer::null() {
            // SAFETY: created on `device` and unused by pending work (the caller's contract);
            // freeing the memory unmaps it, and the pointer is nulled so `bytes` sees no mapping.
            unsafe {
                device.destroy_buffer(self.buffer, None);
                device.free_memory(self.memory, None);
            }
            self.buffer = vk::Buffer::null();
            self.memory = vk::DeviceMemory::null();
            self.mapped = std::ptr::null_mut();
            self.mapped_len = 0;
            self.device_lifetime = None;
        }
    }
}

/// A device-local 2D image of one level and layer, with its own memory and a view of all of
/// it: a render target of the tools and tests (`dgcc run --layout`'s 1×1 tally target, the
/// order probe's attachments). Destroyed explicitly with `destroy`, like `Buffer`.
pub struct Image {
    pub image: vk::Image,
    pub memory: vk::DeviceMemory,
    pub view: vk::ImageView,
}

impl Image {
    /// An optimally tiled `width`×`height` image of `format` for `usage`, in device-local
    /// memory, and a view of its `aspect`. On an error nothing is left behind.
    pub fn new(
        ctx: &dyn Allocator,
        format: vk::Format,
        (width, height): (u32, u32),
        usage: vk::ImageUsageFlags,
        aspect: vk::ImageAspectFlags,
    ) -> Result<Image> {
        let d = ctx.device();
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D { width, height, depth: 1 })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: valid create infos on the allocator's live device (the trait's contract); on
        // an error the objects made so far are destroyed.
        unsafe {
            let image = d.create_image(&info, None).map_err(RuntimeError::vk("vkCreateImage"))?;
            let req = d.get_image_memory_requirements(image);
            let ty = memory_type(
                ctx.memory_properties(),
                req.memory_type_bits,
                vk::MemoryPropertyFlags::empty(),
                vk::MemoryPropertyFlags::DEVICE_LOCAL,
            );
            let Some(ty) = ty else {
                d.destroy_image(image, None);
                return Err(RuntimeError::Invalid(format!("no memory type for a {width}×{height} {format:?} image")));
            };
            let alloc = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty);
            let memory = match d.allocate_memory(&alloc, None) {
                Ok(m) => m,
                Err(r) => {
                    d.destroy_image(image, None);
                    return Err(RuntimeError::Vulkan { call: "vkAllocateMemory", result: r });
                }
            };
            let range = vk::ImageSubresourceRange {
                aspect_mask: aspect,
                base_mip_level: 0,
                level_count: 1,
                base_array_layer: 0,
                layer_count: 1,
            };
            let view_info = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(format)
                .subresource_range(range);
            let view = d
                .bind_image_memory(image, memory, 0)
                .map_err(RuntimeError::vk("vkBindImageMemory"))
                .and_then(|_| d.create_image_view(&view_info, None).map_err(RuntimeError::vk("vkCreateImageView")));
            match view {
                Ok(view) => Ok(Image { image, memory, view }),
                Err(e) => {
                    d.destroy_image(image, None);
                    d.free_memory(memory, None);
                    Err(e)
                }
            }
        }
    }

    /// Destroy the view, the image and its memory. A second call does nothing.
    ///
    /// # Safety
    /// Created on `device`; no pending GPU work uses it.
    pub unsafe fn destroy(&mut self, device: &ash::Device) {
        // SAFETY: the caller's contract; null handles are ignored by Vulkan.
        unsafe {
            device.destroy_image_view(std::mem::take(&mut self.view), None);
            device.destroy_image(std::mem::take(&mut self.image), None);
            device.free_memory(std::mem::take(&mut self.memory), None);
        }
    }
}

/// Plain data as bytes (for uploading `#[repr(C)]` structs and arrays of numbers).
///
/// `NoUninit` (derive `bytemuck::Pod`/`NoUninit`, or any `Pod` type) rules out padding bytes,
/// whose reading would be undefined behaviour.
pub fn as_bytes<T: bytemuck::NoUninit>(items: &[T]) -> &[u8] {
    bytemuck::cast_slice(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_checked_against_the_limits_before_they_are_made() {
        let limits = vk::PhysicalDeviceLimits {
            max_storage_buffer_range: 1 << 27,
            max_uniform_buffer_range: 1 << 16,
            ..Default::default()
        };
        let mut memory = vk::PhysicalDeviceMemoryProperties { memory_heap_count: 1, ..Default::default() };
        memory.memory_heaps[0].size = 1 << 30;
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
        assert!(check_buffer(1 << 27, storage, Some(&limits), &memory).is_ok());
        let e = check_buffer((1 << 27) + 4, storage, Some(&limits), &memory).unwrap_err().to_string();
        assert!(e.contains("maxStorageBufferRange (134217728 bytes)"), "{e}");
        let e = check_buffer(64 << 30, vk::BufferUsageFlags::INDIRECT_BUFFER, Some(&limits), &memory)
            .unwrap_err()
            .to_string();
        assert!(e.contains("largest memory heap"), "{e}");
        assert!(check_buffer((1 << 16) + 4, vk::BufferUsageFlags::UNIFORM_BUFFER, Some(&limits), &memory).is_err());
    }
}
