//! `dgcc fmt FILE… [--check] [--to ron|dsl -o OUT]`: format descriptions in place, check that
//! they are formatted, or convert one into the other syntax.
//!
//! Why it writes only what it verified: a formatter that writes is trusted with the user's
//! files, so it keeps every comment (`dgcc::syntax::format` places each where it was and
//! checks that the result parses to the same pipeline and holds every comment's text) and
//! writes through `dgcc::output` (a temporary file renamed into place), so a failed write
//! leaves the file as it was. It never writes one syntax into a file named for the other
//! (`--to ron -o x.dgc` used to give a `.dgc` file that no longer parsed). Every file is
//! tried: one that does not parse does not stop the next from being formatted, and the exit
//! code is the worst outcome.

use super::{FAILED, OK, USAGE};
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
    /// The description files (`.ron` or `.dgc`), formatted in place.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
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

pub fn run(args: &FmtArgs) -> i32 {
    if args.output.is_some() && args.files.len() > 1 {
        eprintln!("error: -o names one output; give one FILE with it");
        return USAGE;
    }
    let converting = |file: &Path| args.to.is_some_and(|to| SyntaxKind::from_path(file) != Some(to.kind()));
    if args.output.is_none() && !args.check && args.files.len() > 1 && args.files.iter().any(|f| converting(f)) {
        eprintln!("error: --to converts one file at a time: give one FILE, and -o for where to write it");
        return USAGE;
    }
    let mut worst = Outcome::Ok;
    let mut unformatted = vec![];
    for file in &args.files {
        let outcome = one(args, file, &mut unformatted);
        worst = worst.max(outcome);
    }
    if !unformatted.is_empty() {
        for name in &unformatted {
            eprintln!("{name}: not formatted");
        }
        let files = unformatted.join(" ");
        eprintln!("{} file(s) not formatted (run `dgcc fmt {files}`)", unformatted.len());
        worst = worst.max(Outcome::Failed);
    }
    match worst {
        Outcome::Ok => OK,
        Outcome::Failed => FAILED,
        Outcome::Usage => USAGE,
    }
}

/// Formats, checks or converts one file; a file that `--check` finds unformatted is added to
/// `unformatted`.
fn one(args: &FmtArgs, file: &Path, unformatted: &mut Vec<String>) -> Outcome {
    let name = file.display().to_string();
    let Some(kind) = SyntaxKind::from_path(file) else {
        eprintln!("error: `{name}` is neither a `.ron` nor a `.dgc` description");
        return Outcome::Usage;
    };
    let to = args.to.map(To::kind).unwrap_or(kind);
    let stdout = args.output.as_deref() == Some(Path::new("-"));
    if let Some(out) = args.output.as_ref().filter(|_| !stdout) {
        if let Err(message) = output_names_syntax(out, to) {
            eprintln!("error: {message}");
            return Outcome::Usage;
        }
    }
    let color = super::color_stderr();
    let bytes = match dgcc::driver::read_description(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return Outcome::Usage;
        }
    };
    let text = match syntax::decode(&bytes) {
        Ok(t) => t,
        Err(d) => {
            let lossy = syntax::lossy(&bytes);
            render::human_to_stderr(&SourceFile { name: &name, text: &lossy }, &[*d], color);
            return Outcome::Failed;
        }
    };
    let formatted = if args.drop_comments {
        syntax::parse(text, kind).map(|p| syntax::print(&p, to)).map_err(FormatError::Parse)
    } else {
        syntax::format(text, kind, to)
    };
    let out = match formatted {
        Ok(out) => out,
        Err(FormatError::Parse(diags)) => {
            render::human_to_stderr(&SourceFile { name: &name, text }, &diags, color);
            return Outcome::Failed;
        }
        Err(FormatError::NotKept(why)) => {
            eprintln!("error: dgcc fmt cannot format {name} without changing it ({why}); nothing was written");
            eprintln!("note: this is a bug in dgcc: please report it with the file");
            return Outcome::Failed;
        }
    };
    if args.check {
        if out != text {
            unformatted.push(name);
        }
        return Outcome::Ok;
    }
    let target: &Path = match &args.output {
        Some(p) if !stdout => p,
        None if to == kind => file,
        _ => {
            print!("{out}");
            return Outcome::Ok;
        }
    };
    // Formatting in place keeps a byte order mark the file started with.
    let bom = target == file && bytes.starts_with("\u{feff}".as_bytes());
    let out = if bom { format!("\u{feff}{out}") } else { out };
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let base = target.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    match dgcc::output::write_all(dir, &[(base, out)], dgcc::output::Unchanged::Keep) {
        Ok(_) => Outcome::Ok,
        Err(e) => {
            eprintln!("error: {e}");
            Outcome::Usage
        }
    }
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
