//! `bench.md`: the report as Markdown a person reads and a book quotes.
//!
//! Why this layout: one heading block says where and how the numbers were taken (device,
//! driver, date, command line, copy bandwidth), one wide table has a row per (object count,
//! mode, culling) with medians and the spread of the two headline times, a short comparison
//! table puts each DGC variant's draw time next to the multi-draw path's at the same count,
//! since that ratio is what the performance chapter argues about, and — when the run has the
//! culling choices — the design's four-row table: CPU-driven, GPU-driven without culling, with
//! frustum culling, with frustum + occlusion, each set against the objects that own a pixel.
//! After the compute passes against the memory system, the kernels as the driver compiled them
//! (registers and the like, where the device reports them), which is what bounds their
//! occupancy.

use super::{BenchReport, Row, Stats, Variant};
use crate::scene::{Culling, KernelStatistics, Mode};
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

/// The mode column: the variant, and the material count where the row has several.
fn mode_cell(r: &Row) -> String {
    match r.materials {
        1 => r.variant.clone(),
        m => format!("{} ({m} materials)", r.variant),
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
                "- copy bandwidth (read+write, {} per copy, median of {}): vkCmdCopyBuffer {:.1} GB/s, compute shader {:.1} GB/s; best: {} ({:.1} GB/s); an empty dispatch {:.4} ms",
                mib(b.bytes),
                b.repeats,
                b.copy_buffer_gbps.median,
                b.compute_copy_gbps.median,
                b.best_method,
                b.best_gbps,
                b.empty_dispatch_ms.median
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
    let _ = writeln!(
        out,
        "- scene `{}`{}; culling: {}",
        s.scene.name(),
        if s.cut_every > 0 { format!(", a camera cut every {} frames", s.cut_every) } else { String::new() },
        s.cullings.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
    );
    four_rows(report, &mut out);
    let _ = writeln!(out, "\nTimes in milliseconds: median (p10–p90) for the frame totals, medians for the passes. CPU = recording + vkQueueSubmit. cull+compact GB/s counts the bytes the kernels read and write (one-pass culling).\n");
    let _ = writeln!(out, "| objects | mode | culling | drawn | draws | CPU ms | GPU ms | cull | compact | preprocess | execute | pyramid | late cull | late draw | preprocess buffer | cull+compact GB/s | of best copy |");
    let _ = writeln!(out, "|---:|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &report.rows {
        let why = match (&r.error, &r.skipped) {
            (Some(e), _) => Some(format!("failed: {e}")),
            (None, Some(s)) => Some(format!("not run: {s}")),
            (None, None) => None,
        };
        if let Some(why) = why {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |  |  |  |  |  |  |  |  |  |  |  |  |  |",
                r.objects,
                mode_cell(r),
                r.culling.name(),
                why.replace('|', "\\|").replace('\n', " ")
            );
            continue;
        }
        let (gbps, fraction) = bandwidth(r);
        let count = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_else(|| "–".into());
        let _ = writeln!(
            out,
            "| {} | {} | {} | {}{} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.objects,
            mode_cell(r),
            r.culling.name(),
            count(r.visible),
            if r.visible_stable { "" } else { " (varies)" },
            r.draws_mean.map_or_else(|| count(r.draws), |d| format!("{d:.0}")),
            spread(r.cpu_ms),
            spread(r.gpu_ms),
            ms(r.cull_ms),
            ms(r.compact_ms),
            ms(r.preprocess_ms),
            ms(r.execute_ms),
            ms(r.pyramid_ms),
            ms(r.late_cull_ms),
            ms(r.late_draw_ms),
            preprocess(r),
            gbps,
            fraction
        );
    }
    memory_system(report, &mut out);
    kernels(&report.kernels, &mut out);
    materials(report, &mut out);
    let comparisons = comparisons(report);
    if !comparisons.is_empty() {
        let repeated = comparisons.iter().any(|c| c.repeat_ratios.len() > 1);
        let twins = comparisons.iter().any(|c| c.twin.is_some());
        let _ = writeln!(
            out,
            "\nDraw GPU time (each draw pass whole: barrier, explicit preprocess, clear, draws, store) against the multi-draw path at the same count:\n"
        );
        if twins {
            let _ = writeln!(
                out,
                "(\"same shaders\": the multi-draw row whose draws read their object id, and bind their shaders, as the DGC row's do: `mdi-vertexoffset` for `dgc-…-vertexoffset`.)\n"
            );
        }
        let _ = write!(out, "| objects | mode | draw ms | mdi draw ms | ratio |");
        let mut rule = String::from("|---:|:---|---:|---:|---:|");
        if twins {
            let _ = write!(out, " same shaders | its draw ms | ratio |");
            rule.push_str(":---|---:|---:|");
        }
        if repeated {
            let _ = write!(out, " ratio per repeat (min–max) |");
            rule.push_str("---:|");
        }
        let _ = writeln!(out, "\n{rule}");
        for c in comparisons {
            let _ = write!(
                out,
                "| {} | {} | {:.3} | {:.3} | {:.2}× |",
                c.objects,
                c.label,
                c.dgc_ms,
                c.mdi_ms,
                c.dgc_ms / c.mdi_ms
            );
            if twins {
                let _ = match &c.twin {
                    Some((name, ms)) => write!(out, " {name} | {ms:.3} | {:.2}× |", c.dgc_ms / ms),
                    None => write!(out, " – | – | – |"),
                };
            }
            if repeated {
                let lo = c.repeat_ratios.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = c.repeat_ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let _ = if c.repeat_ratios.is_empty() {
                    write!(out, " – |")
                } else {
                    write!(out, " {lo:.2}–{hi:.2}× |")
                };
            }
            let _ = writeln!(out);
        }
    }
    out
}

/// The compute passes held to the memory system: each pass's bytes over its time against the
/// run's best copy, and its time against an empty dispatch's (the fixed cost of any pass).
fn memory_system(report: &BenchReport, out: &mut String) {
    let empty = report.bandwidth.as_ref().map(|b| b.empty_dispatch_ms.median).filter(|ms| *ms > 0.0);
    let mut lines = vec![];
    for r in report.rows.iter().filter(|r| r.error.is_none() && r.skipped.is_none()) {
        let passes = [
            (
                "cull + compact",
                &r.cull_bandwidth,
                per_frame_median(r, |p| Some(p.cull_ms? + p.compact_ms.unwrap_or(0.0))),
            ),
            ("depth pyramid", &r.pyramid_bandwidth, r.pyramid_ms.map(|s| s.median)),
            ("binning", &r.bin_bandwidth, r.bin_ms.map(|s| s.median)),
        ];
        for (name, b, pass_ms) in passes {
            let (Some(b), Some(pass_ms)) = (b, pass_ms) else { continue };
            lines.push(format!(
                "| {} | {} | {} | {} | {:.3} | {:.1} | {:.1} | {} | {} | {} |",
                r.objects,
                mode_cell(r),
                r.culling.name(),
                name,
                pass_ms,
                b.bytes.total() as f64 / 1e6,
                b.gbps.median,
                b.fraction_of_best_copy.map_or_else(|| "–".into(), |f| format!("{:.0} %", 100.0 * f)),
                b.same_size_copy
                    .as_ref()
                    .map_or_else(|| "–".into(), |c| format!("{:.0} % of {:.0} GB/s", 100.0 * c.fraction, c.gbps)),
                empty.map_or_else(|| "–".into(), |e| format!("{:.1}×", pass_ms / e)),
            ));
        }
    }
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "
Compute passes against the memory system: MB read + written per frame (counted from the shaders), GB/s over the pass's median time, that against the best copy and against the best copy that moves as many bytes as the pass (its size rounded up to a MiB), and the time against an empty dispatch ({}):
",
        empty.map_or_else(|| "not measured".into(), |e| format!("{e:.4} ms"))
    );
    let _ = writeln!(
        out,
        "| objects | mode | culling | pass | ms | MB | GB/s | of best copy | of a copy this size | × empty dispatch |"
    );
    let _ = writeln!(out, "|---:|:---|:---|:---|---:|---:|---:|---:|---:|---:|");
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
}

/// The compute kernels as the driver compiled them: one row per kernel and executable, one
/// column per statistic the driver named (in the order it first named them).
fn kernels(kernels: &[KernelStatistics], out: &mut String) {
    let executables: Vec<_> = kernels.iter().flat_map(|k| k.executables.iter().map(move |e| (k, e))).collect();
    if executables.is_empty() {
        return;
    }
    let mut names: Vec<&str> = vec![];
    for (_, e) in &executables {
        for s in &e.statistics {
            if !names.contains(&s.name.as_str()) {
                names.push(&s.name);
            }
        }
    }
    let _ = writeln!(
        out,
        "\nThe compute kernels as the driver compiled them (VK_KHR_pipeline_executable_properties; the names are the driver's):\n"
    );
    let _ = write!(out, "| kernel | workgroup | subgroup |");
    for n in &names {
        let _ = write!(out, " {} |", n.replace('|', "/"));
    }
    let _ = write!(out, "\n|:---|---:|---:|");
    for _ in &names {
        let _ = write!(out, "---:|");
    }
    let _ = writeln!(out);
    for (k, e) in executables {
        let subgroup = if e.subgroup_size == 0 { "–".to_string() } else { e.subgroup_size.to_string() };
        let _ = write!(out, "| {} | {} | {subgroup} |", k.kernel, k.local_size);
        for n in &names {
            let _ = write!(out, " {} |", e.get(n).map_or_else(|| "–".into(), |v| v.to_string()));
        }
        let _ = writeln!(out);
    }
}

/// One DGC row against the multi-draw row beside it.
pub struct Comparison {
    pub objects: u32,
    /// The row's label (with the culling when the bench ran several).
    pub label: String,
    /// Whole draw passes, median over every frame of every repeat (`Row::total_draw_ms`).
    pub dgc_ms: f64,
    pub mdi_ms: f64,
    /// With `--repeat`: the ratio of each repeat's DGC run to the same repeat's multi-draw run.
    pub repeat_ratios: Vec<f64>,
    /// The multi-draw row that draws with the DGC row's shaders, where that is not plain `mdi`
    /// and the run has it (`mdi-vertexoffset` beside `dgc-batch-vertexoffset`): its variant and
    /// whole draw passes. Plain `mdi` answers "DGC or multi-draw?"; this one isolates what DGC
    /// itself costs when the shaders differ.
    pub twin: Option<(String, f64)>,
}

/// Every DGC row with an MDI row beside it (same count, culling and materials).
pub fn comparisons(report: &BenchReport) -> Vec<Comparison> {
    let several = report.settings.cullings.len() > 1;
    let mut out = vec![];
    for r in report.rows.iter().filter(|r| r.mode == Mode::Dgc && r.ran()) {
        let beside = |variant: &str| {
            report.rows.iter().find(|m| {
                m.objects == r.objects
                    && m.culling == r.culling
                    && m.materials == r.materials
                    && m.variant == variant
                    && m.ran()
            })
        };
        let mdi = beside("mdi");
        let twin = Variant::parse(&r.variant).ok().and_then(|v| v.multi_draw_twin(r.materials)).map(|v| v.to_string());
        let twin = twin
            .filter(|name| name != "mdi")
            .and_then(|name| Some((name.clone(), beside(&name)?.total_draw_ms().filter(|&m| m > 0.0)?)));
        if let (Some(d), Some(mdi)) = (r.total_draw_ms(), mdi) {
            if let Some(m) = mdi.total_draw_ms().filter(|&m| m > 0.0) {
                let repeat_ratios = r
                    .repeat_draw_ms
                    .iter()
                    .zip(&mdi.repeat_draw_ms)
                    .filter_map(|(d, m)| Some(d.as_ref()? / m.filter(|&m| m > 0.0)?))
                    .collect();
                out.push(Comparison {
                    objects: r.objects,
                    label: r.label(several),
                    dgc_ms: d,
                    mdi_ms: m,
                    repeat_ratios,
                    twin,
                });
            }
        }
    }
    out
}

fn mean(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.0}")).unwrap_or_else(|| "–".into())
}

/// The design's four rows for one object count, when the run has them.
pub struct FourRows<'a> {
    pub objects: u32,
    /// (method, row) in the table's order; a method may have a row per mode.
    pub rows: Vec<(&'static str, &'a Row)>,
    /// Mean objects owning a pixel over the measured frames (the checking run).
    pub owners_mean: Option<f64>,
}

/// The four-row tables of a report: per object count, the cpu row without culling and the
/// dgc and mdi rows of each culling choice.
pub fn four_row_tables(report: &BenchReport) -> Vec<FourRows<'_>> {
    let mut out = vec![];
    for &objects in &report.settings.objects {
        let fewest = report.settings.materials.iter().copied().min().unwrap_or(1);
        let find = |mode: Mode, culling: Culling| {
            report.rows.iter().find(|r| {
                r.objects == objects
                    && r.mode == mode
                    && r.culling == culling
                    && r.materials == fewest
                    && r.ran()
                    && r.variant == mode.name()
            })
        };
        let mut rows = vec![];
        for (method, mode, culling) in [
            ("CPU-driven", Mode::Cpu, Culling::None),
            ("GPU-driven, no culling", Mode::Dgc, Culling::None),
            ("GPU-driven, no culling", Mode::Mdi, Culling::None),
            ("GPU-driven, frustum culling", Mode::Dgc, Culling::Frustum),
            ("GPU-driven, frustum culling", Mode::Mdi, Culling::Frustum),
            ("GPU-driven, frustum + occlusion", Mode::Dgc, Culling::Occlusion),
            ("GPU-driven, frustum + occlusion", Mode::Mdi, Culling::Occlusion),
        ] {
            if let Some(r) = find(mode, culling) {
                rows.push((method, r));
            }
        }
        let owners = report.owners.iter().find(|o| o.objects == objects && !o.per_frame.is_empty());
        let owners_mean = owners.map(|o| o.per_frame.iter().map(|&v| v as f64).sum::<f64>() / o.per_frame.len() as f64);
        let cullings = rows.iter().map(|(_, r)| r.culling).collect::<Vec<_>>();
        if cullings.contains(&Culling::None) && cullings.contains(&Culling::Occlusion) {
            out.push(FourRows { objects, rows, owners_mean });
        }
    }
    out
}

fn four_rows(report: &BenchReport, out: &mut String) {
    for t in four_row_tables(report) {
        let _ = writeln!(
            out,
            "\n## {} objects: CPU-driven, GPU-driven without culling, with frustum culling, with frustum + occlusion\n",
            t.objects
        );
        if let Some(o) = t.owners_mean {
            let _ = writeln!(out, "Objects owning at least one pixel of the image (mean over the frames, from an object-id target in a checking run): {o:.0}.\n");
        }
        let _ = writeln!(out, "| method | mode | frame GPU ms | CPU ms | draws (mean) | draws per pixel owner | in view (mean) | GPU ms vs no culling | early draw | pyramid | late cull | late draw |");
        let _ = writeln!(out, "|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (method, r) in &t.rows {
            let none = t.rows.iter().find(|(_, n)| n.mode == r.mode && n.culling == Culling::None).map(|(_, n)| *n);
            let ratio = match (r.gpu_ms, none.and_then(|n| n.gpu_ms)) {
                (Some(a), Some(b)) if b.median > 0.0 => format!("{:.2}×", a.median / b.median),
                _ => "–".into(),
            };
            let per_owner = match (r.draws_mean, t.owners_mean) {
                (Some(d), Some(o)) if o > 0.0 => format!("{:.2}", d / o),
                _ => "–".into(),
            };
            let _ = writeln!(
                out,
                "| {method} | {} | {} | {} | {} | {per_owner} | {} | {ratio} | {} | {} | {} | {} |",
                r.variant,
                spread(r.gpu_ms),
                ms(r.cpu_ms),
                mean(r.draws_mean),
                mean(r.in_view_mean),
                if r.culling == Culling::Occlusion { ms(r.draw_ms) } else { "–".into() },
                ms(r.pyramid_ms),
                ms(r.late_cull_ms),
                ms(r.late_draw_ms),
            );
        }
    }
}

/// GPU time of a row's drawing with its sorting or binning pass: the frame's draw passes and
/// the bin pass (pass 0's; the late pass's is in its cull), summed frame by frame, median.
pub fn draw_with_binning_ms(r: &Row) -> Option<f64> {
    per_frame_median(r, |p| Some(p.draw_ms? + p.late_draw_ms.unwrap_or(0.0) + p.bin_ms.unwrap_or(0.0)))
}

/// The median over a row's frames of a sum of its passes: the sums are taken frame by frame,
/// so one frame's pass is never added to another's.
fn per_frame_median(r: &Row, sum: impl Fn(&crate::scene::PassTimes) -> Option<f64>) -> Option<f64> {
    Stats::of_some(r.frames.iter().map(|f| sum(&f.passes))).map(|s| s.median)
}

/// Per (objects, culling, materials > 1): every row side by side with the best multi-draw
/// row, and the cost of a pipeline switch per sequence derived from the unsorted and sorted
/// execution-set rows (the sorted stream switches once per material, the unsorted one at
/// almost every sequence).
fn materials(report: &BenchReport, out: &mut String) {
    let mut groups: Vec<(u32, Culling, u32)> = vec![];
    for r in report.rows.iter().filter(|r| r.materials > 1 && r.ran()) {
        if !groups.contains(&(r.objects, r.culling, r.materials)) {
            groups.push((r.objects, r.culling, r.materials));
        }
    }
    for (objects, culling, materials) in groups {
        let rows: Vec<&Row> = report
            .rows
            .iter()
            .filter(|r| r.objects == objects && r.culling == culling && r.materials == materials && r.ran())
            .collect();
        let _ = writeln!(out, "\n## {objects} objects, {materials} materials, culling {}\n", culling.name());
        let _ = writeln!(out, "Draw = the draw passes plus the sorting or binning pass where the row has one (GPU, median). The stream follows object order, where neighbours rarely share a material; `-sorted` sorts it by material on the GPU first; binned rows draw one region per material.\n");
        let best_mdi =
            rows.iter().filter(|r| r.mode == Mode::Mdi).filter_map(|r| draw_with_binning_ms(r)).reduce(f64::min);
        let _ = writeln!(out, "| mode | how | draws | frame GPU ms | draw ms | bin ms | CPU ms | draw vs best mdi |");
        let _ = writeln!(out, "|:---|:---|---:|---:|---:|---:|---:|---:|");
        for r in &rows {
            let draw = draw_with_binning_ms(r);
            let ratio = match (draw, best_mdi) {
                (Some(d), Some(m)) if m > 0.0 => format!("{:.2}×", d / m),
                _ => "–".into(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {ratio} |",
                r.variant,
                r.material_draw.map_or("–", |m| m.name()),
                mean(r.draws_mean),
                spread(r.gpu_ms),
                draw.map_or_else(|| "–".into(), |d| format!("{d:.3}")),
                ms(r.bin_ms),
                ms(r.cpu_ms),
            );
        }
        for (bind, what) in [
            (crate::scene::Bind::Pipelines, "pipeline switch"),
            (crate::scene::Bind::ShaderObjects, "switch of shader objects (vertex and fragment)"),
        ] {
            let find = |how| rows.iter().find(|r| r.material_draw == Some(how) && r.bind == Some(bind));
            let set = find(crate::scene::MaterialDraw::Set);
            let sorted = find(crate::scene::MaterialDraw::SortedSet);
            let (Some(set), Some(sorted)) = (set, sorted) else { continue };
            let exec = |r: &Row| r.total_draw_ms();
            if let (Some(a), Some(b), Some(draws)) = (exec(set), exec(sorted), set.draws_mean) {
                // The unsorted stream switches at every sequence whose material differs from the
                // one before: (m - 1) / m of them for materials spread evenly.
                let switches = draws * (materials - 1) as f64 / materials as f64 - materials as f64;
                if switches > 0.0 && a <= b {
                    let _ = writeln!(
                        out,
                        "\nThe unsorted `{}` execute was not slower than the sorted one here ({a:.3} against {b:.3} ms): a {what} through the set costs less than this run can resolve.",
                        set.variant
                    );
                } else if switches > 0.0 {
                    let _ = writeln!(
                        out,
                        "\nA {what} through the execution set costs about {:.1} ns per sequence here (`{}` against `{}`): ({a:.3} − {b:.3}) ms over {switches:.0} more switches in the unsorted stream (the execute alone, without the sort).",
                        (a - b) * 1e6 / switches,
                        set.variant,
                        sorted.variant
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgcc::runtime::kernel_statistics::{ExecutableStatistics, Statistic, StatisticValue};

    fn stat(name: &str, value: StatisticValue) -> Statistic {
        Statistic { name: name.into(), description: String::new(), value }
    }

    #[test]
    fn kernels_get_a_column_per_statistic_any_driver_named() {
        let compiled = [
            KernelStatistics {
                kernel: "cull_compact",
                local_size: 64,
                executables: vec![ExecutableStatistics {
                    name: "Compute Shader".into(),
                    subgroup_size: 32,
                    statistics: vec![
                        stat("Register Count", StatisticValue::Uint(40)),
                        stat("Spills", StatisticValue::Bool(false)),
                    ],
                }],
            },
            KernelStatistics {
                kernel: "depth_pyramid",
                local_size: 256,
                executables: vec![ExecutableStatistics {
                    name: "cs".into(),
                    subgroup_size: 0,
                    statistics: vec![stat("Shared|Memory", StatisticValue::Float(1.5))],
                }],
            },
        ];
        let mut out = String::new();
        kernels(&compiled, &mut out);
        assert!(out.contains("| kernel | workgroup | subgroup | Register Count | Spills | Shared/Memory |"), "{out}");
        assert!(out.contains("| cull_compact | 64 | 32 | 40 | false | – |"), "{out}");
        assert!(out.contains("| depth_pyramid | 256 | – | – | – | 1.50 |"), "{out}");
        let mut none = String::new();
        kernels(&[], &mut none);
        assert!(none.is_empty(), "no table without statistics: {none}");
    }
}
