//! A headless Vulkan context: instance, one device, one queue, one command pool.
//!
//! Why the runtime makes its own context (engines bring theirs to `DgcDevice` instead): `dgcc
//! run`, `dgcc probe`, `dgcc bench` and the tests need a device without a window. Features are
//! queried first and only what the device has is enabled; what is missing is recorded in
//! `Capabilities`, so a caller gets a `MissingFeature` error that names the feature when it
//! asks for work that needs it, never a driver crash.
//!
//! Optional features that layouts can depend on (mesh and task shaders) are enabled whenever
//! the device has them, and `DgcDevice::from_context` refuses layouts that need one that is off
//! — the validation layer holds a token to what was *enabled*, not to what the device could do.
//! So are `geometryShader` and `tessellationShader`, which a pipeline with those stages needs
//! (`dgcc run --layout` draws a layout whose stages include them with such a pipeline).
//!
//! Device choice: the first Vulkan 1.3 device, preferring one that exposes
//! `VK_EXT_device_generated_commands` when DGC is asked for; `DGCC_DEVICE=<substring>` picks by name, and
//! [`select_device`] (`dgcc run/bench/probe --device N`) picks by index in the loader's list,
//! winning over the variable. Why a process-wide choice rather than a `ContextOptions` field:
//! the commands create their contexts deep inside the scene and the bench, and the variable it
//! replaces was process-wide too.
//!
//! Validation: with `ContextOptions::validation` set (by default when `DGCC_VALIDATION=1`), the
//! instance enables `VK_LAYER_KHRONOS_validation` and a debug messenger that fills the given
//! `LayerLog` (see `layer_log.rs`); a missing or too old layer is then an error, not a skip.
//!
//! Behind the `headless` feature: an engine brings its own instance and device, and nothing
//! engine-facing (`DgcDevice::new`, `Fallback`, `probe_physical`) needs this module.
//!
//! Warm-up: a new context binds a graphics pipeline whose vertex shader reads
//! `gl_InstanceIndex` in one submission before it is returned (`warm_up.rs`), because NVIDIA's
//! driver makes per-draw push constants about 20× slower until one was bound;
//! `ContextOptions::warm_up` turns it off.
//!
//! Lifetime: `GpuContext` is the one owner whose `Drop` destroys Vulkan objects, because it is
//! the one owner that can prove no work is pending: it waits for the device to go idle first,
//! then destroys its pool. Its device, messenger, instance and loader (`DeviceOwner`) go with
//! the last of the context and the buffers made through it: a buffer kept past the context,
//! in safe code, keeps its memory mapped. Every object made on it (buffers, layouts, execution
//! sets, executions, validators) is still destroyed explicitly, with its `destroy`; one that is
//! not is leaked with the device (the validation layer names it).

use super::error::{Result, RuntimeError};
use super::ext_dgc;
use super::layer_log::{self, LayerLog};
use super::loader;
use super::probe::{device_extensions, device_name, probe_physical, Probe};
use super::warm_up::WarmUp;
use ash::vk;
use std::ffi::CStr;
use std::sync::Arc;

/// What the context should try to enable.
#[derive(Clone, Debug)]
pub struct ContextOptions {
    /// Enable `VK_EXT_device_generated_commands` when the device has it.
    pub enable_dgc: bool,
    /// Fail when the device lacks it.
    pub require_dgc: bool,
    /// Run under `VK_LAYER_KHRONOS_validation` and record its messages here. The default is a
    /// fresh log when `DGCC_VALIDATION=1`, else none.
    pub validation: Option<Arc<LayerLog>>,
    /// Submit the push-constant warm-up once at creation (`warm_up.rs`: on NVIDIA's driver,
    /// per-draw push constants are 20× slower until it ran). On by default; off only to show
    /// the effect (`examples/order_probe/`).
    pub warm_up: bool,
    /// Enable `VK_KHR_pipeline_executable_properties` when the device has it, so that pipelines
    /// made with `PipelineFlags::capture_statistics` can be asked what the driver compiled
    /// (`kernel_statistics.rs`). Off by default: it is a tool's extension, and drivers may skip
    /// their pipeline caches for it.
    pub kernel_statistics: bool,
    /// Enable `drawIndirectFirstInstance` when the device has it. On by default. A test switch:
    /// off, the context is what it would be on a device without the feature (not enabled, and
    /// `caps().draw_indirect_first_instance` false), so that the refusals of work that needs it
    /// can be tested on hardware that has it. (It can only turn a feature off: capabilities are
    /// read-only, because claiming one that was never enabled would be unsound.)
    pub draw_indirect_first_instance: bool,
    /// Enable `VK_EXT_shader_object` when the device has it. On by default. A test switch like
    /// `draw_indirect_first_instance`: off, the context is what a device without the extension
    /// gives, so that work needing shader objects can be seen refused on hardware that has them.
    pub shader_object: bool,
}

impl Default for ContextOptions {
    fn default() -> Self {
        ContextOptions {
            enable_dgc: true,
            require_dgc: false,
            validation: LayerLog::from_env(),
            warm_up: true,
            kernel_statistics: false,
            draw_indirect_first_instance: true,
            shader_object: true,
        }
    }
}

/// Which optional features were enabled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    pub dgc: bool,
    pub dgc_dynamic_layout: bool,
    pub draw_indirect_count: bool,
    pub multi_draw_indirect: bool,
    pub shader_draw_parameters: bool,
    /// Indirect draws may start at a non-zero instance (object ids in firstInstance).
    pub draw_indirect_first_instance: bool,
    pub subgroup_size_control: bool,
    pub compute_full_subgroups: bool,
    pub scalar_block_layout: bool,
    pub shader_int64: bool,
    pub timestamps: bool,
    /// `VK_EXT_mesh_shader` with `meshShader` / `taskShader` enabled.
    pub mesh_shader: bool,
    pub task_shader: bool,
    /// `fragmentStoresAndAtomics`: fragment shaders may write storage buffers (the draw tests
    /// count fragments with atomics).
    pub fragment_stores_and_atomics: bool,
    /// `geometryShader` and `tessellationShader`: graphics pipelines may have those stages (the
    /// draw tests read the words a layout pushes to them there).
    pub geometry_shader: bool,
    pub tessellation_shader: bool,
    /// `VK_EXT_shader_object` with `shaderObject` enabled: drawing with shader objects instead
    /// of pipelines, and with DGC, executes that name them or select them through a set.
    pub shader_object: bool,
    /// `VK_KHR_pipeline_executable_properties` with `pipelineExecutableInfo` enabled (only when
    /// `ContextOptions::kernel_statistics` asked for it).
    pub kernel_statistics: bool,
}

/// A headless instance, device, queue and command pool (feature `headless`). Dropping it waits
/// for the device to go idle and destroys its pool; the device and instance go with the last
/// buffer or `DgcDevice` that shares them (see the module docs).
///
/// It may move to another thread (`Send`) but not be shared between threads (`!Sync`): its
/// command pool and queue need external synchronization (VUID-vkAllocateCommandBuffers-commandPool
/// and VUID-vkQueueSubmit-queue are host-synchronized), and [`GpuContext::one_shot`], a safe
/// function, uses both through `&self`; two threads calling it at once crashed inside the driver.
///
/// Its fields are private, read through accessors: unsafe code (its own `Drop`, `one_shot`,
/// the `Allocator` impl, `DgcDevice::from_context`) relies on them describing what was created
/// together — a device and pool swapped between two contexts would be destroyed twice, forged
/// memory properties would map memory that is not host-visible, and a capability set by hand
/// would claim a feature that was never enabled.
pub struct GpuContext {
    /// The loader, instance, device and messenger, shared with every buffer made here.
    owner: Arc<DeviceOwner>,
    physical: vk::PhysicalDevice,
    /// `maxBufferSize`, which every buffer made through the context is checked against.
    max_buffer_size: u64,
    queue: vk::Queue,
    queue_family: u32,
    pool: vk::CommandPool,
    /// The extension's entry points, when it is enabled.
    dgc: Option<ext_dgc::Device>,
    /// `VK_EXT_shader_object`'s entry points, when it is enabled (`caps().shader_object`).
    shader_object: Option<ash::ext::shader_object::Device>,
    /// `VK_KHR_pipeline_executable_properties`' entry points, when it is enabled
    /// (`caps().kernel_statistics`).
    executable_properties: Option<ash::khr::pipeline_executable_properties::Device>,
    caps: Capabilities,
    properties: vk::PhysicalDeviceProperties,
    memory: vk::PhysicalDeviceMemoryProperties,
    device_name: String,
    /// Makes the context `!Sync` (see the type's docs); `Cell` is `Send`, so the context stays
    /// `Send`.
    not_shared: std::marker::PhantomData<std::cell::Cell<()>>,
}

/// What a context's device needs to stay alive, destroyed when its last holder drops: the
/// context, or a buffer made through it ([`Allocator::lifetime`](super::memory::Allocator::lifetime)).
///
/// Why shared: a `Buffer` made through a context can be kept, in safe code, after the context
/// dropped; its mapping must still point at mapped memory then, so the device (and the
/// instance and loader under it) lives until the buffer lets go too. The command pool and
/// queue stay with the context, which is the one that submits.
struct DeviceOwner {
    /// The loader: its library must stay loaded while any entry point below can be called.
    entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    /// The validation messenger and the log it fills, when validation is on.
    messenger: Option<Messenger>,
}

impl Drop for DeviceOwner {
    fn drop(&mut self) {
        // SAFETY: the last holder is gone, so nothing else can use the device, its queue or the
        // instance (the context destroyed its pool after waiting for idle; a buffer's memory is
        // freed by its `destroy`, or leaked with the device, which the layer reports).
        unsafe {
            let _ = self.device.device_wait_idle();
            let _lifecycle = loader::lifecycle();
            self.device.destroy_device(None);
            // The messenger goes after the device, so leaks reported at vkDestroyDevice are
            // logged; the one chained at instance creation covers vkDestroyInstance.
            if let Some(m) = &self.messenger {
                m.utils.destroy_debug_utils_messenger(m.handle, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}

/// A standing `VK_EXT_debug_utils` messenger and the log its callback writes to (the `Arc`
/// keeps the callback's user data alive until the instance is gone).
struct Messenger {
    utils: ash::ext::debug_utils::Instance,
    handle: vk::DebugUtilsMessengerEXT,
    log: Arc<LayerLog>,
}

/// Create an instance (Vulkan 1.3, no layers, no surface).
pub(crate) fn create_instance() -> Result<(ash::Entry, ash::Instance)> {
    let (entry, instance, _) = create_instance_with(None)?;
    Ok((entry, instance))
}

/// Create an instance; with `validation`, enable the Khronos layer and a messenger into the log.
fn create_instance_with(validation: Option<&Arc<LayerLog>>) -> Result<(ash::Entry, ash::Instance, Option<Messenger>)> {
    let entry = loader::entry()?;
    let lifecycle = loader::lifecycle();
    loader::keep_drivers_loaded(&entry, &lifecycle);
    let app =
        vk::ApplicationInfo::default().application_name(c"dgcc").engine_name(c"dgcc").api_version(vk::API_VERSION_1_3);
    let Some(log) = validation else {
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: valid create info without pointers beyond `app`.
        let instance = unsafe { entry.create_instance(&info, None) }
            .map_err(|r| RuntimeError::NoVulkan(format!("vkCreateInstance failed: {r}")))?;
        return Ok((entry, instance, None));
    };
    layer_log::find_layer(&entry)
        .map_err(|why| RuntimeError::NoVulkan(format!("validation was asked for, but {why}")))?;
    let layers = [layer_log::LAYER_NAME.as_ptr()];
    let extensions = [ash::ext::debug_utils::NAME.as_ptr()];
    let mut messenger_info = layer_log::messenger_info(log);
    let info = vk::InstanceCreateInfo::default()
        .application_info(&app)
        .enabled_layer_names(&layers)
        .enabled_extension_names(&extensions)
        .push_next(&mut messenger_info);
    // SAFETY: the create info and its chain live until the call returns; the messenger's user
    // data is `log`, which the returned `Messenger` keeps alive as long as the instance.
    let instance = unsafe { entry.create_instance(&info, None) }.map_err(|r| {
        RuntimeError::NoVulkan(format!("vkCreateInstance with VK_LAYER_KHRONOS_validation failed: {r}"))
    })?;
    let utils = ash::ext::debug_utils::Instance::new(&entry, &instance);
    let standing = layer_log::messenger_info(log);
    // SAFETY: a valid instance with VK_EXT_debug_utils enabled.
    match unsafe { utils.create_debug_utils_messenger(&standing, None) } {
        Ok(handle) => Ok((entry, instance, Some(Messenger { utils, handle, log: log.clone() }))),
        Err(r) => {
            // SAFETY: nothing else was created from the instance.
            unsafe { instance.destroy_instance(None) };
            Err(RuntimeError::Vulkan { call: "vkCreateDebugUtilsMessengerEXT", result: r })
        }
    }
}

static DEVICE_INDEX: std::sync::Mutex<Option<usize>> = std::sync::Mutex::new(None);

/// Make every context and probe of this process use physical device `index` (in
/// `vkEnumeratePhysicalDevices` order, as `dgcc probe --device N` counts), or go back to the
/// default choice with `None`. Wins over `DGCC_DEVICE`. An index past the list is an error
/// (`NoDevice`) that lists the devices, at the next context or probe.
pub fn select_device(index: Option<usize>) {
    *DEVICE_INDEX.lock().unwrap_or_else(|e| e.into_inner()) = index;
}

/// The device chosen with [`select_device`], if any.
pub fn selected_device() -> Option<usize> {
    *DEVICE_INDEX.lock().unwrap_or_else(|e| e.into_inner())
}

/// Pick the physical device: the index of [`select_device`], else `DGCC_DEVICE` by name, else the first Vulkan 1.3 device, preferring
/// one with the extension when `want_dgc`.
pub(crate) fn pick_physical(instance: &ash::Instance, want_dgc: bool) -> Result<vk::PhysicalDevice> {
    // SAFETY: a valid instance.
    let devices = unsafe { instance.enumerate_physical_devices() }
        .map_err(|r| RuntimeError::NoVulkan(format!("vkEnumeratePhysicalDevices failed: {r}")))?;
    let listed: Vec<Listed> = devices
        .iter()
        .map(|&pd| {
            // SAFETY: pd comes from this instance.
            let props = unsafe { instance.get_physical_device_properties(pd) };
            // SAFETY: pd comes from this instance.
            let has_dgc = unsafe { device_extensions(instance, pd) }.iter().any(|e| e.as_c_str() == ext_dgc::NAME);
            Listed {
                name: device_name(&props),
                version: (vk::api_version_major(props.api_version), vk::api_version_minor(props.api_version)),
                has_dgc,
            }
        })
        .collect();
    let wanted_name = std::env::var("DGCC_DEVICE").ok();
    choose_device(&listed, selected_device(), wanted_name.as_deref(), want_dgc).map(|i| devices[i])
}

/// What the choice of a physical device looks at, one per device in the loader's order.
#[derive(Clone, Debug)]
struct Listed {
    name: String,
    version: (u32, u32),
    has_dgc: bool,
}

/// The choice [`pick_physical`] makes, apart from the driver so that every way it can refuse is
/// tested: the index of the chosen device in `devices`.
fn choose_device(
    devices: &[Listed],
    selected: Option<usize>,
    wanted_name: Option<&str>,
    want_dgc: bool,
) -> Result<usize> {
    if devices.is_empty() {
        return Err(RuntimeError::NoDevice("the Vulkan loader found no physical device".into()));
    }
    let described = |d: &Listed| format!("{} (Vulkan {}.{})", d.name, d.version.0, d.version.1);
    if let Some(index) = selected {
        let Some(device) = devices.get(index) else {
            let list: Vec<String> = devices.iter().enumerate().map(|(i, d)| format!("{i}: {}", described(d))).collect();
            return Err(RuntimeError::NoDevice(format!(
                "--device {index} is past the {} device(s) the Vulkan loader lists: {}",
                devices.len(),
                list.join("; ")
            )));
        };
        // Contexts and probes chain Vulkan 1.3's structs (subgroup size control, the 1.3
        // features): a device below 1.3 cannot answer them.
        if device.version < (1, 3) {
            return Err(RuntimeError::NoDevice(format!(
                "--device {index} is {}, and dgcc needs a Vulkan 1.3 device",
                described(device)
            )));
        }
        return Ok(index);
    }
    let candidates: Vec<usize> = (0..devices.len())
        .filter(|&i| wanted_name.is_none_or(|w| devices[i].name.contains(w)))
        .filter(|&i| devices[i].version >= (1, 3))
        .collect();
    let with_dgc = candidates.iter().copied().find(|&i| devices[i].has_dgc);
    let pick = if want_dgc { with_dgc.or(candidates.first().copied()) } else { candidates.first().copied() };
    pick.ok_or_else(|| match wanted_name {
        Some(w) => RuntimeError::NoDevice(format!("no Vulkan 1.3 device whose name contains `{w}` (DGCC_DEVICE)")),
        None => RuntimeError::NoDevice("no Vulkan 1.3 device".into()),
    })
}

impl GpuContext {
    pub fn new(options: &ContextOptions) -> Result<GpuContext> {
        let (entry, instance, mut messenger) = create_instance_with(options.validation.as_ref())?;
        match Self::with_instance(entry.clone(), instance.clone(), options, &mut messenger) {
            Ok(ctx) => {
                if options.warm_up {
                    // On failure `ctx` drops: it waits for idle and destroys what it made.
                    ctx.warm_up()?;
                }
                Ok(ctx)
            }
            Err(e) => {
                // SAFETY: nothing else was created from the instance; `entry`, the loaded
                // library these entry points live in, is still held here (the context took a
                // clone, dropped with it on this path).
                let _lifecycle = loader::lifecycle();
                unsafe {
                    if let Some(m) = &messenger {
                        m.utils.destroy_debug_utils_messenger(m.handle, None);
                    }
                    instance.destroy_instance(None);
                }
                Err(e)
            }
        }
    }

    /// Bind the warm-up pipeline in one submission (see `warm_up.rs`).
    fn warm_up(&self) -> Result<()> {
        // SAFETY: a live device with dynamicRendering (required in `with_instance`).
        let mut w = unsafe { WarmUp::new(&self.owner.device)? };
        let result = self.one_shot(|cmd| {
            // SAFETY: `cmd` records on this device; `one_shot` waits for the submission.
            unsafe { w.record(&self.owner.device, cmd) };
            Ok(())
        });
        // SAFETY: the submission finished (or never happened).
        unsafe { w.destroy(&self.owner.device) };
        result
    }

    /// The validation log, when this context runs under the layer.
    pub fn layer_log(&self) -> Option<&Arc<LayerLog>> {
        self.owner.messenger.as_ref().map(|m| &m.log)
    }

    /// The device of `instance`, and the context that owns both. `messenger` is taken only when
    /// the context is made; on an error the caller still holds it (and the instance) to destroy.
    fn with_instance(
        entry: ash::Entry,
        instance: ash::Instance,
        options: &ContextOptions,
        messenger: &mut Option<Messenger>,
    ) -> Result<GpuContext> {
        let physical = pick_physical(&instance, options.enable_dgc || options.require_dgc)?;
        // SAFETY: `physical` belongs to `instance`.
        let properties = unsafe { instance.get_physical_device_properties(physical) };
        // SAFETY: as above.
        let memory = unsafe { instance.get_physical_device_memory_properties(physical) };
        let device_name = device_name(&properties);
        // SAFETY: `physical` belongs to `instance`.
        let extensions = unsafe { device_extensions(&instance, physical) };
        let has = |name: &CStr| extensions.iter().any(|e| e.as_c_str() == name);
        let has_dgc_ext = has(ext_dgc::NAME) && has(ash::khr::maintenance5::NAME);
        let has_mesh_ext = has(ash::ext::mesh_shader::NAME);
        let has_object_ext = has(ash::ext::shader_object::NAME);
        let has_statistics_ext = options.kernel_statistics && has(ash::khr::pipeline_executable_properties::NAME);

        // Query what the device supports.
        let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut f13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut m5 = vk::PhysicalDeviceMaintenance5FeaturesKHR::default();
        let mut dgc = ext_dgc::PhysicalDeviceDeviceGeneratedCommandsFeaturesEXT::default();
        let mut mesh = vk::PhysicalDeviceMeshShaderFeaturesEXT::default();
        let mut object = vk::PhysicalDeviceShaderObjectFeaturesEXT::default();
        let mut statistics = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut f11).push_next(&mut f12).push_next(&mut f13);
        if has_dgc_ext {
            f2 = f2.push_next(&mut m5).push_next(&mut dgc);
        }
        if has_mesh_ext {
            f2 = f2.push_next(&mut mesh);
        }
        if has_object_ext {
            f2 = f2.push_next(&mut object);
        }
        if has_statistics_ext {
            f2 = f2.push_next(&mut statistics);
        }
        // SAFETY: a valid feature chain of structures this device knows.
        unsafe { instance.get_physical_device_features2(physical, &mut f2) };
        let base = f2.features;
        let (f11, f12, f13, m5, dgc, mesh, object, statistics) = (f11, f12, f13, m5, dgc, mesh, object, statistics);

        let dgc_available = has_dgc_ext && dgc.device_generated_commands == vk::TRUE && m5.maintenance5 == vk::TRUE;
        if options.require_dgc && !dgc_available {
            return Err(RuntimeError::MissingFeature {
                device: device_name,
                feature: "VK_EXT_device_generated_commands (deviceGeneratedCommands)".into(),
                needed_for: "device-generated commands (try --mode mdi or --mode cpu)".into(),
            });
        }
        let use_dgc = dgc_available && (options.enable_dgc || options.require_dgc);
        if f12.buffer_device_address != vk::TRUE
            || f13.synchronization2 != vk::TRUE
            || f13.dynamic_rendering != vk::TRUE
        {
            return Err(RuntimeError::MissingFeature {
                device: device_name,
                feature: "bufferDeviceAddress, synchronization2 and dynamicRendering".into(),
                needed_for: "the runtime".into(),
            });
        }
        let on = |b: vk::Bool32| b == vk::TRUE;
        let caps = Capabilities {
            dgc: use_dgc,
            dgc_dynamic_layout: use_dgc && on(dgc.dynamic_generated_pipeline_layout),
            draw_indirect_count: on(f12.draw_indirect_count),
            multi_draw_indirect: on(base.multi_draw_indirect),
            shader_draw_parameters: on(f11.shader_draw_parameters),
            draw_indirect_first_instance: options.draw_indirect_first_instance && on(base.draw_indirect_first_instance),
            subgroup_size_control: on(f13.subgroup_size_control),
            compute_full_subgroups: on(f13.compute_full_subgroups),
            scalar_block_layout: on(f12.scalar_block_layout),
            shader_int64: on(base.shader_int64),
            timestamps: properties.limits.timestamp_compute_and_graphics == vk::TRUE,
            mesh_shader: has_mesh_ext && on(mesh.mesh_shader),
            task_shader: has_mesh_ext && on(mesh.task_shader),
            fragment_stores_and_atomics: on(base.fragment_stores_and_atomics),
            geometry_shader: on(base.geometry_shader),
            tessellation_shader: on(base.tessellation_shader),
            shader_object: options.shader_object && has_object_ext && on(object.shader_object),
            kernel_statistics: has_statistics_ext && on(statistics.pipeline_executable_info),
        };

        // Enable exactly what the runtime uses and the device has.
        let en = |b: bool| if b { vk::TRUE } else { vk::FALSE };
        let base = vk::PhysicalDeviceFeatures {
            multi_draw_indirect: en(caps.multi_draw_indirect),
            draw_indirect_first_instance: en(caps.draw_indirect_first_instance),
            shader_int64: en(caps.shader_int64),
            fragment_stores_and_atomics: en(caps.fragment_stores_and_atomics),
            geometry_shader: en(caps.geometry_shader),
            tessellation_shader: en(caps.tessellation_shader),
            ..Default::default()
        };
        let mut e11 = vk::PhysicalDeviceVulkan11Features::default().shader_draw_parameters(caps.shader_draw_parameters);
        let mut e12 = vk::PhysicalDeviceVulkan12Features::default()
            .buffer_device_address(true)
            .draw_indirect_count(caps.draw_indirect_count)
            .scalar_block_layout(caps.scalar_block_layout)
            .host_query_reset(on(f12.host_query_reset));
        let mut e13 = vk::PhysicalDeviceVulkan13Features::default()
            .synchronization2(true)
            .dynamic_rendering(true)
            .maintenance4(on(f13.maintenance4))
            .subgroup_size_control(caps.subgroup_size_control)
            .compute_full_subgroups(caps.compute_full_subgroups);
        let mut e_m5 = vk::PhysicalDeviceMaintenance5FeaturesKHR::default().maintenance5(true);
        let mut e_dgc = ext_dgc::PhysicalDeviceDeviceGeneratedCommandsFeaturesEXT::default()
            .device_generated_commands(true)
            .dynamic_generated_pipeline_layout(caps.dgc_dynamic_layout);
        let use_mesh = caps.mesh_shader || caps.task_shader;
        let mut e_object = vk::PhysicalDeviceShaderObjectFeaturesEXT::default().shader_object(true);
        let mut e_mesh = vk::PhysicalDeviceMeshShaderFeaturesEXT::default()
            .mesh_shader(caps.mesh_shader)
            .task_shader(caps.task_shader);
        let mut e_statistics =
            vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default().pipeline_executable_info(true);

        // SAFETY: `physical` belongs to `instance`.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let queue_family = families
            .iter()
            .position(|q| q.queue_flags.contains(vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE))
            .ok_or_else(|| RuntimeError::NoDevice(format!("`{device_name}` has no graphics+compute queue")))?
            as u32;
        let caps = Capabilities {
            timestamps: caps.timestamps && families[queue_family as usize].timestamp_valid_bits > 0,
            ..caps
        };
        let priorities = [1.0f32];
        let queue_info =
            [vk::DeviceQueueCreateInfo::default().queue_family_index(queue_family).queue_priorities(&priorities)];
        let mut ext_names = vec![];
        if use_dgc {
            ext_names.push(ash::khr::maintenance5::NAME.as_ptr());
            ext_names.push(ext_dgc::NAME.as_ptr());
        }
        if use_mesh {
            ext_names.push(ash::ext::mesh_shader::NAME.as_ptr());
        }
        if caps.shader_object {
            ext_names.push(ash::ext::shader_object::NAME.as_ptr());
        }
        if caps.kernel_statistics {
            ext_names.push(ash::khr::pipeline_executable_properties::NAME.as_ptr());
        }
        let mut info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue_info)
            .enabled_extension_names(&ext_names)
            .enabled_features(&base)
            .push_next(&mut e11)
            .push_next(&mut e12)
            .push_next(&mut e13);
        if use_dgc {
            info = info.push_next(&mut e_m5).push_next(&mut e_dgc);
        }
        if use_mesh {
            info = info.push_next(&mut e_mesh);
        }
        if caps.shader_object {
            info = info.push_next(&mut e_object);
        }
        if caps.kernel_statistics {
            info = info.push_next(&mut e_statistics);
        }
        let device = {
            let _lifecycle = loader::lifecycle();
            // SAFETY: the chain holds only features the device reported.
            unsafe { instance.create_device(physical, &info, None) }.map_err(RuntimeError::vk("vkCreateDevice"))?
        };
        let dgc = if use_dgc {
            match ext_dgc::Device::new(&instance, &device) {
                Ok(d) => Some(d),
                Err(e) => {
                    let _lifecycle = loader::lifecycle();
                    // SAFETY: the device is idle and owns nothing yet.
                    unsafe { device.destroy_device(None) };
                    return Err(RuntimeError::MissingFeature {
                        device: device_name,
                        feature: e.to_string(),
                        needed_for: "device-generated commands".into(),
                    });
                }
            }
        } else {
            None
        };
        let shader_object = caps.shader_object.then(|| ash::ext::shader_object::Device::new(&instance, &device));
        let executable_properties =
            caps.kernel_statistics.then(|| ash::khr::pipeline_executable_properties::Device::new(&instance, &device));
        // SAFETY: family and index 0 were requested above.
        let queue = unsafe { device.get_device_queue(queue_family, 0) };
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(queue_family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid device and create info.
        let pool = match unsafe { device.create_command_pool(&pool_info, None) } {
            Ok(p) => p,
            Err(r) => {
                let _lifecycle = loader::lifecycle();
                // SAFETY: the device is idle and owns nothing yet.
                unsafe { device.destroy_device(None) };
                return Err(RuntimeError::Vulkan { call: "vkCreateCommandPool", result: r });
            }
        };
        // SAFETY: `physical` was picked from `instance` as a Vulkan 1.3 device.
        let max_buffer_size = unsafe { super::probe::max_buffer_size(&instance, physical) };
        Ok(GpuContext {
            owner: Arc::new(DeviceOwner { entry, instance, device, messenger: messenger.take() }),
            physical,
            max_buffer_size,
            queue,
            queue_family,
            pool,
            dgc,
            shader_object,
            executable_properties,
            caps,
            properties,
            memory,
            device_name,
            not_shared: std::marker::PhantomData,
        })
    }

    /// Allocate a primary command buffer, record with `f`, submit, and wait. What `f` records
    /// (through unsafe calls) is its own contract; the buffer is begun, ended, submitted and
    /// freed here.
    pub fn one_shot<T>(&self, f: impl FnOnce(vk::CommandBuffer) -> Result<T>) -> Result<T> {
        let alloc = vk::CommandBufferAllocateInfo::default().command_pool(self.pool).command_buffer_count(1);
        // SAFETY: the pool belongs to this device; the buffer is freed before returning.
        let cmd = unsafe { self.owner.device.allocate_command_buffers(&alloc) }
            .map_err(RuntimeError::vk("vkAllocateCommandBuffers"))?[0];
        let result = (|| {
            let begin = vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            // SAFETY: a fresh command buffer of this device's pool.
            unsafe { self.owner.device.begin_command_buffer(cmd, &begin) }
                .map_err(RuntimeError::vk("vkBeginCommandBuffer"))?;
            let value = f(cmd)?;
            // SAFETY: recording since `begin` above.
            unsafe { self.owner.device.end_command_buffer(cmd) }.map_err(RuntimeError::vk("vkEndCommandBuffer"))?;
            // SAFETY: ended above; the objects its commands name are `f`'s contract.
            unsafe { self.submit_and_wait(cmd) }?;
            Ok(value)
        })();
        // SAFETY: the submission finished (or never happened).
        unsafe { self.owner.device.free_command_buffers(self.pool, &[cmd]) };
        result
    }

    /// Submit one command buffer and wait for the queue to finish it.
    ///
    /// # Safety
    /// `cmd` is a command buffer of this context's device in the executable state (recorded and
    /// ended), not pending in another submission, and every object its commands use is alive;
    /// the queue is not used by another thread meanwhile.
    pub unsafe fn submit_and_wait(&self, cmd: vk::CommandBuffer) -> Result<()> {
        let cmds = [cmd];
        let submit = vk::SubmitInfo::default().command_buffers(&cmds);
        // SAFETY: fence and queue belong to this device; `cmd` is the caller's contract; we wait
        // before destroying the fence.
        unsafe {
            let fence = self
                .owner
                .device
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .map_err(RuntimeError::vk("vkCreateFence"))?;
            let r = self
                .owner
                .device
                .queue_submit(self.queue, &[submit], fence)
                .map_err(RuntimeError::vk("vkQueueSubmit"))
                .and_then(|_| {
                    self.owner
                        .device
                        .wait_for_fences(&[fence], true, u64::MAX)
                        .map_err(RuntimeError::vk("vkWaitForFences"))
                });
            self.owner.device.destroy_fence(fence, None);
            r
        }
    }

    /// The Vulkan loader the instance was created from.
    pub fn entry(&self) -> &ash::Entry {
        &self.owner.entry
    }

    /// The instance (Vulkan 1.3) the context owns.
    pub fn instance(&self) -> &ash::Instance {
        &self.owner.instance
    }

    /// The physical device the device was created from.
    pub fn physical(&self) -> vk::PhysicalDevice {
        self.physical
    }

    /// The logical device the context owns. It is destroyed once the context and every buffer
    /// or `DgcDevice` that shares it ([`Allocator::lifetime`](super::memory::Allocator::lifetime))
    /// have dropped.
    pub fn device(&self) -> &ash::Device {
        &self.owner.device
    }

    /// The context's one queue (graphics and compute). Submitting to it needs external
    /// synchronization: the context is `!Sync` for that reason.
    pub fn queue(&self) -> vk::Queue {
        self.queue
    }

    /// The family of [`queue`](Self::queue).
    pub fn queue_family(&self) -> u32 {
        self.queue_family
    }

    /// The command pool `one_shot` allocates from (resettable command buffers, of
    /// [`queue_family`](Self::queue_family)).
    pub fn pool(&self) -> vk::CommandPool {
        self.pool
    }

    /// `VK_EXT_device_generated_commands`' entry points, when the extension is enabled
    /// (`caps().dgc`).
    pub fn dgc(&self) -> Option<&ext_dgc::Device> {
        self.dgc.as_ref()
    }

    /// `VK_EXT_shader_object`'s entry points, when it is enabled (`caps().shader_object`).
    pub fn shader_object(&self) -> Option<&ash::ext::shader_object::Device> {
        self.shader_object.as_ref()
    }

    /// `VK_KHR_pipeline_executable_properties`' entry points, when it is enabled
    /// (`caps().kernel_statistics`).
    pub fn executable_properties(&self) -> Option<&ash::khr::pipeline_executable_properties::Device> {
        self.executable_properties.as_ref()
    }

    /// The optional features that were enabled at device creation.
    pub fn caps(&self) -> &Capabilities {
        &self.caps
    }

    /// The physical device's properties (limits, timestamp period, driver version).
    pub fn properties(&self) -> &vk::PhysicalDeviceProperties {
        &self.properties
    }

    /// The physical device's memory types and heaps.
    pub fn memory(&self) -> &vk::PhysicalDeviceMemoryProperties {
        &self.memory
    }

    /// The device's name, as the driver reports it.
    pub fn device_name(&self) -> &str {
        &self.device_name
    }

    /// Nanoseconds per timestamp tick.
    pub fn timestamp_period(&self) -> f64 {
        self.properties.limits.timestamp_period as f64
    }
}

// SAFETY: `memory` was read from `physical`, the device's physical device; the device lives
// until the last holder of `owner` drops, and every buffer holds one (`lifetime`).
unsafe impl super::memory::Allocator for GpuContext {
    fn device(&self) -> &ash::Device {
        &self.owner.device
    }
    fn memory_properties(&self) -> &vk::PhysicalDeviceMemoryProperties {
        &self.memory
    }
    fn limits(&self) -> Option<&vk::PhysicalDeviceLimits> {
        Some(&self.properties.limits)
    }
    fn lifetime(&self) -> Option<super::memory::DeviceLifetime> {
        Some(self.owner.clone())
    }
    fn image_format_properties(
        &self,
        format: vk::Format,
        usage: vk::ImageUsageFlags,
    ) -> Option<std::result::Result<vk::ImageFormatProperties, vk::Result>> {
        // SAFETY: `physical` was enumerated from the context's instance, alive with `owner`.
        Some(unsafe { super::probe::image_format_properties(&self.owner.instance, self.physical, format, usage) })
    }
    fn max_buffer_size(&self) -> Option<u64> {
        Some(self.max_buffer_size)
    }
}

impl Drop for GpuContext {
    fn drop(&mut self) {
        // SAFETY: the pool was created by this context; waiting for idle first, so none of its
        // command buffers is pending. The device goes with the last holder of `owner`.
        unsafe {
            let _ = self.owner.device.device_wait_idle();
            self.owner.device.destroy_command_pool(self.pool, None);
        }
    }
}

/// Probe the device a headless context would pick ([`select_device`] by index, `DGCC_DEVICE`
/// by name). (The probe itself,
/// `probe::probe_physical`, needs no headless context.)
pub fn probe() -> Result<Probe> {
    let (_entry, instance) = create_instance()?;
    // SAFETY: `pd` was enumerated from `instance`, which is alive until after the probe.
    let result = pick_physical(&instance, true).map(|pd| unsafe { probe_physical(&instance, pd) });
    let _lifecycle = loader::lifecycle();
    // SAFETY: nothing else was created from the instance.
    unsafe { instance.destroy_instance(None) };
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A context can move to another thread but not be shared between threads: sharing it would
    /// let two threads use its command pool and queue through `one_shot` at once. (If it were
    /// `Sync`, both impls below would apply and `shared` would not compile: the inference of
    /// `_` would be ambiguous.)
    #[test]
    fn a_context_is_send_and_not_sync() {
        fn send<T: Send>() {}
        send::<GpuContext>();
        trait AmbiguousIfSync<A> {
            fn check() {}
        }
        impl<T: ?Sized> AmbiguousIfSync<()> for T {}
        impl<T: ?Sized + Sync> AmbiguousIfSync<u8> for T {}
        let shared: fn() = <GpuContext as AmbiguousIfSync<_>>::check;
        shared();
    }

    fn device(name: &str, version: (u32, u32), has_dgc: bool) -> Listed {
        Listed { name: name.into(), version, has_dgc }
    }

    fn three() -> Vec<Listed> {
        vec![
            device("llvmpipe (LLVM 15.0.6, 256 bits)", (1, 4), false),
            device("Old GPU", (1, 2), true),
            device("NVIDIA H200", (1, 4), true),
        ]
    }

    fn refusal(r: Result<usize>) -> String {
        match r {
            Err(RuntimeError::NoDevice(why)) => why,
            other => panic!("expected NoDevice, got {other:?}"),
        }
    }

    #[test]
    fn an_index_picks_that_device_whatever_it_lacks() {
        assert_eq!(choose_device(&three(), Some(0), Some("H200"), true).unwrap(), 0);
        assert_eq!(choose_device(&three(), Some(2), None, false).unwrap(), 2);
    }

    #[test]
    fn an_index_of_a_device_below_vulkan_1_3_is_refused_with_its_name_and_version() {
        let why = refusal(choose_device(&three(), Some(1), None, true));
        assert_eq!(why, "--device 1 is Old GPU (Vulkan 1.2), and dgcc needs a Vulkan 1.3 device");
    }

    #[test]
    fn an_index_past_the_list_is_refused_with_the_list() {
        let why = refusal(choose_device(&three(), Some(3), None, false));
        assert!(why.starts_with("--device 3 is past the 3 device(s)"), "{why}");
        assert!(why.ends_with("0: llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan 1.4); 1: Old GPU (Vulkan 1.2); 2: NVIDIA H200 (Vulkan 1.4)"), "{why}");
    }

    #[test]
    fn without_an_index_the_first_1_3_device_wins_and_dgc_is_preferred_when_wanted() {
        assert_eq!(choose_device(&three(), None, None, false).unwrap(), 0);
        // The 1.2 device has the extension but is passed over.
        assert_eq!(choose_device(&three(), None, None, true).unwrap(), 2);
        let no_dgc = [device("a", (1, 3), false), device("b", (1, 3), false)];
        assert_eq!(choose_device(&no_dgc, None, None, true).unwrap(), 0, "without the extension anywhere, the first");
    }

    #[test]
    fn a_name_filters_and_names_itself_when_nothing_matches() {
        assert_eq!(choose_device(&three(), None, Some("llvmpipe"), true).unwrap(), 0);
        let why = refusal(choose_device(&three(), None, Some("Old"), false));
        assert_eq!(why, "no Vulkan 1.3 device whose name contains `Old` (DGCC_DEVICE)");
        assert_eq!(refusal(choose_device(&three()[1..2], None, None, false)), "no Vulkan 1.3 device");
        assert_eq!(refusal(choose_device(&[], Some(0), None, false)), "the Vulkan loader found no physical device");
    }
}
