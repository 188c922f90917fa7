//! `dgcc profiles [NAME]`: list the built-in profiles or show one, every value with its source.

use super::{FAILED, OK, USAGE};
use dgcc::device::{self, Limit};

#[derive(clap::Args, Debug)]
pub struct ProfilesArgs {
    /// A built-in profile name or a path to a JSON profile to show.
    pub name: Option<String>,
}

pub fn run(args: &ProfilesArgs) -> i32 {
    match &args.name {
        None => {
            for name in device::BUILTIN_NAMES {
                let p = device::builtin(name).expect("built-in");
                println!("{:<10} {}", p.name, p.description);
            }
            OK
        }
        Some(name) => match device::resolve(name, std::path::Path::new(".")) {
            Ok(p) => {
                println!("{} — {}", p.name, p.description);
                for l in Limit::ALL {
                    let v = p.value(l).map(|v| l.format(v)).unwrap_or_else(|| "(not stated)".into());
                    let c = p.citation(l).unwrap_or("");
                    println!("  {:<54} {:<28} {}", l.vk_name(), v, c);
                }
                OK
            }
            Err(msg) => {
                eprintln!("error: {msg}");
                if device::builtin(name).is_none() && !name.ends_with(".json") {
                    USAGE
                } else {
                    FAILED
                }
            }
        },
    }
}
