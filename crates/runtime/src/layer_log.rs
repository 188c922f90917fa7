//! What `VK_LAYER_KHRONOS_validation` said about the runtime's own Vulkan calls.
//!
//! Why the runtime listens to the layer itself: a test or an engine that wants "zero validation
//! errors" needs a number it can assert, not text scrolling past on stdout. When validation is
//! on (`ContextOptions::validation`, or `DGCC_VALIDATION=1` through `ContextOptions::default`),
//! the headless context enables the layer, installs a `VK_EXT_debug_utils` messenger and counts
//! what arrives here (the messenger is the headless context's, so it needs the `headless`
//! feature; the log type itself is always there).
//!
//! Why the log belongs to the caller (an `Arc` handed in through the options) and not to the
//! context: the layer reports leaks while the device and instance are being destroyed
//! (`VUID-vkDestroyDevice-device-05137`), i.e. inside `GpuContext`'s `Drop`. A log that outlives
//! the context still holds those messages afterwards, so "nothing leaked" is checkable too.
//!
//! The messenger never changes what the layer does with a call (it answers `VK_FALSE`). It does
//! change where the layer reports: once a messenger is installed the layer stops printing to
//! stdout, so `.ci/with-validation.sh`, which reads stdout, only sees the errors of programs
//! without one; the rest count theirs here (and in `process_errors`, which `dgcc run` and
//! `dgcc bench` turn into a failing exit).

use ash::vk;
#[cfg(any(feature = "headless", test))]
use std::ffi::c_void;
use std::ffi::CStr;
use std::fmt;
use std::sync::{Arc, Mutex};

/// The layer that validation enables.
pub const LAYER_NAME: &CStr = c"VK_LAYER_KHRONOS_validation";
/// `VK_EXT_device_generated_commands` arrived in the headers and the layer with 1.3.296; an older
/// layer reports false "unknown VkStructureType" errors for it, so it does not count as present.
pub const FIRST_LAYER_WITH_DGC: u32 = vk::make_api_version(0, 1, 3, 296);
/// The id the Vulkan loader gives its own messages (its warning that `VK_INSTANCE_LAYERS`
/// added a layer is not a validation result).
const LOADER_ID: &str = "Loader Message";

/// How bad a message is. Info and verbose messages are not captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LayerSeverity {
    Warning,
    Error,
}

/// One message the layer sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerMessage {
    pub severity: LayerSeverity,
    /// The message id: a VUID (`VUID-…`), `UNASSIGNED-…`, or empty.
    pub id: String,
    pub text: String,
}

impl LayerMessage {
    /// Whether the Vulkan loader sent it rather than the layer (a layer that failed to load).
    pub fn is_from_loader(&self) -> bool {
        self.id == LOADER_ID
    }
}

impl fmt::Display for LayerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            LayerSeverity::Warning => "warning",
            LayerSeverity::Error => "error",
        };
        write!(f, "[{sev}] {}: {}", if self.id.is_empty() { "(no id)" } else { &self.id }, self.text)
    }
}

/// The validation errors of every log in this process: how many, and the first
/// [`PROCESS_ERRORS_KEPT`] of them. A program that runs Vulkan through code that makes its own
/// context (the CLI's `dgcc run` and `dgcc bench`) reads them here, because the layer stops
/// printing once a messenger is installed: without this, a run the layer complained about
/// would end with exit 0 and no word.
static PROCESS_ERRORS: Mutex<(usize, Vec<LayerMessage>)> = Mutex::new((0, Vec::new()));

/// How many of the process's validation errors [`process_errors`] keeps the text of.
pub const PROCESS_ERRORS_KEPT: usize = 32;

/// Every validation error any log of this process received so far: the count and the first
/// [`PROCESS_ERRORS_KEPT`] messages.
pub fn process_errors() -> (usize, Vec<LayerMessage>) {
    PROCESS_ERRORS.lock().map(|e| (e.0, e.1.clone())).unwrap_or_default()
}

/// Every message of one or more contexts that were given this log.
#[derive(Debug, Default)]
pub struct LayerLog {
    messages: Mutex<Vec<LayerMessage>>,
}

impl LayerLog {
    pub fn new() -> Arc<LayerLog> {
        Arc::new(LayerLog::default())
    }

    /// A fresh log when `DGCC_VALIDATION=1` (what `.ci/with-validation.sh` sets), else `None`.
    pub fn from_env() -> Option<Arc<LayerLog>> {
        std::env::var("DGCC_VALIDATION").is_ok_and(|v| v == "1").then(LayerLog::new)
    }

    pub fn messages(&self) -> Vec<LayerMessage> {
        self.messages.lock().map(|m| m.clone()).unwrap_or_default()
    }

    pub fn errors(&self) -> Vec<LayerMessage> {
        self.messages().into_iter().filter(|m| m.severity == LayerSeverity::Error).collect()
    }

    pub fn error_count(&self) -> usize {
        self.messages.lock().map(|m| m.iter().filter(|m| m.severity == LayerSeverity::Error).count()).unwrap_or(0)
    }

    /// Returns and forgets everything so far.
    pub fn take(&self) -> Vec<LayerMessage> {
        self.messages.lock().map(|mut m| std::mem::take(&mut *m)).unwrap_or_default()
    }

    /// One line per error, for an assertion message.
    pub fn describe_errors(&self) -> String {
        self.errors().iter().map(|m| format!("\n  {m}")).collect()
    }

    #[cfg(any(feature = "headless", test))]
    fn push(&self, message: LayerMessage) {
        if message.severity == LayerSeverity::Error {
            if let Ok(mut e) = PROCESS_ERRORS.lock() {
                e.0 += 1;
                if e.1.len() < PROCESS_ERRORS_KEPT {
                    e.1.push(message.clone());
                }
            }
        }
        if let Ok(mut m) = self.messages.lock() {
            m.push(message);
        }
    }
}

#[cfg(any(feature = "headless", test))]
/// Keep or drop one message; `None` for what is not a validation result.
fn classify(severity: vk::DebugUtilsMessageSeverityFlagsEXT, id: String, text: String) -> Option<LayerMessage> {
    let severity = if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR) {
        LayerSeverity::Error
    } else if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::WARNING) {
        LayerSeverity::Warning
    } else {
        return None;
    };
    if id == LOADER_ID && severity != LayerSeverity::Error {
        return None;
    }
    Some(LayerMessage { severity, id, text })
}

#[cfg(any(feature = "headless", test))]
unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    if data.is_null() || user.is_null() {
        return vk::FALSE;
    }
    // SAFETY: the layer passes callback data valid for this call; `user` is the `LayerLog` whose
    // `Arc` the owning context keeps until the instance (and so every messenger) is destroyed.
    let (data, log) = unsafe { (&*data, &*(user as *const LayerLog)) };
    let text = |p: Option<&CStr>| p.map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    // SAFETY: the strings are null or NUL-terminated (spec).
    let (id, message) = unsafe { (text(data.message_id_name_as_c_str()), text(data.message_as_c_str())) };
    if let Some(m) = classify(severity, id, message) {
        log.push(m);
    }
    // Never abort the call: the runtime's behaviour must not change under validation.
    vk::FALSE
}

#[cfg(any(feature = "headless", test))]
/// The messenger create info for `log`: warnings and errors of every type. Chain it into
/// `VkInstanceCreateInfo` to also hear about instance creation and destruction.
pub(crate) fn messenger_info(log: &Arc<LayerLog>) -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(on_message))
        .user_data(Arc::as_ptr(log).cast_mut().cast())
}

#[cfg(feature = "headless")]
/// The layer's spec version if it is installed and knows VK_EXT_device_generated_commands;
/// otherwise a sentence saying what is wrong.
pub(crate) fn find_layer(entry: &ash::Entry) -> Result<u32, String> {
    // SAFETY: plain enumeration through a loaded entry.
    let layers = unsafe { entry.enumerate_instance_layer_properties() }
        .map_err(|e| format!("vkEnumerateInstanceLayerProperties failed: {e}"))?;
    let layer = layers
        .iter()
        .find(|l| l.layer_name_as_c_str() == Ok(LAYER_NAME))
        .ok_or_else(|| "VK_LAYER_KHRONOS_validation is not installed".to_string())?;
    if layer.spec_version < FIRST_LAYER_WITH_DGC {
        let v = layer.spec_version;
        return Err(format!(
            "VK_LAYER_KHRONOS_validation {}.{}.{} predates VK_EXT_device_generated_commands (needs 1.3.296 or newer)",
            vk::api_version_major(v),
            vk::api_version_minor(v),
            vk::api_version_patch(v)
        ));
    }
    Ok(layer.spec_version)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(severity: vk::DebugUtilsMessageSeverityFlagsEXT, id: &str) -> Option<LayerMessage> {
        classify(severity, id.into(), "text".into())
    }

    #[test]
    fn loader_warnings_and_info_are_not_validation_results() {
        use vk::DebugUtilsMessageSeverityFlagsEXT as S;
        assert_eq!(message(S::WARNING, LOADER_ID), None);
        assert_eq!(message(S::INFO, "VUID-x"), None);
        assert_eq!(message(S::ERROR, LOADER_ID).map(|m| m.severity), Some(LayerSeverity::Error));
        assert_eq!(message(S::WARNING, "UNASSIGNED-x").map(|m| m.severity), Some(LayerSeverity::Warning));
    }

    #[test]
    fn the_callback_counts_errors_into_the_log_and_never_aborts_the_call() {
        let log = LayerLog::new();
        let info = messenger_info(&log);
        let callback = info.pfn_user_callback.expect("set");
        let send = |severity, id: &CStr| {
            let data =
                vk::DebugUtilsMessengerCallbackDataEXT::default().message_id_name(id).message(c"something is off");
            // SAFETY: valid callback data and the log's own pointer, as the layer would pass them.
            unsafe { callback(severity, vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION, &data, info.p_user_data) }
        };
        use vk::DebugUtilsMessageSeverityFlagsEXT as S;
        assert_eq!(send(S::ERROR, c"VUID-vkDestroyDevice-device-05137"), vk::FALSE);
        assert_eq!(send(S::WARNING, c"UNASSIGNED-BestPractices"), vk::FALSE);
        assert_eq!(send(S::WARNING, c"Loader Message"), vk::FALSE);
        assert_eq!(log.error_count(), 1);
        assert!(process_errors().0 >= 1, "the process-wide count sees every log's errors");
        assert_eq!(log.messages().len(), 2);
        assert!(log.describe_errors().contains("VUID-vkDestroyDevice-device-05137: something is off"));
        assert_eq!(log.take().len(), 2);
        assert_eq!(log.error_count(), 0);
    }
}
