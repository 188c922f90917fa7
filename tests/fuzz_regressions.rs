//! Every input in `tests/fuzz_regressions/<target>/` through the fuzz target that found it.
//!
//! Why through `fuzz/src/lib.rs` itself (included below): a saved crash is only fixed when the
//! same oracle that flagged it — not a weaker copy — passes. Each input runs on its own thread
//! with the main thread's stack size (where libFuzzer runs it) and must finish within
//! `TIME_BOUND` without panicking. The README there says what each saved input is.
//! `pathological.rs` adds hand-made extreme descriptions with the same kind of bounds.

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod entry;

#[path = "fuzz_regressions/pathological.rs"]
mod pathological;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Generous: a debug build, two shared cores. The fuzzer's own limit is 10 s on a release build.
const TIME_BOUND: Duration = Duration::from_secs(30);

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("DGCC_CHECKOUT")).join("tests/fuzz_regressions").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file() && !is_hidden(p)).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// `.gitkeep` and the like hold a folder in git; they are not inputs.
fn is_hidden(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// Run `entry` on `bytes` on a fresh 8 MiB-stack thread; `Err` says what went wrong.
fn run_bounded(entry: fn(&[u8]), bytes: Vec<u8>) -> Result<Duration, String> {
    let (tx, rx) = mpsc::channel();
    let started = Instant::now();
    let worker = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let outcome = std::panic::catch_unwind(|| entry(&bytes));
            let _ = tx.send(outcome.is_ok());
        })
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    match rx.recv_timeout(TIME_BOUND) {
        Ok(true) => {
            let _ = worker.join();
            Ok(started.elapsed())
        }
        Ok(false) => Err("panicked (message above)".into()),
        Err(_) => Err(format!("did not finish within {TIME_BOUND:?}")),
    }
}

/// Saved inputs that still fail in code this suite does not own: `target/file` per line of
/// `open.txt`, with the cause. Each must still fail — when one passes, its fix has landed and
/// the line goes, so an open entry can neither hide a regression nor outlive its bug.
fn open_inputs() -> Vec<String> {
    let list = Path::new(env!("DGCC_CHECKOUT")).join("tests/fuzz_regressions/open.txt");
    let text = std::fs::read_to_string(list).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

fn check_target(target: &str, entry: fn(&[u8]), at_least: usize) {
    let files = inputs(target);
    assert!(files.len() >= at_least, "expected at least {at_least} saved inputs for `{target}`, found {}", files.len());
    let open = open_inputs();
    let mut failures = vec![];
    for file in &files {
        let key = format!("{target}/{}", file.file_name().unwrap_or_default().to_string_lossy());
        let bytes = std::fs::read(file).unwrap();
        match (run_bounded(entry, bytes), open.contains(&key)) {
            (Err(why), false) => failures.push(format!("{}: {why}", file.display())),
            (Ok(_), true) => failures.push(format!("{key} passes now: remove it from open.txt")),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "saved fuzz inputs:\n{}", failures.join("\n"));
}

#[test]
fn profile_json_inputs() {
    check_target("profile_json", entry::profile_json, 1);
}

#[test]
fn ron_inputs() {
    check_target("ron", |b| entry::front_end(b, entry::Syntax::Ron), 0);
}

#[test]
fn dgc_inputs() {
    check_target("dgc", |b| entry::front_end(b, entry::Syntax::Dsl), 0);
}

#[test]
fn pipeline_inputs() {
    check_target("pipeline", entry::pipeline, 0);
}

#[test]
fn names_inputs() {
    check_target("names", entry::names, 0);
    // The name variants the target builds, with a long run (0xff) past 64 KiB of name.
    for data in [&b"\x02\x05\x06\x01\x02\x00\x01"[..], b"\x01\xff\xff\x01", b"\x00\x03\x01\x02\x03\x00"] {
        entry::names(data);
    }
}

#[test]
fn fmt_inputs() {
    check_target("fmt", entry::fmt, 0);
    // Every fixture with comments, read in both syntaxes, formatted and converted.
    for file in ["tests/fmt/comments.ron", "tests/fmt/comments.dgc", "tests/syntax/scene.ron", "tests/syntax/scene.dgc"]
    {
        let text = std::fs::read(Path::new(env!("DGCC_CHECKOUT")).join(file)).unwrap();
        let syntax = u8::from(file.ends_with(".dgc"));
        for selector in [syntax, syntax | 2] {
            entry::fmt(&[&[selector][..], &text].concat());
        }
    }
}

#[test]
fn manifest_inputs() {
    check_target("manifest", entry::manifest, 0);
}

#[test]
fn kernel_lint_inputs() {
    check_target("kernel_lint", entry::kernel_lint, 0);
}

/// The harness itself: a panicking entry point is caught, not passed.
#[test]
fn the_harness_catches_panics() {
    fn panics(_: &[u8]) {
        panic!("expected by the_harness_catches_panics_and_hangs");
    }
    assert!(run_bounded(panics, vec![]).unwrap_err().contains("panicked"));
    fn fine(b: &[u8]) {
        assert!(b.len() < 2);
    }
    assert!(run_bounded(fine, vec![1]).is_ok());
}
