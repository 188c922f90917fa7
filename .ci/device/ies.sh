#!/usr/bin/env bash
# Why: executing a compute layout through an execution set of pipelines crashed NVIDIA's driver
# (a segfault, no layer message). This runs `ies_probe` (crates/runtime/examples/ies_probe/)
# over the shapes around `examples/execution_set.ron`'s `Kernels`, and the same shapes with
# draws through a set of graphics pipelines (draws.ron), one process each, so that
# the exit codes and each run's last `step:` line say which shape and which call crash.
# steps.log gets a line per run: its exit code and the last call it reached.
#
# Usage (on the GPU machine, after stage.sh here): bash .ci/device/ies.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
probe=$PWD/$staged/bin/ies_probe
manifest=$results/ies_probe.dgc.json
dgcc compile crates/runtime/examples/ies_probe/layouts.ron --emit json --out-dir "$results" >/dev/null

# NAME LAYOUT [OPTIONS...]
shape() {
    local name=$1 layout=$2
    shift 2
    # A hang (the fence never signals) is cut at 15 s: exit code 124.
    step "ies-$name" timeout 15 "$probe" --manifest "$manifest" --layout "$layout" "$@"
    echo "   last: $(grep '^step:' "$results/ies-$name.stderr" | tail -n 1)" | tee -a "$results/steps.log"
}

shape noset NoSet
shape shaders Shaders
shape kernels Kernels
shape two Two
shape bare Bare
shape preprocessed Preprocessed
shape preprocessed-apart Preprocessed --separate-preprocess
shape indexed Indexed
shape one-entry Two --entries 1
shape filled Two --fill cycle
shape count Two --count
shape chained Two --chain-pipeline
shape bind-other Two --bind other
shape bind-none Two --bind none
shape one-sequence Two --sequences 1
shape empty Two --empty-dispatch
shape kernels-16 Kernels --entries 16
# The same pipeline in several entries: cycled, or the initial one in every entry past those
# selected (written after them), with entry 0 written again last or not, selected at the
# first, a middle or the last entry that holds it.
shape cycled Kernels --fill cycle
shape initial-filled Kernels --fill initial
shape initial-filled-zero-last Kernels --fill initial --rewrite-zero
shape initial-filled-select-last Kernels --fill initial --select 15,1
shape initial-filled-select-middle Kernels --fill initial --select 7,1
shape twice Two --entries 1 --fill initial
shape twice-select-last Two --entries 1 --fill initial --select 1
shape twice-zero-last Two --entries 1 --fill initial --rewrite-zero
shape shaders-16 Shaders16
shape shaders-initial-filled Shaders16 --fill initial
shape shaders-initial-filled-zero-last Shaders16 --fill initial --rewrite-zero
shape shaders-one Shaders --entries 1
shape shaders-twice Shaders --entries 1 --fill initial
shape shaders-twice-select-last Shaders --entries 1 --fill initial --select 1
# The same questions for graphics pipelines (draws.rs): a set with entries never written, one
# pipeline in two entries selected at the entry written first, a middle one or the last, and
# the controls.
manifest=$results/ies_draws.dgc.json
dgcc compile crates/runtime/examples/ies_probe/draws.ron --emit json --out-dir "$results" >/dev/null
shape draws-noset DrawsNoSet
shape draws-two DrawsTwo
shape draws-many Draws --entries 16 --sequences 16
shape draws-unwritten Draws
shape draws-one-entry DrawsTwo --entries 1
shape draws-filled Draws --fill initial
shape draws-filled-zero-last Draws --fill initial --rewrite-zero
shape draws-filled-select-last Draws --fill initial --select 15,1
shape draws-filled-select-middle Draws --fill initial --select 7,1
shape draws-cycled Draws --fill cycle --sequences 16 --select 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
shape draws-twice DrawsTwo --entries 1 --fill initial
shape draws-twice-select-last DrawsTwo --entries 1 --fill initial --select 1
shape draws-preprocessed DrawsPreprocessed --fill initial
shape draws-bind-other Draws --entries 4 --fill cycle --bind other
# Under the validation layer: a clean shape and the one the driver may run wrong.
(
    export VK_LAYER_PATH=$PWD/$staged/vvl VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation DGCC_VALIDATION=1
    shape draws-vvl-zero-last Draws --fill initial --rewrite-zero
    shape draws-vvl-filled Draws --fill initial
)
# dgcc's own run of the example, through the runtime's execution set (every entry written).
step run-kernels timeout 30 dgcc run examples/execution_set.ron --layout Kernels
step run-kernels-corrupt timeout 30 dgcc run examples/execution_set.ron --layout Kernels --corrupt-sequence 2
pack
