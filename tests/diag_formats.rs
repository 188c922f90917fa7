//! Diagnostics for CI and editors: `--message-format rustc` and `sarif`, per-code levels
//! (`-A/-W/-D CODE`), `--color` and `dgcc completions`. Each case runs the real `dgcc` binary.
//!
//! Why parsed and not only snapshotted: tools read these formats, so the test reads them the
//! way tools do — the rustc lines with `cargo_metadata`'s diagnostic types, the SARIF logs with
//! the `jsonschema` package against OASIS's SARIF 2.1.0 schema (`tests/diag_formats/sarif_schema.py`;
//! without it that test is a visible skip, and a failure under `CI` or `DGCC_REQUIRE_TOOLS=1`:
//! `.ci/setup.sh` installs it in `/opt/dgcc/sarif`) — and the snapshots show what changed.

use cargo_metadata::diagnostic::{Diagnostic as RustcDiagnostic, DiagnosticLevel};
use serde_json::Value;
use std::process::{Command, Output};

#[path = "emit/tools.rs"]
mod tools;

fn dgcc_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dgcc"));
    c.args(args).current_dir(env!("DGCC_CHECKOUT")).env_remove("NO_COLOR");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("dgcc runs")
}

fn dgcc(args: &[&str]) -> Output {
    dgcc_env(args, &[])
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `--message-format json` output: one diagnostic per line.
fn json_lines(o: &Output) -> Vec<Value> {
    out(o).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// `dgcc fmt RON --to dgc` into a fresh folder of this test process (`tag` names it): the
/// file's path and its text.
fn fmt_to_dgc(ron: &str, tag: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("dgcc-diag-formats-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stem = std::path::Path::new(ron).file_stem().unwrap().to_str().unwrap();
    let dgc = dir.join(format!("{stem}.dgc"));
    let fmt = dgcc(&["fmt", ron, "--to", "dgc", "-o", dgc.to_str().unwrap()]);
    assert_eq!(code(&fmt), 0, "{}", err(&fmt));
    let text = std::fs::read_to_string(&dgc).unwrap();
    (dgc, text)
}

fn snapshot(name: &str, v: &[Value]) {
    insta::with_settings!({ snapshot_path => "diag_formats/snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, serde_json::to_string_pretty(v).unwrap());
    });
}

/// A real mistake with a secondary label and a help note.
const STRIDE: &str = "examples/mistakes/stride_too_small.ron";
/// A description whose only finding is a warning (W0005 on lavapipe).
const W0005: &str = "tests/check/err/W0005.ron";

#[test]
fn rustc_format_parses_as_rustc_diagnostics_and_agrees_with_json() {
    let o = dgcc(&["check", STRIDE, "--message-format", "rustc"]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    let json = out(&dgcc(&["check", STRIDE, "--message-format", "json"]));
    let json: Vec<Value> = json.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let lines: Vec<String> = out(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), json.len());
    for (line, j) in lines.iter().zip(&json) {
        let raw: Value = serde_json::from_str(line).unwrap();
        assert_eq!(raw["$message_type"], "diagnostic");
        let d: RustcDiagnostic = serde_json::from_str(line).expect("rustc's shape");
        let c = d.code.as_ref().expect("a code");
        assert_eq!(c.code, j["code"].as_str().unwrap());
        assert!(c.explanation.as_deref().is_some_and(|e| e.len() > 40));
        assert_eq!(d.message, j["message"].as_str().unwrap());
        let p = d.spans.iter().find(|s| s.is_primary).expect("a primary span");
        assert_eq!(
            (p.file_name.as_str(), p.line_start as u64),
            (j["file"].as_str().unwrap(), j["line"].as_u64().unwrap())
        );
        assert_eq!(
            (p.column_start as u64, p.column_end as u64),
            (j["column"].as_u64().unwrap(), j["end_column"].as_u64().unwrap())
        );
        assert!(d.spans.iter().all(|s| s.expansion.is_none() && !s.text.is_empty()));
        let rendered = d.rendered.as_deref().unwrap();
        assert!(rendered.contains(&format!("[{}]: {}", c.code, d.message)) && !rendered.contains('\x1b'), "{rendered}");
    }
    let e0404: RustcDiagnostic = serde_json::from_str(lines.iter().find(|l| l.contains("\"E0404\"")).unwrap()).unwrap();
    assert_eq!(e0404.level, DiagnosticLevel::Error);
    assert!(e0404.spans.iter().any(|s| !s.is_primary && s.label.is_some()), "the secondary label is a span");
    assert!(e0404.children.iter().any(|c| c.level == DiagnosticLevel::Help && c.message.starts_with("use a stride")));
    assert!(e0404.children.iter().any(|c| c.level == DiagnosticLevel::Note));
    // The registry's explanation is checked above; the snapshot shows the rest.
    let mut pretty: Vec<Value> = lines.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    pretty.iter_mut().for_each(|d| d["code"]["explanation"] = "…".into());
    snapshot("rustc_stride_too_small", &pretty);
}

/// What SARIF 2.1.0 requires and its schema cannot say, for a log of dgcc's: a result's
/// `ruleIndex` is the index of its `ruleId` in `tool.driver.rules` (§3.27.6), and a region does
/// not end before it starts (§3.30). The schema itself is applied by the real validator, in
/// `sarif_logs_validate_against_the_oasis_schema`.
fn sarif_consistency(log: &Value) -> Result<(), String> {
    for (ri, run) in log["runs"].as_array().ok_or("no runs")?.iter().enumerate() {
        let rules = run["tool"]["driver"]["rules"].as_array().ok_or("no rules")?;
        for (i, res) in run["results"].as_array().ok_or("no results")?.iter().enumerate() {
            let at = format!("runs[{ri}].results[{i}]");
            let index = res["ruleIndex"].as_u64().ok_or(format!("{at}: no ruleIndex"))? as usize;
            if rules.get(index).map(|r| &r["id"]) != Some(&res["ruleId"]) {
                return Err(format!("{at}: ruleIndex {index} is not rule {}", res["ruleId"]));
            }
            let locations = res["locations"].as_array().into_iter().flatten();
            for l in locations.chain(res["relatedLocations"].as_array().into_iter().flatten()) {
                let r = &l["physicalLocation"]["region"];
                let start = (r["startLine"].as_u64(), r["startColumn"].as_u64());
                if (r["endLine"].as_u64(), r["endColumn"].as_u64()) < start {
                    return Err(format!("{at}: the region {r} ends before it starts"));
                }
            }
        }
    }
    Ok(())
}

/// Every description under `dir` (RON and the dgcc language), relative to the checkout.
fn descriptions(dir: &str) -> Vec<String> {
    let root = std::path::Path::new(env!("DGCC_CHECKOUT"));
    let mut files: Vec<String> = std::fs::read_dir(root.join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".ron") || n.ends_with(".dgc"))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    files.sort();
    files
}

#[test]
fn sarif_is_one_valid_log_for_every_file() {
    let o = dgcc(&["check", STRIDE, W0005, "--message-format", "sarif"]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    let log: Value = serde_json::from_str(&out(&o)).expect("one JSON document");
    sarif_consistency(&log).unwrap();
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "dgcc");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), dgcc::rules::all().len());
    let e0101 = rules.iter().find(|r| r["id"] == "E0101").unwrap();
    assert!(e0101["properties"]["vuid"].as_str().unwrap().starts_with("VUID-"));
    let results = run["results"].as_array().unwrap();
    let e0404 = results.iter().find(|r| r["ruleId"] == "E0404").unwrap();
    assert_eq!(e0404["level"], "error");
    assert_eq!(e0404["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], STRIDE);
    assert_eq!(e0404["locations"][0]["physicalLocation"]["region"]["startLine"], 19);
    assert!(e0404["relatedLocations"].as_array().is_some_and(|r| !r.is_empty()));
    let w = results.iter().find(|r| r["ruleId"] == "W0005").unwrap();
    assert_eq!((w["level"].as_str(), w["properties"]["target"].as_str()), (Some("warning"), Some("lavapipe")));
    // ruleIndex is checked by sarif_consistency; it moves whenever a code is added.
    let mut shown = results.clone();
    shown.iter_mut().for_each(|r| r["ruleIndex"] = "…".into());
    snapshot("sarif_results", &shown);
    // A clean file still gives a log (with no results).
    let o = dgcc(&["check", "examples/scene.ron", "--message-format", "sarif"]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let clean: Value = serde_json::from_str(&out(&o)).unwrap();
    sarif_consistency(&clean).unwrap();
    assert!(clean["runs"][0]["results"].as_array().unwrap().iter().all(|r| r["level"] == "note"));
    assert_eq!(clean["runs"][0]["invocations"][0]["executionSuccessful"], true);
    // A file that cannot be read gives a log with no results, which must not read as clean.
    let o = dgcc(&["check", "tests/no-such-file.ron", "--message-format", "sarif"]);
    assert_eq!(code(&o), 2, "{}", err(&o));
    let failed: Value = serde_json::from_str(&out(&o)).unwrap();
    let invocation = &failed["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let note = invocation["toolExecutionNotifications"][0]["message"]["text"].as_str().unwrap();
    assert!(note.contains("no-such-file.ron"), "{note}");
}

#[test]
fn sarif_logs_validate_against_the_oasis_schema() {
    // The logs of the tests above, a clean file's, and one log of every mistake dgcc knows:
    // each description of tests/check/err (a file per code) and examples/mistakes, RON and .dgc.
    let test = "sarif_logs_validate_against_the_oasis_schema";
    let mut every: Vec<String> = descriptions("tests/check/err");
    every.extend(descriptions("examples/mistakes"));
    let cases: Vec<(&str, Vec<&str>, i32)> = vec![
        ("stride_and_w0005", vec![STRIDE, W0005], 1),
        ("clean", vec!["examples/scene.ron"], 0),
        ("kernels", vec!["tests/emit/fixtures/kernels.ron"], 1),
        ("fix_maybe_incorrect", vec!["examples/mistakes/offset_not_aligned.dgc"], 1),
        ("every_mistake", every.iter().map(String::as_str).collect(), 1),
        ("unreadable", vec!["tests/no-such-file.ron"], 2),
    ];
    let mut logs: Vec<(String, Value)> = Vec::new();
    for (name, files, want) in &cases {
        let mut args = vec!["check"];
        args.extend(files);
        args.extend(["--message-format", "sarif"]);
        let o = dgcc(&args);
        assert_eq!(code(&o), *want, "{name}: {}", err(&o));
        let log: Value = serde_json::from_str(&out(&o)).unwrap_or_else(|e| panic!("{name}: {e}"));
        sarif_consistency(&log).unwrap_or_else(|e| panic!("{name}: {e}"));
        logs.push((name.to_string(), log));
    }
    // Each log names the document it is judged by (the schema's `id`, which sarif_schema.py checks).
    let oasis = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
    assert!(logs.iter().all(|(_, log)| log["$schema"] == oasis && log["version"] == "2.1.0"));
    let every_log = &logs.iter().find(|(n, _)| n == "every_mistake").unwrap().1;
    let results = every_log["runs"][0]["results"].as_array().unwrap();
    assert!(results.len() > 100, "{} results", results.len());
    assert!(
        results.iter().any(|r| r.get("fixes").is_some()) && results.iter().any(|r| r.get("relatedLocations").is_some())
    );
    // Broken logs the schema refuses, each with the reason it must give: so that a validator
    // that accepts everything (or a schema that says nothing) cannot pass this test.
    let base = logs[0].1.clone();
    // (name, what breaks the first result, the reason the schema must give)
    type Broken = (&'static str, fn(&mut Value), &'static str);
    let broken: Vec<Broken> = vec![
        ("bad_level", |r| r["level"] = "fatal".into(), "'fatal' is not one of ['none', 'note', 'warning', 'error']"),
        ("bad_no_message", |r| drop(r.as_object_mut().unwrap().remove("message")), "'message' is a required property"),
        (
            "bad_start_line",
            |r| r["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into(),
            "startLine: 0 is less than the minimum of 1",
        ),
        (
            "bad_uri",
            |r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "a b.ron".into(),
            "'a b.ron' is not a 'uri-reference'",
        ),
        (
            "bad_unknown_property",
            |r| r["severity"] = "error".into(),
            "Additional properties are not allowed ('severity'",
        ),
    ];
    let mut expect: Vec<(String, Option<&str>)> = logs.iter().map(|(n, _)| (n.clone(), None)).collect();
    for (name, change, why) in &broken {
        let mut b = base.clone();
        change(&mut b["runs"][0]["results"][0]);
        logs.push((name.to_string(), b));
        expect.push((name.to_string(), Some(why)));
    }
    let mut b = base.clone();
    b["version"] = "2.2.0".into();
    logs.push(("bad_version".into(), b));
    expect.push(("bad_version".into(), Some("'2.2.0' is not one of ['2.1.0']")));
    let Some(mut validator) = tools::sarif_schema(test) else { return };
    let dir = tools::scratch("diag_formats_sarif");
    let paths: Vec<std::path::PathBuf> = logs
        .iter()
        .map(|(name, log)| {
            let p = dir.join(format!("{name}.sarif"));
            std::fs::write(&p, serde_json::to_string_pretty(log).unwrap()).unwrap();
            p
        })
        .collect();
    let report = tools::run(validator.args(&paths));
    let verdicts: Vec<Value> = report.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(verdicts.len(), logs.len(), "{report}");
    for ((name, why), v) in expect.iter().zip(&verdicts) {
        assert!(v["log"].as_str().is_some_and(|l| l.ends_with(&format!("/{name}.sarif"))), "{name}: {v}");
        let errors: Vec<&str> = v["errors"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
        match why {
            None => {
                assert!(errors.is_empty(), "{name}: the SARIF 2.1.0 schema refuses dgcc's log:\n{}", errors.join("\n"))
            }
            Some(why) => assert!(
                errors.iter().any(|e| e.contains(why)),
                "{name}: the schema should refuse it with `{why}`, but said {errors:?}"
            ),
        }
    }
}

#[test]
fn levels_per_code_from_the_command_line() {
    // Under --deny-warnings a lavapipe memory estimate fails the build; -A W0005 stops it.
    assert_eq!(code(&dgcc(&["check", W0005])), 0);
    assert_eq!(code(&dgcc(&["check", W0005, "--deny-warnings"])), 1);
    let allowed = dgcc(&["check", W0005, "--deny-warnings", "-A", "W0005"]);
    assert_eq!(code(&allowed), 0, "{}", err(&allowed));
    assert!(err(&allowed).contains("no problems"), "{}", err(&allowed));
    assert_eq!(code(&dgcc(&["check", W0005, "--allow", "w0005", "--deny-warnings"])), 0, "codes are case-insensitive");
    // -D, --deny (the old spelling) and the last flag of a code wins, whichever flag it is.
    assert_eq!(code(&dgcc(&["check", W0005, "-D", "W0005"])), 1);
    assert_eq!(code(&dgcc(&["check", W0005, "--deny", "W0005"])), 1);
    assert_eq!(code(&dgcc(&["check", W0005, "-D", "W0005", "-A", "W0005"])), 0);
    assert_eq!(code(&dgcc(&["check", W0005, "-A", "W0005", "-D", "W0005"])), 1);
    assert_eq!(code(&dgcc(&["check", W0005, "-D", "W0005", "-W", "W0005"])), 0);
    // A note can be raised to a warning.
    let n = dgcc(&["check", "examples/scene.ron", "-W", "N0001", "--message-format", "json"]);
    assert!(out(&n).lines().any(|l| l.contains("N0001") && l.contains("\"severity\":\"warning\"")), "{}", out(&n));
    // An error cannot be allowed or lowered; an unknown code is refused: usage errors.
    for flags in [["-A", "E0404"], ["-W", "E0404"], ["--allow", "W9999"]] {
        let o = dgcc(&["check", W0005, flags[0], flags[1]]);
        assert_eq!(code(&o), 2, "{flags:?}");
        assert!(err(&o).starts_with("error: `--"), "{}", err(&o));
    }
    assert!(err(&dgcc(&["check", STRIDE, "-A", "E0404"])).contains("E0404 is an error and cannot be allowed"));
    assert_eq!(code(&dgcc(&["check", STRIDE, "-D", "E0404"])), 1, "denying an error is allowed (and changes nothing)");
}

#[test]
fn color_follows_the_flag_and_no_color() {
    let esc = |o: &Output| err(o).contains('\x1b');
    assert!(!esc(&dgcc(&["check", STRIDE])), "a pipe gets no colour by default");
    assert!(esc(&dgcc(&["check", STRIDE, "--color", "always"])));
    assert!(!esc(&dgcc(&["check", STRIDE, "--color", "never"])));
    assert!(!esc(&dgcc_env(&["check", STRIDE, "--color", "auto"], &[("NO_COLOR", "1")])));
    // fmt's diagnostics too: never on a pipe unless asked.
    let broken = "tests/check/err/E0001.ron";
    assert!(!esc(&dgcc(&["fmt", "--check", broken])));
    assert!(esc(&dgcc(&["fmt", "--check", broken, "--color", "always"])));
    assert_eq!(code(&dgcc(&["check", STRIDE, "--color", "sometimes"])), 2);
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = dgcc(&["completions", shell]);
        assert_eq!(code(&o), 0, "{shell}: {}", err(&o));
        let script = out(&o);
        assert!(script.contains("dgcc") && script.contains("message-format"), "{shell}");
    }
    assert_eq!(code(&dgcc(&["completions", "tcsh"])), 2);
}

#[test]
fn the_manual_page_lists_every_command_and_flag() {
    let o = dgcc(&["man"]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let page = out(&o);
    assert!(page.starts_with(".TH DGCC 1 "), "{page}");
    for cmd in ["check", "compile", "explain", "profiles", "fmt", "probe", "run", "bench", "completions", "man"] {
        assert!(page.contains(&format!(".SS \"dgcc {cmd}\"")), "{cmd}");
    }
    for flag in ["message\\-format", "deny\\-warnings", "allow", "warn", "deny", "strict", "color"] {
        assert!(page.contains(&format!("\\fB\\-\\-{flag}\\fR")), "--{flag}");
    }
    assert!(page.lines().all(|l| !l.starts_with('.') || l.starts_with(".TH") || l.starts_with(".S") || l == ".TP"));
    // Where groff is installed, it reads the page without a warning.
    if let Ok(mut groff) = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    {
        use std::io::Write;
        groff.stdin.take().unwrap().write_all(page.as_bytes()).unwrap();
        let r = groff.wait_with_output().unwrap();
        assert!(r.status.success() && r.stderr.is_empty(), "{}", String::from_utf8_lossy(&r.stderr));
    }
}

#[test]
fn kernel_lint_findings_point_at_the_kernel_file_in_every_format() {
    // `hardcoded_subgroup_size.comp` line 16: `uint lane = gl_SubgroupInvocationID & 31;`.
    let desc = "tests/emit/fixtures/kernels.ron";
    let comp = "tests/emit/fixtures/../../../examples/mistakes/hardcoded_subgroup_size.comp";
    let human = err(&dgcc(&["check", desc]));
    assert!(human.contains(&format!("┌─ {comp}:16:17")), "{human}");
    let json = out(&dgcc(&["check", desc, "--message-format", "json"]));
    let j: Value = serde_json::from_str(json.lines().find(|l| l.contains("W0501")).unwrap()).unwrap();
    assert_eq!((j["file"].as_str(), j["line"].as_u64(), j["column"].as_u64()), (Some(comp), Some(16), Some(17)));
    let rustc = out(&dgcc(&["check", desc, "--message-format", "rustc"]));
    let r: RustcDiagnostic = serde_json::from_str(rustc.lines().find(|l| l.contains("\"W0501\"")).unwrap()).unwrap();
    let p = r.spans.iter().find(|s| s.is_primary).unwrap();
    assert_eq!((p.file_name.as_str(), p.line_start, p.column_start), (comp, 16, 17));
    assert!(p.text[0].text.contains("gl_SubgroupInvocationID & 31"));
    let s = r.spans.iter().find(|s| !s.is_primary).unwrap();
    assert_eq!((s.file_name.as_str(), s.label.as_deref()), (desc, Some("in kernel `hardcoded`")));
    let log: Value = serde_json::from_str(&out(&dgcc(&["check", desc, "--message-format", "sarif"]))).unwrap();
    sarif_consistency(&log).unwrap();
    let res = log["runs"][0]["results"].as_array().unwrap().iter().find(|r| r["ruleId"] == "W0501").unwrap();
    let loc = &res["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], comp);
    assert_eq!((loc["region"]["startLine"].as_u64(), loc["region"]["startColumn"].as_u64()), (Some(16), Some(17)));
    assert_eq!(res["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"], desc);
}

#[test]
fn levels_in_the_description_in_both_syntaxes_and_the_command_line_wins() {
    // tests/check/ok/lints.ron allows W0005 (`lints: [Allow("W0005")]`).
    let ron = "tests/check/ok/lints.ron";
    assert_eq!(code(&dgcc(&["check", ron, "--deny-warnings"])), 0);
    let warned = dgcc(&["check", ron, "-W", "W0005", "--message-format", "json"]);
    assert_eq!(code(&warned), 0);
    assert!(out(&warned).contains("\"code\":\"W0005\""), "{}", out(&warned));
    assert_eq!(code(&dgcc(&["check", ron, "-D", "W0005"])), 1);
    // The same in the dgcc language, and mistakes in `lints` are E0008 at the code.
    let (dgc, text) = fmt_to_dgc(ron, "lints");
    let dir = dgc.parent().unwrap();
    assert!(text.contains("    lints allow W0005;\n"), "{text}");
    assert_eq!(code(&dgcc(&["check", dgc.to_str().unwrap(), "--deny-warnings"])), 0);
    std::fs::write(&dgc, text.replace("lints allow W0005;", "lints allow W0005, allow E0404, deny W9999;")).unwrap();
    let bad = dgcc(&["check", dgc.to_str().unwrap(), "--message-format", "json"]);
    assert_eq!(code(&bad), 1);
    let lines = json_lines(&bad);
    let e0008: Vec<&Value> = lines.iter().filter(|d| d["code"] == "E0008").collect();
    assert_eq!(e0008.len(), 2, "{lines:?}");
    assert!(e0008[0]["message"].as_str().unwrap().contains("E0404 is an error and cannot be allowed"));
    assert!(e0008[1]["message"].as_str().unwrap().contains("`W9999` is not a diagnostic code"));
    // A RON code that is not a word, which `.dgc` could not spell: refused when read, so `dgcc
    // fmt` writes nothing.
    let odd = dir.join("odd.ron");
    let ron_text = std::fs::read_to_string(std::path::Path::new(env!("DGCC_CHECKOUT")).join(ron)).unwrap();
    assert!(ron_text.contains("Allow(\"W0005\")"), "{ron_text}");
    std::fs::write(&odd, ron_text.replace("Allow(\"W0005\")", "Allow(\"W0%05\")")).unwrap();
    let bad = dgcc(&["check", odd.to_str().unwrap(), "--message-format", "json"]);
    assert_eq!(code(&bad), 1);
    let lines = json_lines(&bad);
    assert!(
        lines.iter().any(
            |d| d["code"] == "E0008" && d["message"].as_str().unwrap().contains("`W0%05` is not a diagnostic code")
        ),
        "{lines:?}"
    );
    let target = dir.join("odd.dgc");
    let fmt = dgcc(&["fmt", odd.to_str().unwrap(), "--to", "dgc", "-o", target.to_str().unwrap()]);
    assert_ne!(code(&fmt), 0, "{}", out(&fmt));
    assert!(err(&fmt).contains("E0008"), "{}", err(&fmt));
    assert!(!target.exists(), "a refused description leaves no output");
}

#[test]
fn a_layouts_levels_cover_its_own_diagnostics_in_both_syntaxes() {
    // tests/check/ok/layout_lints.ron allows W0005 for the pipeline and warns it again for the
    // layout `Watched` only: one warning, at that layout's `max_sequences`.
    let ron = "tests/check/ok/layout_lints.ron";
    let of =
        |lines: &[Value], code: &str| -> Vec<Value> { lines.iter().filter(|d| d["code"] == code).cloned().collect() };
    let checked = dgcc(&["check", ron, "--message-format", "json"]);
    assert_eq!(code(&checked), 0, "{}", out(&checked));
    let w0005 = of(&json_lines(&checked), "W0005");
    assert_eq!(w0005.len(), 1, "{w0005:?}");
    assert_eq!(w0005[0]["severity"], "warning");
    assert_eq!(w0005[0]["line"], 22, "{w0005:?}");
    // The command line wins over both: every layout's W0005 is denied, or none is reported.
    let denied = dgcc(&["check", ron, "-D", "W0005", "--message-format", "json"]);
    assert_eq!(code(&denied), 1);
    let w0005 = of(&json_lines(&denied), "W0005");
    assert_eq!(w0005.len(), 2, "{w0005:?}");
    assert!(w0005.iter().all(|d| d["severity"] == "error"), "{w0005:?}");
    assert_eq!(code(&dgcc(&["check", ron, "-A", "W0005", "--deny-warnings"])), 0);
    assert_eq!(code(&dgcc(&["check", ron, "--deny-warnings"])), 1);
    // The same in the dgcc language, and a layout's mistakes are E0008 at the code.
    let (dgc, text) = fmt_to_dgc(ron, "layout-lints");
    assert!(text.contains("    layout Watched [vertex, fragment] {\n        lints warn W0005;\n"), "{text}");
    let checked = dgcc(&["check", dgc.to_str().unwrap(), "--message-format", "json"]);
    assert_eq!(code(&checked), 0, "{}", out(&checked));
    assert_eq!(of(&json_lines(&checked), "W0005").len(), 1, "{}", out(&checked));
    std::fs::write(&dgc, text.replace("lints warn W0005;", "lints warn W0005, allow E0404, deny W9999;")).unwrap();
    let bad = dgcc(&["check", dgc.to_str().unwrap(), "--message-format", "json"]);
    assert_eq!(code(&bad), 1);
    let e0008 = of(&json_lines(&bad), "E0008");
    assert_eq!(e0008.len(), 2, "{e0008:?}");
    assert!(e0008[0]["message"].as_str().unwrap().contains("E0404 is an error and cannot be allowed"));
    assert!(e0008[1]["message"].as_str().unwrap().contains("`W9999` is not a diagnostic code"));
}

#[test]
fn help_is_written_in_the_syntax_of_the_file() {
    // W0003 (a stride not a multiple of 16) tells how to set `align`: `align: Some(16)` in RON,
    // `align 16;` in the dgcc language, in every format.
    let ron = "tests/check/err/W0003.ron";
    let dir = std::env::temp_dir().join(format!("dgcc-diag-formats-help-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dgc = dir.join("W0003.dgc");
    assert_eq!(code(&dgcc(&["fmt", ron, "--to", "dgc", "-o", dgc.to_str().unwrap()])), 0);
    let dgc = dgc.to_str().unwrap();
    let human_ron = err(&dgcc(&["check", ron]));
    assert!(human_ron.contains("help: add `align: Some(16)`"), "{human_ron}");
    let human_dgc = err(&dgcc(&["check", dgc]));
    assert!(human_dgc.contains("help: add `align 16;`") && !human_dgc.contains("Some("), "{human_dgc}");
    let json = out(&dgcc(&["check", dgc, "--message-format", "json"]));
    assert!(json.contains("help: add `align 16;`") && !json.contains("Some(16)"), "{json}");
    let rustc = out(&dgcc(&["check", dgc, "--message-format", "rustc"]));
    let d: RustcDiagnostic = serde_json::from_str(rustc.lines().find(|l| l.contains("\"W0003\"")).unwrap()).unwrap();
    assert!(d.children.iter().any(|c| c.level == DiagnosticLevel::Help && c.message.starts_with("add `align 16;`")));
    assert!(d.rendered.unwrap().contains("`align 16;`"));
    let sarif = out(&dgcc(&["check", dgc, "--message-format", "sarif"]));
    assert!(sarif.contains("add `align 16;`") && !sarif.contains("`align: Some(16)` to round"), "{sarif}");
}

#[test]
fn messages_are_written_in_the_syntax_of_the_file() {
    // W0002 names `max_sequences` and a token kind: `max_sequences: 1024` and `DrawIndexedCount`
    // in RON, `max_sequences 1024;` and `draw_indexed_count` in the dgcc language, in every format.
    let ron_said = "with `max_sequences: 1024`, `draws` (DrawIndexedCount) allows a maxDrawCount of at most 16383";
    let dgc_said = "with `max_sequences 1024;`, `draws` (draw_indexed_count) allows a maxDrawCount of at most 16383";
    for (file, said, not) in [
        ("examples/mistakes/count_without_mdi.ron", ron_said, dgc_said),
        ("examples/mistakes/count_without_mdi.dgc", dgc_said, ron_said),
    ] {
        let human = err(&dgcc(&["check", file]));
        assert!(human.contains(&format!("warning[W0002]: {said}\n")) && !human.contains(not), "{human}");
        let json = json_lines(&dgcc(&["check", file, "--message-format", "json"]));
        let w0002 = json.iter().find(|d| d["code"] == "W0002").expect("W0002");
        assert_eq!(w0002["message"], said, "{file}");
        let rustc = out(&dgcc(&["check", file, "--message-format", "rustc"]));
        let d: RustcDiagnostic =
            serde_json::from_str(rustc.lines().find(|l| l.contains("\"W0002\"")).unwrap()).unwrap();
        assert_eq!(d.message, said, "{file}");
        assert!(d.rendered.unwrap().contains(said), "{file}");
        let sarif = out(&dgcc(&["check", file, "--message-format", "sarif"]));
        assert!(sarif.contains(said) && !sarif.contains(not), "{sarif}");
    }
}

#[test]
fn a_fix_is_a_suggested_replacement_and_a_sarif_fix_and_applying_it_fixes() {
    // E0404: the stride 32 of `stride_too_small.ron` (line 16) should be 36.
    let rustc = out(&dgcc(&["check", STRIDE, "--message-format", "rustc"]));
    let d: RustcDiagnostic = serde_json::from_str(rustc.lines().find(|l| l.contains("\"E0404\"")).unwrap()).unwrap();
    let help = d.children.iter().find(|c| c.level == DiagnosticLevel::Help).unwrap();
    assert_eq!(help.spans.len(), 1, "{help:?}");
    let fix = &help.spans[0];
    assert_eq!((fix.line_start, fix.suggested_replacement.as_deref()), (16, Some("36")));
    assert_eq!(fix.suggestion_applicability, Some(cargo_metadata::diagnostic::Applicability::MachineApplicable));
    let text = std::fs::read_to_string(std::path::Path::new(env!("DGCC_CHECKOUT")).join(STRIDE)).unwrap();
    assert_eq!(&text[fix.byte_start as usize..fix.byte_end as usize], "32");
    let log: Value = serde_json::from_str(&out(&dgcc(&["check", STRIDE, "--message-format", "sarif"]))).unwrap();
    sarif_consistency(&log).unwrap();
    let r = log["runs"][0]["results"].as_array().unwrap().iter().find(|r| r["ruleId"] == "E0404").unwrap();
    let rep = &r["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(
        (rep["deletedRegion"]["startLine"].as_u64(), rep["insertedContent"]["text"].as_str()),
        (Some(16), Some("36"))
    );
    // Applied, the fix removes the error.
    let dir = std::env::temp_dir().join(format!("dgcc-diag-formats-fix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fixed = dir.join("fixed.ron");
    let mut t = text.clone();
    t.replace_range(fix.byte_start as usize..fix.byte_end as usize, "36");
    std::fs::write(&fixed, t).unwrap();
    let o = dgcc(&["check", fixed.to_str().unwrap(), "--message-format", "json"]);
    assert!(!out(&o).contains("E0404"), "{}", out(&o));
    // A fix that may collide with something else is MaybeIncorrect (E0132: an offset rounded up).
    let rustc = out(&dgcc(&["check", "examples/mistakes/offset_not_aligned.dgc", "--message-format", "rustc"]));
    let d: RustcDiagnostic = serde_json::from_str(rustc.lines().find(|l| l.contains("\"E0132\"")).unwrap()).unwrap();
    let s = &d.children.iter().find(|c| !c.spans.is_empty()).unwrap().spans[0];
    assert_eq!(s.suggestion_applicability, Some(cargo_metadata::diagnostic::Applicability::MaybeIncorrect));
    assert_eq!(s.suggested_replacement.as_deref(), Some("8"));
}

#[test]
fn many_diagnostics_on_a_large_file_render_in_every_format_with_bounded_output() {
    // 2 MB of comment lines (`\r\n`, a multi-byte character each), then one 36 KB line with 6,000
    // unknown stages: 6,000 errors far into the file, on a line too long to quote whole. Each
    // format reads the file once and quotes only what a diagnostic shows; before, every
    // diagnostic re-read the file up to its offset and copied all of it into its `rendered`
    // report, and rustc's `text` held the whole line: 28 s for the rustc format alone in a
    // release build (more in a test's debug one) and 227 MB of output, here.
    const N: usize = 6000;
    const PADDING: usize = 24_000;
    let dir = tools::scratch("diag_formats_large");
    let mut text = String::with_capacity(2_200_000);
    for i in 0..PADDING {
        text.push_str(&format!("// padding ü {i:07} {}\r\n", "-".repeat(60)));
    }
    let stages = vec!["Nope"; N].join(", ");
    // `p語`: the columns count characters, so the first stage is at column 76, not byte 78.
    text.push_str(&format!("Pipeline(name: \"p語\", targets: [\"lavapipe\"], layouts: [(name: \"A\", stages: [{stages}], max_sequences: 1, tokens: [Draw])])\n"));
    let file = dir.join("large.ron");
    std::fs::write(&file, &text).unwrap();
    let path = file.to_str().unwrap();
    let line = PADDING as u64 + 1;
    let column = |i: usize| 76 + 6 * i as u64;

    let human = dgcc(&["check", path]);
    assert_eq!(code(&human), 1);
    let shown = err(&human);
    assert!(shown.contains(&format!("┌─ {path}:{line}:76")), "{}", &shown[..2000.min(shown.len())]);
    assert!(shown.contains(&format!("{line} │ …")) && shown.contains("more diagnostic(s) not shown"));
    assert!(human.stderr.len() < 200_000, "{} bytes", human.stderr.len());

    let json = dgcc(&["check", path, "--message-format", "json"]);
    assert_eq!(code(&json), 1);
    let lines = json_lines(&json);
    assert_eq!(lines.len(), N);
    for (i, j) in lines.iter().enumerate() {
        assert_eq!((j["line"].as_u64(), j["column"].as_u64()), (Some(line), Some(column(i))), "{j}");
    }

    let rustc = dgcc(&["check", path, "--message-format", "rustc"]);
    assert_eq!(code(&rustc), 1);
    let rustc = out(&rustc);
    assert_eq!(rustc.lines().count(), N);
    for (i, l) in rustc.lines().enumerate() {
        // A few KB whatever the length of the line: its window is quoted, in `text` as in
        // `rendered`.
        assert!(l.len() < 4096, "diagnostic {i}: {} bytes", l.len());
        let d: RustcDiagnostic = serde_json::from_str(l).expect("rustc's shape");
        let p = d.spans.iter().find(|s| s.is_primary).unwrap();
        assert_eq!((p.line_start as u64, p.column_start as u64), (line, column(i)));
        let quoted: Vec<char> = p.text[0].text.chars().collect();
        let highlighted: String = quoted[p.text[0].highlight_start - 1..p.text[0].highlight_end - 1].iter().collect();
        assert_eq!(highlighted, "Nope", "{:?}", p.text[0]);
        assert!(quoted.len() <= dgcc::render::MAX_QUOTED_LINE + 2 && quoted.contains(&'…'), "{:?}", p.text[0]);
        assert!(d.rendered.unwrap().contains(&format!("{path}:{line}:{}", column(i))));
    }

    let sarif = dgcc(&["check", path, "--message-format", "sarif"]);
    assert_eq!(code(&sarif), 1);
    let log: Value = serde_json::from_str(&out(&sarif)).unwrap();
    sarif_consistency(&log).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), N);
    for (i, r) in results.iter().enumerate() {
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert_eq!((region["startLine"].as_u64(), region["startColumn"].as_u64()), (Some(line), Some(column(i))));
    }
    let rules = serde_json::to_string_pretty(&log["runs"][0]["tool"]).unwrap().len();
    assert!(out(&sarif).len() < rules + N * 2048, "{} bytes", out(&sarif).len());
}
