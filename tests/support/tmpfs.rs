//! A real full disk for the tests that write into one: a small tmpfs mounted for the test and
//! unmounted when it ends, whatever the test's outcome. Mounting needs root, as CI runs; where
//! it cannot mount, the caller skips and says so.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A tmpfs mounted at a folder; unmounted when dropped.
pub struct Tmpfs(PathBuf);

impl Tmpfs {
    /// Mount a tmpfs of `kib` KiB at the folder `at` (made if missing); `None`, after a note
    /// naming `test`, where this machine cannot (not root, no `mount`).
    pub fn mount(at: &Path, kib: u32, test: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(at).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(at)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            eprintln!("note: {test}: cannot mount a tmpfs here (not root?); skipped");
        }
        mounted.then(|| Tmpfs(at.to_path_buf()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}
