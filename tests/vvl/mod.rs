//! A Vulkan instance and device under VK_LAYER_KHRONOS_validation, with every layer message
//! captured, for tests that assert on what the layer says.
//!
//! Why shaped this way:
//! - Whether the layer is there is an environment fact, not a test outcome. Without it the tests
//!   print a visible `SKIP` (straight to stderr, below libtest's capture, so it shows even for a
//!   passing test) — unless `DGCC_VALIDATION=1` says the layer is meant to be there
//!   (`.ci/with-validation.sh` sets it), in which case its absence is a failure.
//! - A layer too old to know VK_EXT_device_generated_commands (bookworm's 1.3.239) counts as
//!   absent: it would report false "unknown VkStructureType" errors.
//! - Messages are captured by a `VK_EXT_debug_utils` messenger, also chained into
//!   `VkInstanceCreateInfo` so instance creation itself is covered. The layer's own default
//!   printing is switched off for this instance (`VK_EXT_layer_settings`, `debug_action`), so
//!   deliberate errors stay inside the test and do not trip the wrapper's stdout check. The
//!   layer's limit on repeated messages is switched off too: every report counts.
//! - The messenger answers errors with VK_TRUE, so the layer stops the failing call before the
//!   driver sees it; tests can then assert VK_ERROR_VALIDATION_FAILED_EXT.

// Each test binary that includes this harness uses a different part of it.
#![allow(dead_code)]

pub mod differential;
pub mod ext_dgc;
pub mod full_device;

use ash::vk;
use std::ffi::{c_void, CStr};
use std::io::Write;
use std::sync::Mutex;

pub const LAYER_NAME: &CStr = c"VK_LAYER_KHRONOS_validation";
/// VK_EXT_device_generated_commands arrived in Vulkan headers (and layers) 1.3.296.
pub const FIRST_LAYER_WITH_DGC: u32 = vk::make_api_version(0, 1, 3, 296);

/// The message id the Vulkan loader gives its own debug-utils messages.
const LOADER_ID: &str = "Loader Message";

/// One message the layer sent to the messenger.
#[derive(Debug, Clone)]
pub struct Message {
    pub severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    /// The VUID or other message id (`VUID-…`, `UNASSIGNED-…`), empty if none.
    pub id_name: String,
    pub text: String,
}

/// True when validation is required (`DGCC_VALIDATION=1`): skipping becomes failing.
pub fn validation_required() -> bool {
    std::env::var("DGCC_VALIDATION").is_ok_and(|v| v == "1")
}

/// Turns a setup failure into a visible skip, or a test failure when validation is required.
pub fn or_skip<T>(test: &str, setup: Result<T, String>) -> Option<T> {
    match setup {
        Ok(value) => Some(value),
        Err(why) if validation_required() => panic!("{test}: DGCC_VALIDATION=1 but {why}"),
        Err(why) => {
            // Not eprintln!: libtest captures that for passing tests, and a skip must show.
            let _ = writeln!(
                std::io::stderr(),
                "SKIP {test}: {why} (run through .ci/with-validation.sh, or set DGCC_VALIDATION=1 to fail instead)"
            );
            None
        }
    }
}

/// Heap-pinned message sink whose address is the messenger's user data.
type Sink = Mutex<Vec<Message>>;

unsafe extern "system" fn capture(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes valid callback data for the duration of the call, and `user` is
    // the `Sink` that the owning `Validated` keeps alive until the messenger is destroyed.
    let (data, sink) = unsafe { (&*data, &*(user as *const Sink)) };
    let text = |p: Option<&CStr>| p.map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    // SAFETY: the pointers inside `data` are null or NUL-terminated strings (spec).
    let (id_name, message) = unsafe { (text(data.message_id_name_as_c_str()), text(data.message_as_c_str())) };
    // The loader's own warnings are not validation results: with VK_INSTANCE_LAYERS set (as
    // .ci/with-validation.sh does) it warns that the variable adds the layer. Its errors stay.
    if id_name == LOADER_ID && severity != vk::DebugUtilsMessageSeverityFlagsEXT::ERROR {
        return vk::FALSE;
    }
    if let Ok(mut messages) = sink.lock() {
        messages.push(Message { severity, id_name, text: message });
    }
    // VK_TRUE on an error makes the layer skip the call (it returns
    // VK_ERROR_VALIDATION_FAILED_EXT), so a deliberately invalid create info never reaches the
    // driver, whose behaviour on invalid input is undefined. The spec reserves VK_TRUE for layer
    // development; test code that drives a layer on purpose is that.
    if severity == vk::DebugUtilsMessageSeverityFlagsEXT::ERROR {
        vk::TRUE
    } else {
        vk::FALSE
    }
}

/// An instance with the validation layer and a device with VK_EXT_device_generated_commands,
/// VK_KHR_maintenance5 and bufferDeviceAddress enabled.
pub struct Validated {
    _entry: ash::Entry,
    pub instance: ash::Instance,
    debug_utils: ash::ext::debug_utils::Instance,
    messenger: vk::DebugUtilsMessengerEXT,
    pub device: ash::Device,
    pub physical: vk::PhysicalDevice,
    /// Which optional features the device was created with (`full_device`); the minimal device
    /// has none of them.
    pub features: full_device::Enabled,
    /// Layer version and device name, for the log.
    pub description: String,
    sink: Box<Sink>,
    torn_down: bool,
}

impl Validated {
    /// Returns and forgets everything the layer has said so far.
    pub fn take_messages(&self) -> Vec<Message> {
        self.sink.lock().map(|mut m| std::mem::take(&mut *m)).unwrap_or_default()
    }

    /// The minimal device: the extension, maintenance5 and bufferDeviceAddress.
    pub fn new() -> Result<Self, String> {
        Self::with_device(|instance| {
            create_device(instance).map(|(d, name, pd)| (d, name, pd, full_device::Enabled::default()))
        })
    }

    /// A device with every optional feature a layout can need that the hardware has
    /// (`full_device`), so that the layer judges layouts by the device, not by what was left off.
    pub fn with_layout_features() -> Result<Self, String> {
        Self::with_device(full_device::create)
    }

    fn with_device(
        create: impl FnOnce(
            &ash::Instance,
        ) -> Result<(ash::Device, String, vk::PhysicalDevice, full_device::Enabled), String>,
    ) -> Result<Self, String> {
        // SAFETY: loading the system Vulkan loader; no other Vulkan state exists yet.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader ({e})"))?;
        let layer_version = find_layer(&entry)?;
        let sink: Box<Sink> = Box::default();
        let severities = vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR;
        let types = vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
            | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
            | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE;
        let mut messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(severities)
            .message_type(types)
            .pfn_user_callback(Some(capture))
            .user_data((&*sink as *const Sink).cast_mut().cast());
        // Report through the messenger only; the layer's default stdout printing stays off.
        let callback_only = [c"VK_DBG_LAYER_ACTION_CALLBACK".as_ptr()];
        let mut debug_action = vk::LayerSettingEXT::default()
            .layer_name(LAYER_NAME)
            .setting_name(c"debug_action")
            .ty(vk::LayerSettingTypeEXT::STRING);
        // Not `.values()`: ash 0.38 sets valueCount to the byte length there.
        debug_action.value_count = callback_only.len() as u32;
        debug_action.p_values = callback_only.as_ptr().cast();
        // Report every message, however often: by default the layer stops repeating a message id
        // after 10 reports, and a check that then goes quiet would let invalid calls through to
        // the driver (the differential test's dry runs rely on every report).
        let no_limit = [vk::FALSE];
        let mut message_limit = vk::LayerSettingEXT::default()
            .layer_name(LAYER_NAME)
            .setting_name(c"enable_message_limit")
            .ty(vk::LayerSettingTypeEXT::BOOL32);
        message_limit.value_count = 1;
        message_limit.p_values = no_limit.as_ptr().cast();
        let settings = [debug_action, message_limit];
        let mut layer_settings = vk::LayerSettingsCreateInfoEXT::default().settings(&settings);
        let app = vk::ApplicationInfo::default().application_name(c"dgcc vvl tests").api_version(vk::API_VERSION_1_3);
        let layers = [LAYER_NAME.as_ptr()];
        let extensions = [ash::ext::debug_utils::NAME.as_ptr(), ash::ext::layer_settings::NAME.as_ptr()];
        let instance_info = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_layer_names(&layers)
            .enabled_extension_names(&extensions)
            .push_next(&mut messenger_info)
            .push_next(&mut layer_settings);
        // SAFETY: the create info and everything it points to live until the call returns.
        let instance = unsafe { entry.create_instance(&instance_info, None) }
            .map_err(|e| format!("vkCreateInstance with {LAYER_NAME:?} failed: {e}"))?;
        let debug_utils = ash::ext::debug_utils::Instance::new(&entry, &instance);
        // The standing messenger takes the same settings without the instance-creation chain.
        messenger_info.p_next = std::ptr::null();
        // SAFETY: valid instance and create info; the sink outlives the messenger (Drop order).
        let messenger = match unsafe { debug_utils.create_debug_utils_messenger(&messenger_info, None) } {
            Ok(m) => m,
            Err(e) => {
                // SAFETY: nothing was created from the instance.
                unsafe { instance.destroy_instance(None) };
                return Err(format!("vkCreateDebugUtilsMessengerEXT failed: {e}"));
            }
        };
        let device = match create(&instance) {
            Ok(device) => device,
            Err(why) => {
                // SAFETY: the messenger and instance are ours and nothing else uses them.
                unsafe {
                    debug_utils.destroy_debug_utils_messenger(messenger, None);
                    instance.destroy_instance(None);
                }
                return Err(why);
            }
        };
        let (device, device_name, physical, features) = device;
        let description =
            format!("{} {} on {device_name}", LAYER_NAME.to_string_lossy(), version_string(layer_version));
        Ok(Self {
            _entry: entry,
            instance,
            debug_utils,
            messenger,
            device,
            physical,
            features,
            description,
            sink,
            torn_down: false,
        })
    }
}

impl Validated {
    /// Tears everything down and returns every message of this instance's life, including what
    /// the layer says while destroying the device (leaked objects, for one) and the instance.
    pub fn finish(mut self) -> Vec<Message> {
        self.teardown();
        self.take_messages()
    }

    fn teardown(&mut self) {
        if self.torn_down {
            return;
        }
        self.torn_down = true;
        // SAFETY: reverse creation order; the device is idle (tests submit no work). The
        // messenger chained at instance creation keeps reporting until vkDestroyInstance ends,
        // and the sink outlives both (it is only dropped with `self`).
        unsafe {
            self.device.destroy_device(None);
            self.debug_utils.destroy_debug_utils_messenger(self.messenger, None);
            self.instance.destroy_instance(None);
        }
    }
}

impl Drop for Validated {
    fn drop(&mut self) {
        self.teardown();
    }
}

/// The layer's spec version, if it is installed and new enough to know the extension.
fn find_layer(entry: &ash::Entry) -> Result<u32, String> {
    // SAFETY: plain enumeration through a loaded entry.
    let layers = unsafe { entry.enumerate_instance_layer_properties() }
        .map_err(|e| format!("vkEnumerateInstanceLayerProperties failed: {e}"))?;
    let layer = layers
        .iter()
        .find(|l| l.layer_name_as_c_str() == Ok(LAYER_NAME))
        .ok_or_else(|| format!("{LAYER_NAME:?} is not installed"))?;
    if layer.spec_version < FIRST_LAYER_WITH_DGC {
        return Err(format!(
            "{LAYER_NAME:?} {} predates VK_EXT_device_generated_commands (needs 1.3.296)",
            version_string(layer.spec_version)
        ));
    }
    Ok(layer.spec_version)
}

fn create_device(instance: &ash::Instance) -> Result<(ash::Device, String, vk::PhysicalDevice), String> {
    // SAFETY: valid instance.
    let physicals = unsafe { instance.enumerate_physical_devices() }
        .map_err(|e| format!("vkEnumeratePhysicalDevices failed: {e}"))?;
    let wanted = [ext_dgc::EXTENSION_NAME, ash::khr::maintenance5::NAME];
    let physical = physicals
        .into_iter()
        .find(|&pd| {
            // SAFETY: `pd` came from this instance.
            let props = unsafe { instance.get_physical_device_properties(pd) };
            let exts = unsafe { instance.enumerate_device_extension_properties(pd) }.unwrap_or_default();
            props.api_version >= vk::API_VERSION_1_3
                && wanted.iter().all(|w| exts.iter().any(|e| e.extension_name_as_c_str() == Ok(*w)))
        })
        .ok_or("no Vulkan 1.3 device exposes VK_EXT_device_generated_commands and VK_KHR_maintenance5")?;
    // SAFETY: `physical` came from this instance.
    let props = unsafe { instance.get_physical_device_properties(physical) };
    let name = props.device_name_as_c_str().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();

    let mut dgc = ext_dgc::FeaturesExt::default();
    let mut maintenance5 = vk::PhysicalDeviceMaintenance5FeaturesKHR::default();
    let mut vk12 = vk::PhysicalDeviceVulkan12Features::default();
    maintenance5.p_next = (&mut dgc as *mut ext_dgc::FeaturesExt).cast();
    let mut query = vk::PhysicalDeviceFeatures2::default().push_next(&mut vk12).push_next(&mut maintenance5);
    // SAFETY: the chain is FeaturesEXT <- maintenance5 <- vk12 <- features2, all alive here.
    unsafe { instance.get_physical_device_features2(physical, &mut query) };
    if dgc.device_generated_commands != vk::TRUE
        || maintenance5.maintenance5 != vk::TRUE
        || vk12.buffer_device_address != vk::TRUE
    {
        return Err(format!("{name} lacks deviceGeneratedCommands, maintenance5 or bufferDeviceAddress"));
    }

    let mut dgc = ext_dgc::FeaturesExt { device_generated_commands: vk::TRUE, ..Default::default() };
    let mut maintenance5 = vk::PhysicalDeviceMaintenance5FeaturesKHR::default().maintenance5(true);
    maintenance5.p_next = (&mut dgc as *mut ext_dgc::FeaturesExt).cast();
    let mut vk12 = vk::PhysicalDeviceVulkan12Features::default().buffer_device_address(true);
    let priorities = [1.0];
    // SAFETY: `physical` came from this instance.
    let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
    let family = families
        .iter()
        .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
        .ok_or_else(|| format!("{name} has no compute queue"))?;
    let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family as u32).queue_priorities(&priorities)];
    let extensions = wanted.map(CStr::as_ptr);
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&extensions)
        .push_next(&mut vk12)
        .push_next(&mut maintenance5);
    // SAFETY: the create info chain (vk12 -> maintenance5 -> dgc) lives until the call returns.
    let device = unsafe { instance.create_device(physical, &info, None) }
        .map_err(|e| format!("vkCreateDevice on {name} failed: {e}"))?;
    Ok((device, name, physical))
}

pub fn version_string(v: u32) -> String {
    format!("{}.{}.{}", vk::api_version_major(v), vk::api_version_minor(v), vk::api_version_patch(v))
}
