//! `dgcc probe [--out FILE]`: the live device as a Vulkan Profiles JSON profile, usable as a
//! `--target`.

use super::{FAILED, OK, USAGE};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// Write the profile here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub device: super::DeviceArg,
}

pub fn run(args: &ProbeArgs) -> i32 {
    let probe = match dgcc::runtime::probe() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return FAILED;
        }
    };
    let text = probe.json_text();
    match &args.out {
        None => print!("{text}"),
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return USAGE;
            }
            eprintln!("wrote {} ({} {})", path.display(), probe.device_name, probe.api_version);
        }
    }
    OK
}
