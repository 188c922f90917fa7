//! What a constructor of the scene has made so far, destroyed if a later step fails.
//!
//! Why: `SceneGpu::new` makes some forty Vulkan objects, and almost every step can fail: memory
//! runs out, the driver will not compile a pipeline, the culling dispatch is past the device's
//! workgroup count. `dgcc bench` runs every row on one context, so whatever a failed row made
//! would stay until the whole bench ends, and the validation layer reports it when the device
//! is destroyed (VUID-vkDestroyDevice-device-05137). Each object is recorded as it is made
//! (`made(Buffer::new(…))?`); a failure's `?` drops the record, which destroys what it holds in
//! reverse order; at the end `keep` hands everything to the finished value.

use super::pyramid::Pyramid;
use ash::vk;
use dgcc::runtime::descriptors::StorageSet;
use dgcc::runtime::error::Result;
use dgcc::runtime::memory::{Buffer, Image};

/// The objects made so far (see the module doc).
pub struct Teardown<'d> {
    device: &'d ash::Device,
    made: Vec<Handle>,
}

/// One Vulkan object (or a buffer or image with its memory and view), by handle.
pub enum Handle {
    Buffer(vk::Buffer, vk::DeviceMemory),
    Image(vk::Image, vk::ImageView, vk::DeviceMemory),
    DescriptorPool(vk::DescriptorPool),
    DescriptorSetLayout(vk::DescriptorSetLayout),
    Pipeline(vk::Pipeline),
    PipelineLayout(vk::PipelineLayout),
    QueryPool(vk::QueryPool),
}

/// What a value holds that the teardown must destroy.
pub trait Owns {
    fn handles(&self, into: &mut Vec<Handle>);
}

impl<'d> Teardown<'d> {
    /// An empty record for objects of `device`.
    ///
    /// # Safety
    /// Whatever is recorded was created on `device` and is destroyed by nothing else unless
    /// `keep` is called; and whenever the teardown drops without `keep` (an early return, a
    /// panic), no pending GPU work uses any of it: the constructor waits for each submission
    /// it makes before its next step.
    pub unsafe fn new(device: &'d ash::Device) -> Teardown<'d> {
        Teardown { device, made: vec![] }
    }

    /// Record what `value` holds, if it was made, and pass the result on.
    pub fn made<T: Owns>(&mut self, value: Result<T>) -> Result<T> {
        if let Ok(v) = &value {
            v.handles(&mut self.made);
        }
        value
    }

    /// Everything recorded now belongs to the finished value; nothing is destroyed.
    pub fn keep(mut self) {
        self.made.clear();
    }
}

impl Drop for Teardown<'_> {
    fn drop(&mut self) {
        let d = self.device;
        for handle in self.made.drain(..).rev() {
            // SAFETY: `new`'s contract: objects of this device that nothing else destroys and
            // no pending work uses; newest first, so a descriptor pool goes before its layout.
            unsafe {
                match handle {
                    Handle::Buffer(buffer, memory) => {
                        d.destroy_buffer(buffer, None);
                        d.free_memory(memory, None);
                    }
                    Handle::Image(image, view, memory) => {
                        d.destroy_image_view(view, None);
                        d.destroy_image(image, None);
                        d.free_memory(memory, None);
                    }
                    Handle::DescriptorPool(pool) => d.destroy_descriptor_pool(pool, None),
                    Handle::DescriptorSetLayout(layout) => d.destroy_descriptor_set_layout(layout, None),
                    Handle::Pipeline(pipeline) => d.destroy_pipeline(pipeline, None),
                    Handle::PipelineLayout(layout) => d.destroy_pipeline_layout(layout, None),
                    Handle::QueryPool(pool) => d.destroy_query_pool(pool, None),
                }
            }
        }
    }
}

impl Owns for Buffer {
    fn handles(&self, into: &mut Vec<Handle>) {
        into.push(Handle::Buffer(self.buffer(), self.memory()));
    }
}

impl Owns for Image {
    fn handles(&self, into: &mut Vec<Handle>) {
        into.push(Handle::Image(self.image(), self.view(), self.memory()));
    }
}

impl Owns for StorageSet {
    fn handles(&self, into: &mut Vec<Handle>) {
        // The set goes with its pool.
        self.layout().handles(into);
        self.pool().handles(into);
    }
}

impl Owns for Pyramid {
    fn handles(&self, into: &mut Vec<Handle>) {
        self.levels_buffer.handles(into);
        self.progress.handles(into);
        if let Some(copy) = &self.depth_copy {
            copy.handles(into);
        }
        self.set_layout.handles(into);
        self.pool.handles(into);
    }
}

/// A bare handle is its own record: `handle!(vk::Pipeline => Pipeline)`.
macro_rules! handle {
    ($($ty:ty => $variant:ident),* $(,)?) => {$(
        impl Owns for $ty {
            fn handles(&self, into: &mut Vec<Handle>) {
                into.push(Handle::$variant(*self));
            }
        }
    )*};
}

handle!(
    vk::DescriptorSetLayout => DescriptorSetLayout,
    vk::DescriptorPool => DescriptorPool,
    vk::Pipeline => Pipeline,
    vk::PipelineLayout => PipelineLayout,
    vk::QueryPool => QueryPool,
);
