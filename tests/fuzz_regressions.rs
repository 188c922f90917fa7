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
    files_in(&format!("tests/fuzz_regressions/{target}"), "")
}

/// The files of a folder of the checkout (those ending in `ext`), sorted; a folder that cannot
/// be read fails the test rather than counting as empty.
fn files_in(folder: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("DGCC_CHECKOUT")).join(folder);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && !is_hidden(p) && p.to_string_lossy().ends_with(ext))
        .collect();
    files.sort();
    files
}

/// Real inputs through an entry point, beside the saved ones: the fuzzer's seeds and the
/// repository's own files. A target with no saved regression still runs its entry point on
/// what it was seeded with, so the entry point itself cannot rot unnoticed.
fn check_real_inputs(entry: fn(&[u8]), files: &[PathBuf], header: &[u8], at_least: usize) {
    assert!(files.len() >= at_least, "expected at least {at_least} real inputs, found {}", files.len());
    for file in files {
        let bytes = [header, &std::fs::read(file).unwrap()].concat();
        if let Err(why) = run_bounded(entry, bytes) {
            panic!("{}: {why}", file.display());
        }
    }
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
    check_target("profile_json", entry::profile_json, 5);
}

#[test]
fn ron_inputs() {
    let ron = |b: &[u8]| entry::front_end(b, entry::Syntax::Ron);
    check_target("ron", ron, 0);
    check_real_inputs(ron, &[files_in("fuzz/seeds/ron", ".ron"), files_in("examples", ".ron")].concat(), &[], 6);
}

#[test]
fn dgc_inputs() {
    let dgc = |b: &[u8]| entry::front_end(b, entry::Syntax::Dsl);
    check_target("dgc", dgc, 0);
    check_real_inputs(dgc, &[files_in("fuzz/seeds/dgc", ".dgc"), files_in("examples", ".dgc")].concat(), &[], 6);
}

#[test]
fn pipeline_inputs() {
    check_target("pipeline", entry::pipeline, 5);
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
    check_target("fmt", entry::fmt, 1);
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
    check_target("manifest", entry::manifest, 2);
}

#[test]
fn kernel_lint_inputs() {
    check_target("kernel_lint", entry::kernel_lint, 0);
    // The runtime's own kernels, linted for 128 invocations with 4-wide subgroups possible.
    let header = [128, 0, 1, 0, 4, 0, 1];
    check_real_inputs(entry::kernel_lint, &files_in("shaders/runtime", ".comp"), &header, 8);
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
