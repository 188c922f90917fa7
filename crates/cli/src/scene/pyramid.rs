//! The depth pyramid of two-pass occlusion culling: its storage (every level in one buffer of
//! floats, `pyramid_levels.glsl` says where), the descriptor set `depth_pyramid.comp` and the
//! culling kernels reach it through (set 1), and the commands that build it from the early
//! pass's depth buffer.
//!
//! Why a buffer and not a mipmapped image: the kernels read single texels at computed
//! coordinates (no filtering), the build writes every level in one dispatch, and a buffer
//! keeps both as plain loads and stores — which naga can reflect, so `dgcc check` holds the
//! pyramid kernel to its targets like any other.
//!
//! Why set 1 is bound for every culling dispatch, occlusion or not: the culling kernels are one
//! module whatever the pass, so they statically use the pyramid's buffer.
//!
//! Why the depth buffer is sometimes copied first (`DepthRead`): lavapipe (Mesa 25.0) running
//! 128-bit vectors (4-lane subgroups, `LP_NATIVE_VECTOR_WIDTH=128`) on an AVX2 host crashes in
//! its own compiled sampling code on any read of this depth texture from a compute shader —
//! an aligned 32-byte `vmovdqa` store to a 16-byte-aligned stack slot, with `texelFetch` or a
//! sampler, at any coordinates. There the kernel reads a copy of the depth buffer in a storage
//! buffer instead, which is only plain loads; everywhere else it samples the depth buffer.

use ash::vk;
use dgcc::runtime::error::{Result, RuntimeError};
use dgcc::runtime::memory::{Buffer, Location};
use dgcc::runtime::GpuContext;
use serde::Serialize;

use super::teardown::Teardown;
use super::Culling;

/// `depth_pyramid.comp`'s `local_size_x`.
pub const WORKGROUP: u32 = 256;
/// The kernel's workgroup covers this many pixels along each axis.
pub const TILE: u32 = 64;

/// Level sizes for a `width × height` depth buffer.
pub fn level_sizes(width: u32, height: u32) -> Vec<(u32, u32)> {
    let mut out = vec![];
    let (mut w, mut h) = (width.div_ceil(2).max(1), height.div_ceil(2).max(1));
    loop {
        out.push((w, h));
        if (w, h) == (1, 1) {
            return out;
        }
        (w, h) = (w.div_ceil(2), h.div_ceil(2));
    }
}

/// How the pyramid's kernel reads the early pass's depth buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DepthRead {
    /// `texelFetch` of the depth buffer (`depth_pyramid.comp`).
    Sampled,
    /// A copy of the depth buffer into a storage buffer first, then plain loads of it
    /// (`depth_pyramid.comp` built with `DEPTH_FROM_COPY`).
    Copied,
}

impl DepthRead {
    /// How a run that culls as `culling` reads depth: a copy only where the pyramid is built
    /// (occlusion culling) on a driver that needs one (`for_device`). Other runs never read
    /// depth in compute, so they make neither the copy's buffer nor the depth image's
    /// transfer use.
    pub fn for_run(ctx: &GpuContext, culling: Culling) -> DepthRead {
        match culling {
            Culling::Occlusion => DepthRead::for_device(ctx),
            Culling::None | Culling::Frustum => DepthRead::Sampled,
        }
    }

    /// Sampled, but for the one driver known to crash sampling depth in compute (the module
    /// docs): lavapipe whose subgroups are 4 lanes wide.
    pub fn for_device(ctx: &GpuContext) -> DepthRead {
        let mut driver = vk::PhysicalDeviceDriverProperties::default();
        let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut driver).push_next(&mut subgroup);
        // SAFETY: `physical` belongs to `instance`; the chain holds two Vulkan 1.1/1.2 structs
        // of a Vulkan 1.3 instance.
        unsafe { ctx.instance().get_physical_device_properties2(ctx.physical(), &mut props) };
        DepthRead::for_driver(driver.driver_id, subgroup.subgroup_size)
    }

    fn for_driver(driver: vk::DriverId, subgroup_size: u32) -> DepthRead {
        match (driver, subgroup_size) {
            (vk::DriverId::MESA_LLVMPIPE, 4) => DepthRead::Copied,
            _ => DepthRead::Sampled,
        }
    }

    /// Why a run reads a copy, for its report (`None` where it samples).
    pub fn note(self) -> Option<&'static str> {
        match self {
            DepthRead::Sampled => None,
            DepthRead::Copied => {
                Some("reads a copy of the depth buffer: lavapipe at 4-lane subgroups crashes sampling depth in compute")
            }
        }
    }
}

pub struct Pyramid {
    /// Every level's texels, level after level.
    pub levels_buffer: Buffer,
    pub set_layout: vk::DescriptorSetLayout,
    pub pool: vk::DescriptorPool,
    pub set: vk::DescriptorSet,
    /// The kernel's count of finished workgroups (the last one resets it).
    pub progress: Buffer,
    pub levels: u32,
    pub groups: (u32, u32),
    pub depth_read: DepthRead,
    /// The depth buffer's copy, row-major floats (`DepthRead::Copied`).
    pub depth_copy: Option<Buffer>,
}

impl Pyramid {
    /// The pyramid for a `width × height` depth target whose view is `depth_view`, read as
    /// `depth_read` says (a `Copied` target was made with `TRANSFER_SRC`).
    pub fn new(
        ctx: &GpuContext,
        depth_view: vk::ImageView,
        depth_read: DepthRead,
        width: u32,
        height: u32,
    ) -> Result<Pyramid> {
        let sizes = level_sizes(width, height);
        let texels: u64 = sizes.iter().map(|&(w, h)| w as u64 * h as u64).sum();
        let d = ctx.device();
        // SAFETY: everything recorded is made on this device below, and the one submission
        // (`one_shot`, last) waits for its work.
        let mut t = unsafe { Teardown::new(d) };
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST;
        let mut p = Pyramid {
            levels_buffer: t.made(Buffer::new(ctx, 4 * texels, storage, Location::Device))?,
            set_layout: vk::DescriptorSetLayout::null(),
            pool: vk::DescriptorPool::null(),
            set: vk::DescriptorSet::null(),
            progress: t.made(Buffer::new(ctx, 16, storage, Location::Device))?,
            levels: sizes.len() as u32,
            groups: (width.div_ceil(TILE), height.div_ceil(TILE)),
            depth_read,
            depth_copy: None,
        };
        if depth_read == DepthRead::Copied {
            let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST;
            p.depth_copy = Some(t.made(Buffer::new(ctx, 4 * width as u64 * height as u64, usage, Location::Device))?);
        }
        let stage = vk::ShaderStageFlags::COMPUTE;
        let binding = |b: u32, ty: vk::DescriptorType| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(b)
                .descriptor_type(ty)
                .descriptor_count(1)
                .stage_flags(stage)
        };
        let mut bindings = vec![
            binding(1, vk::DescriptorType::SAMPLED_IMAGE),
            binding(2, vk::DescriptorType::STORAGE_BUFFER),
            binding(3, vk::DescriptorType::STORAGE_BUFFER),
        ];
        if p.depth_copy.is_some() {
            bindings.push(binding(4, vk::DescriptorType::STORAGE_BUFFER));
        }
        let storage_buffers = bindings.len() as u32 - 1;
        // SAFETY: valid create infos; the set's descriptors name live objects of this device.
        unsafe {
            p.set_layout = t.made(
                d.create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings), None)
                    .map_err(RuntimeError::vk("vkCreateDescriptorSetLayout")),
            )?;
            let sizes = [
                vk::DescriptorPoolSize { ty: vk::DescriptorType::SAMPLED_IMAGE, descriptor_count: 1 },
                vk::DescriptorPoolSize { ty: vk::DescriptorType::STORAGE_BUFFER, descriptor_count: storage_buffers },
            ];
            p.pool = t.made(
                d.create_descriptor_pool(&vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes), None)
                    .map_err(RuntimeError::vk("vkCreateDescriptorPool")),
            )?;
            let layouts = [p.set_layout];
            p.set = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default().descriptor_pool(p.pool).set_layouts(&layouts),
                )
                .map_err(RuntimeError::vk("vkAllocateDescriptorSets"))?[0];
            let depth_image = [vk::DescriptorImageInfo {
                sampler: vk::Sampler::null(),
                image_view: depth_view,
                image_layout: vk::ImageLayout::DEPTH_READ_ONLY_OPTIMAL,
            }];
            let whole =
                |b: &Buffer| [vk::DescriptorBufferInfo { buffer: b.buffer(), offset: 0, range: vk::WHOLE_SIZE }];
            let (levels, progress) = (whole(&p.levels_buffer), whole(&p.progress));
            let copy = p.depth_copy.as_ref().map(whole);
            let mut writes = vec![
                vk::WriteDescriptorSet::default()
                    .dst_set(p.set)
                    .dst_binding(1)
                    .descriptor_type(vk::DescriptorType::SAMPLED_IMAGE)
                    .image_info(&depth_image),
                vk::WriteDescriptorSet::default()
                    .dst_set(p.set)
                    .dst_binding(2)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .buffer_info(&levels),
                vk::WriteDescriptorSet::default()
                    .dst_set(p.set)
                    .dst_binding(3)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .buffer_info(&progress),
            ];
            if let Some(copy) = &copy {
                writes.push(
                    vk::WriteDescriptorSet::default()
                        .dst_set(p.set)
                        .dst_binding(4)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(copy),
                );
            }
            d.update_descriptor_sets(&writes, &[]);
        }
        // The far plane everywhere until a pyramid is built; the progress counter at zero.
        ctx.one_shot(|cmd| {
            // SAFETY: fresh buffers of this device with TRANSFER_DST.
            unsafe {
                d.cmd_fill_buffer(cmd, p.levels_buffer.buffer(), 0, vk::WHOLE_SIZE, 1.0f32.to_bits());
                d.cmd_fill_buffer(cmd, p.progress.buffer(), 0, vk::WHOLE_SIZE, 0);
                let done = [vk::MemoryBarrier2::default()
                    .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
                    .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
                    .dst_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
                    .dst_access_mask(vk::AccessFlags2::SHADER_READ | vk::AccessFlags2::SHADER_WRITE)];
                d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&done));
            }
            Ok(())
        })?;
        t.keep();
        Ok(p)
    }

    /// Record the build: `depth` goes from the attachment layout to one the read takes (the
    /// kernel's, or the copy's), the kernel runs, and `depth` goes back for the late pass's
    /// draws (its contents kept).
    ///
    /// # Safety
    /// `cmd` is recording on `d`, outside a render pass, with `layout` (whose set 1 is this
    /// pyramid's) and the scene's set 0 bound at the compute bind point by the caller;
    /// `pipeline` was made with `layout` from the kernel `depth_read` names; `depth` is the
    /// image of the view this pyramid was made with; the early pass's depth writes were recorded
    /// before; every object is alive until the submission finishes.
    pub unsafe fn record(
        &self,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
        pipeline: vk::Pipeline,
        layout: vk::PipelineLayout,
        depth: vk::Image,
        size: (u32, u32),
    ) {
        let depth_range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::DEPTH,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: 1,
        };
        // Where the depth is read: by the kernel, or by the copy before it.
        let (read_stage, read_access, read_layout) = match self.depth_copy {
            None => (
                vk::PipelineStageFlags2::COMPUTE_SHADER,
                vk::AccessFlags2::SHADER_SAMPLED_READ,
                vk::ImageLayout::DEPTH_READ_ONLY_OPTIMAL,
            ),
            Some(_) => {
                (vk::PipelineStageFlags2::COPY, vk::AccessFlags2::TRANSFER_READ, vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            }
        };
        let to_read = [vk::ImageMemoryBarrier2::default()
            .src_stage_mask(
                vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS | vk::PipelineStageFlags2::EARLY_FRAGMENT_TESTS,
            )
            .src_access_mask(vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE)
            .dst_stage_mask(read_stage)
            .dst_access_mask(read_access)
            .old_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
            .new_layout(read_layout)
            .image(depth)
            .subresource_range(depth_range)];
        // Last frame's late pass read the levels this build overwrites (and its build read the
        // copy this one overwrites).
        let reads_done = [vk::MemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
            .dst_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER | read_stage)
            .dst_access_mask(vk::AccessFlags2::SHADER_STORAGE_WRITE | vk::AccessFlags2::SHADER_STORAGE_READ)];
        let words = [0u32, size.0, size.1, self.levels];
        // SAFETY: the caller's contract.
        unsafe {
            d.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&to_read).memory_barriers(&reads_done),
            );
            if let Some(copy) = &self.depth_copy {
                let region = [vk::BufferImageCopy {
                    buffer_offset: 0,
                    buffer_row_length: 0,
                    buffer_image_height: 0,
                    image_subresource: vk::ImageSubresourceLayers {
                        aspect_mask: vk::ImageAspectFlags::DEPTH,
                        mip_level: 0,
                        base_array_layer: 0,
                        layer_count: 1,
                    },
                    image_offset: vk::Offset3D::default(),
                    image_extent: vk::Extent3D { width: size.0, height: size.1, depth: 1 },
                }];
                d.cmd_copy_image_to_buffer(cmd, depth, vk::ImageLayout::TRANSFER_SRC_OPTIMAL, copy.buffer(), &region);
                let copied = [vk::MemoryBarrier2::default()
                    .src_stage_mask(vk::PipelineStageFlags2::COPY)
                    .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
                    .dst_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
                    .dst_access_mask(vk::AccessFlags2::SHADER_STORAGE_READ)];
                d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&copied));
            }
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
            d.cmd_push_constants(
                cmd,
                layout,
                vk::ShaderStageFlags::COMPUTE,
                0,
                dgcc::runtime::memory::as_bytes(&words),
            );
            d.cmd_dispatch(cmd, self.groups.0, self.groups.1, 1);
            let back = [vk::ImageMemoryBarrier2::default()
                .src_stage_mask(read_stage)
                .dst_stage_mask(
                    vk::PipelineStageFlags2::EARLY_FRAGMENT_TESTS | vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS,
                )
                .dst_access_mask(
                    vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE,
                )
                .old_layout(read_layout)
                .new_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
                .image(depth)
                .subresource_range(depth_range)];
            let built = [vk::MemoryBarrier2::default()
                .src_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
                .src_access_mask(vk::AccessFlags2::SHADER_STORAGE_WRITE)
                .dst_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
                .dst_access_mask(vk::AccessFlags2::SHADER_STORAGE_READ)];
            d.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&back).memory_barriers(&built),
            );
        }
    }

    /// # Safety
    /// Everything was created on `d`, and the device is idle.
    pub unsafe fn destroy(&mut self, d: &ash::Device) {
        // SAFETY: the caller's contract; null handles are ignored by Vulkan.
        unsafe {
            d.destroy_descriptor_pool(self.pool, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
            self.levels_buffer.destroy(d);
            self.progress.destroy(d);
            if let Some(copy) = &mut self.depth_copy {
                copy.destroy(d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{level_sizes, DepthRead};
    use ash::vk;

    #[test]
    fn only_lavapipe_at_four_lanes_reads_a_copy() {
        assert_eq!(DepthRead::for_driver(vk::DriverId::MESA_LLVMPIPE, 4), DepthRead::Copied);
        for (driver, size) in [
            (vk::DriverId::MESA_LLVMPIPE, 8),
            (vk::DriverId::MESA_LLVMPIPE, 16),
            (vk::DriverId::NVIDIA_PROPRIETARY, 32),
            (vk::DriverId::MESA_RADV, 64),
            (vk::DriverId::INTEL_PROPRIETARY_WINDOWS, 4),
        ] {
            assert_eq!(DepthRead::for_driver(driver, size), DepthRead::Sampled, "{driver:?} at {size}");
        }
        assert!(DepthRead::Copied.note().is_some() && DepthRead::Sampled.note().is_none());
    }

    #[test]
    fn levels_halve_rounding_up_to_one_texel() {
        let s = level_sizes(2560, 1440);
        assert_eq!(s[0], (1280, 720));
        assert_eq!(s[5], (40, 23));
        assert_eq!(*s.last().unwrap(), (1, 1));
        assert_eq!(s.len(), 12);
        assert_eq!(level_sizes(1, 1), vec![(1, 1)]);
        assert_eq!(level_sizes(3, 1), vec![(2, 1), (1, 1)]);
        assert_eq!(level_sizes(8192, 8192).len(), 13);
    }
}
