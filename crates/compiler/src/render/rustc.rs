//! `--message-format rustc`: one diagnostic per line in rustc's JSON shape.
//!
//! Why a third shape next to `json`: editors, `cargo`-aware CI annotators and problem matchers
//! already read rustc's diagnostics (rust-analyzer's flycheck, GitHub annotators built on
//! `cargo_metadata`), so dgcc's findings land in them unchanged. `json` stays dgcc's own stable
//! contract; this renderer maps the same data onto rustc's: every label a span (secondary
//! labels non-primary), notes and help as children (a help with a fix carries it as a span with
//! `suggested_replacement`, as rustc's do), the human report as `rendered`.
//!
//! A span's `text` is bounded as the human report is, so that a label costs a diagnostic's line
//! a few KB at most however long the file's lines and however many lines the span covers (a
//! one-line description of 600 KB with 100,000 unknown stages made 60 GB when each diagnostic
//! quoted the line whole):
//!
//! - a line of at most [`MAX_QUOTED_LINE`] bytes is given whole, as rustc gives it;
//! - a longer one is given as the window the human report would quote around this span
//!   (`clip::window`, at most [`MAX_QUOTED_LINE`] bytes), with `…` where text was left out;
//!   `highlight_start` and `highlight_end` are then columns (in characters, 1-based) of that
//!   text, not of the line, and a highlight that goes on past the window takes in its `…`.
//!   The text is the source's own characters (control characters included, which JSON
//!   escapes), not the `?` the human report shows for them;
//! - a span over more than [`MAX_SPAN_LINES`] lines gives its first [`MAX_SPAN_LINES`] lines
//!   only, so that `text[i]` is still line `line_start + i`. `line_end` and `column_end` say
//!   where it ends.
//!
//! `byte_*`, `line_*` and `column_*` are always the span's own, in the whole file.

use super::clip::{window, ELLIPSIS};
use super::lines::floor;
use super::{human_one, LineIndex, SourceFile, Sources, MAX_QUOTED_LINE};
use dgcc_core::diag::{Diagnostic, Label};
use serde_json::{json, Value};

/// The most lines a span's `text` quotes (its first).
pub const MAX_SPAN_LINES: usize = 8;

/// One diagnostic as rustc's JSON (`$message_type: "diagnostic"`), on one line.
pub fn rustc_line(file: &SourceFile, d: &Diagnostic) -> String {
    rustc_value(file, &Sources::new(file.text, [d]), d).to_string()
}

/// [`rustc_line`] of each diagnostic, in order, made as the iterator is read; each file is read
/// once.
pub fn rustc_lines<'a>(file: &'a SourceFile<'a>, diags: &'a [Diagnostic]) -> impl Iterator<Item = String> + 'a {
    let sources = Sources::new(file.text, diags);
    diags.iter().map(move |d| rustc_value(file, &sources, d).to_string())
}

fn rustc_value(file: &SourceFile, sources: &Sources, d: &Diagnostic) -> Value {
    let dgc = super::is_dgc(file);
    let spans: Vec<Value> = d
        .labels
        .iter()
        .map(|l| span(file, sources, &Label { message: d.label_for(l, dgc).to_string(), ..l.clone() }))
        .collect();
    let mut children = vec![];
    if let Some(t) = &d.target {
        children.push(child("note", format!("target: {t}")));
    }
    if let Some(v) = d.vuid() {
        children.push(child("note", format!("vuid: {v}")));
    }
    for v in d.also_vuids() {
        children.push(child("note", format!("also: {v}")));
    }
    for (ron, n) in d.notes.iter().zip(d.notes_for(dgc)) {
        match n.strip_prefix("help: ") {
            Some(help) => {
                let mut c = child("help", help.to_string());
                // A fix for this help: its span, with the replacement, as rustc gives them.
                let fixes: Vec<Value> = d
                    .suggestions()
                    .iter()
                    .filter(|s| &s.help == ron)
                    .map(|s| {
                        let fix = Label { span: s.span, message: String::new(), primary: true, file: None };
                        let mut v = span(file, sources, &fix);
                        v["suggested_replacement"] = json!(s.replacement);
                        v["suggestion_applicability"] =
                            json!(if s.machine_applicable { "MachineApplicable" } else { "MaybeIncorrect" });
                        v
                    })
                    .collect();
                c["spans"] = json!(fixes);
                children.push(c);
            }
            None => children.push(child("note", n.to_string())),
        }
    }
    let explanation = dgcc_core::rules::lookup(d.code).map(|r| r.explanation);
    json!({
        "$message_type": "diagnostic",
        "message": d.message_for(dgc),
        "code": { "code": d.code, "explanation": explanation },
        "level": d.severity.name(),
        "spans": spans,
        "children": children,
        "rendered": human_one(file, sources, d),
    })
}

fn child(level: &str, message: String) -> Value {
    json!({ "message": message, "code": null, "level": level, "spans": [], "children": [], "rendered": null })
}

fn span(file: &SourceFile, sources: &Sources, l: &Label) -> Value {
    let name = match &l.file {
        Some(other) => other.name.as_str(),
        None => file.name,
    };
    let index = sources.index(l.file.as_ref());
    let text = index.text();
    let start = l.span.start.min(text.len());
    let end = l.span.end.clamp(start, text.len());
    let (line_start, column_start) = index.line_col(start);
    let (line_end, column_end) = index.line_col(end);
    // rustc quotes every line the span touches, with the highlighted columns of each (here at
    // most MAX_SPAN_LINES of them, each at most a window of MAX_QUOTED_LINE bytes).
    let lines: Vec<Value> = (line_start..=line_end.min(line_start + MAX_SPAN_LINES - 1))
        .map(|n| {
            let first = (n == line_start).then_some((start, column_start));
            let last = (n == line_end).then_some((end, column_end));
            quote_line(&index, n - 1, first, last)
        })
        .collect();
    json!({
        "file_name": name,
        "byte_start": start,
        "byte_end": end,
        "line_start": line_start,
        "line_end": line_end,
        "column_start": column_start,
        "column_end": column_end,
        "is_primary": l.primary,
        "text": lines,
        "label": if l.message.is_empty() { None } else { Some(&l.message) },
        "suggested_replacement": null,
        "suggestion_applicability": null,
        "expansion": null,
    })
}

/// Line `line` (0-based) of a span as rustc's `text` gives it, with the highlighted columns:
/// from `first` (the span's start byte and column) if the span starts on it, else from the
/// line's start; to `last` if it ends on it, else to the line's end.
fn quote_line(index: &LineIndex, line: usize, first: Option<(usize, usize)>, last: Option<(usize, usize)>) -> Value {
    let text = index.text();
    let start = index.line_start(line);
    let end = index.line_end(line);
    let end = if end > start && text.as_bytes()[end - 1] == b'\r' { end - 1 } else { end };
    let line_text = &text[start..end];
    if end - start <= MAX_QUOTED_LINE {
        let hs = first.map_or(1, |(_, c)| c);
        let he = last.map_or_else(|| line_text.chars().count() + 1, |(_, c)| c);
        return json!({ "text": line_text, "highlight_start": hs, "highlight_end": he });
    }
    // The highlighted bytes of this line, and the window around them the human report quotes.
    let from = first.map_or(start, |(b, _)| floor(text, b).clamp(start, end));
    let to = last.map_or(end, |(b, _)| floor(text, b).clamp(from, end));
    let shown = window(text, start..end, std::slice::from_ref(&(from..to)));
    let cut_before = shown.start > start;
    let cut_after = shown.end < end;
    let mut quoted = String::with_capacity(MAX_QUOTED_LINE + 2 * ELLIPSIS.len());
    if cut_before {
        quoted.push_str(ELLIPSIS);
    }
    quoted.push_str(&text[shown.clone()]);
    if cut_after {
        quoted.push_str(ELLIPSIS);
    }
    // Columns of `quoted`: `…` is one character.
    let column = |byte: usize| 1 + usize::from(cut_before) + text[shown.start..byte].chars().count();
    let hs = if from < shown.start { 1 } else { column(from.min(shown.end)) };
    let he = if to > shown.end { quoted.chars().count() + 1 } else { column(to.max(shown.start)) };
    json!({ "text": quoted, "highlight_start": hs, "highlight_end": he.max(hs) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgcc_core::span::Span;

    fn texts(text: &str, span: Span) -> Vec<(String, usize, usize)> {
        let file = SourceFile { name: "f.ron", text };
        let d = Diagnostic::new("E0404", "m").primary(span, "here");
        let v: Value = serde_json::from_str(&rustc_line(&file, &d)).unwrap();
        let t = v["spans"][0]["text"].as_array().unwrap().clone();
        t.iter()
            .map(|l| {
                let n = |k: &str| l[k].as_u64().unwrap() as usize;
                (l["text"].as_str().unwrap().to_string(), n("highlight_start"), n("highlight_end"))
            })
            .collect()
    }

    /// The characters `(text, start, end)` highlights.
    fn highlighted((text, start, end): &(String, usize, usize)) -> String {
        text.chars().skip(start - 1).take(end - start).collect()
    }

    #[test]
    fn a_long_line_is_quoted_as_the_window_around_the_span() {
        let text = format!("short\n{}é{}ERR{}\r\nnext", "a".repeat(1000), "b".repeat(500), "c".repeat(1000));
        let at = text.find("ERR").unwrap();
        let t = texts(&text, Span::new(at, at + 3));
        assert_eq!(t.len(), 1);
        assert!(t[0].0.starts_with('…') && t[0].0.ends_with('…') && t[0].0.len() <= MAX_QUOTED_LINE + 6, "{t:?}");
        assert_eq!(highlighted(&t[0]), "ERR");
        // A short line is given whole, with the columns of the line.
        assert_eq!(texts(&text, Span::new(1, 3)), vec![("short".to_string(), 2, 4)]);
        // A span from a long line into the next: the highlight runs into the `…` where the
        // window cuts the line, and the next line is given whole.
        let t = texts(&text, Span::new(at, text.len() - 2));
        assert_eq!(t.len(), 2);
        assert!(highlighted(&t[0]).starts_with("ERRccc") && highlighted(&t[0]).ends_with('…'), "{t:?}");
        assert_eq!(t[1], ("next".to_string(), 1, 3));
    }

    #[test]
    fn a_span_over_many_lines_quotes_its_first_lines() {
        let text: String = (0..30).map(|i| format!("line {i}\n")).collect();
        let t = texts(&text, Span::new(0, text.len() - 1));
        assert_eq!(t.len(), MAX_SPAN_LINES);
        assert_eq!((t[0].0.as_str(), t[7].0.as_str()), ("line 0", "line 7"));
        assert_eq!(highlighted(&t[7]), "line 7");
    }
}
