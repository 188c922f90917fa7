//! Where and when a benchmark ran: the device, its driver, the date.
//!
//! Why the driver's own strings: the same GPU gives different numbers under different drivers,
//! so a result without `driverName`/`driverInfo` (Vulkan 1.2's `VkPhysicalDeviceDriverProperties`)
//! cannot be reproduced. The date is UTC in RFC 3339, computed here from the system clock so
//! the crate needs no date library.

use ash::vk;
use dgcc::runtime::GpuContext;
use serde::Serialize;
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DeviceInfo {
    pub name: String,
    pub vendor_id: u32,
    pub device_id: u32,
    pub device_type: String,
    pub api_version: String,
    pub driver_name: String,
    pub driver_info: String,
    /// `driverVersion` as the driver encodes it (vendor-specific).
    pub driver_version_raw: u32,
    pub timestamp_period_ns: f64,
    /// Bytes of the largest device-local heap.
    pub device_local_bytes: u64,
}

impl DeviceInfo {
    pub fn of(ctx: &GpuContext) -> DeviceInfo {
        let mut driver = vk::PhysicalDeviceDriverProperties::default();
        let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut driver);
        // SAFETY: `physical` belongs to `instance`; the chain holds one Vulkan 1.2 struct.
        unsafe { ctx.instance().get_physical_device_properties2(ctx.physical(), &mut props2) };
        let p = props2.properties;
        let text = |r: std::result::Result<&std::ffi::CStr, _>| {
            r.map(|s: &std::ffi::CStr| s.to_string_lossy().into_owned()).unwrap_or_default()
        };
        let heaps = &ctx.memory().memory_heaps[..ctx.memory().memory_heap_count as usize];
        DeviceInfo {
            name: ctx.device_name().to_owned(),
            vendor_id: p.vendor_id,
            device_id: p.device_id,
            device_type: format!("{:?}", p.device_type),
            api_version: format!(
                "{}.{}.{}",
                vk::api_version_major(p.api_version),
                vk::api_version_minor(p.api_version),
                vk::api_version_patch(p.api_version)
            ),
            driver_name: text(driver.driver_name_as_c_str()),
            driver_info: text(driver.driver_info_as_c_str()),
            driver_version_raw: p.driver_version,
            timestamp_period_ns: ctx.timestamp_period(),
            device_local_bytes: heaps
                .iter()
                .filter(|h| h.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL))
                .map(|h| h.size)
                .max()
                .unwrap_or(0),
        }
    }

    /// "name, driver driver_name driver_info", for headings.
    pub fn label(&self) -> String {
        let driver = [self.driver_name.as_str(), self.driver_info.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        if driver.is_empty() {
            self.name.clone()
        } else {
            format!("{}, driver {driver}", self.name)
        }
    }
}

/// Now, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    utc(secs)
}

/// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian; Hinnant's days→civil).
pub fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants_format_as_rfc3339() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_709_251_199), "2024-02-29T23:59:59Z");
        assert_eq!(utc(4_102_444_800), "2100-01-01T00:00:00Z");
    }

    #[test]
    fn now_is_after_this_code_was_written() {
        assert!(utc_now().as_str() > "2025-01-01");
    }

    #[test]
    fn the_label_names_the_driver_when_known() {
        let mut d = DeviceInfo { name: "GPU".into(), ..Default::default() };
        assert_eq!(d.label(), "GPU");
        d.driver_name = "NVIDIA".into();
        d.driver_info = "570.1".into();
        assert_eq!(d.label(), "GPU, driver NVIDIA 570.1");
    }
}
