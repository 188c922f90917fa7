//! FILE `-`: a description read from standard input, for `check`, `compile` and `fmt`.
//!
//! Why a name must come with it: an editor that checks or formats an unsaved buffer pipes it
//! in, and dgcc still needs what a path gives a file: the syntax (the extension), the folder
//! that relative paths (kernel sources, profile files) start from, and the name diagnostics
//! show, which is what the editor matches them to. Guessing the syntax from the text would
//! misread a broken buffer, the common case while typing, so `--stdin-name` says it instead.
//! Whatever of this the user gets wrong is a usage error before anything is read.

use dgcc::driver::Source;
use dgcc::syntax::SyntaxKind;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug, Default)]
pub struct StdinArgs {
    /// The file a FILE of `-` (standard input) stands for: its extension (`.ron` or `.dgc`)
    /// says the syntax, relative paths in it start from its folder, and diagnostics name it.
    /// It need not exist.
    #[arg(long, value_name = "NAME")]
    pub stdin_name: Option<PathBuf>,
}

/// Whether `file` is the FILE that means standard input (`./-` is a file named `-`).
pub fn is_stdin(file: &Path) -> bool {
    file.as_os_str() == "-"
}

/// Each FILE as a [`Source`]: `-` as standard input under `--stdin-name`. `Err` is the usage
/// error: `-` given twice or without a name, a name without `-`, a name of neither syntax.
pub fn sources<'a>(files: &'a [PathBuf], stdin: &'a StdinArgs) -> Result<Vec<Source<'a>>, String> {
    let dashes = files.iter().filter(|f| is_stdin(f)).count();
    match (dashes, stdin.stdin_name.as_deref()) {
        (0, None) => {}
        (0, Some(name)) => {
            return Err(format!(
            "--stdin-name names standard input, but no FILE is `-` to read it: add `-`, or leave out --stdin-name {}",
            name.display()
        ))
        }
        (1, None) => {
            return Err("`-` reads the description from standard input: say what it is with --stdin-name NAME.ron \
                        or NAME.dgc (the extension says the syntax; relative paths in it start from NAME's folder)"
                .to_string())
        }
        (1, Some(name)) if SyntaxKind::from_path(name).is_none() => {
            return Err(format!(
            "--stdin-name {} is neither a `.ron` nor a `.dgc` name, so it does not say the syntax of standard input",
            name.display()
        ))
        }
        (1, Some(_)) => {}
        _ => return Err("standard input can be read once: give `-` as one FILE only".to_string()),
    }
    Ok(files
        .iter()
        .map(|f| match stdin.stdin_name.as_deref() {
            Some(name) if is_stdin(f) => Source::Stdin(name),
            _ => Source::File(f),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: Option<&str>) -> StdinArgs {
        StdinArgs { stdin_name: name.map(PathBuf::from) }
    }

    fn files(names: &[&str]) -> Vec<PathBuf> {
        names.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn a_dash_is_standard_input_under_its_name() {
        let (f, s) = (files(&["a.ron", "-", "./-"]), named(Some("dir/b.dgc")));
        let got = sources(&f, &s).unwrap();
        assert_eq!(
            got,
            [Source::File(Path::new("a.ron")), Source::Stdin(Path::new("dir/b.dgc")), Source::File(Path::new("./-"))]
        );
    }

    #[test]
    fn what_cannot_name_standard_input_is_refused() {
        let refused = |f: &[&str], name: Option<&str>| sources(&files(f), &named(name)).unwrap_err();
        assert!(refused(&["-"], None).contains("--stdin-name NAME.ron"));
        assert!(refused(&["-", "-"], Some("a.ron")).contains("read once"));
        assert!(refused(&["a.ron"], Some("b.ron")).contains("no FILE is `-`"));
        assert!(refused(&["-"], Some("b.txt")).contains("neither a `.ron` nor a `.dgc`"));
        assert_eq!(sources(&files(&["a.ron"]), &named(None)).unwrap(), [Source::File(Path::new("a.ron"))]);
    }
}
