//! Stream validation on the GPU: check every sequence of a generated stream before it runs.
//!
//! Why a GPU pass: the rules that matter most for a stream written by a kernel — an index buffer
//! address inside a buffer made for indices and aligned to its type, index ranges inside the
//! bound buffer, vertex and draw-array addresses inside their buffers, counts within what the
//! engine budgeted, execution-set indices inside the set, a stored sequence count within
//! `maxSequenceCount` — are about the stream's *contents*, which the validation layers never
//! read (`VUID-VkBindIndexBufferIndirectCommandEXT-None-11117`, `-bufferAddress-11118`,
//! `VUID-VkBindVertexBufferIndirectCommandEXT-None-11120`,
//! `VUID-VkDrawIndirectCountIndirectCommandEXT-None-11122`,
//! `VUID-VkGeneratedCommandsInfoEXT-sequenceCountAddress-11068`). A wrong record is a device
//! fault or silent garbage; this pass turns it into a report with the sequence, token, field,
//! value, limit and rule code, read back from a small host-visible buffer.
//!
//! Why it is generic: `validate_stream.comp` reads the raw stream as words, with the stride in
//! push constants and the layout's tokens, the stated limits and the registered buffers in a
//! table (`table`), so one committed SPIR-V validates any `CompiledLayout`. It needs no
//! descriptor set and no extension beyond `bufferDeviceAddress`, so it runs on any device the
//! runtime runs on — before a DGC execute or before the multi-draw fallback replays the stream.
//!
//! ```ignore
//! let limits = StreamLimits { max_instance_count: Some(1), ..StreamLimits::default() };
//! let buffers = [RegisteredBuffer { address: ib.address, size: ib.size, usage: vk::BufferUsageFlags::INDEX_BUFFER }];
//! let validator = StreamValidator::new(&dev, layout, limits, &buffers)?;
//! // each frame, after the kernel wrote the stream and before executing it:
//! unsafe { validator.record(&device, cmd, &stream)? };
//! // ... submit, wait ...
//! let report = validator.read_report(); // StreamReport: total, first sequence, violations
//! ```
//!
//! Or hand it to the executor (`Execution::set_validator`), which records it before every
//! execute. `host::validate_on_host` runs the same checks over bytes on the CPU.

pub mod checks;
pub mod host;
pub mod report;
pub mod table;

pub use checks::Check;
pub use report::{StreamReport, StreamViolation};
pub use table::{BoundIndexBuffer, RegisteredBuffer, StreamLimits};

use crate::error::{Result, RuntimeError};
use crate::memory::{as_bytes, Allocator, Buffer, Location};
use crate::shaders::compute_pipeline;
use crate::stream::Stream;
use ash::vk;
use dgcc_core::ir::CompiledLayout;

const VALIDATE_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/validate_stream.comp.spv");
/// Invocations per workgroup (`local_size_x` of the kernel).
const GROUP: u32 = 64;
/// Workgroups per dispatch at most; the kernel loops over longer streams.
const MAX_GROUPS: u32 = 65_535;
const PUSH_BYTES: u32 = 48;

/// The validation pass for one layout: its kernel, table and report buffers.
///
/// Destroyed explicitly with `destroy` (or by the `Execution` it was handed to); dropping it
/// leaks its kernel and buffers.
pub struct StreamValidator {
    /// The device it was made on, so that an `Execution` on another device refuses it.
    device: vk::Device,
    layout: CompiledLayout,
    limits: StreamLimits,
    table: Buffer,
    report: Buffer,
    pipeline_layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
}

impl StreamValidator {
    /// A validator for streams of `layout`, pointing only into `buffers`. Refuses a layout that
    /// breaks the stream rules (tokens past the stride, a stride that is not a positive multiple
    /// of 4: only an edited manifest has one) and a report capacity outside 1..=1048576.
    pub fn new(
        alloc: &dyn Allocator,
        layout: &CompiledLayout,
        limits: StreamLimits,
        buffers: &[RegisteredBuffer],
    ) -> Result<StreamValidator> {
        if limits.report_capacity == 0 || limits.report_capacity > 1 << 20 {
            return Err(RuntimeError::Invalid(format!(
                "report capacity {} is outside 1..=1048576",
                limits.report_capacity
            )));
        }
        crate::refuse::check_stream(layout)?;
        let words = table::build(layout, &limits, buffers)?;
        let d = alloc.device();
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
        let mut table = Buffer::new(alloc, 4 * words.len() as u64, storage, Location::Host)?;
        let report_bytes = 4 * (report::HEADER_WORDS + report::SLOT_WORDS * limits.report_capacity as usize) as u64;
        let report =
            match Buffer::new(alloc, report_bytes, storage | vk::BufferUsageFlags::TRANSFER_DST, Location::Host) {
                Ok(r) => r,
                Err(e) => {
                    // SAFETY: nothing uses the table yet.
                    unsafe { table.destroy(d) };
                    return Err(e);
                }
            };
        let written = table.write(0, as_bytes(&words));
        let mut v = StreamValidator {
            device: d.handle(),
            layout: layout.clone(),
            limits,
            table,
            report,
            pipeline_layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
        };
        if let Err(e) = written {
            // SAFETY: nothing uses the buffers yet.
            unsafe { v.destroy(d) };
            return Err(e);
        }
        let range = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: PUSH_BYTES }];
        let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&range);
        // SAFETY: valid create info; on failure everything created so far is destroyed.
        let made = unsafe { d.create_pipeline_layout(&info, None) }
            .map_err(RuntimeError::vk("vkCreatePipelineLayout"))
            .and_then(|pl| {
                v.pipeline_layout = pl;
                // SAFETY: the embedded kernel is valid SPIR-V; `pl` is live and its range covers
                // the kernel's push constants.
                unsafe { compute_pipeline(d, pl, VALIDATE_SPV, &[], None) }
            });
        match made {
            Ok(p) => v.pipeline = p,
            Err(e) => {
                // SAFETY: nothing uses the buffers or the layout yet.
                unsafe { v.destroy(d) };
                return Err(e);
            }
        }
        if v.report.bytes().is_none() || v.table.bytes().is_none() {
            // SAFETY: nothing uses the validator yet.
            unsafe { v.destroy(d) };
            return Err(RuntimeError::Invalid("the validator's buffers are not host-visible".into()));
        }
        Ok(v)
    }

    pub fn limits(&self) -> &StreamLimits {
        &self.limits
    }

    pub fn layout(&self) -> &CompiledLayout {
        &self.layout
    }

    /// Replace the registered buffers (and limits). The table is rewritten in place, or
    /// reallocated when it grows.
    ///
    /// # Safety
    /// `alloc` is the allocator the validator was created with, and no pending GPU work uses the
    /// validator (its table is rewritten in place).
    pub unsafe fn set_buffers(
        &mut self,
        alloc: &dyn Allocator,
        limits: StreamLimits,
        buffers: &[RegisteredBuffer],
    ) -> Result<()> {
        if limits.report_capacity != self.limits.report_capacity {
            return Err(RuntimeError::Invalid("the report capacity is fixed when the validator is created".into()));
        }
        let words = table::build(&self.layout, &limits, buffers)?;
        let bytes = 4 * words.len() as u64;
        if bytes > self.table.size() {
            let mut grown = Buffer::new(alloc, bytes, vk::BufferUsageFlags::STORAGE_BUFFER, Location::Host)?;
            if let Err(e) = grown.write(0, as_bytes(&words)) {
                // SAFETY: just made by `alloc`'s device, and no work has used it.
                unsafe { grown.destroy(alloc.device()) };
                return Err(e);
            }
            let mut old = std::mem::replace(&mut self.table, grown);
            // SAFETY: made by `alloc`'s device and unused by pending work (the caller's contract).
            unsafe { old.destroy(alloc.device()) };
        } else {
            self.table.write(0, as_bytes(&words))?;
        }
        self.limits = limits;
        Ok(())
    }

    /// Record the pass over `stream`: reset the report, check `min(stored count, records)`
    /// sequences, make the report visible to the host. Binds a compute pipeline and pushes
    /// compute push constants, so record it before binding what the execute needs (the
    /// executor re-binds a dispatch layout's pipeline itself).
    ///
    /// # Safety
    /// - `cmd` is a command buffer of `device` (the validator's) in the recording state, outside
    ///   a render pass, and `device` has the `synchronization2` feature enabled (Vulkan 1.3's;
    ///   the pass's barriers are `vkCmdPipelineBarrier2`);
    /// - the stream (and its count) are live buffers of `device` whose addresses are given,
    ///   written before, by compute or transfer work recorded earlier or by the host before
    ///   submission;
    /// - the registered buffers (`new`, `set_buffers`) are live buffers of `device` of at least
    ///   the registered sizes at the registered addresses (the kernel reads count tokens' draw
    ///   arrays inside them);
    /// - the validator stays alive (not destroyed) until the submission finished; one pass per
    ///   submission: read the report once it finished.
    pub unsafe fn record(&self, device: &ash::Device, cmd: vk::CommandBuffer, stream: &Stream) -> Result<()> {
        if stream.address == 0 || !stream.address.is_multiple_of(4) {
            return Err(RuntimeError::Invalid(format!(
                "stream address {:#x} is null or not 4-byte aligned",
                stream.address
            )));
        }
        let sequence_limit = stream.max_sequences.min(self.limits.max_sequence_count.unwrap_or(u32::MAX));
        let mut push = Vec::with_capacity(PUSH_BYTES as usize);
        for address in
            [stream.address, stream.count.map_or(0, |c| c.address), self.table.address(), self.report.address()]
        {
            push.extend_from_slice(&address.to_le_bytes());
        }
        for word in [self.layout.stride, stream.max_sequences, sequence_limit, self.limits.report_capacity] {
            push.extend_from_slice(&word.to_le_bytes());
        }
        let header = [0u32, u32::MAX, 0, u32::MAX];
        // SAFETY (the commands below): `cmd` is recording on `device` outside a render pass (the
        // caller's contract); the report, table, kernel and layout are this validator's own.
        unsafe {
            barrier(
                device,
                cmd,
                (
                    vk::PipelineStageFlags2::COMPUTE_SHADER,
                    vk::AccessFlags2::SHADER_READ | vk::AccessFlags2::SHADER_WRITE,
                ),
                (vk::PipelineStageFlags2::TRANSFER, vk::AccessFlags2::TRANSFER_WRITE),
            );
            device.cmd_update_buffer(cmd, self.report.buffer(), 0, as_bytes(&header));
            barrier(
                device,
                cmd,
                (
                    vk::PipelineStageFlags2::COMPUTE_SHADER | vk::PipelineStageFlags2::TRANSFER,
                    vk::AccessFlags2::SHADER_WRITE | vk::AccessFlags2::TRANSFER_WRITE,
                ),
                (
                    vk::PipelineStageFlags2::COMPUTE_SHADER,
                    vk::AccessFlags2::SHADER_READ | vk::AccessFlags2::SHADER_WRITE,
                ),
            );
            device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            device.cmd_push_constants(cmd, self.pipeline_layout, vk::ShaderStageFlags::COMPUTE, 0, &push);
            device.cmd_dispatch(cmd, stream.max_sequences.div_ceil(GROUP).clamp(1, MAX_GROUPS), 1, 1);
            barrier(
                device,
                cmd,
                (vk::PipelineStageFlags2::COMPUTE_SHADER, vk::AccessFlags2::SHADER_WRITE),
                (vk::PipelineStageFlags2::HOST, vk::AccessFlags2::HOST_READ),
            );
        }
        Ok(())
    }

    /// The device the validator was made on (its pipeline and buffers are that device's).
    pub fn device(&self) -> vk::Device {
        self.device
    }

    /// The report of the last pass. Call it only after that submission finished: before, it
    /// would read mapped memory the kernel is writing, which the submission's unsafe caller
    /// promised not to let happen (the crate docs, "The unsafe boundary").
    pub fn read_report(&self) -> StreamReport {
        let words: Vec<u32> = self
            .report
            .bytes()
            .unwrap_or_default()
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        StreamReport::decode(&self.layout, &words)
    }

    /// Destroy the kernel and buffers. A second call does nothing.
    ///
    /// # Safety
    /// `device` is the device the validator was created on, and no pending GPU work uses it
    /// (every submission it was recorded into has finished).
    pub unsafe fn destroy(&mut self, device: &ash::Device) {
        // SAFETY: all created on `device`, unused by pending work (the caller's contract).
        unsafe {
            self.table.destroy(device);
            self.report.destroy(device);
            if self.pipeline != vk::Pipeline::null() {
                device.destroy_pipeline(self.pipeline, None);
                self.pipeline = vk::Pipeline::null();
            }
            if self.pipeline_layout != vk::PipelineLayout::null() {
                device.destroy_pipeline_layout(self.pipeline_layout, None);
                self.pipeline_layout = vk::PipelineLayout::null();
            }
        }
    }
}

type Scope = (vk::PipelineStageFlags2, vk::AccessFlags2);

/// # Safety
/// `cmd` is a command buffer of `device` in the recording state, outside a render pass.
unsafe fn barrier(device: &ash::Device, cmd: vk::CommandBuffer, src: Scope, dst: Scope) {
    let b = [vk::MemoryBarrier2::default()
        .src_stage_mask(src.0)
        .src_access_mask(src.1)
        .dst_stage_mask(dst.0)
        .dst_access_mask(dst.1)];
    // SAFETY: the caller's contract.
    unsafe { device.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&b)) };
}
