//! Where a byte of a source text is, as a line and a column, answered without reading the text
//! from its start: [`LineIndex`] is built once per text and render call, then asked for every
//! label of every diagnostic.
//!
//! Why: `line_col` counts from the start of the text to the byte, so a renderer that asks it
//! for each of N diagnostics on a 4 MiB description (dgcc's input limit) reads N × 4 MiB. The
//! index reads the text once: the byte where each line starts, and every [`CHECKPOINT`] bytes
//! (floored to a character boundary) how many characters come before, so a column, which counts
//! characters, costs a binary search and at most a few thousand bytes of counting however long
//! the line. Its answers are exactly `super::line_col`'s, which the tests compare it with. The
//! index borrows the text and lives for one call of a renderer (`super::Sources`): nothing is
//! kept between calls.

/// How many bytes apart the character-count checkpoints are (before flooring to a boundary).
const CHECKPOINT: usize = 1024;

/// The lines and character counts of one text.
#[derive(Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// The byte each line starts at: `0`, then one past every `\n`. A text ending in `\n` has
    /// an empty last line, as `line_col` counts it.
    starts: Vec<usize>,
    /// `(byte, characters before it)`, every [`CHECKPOINT`] bytes, each byte a character
    /// boundary; the first is `(0, 0)`.
    checkpoints: Vec<(usize, usize)>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut checkpoints = Vec::with_capacity(text.len() / CHECKPOINT + 1);
        checkpoints.push((0, 0));
        let (mut at, mut chars) = (0, 0);
        while at + CHECKPOINT < text.len() {
            let next = floor(text, at + CHECKPOINT);
            if next > at {
                chars += text[at..next].chars().count();
                at = next;
                checkpoints.push((at, chars));
            } else {
                // Cannot happen (a character is at most 4 bytes), but never loop forever.
                break;
            }
        }
        LineIndex { text, starts, checkpoints }
    }

    /// The text the index was built from.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// How many lines the text has (at least one, even when it is empty).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line `byte` is on, `byte` clamped into the text (a line break is on the line
    /// it ends).
    pub fn line_of(&self, byte: usize) -> usize {
        let byte = byte.min(self.text.len());
        self.starts.partition_point(|&s| s <= byte) - 1
    }

    /// Where 0-based line `line` starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.starts[line]
    }

    /// Where 0-based line `line` ends: its `\n`, or the end of the text (a `\r` before the `\n`
    /// is part of the line).
    pub fn line_end(&self, line: usize) -> usize {
        self.starts.get(line + 1).map_or(self.text.len(), |&s| s - 1)
    }

    /// How many characters `text[..byte]` holds; `byte` must be a character boundary.
    fn chars_before(&self, byte: usize) -> usize {
        let (at, chars) = self.checkpoints[self.checkpoints.partition_point(|&(b, _)| b <= byte) - 1];
        chars + self.text[at..byte].chars().count()
    }

    /// How many characters `text[from..to]` holds; both must be character boundaries,
    /// `from <= to`.
    pub fn chars_between(&self, from: usize, to: usize) -> usize {
        if to - from <= 2 * CHECKPOINT {
            self.text[from..to].chars().count()
        } else {
            self.chars_before(to) - self.chars_before(from)
        }
    }

    /// 1-based line and column (in characters) of a byte offset, clamped into the text and
    /// floored to a character boundary: `super::line_col`'s answer.
    pub fn line_col(&self, byte: usize) -> (usize, usize) {
        let byte = floor(self.text, byte);
        let line = self.line_of(byte);
        (line + 1, self.chars_between(self.starts[line], byte) + 1)
    }
}

/// `i` clamped into `text` and moved back to a character boundary.
pub fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index answers as `line_col` at every byte of `text` (every 7th of a long one) and
    /// past its end.
    fn agrees(text: &str) {
        let index = LineIndex::new(text);
        let step = if text.len() > 1000 { 7 } else { 1 };
        for byte in (0..=text.len() + 3).step_by(step).chain(text.len().saturating_sub(5)..text.len() + 2) {
            assert_eq!(index.line_col(byte), super::super::line_col(text, byte), "{text:?} at {byte}");
        }
        assert_eq!(index.line_col(usize::MAX), super::super::line_col(text, usize::MAX));
    }

    #[test]
    fn agrees_with_line_col_on_small_texts() {
        for text in ["", "\n", "\n\n", "a", "ab\nçd\n", "a\r\nb\r\n", "\r\n", "é", "日本\n語\r\n🦀x\n", "x\ny"] {
            agrees(text);
        }
        // Every text of up to five characters from a small alphabet of 1- to 4-byte characters
        // and line breaks.
        let alphabet = ['a', '\n', '\r', 'é', '語', '🦀'];
        let mut texts = vec![String::new()];
        for _ in 0..5 {
            texts = texts.iter().flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}"))).collect();
            texts.iter().for_each(|t| agrees(t));
        }
    }

    #[test]
    fn agrees_with_line_col_past_the_checkpoints() {
        // Long lines of multi-byte characters, so that checkpoints fall inside characters and
        // columns are counted across several of them.
        let mut text = String::new();
        for i in 0..5000 {
            text.push(['a', 'é', '語', '🦀', '\r'][i % 5]);
            if i % 1777 == 0 {
                text.push('\n');
            }
        }
        let index = LineIndex::new(&text);
        assert!(index.checkpoints.len() > 10);
        assert!(index.checkpoints.iter().all(|&(b, c)| text.is_char_boundary(b) && text[..b].chars().count() == c));
        agrees(&text);
    }

    #[test]
    fn agrees_with_line_col_on_random_texts() {
        // Random texts from pieces of 1- to 4-byte characters, line breaks and `\r\n`, asked
        // at every offset and past the end (a fixed xorshift: the same texts on every run).
        let pieces = ["a", "\n", "\r\n", "ç", "語", "🦀", "\r", "abcdefgh", "\t"];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200 {
            let len = (next() % 600) as usize;
            let text: String = (0..len).map(|_| pieces[(next() % pieces.len() as u64) as usize]).collect();
            agrees(&text);
        }
    }
}
