//! A tally shader's push block, placed over one layout's pushed bytes by editing two words of
//! its SPIR-V: the dispatch kernel's (`dispatch_tally.comp`) and the draw tally's shaders'
//! (`draw_pushed.glsl`, `draw_between.glsl`, `draw_tally_fragment.glsl`).
//!
//! Why edit SPIR-V instead of compiling a shader per layout: a shader's push block must lie
//! inside the pipeline layout's push-constant range for its stage
//! (VUID-VkComputePipelineCreateInfo-layout-10069, VUID-VkGraphicsPipelineCreateInfo-layout-10069),
//! and the rigs run the user's ranges, so the block's offset and length differ per layout.
//! Neither can be a specialization constant (an `Offset` decoration is a literal, and a block's
//! size does not follow a specialized array length). The committed shaders declare
//! `uint words[PUSH_WORDS]` at offset 0 with a marker length; the array's length constant and
//! its member's `Offset` decoration are the only words changed, and both are found by the
//! module's structure (the one constant of the marker's value, the one array type of that
//! length, the one struct of that array), so a rebuilt shader that no longer matches is an
//! error, not a silent miss.

use dgcc::shader::words::{instructions, HEADER_WORDS};
use spirv::{Decoration, Op};

/// The array length the tally shaders declare their pushed words with.
pub const MARKER: u32 = 4093;

/// `spv` with its push block's one member at byte `offset` and `words` words long.
pub fn place(spv: &[u8], offset: u32, words: u32) -> Result<Vec<u8>, String> {
    if !spv.len().is_multiple_of(4) || spv.len() < 4 * HEADER_WORDS {
        return Err("the tally shader's SPIR-V is not a whole number of words".into());
    }
    let mut w: Vec<u32> = spv.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    // Each instruction's first word (opcode and count), as an index into `w`.
    let Some(instructions) = instructions(&w[HEADER_WORDS..]) else {
        return Err("the tally shader's SPIR-V has a malformed instruction".into());
    };
    let mut starts = Vec::with_capacity(instructions.len());
    let mut at = HEADER_WORDS;
    for inst in instructions {
        starts.push(at);
        at += inst.len();
    }
    // The one instruction `op` of `words` words that `operands` accepts (given the words
    // after the opcode), or an error naming `what`.
    let only = |op: Op, words: usize, operands: &dyn Fn(&[u32]) -> bool, what: &str| {
        let found: Vec<usize> = starts
            .iter()
            .copied()
            .filter(|&i| w[i] == (words as u32) << 16 | op as u32 && operands(&w[i + 1..i + words]))
            .collect();
        match found[..] {
            [i] => Ok(i),
            _ => Err(format!("the tally shader's SPIR-V has {} {what}, not one", found.len())),
        }
    };
    // OpConstant: result type, id, value.
    let length = only(Op::Constant, 4, &|o| o[2] == MARKER, "constants of the marker's value")?;
    let length_id = w[length + 2];
    // OpTypeArray: id, element type, length.
    let array = only(Op::TypeArray, 4, &|o| o[2] == length_id, "array types of the marker's length")?;
    let array_id = w[array + 1];
    // OpTypeStruct: id, its one member's type.
    let block = only(Op::TypeStruct, 3, &|o| o[1] == array_id, "structs of that array alone")?;
    let block_id = w[block + 1];
    // OpMemberDecorate: struct, member, decoration, literal.
    let offset_decoration = |o: &[u32]| o[0] == block_id && o[1] == 0 && o[2] == Decoration::Offset as u32;
    let member_offset = only(Op::MemberDecorate, 5, &offset_decoration, "offsets of the push block's member")?;
    w[length + 3] = words;
    w[member_offset + 4] = offset;
    Ok(w.iter().flat_map(|x| x.to_le_bytes()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    const SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/dispatch_tally.comp.spv");
    /// The draw tally's shaders that declare a push block to place.
    const DRAW: [(&str, &[u8]); 6] = [
        ("draw_pushed.vert", include_bytes!("../../../../shaders/runtime/spv/draw_pushed.vert.spv")),
        ("draw_pushed_vertices.vert", include_bytes!("../../../../shaders/runtime/spv/draw_pushed_vertices.vert.spv")),
        ("draw_tally.pushed.tesc", include_bytes!("../../../../shaders/runtime/spv/draw_tally.pushed.tesc.spv")),
        ("draw_tally.pushed.tese", include_bytes!("../../../../shaders/runtime/spv/draw_tally.pushed.tese.spv")),
        ("draw_tally.pushed.geom", include_bytes!("../../../../shaders/runtime/spv/draw_tally.pushed.geom.spv")),
        ("draw_tally_pushed.frag", include_bytes!("../../../../shaders/runtime/spv/draw_tally_pushed.frag.spv")),
    ];

    fn words(spv: &[u8]) -> Vec<u32> {
        spv.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    }

    #[test]
    fn the_committed_kernel_is_placed_by_two_words_and_nothing_else() {
        let placed = place(SPV, 12, 3).unwrap();
        let (before, after) = (words(SPV), words(&placed));
        let changed: Vec<(u32, u32)> =
            before.iter().zip(&after).filter(|(a, b)| a != b).map(|(&a, &b)| (a, b)).collect();
        assert_eq!(changed, [(0, 12), (MARKER, 3)], "the member's offset (annotations come first), then the length");
        // Placed again from the placed module: the marker is gone, so it is refused.
        let again = place(&placed, 0, 1).unwrap_err();
        assert!(again.contains("0 constants of the marker's value"), "{again}");
    }

    #[test]
    fn the_draw_tally_shaders_are_placed_by_the_same_two_words() {
        for (name, spv) in DRAW {
            let placed = place(spv, 40, 5).unwrap_or_else(|e| panic!("{name}: {e}"));
            let (before, after) = (words(spv), words(&placed));
            let changed: Vec<(u32, u32)> =
                before.iter().zip(&after).filter(|(a, b)| a != b).map(|(&a, &b)| (a, b)).collect();
            assert_eq!(changed, [(0, 40), (MARKER, 5)], "{name}");
        }
    }

    #[test]
    fn a_truncated_module_is_refused() {
        let mut cut = SPV.to_vec();
        cut.extend((5u32 << 16 | Op::Constant as u32).to_le_bytes());
        assert!(place(&cut, 0, 1).unwrap_err().contains("malformed"));
        assert!(place(&SPV[..6], 0, 1).unwrap_err().contains("whole number"));
    }
}
