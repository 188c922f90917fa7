//! Creating and destroying Vulkan instances and devices on several threads at once, to tell a
//! driver's race from the runtime's.
//!
//! Why it exists: on NVIDIA's driver 580.159.04 (an H100) the runtime test binaries run on four
//! threads, as `cargo test` runs them, each test making a context of its own, hung with every
//! thread in a futex wait, or crashed, where one test at a time every test passed. Run under a
//! debugger, this program showed why (book: robustness.md): the driver frees each thread's state
//! when the thread exits, and once the last instance is destroyed the loader unloads the
//! driver, so a thread that exits then jumps into unloaded code; a thread exiting while another
//! destroys a device can also deadlock with it. This program does what those tests do, in
//! rounds on `--threads` threads that start together:
//!
//! - `--path raw`: ash alone. A round loads the loader library (or, with `--shared-entry`, uses
//!   one loaded before the threads start), creates an instance, enumerates the physical devices,
//!   creates a device with one queue on the first, and destroys the device and the instance.
//!   `--serialize` holds one process-wide lock around each create and destroy;
//!   `--keep-instance` makes a bare instance before the threads start and keeps it to the end,
//!   so that the loader never unloads the driver between rounds.
//! - `--path context`: the runtime's own way, a headless `GpuContext` and then `probe()`, the
//!   pair each runtime test makes.
//!
//! With `--thread-per-round`, each round runs on a thread of its own that ends with the round,
//! as `cargo test` runs each test: the driver frees a thread's state when the thread exits.
//!
//! Each thread says which call it is in; if the threads have not finished after `--seconds`,
//! the program prints where each one is, calls `dgcc_threads_hung` (a place for a debugger to
//! stop) and exits with code 3. A heap corruption ends it with glibc's abort (134), a jump into
//! unloaded code with a segfault (139). Run each mode in a process of its own
//! (`.ci/device/threads.sh`):
//!
//! ```text
//! cargo run --release -p dgcc-runtime --features headless --example concurrent_instances -- \
//!     --path raw --threads 4 --rounds 25
//! ```

use ash::vk;
use dgcc_runtime::{ContextOptions, GpuContext};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Barrier, Mutex};
use std::time::{Duration, Instant};

/// What a thread is doing: an index into `STAGES`, named by the constants below it.
const STAGES: [&str; 11] = [
    "starting",
    "loading the loader",
    "vkCreateInstance",
    "vkEnumeratePhysicalDevices",
    "vkCreateDevice",
    "vkDestroyDevice",
    "vkDestroyInstance",
    "GpuContext::new",
    "probe()",
    "dropping the GpuContext",
    "finished",
];
const LOADING: usize = 1;
const CREATING_INSTANCE: usize = 2;
const ENUMERATING: usize = 3;
const CREATING_DEVICE: usize = 4;
const DESTROYING_DEVICE: usize = 5;
const DESTROYING_INSTANCE: usize = 6;
const MAKING_A_CONTEXT: usize = 7;
const PROBING: usize = 8;
const DROPPING_THE_CONTEXT: usize = 9;
const FINISHED: usize = 10;

#[derive(Clone, Copy, PartialEq)]
enum Path {
    Raw,
    Context,
}

struct Args {
    path: Path,
    threads: usize,
    rounds: usize,
    serialize: bool,
    shared_entry: bool,
    keep_instance: bool,
    thread_per_round: bool,
    seconds: u64,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        path: Path::Raw,
        threads: 4,
        rounds: 25,
        serialize: false,
        shared_entry: false,
        keep_instance: false,
        thread_per_round: false,
        seconds: 60,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--path" => {
                a.path = match value()?.as_str() {
                    "raw" => Path::Raw,
                    "context" => Path::Context,
                    other => return Err(format!("--path {other}: raw or context")),
                }
            }
            "--threads" => a.threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?,
            "--rounds" => a.rounds = value()?.parse().map_err(|e| format!("--rounds: {e}"))?,
            "--seconds" => a.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--serialize" => a.serialize = true,
            "--shared-entry" => a.shared_entry = true,
            "--keep-instance" => a.keep_instance = true,
            "--thread-per-round" => a.thread_per_round = true,
            other => {
                return Err(format!(
                    "unknown option {other} (--path, --threads, --rounds, --seconds, --serialize, --shared-entry, \
                     --keep-instance, --thread-per-round)"
                ))
            }
        }
    }
    if a.path == Path::Context && (a.serialize || a.shared_entry || a.keep_instance) {
        return Err(
            "--serialize, --shared-entry and --keep-instance are for --path raw: the runtime decides them itself"
                .into(),
        );
    }
    Ok(a)
}

/// One thread's rounds, each on that thread or, with `--thread-per-round`, on a thread of its
/// own that ends with the round (as `cargo test` runs each test on a thread of its own).
fn rounds(args: &Args, round: impl Fn() -> Result<(), String> + Sync) -> Result<(), String> {
    for _ in 0..args.rounds {
        if args.thread_per_round {
            std::thread::scope(|s| s.spawn(&round).join()).map_err(|_| "a round panicked".to_string())??;
        } else {
            round()?;
        }
    }
    Ok(())
}

/// One round of the raw path. `stage` is this thread's slot.
fn raw_round(args: &Args, shared: Option<&ash::Entry>, lock: &Mutex<()>, stage: &AtomicUsize) -> Result<(), String> {
    let serial = || args.serialize.then(|| lock.lock().unwrap_or_else(|e| e.into_inner()));
    stage.store(LOADING, Ordering::SeqCst);
    let entry = match shared {
        Some(e) => e.clone(),
        // SAFETY: loading the system's Vulkan loader.
        None => unsafe { ash::Entry::load() }.map_err(|e| format!("loading the loader: {e}"))?,
    };
    stage.store(CREATING_INSTANCE, Ordering::SeqCst);
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
    let info = vk::InstanceCreateInfo::default().application_info(&app);
    let instance = {
        let _s = serial();
        // SAFETY: a valid create info.
        unsafe { entry.create_instance(&info, None) }.map_err(|r| format!("vkCreateInstance: {r}"))?
    };
    stage.store(ENUMERATING, Ordering::SeqCst);
    // SAFETY: a live instance.
    let physical = unsafe { instance.enumerate_physical_devices() }.map_err(|r| format!("enumerating: {r}"))?;
    let Some(&pd) = physical.first() else { return Err("no physical device".into()) };
    stage.store(CREATING_DEVICE, Ordering::SeqCst);
    let priorities = [1.0];
    let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&priorities)];
    let device_info = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
    let device = {
        let _s = serial();
        // SAFETY: `pd` is from `instance`; family 0 exists on every device.
        unsafe { instance.create_device(pd, &device_info, None) }.map_err(|r| format!("vkCreateDevice: {r}"))?
    };
    stage.store(DESTROYING_DEVICE, Ordering::SeqCst);
    {
        let _s = serial();
        // SAFETY: the device owns nothing and nothing else uses it.
        unsafe { device.destroy_device(None) };
    }
    stage.store(DESTROYING_INSTANCE, Ordering::SeqCst);
    {
        let _s = serial();
        // SAFETY: nothing made from the instance is left.
        unsafe { instance.destroy_instance(None) };
    }
    Ok(())
}

/// A loader and a bare instance of its own, for `--keep-instance`.
fn keep_one_instance() -> Result<(ash::Entry, ash::Instance), String> {
    // SAFETY: loading the system's Vulkan loader; the caller keeps it as long as the instance.
    let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("loading the loader: {e}"))?;
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
    let info = vk::InstanceCreateInfo::default().application_info(&app);
    // SAFETY: a valid create info.
    let instance = unsafe { entry.create_instance(&info, None) }.map_err(|r| format!("vkCreateInstance: {r}"))?;
    Ok((entry, instance))
}

/// One round of the runtime's path.
fn context_round(stage: &AtomicUsize) -> Result<(), String> {
    stage.store(MAKING_A_CONTEXT, Ordering::SeqCst);
    let options = ContextOptions { require_dgc: false, ..Default::default() };
    let ctx = GpuContext::new(&options).map_err(|e| format!("GpuContext::new: {e}"))?;
    stage.store(PROBING, Ordering::SeqCst);
    dgcc_runtime::probe().map_err(|e| format!("probe: {e}"))?;
    stage.store(DROPPING_THE_CONTEXT, Ordering::SeqCst);
    drop(ctx);
    Ok(())
}

/// Called when the threads have not finished, before the process ends: a debugger that runs
/// this program stops here (`break dgcc_threads_hung`) with every thread where it waits
/// (`.ci/device/threads.sh` does that where the machine has one).
#[no_mangle]
#[inline(never)]
pub extern "C" fn dgcc_threads_hung() {
    std::hint::black_box(());
}

/// The value, or the process ends with `what` and the error (exit code 1).
fn or_exit<T, E: std::fmt::Display>(result: Result<T, E>, what: &str) -> T {
    result.unwrap_or_else(|e| {
        eprintln!("concurrent_instances: {what}: {e}");
        std::process::exit(1)
    })
}

fn main() {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("concurrent_instances: {e}");
            std::process::exit(2);
        }
    };
    // SAFETY: loading the system's Vulkan loader, kept until the end of `main`.
    let shared = args.shared_entry.then(|| or_exit(unsafe { ash::Entry::load() }, "loading the loader"));
    // Held to the end of `main` and never destroyed: the process ends with it.
    let _kept = args.keep_instance.then(|| or_exit(keep_one_instance(), "the kept instance"));
    let stages: Vec<AtomicUsize> = (0..args.threads).map(|_| AtomicUsize::new(0)).collect();
    let lock = Mutex::new(());
    let start = Barrier::new(args.threads);
    let (done, finished) = mpsc::channel();
    let began = Instant::now();
    // Scoped threads borrow what they share; a hang ends the process from inside the scope
    // (exit code 3), so the scope never waits for a thread that cannot finish.
    let failed = std::thread::scope(|s| {
        for (t, stage) in stages.iter().enumerate() {
            let (args, shared, lock, start, done) = (&args, shared.as_ref(), &lock, &start, done.clone());
            s.spawn(move || {
                start.wait();
                let result = match args.path {
                    Path::Raw => rounds(args, || raw_round(args, shared, lock, stage)),
                    Path::Context => rounds(args, || context_round(stage)),
                };
                stage.store(FINISHED, Ordering::SeqCst);
                let _ = done.send((t, result));
            });
        }
        let deadline = began + Duration::from_secs(args.seconds);
        let mut failed = false;
        for _ in 0..args.threads {
            match finished.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok((_, Ok(()))) => {}
                Ok((t, Err(e))) => {
                    eprintln!("thread {t}: {e}");
                    failed = true;
                }
                Err(_) => {
                    let at: Vec<String> = stages
                        .iter()
                        .enumerate()
                        .map(|(t, s)| format!("thread {t}: {}", STAGES[s.load(Ordering::SeqCst)]))
                        .collect();
                    eprintln!("not finished after {} s: {}", args.seconds, at.join("; "));
                    dgcc_threads_hung();
                    // Not `exit`: it runs the handlers the driver registered, and on NVIDIA
                    // one of them waited on what the stuck thread holds (the process sat out
                    // its 30 s limit after printing the line above).
                    // SAFETY: ends the process at once; nothing is left to flush (stderr is
                    // unbuffered and nothing was printed to stdout).
                    unsafe { libc::_exit(3) };
                }
            }
        }
        failed
    });
    if failed {
        std::process::exit(1);
    }
    println!(
        "finished: {} threads x {} rounds ({}{}) in {:.1} s",
        args.threads,
        args.rounds,
        match args.path {
            Path::Raw => format!(
                "raw, {}, {}{}",
                if args.serialize { "serialized" } else { "not serialized" },
                if args.shared_entry { "one loader" } else { "a loader per round" },
                if args.keep_instance { ", an instance kept" } else { "" }
            ),
            Path::Context => "GpuContext::new and probe".to_string(),
        },
        if args.thread_per_round { ", a thread per round" } else { "" },
        began.elapsed().as_secs_f64()
    );
}
