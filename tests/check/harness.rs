//! Running a description the way `dgcc check` does and comparing the result with the
//! expectations written in the file.
//!
//! Expectations: `//~ E0104` at the end of a line says "a diagnostic with code E0104 whose
//! primary label starts on this line" (several codes may follow one `//~`, repeated codes mean
//! repeated diagnostics). A file's expectations must match its diagnostics exactly, errors and
//! warnings alike.
//!
//! Profile edits: `//@ set TARGET VALUE = N` and `//@ unset TARGET VALUE` change a built-in
//! profile for this file only (`VALUE` is the Vulkan name, as in `dgcc profiles`), for rules
//! that no built-in device breaks (a device without multi-draw count but with mesh shaders…).
//! `//@ strict` checks the file as `dgcc check --strict` does.
//! Files without edits go through `dgcc::driver::compile_source`, exactly the CLI's path.

use dgcc::device::{self, Limit, Profile};
use dgcc::diag::Diagnostic;
use dgcc::render::{human, SourceFile};
use std::path::{Path, PathBuf};

pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("DGCC_CHECKOUT"))
}

/// The `.ron` files of a folder, sorted.
pub fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

/// A `//@` profile edit.
#[derive(Debug)]
struct Edit {
    target: String,
    limit: Limit,
    value: Option<u64>,
}

fn parse_number(s: &str) -> u64 {
    let s = s.trim();
    match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    }
    .unwrap_or_else(|_| panic!("`{s}` is not a number"))
}

fn edits(text: &str) -> Vec<Edit> {
    let mut out = vec![];
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("//@") else { continue };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let limit = |name: &str| Limit::from_vk_name(name).unwrap_or_else(|| panic!("`{name}` is not a profile value"));
        match words.as_slice() {
            ["set", target, name, "=", value] => {
                out.push(Edit { target: target.to_string(), limit: limit(name), value: Some(parse_number(value)) })
            }
            ["unset", target, name] => out.push(Edit { target: target.to_string(), limit: limit(name), value: None }),
            ["strict"] => {}
            _ => panic!("bad directive `{line}`: use `//@ set TARGET VALUE = N` or `//@ unset TARGET VALUE`"),
        }
    }
    out
}

/// Every diagnostic of the file, as `dgcc check` would report them (as `dgcc check --strict`
/// with a `//@ strict` line: W0012 and W0013 become errors).
pub fn diagnostics(path: &Path, text: &str) -> Vec<Diagnostic> {
    let mut diags = diagnostics_as_written(path, text);
    if text.lines().any(|l| l.trim() == "//@ strict") {
        for d in &mut diags {
            if d.code == "W0012" || d.code == "W0013" {
                d.severity = dgcc::diag::Severity::Error;
            }
        }
    }
    diags
}

fn diagnostics_as_written(path: &Path, text: &str) -> Vec<Diagnostic> {
    let edits = edits(text);
    if edits.is_empty() {
        return dgcc::driver::compile_source(path, text, &Default::default()).diagnostics;
    }
    let kind = dgcc::syntax::SyntaxKind::from_path(path).unwrap_or(dgcc::syntax::SyntaxKind::Ron);
    let pipeline = match dgcc::syntax::parse(text, kind) {
        Ok(p) => p,
        Err(d) => return d,
    };
    let mut profiles: Vec<Profile> = pipeline
        .targets
        .iter()
        .map(|t| {
            device::builtin(&t.node)
                .unwrap_or_else(|| panic!("files with //@ edits use built-in targets, not `{}`", t.node))
        })
        .collect();
    for e in &edits {
        let p = profiles
            .iter_mut()
            .find(|p| p.name == e.target)
            .unwrap_or_else(|| panic!("`{}` is not a target of the file", e.target));
        match e.value {
            Some(v) => {
                p.set(e.limit, v);
            }
            None => p.clear(e.limit),
        }
    }
    let mut diags = vec![];
    let mut laid = vec![];
    for l in &pipeline.layouts {
        let (out, d) = dgcc::layout::compile_layout(&l.node);
        diags.extend(d);
        laid.push(out);
    }
    diags.extend(dgcc::check::check(&pipeline, &laid, &profiles));
    diags
}

/// 1-based line of a byte offset.
pub fn line_of(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())].matches('\n').count() + 1
}

/// The `(code, line)` pairs written as `//~` markers, sorted.
pub fn expected(text: &str) -> Vec<(String, usize)> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        if let Some(pos) = line.find("//~") {
            for code in line[pos + 3..].split_whitespace() {
                assert!(
                    code.len() == 5 && ["E", "W", "N"].iter().any(|p| code.starts_with(p)),
                    "line {}: `{code}` after //~ is not a diagnostic code",
                    i + 1
                );
                out.push((code.to_string(), i + 1));
            }
        }
    }
    out.sort();
    out
}

/// The `(code, line)` pairs of diagnostics, by primary label (line 0 without one), sorted.
pub fn actual(text: &str, diags: &[Diagnostic]) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = diags
        .iter()
        .map(|d| (d.code.to_string(), d.primary_span().map(|s| line_of(text, s.start)).unwrap_or(0)))
        .collect();
    out.sort();
    out
}

/// Diagnostics rendered as people see them, with the file named relative to the crate.
pub fn render(path: &Path, text: &str, diags: &[Diagnostic]) -> String {
    let root = crate_dir();
    let name = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().replace('\\', "/");
    // Messages that quote a path (an unreadable profile file) quote it absolutely; keep
    // snapshots independent of where the crate is checked out.
    human(&SourceFile { name: &name, text }, diags).replace(&format!("{}/", root.display()), "")
}

/// Compare a file's markers with its diagnostics; `Err` explains the difference.
pub fn compare(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let diags = diagnostics(path, &text);
    let (want, got) = (expected(&text), actual(&text, &diags));
    if want == got {
        return Ok(());
    }
    let missing: Vec<_> = want.iter().filter(|w| !got.contains(w)).collect();
    let extra: Vec<_> = got.iter().filter(|g| !want.contains(g)).collect();
    Err(format!(
        "{}:\n  expected but not reported: {missing:?}\n  reported but not expected: {extra:?}\n{}",
        path.display(),
        render(path, &text, &diags)
    ))
}
