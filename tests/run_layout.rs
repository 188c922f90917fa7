//! `dgcc run FILE --layout NAME` on every layout of every example (examples/*.ron; the mistakes
//! are meant to fail `check`), through the real binary on the live device: each layout's report
//! must say that every sequence's effect is as written (on lavapipe through DGC for every layout,
//! and through the fallback where it can run the layout: compute's Jobs, draw_shaders' Draws),
//! and a record written wrong on purpose
//! (`--corrupt-sequence`, a test-only knob) must be reported as that sequence's failure, exit 1.
//! Also: `dgcc run` of a description without a scene-shaped layout points at `--layout`, and
//! `--device N` past the device list is an error that lists the devices.
//!
//! No device: a loud SKIP, a failure under `CI=true` or `DGCC_REQUIRE_VULKAN=1`.

#[path = "runtime/common.rs"]
mod common;

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn repo() -> PathBuf {
    std::env::var("DGCC_REPO").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from(env!("DGCC_CHECKOUT")))
}

fn dgcc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dgcc")).args(args).current_dir(repo()).output().expect("dgcc runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Whether there is a device; a loud SKIP (or, in CI, a failure) when not.
fn device(test: &str) -> Option<bool> {
    let options = dgcc::runtime::ContextOptions { require_dgc: false, ..Default::default() };
    let Some(ctx) = common::gpu_with(test, &options) else {
        assert!(!std::env::var("CI").is_ok_and(|v| v == "true"), "{test}: CI=true, but no usable Vulkan device");
        return None;
    };
    let lavapipe = dgcc::runtime::probe().is_ok_and(|p| p.profile.name == "lavapipe");
    drop(ctx);
    Some(lavapipe)
}

/// The path of `tests/run_layout/NAME` (each file says what it shows), for a test whose
/// description targets lavapipe, or `None` with a loud SKIP on another device (under CI, whose
/// device is lavapipe, a failure instead) or without one (`device`).
fn lavapipe_description(test: &str, name: &str) -> Option<String> {
    if !device(test)? {
        assert!(!std::env::var("CI").is_ok_and(|v| v == "true"), "{test}: CI=true, but the device is not lavapipe");
        common::loud(&format!("SKIP {test}: the description targets lavapipe"));
        return None;
    }
    Some(format!("tests/run_layout/{name}"))
}

/// `(file, layout)` of every example.
fn example_layouts() -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    let mut out = vec![];
    for f in files {
        let (_, c) = dgcc::driver::compile_file(&f, &Default::default()).unwrap();
        let m = c.manifest.unwrap_or_else(|| panic!("{} does not compile", f.display()));
        let rel = format!("examples/{}", f.file_name().unwrap().to_string_lossy());
        out.extend(m.layouts.iter().map(|l| (rel.clone(), l.name.clone())));
    }
    assert!(out.len() >= 7, "{out:?}");
    out
}

fn report(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", text(o)))
}

#[test]
fn every_example_layout_runs_with_its_effect_checked_and_a_wrong_record_fails() {
    let test = "every_example_layout_runs_with_its_effect_checked_and_a_wrong_record_fails";
    let Some(lavapipe) = device(test) else { return };
    let mut summary = vec![];
    for (file, layout) in example_layouts() {
        let name = format!("{file}:{layout}");
        let o = dgcc(&["run", &file, "--layout", &layout, "--json"]);
        let r = report(&o);
        let l = &r["layouts"][0];
        let (dgc, fallback) = (l["dgc"]["status"].as_str().unwrap(), l["fallback"]["status"].as_str().unwrap());
        summary.push(format!("{name}: dgc {dgc}, fallback {fallback}"));
        let refused = l["dgc"]["codes"].as_array().is_some_and(|c| !c.is_empty());
        let nothing_ran = dgc == "not_run" && fallback == "not_run";
        if lavapipe || !nothing_ran {
            assert_eq!(o.status.code(), Some(0), "{name}:\n{}", text(&o));
            assert_eq!(r["ok"], true, "{name}: {r:#}");
        } else {
            // Another device may refuse a layout (with dgcc check's codes), lack what a tally
            // needs, or be known to crash on it (NVIDIA, a compute execution set): exit 1, said.
            assert_eq!(o.status.code(), Some(1), "{name}:\n{}", text(&o));
            if refused {
                assert!(text(&o).contains("error: the device refuses layout"), "{name}:\n{}", text(&o));
            }
            common::loud(&format!("{name}: not run on this device: {}", l["dgc"]["why"]));
            continue;
        }
        if lavapipe {
            assert_eq!(dgc, "ok", "{name}: lavapipe runs every example layout through DGC: {r:#}");
        }
        // The fallback's refusals name the token (or the action) that stops it.
        if fallback == "not_run" {
            let why = l["fallback"]["why"].as_str().unwrap();
            assert!(
                why.contains("token `") || why.contains("action token") || why.contains("accepts"),
                "{name}: {why}"
            );
        }
        // The same layout with the first or the last sequence's record written wrong: that
        // sequence, and no other, is named, exit 1.
        let last = l["sequences"].as_u64().expect("the report says how many sequences ran") - 1;
        for k in [0, last] {
            let o = dgcc(&["run", &file, "--layout", &layout, "--json", "--corrupt-sequence", &k.to_string()]);
            let r = report(&o);
            assert_eq!(o.status.code(), Some(1), "{name} corrupted:\n{}", text(&o));
            assert_eq!(r["ok"], false, "{name}: {r:#}");
            let path = &r["layouts"][0][if dgc == "ok" { "dgc" } else { "fallback" }];
            assert_eq!(path["status"], "differs", "{name}: {r:#}");
            let differences = path["differences"].as_array().unwrap();
            // "sequence 3: …", or for a count layout alone, whose slots are draw indices that
            // several sequences share, "sequence 0, 2, 5 (slot 0): …".
            let named = |d: &Value| {
                let owners = d.as_str().unwrap().strip_prefix("sequence ").and_then(|r| r.split([':', '(']).next());
                owners.is_some_and(|o| o.split(',').any(|n| n.trim() == k.to_string()))
            };
            assert!(differences.iter().any(named), "{name}, sequence {k}: {r:#}");
        }
    }
    common::loud(&format!("dgcc run --layout: {summary:#?}"));
    if lavapipe {
        for expected in [
            "examples/compute.ron:Jobs: dgc ok, fallback ok",
            "examples/draw_shaders.ron:Draws: dgc ok, fallback ok",
            "examples/mesh.ron:Meshlets: dgc ok, fallback not_run",
        ] {
            assert!(summary.iter().any(|s| s == expected), "{expected}: {summary:#?}");
        }
        // lavapipe binds graphics pipelines through an execution set: SceneDraw draws through a
        // real set of two tally pipelines, and a sequence drawn with the wrong entry would show.
        let o = dgcc(&["run", "examples/scene.ron", "--layout", "SceneDraw", "--json"]);
        let r = report(&o);
        let ran = r["layouts"][0]["dgc"]["ran"].as_str().unwrap_or_default();
        assert!(ran.contains("through an execution set of 2 pipelines"), "{r:#}");
    }
}

#[test]
fn the_human_report_names_each_path_and_the_failing_sequence() {
    let test = "the_human_report_names_each_path_and_the_failing_sequence";
    let Some(lavapipe) = device(test) else {
        return;
    };
    let o = dgcc(&["run", "examples/multi_draw.ron", "--layout", "Batches"]);
    let out = text(&o);
    // lavapipe runs the count layout; elsewhere a refusal is an answer too.
    assert!(!lavapipe || o.status.code() == Some(0), "lavapipe runs `Batches`: {out}");
    if o.status.code() == Some(0) {
        assert!(out.contains("layout Batches (DRAW_INDEXED_COUNT, 6 sequences)"), "{out}");
        assert!(out.contains("dgc") && out.contains("checked ok"), "{out}");
        assert!(out.contains("fallback  not run:") && out.contains("token `indices` (INDEX_BUFFER)"), "{out}");
        let o = dgcc(&["run", "examples/multi_draw.ron", "--layout", "Batches", "--corrupt-sequence", "0"]);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert!(out.contains("DIFFERS") && out.contains("sequence 0 (slot 5)") && out.contains("FAILED"), "{out}");
    } else {
        // Refused (with dgcc check's codes), or no tally this device can run: said, exit 1.
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert!(out.contains("refuses layout `Batches`") || out.contains("not run:"), "{out}");
    }
}

#[test]
fn run_without_a_scene_layout_points_at_layout_and_unknown_names_are_listed() {
    // No device needed: both are decided before Vulkan is opened.
    let o = dgcc(&["run", "examples/compute.ron"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("--layout NAME") && out.contains("its layouts: Jobs"), "{out}");
    let o = dgcc(&["run", "examples/compute.ron", "--layout", "Nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no layout `Nope` (its layouts: Jobs)"), "{}", text(&o));
    // The scene's picture and the test knob belong to one kind of run each.
    let o = dgcc(&["run", "examples/compute.ron", "--layout", "Jobs", "--png", "never-written.png"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--png writes the demo scene's last frame"), "{}", text(&o));
    let o = dgcc(&["run", "examples/scene.ron", "--corrupt-sequence", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    // Nor is a scene option ignored without a word in a layout run.
    let o = dgcc(&["run", "examples/scene.ron", "--layout", "SceneDraw", "--objects", "7", "--materials", "99"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("cannot be used with") && text(&o).contains("--materials"), "{}", text(&o));
}

#[test]
fn a_device_index_past_the_list_is_an_error_that_lists_the_devices() {
    let test = "a_device_index_past_the_list_is_an_error_that_lists_the_devices";
    if device(test).is_none() {
        return;
    }
    for args in
        [&["probe", "--device", "99"][..], &["run", "examples/compute.ron", "--layout", "Jobs", "--device", "99"][..]]
    {
        let o = dgcc(args);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {out}");
        assert!(out.contains("--device 99 is past the") && out.contains("0: "), "{args:?}: {out}");
    }
    // The flag wins over DGCC_DEVICE: a name that matches nothing, and device 0 still opens.
    let o = Command::new(env!("CARGO_BIN_EXE_dgcc"))
        .args(["probe", "--device", "0"])
        .env("DGCC_DEVICE", "no such device anywhere")
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_dgcc"))
        .args(["probe"])
        .env("DGCC_DEVICE", "no such device anywhere")
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "DGCC_DEVICE still selects: {}", text(&o));
}

#[test]
fn a_description_of_ones_own_runs_its_draws_checked_and_names_what_it_cannot_check() {
    let test = "a_description_of_ones_own_runs_its_draws_checked_and_names_what_it_cannot_check";
    let Some(file) = lavapipe_description(test, "own.ron") else { return };
    let o = dgcc(&["run", &file, "--layout", "Plain", "--layout", "PlainCount", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&o);
    for l in r["layouts"].as_array().unwrap() {
        assert_eq!(l["dgc"]["status"], "ok", "{r:#}");
    }
    // DRAW runs through the fallback too (one multi-draw); DRAW_COUNT is refused there.
    assert_eq!(r["layouts"][0]["fallback"]["status"], "ok", "{r:#}");
    assert_eq!(r["layouts"][1]["fallback"]["status"], "not_run", "{r:#}");
    let o = dgcc(&["run", &file, "--layout", "PlainCount", "--corrupt-sequence", "0"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("sequence 0 (slot 5)"), "{}", text(&o));
    // A vertex buffer: read by the tally under DGC; the fallback's refusal names the token.
    let o = dgcc(&["run", &file, "--layout", "Vertices", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&o);
    let l = &r["layouts"][0];
    assert_eq!(l["dgc"]["status"], "ok", "{r:#}");
    assert!(l["dgc"]["ran"].as_str().unwrap().contains("a vertex buffer each"), "{r:#}");
    assert_eq!(l["fallback"]["status"], "not_run", "{r:#}");
    assert!(l["fallback"]["why"].as_str().unwrap().contains("token `positions` (VERTEX_BUFFER)"), "{r:#}");
    // Two vertex buffers: each read, weighed differently.
    let o = dgcc(&["run", &file, "--layout", "TwoBindings", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&o);
    assert!(r["layouts"][0]["dgc"]["ran"].as_str().unwrap().contains("2 vertex buffers each"), "{r:#}");
    // Five vertex buffers: each read too (up to sixteen are).
    let o = dgcc(&["run", &file, "--layout", "FiveBindings", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&o);
    assert!(r["layouts"][0]["dgc"]["ran"].as_str().unwrap().contains("5 vertex buffers each"), "{r:#}");
    // A mesh-task draw that pushes no meshlets: no tally reads it.
    let o = dgcc(&["run", &file, "--layout", "MeshTasksAlone", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = report(&o);
    let l = &r["layouts"][0];
    assert_eq!(l["dgc"]["status"], "not_run", "{r:#}");
    let why = l["dgc"]["why"].as_str().unwrap();
    assert!(why.contains("no tally for this layout") && why.contains("the mesh tally rig writes"), "{r:#}");
    assert!(l["fallback"]["why"].as_str().unwrap().contains("DRAW_MESH_TASKS"), "{r:#}");
    // Not a failure of the layout: the report says it was not checked, and why.
    let o = dgcc(&["run", &file, "--layout", "MeshTasksAlone"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("NOT CHECKED: neither path could run and check this layout"), "{}", text(&o));
    assert!(!text(&o).contains("FAILED"), "{}", text(&o));
}

#[test]
fn execution_sets_the_rig_cannot_hold_two_pipelines_of_run_binned_and_pass() {
    let test = "execution_sets_the_rig_cannot_hold_two_pipelines_of_run_binned_and_pass";
    let Some(file) = lavapipe_description(test, "odd_sets.ron") else { return };
    for layout in
        ["SetCount", "ShaderObjectKernels", "OneKernel", "OneMaterial", "OneKernelPushing", "OneMaterialWords"]
    {
        let o = dgcc(&["run", &file, "--layout", layout, "--json"]);
        let r = report(&o);
        assert_eq!(o.status.code(), Some(0), "{layout}:\n{}", text(&o));
        let dgc = &r["layouts"][0]["dgc"];
        assert_eq!(dgc["status"], "ok", "{layout}: {r:#}");
        assert!(dgc["ran"].as_str().unwrap().contains("the execution set binned"), "{layout}: {r:#}");
    }
    // Run without its EXECUTION_SET token, a layout's pushed words are still named by its
    // tokens as written.
    for (layout, word) in [
        ("OneKernelPushing", "sequence 1: push-constant byte 0 (token `params`, field `base`) read"),
        ("OneMaterialWords", "push-constant byte 4 (token `object`, field `id`; read in the vertex stage) read"),
    ] {
        let o = dgcc(&["run", &file, "--layout", layout, "--json", "--corrupt-sequence", "1"]);
        let r = report(&o);
        let differences = r["layouts"][0]["dgc"]["differences"].as_array().unwrap();
        assert!(differences.iter().any(|d| d.as_str().unwrap().contains(word)), "{layout}: {r:#}");
    }
}

#[test]
fn dispatch_layouts_have_their_pushed_words_read_back_per_sequence() {
    let test = "dispatch_layouts_have_their_pushed_words_read_back_per_sequence";
    let Some(file) = lavapipe_description(test, "placed.ron") else { return };
    let o = dgcc(&["run", &file, "--layout", "Placed", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&o);
    let l = &r["layouts"][0];
    assert_eq!(l["dgc"]["status"], "ok", "{r:#}");
    assert!(l["dgc"]["ran"].as_str().unwrap().contains("3 pushed word(s) read per sequence"), "{r:#}");
    // The fallback pushes the sequence index alone.
    assert_eq!(l["fallback"]["status"], "ok", "{r:#}");
    assert!(l["fallback"]["ran"].as_str().unwrap().contains("1 pushed word(s) read per sequence"), "{r:#}");
    // A corrupted record: one group too many and its first pushed word wrong, each named.
    for (file, layout, word) in [
        (file.as_str(), "Placed", "push-constant byte 16 (token `params`, field `first`)"),
        ("examples/compute.ron", "Jobs", "push-constant byte 0 (token `params`, field `base`)"),
    ] {
        let o = dgcc(&["run", file, "--layout", layout, "--json", "--corrupt-sequence", "2"]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let r = report(&o);
        let differences: Vec<&str> =
            r["layouts"][0]["dgc"]["differences"].as_array().unwrap().iter().map(|d| d.as_str().unwrap()).collect();
        assert_eq!(differences.len(), 2, "{layout}: {r:#}");
        assert!(differences[0].starts_with("sequence 2: its invocations add 8 instead of 4"), "{layout}: {r:#}");
        assert!(differences[1].starts_with(&format!("sequence 2: {word} read 0x")), "{layout}: {r:#}");
        let fallback = r["layouts"][0]["fallback"]["differences"].as_array().unwrap();
        assert_eq!(fallback.len(), 1, "{layout}: the fallback reads no pushed data: {r:#}");
    }
}

/// `layout` of `file` through `dgcc run --layout --json`: exit 0, DGC checked ok having run
/// `ran` (a part of its `ran`), the fallback `fallback` (`ok`, or `not_run` with `why` in its
/// reason). Then, with the first and then the last sequence's record written wrong
/// (`--corrupt-sequence`): exit 1, and every path that checked ok now differs and names that
/// sequence.
fn checked_and_a_wrong_record_named(file: &str, layout: &str, ran: &str, fallback: Result<(), &str>) {
    let o = dgcc(&["run", file, "--layout", layout, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{layout}:\n{}", text(&o));
    let r = report(&o);
    let l = &r["layouts"][0];
    assert_eq!(l["dgc"]["status"], "ok", "{layout}: {r:#}");
    assert!(l["dgc"]["ran"].as_str().unwrap().contains(ran), "{layout}: {r:#}");
    let mut checked = vec!["dgc"];
    match fallback {
        Ok(()) => {
            assert_eq!(l["fallback"]["status"], "ok", "{layout}: {r:#}");
            assert!(l["fallback"]["ran"].as_str().unwrap().contains(ran), "{layout}: {r:#}");
            checked.push("fallback");
        }
        Err(why) => {
            assert_eq!(l["fallback"]["status"], "not_run", "{layout}: {r:#}");
            assert!(l["fallback"]["why"].as_str().unwrap().contains(why), "{layout}: {r:#}");
        }
    }
    let last = l["sequences"].as_u64().unwrap() - 1;
    for k in [0, last] {
        let o = dgcc(&["run", file, "--layout", layout, "--json", "--corrupt-sequence", &k.to_string()]);
        assert_eq!(o.status.code(), Some(1), "{layout}, sequence {k} corrupted:\n{}", text(&o));
        let r = report(&o);
        for path in &checked {
            let p = &r["layouts"][0][path];
            assert_eq!(p["status"], "differs", "{layout} {path}, sequence {k}: {r:#}");
            let named = |d: &Value| d.as_str().unwrap().starts_with(&format!("sequence {k} (slot "));
            assert!(p["differences"].as_array().unwrap().iter().any(named), "{layout} {path}, sequence {k}: {r:#}");
        }
    }
}

#[test]
fn draw_layouts_that_push_nothing_take_their_slots_from_first_instance_and_are_checked() {
    let test = "draw_layouts_that_push_nothing_take_their_slots_from_first_instance_and_are_checked";
    let Some(file) = lavapipe_description(test, "unpushed.ron") else { return };
    let slot = "tally slot from firstInstance";
    // The fallback runs DRAW and DRAW_INDEXED (its one index buffer bound for every draw).
    for layout in ["Indexed", "IndexedAlone", "PlainAlone"] {
        checked_and_a_wrong_record_named(&file, layout, slot, Ok(()));
    }
    checked_and_a_wrong_record_named(&file, "IndexedCount", slot, Err("token `indices` (INDEX_BUFFER)"));
    checked_and_a_wrong_record_named(&file, "PlainCount", slot, Err("its action token is DRAW_COUNT"));
    // A real set of two tally pipelines, sequence k drawing with entry k % 2.
    checked_and_a_wrong_record_named(
        &file,
        "Materials",
        "through an execution set of 2 pipelines",
        Err("EXECUTION_SET"),
    );
    let o = dgcc(&["run", &file, "--layout", "IndexedAlone"]);
    assert!(
        text(&o).contains("indexed draw sequence(s) (tally slot from firstInstance, one index buffer bound)"),
        "{}",
        text(&o)
    );
}

#[test]
fn vertex_buffer_layouts_are_checked_under_dgc_with_a_buffer_per_sequence() {
    let test = "vertex_buffer_layouts_are_checked_under_dgc_with_a_buffer_per_sequence";
    let Some(file) = lavapipe_description(test, "vertices.ron") else { return };
    let refused = "token `positions` (VERTEX_BUFFER)";
    for layout in ["Positions", "PlainPositions", "Objects", "PositionsCount"] {
        checked_and_a_wrong_record_named(&file, layout, "a vertex buffer each", Err(refused));
    }
    checked_and_a_wrong_record_named(
        &file,
        "SetPositions",
        "through an execution set of 2 pipelines",
        Err("EXECUTION_SET"),
    );
    // Several vertex streams, each its own binding, weighed differently in the tally.
    checked_and_a_wrong_record_named(&file, "Streams", "3 vertex buffers each", Err(refused));
    checked_and_a_wrong_record_named(&file, "StreamsCount", "2 vertex buffers each", Err(refused));
    // More than the first four inputs, in sparse bindings up to 31: six, and fifteen (the most
    // lavapipe's 16 tokens leave beside a draw). A middle sequence's wrong record is named too.
    checked_and_a_wrong_record_named(&file, "SixStreams", "6 vertex buffers each", Err(refused));
    checked_and_a_wrong_record_named(&file, "SixStreamsCount", "6 vertex buffers each", Err(refused));
    checked_and_a_wrong_record_named(&file, "FifteenStreams", "15 vertex buffers each", Err("token `stream0`"));
    for layout in ["SixStreams", "SixStreamsCount", "FifteenStreams"] {
        let o = dgcc(&["run", &file, "--layout", layout, "--json", "--corrupt-sequence", "2"]);
        assert_eq!(o.status.code(), Some(1), "{layout}:\n{}", text(&o));
        let r = report(&o);
        let dgc = &r["layouts"][0]["dgc"];
        assert_eq!(dgc["status"], "differs", "{layout}: {r:#}");
        let named = |d: &Value| d.as_str().unwrap().starts_with("sequence 2 (slot ");
        assert!(dgc["differences"].as_array().unwrap().iter().all(named), "{layout}: {r:#}");
    }
    // Sixteen take 17 tokens with the draw: lavapipe (16) refuses them, naming the limit.
    let o = dgcc(&["run", "tests/run_layout/sixteen_streams.ron", "--layout", "SixteenStreams", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = report(&o);
    assert_eq!(r["layouts"][0]["dgc"]["codes"], serde_json::json!(["E0202"]), "{r:#}");
    let o = dgcc(&["run", &file, "--layout", "PositionsCount", "--json"]);
    let r = report(&o);
    let ran = r["layouts"][0]["dgc"]["ran"].as_str().unwrap();
    assert!(ran.contains("tally slot from firstInstance, one index buffer bound, a vertex buffer each"), "{r:#}");
}

#[test]
fn draw_layouts_have_their_pushed_words_read_back_per_sequence() {
    let test = "draw_layouts_have_their_pushed_words_read_back_per_sequence";
    let Some(file) = lavapipe_description(test, "pushed.ron") else { return };
    let slot = "tally slot from firstInstance";
    let refused = |token: &'static str| Err(token);
    for (layout, fallback) in [
        ("Fields", Ok(())),
        ("FieldsCount", refused("token `indices` (INDEX_BUFFER)")),
        ("Plain", Ok(())),
        ("SequenceOnly", Ok(())),
        ("FragmentOnly", Ok(())),
        ("SetFields", refused("EXECUTION_SET")),
    ] {
        checked_and_a_wrong_record_named(&file, layout, slot, fallback);
    }
    // What each path read, per stage.
    let o = dgcc(&["run", &file, "--layout", "Fields", "--layout", "Plain", "--layout", "SetFields", "--json"]);
    let r = report(&o);
    let ran = |l: usize, path: &str| r["layouts"][l][path]["ran"].as_str().unwrap().to_string();
    assert!(
        ran(0, "dgc")
            .contains("6 pushed word(s) read per sequence that draws: 5 in the vertex stage, 1 in the fragment stage"),
        "{r:#}"
    );
    assert!(ran(0, "fallback").contains("6 pushed word(s) read per sequence that draws, from its record by gl_DrawID, the sequence index as gl_DrawID"), "{r:#}");
    // A token pushing to both stages is read in both.
    assert!(
        ran(1, "dgc")
            .contains("12 pushed word(s) read per sequence that draws: 6 in the vertex stage, 6 in the fragment stage"),
        "{r:#}"
    );
    assert!(ran(2, "dgc").contains("through an execution set of 2 pipelines"), "{r:#}");
    // A record whose first pushed word is written wrong: the word, and nothing else, is named
    // with its sequence, byte, token, field and the stage that read it.
    for (layout, path, words) in [
        ("Fields", "dgc", &["push-constant byte 16 (token `object`, field `object_id`; read in the vertex stage) read 0x"][..]),
        ("Fields", "fallback", &["push-constant byte 16 (token `object`, field `object_id`; read from the draw's record by gl_DrawID) read 0x"]),
        ("FieldsCount", "dgc", &["push-constant byte 16 (token `object`, field `object_id`; read in the vertex stage) read 0x"]),
        (
            "Plain",
            "dgc",
            &[
                "push-constant byte 16 (token `tint`, field `color`; read in the vertex stage) read 0x",
                "push-constant byte 16 (token `tint`, field `color`; read in the fragment stage) read 0x",
            ],
        ),
        ("FragmentOnly", "dgc", &["push-constant byte 0 (token `material`, field `material_id`; read in the fragment stage) read 0x"]),
        ("SetFields", "dgc", &["push-constant byte 20 (token `object`, field `object_id`; read in the vertex stage) read 0x"]),
    ] {
        sequence_2_named_by_its_words(&file, layout, path, words);
    }
}

/// `layout` of `file` with sequence 2's first pushed data word written wrong
/// (`--corrupt-sequence 2`): exit 1, and `path` reports exactly one difference per word of
/// `words`, each sequence 2's and starting with that word.
fn sequence_2_named_by_its_words(file: &str, layout: &str, path: &str, words: &[&str]) {
    let o = dgcc(&["run", file, "--layout", layout, "--json", "--corrupt-sequence", "2"]);
    assert_eq!(o.status.code(), Some(1), "{layout}:\n{}", text(&o));
    let r = report(&o);
    let differences: Vec<&str> =
        r["layouts"][0][path]["differences"].as_array().unwrap().iter().map(|d| d.as_str().unwrap()).collect();
    assert_eq!(differences.len(), words.len(), "{layout} {path}: {r:#}");
    for (d, word) in differences.iter().zip(words) {
        let (who, what) = d.split_once(": ").unwrap();
        assert!(who.starts_with("sequence 2 (slot ") && what.starts_with(word), "{layout} {path}: {d}");
    }
}

#[test]
fn draw_layouts_pushing_more_vertex_words_than_one_execution_carries_have_every_word_read() {
    let test = "draw_layouts_pushing_more_vertex_words_than_one_execution_carries_have_every_word_read";
    let Some(file) = lavapipe_description(test, "wide.ron") else { return };
    // 64 words to the vertex stage, 52 carried at a time: the records are drawn twice, by DGC
    // and by the fallback alike, and nothing is left unread.
    let twice = "the records drawn 2 times, the vertex shader carrying at most 52 words each time";
    for layout in ["Wide", "WideBoth"] {
        checked_and_a_wrong_record_named(&file, layout, twice, Ok(()));
    }
    let o = dgcc(&["run", &file, "--layout", "Wide", "--layout", "WideBoth", "--json"]);
    let r = report(&o);
    let ran = |l: usize, path: &str| r["layouts"][l][path]["ran"].as_str().unwrap().to_string();
    for (l, path, read) in [
        (0, "dgc", "61 pushed word(s) read per sequence that draws: 61 in the vertex stage;"),
        (0, "fallback", "61 pushed word(s) read per sequence that draws, from its record by gl_DrawID"),
        (1, "dgc", "65 pushed word(s) read per sequence that draws: 61 in the vertex stage, 4 in the fragment stage;"),
        (1, "fallback", "61 pushed word(s) read per sequence that draws, from its record by gl_DrawID"),
    ] {
        assert!(ran(l, path).contains(read) && !ran(l, path).contains("not read"), "{r:#}");
    }
    // The word written wrong is byte 240, past the first 52 words: named in every stage that
    // read it.
    let tail = "push-constant byte 240 (token `tail`, field `color`;";
    for (layout, path, words) in [
        ("Wide", "dgc", vec![format!("{tail} read in the vertex stage) read 0x")]),
        ("Wide", "fallback", vec![format!("{tail} read from the draw's record by gl_DrawID) read 0x")]),
        (
            "WideBoth",
            "dgc",
            vec![
                format!("{tail} read in the vertex stage) read 0x"),
                format!("{tail} read in the fragment stage) read 0x"),
            ],
        ),
        ("WideBoth", "fallback", vec![format!("{tail} read from the draw's record by gl_DrawID) read 0x")]),
    ] {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        sequence_2_named_by_its_words(&file, layout, path, &words);
    }
}

#[test]
fn draw_layouts_pushing_to_the_tessellation_and_geometry_stages_have_those_words_read_there() {
    let test = "draw_layouts_pushing_to_the_tessellation_and_geometry_stages_have_those_words_read_there";
    let Some(file) = lavapipe_description(test, "between.ron") else { return };
    let slot = "tally slot from firstInstance";
    for (layout, fallback) in
        [("Geometry", Ok(())), ("GeometryWide", Ok(())), ("Tessellation", Ok(())), ("EveryStage", Err("EXECUTION_SET"))]
    {
        checked_and_a_wrong_record_named(&file, layout, slot, fallback);
    }
    // What DGC read, per stage, with nothing left unread.
    let read = [
        ("Geometry", "3 pushed word(s) read per sequence that draws: 3 in the geometry stage"),
        (
            "GeometryWide",
            "64 pushed word(s) read per sequence that draws: 40 in the vertex stage, 24 in the geometry stage; \
             the records drawn 2 times, the vertex and geometry shaders carrying at most 52 words between them each time",
        ),
        (
            "Tessellation",
            "3 pushed word(s) read per sequence that draws: 1 in the tessellation control stage, \
             2 in the tessellation evaluation stage",
        ),
        (
            "EveryStage",
            "7 pushed word(s) read per sequence that draws: 1 in the vertex stage, 1 in the tessellation control stage, \
             2 in the tessellation evaluation stage, 2 in the geometry stage, 1 in the fragment stage) \
             through an execution set of 2 pipelines",
        ),
    ];
    let mut args = vec!["run", file.as_str(), "--json"];
    args.extend(read.iter().flat_map(|(layout, _)| ["--layout", layout]));
    let r = report(&dgcc(&args));
    for (l, (layout, words)) in read.iter().enumerate() {
        let ran = r["layouts"][l]["dgc"]["ran"].as_str().unwrap();
        assert!(ran.contains(words) && !ran.contains("not read"), "{layout}: {r:#}");
    }
    // Sequence 2's first pushed data word written wrong: named with the stage (every stage)
    // that read it.
    let everywhere = "push-constant byte 4 (token `everywhere`, field `tag`; read in the";
    let every_stage: Vec<String> =
        ["vertex", "tessellation control", "tessellation evaluation", "geometry", "fragment"]
            .iter()
            .map(|stage| format!("{everywhere} {stage} stage) read 0x"))
            .collect();
    for (layout, path, words) in [
        ("Geometry", "dgc", vec!["push-constant byte 16 (token `shape`, field `shape_id`; read in the geometry stage) read 0x".to_string()]),
        ("Geometry", "fallback", vec!["push-constant byte 16 (token `shape`, field `shape_id`; read from the draw's record by gl_DrawID) read 0x".to_string()]),
        ("GeometryWide", "dgc", vec!["push-constant byte 160 (token `tail`, field `row`; read in the geometry stage) read 0x".to_string()]),
        ("Tessellation", "dgc", vec!["push-constant byte 0 (token `control`, field `level`; read in the tessellation control stage) read 0x".to_string()]),
        ("EveryStage", "dgc", every_stage),
    ] {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        sequence_2_named_by_its_words(&file, layout, path, &words);
    }
}
