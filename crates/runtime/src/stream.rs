//! Where a generated stream lives: the records' buffer and address, and the optional GPU count.
//!
//! Why a module of its own: both the executor (`execute`) and the stream validator (`validate`)
//! read a `Stream`, and the executor records the validator; with the type here neither imports
//! the other's module for it (no `execute` ↔ `validate` circle).

use ash::vk;

/// Where the records are: one buffer (for the fallback) and its address (for DGC).
#[derive(Clone, Copy, Debug)]
pub struct Stream {
    pub buffer: vk::Buffer,
    pub offset: u64,
    /// The device address of `buffer` + `offset`.
    pub address: vk::DeviceAddress,
    /// Records the buffer holds (the most that may execute).
    pub max_sequences: u32,
    /// Where the GPU wrote how many records are valid; `None` runs all `max_sequences`.
    pub count: Option<Count>,
}

/// A `u32` sequence count the GPU wrote: its buffer, offset and device address.
#[derive(Clone, Copy, Debug)]
pub struct Count {
    pub buffer: vk::Buffer,
    pub offset: u64,
    pub address: vk::DeviceAddress,
}
