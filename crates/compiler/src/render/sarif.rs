//! `--message-format sarif`: one SARIF 2.1.0 log for every file checked.
//!
//! Why: code-scanning services (GitHub code scanning, Azure DevOps, SonarQube) take SARIF and
//! show each result at its file and line in a review; the rule registry becomes the log's
//! `rules`, so a result links to its explanation and VUID. The log is built from the same data
//! as the other renderers: [`results`] per file as it is checked, [`log`] once at the end. A
//! diagnostic's fixes (`diag::Suggestion`) become the result's `fixes`. [`results`] reads each
//! file once (`super::Sources`) and finds a rule's index in a table made once, whatever the
//! number of diagnostics.

use super::{SourceFile, Sources};
use dgcc_core::diag::{Diagnostic, Label, Severity};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The SARIF 2.1.0 schema the log declares: OASIS's own document (errata 01), the one
/// `tests/diag_formats.rs` validates every log against.
pub const SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The results of one file's diagnostics. Paths are given as the command line named them:
/// relative to where dgcc ran (`uriBaseId` `%SRCROOT%`), or an absolute path's `file://` URI.
pub fn results(file: &SourceFile, diags: &[Diagnostic]) -> Vec<Value> {
    let sources = Sources::new(file.text, diags);
    // A rule's index in the log's `rules` (`log` lists `rules::all()` in this order).
    let rules: HashMap<&str, usize> = dgcc_core::rules::all().iter().enumerate().map(|(i, r)| (r.code, i)).collect();
    diags.iter().map(|d| result(file, &sources, &rules, d)).collect()
}

fn result(file: &SourceFile, sources: &Sources, rules: &HashMap<&str, usize>, d: &Diagnostic) -> Value {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let dgc = super::is_dgc(file);
    let mut text = d.message_for(dgc).to_string();
    for n in d.notes_for(dgc) {
        text.push('\n');
        text.push_str(n);
    }
    let primary = d.primary_label();
    let locations: Vec<Value> = primary.map(|l| location(file, sources, l, None)).into_iter().collect();
    let related: Vec<Value> = d
        .labels
        .iter()
        .filter(|l| !l.primary)
        .enumerate()
        .map(|(i, l)| {
            location(file, sources, &Label { message: d.label_for(l, dgc).to_string(), ..l.clone() }, Some(i))
        })
        .collect();
    let mut r = json!({
        "ruleId": d.code,
        "level": level,
        "message": { "text": text },
        "locations": locations,
    });
    if let Some(i) = rules.get(d.code) {
        r["ruleIndex"] = json!(i);
    }
    if !related.is_empty() {
        r["relatedLocations"] = json!(related);
    }
    let fixes: Vec<Value> = d
        .suggestions()
        .iter()
        .map(|s| {
            let fix = Label { span: s.span, message: String::new(), primary: true, file: None };
            let at = location(file, sources, &fix, None);
            let help = d
                .notes
                .iter()
                .zip(d.notes_for(dgc))
                .find(|(ron, _)| **ron == s.help)
                .map_or(s.help.as_str(), |(_, n)| n);
            json!({
                "description": { "text": help.strip_prefix("help: ").unwrap_or(help) },
                "artifactChanges": [{
                    "artifactLocation": at["physicalLocation"]["artifactLocation"],
                    "replacements": [{
                        "deletedRegion": at["physicalLocation"]["region"],
                        "insertedContent": { "text": s.replacement },
                    }],
                }],
            })
        })
        .collect();
    if !fixes.is_empty() {
        r["fixes"] = json!(fixes);
    }
    let mut props = serde_json::Map::new();
    if let Some(t) = &d.target {
        props.insert("target".into(), json!(t));
    }
    if let Some(v) = d.vuid() {
        props.insert("vuid".into(), json!(v));
    }
    if !props.is_empty() {
        r["properties"] = Value::Object(props);
    }
    r
}

fn location(file: &SourceFile, sources: &Sources, l: &Label, id: Option<usize>) -> Value {
    let name = match &l.file {
        Some(other) => other.name.as_str(),
        None => file.name,
    };
    let index = sources.index(l.file.as_ref());
    let len = index.text().len();
    let start = l.span.start.min(len);
    let end = l.span.end.clamp(start, len);
    let (sl, sc) = index.line_col(start);
    let (el, ec) = index.line_col(end);
    let mut v = json!({
        "physicalLocation": {
            "artifactLocation": artifact_location(name),
            "region": { "startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec },
        },
    });
    if let Some(i) = id {
        v["id"] = json!(i);
        if !l.message.is_empty() {
            v["message"] = json!({ "text": l.message });
        }
    }
    v
}

/// Where a file is: a relative path is a URI reference against `%SRCROOT%` (the folder the
/// analysis ran in); an absolute one is a `file://` URI of its own, with no base.
fn artifact_location(path: &str) -> Value {
    let p = path.replace('\\', "/");
    let drive = p.as_bytes().get(1) == Some(&b':') && p.as_bytes().first().is_some_and(u8::is_ascii_alphabetic);
    if p.starts_with('/') {
        json!({ "uri": format!("file://{}", uri(&p)) })
    } else if drive {
        json!({ "uri": format!("file:///{}", uri(&p)) })
    } else {
        json!({ "uri": uri(p.strip_prefix("./").unwrap_or(&p)), "uriBaseId": "%SRCROOT%" })
    }
}

/// A path (with `/` separators) as a URI path: every byte but RFC 3986's unreserved characters,
/// `/` and a drive's `:` percent-encoded, UTF-8 included.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for (i, b) in path.bytes().enumerate() {
        let keep = b.is_ascii_alphanumeric() || b"-._~/".contains(&b) || (b == b':' && i == 1);
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The whole log: the tool with every rule of the registry, and the results.
/// The whole log: the rules, `results`, and one invocation, unsuccessful with a notification
/// per entry of `failures` (a file that could not be checked at all), so that a log without
/// results is not read as a clean check.
pub fn log(results: Vec<Value>, failures: &[String]) -> String {
    let rules: Vec<Value> = dgcc_core::rules::all()
        .into_iter()
        .map(|r| {
            let level = match r.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "note",
            };
            let mut v = json!({
                "id": r.code,
                "shortDescription": { "text": r.title },
                "fullDescription": { "text": r.explanation },
                "help": { "text": format!("dgcc explain {}", r.code), "markdown": r.explanation },
                "defaultConfiguration": { "level": level },
            });
            if let Some(vuid) = r.vuid {
                v["properties"] = json!({ "vuid": vuid });
            }
            v
        })
        .collect();
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "dgcc",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "originalUriBaseIds": { "%SRCROOT%": { "description": { "text": "the folder dgcc ran in" } } },
            "columnKind": "unicodeCodePoints",
            "results": results,
            "invocations": [{
                "executionSuccessful": failures.is_empty(),
                "toolExecutionNotifications": failures
                    .iter()
                    .map(|f| json!({ "level": "error", "message": { "text": f } }))
                    .collect::<Vec<_>>(),
            }],
        }],
    });
    let mut s = serde_json::to_string_pretty(&log).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::artifact_location;
    use serde_json::json;

    #[test]
    fn paths_are_uri_references_relative_to_the_source_root_or_file_uris() {
        let relative = json!({ "uri": "a%20b/%C3%BC%5B1%5D.ron", "uriBaseId": "%SRCROOT%" });
        assert_eq!(artifact_location("./a b/ü[1].ron"), relative);
        assert_eq!(artifact_location("/tmp/x y/s.ron"), json!({ "uri": "file:///tmp/x%20y/s.ron" }));
        assert_eq!(artifact_location("C:\\w\\s.ron"), json!({ "uri": "file:///C:/w/s.ron" }));
        assert_eq!(artifact_location("50%#?.ron")["uri"], "50%25%23%3F.ron");
    }
}
