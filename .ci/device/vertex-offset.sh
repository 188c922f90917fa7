#!/usr/bin/env bash
# Why: `--object-id vertex` (the object id in each draw's vertexOffset, read back through
# gl_VertexIndex) against the record (push constant or gl_DrawID) and firstInstance, on the
# GPU machine: the cubes at four sizes, the field at 100k and 1M, the city at 2560 × 1440, the
# execute's hump around 10,000 cubes, the pictures at 1M, and the validation layer on the new
# mode. book/src/measured/h100-vertex-offset.md holds what it measured.
#
# Usage (through the device tool, with out/device staged): bash .ci/device/vertex-offset.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

MODES=mdi,mdi-vertexoffset,dgc,dgc-vertexoffset,dgc-firstinstance,dgc-explicit-batch,dgc-explicit-batch-vertexoffset
step cubes dgcc bench examples/scene.ron --scene cubes --culling none --objects 1000,10000,100000,1000000 \
    --width 256 --height 256 --no-owners --modes "$MODES" --frames 20 --repeat 2 --copy-mib 0 --out cubes
step field dgcc bench examples/scene.ron --scene field --culling frustum --objects 100000,1000000 \
    --width 256 --height 256 --no-owners --modes "$MODES" --frames 20 --repeat 2 --copy-mib 0 --out field
step wide dgcc bench examples/scene.ron --objects 10000,100000 --width 2560 --height 1440 \
    --culling none,frustum --compaction ordered \
    --modes mdi,mdi-vertexoffset,dgc-explicit-batch,dgc-explicit-batch-vertexoffset \
    --frames 20 --repeat 3 --copy-mib 0 --no-owners --out wide
step hump dgcc bench examples/scene.ron --scene cubes --culling none --objects 4000,8000,10000,15000,20000 \
    --width 256 --height 256 --no-owners --modes mdi,dgc-explicit-batch,dgc-explicit-batch-vertexoffset \
    --frames 20 --repeat 2 --copy-mib 0 --out hump

# The last frame at 1M objects, each object-id source in each ordered mode: one picture per scene.
step pictures pictures object-id record vertex

export VK_LAYER_PATH=$PWD/${DGCC_STAGED:-out/device}/vvl VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation DGCC_VALIDATION=1
step vvl dgcc bench examples/scene.ron --scene field --objects 10000 --culling frustum,occlusion \
    --modes mdi-vertexoffset,dgc-vertexoffset,dgc-explicit-batch-vertexoffset --frames 3 --copy-mib 0 --no-owners --out vvl
pack
