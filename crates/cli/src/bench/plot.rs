//! `bench.svg` and `bench.png`: CPU and GPU milliseconds per frame against the object count,
//! log–log, one line per mode (and culling choice); with a single object count — the default
//! four-row comparison — one bar per row instead, the rows grouped by culling choice.
//!
//! Why log–log: the counts span three decades and the modes differ by orders of magnitude; a
//! mode whose cost is proportional to the object count is a line of slope one, a mode whose
//! CPU cost does not grow is flat, which is the whole argument in one picture. Why a bundled
//! font: plotters' bitmap backend rasterises text itself and would otherwise look for system
//! font files, which a machine with nothing but cargo does not have; the Hack typeface
//! (shipped as bytes by `epaint_default_fonts`) is registered for every family the chart uses.

use super::{BenchReport, Row, Stats};
use plotters::coord::Shift;
use plotters::prelude::*;

const SIZE: (u32, u32) = (1280, 640);
const FAMILIES: [&str; 3] = ["sans-serif", "serif", "monospace"];

/// One line of a panel: a mode's `(objects, ms)` points, in count order.
pub type Series = (String, Vec<(f64, f64)>);

/// Points of one panel: per line (a variant, culling and material count: everything that
/// tells rows apart but the object count), the median of `pick` at each count where it exists
/// and is positive (log axes cannot show 0). Labelled as the rows are (`Row::label`).
pub fn series(report: &BenchReport, pick: fn(&Row) -> Option<Stats>) -> Vec<Series> {
    let several = report.settings.cullings.len() > 1;
    let line = |r: &Row| (r.variant.clone(), r.culling, r.materials);
    let mut lines: Vec<(String, crate::scene::Culling, u32)> = vec![];
    for r in &report.rows {
        if !lines.contains(&line(r)) {
            lines.push(line(r));
        }
    }
    lines
        .into_iter()
        .map(|key| {
            let rows: Vec<&Row> = report.rows.iter().filter(|r| line(r) == key).collect();
            let label = rows[0].label(several);
            let mut pts: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r.ran())
                .filter_map(|r| pick(r).map(|s| (r.objects as f64, s.median)))
                .filter(|&(_, y)| y > 0.0 && y.is_finite())
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            (label, pts)
        })
        .collect()
}

/// One bar per row that ran: `(label, median of pick)`, in the report's row order.
pub fn bars(report: &BenchReport, pick: fn(&Row) -> Option<Stats>) -> Vec<(String, f64)> {
    let several = report.settings.cullings.len() > 1;
    report
        .rows
        .iter()
        .filter(|r| r.ran())
        .filter_map(|r| pick(r).map(|s| (r.label(several), s.median)))
        .filter(|(_, y)| y.is_finite() && *y >= 0.0)
        .collect()
}

fn bar_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    items: &[(String, f64)],
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let top = items.iter().map(|(_, y)| *y).fold(0.0f64, f64::max).max(1e-3) * 1.15;
    let n = items.len().max(1);
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(150)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..n as f64, 0.0..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .y_desc("ms per frame")
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    for (i, (label, y)) in items.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let x = i as f64;
        chart.draw_series([Rectangle::new([(x + 0.15, 0.0), (x + 0.85, *y)], color.filled())]).map_err(err)?;
        chart
            .draw_series([Text::new(format!("{y:.3}"), (x + 0.2, *y + top * 0.01), ("sans-serif", 12))])
            .map_err(err)?;
        let style = TextStyle::from(("sans-serif", 13)).transform(FontTransform::Rotate90);
        chart.draw_series([Text::new(label.clone(), (x + 0.4, -top * 0.02), style)]).map_err(err)?;
    }
    Ok(())
}

fn register_fonts() -> Result<(), String> {
    for family in FAMILIES {
        plotters::style::register_font(family, FontStyle::Normal, epaint_default_fonts::HACK_REGULAR)
            .map_err(|_| "the bundled font could not be read".to_string())?;
    }
    Ok(())
}

/// A log axis label: only 1, 2 and 5 times a power of ten get one (the grid keeps the rest),
/// written without float noise (0.02, not 0.020000000000000004).
pub fn tick(v: f64) -> String {
    if !(v > 0.0 && v.is_finite()) {
        return String::new();
    }
    let exp = v.log10().floor();
    let mantissa = (v / 10f64.powf(exp)).round();
    let close = ((v / 10f64.powf(exp)) - mantissa).abs() < 1e-6 * mantissa.max(1.0);
    if !close || ![1.0, 2.0, 5.0].contains(&mantissa) {
        return String::new();
    }
    let decimals = if exp < 0.0 { (-exp) as usize } else { 0 };
    format!("{:.*}", decimals, mantissa * 10f64.powf(exp))
}

/// A log range around `values` with some room; a single value or none still gives a range.
fn span(values: impl Iterator<Item = f64>, fallback: (f64, f64)) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if !lo.is_finite() || hi <= 0.0 {
        return fallback;
    }
    (lo / 2.0, hi * 2.0)
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    lines: &[Series],
    xs: (f64, f64),
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let ys = span(lines.iter().flat_map(|(_, p)| p.iter().map(|&(_, y)| y)), (1e-3, 1.0));
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d((xs.0..xs.1).log_scale(), (ys.0..ys.1).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("objects")
        .y_desc("ms per frame (median)")
        .x_label_formatter(&|x| tick(*x))
        .y_label_formatter(&|y| tick(*y))
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    for (i, (name, pts)) in lines.iter().enumerate() {
        if pts.is_empty() {
            continue;
        }
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
            .map_err(err)?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(2)));
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled()))).map_err(err)?;
    }
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(err)?;
    Ok(())
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, report: &BenchReport) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let (top, body) = root.split_vertically(36);
    top.titled(&format!("dgcc bench on {}", report.device.label()), ("sans-serif", 18)).map_err(err)?;
    let halves = body.split_evenly((1, 2));
    if report.settings.objects.len() == 1 {
        let n = report.settings.objects[0];
        bar_panel(&halves[0], &format!("CPU: record + submit, {n} objects"), &bars(report, |r| r.cpu_ms))?;
        bar_panel(&halves[1], &format!("GPU: whole frame, {n} objects"), &bars(report, |r| r.gpu_ms))?;
        return root.present().map_err(err);
    }
    let cpu = series(report, |r| r.cpu_ms);
    let gpu = series(report, |r| r.gpu_ms);
    let xs = span(report.settings.objects.iter().map(|&n| n as f64), (1.0, 10.0));
    panel(&halves[0], "CPU: record + submit", &cpu, xs)?;
    panel(&halves[1], "GPU: whole frame", &gpu, xs)?;
    root.present().map_err(err)
}

/// The plot as an SVG document and as the bytes of a PNG file, drawn in memory so that the
/// report's files are written together, all or none (`output::write`).
pub fn render(report: &BenchReport) -> Result<(String, Vec<u8>), String> {
    register_fonts()?;
    let mut svg = String::new();
    draw(SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(), report)
        .map_err(|e| format!("the SVG plot: {e}"))?;
    let (w, h) = SIZE;
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    draw(BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area(), report)
        .map_err(|e| format!("the PNG plot: {e}"))?;
    let mut png = vec![];
    let mut enc = png::Encoder::new(&mut png, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| format!("the PNG plot: {e}"))?;
    writer.write_image_data(&rgb).map_err(|e| format!("the PNG plot: {e}"))?;
    writer.finish().map_err(|e| format!("the PNG plot: {e}"))?;
    Ok((svg, png))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_label_one_two_five_and_skip_the_rest() {
        assert_eq!(tick(1000.0), "1000");
        assert_eq!(tick(200.0), "200");
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(0.30000000000000004), "");
        assert_eq!(tick(0.020000000000000004), "0.02");
        assert_eq!(tick(300.0), "");
        assert_eq!(tick(0.0), "");
    }

    #[test]
    fn a_line_per_variant_culling_and_material_count() {
        use crate::bench::variant::Variant;
        use crate::scene::{Culling, Mode, SceneKind};
        let mut rows = vec![];
        for objects in [10, 20] {
            for materials in [1, 2] {
                let mut r = Row::failed(objects, &Variant::plain(Mode::Mdi), Culling::None, materials, String::new());
                r.error = None;
                r.gpu_ms = Stats::of([objects as f64 * materials as f64]);
                rows.push(r);
            }
        }
        let settings = super::super::Settings {
            objects: vec![10, 20],
            variants: vec!["mdi".into()],
            cullings: vec![Culling::None],
            materials: vec![1, 2],
            scene: SceneKind::City,
            cut_every: 0,
            frames: 1,
            warmup: 0,
            compaction: Default::default(),
            width: 16,
            height: 16,
            seed: 0,
            preprocess_budget: 0,
            copy_bytes_requested: 0,
            repeat: 1,
        };
        let report = BenchReport {
            tool: "dgcc".into(),
            version: String::new(),
            command_line: vec![],
            date: String::new(),
            file: String::new(),
            device: Default::default(),
            settings,
            bandwidth: None,
            bandwidth_error: None,
            rows,
            owners: vec![],
            kernels: vec![],
        };
        let lines = series(&report, |r| r.gpu_ms);
        assert_eq!(
            lines,
            vec![
                ("mdi".to_string(), vec![(10.0, 10.0), (20.0, 20.0)]),
                ("mdi · 2 materials".to_string(), vec![(10.0, 20.0), (20.0, 40.0)])
            ]
        );
    }

    #[test]
    fn spans_pad_and_fall_back() {
        assert_eq!(span([10.0, 1000.0].into_iter(), (1.0, 2.0)), (5.0, 2000.0));
        assert_eq!(span(std::iter::empty(), (1.0, 2.0)), (1.0, 2.0));
    }
}
