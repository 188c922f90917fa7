//! Executing a stream: preprocess memory under a budget, chunks, barriers, per-chunk counts.
//!
//! Why chunks: preprocess memory per sequence differs by orders of magnitude between drivers
//! (80 B per draw on the H200, `144·n²` on lavapipe, which also wraps past 32 bits), so an
//! `Execution` asks the driver at a doubling ladder of counts (`preprocess::plan`), keeps the
//! largest chunk that is both believable and under the engine's budget, allocates one
//! preprocess buffer of that size and reuses it for every chunk. Chunk `k` reads records
//! `[k·c, (k+1)·c)`: its `indirectAddress` advances by `c·stride`, and when the count lives on
//! the GPU a tiny kernel (`split_count.comp`) first splits it into one count per chunk, so chunk
//! `k`'s `sequenceCountAddress` is `counts + 4k`.
//!
//! Why render-pass breaks between chunks: reusing the preprocess buffer is a write-after-read
//! hazard between two executes, and a pipeline barrier inside a dynamic render pass cannot
//! cover it. So `Pass::end` / `Pass::begin` close and reopen rendering around each chunk
//! (attachments are loaded, not cleared, after the first), with the barrier in between. A
//! stream that fits in one chunk gets no break.
//!
//! Lifetime: an `Execution` owns its preprocess and count buffers, the split kernel and the
//! validator handed to it; `destroy` (unsafe: no pending work may use them) frees them all,
//! and dropping it without `destroy` leaks them.

use super::dgc::{DgcDevice, DgcLayout, SetEntries};
use super::error::{Result, RuntimeError};
use super::ext_dgc::{self as x, bits};
use super::memory::{Buffer, Location};
use super::preprocess::{plan, ChunkPlan};
/// Also reachable here (its old home); the type lives in `stream.rs`.
pub use super::stream::{Count, Stream};
use super::validate::StreamValidator;
use ash::vk;
use dgcc_core::requirements::RecordState;

/// What an execution binds before each execute: the pipeline or shader objects the sequences
/// run with, or the execution set they select from together with its initial entry.
#[derive(Clone, Copy, Debug)]
pub enum Bound {
    Pipeline(vk::Pipeline),
    /// Shader objects, one per stage, for a layout without an execution set: an engine drawing
    /// through `VK_EXT_shader_object` instead of pipelines. The executes name them in
    /// `VkGeneratedCommandsShaderInfoEXT`, as they name a pipeline in
    /// `VkGeneratedCommandsPipelineInfoEXT`.
    Shaders(BoundShaders),
    /// A pipeline set and its initial pipeline (which must be bound when executing).
    ExecutionSet(x::IndirectExecutionSetEXT, vk::Pipeline),
    /// A shader-object set and its initial shaders, one per stage of the set
    /// (`Bound::for_set` makes it).
    ShaderSet(x::IndirectExecutionSetEXT, BoundShaders),
}

/// The initial shaders of a shader-object set, one per stage, kept by value so that `Bound`
/// stays `Copy`: at most the eight shader stages a set can hold (vertex to mesh, compute).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundShaders {
    stages: [vk::ShaderStageFlags; 8],
    shaders: [vk::ShaderEXT; 8],
    len: usize,
}

impl BoundShaders {
    /// At most eight shaders, each of one stage (one per stage:
    /// VUID-VkGeneratedCommandsShaderInfoEXT-pShaders-11127).
    pub fn new(shaders: &[super::dgc::StageShader]) -> Result<BoundShaders> {
        if shaders.len() > 8 || shaders.is_empty() {
            return Err(RuntimeError::Invalid(format!(
                "an execution binds 1 to 8 shader objects, not {}",
                shaders.len()
            )));
        }
        for (i, s) in shaders.iter().enumerate() {
            if s.stage.as_raw().count_ones() != 1 || shaders[..i].iter().any(|t| t.stage == s.stage) {
                return Err(RuntimeError::Invalid(format!(
                    "an execution binds one shader object per stage, each of one stage; stage {:?} is given {}",
                    s.stage,
                    if s.stage.as_raw().count_ones() != 1 { "as several stages at once" } else { "twice" }
                )));
            }
        }
        let mut b =
            BoundShaders { stages: [vk::ShaderStageFlags::empty(); 8], shaders: [vk::ShaderEXT::null(); 8], len: 0 };
        for s in shaders {
            b.stages[b.len] = s.stage;
            b.shaders[b.len] = s.shader;
            b.len += 1;
        }
        Ok(b)
    }
    pub fn stages(&self) -> &[vk::ShaderStageFlags] {
        &self.stages[..self.len]
    }
    pub fn shaders(&self) -> &[vk::ShaderEXT] {
        &self.shaders[..self.len]
    }
}

impl Bound {
    /// What an `Execution` of `set`'s layout binds before each execute: the set and its initial
    /// pipeline or shaders.
    pub fn for_set(set: &super::dgc::ExecutionSet) -> Result<Bound> {
        Ok(match set.initial() {
            SetEntries::Pipelines(p) => Bound::ExecutionSet(set.handle(), *p),
            SetEntries::ShaderObjects(shaders) => Bound::ShaderSet(set.handle(), BoundShaders::new(shaders)?),
        })
    }

    /// Bind what the sequences run with.
    ///
    /// # Safety
    /// `cmd` is recording on `dev`; what `self` names is alive; a `ShaderSet` needs `dev`'s
    /// shader-object entry points (checked by `Execution::new`).
    unsafe fn bind(self, dev: &DgcDevice, cmd: vk::CommandBuffer, bind_point: vk::PipelineBindPoint) {
        match self {
            // SAFETY: the caller's contract.
            Bound::Pipeline(p) | Bound::ExecutionSet(_, p) => unsafe {
                dev.device.cmd_bind_pipeline(cmd, bind_point, p)
            },
            Bound::Shaders(shaders) | Bound::ShaderSet(_, shaders) => {
                if let Some(so) = dev.shader_object() {
                    // SAFETY: the caller's contract.
                    unsafe { so.cmd_bind_shaders(cmd, shaders.stages(), shaders.shaders()) };
                }
            }
        }
    }
}

/// Points in the recording where an engine may write timestamps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    PreprocessBegin(u32),
    PreprocessEnd(u32),
    ExecuteBegin(u32),
    ExecuteEnd(u32),
}

/// How the engine opens and closes its render pass around a chunk (draw layouts). For dispatch
/// layouts both are never called.
pub trait Pass {
    /// Begin rendering for chunk `chunk` (clear on 0, load after).
    fn begin(&mut self, cmd: vk::CommandBuffer, chunk: u32);
    fn end(&mut self, cmd: vk::CommandBuffer, chunk: u32);
    /// Called at each `Phase`; the default does nothing.
    fn phase(&mut self, _cmd: vk::CommandBuffer, _phase: Phase) {}
}

/// A `Pass` for dispatch layouts: no render pass, optional timestamps through `on_phase`.
pub struct NoPass<F: FnMut(vk::CommandBuffer, Phase)>(pub F);
impl<F: FnMut(vk::CommandBuffer, Phase)> Pass for NoPass<F> {
    fn begin(&mut self, _: vk::CommandBuffer, _: u32) {}
    fn end(&mut self, _: vk::CommandBuffer, _: u32) {}
    fn phase(&mut self, cmd: vk::CommandBuffer, phase: Phase) {
        (self.0)(cmd, phase)
    }
}

/// A layout ready to execute streams of up to `max_sequences` records. Destroyed explicitly
/// with `destroy`; dropping it leaks its buffers and kernel.
pub struct Execution {
    /// The device it was made on: `set_validator` refuses a validator made on another one.
    device: vk::Device,
    /// Private: `record` sizes the preprocess buffer it hands the driver from it.
    plan: ChunkPlan,
    bound: Bound,
    max_sequences: u32,
    max_draw_count: u32,
    preprocess: Option<Buffer>,
    chunk_counts: Option<Buffer>,
    split: Option<(vk::PipelineLayout, vk::Pipeline)>,
    /// Stream validation recorded before every execute (`set_validator`).
    validator: Option<StreamValidator>,
    /// What the engine states about its recording (`set_record_state`), checked against the
    /// layout's requirements by `record`.
    record_state: RecordState,
    /// The engine's own barrier already makes the stream visible (`assume_inputs_visible`).
    inputs_visible: bool,
}

const SPLIT_COUNT_SPV: &[u8] = include_bytes!("../../../shaders/runtime/spv/split_count.comp.spv");

impl Execution {
    /// Plan chunks and allocate the preprocess buffer for `layout` under `budget` bytes.
    /// `max_draw_count` matters only for `*_COUNT` action tokens. Destroy it with `destroy`.
    ///
    /// # Safety
    /// `layout` was created by `dev`; what `bound` names is alive and of `dev`: the pipeline
    /// (`Bound::Pipeline`) was created with `layout.pipeline_layout()` for the layout's bind point
    /// and stages, or the shader objects (`Bound::Shaders`) with its set layouts and push-constant
    /// ranges, one for each of the layout's stages, or the set and its initial pipeline
    /// (`Bound::ExecutionSet`), or the set of shader objects and its initial shaders
    /// (`Bound::ShaderSet`), were created for `layout`; they stay alive as long as the execution
    /// records with them.
    pub unsafe fn new(
        dev: &DgcDevice,
        layout: &DgcLayout,
        bound: Bound,
        max_sequences: u32,
        max_draw_count: u32,
        budget: u64,
    ) -> Result<Execution> {
        if max_sequences == 0 {
            return Err(RuntimeError::Invalid("an execution needs at least one sequence".into()));
        }
        let set_kind = layout.compiled().execution_set().map(|set| set.kind);
        let shader_objects = x::IndirectExecutionSetInfoTypeEXT::SHADER_OBJECTS.as_raw() as u32;
        let expected = match set_kind {
            None => "a bound pipeline or bound shader objects",
            Some(k) if k == shader_objects => "an execution set of shader objects",
            Some(_) => "an execution set of pipelines",
        };
        let given = match bound {
            Bound::Pipeline(_) => "a bound pipeline",
            Bound::Shaders(_) => "bound shader objects",
            Bound::ExecutionSet(..) => "an execution set of pipelines",
            Bound::ShaderSet(..) => "an execution set of shader objects",
        };
        let fits = match (set_kind, &bound) {
            (None, Bound::Pipeline(_) | Bound::Shaders(_)) => true,
            (Some(k), Bound::ShaderSet(..)) => k == shader_objects,
            (Some(k), Bound::ExecutionSet(..)) => k != shader_objects,
            _ => false,
        };
        if !fits {
            return Err(RuntimeError::Invalid(format!(
                "layout `{}` executes with {expected}, not {given}",
                layout.compiled().name
            )));
        }
        if let Bound::Shaders(shaders) = bound {
            // The shaders must cover the layout's stages, which the executes name them for.
            let stages = shaders.stages().iter().fold(vk::ShaderStageFlags::empty(), |a, &s| a | s);
            if !stages.contains(layout.stages()) {
                return Err(RuntimeError::Invalid(format!(
                    "layout `{}` runs stages {:?}, but the shader objects bound for it cover only {stages:?}",
                    layout.compiled().name,
                    layout.stages()
                )));
            }
        }
        if matches!(bound, Bound::Shaders(_) | Bound::ShaderSet(..)) && dev.shader_object().is_none() {
            return Err(RuntimeError::MissingFeature {
                device: dev.profile().name.clone(),
                feature: "VK_EXT_shader_object (enabled on the device)".into(),
                needed_for: format!("executing layout `{}` through shader objects", layout.compiled().name),
            });
        }
        let device_max =
            dev.profile().value(dgcc_core::device::Limit::MaxIndirectSequenceCount).unwrap_or(1 << 20) as u32;
        let max_draw_count = if layout.uses_count_token() { max_draw_count.max(1) } else { 0 };
        let Some(draw_bound) = sequences_under_draw_bound(max_draw_count) else {
            return Err(RuntimeError::Invalid(format!(
                "layout `{}`: maxDrawCount {max_draw_count} leaves no sequence under the bound maxDrawCount × maxSequenceCount < 2^24 (VUID-VkGeneratedCommandsInfoEXT-maxDrawCount-11078); give a maxDrawCount below 16777216",
                layout.compiled().name
            )));
        };
        let has_sequence_index = layout.compiled().tokens.iter().any(|t| t.token_type.is_sequence_index());
        if max_sequences > draw_bound && (has_sequence_index || layout.has_execution_set()) {
            // The bound alone would chunk a layout that is never chunked: say so before any
            // query (a query for the whole stream would break the bound itself, 11146).
            return Err(RuntimeError::Invalid(format!(
                "layout `{}` is not chunked ({}), but with maxDrawCount {max_draw_count} one execute holds at most {draw_bound} of its {max_sequences} sequences (maxDrawCount × maxSequenceCount < 2^24, VUID-VkGeneratedCommandsInfoEXT-maxDrawCount-11078); give a maxDrawCount of at most {}, or fewer sequences",
                layout.compiled().name,
                if has_sequence_index { "its SEQUENCE_INDEX values restart in every execute" } else { "it selects through an execution set" },
                ((1u32 << 24) - 1) / max_sequences
            )));
        }
        let device_max = device_max.min(draw_bound);
        let mut type_bits = u32::MAX;
        let chunk_plan = plan(max_sequences, device_max, budget, |n| {
            // SAFETY: the layout and what `bound` names are the caller's contract.
            let (size, bits) = unsafe { requirements(dev, layout, bound, n, max_draw_count) };
            type_bits &= bits;
            size
        })
        .map_err(|e| RuntimeError::Invalid(format!("layout `{}`: {e}", layout.compiled().name)))?;
        if has_sequence_index && chunk_plan.chunks > 1 {
            return Err(RuntimeError::Invalid(format!(
                "layout `{}` has a SEQUENCE_INDEX token, whose values restart at 0 in every execute, but only {} of its {max_sequences} sequences fit one execute under the preprocess budget of {budget} bytes{}; raise the budget (or drop the token and index records another way)",
                layout.compiled().name,
                chunk_plan.sequences_per_chunk,
                chunk_plan.anomaly.as_ref().map(|a| format!(" ({a})")).unwrap_or_default()
            )));
        }
        if layout.has_execution_set() && chunk_plan.chunks > 1 {
            // SAFETY: as for the plan above.
            let (whole, _) = unsafe { requirements(dev, layout, bound, max_sequences, max_draw_count) };
            return Err(RuntimeError::Invalid(format!(
                "layout `{}` selects its pipelines through an execution set, and executes of such a layout are not chunked (on NVIDIA 580.159.04 a stream split over several executes lost the device: the book's performance chapter has the reproducer), but only {} of its {max_sequences} sequences fit one execute under the preprocess budget of {budget} bytes; the whole stream needs {whole} bytes: raise the budget to that",
                layout.compiled().name, chunk_plan.sequences_per_chunk
            )));
        }
        let preprocess = if chunk_plan.preprocess_bytes > 0 {
            Some(Buffer::preprocess(dev, chunk_plan.preprocess_bytes, type_bits)?)
        } else {
            None
        };
        let mut exec = Execution {
            device: dev.device.handle(),
            plan: chunk_plan,
            bound,
            max_sequences,
            max_draw_count,
            preprocess,
            chunk_counts: None,
            split: None,
            validator: None,
            record_state: RecordState::default(),
            inputs_visible: false,
        };
        if exec.plan.chunks > 1 {
            let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::INDIRECT_BUFFER;
            let made = Buffer::new(dev, 4 * exec.plan.chunks as u64, usage, Location::Device).and_then(|counts| {
                exec.chunk_counts = Some(counts);
                split_pipeline(&dev.device)
            });
            match made {
                Ok(split) => exec.split = Some(split),
                Err(e) => {
                    // SAFETY: nothing has used the buffers made above.
                    unsafe { exec.destroy(dev) };
                    return Err(e);
                }
            }
        }
        Ok(exec)
    }

    /// How the streams are chunked.
    pub fn plan(&self) -> &ChunkPlan {
        &self.plan
    }

    pub fn preprocess_bytes(&self) -> u64 {
        self.plan.preprocess_bytes
    }

    /// Validate every stream on the GPU before executing it (`runtime::validate`); read the
    /// report with `validator().read_report()` once the submission finished; `None` stops
    /// validating. Returns the validator this replaces, which the caller destroys (the
    /// execution's `destroy` destroys the one it holds). A validator made on another device
    /// than the execution's is refused and handed back as the `Err` (boxed: it is large),
    /// since `record` would bind its pipeline and `destroy` free its objects on this
    /// execution's device.
    pub fn set_validator(
        &mut self,
        validator: Option<StreamValidator>,
    ) -> std::result::Result<Option<StreamValidator>, Box<StreamValidator>> {
        match validator {
            Some(v) if v.device() != self.device => Err(Box::new(v)),
            v => Ok(std::mem::replace(&mut self.validator, v)),
        }
    }

    /// Leave out the barrier `record` puts in front of the stream and its count, because the
    /// engine's own barrier after the work that wrote them already covers what reads them here:
    /// `DRAW_INDIRECT`, `COMMAND_PREPROCESS_EXT` and `COMPUTE_SHADER`, with
    /// `INDIRECT_COMMAND_READ`, `COMMAND_PREPROCESS_READ_EXT` and `SHADER_READ` (and, where an
    /// earlier record of this execution is in the same command buffer, `COMMAND_PREPROCESS_WRITE_EXT`
    /// and `SHADER_WRITE`, which rewrite the preprocess buffer and the chunk counts). Why: a second
    /// barrier right behind the engine's is a second wait on some drivers. With a validator
    /// set, `record` keeps its barrier (the validation kernel writes a report the barrier
    /// covers).
    ///
    /// # Safety
    /// Every later `record` of this execution is recorded behind such a barrier, with nothing
    /// writing the stream or its count between that barrier and the `record`; and where an
    /// earlier `record` of this execution is in the same command buffer, the barrier's first
    /// scope also holds `DRAW_INDIRECT` and `COMMAND_PREPROCESS_EXT` (with
    /// `COMMAND_PREPROCESS_WRITE_EXT`), because the two records share the preprocess buffer.
    pub unsafe fn assume_inputs_visible(&mut self, visible: bool) {
        self.inputs_visible = visible;
    }

    /// State what the engine knows about its pipelines and recording (the execution set's
    /// initial stages and push-constant ranges, the bound pipeline's dynamic state, transform
    /// feedback, the view mask…): `record` refuses, before recording anything, when it breaks
    /// one of the layout's record-time requirements (E0901–E0909). What `record` decides itself
    /// (inside a render pass for draw layouts, `isPreprocessed` from the layout's flag) it
    /// states over the engine's values.
    pub fn set_record_state(&mut self, state: RecordState) {
        self.record_state = state;
    }

    pub fn validator(&self) -> Option<&StreamValidator> {
        self.validator.as_ref()
    }

    /// Record the execution of `stream`: an input barrier (unless `assume_inputs_visible`), the count split (if chunked and
    /// counted), then per chunk preprocess (for an `ExplicitPreprocess` layout whose preprocess
    /// memory the driver does not size at zero), begin, execute, end. Descriptor sets and dynamic
    /// state must be bound on `cmd` before; the executor binds the pipeline this execution was
    /// prepared for (`Bound`) itself before each chunk, because the driver generates commands for the pipeline
    /// named in `VkGeneratedCommandsPipelineInfoEXT`, and a different bound pipeline is
    /// undefined behaviour that some drivers follow and others ignore (NVIDIA runs the named
    /// one). Afterwards `layout.invalidated_state()` is undefined, and so it is after each
    /// chunk's execute: the executor binds the pipeline again before every chunk, but whatever
    /// else that state names (push constants outside the tokens' ranges, an index or vertex
    /// binding the tokens do not set) the engine re-records from `Pass::phase` at
    /// `ExecuteBegin(k)` for every chunk `k` after the first (`DgcLayout::restore` does it from
    /// a `RestoreState`); `plan().chunks` says whether there are any. A dispatch layout whose
    /// GPU count is split over several chunks, or that has a validator, has that kernel bound
    /// first and its pipeline bound again after it, so push constants the caller pushed itself
    /// must be pushed again at `ExecuteBegin(0)` too (draw layouts are not affected).
    ///
    /// # Safety
    /// - `layout` is the layout this execution was created for, by `dev`, not destroyed;
    /// - `cmd` is a command buffer of `dev` in the recording state, outside a render pass (the
    ///   `pass` callbacks open and close the engine's own); for a draw layout, `pass.begin` and
    ///   `pass.end` begin and end a rendering instance compatible with the pipeline or shaders
    ///   bound, and every `pass` callback records only commands valid where it is called;
    /// - the state the layout requires at record time holds (transform feedback inactive,
    ///   vertex-input stride state, no dynamic descriptors, a view mask of 0: E0903, E0904,
    ///   E0906, E0909): stated with `set_record_state`, it is checked; left unstated, it is the
    ///   caller's to keep;
    /// - the stream's buffer (and count buffer) are live buffers of `dev` with indirect-buffer
    ///   usage, `stream.address` is `buffer + offset`, and they hold `stream.max_sequences`
    ///   records of `layout.compiled().stride` bytes that obey the layout's rules (or a validator
    ///   is set), written by compute-shader or transfer work submitted before this call on the
    ///   same queue, or by the host before submission (the barrier `record` puts in front covers
    ///   those writers; any other needs the caller's own barrier, see `assume_inputs_visible`);
    /// - everything recorded (this execution, the layout, what `Bound` names, the stream) stays
    ///   alive until the submission finished;
    /// - an earlier `record` of this execution (whose preprocess buffer and chunk counts every
    ///   record reuses) is in the same command buffer, before this one, or its submission has
    ///   finished: `record`'s own input barrier orders the two, and with
    ///   `assume_inputs_visible` the engine's barrier must (see there). With a validator set,
    ///   each record resets its report, so read it after each submission of one record.
    pub unsafe fn record(
        &self,
        dev: &DgcDevice,
        layout: &DgcLayout,
        cmd: vk::CommandBuffer,
        stream: &Stream,
        pass: &mut dyn Pass,
    ) -> Result<()> {
        if stream.max_sequences > self.max_sequences {
            return Err(RuntimeError::Invalid(format!(
                "stream of {} records exceeds the {} this execution was prepared for",
                stream.max_sequences, self.max_sequences
            )));
        }
        // VUID-VkGeneratedCommandsInfoEXT-indirectAddress-11074 and -sequenceCountAddress-11073.
        let count_address = stream.count.map(|c| c.address);
        if !stream.address.is_multiple_of(4) || count_address.is_some_and(|a| !a.is_multiple_of(4)) {
            return Err(RuntimeError::Invalid(format!(
                "the stream's address {:#x} and its count's address ({}) must be multiples of 4",
                stream.address,
                count_address.map_or("none".to_string(), |a| format!("{a:#x}"))
            )));
        }
        if let Some(v) = &self.validator {
            // The validator reads `max_sequences` records at its own layout's stride.
            if v.layout() != layout.compiled() {
                return Err(RuntimeError::Invalid(format!(
                    "the stream validator was made for layout `{}` (stride {}), not for `{}` (stride {}), the layout this execution runs",
                    v.layout().name,
                    v.layout().stride,
                    layout.compiled().name,
                    layout.compiled().stride
                )));
            }
        }
        let graphics = layout.is_graphics();
        // The layout's record-time requirements, with what this function does itself: it
        // opens the engine's pass around a draw layout's execute, and preprocesses exactly
        // when the layout has EXPLICIT_PREPROCESS.
        layout.check_record(&RecordState {
            inside_render_pass: Some(graphics),
            is_preprocessed: Some(layout.explicit_preprocess()),
            ..self.record_state.clone()
        })?;
        let d = &dev.device;
        // SAFETY (every command recorded below): `cmd` is recording on `dev` outside a render
        // pass, and every handle named is alive (the caller's contract); the preprocess and
        // count buffers and the split kernel are this execution's own.
        if let Some(v) = &self.validator {
            unsafe { v.record(d, cmd, stream)? };
        }
        if !self.inputs_visible || self.validator.is_some() {
            unsafe { inputs_barrier(d, cmd) };
        }
        let per = self.plan.sequences_per_chunk;
        let chunks = stream.max_sequences.div_ceil(per);
        if let (Some(count), Some(counts), Some((pl, pipe)), true) =
            (stream.count, &self.chunk_counts, self.split, chunks > 1)
        {
            unsafe { d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipe) };
            let mut push = [0u8; 28];
            push[0..8].copy_from_slice(&count.address.to_le_bytes());
            push[8..16].copy_from_slice(&counts.address().to_le_bytes());
            push[16..20].copy_from_slice(&per.to_le_bytes());
            push[20..24].copy_from_slice(&chunks.to_le_bytes());
            push[24..28].copy_from_slice(&stream.max_sequences.to_le_bytes());
            unsafe {
                d.cmd_push_constants(cmd, pl, vk::ShaderStageFlags::COMPUTE, 0, &push);
                d.cmd_dispatch(cmd, chunks.div_ceil(64), 1, 1);
            }
            unsafe { inputs_barrier(d, cmd) };
            // The split kernel replaced the compute pipeline: each chunk below binds the
            // layout's own again (push constants pushed outside tokens must then be pushed
            // again: documented on `Execution::record`).
        }
        let stride = layout.compiled().stride as u64;
        let mut pipeline_info = x::GeneratedCommandsPipelineInfoEXT::new(vk::Pipeline::null());
        let bound_shaders = match &self.bound {
            Bound::Shaders(shaders) => shaders.shaders(),
            _ => &[],
        };
        let shader_info = x::GeneratedCommandsShaderInfoEXT::new(bound_shaders);
        for k in 0..chunks {
            let first = k * per;
            let n = per.min(stream.max_sequences - first);
            let count_address = match (stream.count, &self.chunk_counts) {
                (Some(_), Some(counts)) if chunks > 1 => counts.address() + 4 * k as u64,
                (Some(c), _) => c.address,
                (None, _) => 0,
            };
            let mut info = x::GeneratedCommandsInfoEXT {
                shader_stages: layout.stages(),
                indirect_commands_layout: layout.handle(),
                indirect_address: stream.address + first as u64 * stride,
                indirect_address_size: n as u64 * stride,
                preprocess_address: self.preprocess.as_ref().map_or(0, |b| b.address()),
                preprocess_size: self.preprocess.as_ref().map_or(0, |_| self.plan.preprocess_bytes),
                max_sequence_count: n,
                sequence_count_address: count_address,
                max_draw_count: self.max_draw_count,
                ..Default::default()
            };
            match &self.bound {
                Bound::Pipeline(p) => {
                    pipeline_info.pipeline = *p;
                    info.p_next = &pipeline_info as *const _ as *const std::ffi::c_void;
                }
                Bound::Shaders(_) => info.p_next = &shader_info as *const _ as *const std::ffi::c_void,
                Bound::ExecutionSet(set, _) | Bound::ShaderSet(set, _) => info.indirect_execution_set = *set,
            }
            if k > 0 {
                unsafe { reuse_barrier(d, cmd) };
            }
            // Per chunk: an execute with an execution set leaves the bound pipeline or shaders
            // undefined.
            unsafe { self.bound.bind(dev, cmd, layout.bind_point()) };
            if records_preprocess(layout.explicit_preprocess(), self.plan.preprocess_bytes) {
                pass.phase(cmd, Phase::PreprocessBegin(k));
                // SAFETY: as above; `info` names this chunk's records inside the stream, and the
                // preprocess buffer of `plan.preprocess_bytes` the driver asked for.
                unsafe { dev.ext.cmd_preprocess_generated_commands(cmd, &info, cmd) };
                pass.phase(cmd, Phase::PreprocessEnd(k));
                unsafe { preprocessed_barrier(d, cmd) };
            }
            if graphics {
                pass.begin(cmd, k);
            }
            pass.phase(cmd, Phase::ExecuteBegin(k));
            // SAFETY: as for the preprocess; inside the engine's render pass for draw layouts.
            unsafe { dev.ext.cmd_execute_generated_commands(cmd, layout.explicit_preprocess(), &info) };
            pass.phase(cmd, Phase::ExecuteEnd(k));
            if graphics {
                pass.end(cmd, k);
            }
        }
        Ok(())
    }

    /// Free the buffers, the split kernel and the validator it holds. A second call does
    /// nothing. (The layout and what `Bound` names are the caller's to destroy.)
    ///
    /// # Safety
    /// `dev` is the device the execution was created on, and no pending GPU work uses it (every
    /// submission it was recorded into has finished).
    pub unsafe fn destroy(&mut self, dev: &DgcDevice) {
        let d = &dev.device;
        // SAFETY: all created on `dev`, unused by pending work (the caller's contract).
        unsafe {
            if let Some(b) = &mut self.preprocess {
                b.destroy(d);
            }
            if let Some(b) = &mut self.chunk_counts {
                b.destroy(d);
            }
            if let Some((layout, pipe)) = self.split.take() {
                d.destroy_pipeline(pipe, None);
                d.destroy_pipeline_layout(layout, None);
            }
            if let Some(mut v) = self.validator.take() {
                v.destroy(d);
            }
        }
    }
}

/// The driver's preprocess requirement for `n` sequences: (size, memory type bits).
///
/// # Safety
/// As for `Execution::new`: `layout` was created by `dev`, and what `bound` names is alive, of
/// `dev`, and matches the layout.
pub unsafe fn requirements(
    dev: &DgcDevice,
    layout: &DgcLayout,
    bound: Bound,
    n: u32,
    max_draw_count: u32,
) -> (u64, u32) {
    let mut pipeline_info = x::GeneratedCommandsPipelineInfoEXT::new(vk::Pipeline::null());
    let mut info = x::GeneratedCommandsMemoryRequirementsInfoEXT {
        indirect_commands_layout: layout.handle(),
        max_sequence_count: n,
        max_draw_count,
        ..Default::default()
    };
    let shader_info;
    match &bound {
        Bound::Pipeline(p) => {
            pipeline_info.pipeline = *p;
            info.p_next = &pipeline_info as *const _ as *const std::ffi::c_void;
        }
        Bound::Shaders(shaders) => {
            shader_info = x::GeneratedCommandsShaderInfoEXT::new(shaders.shaders());
            info.p_next = &shader_info as *const _ as *const std::ffi::c_void;
        }
        Bound::ExecutionSet(set, _) | Bound::ShaderSet(set, _) => info.indirect_execution_set = *set,
    }
    let mut req = vk::MemoryRequirements2::default();
    // SAFETY: a live layout and pipeline or set (the caller's contract); `req` is a plain output.
    unsafe { dev.ext.get_generated_commands_memory_requirements(&info, &mut req) };
    (req.memory_requirements.size, req.memory_requirements.memory_type_bits)
}

/// Record a memory barrier.
///
/// # Safety
/// `cmd` is a command buffer of `d` in the recording state, outside a render pass.
unsafe fn barrier(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    src: (vk::PipelineStageFlags2, vk::AccessFlags2),
    dst: (vk::PipelineStageFlags2, vk::AccessFlags2),
) {
    let b = [vk::MemoryBarrier2::default()
        .src_stage_mask(src.0)
        .src_access_mask(src.1)
        .dst_stage_mask(dst.0)
        .dst_access_mask(dst.1)];
    // SAFETY: `cmd` is recording outside a render pass (the caller's contract).
    unsafe { d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&b)) };
}

/// Stream and count written by compute, transfer or the split kernel → read as indirect input,
/// by preprocessing, or by shaders (the generated readers). Its first scope also holds the
/// preprocessing and indirect reads of an earlier `record` of the same execution in this
/// command buffer, which must be done with the execution's preprocess buffer and chunk counts
/// before this record writes them again.
///
/// # Safety
/// As `barrier`.
unsafe fn inputs_barrier(d: &ash::Device, cmd: vk::CommandBuffer) {
    let earlier_executes = vk::PipelineStageFlags2::DRAW_INDIRECT | bits::PIPELINE_STAGE_2_COMMAND_PREPROCESS_EXT;
    // SAFETY: the caller's contract.
    unsafe {
        barrier(
            d,
            cmd,
            (
                vk::PipelineStageFlags2::COMPUTE_SHADER | vk::PipelineStageFlags2::TRANSFER | earlier_executes,
                vk::AccessFlags2::SHADER_WRITE
                    | vk::AccessFlags2::TRANSFER_WRITE
                    | bits::ACCESS_2_COMMAND_PREPROCESS_WRITE_EXT,
            ),
            (
                vk::PipelineStageFlags2::DRAW_INDIRECT
                    | bits::PIPELINE_STAGE_2_COMMAND_PREPROCESS_EXT
                    | vk::PipelineStageFlags2::COMPUTE_SHADER,
                vk::AccessFlags2::INDIRECT_COMMAND_READ
                    | bits::ACCESS_2_COMMAND_PREPROCESS_READ_EXT
                    | bits::ACCESS_2_COMMAND_PREPROCESS_WRITE_EXT
                    | vk::AccessFlags2::SHADER_READ
                    | vk::AccessFlags2::SHADER_WRITE,
            ),
        )
    };
}

/// The previous chunk's execute is done with the preprocess buffer before the next one writes it.
///
/// # Safety
/// As `barrier`.
unsafe fn reuse_barrier(d: &ash::Device, cmd: vk::CommandBuffer) {
    let stages = vk::PipelineStageFlags2::DRAW_INDIRECT | bits::PIPELINE_STAGE_2_COMMAND_PREPROCESS_EXT;
    let access = vk::AccessFlags2::INDIRECT_COMMAND_READ
        | bits::ACCESS_2_COMMAND_PREPROCESS_READ_EXT
        | bits::ACCESS_2_COMMAND_PREPROCESS_WRITE_EXT;
    // SAFETY: the caller's contract.
    unsafe { barrier(d, cmd, (stages | vk::PipelineStageFlags2::COMPUTE_SHADER, access), (stages, access)) };
}

/// Explicit preprocessing wrote the buffer → the execute reads it.
///
/// # Safety
/// As `barrier`.
unsafe fn preprocessed_barrier(d: &ash::Device, cmd: vk::CommandBuffer) {
    // SAFETY: the caller's contract.
    unsafe {
        barrier(
            d,
            cmd,
            (bits::PIPELINE_STAGE_2_COMMAND_PREPROCESS_EXT, bits::ACCESS_2_COMMAND_PREPROCESS_WRITE_EXT),
            (vk::PipelineStageFlags2::DRAW_INDIRECT, vk::AccessFlags2::INDIRECT_COMMAND_READ),
        )
    };
}

fn split_pipeline(d: &ash::Device) -> Result<(vk::PipelineLayout, vk::Pipeline)> {
    let range = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: 28 }];
    // SAFETY: valid create infos; the embedded kernel is valid SPIR-V whose push constants
    // `range` covers; objects are destroyed on failure.
    unsafe {
        let layout = d
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&range), None)
            .map_err(RuntimeError::vk("vkCreatePipelineLayout"))?;
        match super::shaders::compute_pipeline(d, layout, SPLIT_COUNT_SPV, &[], None) {
            Ok(p) => Ok((layout, p)),
            Err(e) => {
                d.destroy_pipeline_layout(layout, None);
                Err(e)
            }
        }
    }
}

/// The most sequences one execute of a layout with a `*_COUNT` token may hold, so that
/// `maxDrawCount × maxSequenceCount < 2^24` (VUID-VkGeneratedCommandsInfoEXT-maxDrawCount-11078,
/// VUID-VkGeneratedCommandsMemoryRequirementsInfoEXT-maxDrawCount-11146): a stream of more is
/// chunked. `None` when no sequence fits; no bound without a count token (`max_draw_count` 0).
fn sequences_under_draw_bound(max_draw_count: u32) -> Option<u32> {
    const BOUND: u32 = 1 << 24;
    match max_draw_count {
        0 => Some(u32::MAX),
        n if n >= BOUND => None,
        n => Some((BOUND - 1) / n),
    }
}

/// Whether `record` records a preprocess (and the barrier behind it): for an
/// `ExplicitPreprocess` layout, unless the driver sizes its preprocess memory at zero ("the
/// preprocessing step can be skipped for this layout";
/// VUID-vkCmdExecuteGeneratedCommandsEXT-isPreprocessed-11046 asks for one only where the size
/// is not zero). An implicit layout's execute preprocesses by itself.
fn records_preprocess(explicit: bool, preprocess_bytes: u64) -> bool {
    explicit && preprocess_bytes > 0
}

#[cfg(test)]
mod tests {
    use super::{records_preprocess, sequences_under_draw_bound, BoundShaders};
    use crate::dgc::StageShader;
    use ash::vk::{self, Handle};

    #[test]
    fn bound_shaders_are_one_per_stage() {
        let shader = |stage| StageShader { stage, shader: vk::ShaderEXT::from_raw(1) };
        let (vertex, fragment) = (vk::ShaderStageFlags::VERTEX, vk::ShaderStageFlags::FRAGMENT);
        let pair = BoundShaders::new(&[shader(vertex), shader(fragment)]).unwrap();
        assert_eq!(pair.stages(), [vertex, fragment]);
        assert_eq!(pair.shaders().len(), 2);
        let refused = |shaders: &[StageShader], says: &str| {
            let e = BoundShaders::new(shaders).expect_err("must refuse").to_string();
            assert!(e.contains(says), "{e}");
        };
        refused(&[], "1 to 8");
        refused(&[shader(vertex); 9], "1 to 8");
        refused(&[shader(vertex), shader(fragment), shader(vertex)], "twice");
        refused(&[shader(vertex | fragment)], "several stages at once");
    }

    #[test]
    fn an_explicit_layout_is_preprocessed_unless_the_driver_asks_for_no_memory() {
        assert!(records_preprocess(true, 368)); // lavapipe's batch
        assert!(!records_preprocess(true, 0));
        assert!(!records_preprocess(false, 368));
    }

    #[test]
    fn the_draw_bound_keeps_max_draw_count_times_sequences_below_2_pow_24() {
        assert_eq!(sequences_under_draw_bound(0), Some(u32::MAX));
        assert_eq!(sequences_under_draw_bound(1), Some((1 << 24) - 1));
        assert_eq!(sequences_under_draw_bound(65536), Some(255));
        assert_eq!(sequences_under_draw_bound((1 << 24) - 1), Some(1));
        assert_eq!(sequences_under_draw_bound(1 << 24), None);
        for n in [1u32, 3, 1000, 65536, 4_000_000] {
            let (s, n64) = (sequences_under_draw_bound(n).unwrap() as u64, u64::from(n));
            assert!(s * n64 < (1 << 24) && (s + 1) * n64 >= (1 << 24), "{n}: {s}");
        }
    }
}
