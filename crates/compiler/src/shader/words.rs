//! A SPIR-V module as words: its instructions, each its own slice.
//!
//! Why a walker of our own beside naga: the passes that edit a module in place (freezing
//! specialization constants, `freeze`; placing the runtime's tally kernel's push block, in the
//! command line's `layout_check`) change a few words and must keep every other one as it was,
//! which a parse and re-emit would not promise. The format is simple: a 5-word header, then
//! instructions whose first word is `word_count << 16 | opcode`.

/// Words of the module header before the first instruction.
pub const HEADER_WORDS: usize = 5;

/// The instructions of a module's body (the words after the header), or `None` when a word
/// count is 0 or runs past the end.
pub fn instructions(mut body: &[u32]) -> Option<Vec<&[u32]>> {
    let mut out = vec![];
    while let Some(&first) = body.first() {
        let count = (first >> 16) as usize;
        if count == 0 || count > body.len() {
            return None;
        }
        out.push(&body[..count]);
        body = &body[count..];
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_are_split_by_their_word_counts_and_a_bad_count_is_refused() {
        let body = [2 << 16 | 17, 7, 1 << 16 | 253];
        assert_eq!(instructions(&body), Some(vec![&body[..2], &body[2..]]));
        assert_eq!(instructions(&[]), Some(vec![]));
        assert_eq!(instructions(&[0]), None, "a word count of 0");
        assert_eq!(instructions(&[3 << 16 | 17, 7]), None, "a count past the end");
    }
}
