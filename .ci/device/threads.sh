#!/usr/bin/env bash
# Why: on NVIDIA's driver the runtime test binaries, run on four threads as `cargo test` runs
# them, hung in futex waits or aborted with a corrupted heap, where one test at a time passed.
# This runs `concurrent_instances` (crates/runtime/examples/concurrent_instances.rs) in each of
# its modes, one process each, so that the exit codes say which way of making and destroying
# instances and devices on four threads at once the driver survives: 0 finished, 3 a thread
# never finished (its last line says in which call each thread was), 134 glibc's abort on a
# corrupted heap, 139 a segfault. steps.log gets a line per run.
#
# Usage (on the GPU machine, after stage.sh here): bash .ci/device/threads.sh [REPEATS]
# (each unserialised mode REPEATS times, default 2: a race need not show every time).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
probe=$PWD/$staged/bin/concurrent_instances
repeats=${1:-2}

# NAME OPTIONS...: one process, at most 30 s.
mode() {
    local name=$1
    shift
    fits 35 || { echo "$name: no time left" | tee -a "$results/steps.log"; return; }
    step "$name" timeout 30 "$probe" --threads 4 --rounds 25 --seconds 20 "$@"
}

for r in $(seq "$repeats"); do
    mode "raw-$r" --path raw
    mode "raw-one-loader-$r" --path raw --shared-entry
done
mode raw-serialized --path raw --serialize
mode raw-serialized-one-loader --path raw --serialize --shared-entry
for r in $(seq "$repeats"); do
    mode "context-$r" --path context
done
pack
