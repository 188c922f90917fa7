//! `dgcc fmt` (issue 16 item 6, issue 17 item 3): it keeps every comment in every position
//! both syntaxes allow (`tests/fmt/comments.ron` and `.dgc` hold one in each), formats files
//! in place, is idempotent, never changes what a description compiles to, converts with every
//! comment carried over, and `--check` changes nothing. Each test failed before the
//! formatter kept comments (it refused, or dropped them under `--drop-comments`), except the
//! one with 200,000 comments in one place, which passed but slowly: placing each comment
//! scanned the source, in time quadratic in their number.

#[path = "support/tmpfs.rs"]
mod tmpfs;

use dgcc::emit::{self, Output as Emitted};
use dgcc::syntax::{self, SyntaxKind};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("DGCC_CHECKOUT"))
}

fn dgcc_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dgcc")).args(args).current_dir(dir).output().expect("dgcc runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dgcc-fmt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A scratch folder holding the two fixtures with comments, their kernel and their shaders.
fn fixtures_in(name: &str) -> PathBuf {
    let d = scratch(name);
    for f in ["comments.ron", "comments.dgc", "k.comp", "v.vert", "f.frag"] {
        std::fs::copy(root().join("tests/fmt").join(f), d.join(f)).unwrap();
    }
    d
}

/// Every comment of `tests/fmt/comments.ron`, in order (a phrase of each).
const RON_COMMENTS: &[&str] = &[
    "A file header",
    "The pipeline's doc comment.",
    "after the opening parenthesis",
    "above the name",
    "after the name",
    "inside the targets",
    "inside the lints",
    "after the lints",
    "a block comment above the ranges",
    "after the list opens",
    "the range's doc comment",
    "after the range",
    "at the end of the ranges",
    "after the ranges close",
    "the layout's doc comment",
    "inside a stage list that spans lines",
    "after the layout's lints",
    "a block comment after a value",
    "after a default value, which fmt leaves out",
    "after the set opens",
    "before the fallback",
    "above the fallback",
    "before the fallback's value",
    "after the fallback",
    "after the fallback, before the set closes",
    "after the set",
    "not a doc comment: a blank line follows",
    "the token's doc comment",
    "after `fields: [`",
    "the field's doc comment",
    "after a field",
    "between fields",
    "at the end of the fields",
    "after the token",
    "a block comment",
    "of several lines",
    "at the end of the tokens",
    "at the end of the layout",
    "after the kernel's name",
    "inside local_size",
    "above writes",
    "a block comment above the shaders",
    "after the shaders open",
    "after the stage",
    "above the attributes",
    "after the attributes open",
    "inside an attribute",
    "after an attribute",
    "at the end of the attributes",
    "after the shader",
    "the shader's doc comment",
    "after a shader without attributes",
    "at the end of the shaders",
    "after the shaders close",
    "at the end of the pipeline",
    "after the pipeline",
    "at the end of the file",
];

/// Every comment of `tests/fmt/comments.dgc`, in order.
const DSL_COMMENTS: &[&str] = &[
    "A file header",
    "The pipeline's doc comment.",
    "after the opening brace",
    "above the targets",
    "after the targets",
    "above the lints",
    "after the lints",
    "the range's doc comment",
    "after the range",
    "between the ranges and the layout",
    "the layout's doc comment",
    "inside a stage list that spans lines",
    "above the layout's lints",
    "after the layout's lints",
    "after a setting",
    "after a default value, which fmt leaves out",
    "before the fallback",
    "above the fallback",
    "between `fallback` and its value",
    "after the fallback",
    "between the set and the next token, kept apart from its doc",
    "not a doc comment: a blank line follows",
    "the token's doc comment",
    "after the field block opens",
    "the field's doc comment",
    "after a field",
    "between fields, kept apart from the next field's doc",
    "at the end of the fields",
    "after the token",
    "at the end of the layout",
    "after the kernel's head",
    "above writes",
    "at the end of the kernel",
    "the shader's doc comment",
    "after the shader's head",
    "above an attribute",
    "after an attribute",
    "inside an attribute",
    "at the end of the shader",
    "after the shader",
    "between the shaders, not a doc comment: a blank line follows",
    "between the stage and the source",
    "after a shader without attributes",
    "at the end of the pipeline",
    "after the pipeline",
    "at the end of the file",
];

/// Each phrase occurs in `text` after the one before it.
fn assert_in_order(text: &str, phrases: &[&str]) {
    let mut at = 0;
    for p in phrases {
        match text[at..].find(p) {
            Some(i) => at += i + p.len(),
            None => panic!("`{p}` is missing or out of order in:\n{text}"),
        }
    }
}

/// Each phrase occurs in `text`.
fn assert_all_in(text: &str, phrases: &[&str]) {
    for p in phrases {
        assert!(text.contains(p), "`{p}` was lost:\n{text}");
    }
}

#[test]
fn fmt_keeps_every_comment_in_every_position_of_both_syntaxes_in_order() {
    let d = fixtures_in("keep");
    let o = dgcc_in(&d, &["fmt", "comments.ron", "comments.dgc"]);
    assert!(o.status.success(), "{}", text(&o));
    for (file, phrases, kind) in
        [("comments.ron", RON_COMMENTS, SyntaxKind::Ron), ("comments.dgc", DSL_COMMENTS, SyntaxKind::Dsl)]
    {
        let formatted = std::fs::read_to_string(d.join(file)).unwrap();
        let original = std::fs::read_to_string(root().join("tests/fmt").join(file)).unwrap();
        assert_ne!(formatted, original, "{file}: the fixture is not in canonical form, so fmt must change it");
        assert_in_order(&formatted, phrases);
        assert_in_order(&original, phrases);
        // The same pipeline, doc comments included.
        assert_eq!(syntax::parse(&formatted, kind).unwrap(), syntax::parse(&original, kind).unwrap(), "{file}");
        // Idempotent.
        assert_eq!(syntax::format(&formatted, kind, kind).unwrap(), formatted, "{file}: formatting again changed it");
    }
    let o = dgcc_in(&d, &["fmt", "--check", "comments.ron", "comments.dgc"]);
    assert!(o.status.success(), "formatted files fail --check: {}", text(&o));
}

#[test]
fn fmt_to_the_other_syntax_carries_every_comment() {
    let d = fixtures_in("convert");
    // `dgc` is another name for `dsl`; without -o a conversion goes to standard output.
    let o = dgcc_in(&d, &["fmt", "comments.ron", "--to", "dgc"]);
    assert!(o.status.success(), "{}", text(&o));
    let dgc = String::from_utf8(o.stdout).unwrap();
    assert_all_in(&dgc, RON_COMMENTS);
    assert!(!dgc.contains("/*"), "the .dgc language has only `//` comments:\n{dgc}");
    std::fs::write(d.join("converted.dgc"), &dgc).unwrap();
    let o = dgcc_in(&d, &["fmt", "comments.dgc", "--to", "ron", "-o", "converted.ron"]);
    assert!(o.status.success(), "{}", text(&o));
    let ron = std::fs::read_to_string(d.join("converted.ron")).unwrap();
    assert_all_in(&ron, DSL_COMMENTS);
    let o = dgcc_in(&d, &["fmt", "--check", "converted.ron", "converted.dgc"]);
    assert!(o.status.success(), "a conversion is formatted: {}", text(&o));
    // `-o -` prints instead of formatting in place.
    let o = dgcc_in(&d, &["fmt", "comments.ron", "-o", "-"]);
    assert!(o.status.success(), "{}", text(&o));
    let source = std::fs::read_to_string(d.join("comments.ron")).unwrap();
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        syntax::format(&source, SyntaxKind::Ron, SyntaxKind::Ron).unwrap()
    );
    assert_eq!(source, std::fs::read_to_string(root().join("tests/fmt/comments.ron")).unwrap());
    for (converted, kind, original, from) in [
        (&dgc, SyntaxKind::Dsl, "comments.ron", SyntaxKind::Ron),
        (&ron, SyntaxKind::Ron, "comments.dgc", SyntaxKind::Dsl),
    ] {
        let source = std::fs::read_to_string(d.join(original)).unwrap();
        assert_eq!(syntax::parse(converted, kind).unwrap(), syntax::parse(&source, from).unwrap(), "{original}");
    }
}

/// What `dgcc compile` writes for a description read from `path` with text `text`: the codes
/// of its diagnostics and every output.
fn compiled(path: &Path, text: &str) -> (Vec<&'static str>, Vec<String>) {
    let c = dgcc::driver::compile_source(path, text, &Default::default());
    let mut codes: Vec<&str> = c.diagnostics.iter().map(|d| d.code).collect();
    codes.sort();
    let outputs = match &c.manifest {
        Some(m) => Emitted::ALL.iter().map(|o| emit::emit(m, *o).unwrap()).collect(),
        None => vec![],
    };
    (codes, outputs)
}

/// Every description of `examples/` (mistakes and the embedding example's included).
fn examples() -> Vec<PathBuf> {
    let mut v = vec![];
    for dir in ["examples", "examples/mistakes", "examples/embed/layouts"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if SyntaxKind::from_path(&p).is_some() {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

#[test]
fn formatting_or_converting_never_changes_what_a_description_compiles_to() {
    let mut files = examples();
    files.extend([root().join("tests/fmt/comments.ron"), root().join("tests/fmt/comments.dgc")]);
    for path in files {
        let kind = SyntaxKind::from_path(&path).unwrap();
        let source = std::fs::read_to_string(&path).unwrap();
        let before = compiled(&path, &source);
        let name = path.display();
        if !path.starts_with(root().join("examples/mistakes")) {
            assert!(before.0.iter().all(|c| !c.starts_with('E')) && !before.1.is_empty(), "{name}: {:?}", before.0);
        }
        for to in [SyntaxKind::Ron, SyntaxKind::Dsl] {
            let formatted = syntax::format(&source, kind, to).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            // Beside the original, so that kernel sources resolve alike.
            let as_file = path.with_extension(to.extension());
            assert!(compiled(&as_file, &formatted) == before, "{name} formatted as {to:?} compiles differently");
        }
    }
}

/// Examples that `fmt --check` does not pass yet, and what `fmt` would change: another branch
/// edits them now. The test fails once one of them is formatted, so that it leaves this list.
const NOT_YET_FORMATTED: &[(&str, &str)] = &[];

#[test]
fn fmt_check_passes_on_every_example() {
    let files = examples();
    let names: Vec<String> = files.iter().map(|p| p.strip_prefix(root()).unwrap().display().to_string()).collect();
    let mut args = vec!["fmt", "--check"];
    args.extend(names.iter().map(String::as_str));
    let o = dgcc_in(&root(), &args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let listed: Vec<&str> = err.lines().filter_map(|l| l.strip_suffix(": not formatted")).collect();
    let expected: Vec<&str> = NOT_YET_FORMATTED.iter().map(|(f, _)| *f).collect();
    assert_eq!(listed, expected, "{err}");
    assert_eq!(o.status.code(), Some(if expected.is_empty() { 0 } else { 1 }), "{err}");
}

#[test]
fn fmt_check_lists_the_unformatted_files_and_changes_nothing() {
    let d = fixtures_in("check");
    let canonical =
        syntax::format(&std::fs::read_to_string(d.join("comments.dgc")).unwrap(), SyntaxKind::Dsl, SyntaxKind::Dsl)
            .unwrap();
    std::fs::write(d.join("clean.dgc"), &canonical).unwrap();
    let before = std::fs::read(d.join("comments.ron")).unwrap();
    let o = dgcc_in(&d, &["fmt", "--check", "clean.dgc", "comments.ron"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("comments.ron: not formatted") && !err.contains("clean.dgc: not"), "{err}");
    assert_eq!(std::fs::read(d.join("comments.ron")).unwrap(), before, "--check wrote the file");
    assert_eq!(std::fs::read_to_string(d.join("clean.dgc")).unwrap(), canonical);
    let names: Vec<String> =
        std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(names.len(), 6, "no temporary file is left: {names:?}");
}

#[test]
fn fmt_refuses_to_write_one_syntax_into_a_file_named_for_the_other() {
    let d = fixtures_in("refuse");
    for (args, output) in [
        (&["fmt", "comments.dgc", "--to", "ron", "-o", "out.dgc"][..], "out.dgc"),
        (&["fmt", "comments.ron", "--to", "dsl", "-o", "out.ron"][..], "out.ron"),
        (&["fmt", "comments.ron", "--to", "dgc", "-o", "out.txt"][..], "out.txt"),
    ] {
        let o = dgcc_in(&d, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains("refusing to write"), "{}", text(&o));
        assert!(!d.join(output).exists());
    }
    let o = dgcc_in(&d, &["fmt", "comments.dgc", "comments.ron", "-o", "x.dgc"]);
    assert_eq!(o.status.code(), Some(2), "-o with two files: {}", text(&o));
    let o = dgcc_in(&d, &["fmt", "comments.dgc", "comments.ron", "--to", "ron"]);
    assert_eq!(o.status.code(), Some(2), "converting two files to standard output: {}", text(&o));
    assert_eq!(
        std::fs::read(d.join("comments.ron")).unwrap(),
        std::fs::read(root().join("tests/fmt/comments.ron")).unwrap(),
        "nothing was written"
    );
}

#[test]
fn fmt_in_place_keeps_a_byte_order_mark() {
    let d = fixtures_in("bom");
    let source = std::fs::read_to_string(d.join("comments.dgc")).unwrap();
    std::fs::write(d.join("bom.dgc"), format!("\u{feff}{source}")).unwrap();
    let o = dgcc_in(&d, &["fmt", "bom.dgc"]);
    assert!(o.status.success(), "{}", text(&o));
    let written = std::fs::read_to_string(d.join("bom.dgc")).unwrap();
    let body = written.strip_prefix('\u{feff}').expect("the byte order mark is kept");
    assert_eq!(body, syntax::format(&source, SyntaxKind::Dsl, SyntaxKind::Dsl).unwrap());
    assert!(dgcc_in(&d, &["fmt", "--check", "bom.dgc"]).status.success());
}

// ---- several files, the advice of --check, links ---------------------------------------------

/// A description that parses but is not formatted.
const UNFORMATTED: &str =
    "Pipeline(name:\"a\",layouts:[(name:\"L\",stages:[Compute],max_sequences:1,tokens:[Dispatch])])\n";

#[test]
fn fmt_of_several_files_writes_none_unless_every_one_formats() {
    let d = scratch("all-or-none");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("a.ron"), UNFORMATTED).unwrap();
    std::fs::write(d.join("sub/c.ron"), UNFORMATTED.replace("\"a\"", "\"c\"")).unwrap();
    std::fs::write(d.join("b.ron"), "Pipeline(name:\"b\",\n").unwrap();
    std::fs::write(d.join("e.dgc"), "pipeline e {\n    layout L [compute] {\n").unwrap();
    std::fs::write(d.join("notes.txt"), "not a description\n").unwrap();
    let untouched = |args: &[&str]| {
        assert_eq!(std::fs::read_to_string(d.join("a.ron")).unwrap(), UNFORMATTED, "{args:?} wrote a.ron");
        assert_eq!(
            std::fs::read_to_string(d.join("sub/c.ron")).unwrap(),
            UNFORMATTED.replace("\"a\"", "\"c\""),
            "{args:?} wrote sub/c.ron"
        );
    };
    // Two files that do not parse: both are reported, and neither valid file is written.
    let args = ["fmt", "a.ron", "b.ron", "sub/c.ron", "e.dgc"];
    let o = dgcc_in(&d, &args);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("b.ron:") && err.contains("e.dgc:"), "every file's errors are reported: {err}");
    assert!(err.contains("2 of 4 files could not be formatted; no file was changed"), "{err}");
    untouched(&args);
    // A missing file, or one named for neither syntax: a usage error, and nothing is written.
    for args in [["fmt", "a.ron", "missing.ron", "sub/c.ron"], ["fmt", "a.ron", "sub/c.ron", "notes.txt"]] {
        let o = dgcc_in(&d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(args[2 + usize::from(args[3] == "notes.txt")]), "{}", text(&o));
        assert!(text(&o).contains("no file was changed"), "{}", text(&o));
        untouched(&args);
    }
    // Once every file formats, every one is written, in both folders (a file named twice once).
    let o = dgcc_in(&d, &["fmt", "a.ron", "sub/c.ron", "./a.ron"]);
    assert!(o.status.success(), "{}", text(&o));
    for (file, source) in [("a.ron", UNFORMATTED.to_string()), ("sub/c.ron", UNFORMATTED.replace("\"a\"", "\"c\""))] {
        let want = syntax::format(&source, SyntaxKind::Ron, SyntaxKind::Ron).unwrap();
        assert_eq!(std::fs::read_to_string(d.join(file)).unwrap(), want, "{file}");
    }
    let names: Vec<String> =
        std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(names.len(), 5, "no temporary file is left: {names:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn fmt_of_files_in_several_folders_puts_back_what_it_wrote_when_a_later_folder_fails() {
    // A real full disk (a tmpfs, which needs root, as the CI runs) for the second folder: the
    // first folder's file is written before the second's fails, and gets its old text back.
    let d = scratch("full");
    let full = d.join("full");
    let Some(_mounted) = tmpfs::Tmpfs::mount(&full, 64, "fmt_of_files_in_several_folders") else { return };
    std::fs::write(d.join("a.ron"), UNFORMATTED).unwrap();
    std::fs::write(full.join("c.ron"), UNFORMATTED).unwrap();
    // Fill the rest of it.
    let mut filler = std::fs::File::create(full.join("filler")).unwrap();
    while std::io::Write::write_all(&mut filler, &[0; 4096]).is_ok() {}
    let o = dgcc_in(&d, &["fmt", "a.ron", "full/c.ron"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("full/c.ron") && text(&o).contains("no file was changed"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(d.join("a.ron")).unwrap(), UNFORMATTED, "a.ron was left formatted");
    assert_eq!(std::fs::read_to_string(full.join("c.ron")).unwrap(), UNFORMATTED);
    let names: Vec<String> =
        std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(names.len(), 2, "no temporary file is left: {names:?}");
}

/// The command `dgcc fmt --check` advises, run by the shell in `dir`.
#[cfg(unix)]
fn run_the_advice(dir: &Path, stderr: &str) -> Output {
    let advice = stderr.split("(run `").nth(1).and_then(|s| s.split("`)").next()).unwrap_or_else(|| panic!("{stderr}"));
    let bin = Path::new(env!("CARGO_BIN_EXE_dgcc")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    Command::new("sh").arg("-c").arg(advice).env("PATH", path).current_dir(dir).output().unwrap()
}

#[cfg(unix)]
#[test]
fn fmt_check_advises_a_command_after_which_the_check_passes() {
    for (flags, files) in [
        (&[][..], &["my file.ron", "comments.dgc"][..]),
        (&["--drop-comments"][..], &["my file.ron", "comments.dgc"][..]),
        (&["--to", "ron", "--drop-comments"][..], &["my file.ron"][..]),
    ] {
        let d = fixtures_in("advice");
        std::fs::rename(d.join("comments.ron"), d.join("my file.ron")).unwrap();
        let mut args = vec!["fmt", "--check"];
        args.extend(flags);
        args.extend(files);
        let o = dgcc_in(&d, &args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", text(&o));
        let advised = run_the_advice(&d, &String::from_utf8_lossy(&o.stderr));
        assert!(advised.status.success(), "{args:?}: {}", text(&advised));
        let o = dgcc_in(&d, &args);
        assert!(o.status.success(), "{args:?}: the advised command did not make the check pass: {}", text(&o));
    }
}

#[test]
fn fmt_check_refuses_to_compare_a_file_with_the_other_syntax() {
    // A `.ron` file is never the `.dgc` text `--to dgc` makes of it: the check could never
    // pass, and no `dgcc fmt` in place could make it.
    let d = fixtures_in("check-to");
    for (to, file) in [("dgc", "comments.ron"), ("ron", "comments.dgc")] {
        let o = dgcc_in(&d, &["fmt", "--check", "--to", to, file]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--check compares") && err.contains(file) && !err.contains("(run `"), "{err}");
    }
    // --to naming the file's own syntax changes nothing.
    let canonical =
        syntax::format(&std::fs::read_to_string(d.join("comments.ron")).unwrap(), SyntaxKind::Ron, SyntaxKind::Ron)
            .unwrap();
    std::fs::write(d.join("clean.ron"), canonical).unwrap();
    assert!(dgcc_in(&d, &["fmt", "--check", "--to", "ron", "clean.ron"]).status.success());
}

#[cfg(unix)]
#[test]
fn fmt_checks_an_output_link_by_the_file_it_leads_to() {
    let d = fixtures_in("link");
    let original = std::fs::read_to_string(d.join("comments.ron")).unwrap();
    // `alias.dgc` names the `.dgc` language but leads to the RON input.
    std::os::unix::fs::symlink("comments.ron", d.join("alias.dgc")).unwrap();
    let o = dgcc_in(&d, &["fmt", "comments.ron", "--to", "dgc", "-o", "alias.dgc"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("refusing to write") && text(&o).contains("comments.ron"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(d.join("comments.ron")).unwrap(), original);
    // A link to another RON file, not an input.
    std::fs::write(d.join("other.ron"), UNFORMATTED).unwrap();
    std::os::unix::fs::symlink("other.ron", d.join("to-other.dgc")).unwrap();
    let o = dgcc_in(&d, &["fmt", "comments.dgc", "-o", "to-other.dgc"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(d.join("other.ron")).unwrap(), UNFORMATTED);
    // A link named for the syntax written that leads to the file itself formats it in place,
    // and stays a link.
    std::os::unix::fs::symlink("comments.ron", d.join("alias.ron")).unwrap();
    let o = dgcc_in(&d, &["fmt", "comments.ron", "-o", "alias.ron"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(std::fs::symlink_metadata(d.join("alias.ron")).unwrap().file_type().is_symlink());
    let want = syntax::format(&original, SyntaxKind::Ron, SyntaxKind::Ron).unwrap();
    assert_eq!(std::fs::read_to_string(d.join("comments.ron")).unwrap(), want);
}

// ---- many comments in one place ---------------------------------------------------------------

/// 200,000 `/**/` in one place, in each of the places that took time quadratic in their number
/// (each comment's placement scanned the source from the span before it, which holds every
/// comment before it: 200,000 took seconds, a million minutes): every one is kept, in RON
/// and in the `.dgc` language. It only has to finish: speed is for benchmarks, not tests.
#[test]
fn fmt_keeps_every_one_of_many_block_comments_in_one_place() {
    const N: usize = 200_000;
    let source = std::fs::read_to_string(root().join("examples/compute.ron")).unwrap();
    for after in ["Pipeline(", "name: \"compute\",", "layouts: [", "tokens: ["] {
        let at = source.find(after).unwrap() + after.len();
        let input = format!("{}{}{}", &source[..at], "/**/".repeat(N), &source[at..]);
        let ron = syntax::format(&input, SyntaxKind::Ron, SyntaxKind::Ron)
            .unwrap_or_else(|e| panic!("after `{after}`, to RON: {e:?}"));
        assert_eq!(ron.matches("/**/").count(), N, "after `{after}`, to RON");
        // The `.dgc` language has only `//` comments: an empty `/**/` becomes an empty `//`.
        let dgc = syntax::format(&input, SyntaxKind::Ron, SyntaxKind::Dsl)
            .unwrap_or_else(|e| panic!("after `{after}`, to .dgc: {e:?}"));
        assert_eq!(dgc.lines().filter(|l| l.trim() == "//").count(), N, "after `{after}`, to .dgc");
    }
}

/// A million `/**/` after `Pipeline(` fit the 4 MiB input, but each gets a line of its own, so
/// the formatted text would pass what dgcc reads: refused as too large (it said "does not
/// parse", a bug to report), and nothing is written.
#[test]
fn fmt_refuses_a_result_larger_than_dgcc_reads() {
    let source = std::fs::read_to_string(root().join("examples/compute.ron")).unwrap();
    let at = source.find("Pipeline(").unwrap() + "Pipeline(".len();
    let room = dgcc::syntax::limits::MAX_SOURCE_BYTES - source.len();
    let input = format!("{}{}{}", &source[..at], "/**/".repeat(room / 4), &source[at..]);
    assert!(input.len() <= dgcc::syntax::limits::MAX_SOURCE_BYTES);
    match syntax::format(&input, SyntaxKind::Ron, SyntaxKind::Ron) {
        Err(syntax::FormatError::TooLarge(bytes)) => assert!(bytes > dgcc::syntax::limits::MAX_SOURCE_BYTES),
        other => panic!("expected TooLarge, got {:?}", other.map(|o| o.len())),
    }
}

// ---- any comment anywhere ---------------------------------------------------------------------

/// Byte offsets of `source` where a comment can go without splitting a token: before a
/// character that follows whitespace or a bracket or comma, outside strings and comments.
fn gaps(source: &str) -> Vec<usize> {
    let mut out = vec![0];
    let mut in_string = false;
    let mut prev = ' ';
    for (i, c) in source.char_indices() {
        if c == '"' && prev != '\\' {
            in_string = !in_string;
        }
        if !in_string && (prev.is_whitespace() || "([{,;:".contains(prev)) && c != '"' {
            out.push(i);
        }
        prev = c;
    }
    out.push(source.len());
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Comments put anywhere between tokens of the fixtures: whatever still parses formats
    /// (with every comment kept, which `format` checks itself), idempotently, in both syntaxes.
    #[test]
    fn comments_anywhere_are_kept_and_formatting_is_idempotent(
        fixture in prop::sample::select(vec!["tests/syntax/scene", "tests/syntax/all_kinds", "tests/fmt/comments"]),
        ron in any::<bool>(),
        inserts in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4), 1..12),
    ) {
        let kind = if ron { SyntaxKind::Ron } else { SyntaxKind::Dsl };
        let mut source = std::fs::read_to_string(root().join(format!("{fixture}.{}", kind.extension()))).unwrap();
        for (k, (at, form)) in inserts.into_iter().enumerate() {
            let gaps = gaps(&source);
            let i = gaps[at.index(gaps.len())];
            let comment = match (form, kind) {
                (0, _) => format!("// c{k}\n"),
                (1, _) => format!("\n// c{k}\n\n"),
                (2, SyntaxKind::Ron) => format!("/* c{k} */ "),
                (3, SyntaxKind::Ron) => format!("/* c{k}\n   d{k} */\n"),
                _ => format!(" // c{k}\n"),
            };
            source.insert_str(i, &comment);
        }
        let Ok(pipeline) = syntax::parse(&source, kind) else { return Ok(()) };
        for to in [SyntaxKind::Ron, SyntaxKind::Dsl] {
            let out = syntax::format(&source, kind, to).unwrap_or_else(|e| panic!("{e:?}\n{source}"));
            prop_assert_eq!(&syntax::parse(&out, to).unwrap(), &pipeline);
            let again = syntax::format(&out, to, to).unwrap_or_else(|e| panic!("{e:?}\n{out}"));
            prop_assert_eq!(&again, &out, "not idempotent; from:\n{}", source);
        }
    }
}
