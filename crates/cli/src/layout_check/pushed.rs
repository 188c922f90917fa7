//! The words a layout pushes, as the rigs write them into the records and read them back:
//! shared by the dispatch rig ([`dispatch`](super::dispatch)) and the draw rig
//! ([`draw_words`](super::draw_words)).
//!
//! Why one place: both rigs give every word a PUSH_CONSTANT token pushes a value that differs
//! per sequence and per word ([`pushed_value`]), push another value over the whole block before
//! executing ([`background`]), so that a token that pushed nothing leaves it, expect the
//! sequence's index in a SEQUENCE_INDEX word, and name a word that read wrong by its byte,
//! token and field. One spelling of each keeps the two rigs' reports alike and their records
//! written the same way.

use super::rig::Records;
use ash::vk;
use dgcc::ir::{CompiledLayout, Manifest, TokenType};

/// One word of a tally shader's push block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Word {
    /// No token pushes it to the stages the block is read in.
    Unpushed,
    /// Data of PUSH_CONSTANT token `token`, within `field` where one covers it.
    Data { token: usize, field: Option<String> },
    /// The sequence index, pushed by SEQUENCE_INDEX token `token`.
    SequenceIndex { token: usize },
}

/// A tally shader's push block for a layout: from byte `first`, one [`Word`] per 4 bytes, up to
/// the last byte a token pushes to the stages it is read in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushBlock {
    pub first: u32,
    pub words: Vec<Word>,
}

/// A stage's name in the reports: `compute`, `vertex`, `geometry`, `tessellation control`…
pub fn stage_name(stage: vk::ShaderStageFlags) -> &'static str {
    match stage {
        vk::ShaderStageFlags::COMPUTE => "compute",
        vk::ShaderStageFlags::VERTEX => "vertex",
        vk::ShaderStageFlags::TESSELLATION_CONTROL => "tessellation control",
        vk::ShaderStageFlags::TESSELLATION_EVALUATION => "tessellation evaluation",
        vk::ShaderStageFlags::GEOMETRY => "geometry",
        vk::ShaderStageFlags::FRAGMENT => "fragment",
        vk::ShaderStageFlags::TASK_EXT => "task",
        vk::ShaderStageFlags::MESH_EXT => "mesh",
        _ => "another",
    }
}

impl PushBlock {
    /// Where a shader of `stage` reads `layout`'s pushed words: `Ok(None)` when it pushes none
    /// to that stage, `Err` when they are not inside the pipeline layout's range for the stage
    /// (the shader could not declare them; the rigs say so and check the rest).
    pub fn of(
        m: &Manifest,
        layout: &CompiledLayout,
        stage: vk::ShaderStageFlags,
    ) -> std::result::Result<Option<PushBlock>, String> {
        let Some(block) = PushBlock::over(layout, stage.as_raw()) else { return Ok(None) };
        let (first, end) = (block.first, block.end());
        // A pipeline layout has at most one range per stage (VUID-VkPipelineLayoutCreateInfo-pPushConstantRanges-00292).
        let range = m.push_constants.iter().find(|r| r.stages & stage.as_raw() != 0);
        if !range.is_some_and(|r| r.offset <= first && end <= r.offset as u64 + r.size as u64) {
            let name = stage_name(stage);
            return Err(format!(
                "the layout pushes bytes {first}..{end} to the {name} stage, outside the pipeline layout's {name} range"
            ));
        }
        Ok(Some(block))
    }

    /// The words the tokens that push to any of `stages` push, without asking where a shader
    /// could declare them (what a shader reading them from the records sees); `None` when
    /// there are none.
    pub fn over(layout: &CompiledLayout, stages: u32) -> Option<PushBlock> {
        let pushed: Vec<(usize, u32, u32)> = layout
            .tokens
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.push_constant.filter(|r| r.stages & stages != 0).map(|r| (i, r.offset, r.size)))
            .filter(|&(_, _, size)| size > 0)
            .collect();
        let first = pushed.iter().map(|p| p.1).min()? / 4 * 4;
        let end = pushed.iter().map(|p| p.1 as u64 + p.2 as u64).max()?.div_ceil(4) * 4;
        let mut words = vec![Word::Unpushed; ((end - first as u64) / 4) as usize];
        // In token order, so that where tokens overlap (W0011) the later one's word is named,
        // as DGC applies them; the rigs write the same value for a word in every token.
        for &(i, offset, size) in &pushed {
            let t = &layout.tokens[i];
            for byte in (offset / 4 * 4..offset + size).step_by(4) {
                let word = &mut words[((byte - first) / 4) as usize];
                *word = match t.token_type {
                    TokenType::SequenceIndex => Word::SequenceIndex { token: i },
                    _ => {
                        let within = byte.saturating_sub(offset);
                        let field = t.fields.iter().find(|f| f.offset <= within && within < f.offset + f.size);
                        Word::Data { token: i, field: field.map(|f| f.name.clone()) }
                    }
                };
            }
        }
        Some(PushBlock { first, words })
    }

    /// The byte word `j` starts at.
    pub fn byte(&self, j: usize) -> u32 {
        self.first + 4 * j as u32
    }

    /// The byte after the last word.
    pub fn end(&self) -> u64 {
        self.first as u64 + 4 * self.words.len() as u64
    }

    /// What the rigs push over the whole block before executing.
    pub fn background(&self) -> Vec<u8> {
        (0..self.words.len()).flat_map(|j| background(self.byte(j)).to_le_bytes()).collect()
    }

    /// The block cut into windows of at most `max` words, each starting at a word a token
    /// pushes: what one execution of the draw tally reads at a time. Words no token pushes
    /// between windows are left out (nothing there is checked), so no window is empty.
    pub fn windows(&self, max: usize) -> Vec<PushBlock> {
        let mut windows = vec![];
        let mut next = 0;
        while let Some(start) = (next..self.words.len()).find(|&j| self.words[j] != Word::Unpushed) {
            next = self.words.len().min(start + max);
            windows.push(PushBlock { first: self.byte(start), words: self.words[start..next].to_vec() });
        }
        windows
    }
}

/// The value the records push at byte `byte` for sequence `k`: different for every sequence
/// and word, and never the background the rigs push first.
pub fn pushed_value(k: u32, byte: u32) -> u32 {
    0x5000_0000 | ((k + 1) << 16) | byte
}

/// What the rigs push at byte `byte` before executing.
pub fn background(byte: u32) -> u32 {
    0xB000_0000 | byte
}

/// Sequence `k`'s record: every byte of every PUSH_CONSTANT token's data its [`pushed_value`];
/// with `flip`, the word pushed at that byte wrong instead (a test's deliberate mistake).
/// Whether a word was flipped (a layout that pushes nothing there has none to flip).
pub fn write_pushed(records: &mut Records<'_>, k: u32, flip: Option<u32>) -> bool {
    let layout = records.layout();
    let mut flipped = false;
    for t in layout.tokens.iter().filter(|t| t.token_type == TokenType::PushConstant) {
        let Some(range) = t.push_constant else { continue };
        for b in (0..range.size).step_by(4) {
            let mut value = pushed_value(k, range.offset + b);
            if flip == Some(range.offset + b) {
                value ^= 0x00FF_0000;
                flipped = true;
            }
            let at = (k * layout.stride + t.offset + b) as usize;
            let n = 4.min(range.size - b) as usize;
            records.bytes[at..at + n].copy_from_slice(&value.to_le_bytes()[..n]);
        }
    }
    flipped
}

/// The word a corrupted record flips, by its byte: the first word `layout`'s PUSH_CONSTANT
/// tokens push (in token order) that `read` says the rig reads back; `None` where it reads
/// none of them.
pub fn word_to_flip(layout: &CompiledLayout, read: impl Fn(u32) -> bool) -> Option<u32> {
    let tokens = layout.tokens.iter().filter(|t| t.token_type == TokenType::PushConstant);
    tokens.filter_map(|t| t.push_constant).flat_map(|r| (r.offset..r.offset + r.size).step_by(4)).find(|&b| read(b))
}

/// What the records ask word `j` of sequence `k` to read; `None` for a word no token pushes,
/// which is not checked.
pub fn wanted(block: &PushBlock, j: usize, k: u32) -> Option<u32> {
    match block.words[j] {
        Word::SequenceIndex { .. } => Some(k),
        Word::Data { .. } => Some(pushed_value(k, block.byte(j))),
        Word::Unpushed => None,
    }
}

/// Word `j` of `block` as a report names it: ``push-constant byte 16 (token `params`, field
/// `first`)``; `also` is added inside the parentheses (`; vertex stage`).
pub fn word_name(layout: &CompiledLayout, block: &PushBlock, j: usize, also: &str) -> String {
    let what = match &block.words[j] {
        Word::SequenceIndex { token } => format!("token `{}` (the sequence index)", layout.tokens[*token].name),
        Word::Data { token, field: Some(f) } => format!("token `{}`, field `{f}`", layout.tokens[*token].name),
        Word::Data { token, field: None } => format!("token `{}`", layout.tokens[*token].name),
        Word::Unpushed => "no token".into(),
    };
    format!("push-constant byte {} ({what}{also})", block.byte(j))
}

/// How a word read `[lowest, highest]` over a sequence's invocations differs from `want`:
/// `read 0x… instead of 0x…`, noting when what was read is the background.
pub fn misread(block: &PushBlock, j: usize, [lowest, highest]: [u32; 2], want: u32) -> String {
    let read = if lowest == highest {
        format!("read {lowest:#010x}")
    } else {
        format!("read values from {lowest:#010x} to {highest:#010x}")
    };
    let note =
        if lowest == highest && lowest == background(block.byte(j)) { " (nothing was pushed there)" } else { "" };
    format!("{read} instead of {want:#010x}{note}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_start_at_a_pushed_word_and_skip_what_no_token_pushes_between_them() {
        let data = || Word::Data { token: 0, field: None };
        let mut words = vec![data()];
        words.extend(vec![Word::Unpushed; 60]);
        words.extend([data(), data()]);
        let block = PushBlock { first: 16, words };
        let windows: Vec<(u32, usize)> = block.windows(56).iter().map(|w| (w.first, w.words.len())).collect();
        // Words 0..56, then 61..63: words 56..61 are pushed by no token.
        assert_eq!(windows, [(16, 56), (16 + 4 * 61, 2)]);
        assert_eq!(block.windows(64).len(), 1);
        assert_eq!(PushBlock { first: 0, words: vec![Word::Unpushed] }.windows(56), []);
    }
}
