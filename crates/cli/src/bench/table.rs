//! `bench.md`: the report as Markdown a person reads and a book quotes.
//!
//! Why this layout: one heading block says where and how the numbers were taken (device,
//! driver, date, command line, copy bandwidth), one wide table has a row per (object count,
//! mode) with medians and the spread of the two headline times, and a short comparison table
//! puts each DGC variant's draw time next to the multi-draw path's at the same count, since
//! that ratio is what the performance chapter argues about.

use super::{BenchReport, Row, Stats};
use std::fmt::Write;

fn ms(s: Option<Stats>) -> String {
    s.map(|s| format!("{:.3}", s.median)).unwrap_or_else(|| "–".into())
}

fn spread(s: Option<Stats>) -> String {
    match s {
        Some(s) => format!("{:.3} ({:.3}–{:.3})", s.median, s.p10, s.p90),
        None => "–".into(),
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

fn preprocess(r: &Row) -> String {
    match &r.preprocess {
        Some(p) if p.chunks > 1 => format!("{} × {}", mib(p.preprocess_bytes), p.chunks),
        Some(p) => mib(p.preprocess_bytes),
        None => "–".into(),
    }
}

fn bandwidth(r: &Row) -> (String, String) {
    match &r.cull_bandwidth {
        Some(b) => (
            format!("{:.1}", b.gbps.median),
            b.fraction_of_best_copy.map(|f| format!("{:.0} %", 100.0 * f)).unwrap_or_else(|| "–".into()),
        ),
        None => ("–".into(), "–".into()),
    }
}

/// The whole `bench.md`.
pub fn markdown(report: &BenchReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# dgcc bench\n");
    let _ = writeln!(out, "- device: {}", report.device.label());
    let _ = writeln!(out, "- date: {}", report.date);
    let _ = writeln!(out, "- description: `{}`", report.file);
    if !report.command_line.is_empty() {
        let _ = writeln!(out, "- command: `{}`", report.command_line.join(" "));
    }
    let s = &report.settings;
    let _ = writeln!(
        out,
        "- {} measured frames after {} warm-up frames per row; {}×{} target; compaction `{}`; preprocess budget {}",
        s.frames,
        s.warmup,
        s.width,
        s.height,
        s.compaction.name(),
        mib(s.preprocess_budget)
    );
    match (&report.bandwidth, &report.bandwidth_error) {
        (Some(b), _) => {
            let _ = writeln!(
                out,
                "- copy bandwidth (read+write, {} per copy, median of {}): vkCmdCopyBuffer {:.1} GB/s, compute shader {:.1} GB/s; best: {} ({:.1} GB/s)",
                mib(b.bytes),
                b.repeats,
                b.copy_buffer_gbps.median,
                b.compute_copy_gbps.median,
                b.best_method,
                b.best_gbps
            );
        }
        (None, Some(e)) => {
            let _ = writeln!(out, "- copy bandwidth: not measured ({e})");
        }
        (None, None) => {
            let _ = writeln!(out, "- copy bandwidth: not measured");
        }
    }
    let _ = writeln!(out, "\nTimes in milliseconds: median (p10–p90) for the frame totals, medians for the passes. CPU = recording + vkQueueSubmit. cull+compact GB/s counts the bytes the kernels read and write.\n");
    let _ = writeln!(out, "| objects | mode | visible | draws | CPU ms | GPU ms | cull | compact | preprocess | execute | preprocess buffer | cull+compact GB/s | of best copy |");
    let _ = writeln!(out, "|---:|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &report.rows {
        if let Some(e) = &r.error {
            let _ = writeln!(
                out,
                "| {} | {} | failed: {} |  |  |  |  |  |  |  |  |  |  |",
                r.objects,
                r.variant,
                e.replace('|', "\\|").replace('\n', " ")
            );
            continue;
        }
        let (gbps, fraction) = bandwidth(r);
        let count = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_else(|| "–".into());
        let _ = writeln!(
            out,
            "| {} | {} | {}{} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.objects,
            r.variant,
            count(r.visible),
            if r.visible_stable { "" } else { " (varies)" },
            count(r.draws),
            spread(r.cpu_ms),
            spread(r.gpu_ms),
            ms(r.cull_ms),
            ms(r.compact_ms),
            ms(r.preprocess_ms),
            ms(r.execute_ms),
            preprocess(r),
            gbps,
            fraction
        );
    }
    let comparisons = comparisons(report);
    if !comparisons.is_empty() {
        let _ = writeln!(
            out,
            "\nDraw GPU time (explicit preprocess + execute) against the multi-draw path at the same count:\n"
        );
        let _ = writeln!(out, "| objects | mode | draw ms | mdi draw ms | ratio |");
        let _ = writeln!(out, "|---:|:---|---:|---:|---:|");
        for (objects, variant, dgc, mdi) in comparisons {
            let _ = writeln!(out, "| {objects} | {variant} | {dgc:.3} | {mdi:.3} | {:.2}× |", dgc / mdi);
        }
    }
    out
}

/// `(objects, variant, dgc draw ms, mdi draw ms)` for every DGC row with an MDI row beside it.
pub fn comparisons(report: &BenchReport) -> Vec<(u32, String, f64, f64)> {
    let mut out = vec![];
    for r in report.rows.iter().filter(|r| r.mode == crate::scene::Mode::Dgc && r.error.is_none()) {
        let mdi = report
            .rows
            .iter()
            .find(|m| m.objects == r.objects && m.mode == crate::scene::Mode::Mdi && m.error.is_none());
        if let (Some(d), Some(m)) = (r.draw_ms(), mdi.and_then(Row::draw_ms)) {
            if m > 0.0 {
                out.push((r.objects, r.variant.clone(), d, m));
            }
        }
    }
    out
}
