//! Which shader stages a `vkCmdPushConstants` must name, from the pipeline layout's ranges.
//!
//! Why this is not simply "the stages of the token": a description may give a push-constant
//! token fewer stages than the pipeline layout's range (the scene's token names `Vertex`, its
//! range `Vertex | Fragment`), which a DGC layout accepts. A host-side `vkCmdPushConstants`
//! is stricter: every range that overlaps a pushed byte must have *all* of its stages named
//! (`VUID-vkCmdPushConstants-offset-01796`), and every named stage must have a range holding
//! the bytes (`-offset-01795`). When ranges with different stages overlap only part of the
//! bytes, one call cannot satisfy both, so the bytes are split at range boundaries and each
//! piece names exactly the stages of the ranges over it.

use ash::vk;
use dgcc_core::ir::PushConstantRange;

/// The manifest's push-constant ranges as `VkPushConstantRange`s, for the pipeline layout.
pub fn vk_ranges(ranges: &[PushConstantRange]) -> Vec<vk::PushConstantRange> {
    ranges
        .iter()
        .map(|r| vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::from_raw(r.stages),
            offset: r.offset,
            size: r.size,
        })
        .collect()
}

/// One `vkCmdPushConstants`: `stages`, and the bytes `[offset, offset + size)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushPiece {
    pub stages: vk::ShaderStageFlags,
    pub offset: u32,
    pub size: u32,
}

/// The calls that push bytes `[offset, offset + size)` under `ranges`, or why they cannot be
/// pushed (a byte no range holds).
pub fn push_pieces(ranges: &[PushConstantRange], offset: u32, size: u32) -> Result<Vec<PushPiece>, String> {
    let end = offset as u64 + size as u64;
    let range_end = |r: &PushConstantRange| r.offset as u64 + r.size as u64;
    // Every boundary inside the pushed bytes where the set of covering ranges can change.
    let mut cuts: Vec<u64> = vec![offset as u64, end];
    for r in ranges {
        for b in [r.offset as u64, range_end(r)] {
            if b > offset as u64 && b < end {
                cuts.push(b);
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut pieces: Vec<PushPiece> = vec![];
    for w in cuts.windows(2) {
        let (from, to) = (w[0], w[1]);
        let stages =
            ranges.iter().filter(|r| (r.offset as u64) < to && range_end(r) > from).fold(0u32, |acc, r| acc | r.stages);
        if stages == 0 {
            return Err(format!("no push-constant range of the pipeline layout holds bytes {from}..{to}"));
        }
        let stages = vk::ShaderStageFlags::from_raw(stages);
        match pieces.last_mut() {
            Some(last) if last.stages == stages => last.size += (to - from) as u32,
            _ => pieces.push(PushPiece { stages, offset: from as u32, size: (to - from) as u32 }),
        }
    }
    Ok(pieces)
}

/// Record `bytes` (pushed at `offset`) as the `pieces` from [`push_pieces`] for that offset.
///
/// # Safety
/// `cmd` is a command buffer of `d` in the recording state; `layout` is a live pipeline layout
/// of `d`, the one whose ranges the pieces were computed for.
pub unsafe fn push(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    layout: vk::PipelineLayout,
    pieces: &[PushPiece],
    offset: u32,
    bytes: &[u8],
) {
    for p in pieces {
        let from = (p.offset - offset) as usize;
        if let Some(slice) = bytes.get(from..from + p.size as usize) {
            // SAFETY: the caller's contract; each piece lies inside the layout's ranges with
            // exactly their stages (`push_pieces`).
            unsafe { d.cmd_push_constants(cmd, layout, p.stages, p.offset, slice) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const V: u32 = 0x1;
    const F: u32 = 0x10;

    fn range(stages: u32, offset: u32, size: u32) -> PushConstantRange {
        PushConstantRange { stages, offset, size }
    }
    fn piece(stages: u32, offset: u32, size: u32) -> PushPiece {
        PushPiece { stages: vk::ShaderStageFlags::from_raw(stages), offset, size }
    }

    #[test]
    fn one_range_names_all_of_its_stages() {
        // The scene: the token says Vertex, the range Vertex | Fragment.
        assert_eq!(push_pieces(&[range(V | F, 0, 8)], 0, 8), Ok(vec![piece(V | F, 0, 8)]));
        assert_eq!(push_pieces(&[range(V | F, 0, 16)], 4, 4), Ok(vec![piece(V | F, 4, 4)]));
    }

    #[test]
    fn partly_overlapping_ranges_split_the_push() {
        let ranges = [range(V, 0, 8), range(F, 4, 8)];
        assert_eq!(push_pieces(&ranges, 0, 12), Ok(vec![piece(V, 0, 4), piece(V | F, 4, 4), piece(F, 8, 4)]));
        // Touching ranges with the same stages merge into one call.
        assert_eq!(push_pieces(&[range(V, 0, 4), range(V, 4, 4)], 0, 8), Ok(vec![piece(V, 0, 8)]));
    }

    #[test]
    fn bytes_outside_every_range_cannot_be_pushed() {
        let e = push_pieces(&[range(V, 0, 4)], 0, 8).unwrap_err();
        assert!(e.contains("4..8"), "{e}");
        assert!(push_pieces(&[], 0, 4).is_err());
        // Near the top of the address space nothing overflows.
        assert_eq!(push_pieces(&[range(V, u32::MAX - 4, 4)], u32::MAX - 4, 4), Ok(vec![piece(V, u32::MAX - 4, 4)]));
    }
}
