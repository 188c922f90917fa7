//! `dgcc fmt FILE [--to ron|dsl] [-o OUT | --check]`: print a description in the other (or the
//! same) syntax.
//!
//! Why it refuses more than it used to: a formatter that writes is trusted with the user's
//! file, so it never loses what the user wrote. Comments that are not doc comments of an item
//! (a trailing `// note`, a comment inside a value, one separated from the next item by a
//! blank line) have no place in the printed form; rather than drop them with a note, `fmt`
//! refuses and names their lines, unless `--drop-comments` says that is what the user wants.
//! It never writes one syntax into a file named for the other (`--to ron -o x.dgc` used to give
//! a `.dgc` file that no longer parsed), and it writes through `dgcc::output` (a temporary file
//! renamed into place), so a failed write leaves the file as it was.

use super::{FAILED, OK, USAGE};
use dgcc::render::{self, SourceFile};
use dgcc::syntax::{self, SyntaxKind};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum To {
    Ron,
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
    /// The description file (`.ron` or `.dgc`).
    pub file: PathBuf,
    /// The syntax to write (default: the file's own).
    #[arg(long, value_enum)]
    pub to: Option<To>,
    /// Write to this file instead of standard output; its extension must name the syntax
    /// written (`.ron` or `.dgc`). It may be FILE itself.
    #[arg(long, short, conflicts_with = "check")]
    pub output: Option<PathBuf>,
    /// Write nothing; exit 1 if FILE is not already formatted (in its own syntax, or `--to`'s).
    #[arg(long)]
    pub check: bool,
    /// Convert even though comments that are not doc comments of an item would be lost.
    #[arg(long)]
    pub drop_comments: bool,
}

pub fn run(args: &FmtArgs) -> i32 {
    let name = args.file.display().to_string();
    let Some(kind) = SyntaxKind::from_path(&args.file) else {
        eprintln!("error: `{name}` is neither a `.ron` nor a `.dgc` description");
        return USAGE;
    };
    let to = args.to.map(To::kind).unwrap_or(kind);
    if let Some(out) = &args.output {
        match SyntaxKind::from_path(out) {
            Some(k) if k == to => {}
            found => {
                let what = match found {
                    Some(k) => format!("a `.{}` file", k.extension()),
                    None => "neither a `.ron` nor a `.dgc` file".to_string(),
                };
                eprintln!(
                    "error: refusing to write {} into {}, which is {what}: name the output `*.{}` or choose --to {}",
                    if to == SyntaxKind::Ron { "RON" } else { "the dgcc language" },
                    out.display(),
                    to.extension(),
                    if found == Some(SyntaxKind::Ron) { "ron" } else { "dsl" },
                );
                return USAGE;
            }
        }
    }
    let color = std::io::stderr().is_terminal();
    let bytes = match dgcc::driver::read_description(&args.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return USAGE;
        }
    };
    let text = match syntax::decode(&bytes) {
        Ok(t) => t,
        Err(d) => {
            render::human_to_stderr(&SourceFile { name: &name, text: "" }, &[d], color);
            return FAILED;
        }
    };
    let pipeline = match syntax::parse(text, kind) {
        Ok(p) => p,
        Err(diags) => {
            render::human_to_stderr(&SourceFile { name: &name, text }, &diags, color);
            return FAILED;
        }
    };
    let out = syntax::print(&pipeline, to);
    if args.check {
        if out == text {
            return OK;
        }
        eprintln!("{name} is not formatted (run `dgcc fmt {name} -o {name}`)");
        return FAILED;
    }
    let lost = syntax::dropped_comment_lines(text, kind);
    if !lost.is_empty() && !args.drop_comments {
        let lines: Vec<String> = lost.iter().map(|l| l.to_string()).collect();
        eprintln!(
            "error: {} comment(s) of {name} (line {}) are not directly above an item (pipeline, layout, token, field, kernel, shader, push-constant range), so the formatted description would not keep them; nothing was written",
            lost.len(),
            lines.join(", ")
        );
        eprintln!("help: move each comment onto its own line just above the item it is about, or pass --drop-comments");
        return FAILED;
    }
    match &args.output {
        None => print!("{out}"),
        Some(p) => {
            let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            let file = p.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
            if let Err(e) = dgcc::output::write_all(dir, &[(file, out)], dgcc::output::Unchanged::Keep) {
                eprintln!("error: {e}");
                return USAGE;
            }
        }
    }
    OK
}
