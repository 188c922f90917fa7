//! The source as a diagnostic quotes it: every line longer than [`MAX_QUOTED_LINE`] bytes is
//! cut down to a window around the diagnostic's labels, with `…` where text was left out.
//!
//! Why: codespan quotes each labelled line whole, so a one-line file of 16 KB with 4,000
//! errors printed 97 MB; with the window (and the cap on how many diagnostics are rendered,
//! in `super`) the output is bounded whatever the input. Line numbers and columns stay the
//! original's: every line break is kept, and [`Clipped`] answers codespan's column questions
//! from the original text, so `file:line:column` in a human report is the same place the JSON
//! line names. A diagnostic whose labels point into several files (a shader and the
//! description) is rendered from a [`Set`] of them, each clipped around its own labels.
//!
//! Only the lines from the first a diagnostic's labels touch to the last are copied (with the
//! context lines codespan is configured to add, none by default), and codespan is told their
//! original line numbers (`Files::line_number`): rendering one diagnostic costs the lines it
//! quotes, not the file, and columns are counted with the file's `LineIndex`, not from the
//! line's start. A label that spans many lines still costs each of them (codespan walks them all),
//! but a line is at most [`MAX_QUOTED_LINE`] bytes and `…` here.

use super::lines::{floor, LineIndex};
use codespan_reporting::files::{Error, Files};
use dgcc_core::span::Span;
use std::borrow::Cow;
use std::ops::Range;

/// The widest part of one line a diagnostic quotes, in bytes.
pub const MAX_QUOTED_LINE: usize = 160;
pub(super) const ELLIPSIS: &str = "…";

struct Line {
    /// Where the line starts in the clipped text and in the original.
    clipped: usize,
    original: usize,
    /// The original bytes shown, and how many bytes of `…` precede them.
    window: Range<usize>,
    prefix: usize,
    /// The original line's end (before its line break).
    end: usize,
}

/// One file, clipped for one diagnostic: only the lines from the first its labels touch to the
/// last (and codespan's context lines around them), so that quoting a diagnostic costs what it
/// shows and not the whole file.
pub struct Clipped<'a> {
    /// The file's name as quoted: control characters shown as `?` (`push_printable`).
    name: String,
    index: Cow<'a, LineIndex<'a>>,
    /// The original 0-based line of `lines[0]`: codespan asks by index into `lines` and is told
    /// the original line numbers.
    first_line: usize,
    text: String,
    lines: Vec<Line>,
}

fn ceil(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// How many lines codespan quotes around a label (`Config::before_label_lines` and
/// `after_label_lines`): a clipped file holds them too, so that codespan finds (or misses) the
/// same lines as in the whole file.
#[derive(Clone, Copy)]
pub struct Context {
    pub before: usize,
    pub after: usize,
}

impl<'a> Clipped<'a> {
    /// The text of `index` as a diagnostic with labels at `labels` quotes it. Without labels it
    /// holds no lines (codespan asks nothing of a file no label is in).
    pub fn new(name: &str, index: Cow<'a, LineIndex<'a>>, labels: &[Span], context: Context) -> Clipped<'a> {
        let text = index.text();
        let spans: Vec<Range<usize>> = labels
            .iter()
            .map(|l| {
                let s = l.start.min(text.len());
                s..l.end.clamp(s, text.len())
            })
            .collect();
        let mut printable_name = String::with_capacity(name.len());
        push_printable(&mut printable_name, name);
        let (Some(lo), Some(hi)) = (spans.iter().map(|s| s.start).min(), spans.iter().map(|s| s.end).max()) else {
            return Clipped { name: printable_name, index, first_line: 0, text: String::new(), lines: vec![] };
        };
        let first = index.line_of(lo).saturating_sub(context.before);
        let last = index.line_of(hi).saturating_add(context.after).min(index.line_count() - 1);
        let lines = Vec::with_capacity(last + 1 - first);
        let mut out = Clipped { name: printable_name, index, first_line: first, text: String::new(), lines };
        for line in first..=last {
            let start = out.index.line_start(line);
            let end = out.index.line_end(line);
            let line_end = if end > start && text.as_bytes()[end - 1] == b'\r' { end - 1 } else { end };
            let window = if line_end - start <= MAX_QUOTED_LINE {
                start..line_end
            } else {
                window(text, start..line_end, &spans)
            };
            let prefix = if window.start > start { ELLIPSIS.len() } else { 0 };
            out.lines.push(Line {
                clipped: out.text.len(),
                original: start,
                window: window.clone(),
                prefix,
                end: line_end,
            });
            if prefix > 0 {
                out.text.push_str(ELLIPSIS);
            }
            push_printable(&mut out.text, &text[window.clone()]);
            if window.end < line_end {
                out.text.push_str(ELLIPSIS);
            }
            out.text.push_str(&text[line_end..end]);
            if end == text.len() {
                break;
            }
            out.text.push('\n');
        }
        out
    }

    fn line_of_original(&self, byte: usize) -> usize {
        self.lines.partition_point(|l| l.original <= byte).saturating_sub(1)
    }

    fn line_of_clipped(&self, byte: usize) -> usize {
        self.lines.partition_point(|l| l.clipped <= byte).saturating_sub(1)
    }

    /// Where original byte `byte` is in the clipped text (clamped into its line's window).
    /// `byte` is a label's start or end, so its line is one of the clipped lines.
    pub fn map(&self, byte: usize) -> usize {
        let l = &self.lines[self.line_of_original(byte)];
        if byte > l.end {
            // The line break (or a `\r` before it).
            return l.clipped
                + l.prefix
                + (l.window.end - l.window.start)
                + ELLIPSIS.len() * usize::from(l.window.end < l.end)
                + (byte - l.end);
        }
        let b = byte.clamp(l.window.start, l.window.end);
        l.clipped + l.prefix + (b - l.window.start)
    }

    /// Where clipped byte `byte` came from in the original.
    fn unmap(&self, byte: usize) -> usize {
        let l = &self.lines[self.line_of_clipped(byte)];
        let into = byte.saturating_sub(l.clipped + l.prefix);
        (l.window.start + into).min(l.end.max(l.window.start))
    }

    #[cfg(test)]
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// Push `quoted` with every control character but a tab shown as `?`, byte for byte (a C1
/// control, two bytes in UTF-8, as `??`), so that every offset into the line stays where it
/// was: a description's bytes reach a terminal only as text, never as an escape sequence that
/// moves the cursor, clears the screen or sets the window's title.
fn push_printable(out: &mut String, quoted: &str) {
    for c in quoted.chars() {
        if c.is_control() && c != '\t' {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
}

/// The part of line `line` to show: around the labels on it, at most [`MAX_QUOTED_LINE`] bytes.
pub(super) fn window(text: &str, line: Range<usize>, spans: &[Range<usize>]) -> Range<usize> {
    let on_line: Vec<Range<usize>> = spans
        .iter()
        .filter(|s| s.start <= line.end && s.end >= line.start)
        .map(|s| s.start.max(line.start)..s.end.min(line.end))
        .collect();
    let (lo, hi) = match (on_line.iter().map(|s| s.start).min(), on_line.iter().map(|s| s.end).max()) {
        (Some(lo), Some(hi)) => (lo, hi),
        _ => (line.start, line.start),
    };
    let start = if hi - lo >= MAX_QUOTED_LINE {
        lo
    } else {
        let slack = (MAX_QUOTED_LINE - (hi - lo)) / 2;
        lo.saturating_sub(slack).max(line.start).min(line.end.saturating_sub(MAX_QUOTED_LINE).max(line.start))
    };
    let start = floor(text, start).max(line.start);
    let end = floor(text, (start + MAX_QUOTED_LINE).min(line.end));
    let end = if end <= start { ceil(text, start + 1).min(line.end) } else { end };
    start..end
}

impl Clipped<'_> {
    fn line_range(&self, line_index: usize) -> Result<Range<usize>, Error> {
        let start =
            self.lines.get(line_index).ok_or(Error::LineTooLarge { given: line_index, max: self.lines.len() })?.clipped;
        let end = self.lines.get(line_index + 1).map_or(self.text.len(), |l| l.clipped);
        Ok(start..end)
    }

    /// The original's column, so that a clipped line reports where the text really is.
    fn column_number(&self, line_index: usize, byte_index: usize) -> Result<usize, Error> {
        let l = self.lines.get(line_index).ok_or(Error::LineTooLarge { given: line_index, max: self.lines.len() })?;
        let original = floor(self.index.text(), self.unmap(byte_index).max(l.original));
        Ok(self.index.chars_between(l.original, original) + 1)
    }
}

/// The files one diagnostic quotes, by index: codespan's file set.
pub struct Set<'a> {
    pub files: Vec<Clipped<'a>>,
}

impl<'a> Set<'a> {
    fn file(&self, id: usize) -> Result<&Clipped<'a>, Error> {
        self.files.get(id).ok_or(Error::FileMissing)
    }
}

impl<'a> Files<'a> for Set<'a> {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(&self.file(id)?.name)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(&self.file(id)?.text)
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, Error> {
        Ok(self.file(id)?.line_of_clipped(byte_index))
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<Range<usize>, Error> {
        self.file(id)?.line_range(line_index)
    }

    fn column_number(&'a self, id: usize, line_index: usize, byte_index: usize) -> Result<usize, Error> {
        self.file(id)?.column_number(line_index, byte_index)
    }

    /// The original's line number: the clipped file starts at its first labelled line.
    fn line_number(&'a self, id: usize, line_index: usize) -> Result<usize, Error> {
        Ok(self.file(id)?.first_line + line_index + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quote<'a>(index: &'a LineIndex<'a>, labels: &[Span], before: usize, after: usize) -> Clipped<'a> {
        Clipped::new("f", Cow::Borrowed(index), labels, Context { before, after })
    }

    #[test]
    fn long_lines_are_cut_around_the_label_and_only_its_lines_are_quoted() {
        let long = format!("{}ERR{}", "a".repeat(1000), "b".repeat(1000));
        let text = format!("short\n{long}\nend");
        let index = LineIndex::new(&text);
        let at = text.find("ERR").unwrap();
        let c = quote(&index, &[Span::new(at, at + 3)], 0, 0);
        let lines: Vec<&str> = c.text().lines().collect();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("ERR") && lines[0].starts_with('…') && lines[0].ends_with('…'), "{}", lines[0]);
        assert!(lines[0].len() <= MAX_QUOTED_LINE + 2 * ELLIPSIS.len());
        let m = c.map(at);
        assert_eq!(&c.text()[m..m + 3], "ERR");
        assert_eq!(c.column_number(0, m).unwrap(), 1001);
        let set = Set { files: vec![c] };
        assert_eq!((set.line_index(0, m).unwrap(), set.line_number(0, 0).unwrap()), (0, 2));
        // With a line of context either side, the short lines around are kept whole.
        let c = quote(&index, &[Span::new(at, at + 3)], 1, 1);
        let lines: Vec<&str> = c.text().lines().collect();
        assert_eq!((lines.len(), lines[0], lines[2]), (3, "short", "end"));
        assert_eq!(c.column_number(1, c.map(at)).unwrap(), 1001);
        // No label: nothing is quoted.
        assert_eq!(quote(&index, &[], 1, 1).text(), "");
    }

    #[test]
    fn the_lines_between_labels_are_quoted_and_the_ones_around_are_not() {
        let text = "0\n1\r\n2\n3\n4\n5\n";
        let index = LineIndex::new(text);
        let c = quote(&index, &[Span::new(2, 3), Span::new(7, 8)], 0, 0);
        assert_eq!(c.text(), "1\r\n2\n3\n");
        let set = Set { files: vec![c] };
        let at = set.files[0].map(7);
        assert_eq!(
            set.location(0, at).unwrap(),
            codespan_reporting::files::Location { line_number: 4, column_number: 1 }
        );
        assert!(set.line_range(0, 3).is_err());
        // A span past the end is on the last line, as it was when the whole file was clipped.
        let c = quote(&index, &[Span::new(100, 200)], 0, 0);
        assert_eq!((c.text(), c.first_line), ("", 6));
    }
}
