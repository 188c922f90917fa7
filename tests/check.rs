//! The validator's test data is its specification.
//!
//! - `tests/check/err/<CODE>.ron`: one failing description per diagnostic code, with every
//!   expected diagnostic written on its line as `//~ CODE`; the markers must match exactly,
//!   and the rendered diagnostics are snapshots (`tests/check/snapshots/`).
//! - `tests/check/ok/*.ron` and `examples/*.ron`: valid descriptions. Files under `ok/` must be
//!   silent (or mark their warnings); examples must have no errors, and their warnings are
//!   snapshots too.
//! - `examples/mistakes/*.ron`: real-world mistakes; a header line `// produces: CODE, …`
//!   lists the errors each must give.
//! - `check/light.rs`: the rules the runtime runs on manifests, including codes only an edited
//!   manifest can produce.
//! - `check/props.rs`: random descriptions (proptest).
//! - `check/spelling.rs`: the reports of `.dgc` descriptions name description elements as the
//!   `.dgc` language spells them (issue 17).

#[path = "check/harness.rs"]
mod harness;
#[path = "check/light.rs"]
mod light;
#[path = "check/props.rs"]
mod props;
#[path = "check/spelling.rs"]
mod spelling;

use harness::{compare, crate_dir, diagnostics, ron_files};
use std::collections::BTreeSet;

/// Registry codes that no description can trigger, and why.
const NO_FILE: &[(&str, &str)] = &[
    (
        "E0123",
        "a description names one index-buffer mode (`Vulkan` or `Dxgi`); only an edited manifest has 0 or both bits",
    ),
    (
        "E0312",
        "a description writes no stages for push data and dgcc declares VK_SHADER_STAGE_ALL; only an edited manifest has others",
    ),
    (
        "E0401",
        "retired: token data that overlap are legal Vulkan, now the warning W0011; no input produces E0401",
    ),
    ("E0309", "dgcc always declares a sequence index as 4 bytes; only an edited manifest has another size"),
    ("E0410", "the layout engine always builds a record that tiles the stride; only an edited manifest breaks it"),
    ("E0499", "an internal error of the layout engine: a description that triggers it is a bug to fix, not a test"),
    (
        "E0507",
        "`subgroup:` cannot ask for full subgroups and a varying size at once; only an edited manifest has flags 0x3",
    ),
    ("E0516", "`Required` never allows a varying size; only an edited manifest has a required size with flag 0x1"),
];

#[test]
fn every_error_file_reports_exactly_its_markers() {
    let failures: Vec<String> =
        ron_files(&crate_dir().join("tests/check/err")).iter().filter_map(|p| compare(p).err()).collect();
    assert!(failures.is_empty(), "{} file(s) differ:\n\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_registry_code_has_an_error_file() {
    let dir = crate_dir().join("tests/check/err");
    let files: BTreeSet<String> =
        ron_files(&dir).iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    // E00xx are the front ends' and the profile loader's codes, tested with their own inputs in
    // tests/syntax.rs and tests/profiles.rs; E058x, W05xx and N05xx are the kernel and shader
    // checks', tested with shader sources in tests/shader.rs; E08xx are stream contents the GPU stream validator
    // finds, tested with planted records in tests/runtime_validate.rs; E09xx are record-time
    // requirements the runtime and the generated checks refuse, tested per family in
    // dgcc-core's `requirements` and dgcc-runtime's `refuse` (and tests/emit*.rs for the
    // generated Rust and C). Those that also have a file here must pass it.
    let separately_tested = |c: &str| {
        c.starts_with("E00")
            || c.starts_with("E058")
            || c.starts_with("W05")
            || c.starts_with("N05")
            || c.starts_with("E08")
            || c.starts_with("E09")
    };
    let codes: BTreeSet<String> = dgcc::rules::all()
        .iter()
        .map(|r| r.code.to_string())
        .filter(|c| !separately_tested(c) || files.contains(c))
        .collect();
    let exempt: BTreeSet<String> = NO_FILE.iter().map(|(c, _)| c.to_string()).collect();
    let missing: Vec<&String> = codes.iter().filter(|c| !files.contains(*c) && !exempt.contains(*c)).collect();
    assert!(missing.is_empty(), "codes without tests/check/err/<code>.ron: {missing:?}");
    let stray: Vec<&String> = files.iter().filter(|f| !codes.contains(*f)).collect();
    assert!(stray.is_empty(), "error files named after no registered code: {stray:?}");
    let exempt_with_file: Vec<&String> = exempt.iter().filter(|c| files.contains(*c)).collect();
    assert!(exempt_with_file.is_empty(), "codes listed as impossible but with a file: {exempt_with_file:?}");
    for code in &exempt {
        assert!(codes.contains(code), "{code} is exempt but not registered");
    }
    for f in &files {
        let text = std::fs::read_to_string(dir.join(format!("{f}.ron"))).unwrap();
        assert!(harness::expected(&text).iter().any(|(c, _)| c == f), "{f}.ron never expects {f} itself");
    }
}

#[test]
fn error_snapshots() {
    insta::with_settings!({ snapshot_path => "check/snapshots", prepend_module_to_snapshot => false }, {
        insta::glob!("check/err", "*.ron", |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let diags = diagnostics(path, &text);
            insta::assert_snapshot!(harness::render(path, &text, &diags));
        });
    });
}

#[test]
fn ok_files_are_silent_except_marked_warnings() {
    let files = ron_files(&crate_dir().join("tests/check/ok"));
    assert!(files.len() >= 5, "expected the valid descriptions of tests/check/ok, found {files:?}");
    let failures: Vec<String> = files.iter().filter_map(|p| compare(p).err()).collect();
    assert!(failures.is_empty(), "{} file(s) differ:\n\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn examples_check_without_errors() {
    let examples = ron_files(&crate_dir().join("examples"));
    assert!(examples.len() >= 5, "expected the five examples, found {examples:?}");
    let mut failures = vec![];
    for path in &examples {
        let text = std::fs::read_to_string(path).unwrap();
        let diags = diagnostics(path, &text);
        if dgcc::diag::has_errors(&diags) {
            failures.push(harness::render(path, &text, &diags));
        }
    }
    assert!(failures.is_empty(), "examples with errors:\n{}", failures.join("\n"));
}

#[test]
fn example_warnings() {
    insta::with_settings!({ snapshot_path => "check/snapshots", prepend_module_to_snapshot => false }, {
        insta::glob!("../examples", "*.ron", |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let diags = diagnostics(path, &text);
            insta::assert_snapshot!(harness::render(path, &text, &diags));
        });
    });
}

/// The codes a mistake's header promises: `// produces: E0503, E0021`.
fn promised(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("// produces:"))
        .flat_map(|rest| rest.split([',', ' ']).filter(|w| !w.is_empty()).map(str::to_string).collect::<Vec<_>>())
        .collect()
}

#[test]
fn mistakes_produce_the_errors_they_promise() {
    let mistakes = ron_files(&crate_dir().join("examples/mistakes"));
    assert!(mistakes.len() >= 8, "expected at least 8 mistakes, found {}", mistakes.len());
    let mut failures = vec![];
    for path in &mistakes {
        let text = std::fs::read_to_string(path).unwrap();
        let want = promised(&text);
        assert!(!want.is_empty(), "{} has no `// produces:` header", path.display());
        let diags = diagnostics(path, &text);
        let got: BTreeSet<String> = diags.iter().filter(|d| d.is_error()).map(|d| d.code.to_string()).collect();
        if got != want {
            failures.push(format!(
                "{}: promises {want:?}, errors are {got:?}\n{}",
                path.display(),
                harness::render(path, &text, &diags)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A token whose every typed field the layout engine rejects has size 0; E0303 names the field,
/// and the range is not reported as empty too (E0304 is for a token written without fields).
#[test]
fn rejected_fields_do_not_also_make_an_empty_range() {
    let with_fields = |fields: &str| {
        format!(
            r#"Pipeline(name: "t", targets: ["lavapipe"], push_constants: [(stages: [Vertex], offset: 0, size: 128)],
    layouts: [(name: "Draws", stages: [Vertex, Fragment], max_sequences: 64, tokens: [
        PushConstant(name: "huge", stages: [Vertex], offset: 0, fields: [{fields}]),
        Draw,
    ])])"#
        )
    };
    let codes = |text: String| {
        let diags = diagnostics(std::path::Path::new("inline.ron"), &text);
        diags.iter().map(|d| d.code.to_string()).collect::<Vec<_>>()
    };
    assert_eq!(codes(with_fields(r#"(name: "m", ty: Array(Mat4, 4294967295))"#)), ["E0303"]);
    assert_eq!(codes(with_fields(r#"(name: "m", ty: Array(Array(F32, 4), 4))"#)), ["E0303"]);
    // Written without fields, the token is still empty.
    assert_eq!(codes(with_fields("")), ["E0304"]);
}
