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

/// A temporary file in `dir`, holding `contents`, flushed to disk, with `permissions` (those of
/// the file it replaces) or else the mode a plain `File::create` gives.
fn staged(
    dir: &Path,
    contents: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    // A short name of its own: an output's name may already be near the file system's limit.
    builder.prefix(".dgcc-").suffix(".tmp");
    #[cfg(unix)]
    {
        // 0666 less the umask, not tempfile's 0600.
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(contents)?;
    tmp.flush()?;
    if let Some(permissions) = permissions {
        tmp.as_file().set_permissions(permissions)?;
    }
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

/// Where an output's bytes go: `path` itself, or the file a symbolic link at `path` names (the
/// link is kept, as an editor keeps it), with the permissions of the file it replaces. Refused
/// before anything is written when that is not a file a rename can replace (a folder, a
/// dangling link).
fn destination(path: &Path) -> std::io::Result<(PathBuf, Option<std::fs::Permissions>)> {
    let target = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((path.to_path_buf(), None)),
        Err(e) => return Err(e),
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path)?,
        Ok(_) => path.to_path_buf(),
    };
    let meta = std::fs::metadata(&target)?;
    if !meta.is_file() {
        let e = std::io::Error::new(std::io::ErrorKind::InvalidInput, "it is not a regular file");
        return Err(e);
    }
    Ok((target, Some(meta.permissions())))
}

/// Create `dir` and the folders above it that are missing, one level at a time; returns the
/// ones this call created, outermost first, so that a failed write can take exactly those away
/// again (never a folder that already existed, however the path is spelled, nor one another
/// process created meanwhile).
fn create_folders(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut made = vec![];
    let mut at = PathBuf::new();
    for part in dir.components() {
        at.push(part);
        match std::fs::create_dir(&at) {
            Ok(()) => made.push(at.clone()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            // `..`, a root or a prefix: not a folder to make.
            Err(_) if !matches!(part, std::path::Component::Normal(_)) => {}
            Err(e) => {
                remove_folders(&made);
                return Err(e);
            }
        }
    }
    if !at.is_dir() {
        remove_folders(&made);
        return Err(std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a folder"));
    }
    Ok(made)
}

/// Remove the folders `create_folders` made (listed outermost first), deepest first, where
/// they are still empty.
fn remove_folders(made: &[PathBuf]) {
    for folder in made.iter().rev() {
        // Only empty folders go: nothing of anyone else's is removed.
        let _ = std::fs::remove_dir(folder);
    }
}

/// Write `files` (`(file name, contents)`, text or bytes) into `dir`, creating it if missing:
/// all of them, or, on any error, none (and no folder it made). An output that is a symbolic
/// link has the file it names replaced, and a replaced file keeps its permissions. Returns the
/// paths, in order.
pub fn write_all<C: AsRef<[u8]>>(
    dir: &Path,
    files: &[(String, C)],
    unchanged: Unchanged,
) -> Result<Vec<PathBuf>, WriteError> {
    write_all_renaming(dir, files, unchanged, persist)
}

/// Write one file at `path` as [`write_all`] does (its folder made if missing): the whole of
/// `contents`, or on any error nothing, the old file as it was.
pub fn write_file(path: &Path, contents: impl AsRef<[u8]>) -> Result<PathBuf, WriteError> {
    let refuse = |why: &str| WriteError {
        path: path.to_path_buf(),
        error: std::io::Error::new(std::io::ErrorKind::InvalidInput, why.to_string()),
        replaced: vec![],
    };
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Err(refuse("not a file name dgcc can write"));
    };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let files = [(name.to_string(), contents)];
    write_all(dir, &files, Unchanged::Rewrite).map(|mut paths| paths.remove(0))
}

/// Rename a staged file over `target` (on failure the staged file is deleted).
fn persist(tmp: tempfile::NamedTempFile, target: &Path) -> std::io::Result<()> {
    tmp.persist(target).map(drop).map_err(|e| e.error)
}

/// `write_all` with the rename that puts a staged file in place given, so that the tests can
/// make a late rename fail (which a real file system does almost never).
fn write_all_renaming<C: AsRef<[u8]>>(
    dir: &Path,
    files: &[(String, C)],
    unchanged: Unchanged,
    mut rename: impl FnMut(tempfile::NamedTempFile, &Path) -> std::io::Result<()>,
) -> Result<Vec<PathBuf>, WriteError> {
    let fail = |path: &Path, error| WriteError { path: path.to_path_buf(), error, replaced: vec![] };
    for (name, _) in files {
        if Path::new(name).file_name() != Some(std::ffi::OsStr::new(name)) {
            let e =
                std::io::Error::new(std::io::ErrorKind::InvalidInput, "an output's name is a file name in the folder");
            return Err(fail(&dir.join(name), e));
        }
    }
    let mut names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        let e = std::io::Error::new(std::io::ErrorKind::InvalidInput, "two outputs have this name");
        return Err(fail(&dir.join(w[0]), e));
    }
    let made = create_folders(dir).map_err(|e| fail(dir, e))?;
    let staged_all = || -> Result<_, WriteError> {
        let mut paths = vec![];
        let mut pending = vec![];
        for (name, contents) in files {
            let path = dir.join(name);
            paths.push(path.clone());
            let (target, permissions) = destination(&path).map_err(|e| fail(&path, e))?;
            if unchanged == Unchanged::Keep && std::fs::read(&target).is_ok_and(|old| old == contents.as_ref()) {
                continue;
            }
            let folder = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(dir);
            // On error the temporary files staged so far are dropped, which deletes them.
            let tmp = staged(folder, contents.as_ref(), permissions).map_err(|e| fail(&path, e))?;
            pending.push((tmp, target, path));
        }
        Ok((paths, pending))
    };
    let (paths, pending) = match staged_all() {
        Ok(staged) => staged,
        Err(e) => {
            remove_folders(&made);
            return Err(e);
        }
    };
    let mut replaced = vec![];
    let mut folders = vec![];
    let mut pending = pending.into_iter();
    while let Some((tmp, target, path)) = pending.next() {
        if let Err(error) = rename(tmp, &target) {
            // The files still staged are deleted first, so that folders that received nothing
            // are empty and go; one holding a replaced output stays.
            drop(pending);
            remove_folders(&made);
            return Err(WriteError { path, error, replaced });
        }
        folders.extend(target.parent().map(Path::to_path_buf));
        replaced.push(path);
    }
    // The renames themselves reach the disk with their folders.
    #[cfg(unix)]
    {
        folders.sort();
        folders.dedup();
        for folder in folders {
            if let Ok(d) = std::fs::File::open(folder) {
                let _ = d.sync_all();
            }
        }
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
    fn write_file_writes_one_file_whole_or_leaves_the_old_one() {
        let d = dir("one");
        let path = d.join("sub/x.png");
        assert_eq!(write_file(&path, [1u8, 2, 3]).unwrap(), path);
        assert_eq!(std::fs::read(&path).unwrap(), [1, 2, 3]);
        // Not a file a rename can replace (a folder): refused, nothing else touched.
        let err = write_file(&d.join("sub"), b"y").unwrap_err();
        assert!(err.to_string().contains("no output was changed"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), [1, 2, 3]);
        // No file name at all.
        assert!(write_file(&d.join(".."), b"y").is_err());
        let _ = std::fs::remove_dir_all(&d);
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

    #[test]
    fn two_outputs_of_one_name_are_refused() {
        let d = dir("twice");
        let files = vec![("a.rs".to_string(), "A".to_string()), ("a.rs".to_string(), "B".to_string())];
        let err = write_all(&d, &files, Unchanged::Rewrite).unwrap_err();
        assert!(err.to_string().contains("two outputs have this name"), "{err}");
        assert!(!d.exists());
    }

    #[test]
    fn an_output_that_is_a_folder_is_refused_before_any_other_is_replaced() {
        let d = dir("folder");
        std::fs::create_dir_all(d.join("a.h")).unwrap();
        std::fs::write(d.join("a.rs"), "old").unwrap();
        let files = vec![("a.rs".to_string(), "new".to_string()), ("a.h".to_string(), "H".to_string())];
        let err = write_all(&d, &files, Unchanged::Rewrite).unwrap_err();
        assert!(err.replaced.is_empty() && err.to_string().contains("not a regular file"), "{err}");
        assert_eq!(std::fs::read_to_string(d.join("a.rs")).unwrap(), "old");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 2, "no temporary file is left");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_write_removes_the_folders_it_made() {
        let d = dir("made");
        let out = d.join("new/deeper");
        std::fs::create_dir_all(&d).unwrap();
        let files = vec![("a.rs".to_string(), "new".to_string()), ("a.rs/x".to_string(), "H".to_string())];
        write_all(&out, &files, Unchanged::Rewrite).unwrap_err();
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "`new` was made and taken away");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_write_keeps_a_folder_that_existed_however_the_path_names_it() {
        // `new/../existing`: `new` is made (and taken away again); `existing`, empty but the
        // user's, stays.
        let d = dir("spelled");
        std::fs::create_dir_all(d.join("existing")).unwrap();
        let out = d.join("new").join("..").join("existing");
        let files = vec![("a.rs".to_string(), "new".to_string()), ("a.rs/x".to_string(), "H".to_string())];
        write_all(&out, &files, Unchanged::Rewrite).unwrap_err();
        assert!(d.join("existing").is_dir(), "the user's folder stays");
        assert!(!d.join("new").exists(), "the folder the write made goes");
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// A rename that fails at the `n`th call (counting from 0), and renames as `write_all`
    /// does otherwise.
    fn rename_failing_at(n: usize) -> impl FnMut(tempfile::NamedTempFile, &Path) -> std::io::Result<()> {
        let mut call = 0;
        move |tmp, target| {
            let failing = call == n;
            call += 1;
            if failing {
                return Err(std::io::Error::other("injected rename failure"));
            }
            persist(tmp, target)
        }
    }

    fn three_outputs() -> Vec<(String, String)> {
        ["a.rs", "a.h", "a.json"].iter().map(|n| (n.to_string(), format!("new {n}"))).collect()
    }

    #[test]
    fn a_failed_first_rename_changes_nothing_and_removes_the_folders_it_made() {
        let d = dir("rename-first");
        std::fs::create_dir_all(&d).unwrap();
        let err = write_all_renaming(&d.join("new/deeper"), &three_outputs(), Unchanged::Rewrite, rename_failing_at(0))
            .unwrap_err();
        assert!(err.replaced.is_empty() && err.to_string().contains("no output was changed"), "{err}");
        assert!(err.to_string().contains("injected rename failure"), "{err}");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "`new` and its staged files are gone");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_late_rename_names_what_it_replaced_and_leaves_no_temporary_file() {
        let d = dir("rename-late");
        let out = d.join("new");
        let err = write_all_renaming(&out, &three_outputs(), Unchanged::Rewrite, rename_failing_at(1)).unwrap_err();
        assert_eq!(err.path, out.join("a.h"));
        assert_eq!(err.replaced, vec![out.join("a.rs")]);
        assert!(err.to_string().ends_with(&format!("already replaced: {}", out.join("a.rs").display())), "{err}");
        // The folder holds the replaced output and nothing else: it stays, without the two
        // files still staged when the rename failed.
        let left: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("a.rs")]);
        assert_eq!(std::fs::read_to_string(out.join("a.rs")).unwrap(), "new a.rs");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_keeps_pointing_at_its_file_and_a_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt as _;
        let d = dir("link");
        std::fs::create_dir_all(d.join("real")).unwrap();
        std::fs::write(d.join("real/a.rs"), "old").unwrap();
        std::fs::set_permissions(d.join("real/a.rs"), std::fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink("real/a.rs", d.join("a.rs")).unwrap();
        write_all(&d, &[("a.rs".to_string(), "new".to_string())], Unchanged::Rewrite).unwrap();
        assert!(std::fs::symlink_metadata(d.join("a.rs")).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(d.join("real/a.rs")).unwrap(), "new");
        let mode = std::fs::metadata(d.join("real/a.rs")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(std::fs::read_dir(d.join("real")).unwrap().count(), 1, "no temporary file is left");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
