//! Writing a report's folder: `bench.json` (everything, raw frames included), `bench.md`
//! (the tables), `bench.svg` and `bench.png` (the plot).
//!
//! Why a function of its own: the CLI and the tests write the same files the same way, all of
//! them or (a full disk, a folder in the way) none, the previous report's files as they were,
//! and a failure names the file that could not be written.

use super::{plot, table, BenchReport};
use std::path::{Path, PathBuf};

/// The files `write` produces, in order.
pub const FILES: [&str; 4] = ["bench.json", "bench.md", "bench.svg", "bench.png"];

/// Whether `dir` can take the report: a folder, or a path where one can be made. Checked
/// before a benchmark runs, so that minutes of measuring do not end in a refusal.
pub fn check_folder(dir: &Path) -> Result<(), String> {
    let mut at = dir;
    loop {
        if at.is_dir() {
            return Ok(());
        }
        if at.exists() {
            return Err(format!("{} is not a folder", at.display()));
        }
        match at.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(parent) => at = parent,
            None => return Ok(()),
        }
    }
}

/// Write every file into `dir` (made if missing), all of them or none; returns their paths.
pub fn write(report: &BenchReport, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let json = serde_json::to_string_pretty(report).map_err(|e| format!("cannot serialise the report: {e}"))?;
    let (svg, png) = plot::render(report)?;
    let contents: [Vec<u8>; 4] =
        [(json + "\n").into_bytes(), table::markdown(report).into_bytes(), svg.into_bytes(), png];
    let files: Vec<(String, Vec<u8>)> = FILES.iter().map(|f| f.to_string()).zip(contents).collect();
    dgcc::output::write_all(dir, &files, dgcc::output::Unchanged::Rewrite).map_err(|e| e.to_string())
}
