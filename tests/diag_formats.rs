//! Diagnostics for CI and editors: `--message-format rustc` and `sarif`, per-code levels
//! (`-A/-W/-D CODE`), `--color` and `dgcc completions`. Each case runs the real `dgcc` binary.
//!
//! Why parsed and not only snapshotted: tools read these formats, so the test reads them the
//! way tools do — the rustc lines with `cargo_metadata`'s diagnostic types, the SARIF log
//! against the structure SARIF 2.1.0 requires — and the snapshots show what changed.

use cargo_metadata::diagnostic::{Diagnostic as RustcDiagnostic, DiagnosticLevel};
use serde_json::Value;
use std::process::{Command, Output};

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

/// The parts of SARIF 2.1.0 (OASIS, sarif-schema-2.1.0.json) a log of dgcc's uses: required
/// properties, types, enums and minimums, checked the way the schema states them.
fn validate_sarif(log: &Value) -> Result<(), String> {
    fn obj<'a>(v: &'a Value, at: &str) -> Result<&'a serde_json::Map<String, Value>, String> {
        v.as_object().ok_or_else(|| format!("{at}: not an object"))
    }
    fn arr<'a>(v: &'a Value, at: &str) -> Result<&'a Vec<Value>, String> {
        v.as_array().ok_or_else(|| format!("{at}: not an array"))
    }
    fn string(v: &Value, at: &str) -> Result<String, String> {
        v.as_str().map(str::to_string).ok_or_else(|| format!("{at}: not a string"))
    }
    fn message(v: &Value, at: &str) -> Result<(), String> {
        let m = obj(v, at)?;
        if m.contains_key("text") || m.contains_key("id") {
            string(m.get("text").unwrap_or(&Value::String(String::new())), &format!("{at}.text")).map(|_| ())
        } else {
            Err(format!("{at}: a message needs `text` or `id`"))
        }
    }
    fn location(v: &Value, at: &str) -> Result<(), String> {
        let l = obj(v, at)?;
        if let Some(id) = l.get("id") {
            id.as_u64().ok_or(format!("{at}.id: not a non-negative integer"))?;
        }
        if let Some(m) = l.get("message") {
            message(m, &format!("{at}.message"))?;
        }
        let p = obj(&l["physicalLocation"], &format!("{at}.physicalLocation"))?;
        let a = obj(&p["artifactLocation"], &format!("{at}.physicalLocation.artifactLocation"))?;
        let uri = string(&a["uri"], &format!("{at}...uri"))?;
        if uri.starts_with('/') || uri.contains(' ') || uri.contains('\\') || uri.starts_with("./") {
            return Err(format!("{at}: uri `{uri}` is not a relative URI reference"));
        }
        let r = obj(&p["region"], &format!("{at}.physicalLocation.region"))?;
        for k in ["startLine", "startColumn", "endLine", "endColumn"] {
            let n = r.get(k).and_then(Value::as_u64).ok_or(format!("{at}.region.{k}: not an integer"))?;
            if n < 1 {
                return Err(format!("{at}.region.{k}: below the minimum of 1"));
            }
        }
        let (sl, el) = (r["startLine"].as_u64(), r["endLine"].as_u64());
        if el < sl || (el == sl && r["endColumn"].as_u64() < r["startColumn"].as_u64()) {
            return Err(format!("{at}.region: ends before it starts"));
        }
        Ok(())
    }
    let top = obj(log, "log")?;
    string(&top["$schema"], "$schema")?;
    if top.get("version") != Some(&Value::from("2.1.0")) {
        return Err("version: must be \"2.1.0\"".into());
    }
    let runs = arr(&top["runs"], "runs")?;
    for (ri, run) in runs.iter().enumerate() {
        let at = format!("runs[{ri}]");
        let driver = obj(&run["tool"]["driver"], &format!("{at}.tool.driver"))?;
        string(&driver["name"], "driver.name")?;
        let rules = arr(driver.get("rules").unwrap_or(&Value::Array(vec![])), "driver.rules")?.clone();
        let mut ids = std::collections::BTreeSet::new();
        for (i, r) in rules.iter().enumerate() {
            let id = string(&r["id"], &format!("rules[{i}].id"))?;
            if !ids.insert(id.clone()) {
                return Err(format!("rules: `{id}` twice (uniqueItems)"));
            }
            message(&r["shortDescription"], &format!("rules[{i}].shortDescription"))?;
            let level = &r["defaultConfiguration"]["level"];
            if !["none", "note", "warning", "error"].contains(&level.as_str().unwrap_or("?")) {
                return Err(format!("rules[{i}].defaultConfiguration.level: {level}"));
            }
        }
        for (i, res) in arr(&run["results"], &format!("{at}.results"))?.iter().enumerate() {
            let at = format!("{at}.results[{i}]");
            message(&res["message"], &format!("{at}.message"))?;
            let level = string(&res["level"], &format!("{at}.level"))?;
            if !["none", "note", "warning", "error"].contains(&level.as_str()) {
                return Err(format!("{at}.level: `{level}` is not in the enum"));
            }
            let id = string(&res["ruleId"], &format!("{at}.ruleId"))?;
            let index = res["ruleIndex"].as_u64().ok_or(format!("{at}.ruleIndex"))? as usize;
            if rules.get(index).map(|r| &r["id"]) != Some(&Value::from(id.as_str())) {
                return Err(format!("{at}: ruleIndex {index} is not rule {id}"));
            }
            for (k, l) in arr(&res["locations"], &format!("{at}.locations"))?.iter().enumerate() {
                location(l, &format!("{at}.locations[{k}]"))?;
            }
            // fix: artifactChanges (at least one); each a location and replacements (at least
            // one), each with a deletedRegion.
            for (k, fix) in res.get("fixes").and_then(Value::as_array).into_iter().flatten().enumerate() {
                let at = format!("{at}.fixes[{k}]");
                let changes = arr(&fix["artifactChanges"], &format!("{at}.artifactChanges"))?;
                if changes.is_empty() {
                    return Err(format!("{at}.artifactChanges: minItems 1"));
                }
                for c in changes {
                    string(&c["artifactLocation"]["uri"], &format!("{at}...uri"))?;
                    let reps = arr(&c["replacements"], &format!("{at}.replacements"))?;
                    if reps.is_empty() {
                        return Err(format!("{at}.replacements: minItems 1"));
                    }
                    for rep in reps {
                        obj(&rep["deletedRegion"], &format!("{at}.deletedRegion"))?;
                        string(&rep["insertedContent"]["text"], &format!("{at}.insertedContent.text"))?;
                    }
                }
            }
            if let Some(rel) = res.get("relatedLocations") {
                for (k, l) in arr(rel, &format!("{at}.relatedLocations"))?.iter().enumerate() {
                    location(l, &format!("{at}.relatedLocations[{k}]"))?;
                }
            }
        }
    }
    Ok(())
}

#[test]
fn sarif_is_one_valid_log_for_every_file() {
    let o = dgcc(&["check", STRIDE, W0005, "--message-format", "sarif"]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    let log: Value = serde_json::from_str(&out(&o)).expect("one JSON document");
    validate_sarif(&log).unwrap();
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
    // ruleIndex is checked by the validator; it moves whenever a code is added.
    let mut shown = results.clone();
    shown.iter_mut().for_each(|r| r["ruleIndex"] = "…".into());
    snapshot("sarif_results", &shown);
    // The validator does refuse what the schema refuses.
    let mut bad = log.clone();
    bad["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(validate_sarif(&bad).is_err());
    let mut bad = log.clone();
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into();
    assert!(validate_sarif(&bad).is_err());
    // A clean file still gives a log (with no results).
    let o = dgcc(&["check", "examples/scene.ron", "--message-format", "sarif"]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let clean: Value = serde_json::from_str(&out(&o)).unwrap();
    validate_sarif(&clean).unwrap();
    assert!(clean["runs"][0]["results"].as_array().unwrap().iter().all(|r| r["level"] == "note"));
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
    validate_sarif(&log).unwrap();
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
    let dir = std::env::temp_dir().join(format!("dgcc-diag-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dgc = dir.join("lints.dgc");
    let fmt = dgcc(&["fmt", ron, "--to", "dgc", "-o", dgc.to_str().unwrap()]);
    assert_eq!(code(&fmt), 0, "{}", err(&fmt));
    let text = std::fs::read_to_string(&dgc).unwrap();
    assert!(text.contains("    lints allow W0005;\n"), "{text}");
    assert_eq!(code(&dgcc(&["check", dgc.to_str().unwrap(), "--deny-warnings"])), 0);
    std::fs::write(&dgc, text.replace("lints allow W0005;", "lints allow W0005, allow E0404, deny W9999;")).unwrap();
    let bad = dgcc(&["check", dgc.to_str().unwrap(), "--message-format", "json"]);
    assert_eq!(code(&bad), 1);
    let lines: Vec<Value> = out(&bad).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let e0008: Vec<&Value> = lines.iter().filter(|d| d["code"] == "E0008").collect();
    assert_eq!(e0008.len(), 2, "{lines:?}");
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
    validate_sarif(&log).unwrap();
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
