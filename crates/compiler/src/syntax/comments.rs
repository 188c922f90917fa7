//! The comments that are not doc comments, and where the items' brackets are: what `dgcc fmt`
//! needs to print every comment back.
//!
//! Why beside the AST and not in it: comments do not change what a description means (doc
//! comments aside, which are in the AST because the outputs carry them), so two descriptions
//! that differ only in comments must stay equal ASTs, and every pass after the front ends
//! ignores them. The front ends note where the brackets of each item are ([`Marks`]: the AST
//! keeps the spans of values and items, not of `(`, `[`, `{` and their closers), and the
//! printers place each comment by comparing its span with the spans of what each printed line
//! prints (`print::weave`). Both syntaxes fill the same tables, so a conversion carries the
//! comments over as well as a reformat does.

use std::collections::HashMap;

use super::docs::doc_line;
use super::lex::Comment;
use dgcc_core::span::Span;

/// What a mark belongs to: the pipeline, or the layout, token, kernel or shader with this span
/// (the span of its AST node).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Of {
    Pipeline,
    Item(Span),
}

/// A RON list that the printers open and close on lines of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum List {
    Ranges,
    Layouts,
    Kernels,
    Shaders,
    Tokens,
}

/// Which bracket of an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// From the item's start to its opening bracket: `Pipeline(`, `(`, `layout L [vertex] {`,
    /// `PushConstant(name: "o", …, fields: [`, `kernel k "k.comp" local_size(64, 1, 1) {`,
    /// `shader vertex "v.vert" {`.
    Open,
    /// The closing bracket: `)`, `}`, `])`.
    Close,
    ListOpen(List),
    ListClose(List),
}

/// Where the front end found each bracket.
#[derive(Clone, Debug, Default)]
pub struct Marks(HashMap<(Of, Part), Span>);

impl Marks {
    pub fn insert(&mut self, of: Of, part: Part, span: Span) {
        self.0.insert((of, part), span);
    }

    /// The span of a bracket, or an empty span (which places no comment) if none was marked.
    pub fn get(&self, of: Of, part: Part) -> Span {
        self.0.get(&(of, part)).copied().unwrap_or_default()
    }
}

/// One comment that is not a doc comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub span: Span,
    /// The comment as written, `//` or `/* */` included, trailing whitespace removed.
    pub text: String,
    /// A blank line follows it in the source (kept when it is printed on a line of its own).
    pub blank_after: bool,
}

impl Note {
    /// The comment's text lines as the `//` comments of the `.dgc` language would hold them.
    pub fn lines(&self) -> Vec<String> {
        comment_lines(&self.text)
    }

    pub fn is_line_comment(&self) -> bool {
        self.text.starts_with("//")
    }
}

/// What `dgcc fmt` keeps of a source besides its AST.
#[derive(Clone, Debug, Default)]
pub struct Trivia {
    /// The source the spans are in.
    pub source: String,
    /// Every comment that is not a doc comment, in order.
    pub notes: Vec<Note>,
    pub marks: Marks,
}

impl Trivia {
    /// The comments the front end left over (`comments`) and the marks it made.
    pub fn new(source: &str, comments: &[Comment], marks: Marks) -> Trivia {
        let notes = comments
            .iter()
            .map(|c| {
                let text = source[c.span.range()].lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
                let rest = &source[c.span.end..];
                let gap = &rest[..rest.find(|ch: char| !ch.is_whitespace()).unwrap_or(rest.len())];
                Note { span: c.span, text, blank_after: gap.matches('\n').count() >= 2 }
            })
            .collect();
        Trivia { source: source.to_string(), notes, marks }
    }
}

/// The text lines of a comment: `// text` → `text` (as a doc line is read), `/* a\n b */` →
/// `a`, `b` (each line trimmed, empty first and last lines left out, and the ` * ` that
/// starts every line of a decorated block comment too).
pub fn comment_lines(text: &str) -> Vec<String> {
    if text.starts_with("//") {
        return vec![doc_line(text)];
    }
    let body = text.strip_prefix("/*").unwrap_or(text);
    let body = body.strip_suffix("*/").unwrap_or(body);
    let mut lines: Vec<String> = body.lines().map(|l| l.trim().to_string()).collect();
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(lines.len());
    lines.drain(..first);
    if lines.len() > 1 && lines.iter().all(|l| l.starts_with('*')) {
        for l in &mut lines {
            let rest = &l[1..];
            *l = rest.strip_prefix(' ').unwrap_or(rest).to_string();
        }
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_comments_read_as_lines() {
        assert_eq!(comment_lines("/* one */"), vec!["one"]);
        assert_eq!(comment_lines("/*\n * a\n   b\n */"), vec!["* a", "b"]);
        assert_eq!(comment_lines("/*\n * a\n * b\n */"), vec!["a", "b"]);
        assert_eq!(comment_lines("/**/"), vec![""]);
        assert_eq!(comment_lines("//  two"), vec![" two"]);
    }

    #[test]
    fn a_blank_line_after_a_comment_is_noted() {
        let src = "// a\n\n// b\nx // c\n";
        let comments = super::super::lex::scan(src, super::super::SyntaxKind::Dsl, 64).comments;
        let t = Trivia::new(src, &comments, Marks::default());
        let blank: Vec<bool> = t.notes.iter().map(|n| n.blank_after).collect();
        assert_eq!(blank, vec![true, false, false]);
    }
}
