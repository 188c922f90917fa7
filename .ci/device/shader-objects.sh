#!/usr/bin/env bash
# Why: drawing with shader objects bound instead of pipelines (`--bind shader-objects` with one
# material; a DGC execute names them in VkGeneratedCommandsShaderInfoEXT), against the same
# draws with pipelines, on the GPU machine: the cubes at four sizes, the pictures at 1M objects,
# the validation layer on the new modes, then the execute's hump around 10,000 cubes and the
# city at 2560 × 1440 (in that order, so that a call cut short keeps the first).
# book/src/measured/h100-shader-objects-bound.md holds what it measured.
#
# Usage (through the device tool, with out/device staged): bash .ci/device/shader-objects.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

BATCH=mdi,mdi-objects,dgc-explicit-batch,dgc-explicit-batch-objects
VERTEX=mdi-vertexoffset,mdi-vertexoffset-objects,dgc-explicit-batch-vertexoffset,dgc-explicit-batch-vertexoffset-objects
step cubes dgcc bench examples/scene.ron --scene cubes --culling none --objects 1000,10000,100000,1000000 \
    --width 256 --height 256 --no-owners --modes "$BATCH,$VERTEX,dgc,dgc-objects" --frames 20 --repeat 2 \
    --copy-mib 0 --out cubes

# The last frame at 1M objects in each ordered mode, with pipelines and with shader objects:
# one picture per scene.
step pictures pictures bind pipelines shader-objects

export VK_LAYER_PATH=$PWD/${DGCC_STAGED:-out/device}/vvl VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation DGCC_VALIDATION=1
step vvl dgcc bench examples/scene.ron --scene field --objects 10000 --culling frustum,occlusion \
    --modes mdi-objects,dgc-objects,dgc-explicit-batch-objects,dgc-explicit-batch-vertexoffset-objects \
    --frames 3 --copy-mib 0 --no-owners --out vvl
unset VK_LAYER_PATH VK_INSTANCE_LAYERS DGCC_VALIDATION

step hump dgcc bench examples/scene.ron --scene cubes --culling none --objects 4000,8000,10000,15000,20000 \
    --width 256 --height 256 --no-owners --modes "$BATCH" --frames 20 --repeat 2 --copy-mib 0 --out hump
step wide dgcc bench examples/scene.ron --objects 10000,100000 --width 2560 --height 1440 \
    --culling none,frustum --compaction ordered --modes "$BATCH" --frames 20 --repeat 2 --copy-mib 0 \
    --no-owners --out wide
pack
