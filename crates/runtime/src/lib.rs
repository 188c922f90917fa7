//! dgcc-runtime: executes compiled layouts on a live Vulkan device through ash.
//!
//! Why a crate of its own: engines embed this part without the compiler (no RON, pest or
//! codespan); it reads layouts as `ir::Manifest` JSON or generated Rust and checks them against
//! the live device with the same rule codes as `dgcc check`.
//!
//! Map: `ext_dgc` (the extension's FFI for ash 0.38), `context` (a headless device for `dgcc
//! run`/`probe`/tests; feature `headless`), `memory` (buffers, and 2D images for render targets), `probe` (live device →
//! `Profile` + Profiles JSON), `preprocess` (budgeted chunk planning that distrusts implausible
//! driver sizes), `dgc` (`DgcDevice`, `DgcLayout`, `ExecutionSet`: layouts on an engine's
//! device, refused with `dgcc check`'s codes), `stream` (where a stream and its count live),
//! `execute` (chunked preprocess + execute with barriers), `validate` (the stream checked on the
//! GPU or host), `fallback` (multi-draw / dispatch loop), `refuse` (findings → diagnostics),
//! `push` (the stages a host push must name), `layer_log` (validation-layer messages counted),
//! `features` (the optional features an engine enabled), `descriptors` (one set of whole
//! storage or uniform buffers), `shaders` (embedded SPIR-V → pipelines), `kernel_statistics`
//! (what the driver compiled a pipeline into), `warm_up` (the one bind NVIDIA's per-draw push
//! constants need before they are fast). The demo scene of `dgcc run` lives in `dgcc-cli`.
//!
//! # The unsafe boundary
//!
//! A call is safe only where the runtime itself guarantees every Vulkan rule it relies on. A
//! call that takes a raw Vulkan handle (`vk::Pipeline`, `vk::PipelineLayout`, `vk::Buffer`,
//! `vk::CommandBuffer`, a physical device), that records into a command buffer, or whose
//! validity depends on GPU work in flight is `unsafe fn`, with a `# Safety` section that lists
//! what the caller guarantees; what can be checked (limits, index ranges, token shapes) is
//! still checked and returned as an error. `DgcDevice::new` is where an engine vouches for its
//! device (created with the extension, alive as long as everything made through it); the
//! `memory::Allocator` trait is `unsafe` to implement for the same reason. `memory::as_bytes`
//! takes only `bytemuck::NoUninit` types, so no padding byte is ever read. State that unsafe
//! code relies on is private and read through accessors (`GpuContext::device()`, `caps()`,
//! `memory()`, …, `DgcLayout::compiled()`, `ExecutionSet::initial()`, `Buffer::buffer()`,
//! `Image::view()`, `StorageSet::set()`), so safe code cannot swap or forge it. Safe
//! constructors check what Vulkan requires of their parameters on the device itself
//! (`Image::new` asks which formats it supports), and an object that joins another checks they
//! share a device (`Execution::set_validator`).
//!
//! A device the runtime made itself (a headless `GpuContext`) lives as long as anything that
//! can reach it from safe code: its loader, instance, device and messenger sit behind an `Arc`
//! (as vulkano's device does) that every `Buffer` made through the context, and every
//! `DgcDevice` made from it (`DgcDevice::from_context`, a safe call), holds a share of
//! (`memory::Allocator::lifetime`). A buffer kept after its context dropped still maps live
//! memory; the device goes with the last holder.
//!
//! Mapped memory is shared with the GPU. Safe code cannot make the GPU touch a buffer: recording
//! (`Execution::record`, `Fallback::record`, `StreamValidator::record`, or the engine's own
//! commands) and submitting are `unsafe`, and the runtime's one submitting call,
//! `GpuContext::submit_and_wait` (and `one_shot` on it), returns only once the work finished.
//! Whoever submits without waiting (an engine's `vkQueueSubmit`) takes on Vulkan's host-access
//! rule with it: the host leaves the mapped bytes of the buffers that work reads or writes
//! (`Buffer::bytes`, `bytes_mut`, `write`, a validator's `read_report`) alone until the work's
//! fence has signalled. Reading them earlier is a data race, and the broken promise is that
//! submission's, as with gpu-allocator's `mapped_slice`; the safe accessors assume it was kept.
//! On its own device (`DgcDevice::new`) the engine also drops every runtime object (after its
//! `destroy`) before the device, as `new`'s contract says.
//!
//! # Lifetime: explicit destruction, one rule for every GPU object
//!
//! `Buffer`, `DgcLayout`, `ExecutionSet`, `Execution`, `StreamValidator` and `StorageSet` are
//! destroyed with their `unsafe fn destroy(&mut self, device)` (gpu-allocator's rule): the
//! caller guarantees the object was created on that device and that no pending GPU work uses
//! it. None of them has a `Drop` that destroys: a drop cannot know what the GPU is still
//! reading, so dropping one without `destroy` leaks it (until the device is destroyed; the
//! validation layer names it at `vkDestroyDevice`), it never frees it under running work. A
//! second `destroy` does nothing. The headless `GpuContext` is the one owner with a destroying
//! `Drop`, because it waits for the device to go idle first; it destroys its command pool, and
//! its device goes with the last buffer or `DgcDevice` that shares it. Destroy its children
//! before it all the same: the validation layer reports a leak only when the device goes.
//!
//! # Features
//!
//! `headless`: the runtime's own instance and device (`GpuContext`, `ContextOptions`,
//! `Capabilities`, `probe()`, `DgcDevice::from_context`, `FallbackCaps:
//! From<&GpuContext>`),
//! for tools and tests. Without it the crate is what an engine embeds: everything takes the
//! engine's `ash::Instance` / `ash::Device` (`DgcDevice::new`, `probe_physical`).
//!
//! An engine's path through it (its own device, created with the extension and
//! `deviceGeneratedCommands` enabled):
//!
//! ```ignore
//! let manifest = dgcc_core::ir::Manifest::from_json(&std::fs::read_to_string("scene.dgc.json")?)?;
//! let enabled = EnabledFeatures { mesh_shader: true, task_shader: true, ..Default::default() };
//! // SAFETY: `device` was created from `physical` with the extension; it outlives `dev`.
//! let dev = unsafe { DgcDevice::new(&instance, physical, &device, enabled)? }; // reads the live limits
//! let layout = manifest.layout("SceneDraw").ok_or("no SceneDraw")?;
//! // SAFETY: `pipeline_layout` is live and holds the manifest's push-constant ranges.
//! let mut dgc = unsafe { dev.create_layout(layout, &manifest.push_constants, pipeline_layout)? }; // or Refused
//! // Once, in the first command buffer the engine submits, before its own state: a bind that
//! // takes NVIDIA's per-draw push constants off a path 20× slower (see `warm_up.rs`).
//! let mut warm = unsafe { WarmUp::new(&device)? };
//! unsafe { warm.record(&device, first_cmd) }; // destroy it once that submission finished
//! // SAFETY: `pipeline` was made with `pipeline_layout` for the layout's stages.
//! let mut exec = unsafe { Execution::new(&dev, &dgc, Bound::Pipeline(pipeline), max_objects, 0, 64 << 20)? };
//! // each frame, after the culling kernel wrote `stream` and its count, with the pipeline,
//! // descriptor sets and dynamic state bound:
//! unsafe { exec.record(&dev, &dgc, cmd, &stream, &mut my_render_pass)? };
//! // then re-bind what `dgc.invalidated_state()` lists (push constants, index buffer), e.g.
//! // with `dgc.restore(&device, cmd, &RestoreState { .. })`.
//! // At shutdown, once the last submission finished:
//! unsafe {
//!     exec.destroy(&dev);
//!     dgc.destroy(&dev);
//! }
//! ```
//!
//! Without the extension, `Fallback::new(layout, caps)?.record(...)` replays the same stream
//! with multi-draw-indirect (draws) or a dispatch loop, and refuses what it cannot express.

#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::panic,
        clippy::print_stdout,
        clippy::print_stderr,
        clippy::dbg_macro,
        clippy::todo
    )
)]
#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(test)]
mod fixtures;

#[cfg(feature = "headless")]
pub mod context;
pub mod descriptors;
pub mod dgc;
pub mod error;
pub mod execute;
pub mod ext_dgc;
pub mod fallback;
pub mod features;
pub mod kernel_statistics;
pub mod layer_log;
mod loader;
pub mod memory;
pub mod preprocess;
pub mod probe;
pub mod push;
pub mod refuse;
mod set_table;
pub mod shaders;
pub mod stream;
pub mod validate;
pub mod warm_up;

#[cfg(feature = "headless")]
pub use context::probe;
#[cfg(feature = "headless")]
pub use context::{Capabilities, ContextOptions, GpuContext};
pub use dgc::{DgcDevice, DgcLayout, ExecutionSet, InvalidatedState, RestoreState, SetEntries, StageShader};
pub use error::RuntimeError;
pub use execute::{Bound, BoundShaders, Execution, NoPass, Pass, Phase};
pub use fallback::{Fallback, FallbackCaps};
pub use features::EnabledFeatures;
pub use layer_log::{LayerLog, LayerMessage, LayerSeverity};
pub use probe::{probe_physical, Probe};
pub use stream::{Count, Stream};
pub use warm_up::WarmUp;

/// The ash version the runtime and the generated Rust (`--emit rust`) are built on, so that a
/// crate using generated code needs no ash dependency of its own.
pub use ash;
