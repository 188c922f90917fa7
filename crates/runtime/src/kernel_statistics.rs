//! What the driver compiled a pipeline into: `VK_KHR_pipeline_executable_properties`'
//! statistics (registers, shared memory, spills, instruction counts: whatever the driver names).
//!
//! Why the runtime reads them: a compute pass that is held to the memory system is bounded by
//! how many bytes it keeps in flight, and that is set by how many invocations fit on a core,
//! which the driver's register count decides. A kernel that reads and writes the same bytes as
//! before but got slower often just lost occupancy; timings alone cannot tell. `dgcc bench`
//! prints these beside its bandwidth table.
//!
//! The names and their meanings are the driver's, not Vulkan's: NVIDIA, AMD, Mesa's drivers and
//! lavapipe each report their own set, so they are kept as text and never interpreted here.

use super::error::{Result, RuntimeError};
use ash::vk;
use std::fmt;

/// One statistic's value, in the type the driver gave it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum StatisticValue {
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
}

impl fmt::Display for StatisticValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatisticValue::Bool(b) => write!(f, "{b}"),
            StatisticValue::Int(v) => write!(f, "{v}"),
            StatisticValue::Uint(v) => write!(f, "{v}"),
            StatisticValue::Float(v) => write!(f, "{v:.2}"),
        }
    }
}

/// One statistic of one executable: the driver's name and description, and the value.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Statistic {
    pub name: String,
    pub description: String,
    pub value: StatisticValue,
}

/// One executable of a pipeline (a compute pipeline has one; a graphics pipeline one per stage,
/// or per what the driver merged), with its statistics in the driver's order.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ExecutableStatistics {
    /// The driver's name for the executable.
    pub name: String,
    /// The subgroup size it runs with (0 where the driver does not say).
    pub subgroup_size: u32,
    pub statistics: Vec<Statistic>,
}

impl ExecutableStatistics {
    /// The value of the statistic called `name` (as the driver spells it), if reported.
    pub fn get(&self, name: &str) -> Option<StatisticValue> {
        self.statistics.iter().find(|s| s.name == name).map(|s| s.value)
    }
}

/// A driver's fixed-size string (ash's `*_as_c_str`, which never reads past the array); one
/// without its NUL is left empty.
fn text(s: std::result::Result<&std::ffi::CStr, std::ffi::FromBytesUntilNulError>) -> String {
    s.map(|c| c.to_string_lossy().trim().to_string()).unwrap_or_default()
}

/// The statistics of every executable of `pipeline`.
///
/// # Safety
/// `ext` was loaded for a live device created with `pipelineExecutableInfo` enabled, and
/// `pipeline` is a live pipeline of that device created with
/// `VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR`.
pub unsafe fn pipeline_statistics(
    ext: &ash::khr::pipeline_executable_properties::Device,
    pipeline: vk::Pipeline,
) -> Result<Vec<ExecutableStatistics>> {
    let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
    // SAFETY: the caller's contract; `info` lives across the call.
    let executables = unsafe { ext.get_pipeline_executable_properties(&info) }
        .map_err(RuntimeError::vk("vkGetPipelineExecutablePropertiesKHR"))?;
    let mut out = Vec::with_capacity(executables.len());
    for (index, executable) in executables.iter().enumerate() {
        let info = vk::PipelineExecutableInfoKHR::default().pipeline(pipeline).executable_index(index as u32);
        // SAFETY: as above; the index is one of the executables the driver listed.
        let statistics = unsafe { ext.get_pipeline_executable_statistics(&info) }
            .map_err(RuntimeError::vk("vkGetPipelineExecutableStatisticsKHR"))?;
        let statistics = statistics
            .iter()
            .filter_map(|s| {
                use vk::PipelineExecutableStatisticFormatKHR as Format;
                // SAFETY: `format` says which member of the union the driver wrote; a format
                // this ash does not know is skipped rather than read as one it does.
                let value = unsafe {
                    match s.format {
                        Format::BOOL32 => StatisticValue::Bool(s.value.b32 != 0),
                        Format::INT64 => StatisticValue::Int(s.value.i64),
                        Format::UINT64 => StatisticValue::Uint(s.value.u64),
                        Format::FLOAT64 => StatisticValue::Float(s.value.f64),
                        _ => return None,
                    }
                };
                Some(Statistic { name: text(s.name_as_c_str()), description: text(s.description_as_c_str()), value })
            })
            .collect();
        out.push(ExecutableStatistics {
            name: text(executable.name_as_c_str()),
            subgroup_size: executable.subgroup_size,
            statistics,
        });
    }
    Ok(out)
}
