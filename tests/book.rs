//! Keeps the book and the README true.
//!
//! 1. The diagnostics index (`book/src/diagnostics/`) is generated from the rule registry, with
//!    each code's failing test input (`tests/check/err/CODE.ron`) and its rendered diagnostic;
//!    a stale page fails. Regenerate with `DGCC_BLESS=1 cargo test --test book`.
//! 2. Every `ron` / `dgc` code block in the book and the README compiles, or fails with exactly
//!    the code its info string names (```` ```ron,fails=E0404 ````); `ron,ignore` marks a
//!    fragment that is not a whole description.
//! 3. Every `console` block's `$ dgcc …` command is run from the repository root and its
//!    output (stdout then stderr) must equal the lines that follow it.
//! 4. `book/src/SUMMARY.md` lists every page, and is exactly what `book/summary.sh` writes.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("DGCC_CHECKOUT"))
}

fn bless() -> bool {
    std::env::var("DGCC_BLESS").is_ok_and(|v| v == "1")
}

fn rendered_example(code: &str) -> Option<(String, String)> {
    let path = root().join("tests/check/err").join(format!("{code}.ron"));
    let text = std::fs::read_to_string(&path).ok()?;
    let rel = format!("tests/check/err/{code}.ron");
    let c = dgcc::driver::compile_source(&path, &text, &Default::default());
    let diags: Vec<_> = c.diagnostics.into_iter().filter(|d| d.code == code).collect();
    let shown = dgcc::render::human(&dgcc::render::SourceFile { name: &rel, text: &text }, &diags);
    // Messages may name files by absolute path; the book must not depend on the checkout's place.
    let shown = shown.replace(&format!("{}/", root().display()), "");
    Some((text, shown))
}

fn diagnostics_pages() -> Vec<(PathBuf, String)> {
    let dir = root().join("book/src/diagnostics");
    let mut pages = vec![];
    let mut index = String::from(
        "# Diagnostics index\n\nEvery diagnostic dgcc reports, generated from the rule registry \
(`crates/core/src/rules/`). `dgcc explain CODE` prints the same text. Codes are stable: a code is never \
reused or deleted.\n\nA warning (`W`) or a note (`N`) can be allowed, made a warning or denied one code at a time: \
`-A`, `-W` and `-D CODE` on the command line, `lints` in a description \
([the language](../language.md#lints)), `Build::allow` and `Build::deny` in a build script. An error (`E`) is \
always an error. `--message-format rustc` and `sarif` give these codes to editors and code-scanning services \
([Getting started](../getting-started.md#for-tools-json-diagnostics-and-exit-codes)).\n\n| code | severity | VUID | what |\n|---|---|---|---|\n",
    );
    for r in dgcc::rules::all() {
        index.push_str(&format!(
            "| [{0}]({0}.md) | {1} | {2} | {3} |\n",
            r.code,
            r.severity.name(),
            r.vuid.map(|v| format!("`{v}`")).unwrap_or_else(|| "—".into()),
            r.title.replace('|', "\\|")
        ));
        let mut page = format!("# {}: {}\n\n", r.code, r.title);
        page.push_str(&format!("Severity: **{}**", r.severity.name()));
        if let Some(v) = r.vuid {
            page.push_str(&format!(" · Enforces `{v}`"));
        }
        for v in r.also() {
            page.push_str(&format!(", also `{v}`"));
        }
        page.push_str("\n\n");
        page.push_str(r.explanation.trim());
        page.push('\n');
        if let Some((input, shown)) = rendered_example(r.code) {
            page.push_str("\n## Example\n\nThis description (from the test suite, `tests/check/err/");
            page.push_str(r.code);
            page.push_str(".ron`) triggers it:\n\n```ron,ignore\n");
            page.push_str(input.trim_end());
            page.push_str("\n```\n\n`dgcc check` reports:\n\n```text\n");
            page.push_str(shown.trim_end());
            page.push_str("\n```\n");
        }
        pages.push((dir.join(format!("{}.md", r.code)), page));
    }
    pages.push((dir.join("index.md"), index));
    pages
}

#[test]
fn diagnostics_index_is_generated_and_fresh() {
    let pages = diagnostics_pages();
    let mut stale = vec![];
    for (path, text) in &pages {
        let current = std::fs::read_to_string(path).unwrap_or_default();
        if current != *text {
            if bless() {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            } else {
                stale.push(path.strip_prefix(root()).unwrap().display().to_string());
            }
        }
    }
    // No page for a code that no longer exists.
    let wanted: Vec<&PathBuf> = pages.iter().map(|(p, _)| p).collect();
    for e in std::fs::read_dir(root().join("book/src/diagnostics")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") && !wanted.contains(&&p) {
            stale.push(format!("{} (no such code)", p.display()));
        }
    }
    assert!(stale.is_empty(), "stale diagnostics pages: {stale:?}\nregenerate: DGCC_BLESS=1 cargo test --test book");
}

/// Code blocks of a markdown file: (info string, body, 1-based line of the fence).
fn blocks(md: &str) -> Vec<(String, String, usize)> {
    let mut out = vec![];
    let mut cur: Option<(String, String, usize)> = None;
    for (i, line) in md.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match (&mut cur, fence) {
            (None, true) => {
                cur = Some((line.trim_start().trim_start_matches('`').trim().to_string(), String::new(), i + 1))
            }
            (Some(_), true) => out.push(cur.take().unwrap()),
            (Some((_, body, _)), false) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, false) => {}
        }
    }
    out
}

fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") && !p.starts_with(root().join("book/src/diagnostics")) {
                out.push(p);
            }
        }
    }
    walk(&root().join("book/src"), &mut files);
    files.retain(|p| p.exists());
    files
}

#[test]
fn every_description_in_the_docs_compiles_or_fails_as_it_says() {
    let mut failures = vec![];
    let mut checked = 0;
    for file in doc_files() {
        let md = std::fs::read_to_string(&file).unwrap();
        for (info, body, line) in blocks(&md) {
            let mut parts = info.split(',').map(str::trim);
            let lang = parts.next().unwrap_or("");
            let ext = match lang {
                "ron" => "ron",
                "dgc" => "dgc",
                _ => continue,
            };
            let attrs: Vec<&str> = parts.collect();
            if attrs.contains(&"ignore") {
                continue;
            }
            let expect: Option<&str> = attrs.iter().find_map(|a| a.strip_prefix("fails="));
            // Descriptions in the docs live "in" the examples folder so relative paths resolve.
            let path = root().join("examples").join(format!("doc-block.{ext}"));
            let c = dgcc::driver::compile_source(&path, &body, &Default::default());
            let errors: Vec<&str> = c.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
            // `fails=CODE` promises exactly that error, every time it is reported, and no other.
            let ok = match expect {
                None => errors.is_empty(),
                Some(code) => !errors.is_empty() && errors.iter().all(|e| *e == code),
            };
            checked += 1;
            if !ok {
                failures.push(format!(
                    "{}:{line}: expected {:?}, got errors {errors:?}",
                    file.display(),
                    expect.unwrap_or("no errors")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A parser that stopped finding blocks would pass everything: there are two dozen.
    assert!(checked >= 20, "only {checked} description blocks found in the docs");
    eprintln!("checked {checked} description blocks");
}

#[test]
fn every_command_in_the_docs_prints_what_the_docs_say() {
    let mut failures = vec![];
    let mut commands = 0;
    for file in doc_files() {
        let md = std::fs::read_to_string(&file).unwrap();
        for (info, body, line) in blocks(&md) {
            if info != "console" {
                continue;
            }
            let mut lines = body.lines().peekable();
            while let Some(l) = lines.next() {
                let Some(cmd) = l.strip_prefix("$ ") else { continue };
                let mut expected = vec![];
                while let Some(n) = lines.peek() {
                    if n.starts_with("$ ") {
                        break;
                    }
                    expected.push(lines.next().unwrap().trim_end().to_string());
                }
                let words: Vec<&str> = cmd.split_whitespace().collect();
                if words.first() != Some(&"dgcc") {
                    continue; // only dgcc commands are ours to check
                }
                commands += 1;
                let out = std::process::Command::new(env!("CARGO_BIN_EXE_dgcc"))
                    .args(&words[1..])
                    .current_dir(root())
                    .env("NO_COLOR", "1")
                    .output()
                    .unwrap();
                let mut got: Vec<String> = String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .chain(String::from_utf8_lossy(&out.stderr).lines())
                    .map(|s| s.trim_end().to_string())
                    .collect();
                // The note about kernel checks skipped without `shaderc` depends on how the
                // binary was built, not on the command: it is not part of what the docs promise.
                let build_note = |l: &String| l.starts_with("note: built without the `shaderc` feature");
                got.retain(|l| !build_note(l));
                expected.retain(|l| !build_note(l));
                while got.last().is_some_and(|s| s.is_empty()) {
                    got.pop();
                }
                while expected.last().is_some_and(|s| s.is_empty()) {
                    expected.pop();
                }
                if got != expected {
                    failures.push(format!(
                        "{}:{line}: `{cmd}` printed:\n{}\n--- the docs say:\n{}",
                        file.display(),
                        got.join("\n"),
                        expected.join("\n")
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!("ran {commands} commands of the docs");
    assert!(commands >= MIN_COMMANDS, "only {commands} `$ dgcc` commands found in the docs");
}

/// The `$ dgcc …` commands the docs hold at least (a parser that found none would pass).
const MIN_COMMANDS: usize = 20;

#[test]
fn the_summary_lists_every_chapter_and_diagnostics_page() {
    let summary = std::fs::read_to_string(root().join("book/src/SUMMARY.md")).unwrap();
    let mut missing = vec![];
    for e in std::fs::read_dir(root().join("book/src"))
        .unwrap()
        .chain(std::fs::read_dir(root().join("book/src/diagnostics")).unwrap())
        .chain(std::fs::read_dir(root().join("book/src/measured")).unwrap())
    {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "md") || p.ends_with("SUMMARY.md") {
            continue;
        }
        let rel = p.strip_prefix(root().join("book/src")).unwrap().display().to_string();
        if !summary.contains(&format!("]({rel})")) {
            missing.push(rel);
        }
    }
    assert!(missing.is_empty(), "not in book/src/SUMMARY.md (run book/summary.sh): {missing:?}");
}

/// `book/summary.sh` writes the summary from its own list of pages; a page added to SUMMARY.md
/// by hand but not to the script would be dropped the next time someone runs it.
#[test]
fn the_summary_is_what_book_summary_sh_writes() {
    let out = std::process::Command::new("bash")
        .arg(root().join("book/summary.sh"))
        .arg("--check")
        .output()
        .expect("run bash book/summary.sh --check");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
