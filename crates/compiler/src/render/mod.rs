//! Rendering diagnostics at the edge: codespan-reporting for people, JSON lines for machines
//! (dgcc's own shape here, rustc's in `rustc`), a SARIF log for code-scanning services (`sarif`).
//!
//! Why here and not in `diag`: the library produces data; only the command line (and tests that
//! snapshot what users see) turn it into text. Both renderers take the same inputs, so the JSON
//! line and the human report of one diagnostic always agree on file, line and column. The
//! renderers are given the description; a label into another file (a shader) carries that file
//! (`diag::SourceText`), and both name it where the primary label is in it.
//!
//! The human report is bounded whatever the input: at most [`MAX_RENDERED`] diagnostics are
//! rendered, then one note says how many more there were, and a line longer than
//! [`MAX_QUOTED_LINE`] bytes is quoted as a window around the labels (`clip`). The JSON
//! lines, which a tool reads, are every diagnostic in full.
//!
//! Rendering reads each file once, then costs each diagnostic what it quotes, not the whole
//! file again: the batch renderers ([`human`], [`json_lines`], [`rustc::rustc_lines`],
//! [`sarif::results`]) build one [`LineIndex`] per file the diagnostics point into (`Sources`,
//! for that call only) and find every line and column with it, and a diagnostic's human report
//! (also rustc's `rendered`) copies only the lines from its first label to its last, each cut to
//! [`MAX_QUOTED_LINE`] bytes (`clip`). The one-diagnostic functions ([`json_line`],
//! [`rustc_line`]) index the file for that one diagnostic: a caller with many diagnostics uses
//! the batch ones.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel, LabelStyle};
use codespan_reporting::term::{self, Config};
use dgcc_core::diag::{Diagnostic, Severity, SourceText};
use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

mod clip;
mod lines;
pub mod rustc;
pub mod sarif;
pub use clip::MAX_QUOTED_LINE;
pub use lines::LineIndex;
pub use rustc::{rustc_line, rustc_lines};

/// The most diagnostics a human report renders.
pub const MAX_RENDERED: usize = 100;

/// A source file as diagnostics see it.
pub struct SourceFile<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// Whether the description is in the `.dgc` language: messages, labels and notes are then shown
/// in its spelling (`Diagnostic::message_for`, `Diagnostic::label_for`, `Diagnostic::notes_for`).
pub fn is_dgc(file: &SourceFile) -> bool {
    crate::syntax::SyntaxKind::from_path(std::path::Path::new(file.name)) == Some(crate::syntax::SyntaxKind::Dsl)
}

/// 1-based line and column (in characters) of a byte offset, clamped into the text. It reads
/// the text up to `byte`: for many offsets into one text, ask a [`LineIndex`], which answers the
/// same.
pub fn line_col(text: &str, byte: usize) -> (usize, usize) {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let before = &text[..byte];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = text[line_start..byte].chars().count() + 1;
    (line, col)
}

/// The texts one call's diagnostics point into, each with its [`LineIndex`], built the first
/// time it is asked for and dropped with the call: the description, and each other file a
/// label carries (`Label::file`), once however many labels and `Arc`s carry it.
pub(crate) struct Sources<'a> {
    text: &'a str,
    main: OnceCell<LineIndex<'a>>,
    others: Vec<(&'a str, OnceCell<LineIndex<'a>>)>,
    /// Which of `others` a label's file is, by the address of its `SourceText`. The
    /// diagnostics are borrowed for `'a`, so no address is reused while this lives; two
    /// `SourceText`s of one name and text share an entry.
    by_address: HashMap<*const SourceText, usize>,
}

impl<'a> Sources<'a> {
    pub(crate) fn new(text: &'a str, diags: impl IntoIterator<Item = &'a Diagnostic>) -> Sources<'a> {
        let mut s = Sources { text, main: OnceCell::new(), others: vec![], by_address: HashMap::new() };
        let mut by_name: HashMap<&'a str, Vec<(&'a str, usize)>> = HashMap::new();
        for f in diags.into_iter().flat_map(|d| &d.labels).filter_map(|l| l.file.as_ref()) {
            let address = Arc::as_ptr(f);
            if s.by_address.contains_key(&address) {
                continue;
            }
            let same = by_name.entry(&f.name).or_default();
            let i = match same.iter().find(|(text, _)| *text == f.text.as_str()) {
                Some(&(_, i)) => i,
                None => {
                    s.others.push((&f.text, OnceCell::new()));
                    same.push((&f.text, s.others.len() - 1));
                    s.others.len() - 1
                }
            };
            s.by_address.insert(address, i);
        }
        s
    }

    /// The index of the description (`None`) or of a label's file. A file of the diagnostics
    /// the sources were made from is indexed once; any other (which no caller here passes) is
    /// indexed for this answer alone.
    pub(crate) fn index<'s>(&'s self, file: Option<&'s Arc<SourceText>>) -> Cow<'s, LineIndex<'s>> {
        match file {
            None => Cow::Borrowed(self.main.get_or_init(|| LineIndex::new(self.text))),
            Some(f) => match self.by_address.get(&Arc::as_ptr(f)).map(|&i| &self.others[i]) {
                Some((text, index)) => Cow::Borrowed(index.get_or_init(|| LineIndex::new(text))),
                None => Cow::Owned(LineIndex::new(&f.text)),
            },
        }
    }
}

/// The files diagnostic `d` quotes, each clipped around its own labels (the description is
/// file 0, every other file a label names follows once), and the file of each label.
fn quoted<'a>(
    file: &SourceFile,
    sources: &'a Sources<'_>,
    d: &'a Diagnostic,
    context: clip::Context,
) -> (clip::Set<'a>, Vec<usize>) {
    let mut others: Vec<&'a Arc<SourceText>> = vec![];
    let ids: Vec<usize> = d
        .labels
        .iter()
        .map(|l| match &l.file {
            None => 0,
            Some(f) => match others.iter().position(|o| Arc::ptr_eq(o, f) || o.name == f.name) {
                Some(i) => i + 1,
                None => {
                    others.push(f);
                    others.len()
                }
            },
        })
        .collect();
    let spans_in = |id: usize| -> Vec<dgcc_core::span::Span> {
        d.labels.iter().zip(&ids).filter(|(_, &i)| i == id).map(|(l, _)| l.span).collect()
    };
    let mut files = vec![clip::Clipped::new(file.name, sources.index(None), &spans_in(0), context)];
    for (i, f) in others.iter().enumerate() {
        files.push(clip::Clipped::new(&f.name, sources.index(Some(f)), &spans_in(i + 1), context));
    }
    (clip::Set { files }, ids)
}

fn to_codespan(d: &Diagnostic, set: &clip::Set, ids: &[usize], dgc: bool) -> CsDiagnostic<usize> {
    let sev = match d.severity {
        Severity::Error => codespan_reporting::diagnostic::Severity::Error,
        Severity::Warning => codespan_reporting::diagnostic::Severity::Warning,
        Severity::Note => codespan_reporting::diagnostic::Severity::Note,
    };
    let labels = d
        .labels
        .iter()
        .zip(ids)
        .map(|(l, &id)| {
            let file = &set.files[id];
            let start = file.map(l.span.start);
            let end = file.map(l.span.end.max(l.span.start)).max(start);
            let style = if l.primary { LabelStyle::Primary } else { LabelStyle::Secondary };
            CsLabel::new(style, id, start..end).with_message(printable(d.label_for(l, dgc)))
        })
        .collect();
    let mut notes = vec![];
    if let Some(t) = &d.target {
        notes.push(format!("target: {t}"));
    }
    if let Some(v) = d.vuid() {
        notes.push(format!("vuid: {v}"));
    }
    for v in d.also_vuids() {
        notes.push(format!("also: {v}"));
    }
    notes.extend(d.notes_for(dgc).into_iter().map(printable));
    CsDiagnostic::new(sev)
        .with_code(d.code)
        .with_message(printable(d.message_for(dgc)))
        .with_labels(labels)
        .with_notes(notes)
}

/// A message, label or note for a terminal: a control character other than a line break or a
/// tab (from a name in the description, which may hold any) is written as its escape, `\u{1b}`,
/// so that it cannot act on the terminal. The JSON and SARIF formats escape them by their own
/// rules.
fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// The note after the first [`MAX_RENDERED`] diagnostics, if there are more.
fn more_note(diags: &[Diagnostic]) -> Option<String> {
    let rest = diags.get(MAX_RENDERED..).filter(|r| !r.is_empty())?;
    let errors = rest.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = rest.iter().filter(|d| d.severity == Severity::Warning).count();
    Some(format!(
        "note: {} more diagnostic(s) not shown ({errors} error(s), {warnings} warning(s)); `--message-format json` prints every one\n",
        rest.len()
    ))
}

/// Codespan's configuration for every human report, and the context lines it quotes around
/// a label, which a clipped file must hold.
fn config() -> (Config, clip::Context) {
    let config = Config::default();
    let context = clip::Context { before: config.before_label_lines, after: config.after_label_lines };
    (config, context)
}

/// One diagnostic for people, without colour: what [`human`] writes for it.
pub(crate) fn human_one(file: &SourceFile, sources: &Sources, d: &Diagnostic) -> String {
    let (config, context) = config();
    let (set, ids) = quoted(file, sources, d, context);
    let cs = to_codespan(d, &set, &ids, is_dgc(file));
    match term::emit_into_string(&config, &set, &cs) {
        Ok(s) => s,
        Err(e) => format!(
            "{}[{}]: {} (could not render: {e})\n",
            d.severity.name(),
            d.code,
            printable(d.message_for(is_dgc(file)))
        ),
    }
}

/// Render diagnostics for people, without colour (for snapshots and pipes).
pub fn human(file: &SourceFile, diags: &[Diagnostic]) -> String {
    let shown = &diags[..diags.len().min(MAX_RENDERED)];
    let sources = Sources::new(file.text, shown);
    let mut out = String::new();
    for d in shown {
        out.push_str(&human_one(file, &sources, d));
    }
    if let Some(n) = more_note(diags) {
        out.push_str(&n);
    }
    out
}

/// Render diagnostics for people on stderr, coloured when `color` says so.
pub fn human_to_stderr(file: &SourceFile, diags: &[Diagnostic], color: bool) {
    use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
    use std::io::Write;
    // The caller decided (`--color`, `NO_COLOR`, whether stderr is a terminal).
    let choice = if color { ColorChoice::Always } else { ColorChoice::Never };
    let stream = StandardStream::stderr(choice);
    let mut lock = stream.lock();
    let (config, context) = config();
    let shown = &diags[..diags.len().min(MAX_RENDERED)];
    let sources = Sources::new(file.text, shown);
    for d in shown {
        let (set, ids) = quoted(file, &sources, d, context);
        let cs = to_codespan(d, &set, &ids, is_dgc(file));
        if term::emit_to_write_style(&mut lock, &config, &set, &cs).is_err() {
            // The styled report failed (a closed or odd terminal): say it plainly on the same
            // stream, and if even that fails there is no one left to tell.
            let _ = writeln!(lock, "{}[{}]: {}", d.severity.name(), d.code, printable(d.message_for(is_dgc(file))));
        }
    }
    if let Some(n) = more_note(diags) {
        let _ = write!(lock, "{n}");
    }
}

/// One JSON object per diagnostic (the stable shape of the book's "For tools: JSON diagnostics
/// and exit codes"). Spans are reported as 1-based line/column of
/// the primary label, and `file` is the file it is in (the description, or a shader the label
/// points into); a diagnostic without a span has `line: null`.
pub fn json_line(file: &SourceFile, d: &Diagnostic) -> String {
    json_value(file, &Sources::new(file.text, [d]), d)
}

/// [`json_line`] of each diagnostic, in order, made as the iterator is read; each file is read
/// once.
pub fn json_lines<'a>(file: &'a SourceFile<'a>, diags: &'a [Diagnostic]) -> impl Iterator<Item = String> + 'a {
    let sources = Sources::new(file.text, diags);
    diags.iter().map(move |d| json_value(file, &sources, d))
}

fn json_value(file: &SourceFile, sources: &Sources, d: &Diagnostic) -> String {
    let primary = d.primary_label();
    let name = match primary.and_then(|l| l.file.as_deref()) {
        Some(other) => other.name.as_str(),
        None => file.name,
    };
    let (line, column, end_line, end_column) = match primary {
        Some(l) => {
            let index = sources.index(l.file.as_ref());
            let (line, c) = index.line_col(l.span.start);
            let (el, ec) = index.line_col(l.span.end);
            (Some(line), Some(c), Some(el), Some(ec))
        }
        None => (None, None, None, None),
    };
    let mut value = serde_json::json!({
        "severity": d.severity.name(),
        "code": d.code,
        "vuid": d.vuid(),
        "message": d.message_for(is_dgc(file)),
        "file": name,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "target": d.target,
        "notes": d.notes_for(is_dgc(file)),
    });
    // Added to the stable shape only where a rule enforces more than one VUID.
    if !d.also_vuids().is_empty() {
        value["also_vuids"] = serde_json::json!(d.also_vuids());
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_control_character_of_the_input_reaches_the_terminal() {
        // A name (RON `\u{1b}` escapes), a file name and a raw `.dgc` line all carrying ESC, BEL,
        // a C1 CSI and a carriage return: escaped in messages, `?` in quoted source, and the
        // label still under the same columns.
        let text = "pipeline \"q\u{1b}[2J\u{9b}1m\r\u{7}\" {\n}\n";
        let file = SourceFile { name: "ev\u{1b}]0;il.dgc", text };
        let d = Diagnostic::new("E0705", "name `q\u{1b}[2J` is not an identifier")
            .primary(dgcc_core::span::Span { start: 9, end: 24 }, "label \u{7}")
            .note("note \u{1b}[2J");
        let out = human(&file, &[d]);
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
        assert!(
            out.contains("name `q\\u{1b}[2J`") && out.contains("label \\u{7}") && out.contains("note \\u{1b}"),
            "{out}"
        );
        assert!(out.contains("ev?]0;il.dgc") && out.contains("pipeline \"q?[2J??1m??\""), "{out}");
    }

    #[test]
    fn line_col_counts_characters() {
        let t = "ab\nçd\n";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 5), (2, 2)); // after the two-byte ç
        assert_eq!(line_col(t, 4), (2, 1)); // inside ç: clamps back
        assert_eq!(line_col(t, 100), (3, 1));
    }

    #[test]
    fn a_label_in_a_shader_is_quoted_from_the_shader_and_named_in_json() {
        let shader = Arc::new(SourceText { name: "draw.vert".into(), text: "#version 450\nuint x;\n".into() });
        let description = "Pipeline(name: \"p\")";
        let d = Diagnostic::new("E0583", "m")
            .primary_in(&shader, dgcc_core::span::Span::new(18, 19), "this member")
            .secondary(dgcc_core::span::Span::new(15, 18), "this pipeline");
        let file = SourceFile { name: "p.ron", text: description };
        let shown = human(&file, std::slice::from_ref(&d));
        assert!(shown.contains("┌─ draw.vert:2:6"), "{shown}");
        assert!(shown.contains("2 │ uint x;") && shown.contains("p.ron:1:16"), "{shown}");
        let json: serde_json::Value = serde_json::from_str(&json_line(&file, &d)).unwrap();
        assert_eq!(
            (json["file"].as_str(), json["line"].as_u64(), json["column"].as_u64()),
            (Some("draw.vert"), Some(2), Some(6))
        );
    }

    /// `d` rendered with its files clipped to `context` lines around its labels.
    fn rendered_with(file: &SourceFile, d: &Diagnostic, context: clip::Context) -> String {
        let sources = Sources::new(file.text, [d]);
        let (set, ids) = quoted(file, &sources, d, context);
        term::emit_into_string(&config().0, &set, &to_codespan(d, &set, &ids, false)).unwrap()
    }

    #[test]
    fn quoting_only_the_labelled_lines_renders_as_quoting_the_whole_file() {
        // Random labels (one to three, some over many lines, some past the end) on a text of
        // short, long, empty, `\r\n` and multi-byte lines: codespan renders the same whether
        // the clipped file holds every line (as it did) or only the labelled ones.
        let mut text = String::new();
        for i in 0..40 {
            match i % 6 {
                0 => text.push_str(&format!("line {i} é\n")),
                1 => text.push_str(&format!("{}語{}\r\n", "x".repeat(200 + i), "y".repeat(150))),
                2 => text.push('\n'),
                3 => text.push_str("  (name: \"a\", stride: 32),\n"),
                4 => text.push_str(&"🦀".repeat(50)),
                _ => text.push_str("\tlast\n"),
            }
        }
        let file = SourceFile { name: "f.ron", text: &text };
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let whole = clip::Context { before: usize::MAX, after: usize::MAX };
        for _ in 0..300 {
            let mut d = Diagnostic::new("E0404", "m");
            for k in 0..1 + next(3) {
                let start = next(text.len() + 10);
                let end = start + [0, 1, 5, 300, 2000][next(5)];
                let span = dgcc_core::span::Span { start, end };
                d = if k == 0 { d.primary(span, "here") } else { d.secondary(span, "and here") };
            }
            if next(2) == 0 {
                d = d.note("a note");
            }
            let (_, context) = config();
            assert_eq!(rendered_with(&file, &d, context), rendered_with(&file, &d, whole), "{:?}", d.labels);
        }
    }

    #[test]
    fn each_file_is_indexed_once_and_any_other_still_answers() {
        let text = |t: &str| Arc::new(SourceText { name: "a.vert".into(), text: t.into() });
        let (a, same, other) = (text("x\ny"), text("x\ny"), text("x\n\nz"));
        let d = Diagnostic::new("E0583", "m")
            .primary_in(&a, dgcc_core::span::Span::new(2, 3), "")
            .secondary_in(&same, dgcc_core::span::Span::new(2, 3), "")
            .secondary_in(&other, dgcc_core::span::Span::new(3, 4), "");
        let sources = Sources::new("", [&d]);
        assert_eq!(sources.others.len(), 2, "one name and text, one index");
        assert!(matches!(sources.index(Some(&same)), Cow::Borrowed(_)));
        assert_eq!(sources.index(Some(&other)).line_col(3), (3, 1));
        let stranger = text("1\n2\n3");
        assert!(matches!(sources.index(Some(&stranger)), Cow::Owned(_)));
        assert_eq!(sources.index(Some(&stranger)).line_col(4), (3, 1));
    }
}
