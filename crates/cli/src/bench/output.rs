//! Writing a report's folder: `bench.json` (everything, raw frames included), `bench.md`
//! (the tables), `bench.svg` and `bench.png` (the plot).
//!
//! Why a function of its own: the CLI and the tests write the same files the same way, and a
//! failure names the file that could not be written.

use super::{plot, table, BenchReport};
use std::path::{Path, PathBuf};

/// The files `write` produces, in order.
pub const FILES: [&str; 4] = ["bench.json", "bench.md", "bench.svg", "bench.png"];

/// Create `dir` if needed and write every file; returns their paths.
pub fn write(report: &BenchReport, dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let paths: Vec<PathBuf> = FILES.iter().map(|f| dir.join(f)).collect();
    let json = serde_json::to_string_pretty(report).map_err(|e| format!("cannot serialise the report: {e}"))?;
    let put = |path: &Path, text: &str| {
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    put(&paths[0], &(json + "\n"))?;
    put(&paths[1], &table::markdown(report))?;
    plot::write(report, &paths[2], &paths[3])?;
    Ok(paths)
}
