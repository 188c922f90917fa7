//! `dgcc completions SHELL`: the shell's completion script for every command and flag, on
//! standard output.
//!
//! Why generated at run time from the clap definition: the script can never disagree with the
//! flags the binary accepts, and packagers get it from the binary they ship
//! (`dgcc completions bash > /usr/share/bash-completion/completions/dgcc`).

use super::{Cli, OK, USAGE};
use clap::CommandFactory;
use clap_complete::Shell;

#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

pub fn run(args: &CompletionsArgs) -> i32 {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "dgcc", &mut out);
    use std::io::Write;
    match std::io::stdout().write_all(&out) {
        Ok(()) => OK,
        Err(e) => {
            eprintln!("error: cannot write the completions: {e}");
            USAGE
        }
    }
}
