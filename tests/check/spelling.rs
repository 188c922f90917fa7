//! Issue 17: a `.dgc` description's diagnostics speak the `.dgc` language. Every message,
//! label, note and help of every `.dgc` example and mistake, and of every error file of
//! `tests/check/err` written as `.dgc` (`dgcc fmt --to dsl`), must name description elements
//! as the grammar spells them: `fallback binned`, `[vertex, fragment]`, `execution_set`,
//! `align 16;`, `max_sequences 64;`, not `fallback: Binned`, `Vertex | Fragment`,
//! `ExecutionSet`, `align: Some(16)`, `max_sequences: 64`. The RON reports are the snapshots of
//! `tests/check/snapshots` and the book, unchanged.
//!
//! Vulkan names and device property values (`supportedIndirectCommandsShaderStagesPipelineBinding
//! = Compute on radv`) are no description's spelling: a `name = value on target` part is not
//! read. Nor are the names the description gives (`layout \`Mesh\``): they are the user's.

use super::harness::{crate_dir, diagnostics, ron_files};
use dgcc::diag::Diagnostic;
use dgcc::syntax::SyntaxKind;
use std::path::{Path, PathBuf};

/// Substrings only RON writes: struct fields, `Some(..)`, RON's stage-set and field syntax.
const RON_ONLY: &[&str] = &[
    ": Binned",
    "Some(",
    "None",
    "(name:",
    "(stages:",
    "ExecutionSet(",
    "Vertex | Fragment",
    " | ",
    "kind:",
    "stages:",
    "tokens:",
    "mode:",
    "align:",
    "subgroup:",
    "size:",
    "flags:",
    "offset:",
    "glsl_layout:",
    "max_sequences:",
    "max_entries:",
    "stride:",
    "binding:",
    "fallback:",
    "push_constants:",
    "Array(",
    "`tokens`",
    "`push_constants`",
    "`stages`",
    "`at`",
    "`name`",
    "`shaders`",
];

/// Words only RON writes: the variant names of token kinds, stages, flags, layouts, modes,
/// set kinds and fallbacks, subgroup forms and field types.
fn ron_words() -> Vec<String> {
    let mut w: Vec<String> = dgcc::tokens::TOKENS.iter().map(|r| r.ron.to_string()).collect();
    w.extend(dgcc::stages::Stage::ALL.iter().map(|s| s.name().to_string()));
    w.extend(dgcc::types::FIELD_TYPES.iter().map(|r| r.ron.to_string()));
    for x in [
        "ExplicitPreprocess",
        "UnorderedSequences",
        "Std430",
        "Scalar",
        "Dxgi",
        "Binned",
        "Pipelines",
        "ShaderObjects",
        "Required",
        "Any",
        "Full",
        "Min",
        "Max",
        "Allow",
        "Warn",
        "Deny",
    ] {
        w.push(x.to_string());
    }
    w
}

/// `text` without its `vulkanName = value on target` parts (`Query::show`).
fn without_device_values(text: &str) -> String {
    text.split("; ")
        .filter(|part| {
            let Some((name, value)) = part.split_once(" = ") else { return true };
            let name = name.rsplit(' ').next().unwrap_or(name);
            let vulkan =
                name.starts_with(|c: char| c.is_ascii_lowercase()) && name.chars().any(|c| c.is_ascii_uppercase());
            !(vulkan && value.contains(" on "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `text` without the names the description gives to what it defines (`` layout `Mesh` ``),
/// which may be any word.
fn without_names(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let (before, after) = rest.split_at(open);
        out.push_str(before);
        let Some(close) = after[1..].find('`') else {
            out.push_str(after);
            return out;
        };
        let quoted = &after[..close + 2];
        let named = ["layout ", "kernel ", "pipeline ", "set ", "token "].iter().any(|w| before.ends_with(w));
        out.push_str(if named { "`…`" } else { quoted });
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}

/// The RON spellings in one message, label or note, as shown for a `.dgc` file.
fn ron_spellings(text: &str, words: &[String]) -> Vec<String> {
    let text = without_names(&without_device_values(text));
    let mut found: Vec<String> = RON_ONLY.iter().filter(|p| text.contains(**p)).map(|p| format!("`{p}`")).collect();
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if words.iter().any(|r| r == w) {
            found.push(format!("the word {w}"));
        }
    }
    found
}

/// What a `.dgc` file's report says: its message, every label and every note.
fn shown_texts(d: &Diagnostic) -> Vec<String> {
    let mut v: Vec<String> = vec![d.message_for(true).to_string()];
    v.extend(d.labels.iter().map(|l| d.label_for(l, true).to_string()));
    v.extend(d.notes_for(true).into_iter().map(str::to_string));
    v
}

fn problems(name: &str, diags: &[Diagnostic], words: &[String]) -> Vec<String> {
    let mut out = vec![];
    for d in diags {
        for t in shown_texts(d) {
            let found = ron_spellings(&t, words);
            if !found.is_empty() {
                out.push(format!("{name}: {}: \"{t}\" has {}", d.code, found.join(", ")));
            }
        }
    }
    out
}

fn dgc_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "dgc"))
        .collect();
    v.sort();
    v
}

/// The `.dgc` examples, mistakes and test inputs of the repository.
fn written_dgc_files() -> Vec<PathBuf> {
    let root = crate_dir();
    let mut v = vec![];
    for dir in ["examples", "examples/mistakes", "tests/syntax", "tests/fmt", "book/examples"] {
        v.extend(dgc_files(&root.join(dir)));
    }
    v
}

fn relative(p: &Path) -> String {
    p.strip_prefix(crate_dir()).unwrap_or(p).display().to_string()
}

#[test]
fn dgc_examples_and_mistakes_are_reported_in_dgc_spelling() {
    let words = ron_words();
    let files = written_dgc_files();
    assert!(files.len() >= 20, "expected the .dgc examples and mistakes, found {files:?}");
    let mut failures = vec![];
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        failures.extend(problems(&relative(p), &diagnostics(p, &text), &words));
    }
    assert!(failures.is_empty(), "RON spelling in .dgc reports:\n{}", failures.join("\n"));
}

/// Every rule's labels and notes: each error file of `tests/check/err`, written as `.dgc`,
/// reports what its RON form does, in the `.dgc` spelling.
#[test]
fn every_error_file_as_dgc_is_reported_in_dgc_spelling() {
    let words = ron_words();
    let mut failures = vec![];
    let mut converted = 0;
    for ron in ron_files(&crate_dir().join("tests/check/err")) {
        let text = std::fs::read_to_string(&ron).unwrap();
        let Ok(dgc_text) = dgcc::syntax::format(&text, SyntaxKind::Ron, SyntaxKind::Dsl) else { continue };
        // The printer writes a comment as `// text`: the profile edits read `//@`.
        let dgc_text = dgc_text.replace("// @", "//@");
        converted += 1;
        let dgc = ron.with_extension("dgc");
        let (a, b) = (diagnostics(&ron, &text), diagnostics(&dgc, &dgc_text));
        let codes = |d: &[Diagnostic]| {
            let mut v: Vec<&str> = d.iter().map(|d| d.code).collect();
            v.sort();
            v
        };
        if codes(&a) != codes(&b) {
            failures.push(format!("{}: RON reports {:?}, .dgc {:?}", relative(&ron), codes(&a), codes(&b)));
        }
        failures.extend(problems(&relative(&dgc), &b, &words));
    }
    assert!(converted >= 100, "only {converted} error files could be written as .dgc");
    assert!(failures.is_empty(), "{} problem(s):\n{}", failures.len(), failures.join("\n"));
}

/// What `dgcc check` prints for every `.dgc` example and mistake, for review by eye.
#[test]
fn dgc_reports() {
    let mut all = String::new();
    for p in written_dgc_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        let diags = diagnostics(&p, &text);
        all.push_str(&format!("=== {}\n", relative(&p)));
        all.push_str(&super::harness::render(&p, &text, &diags));
    }
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("dgc_reports", all);
    });
}

#[test]
fn the_patterns_catch_ron_spelling_and_spare_device_values() {
    let words = ron_words();
    for ron in [
        "`fallback: Binned`",
        "Vertex | Fragment not bindable",
        "help: drop the ExecutionSet token and bind one pipeline per layout on this target",
        "help: add `align: Some(16)` to round the stride up to 32",
        "help: use `kind: ShaderObjects`",
        "Array(F32, 4) at +4",
        "with `max_sequences: 64`, `draws` (DrawIndexedCount) allows a maxDrawCount of at most 262143",
        "shader-object execution set `s` has `max_entries: 1` but 2 stages (Vertex | Fragment)",
        "layout `Draw` has Fragment without Vertex or Mesh",
    ] {
        assert!(!ron_spellings(ron, &words).is_empty(), "{ron}");
    }
    for dgc in [
        "`fallback binned`",
        "[vertex, fragment] not bindable",
        "help: drop the execution_set token and bind one pipeline per layout on this target",
        "supportedIndirectCommandsShaderStagesPipelineBinding = Compute on radv; supportedIndirectCommandsShaderStagesShaderBinding = Vertex | Fragment on radv",
        "deviceGeneratedCommandsMultiDrawIndirectCount = false on minimum",
        "with `max_sequences 64;`, `draws` (draw_indexed_count) allows a maxDrawCount of at most 262143",
        "stride 12 of layout `Mesh` is not a multiple of 16",
        "layout `Draw` is written by kernel `Dispatch` from many invocations but keeps sequences in order",
    ] {
        assert_eq!(ron_spellings(dgc, &words), Vec::<String>::new(), "{dgc}");
    }
}
