//! `dgcc profiles [NAME]`: list the built-in profiles or show one, every value with its source.

use super::stdio::{errln, out};
use super::{OK, USAGE};
use dgcc::device;

#[derive(clap::Args, Debug)]
pub struct ProfilesArgs {
    /// A built-in profile name or a path to a JSON profile to show.
    pub name: Option<String>,
}

pub fn run(args: &ProfilesArgs) -> i32 {
    match &args.name {
        None => {
            out!("{}", device::show::render_list());
            OK
        }
        Some(name) => match device::resolve(name, std::path::Path::new(".")) {
            Ok(p) => {
                out!("{}", device::show::render_profile(&p));
                OK
            }
            // An unknown name, or a file that cannot be read or is not a profile: usage or
            // I/O, exit 2 (the contract's "0 / 2").
            Err(msg) => {
                errln!("error: {msg}");
                USAGE
            }
        },
    }
}
