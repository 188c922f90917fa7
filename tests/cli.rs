//! The command line as users run it: exit codes, both message formats, every command, and bad
//! input of every kind (contract §2). Each case runs the real `dgcc` binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dgcc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dgcc")).args(args).current_dir(env!("DGCC_CHECKOUT")).output().expect("dgcc runs")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally (no signal, no panic abort)")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn no_panic(o: &Output) {
    let e = stderr(o);
    assert!(!e.contains("panicked") && !e.contains("RUST_BACKTRACE"), "dgcc panicked:\n{e}");
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dgcc-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

const GOOD: &str = r#"Pipeline(
    name: "tiny",
    targets: ["lavapipe"],
    push_constants: [(stages: [Compute], offset: 0, size: 8)],
    layouts: [(
        name: "Work",
        stages: [Compute],
        max_sequences: 1024,
        tokens: [
            PushConstant(name: "job", stages: [Compute], offset: 0, fields: [(name: "job_id", ty: U32)]),
            SequenceIndex(stages: [Compute], offset: 4),
            Dispatch(),
        ],
    )],
)
"#;

#[test]
fn check_accepts_a_valid_description() {
    let d = tmp("good");
    let f = write(&d, "tiny.ron", GOOD.as_bytes());
    let o = dgcc(&["check", &f]);
    no_panic(&o);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn compile_writes_the_manifest() {
    let d = tmp("compile");
    let f = write(&d, "tiny.ron", GOOD.as_bytes());
    let out = d.join("out");
    let o = dgcc(&["compile", &f, "--emit", "json", "--out-dir", out.to_str().unwrap()]);
    no_panic(&o);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tiny.dgc.json")).unwrap()).unwrap();
    assert_eq!(m["pipeline"], "tiny");
    let l = &m["layouts"][0];
    assert_eq!(l["name"], "Work");
    assert_eq!(l["shader_stages"], 0x20);
    let types: Vec<&str> = l["tokens"].as_array().unwrap().iter().map(|t| t["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["PUSH_CONSTANT", "SEQUENCE_INDEX", "DISPATCH"]);
    let offsets: Vec<u64> = l["tokens"].as_array().unwrap().iter().map(|t| t["offset"].as_u64().unwrap()).collect();
    assert_eq!(offsets, [0, 4, 8]);
    assert_eq!(l["stride"], 20);
}

#[test]
fn compile_of_many_files_writes_all_outputs_or_none() {
    let d = tmp("compile-many");
    let a = write(&d, "tiny.ron", GOOD.as_bytes());
    let b = write(&d, "other.ron", GOOD.replace("name: \"tiny\"", "name: \"other\"").as_bytes());
    let out = d.join("out");
    let o = dgcc(&["compile", &a, &b, "--emit", "json,c", "--out-dir", out.to_str().unwrap()]);
    no_panic(&o);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for f in ["tiny.dgc.json", "tiny.h", "other.dgc.json", "other.h"] {
        assert!(out.join(f).is_file(), "{f}: {}", stderr(&o));
    }
    // One file with an error: nothing of the others is written either.
    let none = d.join("none");
    let bad = write(&d, "bad.ron", GOOD.replace("            Dispatch(),\n", "").as_bytes());
    let o = dgcc(&["compile", &a, &bad, "--out-dir", none.to_str().unwrap()]);
    no_panic(&o);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing written"), "{}", stderr(&o));
    assert!(!none.join("tiny.dgc.json").exists());
    // Two files that would write the same names: an error before anything is written.
    let same = write(&d, "same.ron", GOOD.as_bytes());
    let o = dgcc(&["compile", &a, &same, "--out-dir", none.to_str().unwrap()]);
    no_panic(&o);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("both write `tiny.dgc.json`"), "{}", stderr(&o));
    assert!(!none.join("tiny.dgc.json").exists());
}

#[test]
fn compile_spells_the_generated_code_as_the_flags_ask() {
    let d = tmp("compile-spelling");
    let f = write(&d, "tiny.ron", GOOD.as_bytes());
    let out = d.join("out");
    let args = ["compile", &f, "--emit", "rust,c", "--out-dir", out.to_str().unwrap()];
    let o =
        dgcc(&[&args[..], &["--rust-ash-path", "::ash", "--rust-bytemuck", "--c-vulkan-include", "volk.h"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let rust = std::fs::read_to_string(out.join("tiny.rs")).unwrap();
    assert!(rust.contains("use ::ash::vk;") && rust.contains("::bytemuck::Pod"), "{rust}");
    assert!(std::fs::read_to_string(out.join("tiny.h")).unwrap().contains("#include <volk.h>"));
    // Without the flags: today's spelling.
    let o = dgcc(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let rust = std::fs::read_to_string(out.join("tiny.rs")).unwrap();
    assert!(rust.contains("use ::dgcc::ash::vk;") && !rust.contains("bytemuck"), "{rust}");
    assert!(std::fs::read_to_string(out.join("tiny.h")).unwrap().contains("#include <vulkan/vulkan.h>"));
    // A value that would break the output is a usage error, and nothing is written.
    for bad in [&["--rust-ash-path", "ash;"][..], &["--c-vulkan-include", "a\"b"][..]] {
        let o = dgcc(&[&args[..], bad].concat());
        assert_eq!(code(&o), 2, "{bad:?}: {}", stderr(&o));
    }
}

#[test]
fn errors_exit_1_and_json_lines_follow_the_contract() {
    let d = tmp("json");
    let bad = GOOD
        .replace("            Dispatch(),\n", "")
        .replace("            PushConstant(", "            Dispatch(),\n            PushConstant(");
    let f = write(&d, "bad.ron", bad.as_bytes());
    let o = dgcc(&["check", &f, "--message-format", "json"]);
    no_panic(&o);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let lines: Vec<serde_json::Value> =
        stdout(&o).lines().map(|l| serde_json::from_str(l).expect("each stdout line is one JSON object")).collect();
    assert!(!lines.is_empty());
    for v in &lines {
        for key in ["severity", "code", "vuid", "message", "file", "line", "column", "end_line", "end_column", "target"]
        {
            assert!(v.get(key).is_some(), "missing key {key} in {v}");
        }
    }
    assert!(lines.iter().any(|v| v["severity"] == "error"));
}

/// `dgcc check` on a description naming shaders: the JSON lines name the shader file, line and
/// column of what it declares (with `shaderc`), and the human report quotes it.
#[cfg(feature = "shaderc")]
#[test]
fn shader_diagnostics_point_into_the_shader_file_in_both_formats() {
    let o = dgcc(&["check", "tests/shader/interface/push.ron", "--message-format", "json"]);
    no_panic(&o);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let at = |code: &str| -> Vec<(String, u64, u64)> {
        lines
            .iter()
            .filter(|v| v["code"] == code)
            .map(|v| {
                (v["file"].as_str().unwrap().to_string(), v["line"].as_u64().unwrap(), v["column"].as_u64().unwrap())
            })
            .collect()
    };
    let shader = "tests/shader/interface/push_misplaced.vert".to_string();
    assert_eq!(at("E0585")[0], (shader.clone(), 6, 11), "{lines:#?}");
    assert_eq!(at("W0508"), [(shader, 8, 30)]);
    assert_eq!(at("E0586"), [("tests/shader/interface/push_outside.frag".to_string(), 3, 1)]);
    let o = dgcc(&["check", "tests/shader/interface/push.ron"]);
    let e = stderr(&o);
    assert!(
        e.contains("┌─ tests/shader/interface/push_misplaced.vert:6:11") && e.contains("6 │     float material;"),
        "{e}"
    );
    assert!(e.contains("┌─ tests/shader/interface/push.ron:16:21"), "the token's field as the second label: {e}");
    let o = dgcc(&["explain", "N0501"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("N0501: "), "{}", stdout(&o));
}

#[test]
fn deny_warnings_turns_warnings_into_failure() {
    // A stride that is not a multiple of 16 is legal but slow on some hardware: a warning.
    let d = tmp("deny");
    let f = write(&d, "w.ron", GOOD.as_bytes());
    let plain = dgcc(&["check", &f, "--message-format", "json"]);
    assert_eq!(code(&plain), 0, "a warning alone passes");
    let warned = stdout(&plain).lines().any(|l| l.contains("\"code\":\"W0003\""));
    assert!(warned, "the stride of 20 warns (W0003): {}", stdout(&plain));
    let denied = dgcc(&["check", &f, "--deny-warnings"]);
    no_panic(&denied);
    assert_eq!(code(&denied), 1);
}

#[test]
fn deny_code_makes_one_warning_an_error() {
    // Tokens that share bytes are legal (W0011, a warning): exit 0, and 1 under `--deny W0011`;
    // `--deny` of another code leaves it a warning, and an unknown code is a usage error.
    let shared = GOOD
        .replace("SequenceIndex(stages: [Compute], offset: 4),", "")
        .replace("Dispatch(),", "Dispatch(at: Some(0)),");
    let d = tmp("deny-code");
    let f = write(&d, "shared.ron", shared.as_bytes());
    let plain = dgcc(&["check", &f, "--message-format", "json"]);
    no_panic(&plain);
    assert_eq!(code(&plain), 0, "{}", stderr(&plain));
    assert!(stdout(&plain).contains("\"code\":\"W0011\""), "{}", stdout(&plain));
    let denied = dgcc(&["check", &f, "--deny", "W0011", "--message-format", "json"]);
    assert_eq!(code(&denied), 1);
    assert!(stdout(&denied).lines().any(|l| l.contains("W0011") && l.contains("\"severity\":\"error\"")));
    assert_eq!(code(&dgcc(&["check", &f, "--deny", "W0001"])), 0);
    assert_eq!(code(&dgcc(&["check", &f, "--deny", "W9999"])), 2);
}

#[test]
fn portability_warnings_follow_the_targets_checked_not_the_descriptions() {
    // W0008 warns of values past the spec's minima unless `minimum` is checked (then they are
    // errors there). `--target` replaces the description's targets, and the defaulted
    // `minimum` of a description without targets is not checked under `--target nvidia`.
    let d = tmp("portability");
    let far = r#"Pipeline(name: "w", TARGETS layouts: [(name: "Jobs", stages: [Compute], max_sequences: 64,
        align: Some(4), tokens: [Dispatch(at: Some(3000))])])"#;
    let codes = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .filter_map(|l| Some(serde_json::from_str::<serde_json::Value>(l).ok()?["code"].as_str()?.to_string()))
            .collect()
    };
    let untargeted = write(&d, "untargeted.ron", far.replace("TARGETS", "").as_bytes());
    let o = dgcc(&["check", &untargeted, "--target", "nvidia", "--message-format", "json"]);
    assert_eq!((code(&o), codes(&o)), (0, vec!["W0008".to_string(), "W0008".to_string()]), "{}", stderr(&o));
    let nvidia = write(&d, "nvidia.ron", far.replace("TARGETS", r#"targets: ["nvidia"],"#).as_bytes());
    let o = dgcc(&["check", &nvidia, "--target", "minimum", "--message-format", "json"]);
    assert_eq!((code(&o), codes(&o)), (1, vec!["E0201".to_string(), "E0131".to_string()]), "{}", stderr(&o));
}

#[test]
fn strict_makes_a_value_a_profile_does_not_state_an_error() {
    // vulkaninfo 1.3.239 predates the extension: one warning (W0013), exit 0; an error and
    // exit 1 under `--strict`.
    let d = tmp("strict");
    let f = write(&d, "tiny.ron", GOOD.as_bytes());
    let old = "tests/profiles/lavapipe-vulkaninfo-1.3.239.json";
    let plain = dgcc(&["check", &f, "--target", old, "--message-format", "json"]);
    no_panic(&plain);
    assert_eq!(code(&plain), 0, "{}", stderr(&plain));
    let out = stdout(&plain);
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("W0013")).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].contains("dgcc probe"), "{}", lines[0]);
    let strict = dgcc(&["check", &f, "--target", old, "--strict"]);
    assert_eq!(code(&strict), 1);
    assert!(stderr(&strict).contains("error[W0013]"), "{}", stderr(&strict));
}

#[test]
fn explain_and_profiles() {
    let o = dgcc(&["explain", "E0404"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("E0404: "));
    let o = dgcc(&["explain", "e0404"]);
    assert_eq!(code(&o), 0, "codes are case-insensitive");
    let o = dgcc(&["explain", "E9999"]);
    assert_eq!(code(&o), 2);
    // Without a code: every code of the registry, one line each, in order.
    let o = dgcc(&["explain"]);
    assert_eq!(code(&o), 0);
    let listed: Vec<String> =
        stdout(&o).lines().map(|l| l.split_whitespace().next().unwrap_or("").to_string()).collect();
    let all: Vec<String> = dgcc::rules::all().iter().map(|r| r.code.to_string()).collect();
    assert_eq!(listed, all);
    assert!(stdout(&o).contains("E0404  error    "), "{}", stdout(&o));
    let o = dgcc(&["profiles"]);
    assert_eq!(code(&o), 0);
    for n in ["minimum", "lavapipe", "nvidia", "radv", "nvk"] {
        assert!(stdout(&o).contains(n));
    }
    let o = dgcc(&["profiles", "radv"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("maxIndirectCommandsTokenOffset"));
    assert!(stdout(&o).contains("[src]"), "every built-in value is cited");
    let o = dgcc(&["profiles", "amd"]);
    assert_eq!(code(&o), 2);
    // A file that is missing or is not a profile is the same: exit 2, never 1.
    for file in ["tests/profiles/missing.json", "tests/profiles/broken-not-json.json"] {
        let o = dgcc(&["profiles", file]);
        assert_eq!(code(&o), 2, "{file}: {}", stderr(&o));
    }
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(code(&dgcc(&[])), 2);
    assert_eq!(code(&dgcc(&["check"])), 2);
    assert_eq!(code(&dgcc(&["frobnicate"])), 2);
    let o = dgcc(&["check", "/nonexistent/scene.ron"]);
    no_panic(&o);
    assert_eq!(code(&o), 2);
    let o = dgcc(&["compile", "/nonexistent/scene.ron", "--emit", "pdf"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn bad_input_of_every_kind_is_an_error_never_a_panic() {
    let d = tmp("bad");
    let mut nest = String::from("Pipeline(name: \"n\", layouts: ");
    nest.push_str(&"[".repeat(10 * 1024 * 1024));
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("latin1.ron", b"Pipeline(name: \"caf\xe9\")".to_vec()),
        ("truncated.ron", GOOD.as_bytes()[..GOOD.len() / 2].to_vec()),
        ("empty.ron", vec![]),
        ("nesting.ron", nest.into_bytes()),
        ("variant.ron", GOOD.replace("Dispatch()", "Dispach()").into_bytes()),
        ("field.ron", GOOD.replace("max_sequences", "max_sequence").into_bytes()),
        ("number.ron", GOOD.replace("1024", "99999999999999999999").into_bytes()),
        ("truncated.dgc", b"pipeline p { layout L [compute] { max_sequences 4; dispatch".to_vec()),
        ("binary.dgc", (0u8..=255).collect()),
    ];
    for (name, bytes) in cases {
        let f = write(&d, name, &bytes);
        let o = dgcc(&["check", &f]);
        no_panic(&o);
        assert_eq!(code(&o), 1, "{name}: expected exit 1\n{}", stderr(&o));
        assert!(stderr(&o).contains("error"), "{name}: says why\n{}", stderr(&o));
    }
}

#[test]
fn a_target_file_that_is_not_json_is_an_error() {
    let d = tmp("target");
    let prof = write(&d, "device.json", b"this is not json");
    let f = write(&d, "t.ron", GOOD.as_bytes());
    let o = dgcc(&["check", &f, "--target", &prof]);
    no_panic(&o);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("E0022"), "{}", stderr(&o));
    let o = dgcc(&["check", &f, "--target", "amd"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("E0020"));
}
