//! `dgcc bench` end to end on whatever Vulkan device there is (lavapipe in CI) with small
//! counts: the four files exist and are not empty, the JSON parses and has a row for every
//! mode × count, no row failed, every mode saw the same visible objects, and the Markdown and
//! the plots agree with it. No timing is asserted: lavapipe's times mean nothing.

#[path = "runtime/common.rs"]
mod common;

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dgcc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn bench_writes_consistent_outputs_for_every_mode_and_count() {
    if common::gpu("bench_writes_consistent_outputs_for_every_mode_and_count").is_none() {
        return;
    }
    let out = out_dir("bench-smoke");
    let scene = PathBuf::from(env!("DGCC_CHECKOUT")).join("examples/scene.ron");
    let modes = ["cpu", "mdi", "dgc", "dgc-explicit-ordered"];
    let counts = [200u64, 500];
    let run = Command::new(env!("CARGO_BIN_EXE_dgcc"))
        .arg("bench")
        .arg(&scene)
        .args([
            "--objects",
            "200,500",
            "--modes",
            &modes.join(","),
            "--frames",
            "3",
            "--warmup",
            "1",
            "--copy-mib",
            "8",
            // The throughput configuration: the field under a fixed camera, one culling choice.
            "--scene",
            "field",
            "--culling",
            "frustum",
            "--no-owners",
            "--width",
            "256",
            "--height",
            "256",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("dgcc runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "dgcc bench failed:\n{stdout}\n{stderr}");

    for f in ["bench.json", "bench.md", "bench.svg", "bench.png"] {
        let len = std::fs::metadata(out.join(f)).map(|m| m.len()).unwrap_or(0);
        assert!(len > 0, "{f} is missing or empty");
    }
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).expect("bench.json parses");
    assert_eq!(json["tool"], "dgcc bench");
    assert!(json["device"]["name"].as_str().is_some_and(|s| !s.is_empty()));
    assert!(json["date"].as_str().is_some_and(|d| d.len() == 20 && d.ends_with('Z')), "{}", json["date"]);
    assert!(json["command_line"].as_array().is_some_and(|a| a.iter().any(|x| x == "--objects")));
    let bw = &json["bandwidth"];
    assert!(bw["copy_buffer_gbps"]["median"].as_f64().is_some_and(|v| v > 0.0), "{bw}");
    assert!(bw["compute_copy_gbps"]["median"].as_f64().is_some_and(|v| v > 0.0), "{bw}");
    assert!(bw["empty_dispatch_ms"]["median"].as_f64().is_some_and(|v| v > 0.0), "{bw}");

    let rows = json["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), modes.len() * counts.len());
    for &n in &counts {
        let at: Vec<&Value> = rows.iter().filter(|r| r["objects"] == n).collect();
        let names: Vec<&str> = at.iter().filter_map(|r| r["variant"].as_str()).collect();
        assert_eq!(names, modes, "rows for {n} objects");
        for r in &at {
            assert!(r["error"].is_null(), "{} × {n} failed: {}", r["variant"], r["error"]);
            assert_eq!(r["frames"].as_array().map(Vec::len), Some(3), "measured frames of {}", r["variant"]);
            assert_eq!(r["visible_stable"], true);
            assert!(r["cpu_ms"]["median"].as_f64().is_some_and(|v| v > 0.0));
        }
        let visible: Vec<u64> = at.iter().map(|r| r["visible"].as_u64().expect("a visible count")).collect();
        assert!(
            visible.iter().all(|&v| v == visible[0] && v > 0 && v <= n),
            "visible counts differ across modes at {n}: {visible:?}"
        );
        let dgc = at.iter().find(|r| r["variant"] == "dgc").unwrap();
        assert!(dgc["preprocess"]["preprocess_bytes"].as_u64().is_some_and(|b| b > 0));
        assert_eq!(dgc["unordered_sequences"], true, "the scene's layout is unordered");
        let explicit = at.iter().find(|r| r["variant"] == "dgc-explicit-ordered").unwrap();
        assert_eq!(
            (explicit["explicit_preprocess"].clone(), explicit["unordered_sequences"].clone()),
            (Value::Bool(true), Value::Bool(false))
        );
        let mdi = at.iter().find(|r| r["variant"] == "mdi").unwrap();
        let traffic = &mdi["cull_bandwidth"]["bytes"];
        assert!(traffic["read"].as_u64().is_some_and(|b| b >= 32 * n), "the culling reads every object: {traffic}");
        // The pass against a copy of its own size: whole MiB, at least half the pass's bytes
        // each way, and the fraction the pass's median over it.
        let own = &mdi["cull_bandwidth"]["same_size_copy"];
        let pass_bytes = traffic["read"].as_u64().unwrap() + traffic["written"].as_u64().unwrap();
        let copied = own["bytes"].as_u64().expect("a copy of the pass's size was measured");
        assert!(copied % (1 << 20) == 0 && 2 * copied >= pass_bytes, "{own} for {traffic}");
        let (gbps, fraction) = (own["gbps"].as_f64().unwrap(), own["fraction"].as_f64().unwrap());
        let median = mdi["cull_bandwidth"]["gbps"]["median"].as_f64().unwrap();
        assert!(gbps > 0.0 && (fraction - median / gbps).abs() < 1e-9, "{own}");
    }

    let md = std::fs::read_to_string(out.join("bench.md")).unwrap();
    let table_rows = md.lines().filter(|l| l.starts_with("| 200 |") || l.starts_with("| 500 |")).count();
    assert!(table_rows >= modes.len() * counts.len(), "{md}");
    assert!(stdout.contains("| objects | mode |"), "the table is printed");
    // The culling pass held to the memory system: its row in the passes' table, against the
    // copy and the empty dispatch.
    let passes = md.split("Compute passes against the memory system").nth(1).expect("the passes' table");
    assert!(
        passes.lines().any(|l| l.starts_with("| 500 | mdi | frustum | cull + compact |")
            && l.contains(" GB/s | ")
            && l.ends_with("× |")),
        "{md}"
    );
    let svg = std::fs::read_to_string(out.join("bench.svg")).unwrap();
    for m in modes {
        assert!(svg.contains(m), "the plot's legend names {m}");
    }
    let png = std::fs::File::open(out.join("bench.png")).unwrap();
    let info = png::Decoder::new(std::io::BufReader::new(png)).read_info().expect("bench.png decodes").info().clone();
    assert!(info.width >= 800 && info.height >= 400, "{}x{}", info.width, info.height);
    let _ = std::fs::remove_dir_all(&out);
}

/// The default comparison, small: every culling choice for every mode, cpu's occlusion row
/// skipped with the reason, the pixel owners counted, and the four-row table written.
#[test]
fn bench_runs_the_four_rows_with_the_culling_choices() {
    if common::gpu("bench_runs_the_four_rows_with_the_culling_choices").is_none() {
        return;
    }
    let out = out_dir("bench-four-rows");
    let scene = PathBuf::from(env!("DGCC_CHECKOUT")).join("examples/scene.ron");
    let run = Command::new(env!("CARGO_BIN_EXE_dgcc"))
        .arg("bench")
        .arg(&scene)
        .args(["--objects", "1500", "--frames", "4", "--warmup", "1", "--copy-mib", "0"])
        .args(["--width", "320", "--height", "180", "--cut-every", "0", "--out"])
        .arg(&out)
        .output()
        .expect("dgcc runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "dgcc bench failed:\n{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9, "3 modes × 3 culling choices");
    let row = |mode: &str, culling: &str| {
        rows.iter()
            .find(|r| r["variant"] == mode && r["culling"] == culling)
            .unwrap_or_else(|| panic!("{mode} {culling}"))
    };
    let skipped = row("cpu", "occlusion");
    assert!(skipped["skipped"].as_str().is_some_and(|s| s.contains("host")), "{skipped}");
    for mode in ["dgc", "mdi"] {
        let (none, frustum, occlusion) = (row(mode, "none"), row(mode, "frustum"), row(mode, "occlusion"));
        for r in [none, frustum, occlusion] {
            assert!(r["error"].is_null(), "{r}");
        }
        let draws = |r: &Value| r["draws_mean"].as_f64().unwrap();
        assert_eq!(draws(none), 1500.0, "no culling draws everything");
        assert!(draws(occlusion) < draws(frustum) && draws(frustum) < draws(none), "{mode}: culling culls");
        assert!(occlusion["late_draws_mean"].as_f64().is_some());
        // The pyramid reads the 320×180 depth once, and its last workgroup levels 5–7 (5×3, 3×2,
        // 2×1) again to build 6–8 (160×90 … 1×1).
        let pyramid = &occlusion["pyramid_bandwidth"]["bytes"];
        assert_eq!(pyramid["read"].as_u64(), Some(4 * 320 * 180 + 4 * (15 + 6 + 2)), "{pyramid}");
        assert!(none["pyramid_bandwidth"].is_null());
    }
    let owners = json["owners"][0]["per_frame"].as_array().unwrap();
    assert_eq!(owners.len(), 4, "owners counted for every measured frame");
    let md = std::fs::read_to_string(out.join("bench.md")).unwrap();
    assert!(
        md.contains("CPU-driven, GPU-driven without culling, with frustum culling, with frustum + occlusion"),
        "{md}"
    );
    assert!(md.contains("| GPU-driven, frustum + occlusion | dgc |") && md.contains("| CPU-driven | cpu |"), "{md}");
    assert!(std::fs::read_to_string(out.join("bench.svg")).unwrap().contains("occlusion"));
}

/// `--repeat 3`: every row runs three times, round the rows, and pools its frames; each row
/// keeps each run's whole-draw median, and the DGC table gives the ratio's range over them.
/// A DGC row whose draws read their object id another way than plain multi-draw's is also set
/// against the multi-draw row that reads it the same way.
#[test]
fn repeated_rows_pool_their_frames_and_give_the_ratio_per_repeat() {
    if common::gpu("repeated_rows_pool_their_frames_and_give_the_ratio_per_repeat").is_none() {
        return;
    }
    let out = out_dir("bench-repeat");
    let scene = PathBuf::from(env!("DGCC_CHECKOUT")).join("examples/scene.ron");
    let run = Command::new(env!("CARGO_BIN_EXE_dgcc"))
        .arg("bench")
        .arg(&scene)
        .args(["--scene", "cubes", "--culling", "none", "--objects", "300"])
        .args(["--modes", "mdi,dgc,cpu,mdi-vertexoffset,dgc-batch-vertexoffset"])
        .args(["--frames", "4", "--warmup", "1", "--repeat", "3", "--copy-mib", "0", "--no-owners"])
        .args(["--width", "64", "--height", "64", "--out"])
        .arg(&out)
        .output()
        .expect("dgcc runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "dgcc bench failed:\n{stdout}\n{stderr}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).expect("bench.json parses");
    assert_eq!(json["settings"]["repeat"], 3);
    let rows = json["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 5, "one row per mode, however many repeats");
    for r in rows {
        assert_eq!(r["frames"].as_array().map(Vec::len), Some(12), "4 frames x 3 repeats pooled: {}", r["variant"]);
        let per_repeat = r["repeat_draw_ms"].as_array().expect("repeat_draw_ms");
        assert_eq!(per_repeat.len(), 3, "{}", r["variant"]);
        assert!(per_repeat.iter().all(|v| v.as_f64().is_some_and(|ms| ms > 0.0)), "{per_repeat:?}");
    }
    let md = std::fs::read_to_string(out.join("bench.md")).unwrap();
    assert!(md.contains("| ratio per repeat (min–max) |"), "{md}");
    let line = md
        .lines()
        .find(|l| l.starts_with("| 300 | dgc |") && l.matches('×').count() == 2)
        .unwrap_or_else(|| panic!("no dgc line with a ratio and a range:\n{md}"));
    assert!(line.contains(" – | – | – |"), "a sequence per draw reads its push constant: no multi-draw twin\n{line}");
    let line = md
        .lines()
        .find(|l| l.starts_with("| 300 | dgc-batch-vertexoffset |") && l.matches('×').count() == 3)
        .unwrap_or_else(|| panic!("no batch line with both ratios and a range:\n{md}"));
    assert!(line.contains("| mdi-vertexoffset |"), "{line}");
}

#[test]
fn bad_modes_are_a_usage_error_before_any_device_work() {
    let scene = PathBuf::from(env!("DGCC_CHECKOUT")).join("examples/scene.ron");
    let run = Command::new(env!("CARGO_BIN_EXE_dgcc"))
        .arg("bench")
        .arg(&scene)
        .args(["--modes", "dgc-fast"])
        .output()
        .expect("dgcc runs");
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("unknown dgc option `fast`"));
    let run = Command::new(env!("CARGO_BIN_EXE_dgcc"))
        .arg("bench")
        .arg(&scene)
        .args(["--culling", "frustum,sometimes"])
        .output()
        .expect("dgcc runs");
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("unknown culling `sometimes`"));
}
