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
    each_result(file, diags, |r| r).collect()
}

/// Each diagnostic's result, passed through `keep` as it is made (so that a caller keeping
/// text never holds every result as a `Value`).
fn each_result<'a, T: 'a>(
    file: &'a SourceFile<'a>,
    diags: &'a [Diagnostic],
    keep: impl Fn(Value) -> T + 'a,
) -> impl Iterator<Item = T> + 'a {
    let sources = Sources::new(file.text, diags);
    // A rule's index in the log's `rules` (`log` lists `rules::all()` in this order).
    let rules: HashMap<&str, usize> = dgcc_core::rules::all().iter().enumerate().map(|(i, r)| (r.code, i)).collect();
    diags.iter().map(move |d| keep(result(file, &sources, &rules, d)))
}

/// The results of every file checked so far, for one log at the end, each kept as its compact
/// JSON text: a result held as a `Value` takes several KB (690,000 diagnostics of one 4 MiB
/// description held 5 GB), its text a few hundred bytes. [`Results::log`] writes the same log
/// as [`log`], one result at a time.
#[derive(Default)]
pub struct Results {
    texts: Vec<String>,
}

impl Results {
    /// Add the results of one file's diagnostics (as [`results`] makes them).
    pub fn add(&mut self, file: &SourceFile, diags: &[Diagnostic]) {
        self.texts.extend(each_result(file, diags, |r| r.to_string()));
    }

    /// How many results there are.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// The whole log ([`log`]'s text), written as it is displayed.
    pub fn log<'a>(&'a self, failures: &'a [String]) -> impl std::fmt::Display + 'a {
        LogText { results: &self.texts, failures }
    }
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

/// The whole log: the rules, `results`, and one invocation, unsuccessful with a notification
/// per entry of `failures` (a file that could not be checked at all), so that a log without
/// results is not read as a clean check. Pretty-printed, with a final line break.
pub fn log(results: Vec<Value>, failures: &[String]) -> String {
    let texts: Vec<String> = results.iter().map(Value::to_string).collect();
    LogText { results: &texts, failures }.to_string()
}

/// The log with its results as compact JSON texts, each parsed back only while it is written.
struct LogText<'a> {
    results: &'a [String],
    failures: &'a [String],
}

impl std::fmt::Display for LogText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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
        // The keys in the order the log has always had them (`Run`'s fields in this order).
        let log = Log {
            schema: SCHEMA,
            version: "2.1.0",
            runs: [Run {
                tool: json!({ "driver": {
                    "name": "dgcc",
                    "version": env!("CARGO_PKG_VERSION"),
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                }}),
                original_uri_base_ids: json!({ "%SRCROOT%": { "description": { "text": "the folder dgcc ran in" } } }),
                column_kind: "unicodeCodePoints",
                results: Texts(self.results),
                invocations: json!([{
                    "executionSuccessful": self.failures.is_empty(),
                    "toolExecutionNotifications": self
                        .failures
                        .iter()
                        .map(|f| json!({ "level": "error", "message": { "text": f } }))
                        .collect::<Vec<_>>(),
                }]),
            }],
        };
        serde_json::to_writer_pretty(FmtWriter(f), &log).map_err(|_| std::fmt::Error)?;
        f.write_str("\n")
    }
}

#[derive(serde::Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Value,
    original_uri_base_ids: Value,
    column_kind: &'static str,
    results: Texts<'a>,
    invocations: Value,
}

/// Results kept as text, serialized as the values they hold.
struct Texts<'a>(&'a [String]);

impl serde::Serialize for Texts<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for text in self.0 {
            // Each text is a `Value` this module wrote: it parses back to the same value.
            let value: Value = serde_json::from_str(text).map_err(S::Error::custom)?;
            seq.serialize_element(&value)?;
        }
        seq.end()
    }
}

/// serde_json's writer onto a formatter: serde_json writes whole UTF-8 pieces (it splits text
/// only at escapes, which are ASCII).
struct FmtWriter<'a, 'b>(&'a mut std::fmt::Formatter<'b>);

impl std::io::Write for FmtWriter<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = std::str::from_utf8(buf).map_err(std::io::Error::other)?;
        self.0.write_str(text).map_err(std::io::Error::other)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{artifact_location, log, results, Results};
    use crate::render::SourceFile;
    use dgcc_core::diag::Diagnostic;
    use dgcc_core::span::Span;
    use serde_json::json;

    #[test]
    fn results_kept_as_text_write_the_same_log_as_values() {
        let text = "(name: \"ü\", stages: [Vértex])\n\"\u{1b}\"";
        let file = SourceFile { name: "dir ü/s.ron", text };
        let diags = vec![
            Diagnostic::new("E0404", "stride «too small»").primary(Span::new(1, 5), "here \u{1b}"),
            Diagnostic::new("W0005", "no label"),
        ];
        let failures = vec!["could not read `ä.ron`: \"gone\"".to_string()];
        let mut kept = Results::default();
        kept.add(&file, &diags);
        kept.add(&file, &diags[1..]);
        assert_eq!(kept.len(), 3);
        let mut values = results(&file, &diags);
        values.extend(results(&file, &diags[1..]));
        let written = kept.log(&failures).to_string();
        assert_eq!(written, log(values, &failures));
        assert!(written.ends_with("}\n") && written.contains("\"ruleId\": \"E0404\""), "{written}");
        assert_eq!(Results::default().log(&[]).to_string(), log(vec![], &[]));
    }

    #[test]
    fn paths_are_uri_references_relative_to_the_source_root_or_file_uris() {
        let relative = json!({ "uri": "a%20b/%C3%BC%5B1%5D.ron", "uriBaseId": "%SRCROOT%" });
        assert_eq!(artifact_location("./a b/ü[1].ron"), relative);
        assert_eq!(artifact_location("/tmp/x y/s.ron"), json!({ "uri": "file:///tmp/x%20y/s.ron" }));
        assert_eq!(artifact_location("C:\\w\\s.ron"), json!({ "uri": "file:///C:/w/s.ron" }));
        assert_eq!(artifact_location("50%#?.ron")["uri"], "50%25%23%3F.ron");
    }
}
