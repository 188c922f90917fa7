//! The device's copy bandwidth, measured in the same run as the scene: `vkCmdCopyBuffer` and
//! a compute-shader copy (`shaders/runtime/copy.comp`), both timed with timestamp queries.
//!
//! Why two copies: a driver's transfer path is not always its fastest (on an H200
//! `vkCmdCopyBuffer` moves about 850 GB/s read+write, a fifth of what the memory does), so the
//! culling passes are compared against the better of the two. Why in the same run: clocks,
//! drivers and other tenants change between runs; a ratio of two numbers from one run means
//! something, a ratio against a datasheet does not.
//!
//! The same submission times an empty dispatch (the copy kernel with nothing to copy, one
//! workgroup) between the same two timestamps: the fixed cost every pass pays before its first
//! byte, which is what bounds the small passes (the pyramid, the binning, culling at 100k).
//!
//! Bandwidth counts both directions: a copy of `b` bytes reads `b` and writes `b`, so its
//! figure is `2·b ÷ time`, the same accounting the culling passes get. The buffers should be
//! much larger than the last-level cache (256 MiB by default; clamped to a quarter of the
//! largest device-local heap and to `maxStorageBufferRange`).

use super::stats::Stats;
use ash::vk;
use dgcc::runtime::descriptors::StorageSet;
use dgcc::runtime::error::{Result, RuntimeError};
use dgcc::runtime::memory::{Buffer, Location};
use dgcc::runtime::shaders::compute_pipeline;
use dgcc::runtime::GpuContext;
use serde::Serialize;

const COPY_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/copy.comp.spv");
const COPY_LOCAL_SIZE: u64 = 256;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CopyBandwidth {
    /// Bytes per copy (each copy reads and writes this many).
    pub bytes: u64,
    pub repeats: u32,
    /// Read+write GB/s of each `vkCmdCopyBuffer`.
    pub copy_buffer_gbps: Stats,
    /// Read+write GB/s of each compute-shader copy.
    pub compute_copy_gbps: Stats,
    /// The better median of the two, and which it was.
    pub best_gbps: f64,
    pub best_method: String,
    /// Milliseconds of an empty dispatch (one workgroup, nothing read or written) between two
    /// timestamps.
    pub empty_dispatch_ms: Stats,
}

/// The buffer size actually used for a requested size on this device.
pub fn clamp_bytes(ctx: &GpuContext, requested: u64) -> u64 {
    let heaps = &ctx.memory().memory_heaps[..ctx.memory().memory_heap_count as usize];
    let largest_local =
        heaps.iter().filter(|h| h.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL)).map(|h| h.size).max();
    let largest = largest_local.or_else(|| heaps.iter().map(|h| h.size).max()).unwrap_or(requested);
    let range = ctx.properties().limits.max_storage_buffer_range as u64;
    requested.min(largest / 4).min(range) / 16 * 16
}

/// Measure both copies `repeats` times each over buffers of `clamp_bytes(requested)` bytes.
pub fn measure(ctx: &GpuContext, requested: u64, repeats: u32) -> Result<CopyBandwidth> {
    if !ctx.caps().timestamps {
        return Err(RuntimeError::MissingFeature {
            device: ctx.device_name().to_owned(),
            feature: "timestamp queries on the graphics+compute queue".into(),
            needed_for: "measuring copy bandwidth".into(),
        });
    }
    let bytes = clamp_bytes(ctx, requested);
    if bytes < 16 || repeats == 0 {
        return Err(RuntimeError::Invalid(format!("a copy of {bytes} bytes, {repeats} times, measures nothing")));
    }
    let mut parts = Parts::default();
    let result = parts.create(ctx, bytes, repeats).and_then(|_| parts.run(ctx, bytes, repeats));
    // SAFETY: `run` waited for its submission (or nothing was submitted).
    unsafe { parts.destroy(ctx.device()) };
    let (copy, compute, empty) = result?;
    let copy_buffer_gbps = Stats::of(copy).ok_or_else(|| RuntimeError::Invalid("no copy was timed".into()))?;
    let compute_copy_gbps =
        Stats::of(compute).ok_or_else(|| RuntimeError::Invalid("no compute copy was timed".into()))?;
    let empty_dispatch_ms =
        Stats::of(empty).ok_or_else(|| RuntimeError::Invalid("no empty dispatch was timed".into()))?;
    let (best_gbps, best_method) = if compute_copy_gbps.median > copy_buffer_gbps.median {
        (compute_copy_gbps.median, "compute shader")
    } else {
        (copy_buffer_gbps.median, "vkCmdCopyBuffer")
    };
    Ok(CopyBandwidth {
        bytes,
        repeats,
        copy_buffer_gbps,
        compute_copy_gbps,
        best_gbps,
        best_method: best_method.into(),
        empty_dispatch_ms,
    })
}

/// Everything the measurement creates, destroyed in one place.
#[derive(Default)]
struct Parts {
    buffers: Vec<Buffer>,
    set: Option<StorageSet>,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    queries: vk::QueryPool,
}

impl Parts {
    fn create(&mut self, ctx: &GpuContext, bytes: u64, repeats: u32) -> Result<()> {
        let d = ctx.device();
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST;
        for _ in 0..2 {
            self.buffers.push(Buffer::new(ctx, bytes, usage, Location::Device)?);
        }
        let storage = [self.buffers[0].buffer(), self.buffers[1].buffer()];
        // SAFETY: two live storage buffers of this device, destroyed after the set.
        self.set = Some(unsafe { StorageSet::new(d, vk::ShaderStageFlags::COMPUTE, &storage)? });
        let sets = [self.set.as_ref().map_or(vk::DescriptorSetLayout::null(), |s| s.layout())];
        let ranges = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: 4 }];
        let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets).push_constant_ranges(&ranges);
        // SAFETY: valid create infos.
        self.layout =
            unsafe { d.create_pipeline_layout(&info, None) }.map_err(RuntimeError::vk("vkCreatePipelineLayout"))?;
        // SAFETY: embedded SPIR-V written for this layout (one set, 4 compute push bytes).
        self.pipeline = unsafe { compute_pipeline(d, self.layout, COPY_SPV, &[], None)? };
        let pool = vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(6 * repeats);
        self.queries = unsafe { d.create_query_pool(&pool, None) }.map_err(RuntimeError::vk("vkCreateQueryPool"))?;
        Ok(())
    }

    /// Record warm-up copies, then `repeats` timed copies of each kind and `repeats` empty
    /// dispatches; returns GB/s per copy of each kind and milliseconds per empty dispatch.
    fn run(&self, ctx: &GpuContext, bytes: u64, repeats: u32) -> Result<(Vec<f64>, Vec<f64>, Vec<f64>)> {
        let d = ctx.device();
        let (src, dst) = (self.buffers[0].buffer(), self.buffers[1].buffer());
        let elements = bytes / 16;
        let max_groups = ctx.properties().limits.max_compute_work_group_count[0] as u64;
        let groups = elements.div_ceil(COPY_LOCAL_SIZE).min(max_groups).max(1) as u32;
        let set = self.set.as_ref().map(|s| s.set()).unwrap_or_default();
        ctx.one_shot(|cmd| {
            // SAFETY: `cmd` is recording; every object belongs to `d`.
            unsafe {
                d.cmd_reset_query_pool(cmd, self.queries, 0, 6 * repeats);
                d.cmd_fill_buffer(cmd, src, 0, vk::WHOLE_SIZE, 0x5a5a_5a5a);
                d.cmd_fill_buffer(cmd, dst, 0, vk::WHOLE_SIZE, 0);
                transfer_and_compute_barrier(d, cmd);
                let region = [vk::BufferCopy { src_offset: 0, dst_offset: 0, size: bytes }];
                // One untimed copy of each kind first: page-table and cache warm-up.
                d.cmd_copy_buffer(cmd, src, dst, &region);
                transfer_and_compute_barrier(d, cmd);
                for r in 0..repeats {
                    d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::ALL_COMMANDS, self.queries, 2 * r);
                    d.cmd_copy_buffer(cmd, src, dst, &region);
                    d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::ALL_COMMANDS, self.queries, 2 * r + 1);
                    transfer_and_compute_barrier(d, cmd);
                }
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
                d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, self.layout, 0, &[set], &[]);
                d.cmd_push_constants(
                    cmd,
                    self.layout,
                    vk::ShaderStageFlags::COMPUTE,
                    0,
                    &(elements as u32).to_le_bytes(),
                );
                d.cmd_dispatch(cmd, groups, 1, 1);
                transfer_and_compute_barrier(d, cmd);
                for r in 0..repeats {
                    let base = 2 * repeats + 2 * r;
                    d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::ALL_COMMANDS, self.queries, base);
                    d.cmd_dispatch(cmd, groups, 1, 1);
                    d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::ALL_COMMANDS, self.queries, base + 1);
                    transfer_and_compute_barrier(d, cmd);
                }
                // Nothing to copy: the kernel's loop does not run.
                d.cmd_push_constants(cmd, self.layout, vk::ShaderStageFlags::COMPUTE, 0, &0u32.to_le_bytes());
                for r in 0..repeats {
                    let base = 4 * repeats + 2 * r;
                    d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::ALL_COMMANDS, self.queries, base);
                    d.cmd_dispatch(cmd, 1, 1, 1);
                    d.cmd_write_timestamp2(cmd, vk::PipelineStageFlags2::ALL_COMMANDS, self.queries, base + 1);
                    transfer_and_compute_barrier(d, cmd);
                }
            }
            Ok(())
        })?;
        let mut data = vec![0u64; 6 * repeats as usize];
        // SAFETY: the submission finished; 64-bit results, waited for.
        unsafe {
            d.get_query_pool_results(
                self.queries,
                0,
                &mut data,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
        }
        .map_err(RuntimeError::vk("vkGetQueryPoolResults"))?;
        let period_ns = ctx.timestamp_period();
        let gbps = |pair: &[u64]| {
            let ns = pair[1].wrapping_sub(pair[0]) as f64 * period_ns;
            (ns > 0.0).then(|| 2.0 * bytes as f64 / ns)
        };
        let (copies, rest) = data.split_at(2 * repeats as usize);
        let (computes, empties) = rest.split_at(2 * repeats as usize);
        let ms = |pair: &[u64]| Some(pair[1].wrapping_sub(pair[0]) as f64 * period_ns / 1e6);
        Ok((
            copies.chunks(2).filter_map(gbps).collect(),
            computes.chunks(2).filter_map(gbps).collect(),
            empties.chunks(2).filter_map(ms).collect(),
        ))
    }

    /// # Safety
    /// No pending work uses the objects.
    unsafe fn destroy(&mut self, d: &ash::Device) {
        // SAFETY: every object was created on `d`, and no pending work uses it (this function's contract).
        unsafe {
            for b in &mut self.buffers {
                b.destroy(d);
            }
            if let Some(mut s) = self.set.take() {
                s.destroy(d);
            }
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_query_pool(self.queries, None);
        }
    }
}

/// Each copy finishes (reads and writes) before the next one starts.
fn transfer_and_compute_barrier(d: &ash::Device, cmd: vk::CommandBuffer) {
    let stages = vk::PipelineStageFlags2::TRANSFER | vk::PipelineStageFlags2::COMPUTE_SHADER;
    let access = vk::AccessFlags2::TRANSFER_READ
        | vk::AccessFlags2::TRANSFER_WRITE
        | vk::AccessFlags2::SHADER_READ
        | vk::AccessFlags2::SHADER_WRITE;
    let b = [vk::MemoryBarrier2::default()
        .src_stage_mask(stages)
        .src_access_mask(access)
        .dst_stage_mask(stages)
        .dst_access_mask(access)];
    // SAFETY: outside a render pass.
    unsafe { d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&b)) };
}
