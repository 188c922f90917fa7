//! The `dgcc` command line. Parsing arguments and choosing exit codes happens here; the work is
//! in the library (`dgcc::driver`, `dgcc::emit`, `dgcc::runtime`). Exit codes (the book's "For tools: JSON
//! diagnostics and exit codes"):
//! 0 success, 1 the input has errors (or the device cannot run it), 2 usage or I/O.

mod cli;

fn main() {
    // Behave like other Unix tools when the reader of our output goes away (`dgcc … | head`):
    // end quietly instead of panicking on a broken pipe.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(cli::main());
}
