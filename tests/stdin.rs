//! A description read from standard input (`-` with `--stdin-name`), as an editor checks or
//! formats an unsaved buffer: it must mean exactly what the file of that name means, and
//! whatever cannot say what standard input is must be a usage error.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// dgcc run in `dir` with `input` on standard input.
fn dgcc_with_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dgcc"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dgcc runs");
    let mut stdin = child.stdin.take().unwrap();
    // dgcc may stop reading early (a usage error, or the size limit): a broken pipe is fine.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn dgcc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dgcc")).args(args).current_dir(dir).output().expect("dgcc runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dgcc-stdin-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every description under examples/, the mistakes among them, relative to the root.
fn descriptions() -> Vec<String> {
    let mut found = vec![];
    for dir in ["examples", "examples/mistakes"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".ron") || name.ends_with(".dgc") {
                found.push(format!("{dir}/{name}"));
            }
        }
    }
    found.sort();
    assert!(found.len() >= 10, "the examples are missing: {found:?}");
    found
}

#[test]
fn check_of_standard_input_says_what_check_of_the_file_says() {
    let root = root();
    let mut failing = 0;
    for file in descriptions() {
        let text = std::fs::read(root.join(&file)).unwrap();
        for format in ["json", "human"] {
            let direct = dgcc(&root, &["check", &file, "--message-format", format, "--color", "never"]);
            let piped = dgcc_with_stdin(
                &root,
                &["check", "-", "--stdin-name", &file, "--message-format", format, "--color", "never"],
                &text,
            );
            assert_eq!(piped.status.code(), direct.status.code(), "{file} ({format}): {}", stderr(&piped));
            assert_eq!(stderr(&piped), stderr(&direct), "{file} ({format})");
            assert_eq!(piped.stdout, direct.stdout, "{file} ({format})");
        }
        failing += usize::from(dgcc(&root, &["check", &file]).status.code() == Some(1));
    }
    assert!(failing >= 3, "the mistakes should fail to check: {failing} did");
}

#[test]
fn relative_paths_in_standard_input_start_from_its_names_folder() {
    let text = std::fs::read(root().join("examples/scene.dgc")).unwrap();
    let o = dgcc_with_stdin(&root(), &["check", "-", "--stdin-name", "other/scene.dgc"], &text);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("cannot read kernel `cull` at other/../shaders/cull.comp"), "{err}");
    // The same name, from a folder where the kernels are beside it, finds them.
    let o = dgcc_with_stdin(&root(), &["check", "-", "--stdin-name", "examples/scene.dgc"], &text);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn compile_of_standard_input_writes_what_compile_of_the_file_writes() {
    let root = root();
    let (direct, piped) = (scratch("compile-file"), scratch("compile-stdin"));
    let text = std::fs::read(root.join("examples/scene.ron")).unwrap();
    let o = dgcc(&root, &["compile", "examples/scene.ron", "--out-dir", direct.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let args = ["compile", "-", "--stdin-name", "examples/scene.ron", "--out-dir", piped.to_str().unwrap()];
    let o = dgcc_with_stdin(&root, &args, &text);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut names: Vec<_> = std::fs::read_dir(&direct).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert!(names.len() >= 7, "{names:?}");
    for name in &names {
        assert_eq!(std::fs::read(direct.join(name)).unwrap(), std::fs::read(piped.join(name)).unwrap(), "{name:?}");
    }
    assert_eq!(std::fs::read_dir(&piped).unwrap().count(), names.len());
    std::fs::remove_dir_all(direct).unwrap();
    std::fs::remove_dir_all(piped).unwrap();
}

#[test]
fn fmt_of_standard_input_prints_what_fmt_writes_in_place_and_touches_no_file() {
    let dir = scratch("fmt");
    let original = std::fs::read_to_string(root().join("examples/scene.dgc")).unwrap();
    // Unformatted: one line's indentation changed, and a byte order mark in front.
    let messy = format!("\u{feff}{}", original.replacen("    push_constant [vertex", "  push_constant [vertex", 1));
    assert_ne!(messy.trim_start_matches('\u{feff}'), original);
    std::fs::write(dir.join("scene.dgc"), &messy).unwrap();

    let o = dgcc_with_stdin(&dir, &["fmt", "--check", "-", "--stdin-name", "scene.dgc"], messy.as_bytes());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("scene.dgc: not formatted (standard input"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());

    let o = dgcc_with_stdin(&dir, &["fmt", "-", "--stdin-name", "scene.dgc"], messy.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let printed = String::from_utf8(o.stdout).unwrap();
    // The file of that name is not formatted in place: formatting it is what was printed.
    assert_eq!(std::fs::read_to_string(dir.join("scene.dgc")).unwrap(), messy);
    let o = dgcc(&dir, &["fmt", "scene.dgc"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(printed, std::fs::read_to_string(dir.join("scene.dgc")).unwrap());
    assert_eq!(printed, format!("\u{feff}{original}"), "the byte order mark stays, as in place");

    let o = dgcc_with_stdin(&dir, &["fmt", "--check", "-", "--stdin-name", "scene.dgc"], printed.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn fmt_converts_standard_input_as_it_converts_the_file() {
    let root = root();
    let dir = scratch("convert");
    let out = dir.join("scene.dgc");
    let o = dgcc(&root, &["fmt", "examples/scene.ron", "--to", "dsl", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read(root.join("examples/scene.ron")).unwrap();
    let o = dgcc_with_stdin(&root, &["fmt", "-", "--stdin-name", "examples/scene.ron", "--to", "dsl"], &text);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, std::fs::read(&out).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn what_cannot_say_what_standard_input_is_is_a_usage_error() {
    let root = root();
    let text = std::fs::read(root.join("examples/scene.ron")).unwrap();
    let cases: [(&[&str], &str); 9] = [
        (&["check", "-"], "--stdin-name NAME.ron or NAME.dgc"),
        (&["check", "-", "-", "--stdin-name", "a.ron"], "read once"),
        (&["check", "examples/scene.ron", "--stdin-name", "a.ron"], "no FILE is `-`"),
        (&["compile", "-", "--stdin-name", "a.txt"], "neither a `.ron` nor a `.dgc` name"),
        (&["fmt", "-"], "--stdin-name NAME.ron"),
        (&["fmt", "-", "examples/scene.dgc", "--stdin-name", "a.ron"], "give it as the only FILE"),
        (&["fmt", "--check", "-", "--stdin-name", "a.ron", "--to", "dsl"], "dgcc fmt --stdin-name a.ron - --to dsl"),
        // run and bench read files only.
        (&["run", "-"], "read by check, compile and fmt only"),
        (&["bench", "-", "--out", "never-written"], "read by check, compile and fmt only"),
    ];
    for (args, expected) in cases {
        let o = dgcc_with_stdin(&root, args, &text);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

#[test]
fn standard_input_too_long_or_not_utf8_is_the_descriptions_error() {
    let root = root();
    let o = dgcc_with_stdin(&root, &["check", "-", "--stdin-name", "a.ron"], &vec![b' '; 4 * 1024 * 1024 + 1]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("E0012"), "{}", stderr(&o));
    let args = ["check", "-", "--stdin-name", "a.ron", "--message-format", "json"];
    let o = dgcc_with_stdin(&root, &args, b"(name: \"\xff\")");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let line = String::from_utf8(o.stdout).unwrap();
    assert!(line.contains("\"code\":\"E0018\"") && line.contains("\"file\":\"a.ron\""), "{line}");
    let o = dgcc_with_stdin(&root, &["fmt", "-", "--stdin-name", "a.dgc"], b"pipeline \xff");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("E0018") && stderr(&o).contains("could not format standard input"), "{}", stderr(&o));
}

#[test]
fn standard_input_that_cannot_be_read_is_an_io_error() {
    // A folder as standard input: it opens, and reading it fails (EISDIR).
    let folder = std::fs::File::open(root().join("examples")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_dgcc"))
        .args(["check", "-", "--stdin-name", "a.ron"])
        .current_dir(root())
        .stdin(Stdio::from(folder))
        .output()
        .expect("dgcc runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("error: cannot read standard input: "), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
}
