#!/usr/bin/env bash
# Why: what CI shows on lavapipe, shown on the GPU machine's driver: every example layout and
# the rig's own shapes (tests/run_layout/) run and checked by `dgcc run --layout` (five times
# with a sequence written wrong on purpose, which the report must name), then the same layouts
# and the bench's scenes under
# VK_LAYER_KHRONOS_validation (DGCC_VALIDATION=1: a missing layer is an error, a message a
# failure). steps.log ends with the files that hold a validation message, if any.
#
# Usage (on the GPU machine, after stage.sh here): bash .ci/device/validation.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

layouts=("examples/compute.ron Jobs" "examples/execution_set.ron Kernels" "examples/scene.ron SceneDraw"
    "examples/scene.ron SceneDrawShaders" "examples/scene.ron SceneBatch" "examples/multi_draw.ron Batches"
    "examples/mesh.ron Meshlets" "examples/draw_shaders.ron Draws"
    # The rig's other shapes (tests/run_layout.rs runs them on lavapipe): draws that push nothing
    # (slots from firstInstance), vertex buffers (one to sixteen), and draws whose pushed words are
    # read back (words at any offset, several tokens, other types, sequence indices, stages, more
    # vertex-stage words than one execution carries, and words for the tessellation and geometry
    # stages, read there).
    "tests/run_layout/unpushed.ron Indexed" "tests/run_layout/unpushed.ron IndexedAlone"
    "tests/run_layout/unpushed.ron PlainAlone" "tests/run_layout/unpushed.ron IndexedCount"
    "tests/run_layout/unpushed.ron PlainCount" "tests/run_layout/unpushed.ron Materials"
    "tests/run_layout/vertices.ron Positions" "tests/run_layout/vertices.ron PlainPositions"
    "tests/run_layout/vertices.ron Objects" "tests/run_layout/vertices.ron PositionsCount"
    "tests/run_layout/vertices.ron SetPositions" "tests/run_layout/vertices.ron Streams"
    "tests/run_layout/vertices.ron StreamsCount" "tests/run_layout/vertices.ron SixStreams"
    "tests/run_layout/vertices.ron SixStreamsCount" "tests/run_layout/vertices.ron FifteenStreams"
    "tests/run_layout/sixteen_streams.ron SixteenStreams" "tests/run_layout/own.ron FiveBindings"
    "tests/run_layout/pushed.ron Fields" "tests/run_layout/pushed.ron FieldsCount"
    "tests/run_layout/pushed.ron Plain" "tests/run_layout/pushed.ron SequenceOnly"
    "tests/run_layout/pushed.ron FragmentOnly" "tests/run_layout/pushed.ron SetFields"
    "tests/run_layout/wide.ron Wide" "tests/run_layout/wide.ron WideBoth"
    "tests/run_layout/between.ron Geometry" "tests/run_layout/between.ron GeometryWide"
    "tests/run_layout/between.ron Tessellation" "tests/run_layout/between.ron EveryStage")
every_layout() {
    local status=0 pair
    for pair in "${layouts[@]}"; do
        set -- $pair
        echo "-- $1 $2"
        dgcc run "$1" --layout "$2" || { echo "FAILED $1 $2"; status=1; }
    done
    return $status
}

step layouts every_layout
step corrupt-compute dgcc run examples/compute.ron --layout Jobs --corrupt-sequence 2
step corrupt-scene dgcc run examples/scene.ron --layout SceneDraw --corrupt-sequence 2
step corrupt-unpushed dgcc run tests/run_layout/unpushed.ron --layout Indexed --corrupt-sequence 2
step corrupt-vertices dgcc run tests/run_layout/vertices.ron --layout Positions --corrupt-sequence 2
step corrupt-pushed dgcc run tests/run_layout/pushed.ron --layout Fields --corrupt-sequence 2

export VK_LAYER_PATH=$PWD/${DGCC_STAGED:-out/device}/vvl VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation DGCC_VALIDATION=1
step vvl-layouts every_layout
step vvl-city dgcc bench examples/scene.ron --objects 10000 --culling none,frustum,occlusion --modes mdi,dgc,dgc-batch \
    --frames 3 --copy-mib 0 --no-owners --out vvl-city
step vvl-field dgcc bench examples/scene.ron --scene field --objects 100000 --culling frustum,occlusion \
    --compaction ordered --modes mdi,dgc --frames 3 --copy-mib 0 --no-owners --out vvl-field
step vvl-materials dgcc bench examples/scene.ron --objects 10000 --materials 4 --modes mdi,dgc-set,dgc-sorted,dgc-binned \
    --frames 3 --copy-mib 0 --no-owners --out vvl-materials
pack
