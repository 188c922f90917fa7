//! `dgcc check` against VK_LAYER_KHRONOS_validation on the live device: every layout of every
//! example and of every failing test input, created (or dry-run) under the layer, verdicts
//! compared (`vvl/differential.rs` says how, and why nothing dgcc rejects reaches the driver).
//!
//! It passes only if every layout VUID the layer reports is reported by dgcc too (except the
//! layer's known divergences from the spec, which are listed) and every layout dgcc accepts
//! creates without a message. It prints a table with the agreement figure; with
//! `DGCC_DIFFERENTIAL_REPORT=FILE` it also writes the table there as markdown.
//!
//! It reads the device's profile from the device itself (`dgcc::runtime::probe`), so the same
//! binary runs on any device with the layer: `.ci/with-validation.sh` on lavapipe here, and on
//! the H200 with the layer given by `VK_LAYER_PATH`, `DGCC_VALIDATION=1` and `DGCC_REPO` (the
//! checkout holding the inputs). Without the layer it prints a SKIP (a failure under
//! `DGCC_VALIDATION=1`).

mod vvl;

use dgcc::device::Limit;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use vvl::differential::{compare_file, inputs, Device, Layer, Outcome};
use vvl::Validated;

fn loud(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The live profile as Profiles JSON, narrowed to the features the test device enabled.
fn live_target(ctx: &Validated) -> (PathBuf, dgcc::device::Profile) {
    // SAFETY: the test context's physical device, of its live instance.
    let probe = unsafe { dgcc::runtime::probe::probe_physical(&ctx.instance, ctx.physical) };
    let probe_errors: Vec<String> = ctx
        .take_messages()
        .into_iter()
        .filter(|m| m.severity == ash::vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
        .map(|m| format!("{}: {}", m.id_name, m.text))
        .collect();
    assert!(probe_errors.is_empty(), "dgcc::runtime::probe drew layer errors: {probe_errors:#?}");
    let mut json = probe.json.clone();
    let f = ctx.features;
    let enabled = [
        (Limit::MeshShader, f.mesh_shader),
        (Limit::TaskShader, f.task_shader),
        (Limit::ShaderObject, f.shader_object),
        (Limit::RayTracingMaintenance1, f.ray_tracing_maintenance1),
        // Left off on purpose: the dry runs' sentinel needs it off (vvl/full_device.rs).
        (Limit::DynamicGeneratedPipelineLayout, false),
    ];
    for (limit, on) in enabled {
        let (_, structure, member) =
            dgcc::runtime::probe::LIMIT_HOMES.iter().find(|h| h.0 == limit).expect("every limit has a home");
        let slot = &mut json["capabilities"]["device"]["features"][*structure][*member];
        if slot.as_bool() == Some(true) && !on {
            *slot = serde_json::Value::Bool(false);
        }
    }
    // An extension's home is the device's extension list: one the test device did not enable
    // leaves the list, which in a probed device's profile reads as not supported.
    if !f.nv_mesh_shader {
        if let Some(exts) = json["capabilities"]["device"]["extensions"].as_object_mut() {
            exts.remove("VK_NV_mesh_shader");
        }
    }
    let path = std::env::temp_dir().join(format!("dgcc-vvl-differential-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    (path, probe.profile)
}

/// One line of `tests/vvl/open.txt`: a known miss awaiting a fix elsewhere.
struct Open {
    profile: String,
    at: String,
    vuid: String,
}

fn open_misses(repo: &Path) -> Vec<Open> {
    let text = std::fs::read_to_string(repo.join("tests/vvl/open.txt")).expect("tests/vvl/open.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| {
            let mut f = l.split_whitespace();
            let mut next = || {
                f.next()
                    .unwrap_or_else(|| panic!("open.txt: `{l}` needs a profile, file:layout, VUID and why"))
                    .to_string()
            };
            let (profile, at, vuid) = (next(), next(), next());
            assert!(f.next().is_some(), "open.txt: `{l}` needs a why");
            Open { profile, at, vuid }
        })
        .collect()
}

/// The report: the summary table, dgcc-only findings by category, known divergences, misses.
fn report(device: &str, layer: &str, inputs: usize, parsed: usize, outcomes: &[Outcome]) -> String {
    let open: Vec<String> =
        outcomes.iter().flat_map(|o| o.open.iter().map(move |id| format!("{}:{}: {id}", o.file, o.layout))).collect();
    let layouts = outcomes.len();
    let compared = outcomes.iter().filter(|o| o.compared()).count();
    let created = outcomes.iter().filter(|o| o.layer == Layer::Created).count();
    let agreements = outcomes.iter().filter(|o| o.agrees()).count();
    let both_reject = outcomes.iter().filter(|o| o.agrees() && o.dgcc_rejects()).count();
    let stricter = outcomes.iter().filter(|o| o.layer == Layer::Silent).count();
    let missed: usize = outcomes.iter().map(|o| o.missed.len() + o.open.len()).sum();
    let undetermined: Vec<&Outcome> =
        outcomes.iter().filter(|o| matches!(o.layer, Layer::Undetermined(_) | Layer::NotBuilt(_))).collect();
    let on_creation = outcomes.iter().filter(|o| o.agrees_on_creation()).count();
    let percent = |n: usize| if compared == 0 { 0.0 } else { 100.0 * n as f64 / compared as f64 };
    let mut s = String::new();
    let _ = writeln!(s, "Differential check on {device} with {layer}\n");
    let _ = writeln!(s, "| inputs | parsed | layouts | compared | created | agreements | of which both reject | agreement | agreement on layout-creation rules | layer VUIDs missed by dgcc (open) | dgcc stricter (layer silent) | undetermined or not built |");
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|---|");
    let _ = writeln!(
        s,
        "| {inputs} | {parsed} | {layouts} | {compared} | {created} | {agreements} | {both_reject} | {agreements}/{compared} = {:.1}% | {on_creation}/{compared} = {:.1}% | {missed} ({}) | {stricter} | {} |",
        percent(agreements),
        percent(on_creation),
        open.len(),
        undetermined.len()
    );
    let _ = writeln!(s, "\nAgreement: same verdict (both accept, or both reject with every layer VUID reported by dgcc). On layout-creation rules: dgcc's verdict counting only its errors whose VUID belongs to creating the layout or its pipeline layout.");
    let mut categories: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    for o in outcomes {
        for (code, cat) in &o.dgcc_only {
            *categories.entry(cat).or_default().entry(code).or_default() += 1;
        }
    }
    let _ =
        writeln!(s, "\ndgcc-only findings (dgcc reports an error whose VUID the layer did not report), by category:\n");
    let _ = writeln!(s, "| category | findings | codes |\n|---|---|---|");
    for (cat, codes) in &categories {
        let n: usize = codes.values().sum();
        let list: Vec<String> =
            codes.iter().map(|(c, k)| if *k > 1 { format!("{c}×{k}") } else { c.to_string() }).collect();
        let _ = writeln!(s, "| {cat} | {n} | {} |", list.join(", "));
    }
    let mut divergences: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
    for o in outcomes {
        for (id, why) in &o.divergences {
            divergences.entry((id.as_str(), why)).or_default().push(format!("{}:{}", o.file, o.layout));
        }
    }
    let _ = writeln!(s, "\nKnown divergences of the layer (allowed):\n");
    let _ = writeln!(s, "| layer VUID | why | layouts |\n|---|---|---|");
    for ((id, why), at) in &divergences {
        let _ = writeln!(s, "| {id} | {why} | {} |", at.join(", "));
    }
    if !undetermined.is_empty() {
        let _ = writeln!(s, "\nNot compared:\n");
        for o in &undetermined {
            let _ = writeln!(s, "- {}:{}: {:?}", o.file, o.layout, o.layer);
        }
    }
    let disagreements: Vec<&Outcome> = outcomes.iter().filter(|o| o.compared() && !o.agrees_on_creation()).collect();
    if !disagreements.is_empty() {
        let _ = writeln!(s, "\nDisagreements on layout-creation rules:\n");
        for o in disagreements {
            let why: Vec<String> = o
                .dgcc_only
                .iter()
                .map(|(c, cat)| format!("{c}: {cat}"))
                .chain(o.divergences.iter().map(|(id, _)| format!("known divergence: {id}")))
                .chain(o.open.iter().map(|id| format!("open: {id}")))
                .collect();
            let _ = writeln!(
                s,
                "- {}:{} (dgcc {:?}, layer {:?}): {}",
                o.file,
                o.layout,
                o.dgcc_errors,
                o.layer,
                why.join("; ")
            );
        }
    }
    if !open.is_empty() {
        let _ =
            writeln!(s, "\nLayer VUIDs dgcc missed, open in tests/vvl/open.txt (a fix outside this test is due):\n");
        for o in open {
            let _ = writeln!(s, "- {o}");
        }
    }
    let misses: Vec<&Outcome> = outcomes.iter().filter(|o| !o.missed.is_empty()).collect();
    if !misses.is_empty() {
        let _ = writeln!(s, "\nLayer VUIDs dgcc missed:\n");
        for o in misses {
            let _ = writeln!(
                s,
                "- {}:{} (dgcc: {:?}, layer: {:?}): {}",
                o.file,
                o.layout,
                o.dgcc_errors,
                o.layer,
                o.missed.join(", ")
            );
        }
    }
    s
}

#[test]
fn dgcc_reports_every_layout_vuid_the_validation_layer_reports() {
    let test = "dgcc_reports_every_layout_vuid_the_validation_layer_reports";
    let Some(ctx) = vvl::or_skip(test, Validated::with_layout_features()) else { return };
    let setup_errors: Vec<String> = ctx.take_messages().iter().map(|m| format!("{}: {}", m.id_name, m.text)).collect();
    assert!(setup_errors.is_empty(), "creating the device drew layer messages: {setup_errors:#?}");
    let fns = vvl::ext_dgc::LayoutFns::load(&ctx.instance, &ctx.device).expect("the layout entry points resolve");
    let (target, profile) = live_target(&ctx);
    let max_tokens = profile.value(Limit::MaxIndirectCommandsTokenCount).unwrap_or(16);
    let dev = Device { ctx: &ctx, fns, max_tokens };
    dev.self_check().unwrap_or_else(|why| {
        panic!(
            "the dry run's sentinel does not work on this device and layer, so nothing can be compared safely: {why}"
        )
    });
    loud(&format!("{test}: {} (profile `{}`, enabled {:?})", ctx.description, profile.name, ctx.features));

    // DGCC_REPO: where the inputs are when the binary runs away from its build tree (the H200).
    let repo_dir =
        std::env::var("DGCC_REPO").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from(env!("DGCC_CHECKOUT")));
    let repo = repo_dir.as_path();
    let files = inputs(repo);
    assert!(files.len() > 50, "too few inputs found under {}: {}", repo.display(), files.len());
    let mut outcomes = vec![];
    let mut parsed = 0;
    for f in &files {
        if let Some(o) = compare_file(&dev, f, &target, repo) {
            parsed += 1;
            outcomes.extend(o);
        }
    }
    let _ = std::fs::remove_file(&target);
    // Misses listed in open.txt for this device move out of the outcomes into `open`.
    let listed: Vec<Open> =
        open_misses(repo).into_iter().filter(|o| o.profile == "*" || o.profile == profile.name).collect();
    let mut seen = vec![false; listed.len()];
    for o in &mut outcomes {
        let at = format!("{}:{}", o.file, o.layout);
        let (open, missed): (Vec<String>, Vec<String>) =
            o.missed.drain(..).partition(|id| match listed.iter().position(|l| l.at == at && &l.vuid == id) {
                Some(k) => {
                    seen[k] = true;
                    true
                }
                None => false,
            });
        (o.open, o.missed) = (open, missed);
    }
    let (device, layer) =
        ctx.description.split_once(" on ").map(|(l, d)| (d.to_string(), l.to_string())).unwrap_or_default();
    let table = report(&device, &layer, files.len(), parsed, &outcomes);
    loud(&table);
    if let Ok(path) = std::env::var("DGCC_DIFFERENTIAL_REPORT") {
        std::fs::write(&path, &table).unwrap_or_else(|e| panic!("writing {path}: {e}"));
    }
    let messages = ctx.finish();
    assert!(
        messages.iter().all(|m| m.severity != ash::vk::DebugUtilsMessageSeverityFlagsEXT::ERROR),
        "teardown drew layer errors: {messages:#?}"
    );
    // The comparison must have been a real one: layouts created, layouts rejected by both.
    assert!(outcomes.iter().any(|o| o.layer == Layer::Created), "no layout was created");
    assert!(outcomes.iter().any(|o| o.agrees() && o.dgcc_rejects()), "no layout was rejected by both");
    // A layout dgcc accepts must reach the layer: one the harness could not build a create info
    // for, or whose verdict it could not tell, would hide exactly what this test is for.
    let unjudged: Vec<String> = outcomes
        .iter()
        .filter(|o| o.dgcc_errors.is_empty() && matches!(o.layer, Layer::Undetermined(_) | Layer::NotBuilt(_)))
        .map(|o| format!("{}:{} {:?}", o.file, o.layout, o.layer))
        .collect();
    assert!(unjudged.is_empty(), "layouts dgcc accepts that the layer never judged:\n{}", unjudged.join("\n"));
    let missed: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.missed.is_empty())
        .map(|o| format!("{}:{} {:?}", o.file, o.layout, o.missed))
        .collect();
    assert!(
        missed.is_empty(),
        "the layer reported VUIDs dgcc did not (fix dgcc, or list them in tests/vvl/open.txt with why):\n{}",
        missed.join("\n")
    );
    let stale: Vec<String> = listed
        .iter()
        .zip(&seen)
        .filter(|(_, s)| !**s)
        .map(|(l, _)| format!("{} {} {}", l.profile, l.at, l.vuid))
        .collect();
    assert!(
        stale.is_empty(),
        "tests/vvl/open.txt lists misses that no longer happen on `{}`: remove them:\n{}",
        profile.name,
        stale.join("\n")
    );
}
