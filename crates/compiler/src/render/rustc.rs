//! `--message-format rustc`: one diagnostic per line in rustc's JSON shape.
//!
//! Why a third shape next to `json`: editors, `cargo`-aware CI annotators and problem matchers
//! already read rustc's diagnostics (rust-analyzer's flycheck, GitHub annotators built on
//! `cargo_metadata`), so dgcc's findings land in them unchanged. `json` stays dgcc's own stable
//! contract; this renderer maps the same data onto rustc's: every label a span (secondary
//! labels non-primary), notes and help as children (a help with a fix carries it as a span with
//! `suggested_replacement`, as rustc's do), the human report as `rendered`.

use super::{human, line_col, SourceFile};
use dgcc_core::diag::{Diagnostic, Label};
use serde_json::{json, Value};

/// One diagnostic as rustc's JSON (`$message_type: "diagnostic"`), on one line.
pub fn rustc_line(file: &SourceFile, d: &Diagnostic) -> String {
    rustc_value(file, d).to_string()
}

fn rustc_value(file: &SourceFile, d: &Diagnostic) -> Value {
    let dgc = super::is_dgc(file);
    let spans: Vec<Value> =
        d.labels.iter().map(|l| span(file, &Label { message: d.label_for(l, dgc).to_string(), ..l.clone() })).collect();
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
                        let mut v =
                            span(file, &Label { span: s.span, message: String::new(), primary: true, file: None });
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
        "rendered": human(file, std::slice::from_ref(d)),
    })
}

fn child(level: &str, message: String) -> Value {
    json!({ "message": message, "code": null, "level": level, "spans": [], "children": [], "rendered": null })
}

fn span(file: &SourceFile, l: &Label) -> Value {
    let (name, text) = match &l.file {
        Some(other) => (other.name.as_str(), other.text.as_str()),
        None => (file.name, file.text),
    };
    let start = l.span.start.min(text.len());
    let end = l.span.end.clamp(start, text.len());
    let (line_start, column_start) = line_col(text, start);
    let (line_end, column_end) = line_col(text, end);
    // rustc quotes every line the span touches, with the highlighted columns of each.
    let mut lines = vec![];
    for (i, line) in text.split('\n').enumerate().skip(line_start - 1).take(line_end + 1 - line_start) {
        let n = i + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        let hs = if n == line_start { column_start } else { 1 };
        let he = if n == line_end { column_end } else { line.chars().count() + 1 };
        lines.push(json!({ "text": line, "highlight_start": hs, "highlight_end": he }));
    }
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
