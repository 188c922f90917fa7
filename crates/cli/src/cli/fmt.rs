//! `dgcc fmt FILE --to ron|dsl`: print a description in the other (or the same) syntax.

use super::{FAILED, OK, USAGE};
use dgcc::render::{self, SourceFile};
use dgcc::syntax::{self, SyntaxKind};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum To {
    Ron,
    Dsl,
}

#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// The description file (`.ron` or `.dgc`).
    pub file: PathBuf,
    /// The syntax to write.
    #[arg(long, value_enum)]
    pub to: To,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &FmtArgs) -> i32 {
    let name = args.file.display().to_string();
    let Some(kind) = SyntaxKind::from_path(&args.file) else {
        eprintln!("error: `{name}` is neither a `.ron` nor a `.dgc` description");
        return USAGE;
    };
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
            render::human_to_stderr(&SourceFile { name: &name, text: "" }, &[d], false);
            return FAILED;
        }
    };
    let pipeline = match syntax::parse(text, kind) {
        Ok(p) => p,
        Err(diags) => {
            render::human_to_stderr(&SourceFile { name: &name, text }, &diags, true);
            return FAILED;
        }
    };
    let out = match args.to {
        To::Ron => syntax::print_ron(&pipeline),
        To::Dsl => syntax::print_dsl(&pipeline),
    };
    let dropped = syntax::dropped_comments(text, kind);
    if dropped > 0 {
        eprintln!(
            "note: {dropped} comment(s) in {name} are not directly above an item (pipeline, layout, token, field, kernel, push-constant range) and were not carried over"
        );
    }
    match &args.output {
        None => print!("{out}"),
        Some(p) => {
            if let Err(e) = std::fs::write(p, &out) {
                eprintln!("error: cannot write {}: {e}", p.display());
                return USAGE;
            }
        }
    }
    OK
}
