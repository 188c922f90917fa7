//! Running a layout without device-generated commands, over the same stream buffer.
//!
//! Why it can work at all: a record's draw or dispatch arguments are laid out exactly as
//! `VkDrawIndexedIndirectCommand` / `VkDrawIndirectCommand` / `VkDispatchIndirectCommand`, at
//! a fixed offset, every `stride` bytes — which is what the classic indirect commands read.
//! What DGC does per sequence that they cannot is change state; so:
//!
//! - **Draw / DrawIndexed** → one `vkCmdDraw(Indexed)IndirectCount` (or `…Indirect` without a
//!   count) with `stride` = the record stride. Push-constant data is read by the shader through
//!   the generated GLSL reader, which under the fallback reads `records[gl_DrawID]`.
//!   An INDEX_BUFFER token cannot be honoured per draw: the per-record address and index type
//!   are ignored, and every draw reads the index buffer the caller bound. The draws are DGC's
//!   only when every record names exactly that binding, the bound buffer's address plus its
//!   offset and the bound index type, since `firstIndex` counts from the record's address (the
//!   scene's records do: all LODs share one buffer, selected by `firstIndex`).
//! - **Dispatch** → a loop of `vkCmdDispatchIndirect`, one per record, with the sequence index
//!   pushed where the layout's SEQUENCE_INDEX token (or the caller) says, so the shader's
//!   reader can find its record. The loop is recorded on the host, so it needs the sequence
//!   count on the host.
//!
//! Anything else (execution sets, vertex buffers, `*_COUNT`, mesh and ray-tracing tokens) is
//! refused with a message that says which token cannot be expressed. That decision is
//! `dgcc_core::check::fallback_blocker`, which `dgcc check` applies on a target without
//! device-generated commands (E0214), so a layout it passes there, the fallback runs.
//!
//! The sequence index is pushed with the token's stages unless `with_push_constants` gives the
//! pipeline layout's ranges; then it names every stage those ranges require (`push.rs`).

use super::error::{Result, RuntimeError};
use super::push::{push, push_pieces, PushPiece};
use super::stream::Stream;
use ash::vk;
use dgcc_core::ir::{CompiledLayout, PushConstantRange, TokenType};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Action {
    Draw { indexed: bool, offset: u32 },
    Dispatch { offset: u32, sequence_index: Option<(u32, u32)> },
}

/// What the fallback needs from the device.
#[derive(Clone, Copy, Debug)]
pub struct FallbackCaps {
    pub multi_draw_indirect: bool,
    pub draw_indirect_count: bool,
    pub max_draw_indirect_count: u32,
}

/// The headless context's capabilities (feature `headless`).
#[cfg(feature = "headless")]
impl From<&super::GpuContext> for FallbackCaps {
    fn from(ctx: &super::GpuContext) -> FallbackCaps {
        FallbackCaps {
            multi_draw_indirect: ctx.caps().multi_draw_indirect,
            draw_indirect_count: ctx.caps().draw_indirect_count,
            max_draw_indirect_count: ctx.properties().limits.max_draw_indirect_count,
        }
    }
}

/// A layout as classic indirect commands.
#[derive(Clone, Debug)]
pub struct Fallback {
    layout: String,
    stride: u32,
    action: Action,
    caps: FallbackCaps,
    /// How the sequence index is pushed (empty without a SEQUENCE_INDEX token).
    sequence_push: Vec<PushPiece>,
}

impl Fallback {
    /// Accept `layout` if the fallback can express it, or say why not.
    pub fn new(layout: &CompiledLayout, caps: FallbackCaps) -> Result<Fallback> {
        super::refuse::check_stream(layout)?;
        let refuse = |why: String| {
            RuntimeError::Invalid(format!(
                "layout `{}` cannot run without device-generated commands: {why}",
                layout.name
            ))
        };
        // What the fallback can run is one rule, shared with `dgcc check` on a target without
        // device-generated commands (E0214 there), so both refuse a layout in the same words.
        if let Some((_, why)) = dgcc_core::check::fallback_blocker(layout) {
            return Err(refuse(why));
        }
        let action = layout.action().ok_or_else(|| refuse("it has no action token".into()))?;
        let sequence_index = layout
            .tokens
            .iter()
            .find(|t| t.token_type == TokenType::SequenceIndex)
            .and_then(|t| t.push_constant)
            .map(|r| (r.stages, r.offset));
        let action = match action.token_type {
            TokenType::Draw => Action::Draw { indexed: false, offset: action.offset },
            TokenType::DrawIndexed => Action::Draw { indexed: true, offset: action.offset },
            TokenType::Dispatch => Action::Dispatch { offset: action.offset, sequence_index },
            other => return Err(refuse(format!("its action token is {}", other.manifest_name()))),
        };
        if matches!(action, Action::Draw { .. }) && !layout.stride.is_multiple_of(4) {
            return Err(refuse(format!("stride {} is not a multiple of 4", layout.stride)));
        }
        let sequence_push = match action {
            Action::Dispatch { sequence_index: Some((stages, offset)), .. } => {
                vec![PushPiece { stages: vk::ShaderStageFlags::from_raw(stages), offset, size: 4 }]
            }
            _ => vec![],
        };
        Ok(Fallback { layout: layout.name.clone(), stride: layout.stride, action, caps, sequence_push })
    }

    /// Push the sequence index as the pipeline layout with these `ranges` requires: naming
    /// every stage of every range over its bytes, which may be more than the token's stages.
    pub fn with_push_constants(mut self, ranges: &[PushConstantRange]) -> Result<Fallback> {
        if let Action::Dispatch { sequence_index: Some((_, offset)), .. } = self.action {
            self.sequence_push = push_pieces(ranges, offset, 4).map_err(|why| {
                RuntimeError::Invalid(format!(
                    "layout `{}`: the sequence index at push-constant offset {offset} cannot be pushed: {why}",
                    self.layout
                ))
            })?;
        }
        Ok(self)
    }

    pub fn is_draw(&self) -> bool {
        matches!(self.action, Action::Draw { .. })
    }

    /// Record the stream. Draws: inside the caller's render pass, with its pipeline, descriptor
    /// sets and (for indexed draws) the shared index buffer bound. Dispatches: outside, with the
    /// pipeline bound; `host_sequences` says how many records to dispatch and is required when
    /// the count lives on the GPU. `pipeline_layout` receives the pushed sequence index.
    ///
    /// # Safety
    /// - `cmd` is a command buffer of `d` in the recording state (inside the caller's render
    ///   pass for draws, outside for dispatches), with the state above bound;
    /// - `caps` (given to `new`) is true of `d`: the features it names are enabled;
    /// - the stream's buffer (and count buffer) are live buffers of `d` with indirect-buffer
    ///   usage holding `stream.max_sequences` records written before and made visible by the
    ///   caller's barrier to the indirect reads (`DRAW_INDIRECT`, `INDIRECT_COMMAND_READ`) and to
    ///   any shader that reads the records (`record` records no barrier); `pipeline_layout` is live
    ///   and its ranges are those given to `with_push_constants` (or cover the token's stages);
    /// - they stay alive until the submission finished.
    pub unsafe fn record(
        &self,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
        stream: &Stream,
        pipeline_layout: vk::PipelineLayout,
        host_sequences: Option<u32>,
    ) -> Result<()> {
        let stride = self.stride as u64;
        // SAFETY (every command below): the caller's contract; the counts and the feature
        // checks are done above each command.
        match self.action {
            Action::Draw { indexed, offset } => {
                let max = stream.max_sequences;
                if max > self.caps.max_draw_indirect_count {
                    return Err(RuntimeError::Invalid(format!(
                        "layout `{}`: {max} draws exceed maxDrawIndirectCount = {}",
                        self.layout, self.caps.max_draw_indirect_count
                    )));
                }
                if max > 1 && !self.caps.multi_draw_indirect {
                    return Err(RuntimeError::Invalid(format!(
                        "layout `{}`: the fallback needs the multiDrawIndirect feature",
                        self.layout
                    )));
                }
                let at = stream.offset + offset as u64;
                match (stream.count, host_sequences) {
                    (Some(c), None) => {
                        if !self.caps.draw_indirect_count {
                            return Err(RuntimeError::Invalid(format!(
                                "layout `{}`: a GPU-written count needs the drawIndirectCount feature",
                                self.layout
                            )));
                        }
                        if indexed {
                            unsafe {
                                d.cmd_draw_indexed_indirect_count(
                                    cmd,
                                    stream.buffer,
                                    at,
                                    c.buffer,
                                    c.offset,
                                    max,
                                    self.stride,
                                )
                            };
                        } else {
                            unsafe {
                                d.cmd_draw_indirect_count(cmd, stream.buffer, at, c.buffer, c.offset, max, self.stride)
                            };
                        }
                    }
                    (_, n) => {
                        let n = n.unwrap_or(max).min(max);
                        if indexed {
                            unsafe { d.cmd_draw_indexed_indirect(cmd, stream.buffer, at, n, self.stride) };
                        } else {
                            unsafe { d.cmd_draw_indirect(cmd, stream.buffer, at, n, self.stride) };
                        }
                    }
                }
            }
            Action::Dispatch { offset, sequence_index } => {
                let n = match (stream.count, host_sequences) {
                    (_, Some(n)) => n.min(stream.max_sequences),
                    (None, None) => stream.max_sequences,
                    (Some(_), None) => {
                        return Err(RuntimeError::Invalid(format!(
                            "layout `{}`: the dispatch-loop fallback records one dispatch per sequence on the host, so it needs the sequence count on the host, not only in a GPU buffer",
                            self.layout
                        )))
                    }
                };
                for i in 0..n {
                    if let Some((_, push_offset)) = sequence_index {
                        unsafe { push(d, cmd, pipeline_layout, &self.sequence_push, push_offset, &i.to_le_bytes()) };
                    }
                    unsafe {
                        d.cmd_dispatch_indirect(cmd, stream.buffer, stream.offset + i as u64 * stride + offset as u64)
                    };
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAPS: FallbackCaps =
        FallbackCaps { multi_draw_indirect: true, draw_indirect_count: true, max_draw_indirect_count: 1 << 20 };

    #[test]
    fn an_edited_manifest_whose_draw_runs_past_the_stride_is_refused_with_check_s_code() {
        let mut layout = crate::fixtures::push_index_draw();
        // The fixture's own layout replays (its index buffer token aside, which the fallback
        // binds once): drop that token so only the edit below can refuse it.
        layout.tokens.remove(1);
        layout.tokens[1].offset = 24;
        assert!(Fallback::new(&layout, CAPS).is_ok());
        // The draw moved to 40: its 20 bytes end at 60, past the stride of 48, so every draw
        // would read its firstInstance from the next record.
        layout.tokens[1].offset = 40;
        match Fallback::new(&layout, CAPS) {
            Err(RuntimeError::Refused { diagnostics, .. }) => {
                let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
                assert_eq!(codes, ["E0404"], "{diagnostics:?}");
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
        layout.tokens[1].offset = 24;
        layout.stride = 50;
        let Err(RuntimeError::Refused { diagnostics, .. }) = Fallback::new(&layout, CAPS) else {
            panic!("a stride of 50 was accepted")
        };
        assert_eq!(diagnostics[0].code, "E0405");
    }
}
