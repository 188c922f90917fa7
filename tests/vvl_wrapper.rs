//! Checks of `.ci/with-validation.sh` itself: what a program run through it sees (environment,
//! paths, glibc), what comes back (exit status, the stdout error check) and what it leaves
//! behind (no mounts).
//!
//! Why here and not in shell: the wrapper is what makes every runtime test's validation result
//! trustworthy, so its contract is tested like code. It needs the trixie root built by
//! `.ci/trixie-root.sh` and root privileges; without them these tests print a visible `SKIP`
//! (a failure under `DGCC_VALIDATION=1`). Inside the root itself (the stamp `/.dgcc-root` is
//! visible there) they skip, as a chroot is not nested.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const DEFAULT_ROOT: &str = "/opt/dgcc/trixie-root";

fn trixie_root() -> PathBuf {
    std::env::var_os("DGCC_TRIXIE_ROOT").map_or_else(|| PathBuf::from(DEFAULT_ROOT), PathBuf::from)
}

fn wrapper() -> PathBuf {
    Path::new(env!("DGCC_CHECKOUT")).join(".ci/with-validation.sh")
}

fn is_root_user() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(1) == Some("0")))
        .unwrap_or(false)
}

/// `true` when the wrapper can run here; otherwise prints SKIP (or fails when required).
fn available(test: &str) -> bool {
    let why = if Path::new("/.dgcc-root").exists() {
        // Already inside the root: nothing to test, and not a failure.
        let _ = writeln!(std::io::stderr(), "SKIP {test}: already inside the trixie root");
        return false;
    } else if !is_root_user() {
        "not running as root (bind mounts and chroot need it)".to_string()
    } else if !trixie_root().join(".dgcc-root").exists() {
        format!("no complete trixie root at {} (bash .ci/trixie-root.sh DIR builds it)", trixie_root().display())
    } else {
        return true;
    };
    if std::env::var("DGCC_VALIDATION").is_ok_and(|v| v == "1") {
        panic!("{test}: DGCC_VALIDATION=1 but {why}");
    }
    let _ = writeln!(std::io::stderr(), "SKIP {test}: {why}");
    false
}

fn run(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg(wrapper()).args(args).current_dir(env!("DGCC_CHECKOUT"));
    // Start from the caller's environment minus the wrapper's own re-entry marker.
    cmd.env_remove("DGCC_WITH_VALIDATION_NS");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("bash runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn environment_is_rebuilt_for_validation() {
    if !available("environment_is_rebuilt_for_validation") {
        return;
    }
    let out = run(
        &["/usr/bin/env"],
        &[
            ("DGCC_PROBE", "kept"),
            ("LP_NUM_THREADS", "2"),
            ("RUST_PROBE", "kept"),
            ("VK_LAYER_PATH", "/host/layers"),
            ("VK_DRIVER_FILES", "/host/icd.json"),
            ("LD_LIBRARY_PATH", "/host/lib"),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let env = text(&out.stdout);
    let lines: Vec<&str> = env.lines().collect();
    for wanted in [
        "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation",
        "DGCC_VALIDATION=1",
        "DGCC_PROBE=kept",
        "LP_NUM_THREADS=2",
        "RUST_PROBE=kept",
    ] {
        assert!(lines.contains(&wanted), "missing {wanted} in:\n{env}");
    }
    for host_only in ["VK_LAYER_PATH=", "LD_LIBRARY_PATH=", "VK_DRIVER_FILES=/host"] {
        assert!(!lines.iter().any(|l| l.starts_with(host_only)), "{host_only} leaked in:\n{env}");
    }
    let icd = lines.iter().find_map(|l| l.strip_prefix("VK_DRIVER_FILES=")).expect("VK_DRIVER_FILES is set");
    assert!(icd.contains("lvp_icd"), "driver is lavapipe: {icd}");
    let icd_in_root = trixie_root().join(icd.trim_start_matches('/'));
    assert!(icd_in_root.is_file(), "{} exists in the root", icd_in_root.display());
}

#[test]
fn exit_status_comes_back() {
    if !available("exit_status_comes_back") {
        return;
    }
    let out = run(&["/bin/sh", "-c", "exit 7"], &[]);
    assert_eq!(out.status.code(), Some(7), "{}", text(&out.stderr));
}

#[test]
fn repo_and_working_directory_keep_their_paths() {
    if !available("repo_and_working_directory_keep_their_paths") {
        return;
    }
    let manifest = Path::new(env!("DGCC_CHECKOUT")).canonicalize().expect("manifest dir");
    let out = run(&["/bin/sh", "-c", "pwd -P && test -f Cargo.toml && test -x .ci/with-validation.sh"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), manifest.to_str().expect("utf-8 path"));
}

#[test]
fn system_folders_inside_stay_the_roots_own() {
    if !available("system_folders_inside_stay_the_roots_own") {
        return;
    }
    // A program named by an absolute system path must be the root's, never a host folder
    // mounted over the root's /usr/bin.
    let out = run(&["/usr/bin/cat", "/proc/self/mountinfo"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mountinfo = text(&out.stdout);
    for mount_point in mountinfo.lines().filter_map(|l| l.split(' ').nth(4)) {
        let system = ["/usr", "/bin", "/sbin", "/lib", "/etc", "/var"]
            .iter()
            .any(|s| mount_point == *s || mount_point.starts_with(&format!("{s}/")));
        assert!(!system, "host folder mounted over the root's {mount_point}");
    }
}

#[test]
fn host_built_binary_runs_on_the_roots_newer_glibc() {
    if !available("host_built_binary_runs_on_the_roots_newer_glibc") {
        return;
    }
    let out = run(&["/usr/bin/getconf", "GNU_LIBC_VERSION"], &[]);
    let version = text(&out.stdout);
    let minor: u32 = version
        .trim()
        .strip_prefix("glibc 2.")
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("unexpected getconf output {version:?}"));
    assert!(minor >= 38, "trixie's glibc is 2.38 or newer (the layers need it), got {version:?}");
    // This very test binary, built against the host's glibc, lists its tests inside the root.
    let me = std::env::current_exe().expect("current exe");
    let out = run(&[me.to_str().expect("utf-8 path"), "--list"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("host_built_binary_runs_on_the_roots_newer_glibc: test"));
}

#[test]
fn validation_errors_on_stdout_fail_the_run() {
    if !available("validation_errors_on_stdout_fail_the_run") {
        return;
    }
    let error = "echo 'Validation Error: [ VUID-probe-00000 ] | MessageID = 0x0'";
    let out = run(&["/bin/sh", "-c", error], &[]);
    assert_eq!(out.status.code(), Some(1), "a clean exit with a layer error fails");
    assert!(text(&out.stderr).contains("reported 1 error(s)"), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("VUID-probe-00000"), "the output still streams through");

    let warning = "echo 'Validation Warning: [ probe ] | MessageID = 0x0'";
    let out = run(&["/bin/sh", "-c", warning], &[]);
    assert!(out.status.success(), "warnings do not fail: {}", text(&out.stderr));

    let out = run(&["/bin/sh", "-c", &format!("{error}; exit 3")], &[]);
    assert_eq!(out.status.code(), Some(3), "the program's own failure status wins");
}

#[test]
fn no_mounts_are_left_behind_even_without_a_mount_namespace() {
    if !available("no_mounts_are_left_behind_even_without_a_mount_namespace") {
        return;
    }
    // DGCC_WITH_VALIDATION_NS set: the wrapper mounts in this namespace and relies on its trap.
    let mut cmd = Command::new("bash");
    cmd.arg(wrapper()).args(["/bin/true"]).env("DGCC_WITH_VALIDATION_NS", "1");
    let out = cmd.output().expect("bash runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let root = trixie_root().canonicalize().expect("root path");
    let prefix = format!("{}/", root.display());
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").expect("mountinfo");
    let left: Vec<&str> = mountinfo
        .lines()
        .filter_map(|l| l.split(' ').nth(4))
        .filter(|mount_point| mount_point.starts_with(&prefix))
        .collect();
    assert!(left.is_empty(), "mounts left under the root: {left:?}");
}

/// `dgcc run` and `dgcc bench` under `DGCC_VALIDATION=1`: the runtime's messenger takes the
/// layer's messages (the layer stops printing them), so the CLI itself must print what it
/// counted and fail. `DGCC_INJECT_VALIDATION_ERROR=1` makes one invalid call
/// (`crates/cli/src/scene/fault.rs`); the same command without it passes, so the failure is
/// the layer's word, not the run's.
#[test]
fn a_run_the_layer_complained_about_fails_with_the_layers_message() {
    if !available("a_run_the_layer_complained_about_fails_with_the_layers_message") {
        return;
    }
    let dgcc = env!("CARGO_BIN_EXE_dgcc");
    let out_dir = std::env::temp_dir().join(format!("dgcc-vvl-bench-{}", std::process::id()));
    let out = out_dir.display().to_string();
    let run = [dgcc, "run", "examples/scene.ron", "--objects", "64", "--frames", "1", "--size", "32", "--mode", "mdi"];
    let bench = [
        dgcc,
        "bench",
        "examples/scene.ron",
        "--objects",
        "64",
        "--frames",
        "1",
        "--warmup",
        "0",
        "--width",
        "32",
        "--height",
        "32",
        "--modes",
        "mdi",
        "--culling",
        "none",
        "--no-owners",
        "--copy-mib",
        "0",
        "--out",
        &out,
    ];
    for (what, args) in [("run", &run[..]), ("bench", &bench[..])] {
        let clean = self::run(args, &[]);
        assert!(clean.status.success(), "dgcc {what} without the fault: {}", text(&clean.stderr));
        assert!(!text(&clean.stderr).contains("validation layer reported"), "{}", text(&clean.stderr));

        let faulty = self::run(args, &[("DGCC_INJECT_VALIDATION_ERROR", "1")]);
        let stderr = text(&faulty.stderr);
        assert_eq!(faulty.status.code(), Some(1), "dgcc {what} with a layer error must fail: {stderr}");
        assert!(stderr.contains("VUID-VkBufferCreateInfo-None-09500"), "the layer's message is shown: {stderr}");
        assert!(stderr.contains("error: the validation layer reported 1 error(s)"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&out_dir);
}
