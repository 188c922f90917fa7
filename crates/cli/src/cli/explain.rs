//! `dgcc explain CODE`: the registry's long explanation of a diagnostic code; `dgcc explain`
//! alone lists every code with its one-line title.

use super::stdio::{errln, outln};
use super::{OK, USAGE};

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// A diagnostic code such as E0104 (case-insensitive); without one, every code is listed.
    pub code: Option<String>,
}

pub fn run(args: &ExplainArgs) -> i32 {
    let Some(code) = &args.code else {
        for rule in dgcc::rules::all() {
            outln!("{}  {:<7}  {}", rule.code, rule.severity.name(), rule.title);
        }
        return OK;
    };
    match dgcc::rules::lookup(code.trim()) {
        Some(rule) => {
            outln!("{}: {}", rule.code, rule.title);
            outln!("severity: {}", rule.severity.name());
            if let Some(v) = rule.vuid {
                outln!("vuid: {v}");
            }
            for v in rule.also() {
                outln!("also: {v}");
            }
            outln!();
            outln!("{}", rule.explanation);
            OK
        }
        None => {
            errln!(
                "error: `{code}` is not a dgcc diagnostic code (codes look like E0104 or W0001; `dgcc explain` lists them)"
            );
            USAGE
        }
    }
}
