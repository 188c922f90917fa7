//! Bounded reads of input files: descriptions, kernel sources and their includes, profiles;
//! and of standard input, where a command reads a description from it.
//!
//! Why one reader for every input: a path in a description (a kernel's `source`, a target's
//! profile) or on the command line can name anything, and `std::fs::read` on a FIFO waits
//! forever for a writer while on `/dev/zero` it grows until memory runs out. So every input is
//! checked to be a regular file before it is opened (opening a FIFO for reading already
//! blocks), checked again on the open handle, and read through `take(limit + 1)`, so that a
//! file that grows while it is read is still refused rather than read without end.

use std::io::Read as _;
use std::path::Path;

/// Why an input file was not read. `Display` is one line without the path; the caller names
/// the file and what it is.
#[derive(Debug)]
pub enum ReadError {
    /// The operating system's error (missing file, permissions, …).
    Io(std::io::Error),
    /// A FIFO, a device, a socket or a folder: only regular files are read.
    NotRegular(&'static str),
    /// Longer than the limit, in bytes.
    TooLarge { limit: u64, len: Option<u64> },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::NotRegular(kind) => {
                write!(f, "it is {kind}, not a regular file (dgcc reads only regular files)")
            }
            ReadError::TooLarge { limit, len: Some(len) } => {
                write!(f, "it is {len} bytes long, more than the {limit} bytes dgcc reads of it")
            }
            ReadError::TooLarge { limit, len: None } => {
                write!(f, "it is longer than the {limit} bytes dgcc reads of it")
            }
        }
    }
}

impl std::error::Error for ReadError {}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Read a regular file of at most `limit` bytes.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta)));
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge { limit, len: Some(meta.len()) });
    }
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta)));
    }
    read_bounded(file, limit, Vec::with_capacity(meta.len().min(limit) as usize))
}

/// `reader` to its end into `bytes`, refused past `limit` bytes: read through `take(limit + 1)`,
/// so that input that grows while it is read, or has no end (`yes |`), stops at the limit
/// instead of filling memory.
fn read_bounded(reader: impl std::io::Read, limit: u64, mut bytes: Vec<u8>) -> Result<Vec<u8>, ReadError> {
    reader.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit, len: None });
    }
    Ok(bytes)
}

/// Read standard input to its end, at most `limit` bytes, as a file is read: what a command
/// reads for a FILE of `-`.
pub fn read_stdin(limit: u64) -> Result<Vec<u8>, ReadError> {
    read_bounded(std::io::stdin().lock(), limit, vec![])
}

/// [`read_regular`] as UTF-8 text; `Err` names the first byte that is not UTF-8.
pub fn read_regular_text(path: &Path, limit: u64) -> Result<String, String> {
    let bytes = read_regular(path, limit).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| format!("it is not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_folders_are_refused_without_reading() {
        #[cfg(unix)]
        assert!(matches!(read_regular(Path::new("/dev/zero"), 16), Err(ReadError::NotRegular("a character device"))));
        assert!(matches!(read_regular(Path::new("."), 16), Err(ReadError::NotRegular("a folder"))));
    }

    #[test]
    fn the_limit_is_inclusive() {
        let dir = std::env::temp_dir().join(format!("dgcc-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("x");
        std::fs::write(&f, b"12345678").unwrap();
        assert_eq!(read_regular(&f, 8).unwrap(), b"12345678");
        assert!(matches!(read_regular(&f, 7), Err(ReadError::TooLarge { limit: 7, len: Some(8) })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
