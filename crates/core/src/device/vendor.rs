//! The vendor ids dgcc knows (`VkPhysicalDeviceProperties::vendorID`, `Limit::VendorId`).
//!
//! Why a module of its own: some driver problems belong to a vendor, not to a limit any rule can
//! compare (NVIDIA's execution sets of compute pipelines: N0002, and the runtime's
//! `create_execution_set` and `write_execution_set`). The check and the runtime must mean the
//! same device by "NVIDIA", so the id is written once, here, and both read it from the profile.
//! A GPU's vendorID is its PCI vendor id; a vendor without one has a Khronos `VkVendorId`
//! (above 0xFFFF, as Mesa's software drivers report).

/// NVIDIA's PCI vendor id (its proprietary driver and Mesa's NVK both report it).
pub const NVIDIA: u32 = 0x10DE;
/// AMD's PCI vendor id (ATI's, which RADV reports as `ATI_VENDOR_ID`).
pub const AMD: u32 = 0x1002;
/// Intel's PCI vendor id.
pub const INTEL: u32 = 0x8086;
/// `VK_VENDOR_ID_MESA`: Mesa's drivers without a PCI device (lavapipe).
pub const MESA: u32 = 0x10005;

/// The vendor's name, for `dgcc profiles` and messages; `None` for an id dgcc does not know.
pub fn name(id: u64) -> Option<&'static str> {
    [(NVIDIA, "NVIDIA"), (AMD, "AMD"), (INTEL, "Intel"), (MESA, "Mesa")]
        .into_iter()
        .find(|(v, _)| u64::from(*v) == id)
        .map(|(_, n)| n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Limit;

    #[test]
    fn ids_print_in_hex_with_the_vendor_when_known() {
        assert_eq!(Limit::VendorId.format(u64::from(NVIDIA)), "0x10DE (NVIDIA)");
        assert_eq!(Limit::VendorId.format(u64::from(MESA)), "0x10005 (Mesa)");
        assert_eq!(Limit::VendorId.format(0x13B5), "0x13B5");
    }
}
