//! `dgcc probe [--out FILE]`: the live device as a Vulkan Profiles JSON profile, usable as a
//! `--target`.

use super::stdio::{errln, out};
use super::{FAILED, OK, USAGE};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// Write the profile to this `.json` file (whole, or not at all) instead of standard output
    /// (`-` is standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub device: super::DeviceArg,
}

pub fn run(args: &ProbeArgs) -> i32 {
    let out_file = args.out.as_ref().filter(|p| p.as_os_str() != "-");
    // What `--target` reads back: a profile is a `.json` file.
    if let Some(path) = out_file.filter(|p| !p.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))) {
        errln!("error: --out {}: a profile is read back (`--target`) from a `.json` file; name it so", path.display());
        return USAGE;
    }
    let probe = match dgcc::runtime::probe() {
        Ok(p) => p,
        Err(e) => {
            errln!("error: {e}");
            return FAILED;
        }
    };
    let text = probe.json_text();
    match out_file {
        None => out!("{text}"),
        Some(path) => {
            if let Err(e) = dgcc::output::write_file(path, &text) {
                errln!("error: {e}");
                return USAGE;
            }
            errln!("wrote {} ({} {})", path.display(), probe.device_name, probe.api_version);
        }
    }
    OK
}
