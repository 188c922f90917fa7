//! The `dgcc` command line. Parsing arguments and choosing exit codes happens here; the work is
//! in the library (`dgcc::driver`, `dgcc::emit`, `dgcc::runtime`). Exit codes (contract §2):
//! 0 success, 1 the input has errors (or the device cannot run it), 2 usage or I/O.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
