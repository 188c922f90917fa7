//! What each entry of an execution set holds, so that a write NVIDIA's driver would turn into
//! a GPU hang is refused instead.
//!
//! Why: on NVIDIA's driver (580.159.04 on an H100, 2026-12-05, measured with
//! `examples/ies_probe`), a compute pipeline or compute shader object written into two entries
//! of one execution set runs only from the entry it was written to last: a sequence that
//! selects the other one never finishes, and the fence of its submission never signals, with
//! no validation-layer message. (An H200 run of 2026-12-01 passed a test that selected the
//! earlier of two entries holding one shader; the runtime keeps the rule on every NVIDIA
//! device, since one hang is enough.) The spec allows one pipeline in several entries, so
//! nothing else stops it. The runtime keeps the table of what the caller put where and refuses
//! the second entry of a pipeline or shader on such a device, naming the entry that holds it.
//! (Graphics sets are not affected: the same probe drew through them right, an entry never
//! written or a pipeline in two entries alike.) Such a device is one whose
//! profile states NVIDIA's `vendorID`, the fact `dgcc check` reads to tell an engine that
//! writes its own sets the same (N0002).
//!
//! Entries the caller never wrote are not in the table: `create_execution_set` fills those of
//! a pipeline set with the initial pipeline (the same driver segfaults recording an execute
//! through a pipeline set with an entry never written; shader-object sets were not affected),
//! and writes entry 0 last, so that the initial pipeline runs from entry 0, the only one of
//! them a stream may select.

use super::error::{Result, RuntimeError};
use ash::vk::{self, Handle};
use std::sync::Mutex;

/// The pipelines or shaders the caller put in a set's entries (as raw handles), and whether
/// the device lets one of them run from two entries.
#[derive(Debug)]
pub(crate) struct SetTable {
    /// Per entry, what the caller put there (entry 0 and up: the initial entries); `None` for
    /// an entry nobody wrote.
    entries: Mutex<Vec<Option<u64>>>,
    /// Whether a pipeline or shader in two entries runs from only one of them (NVIDIA, compute).
    one_entry_each: bool,
    /// `pipeline` or `shader`, for the error.
    what: &'static str,
}

impl SetTable {
    /// The table of a pipeline set (`initial` in entry 0).
    pub(crate) fn pipelines(initial: vk::Pipeline, max_entries: u32, one_entry_each: bool) -> SetTable {
        SetTable::new(&[initial.as_raw()], max_entries, one_entry_each, "pipeline")
    }

    /// The table of a shader-object set (`initial` in entries 0 and up).
    pub(crate) fn shaders(initial: &[vk::ShaderEXT], max_entries: u32, one_entry_each: bool) -> SetTable {
        let raw: Vec<u64> = initial.iter().map(|s| s.as_raw()).collect();
        SetTable::new(&raw, max_entries, one_entry_each, "shader")
    }

    fn new(initial: &[u64], max_entries: u32, one_entry_each: bool, what: &'static str) -> SetTable {
        let mut entries = vec![None; max_entries as usize];
        for (entry, &handle) in entries.iter_mut().zip(initial) {
            *entry = Some(handle);
        }
        SetTable { entries: Mutex::new(entries), one_entry_each, what }
    }

    /// Put `handle` (a pipeline's or shader's) in entry `index` of the table, after `write`
    /// (the Vulkan call) has run, if the device can run it from there; otherwise an error
    /// before `write` runs, naming the entry that holds it already.
    pub(crate) fn put(&self, index: u32, handle: impl Handle, write: impl FnOnce()) -> Result<()> {
        let handle = handle.as_raw();
        let what = self.what;
        // A poisoned lock only means another thread panicked between its check and its write;
        // the table is still what was written.
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if self.one_entry_each {
            if let Some(other) = other_entry_holding(&entries, index, handle) {
                return Err(RuntimeError::Invalid(format!(
                    "entry {index} of this compute execution set would hold the {what} entry {other} \
                     holds: on NVIDIA's driver a {what} in two entries runs only from the one written \
                     last, and a sequence selecting the other hangs the GPU (measured on 580.159.04); \
                     create another {what} from the same shader code for entry {index}, or write \
                     another {what} to entry {other} first"
                )));
            }
        }
        write();
        if let Some(entry) = entries.get_mut(index as usize) {
            *entry = Some(handle);
        }
        Ok(())
    }
}

/// Another entry than `index` that holds `handle`, if any.
fn other_entry_holding(entries: &[Option<u64>], index: u32, handle: u64) -> Option<u32> {
    entries.iter().enumerate().find(|&(i, e)| i as u32 != index && *e == Some(handle)).map(|(i, _)| i as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipeline(n: u64) -> vk::Pipeline {
        vk::Pipeline::from_raw(n)
    }

    #[test]
    fn a_pipeline_in_a_second_entry_is_refused_where_the_device_runs_it_from_one() {
        let table = SetTable::pipelines(pipeline(1), 4, true);
        let mut writes = 0;
        table.put(1, pipeline(2), || writes += 1).unwrap();
        // Rewriting an entry with what it holds, and a new pipeline in a placeholder, are fine.
        table.put(1, pipeline(2), || writes += 1).unwrap();
        table.put(3, pipeline(3), || writes += 1).unwrap();
        assert_eq!(writes, 3);
        for (index, held, by) in [(2, 1, 0), (2, 2, 1), (0, 3, 3)] {
            let e = table.put(index, pipeline(held), || writes += 1).unwrap_err().to_string();
            let expected =
                format!("entry {index} of this compute execution set would hold the pipeline entry {by} holds");
            assert!(e.contains(&expected), "{e}");
        }
        assert_eq!(writes, 3, "a refused write never reaches Vulkan");
        // Once entry 1 holds another pipeline, its old one may go elsewhere.
        table.put(1, pipeline(4), || writes += 1).unwrap();
        table.put(2, pipeline(2), || writes += 1).unwrap();
        assert_eq!(writes, 5);
    }

    #[test]
    fn a_shader_set_names_shaders_and_holds_its_initial_shaders() {
        let shader = vk::ShaderEXT::from_raw;
        let table = SetTable::shaders(&[shader(1), shader(2)], 4, true);
        let e = table.put(3, shader(2), || {}).unwrap_err().to_string();
        assert!(e.contains("would hold the shader entry 1 holds") && e.contains("another shader"), "{e}");
        table.put(3, shader(3), || {}).unwrap();
    }

    #[test]
    fn elsewhere_one_pipeline_may_fill_every_entry() {
        let table = SetTable::pipelines(pipeline(1), 3, false);
        for index in [1, 2, 0] {
            table.put(index, pipeline(1), || {}).unwrap();
        }
        // An index past the table (the caller checks indices) changes nothing.
        table.put(7, pipeline(1), || {}).unwrap();
    }
}
