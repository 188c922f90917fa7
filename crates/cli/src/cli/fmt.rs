//! `dgcc fmt FILE… [--check] [--to ron|dsl -o OUT]`: format descriptions in place, check that
//! they are formatted, or convert one into the other syntax; `-` with `--stdin-name` does the
//! same to standard input and prints the result, for editors (`input.rs`).
//!
//! Why it writes only what it verified: a formatter that writes is trusted with the user's
//! files, so it keeps every comment (`dgcc::syntax::format` places each where it was and
//! checks that the result parses to the same pipeline and holds every comment's text) and
//! writes through `dgcc::output` (temporary files renamed into place), so a failed write
//! leaves the files as they were. Several files are all or none, as a compile's outputs are:
//! every file is read and formatted first, every error of every file is reported, and nothing
//! is written unless all of them formatted (a run that reformatted `a.ron` and then stopped at
//! `b.ron` left the user to work out which files it had changed). It never writes one syntax
//! into a file named for the other (`--to ron -o x.dgc` used to give a `.dgc` file that no
//! longer parsed), judged by the file actually written: an output that is a link is followed
//! (`-o alias.dgc`, a link to the `.ron` input, wrote the `.dgc` language into it). `--check`
//! advises a command that makes it pass: one with the options that shape the text.

use super::input::{self, StdinArgs};
use super::stdio::{errln, out};
use super::{FAILED, OK, USAGE};
use dgcc::driver::Source;
use dgcc::render::{self, SourceFile};
use dgcc::syntax::{self, FormatError, SyntaxKind};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum To {
    Ron,
    /// The dgcc language (`.dgc`).
    #[value(alias = "dgc")]
    Dsl,
}

impl To {
    fn kind(self) -> SyntaxKind {
        match self {
            To::Ron => SyntaxKind::Ron,
            To::Dsl => SyntaxKind::Dsl,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// The description files (`.ron` or `.dgc`), formatted in place; `-` (the only FILE, with
    /// --stdin-name) formats standard input to standard output.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub stdin: StdinArgs,
    /// The syntax to write (default: each file's own; `dgc` is the same as `dsl`). Converting
    /// one file writes it to `-o`, or to standard output.
    #[arg(long, value_enum)]
    pub to: Option<To>,
    /// Write to this file instead (one FILE only); its extension must name the syntax written
    /// (`.ron` or `.dgc`). It may be FILE itself; `-` is standard output.
    #[arg(long, short, conflicts_with = "check")]
    pub output: Option<PathBuf>,
    /// Write nothing; list the files that are not formatted and exit 1 if there are any.
    #[arg(long)]
    pub check: bool,
    /// Leave out every comment that is not a doc comment of an item.
    #[arg(long)]
    pub drop_comments: bool,
}

/// What became of one file.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Ok,
    Failed,
    Usage,
}

impl Outcome {
    fn code(self) -> i32 {
        match self {
            Outcome::Ok => OK,
            Outcome::Failed => FAILED,
            Outcome::Usage => USAGE,
        }
    }
}

/// One file, read and formatted, not yet written.
struct Formatted {
    name: String,
    /// What the file holds, byte order mark included.
    original: String,
    out: String,
    /// Whether `out` is the file's text (its byte order mark aside): what `--check` asks.
    formatted: bool,
    /// The file itself, its links followed, where it is formatted in place or `-o` leads to it;
    /// `None` for standard input.
    canonical: Option<PathBuf>,
}

pub fn run(args: &FmtArgs) -> i32 {
    if args.output.is_some() && args.files.len() > 1 {
        errln!("error: -o names one output; give one FILE with it");
        return USAGE;
    }
    let sources = match input::sources(&args.files, &args.stdin) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    // Standard input has no file to format in place: its text goes to standard output (or
    // `-o`), which one run cannot share with the files it formats in place.
    let from_stdin = sources.iter().any(|s| matches!(s, Source::Stdin(_)));
    if from_stdin && sources.len() > 1 {
        errln!("error: `-` formats standard input to standard output: give it as the only FILE");
        return USAGE;
    }
    let converting = |file: &Path| args.to.is_some_and(|to| SyntaxKind::from_path(file) != Some(to.kind()));
    if args.output.is_none() && !args.check && sources.len() > 1 && sources.iter().any(|s| converting(s.path())) {
        errln!("error: --to converts one file at a time: give one FILE, and -o for where to write it");
        return USAGE;
    }
    if args.check {
        // `--check` compares a file with the canonical text of its own syntax. The other
        // syntax's text is never equal to the file, so the check could never pass, and no
        // `dgcc fmt` that writes the file in place could make it.
        if let Some((source, to)) = sources.iter().find(|s| converting(s.path())).zip(args.to) {
            let file = source.path();
            let name = file.display();
            let (theirs, flag) = match to {
                To::Ron => ("the dgcc language", "ron"),
                To::Dsl => ("RON", "dsl"),
            };
            let convert = match source {
                Source::Stdin(_) => format!("dgcc fmt --stdin-name {} - --to {flag}", shell_word(&name.to_string())),
                Source::File(_) => format!(
                    "dgcc fmt {} --to {flag} -o {}",
                    shell_word(&name.to_string()),
                    shell_word(&file.with_extension(to.kind().extension()).display().to_string()),
                ),
            };
            errln!(
                "error: --check compares each file with the canonical form of its own syntax, and {name} is {theirs}, \
                 not what `--to {flag}` writes: leave out --to, or convert it with `{convert}`"
            );
            return USAGE;
        }
    }
    let stdout = args.output.as_deref() == Some(Path::new("-"));
    let output =
        match args.output.as_deref().filter(|_| !stdout).map(|out| resolve_output(args, sources[0], out)).transpose() {
            Ok(o) => o,
            Err(message) => {
                errln!("error: {message}");
                return USAGE;
            }
        };

    // Every file is read and formatted before anything is written.
    let color = super::color_stderr();
    let mut worst = Outcome::Ok;
    let mut failed = 0;
    let mut done: Vec<Formatted> = vec![];
    for &source in &sources {
        match one(args, source, color) {
            Ok(f) => {
                // A file named twice (`a.ron ./a.ron`, or through a link) is formatted once.
                if !done.iter().any(|d| d.canonical == f.canonical) {
                    done.push(f);
                }
            }
            Err(outcome) => {
                worst = worst.max(outcome);
                failed += 1;
            }
        }
    }

    if args.check {
        let unformatted: Vec<&Formatted> = done.iter().filter(|f| !f.formatted).collect();
        if from_stdin && !unformatted.is_empty() {
            errln!(
                "{}: not formatted (standard input; `{}` prints it formatted)",
                unformatted[0].name,
                advice_stdin(args)
            );
            worst = worst.max(Outcome::Failed);
        } else if !unformatted.is_empty() {
            for f in &unformatted {
                errln!("{}: not formatted", f.name);
            }
            errln!(
                "{} file(s) not formatted (run `{}`)",
                unformatted.len(),
                advice(args, unformatted.iter().map(|f| f.name.as_str()))
            );
            worst = worst.max(Outcome::Failed);
        }
        if failed > 0 {
            errln!("error: {}", could_not(&sources, failed, ("check", "checked")));
        }
        return worst.code();
    }
    if failed > 0 {
        errln!("error: {}; no file was changed", could_not(&sources, failed, ("format", "formatted")));
        return worst.code();
    }

    let [f] = &done[..] else { return write(&done).code() };
    let kind = SyntaxKind::from_path(sources[0].path()).expect("one() read it");
    let same_syntax = args.to.map(To::kind).unwrap_or(kind) == kind;
    match (&output, same_syntax) {
        (Some(out), _) => {
            // `-o` leading to the file itself keeps its byte order mark, as formatting in place
            // does.
            let bom = out.canonical.is_some() && out.canonical == f.canonical && f.original.starts_with('\u{feff}');
            let text = if bom { format!("\u{feff}{}", f.out) } else { f.out.clone() };
            let dir = out.path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let base = out.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            match dgcc::output::write_all(dir, &[(base, text)], dgcc::output::Unchanged::Keep) {
                Ok(_) => OK,
                Err(e) => {
                    errln!("error: {e}");
                    USAGE
                }
            }
        }
        (None, true) if !stdout && !from_stdin => write(&done).code(),
        _ => {
            // Standard input formatted in its own syntax is the file formatted in place, for an
            // editor that replaces its buffer with it: its byte order mark stays.
            let bom = if from_stdin && same_syntax && f.original.starts_with('\u{feff}') { "\u{feff}" } else { "" };
            out!("{bom}{}", f.out);
            OK
        }
    }
}

/// "could not format a.ron" for one file, "2 of 5 files could not be formatted" for several.
fn could_not(sources: &[Source], failed: usize, (verb, done): (&str, &str)) -> String {
    match sources {
        [source] => format!("could not {verb} {}", source.describe()),
        _ => format!("{failed} of {} files could not be {done}", sources.len()),
    }
}

/// The command that formats `names` as `--check` formatted them: with `--drop-comments` when it
/// was given (`--to` can only name each file's own syntax here, which changes nothing).
fn advice<'a>(args: &FmtArgs, names: impl Iterator<Item = &'a str>) -> String {
    let mut command = "dgcc fmt".to_string();
    if args.drop_comments {
        command.push_str(" --drop-comments");
    }
    let names: Vec<&str> = names.collect();
    if names.iter().any(|n| n.starts_with('-')) {
        command.push_str(" --");
    }
    for name in names {
        command.push(' ');
        command.push_str(&shell_word(name));
    }
    command
}

/// The command that prints standard input formatted as `--check` formatted it.
fn advice_stdin(args: &FmtArgs) -> String {
    let name = args.stdin.stdin_name.as_deref().map(|n| n.display().to_string()).unwrap_or_default();
    let drop = if args.drop_comments { " --drop-comments" } else { "" };
    format!("dgcc fmt{drop} --stdin-name {} -", shell_word(&name))
}

/// `word` as a POSIX shell reads it back: as it is where that is safe, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-+./:,=@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Where `-o` writes: the path given, and the file it leads to where that exists.
struct Output {
    path: PathBuf,
    canonical: Option<PathBuf>,
}

/// `-o OUT` for the one FILE, checked by the file actually written: a link is followed, as
/// `dgcc::output` follows it, and the syntax written must be the one that file's name says.
fn resolve_output(args: &FmtArgs, source: Source, out: &Path) -> Result<Output, String> {
    let canonical = match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot write {}: {e}", out.display())),
        Ok(meta) => Some(std::fs::canonicalize(out).map_err(|e| {
            let link = if meta.file_type().is_symlink() { "it is a link that leads to no file: " } else { "" };
            format!("cannot write {}: {link}{e}", out.display())
        })?),
    };
    // The file's own syntax, where its name says one (otherwise reading it reports that).
    let Some(kind) = SyntaxKind::from_path(source.path()) else {
        return Ok(Output { path: out.to_path_buf(), canonical });
    };
    let to = args.to.map(To::kind).unwrap_or(kind);
    output_names_syntax(out, to)?;
    // `out` is named for `to`, but it may be a link to a file that is not (the input itself,
    // say): that file is the one written, so its name decides.
    if let Some(target) = canonical.as_deref().filter(|t| SyntaxKind::from_path(t) != Some(to)) {
        let input = matches!(source, Source::File(f) if std::fs::canonicalize(f).is_ok_and(|f| f == target));
        let what = match SyntaxKind::from_path(target) {
            _ if input => format!("{}, the file being formatted", source.path().display()),
            Some(k) => format!("{}, a `.{}` file", target.display(), k.extension()),
            None => format!("{}, neither a `.ron` nor a `.dgc` file", target.display()),
        };
        return Err(format!(
            "refusing to write {} through {}: it is a link to {what}; name another output",
            if to == SyntaxKind::Ron { "RON" } else { "the dgcc language" },
            out.display(),
        ));
    }
    Ok(Output { path: out.to_path_buf(), canonical })
}

/// Reads and formats one file; every error is reported here, and the outcome returned.
fn one(args: &FmtArgs, source: Source, color: bool) -> Result<Formatted, Outcome> {
    let name = source.path().display().to_string();
    let Some(kind) = SyntaxKind::from_path(source.path()) else {
        errln!("error: `{name}` is neither a `.ron` nor a `.dgc` description");
        return Err(Outcome::Usage);
    };
    let to = args.to.map(To::kind).unwrap_or(kind);
    let bytes = match dgcc::driver::read_description_from(source) {
        Ok(b) => b,
        Err(e) => {
            errln!("error: {e}");
            return Err(Outcome::Usage);
        }
    };
    let text = match syntax::decode(&bytes) {
        Ok(t) => t,
        Err(d) => {
            let lossy = syntax::lossy(&bytes);
            render::human_to_stderr(&SourceFile { name: &name, text: &lossy }, &[*d], color);
            return Err(Outcome::Failed);
        }
    };
    let formatted = if args.drop_comments {
        syntax::format_without_comments(text, kind, to)
    } else {
        syntax::format(text, kind, to)
    };
    let out = match formatted {
        Ok(out) => out,
        Err(FormatError::Parse(diags)) => {
            render::human_to_stderr(&SourceFile { name: &name, text }, &diags, color);
            return Err(Outcome::Failed);
        }
        Err(FormatError::TooLarge(bytes)) => {
            errln!(
                "error: {name} formatted would be {bytes} bytes, past the {} MiB dgcc reads; nothing written",
                syntax::limits::MAX_SOURCE_BYTES >> 20
            );
            return Err(Outcome::Failed);
        }
        Err(FormatError::NotKept(why)) => {
            errln!("error: dgcc fmt cannot format {name} without changing it ({why})");
            errln!("note: this is a bug in dgcc: please report it with the file");
            return Err(Outcome::Failed);
        }
    };
    let canonical = match source {
        Source::Stdin(_) => None,
        Source::File(file) => match std::fs::canonicalize(file) {
            Ok(c) => Some(c),
            Err(e) => {
                errln!("error: cannot read {name}: {e}");
                return Err(Outcome::Usage);
            }
        },
    };
    let formatted = out == text;
    let original = String::from_utf8(bytes).expect("decode accepted it as UTF-8");
    Ok(Formatted { name, original, out, formatted, canonical })
}

/// Formats every file of `done` in place: all of them or, on any error, none. Each folder's
/// files are one `write_all`; when a later folder's fails, the folders written before it get
/// their files' old text back.
fn write(done: &[Formatted]) -> Outcome {
    // Each file with its own path (standard input has none, and is never formatted in place).
    let mut folders: Vec<(&Path, Vec<(&Formatted, &Path)>)> = vec![];
    for (f, path) in done.iter().filter_map(|f| Some((f, f.canonical.as_deref()?))) {
        let dir = path.parent().expect("a file is in a folder");
        match folders.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, files)) => files.push((f, path)),
            None => folders.push((dir, vec![(f, path)])),
        }
    }
    let base = |path: &Path| path.file_name().expect("a file has a name").to_string_lossy().into_owned();
    // Formatting in place keeps a byte order mark the file started with.
    let bom = |f: &Formatted| if f.original.starts_with('\u{feff}') { "\u{feff}" } else { "" };
    let keep = dgcc::output::Unchanged::Keep;
    for (i, (dir, files)) in folders.iter().enumerate() {
        let new: Vec<(String, String)> =
            files.iter().map(|(f, path)| (base(path), format!("{}{}", bom(f), f.out))).collect();
        let Err(e) = dgcc::output::write_all(dir, &new, keep) else { continue };
        // Every folder up to this one, this one too (a late rename may have replaced some of
        // its files): the old text goes back where it was replaced, and nothing else changes.
        let mut left = vec![];
        for (dir, files) in &folders[..=i] {
            let old: Vec<(String, String)> = files.iter().map(|(f, path)| (base(path), f.original.clone())).collect();
            if dgcc::output::write_all(dir, &old, keep).is_err() {
                left.extend(files.iter().map(|(f, _)| f.name.as_str()));
            }
        }
        // The file as the user named it.
        let path = done
            .iter()
            .find(|f| f.canonical.as_deref() == Some(e.path.as_path()))
            .map_or(e.path.display().to_string(), |f| f.name.clone());
        if left.is_empty() {
            errln!("error: cannot write {path}: {}; no file was changed", e.error);
        } else {
            errln!(
                "error: cannot write {path}: {}; putting back the old text failed too, so these may be formatted: {}",
                e.error,
                left.join(", ")
            );
        }
        return Outcome::Usage;
    }
    Outcome::Ok
}

/// Whether `out`'s extension names the syntax `to`; the message says why not.
fn output_names_syntax(out: &Path, to: SyntaxKind) -> Result<(), String> {
    match SyntaxKind::from_path(out) {
        Some(k) if k == to => Ok(()),
        found => {
            let what = match found {
                Some(k) => format!("a `.{}` file", k.extension()),
                None => "neither a `.ron` nor a `.dgc` file".to_string(),
            };
            Err(format!(
                "refusing to write {} into {}, which is {what}: name the output `*.{}` or choose --to {}",
                if to == SyntaxKind::Ron { "RON" } else { "the dgcc language" },
                out.display(),
                to.extension(),
                if found == Some(SyntaxKind::Ron) { "ron" } else { "dsl" },
            ))
        }
    }
}
