//! `dgcc explain CODE`: the registry's long explanation of a diagnostic code.

use super::{OK, USAGE};

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// A diagnostic code such as E0104 (case-insensitive).
    pub code: String,
}

pub fn run(args: &ExplainArgs) -> i32 {
    match dgcc::rules::lookup(args.code.trim()) {
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
            eprintln!("error: `{}` is not a dgcc diagnostic code (codes look like E0104 or W0001)", args.code);
            USAGE
        }
    }
}
