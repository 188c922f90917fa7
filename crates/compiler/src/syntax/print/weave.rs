//! Printed lines, and the comments of the source woven back between them.
//!
//! Why by position: each printed line knows which source spans it prints (a value, an item, a
//! bracket: `Line::at`), and each comment has a span, so a comment is placed by its neighbours
//! in the source, whatever syntax the lines are printed in:
//! - inside what one line prints (`stages: [Vertex, /* c */ Fragment]`), or after the last
//!   thing printed on its source line (`Draw, // c`): at the end of that line;
//! - otherwise above the line that prints the next thing after it (an item, a setting, a
//!   closing bracket: a comment at the end of a list stays at the end of the list);
//! - after everything: at the end of the file.
//!
//! A line ends in at most one comment of one line; when several (or a comment of several
//! lines) would end it, they are printed above it instead. A comment printed on a line of its
//! own directly above an item would become the item's doc comment, which the outputs carry: a
//! blank line keeps it apart (and a blank line after a comment in the source is kept), so
//! formatting never changes what a description means. The `.dgc` language has only `//`
//! comments: a RON `/* … */` comment becomes one `//` comment per line there.
//!
//! Printing this output again places every comment where it already is (the formatter is
//! idempotent): a comment at a line's end is again after that line's last span, one above a
//! line is again before its first.
//!
//! Each comment is placed by binary searches (over the lines' spans and the source's line
//! breaks), never by scanning the source around it, so formatting takes time n·log n in the
//! number of comments: a million `/**/` on one line are placed in about a second.

use crate::syntax::comments::{Note, Trivia};
use crate::syntax::docs::write_doc;
use crate::syntax::SyntaxKind;
use dgcc_core::span::Span;

use super::indent;

/// One printed line.
#[derive(Clone, Debug, Default)]
pub(crate) struct Line {
    pub indent: usize,
    /// The text after the indentation; empty for a blank line.
    pub text: String,
    /// The source spans this line prints; empty spans are ignored.
    pub at: Vec<Span>,
    /// Doc lines printed above it.
    pub doc: Vec<String>,
    /// It starts an item that takes doc comments (a `//` comment directly above it is one).
    pub item: bool,
    /// It closes a block: comments above it belong inside the block, one level deeper.
    pub closer: bool,
}

/// The lines of one printed description.
#[derive(Default)]
pub(crate) struct Lines(pub Vec<Line>);

impl Lines {
    /// A line that prints the spans `at`.
    pub fn line(&mut self, indent: usize, text: impl Into<String>, at: &[Span]) {
        self.0.push(Line { indent, text: text.into(), at: at.to_vec(), ..Line::default() });
    }

    /// The first line of an item, with its doc lines.
    pub fn item(&mut self, indent: usize, doc: &[String], text: impl Into<String>, at: &[Span]) {
        self.0.push(Line { indent, text: text.into(), at: at.to_vec(), doc: doc.to_vec(), item: true, closer: false });
    }

    /// A closing line.
    pub fn close(&mut self, indent: usize, text: impl Into<String>, at: &[Span]) {
        self.0.push(Line { indent, text: text.into(), at: at.to_vec(), closer: true, ..Line::default() });
    }

    pub fn blank(&mut self) {
        self.0.push(Line::default());
    }
}

/// Where a comment goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Above(usize),
    End(usize),
    Last,
}

/// The source spans of all lines, by start and by end, for the neighbour searches.
struct Anchors {
    /// `(span, line)` sorted by start, with the largest end up to each entry.
    by_start: Vec<(Span, usize)>,
    max_end: Vec<usize>,
    /// `(end, line)` sorted by end.
    by_end: Vec<(usize, usize)>,
}

impl Anchors {
    fn new(lines: &[Line]) -> Anchors {
        let mut by_start: Vec<(Span, usize)> = lines
            .iter()
            .enumerate()
            .flat_map(|(i, l)| l.at.iter().filter(|s| s.start < s.end).map(move |s| (*s, i)))
            .collect();
        by_start.sort_by_key(|(s, i)| (s.start, s.end, *i));
        let mut max_end = Vec::with_capacity(by_start.len());
        let mut m = 0;
        for (s, _) in &by_start {
            m = m.max(s.end);
            max_end.push(m);
        }
        let mut by_end: Vec<(usize, usize)> = by_start.iter().map(|(s, i)| (s.end, *i)).collect();
        by_end.sort();
        Anchors { by_start, max_end, by_end }
    }

    /// The line of the smallest span that holds `c`.
    fn holding(&self, c: Span) -> Option<usize> {
        let mut j = self.by_start.partition_point(|(s, _)| s.start <= c.start);
        let mut best: Option<(usize, usize)> = None;
        while j > 0 && self.max_end[j - 1] >= c.end {
            let (s, line) = self.by_start[j - 1];
            if s.end >= c.end && best.is_none_or(|(len, _)| s.end - s.start < len) {
                best = Some((s.end - s.start, line));
            }
            j -= 1;
        }
        best.map(|(_, line)| line)
    }

    /// The line of the span that ends last before `at`, and where it ends.
    fn before(&self, at: usize) -> Option<(usize, usize)> {
        let j = self.by_end.partition_point(|(end, _)| *end <= at);
        j.checked_sub(1).map(|j| self.by_end[j])
    }

    /// The line of the span that starts first at or after `at`.
    fn after(&self, at: usize) -> Option<usize> {
        let j = self.by_start.partition_point(|(s, _)| s.start < at);
        self.by_start.get(j).map(|(_, line)| *line)
    }
}

/// Where the source's line breaks are, so that asking whether a stretch of it holds one is a
/// binary search and not a scan of the stretch: the stretch between a comment and the span
/// before it holds every comment in between, and scanning it for each of many comments on one
/// line (`Pipeline(/**//**/…`) took time quadratic in their number.
struct Breaks<'s> {
    source: &'s str,
    /// The byte offset of every `\n`, in order.
    at: Vec<usize>,
}

impl<'s> Breaks<'s> {
    fn new(source: &'s str) -> Breaks<'s> {
        let at = source.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i).collect();
        Breaks { source, at }
    }

    /// Whether `source[from..to]` holds a line break; a stretch that is not a piece of the
    /// source (reversed, or off a character boundary) counts as holding one.
    fn between(&self, from: usize, to: usize) -> bool {
        if self.source.get(from..to).is_none() {
            return true;
        }
        let first = self.at.partition_point(|&i| i < from);
        self.at.get(first).is_some_and(|&i| i < to)
    }
}

fn place(anchors: &Anchors, breaks: &Breaks, c: Span) -> Place {
    if let Some(line) = anchors.holding(c) {
        return Place::End(line);
    }
    let before = anchors.before(c.start);
    let after = anchors.after(c.end);
    match (before, after) {
        (Some((_, a)), Some(b)) if a == b => Place::End(a),
        (Some((end, a)), _) if !breaks.between(end, c.start) => Place::End(a),
        (_, Some(b)) => Place::Above(b),
        _ => Place::Last,
    }
}

/// The text of `lines` with the comments of `trivia` (if any) woven in, in `kind`'s comment
/// syntax.
pub(crate) fn weave(lines: &Lines, trivia: Option<&Trivia>, kind: SyntaxKind) -> String {
    let lines = &lines.0;
    let n = lines.len();
    let mut above: Vec<Vec<&Note>> = vec![Vec::new(); n];
    let mut end: Vec<Vec<&Note>> = vec![Vec::new(); n];
    let mut last: Vec<&Note> = Vec::new();
    if let Some(t) = trivia {
        let anchors = Anchors::new(lines);
        let breaks = Breaks::new(&t.source);
        for note in &t.notes {
            match place(&anchors, &breaks, note.span) {
                Place::Above(i) => above[i].push(note),
                Place::End(i) => end[i].push(note),
                Place::Last => last.push(note),
            }
        }
    }
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if line.text.is_empty() && line.at.is_empty() && line.doc.is_empty() {
            out.push('\n');
            continue;
        }
        let mut own: Vec<&Note> = std::mem::take(&mut above[i]);
        let trailing = match end[i].as_slice() {
            [one] if rendered(one, kind).len() == 1 => Some(*one),
            many => {
                own.extend(many.iter().copied());
                None
            }
        };
        let pad = indent(line.indent + usize::from(line.closer));
        for (k, note) in own.iter().enumerate() {
            push_own_line(&mut out, note, kind, &pad);
            let is_last = k + 1 == own.len();
            // A `//` comment directly above an item would be read as its doc comment.
            let keep_apart = is_last && line.item && rendered_as_line_comments(note, kind);
            if note.blank_after || keep_apart {
                out.push('\n');
            }
        }
        write_doc(&mut out, &line.doc, &indent(line.indent));
        out.push_str(&indent(line.indent));
        out.push_str(&line.text);
        if let Some(note) = trailing {
            out.push(' ');
            out.push_str(&rendered(note, kind)[0]);
        }
        out.push('\n');
    }
    for (k, note) in last.iter().enumerate() {
        push_own_line(&mut out, note, kind, "");
        if note.blank_after && k + 1 < last.len() {
            out.push('\n');
        }
    }
    out
}

fn rendered_as_line_comments(note: &Note, kind: SyntaxKind) -> bool {
    kind == SyntaxKind::Dsl || note.is_line_comment()
}

/// A comment as printed, one string per output line: as written in RON (a block comment's
/// later lines as they are), as `//` lines in the `.dgc` language.
fn rendered(note: &Note, kind: SyntaxKind) -> Vec<String> {
    if kind == SyntaxKind::Ron || note.is_line_comment() {
        return note.text.lines().map(str::to_string).collect();
    }
    note.lines().into_iter().map(|l| if l.is_empty() { "//".to_string() } else { format!("// {l}") }).collect()
}

fn push_own_line(out: &mut String, note: &Note, kind: SyntaxKind, pad: &str) {
    for (k, l) in rendered(note, kind).iter().enumerate() {
        // A block comment's later lines are printed as written, so that printing again gives
        // the same text.
        if k == 0 || kind == SyntaxKind::Dsl || note.is_line_comment() {
            out.push_str(pad);
        }
        out.push_str(l);
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trivia(source: &str) -> Trivia {
        let comments = crate::syntax::lex::scan(source, SyntaxKind::Ron, 64).comments;
        Trivia::new(source, &comments, Default::default())
    }

    /// A span of `what` in `source`.
    fn at(source: &str, what: &str) -> Span {
        let start = source.find(what).unwrap();
        Span::new(start, start + what.len())
    }

    #[test]
    fn comments_go_above_at_the_end_or_after_everything() {
        let source = "open { // o\n  a; // a\n  // e\n }\n// z";
        let mut l = Lines::default();
        l.line(0, "open {", &[at(source, "open {")]);
        l.item(1, &[], "a;", &[at(source, "a;")]);
        l.close(0, "}", &[at(source, "}")]);
        let out = weave(&l, Some(&trivia(source)), SyntaxKind::Ron);
        assert_eq!(out, "open { // o\n    a; // a\n    // e\n}\n// z\n");
    }

    #[test]
    fn a_comment_above_an_item_is_kept_apart_from_it() {
        let source = "open {\n/* b */ // c\n  a;\n}";
        let mut l = Lines::default();
        l.line(0, "open {", &[at(source, "open {")]);
        l.item(1, &[], "a;", &[at(source, "a;")]);
        l.close(0, "}", &[at(source, "}")]);
        let out = weave(&l, Some(&trivia(source)), SyntaxKind::Ron);
        assert_eq!(out, "open {\n    /* b */\n    // c\n\n    a;\n}\n");
        let out = weave(&l, Some(&trivia(source)), SyntaxKind::Dsl);
        assert_eq!(out, "open {\n    // b\n    // c\n\n    a;\n}\n");
    }

    #[test]
    fn several_comments_at_one_line_end_go_above_it() {
        let source = "open {\n  a /* x */, // y\n}";
        let mut l = Lines::default();
        l.line(0, "open {", &[at(source, "open {")]);
        l.line(1, "a,", &[at(source, "a")]);
        l.close(0, "}", &[at(source, "}")]);
        let out = weave(&l, Some(&trivia(source)), SyntaxKind::Ron);
        assert_eq!(out, "open {\n    /* x */\n    // y\n    a,\n}\n");
    }
}
