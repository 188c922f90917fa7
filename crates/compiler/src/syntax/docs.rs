//! Doc comments: `//` lines directly above an item become that item's `doc`.
//!
//! Why by position and not in the grammars: ron cannot report comments at all, and pest would
//! need comment rules threaded through every production. Both front ends know where each item
//! starts (a byte offset), and the scanner knows every comment, so one rule serves both
//! syntaxes: the doc of an item is the unbroken run of own-line `//` comments that ends on the
//! line just above it (no blank line, no code in between). Every other comment is kept by
//! `dgcc fmt` where it was (`super::comments`), so the front ends also note here where the
//! brackets of each item are (`mark`), which the AST does not keep.

use super::comments::{Marks, Of, Part};
use super::lex::Comment;
use crate::ast::Doc;
use dgcc_core::span::Span;

/// The comments of one source, in order, and the brackets the front ends marked.
pub struct Docs<'s> {
    source: &'s str,
    comments: Vec<Comment>,
    /// Which comments became a doc line; `dgcc fmt` places the others itself.
    used: std::cell::RefCell<Vec<bool>>,
    marks: std::cell::RefCell<Marks>,
}

impl<'s> Docs<'s> {
    pub fn new(source: &'s str, comments: Vec<Comment>) -> Self {
        let used = std::cell::RefCell::new(vec![false; comments.len()]);
        Docs { source, comments, used, marks: Default::default() }
    }

    /// The comments that no item took as its doc, in order.
    pub fn unused(&self) -> Vec<Comment> {
        let used = self.used.borrow();
        self.comments.iter().zip(used.iter()).filter(|(_, u)| !**u).map(|(c, _)| *c).collect()
    }

    /// Notes where a bracket of an item is (`span`, in the source), for `dgcc fmt`.
    pub fn mark(&self, of: Of, part: Part, span: Span) {
        if span.start < span.end && span.end <= self.source.len() {
            self.marks.borrow_mut().insert(of, part, span);
        }
    }

    /// The brackets marked while parsing.
    pub fn take_marks(&self) -> Marks {
        self.marks.take()
    }

    /// The doc lines of the item starting at byte `item_start`.
    pub fn above(&self, item_start: usize) -> Doc {
        let mut index = self.comments.partition_point(|c| c.span.end <= item_start);
        let mut next_start = item_start;
        let mut lines = Vec::new();
        while index > 0 {
            let comment = self.comments[index - 1];
            let between = &self.source[comment.span.end..next_start];
            if !(comment.line && comment.own_line && one_line_break(between)) {
                break;
            }
            lines.push(doc_line(&self.source[comment.span.range()]));
            if let Some(u) = self.used.borrow_mut().get_mut(index - 1) {
                *u = true;
            }
            next_start = comment.span.start;
            index -= 1;
        }
        lines.reverse();
        lines
    }
}

/// Whether `between` is whitespace with exactly one line break in it. It stops at the first
/// character that decides: the stretch from the last comment to an item can be the whole rest
/// of a file (one comment above 16,384 layouts), and scanning all of it for every item took time
/// quadratic in their number.
fn one_line_break(between: &str) -> bool {
    let mut breaks = 0;
    for c in between.chars() {
        if c == '\n' {
            breaks += 1;
            if breaks > 1 {
                return false;
            }
        } else if !c.is_whitespace() {
            return false;
        }
    }
    breaks == 1
}

/// `// text` → `text`: the `//`, one space after it and trailing whitespace go.
pub fn doc_line(comment: &str) -> String {
    let body = comment.strip_prefix("//").unwrap_or(comment);
    body.strip_prefix(' ').unwrap_or(body).trim_end().to_string()
}

/// Writes doc lines as `//` comments at `indent`.
pub fn write_doc(out: &mut String, doc: &[String], indent: &str) {
    for line in doc {
        out.push_str(indent);
        if line.is_empty() {
            out.push_str("//\n");
        } else {
            out.push_str("// ");
            out.push_str(line);
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{lex, SyntaxKind};

    fn docs_of(source: &str, item: &str) -> Doc {
        let scan = lex::scan(source, SyntaxKind::Dsl, 64);
        Docs::new(source, scan.comments).above(source.find(item).unwrap())
    }

    #[test]
    fn a_run_of_own_line_comments_directly_above_is_the_doc() {
        let src = "// dropped\n\n// one\n//\n//  two\n    draw;";
        assert_eq!(docs_of(src, "draw"), vec!["one", "", " two"]);
    }

    #[test]
    fn trailing_comments_are_not_docs() {
        let src = "stride 4; // not mine\ndraw;";
        assert!(docs_of(src, "draw").is_empty());
    }

    #[test]
    fn one_line_break_is_whitespace_with_exactly_one_newline() {
        for (between, want) in [
            ("\n", true),
            ("  \r\n\t", true),
            ("", false),
            ("  ", false),
            ("\n\n", false),
            ("\nx", false),
            ("x\n", false),
        ] {
            assert_eq!(one_line_break(between), want, "{between:?}");
            assert_eq!(between.matches('\n').count() == 1 && between.trim().is_empty(), want, "{between:?}");
        }
    }

    #[test]
    fn crlf_line_ends_are_trimmed() {
        let src = "// one\r\ndraw;";
        assert_eq!(docs_of(src, "draw"), vec!["one"]);
    }
}
