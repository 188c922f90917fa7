#!/bin/sh
# Compiles every shader of the runtime to SPIR-V 1.5 (Vulkan 1.2 environment: no LocalSizeId,
# so no maintenance4 requirement) into spv/. The .spv files are committed; the runtime embeds
# them, and tests/runtime_shaders.rs fails when one is stale.
set -eu
cd "$(dirname "$0")"
for src in *.comp *.vert *.frag; do
    [ -e "$src" ] || continue
    glslangValidator --quiet --target-env vulkan1.2 -V "$src" -o "spv/$src.spv"
done
