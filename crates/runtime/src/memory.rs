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
/// `image_format_properties` and `max_buffer_size`, when `Some`, must answer for that physical
/// device.
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
    /// The device's `maxBufferSize` (Vulkan 1.3), when the allocator knows it: a larger buffer
    /// is refused before `vkCreateBuffer` (VUID-VkBufferCreateInfo-size-06409).
    fn max_buffer_size(&self) -> Option<u64> {
        None
    }
    /// What the physical device supports for an optimally tiled, single-sampled 2D image of
    /// `format` with `usage` (`vkGetPhysicalDeviceImageFormatProperties`; `Err` where it does
    /// not support the combination), or `None` where the allocator cannot ask (it does not hold
    /// the instance). [`Image::new`] refuses to create an image it cannot check.
    fn image_format_properties(
        &self,
        _format: vk::Format,
        _usage: vk::ImageUsageFlags,
    ) -> Option<std::result::Result<vk::ImageFormatProperties, vk::Result>> {
        None
    }
}

/// The usages [`Buffer::new`] takes: Vulkan 1.0's and `SHADER_DEVICE_ADDRESS`. The other bits
/// belong to extensions a device may not have enabled (acceleration structures, descriptor
/// buffers, video, which also needs a profile list in the create info), where `vkCreateBuffer`
/// with them is undefined behaviour, and `Buffer::new` is a safe call.
pub const BUFFER_USAGES: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::TRANSFER_SRC.as_raw()
        | vk::BufferUsageFlags::TRANSFER_DST.as_raw()
        | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER.as_raw()
        | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER.as_raw()
        | vk::BufferUsageFlags::UNIFORM_BUFFER.as_raw()
        | vk::BufferUsageFlags::STORAGE_BUFFER.as_raw()
        | vk::BufferUsageFlags::INDEX_BUFFER.as_raw()
        | vk::BufferUsageFlags::VERTEX_BUFFER.as_raw()
        | vk::BufferUsageFlags::INDIRECT_BUFFER.as_raw()
        | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS.as_raw(),
);

/// Whether a buffer of `size` bytes with `usage` may be created and bound whole on a device
/// with `limits` and `memory`: `Err` names the limit. The runtime binds storage and uniform
/// buffers whole (`StorageSet` writes `VK_WHOLE_SIZE`), so a larger one would break
/// `VUID-VkWriteDescriptorSet-descriptorType-00333` (or `-00332`): undefined behaviour on a
/// real driver, which the validation layer only reports after the fact. A buffer larger than
/// every heap it could live in would fail to allocate at best. `usage` is limited to
/// [`BUFFER_USAGES`].
pub fn check_buffer(
    size: u64,
    usage: vk::BufferUsageFlags,
    limits: Option<&vk::PhysicalDeviceLimits>,
    memory: &vk::PhysicalDeviceMemoryProperties,
) -> Result<()> {
    if !BUFFER_USAGES.contains(usage) {
        return Err(RuntimeError::Invalid(format!(
            "a buffer for {:?}: the runtime makes buffers only for Vulkan 1.0's usages (and the device address every buffer gets)",
            usage & !BUFFER_USAGES
        )));
    }
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
    // Every field is private and read through an accessor: `destroy` frees these handles and
    // `bytes` trusts the mapping, so safe code must not be able to swap or resize them.
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: u64,
    address: vk::DeviceAddress,
    mapped: *mut u8,
    /// Bytes the mapping covers (`size` for a host-visible buffer, 0 otherwise).
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
        if let Some(max) = ctx.max_buffer_size().filter(|&max| size > max) {
            return Err(RuntimeError::Invalid(format!(
                "a {size}-byte buffer is larger than the device's maxBufferSize ({max} bytes)"
            )));
        }
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

    /// The buffer's handle (null after `destroy`).
    pub fn buffer(&self) -> vk::Buffer {
        self.buffer
    }

    /// The memory bound to the whole buffer (null after `destroy`).
    pub fn memory(&self) -> vk::DeviceMemory {
        self.memory
    }

    /// The size asked for at creation, in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The buffer's device address (every runtime buffer has `SHADER_DEVICE_ADDRESS`).
    pub fn address(&self) -> vk::DeviceAddress {
        self.address
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
    // Private, as `Buffer`'s: `destroy` frees exactly these handles.
    image: vk::Image,
    memory: vk::DeviceMemory,
    view: vk::ImageView,
}

/// The aspects a view of an image of `format` may select, for the formats `Image::new` takes;
/// `None` for multi-planar and other formats whose views need more than an aspect (a plane, a
/// sampler Y′CBCR conversion), which it refuses.
fn image_aspects(format: vk::Format) -> Option<vk::ImageAspectFlags> {
    use vk::Format as F;
    let depth = vk::ImageAspectFlags::DEPTH;
    let stencil = vk::ImageAspectFlags::STENCIL;
    Some(match format {
        F::UNDEFINED => return None,
        F::D16_UNORM | F::X8_D24_UNORM_PACK32 | F::D32_SFLOAT => depth,
        F::S8_UINT => stencil,
        F::D16_UNORM_S8_UINT | F::D24_UNORM_S8_UINT | F::D32_SFLOAT_S8_UINT => depth | stencil,
        // VK_KHR_sampler_ycbcr_conversion's formats (1000156000…), VK_EXT_ycbcr_2plane_444_formats'
        // (1000330000…) and VK_NV_optical_flow's 16-bit 2-plane one (1000464000).
        f if (1_000_156_000..1_000_157_000).contains(&f.as_raw())
            || (1_000_330_000..1_000_331_000).contains(&f.as_raw())
            || (1_000_464_000..1_000_465_000).contains(&f.as_raw()) =>
        {
            return None
        }
        _ => vk::ImageAspectFlags::COLOR,
    })
}

/// Why `Image::new` cannot make an image of these parameters on the allocator's device, or
/// `None` where the image, its memory and a view of `aspect` are valid to create. Everything
/// `vkCreateImage` and `vkCreateImageView` require of them is checked here, since `new` is safe.
fn image_refusal(
    ctx: &dyn Allocator,
    format: vk::Format,
    (width, height): (u32, u32),
    usage: vk::ImageUsageFlags,
    aspect: vk::ImageAspectFlags,
) -> Option<String> {
    let what = || format!("a {width}×{height} {format:?} image for {usage:?}");
    if width == 0 || height == 0 {
        return Some(format!("{} has no pixels", what()));
    }
    if usage.is_empty() {
        return Some(format!("{} has no usage", what()));
    }
    let Some(aspects) = image_aspects(format) else {
        return Some(format!("{}: the format is not one a plain image can have", what()));
    };
    // A view selects one aspect of a depth–stencil format; a colour view selects COLOR.
    let one_of = aspect == vk::ImageAspectFlags::COLOR || aspect.as_raw().count_ones() == 1;
    if aspect.is_empty() || !aspects.contains(aspect) || !one_of {
        return Some(format!("{}: a view of {aspect:?} does not fit the format's {aspects:?}", what()));
    }
    let Some(properties) = ctx.image_format_properties(format, usage) else {
        return Some(format!("{}: this allocator cannot ask the device which images it supports", what()));
    };
    let Ok(properties) = properties else {
        return Some(format!("{}: the device does not support it with optimal tiling", what()));
    };
    let max = properties.max_extent;
    if width > max.width || height > max.height {
        return Some(format!("{} exceeds the device's {}×{} for it", what(), max.width, max.height));
    }
    None
}

impl Image {
    /// The image's handle.
    pub fn image(&self) -> vk::Image {
        self.image
    }

    /// The memory bound to it.
    pub fn memory(&self) -> vk::DeviceMemory {
        self.memory
    }

    /// A view of the aspect it was made with, its one level and layer.
    pub fn view(&self) -> vk::ImageView {
        self.view
    }

    /// An optimally tiled `width`×`height` image of `format` for `usage`, in device-local
    /// memory, and a view of its `aspect`. On an error nothing is left behind. `Err` (before any
    /// Vulkan object is made) where the device does not support the format with that usage and
    /// size, where `aspect` is not one aspect of the format (COLOR for a colour format), or where
    /// the allocator cannot ask the device (a `DgcDevice` or `GpuContext` always can).
    pub fn new(
        ctx: &dyn Allocator,
        format: vk::Format,
        (width, height): (u32, u32),
        usage: vk::ImageUsageFlags,
        aspect: vk::ImageAspectFlags,
    ) -> Result<Image> {
        if let Some(why) = image_refusal(ctx, format, (width, height), usage, aspect) {
            return Err(RuntimeError::Invalid(why));
        }
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
        // An extension's usage bit is refused whatever the limits.
        let e = check_buffer(64, storage | vk::BufferUsageFlags::ACCELERATION_STRUCTURE_STORAGE_KHR, None, &memory)
            .unwrap_err()
            .to_string();
        assert!(e.contains("ACCELERATION_STRUCTURE_STORAGE_KHR") && !e.contains("STORAGE_BUFFER"), "{e}");
        assert!(check_buffer(64, vk::BufferUsageFlags::VIDEO_DECODE_SRC_KHR, None, &memory).is_err());
        assert!(check_buffer(64, BUFFER_USAGES, None, &memory).is_ok());
    }

    #[test]
    fn image_views_select_one_aspect_of_a_plain_format() {
        use vk::Format as F;
        assert_eq!(image_aspects(F::R8G8B8A8_UNORM), Some(vk::ImageAspectFlags::COLOR));
        assert_eq!(image_aspects(F::D32_SFLOAT), Some(vk::ImageAspectFlags::DEPTH));
        assert_eq!(
            image_aspects(F::D24_UNORM_S8_UINT),
            Some(vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL)
        );
        assert_eq!(image_aspects(F::UNDEFINED), None);
        assert_eq!(image_aspects(F::G8_B8R8_2PLANE_420_UNORM), None);
        assert_eq!(image_aspects(F::G8_B8R8_2PLANE_444_UNORM), None);
    }
}
