//! What `dgcc run` reports: per frame counts and timings, the preprocess plan, and the last
//! frame's pixels.
//!
//! Why these fields: the bench work reuses them, so every pass that can be timed on its own is
//! (cull, compact, preprocess, execute), CPU recording time is separate from GPU time, and the
//! preprocess size is the driver's number for the chunk actually used. Times are `None` when
//! the device has no timestamps, never 0.

use super::{Compaction, Mode, ObjectId};
use dgcc::runtime::preprocess::ChunkPlan;
use dgcc::runtime::validate::StreamReport;
use serde::Serialize;
use std::fmt;

/// GPU time of each pass, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PassTimes {
    pub cull_ms: Option<f64>,
    pub compact_ms: Option<f64>,
    /// Explicit preprocessing only; implicit preprocessing is inside `execute_ms`.
    pub preprocess_ms: Option<f64>,
    pub execute_ms: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameReport {
    /// Objects that passed culling.
    pub visible: u32,
    /// Draws issued: sequences executed (dgc, mdi) or vkCmdDrawIndexed calls (cpu).
    pub draws: u32,
    /// Host time spent recording the frame's command buffer (cpu mode includes its culling).
    pub cpu_record_ms: f64,
    /// Host time spent in `vkQueueSubmit` for the frame.
    pub cpu_submit_ms: f64,
    /// The whole frame on the GPU.
    pub gpu_ms: Option<f64>,
    pub passes: PassTimes,
}

/// How the compaction kernel's subgroups were set up and what it ran with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubgroupReport {
    /// `requiredSubgroupSize` the pipeline was created with, if pinned.
    pub required_size: Option<u32>,
    pub require_full: bool,
    /// `gl_SubgroupSize` as the kernel saw it (not run in cpu mode).
    pub observed_size: Option<u32>,
    /// Why the kernel's description was not pinned on this device, when it was not.
    pub note: Option<String>,
}

/// The last frame's colour target.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameImage {
    pub width: u32,
    pub height: u32,
    /// Row-major RGBA8, `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    pub device: String,
    pub mode: Mode,
    pub layout: String,
    pub objects: u32,
    pub width: u32,
    pub height: u32,
    pub frames: Vec<FrameReport>,
    /// Preprocess chunking (dgc mode): chunk size, chunk count, bytes, and any size the driver
    /// reported that was not believed.
    pub preprocess: Option<ChunkPlan>,
    pub compaction: Compaction,
    /// The culling kernels' workgroup size (`local_size.x`).
    pub local_size: u32,
    /// The layout's `ExplicitPreprocess` flag as executed (dgc mode).
    pub explicit_preprocess: Option<bool>,
    /// The layout's `UnorderedSequences` flag as executed (dgc mode).
    pub unordered_sequences: Option<bool>,
    /// Whether the executed layout bound an index buffer per sequence (dgc mode).
    pub index_buffer_token: Option<bool>,
    /// Where the draws read the object id (`record` in cpu mode, which pushes it).
    pub object_id: ObjectId,
    pub subgroup: SubgroupReport,
    #[serde(skip)]
    pub image: FrameImage,
    /// One stream-validation report per frame, with `--validate-stream`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stream_validation: Vec<StreamReport>,
}

impl RunReport {
    /// Whether stream validation ran and found nothing in any frame.
    pub fn stream_is_clean(&self) -> bool {
        self.stream_validation.iter().all(StreamReport::is_clean)
    }

    /// The last frame: `(rgba, width, height)`; the CLI encodes it as PNG.
    pub fn last_frame_rgba(&self) -> (&[u8], u32, u32) {
        (&self.image.rgba, self.image.width, self.image.height)
    }
}

fn ms(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into())
}

impl fmt::Display for RunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} on {}: layout `{}`, {} objects, {}x{}",
            self.mode.name(),
            self.device,
            self.layout,
            self.objects,
            self.width,
            self.height
        )?;
        if let Some(p) = &self.preprocess {
            writeln!(
                f,
                "preprocess: {} bytes for {} sequences per execute, {} execute(s)",
                p.preprocess_bytes, p.sequences_per_chunk, p.chunks
            )?;
            if let Some(a) = &p.anomaly {
                writeln!(f, "  {a}")?;
            }
        }
        if self.object_id == ObjectId::Instance {
            writeln!(f, "object ids: from each draw's firstInstance (no per-sequence push constants)")?;
        }
        let s = &self.subgroup;
        match s.required_size {
            Some(r) => {
                write!(f, "compaction subgroups: required size {r}{}", if s.require_full { ", full" } else { "" })?
            }
            None => write!(f, "compaction subgroups: size not pinned")?,
        }
        match s.observed_size {
            Some(o) => write!(f, ", ran at {o}")?,
            None => write!(f, ", not run")?,
        }
        if let Some(n) = &s.note {
            write!(f, " ({n})")?;
        }
        writeln!(f)?;
        writeln!(f, "frame  visible  draws  cpu ms   gpu ms   cull     compact  preproc  execute")?;
        for (i, fr) in self.frames.iter().enumerate() {
            let p = fr.passes;
            writeln!(
                f,
                "{i:>5}  {:>7}  {:>5}  {:>7.3}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}",
                fr.visible,
                fr.draws,
                fr.cpu_record_ms,
                ms(fr.gpu_ms),
                ms(p.cull_ms),
                ms(p.compact_ms),
                ms(p.preprocess_ms),
                ms(p.execute_ms)
            )?;
        }
        if let Some(last) = self.stream_validation.last() {
            let frames = self.stream_validation.len();
            let found: u32 = self.stream_validation.iter().map(|r| r.total).sum();
            if found == 0 {
                writeln!(
                    f,
                    "stream validation: clean, {frames} frame(s), {} sequences in the last",
                    last.sequences_checked
                )?;
            } else {
                writeln!(f, "stream validation: {found} violation(s) in {frames} frame(s)")?;
                for (i, r) in self.stream_validation.iter().enumerate().filter(|(_, r)| !r.is_clean()) {
                    writeln!(f, "frame {i}: {r}")?;
                }
            }
        }
        Ok(())
    }
}
