#!/usr/bin/env bash
# Why: on NVIDIA's driver the runtime test binaries, run on four threads as `cargo test` runs
# them, hung in futex waits or aborted with a corrupted heap, where one test at a time passed.
# This runs `concurrent_instances` (crates/runtime/examples/concurrent_instances.rs) in each of
# its modes, one process each, so that the exit codes say which way of making and destroying
# instances and devices on four threads at once the driver survives: 0 finished, 3 a thread
# never finished (its last line says in which call each thread was), 134 glibc's abort on a
# corrupted heap, 139 a segfault. steps.log gets a line per run.
#
# Usage (on the GPU machine, after stage.sh here): bash .ci/device/threads.sh [REPEATS] [debug]
# (each unserialised mode REPEATS times, default 2: a race need not show every time; with
# `debug`, each run under the debugger, which prints every thread's stack at a crash or a hang).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
probe=$PWD/$staged/bin/concurrent_instances
repeats=${1:-2}
under_debugger=${2:-}
[ -z "$under_debugger" ] || [ "$under_debugger" = debug ] || { echo "usage: threads.sh [REPEATS] [debug]" >&2; exit 2; }

# NAME OPTIONS...: one process, at most 30 s (40 s under the debugger).
mode() {
    local name=$1
    shift
    fits 45 || { echo "$name: no time left" | tee -a "$results/steps.log"; return; }
    if [ -n "$under_debugger" ]; then
        debug_step "$name-debug" 40 "$probe" --threads 4 --rounds 25 --seconds 20 "$@"
    else
        step "$name" timeout 30 "$probe" --threads 4 --rounds 25 --seconds 20 "$@"
    fi
}

# The ways that crashed or hung on NVIDIA first (a loader per round, no lock; one loader, no
# lock; a thread per round, as `cargo test` runs tests), then each with an instance kept (the
# driver never unloaded), serialized, and the runtime's own way.
for r in $(seq "$repeats"); do
    mode "raw-$r" --path raw
    mode "raw-one-loader-$r" --path raw --shared-entry
    mode "raw-one-loader-thread-per-round-$r" --path raw --shared-entry --thread-per-round
    mode "raw-one-loader-kept-instance-$r" --path raw --shared-entry --keep-instance
    mode "raw-one-loader-kept-instance-thread-per-round-$r" --path raw --shared-entry --keep-instance \
        --thread-per-round
    mode "context-$r" --path context
    mode "context-thread-per-round-$r" --path context --thread-per-round
done
mode raw-kept-instance --path raw --keep-instance
mode raw-serialized --path raw --serialize
mode raw-serialized-one-loader --path raw --serialize --shared-entry
mode raw-serialized-one-loader-kept-instance --path raw --serialize --shared-entry --keep-instance
pack
