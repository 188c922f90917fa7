#!/usr/bin/env bash
# Why: CI runs the runtime test binaries on lavapipe only; this runs the same binaries on the
# GPU machine's driver, without the validation layer and then under it, one test at a time, so
# that a test that hangs costs its own limit and names itself (a run of a whole binary on four
# threads once sat out a call's 570 s there without saying which test waited). Tests that need
# lavapipe say SKIP and why; steps.log gets a line per test with its exit status and seconds.
# `parallel` runs each binary whole on four threads instead, as `cargo test` would, with the
# processes it started listed every 10 s (processes.log), to name what waits when one does.
# `debug` runs each binary on four threads under the debugger (common.sh), which prints every
# thread's stack where one crashes or waits past 120 s. Both may be named more than once.
#
# The binaries (stage.sh packs them) name the checkout they were built from and the dgcc built
# beside them by absolute path; both are pointed here, at this copy of the tree and the staged
# dgcc.
#
# Usage (on the GPU machine, after stage.sh here): bash .ci/device/tests.sh [plain|layer|parallel|debug]...
# (plain and layer, in that order, by default). DGCC_DEVICE_TESTS, an extended regular
# expression, keeps plain and layer to the tests whose names it matches.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
[ -f "$staged/tests.tar.xz" ] || { echo "no tests.tar.xz in $staged: stage again" >&2; exit 2; }
bin=$(mktemp -d)
tar xJf "$staged/tests.tar.xz" -C "$bin"
checkout=$(cat "$staged/checkout")
if [ "$(cd "$checkout" 2>/dev/null && pwd -P)" != "$(pwd -P)" ]; then
    mkdir -p "$(dirname "$checkout")" && rm -rf "$checkout" && ln -sfn "$PWD" "$checkout"
fi
dgcc_path=$(cat "$staged/dgcc-path")
mkdir -p "$(dirname "$dgcc_path")" && cp "$staged/bin/dgcc" "$dgcc_path" && chmod +x "$dgcc_path"
export DGCC_REQUIRE_VULKAN=1 DGCC_REPO=$PWD
only=${DGCC_DEVICE_TESTS:-.}

# The processes a test started, as processes.log lists them: the test binaries (some run a
# test of their own in a child) and the dgcc they spawn.
processes() {
    ps -eo pid,ppid,etimes,stat,wchan:32,args --sort=etimes | grep -F -e "$bin/" -e "$dgcc_path" | grep -v grep
}

# PID...: where each thread of each process waits: its system call (number and arguments, from
# /proc) and its kernel stack, where the machine lets root read it, and then, where there is a
# debugger, each thread's own stack. A futex is a lock or a condition in the process itself; an
# ioctl or a poll on the driver's device file is the GPU.
stacks() {
    local pid task
    for pid in "$@"; do
        for task in /proc/"$pid"/task/*; do
            [ -d "$task" ] || continue
            echo "-- $pid/${task##*/} $(cat "$task/comm" 2>/dev/null) wchan=$(cat "$task/wchan" 2>/dev/null) syscall=$(cat "$task/syscall" 2>/dev/null)"
            sed 's/^/   /' "$task/stack" 2>/dev/null
        done
        [ -z "$debugger" ] || timeout -k 5 30 "$debugger" -q -batch -nx -ex "set pagination off" -p "$pid" \
            -ex "thread apply all bt 40" -ex detach 2>&1 | grep -v -e '^\[New Thread' -e '^\[New LWP'
    done
}

# NAME: after a step, whatever it started that outlived it (`timeout` stops only the test
# binary, not the dgcc or the child test it spawned), listed and then killed, so that it cannot
# hold the GPU during the next step.
reap() {
    local left
    left=$(processes) || return 0
    { echo "== left behind by $1 $(date -u +%T)"; echo "$left"; stacks $(echo "$left" | awk '{print $1}'); } \
        >> "$results/processes.log"
    echo "$left" | awk '{print $1}' | xargs -r kill -KILL 2>/dev/null
    echo "killed $(echo "$left" | wc -l) process(es) left behind (processes.log)" >> "$results/steps.log"
}

# The test binaries stage.sh packs; run_layout, the one that once waited, first.
binaries=(run_layout runtime_exec runtime_examples runtime_validate runtime_scene runtime_occlusion runtime_materials bench_scene)

# NAME BINARY TEST: one test, at most 60 s.
one() {
    local name=$1 binary=$2 test=$3
    fits 20 || { echo "$name $test: no time left" | tee -a "$results/steps.log"; return; }
    step "$name.$test" timeout 60 "$bin/$binary" --exact "$test" --test-threads=1 --nocapture
    reap "$name.$test"
}

every_test() {
    local suffix=$1 binary test
    for binary in "${binaries[@]}"; do
        for test in $("$bin/$binary" --list 2>/dev/null | sed -n 's/: test$//p' | grep -E -e "$only"); do
            one "$binary$suffix" "$binary" "$test"
        done
    done
}

# Every binary on four threads, at most 120 s each, the processes listed every 10 s; NTH numbers
# the pass.
parallel() {
    local nth=$1 binary watcher
    for binary in "${binaries[@]}"; do
        fits 130 || { echo "$binary parallel: no time left" | tee -a "$results/steps.log"; return; }
        (while sleep 10; do
            echo "== $binary $(date -u +%T)"
            processes
            # Those waiting longer than 30 s: where their threads wait.
            stacks $(processes | awk '$3 > 30 {print $1}')
        done) >> "$results/processes.log" 2>&1 &
        watcher=$!
        step "$binary-parallel-$nth" timeout 120 "$bin/$binary" --test-threads=4
        kill "$watcher" 2>/dev/null
        reap "$binary-parallel-$nth"
    done
}

# Every binary on four threads under the debugger, at most 120 s each; NTH numbers the pass.
debug() {
    local nth=$1 binary
    for binary in "${binaries[@]}"; do
        fits 160 || { echo "$binary debug: no time left" | tee -a "$results/steps.log"; return; }
        debug_step "$binary-debug-$nth" 120 "$bin/$binary" --test-threads=4
        reap "$binary-debug-$nth"
    done
}

parallels=0
debugs=0
for pass in "${@:-plain layer}"; do
    for p in $pass; do
        case $p in
            plain) every_test "" ;;
            layer) (
                export VK_LAYER_PATH=$PWD/$staged/vvl VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation DGCC_VALIDATION=1
                every_test "-layer"
            ) ;;
            parallel) parallels=$((parallels + 1)) && parallel "$parallels" ;;
            debug) debugs=$((debugs + 1)) && debug "$debugs" ;;
            *) echo "unknown pass $p (plain, layer, parallel, debug)" >&2; exit 2 ;;
        esac
    done
done
# The totals: tests that passed, skipped (said why) and failed.
grep -h "^test result" "$results"/*.stdout | awk '{p += $4; f += $6} END {print "passed", p, "failed", f}' \
    >> "$results/steps.log"
echo "skipped $(cat "$results"/*.stderr | grep -c '^SKIP')" >> "$results/steps.log"
pack
