//! The dispatch tally kernel's push block, placed over one layout's pushed bytes by editing
//! two words of its SPIR-V.
//!
//! Why edit SPIR-V instead of compiling a kernel per layout: a shader's push block must lie
//! inside the pipeline layout's push-constant range for its stage
//! (VUID-VkComputePipelineCreateInfo-layout-10069), and the rig runs the user's ranges, so the
//! block's offset and length differ per layout. Neither can be a specialization constant (an
//! `Offset` decoration is a literal, and a block's size does not follow a specialized array
//! length). The committed kernel (`shaders/runtime/dispatch_tally.comp`) declares
//! `uint words[PUSH_WORDS]` at offset 0 with a marker length; the array's length constant and
//! its member's `Offset` decoration are the only words changed, and both are found by the
//! module's structure (the one constant of the marker's value, the one array type of that
//! length, the one struct of that array), so a rebuilt kernel that no longer matches is an
//! error, not a silent miss.

/// The array length `dispatch_tally.comp` declares its pushed words with.
pub const MARKER: u32 = 4093;

const OP_CONSTANT: u32 = 43;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_STRUCT: u32 = 30;
const OP_MEMBER_DECORATE: u32 = 72;
const DECORATION_OFFSET: u32 = 35;
const HEADER_WORDS: usize = 5;

/// `spv` with its push block's one member at byte `offset` and `words` words long.
pub fn place(spv: &[u8], offset: u32, words: u32) -> Result<Vec<u8>, String> {
    if !spv.len().is_multiple_of(4) || spv.len() < 4 * HEADER_WORDS {
        return Err("the tally kernel's SPIR-V is not a whole number of words".into());
    }
    let mut w: Vec<u32> = spv.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    // Each instruction's start and its words (opcode and count in the first).
    let mut starts = vec![];
    let mut at = HEADER_WORDS;
    while at < w.len() {
        let count = (w[at] >> 16) as usize;
        if count == 0 || at + count > w.len() {
            return Err(format!("the tally kernel's SPIR-V has a malformed instruction at word {at}"));
        }
        starts.push(at);
        at += count;
    }
    let op = |w: &[u32], i: usize| (w[i] & 0xFFFF, (w[i] >> 16) as usize);
    let one = |found: Vec<usize>, what: &str| match found[..] {
        [i] => Ok(i),
        _ => Err(format!("the tally kernel's SPIR-V has {} {what}, not one", found.len())),
    };
    let length = one(
        starts.iter().copied().filter(|&i| op(&w, i) == (OP_CONSTANT, 4) && w[i + 3] == MARKER).collect(),
        "constants of the marker's value",
    )?;
    let length_id = w[length + 2];
    let array = one(
        starts.iter().copied().filter(|&i| op(&w, i) == (OP_TYPE_ARRAY, 4) && w[i + 3] == length_id).collect(),
        "array types of the marker's length",
    )?;
    let array_id = w[array + 1];
    let block = one(
        starts.iter().copied().filter(|&i| op(&w, i) == (OP_TYPE_STRUCT, 3) && w[i + 2] == array_id).collect(),
        "structs of that array alone",
    )?;
    let block_id = w[block + 1];
    let member_offset = one(
        starts
            .iter()
            .copied()
            .filter(|&i| {
                op(&w, i) == (OP_MEMBER_DECORATE, 5)
                    && w[i + 1] == block_id
                    && w[i + 2] == 0
                    && w[i + 3] == DECORATION_OFFSET
            })
            .collect(),
        "offsets of the push block's member",
    )?;
    w[length + 3] = words;
    w[member_offset + 4] = offset;
    Ok(w.iter().flat_map(|x| x.to_le_bytes()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    const SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/dispatch_tally.comp.spv");

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
    fn a_truncated_module_is_refused() {
        let mut cut = SPV.to_vec();
        cut.extend((5u32 << 16 | OP_CONSTANT).to_le_bytes());
        assert!(place(&cut, 0, 1).unwrap_err().contains("malformed"));
        assert!(place(&SPV[..6], 0, 1).unwrap_err().contains("whole number"));
    }
}
