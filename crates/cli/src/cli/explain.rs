//! `dgcc explain CODE`: the registry's long explanation of a diagnostic code; `dgcc explain`
//! alone lists every code with its one-line title.

use super::{OK, USAGE};

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// A diagnostic code such as E0104 (case-insensitive); without one, every code is listed.
    pub code: Option<String>,
}

pub fn run(args: &ExplainArgs) -> i32 {
    let Some(code) = &args.code else {
        for rule in dgcc::rules::all() {
            println!("{}  {:<7}  {}", rule.code, rule.severity.name(), rule.title);
        }
        return OK;
    };
    match dgcc::rules::lookup(code.trim()) {
        Some(rule) => {
            println!("{}: {}", rule.code, rule.title);
            println!("severity: {}", rule.severity.name());
            if let Some(v) = rule.vuid {
                println!("vuid: {v}");
            }
            for v in rule.also() {
                println!("also: {v}");
            }
            println!();
            println!("{}", rule.explanation);
            OK
        }
        None => {
            eprintln!(
                "error: `{code}` is not a dgcc diagnostic code (codes look like E0104 or W0001; `dgcc explain` lists them)"
            );
            USAGE
        }
    }
}
