//! Hostile input and failure (issue 16): no panic, no hang, no broken output reported as
//! success, no lost file. One test per class, named for what it protects; each failed on the
//! code before the fix.

#[path = "support/tmpfs.rs"]
mod tmpfs;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn dgcc_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dgcc")).args(args).current_dir(dir).output().expect("dgcc runs")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dgcc-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A pipeline with one draw layout per `(layout, tokens)`, the tokens given as RON.
fn pipeline(name: &str, layouts: &[(&str, &str)], kernels: &[&str]) -> String {
    let mut s = format!("Pipeline(\n    name: \"{name}\",\n    targets: [\"lavapipe\"],\n");
    s.push_str("    push_constants: [(stages: [Vertex], offset: 0, size: 64)],\n    layouts: [\n");
    for (l, tokens) in layouts {
        s.push_str(&format!(
            "        (name: \"{l}\", stages: [Vertex], max_sequences: 64, align: Some(4), tokens: [{tokens}]),\n"
        ));
    }
    s.push_str("    ],\n    kernels: [\n");
    for k in kernels {
        s.push_str(&format!("        (name: \"{k}\", source: \"k.comp\", local_size: (64, 1, 1)),\n"));
    }
    s.push_str("    ],\n)\n");
    s
}

/// A push-constant token with one `u32` field named `field`, then a draw.
fn push_field(field: &str) -> String {
    format!("PushConstant(name: \"o\", stages: [Vertex], offset: 0, fields: [(name: \"{field}\", ty: U32)]), Draw")
}

fn check_and_compile(dir: &Path, file: &str, src: &str) -> (Output, Output) {
    std::fs::write(dir.join(file), src).unwrap();
    (dgcc_in(dir, &["check", file]), dgcc_in(dir, &["compile", file, "--out-dir", "out"]))
}

// ---- 1 and 2: one naming authority --------------------------------------------------------

#[test]
fn names_that_meet_after_case_conversion_are_refused_by_check_and_compile_alike() {
    let dir = scratch("names");
    let cases = [
        // Tokens `VB` and `vb`: `A_VB_OFFSET` twice in C.
        (
            "E0703",
            pipeline(
                "p",
                &[("A", "VertexBuffer(name: \"VB\", binding: 0), VertexBuffer(name: \"vb\", binding: 1), Draw")],
                &[],
            ),
        ),
        // Layout `A` + token `b_c` and layout `A_B` + token `c`: `A_B_C_OFFSET`.
        (
            "E0707",
            pipeline(
                "p",
                &[
                    ("A", "VertexBuffer(name: \"b_c\", binding: 0), Draw"),
                    ("A_B", "VertexBuffer(name: \"c\", binding: 0), Draw"),
                ],
                &[],
            ),
        ),
        // Kernels `cull` and `Cull`: one Rust module, one C macro.
        ("E0702", pipeline("p", &[("A", "Draw")], &["cull", "Cull"])),
        // Layouts `sceneDraw` and `scene_draw`.
        ("E0701", pipeline("p", &[("sceneDraw", "Draw"), ("scene_draw", "Draw")], &[])),
        // Pipeline `Type`: `pub mod type {`.
        ("E0706", pipeline("Type", &[("A", "Draw")], &[])),
        // Layout `cbuffer`: an HLSL and Slang keyword.
        ("E0706", pipeline("p", &[("cbuffer", "Draw")], &[])),
        // A push field `asuint`: the HLSL writer's parameter would hide the intrinsic its body calls.
        (
            "E0707",
            pipeline(
                "p",
                &[("A", "PushConstant(name: \"o\", stages: [Vertex], offset: 0, fields: [(name: \"asuint\", ty: I32)]), Draw")],
                &[],
            ),
        ),
        // Push fields the C header's includes define as macros (`vulkan.h`, `stdint.h`), and one
        // the header defines itself where the Vulkan headers lack the extension: gcc refused the
        // header once the macro replaced the member.
        ("E0706", pipeline("p", &[("A", &push_field("VK_TRUE"))], &[])),
        ("E0706", pipeline("p", &[("A", &push_field("UINT32_MAX"))], &[])),
        ("E0707", pipeline("p", &[("A", &push_field("VK_EXT_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME"))], &[])),
        // Push fields the C++ header's includes define as macros: `EOF` (`stdio.h`, which
        // vulkan.hpp's `<string>` includes; g++ refused the header), `EDOM` (C reserves `E` and
        // a capital for `errno.h`), `CLOCK_REALTIME` (glibc's `time.h`), `GCC_VERSION`
        // (vulkan.hpp's own); and `assert`, a macro of `assert.h`, which the C header includes.
        ("E0706", pipeline("p", &[("A", &push_field("EOF"))], &[])),
        ("E0706", pipeline("p", &[("A", &push_field("EDOM"))], &[])),
        ("E0706", pipeline("p", &[("A", &push_field("CLOCK_REALTIME"))], &[])),
        ("E0706", pipeline("p", &[("A", &push_field("GCC_VERSION"))], &[])),
        ("E0706", pipeline("p", &[("A", &push_field("assert"))], &[])),
        // Push fields GLSL's own macros would replace: `VULKAN` (defined when compiling for
        // Vulkan) and an extension's name; glslang refused the include.
        ("E0706", pipeline("p", &[("A", &push_field("VULKAN"))], &[])),
        ("E0706", pipeline("p", &[("A", &push_field("GL_EXT_scalar_block_layout"))], &[])),
        // A token whose GLSL names pass glslang's 1,024 characters.
        (
            "E0709",
            pipeline("p", &[("A", &format!("VertexBuffer(name: \"{}\", binding: 0), Draw", "v".repeat(1100)))], &[]),
        ),
    ];
    for (code, src) in cases {
        let _ = std::fs::remove_dir_all(dir.join("out"));
        let (check, compile) = check_and_compile(&dir, "x.ron", &src);
        assert_eq!(check.status.code(), Some(1), "{code}: check must refuse:\n{}", text(&check));
        assert!(text(&check).contains(&format!("[{code}]")), "{code}:\n{}", text(&check));
        assert_eq!(compile.status.code(), Some(1), "{code}: compile must refuse as check does:\n{}", text(&compile));
        assert!(!dir.join("out").exists(), "{code}: nothing written");
    }
}

/// Names windows.h or X11's Xlib.h define as macros (W0014) are warned about by `check` and
/// `compile` alike, and still written: dgcc cannot know whether the engine includes those
/// headers. `--deny W0014` refuses them (and writes nothing); `lints: [Allow("W0014")]` in the
/// description silences them; the dgcc language's `lints allow W0014;` too.
#[test]
fn names_platform_headers_define_are_warned_about_written_and_can_be_allowed_or_denied() {
    let dir = scratch("platform-macros");
    // A camera's planes (minwindef.h: empty), a status word (Xlib.h: `int`), a layout whose C++
    // namespace is X11's `Expose`.
    let src = pipeline(
        "p",
        &[(
            "expose",
            "PushConstant(name: \"camera\", stages: [Vertex], offset: 0, fields: [(name: \"near\", ty: F32), \
             (name: \"far\", ty: F32), (name: \"Status\", ty: U32)]), Draw",
        )],
        &[],
    );
    let (check, compile) = check_and_compile(&dir, "w.ron", &src);
    for (what, o) in [("check", &check), ("compile", &compile)] {
        assert_eq!(o.status.code(), Some(0), "{what} warns, and does not refuse:\n{}", text(o));
        assert_eq!(text(o).matches("warning[W0014]").count(), 4, "{what}:\n{}", text(o));
        for said in
            ["`minwindef.h` defines `near` as nothing", "`X11/Xlib.h` defines `Status` as `int`", "`namespace Expose`"]
        {
            assert!(text(o).contains(said), "{what}: {said}\n{}", text(o));
        }
    }
    assert!(dir.join("out/p.h").is_file(), "compile writes the outputs");
    let _ = std::fs::remove_dir_all(dir.join("out"));
    let denied = dgcc_in(&dir, &["compile", "w.ron", "--out-dir", "out", "--deny", "W0014"]);
    assert_eq!(denied.status.code(), Some(1), "{}", text(&denied));
    assert!(text(&denied).contains("error[W0014]") && !dir.join("out").exists(), "{}", text(&denied));
    let allowed = src.replacen("    targets:", "    lints: [Allow(\"W0014\")],\n    targets:", 1);
    let (check, compile) = check_and_compile(&dir, "allowed.ron", &allowed);
    for (what, o) in [("check", &check), ("compile", &compile)] {
        assert_eq!(o.status.code(), Some(0), "{what}:\n{}", text(o));
        assert!(!text(o).contains("W0014"), "{what}:\n{}", text(o));
    }
    let to_dgc = dgcc_in(&dir, &["fmt", "allowed.ron", "--to", "dgc", "-o", "allowed.dgc"]);
    assert!(to_dgc.status.success(), "{}", text(&to_dgc));
    let dgc_text = std::fs::read_to_string(dir.join("allowed.dgc")).unwrap();
    assert!(dgc_text.contains("lints allow W0014;"), "{dgc_text}");
    let dgc = dgcc_in(&dir, &["check", "allowed.dgc"]);
    assert!(dgc.status.success() && !text(&dgc).contains("W0014"), "{}", text(&dgc));
}

#[test]
fn push_constant_fields_with_one_name_are_qualified_not_refused() {
    // Issue 15 item 4: each token's field is called `v`; a field named like the draw's member.
    let dir = scratch("qualify");
    let src = pipeline(
        "p",
        &[(
            "A",
            "PushConstant(name: \"a\", stages: [Vertex], offset: 0, fields: [(name: \"v\", ty: U32)]), \
             PushConstant(name: \"b\", stages: [Vertex], offset: 4, fields: [(name: \"v\", ty: U32), (name: \"draw_index_count\", ty: U32)]), \
             DrawIndexed(name: \"draw\")",
        )],
        &[],
    );
    let src = src
        .replace("tokens: [", "tokens: [IndexBuffer(name: \"ib\", mode: Vulkan), ")
        .replace("IndexBuffer(name: \"ib\", mode: Vulkan), PushConstant(name: \"a\"", "PushConstant(name: \"a\"");
    let src = src
        .replace("DrawIndexed(name: \"draw\")", "IndexBuffer(name: \"ib\", mode: Vulkan), DrawIndexed(name: \"draw\")");
    let (check, compile) = check_and_compile(&dir, "q.ron", &src);
    assert!(check.status.success(), "{}", text(&check));
    assert!(compile.status.success(), "{}", text(&compile));
    let h = std::fs::read_to_string(dir.join("out/p.h")).unwrap();
    for m in ["a_v;", "b_v;", "b_draw_index_count;", "draw_index_count;"] {
        assert!(h.contains(m), "{m} in\n{h}");
    }
}

#[test]
fn a_name_of_65536_characters_is_refused_without_a_panic() {
    let dir = scratch("long");
    let src =
        pipeline("p", &[("A", &format!("VertexBuffer(name: \"{}\", binding: 0), Draw", "n".repeat(70_000)))], &[]);
    let (check, compile) = check_and_compile(&dir, "l.ron", &src);
    assert_eq!(check.status.code(), Some(1), "{}", &text(&check)[..2000.min(text(&check).len())]);
    assert_eq!(compile.status.code(), Some(1));
    assert!(!text(&compile).contains("panicked"));
    // The quoted line is clipped: the report is small although the line is 70 KB.
    assert!(check.stderr.len() < 20_000, "{} bytes of diagnostics", check.stderr.len());
    // The emitters themselves, on a manifest with that name, refuse instead of panicking.
    let ok = pipeline("p", &[("A", "VertexBuffer(name: \"n\", binding: 0), Draw")], &[]);
    let c = dgcc::driver::compile_source(Path::new("x.ron"), &ok, &Default::default());
    let mut m = c.manifest.expect("compiles");
    m.layouts[0].tokens[0].name = "n".repeat(70_000);
    for r in &mut m.layouts[0].record {
        r.name = r.name.replacen('n', &"n".repeat(70_000), 1);
    }
    for o in dgcc::emit::Output::ALL {
        let _ = dgcc::emit::emit(&m, o); // Ok or Err, never a panic
    }
}

// ---- 3: all-or-nothing writes ---------------------------------------------------------------

/// A description whose every output differs from every other `i`'s, in size too.
fn numbered(i: usize) -> String {
    let tokens: Vec<String> = (0..=i % 7).map(|t| format!("VertexBuffer(name: \"v{t}\", binding: {t})")).collect();
    pipeline("p", &[("A", &format!("{}, Draw", tokens.join(", ")))], &[])
        .replace("max_sequences: 64", &format!("max_sequences: {}", 64 + i))
}

#[test]
fn concurrent_compiles_into_one_folder_leave_only_whole_outputs() {
    let dir = scratch("concurrent");
    let n = 20;
    let mut expected: Vec<Vec<(String, String)>> = vec![];
    for i in 0..n {
        std::fs::write(dir.join(format!("d{i}.ron")), numbered(i)).unwrap();
        let c = dgcc::driver::compile_source(Path::new("d.ron"), &numbered(i), &Default::default());
        // What `dgcc compile` writes without `--emit`: every output but the optional C++ header.
        expected.push(dgcc::emit::emit_all(&c.manifest.unwrap(), &dgcc::emit::Output::DEFAULT).unwrap());
    }
    let repeats: usize = std::env::var("DGCC_CONCURRENT_REPEATS").ok().and_then(|v| v.parse().ok()).unwrap_or(50);
    for round in 0..repeats {
        let children: Vec<_> = (0..n)
            .map(|i| {
                Command::new(env!("CARGO_BIN_EXE_dgcc"))
                    .args(["compile", &format!("d{i}.ron"), "--out-dir", "out"])
                    .current_dir(&dir)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            assert!(c.wait().unwrap().success(), "round {round}");
        }
        for (k, (file, _)) in expected[0].iter().enumerate() {
            let got = std::fs::read_to_string(dir.join("out").join(file)).unwrap();
            assert!(
                expected.iter().any(|e| e[k].1 == got),
                "round {round}: out/{file} is not exactly one compile's output ({} bytes)",
                got.len()
            );
        }
        let stray: Vec<_> = std::fs::read_dir(dir.join("out"))
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
            .collect();
        assert!(stray.is_empty(), "round {round}: temporary files left: {stray:?}");
    }
}

#[test]
fn a_compile_into_a_full_disk_leaves_the_previous_outputs_as_they_were() {
    // A real full disk: a 256 KiB tmpfs (needs root, as the CI runs). No simulation.
    let dir = scratch("full");
    let mnt = dir.join("mnt");
    let Some(_mounted) = tmpfs::Tmpfs::mount(&mnt, 256, "a_compile_into_a_full_disk") else { return };
    std::fs::write(dir.join("small.ron"), numbered(0)).unwrap();
    let out = mnt.join("out");
    let first = dgcc_in(&dir, &["compile", "small.ron", "--out-dir", out.to_str().unwrap()]);
    assert!(first.status.success(), "{}", text(&first));
    let before: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect();
    // Fill the disk, leaving less than the bigger compile's outputs need.
    let filler = mnt.join("filler");
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&filler).unwrap();
        let block = vec![0u8; 4096];
        while f.write_all(&block).and_then(|_| f.sync_all()).is_ok() {}
    }
    let len = std::fs::metadata(&filler).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(&filler).unwrap().set_len(len.saturating_sub(8192)).unwrap();
    // A bigger description with the same pipeline name: the same four files, longer.
    let big = numbered(6).replace(
        "layouts: [",
        &format!("layouts: [{}", (0..12).map(|i| format!("(name: \"L{i}\", stages: [Vertex], max_sequences: 64, align: Some(4), tokens: [VertexBuffer(name: \"x\", binding: 0), Draw]), ")).collect::<String>()),
    );
    std::fs::write(dir.join("big.ron"), big).unwrap();
    let second = dgcc_in(&dir, &["compile", "big.ron", "--out-dir", out.to_str().unwrap()]);
    assert!(!second.status.success(), "the disk was full, yet: {}", text(&second));
    assert!(text(&second).contains("no output was changed"), "{}", text(&second));
    for (p, bytes) in &before {
        assert_eq!(&std::fs::read(p).unwrap(), bytes, "{} changed", p.display());
    }
    let names: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), before.len(), "no temporary file is left: {names:?}");
}

// ---- 4: bounded reads of regular files ------------------------------------------------------

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

/// Run dgcc with a time limit; `None` if it did not finish.
fn with_deadline(dir: &Path, args: &[&str], secs: u64) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dgcc"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while start.elapsed().as_secs() < secs {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn fifos_and_devices_are_refused_as_descriptions_and_kernel_sources() {
    let dir = scratch("fifo");
    if !mkfifo(&dir.join("pipe.ron")) || !mkfifo(&dir.join("k.comp")) {
        eprintln!("note: no mkfifo here; skipped");
        return;
    }
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.ron")).unwrap();
    for (file, want) in [("pipe.ron", "a FIFO"), ("zero.ron", "a character device")] {
        for cmd in ["check", "compile", "fmt"] {
            let o = with_deadline(&dir, &[cmd, file], 20).unwrap_or_else(|| panic!("dgcc {cmd} {file} hangs"));
            assert_eq!(o.status.code(), Some(2), "{cmd} {file}: {}", text(&o));
            assert!(text(&o).contains(want) && !text(&o).contains("ok:"), "{cmd} {file}: {}", text(&o));
        }
    }
    // A kernel source that is a FIFO, then /dev/zero.
    std::fs::write(dir.join("k.ron"), pipeline("p", &[("A", "Draw")], &["cull"])).unwrap();
    let o = with_deadline(&dir, &["check", "k.ron"], 20).expect("a FIFO kernel source hangs dgcc check");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("E0580") && text(&o).contains("a FIFO"), "{}", text(&o));
    std::fs::remove_file(dir.join("k.comp")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("k.comp")).unwrap();
    let o = with_deadline(&dir, &["check", "k.ron"], 20).expect("/dev/zero as a kernel source");
    assert!(text(&o).contains("a character device"), "{}", text(&o));
    // A draw shader that is a FIFO, and a SPIR-V one that is /dev/zero.
    assert!(mkfifo(&dir.join("s.vert")));
    std::os::unix::fs::symlink("/dev/zero", dir.join("s.spv")).unwrap();
    let shaders = r#"Pipeline(name: "p", layouts: [(name: "A", stages: [Vertex], max_sequences: 1, tokens: [Draw])],
    shaders: [(stage: Vertex, source: "s.vert"), (stage: Vertex, source: "s.spv")])"#;
    std::fs::write(dir.join("s.ron"), shaders).unwrap();
    let o = with_deadline(&dir, &["check", "s.ron"], 20).expect("a FIFO shader source hangs dgcc check");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("E0587") && text(&o).contains("a FIFO"), "{}", text(&o));
    assert!(text(&o).contains("a character device"), "{}", text(&o));
}

// ---- 5: bounded diagnostics -----------------------------------------------------------------

#[test]
fn diagnostics_are_capped_in_number_and_quoted_width() {
    let dir = scratch("many");
    // One line of 4,000 unknown stages: 4,000 errors on one 40 KB line.
    let stages = vec!["Nope"; 4000].join(", ");
    let src = format!("Pipeline(name: \"p\", targets: [\"lavapipe\"], layouts: [(name: \"A\", stages: [{stages}], max_sequences: 1, tokens: [Draw])])\n");
    std::fs::write(dir.join("m.ron"), &src).unwrap();
    let start = std::time::Instant::now();
    let o = with_deadline(&dir, &["check", "m.ron"], 60).expect("rendering 4,000 diagnostics finishes");
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("more diagnostic(s) not shown"), "{}", &err[err.len().saturating_sub(500)..]);
    assert!(o.stderr.len() < 200_000, "{} bytes", o.stderr.len());
    assert!(took.as_secs() < 30, "{took:?}");
    assert!(err.lines().all(|l| l.chars().count() < 400), "a quoted line is clipped");
    // JSON keeps every diagnostic.
    let j = dgcc_in(&dir, &["check", "m.ron", "--message-format", "json"]);
    assert!(String::from_utf8_lossy(&j.stdout).lines().count() >= 4000);
}

// ---- 6: fmt never loses what the user wrote -------------------------------------------------

#[test]
fn fmt_never_drops_comments_or_writes_one_syntax_into_the_other() {
    let dir = scratch("fmt");
    let src = "pipeline p {\n    // the layout\n    layout L [vertex] {\n        max_sequences 4; // four\n        draw d;\n    }\n}\n";
    std::fs::write(dir.join("f.dgc"), src).unwrap();
    let o = dgcc_in(&dir, &["fmt", "f.dgc", "--to", "ron", "-o", "f.dgc"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(dir.join("f.dgc")).unwrap(), src);
    assert!(!String::from_utf8_lossy(&o.stderr).contains('\u{1b}'), "no colour on a pipe");
    // --check: exit 1 when not formatted and nothing written, 0 after formatting in place,
    // which keeps both comments (the trailing one used to be refused, or dropped).
    assert_eq!(dgcc_in(&dir, &["fmt", "f.dgc", "--check"]).status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(dir.join("f.dgc")).unwrap(), src);
    let o = dgcc_in(&dir, &["fmt", "f.dgc"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(dgcc_in(&dir, &["fmt", "f.dgc", "--check"]).status.success());
    let formatted = std::fs::read_to_string(dir.join("f.dgc")).unwrap();
    assert!(formatted.contains("    // the layout\n    layout L") && formatted.contains("max_sequences 4; // four\n"));
    // --drop-comments still drops what is not a doc comment.
    let o = dgcc_in(&dir, &["fmt", "f.dgc", "--drop-comments"]);
    assert!(o.status.success(), "{}", text(&o));
    let dropped = std::fs::read_to_string(dir.join("f.dgc")).unwrap();
    assert!(dropped.contains("// the layout") && !dropped.contains("// four"), "{dropped}");
}

// ---- 8: text encodings ---------------------------------------------------------------------

/// The `line`/`column` of each JSON diagnostic `dgcc check` prints for `file`.
fn json_positions(dir: &Path, file: &str) -> Vec<(String, u64, u64)> {
    let o = dgcc_in(dir, &["check", file, "--message-format", "json"]);
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["severity"] == "error")
        .map(|v| {
            (
                v["code"].as_str().unwrap_or("").to_string(),
                v["line"].as_u64().unwrap_or(0),
                v["column"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn a_byte_order_mark_is_accepted_and_diagnostics_point_where_they_did_without_it() {
    let dir = scratch("bom");
    let good = pipeline("p", &[("A", "Draw")], &[]);
    let bad = good.replace("max_sequences: 64", "max_sequences: 64, stride: Some(3)");
    for (name, src) in [("good", &good), ("bad", &bad)] {
        std::fs::write(dir.join(format!("{name}.ron")), src).unwrap();
        std::fs::write(dir.join(format!("bom_{name}.ron")), format!("\u{feff}{src}")).unwrap();
    }
    let with = dgcc_in(&dir, &["compile", "bom_good.ron", "--out-dir", "with"]);
    assert!(with.status.success(), "{}", text(&with));
    assert!(dgcc_in(&dir, &["compile", "good.ron", "--out-dir", "without"]).status.success());
    for f in ["p.rs", "p.h", "p.glsl", "p.dgc.json"] {
        assert_eq!(
            std::fs::read(dir.join("with").join(f)).unwrap(),
            std::fs::read(dir.join("without").join(f)).unwrap(),
            "{f}"
        );
    }
    let (plain, bom) = (json_positions(&dir, "bad.ron"), json_positions(&dir, "bom_bad.ron"));
    assert!(!plain.is_empty());
    assert_eq!(bom, plain, "a BOM moves no diagnostic");
    // The .dgc language too.
    std::fs::write(
        dir.join("bom.dgc"),
        "\u{feff}// doc\npipeline p { layout L [vertex] { max_sequences 4; draw; } }\n",
    )
    .unwrap();
    let o = dgcc_in(&dir, &["check", "bom.dgc"]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn invalid_utf8_is_reported_at_the_line_and_column_of_the_first_bad_byte() {
    let dir = scratch("utf8");
    let mut bytes = pipeline("p", &[("A", "Draw")], &[]).into_bytes();
    // Line 3 is `    targets: ["lavapipe"],`: the `l` of lavapipe (column 16) becomes 0xFF.
    let line3 = bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(1).unwrap().0 + 1;
    assert_eq!(bytes[line3 + 15], b'l');
    bytes[line3 + 15] = 0xFF;
    std::fs::write(dir.join("u.ron"), &bytes).unwrap();
    assert_eq!(json_positions(&dir, "u.ron"), vec![("E0018".to_string(), 3, 16)]);
    let o = dgcc_in(&dir, &["check", "u.ron"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("u.ron:3:16") && text(&o).contains("line 3, column 16"), "{}", text(&o));
    let o = dgcc_in(&dir, &["fmt", "u.ron"]);
    assert!(text(&o).contains("u.ron:3:16"), "{}", text(&o));
}

// ---- 7 and 9: the command line's bounds -----------------------------------------------------

#[test]
fn run_refuses_an_object_count_past_its_limit_before_allocating() {
    let o = dgcc_in(Path::new(env!("DGCC_CHECKOUT")), &["run", "examples/scene.ron", "--objects", "2147483648"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("16777216"), "{}", text(&o));
    let o =
        dgcc_in(Path::new(env!("DGCC_CHECKOUT")), &["run", "examples/scene.ron", "--png", "/nonexistent-folder/x.png"]);
    assert_eq!(o.status.code(), Some(2), "--png is checked before the run: {}", text(&o));
    let o = dgcc_in(Path::new(env!("DGCC_CHECKOUT")), &["bench", "examples/scene.ron", "--objects", "4294967295"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    // An image side past what the scene renders: refused up front by both commands, with the
    // same words (not a failed row, exit 1, for each of bench's rows).
    for args in [["run", "examples/scene.ron", "--size", "10000"], ["bench", "examples/scene.ron", "--width", "10000"]]
    {
        let o = dgcc_in(Path::new(env!("DGCC_CHECKOUT")), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains("10000 is outside 1..=8192"), "{args:?}: {}", text(&o));
    }
    // Warm-up and measured frames that overflow a frame counter: refused, not a bench of zero
    // frames that exits 0.
    let o = dgcc_in(
        Path::new(env!("DGCC_CHECKOUT")),
        &["bench", "examples/scene.ron", "--frames", "4294967295", "--warmup", "1"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("come to more than 4294967295 frames"), "{}", text(&o));
}

#[test]
fn smaller_cli_promises_hold() {
    let dir = scratch("small");
    // No "ok" after a file that could not be read.
    let o = dgcc_in(&dir, &["check", "missing.ron"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!text(&o).contains("ok:"), "{}", text(&o));
    // --emit '' writes nothing and says so.
    std::fs::write(dir.join("e.ron"), pipeline("p", &[("A", "Draw")], &[])).unwrap();
    let o = dgcc_in(&dir, &["compile", "e.ron", "--emit", "", "--out-dir", "out"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!dir.join("out").exists());
    // A C++ header alone says that the C header it includes is missing; with it, nothing.
    let o = dgcc_in(&dir, &["compile", "e.ron", "--emit", "cpp", "--out-dir", "cpp"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("warning: p.hpp includes p.h, which this compile does not write"), "{}", text(&o));
    let o = dgcc_in(&dir, &["compile", "e.ron", "--emit", "c,cpp", "--out-dir", "both"]);
    assert!(!text(&o).contains("warning"), "{}", text(&o));
}

/// `dgcc run` at its smallest (64 objects, one frame, 32 × 32, multi-draw) in the checkout: a
/// run that makes an instance and a device and little else.
fn small_run() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dgcc"));
    c.args(["run", "examples/scene.ron", "--objects", "64", "--frames", "1", "--size", "32", "--mode", "mdi"])
        .current_dir(env!("DGCC_CHECKOUT"));
    c
}

/// Whether `out` (of a run) says that no Vulkan loader could be loaded: then `test` prints a loud
/// SKIP, or fails where `DGCC_REQUIRE_VULKAN` is set (CI).
fn skipped_without_loader(test: &str, out: &str) -> bool {
    if !out.contains("cannot load the Vulkan loader") {
        return false;
    }
    assert!(std::env::var_os("DGCC_REQUIRE_VULKAN").is_none(), "DGCC_REQUIRE_VULKAN is set: {out}");
    eprintln!("SKIP {test}: no Vulkan loader");
    true
}

/// `DGCC_VALIDATION=1` with a validation layer that the loader lists but cannot load (here a
/// manifest beside a file that is not a library, as a layer built for a newer glibc is on an
/// older system): the run fails, shows the loader's own words, and says they are the loader's,
/// not the layer's findings about the run. Needs a Vulkan loader (lavapipe's driver is not
/// reached); without one, a loud SKIP, or a failure under `DGCC_REQUIRE_VULKAN` (CI).
#[test]
fn a_validation_layer_that_cannot_be_loaded_is_reported_as_the_loaders_failure() {
    let dir = scratch("badlayer");
    std::fs::write(dir.join("libVkLayer_khronos_validation.so"), "not a library\n").unwrap();
    let manifest = r#"{"file_format_version": "1.2.0", "layer": {"name": "VK_LAYER_KHRONOS_validation",
        "type": "GLOBAL", "library_path": "./libVkLayer_khronos_validation.so", "api_version": "1.4.309",
        "implementation_version": "1", "description": "not a library"}}"#;
    std::fs::write(dir.join("VkLayer_khronos_validation.json"), manifest).unwrap();
    let o = small_run()
        .env("VK_LAYER_PATH", &dir)
        .env("DGCC_VALIDATION", "1")
        .env_remove("VK_INSTANCE_LAYERS")
        .env_remove("VK_ADD_LAYER_PATH")
        .output()
        .expect("dgcc runs");
    let _ = std::fs::remove_dir_all(&dir);
    let out = text(&o);
    if skipped_without_loader("a_validation_layer_that_cannot_be_loaded_is_reported_as_the_loaders_failure", &out) {
        return;
    }
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("Requested layer \"VK_LAYER_KHRONOS_validation\" failed to load"), "{out}");
    assert!(out.contains("error: the Vulkan loader reported"), "{out}");
    assert!(!out.contains("the validation layer reported"), "{out}");
}

/// A driver manifest that names no file, and one whose library is not a library: the path where
/// the runtime's bare instance that keeps the drivers loaded (runtime: loader.rs) cannot be
/// made, so nothing is kept, and the run's own `vkCreateInstance` says why, as an error with
/// exit code 1, not a panic. Needs a Vulkan loader; without one, a loud SKIP, or a failure
/// under `DGCC_REQUIRE_VULKAN` (CI).
#[test]
fn a_driver_that_cannot_be_loaded_is_an_error_not_a_panic() {
    let dir = scratch("badicd");
    std::fs::write(dir.join("libnot_a_driver.so"), "not a library\n").unwrap();
    let manifest = r#"{"file_format_version": "1.0.1", "ICD": {"library_path": "./libnot_a_driver.so",
        "api_version": "1.4.309"}}"#;
    std::fs::write(dir.join("not_a_driver.json"), manifest).unwrap();
    for icd in [dir.join("no_such_manifest.json"), dir.join("not_a_driver.json")] {
        let o = small_run()
            .env("VK_DRIVER_FILES", &icd)
            .env_remove("VK_ICD_FILENAMES")
            .env_remove("VK_ADD_DRIVER_FILES")
            .env_remove("DGCC_VALIDATION")
            .output()
            .expect("dgcc runs");
        let out = text(&o);
        if skipped_without_loader("a_driver_that_cannot_be_loaded_is_an_error_not_a_panic", &out) {
            break;
        }
        assert_eq!(o.status.code(), Some(1), "{}: {out}", icd.display());
        assert!(out.contains("error: no Vulkan available: vkCreateInstance failed"), "{}: {out}", icd.display());
        assert!(!out.contains("panicked"), "{}: {out}", icd.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cmd` with standard output (or standard error) on `/dev/full`, where every write fails.
fn with_full_stream(dir: &Path, args: &[&str], stderr_full: bool) -> Output {
    let full = || Stdio::from(std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full opens"));
    let mut c = Command::new(env!("CARGO_BIN_EXE_dgcc"));
    c.args(args).current_dir(dir);
    if stderr_full {
        c.stdout(Stdio::piped()).stderr(full());
    } else {
        c.stdout(full()).stderr(Stdio::piped());
    }
    c.output().expect("dgcc runs")
}

#[test]
fn a_standard_stream_that_cannot_be_written_is_an_io_error_not_a_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scene = root.join("examples/scene.ron");
    let mistake = root.join("examples/mistakes/stride_too_small.ron");
    let (scene, mistake) = (scene.to_str().unwrap(), mistake.to_str().unwrap());
    let dir = scratch("full-stream");
    for args in [
        vec!["explain", "E0404"],
        vec!["profiles", "lavapipe"],
        vec!["check", scene, "--message-format", "json"],
        vec!["check", scene, "--message-format", "sarif"],
        vec!["fmt", scene, "--to", "dgc"],
    ] {
        let o = with_full_stream(&dir, &args, false);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("error: cannot write to standard output"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // Standard error full: nothing can say so, but the exit code does, and there is no panic
    // (whose own message would fail to print and abort).
    let o = with_full_stream(&dir, &["check", mistake], true);
    assert_eq!(o.status.code(), Some(2));
}

/// What `run`, `bench` and `probe` cannot do is refused before a device opens (exit 2), with
/// the option named: an option that would change nothing, a layout the description lacks, an
/// output that is not a folder or not a profile's name. None of these needs a device.
#[test]
fn options_that_cannot_apply_are_refused_before_any_device_work() {
    let checkout = Path::new(env!("DGCC_CHECKOUT"));
    let dir = scratch("refusals");
    std::fs::write(dir.join("file"), "").unwrap();
    let out_file = dir.join("file");
    let out_file = out_file.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["run", "examples/scene.ron", "--mode", "mdi", "--preprocess-budget-mib", "8"], "--mode mdi has none"),
        (vec!["run", "examples/scene.ron", "--mode", "cpu", "--sequences", "ordered"], "--mode cpu executes none"),
        (
            vec!["run", "examples/scene.ron", "--scene", "field", "--cut-every", "10"],
            "--scene field has a fixed camera",
        ),
        (vec!["run", "examples/scene.ron", "--scene", "cubes", "--seed", "3"], "--scene cubes is a fixed grid"),
        (vec!["run", "examples/scene.ron", "--preprocess-budget-mib", "0"], "--preprocess-budget-mib"),
        (
            vec!["bench", "examples/scene.ron", "--scene", "cubes", "--cut-every", "5"],
            "--scene cubes has a fixed camera",
        ),
        (vec!["bench", "examples/scene.ron", "--modes", "cpu,mdi", "--preprocess-budget-mib", "8"], "no dgc row"),
        (vec!["bench", "examples/scene.ron", "--modes", "cpu", "--compaction", "ordered"], "compact nothing"),
        (vec!["bench", "examples/scene.ron", "--layout", "Nope"], "no layout `Nope`"),
        (vec!["bench", "examples/compute.ron"], "layout `Jobs` differs"),
        (vec!["bench", "examples/scene.ron", "--out", out_file], "is not a folder"),
        (vec!["bench", "examples/scene.ron", "--objects", "16777216", "--modes", "dgc-batch"], "below 2^24"),
        (vec!["probe", "--out", "profile.ron"], "from a `.json` file"),
    ];
    for (args, words) in cases {
        let o = dgcc_in(checkout, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(words), "{args:?}: expected {words:?} in {}", text(&o));
    }
    assert!(!checkout.join("profile.ron").exists());
    assert!(!checkout.join("bench-out").exists(), "a refused bench wrote its folder");
}

/// `run --png` onto something that is not a file it can replace (`/dev/full`): an error, exit
/// 2, not "wrote" and 0 with nothing written. Needs a Vulkan device (lavapipe in CI).
#[test]
fn a_png_that_cannot_be_written_is_an_error_not_a_success() {
    let o = dgcc_in(
        Path::new(env!("DGCC_CHECKOUT")),
        &["run", "examples/scene.ron", "--objects", "64", "--frames", "1", "--size", "32", "--png", "/dev/full"],
    );
    let out = text(&o);
    if out.contains("cannot load the Vulkan loader") || out.contains("no Vulkan") {
        assert!(std::env::var_os("DGCC_REQUIRE_VULKAN").is_none(), "DGCC_REQUIRE_VULKAN is set: {out}");
        eprintln!("SKIP a_png_that_cannot_be_written_is_an_error_not_a_success: no Vulkan device");
        return;
    }
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("error: --png: cannot write /dev/full"), "{out}");
    assert!(!out.contains("wrote /dev/full"), "{out}");
}

/// `run --png` naming the description, directly or through a link, is refused before the run,
/// and `--png -` too (standard output carries the report): the description stays as it was.
#[cfg(unix)]
#[test]
fn a_png_onto_the_description_does_not_overwrite_it() {
    let dir = scratch("png-onto-description");
    let src = std::fs::read_to_string(Path::new(env!("DGCC_CHECKOUT")).join("examples/scene.ron")).unwrap();
    std::fs::write(dir.join("scene.ron"), &src).unwrap();
    std::os::unix::fs::symlink("scene.ron", dir.join("frame.png")).unwrap();
    for (png, words) in [
        ("scene.ron", "is the description being run"),
        ("./frame.png", "is the description being run"),
        ("-", "`-` (standard output) carries the run's report"),
    ] {
        let o = dgcc_in(&dir, &["run", "scene.ron", "--objects", "64", "--frames", "1", "--size", "32", "--png", png]);
        assert_eq!(o.status.code(), Some(2), "--png {png}: {}", text(&o));
        assert!(text(&o).contains(words), "--png {png}: {}", text(&o));
        assert_eq!(std::fs::read_to_string(dir.join("scene.ron")).unwrap(), src, "--png {png}");
    }
    assert!(!dir.join("-").exists());
}

/// An output that is a link to the description being compiled (`out/p.rs -> ../p.ron`) is
/// refused: followed, the write would replace the description with generated Rust.
#[cfg(unix)]
#[test]
fn an_output_linked_to_the_description_does_not_overwrite_it() {
    let dir = scratch("linked-output");
    let src = pipeline("p", &[("A", "Draw")], &[]);
    std::fs::write(dir.join("p.ron"), &src).unwrap();
    std::fs::create_dir(dir.join("out")).unwrap();
    std::os::unix::fs::symlink("../p.ron", dir.join("out/p.rs")).unwrap();
    let o = dgcc_in(&dir, &["compile", "p.ron", "--out-dir", "out"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("is a link to a description being compiled"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(dir.join("p.ron")).unwrap(), src);
    assert!(!dir.join("out/p.dgc.json").exists(), "nothing written");
}

/// A RON block comment left open at the end: ron reads the value before it and ignores the
/// rest, so what the author commented out by mistake would vanish without a word. An error.
#[test]
fn a_block_comment_that_is_never_closed_is_a_syntax_error() {
    let dir = scratch("unclosed-comment");
    let src = pipeline("p", &[("A", "Draw")], &[]);
    std::fs::write(dir.join("p.ron"), format!("{src}/* the second layout, to do\n")).unwrap();
    let o = dgcc_in(&dir, &["check", "p.ron"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("a block comment is never closed"), "{}", text(&o));
    // Closed, it is a comment like any other.
    std::fs::write(dir.join("q.ron"), format!("{src}/* the second layout, to do */\n")).unwrap();
    let o = dgcc_in(&dir, &["check", "q.ron"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}
