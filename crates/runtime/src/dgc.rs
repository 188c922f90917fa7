//! `DgcDevice` and `DgcLayout`: a compiled layout made real on an engine's device.
//!
//! Why the shape: an engine already has its `ash::Device`, pipelines and render passes; what
//! it lacks is the extension's bookkeeping. `DgcDevice` wraps the engine's device (reading the
//! live properties once, as `dgcc probe` does), refuses a layout the device cannot run with
//! `dgcc check`'s codes *before* any Vulkan call, and turns an `ir::CompiledLayout` into a
//! `VkIndirectCommandsLayoutEXT` token for token. Executing — preprocess memory, chunks,
//! barriers — lives in `execute.rs`; the layout only knows what it is and which state its
//! execution leaves undefined (`InvalidatedState`), so the caller can re-bind exactly that.
//!
//! The device is told which optional features were enabled (`features.rs` says why), and
//! checks layouts against the hardware's profile with the others turned off.
//!
//! Lifetime (the runtime's one rule, see the crate docs): `DgcLayout` and `ExecutionSet` are
//! destroyed explicitly with their unsafe `destroy`, once no pending GPU work uses them, before
//! the device. They have no `Drop`: a drop cannot know whether a submission still reads the
//! handle, so dropping one without `destroy` leaks it (the validation layer names it at
//! `vkDestroyDevice`) rather than destroying it under running work.
//!
//! Why the calls that take raw Vulkan handles are `unsafe`: a `vk::Pipeline` or
//! `vk::PipelineLayout` can be made in safe code (`null()`, `from_raw`), and whether it is
//! alive, from this device, `INDIRECT_BINDABLE` or compatible with the layout is nothing the
//! runtime can check. What the runtime can check (limits, index ranges, token shapes) it does,
//! and the `# Safety` sections list exactly what is left to the caller.

use super::error::{Result, RuntimeError};
use super::ext_dgc::{self as x, IndirectCommandsLayoutTokenEXT as Token};
use super::features::EnabledFeatures;
use super::memory::{Allocator, Buffer, DeviceLifetime, Location};
use super::probe::probe_physical;
use super::refuse::refusal;
use super::set_table::SetTable;
use ash::vk;
use dgcc_core::device::{vendor, Limit, Profile};
use dgcc_core::ir::{CompiledLayout, PushConstantRange, TokenType};

/// The extension on one engine device.
pub struct DgcDevice {
    pub(crate) device: ash::Device,
    /// The instance and physical device the device came from, for the image formats it
    /// supports (`Allocator::image_format_properties`).
    instance: ash::Instance,
    physical: vk::PhysicalDevice,
    /// `maxBufferSize`, which every buffer made through it is checked against.
    max_buffer_size: u64,
    pub(crate) ext: x::Device,
    /// `VK_EXT_shader_object`'s entry points, when the device was created with it
    /// (`EnabledFeatures::shader_object`).
    pub(crate) shader_object: Option<ash::ext::shader_object::Device>,
    memory: vk::PhysicalDeviceMemoryProperties,
    limits: vk::PhysicalDeviceLimits,
    profile: Profile,
    /// Features the hardware has that the device was created without.
    not_enabled: Vec<Limit>,
    /// The context's share in the device's life, for a `DgcDevice` made from a `GpuContext`
    /// (`None` for an engine's device, whose life `new`'s caller vouches for).
    lifetime: Option<DeviceLifetime>,
    /// NVIDIA's driver, whose execution sets need what `create_execution_set` and
    /// `write_execution_set` do about them (`set_table.rs`): the profile's `vendorID`, the
    /// fact `dgcc check` reads for the same note (N0002).
    nvidia: bool,
}

// SAFETY: `memory` was read from the physical device `device` was created from (the contract
// of `DgcDevice::new`); the device stays alive as long as the objects made here, by that
// contract, or for one made from a context by the share in its life that every buffer holds.
unsafe impl Allocator for DgcDevice {
    fn device(&self) -> &ash::Device {
        &self.device
    }
    fn memory_properties(&self) -> &vk::PhysicalDeviceMemoryProperties {
        &self.memory
    }
    fn limits(&self) -> Option<&vk::PhysicalDeviceLimits> {
        Some(&self.limits)
    }
    fn lifetime(&self) -> Option<DeviceLifetime> {
        self.lifetime.clone()
    }
    fn image_format_properties(
        &self,
        format: vk::Format,
        usage: vk::ImageUsageFlags,
    ) -> Option<std::result::Result<vk::ImageFormatProperties, vk::Result>> {
        // SAFETY: `physical` was enumerated from `instance`, which outlives this `DgcDevice`
        // (`new`'s contract, or the context's share in `lifetime`).
        Some(unsafe { super::probe::image_format_properties(&self.instance, self.physical, format, usage) })
    }
    fn max_buffer_size(&self) -> Option<u64> {
        Some(self.max_buffer_size)
    }
}

impl DgcDevice {
    /// Wrap an engine's device. `enabled` says which optional features the engine turned on;
    /// layouts that need one that is off are refused. A device without the extension (as the
    /// hardware reports it) is refused with `MissingFeature`.
    ///
    /// # Safety
    /// - `physical` was enumerated from `instance`, and `device` was created from `physical`
    ///   with `VK_EXT_device_generated_commands` and `VK_KHR_maintenance5` enabled and the
    ///   `deviceGeneratedCommands`, `bufferDeviceAddress` and `synchronization2` features on;
    /// - every feature `enabled` claims was enabled at device creation;
    /// - `physical` supports Vulkan 1.3 and `instance` came from the system's Vulkan loader with
    ///   an API version of 1.3 or newer (the device is read with `probe_physical`, whose contract
    ///   this is);
    /// - `instance` and `device` stay alive as long as the returned `DgcDevice` and every object
    ///   created through it (layouts, execution sets, executions, buffers, validators).
    pub unsafe fn new(
        instance: &ash::Instance,
        physical: vk::PhysicalDevice,
        device: &ash::Device,
        enabled: EnabledFeatures,
    ) -> Result<DgcDevice> {
        // SAFETY: `physical` belongs to `instance` (the caller's contract).
        let mut probe = unsafe { probe_physical(instance, physical) };
        let not_enabled = enabled.restrict(&mut probe.profile);
        if probe.profile.value(dgcc_core::device::Limit::DeviceGeneratedCommands) != Some(1) {
            return Err(RuntimeError::MissingFeature {
                device: probe.device_name,
                feature: "VK_EXT_device_generated_commands".into(),
                needed_for: "device-generated commands".into(),
            });
        }
        let ext = x::Device::new(instance, device).map_err(|e| RuntimeError::MissingFeature {
            device: probe.device_name.clone(),
            feature: e.to_string(),
            needed_for: "device-generated commands".into(),
        })?;
        // SAFETY: `physical` belongs to `instance` (the caller's contract).
        let memory = unsafe { instance.get_physical_device_memory_properties(physical) };
        // SAFETY: as above.
        let limits = unsafe { instance.get_physical_device_properties(physical) }.limits;
        let shader_object = enabled.shader_object.then(|| ash::ext::shader_object::Device::new(instance, device));
        let nvidia = probe.profile.is_vendor(vendor::NVIDIA);
        Ok(DgcDevice {
            device: device.clone(),
            instance: instance.clone(),
            physical,
            // SAFETY: `physical` belongs to `instance` and supports Vulkan 1.3 (the caller's contract).
            max_buffer_size: unsafe { super::probe::max_buffer_size(instance, physical) },
            ext,
            shader_object,
            memory,
            limits,
            profile: probe.profile,
            not_enabled,
            lifetime: None,
            nvidia,
        })
    }

    /// The runtime's own headless context, when it enabled the extension (feature `headless`).
    ///
    /// The `DgcDevice` holds a share in the context's device ([`Allocator::lifetime`]), as the
    /// buffers made through either do: the device lives until the last of them is dropped, so
    /// the context may drop first.
    #[cfg(feature = "headless")]
    pub fn from_context(ctx: &super::GpuContext) -> Result<DgcDevice> {
        if ctx.dgc().is_none() {
            return Err(RuntimeError::MissingFeature {
                device: ctx.device_name().to_owned(),
                feature: "VK_EXT_device_generated_commands".into(),
                needed_for: "device-generated commands (try the multi-draw fallback)".into(),
            });
        }
        let caps = ctx.caps();
        let enabled = EnabledFeatures {
            mesh_shader: caps.mesh_shader,
            task_shader: caps.task_shader,
            dynamic_generated_pipeline_layout: caps.dgc_dynamic_layout,
            shader_object: caps.shader_object,
            ..EnabledFeatures::default()
        };
        // SAFETY: the context picked `physical` from its instance and created `device` from it
        // with the extension, maintenance5, bufferDeviceAddress and synchronization2 (it checked
        // `ctx.dgc()`), and `enabled` copies the features it enabled (its capabilities are
        // private, set only at creation); the instance is alive for the call, and the device
        // for as long as the share in its life taken below is held.
        let mut dev = unsafe { Self::new(ctx.instance(), ctx.physical(), ctx.device(), enabled) }?;
        dev.lifetime = Allocator::lifetime(ctx);
        Ok(dev)
    }

    /// The live device as a profile (what `dgcc probe` reports), with the features that were not
    /// enabled turned off.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    pub fn ext(&self) -> &x::Device {
        &self.ext
    }

    /// `VK_EXT_shader_object`'s entry points, when the device was created with it.
    pub fn shader_object(&self) -> Option<&ash::ext::shader_object::Device> {
        self.shader_object.as_ref()
    }

    /// `Some(why)` when this device cannot bind `layout`'s execution set, which says
    /// `fallback: Binned` (the finding `dgcc check` reports for this device as N0001): run
    /// `layout.without_execution_set()` once per entry instead. `None` when it can, or when the
    /// layout has no set. (A set without a fallback that the device cannot bind is refused by
    /// `check_layout`.)
    pub fn execution_set_unbindable(
        &self,
        layout: &CompiledLayout,
        push_constants: &[PushConstantRange],
    ) -> Option<String> {
        layout.execution_set()?;
        dgcc_core::check::device_findings(layout, push_constants, &self.profile)
            .into_iter()
            .find(|f| f.code == "N0001")
            .map(|f| format!("{} ({})", f.message, f.code))
    }

    /// Refuse a layout the device cannot run: `Err(Refused)` with `dgcc check`'s diagnostics, and
    /// `Err(Invalid)` for an execution set the device cannot bind (N0001: create
    /// `layout.without_execution_set()` and run it binned).
    pub fn check_layout(&self, layout: &CompiledLayout, push_constants: &[PushConstantRange]) -> Result<()> {
        if let Some(why) = self.execution_set_unbindable(layout, push_constants) {
            return Err(RuntimeError::Invalid(format!(
                "{why}: create `layout.without_execution_set()` and execute it once per entry with that entry's pipeline bound"
            )));
        }
        let Some(mut diagnostics) = refusal(layout, push_constants, &self.profile) else { return Ok(()) };
        // "false on <device>" is true of the device as created, not of the hardware: say so.
        for d in &mut diagnostics {
            for limit in self.not_enabled.iter().filter(|l| d.message.contains(l.vk_name())) {
                d.notes.push(format!("{} was not enabled when the device was created", limit.vk_name()));
            }
        }
        Err(RuntimeError::Refused { layout: layout.name.clone(), diagnostics })
    }

    /// Create the `VkIndirectCommandsLayoutEXT` for `layout`, after `check_layout` (a layout the
    /// device cannot run is refused as `check_layout` says, before any Vulkan call). Destroy it with
    /// `DgcLayout::destroy`.
    ///
    /// # Safety
    /// If `check_layout` accepts the layout (a refused one never reaches Vulkan),
    /// `pipeline_layout` is a live pipeline layout of this device (or null, when the layout has
    /// no push-constant or sequence-index token, or with `dynamicGeneratedPipelineLayout`), its
    /// push-constant ranges cover every range the layout's tokens update, and it stays alive as
    /// long as the returned layout.
    pub unsafe fn create_layout(
        &self,
        layout: &CompiledLayout,
        push_constants: &[PushConstantRange],
        pipeline_layout: vk::PipelineLayout,
    ) -> Result<DgcLayout> {
        self.check_layout(layout, push_constants)?;
        let parts = TokenParts::new(layout)?;
        let tokens = parts.tokens(layout);
        let info = x::IndirectCommandsLayoutCreateInfoEXT::default()
            .flags(x::IndirectCommandsLayoutUsageFlagsEXT::from_raw(layout.flags))
            .shader_stages(vk::ShaderStageFlags::from_raw(layout.shader_stages))
            .indirect_stride(layout.stride)
            .pipeline_layout(pipeline_layout)
            .tokens(&tokens);
        // SAFETY: the tokens and their data outlive the call; the layout was checked against the
        // device's limits above; `pipeline_layout` is the caller's contract.
        let handle = unsafe { self.ext.create_indirect_commands_layout(&info, None) }
            .map_err(RuntimeError::vk("vkCreateIndirectCommandsLayoutEXT"))?;
        Ok(DgcLayout { handle, compiled: layout.clone(), pipeline_layout, device: self.ext.device() })
    }
}

impl Buffer {
    /// A preprocess buffer: `PREPROCESS_BUFFER_BIT_EXT` usage (through `BufferUsageFlags2`) and a
    /// memory type from `type_bits` (what `vkGetGeneratedCommandsMemoryRequirementsEXT` said).
    ///
    /// It takes a `DgcDevice`, not any `Allocator` (and lives here rather than in `memory.rs`
    /// for that reason): the usage bit and `BufferUsageFlags2` are valid only on a device with
    /// `VK_EXT_device_generated_commands` and `VK_KHR_maintenance5` enabled, which every
    /// `DgcDevice` has (the safety contract of its constructors).
    pub fn preprocess(dev: &DgcDevice, size: u64, type_bits: u32) -> Result<Buffer> {
        Buffer::create(dev, size, vk::BufferUsageFlags::empty(), true, Location::Device, type_bits)
    }
}

/// One shader object with the stage it was created for: an entry of a shader-object execution
/// set, or one of the shaders an execution binds (`execute::Bound::Shaders`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageShader {
    pub stage: vk::ShaderStageFlags,
    pub shader: vk::ShaderEXT,
}

/// What an execution set selects from, with the entry it was created with (bound before each
/// execute: the driver takes the state it does not change from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetEntries {
    /// `VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT`, with its initial pipeline.
    Pipelines(vk::Pipeline),
    /// `VK_INDIRECT_EXECUTION_SET_INFO_TYPE_SHADER_OBJECTS_EXT`, with one initial shader per
    /// stage of the layout's execution-set token, in stage-bit order.
    ShaderObjects(Vec<StageShader>),
}

/// An indirect execution set (`VkIndirectExecutionSetEXT`) of pipelines or of shader objects.
///
/// Destroyed explicitly with `destroy` (no `Drop`: dropping it leaks the handle).
///
/// Its fields are private, read through accessors: `write_execution_set*` uses `initial` as
/// the check of what the set holds, so editing it after creation would break their safety.
pub struct ExecutionSet {
    handle: x::IndirectExecutionSetEXT,
    /// What the set selects from, and its initial entry.
    initial: SetEntries,
    /// Entries the set was created with; private, because `write_execution_set` checks indices
    /// against it.
    max_entries: u32,
    /// The device that created it, for the debug check in `destroy`.
    device: vk::Device,
    /// What the caller put in each entry.
    table: SetTable,
}

impl ExecutionSet {
    /// An index past the set's entries is an error, before any Vulkan call.
    fn check_index(&self, index: u32) -> Result<()> {
        if index >= self.max_entries {
            return Err(RuntimeError::Invalid(format!(
                "execution-set index {index} is past its {} entries",
                self.max_entries
            )));
        }
        Ok(())
    }

    /// The `VkIndirectExecutionSetEXT` (null after `destroy`).
    pub fn handle(&self) -> x::IndirectExecutionSetEXT {
        self.handle
    }

    /// What the set selects from (pipelines or shader objects), and the entry it was created
    /// with.
    pub fn initial(&self) -> &SetEntries {
        &self.initial
    }

    /// Entries the set holds (`maxPipelineCount`, or `maxShaderCount` for shader objects: one
    /// entry per shader, whatever its stage).
    pub fn max_entries(&self) -> u32 {
        self.max_entries
    }

    /// Destroy the set. A second call does nothing.
    ///
    /// # Safety
    /// `dev` is the device that created the set, and no pending GPU work uses it (every
    /// submission whose execute or preprocess named it has finished).
    pub unsafe fn destroy(&mut self, dev: &DgcDevice) {
        debug_assert_eq!(dev.ext.device(), self.device, "an execution set is destroyed by the device that made it");
        if self.handle != x::IndirectExecutionSetEXT::null() {
            // SAFETY: created by `dev` and unused by pending work (the caller's contract).
            unsafe { dev.ext.destroy_indirect_execution_set(self.handle, None) };
            self.handle = x::IndirectExecutionSetEXT::null();
        }
    }
}

impl DgcDevice {
    /// Create the pipeline execution set `layout`'s EXECUTION_SET token selects from, with
    /// `initial` as entry 0 (a token of shader objects takes `create_shader_execution_set`).
    /// Destroy it with `ExecutionSet::destroy`.
    ///
    /// Every other entry starts as `initial` too, until `write_execution_set` puts another
    /// pipeline there. The spec leaves entries nobody wrote undefined, and a stream may only
    /// select written ones; but NVIDIA's driver (580.159.04, H100 and H200) segfaults while
    /// recording `vkCmdExecuteGeneratedCommandsEXT` for a compute layout whose pipeline set has
    /// an entry never written, even one no sequence selects (`examples/ies_probe` in this crate
    /// shows it), so no set leaves here with one. Entry 0 is written last: that driver runs a
    /// compute pipeline held by several entries only from the one written last, which is why
    /// `write_execution_set` refuses a second entry for a pipeline there. A stream still may not
    /// select an entry nobody wrote (the spec leaves it undefined; there it would hang).
    ///
    /// # Safety
    /// `layout` was created by this device; `initial` is a live pipeline of this device, created
    /// with `VK_PIPELINE_CREATE_2_INDIRECT_BINDABLE_BIT_EXT`, of the bind point and stages the
    /// layout's execution-set token names, and it stays alive as long as the set.
    pub unsafe fn create_execution_set(&self, layout: &DgcLayout, initial: vk::Pipeline) -> Result<ExecutionSet> {
        let set = set_token(layout)?;
        if set.kind != x::IndirectExecutionSetInfoTypeEXT::PIPELINES.as_raw() as u32 {
            return Err(RuntimeError::Invalid(format!(
                "layout `{}` selects shader objects: create its set with `create_shader_execution_set`",
                layout.compiled.name
            )));
        }
        let info = x::IndirectExecutionSetPipelineInfoEXT {
            initial_pipeline: initial,
            max_pipeline_count: set.max_entries,
            ..Default::default()
        };
        let create = x::IndirectExecutionSetCreateInfoEXT::pipelines(&info);
        // SAFETY: `initial` is the caller's contract; max_entries was checked against the device
        // by `create_layout`'s rules.
        let handle = unsafe { self.ext.create_indirect_execution_set(&create, None) }
            .map_err(RuntimeError::vk("vkCreateIndirectExecutionSetEXT"))?;
        let one_entry_each = self.one_entry_each(&set);
        let set = ExecutionSet {
            handle,
            initial: SetEntries::Pipelines(initial),
            max_entries: set.max_entries,
            device: self.ext.device(),
            table: SetTable::pipelines(initial, set.max_entries, one_entry_each),
        };
        // Entry 0 last: see the note above.
        let writes: Vec<_> = (1..set.max_entries)
            .chain(0..1)
            .map(|index| x::WriteIndirectExecutionSetPipelineEXT::new(index, initial))
            .collect();
        if writes.len() > 1 {
            // SAFETY: a set just made, which nothing uses yet; every index is below its entries;
            // `initial` is the caller's contract and was accepted as the set's own entry 0.
            unsafe { self.ext.update_indirect_execution_set_pipeline(set.handle, &writes) };
        }
        Ok(set)
    }

    /// Create the shader-object execution set `layout`'s EXECUTION_SET token selects from:
    /// `initial` holds one shader per stage the token names (any order; they become entry 0
    /// upward in stage-bit order), `set_layouts` and `push_constants` are what every shader of
    /// the set was created with (`VkShaderCreateInfoEXT::pSetLayouts` and
    /// `pPushConstantRanges`). Needs `VK_EXT_shader_object` enabled on the device
    /// (`EnabledFeatures::shader_object`). Destroy it with `ExecutionSet::destroy`.
    ///
    /// The stream's token data is one `u32` per stage, in stage-bit order, each an index into
    /// the set's shaders (`write_execution_set_shader` fills them).
    ///
    /// # Safety
    /// `layout` was created by this device; every shader of `initial` is a live shader object of
    /// this device, created with `VK_SHADER_CREATE_INDIRECT_BINDABLE_BIT_EXT` (see
    /// `shaders::shader_object`), `set_layouts` and `push_constants`, for the stage it is listed
    /// with; the layouts are alive; and the shaders stay alive as long as the set.
    pub unsafe fn create_shader_execution_set(
        &self,
        layout: &DgcLayout,
        initial: &[StageShader],
        set_layouts: &[vk::DescriptorSetLayout],
        push_constants: &[vk::PushConstantRange],
    ) -> Result<ExecutionSet> {
        let set = set_token(layout)?;
        if set.kind != x::IndirectExecutionSetInfoTypeEXT::SHADER_OBJECTS.as_raw() as u32 {
            return Err(RuntimeError::Invalid(format!(
                "layout `{}` selects pipelines: create its set with `create_execution_set`",
                layout.compiled.name
            )));
        }
        if self.shader_object.is_none() {
            return Err(RuntimeError::MissingFeature {
                device: self.profile.name.clone(),
                feature: "VK_EXT_shader_object (enabled on the device)".into(),
                needed_for: format!("the shader-object execution set of layout `{}`", layout.compiled.name),
            });
        }
        let mut initial = initial.to_vec();
        initial.sort_by_key(|s| s.stage.as_raw());
        let stages: u32 = initial.iter().map(|s| s.stage.as_raw()).fold(0, |a, b| a | b);
        let distinct = initial.windows(2).all(|w| w[0].stage != w[1].stage);
        if stages != set.stages || !distinct || initial.iter().any(|s| s.stage.as_raw().count_ones() != 1) {
            return Err(RuntimeError::Invalid(format!(
                "layout `{}`'s execution set needs exactly one initial shader for each of stages {:#x}; got stages {:?}",
                layout.compiled.name,
                set.stages,
                initial.iter().map(|s| s.stage).collect::<Vec<_>>()
            )));
        }
        let shaders: Vec<vk::ShaderEXT> = initial.iter().map(|s| s.shader).collect();
        let layout_infos: Vec<x::IndirectExecutionSetShaderLayoutInfoEXT> = initial
            .iter()
            .map(|_| x::IndirectExecutionSetShaderLayoutInfoEXT {
                set_layout_count: set_layouts.len() as u32,
                p_set_layouts: set_layouts.as_ptr(),
                ..Default::default()
            })
            .collect();
        let info = x::IndirectExecutionSetShaderInfoEXT {
            shader_count: shaders.len() as u32,
            p_initial_shaders: shaders.as_ptr(),
            p_set_layout_infos: layout_infos.as_ptr(),
            max_shader_count: set.max_entries,
            push_constant_range_count: push_constants.len() as u32,
            p_push_constant_ranges: push_constants.as_ptr(),
            ..Default::default()
        };
        let create = x::IndirectExecutionSetCreateInfoEXT::shader_objects(&info);
        // SAFETY: the arrays outlive the call; the shaders and layouts are the caller's
        // contract; max_entries was checked against the device by `create_layout`'s rules
        // (E0612 holds it to at least one entry per stage).
        let handle = unsafe { self.ext.create_indirect_execution_set(&create, None) }
            .map_err(RuntimeError::vk("vkCreateIndirectExecutionSetEXT"))?;
        Ok(ExecutionSet {
            handle,
            initial: SetEntries::ShaderObjects(initial),
            max_entries: set.max_entries,
            device: self.ext.device(),
            table: SetTable::shaders(&shaders, set.max_entries, self.one_entry_each(&set)),
        })
    }

    /// Put `shader` at entry `index` of the shader-object set `set`. An error, before any
    /// Vulkan call: an index past the set's entries, a pipeline set, and on NVIDIA's driver a
    /// compute shader that another entry of the set holds (`set_table.rs`).
    ///
    /// # Safety
    /// - `set` was created by this device and is not destroyed;
    /// - `shader` is a live shader object of this device, created with
    ///   `VK_SHADER_CREATE_INDIRECT_BINDABLE_BIT_EXT` and the set layouts and push-constant
    ///   ranges the set was created with, and it stays alive as long as the set may select it;
    /// - no pending GPU work uses entry `index` of the set, and no other thread updates the set
    ///   concurrently.
    pub unsafe fn write_execution_set_shader(
        &self,
        set: &ExecutionSet,
        index: u32,
        shader: vk::ShaderEXT,
    ) -> Result<()> {
        if !matches!(set.initial, SetEntries::ShaderObjects(_)) {
            return Err(RuntimeError::Invalid(
                "a pipeline execution set takes pipelines (`write_execution_set`)".into(),
            ));
        }
        set.check_index(index)?;
        let writes = [x::WriteIndirectExecutionSetShaderEXT::new(index, shader)];
        // SAFETY: the index is in range (checked above); the rest is the caller's contract.
        set.table.put(index, shader, || unsafe { self.ext.update_indirect_execution_set_shader(set.handle, &writes) })
    }

    /// Put `pipeline` at entry `index` of `set`. An error, before any Vulkan call: an index past
    /// the set's entries, a shader-object set, and on NVIDIA's driver a compute pipeline that
    /// another entry of the set holds (the driver runs it from only one of them and hangs the
    /// GPU on the other: `set_table.rs`; create a second pipeline from the same shader instead).
    ///
    /// What the runtime cannot check is the caller's to guarantee:
    ///
    /// # Safety
    /// - `set` was created by this device and is not destroyed;
    /// - `pipeline` is a live pipeline of this device, created with
    ///   `VK_PIPELINE_CREATE_2_INDIRECT_BINDABLE_BIT_EXT`, compatible with the set's initial
    ///   pipeline (same pipeline layout, same bind point, the stages the execution-set token
    ///   names, the same dynamic state and, for graphics, the same rendering formats), and it
    ///   stays alive as long as the set may select it;
    /// - no pending GPU work uses entry `index` of the set (every submission that may have
    ///   selected it has finished), and no other thread updates the same set concurrently
    ///   (`VkIndirectExecutionSetEXT` updates are externally synchronized).
    pub unsafe fn write_execution_set(&self, set: &ExecutionSet, index: u32, pipeline: vk::Pipeline) -> Result<()> {
        if !matches!(set.initial, SetEntries::Pipelines(_)) {
            return Err(RuntimeError::Invalid(
                "a shader-object execution set takes shaders (`write_execution_set_shader`)".into(),
            ));
        }
        set.check_index(index)?;
        let writes = [x::WriteIndirectExecutionSetPipelineEXT::new(index, pipeline)];
        // SAFETY: the index is in range (checked above); the rest is the caller's contract.
        set.table
            .put(index, pipeline, || unsafe { self.ext.update_indirect_execution_set_pipeline(set.handle, &writes) })
    }

    /// Whether a pipeline or shader of `set` may sit in one entry only: NVIDIA runs a compute
    /// one from only one of two entries holding it (`set_table.rs`).
    fn one_entry_each(&self, set: &dgcc_core::ir::ExecutionSet) -> bool {
        self.nvidia && set.stages & vk::ShaderStageFlags::COMPUTE.as_raw() != 0
    }
}

/// The layout's execution-set token, which a set is created for.
fn set_token(layout: &DgcLayout) -> Result<dgcc_core::ir::ExecutionSet> {
    layout
        .compiled
        .execution_set()
        .copied()
        .ok_or_else(|| RuntimeError::Invalid(format!("layout `{}` has no execution-set token", layout.compiled.name)))
}

/// Backing storage for the token-data structs the layout tokens point to.
struct TokenParts {
    push: Vec<x::IndirectCommandsPushConstantTokenEXT>,
    vertex: Vec<x::IndirectCommandsVertexBufferTokenEXT>,
    index: Vec<x::IndirectCommandsIndexBufferTokenEXT>,
    set: Vec<x::IndirectCommandsExecutionSetTokenEXT>,
}

impl TokenParts {
    fn new(layout: &CompiledLayout) -> Result<TokenParts> {
        let mut parts = TokenParts { push: vec![], vertex: vec![], index: vec![], set: vec![] };
        for t in &layout.tokens {
            let missing = |what: &str| {
                RuntimeError::Invalid(format!("token `{}` of layout `{}` has no {what}", t.name, layout.name))
            };
            match t.token_type {
                TokenType::PushConstant
                | TokenType::SequenceIndex
                | TokenType::PushData
                | TokenType::PushDataSequenceIndex => {
                    let r = t.push_constant.ok_or_else(|| missing("push_constant range"))?;
                    let update_range = vk::PushConstantRange {
                        stage_flags: vk::ShaderStageFlags::from_raw(r.stages),
                        offset: r.offset,
                        size: r.size,
                    };
                    parts.push.push(x::IndirectCommandsPushConstantTokenEXT { update_range });
                }
                TokenType::VertexBuffer => {
                    let unit = t.vertex_binding.ok_or_else(|| missing("vertex_binding"))?;
                    parts.vertex.push(x::IndirectCommandsVertexBufferTokenEXT { vertex_binding_unit: unit });
                }
                TokenType::IndexBuffer => {
                    let mode = t.index_mode.ok_or_else(|| missing("index_mode"))?;
                    parts.index.push(x::IndirectCommandsIndexBufferTokenEXT {
                        mode: x::IndirectCommandsInputModeFlagsEXT::from_raw(mode),
                    });
                }
                TokenType::ExecutionSet => {
                    let s = t.execution_set.ok_or_else(|| missing("execution_set"))?;
                    parts.set.push(x::IndirectCommandsExecutionSetTokenEXT {
                        ty: x::IndirectExecutionSetInfoTypeEXT::from_raw(s.kind as i32),
                        shader_stages: vk::ShaderStageFlags::from_raw(s.stages),
                    });
                }
                _ => {}
            }
        }
        Ok(parts)
    }

    fn tokens<'a>(&'a self, layout: &CompiledLayout) -> Vec<Token<'a>> {
        let (mut p, mut v, mut i, mut s) = (0, 0, 0, 0);
        let next = |n: &mut usize| {
            *n += 1;
            *n - 1
        };
        layout
            .tokens
            .iter()
            .map(|t| {
                let ty = x::IndirectCommandsTokenTypeEXT::from_raw(t.token_type.value() as i32);
                match t.token_type {
                    TokenType::PushConstant
                    | TokenType::SequenceIndex
                    | TokenType::PushData
                    | TokenType::PushDataSequenceIndex => Token::push_constant(ty, t.offset, &self.push[next(&mut p)]),
                    TokenType::VertexBuffer => Token::vertex_buffer(t.offset, &self.vertex[next(&mut v)]),
                    TokenType::IndexBuffer => Token::index_buffer(t.offset, &self.index[next(&mut i)]),
                    TokenType::ExecutionSet => Token::execution_set(t.offset, &self.set[next(&mut s)]),
                    _ => Token::action(ty, t.offset),
                }
            })
            .collect()
    }
}

/// Which bound state `vkCmdExecuteGeneratedCommandsEXT` leaves undefined for a layout (the
/// spec's state-invalidation table): the caller re-binds these before recording anything
/// else that relies on them. Viewport, scissor, descriptor sets and (without an execution set)
/// the pipeline survive. `pipeline` stands for the bound shaders where the set holds shader
/// objects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InvalidatedState {
    pub push_constants: bool,
    /// `VK_EXT_descriptor_heap`'s push data (PUSH_DATA and PUSH_DATA_SEQUENCE_INDEX tokens).
    /// `restore` cannot push it again and always leaves it to the caller.
    pub push_data: bool,
    pub index_buffer: bool,
    pub vertex_buffers: bool,
    pub pipeline: bool,
}

/// State to restore after an execute, for `DgcLayout::restore`.
#[derive(Default)]
pub struct RestoreState<'a> {
    /// `(layout, stages, offset, bytes)` to push again.
    pub push_constants: Vec<(vk::PipelineLayout, vk::ShaderStageFlags, u32, &'a [u8])>,
    pub index_buffer: Option<(vk::Buffer, u64, vk::IndexType)>,
    /// `(first binding, buffers, offsets)`.
    pub vertex_buffers: Option<(u32, &'a [vk::Buffer], &'a [u64])>,
    pub pipeline: Option<(vk::PipelineBindPoint, vk::Pipeline)>,
    /// For a layout whose execution set holds shader objects, the shaders to bind again
    /// (`vkCmdBindShadersEXT`: the device's shader-object entry points, stages, shaders).
    pub shaders: Option<(&'a ash::ext::shader_object::Device, &'a [vk::ShaderStageFlags], &'a [vk::ShaderEXT])>,
}

/// A created `VkIndirectCommandsLayoutEXT`.
///
/// Destroyed explicitly with `destroy`, once no pending work uses it, before the device (no
/// `Drop`: dropping it leaks the handle).
///
/// Its fields are private, read through accessors: `Execution::record` builds the
/// generated-commands info (stride, flags, stages) from `compiled`, which must stay what the
/// handle was created from.
pub struct DgcLayout {
    handle: x::IndirectCommandsLayoutEXT,
    compiled: CompiledLayout,
    pipeline_layout: vk::PipelineLayout,
    /// The device that created it, for the debug check in `destroy`.
    device: vk::Device,
}

impl DgcLayout {
    /// The `VkIndirectCommandsLayoutEXT` (null after `destroy`).
    pub fn handle(&self) -> x::IndirectCommandsLayoutEXT {
        self.handle
    }

    /// The compiled layout the handle was created from.
    pub fn compiled(&self) -> &CompiledLayout {
        &self.compiled
    }

    /// The pipeline layout the handle was created with (null where none was given).
    pub fn pipeline_layout(&self) -> vk::PipelineLayout {
        self.pipeline_layout
    }

    pub fn stages(&self) -> vk::ShaderStageFlags {
        vk::ShaderStageFlags::from_raw(self.compiled.shader_stages)
    }
    pub fn explicit_preprocess(&self) -> bool {
        self.compiled.flags & x::IndirectCommandsLayoutUsageFlagsEXT::EXPLICIT_PREPROCESS.as_raw() != 0
    }
    /// Refuse a recording that breaks one of the layout's record-time requirements (E0901–E0909;
    /// `refuse::check_record`). `Execution::record` calls it with what it knows itself and
    /// what the engine stated (`Execution::set_record_state`).
    pub fn check_record(&self, state: &dgcc_core::requirements::RecordState) -> Result<()> {
        super::refuse::check_record(&self.compiled, state)
    }

    pub fn has_execution_set(&self) -> bool {
        self.compiled.tokens.iter().any(|t| t.token_type == TokenType::ExecutionSet)
    }
    /// Draw layouts execute inside a render pass; dispatch layouts outside.
    pub fn is_graphics(&self) -> bool {
        self.compiled.action().is_some_and(|a| a.token_type.is_vertex_draw() || a.token_type.is_mesh())
    }
    /// Where the layout's pipeline binds: graphics for draws, ray tracing for trace-rays
    /// layouts, compute for dispatches.
    pub fn bind_point(&self) -> vk::PipelineBindPoint {
        match self.compiled.action().map(|a| a.token_type) {
            _ if self.is_graphics() => vk::PipelineBindPoint::GRAPHICS,
            Some(TokenType::TraceRays2) => vk::PipelineBindPoint::RAY_TRACING_KHR,
            _ => vk::PipelineBindPoint::COMPUTE,
        }
    }
    pub fn uses_count_token(&self) -> bool {
        self.compiled.action().is_some_and(|a| a.token_type.is_count())
    }

    pub fn invalidated_state(&self) -> InvalidatedState {
        let has = |tt: TokenType| self.compiled.tokens.iter().any(|t| t.token_type == tt);
        InvalidatedState {
            push_constants: has(TokenType::PushConstant) || has(TokenType::SequenceIndex),
            push_data: has(TokenType::PushData) || has(TokenType::PushDataSequenceIndex),
            index_buffer: has(TokenType::IndexBuffer),
            vertex_buffers: has(TokenType::VertexBuffer),
            pipeline: has(TokenType::ExecutionSet),
        }
    }

    /// Re-record what this layout's execution invalidated, from `state` (what is not given is
    /// left alone). Returns what was invalidated but not restored, so the caller can tell.
    ///
    /// # Safety
    /// `cmd` is a command buffer of `device` in the recording state; the handles in `state` are
    /// live objects of `device` that stay alive until the recorded work finished, and each is
    /// valid for the command it is bound with (push-constant ranges inside the layout's ranges,
    /// buffers with index or vertex usage, a pipeline of the named bind point).
    pub unsafe fn restore(
        &self,
        device: &ash::Device,
        cmd: vk::CommandBuffer,
        state: &RestoreState<'_>,
    ) -> InvalidatedState {
        let inv = self.invalidated_state();
        let mut left = InvalidatedState::default();
        // SAFETY (every command below): `cmd` is recording on `device` and the handles are
        // valid for their command (the caller's contract).
        if inv.pipeline {
            match (state.pipeline, state.shaders) {
                (Some((point, p)), _) => unsafe { device.cmd_bind_pipeline(cmd, point, p) },
                (None, Some((so, stages, shaders))) => unsafe { so.cmd_bind_shaders(cmd, stages, shaders) },
                (None, None) => left.pipeline = true,
            }
        }
        if inv.push_constants {
            for (layout, stages, offset, bytes) in &state.push_constants {
                unsafe { device.cmd_push_constants(cmd, *layout, *stages, *offset, bytes) };
            }
            left.push_constants = state.push_constants.is_empty();
        }
        left.push_data = inv.push_data;
        if inv.index_buffer {
            match state.index_buffer {
                Some((b, off, ty)) => unsafe { device.cmd_bind_index_buffer(cmd, b, off, ty) },
                None => left.index_buffer = true,
            }
        }
        if inv.vertex_buffers {
            match state.vertex_buffers {
                Some((first, buffers, offsets)) => unsafe {
                    device.cmd_bind_vertex_buffers(cmd, first, buffers, offsets)
                },
                None => left.vertex_buffers = true,
            }
        }
        left
    }

    /// Destroy the layout. A second call does nothing.
    ///
    /// # Safety
    /// `dev` is the device that created the layout, and no pending GPU work uses it (every
    /// submission whose preprocess or execute named it has finished).
    pub unsafe fn destroy(&mut self, dev: &DgcDevice) {
        debug_assert_eq!(dev.ext.device(), self.device, "a layout is destroyed by the device that made it");
        if self.handle != x::IndirectCommandsLayoutEXT::null() {
            // SAFETY: created by `dev` and unused by pending work (the caller's contract).
            unsafe { dev.ext.destroy_indirect_commands_layout(self.handle, None) };
            self.handle = x::IndirectCommandsLayoutEXT::null();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layout with no handle: the queries read only `compiled`.
    fn layout(compiled: CompiledLayout) -> DgcLayout {
        DgcLayout {
            handle: x::IndirectCommandsLayoutEXT::null(),
            compiled,
            pipeline_layout: vk::PipelineLayout::null(),
            device: vk::Device::null(),
        }
    }

    #[test]
    fn the_scene_layout_invalidates_push_constants_and_the_index_buffer_only() {
        let l = layout(crate::fixtures::push_index_draw());
        let inv = l.invalidated_state();
        assert_eq!(
            inv,
            InvalidatedState {
                push_constants: true,
                push_data: false,
                index_buffer: true,
                vertex_buffers: false,
                pipeline: false
            }
        );
        assert!(l.is_graphics() && !l.has_execution_set() && !l.uses_count_token() && !l.explicit_preprocess());
    }

    #[test]
    fn push_data_tokens_invalidate_push_data_not_push_constants() {
        for ty in [TokenType::PushData, TokenType::PushDataSequenceIndex] {
            let mut compiled = crate::fixtures::push_index_draw();
            compiled.tokens[0].token_type = ty;
            let inv = layout(compiled).invalidated_state();
            assert!(inv.push_data && !inv.push_constants && inv.index_buffer, "{ty:?}: {inv:?}");
        }
    }

    #[test]
    fn token_data_is_built_for_every_parameterised_token() {
        let compiled = crate::fixtures::push_index_draw();
        let parts = TokenParts::new(&compiled).unwrap();
        let tokens = parts.tokens(&compiled);
        assert_eq!(tokens.len(), 3);
        assert_eq!(tokens[0].ty, x::IndirectCommandsTokenTypeEXT::PUSH_CONSTANT);
        // SAFETY: the union member matching the token type, pointing into `parts`.
        let range = unsafe { (*tokens[0].data.p_push_constant).update_range };
        assert_eq!((range.offset, range.size), (0, 8));
        assert_eq!(tokens[1].ty, x::IndirectCommandsTokenTypeEXT::INDEX_BUFFER);
        assert_eq!(
            // SAFETY: as above, the index-buffer member.
            unsafe { (*tokens[1].data.p_index_buffer).mode },
            x::IndirectCommandsInputModeFlagsEXT::VULKAN_INDEX_BUFFER
        );
        assert_eq!((tokens[2].ty, tokens[2].offset), (x::IndirectCommandsTokenTypeEXT::DRAW_INDEXED, 24));
        let mut broken = compiled.clone();
        broken.tokens[1].index_mode = None;
        assert!(TokenParts::new(&broken).is_err());
    }
}
