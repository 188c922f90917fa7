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

use codespan_reporting::files::{Error, Files};
use dgcc_core::span::Span;
use std::ops::Range;

/// The widest part of one line a diagnostic quotes, in bytes.
pub const MAX_QUOTED_LINE: usize = 160;
const ELLIPSIS: &str = "…";

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

/// One file, clipped for one diagnostic.
pub struct Clipped<'a> {
    /// The file's name as quoted: control characters shown as `?` (`push_printable`).
    name: String,
    original: &'a str,
    text: String,
    lines: Vec<Line>,
}

fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

impl<'a> Clipped<'a> {
    /// `text` as a diagnostic with labels at `labels` quotes it.
    pub fn new(name: &'a str, text: &'a str, labels: &[Span]) -> Clipped<'a> {
        let spans: Vec<Range<usize>> = labels
            .iter()
            .map(|l| {
                let s = l.start.min(text.len());
                s..l.end.clamp(s, text.len())
            })
            .collect();
        let mut printable_name = String::with_capacity(name.len());
        push_printable(&mut printable_name, name);
        let mut out = Clipped {
            name: printable_name,
            original: text,
            text: String::with_capacity(text.len().min(1 << 20)),
            lines: vec![],
        };
        let mut start = 0;
        loop {
            let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
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
            start = end + 1;
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
fn window(text: &str, line: Range<usize>, spans: &[Range<usize>]) -> Range<usize> {
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
        let original = floor(self.original, self.unmap(byte_index).max(l.original));
        Ok(self.original[l.original..original].chars().count() + 1)
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_kept_and_long_ones_cut_around_the_label() {
        let long = format!("{}ERR{}", "a".repeat(1000), "b".repeat(1000));
        let text = format!("short\n{long}\nend");
        let at = text.find("ERR").unwrap();
        let c = Clipped::new("f", &text, &[Span::new(at, at + 3)]);
        let lines: Vec<&str> = c.text().lines().collect();
        assert_eq!(lines[0], "short");
        assert_eq!(lines[2], "end");
        assert!(lines[1].contains("ERR") && lines[1].starts_with('…') && lines[1].ends_with('…'), "{}", lines[1]);
        assert!(lines[1].len() <= MAX_QUOTED_LINE + 2 * ELLIPSIS.len());
        let m = c.map(at);
        assert_eq!(&c.text()[m..m + 3], "ERR");
        assert_eq!(c.column_number(1, m).unwrap(), 1001);
    }
}
