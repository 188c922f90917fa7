//! Writing a compile's outputs: all of them or none.
//!
//! Why not `std::fs::write` per file: it truncates the file and then writes, so two compiles
//! into one folder at once interleave (one file's text followed by the other's tail), and a
//! compile that runs out of disk space leaves a new manifest, a truncated `.rs` and the
//! previous run's header, which all look valid. Here every output is first written in full to
//! a temporary file in the destination folder and flushed to disk (`fsync`, where a full disk
//! is reported at the latest); only when every one of them is complete are they renamed over
//! the old files. A rename within a folder is atomic, so a reader, or a concurrent compile,
//! sees either the old file or one compile's complete new one, never a mixture, and a compile
//! that fails at any point before the renames leaves every previous output untouched (its
//! temporary files are removed).

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What to do with an output whose file already has exactly its contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unchanged {
    /// Leave the file alone, so that its modification time does not change (build scripts:
    /// Cargo would otherwise rebuild what includes it).
    Keep,
    /// Write it again.
    Rewrite,
}

/// Why the outputs were not written. Unless `replaced` is not empty, nothing was changed.
#[derive(Debug)]
pub struct WriteError {
    pub path: PathBuf,
    pub error: std::io::Error,
    /// Outputs already renamed into place when a later rename failed (almost never: the
    /// renames come after every file was written in full).
    pub replaced: Vec<PathBuf>,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}: {}", self.path.display(), self.error)?;
        if self.replaced.is_empty() {
            write!(f, "; no output was changed")
        } else {
            let names: Vec<String> = self.replaced.iter().map(|p| p.display().to_string()).collect();
            write!(f, "; already replaced: {}", names.join(", "))
        }
    }
}

impl std::error::Error for WriteError {}

/// A temporary file beside `path`, holding `contents`, flushed to disk.
fn staged(dir: &Path, contents: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    // A short name of its own: an output's name may already be near the file system's limit.
    builder.prefix(".dgcc-").suffix(".tmp");
    #[cfg(unix)]
    {
        // The mode a plain `File::create` gives (0666 less the umask), not tempfile's 0600.
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(contents.as_bytes())?;
    tmp.flush()?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

/// Write `files` (`(file name, contents)`) into `dir`, creating it if missing: all of them, or,
/// on any error, none. Returns the paths, in order.
pub fn write_all(dir: &Path, files: &[(String, String)], unchanged: Unchanged) -> Result<Vec<PathBuf>, WriteError> {
    let fail = |path: &Path, error| WriteError { path: path.to_path_buf(), error, replaced: vec![] };
    for (name, _) in files {
        if Path::new(name).file_name() != Some(std::ffi::OsStr::new(name)) {
            let e =
                std::io::Error::new(std::io::ErrorKind::InvalidInput, "an output's name is a file name in the folder");
            return Err(fail(&dir.join(name), e));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let mut paths = vec![];
    let mut pending = vec![];
    for (name, contents) in files {
        let path = dir.join(name);
        paths.push(path.clone());
        if unchanged == Unchanged::Keep && std::fs::read(&path).is_ok_and(|old| old == contents.as_bytes()) {
            continue;
        }
        // On error the temporary files staged so far are dropped, which deletes them.
        let tmp = staged(dir, contents).map_err(|e| fail(&path, e))?;
        pending.push((tmp, path));
    }
    let mut replaced = vec![];
    for (tmp, path) in pending {
        if let Err(e) = tmp.persist(&path) {
            return Err(WriteError { path, error: e.error, replaced });
        }
        replaced.push(path);
    }
    // The renames themselves reach the disk with the folder.
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("dgcc-output-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn writes_every_file_and_leaves_no_temporary_file() {
        let d = dir("all");
        let files = vec![("a.rs".to_string(), "A".to_string()), ("a.h".to_string(), "H".to_string())];
        let paths = write_all(&d, &files, Unchanged::Rewrite).unwrap();
        assert_eq!(paths, vec![d.join("a.rs"), d.join("a.h")]);
        assert_eq!(std::fs::read_to_string(d.join("a.h")).unwrap(), "H");
        let names: Vec<String> =
            std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_write_changes_nothing() {
        let d = dir("fail");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("a.rs"), "old").unwrap();
        // The second output cannot be written (its name is a path); the first is not
        // written either. (A full disk is tested with a real one in tests/hostile.rs.)
        let files = vec![("a.rs".to_string(), "new".to_string()), ("a.rs/x".to_string(), "H".to_string())];
        let err = write_all(&d, &files, Unchanged::Rewrite).unwrap_err();
        assert!(err.replaced.is_empty() && err.to_string().contains("no output was changed"), "{err}");
        assert_eq!(std::fs::read_to_string(d.join("a.rs")).unwrap(), "old");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
