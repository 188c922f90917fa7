//! Creating and destroying Vulkan instances and devices on several threads at once, to tell a
//! driver's race from the runtime's.
//!
//! Why it exists: on NVIDIA's driver 580.159.04 (an H100) the runtime test binaries run on four
//! threads, as `cargo test` runs them, each test making a context of its own, hung with every
//! thread in a futex wait, or aborted in glibc ("corrupted size vs. prev_size in fastbins"),
//! where one test at a time every test passed (book: robustness.md). This program does what
//! those tests do, in rounds on `--threads` threads that start together:
//!
//! - `--path raw`: ash alone. A round loads the loader library (or, with `--shared-entry`, uses
//!   one loaded before the threads start), creates an instance, enumerates the physical devices,
//!   creates a device with one queue on the first, and destroys the device and the instance.
//!   `--serialize` holds one process-wide lock around each create and destroy.
//! - `--path context`: the runtime's own way, a headless `GpuContext` and then `probe()`, the
//!   pair each runtime test makes.
//!
//! Each thread says which call it is in; if the threads have not finished after `--seconds`,
//! the program prints where each one is and exits with code 3. A heap corruption ends it with
//! glibc's abort (134). Run each mode in a process of its own (`.ci/device/threads.sh`):
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
const STAGES: [&str; 9] = [
    "starting",
    "loading the loader",
    "vkCreateInstance",
    "vkEnumeratePhysicalDevices",
    "vkCreateDevice",
    "vkDestroyDevice",
    "vkDestroyInstance",
    "GpuContext::new, probe() and drop",
    "finished",
];
const LOADING: usize = 1;
const CREATING_INSTANCE: usize = 2;
const ENUMERATING: usize = 3;
const CREATING_DEVICE: usize = 4;
const DESTROYING_DEVICE: usize = 5;
const DESTROYING_INSTANCE: usize = 6;
const THROUGH_THE_RUNTIME: usize = 7;
const FINISHED: usize = 8;

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
    seconds: u64,
}

fn parse() -> Result<Args, String> {
    let mut a = Args { path: Path::Raw, threads: 4, rounds: 25, serialize: false, shared_entry: false, seconds: 60 };
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
            other => {
                return Err(format!(
                    "unknown option {other} (--path, --threads, --rounds, --seconds, --serialize, --shared-entry)"
                ))
            }
        }
    }
    if a.path == Path::Context && (a.serialize || a.shared_entry) {
        return Err("--serialize and --shared-entry are for --path raw: the runtime decides both itself".into());
    }
    Ok(a)
}

/// One thread's rounds of the raw path. `stage` is this thread's slot.
fn raw_rounds(args: &Args, shared: Option<&ash::Entry>, lock: &Mutex<()>, stage: &AtomicUsize) -> Result<(), String> {
    let serial = || args.serialize.then(|| lock.lock().unwrap_or_else(|e| e.into_inner()));
    for _ in 0..args.rounds {
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
    }
    Ok(())
}

/// One thread's rounds of the runtime's path.
fn context_rounds(args: &Args, stage: &AtomicUsize) -> Result<(), String> {
    for _ in 0..args.rounds {
        stage.store(THROUGH_THE_RUNTIME, Ordering::SeqCst);
        let options = ContextOptions { require_dgc: false, ..Default::default() };
        let ctx = GpuContext::new(&options).map_err(|e| format!("GpuContext::new: {e}"))?;
        dgcc_runtime::probe().map_err(|e| format!("probe: {e}"))?;
        drop(ctx);
    }
    Ok(())
}

fn main() {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("concurrent_instances: {e}");
            std::process::exit(2);
        }
    };
    let shared = if args.shared_entry {
        // SAFETY: loading the system's Vulkan loader, kept until the end of `main`.
        match unsafe { ash::Entry::load() } {
            Ok(e) => Some(e),
            Err(e) => {
                eprintln!("concurrent_instances: loading the loader: {e}");
                std::process::exit(2);
            }
        }
    } else {
        None
    };
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
                    Path::Raw => raw_rounds(args, shared, lock, stage),
                    Path::Context => context_rounds(args, stage),
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
                    std::process::exit(3);
                }
            }
        }
        failed
    });
    if failed {
        std::process::exit(1);
    }
    println!(
        "finished: {} threads x {} rounds ({}) in {:.1} s",
        args.threads,
        args.rounds,
        match args.path {
            Path::Raw => format!(
                "raw, {}, {}",
                if args.serialize { "serialized" } else { "not serialized" },
                if args.shared_entry { "one loader" } else { "a loader per round" }
            ),
            Path::Context => "GpuContext::new and probe".to_string(),
        },
        began.elapsed().as_secs_f64()
    );
}
