//! Standard output and standard error for the commands' own text.
//!
//! Why not `println!`: it panics when a write fails (`dgcc explain E0404 > /dev/full`, a full
//! disk behind a redirection), which is exit 101 and a backtrace hint instead of an error.
//! Here a failed write is remembered and the command goes on (whatever it writes to files is
//! all-or-nothing on its own); [`finish`] then says once what failed and makes the exit code 2,
//! I/O. A reader that goes away (`dgcc … | head`) never gets here: `main` lets SIGPIPE end the
//! process quietly, as other Unix tools do.

use std::fmt::Arguments;
use std::io::Write;
use std::sync::Mutex;

/// The first failed write to each stream: standard output, standard error.
static FAILED: Mutex<[Option<String>; 2]> = Mutex::new([None, None]);

const OUT: usize = 0;
const ERR: usize = 1;

fn remember(stream: usize, e: std::io::Error) {
    let mut failed = FAILED.lock().unwrap_or_else(|p| p.into_inner());
    failed[stream].get_or_insert_with(|| e.to_string());
}

/// Write `args` (and a newline when `line`) to standard output in one piece.
pub fn write_out(args: Arguments<'_>, line: bool) {
    let mut o = std::io::stdout().lock();
    let result = o.write_fmt(args).and_then(|_| if line { o.write_all(b"\n") } else { Ok(()) });
    if let Err(e) = result {
        remember(OUT, e);
    }
}

/// Write `args` (and a newline when `line`) to standard error in one piece.
pub fn write_err(args: Arguments<'_>, line: bool) {
    let mut o = std::io::stderr().lock();
    let result = o.write_fmt(args).and_then(|_| if line { o.write_all(b"\n") } else { Ok(()) });
    if let Err(e) = result {
        remember(ERR, e);
    }
}

/// The exit code once everything is written: `code`, or 2 (I/O) when a write to either stream
/// failed, after one line on standard error saying which (if standard error still takes it).
pub fn finish(code: i32) -> i32 {
    if let Err(e) = std::io::stdout().lock().flush() {
        remember(OUT, e);
    }
    let failed = FAILED.lock().unwrap_or_else(|p| p.into_inner()).clone();
    match failed {
        [None, None] => code,
        [out, _] => {
            if let Some(e) = out {
                let _ = writeln!(std::io::stderr().lock(), "error: cannot write to standard output: {e}");
            }
            super::USAGE
        }
    }
}

/// `println!` whose failure [`finish`] reports instead of panicking.
macro_rules! outln {
    () => { $crate::cli::stdio::write_out(format_args!(""), true) };
    ($($arg:tt)*) => { $crate::cli::stdio::write_out(format_args!($($arg)*), true) };
}

/// `print!` whose failure [`finish`] reports instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::stdio::write_out(format_args!($($arg)*), false) };
}

/// `eprintln!` whose failure turns the exit code into 2 instead of panicking.
macro_rules! errln {
    () => { $crate::cli::stdio::write_err(format_args!(""), true) };
    ($($arg:tt)*) => { $crate::cli::stdio::write_err(format_args!($($arg)*), true) };
}

pub(crate) use {errln, out, outln};
